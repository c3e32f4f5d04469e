"""The second-level sections of a parsed record, read on first use.

Most runs (``plan``, a build's analysis) never need sections, and on a
10,000-record log splitting every record into sections would cost more than
parsing it. So :class:`~mkdocs_adr.model.Parsed` keeps only its text, and this
module splits it the first time someone asks, keeping the answer with the
``Parsed`` value (the way :func:`functools.cached_property` does): a record
kept in the parse cache across ``mkdocs serve`` rebuilds is split at most once.
"""

from __future__ import annotations

from ..model import Parsed
from .markdown import h2_sections

#: Where the split sections are kept in a ``Parsed`` value's instance dict.
_MEMO = "_h2_sections"


def sections_of(parsed: Parsed) -> tuple[tuple[str, str], ...]:
    """(name, text) of each second-level section of ``parsed``, in order."""
    memo = vars(parsed)  # a frozen dataclass, but not slotted: it has an instance dict
    found: tuple[tuple[str, str], ...] | None = memo.get(_MEMO)
    if found is None:
        found = memo[_MEMO] = h2_sections(parsed.text)
    return found


def section_of(parsed: Parsed, *names: str) -> str | None:
    """The text of the first section called one of ``names`` (any case), or None."""
    wanted = {n.lower() for n in names}
    for name, text in sections_of(parsed):
        if name.lower() in wanted:
            return text
    return None
