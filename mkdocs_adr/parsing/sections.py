"""The second-level sections of a parsed record, read on first use.

Most runs (``plan``, a build's analysis) never need sections, and on a
10,000-record log splitting every record into sections would cost more than
parsing it. So :class:`~mkdocs_adr.model.Parsed` keeps only its text, and this
module splits it the first time someone asks, keeping the answer with the
``Parsed`` value (the way :func:`functools.cached_property` does): a record
kept in the parse cache across ``mkdocs serve`` rebuilds is split at most once.
"""

from __future__ import annotations

import re

from .. import rx
from ..model import Parsed
from .markdown import h2_sections, scan

#: Where the split sections are kept in a ``Parsed`` value's instance dict.
_MEMO = "_h2_sections"
_DECISION_MEMO = "_decision_section"


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


#: Second-level headings that name a record's decision (compared case-folded, with a
#: leading ``3.`` or ``iv.`` numbering and a trailing colon left out).
DECISION_HEADINGS = frozenset(
    {
        "decision",
        "decisions",
        "decision outcome",
        "the decision",
        "proposal",
        "决策",
        "决定",
        "決策",
        "決定",
        "决策结果",
        "決定事項",
        "결정",
        "decisión",
        "decisao",
        "decisão",
        "décision",
        "entscheidung",
    }
)
_NUMBERING = rx.compile(r"^\s*(?:\d+[.)]|[ivx]+\.)\s*", re.IGNORECASE)


def is_decision_heading(heading: str) -> bool:
    """Whether a second-level heading names the record's decision section."""
    return _NUMBERING.sub("", heading).strip().rstrip(":").strip().casefold() in DECISION_HEADINGS


def decision_of(parsed: Parsed) -> str | None:
    """The text of the record's first decision section (:data:`DECISION_HEADINGS`) with
    its sub-sections, or None when it has none."""
    memo = vars(parsed)
    if _DECISION_MEMO in memo:
        found: str | None = memo[_DECISION_MEMO]
        return found
    found = None
    doc = scan(parsed.text)
    for sec in doc.sections(level=2):
        if is_decision_heading(sec.name):
            found = doc.section_text(sec, stop_at_subheading=False)
            break
    memo[_DECISION_MEMO] = found
    return found
