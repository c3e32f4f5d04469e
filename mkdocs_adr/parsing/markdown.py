"""A line scan of a Markdown record: frontmatter, headings, sections, links.

This is deliberately not a full Markdown parser. ADR metadata lives in a few
predictable places (frontmatter, headings, the first paragraph of a section,
bullet lists, tables), and a line scan that knows about code fences finds them
quickly and reports line numbers for every finding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

try:  # the C loader is several times faster on large logs
    _YamlLoader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _YamlLoader = yaml.SafeLoader

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
LINK = re.compile(r"(?<!!)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'][^)]*[\"'])?\s*\)")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int  # 1-based line in the original file
    after: int  # index into Document.lines of the first line below the heading


@dataclass(frozen=True)
class Section:
    heading: Heading
    start: int  # index into Document.lines of the first body line
    end: int  # index one past the last body line

    @property
    def name(self) -> str:
        return self.heading.text


@dataclass
class Document:
    """A record's text split into lines with structure marked."""

    text: str
    lines: list[str]
    offset: int  # lines taken by frontmatter (so line numbers stay true)
    frontmatter: dict[str, Any] | None
    frontmatter_error: tuple[str, int] | None
    fenced: list[bool]
    headings: list[Heading] = field(default_factory=list)

    def lineno(self, index: int) -> int:
        return index + self.offset + 1

    def sections(self, level: int | None = None) -> list[Section]:
        """Sections opened by headings (of ``level`` if given) up to the next peer."""
        out: list[Section] = []
        heads = self.headings
        for i, head in enumerate(heads):
            if level is not None and head.level != level:
                continue
            end = len(self.lines)
            for nxt in heads[i + 1 :]:
                if nxt.level <= head.level:
                    end = nxt.line - self.offset - 1
                    break
            out.append(Section(head, head.after, max(end, head.after)))
        return out

    def body(self, section: Section) -> list[tuple[int, str]]:
        """(line number, text) pairs of a section's body, fenced lines left out."""
        return [
            (self.lineno(i), self.lines[i])
            for i in range(section.start, section.end)
            if not self.fenced[i]
        ]

    def section_text(self, section: Section, *, stop_at_subheading: bool = True) -> str:
        lines: list[str] = []
        for i in range(section.start, section.end):
            line = self.lines[i]
            if stop_at_subheading and not self.fenced[i] and _ATX.match(line):
                break
            lines.append(line)
        return "\n".join(lines).strip("\n")

    def unfenced(self) -> list[tuple[int, str]]:
        return [(self.lineno(i), ln) for i, ln in enumerate(self.lines) if not self.fenced[i]]


def split_frontmatter(text: str) -> tuple[str | None, str, int]:
    """Return (yaml text or None, body, lines the frontmatter took)."""
    if not text.startswith("---"):
        return None, text, 0
    first_nl = text.find("\n")
    if first_nl == -1 or text[:first_nl].strip() != "---":
        return None, text, 0
    pos = first_nl + 1
    count = 1
    while True:
        nl = text.find("\n", pos)
        line = text[pos:] if nl == -1 else text[pos:nl]
        count += 1
        if line.rstrip() in ("---", "..."):
            body = "" if nl == -1 else text[nl + 1 :]
            return text[first_nl + 1 : pos], body, count
        if nl == -1:
            return None, text, 0  # never closed: not frontmatter
        pos = nl + 1


def load_frontmatter(raw: str) -> tuple[dict[str, Any] | None, tuple[str, int] | None]:
    try:
        data = yaml.load(raw, Loader=_YamlLoader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, (str(problem), (mark.line + 2) if mark else 1)
    except (ValueError, TypeError, RecursionError) as exc:  # e.g. out-of-range dates
        return None, (str(exc) or type(exc).__name__, 1)
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        return None, (f"frontmatter is a {type(data).__name__}, not a mapping of keys", 2)
    return {str(k).lower(): v for k, v in data.items()}, None


def _mark_fences(lines: list[str]) -> list[bool]:
    """True for lines inside (or delimiting) a closed code fence.

    An opening fence that is never closed hides nothing: real logs contain
    stray fences, and hiding the rest of the file would hide the status.
    """
    fenced = [False] * len(lines)
    i = 0
    n = len(lines)
    while i < n:
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        marker = m.group(1)
        char, size = marker[0], len(marker)
        j = i + 1
        while j < n:
            close = _FENCE.match(lines[j])
            if (
                close
                and close.group(1)[0] == char
                and len(close.group(1)) >= size
                and not lines[j].strip()[len(close.group(1)) :].strip()
            ):
                break
            j += 1
        if j >= n:  # never closed: treat the marker as text
            i += 1
            continue
        for k in range(i, j + 1):
            fenced[k] = True
        i = j + 1
    return fenced


def _clean_heading(text: str) -> str:
    return text.strip().strip("*_").strip()


def scan(text: str) -> Document:
    """Scan normalized (LF) text into a :class:`Document`."""
    raw_fm, body, offset = split_frontmatter(text)
    frontmatter: dict[str, Any] | None = None
    fm_error: tuple[str, int] | None = None
    if raw_fm is not None:
        frontmatter, fm_error = load_frontmatter(raw_fm)
    lines = body.split("\n")
    fenced = _mark_fences(lines)
    doc = Document(text, lines, offset, frontmatter, fm_error, fenced)
    prev_text = ""
    for i, line in enumerate(lines):
        if fenced[i]:
            prev_text = ""
            continue
        m = _ATX.match(line)
        if m:
            title = _clean_heading(m.group(2) or "")
            doc.headings.append(Heading(len(m.group(1)), title, i + offset + 1, i + 1))
            prev_text = ""
            continue
        s = _SETEXT.match(line)
        if s and prev_text and not prev_text.lstrip().startswith(("-", "*", "|", ">")):
            level = 1 if s.group(1).startswith("=") else 2
            doc.headings.append(Heading(level, _clean_heading(prev_text), i + offset, i + 1))
            prev_text = ""
            continue
        prev_text = line if line.strip() else ""
    return doc
