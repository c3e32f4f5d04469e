"""Relative links in Markdown pages: find them, resolve them, rewrite them. Pure.

Moving a record means rewriting every relative link to it (inbound) and every
relative link in it (outbound), in records, mirrors and ordinary pages. This
module finds those links the way MkDocs' renderer (Python-Markdown) would see
them, and edits only the destination: link text, titles (``"..."``) and
anchors (``#section``) stay byte for byte.

Found: inline links and images ``[t](dest "title")``, reference definitions
``[ref]: dest "title"`` and the ``href``/``src`` attributes of raw HTML tags.
Left alone, because they are code and not links: fenced blocks (closed ones
only, as Python-Markdown renders an unclosed fence as text), indented code
blocks outside lists, and inline code spans.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote, unquote

from . import rx

_FENCE_OPEN = rx.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_LIST_ITEM = rx.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_BACKTICKS = rx.compile(r"`+")
_BLANK_LINE = rx.compile(r"\n[ \t]*\n")
_REF_DEF = rx.compile(r"^ {0,3}\[([^\]\n]+)\]:[ \t]*(?:\n[ \t]*)?(<[^>\n]*>|\S+)", re.MULTILINE)
_HTML_TAG = rx.compile(r"<(?:a|img|source|link|iframe|video|audio|embed)\b[^>]*>", re.IGNORECASE)
_HTML_ATTR = rx.compile(r"\b(?:href|src)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.IGNORECASE)
_SCHEME = rx.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_TITLE_CLOSERS = {'"': '"', "'": "'", "(": ")"}
#: Characters that need percent-encoding (or ``<...>``) in a link destination.
_NEEDS_ESCAPE = rx.compile(r"[\s()<>]")
MASK = "\x00"


@dataclass(frozen=True)
class Link:
    """One link destination in a page. ``start``/``end`` delimit ``raw`` in the text."""

    start: int
    end: int
    raw: str  # the destination as written, without enclosing <...>
    line: int
    form: str  # inline | reference | html
    angle: bool = False

    @property
    def path(self) -> str:
        """The destination without its ``#anchor`` or ``?query``."""
        return split_target(self.raw)[0]

    @property
    def suffix(self) -> str:
        return split_target(self.raw)[1]


def split_target(raw: str) -> tuple[str, str]:
    """``"a/b.md#x"`` -> ``("a/b.md", "#x")``."""
    cut = len(raw)
    for ch in "#?":
        pos = raw.find(ch)
        if pos != -1:
            cut = min(cut, pos)
    return raw[:cut], raw[cut:]


def is_local(path: str) -> bool:
    """A relative or site-absolute file path: not a URL, not ``//host``, not empty."""
    return bool(path) and not _SCHEME.match(path) and not path.startswith("//")


# --------------------------------------------------------------------- code regions


def code_spans(text: str) -> list[tuple[int, int]]:
    """Offsets of every code region: fenced and indented blocks, inline code."""
    lines = text.splitlines(keepends=True)
    starts: list[int] = []
    pos = 0
    for line in lines:
        starts.append(pos)
        pos += len(line)
    blocks: list[tuple[int, int]] = []
    i = 0
    in_list = False
    prev_blank = True
    prev_code = False
    while i < len(lines):
        line = lines[i].rstrip("\r\n")
        stripped = line.strip()
        m = _FENCE_OPEN.match(line)
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence = m.group(1)
            closing = re.compile(
                r"^[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$"
            )
            end = next(
                (j for j in range(i + 1, len(lines)) if closing.match(lines[j].rstrip("\r\n"))),
                None,
            )
            if end is not None:
                blocks.append((starts[i], starts[end] + len(lines[end])))
                i = end + 1
                prev_blank, prev_code = False, False
                continue
        expanded = line.expandtabs(4)
        indent = len(expanded) - len(expanded.lstrip(" ")) if stripped else 0
        if stripped and indent >= 4 and (prev_blank or prev_code) and not in_list:
            blocks.append((starts[i], starts[i] + len(lines[i])))
            prev_code, prev_blank = True, False
            i += 1
            continue
        if stripped:
            if indent < 4:
                if _LIST_ITEM.match(line):
                    in_list = True
                elif prev_blank:
                    in_list = False
            prev_blank = False
        else:
            prev_blank = True
        prev_code = False
        i += 1
    spans = list(blocks)
    # inline code in what is left: a run of n backticks up to the next run of
    # exactly n, within one paragraph; an unmatched run is literal text
    cursor = 0
    for start, end in [*blocks, (len(text), len(text))]:
        spans.extend(_inline_code(text, cursor, start))
        cursor = end
    return sorted(spans)


def _inline_code(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    pos = lo
    while pos < hi:
        m = _BACKTICKS.search(text, pos, hi)
        if m is None:
            break
        if m.start() > 0 and text[m.start() - 1] == "\\":
            pos = m.end()
            continue
        n = len(m.group())
        para_end = _BLANK_LINE.search(text, m.end(), hi)
        limit = para_end.start() if para_end else hi
        close = None
        for other in _BACKTICKS.finditer(text, m.end(), limit):
            if len(other.group()) == n:
                close = other
                break
        if close is None:
            pos = m.end()
            continue
        out.append((m.start(), close.end()))
        pos = close.end()
    return out


def masked(text: str) -> str:
    """``text`` with every code region blanked (newlines kept), offsets unchanged."""
    chars = list(text)
    for start, end in code_spans(text):
        for k in range(start, end):
            if chars[k] not in "\r\n":
                chars[k] = MASK
    return "".join(chars)


# --------------------------------------------------------------------- finding links


def find_links(text: str) -> list[Link]:
    """Every link destination outside code, in document order."""
    view = masked(text)
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(pos: int) -> int:
        return bisect.bisect_right(line_starts, pos)

    found: dict[int, Link] = {}
    for m in re.finditer(r"\]\(", view):
        link = _inline_at(text, view, m.start(), m.end(), line_of)
        if link is not None:
            found.setdefault(link.start, link)
    for m in _REF_DEF.finditer(view):
        if m.group(1).startswith("^"):
            continue  # a footnote, not a link definition
        start, end = m.start(2), m.end(2)
        angle = view[start] == "<"
        if angle:
            start, end = start + 1, end - 1
        found.setdefault(
            start, Link(start, end, text[start:end], line_of(start), "reference", angle)
        )
    for tag in _HTML_TAG.finditer(view):
        for attr in _HTML_ATTR.finditer(view, tag.start(), tag.end()):
            group = 1 if attr.group(1) is not None else 2
            start, end = attr.start(group), attr.end(group)
            found.setdefault(start, Link(start, end, text[start:end], line_of(start), "html"))
    return [found[k] for k in sorted(found) if found[k].raw]


def _inline_at(
    text: str, view: str, bracket: int, pos: int, line_of: Callable[[int], int]
) -> Link | None:
    """Parse ``](dest "title")`` starting after ``](``; None when it is not a link."""
    para = view.rfind("\n\n", 0, bracket)
    if "[" not in view[para + 1 if para != -1 else 0 : bracket]:
        return None
    n = len(view)
    j = pos
    while j < n and view[j] in " \t":
        j += 1
    if j < n and view[j] == "\n":
        j += 1
        while j < n and view[j] in " \t":
            j += 1
    if j >= n:
        return None
    angle = view[j] == "<"
    if angle:
        close = view.find(">", j + 1)
        if close == -1 or "\n" in view[j + 1 : close]:
            return None
        start, end, k = j + 1, close, close + 1
    else:
        depth = 0
        k = j
        while k < n:
            c = view[k]
            if c in " \t\r\n" or c == MASK:
                break
            if c == "\\":
                k += 2
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    break
                depth -= 1
            k += 1
        start, end = j, min(k, n)
    # optional title, then the closing parenthesis
    t = k
    while t < n and view[t] in " \t\r\n":
        t += 1
    if t < n and view[t] in _TITLE_CLOSERS and t > k:
        closer = _TITLE_CLOSERS[view[t]]
        close = view.find(closer, t + 1)
        if close == -1:
            return None
        t = close + 1
        while t < n and view[t] in " \t\r\n":
            t += 1
    if t >= n or view[t] != ")":
        return None
    return Link(start, end, text[start:end], line_of(start), "inline", angle)


# --------------------------------------------------------------------- resolving and writing


def resolve(page: str, dest_path: str, docs_rel: str) -> str:
    """Project-relative target of ``dest_path`` written in ``page`` (``..`` kept if it escapes).

    ``page`` is project-relative; a site-absolute ``/x.md`` is relative to
    ``docs_rel`` (the docs folder, project-relative). A trailing ``/`` is dropped.
    """
    decoded = unquote(dest_path)
    if decoded.startswith("/"):
        joined = posixpath.join(docs_rel or ".", decoded.lstrip("/"))
    else:
        joined = posixpath.join(posixpath.dirname(page), decoded)
    return posixpath.normpath(joined)


def escapes(target: str) -> bool:
    return target == ".." or target.startswith("../") or target.startswith("/")


def relative(target: str, page: str) -> str:
    """The relative path from ``page``'s folder to ``target`` (both project-relative)."""
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def rewrite_destination(link: Link, new_target: str, new_page: str, docs_rel: str) -> str:
    """The destination that points from ``new_page`` to ``new_target`` in ``link``'s style.

    Keeps the anchor/query, a trailing ``/``, site-absolute form and
    percent-encoding; a path that would need escaping gets ``%20``-style
    encoding unless the original used ``<...>``.
    """
    path, suffix = split_target(link.raw)
    if unquote(path).startswith("/"):
        new_path = "/" + posixpath.relpath(new_target, docs_rel or ".")
    else:
        new_path = relative(new_target, new_page)
    if path.endswith("/") and not new_path.endswith("/"):
        new_path += "/"
    encoded = "%" in path
    if encoded or (not link.angle and _NEEDS_ESCAPE.search(new_path)):
        new_path = quote(new_path, safe="/#?&=+:@!$,;'*~")
    return new_path + suffix


def apply_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Replace each ``(start, end)`` with its new text; edits must not overlap."""
    out: list[str] = []
    cursor = 0
    for start, end, new in sorted(edits):
        if start < cursor:
            raise ValueError("overlapping link edits")
        out.append(text[cursor:start])
        out.append(new)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)
