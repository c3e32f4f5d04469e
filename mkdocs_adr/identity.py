"""Canonical ids and reference resolution (SPEC 3.3)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .model import Record

_FILE_NUMBER = re.compile(r"^0*(\d{1,6})(?=[-_ .]|$)")
_ID = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)[- ]?0*(\d{1,6})$")
_UNIT = re.compile(r"^(.*?)#([Dd]\d{1,3})$")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
#: The number a link's text gives: "3. Use X" (adr-tools) or "ADR-0003: Use X".
_LINK_TEXT_NUMBER = re.compile(r"^\s*0*(\d{1,6})[.:]")


def file_number(name: str) -> int | None:
    """The number an adr-tools style file name starts with (``0012-x.md`` -> 12)."""
    m = _FILE_NUMBER.match(name)
    return int(m.group(1)) if m else None


def canonical(prefix: str, number: int) -> str:
    return f"{prefix.upper()}-{number:04d}"


def parse_id(text: str) -> tuple[str, int] | None:
    m = _ID.match(text.strip())
    return (m.group(1).upper(), int(m.group(2))) if m else None


@dataclass(frozen=True)
class Resolution:
    """Where a reference points. ``ids`` has one entry when unambiguous."""

    ids: tuple[str, ...] = ()
    unit: str | None = None
    external: bool = False  # a URL or free text: not an ADR
    escapes: bool = False  # a relative link that leaves the project

    @property
    def id(self) -> str | None:
        return self.ids[0] if len(self.ids) == 1 else None


class Resolver:
    """Resolves references written in one record to record ids."""

    def __init__(self, records: Iterable[Record], prefixes: dict[str, str]) -> None:
        self.prefixes = prefixes
        self.by_path: dict[str, Record] = {}
        self.by_id: dict[str, list[Record]] = {}
        self.by_stem: dict[str, list[Record]] = {}
        for rec in records:
            self.by_path[rec.path] = rec
            self.by_id.setdefault(rec.id.upper(), []).append(rec)
            stem = posixpath.basename(rec.path).rsplit(".", 1)[0].lower()
            self.by_stem.setdefault(stem, []).append(rec)
        self._ids_memo: dict[str, tuple[str, ...]] = {}
        self._memo: dict[tuple[str, str], Resolution] = {}

    def _ids(self, key: str) -> tuple[str, ...]:
        key = key.upper()
        found = self._ids_memo.get(key)
        if found is None:
            recs = self.by_id.get(key, [])
            found = self._ids_memo[key] = tuple(sorted({r.id for r in recs})) if recs else ()
        return found

    def resolve(self, ref: str, *, source: Record, label: str = "") -> Resolution:
        # An id, a number or a URL reads the same from every record of a root:
        # remembered, since a log mentions the same few ids over and over.
        prefix = self.prefixes.get(source.root, "ADR")
        found = self._memo.get((ref, prefix))
        if found is not None:
            return found
        resolution, relative = self._resolve(ref, source, label, prefix)
        if not relative:
            self._memo[(ref, prefix)] = resolution
        return resolution

    def _resolve(
        self, ref: str, source: Record, label: str, prefix: str
    ) -> tuple[Resolution, bool]:
        """The resolution, and whether it depends on the referring file and link text."""
        text = ref.strip().strip("<>")
        unit: str | None = None
        m = _UNIT.match(text) if "#" in text else None
        if m and not text.startswith("#"):
            text, unit = m.group(1), m.group(2).upper()
        elif "#" in text:
            # an anchor in the target page (``0004-x.md#context``) is not part of its path
            text = text.split("#", 1)[0]
        if not text:
            return Resolution(external=True), False
        if ":" in text and _URL.match(text):
            return Resolution(external=True), False
        # a link to a file
        if text.lower().endswith((".md", ".markdown")) or "/" in text:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(source.path), text))
            if target.startswith("../") or target == "..":
                return Resolution(escapes=True), True
            rec = self.by_path.get(target)
            if rec is not None:
                return Resolution((rec.id,), unit), True
            name = posixpath.basename(target)
            stem = name.rsplit(".", 1)[0].lower()
            if stem in self.by_stem:
                return Resolution(tuple(sorted({r.id for r in self.by_stem[stem]})), unit), True
            # adr-tools reads the target as the number in the file name; a
            # misspelled name still names its number, and so may the link text
            number = file_number(name)
            if number is None and label:
                number = _label_number(label, prefix)
            if number is not None:
                return Resolution(self._ids(canonical(prefix, number)), unit), True
            return Resolution(()), True
        # an id: ADR-0012, ADR 12, PAY-3, a bare number, or a stem
        parsed = parse_id(text)
        if parsed is not None:
            return Resolution(self._ids(canonical(*parsed)), unit), False
        if text.isdigit():
            return Resolution(self._ids(canonical(prefix, int(text))), unit), False
        if text.lower() in self.by_stem:
            return Resolution(
                tuple(sorted({r.id for r in self.by_stem[text.lower()]})), unit
            ), False
        if text.upper() in self.by_id:
            return Resolution(self._ids(text), unit), False
        # free text ("the payments feature"): not an ADR reference
        return Resolution(external=" " in text or not re.search(r"\d", text)), False


def _label_number(label: str, prefix: str) -> int | None:
    """The record number a link's text names, for links to a misspelled file.

    Only the root's own prefix (``ADR-0004``, ``ADR 4``) or a leading
    ``4.`` counts: words that merely end in digits (``t112``) are not ids.
    """
    m = _LINK_TEXT_NUMBER.match(label)
    if m:
        return int(m.group(1))
    m = re.search(rf"(?<![\w-]){re.escape(prefix)}[- ]?0*(\d{{1,6}})\b", label, re.IGNORECASE)
    return int(m.group(1)) if m else None
