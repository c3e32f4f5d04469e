"""A Markdown metadata table: ``| **Status** | Accepted |`` rows under the title.

Read only: mkdocs-adr does not write this format (``mkdocs-adr new`` and the
change commands refuse it by name). Every other row is a field, and relations
in any row count (origin ``metadata-table``).
"""

from __future__ import annotations

import re

from ...model import Relation
from ..markdown import heading_key
from ..status import relations_in_text
from .base import Context, Format, Hit

ROW = re.compile(r"^\s*\|\s*\**\s*([^|*]+?)\s*\**\s*\|\s*(.*?)\s*\|?\s*$")
#: Lines that may be a table row (see Document.lines_matching).
CANDIDATE_LINE = re.compile(r"\n[^\S\n]*\|")


def detect(ctx: Context) -> Hit | None:
    if "|" not in ctx.doc.text:
        return None  # no table row anywhere
    hit: Hit | None = None
    fields: dict[str, tuple[str, int]] = {}
    relations: list[Relation] = []
    for lineno, text in ctx.doc.lines_matching(CANDIDATE_LINE):
        m = ROW.match(text)
        if not m:
            continue
        key = heading_key(m.group(1).strip("* _"))
        value = m.group(2).strip()
        if key in ctx.status_headings and hit is None:
            hit = Hit("table", value.strip("* "), lineno)
            relations.extend(relations_in_text(value, "metadata-table", lineno))
        elif key:
            fields.setdefault(key, (value, lineno))
            relations.extend(relations_in_text(f"{key} {value}", "metadata-table", lineno))
    if hit is None:
        return None
    hit.fields = fields
    hit.relations = relations
    return hit


FORMAT = Format(
    "table",
    "a metadata table with a Status row (read only)",
    detect=detect,
)
