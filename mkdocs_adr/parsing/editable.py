"""A record's text as editable lines, and line-level frontmatter edits.

The format writers (:mod:`.formats`) edit records through this module, so it
lives in ``parsing/`` beside what they read, below the authoring commands.

Edits are made on lines so that everything the edit does not mean to touch
(comments in frontmatter, quoting, blank lines, prose) keeps its exact bytes.
Line endings and a byte-order mark are kept as the file had them. Anything
this module cannot change without guessing raises :class:`UnsafeEdit`, and
the caller refuses the whole change.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from .. import rx
from .markdown import (
    FRONTMATTER_BLOCK_ITEM,
    FRONTMATTER_KEY,
    YAML_ERRORS,
    continues_value,
    heading_key,
    load_yaml,
    scan,
)

__all__ = ["Editable", "UnsafeEdit", "heading_key", "yaml_scalar"]


class UnsafeEdit(Exception):
    """The record cannot be changed safely; the message says why."""


@dataclass
class Editable:
    """One file's text, split into lines without their line ends."""

    path: str
    lines: list[str]
    newline: str = "\n"
    bom: bool = False
    original: bytes | None = None
    status_headings: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_bytes(cls, path: str, data: bytes, status_headings: frozenset[str]) -> Editable:
        bom = data.startswith(b"\xef\xbb\xbf")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise UnsafeEdit(f"{path} is not valid UTF-8; it is not rewritten") from None
        if "\r" in text:
            if text.count("\r\n") != text.count("\r") or text.count("\r\n") != text.count("\n"):
                raise UnsafeEdit(
                    f"{path} mixes line endings; rewriting it would change lines it does not mean "
                    "to touch"
                )
            newline = "\r\n"
            text = text.replace("\r\n", "\n")
        else:
            newline = "\n"
        if text.endswith("\n"):
            text = text[:-1]
        return cls(path, text.split("\n"), newline, bom, data, status_headings)

    @classmethod
    def new(cls, path: str, text: str, status_headings: frozenset[str]) -> Editable:
        return cls(path, text.rstrip("\n").split("\n"), status_headings=status_headings)

    @property
    def text(self) -> str:
        """The text with LF line ends and a final newline."""
        return "\n".join(self.lines) + "\n"

    def to_bytes(self) -> bytes:
        data = self.text.replace("\n", self.newline).encode("utf-8")
        return (b"\xef\xbb\xbf" + data) if self.bom else data

    @property
    def changed(self) -> bool:
        return self.original is None or self.to_bytes() != self.original

    # ----------------------------------------------------------------- structure

    def headings(self) -> list[tuple[int, int, str]]:
        """(line index, level, text) of every heading outside code fences."""
        doc = scan(self.text)
        return [(h.line - 1, h.level, h.text) for h in doc.headings]

    def section(
        self, names: set[str], level: int | None = None, *, strip_comments: bool = False
    ) -> tuple[int, int] | None:
        """(heading index, end index) of the first heading named one of ``names``.

        The section ends at the next heading of any level, as adr-tools and the
        parser both read a status section.
        """
        heads = self.headings()
        for n, (index, lvl, text) in enumerate(heads):
            if level is not None and lvl != level:
                continue
            if strip_comments:
                text = re.sub(r"<!--.*?-->", "", text)
            if heading_key(text) in names:
                end = heads[n + 1][0] if n + 1 < len(heads) else len(self.lines)
                return index, end
        return None

    def first_h1(self) -> int | None:
        for index, level, _ in self.headings():
            if level == 1:
                return index
        return None

    def append_block(self, block: list[str]) -> None:
        """Add lines at the end of the file, after one blank line."""
        while self.lines and not self.lines[-1].strip():
            self.lines.pop()
        if self.lines:
            self.lines.append("")
        self.lines.extend(block)

    def insert_at_section_end(self, bounds: tuple[int, int], new: list[str], *, gap: bool) -> None:
        """Put ``new`` after the last non-blank line of a section.

        ``gap`` puts a blank line before it (a paragraph of its own, as
        adr-tools writes link lines); without it the lines continue a list.
        A blank line always separates the result from the next heading.
        """
        head, end = bounds
        last = end
        while last > head + 1 and not self.lines[last - 1].strip():
            last -= 1
        block = ([""] if gap or last == head + 1 else []) + new
        if end < len(self.lines):
            block.append("")
        self.lines[last:end] = block

    # ----------------------------------------------------------------- frontmatter

    def frontmatter_bounds(self) -> tuple[int, int] | None:
        """(index of the opening ``---``, index of the closing line)."""
        if not self.lines or self.lines[0].rstrip() != "---":
            return None
        for i in range(1, len(self.lines)):
            if self.lines[i].rstrip() in ("---", "..."):
                return 0, i
        return None

    def _fm(self) -> tuple[int, int]:
        bounds = self.frontmatter_bounds()
        if bounds is None:
            raise UnsafeEdit(f"{self.path} has no closed frontmatter block")
        return bounds

    def fm_key(self, *names: str) -> tuple[str, int, int] | None:
        """(key as written, first line, end line) of the first top-level key found."""
        start, close = self._fm()
        wanted = {n.lower() for n in names}
        for i in range(start + 1, close):
            m = FRONTMATTER_KEY.match(self.lines[i])
            if not m or m.group(1).lower() not in wanted:
                continue
            end = i + 1
            while end < close and continues_value(self.lines[end]):
                end += 1
            return m.group(1), i, end
        return None

    def fm_value(self, key: str, first: int, end: int) -> Any:
        chunk = "\n".join(self.lines[first:end])
        try:
            data = load_yaml(chunk)
        except YAML_ERRORS:
            raise UnsafeEdit(f"{self.path}: frontmatter key '{key}' does not parse") from None
        if not isinstance(data, dict):
            raise UnsafeEdit(f"{self.path}: frontmatter key '{key}' does not parse")
        return data.get(key)

    def fm_set(
        self, key: str, value: str, *, after: tuple[str, ...] = (), date: bool = False
    ) -> None:
        """Set a scalar key, replacing its whole value; insert it when absent.

        ``date`` writes an ISO date bare, as a YAML date, the way MADR writes it.
        """
        rendered = value if date and _ISO_DATE.match(value) else yaml_scalar(value)
        line = f"{key}: {rendered}"
        found = self.fm_key(key)
        if found is not None:
            written, first, end = found
            comment = self._fm_comment(first) if end == first + 1 else ""
            self.lines[first:end] = [f"{written}: {rendered}{comment}"]
        else:
            self._fm_insert(line, after)
        self._fm_check()

    def _fm_comment(self, index: int) -> str:
        """The trailing `` # comment`` of a one-line frontmatter key, kept when its value
        is replaced ("" when it has none)."""
        line = self.lines[index]
        try:
            whole = load_yaml(line)
        except YAML_ERRORS:
            return ""
        at = line.find(" #")
        while at != -1:
            try:
                if load_yaml(line[:at]) == whole:
                    start = len(line[:at].rstrip())
                    return line[start:]
            except YAML_ERRORS:
                pass
            at = line.find(" #", at + 1)
        return ""

    def fm_add_item(self, keys: tuple[str, ...], item: str) -> bool:
        """Add ``item`` to a list key (the first of ``keys`` present, else ``keys[0]``).

        Returns False when the item is already there. Flow lists, block lists,
        a single scalar and an empty value are all extended in their own form.
        """
        found = self.fm_key(*keys)
        if found is None:
            self._fm_insert(f"{keys[0]}: [{yaml_scalar(item)}]", ())
            self._fm_check()
            return True
        written, first, end = found
        value = self.fm_value(written, first, end)
        current = (
            [str(v) for v in value]
            if isinstance(value, list)
            else ([] if value is None else [str(value)])
        )
        if not isinstance(value, (list, str, int, float)) and value is not None:
            raise UnsafeEdit(f"{self.path}: frontmatter key '{written}' is not a list of ids")
        if any(c.strip().lower() == item.lower() for c in current):
            return False
        head = self.lines[first]
        inline = head.split(":", 1)[1].strip()
        if end > first + 1:  # a block list below the key
            items = self.lines[first + 1 : end]
            if not all(FRONTMATTER_BLOCK_ITEM.match(x) or not x.strip() for x in items) or inline:
                raise UnsafeEdit(
                    f"{self.path}: frontmatter key '{written}' has a form that cannot be extended "
                    "safely"
                )
            last = max(i for i in range(first + 1, end) if self.lines[i].strip())
            indent = FRONTMATTER_BLOCK_ITEM.match(self.lines[last])
            assert indent is not None
            self.lines.insert(last + 1, f"{indent.group(1)}- {yaml_scalar(item)}")
        elif inline.startswith("#") or " #" in inline:
            raise UnsafeEdit(
                f"{self.path}: frontmatter key '{written}' carries a comment; edit it by hand"
            )
        else:
            rendered = ", ".join(yaml_scalar(v) for v in [*current, item])
            self.lines[first] = f"{written}: [{rendered}]"
        self._fm_check()
        return True

    def _fm_insert(self, line: str, after: tuple[str, ...]) -> None:
        _, close = self._fm()
        position = close
        for key in after:
            found = self.fm_key(key)
            if found is not None:
                position = found[2]
        self.lines.insert(position, line)

    def _fm_check(self) -> None:
        start, close = self._fm()
        try:
            data = load_yaml("\n".join(self.lines[start + 1 : close]))
        except YAML_ERRORS:
            raise UnsafeEdit(
                f"{self.path}: the frontmatter would not parse after the edit"
            ) from None
        if not isinstance(data, dict):
            raise UnsafeEdit(f"{self.path}: the frontmatter would not parse after the edit")


#: A top-level key: a letter of any script first (``statut``, ``état``, ``状态``) or ``_``.
_ISO_DATE = rx.compile(r"^\d{4}-\d{2}-\d{2}$")
_PLAIN_SAFE = rx.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._/#-]*$")


def yaml_scalar(value: str) -> str:
    """``value`` as a YAML scalar that reads back as the same string."""
    if _PLAIN_SAFE.match(value) and not value.endswith(" ") and " #" not in value:
        try:
            if yaml.safe_load(value) == value:
                return value
        except yaml.YAMLError:
            pass
    return json.dumps(value, ensure_ascii=False)
