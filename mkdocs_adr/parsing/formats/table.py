"""A Markdown metadata table: ``| **Status** | Accepted |`` rows under the title.

Read only: mkdocs-adr does not write this format (``mkdocs-adr new`` and the
change commands refuse it by name). Every other row is a field, and relations
in any row count (origin ``metadata-table``). A relation row whose value names
no record (``| Superseded by | the new pipeline decision |``) is kept with that
text as its target, so resolving it reports it instead of dropping it.
"""

from __future__ import annotations

import re

from ... import rx
from ...model import Relation
from .. import bounds
from ..markdown import heading_key
from ..status import DECLARED_KINDS, VERBS, relations_in_text
from .base import Context, Format, Hit

ROW = rx.compile(r"^\s*\|\s*\**\s*([^|*]+?)\s*\**\s*\|\s*(.*?)\s*\|?\s*$")
#: Lines that may be a table row (see Document.lines_matching).
CANDIDATE_LINE = rx.compile(r"\n[^\S\n]*\|")
#: A cell that holds nothing: ``-``, ``—``, ``n/a``, ``none``, ``TBD``.
_EMPTY_CELL = rx.compile(r"^(?:[\W_]*|(?i:n/?a|none|nothing|no|nil|null|tbd|tba))$")
_SUCCESSION_VERBS = "|".join(
    sorted((re.escape(v) for v, k in VERBS.items() if k in DECLARED_KINDS), key=len, reverse=True)
)
#: A status cell that names its successor in words: ``Superseded by the new pipeline``.
_STATUS_FREE_TEXT = rx.compile(rf"(?i)^({_SUCCESSION_VERBS})\b\s*:?\s*(\S.*)$")


def detect(ctx: Context) -> Hit | None:
    if "|" not in ctx.doc.text:
        return None  # no table row anywhere
    hit: Hit | None = None
    fields: dict[str, tuple[str, int]] = {}
    relations: list[Relation] = []
    for lineno, text in ctx.doc.lines_matching(CANDIDATE_LINE):
        m = ROW.match(bounds.line(text))
        if not m:
            continue
        key = heading_key(m.group(1).strip("* _"))
        value = m.group(2).strip()
        if key in ctx.status_headings and hit is None:
            hit = Hit("table", value.strip("* "), lineno)
            found = list(relations_in_text(value, "metadata-table", lineno))
            free = _STATUS_FREE_TEXT.match(value.strip("* ")) if not found else None
            if free:
                verb = free.group(1)
                found = _free_text(VERBS[verb.lower()], free.group(2), verb, lineno)
            relations.extend(found)
        elif key:
            fields.setdefault(key, (value, lineno))
            found = list(relations_in_text(f"{key} {value}", "metadata-table", lineno))
            if not found and key in VERBS:
                found = _free_text(VERBS[key], value, m.group(1).strip("* _"), lineno)
            relations.extend(found)
    if hit is None:
        return None
    hit.fields = fields
    hit.relations = relations
    return hit


def _free_text(kind: str, value: str, verb: str, line: int) -> list[Relation]:
    """A relation whose target is the cell's words, unless the cell is empty."""
    text = value.strip().strip("*_").strip().rstrip(".").strip()
    if _EMPTY_CELL.match(text):
        return []
    return [Relation(kind, text, "metadata-table", line, verb=verb)]


FORMAT = Format(
    "table",
    "a metadata table with a Status row (read only)",
    detect=detect,
)
