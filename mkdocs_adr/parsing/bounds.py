"""The size bounds of reading a record: THE rule for how much text each step looks at.

- A file over ``max_file_bytes`` (1 MiB by default) is not read at all: ADR013
  (:func:`mkdocs_adr.parsing.decoding.decode`).
- The status and relation patterns look at the first :data:`LINE` characters of a
  line (:func:`line`): no status word, relation phrase or ``Key: value`` field
  starts further into a line than that, and a pattern never runs over more.
- A field read from the Markdown text (a title, a status text, a relation target,
  a ``Key: value`` value such as tags or deciders) longer than :data:`FIELD`
  characters is cut to that size with ADR023 (:func:`field`); so is a frontmatter value
  or list item (:func:`field_cut`, applied by ``reader._bound_frontmatter``).

docs/guide/formats.md ("Size bounds") states them with examples.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .. import rx
from ..model import Problem, Severity

#: Characters of a line that the status and relation patterns look at.
LINE = 4096
#: Characters a field read from the Markdown text keeps.
FIELD = 1000


def line(text: str) -> str:
    """The part of a line (or of a status text) that patterns look at."""
    return text if len(text) <= LINE else text[:LINE]


def field(value: str, what: str, path: str, lineno: int | None, problems: list[Problem]) -> str:
    """``value`` cut to :data:`FIELD` characters; ADR023 in ``problems`` when it was cut."""
    if len(value) <= FIELD:
        return value
    problems.append(
        Problem(
            "ADR023",
            Severity.WARNING,
            f"{what} is {len(value):,} characters long; field cut at its size bound "
            f"of {FIELD:,} characters",
            path=path,
            line=lineno,
            fix=f"shorten the {what} to under {FIELD:,} characters",
        )
    )
    return value[:FIELD]


def field_cut(name: str, path: str, line: int | None, bound: int = FIELD) -> Problem:
    """ADR023 for a frontmatter value ``name`` that was cut to its bound of ``bound`` characters."""
    return Problem(
        "ADR023",
        Severity.WARNING,
        f"field {name!r} cut at {bound} characters",
        path=path,
        line=line,
        fix=f"shorten the value of {name!r}: a longer one is read only up to its bound",
    )


#: The characters that start inline markup in the host's renderer: links and images,
#: backslash escapes, entities, emphasis, code spans, raw HTML and autolinks, attribute
#: lists. Python-Markdown handles each match by rescanning the text around it, which
#: grows faster than the line: 66,000 ``\\[`` on one line take 44 s, 50,000 ``&lt;``
#: 3 s, 30,000 ``[a](`` minutes.
INLINE_MARKS = "[\\&*_`<{"
#: Inline marks on one line above which the site shows the line as code.
RENDER_INLINE = 1000
#: Kept for the name the first bound had (it counted ``[`` only).
RENDER_BRACKETS = RENDER_INLINE


def inline_marks(line: str) -> int:
    """How many :data:`INLINE_MARKS` ``line`` holds."""
    count = line.count  # the eight counts written out: a generator costs more than them
    return (
        count("[")
        + count("\\")
        + count("&")
        + count("*")
        + count("_")
        + count("`")
        + count("<")
        + count("{")
    )


_FENCE = rx.compile(r" {0,3}(?:`{3,}|~{3,})")


def _outside_fences(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(0-based index, line) of the lines of ``lines`` outside fenced code (the fence
    lines themselves left out): the renderer never looks inside a fence."""
    fence: str | None = None
    for i, line in enumerate(lines):
        if fence is not None:
            if line.lstrip().startswith(fence):
                fence = None
            continue
        opened = _FENCE.match(line)
        if opened:
            fence = opened.group().strip()[:3]
            continue
        yield i, line


def over_render_bound(text: str) -> list[int]:
    """The (1-based) lines of ``text`` outside fenced code with more than
    :data:`RENDER_INLINE` inline marks."""
    if len(text) <= RENDER_INLINE:
        return []
    lines = text.split("\n")
    # a line has no more marks than characters: most texts have no line that long
    if max(map(len, lines)) <= RENDER_INLINE or inline_marks(text) <= RENDER_INLINE:
        return []
    return [i + 1 for i, line in _outside_fences(lines) if inline_marks(line) > RENDER_INLINE]


_PREFIX = rx.compile(r"[ \t>]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d{1,9}[.)][ \t]+)?")
_TICKS = rx.compile(r"`+")


def _as_code(line: str) -> str:
    """``line`` as one code span (its heading, list or quote markers kept before it): the
    renderer takes a code span in one match, and shows its text as it is."""
    prefix = _PREFIX.match(line).group()  # type: ignore[union-attr]  # matches every string
    rest = line[len(prefix) :]
    fence = "`" * (max((len(m) for m in _TICKS.findall(rest)), default=0) + 1)
    return f"{prefix}{fence} {rest} {fence}"


#: Levels of nesting a line may open in the site: quote markers (``>``), or list items
#: each indented below the one before. Python-Markdown nests one call per level and stops
#: the whole build with RecursionError at about 250 list levels (and slows down long
#: before: its block tests rescan every nested block).
RENDER_DEPTH = 32
#: A line that could be that deep starts with more than RENDER_DEPTH of these.
_DEEP_START = rx.compile(rf"^[ \t>]{{{RENDER_DEPTH + 1}}}", re.MULTILINE)
_LEAD = rx.compile(r"[ \t>]*")
#: A list item's marker, which opens one more level when indented below another item.
_ITEM = rx.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")


#: 33 quote markers, with spaces between them or not: a line that may nest that deep.
_QUOTE_RUN = rx.compile(rf"(?:>[ \t]*){{{RENDER_DEPTH + 1}}}")
#: What a line opens before its text: quote markers, indentation and list markers.
_NEST = rx.compile(r"(?:[ \t>]|(?:[-*+]|\d{1,9}[.)])(?=[ \t]))*")


_MARKER = rx.compile(r"(>[ \t]*)")


#: A lead of 32 columns of spaces and tabs holds one of these (8 spaces, or two tabs, or a
#: tab beside a space): the quick test before any pattern runs over a record.
_WIDE = ("        ", "\t\t", " \t", "\t ")


def _may_nest(text: str) -> bool:
    """Whether a line of ``text`` may nest deeper than :data:`RENDER_DEPTH` (False is
    sure; True is checked line by line)."""
    # (a one-character test first: an absent two-character needle costs a scan of the
    # text several times slower than an absent single character)
    if ">" in text and text.count(">") > RENDER_DEPTH and _QUOTE_RUN.search(text) is not None:
        return True
    wide = "        " in text or (  # _WIDE
        "\t" in text and ("\t\t" in text or " \t" in text or "\t " in text)
    )
    return wide and _DEEP_START.search(text) is not None


def _cap_quotes(nest: str) -> str:
    """``nest`` without its quote markers (and the spaces after each) after the first
    :data:`RENDER_DEPTH`."""
    head, count = [], 0
    for part in _MARKER.split(nest):
        if part.startswith(">"):
            count += 1
            if count > RENDER_DEPTH:
                continue
        head.append(part)
    return "".join(head)


def _shallower(text: str) -> dict[int, str]:
    """The (1-based) lines of ``text`` nested deeper than :data:`RENDER_DEPTH`, each with
    the line it is shown as: at most that many quote markers, and a list item that would
    open a deeper level indented as a sibling of the deepest item allowed.

    One linear pass keeps the indentation of the open list items: an item opens a level
    below the items indented less than it, and closes those indented as much or more.
    Other lines leave the levels as they are (a paragraph continues the item above it,
    and a line of spaces and words is one code block, however far it is indented)."""
    if not _may_nest(text):
        return {}
    out: dict[int, str] = {}
    levels: list[int] = []  # columns of the open list items, outermost first
    for n, line in enumerate(text.split("\n"), 1):
        nest = _NEST.match(line).group()  # type: ignore[union-attr]  # matches every string
        if nest.count(">") > RENDER_DEPTH:  # quote markers, also inside list items
            out[n] = _cap_quotes(nest) + line[len(nest) :]
            continue
        lead = _LEAD.match(line).group()  # type: ignore[union-attr]
        quotes = lead.count(">")
        if quotes or _ITEM.match(line, len(lead)) is None:
            continue
        columns = len(lead.expandtabs(4))
        while levels and levels[-1] >= columns:
            levels.pop()
        if len(levels) < RENDER_DEPTH:
            levels.append(columns)
        else:
            out[n] = " " * levels[-1] + line[len(lead) :]
    return out


def over_depth_bound(text: str) -> list[int]:
    """The (1-based) lines of ``text`` nested deeper than :data:`RENDER_DEPTH`."""
    return sorted(_shallower(text))


#: Lines in one block (a run of lines without a blank one) that end a heading or a rule,
#: above which the site puts a blank line after each: Python-Markdown splits a block at
#: each and rescans the rest, so 30,000 ``a`` / ``=`` pairs take minutes.
RENDER_SPLITS = 200
_SPLIT = rx.compile(r" {0,3}(?:=+|-+|#{1,6}(?:[ \t].*)?|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})[ \t]*")


def _split_blocks(lines: list[str]) -> set[int]:
    """The (0-based) lines after which :func:`render_safe` puts a blank line: each heading
    or rule line of a block that has more than :data:`RENDER_SPLITS` of them (outside
    fenced code, whose lines are never touched)."""
    out: set[int] = set()
    block: list[int] = []
    last = -2
    for i, line in _outside_fences([*lines, ""]):
        if i != last + 1 or not line.strip():  # a fence or a blank line ends a block
            if len(block) > RENDER_SPLITS:
                out.update(block)
            block = []
        last = i
        if line.strip() and _SPLIT.fullmatch(line):
            block.append(i)
    if len(block) > RENDER_SPLITS:
        out.update(block)
    return out


#: Blank lines (outside fenced code) a record page may have; from the line that passes
#: this bound on, the site shows the page as one code block. Python-Markdown keeps its
#: blocks in a list it takes from the front, one block at a time: 300,000 one-letter
#: paragraphs (900 KB) take 52 s, a million blank lines 16 s.
RENDER_BLANKS = 20_000
#: Headings a record page may have, likewise: the table of contents gives each heading a
#: unique id by trying ``a_1``, ``a_2``, ... in turn, so 20,000 headings named alike take
#: 13 s.
RENDER_HEADINGS = 1_000
_ATX = rx.compile(r" {0,3}#{1,6}(?:[ \t\u00a0]|$)")
_UNDERLINE = rx.compile(r" {0,3}(?:=+|-+)[ \t]*")


def over_blank_bound(text: str) -> int | None:
    """The (1-based) line from which :func:`render_safe` shows ``text`` as code: the line
    of the blank over :data:`RENDER_BLANKS` or the heading over :data:`RENDER_HEADINGS`
    (None: under both)."""
    if text.count("\n") <= RENDER_HEADINGS:
        return None
    blanks = headings = 0
    before = ""
    for i, line in _outside_fences(text.split("\n")):
        if not line.strip():
            blanks += 1
            if blanks > RENDER_BLANKS:
                return i + 1
        elif _ATX.match(line) or (before.strip() and _UNDERLINE.fullmatch(line)):
            headings += 1
            if headings > RENDER_HEADINGS:
                return i + 1
        before = line
    return None


def _fenced(lines: list[str]) -> list[str]:
    """``lines`` as one fenced code block, its ``~`` fence longer than any run inside."""
    longest = max((len(m) for line in lines for m in _TILDES.findall(line)), default=0)
    fence = "~" * max(4, longest + 1)
    return [fence, *lines, fence]


_TILDES = rx.compile(r"~+")


def render_safe(markdown: str) -> str | None:
    """``markdown`` as the site renders a record: the lines over the inline bound as code
    spans, those over the depth bound at it, a blank line after each heading or rule of
    a block over the split bound, and from the line over the blank-line bound on, one
    code block. None when nothing is over a bound."""
    brackets, deep = over_render_bound(markdown), _shallower(markdown)
    splits = _split_blocks(markdown.split("\n")) if markdown.count("\n") > RENDER_SPLITS else set()
    cut = over_blank_bound(markdown)
    if not brackets and not deep and not splits and cut is None:
        return None
    lines = markdown.split("\n")
    out = list(lines)
    for n in brackets:
        out[n - 1] = _as_code(out[n - 1])
    for n, shown in deep.items():
        out[n - 1] = shown
    for i in splits:
        out[i] += "\n"  # the same heading or rule, and the block ends there
    if cut is not None:
        out = [*out[: cut - 1], *_fenced(lines[cut - 1 :])]
    return "\n".join(out)


def blank_bound_problem(path: str, line: int) -> Problem:
    """ADR023: a page with so many blank lines that the site shows its rest as code."""
    return Problem(
        "ADR023",
        Severity.WARNING,
        f"record has more than {RENDER_BLANKS:,} blank lines or {RENDER_HEADINGS:,} "
        "headings, over the render bound: from this line on the site shows it as one "
        "code block",
        path=path,
        line=line,
        fix="remove runs of blank lines, or split the record",
    )


def depth_bound_problem(path: str, lines: list[int]) -> Problem:
    """ADR023 at the first of ``lines``, nested so deep that the site shows them at the
    bound's depth (one problem for them all: such lines come in runs)."""
    more = f" (and {len(lines) - 1:,} lines after it)" if len(lines) > 1 else ""
    return Problem(
        "ADR023",
        Severity.WARNING,
        f"line is nested more than {RENDER_DEPTH} levels deep{more} (list indentation "
        f"or '>' quote markers), over the render bound: the site shows "
        f"{'them' if more else 'it'} {RENDER_DEPTH} levels deep",
        path=path,
        line=lines[0],
        fix=f"keep lists and quotes under {RENDER_DEPTH} levels deep",
    )


def render_bound_problem(path: str, line: int, count: int) -> Problem:
    """ADR023: a line with so much inline markup that the site shows it as code."""
    return Problem(
        "ADR023",
        Severity.WARNING,
        f"line has {count:,} inline markup characters ({' '.join(INLINE_MARKS)}), over the "
        f"render bound of {RENDER_INLINE:,}: the site shows it as code, without links",
        path=path,
        line=line,
        fix=f"keep a line under {RENDER_INLINE:,} of these characters, or put it in a code block",
    )
