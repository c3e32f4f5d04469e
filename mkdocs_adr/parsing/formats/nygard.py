"""Nygard / adr-tools: a ``## Status`` section holding the status and link lines.

The detector reads the first paragraph of the status section as the status
(``Accepted``, ``Superseded by [3. Use X](0003-use-x.md)``) and the
``Verb [N. Title](file.md)`` link lines after it as relations; a section that
holds only link lines (what ``adr new -s`` leaves behind) says so in the hit.
The writer edits the record the way adr-tools does: link lines at the end of
the status section, and for a supersession the status word replaced by
``Superseded by [..](..)``. Both sides tell a link line by
:func:`~mkdocs_adr.parsing.status.link_line_parts`, the pattern adr-tools itself uses.
"""

from __future__ import annotations

from ... import rx
from ...model import Relation
from .. import bounds
from ..editable import Editable, UnsafeEdit
from ..markdown import Document, Section, heading_key
from ..status import (
    VERB_PHRASE,
    declaration,
    is_guidance,
    link_line_parts,
    relation_line,
    relations_in_text,
)
from .base import Context, Format, Hit, Ref, Writer, capitalized

#: ``Date: 2024-01-01`` under the title, as the writer replaces its value.
FIELD_EDIT = rx.compile(r"^(?P<pre>\s*\**(?P<key>[A-Za-z][A-Za-z \-]*?)\**\s*:\s*)(?P<val>.*)$")
_STATUS_LABEL = rx.compile(r"^(?:[-*+]\s+)?(?i:status)\s*[:：]\s*")
_BULLET = rx.compile(r"^[-*+]\s+")
_CLAUSE_END = rx.compile(r"[.。!?！？]\s|[(（]|[.。]$")
_LINK_SPAN = rx.compile(r"\[(?:[^\[\]]++|\[[^\]]*+\])*+\]\([^)]*+\)")


def detect(ctx: Context) -> Hit | None:
    doc = ctx.doc
    headed = doc.keyed_sections(ctx.status_headings)
    if not headed:
        return None
    hit = _read(doc, headed[0][0])
    # a bilingual (or pasted twice) record: each further half under its own H1
    # has its own status section; its relations count, its status is compared,
    # and the first half that states a status gives the record's
    halves = [_read(doc, sec) for sec in _other_halves(doc, [sec for sec, _key in headed])]
    if halves and not hit.raw:
        stated = next((h for h in halves if h.raw), None)
        if stated is not None:
            halves = [hit, *(h for h in halves if h is not stated)]
            hit = stated
    for half in halves:
        hit.relations.extend(half.relations)
        hit.halves.append(half)
    return hit


def _other_halves(doc: Document, sections: list[Section]) -> list[Section]:
    """The first status section under each H1 after the one the first belongs to."""
    h1s = [h.line for h in doc.headings if h.level == 1]
    if len(h1s) < 2 or len(sections) < 2:
        return []
    level = sections[0].heading.level

    def half(sec: Section) -> int:
        return sum(1 for line in h1s if line < sec.heading.line)

    seen = {half(sections[0])}
    out: list[Section] = []
    for sec in sections[1:]:
        index = half(sec)
        if sec.heading.level == level and index not in seen:
            seen.add(index)
            out.append(sec)
    return out


def _read(doc: Document, section: Section) -> Hit:
    """The status paragraph and relation lines of one status section."""
    body = doc.body(section)
    # stop at the next heading of any level: sub-headings are not the status
    lines: list[tuple[int, str]] = []
    for lineno, text in body:
        if text.lstrip().startswith("#"):
            break
        lines.append((lineno, text))
    para, rest = _paragraph(lines)
    # a template's guidance ("> A decision may be 'proposed' if ...") above the status
    while rest and para and is_guidance(" ".join(t.strip() for _, t in para)):
        following, after = _paragraph(rest)
        if not following:
            break
        para, rest = following, after
    hit = Hit("nygard", "", section.heading.line)
    for index, (lineno, text) in enumerate(rest):
        if text.strip() and not declaration(rest, index)[0]:
            hit.relations.extend(relation_line(text, "status-section", lineno))
    if not para:
        return hit  # a Status heading with nothing under it: "missing"
    # The paragraph is split per line: the status, then relation lines
    # ("Accepted" / "Partially supersedes [ADR 18](adr-18.md)"), each relation
    # with its own line; a declaration ("This ADR is superseded by") keeps its
    # origin. A line that states no relation continues the status.
    status_lines: list[tuple[int, str]] = []
    first: list[Relation] = []  # the relations the status line states, if it states only those
    later: list[Relation] = []
    only_relations = True
    index = 0
    while index < len(para):
        lineno, text = para[index]
        declared, taken = declaration(para, index)
        if declared:
            later.extend(declared)
            index += taken
            continue
        found = relation_line(text, "status-section", lineno)
        only_relations = only_relations and bool(found)
        if found and status_lines:
            later.extend(found)
        else:
            if not status_lines:
                first = found
            status_lines.append((lineno, text))
        index += 1
    hit.links_only = only_relations
    if status_lines:
        raw = " ".join(t.strip() for _, t in status_lines)
        raw = _BULLET.sub("", _STATUS_LABEL.sub("", raw.strip()))
        hit.line = status_lines[0][0]
        # Relations in the status value itself ("accepted; supersedes ADR-0045",
        # "Superseded by [..](..)") are authoritative; prose later in the same
        # sentence ("It extends ADR 0065") is only a mention.
        clause = status_clause(raw)
        hit.relations.extend(relations_in_text(clause, "status-section", hit.line))
        # a later sentence that opens with its verb, the subject left out ("Accepted.
        # Supersedes [1. X](..) and [2. Y](..)", wrapped over lines or not) is the
        # record's own; one with a subject ("It extends ADR 0065") stays prose
        hit.relations.extend(_verb_first_sentences(raw[len(clause) :], hit.line))
        if hit.links_only:
            # only relation lines where the status was (adr-tools after `new -s`,
            # "被 ADR-045 取代"): their relations, with any verb
            hit.relations.extend(
                r for r in first if not any(o.target == r.target for o in hit.relations)
            )
    else:  # only a declaration where the status was
        raw, hit.line = para[0][1].strip(), para[0][0]
    hit.relations.extend(later)
    hit.raw = raw
    return hit


def _paragraph(
    lines: list[tuple[int, str]],
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The first paragraph of ``lines`` and the lines after it."""
    para: list[tuple[int, str]] = []
    for i, (_lineno, text) in enumerate(lines):
        if not text.strip():
            if para:
                return para, lines[i + 1 :]
            continue
        para.append(lines[i])
    return para, []


def _verb_first_sentences(rest: str, line: int | None) -> list[Relation]:
    """The relations of the sentences of ``rest`` (a status after its first sentence)
    that open with a relation's verb and its references (:data:`VERB_PHRASE`)."""
    if len(rest) < 4:
        return []
    rest = bounds.line(rest)
    masked = _LINK_SPAN.sub(lambda m: "x" * len(m.group(0)), rest)
    out: list[Relation] = []
    for start in (0, *(m.end() for m in _SENTENCE_GAP.finditer(masked))):
        lead = _SENTENCE_LEAD.match(rest, start)  # (it always matches: all its parts are optional)
        opening = VERB_PHRASE.match(rest, lead.end() if lead else start)
        if opening is not None:
            out.extend(relations_in_text(opening.group(0), "status-section", line))
    return out


#: Where a sentence of a status ends and the next starts; what may open the next.
_SENTENCE_GAP = rx.compile(r"[.;。!?！？]\s+")
_SENTENCE_LEAD = rx.compile(r"[\s.;,:*_]*")


def status_clause(raw: str) -> str:
    """The status value up to the end of its first sentence (links kept whole), in
    its first :data:`..bounds.LINE` characters."""
    raw = bounds.line(raw)
    masked = _LINK_SPAN.sub(lambda m: "x" * len(m.group(0)), raw)
    m = _CLAUSE_END.search(masked)
    return raw[: m.start()] if m else raw


class NygardWriter(Writer):
    style = "nygard"

    def status_word(self, status: str) -> str:
        return capitalized(status)

    def set_title(self, ed: Editable, title: str, number: int | None, rid: str) -> None:
        super().set_title(ed, f"{number}. {title}" if number is not None else title, number, rid)

    def _status(self, ed: Editable) -> tuple[int, int]:
        bounds = ed.section(set(ed.status_headings))
        if bounds is None:
            raise UnsafeEdit(f"{ed.path} has no status section")
        return bounds

    def _paragraph(self, ed: Editable) -> tuple[int, int] | None:
        """Line range of the status paragraph (the first one in the section)."""
        head, end = self._status(ed)
        found: tuple[int, int] | None = None
        i = head + 1
        while True:
            while i < end and not ed.lines[i].strip():
                i += 1
            if i >= end:
                return found
            j = i
            while j < end and ed.lines[j].strip():
                j += 1
            found = i, j
            # skip a template's guidance above the status, as the reader does
            if not is_guidance(" ".join(ed.lines[i:j])):
                return found
            i = j

    def set_status(self, ed: Editable, status: str) -> None:
        word = capitalized(status)
        para = self._paragraph(ed)
        if para is None:
            ed.insert_at_section_end(self._status(ed), [word], gap=True)
        else:
            ed.lines[para[0] : para[1]] = [word]

    def _field(self, ed: Editable, name: str) -> int | None:
        limit = next((i for i, level, _ in ed.headings() if level == 2), len(ed.lines))
        for i in range(min(limit, len(ed.lines))):
            m = FIELD_EDIT.match(ed.lines[i])
            if m and heading_key(m.group("key")) == name and not ed.lines[i].startswith("#"):
                return i
        return None

    def _set_field(self, ed: Editable, name: str, label: str, value: str, after: str) -> None:
        index = self._field(ed, name)
        if index is not None:
            m = FIELD_EDIT.match(ed.lines[index])
            assert m is not None
            ed.lines[index] = m.group("pre") + value
            return
        anchor = self._field(ed, after)
        if anchor is not None:
            ed.lines.insert(anchor + 1, f"{label}: {value}")
            return
        h1 = ed.first_h1()
        at = (h1 + 1) if h1 is not None else 0
        ed.lines[at:at] = ["", f"{label}: {value}"]

    def set_date(self, ed: Editable, date: str) -> None:
        self._set_field(ed, "date", "Date", date, after="")

    def set_review_by(self, ed: Editable, date: str) -> None:
        self._set_field(ed, "review by", "Review by", date, after="date")

    def add_relation(self, ed: Editable, kind: str, verb: str, ref: Ref) -> None:
        line = f"{capitalized(verb)} {ref.link(ed.path, ref.heading)}"
        ed.insert_at_section_end(self._status(ed), [line], gap=True)

    def change_status(self, ed: Editable, word: str) -> None:
        para = self._paragraph(ed)
        if para is None:
            ed.insert_at_section_end(self._status(ed), [word], gap=True)
            return
        start, stop = para
        if all(link_line_parts(w) is not None for w in ed.lines[start:stop]):
            # only link lines where the status was: the word goes before them
            ed.lines[start:start] = [word, ""]
            return
        if stop - start > 1:
            raise UnsafeEdit(
                f"{ed.path}:{start + 1}: the status paragraph spans {stop - start} lines; "
                f"mkdocs-adr only replaces a one-line status. Replace it by hand with '{word}'"
            )
        ed.lines[start] = word

    def mark_deprecated(self, ed: Editable, ref: Ref, word: str) -> None:
        self._replace_status(ed, f"{word} by {ref.link(ed.path, ref.heading)}", linked=False)

    def mark_superseded(self, ed: Editable, ref: Ref, *, linked: bool) -> None:
        self._replace_status(ed, f"Superseded by {ref.link(ed.path, ref.heading)}", linked=linked)

    def _replace_status(self, ed: Editable, line: str, *, linked: bool) -> None:
        para = self._paragraph(ed)
        if para is None:
            ed.insert_at_section_end(self._status(ed), [line], gap=True)
            return
        start, stop = para
        words = ed.lines[start:stop]
        if all(link_line_parts(w) is not None for w in words):
            # only link lines where the status was (adr-tools after `new -s`)
            if not linked:
                ed.insert_at_section_end(self._status(ed), [line], gap=True)
            return
        if stop - start > 1:
            raise UnsafeEdit(
                f"{ed.path}:{start + 1}: the status paragraph spans {stop - start} lines; "
                "mkdocs-adr only replaces a one-line status. Replace it by hand with "
                f"'{line}'"
            )
        if linked:
            # the link line is already in the section: drop the status word, as
            # adr-tools' _adr_remove_status does, and the blank line after it
            end = stop + 1 if stop < len(ed.lines) and not ed.lines[stop].strip() else stop
            del ed.lines[start:end]
        else:
            ed.lines[start] = line


TEMPLATE = """\
# NUMBER. TITLE

Date: DATE

## Status

STATUS

## Context

What is the situation that calls for a decision? State the forces at play.

## Decision

What we decided, in full sentences: "We will ...".

## Consequences

What becomes easier or harder because of this decision, and what we must now watch.
"""

FORMAT = Format(
    "nygard",
    "Nygard / adr-tools: a '## Status' section with the status and link lines",
    detect=detect,
    forced=("nygard", "inline"),
    writer=NygardWriter(),
    template=TEMPLATE,
    keeps_wording=True,
    date_from_status=True,
)
