"""MADR 2: ``* Status: accepted`` bullets under the title and a ``## Links`` list.

The detector reads the bullet list's fields (``Deciders``, ``Date``, ``Tags``);
log4brains (:mod:`.log4brains`) claims the ``-`` lists of date-slug files.
The writer changes the status bullet (``superseded by [ADR-0005](0005-x.md)``)
and adds relations to the ``## Links`` list. Reading and writing find a bullet
field with the same pattern; the writer's form also keeps a trailing comment.
"""

from __future__ import annotations

import re

from .. import bounds
from ..common import first_h2
from ..editable import Editable, UnsafeEdit
from ..markdown import heading_key
from ..status import relations_in_text
from . import inline
from .base import Context, Format, Hit, Ref, Writer, capitalized

#: ``- key:`` or ``* **Key**:`` up to the colon: marker and key, as both sides read them.
_FIELD_KEY = r"\s*(?P<marker>[-*+])\s+\**(?P<key>[A-Za-z][A-Za-z \-]*?)\**\s*:"
#: A bullet field as the reader takes it: marker, key, value (bold and spaces stripped).
FIELD = re.compile(rf"^{_FIELD_KEY}\s*\**\s*(?P<val>.*?)\s*$")
#: A bullet field as the writer replaces it: ``pre`` kept, ``val`` replaced, ``post``
#: (a trailing ``<!-- comment -->``) kept.
FIELD_EDIT = re.compile(rf"^(?P<pre>{_FIELD_KEY}\s*)(?P<val>.*?)(?P<post>\s*<!--.*-->)?\s*$")
#: Lines that may be a ``- key: value`` bullet (see Document.lines_matching).
CANDIDATE_LINE = re.compile(r"\n[^\S\n]*[-*+][^\n]*:")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def detect(ctx: Context) -> Hit | None:
    if ":" not in ctx.doc.text:
        return None  # no "key: value" anywhere
    hit: Hit | None = None
    fields: dict[str, tuple[str, int]] = {}
    for lineno, text in ctx.doc.lines_matching(CANDIDATE_LINE):
        m = FIELD.match(bounds.line(text))
        if not m:
            continue
        key = heading_key(m.group(2))
        if key in ctx.status_headings:
            if hit is None:
                hit = Hit("madr2", m.group(3), lineno, marker=m.group(1))
                hit.relations.extend(relations_in_text(m.group(3), "status-section", lineno))
            continue
        fields.setdefault(key, (m.group(3), lineno))
    if hit is None or _stated_elsewhere(ctx, hit.line):
        return None
    hit.fields = fields
    return hit


def _stated_elsewhere(ctx: Context, line: int | None) -> bool:
    """Whether a status bullet deep in the body (after the first section heading) gives
    way to the record's own status: a status section it is not in (``## Status`` /
    ``Accepted``, read by :mod:`.nygard`), or a status line under the title (:mod:`.inline`).
    Such a bullet describes a part (``- Proxy`` / ``- **Status**: deployed``), not the
    record. A bullet under the title is MADR 2's own field and always counts."""
    doc = ctx.doc
    limit = first_h2(doc)
    if line is None or limit is None or line < limit:
        return False  # (the usual MADR 2 record: its bullets under the title)
    base = doc.offset + 1
    for sec, _key in doc.keyed_sections(ctx.status_headings):
        if not sec.start + base <= line < sec.end + base:
            return True
    return inline.detect(ctx) is not None


class BulletWriter(Writer):
    style = "madr2"

    def _find(self, ed: Editable, names: set[str]) -> int | None:
        fenced = _fenced_lines(ed)
        for i, text in enumerate(ed.lines):
            if i in fenced:
                continue
            m = FIELD_EDIT.match(text)
            if m and heading_key(m.group("key")) in names:
                return i
        return None

    def _status_line(self, ed: Editable) -> int:
        index = self._find(ed, set(ed.status_headings))
        if index is None:
            raise UnsafeEdit(f"{ed.path} has no '* Status:' line")
        return index

    def _marker(self, ed: Editable) -> str:
        m = FIELD_EDIT.match(ed.lines[self._status_line(ed)])
        return m.group("marker") if m else "*"

    def _replace(self, ed: Editable, index: int, value: str) -> None:
        m = FIELD_EDIT.match(ed.lines[index])
        assert m is not None
        ed.lines[index] = m.group("pre") + value + (m.group("post") or "")

    def _set(self, ed: Editable, names: set[str], label: str, value: str, after: list[str]) -> None:
        index = self._find(ed, names)
        if index is not None:
            self._replace(ed, index, value)
            return
        anchor = self._status_line(ed)
        for name in after:
            found = self._find(ed, {name})
            if found is not None:
                anchor = found
        ed.lines.insert(anchor + 1, f"{self._marker(ed)} {label}: {value}")

    def set_status(self, ed: Editable, status: str) -> None:
        self._replace(ed, self._status_line(ed), status)

    def set_date(self, ed: Editable, date: str) -> None:
        self._set(ed, {"date"}, "Date", date, [])

    def set_review_by(self, ed: Editable, date: str) -> None:
        self._set(ed, {"review by", "review-by"}, "Review by", date, ["deciders", "date"])

    def add_relation(self, ed: Editable, kind: str, verb: str, ref: Ref) -> None:
        line = f"{self._marker(ed)} {capitalized(verb)} {ref.link(ed.path, ref.id)}"
        bounds = ed.section({"links"}, level=2)
        if bounds is None and ed.original is None:
            # a new record from MADR's template: its "## Links <!-- optional -->"
            # holds only placeholders, and the comment hides it from readers
            bounds = ed.section({"links"}, level=2, strip_comments=True)
            if bounds is not None:
                head, end = bounds
                ed.lines[head:end] = ["## Links", "", line] + ([""] if end < len(ed.lines) else [])
                return
        if bounds is None:
            ed.append_block(["## Links", "", line])
        else:
            ed.insert_at_section_end(bounds, [line], gap=False)

    def mark_superseded(self, ed: Editable, ref: Ref, *, linked: bool) -> None:
        self._replace(ed, self._status_line(ed), f"superseded by {ref.link(ed.path, ref.id)}")

    def mark_deprecated(self, ed: Editable, ref: Ref, word: str) -> None:
        self._replace(ed, self._status_line(ed), f"{word} by {ref.link(ed.path, ref.id)}")


def _fenced_lines(ed: Editable) -> set[int]:
    out: set[int] = set()
    fence: str | None = None
    for i, line in enumerate(ed.lines):
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)[0] * len(m.group(1))
            out.add(i)
        elif fence is not None:
            out.add(i)
            if line.strip().startswith(fence):
                fence = None
    return out


TEMPLATE = """\
# TITLE

* Status: STATUS
* Date: DATE

## Context and Problem Statement

What is the problem, and why does it need a decision now?

## Considered Options

* Option 1
* Option 2

## Decision Outcome

Chosen option: "Option 1", because ...
"""

FORMAT = Format(
    "madr2",
    "MADR 2: '* Status:' bullets under the title and a '## Links' list",
    detect=detect,
    forced=("madr2",),
    writer=BulletWriter(),
    template=TEMPLATE,
    keeps_wording=True,
)
