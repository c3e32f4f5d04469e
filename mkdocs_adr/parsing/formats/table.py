"""A Markdown metadata table: ``| **Status** | Accepted |`` rows under the title.

The keys may also be the table's header row and the values the row below it
(``| Status | Date |``, ``|---|---|``, ``| Accepted | 2025-01-07 |``): see
:func:`header_row_fields`.

A row of more than two cells is no field: ``| Status | Description | Next status |``
heads a table of the body (a record about a workflow's states), not a status row.

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
from ..dates import DATE_KEYS
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


#: A table's delimiter row: ``|---|:---:|``, ``--- | ---``.
_DELIMITER = rx.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$")
#: Header cells that name a field, never a status: with a status cell beside one, a
#: header row holds the keys and the row below it the values.
_HEADER_KEYS = frozenset(DATE_KEYS) | {
    "author",
    "authors",
    "author(s)",
    "deciders",
    "decision-makers",
    "decision makers",
    "owner",
    "owners",
    "owner(s)",
}


def _cells(line: str) -> list[str]:
    """The cells of a table row, outer pipes dropped."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    return [cell.strip() for cell in body.split("|")]


def header_row_fields(ctx: Context, lineno: int) -> list[tuple[str, str, str]] | None:
    """The (key, key as written, value) of each column when the row at ``lineno`` is a
    header of keys and the row below its delimiter the values; None for any other row.

    A header row is one whose cells include a status heading and a field that is never
    a status (a date or its authors): ``| Status | Date |`` over ``| Accepted | 2025-01-07 |``.
    ``| Status | Accepted |`` over ``|---|---|`` is a key-value table whose first pair is
    the header, and stays one.
    """
    doc = ctx.doc
    index = lineno - doc.offset - 1
    if index + 2 >= len(doc.lines) or doc.fenced[index + 1] or doc.fenced[index + 2]:
        return None
    if not _DELIMITER.match(bounds.line(doc.lines[index + 1])):
        return None
    head = _cells(bounds.line(doc.lines[index]))
    keys = [heading_key(cell.strip("* _")) for cell in head]
    if ctx.status_headings.isdisjoint(keys) or _HEADER_KEYS.isdisjoint(keys):
        return None
    row = bounds.line(doc.lines[index + 2])
    if not row.lstrip().startswith("|"):
        return None
    values = _cells(row)
    return [
        (key, cell.strip("* _"), value)
        for key, cell, value in zip(keys, head, values, strict=False)
        if key
    ]


def _is_key(ctx: Context, cell: str) -> bool:
    """Whether a cell names a key: a status heading or a field that is never a status."""
    key = heading_key(cell.strip("* _"))
    return key in _HEADER_KEYS or key in ctx.status_headings


def detect(ctx: Context) -> Hit | None:
    if "|" not in ctx.doc.text:
        return None  # no table row anywhere
    hit: Hit | None = None
    fields: dict[str, tuple[str, int]] = {}
    relations: list[Relation] = []
    values_row = 0  # the value row of a header-row table, read with its header
    for lineno, text in ctx.doc.lines_matching(CANDIDATE_LINE):
        if lineno == values_row:
            continue
        m = ROW.match(bounds.line(text))
        if not m:
            continue
        key = heading_key(m.group(1).strip("* _"))
        value = m.group(2).strip()
        # (two columns too: ``| Status | Date |`` over ``| Accepted | 2020-05-17 |``,
        # the value cell itself a key)
        columns = (
            header_row_fields(ctx, lineno)
            if hit is None and ("|" in value or _is_key(ctx, value))
            else None
        )
        if columns is not None:
            values_row = lineno + 2
            hit = _read_columns(ctx, columns, values_row, fields, relations)
        elif key in ctx.status_headings and hit is None and "|" not in value:
            hit = Hit("table", value.strip("* "), lineno)
            relations.extend(_status_relations(value, lineno))
        elif key and "|" not in value:
            fields.setdefault(key, (value, lineno))
            relations.extend(_field_relations(key, m.group(1).strip("* _"), value, lineno))
    if hit is None:
        return None
    hit.fields = fields
    hit.relations = relations
    return hit


def _read_columns(
    ctx: Context,
    columns: list[tuple[str, str, str]],
    lineno: int,
    fields: dict[str, tuple[str, int]],
    relations: list[Relation],
) -> Hit | None:
    """The status hit, fields and relations of a header-row table's value row."""
    hit: Hit | None = None
    for key, written, value in columns:
        if key in ctx.status_headings and hit is None:
            hit = Hit("table", value.strip("* "), lineno)
            relations.extend(_status_relations(value, lineno))
        elif key not in ctx.status_headings:
            fields.setdefault(key, (value, lineno))
            relations.extend(_field_relations(key, written, value, lineno))
    return hit


def _status_relations(value: str, lineno: int) -> list[Relation]:
    """The relations of a status cell: its references, or a successor named in words."""
    found = list(relations_in_text(value, "metadata-table", lineno))
    free = _STATUS_FREE_TEXT.match(value.strip("* ")) if not found else None
    if free:
        verb = free.group(1)
        found = _free_text(VERBS[verb.lower()], free.group(2), verb, lineno)
    return found


def _field_relations(key: str, written: str, value: str, lineno: int) -> list[Relation]:
    """The relations of a field cell (``| Supersedes | ADR-0003 |``), by its key."""
    found = list(relations_in_text(f"{key} {value}", "metadata-table", lineno))
    if not found and key in VERBS:
        found = _free_text(VERBS[key], value, written, lineno)
    return found


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
