"""Per-style writers: each changes a record the way its own tools would.

- ``nygard`` (adr-tools): link lines ``Verb [N. Title](file.md)`` at the end of
  the ``## Status`` section, and for a supersession the status word replaced by
  ``Superseded by [..](..)`` (what ``adr new -s`` leaves behind).
- ``madr2`` and ``log4brains``: the ``* Status:`` bullet
  (``superseded by [ADR-0005](0005-x.md)``) and a ``## Links`` list.
- ``madr`` (MADR 3/4): ``status: "superseded by [ADR-0005](0005-x.md)"`` in
  the frontmatter; other relations as frontmatter lists, since MADR has no field
  for them and the engine reads those keys in any frontmatter.
- ``frontmatter`` (ours): ``status`` and the relation keys as lists of ids.

Writers only edit text. Which edits to make, and whether the result reads back
as intended, is decided by :mod:`.core`.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from ..parsing.status import FRONTMATTER_KEYS
from .text import Editable, UnsafeEdit, heading_key

#: Styles mkdocs-adr can write; every other style is refused with its name.
WRITABLE = ("nygard", "madr2", "madr", "log4brains", "frontmatter")

#: Frontmatter keys per relation kind, the spelling we insert first.
KEYS: dict[str, tuple[str, ...]] = {}
for _key, _kind in FRONTMATTER_KEYS.items():
    KEYS.setdefault(_kind, ())
    KEYS[_kind] = (*KEYS[_kind], _key)

_BULLET = re.compile(
    r"^(?P<pre>\s*(?P<marker>[-*+])\s+\**(?P<key>[A-Za-z][A-Za-z \-]*?)\**\s*:\s*)"
    r"(?P<val>.*?)(?P<post>\s*<!--.*-->)?\s*$"
)
_NYGARD_FIELD = re.compile(r"^(?P<pre>\s*\**(?P<key>[A-Za-z][A-Za-z \-]*?)\**\s*:\s*)(?P<val>.*)$")
_LINK_LINE = re.compile(r"^\s*(?:[-*+]\s+)?[^\[\]]+?\s*:?\s+\[.*\]\(.*\)")
_ID_HEADING = re.compile(r"^[A-Za-z][A-Za-z0-9_]*-\d+\b")


@dataclass(frozen=True)
class Ref:
    """A record as other records point at it."""

    id: str
    path: str  # project-relative, POSIX
    title: str
    heading: str  # adr-tools' label: the record's first heading, e.g. "8. Use X"
    numbered: bool  # False for log4brains-style records, whose id is the file stem

    def href(self, source: str) -> str:
        return posixpath.relpath(self.path, posixpath.dirname(source) or ".")

    def key(self, source: str) -> str:
        """What a frontmatter list holds: the id, or a relative link when unnumbered."""
        return self.id if self.numbered else self.href(source)

    def link(self, source: str, label: str) -> str:
        label = label.replace("[", "(").replace("]", ")")
        return f"[{label}]({self.href(source)})"


def capitalized(verb: str) -> str:
    verb = verb.strip()
    return verb[:1].upper() + verb[1:]


class Writer:
    style = ""

    def set_title(self, ed: Editable, title: str, number: int | None, rid: str) -> None:
        line = f"# {title}"
        index = ed.first_h1()
        if index is None:
            start = ed.frontmatter_bounds()
            at = start[1] + 1 if start else 0
            ed.lines[at:at] = [line, ""]
        else:
            ed.lines[index] = line

    def set_status(self, ed: Editable, status: str) -> None:
        raise NotImplementedError

    def set_date(self, ed: Editable, date: str) -> None:
        raise NotImplementedError

    def set_review_by(self, ed: Editable, date: str) -> None:
        raise NotImplementedError

    def set_id(self, ed: Editable, rid: str) -> None:
        """Only frontmatter styles keep an id inside the file."""

    def add_relation(self, ed: Editable, kind: str, verb: str, ref: Ref) -> None:
        raise NotImplementedError

    def mark_superseded(self, ed: Editable, ref: Ref, *, linked: bool) -> None:
        """Make the status say "superseded by ``ref``".

        ``linked`` says the record already states the relation (from an earlier
        supersession by a then-proposed record), so only the status changes.
        """
        raise NotImplementedError


# --------------------------------------------------------------------- Nygard / adr-tools


class NygardWriter(Writer):
    style = "nygard"

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
        i = head + 1
        while i < end and not ed.lines[i].strip():
            i += 1
        if i >= end:
            return None
        j = i
        while j < end and ed.lines[j].strip():
            j += 1
        return i, j

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
            m = _NYGARD_FIELD.match(ed.lines[i])
            if m and heading_key(m.group("key")) == name and not ed.lines[i].startswith("#"):
                return i
        return None

    def _set_field(self, ed: Editable, name: str, label: str, value: str, after: str) -> None:
        index = self._field(ed, name)
        if index is not None:
            m = _NYGARD_FIELD.match(ed.lines[index])
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

    def mark_superseded(self, ed: Editable, ref: Ref, *, linked: bool) -> None:
        line = f"Superseded by {ref.link(ed.path, ref.heading)}"
        para = self._paragraph(ed)
        if para is None:
            ed.insert_at_section_end(self._status(ed), [line], gap=True)
            return
        start, stop = para
        words = ed.lines[start:stop]
        if all(_LINK_LINE.match(w) for w in words):
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


# --------------------------------------------------------------------- MADR 2 / log4brains


class BulletWriter(Writer):
    style = "madr2"

    def _find(self, ed: Editable, names: set[str]) -> int | None:
        fenced = _fenced_lines(ed)
        for i, text in enumerate(ed.lines):
            if i in fenced:
                continue
            m = _BULLET.match(text)
            if m and heading_key(m.group("key")) in names:
                return i
        return None

    def _status_line(self, ed: Editable) -> int:
        index = self._find(ed, set(ed.status_headings))
        if index is None:
            raise UnsafeEdit(f"{ed.path} has no '* Status:' line")
        return index

    def _marker(self, ed: Editable) -> str:
        m = _BULLET.match(ed.lines[self._status_line(ed)])
        return m.group("marker") if m else "*"

    def _replace(self, ed: Editable, index: int, value: str) -> None:
        m = _BULLET.match(ed.lines[index])
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


class Log4brainsWriter(BulletWriter):
    style = "log4brains"


# --------------------------------------------------------------------- frontmatter


class MadrWriter(Writer):
    """MADR 3/4: status and date in the frontmatter, title in the heading."""

    style = "madr"

    def set_title(self, ed: Editable, title: str, number: int | None, rid: str) -> None:
        super().set_title(ed, title, number, rid)
        if ed.fm_key("title") is not None:
            ed.fm_set("title", title)

    def set_status(self, ed: Editable, status: str) -> None:
        ed.fm_set("status", status)

    def set_date(self, ed: Editable, date: str) -> None:
        ed.fm_set("date", date, after=("status",), date=True)

    def set_review_by(self, ed: Editable, date: str) -> None:
        ed.fm_set("review-by", date, after=("status", "date"), date=True)

    def add_relation(self, ed: Editable, kind: str, verb: str, ref: Ref) -> None:
        keys = KEYS.get(kind)
        if not keys:
            raise UnsafeEdit(f"{ed.path}: frontmatter has no key for '{kind}'")
        ed.fm_add_item(keys, ref.key(ed.path))

    def mark_superseded(self, ed: Editable, ref: Ref, *, linked: bool) -> None:
        ed.fm_set("status", f"superseded by {ref.link(ed.path, ref.id)}")


class FrontmatterWriter(MadrWriter):
    """Our generic frontmatter: ``status: superseded`` plus ``superseded-by`` ids."""

    style = "frontmatter"

    def set_title(self, ed: Editable, title: str, number: int | None, rid: str) -> None:
        index = ed.first_h1()
        with_id = index is not None and bool(_ID_HEADING.match(ed.lines[index][2:].strip()))
        Writer.set_title(self, ed, f"{rid}: {title}" if with_id else title, number, rid)
        ed.fm_set("title", title, after=("id",))

    def set_id(self, ed: Editable, rid: str) -> None:
        if ed.fm_key("id") is not None:
            ed.fm_set("id", rid)

    def mark_superseded(self, ed: Editable, ref: Ref, *, linked: bool) -> None:
        ed.fm_set("status", "superseded")
        if not linked:
            ed.fm_add_item(KEYS["superseded-by"], ref.key(ed.path))


WRITERS: dict[str, Writer] = {
    w.style: w
    for w in (NygardWriter(), BulletWriter(), Log4brainsWriter(), MadrWriter(), FrontmatterWriter())
}


def writer_for(style: str) -> Writer | None:
    return WRITERS.get(style)


def _fenced_lines(ed: Editable) -> set[int]:
    out: set[int] = set()
    fence: str | None = None
    for i, line in enumerate(ed.lines):
        m = re.match(r"^ {0,3}(`{3,}|~{3,})", line)
        if fence is None and m:
            fence = m.group(1)[0] * len(m.group(1))
            out.add(i)
        elif fence is not None:
            out.add(i)
            if line.strip().startswith(fence):
                fence = None
    return out
