"""A line scan of a Markdown record: frontmatter, headings, sections, links.

This is deliberately not a full Markdown parser. ADR metadata lives in a few
predictable places (frontmatter, headings, the first paragraph of a section,
bullet lists, tables), and a line scan that knows about code fences finds them
quickly and reports line numbers for every finding.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterator
from typing import Any, NamedTuple

import yaml

from .. import rx
from ..model import TOO_DEEP

try:  # the C loader is several times faster on large logs
    _YamlLoader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _YamlLoader = yaml.SafeLoader

_FENCE = rx.compile(r"^ {0,3}(`{3,}|~{3,})")
#: (a no-break space after the hashes too: Python-Markdown, MkDocs' renderer, makes
#: ``##\u00a0Status`` a heading, and some editors write one)
_ATX = rx.compile(r"^ {0,3}(#{1,6})(?:[ \t\u00a0]+(.*?))?[ \t#]*$")
_SETEXT = rx.compile(r"^ {0,3}(=+|-+)[ \t]*$")
#: ``[label](href "title")``: the pattern
#: ``(?<!!)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'][^)]*[\"'])?\s*\)``
#: written so that it cannot backtrack: each run is possessive, the title is a run
#: of quoted chunks up to its last quote, and the only choice left, whether the
#: spaces after ``(`` lead into a title with an empty href (``[a]( "t x")``), is one
#: character (``(?:\s(?=\s))*+\s?``). tests/test_robust_patterns.py compares it with
#: the pattern it replaces.
_LABEL = r"\[((?:[^\[\]]++|\[[^\]]*+\])*+)\]"
_TAIL_PATTERN = (
    r"\((?:\s(?=\s))*+\s?<?+([^)\s>]*+)>?+"
    r"(?:\s++[\"'](?:[^)\"']*+[\"'])++\s*+\)|\s*+\))"
)
LINK = rx.compile(rf"(?<!!){_LABEL}{_TAIL_PATTERN}")

#: ``LINK`` without its ``(?<!!)``: :func:`links` checks for the ``!`` of an image.
_LINK_BARE = rx.compile(LINK.pattern.removeprefix("(?<!!)"))
_BRACKET = rx.compile(r"[\[\]]")


def label_ends(text: str) -> dict[int, int]:
    r"""For each ``[`` whose label closes, the position of its closing ``]``.

    A label is what ``\[(?:[^\[\]]|\[[^\]]*\])*\]`` takes: plain characters and
    bracketed groups, each group up to its first ``]``. Found in one pass from the
    end over the brackets, so a text of many ``[`` costs one look at each, not a
    scan to the end of the text from every one of them.
    """
    marks = [(m.start(), m.group()) for m in _BRACKET.finditer(text)]
    ends: dict[int, int] = {}
    # stop[k]: where a run of label items that starts at bracket k stops (a ``]``
    # position, or -1 when it stops at a ``[`` that never closes or at the end)
    stop = [-1] * (len(marks) + 1)
    next_close = -1  # index in marks of the next "]"
    for k in range(len(marks) - 1, -1, -1):
        at, char = marks[k]
        if char == "]":
            stop[k] = at
            next_close = k
            continue
        # a "[" inside a label opens a group that ends at the next "]"
        stop[k] = -1 if next_close == -1 else stop[next_close + 1]
        # the label this "[" opens is the run of items after it
        if stop[k + 1] != -1:
            ends[at] = stop[k + 1]
    return ends


def links(text: str) -> Iterator[re.Match[str]]:
    """The matches of ``LINK.finditer(text)``, found in time linear in the text.

    Only a ``[`` whose label closes right before ``(`` may start a link
    (:func:`label_ends`), and whether the ``(...)`` after a ``]`` closes is
    decided once per ``]`` (:func:`_closing_tails`). An image's ``[`` is skipped
    as ``finditer`` does when the look-behind fails.
    """
    if "](" not in text:
        return
    if text.count("[") <= FEW_BRACKETS:
        yield from _few_links(text)
    else:
        yield from _table_links(text)


def _table_links(text: str) -> Iterator[re.Match[str]]:
    """:func:`links` by the tables, for a text of any number of ``[``."""
    ends = label_ends(text)
    tails = _closing_tails(text, sorted({c for c in ends.values() if text[c + 1 : c + 2] == "("}))
    match = _LINK_BARE.match
    pos = 0
    for start, close in reversed(ends.items()):  # found from the end
        if start < pos or not tails.get(close):
            continue
        if start and text[start - 1] == "!":
            continue
        m = match(text, start)
        if m is None:  # pragma: no cover - _closing_tails and the pattern agree
            continue
        yield m
        pos = m.end()


#: A text with at most this many ``[`` is searched with the pattern itself (each ``[``
#: costs at most one look to the end of the text: a bounded number of passes), which
#: is quicker than :func:`links`' tables for the few links a record usually has.
FEW_BRACKETS = 16


def _few_links(text: str) -> Iterator[re.Match[str]]:
    """``LINK.finditer(text)``: ``_LINK_BARE`` tried at each ``[`` (where every match of it
    starts), an image's ``[`` passed over as the look-behind passes over it (the next try
    starts one on). ``str.find`` goes from one ``[`` to the next several times faster
    than the pattern's own search does."""
    find, match = text.find, _LINK_BARE.match
    at = find("[")
    while at != -1:
        m = None if at and text[at - 1] == "!" else match(text, at)
        if m is None:
            at = find("[", at + 1)
            continue
        yield m
        at = find("[", m.end())


def matches_except(
    pattern: re.Pattern[str], text: str, skip: Callable[[int], bool]
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` without the matches whose start ``skip`` rejects; after a
    rejected start the search resumes one character on, as ``finditer`` would."""
    search = pattern.search
    pos = 0
    while True:
        m = search(text, pos)
        if m is None:
            return
        start = m.start()
        if skip(start):
            pos = start + 1
            continue
        yield m
        pos = m.end()


class _Next:
    """The first match of a one-character ``pattern`` at or after a position.

    Asked for positions that do not increase (a right-to-left pass), each
    character is looked at once: a search stops where the previous one started.
    """

    __slots__ = ("answer", "edge", "search", "text")

    def __init__(self, text: str, pattern: re.Pattern[str]) -> None:
        self.text = text
        self.search = pattern.search
        self.edge = len(text)
        self.answer = len(text)  # "not found"

    def at(self, pos: int) -> int:
        if pos > self.edge:  # asked out of order: a plain search
            m = self.search(self.text, pos)
            return m.start() if m else len(self.text)
        m = self.search(self.text, pos, self.edge)
        if m is not None:
            self.answer = m.start()
        self.edge = pos
        return self.answer


_NON_SPACE = rx.compile(r"\S")
_HREF_STOP = rx.compile(r"[)\s>]")
_CLOSE_PAREN = rx.compile(r"\)")


def _closing_tails(text: str, closes: list[int]) -> dict[int, bool]:
    """For each ``]`` at ``closes`` (sorted, each before a ``(``), whether the
    ``(...)`` of :data:`LINK` matches there.

    What ``_TAIL_PATTERN`` does, as lookups: the spaces after ``(``, an optional
    ``<``, the href up to a space, ``)`` or ``>``, an optional ``>``, then either a
    title (spaces, a quote, and up to the first ``)`` whose last quote is followed
    only by spaces) or spaces and ``)``; or, after at least one space, a title
    right away with an empty href. Asked right to left, so each :class:`_Next`
    looks at each character once.
    """
    n = len(text)
    after_open, after_href, title_close, bare_close = (
        _Next(text, _NON_SPACE),
        _Next(text, _NON_SPACE),
        _Next(text, _CLOSE_PAREN),
        _Next(text, _CLOSE_PAREN),
    )
    href_end = _Next(text, _HREF_STOP)
    titled: dict[int, int] = {}  # ")" position -> its title's last quote, or -1

    def title_ends(quote: int, finder: _Next) -> bool:
        # a title opened at ``quote``: up to the first ")" after it, ending in a
        # quote and spaces
        close = finder.at(quote + 1)
        if close >= n:
            return False
        last = titled.get(close)
        if last is None:
            before = text.rfind(")", 0, close)
            last = max(text.rfind('"', before + 1, close), text.rfind("'", before + 1, close))
            if last != -1 and text[last + 1 : close].strip():
                last = -1
            titled[close] = last
        return last > quote

    out: dict[int, bool] = {}
    for close in reversed(closes):
        start = close + 2
        first = after_open.at(start)
        h = first + 1 if text[first : first + 1] == "<" else first
        g = href_end.at(h)
        if text[g : g + 1] == ">":
            g += 1
        g2 = after_href.at(g)
        nxt = text[g2 : g2 + 1]
        ok = nxt == ")" or (g2 > g and nxt in ("'", '"') and title_ends(g2, title_close))
        if not ok and first > start and text[first : first + 1] in ("'", '"'):
            ok = title_ends(first, bare_close)
        out[close] = ok
    return out


# Named tuples: a record has a handful of each, and a frozen dataclass costs
# several times more to create.
class Heading(NamedTuple):
    level: int
    text: str
    line: int  # 1-based line in the original file
    after: int  # index into Document.lines of the first line below the heading


class Section(NamedTuple):
    heading: Heading
    start: int  # index into Document.lines of the first body line
    end: int  # index one past the last body line

    @property
    def name(self) -> str:
        return self.heading.text


class Document:
    """A record's text split into lines with structure marked.

    A plain class with slots and its own ``__init__``: one is made for every record
    read, and a dataclass's generated ``__init__`` (a default factory among its
    fields) cost several times as much."""

    __slots__ = (
        "_fm_lines",
        "_key_set",
        "_keys",
        "_sections",
        "_unfenced",
        "body_text",
        "fenced",
        "frontmatter",
        "frontmatter_error",
        "headings",
        "lines",
        "offset",
        "text",
        "title",
    )

    def __init__(
        self,
        text: str,
        lines: list[str],
        offset: int,
        frontmatter: dict[str, Any] | None,
        frontmatter_error: tuple[str, int] | None,
        fenced: list[bool],
        headings: list[Heading] | None = None,
        *,
        body_text: str | None = None,
    ) -> None:
        self.text = text
        self.lines = lines
        self.offset = offset  # lines taken by frontmatter (so line numbers stay true)
        self.frontmatter = frontmatter
        self.frontmatter_error = frontmatter_error
        self.fenced = fenced
        self.headings: list[Heading] = [] if headings is None else headings
        #: The text below the frontmatter: ``"\n".join(lines)``.
        self.body_text = body_text
        self._sections: dict[int | None, list[Section]] = {}
        self._unfenced: list[tuple[int, str]] | None = None
        self._keys: list[str] | None = None
        self._key_set: frozenset[str] = frozenset()
        self._fm_lines: list[str] | None = None
        #: The record's title heading, as the reader found it
        #: (:func:`~mkdocs_adr.parsing.titles.title_heading`); None: none, or not read.
        self.title: Heading | None = None

    def lineno(self, index: int) -> int:
        return index + self.offset + 1

    def sections(self, level: int | None = None) -> list[Section]:
        """Sections opened by headings (of ``level`` if given) up to the next peer."""
        cached = self._sections.get(level)
        if cached is not None:
            return cached
        if level is not None:
            out = [sec for sec in self.sections() if sec.heading.level == level]
            self._sections[level] = out
            return out
        # a section ends where the next heading of its level or above starts
        heads = self.headings
        ends = [len(self.lines)] * len(heads)
        open_: list[int] = []  # headings whose end is not known yet, levels increasing
        for j, nxt in enumerate(heads):
            while open_ and heads[open_[-1]].level >= nxt.level:
                ends[open_.pop()] = nxt.line - self.offset - 1
            open_.append(j)
        out = [  # tuple.__new__ directly, as for Heading
            _new(Section, (head, head.after, end if end > head.after else head.after))
            for head, end in zip(heads, ends, strict=True)
        ]
        self._sections[None] = out
        return out

    def frontmatter_lines(self) -> list[str]:
        """The first :attr:`offset` lines of the text (the frontmatter and its fences)."""
        if self._fm_lines is None:
            self._fm_lines = self.text.split("\n", self.offset)[: self.offset]
        return self._fm_lines

    def keyed_sections(self, wanted: Collection[str]) -> list[tuple[Section, str]]:
        """The sections whose :func:`heading_key` is in ``wanted``, with that key.

        Most records have no section a caller looks for; then no section is built.
        """
        if self._keys is None:
            self._keys = [heading_key(h.text) for h in self.headings]
            self._key_set = frozenset(self._keys)
        keys = self._keys
        if self._key_set.isdisjoint(wanted):  # the usual answer, found in C
            return []
        found = [i for i, key in enumerate(keys) if key in wanted]
        if not found:
            return []
        sections = self.sections()  # one per heading, in the same order
        return [(sections[i], keys[i]) for i in found]

    def body(self, section: Section) -> list[tuple[int, str]]:
        """(line number, text) pairs of a section's body, fenced lines left out."""
        base, lines, fenced = self.offset + 1, self.lines, self.fenced
        return [(i + base, lines[i]) for i in range(section.start, section.end) if not fenced[i]]

    def section_text(self, section: Section, *, stop_at_subheading: bool = True) -> str:
        if not stop_at_subheading:  # every line of the section: one slice, no loop
            return "\n".join(self.lines[section.start : section.end]).strip("\n")
        lines: list[str] = []
        for i in range(section.start, section.end):
            line = self.lines[i]
            if not self.fenced[i] and line.lstrip()[:1] == "#" and _ATX.match(line):
                break
            lines.append(line)
        return "\n".join(lines).strip("\n")

    def unfenced(self) -> list[tuple[int, str]]:
        if self._unfenced is None:
            base = self.offset + 1
            fenced = self.fenced
            if any(fenced):
                self._unfenced = [
                    (i + base, ln) for i, ln in enumerate(self.lines) if not fenced[i]
                ]
            else:
                numbers = range(base, base + len(self.lines))
                self._unfenced = list(zip(numbers, self.lines, strict=True))
        return self._unfenced

    def lines_matching(self, pattern: re.Pattern[str]) -> list[tuple[int, str]]:
        """:meth:`unfenced` pairs of the lines where ``pattern`` finds a match.

        ``pattern`` starts with the newline before its line and stays on that
        line (see ``_ATX_NL``), so the engine jumps from line to line in C
        instead of this module looping over every line in Python.
        """
        body = self.body_text if self.body_text is not None else "\n".join(self.lines)
        padded = "\n" + body
        base = self.offset + 1
        out: list[tuple[int, str]] = []
        index = pos = 0
        for m in pattern.finditer(padded):
            index += padded.count("\n", pos, m.start())
            pos = m.start()
            if not self.fenced[index]:
                out.append((index + base, self.lines[index]))
        return out

    def unfenced_before(self, line: int | None) -> list[tuple[int, str]]:
        """:meth:`unfenced` pairs whose line number is below ``line`` (all when None)."""
        if line is None:
            return self.unfenced()
        base = self.offset + 1
        stop = max(0, min(len(self.lines), line - base))
        lines, fenced = self.lines, self.fenced
        return [(i + base, lines[i]) for i in range(stop) if not fenced[i]]

    def unfenced_text(self) -> str:
        """The body with fenced lines blanked, so offsets still count lines."""
        if not any(self.fenced):
            return self.body_text if self.body_text is not None else "\n".join(self.lines)
        return "\n".join("" if f else ln for ln, f in zip(self.lines, self.fenced, strict=True))


@functools.lru_cache(maxsize=8192)
def heading_key(text: str) -> str:
    """A heading or field name as a key: stripped, no trailing colon, lower case.

    Remembered per text: a log's section names and field keys ("Status", "Context",
    "Date") repeat in every record."""
    if "<!--" in text:  # MADR's template marks a heading ``## Links <!-- optional -->``
        text = without_comments(text)
    return text.strip().rstrip(":：").strip().lower()


_COMMENT = re.compile(r"<!--.*?(?:-->|$)")


def without_comments(text: str) -> str:
    """``text`` without its HTML comments (one left open runs to the end), stripped."""
    return _COMMENT.sub("", text).strip()


#: The line that closes frontmatter: ``---`` or ``...`` and trailing whitespace.
_FM_END = rx.compile(r"\n(?:---|\.\.\.)[^\S\n]*(?=\n|\Z)")


def split_frontmatter(text: str) -> tuple[str | None, str, int]:
    """Return (yaml text or None, body, lines the frontmatter took)."""
    if not text.startswith("---"):
        return None, text, 0
    first_nl = text.find("\n")
    if first_nl == -1 or text[:first_nl].strip() != "---":
        return None, text, 0
    m = _FM_END.search(text, first_nl)
    if m is None:
        return None, text, 0  # never closed: not frontmatter
    pos = m.start() + 1  # where the closing line starts
    body = text[m.end() + 1 :] if m.end() < len(text) else ""
    return text[first_nl + 1 : pos], body, text.count("\n", 0, pos) + 1


#: ``key: value`` with the value stripped in Python: the lazy ``(.*?)[ \t]*$`` it
#: replaces costs a regular-expression step per character.
_FM_LINE = rx.compile(r"^([A-Za-z_][\w-]*)[ \t]*:(.*)$")
_PLAIN_BAD = rx.compile(r"^[-?:,\[\]{}#&*!|>'\"%@`]|: |\s#")
_RESOLVER = yaml.resolver.Resolver()
#: The first characters of the values YAML may read as something but a string (a
#: number, a bool, a null, a date...): a plain value that starts otherwise is a string,
#: unless some resolver is tried whatever the value starts with.
_IMPLICIT_FIRST: frozenset[str] | None = (
    None
    if _RESOLVER.yaml_implicit_resolvers.get(None)
    else frozenset(k for k in _RESOLVER.yaml_implicit_resolvers if k)
)


@functools.lru_cache(maxsize=4096)
def _fast_scalar(text: str) -> tuple[bool, Any]:
    """A plain or simply quoted YAML scalar, or (False, None) to defer to YAML.

    Digits are the decimal number they spell, zero-led ones too (``055`` is 55), as
    :func:`_construct_int` reads them on PyYAML's path."""
    if not text:
        return True, None
    if text[0] == '"':
        if len(text) >= 2 and text[-1] == '"' and "\\" not in text and '"' not in text[1:-1]:
            return True, text[1:-1]
        return False, None
    if text[0] == "'":
        inner = text[1:-1]
        if len(text) >= 2 and text[-1] == "'" and "'" not in inner.replace("''", ""):
            return True, inner.replace("''", "'")
        return False, None
    if _PLAIN_BAD.search(text):
        return False, None
    if _IMPLICIT_FIRST is not None and text[0] not in _IMPLICIT_FIRST:
        return True, text  # what the resolver would say: a string (ADR-0012, carol)
    tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    if tag == "tag:yaml.org,2002:str":
        return True, text
    if tag == "tag:yaml.org,2002:null":
        return True, None
    if tag == "tag:yaml.org,2002:bool":
        return True, text.lower() in ("yes", "true", "on", "y")
    if tag == "tag:yaml.org,2002:int" and text.lstrip("-+").isdigit():
        return True, _yaml_int(text, int)
    if tag == "tag:yaml.org,2002:timestamp":
        return True, text  # dates are parsed (and validated) by parse_date
    return False, None


def _fast_frontmatter(raw: str) -> dict[str, Any] | None:
    """The common subset of frontmatter (flat keys, scalars, simple lists) quickly.

    Anything else (nesting, block lists, anchors, escapes, multi-line values)
    returns None and is read by PyYAML, so results never differ in meaning.
    """
    out: dict[str, Any] = {}
    for line in raw.split("\n"):
        entry = _fm_entry(line)
        if entry is _BLANK:
            continue
        if entry is None:
            return None
        key, value, is_list = entry
        if key in out:
            return None  # duplicate keys: let YAML decide
        out[key] = list(value) if is_list else value
    return out


#: What :func:`_fm_entry` returns for a blank or comment line (compared by identity).
_BLANK: tuple[str, Any, bool] = ("", None, False)


@functools.lru_cache(maxsize=4096)
def _fm_entry(line: str) -> tuple[str, Any, bool] | None:
    """One frontmatter line as (key, value, value is a list), ``_BLANK`` for a
    blank or comment line, None when the fast path cannot read it.

    Remembered per line: most lines (``status: accepted``, a date, a domain)
    repeat across a log. A list comes back as a tuple; the caller copies it.
    """
    if not line.strip() or line.lstrip().startswith("#"):
        return _BLANK
    m = _FM_LINE.match(line)
    if not m:
        return None
    key, value = m.group(1).lower(), m.group(2)
    if value:
        if value[0] not in " \t":
            return None  # "key:value" is not a mapping entry
        value = value.strip(" \t")
    if value.startswith("[") and value.endswith("]"):
        inner = value[1:-1].strip()
        if any(c in inner for c in "[]{}#"):
            return None
        items: list[Any] = []
        for part in inner.split(",") if inner else []:
            ok, item = _fast_scalar(part.strip())
            if not ok or item is None:
                return None
            items.append(item)
        return key, tuple(items), True
    if not value:
        return None  # maybe a block below: let YAML read it
    ok, scalar = _fast_scalar(value)
    if not ok:
        return None
    return key, scalar, False


def load_frontmatter(raw: str) -> tuple[dict[str, Any] | None, tuple[str, int] | None]:
    """The frontmatter's keys (lower-cased) and None; or, when it does not parse, (why,
    line) beside the keys whose own lines parse (:func:`keys_that_parse`, None when none
    does). Never raises: every PyYAML error, and every exception its constructors
    raise, is a reason (ADR014); see :func:`load_yaml` for the bounds."""
    fast = _fast_frontmatter(raw)
    if fast is not None:
        return fast, None
    try:
        data = load_yaml(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return keys_that_parse(raw), (str(problem), (mark.line + 2) if mark else 1)
    except _CONSTRUCT_ERRORS as exc:
        # a constructor's own error: an out-of-range date, ``!!timestamp bad`` (whose
        # PyYAML raises AttributeError), a tag applied to a value it cannot take
        why = (str(exc) or type(exc).__name__).splitlines()[0][:200]
        found = (f"a value cannot be constructed ({type(exc).__name__}: {why})", 1)
        return keys_that_parse(raw), found
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        glued = _GLUED_KEY.match(raw.lstrip("\n")) if isinstance(data, str) else None
        if glued:  # ``tag:Web Client``: YAML reads one string, not a key and its value
            return None, (
                f"frontmatter is a str, not a mapping of keys: {glued[1]!r} has no space "
                "after its colon",
                2,
            )
        return None, (f"frontmatter is a {type(data).__name__}, not a mapping of keys", 2)
    return {str(k).lower(): v for k, v in data.items()}, None


#: A top-level frontmatter key's line, and a block list's item (which goes on the value
#: of the key above it): how frontmatter is read key by key, here and by the editor.
FRONTMATTER_KEY = rx.compile(r"^([^\W\d][\w-]*)[ \t]*:(?:[ \t]|$)")
FRONTMATTER_BLOCK_ITEM = rx.compile(r"^(\s*)-(?:\s|$)")


def continues_value(line: str) -> bool:
    """Whether a frontmatter line belongs to the value of the key above it."""
    return bool(line[:1] in (" ", "\t") or FRONTMATTER_BLOCK_ITEM.match(line))


def keys_that_parse(raw: str) -> dict[str, Any] | None:
    """The top-level keys of frontmatter that does not parse as a whole whose own lines
    parse (None: none does). One bad value (``deciders: @ana @ben``: YAML reserves
    ``@``) then costs that key, not the status and date beside it; the record still
    gets its ADR014 warning (docs/adr/0075). A key written twice is not read."""
    lines = raw.split("\n")
    out: dict[str, Any] = {}
    seen: set[str] = set()
    i = 0
    while i < len(lines):
        m = FRONTMATTER_KEY.match(lines[i])
        end = i + 1
        while end < len(lines) and continues_value(lines[end]):
            end += 1
        if m is not None:
            key = m.group(1).lower()
            try:
                data = load_yaml("\n".join(lines[i:end]))
            except (yaml.YAMLError, *_CONSTRUCT_ERRORS):
                data = None
            if key in seen:
                out.pop(key, None)
            elif isinstance(data, dict) and len(data) == 1:
                out[key] = next(iter(data.values()))
            seen.add(key)
        i = end
    return out or None


def unbraced(value: object) -> object:
    """A frontmatter value still inside its template's braces, as it was filled in.

    MADR 3's template writes ``status: {proposed | rejected | ...}`` and ``date:
    {YYYY-MM-DD ...}``; a record filled in as ``status: { accepted }``, ``date: {
    2024-05-02 }`` or ``deciders: { Ana, Ben }`` is, to YAML, a mapping whose keys have
    null values. Such a mapping is the list of its keys (as YAML's ``!!set`` is), one key
    that key; any other value is returned as it is.
    """
    if isinstance(value, dict) and value and all(v is None for v in value.values()):
        keys = list(value)
        return keys[0] if len(keys) == 1 else keys
    return value


#: A first frontmatter line ``key:value``, the space after the colon left out.
_GLUED_KEY = rx.compile(r"([^\W\d][\w-]{0,40}):(?=[^\s:/])")


# ------------------------------------------------------------------ bounded YAML

#: A document may expand (aliases repeated) to this many times its text, and no more.
ALIAS_EXPANSION = 10
#: ... but a small document always gets this much room (a few anchors reused).
ALIAS_FLOOR = 4096
#: Collections nested deeper than this are refused (libyaml's composer recurses in C).
MAX_DEPTH = 64


#: An integer written with more characters than this is read as its text: ``int()``
#: refuses over 4,300 digits, and hex, binary and base-60 forms have no such limit
#: (``str()`` of the result then fails, and base 60 costs quadratic time).
MAX_INT_CHARS = 100


def _yaml_int(text: str, convert: Any) -> Any:
    """An integer, or its text when it is written with over ``MAX_INT_CHARS`` characters."""
    if len(text) > MAX_INT_CHARS:
        return text
    try:
        return convert(text)
    except ValueError:  # ``!!int abc``: a tag that does not fit its value, read as text
        return text


class _Loader(_YamlLoader):  # type: ignore[misc]
    """The safe loader whose integers too long for ``int()`` stay text."""


def _construct_int(loader: Any, node: yaml.ScalarNode) -> Any:
    text = loader.construct_scalar(node)
    digits = text.lstrip("-+").replace("_", "")
    if len(digits) > 1 and digits[0] == "0" and digits.isdigit():
        # YAML 1.1 reads a zero-led number as octal (``id: 055`` would be 45, another
        # record); YAML 1.2 and every author mean its decimal value, as the fast path
        # reads it: the two paths give one reading whatever else the frontmatter holds
        return _yaml_int(text.replace("_", ""), int)
    construct = yaml.constructor.SafeConstructor.construct_yaml_int
    return _yaml_int(text, lambda _text: construct(loader, node))


_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def load_yaml(raw: str) -> Any:
    """``yaml.safe_load`` with the expansion of aliases bounded, before anything expands.

    The node graph is composed here from the parser's events, not by PyYAML's
    composer: each alias adds the expanded size of its anchor's node (a scalar
    counts its characters and one, a collection one plus its items) to a running
    total, and a document whose total passes ``ALIAS_EXPANSION`` times its text
    (at least ``ALIAS_FLOOR``), that refers to an anchor from inside it, or that
    nests deeper than ``MAX_DEPTH`` is refused with a :class:`yaml.YAMLError`
    before anything is constructed. What is constructed is then at most that
    size, so no list of aliases turns into gigabytes of strings.
    """
    loader = _Loader(raw)
    try:
        node = _compose(loader, max(len(raw) * ALIAS_EXPANSION, ALIAS_FLOOR))
        if node is None:
            return None
        try:
            return loader.construct_document(node)
        except _CONSTRUCT_ERRORS as exc:
            raise _where(node, exc) from None
    finally:
        loader.dispose()


#: What PyYAML's constructors raise on values their tag does not fit (``!!timestamp bad``:
#: AttributeError, ``!!int`` with no value: IndexError, ``!!bool maybe``: KeyError).
_CONSTRUCT_ERRORS = (
    ValueError,
    TypeError,
    AttributeError,
    LookupError,
    OverflowError,
    RecursionError,
)
#: Everything :func:`load_yaml` may raise for some text: callers catch exactly these.
YAML_ERRORS: tuple[type[Exception], ...] = (yaml.YAMLError, *_CONSTRUCT_ERRORS)


def _where(root: yaml.Node, exc: Exception) -> Exception:
    """``exc`` as a marked YAML error at the top-level entry that raises it, if one does."""
    if not isinstance(root, yaml.MappingNode):
        return exc
    for key, value in root.value:
        alone = _Loader("")
        try:
            alone.construct_document(value)
        except _CONSTRUCT_ERRORS as own:
            why = (str(own) or type(own).__name__).splitlines()[0][:200]
            return yaml.constructor.ConstructorError(
                None,
                None,
                f"{repr(key.value)[:80]} cannot be read as {value.tag} "
                f"({type(own).__name__}: {why})",
                value.start_mark,
            )
        finally:
            alone.dispose()
    return exc


def _refuse(problem: str, mark: Any) -> yaml.YAMLError:
    return yaml.composer.ComposerError(None, None, problem, mark)


def _compose(loader: Any, budget: int) -> yaml.Node | None:
    """The single document's node graph (None for an empty stream), iteratively."""
    ev = yaml.events
    loader.get_event()  # stream start
    if loader.check_event(ev.StreamEndEvent):
        loader.get_event()
        return None
    loader.get_event()  # document start
    anchors: dict[str | None, yaml.Node] = {}
    sizes: dict[int, int] = {}  # id(node) -> expanded size, once the node is complete
    total = 0
    # open collections: (node, total when it opened, pending mapping key)
    stack: list[list[Any]] = []
    root: yaml.Node | None = None
    while root is None:
        event: Any = loader.get_event()
        start: Any = event.start_mark  # libyaml's Mark, which the stubs do not name
        end: Any = event.end_mark
        node: yaml.Node | None
        if isinstance(event, ev.AliasEvent):
            target = anchors.get(event.anchor)
            if target is None:
                raise _refuse(f"found undefined alias {event.anchor!r}", event.start_mark)
            size = sizes.get(id(target))
            if size is None:
                raise _refuse(
                    f"alias {event.anchor!r} refers to a collection that contains it",
                    event.start_mark,
                )
            node = target
            total += size
        elif isinstance(event, ev.ScalarEvent):
            tag = event.tag
            if tag is None or tag == "!":
                tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
            node = yaml.ScalarNode(tag, event.value, start, end, style=event.style)
            size = 1 + len(event.value)
            total += size
            sizes[id(node)] = size
        elif isinstance(event, (ev.SequenceStartEvent, ev.MappingStartEvent)):
            if len(stack) >= MAX_DEPTH:
                raise _refuse(f"{TOO_DEEP} {MAX_DEPTH}", event.start_mark)
            is_seq = isinstance(event, ev.SequenceStartEvent)
            kind = yaml.SequenceNode if is_seq else yaml.MappingNode
            tag = event.tag
            if tag is None or tag == "!":
                tag = loader.resolve(kind, None, event.implicit)
            coll = kind(tag, [], start, None, flow_style=event.flow_style)
            if event.anchor is not None:
                anchors[event.anchor] = coll
            total += 1
            stack.append([coll, total - 1, None])
            node = None
        elif isinstance(event, (ev.SequenceEndEvent, ev.MappingEndEvent)):
            coll, opened, _key = stack.pop()
            coll.end_mark = end
            sizes[id(coll)] = total - opened
            node = coll
        else:  # pragma: no cover - the parser sends no other event inside a document
            raise _refuse(f"unexpected {type(event).__name__}", event.start_mark)
        if total > budget:
            raise _refuse(
                f"aliases expand beyond {ALIAS_EXPANSION} times the text", event.start_mark
            )
        if isinstance(event, ev.ScalarEvent) and event.anchor is not None:
            assert node is not None
            anchors[event.anchor] = node
        if node is None:
            continue
        if not stack:
            root = node
        elif isinstance(stack[-1][0], yaml.SequenceNode):
            stack[-1][0].value.append(node)
        elif stack[-1][2] is None:
            stack[-1][2] = node
        else:
            stack[-1][0].value.append((stack[-1][2], node))
            stack[-1][2] = None
    loader.get_event()  # document end
    if not loader.check_event(ev.StreamEndEvent):
        event = loader.get_event()
        raise _refuse("expected a single document in the stream", event.start_mark)
    return root


def _mark_fences(lines: list[str]) -> list[bool]:
    """True for lines inside (or delimiting) a closed code fence.

    An opening fence that is never closed hides nothing: real logs contain
    stray fences, and hiding the rest of the file would hide the status.
    """
    fenced = [False] * len(lines)
    i = 0
    n = len(lines)
    if not any("``" in ln or "~~" in ln for ln in lines):
        return fenced
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
    text = text.strip()
    return _unwrapped(text) if text[:1] in "*_" or text[-1:] in "*_" else text


def _unwrapped(text: str) -> str:
    """A heading's text without the emphasis that wraps all of it (``**Status**``,
    ``_Context_``) or a stray mark at one end (``Status **``); emphasis on a part of it
    stays for the title's reader (``Pick a *cache*``, ``_Use_ the *queue*``)."""
    bare = text.strip("*_").strip()
    if "*" not in bare and "_" not in bare:
        return bare
    lead = text[: len(text) - len(text.lstrip("*_"))]
    if lead and text.endswith(lead[::-1]) and len(text) > 2 * len(lead):
        inner = text[len(lead) : len(text) - len(lead)]
        if lead not in inner:
            return inner.strip()
    return text


# Each pattern starts with the newline before its line (the body is scanned
# with one prepended), so the regular-expression engine jumps from newline to
# newline instead of trying a ``^`` at every character; ``(?=\n|\Z)`` is ``$``
# in MULTILINE mode. :func:`_atx_title` finishes what ``_ATX`` does with its
# lazy group, which sre walks one character at a time.
_ATX_NL = rx.compile(r"\n {0,3}(#+)([^\n]*)")
#: What separates an ATX heading's hashes from its text (see :data:`_ATX`).
_AFTER_HASHES = frozenset(" \t\u00a0")
_SETEXT_NL = rx.compile(r"\n {0,3}(=+|-+)[ \t]*(?=\n|\Z)")


def _atx_title(hashes: str, rest: str) -> str | None:
    """Group 2 of ``_ATX`` (``""`` when it is empty) for a line ``hashes + rest``
    that ``_ATX`` matches, else None. ``hashes`` is the whole run of ``#``."""
    after = hashes[6:] + rest if len(hashes) > 6 else rest
    if not after:
        return ""
    if len(hashes) <= 6 and after[0] in _AFTER_HASHES:
        return after.lstrip(" \t\u00a0").rstrip(" \t#")
    return "" if not after.strip(" \t#") else None


def scan(text: str) -> Document:
    """Scan normalized (LF) text into a :class:`Document`.

    Headings are found with regular expressions over the whole body rather
    than a Python loop over lines: on a 10,000-record log this is most of the
    difference between seconds and a fraction of one.
    """
    raw_fm, body, offset = split_frontmatter(text)
    frontmatter: dict[str, Any] | None = None
    fm_error: tuple[str, int] | None = None
    if raw_fm is not None:
        frontmatter, fm_error = load_frontmatter(raw_fm)
    lines = body.split("\n")
    # a fence needs ``` or ~~~ somewhere: skip the line loop when there is none
    # (each two-character test behind a one-character one, which costs a fraction of it)
    maybe_fence = ("`" in body and "``" in body) or ("~" in body and "~~" in body)
    fenced = _mark_fences(lines) if maybe_fence else [False] * len(lines)
    doc = Document(text, lines, offset, frontmatter, fm_error, fenced, body_text=body)
    headings: list[Heading] = []
    found: list[tuple[int, Heading]] = []  # setext headings, by line index
    padded = "\n" + body  # line i of the body starts right after the i-th newline here
    if "#" in body:
        index = pos = 0
        for m in _ATX_NL.finditer(padded):
            hashes, rest = m.groups()
            if len(hashes) <= 6 and rest[:1] in _AFTER_HASHES:  # the usual "## Title"
                raw_title = rest.lstrip(" \t\u00a0").rstrip(" \t#")
            else:
                other = _atx_title(hashes, rest)
                if other is None:
                    continue
                raw_title = other
            start = m.start()
            index += padded.count("\n", pos, start)
            pos = start
            if fenced[index]:
                continue
            title = raw_title.strip()  # (_clean_heading, inlined)
            if title[:1] in "*_" or title[-1:] in "*_":
                title = _unwrapped(title)
            level = len(hashes) if len(hashes) < 6 else 6
            # tuple.__new__ directly: the NamedTuple's own __new__ is a Python call
            headings.append(_new(Heading, (level, title, index + offset + 1, index + 1)))
    # most records have no underline: one search of the pattern says so (cheaper than
    # the tests for "\n-", "\n=" and "\n " it replaced: a two-character needle costs a
    # pass over the text each), and the loop starts at the first one there is
    first = _SETEXT_NL.search(padded)
    if first is not None:
        # the line of each match, counted on from the last one (not from the start)
        index = pos = 0
        for m in _SETEXT_NL.finditer(padded, first.start()):
            index += padded.count("\n", pos, m.start())
            pos = m.start()
            if index == 0 or fenced[index] or fenced[index - 1]:
                continue
            prev = lines[index - 1]
            if not prev.strip() or prev.lstrip().startswith(("-", "*", "|", ">", "#")):
                continue
            if (
                index >= 2
                and lines[index - 2].strip()
                and not lines[index - 2].lstrip().startswith("#")
            ):
                continue  # a paragraph's later line: CommonMark would still allow it; keep simple
            if m.group(1).startswith("-") and index >= 1 and _is_table_or_hr(prev):
                continue
            level = 1 if m.group(1).startswith("=") else 2
            found.append(
                (index - 1, Heading(level, _clean_heading(prev), index + offset, index + 1))
            )
    if found:  # merge in line order (an ATX heading's index is its ``after - 1``)
        found[:0] = [(h.after - 1, h) for h in headings]
        found.sort(key=lambda pair: pair[0])
        headings = [h for _, h in found]
    doc.headings = headings
    return doc


_new = tuple.__new__


def h2_sections(text: str) -> tuple[tuple[str, str], ...]:
    """(name, text up to the next heading) of each second-level section."""
    doc = scan(text)
    return tuple((sec.name, doc.section_text(sec)) for sec in doc.sections(level=2))


def _is_table_or_hr(line: str) -> bool:
    return "|" in line
