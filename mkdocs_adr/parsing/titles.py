"""A record's title and the number its heading states: THE title rule.

Which heading is the title is :func:`title_heading`'s rule (the first H1 above the
sections, else an H2 or a reStructuredText title on the first line). The title heading
loses the record's id and the wrappers around it or around the title:

- ``# 3. Use X``, ``# 28 Use X``, ``# 0028: Use X`` (a number, with or without a separator);
- ``# ADR-0012: Use X``, ``# ADR 45 - Use X``, ``# adr-045: Use X``, ``# API-001: State store``
  (a prefix, then the number), also after the kind's label (``# ADR Impl-001 — Use X``);
- ``# [ADR-0005] Use X`` (the id in brackets) and ``# [Use X]`` (the title in brackets).

The title is the heading's text as MkDocs shows it (:func:`inline_text`): ``# Use `nop` for
[ADR-3](0003-x.md)`` is ``Use nop for ADR-3``. Each of these gives the title ``Use X`` and
the heading's number, which
:func:`mkdocs_adr.checks.number_mismatches` compares with the file name's (ADR019). A prefix
counts when it is ``ADR``, a root's prefix, or the prefix of the file's own name (``API`` in
``API-001-state-store.md``), so ``# HTTP2 support`` or ``# RFC 2119: wording`` keep their
words. A number with no separator (``# 28 Use X``) counts only in a numbered file and only
when it reads as an id (see :func:`_counts`), so ``# 2024 roadmap`` keeps its year. Which
id a file name gives is :func:`mkdocs_adr.identity.read_file_name`'s rule; this module only
asks it.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .. import rx
from ..identity import GENERIC_PREFIX, read_file_name

if TYPE_CHECKING:
    from .markdown import Document, Heading

_SEP = r"[.:：)|\-–—]"  # (：, the full-width colon, as CJK titles write it)
#: An id at the start of a heading, then a separator (or only spaces), then the title.
_HEADING_ID = rx.compile(
    r"^(?:(?P<prefix>[A-Za-z]{2,10})[- ]?)?0*(?P<num>\d{1,6})"
    # (a point before a digit is a version's or a decimal's: ``# 1.0 release plan``)
    rf"(?:\s*(?P<sep>(?!\.\d){_SEP})\s*|\s+|$)(?P<title>.*)$"
)
#: The capital letter of a lettered record's id after its number (``ADR-007-A: Title``),
#: then a separator or spaces: the rest of the id, when the file name has that letter.
_LETTER = rx.compile(rf"([A-Z])(?:\s*{_SEP}\s*|\s+)(?=\S)")
#: ``n. Use X`` in a numbered file: the template's number placeholder left unfilled
#: (adr-tools' ``NUMBER. TITLE``, written by hand as ``n.``, ``N.``, ``X.`` or ``NNN.``).
_PLACEHOLDER_NUMBER = rx.compile(r"^(?:[nN]{1,4}|[xX]{1,4}|NUMBER)\.\s+(?=\S)")
#: ``Architecture Decision Record: Use X``, ``ADR: Use X``: the kind of document named
#: before every title of a log, a label like an id (``ADR-0005: Use X``), not part of it.
_KIND_LABEL = rx.compile(
    r"(?i)^(?:architect(?:ure|ural)\s+decision\s+record|adr)\s*(?:[:：]|\s[-–—])\s*(?=\S)"
)
#: ``Architecture Decision Record 9: Use X``: the kind of document and the record's number,
#: read as the id ``ADR 9`` is.
_KIND_NUMBERED = rx.compile(r"(?i)^architect(?:ure|ural)\s+decision\s+record\s+(?=\d)")
#: ``ADR Impl-001 — Use X``: the kind of document, then an id with its own prefix; the
#: id counts as it would alone (the file's or a root's prefix, in any case).
_KIND_PREFIXED = rx.compile(r"(?i)^adr[- ]+(?=[a-z]{2,10}[- ]?\d)")
#: ``{short title of solved problem and solution}``: the template's slot kept as the
#: title (MADR 3 and 4 write it so), in braces from end to end.
_SLOT = rx.compile(r"^\{[^{}]*\}$")
#: ``[ADR-0005] Use X``: an id in brackets before the title.
_BRACKETED_ID = rx.compile(rf"^\[(?P<id>[^\[\]]+)\]\s*(?:{_SEP}\s*)?(?P<title>.*)$")
#: ``[Use X]``: the whole title in brackets (not a link, ``[Use X](x.md)``).
_BRACKETED = rx.compile(r"^\[(?P<inner>[^\[\]]+)\]$")
#: A date or number that starts a file stem, dropped from a title made from the name.
_LEADING_DATE_OR_NUMBER = rx.compile(r"^(?:\d{4}[-_.]\d{1,2}[-_.]\d{1,2}|\d+)[-_ ]*")


#: Where inline Markdown is taken out of a heading: a code span's or an escaped
#: character's place while links and emphasis are read (characters of Unicode's
#: private use area, which no heading that holds them is given: see inline_text).
_HOLD, _HOLD_END = "\ue000", "\ue001"
_BACKTICKS = rx.compile(r"`+")
_ESCAPE = rx.compile(r"\\([!-/:-@\[-`{-~])")
_HELD = rx.compile(f"{_HOLD}(\\d+){_HOLD_END}")
#: ``[text](href)``, ``[text](href "title")`` and ``![alt](src)``: the text may hold one
#: level of brackets; possessive, so a line of brackets is read once.
_LINK = rx.compile(
    r"!?\[((?:[^\[\]]++|\[[^\[\]]*+\])*+)\]\(\s*+(?:<[^<>\n]*+>|[^()\s]*+)"
    r"(?:\s++(?:\"[^\"]*+\"|'[^']*+'))?+\s*+\)"
)
#: Emphasis as Python-Markdown reads it: ``**x**``, ``__x__``, ``*x*`` anywhere; ``_x_``
#: only between non-word characters (``snake_case_name`` keeps its underscores).
_STRONG = rx.compile(r"\*\*([^*\s](?:[^*]*[^*\s])?)\*\*|(?<!\w)__([^_\s](?:[^_]*[^_\s])?)__(?!\w)")
_EM = rx.compile(r"\*([^*\s](?:[^*]*[^*\s])?)\*|(?<!\w)_([^_\s](?:[^_]*[^_\s])?)_(?!\w)")


#: The characters inline Markdown needs: a heading without any is its own text.
_MARKS = rx.compile(r"[`\\\[*_]")


def inline_text(text: str) -> str:
    """The text a heading's inline Markdown shows, as MkDocs' page title takes it: a
    link's text (``[ADR-0019](0019-x.md)`` is ``ADR-0019``), an image's alt text, a code
    span's content without its backticks, emphasis without its marks, an escaped
    character without its backslash. Every other character stays as written (the
    views make control characters harmless where they leave the product).

    The result is text, not HTML: it is escaped wherever it is shown, as before, and
    HTML in a heading stays as written. A heading that holds the private-use characters
    this reading marks its places with is left as written.
    """
    if _MARKS.search(text) is None:
        return text  # the usual heading (one look in C)
    return _marked_text(text)


@functools.lru_cache(maxsize=4096)
def _marked_text(text: str) -> str:
    """:func:`inline_text` of a heading with a mark in it."""
    if _HOLD in text or _HOLD_END in text:
        return text
    held: list[str] = []

    def hold(value: str) -> str:
        held.append(value)
        return f"{_HOLD}{len(held) - 1}{_HOLD_END}"

    out = _hold_code(text, hold)
    out = _ESCAPE.sub(lambda m: hold(m.group(1)), out)
    out = _LINK.sub(lambda m: m.group(1), out)
    out = _STRONG.sub(lambda m: m.group(1) or m.group(2), out)
    out = _EM.sub(lambda m: m.group(1) or m.group(2), out)
    # (what was held holds no mark: a heading with those characters is not read)
    return _HELD.sub(lambda m: held[int(m.group(1))], out).strip()


def _hold_code(text: str, hold: Callable[[str], str]) -> str:
    """``text`` with each code span (a run of backticks up to the next run of the same
    length) given to ``hold`` in exchange for its mark, its content stripped of one
    space each side as CommonMark does."""
    if "`" not in text:
        return text
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text)]
    starts: dict[int, list[int]] = {}
    for k, (a, b) in enumerate(runs):
        starts.setdefault(b - a, []).append(k)
    parts: list[str] = []
    pos = k = 0
    while k < len(runs):
        a, b = runs[k]
        same = starts[b - a]
        after = bisect.bisect_right(same, k)
        if after == len(same):
            k += 1  # no closing run: the backticks are text
            continue
        close = same[after]
        content = text[b : runs[close][0]]
        if content.startswith(" ") and content.endswith(" ") and content.strip():
            content = content[1:-1]
        parts.append(text[pos:a])
        parts.append(hold(content))
        pos = runs[close][1]
        k = close + 1
    parts.append(text[pos:])
    return "".join(parts)


def title_heading(
    doc: Document, file_name: str, prefixes: Iterable[str], status_headings: frozenset[str]
) -> Heading | None:
    """The heading that is the record's title, if it has one.

    - The first H1, when no H2 comes before it: an H1 after the record's ``##`` sections
      (``# Consequences`` as its last one) is a section put at the wrong level.
    - Else an H2 that opens the body (its first non-blank line), when it is no section
      name (``## Status``, ``## Context``, ``## Proposal``, in ``status_headings`` or
      :func:`_section_names`) and it states the record's id (``## ADR Arch-001 Use X``)
      or the record's sections are below it (its next heading is deeper).
    - Else a first line underlined with ``*``, ``~``, ``^`` or ``#`` as reStructuredText
      writes a title (``17. Use X`` over ``*******``: Markdown reads a paragraph and a
      rule), given as an H1 on that line.
    """
    heads = doc.headings
    for h in heads:
        if h.level == 1:
            return h
        if h.level == 2:
            break
    lines, fenced = doc.lines, doc.fenced
    first = 0  # (the body's first non-blank line: most often its first)
    while first < len(lines) and not lines[first].strip():
        first += 1
    if first >= len(lines) or fenced[first]:
        return None
    if heads and heads[0].level == 2 and heads[0].line - doc.offset - 1 == first:
        return _opening_h2(heads, file_name, prefixes, status_headings)
    if heads and heads[0].line - doc.offset - 1 == first:
        return None  # a deeper heading opens the body
    under = lines[first + 1] if first + 1 < len(lines) else ""
    if under[:1] in _RST_MARKS and _RST_UNDERLINE.match(under) and _RST_TEXT.match(lines[first]):
        from .markdown import Heading

        return Heading(1, lines[first].strip(), first + doc.offset + 1, first + 2)
    return None


#: A reStructuredText title's underline: three or more of one of these (``=`` and ``-``
#: are Markdown's own setext headings), and the title line it may follow.
_RST_MARKS = frozenset("*~^#")
_RST_UNDERLINE = rx.compile(r"^(\*{3,}|~{3,}|\^{3,}|#{3,})[ \t]*$")
_RST_TEXT = rx.compile(r"^ {0,3}(?![#>|<`~]|[-*+](?:\s|$))\S")


def _opening_h2(
    heads: list[Heading], file_name: str, prefixes: Iterable[str], status_headings: frozenset[str]
) -> Heading | None:
    """:func:`title_heading`'s H2 rule for the record's first heading, an H2 on its first
    line."""
    from .markdown import heading_key  # (here: importing titles loads no other module)

    h2 = heads[0]
    title, number = heading(h2.text, file_name, prefixes)
    key = heading_key(title)
    if key in status_headings or key in _section_names():
        return None  # the first of the record's sections: it has no title heading
    if number is not None or (len(heads) > 1 and heads[1].level > 2):
        return h2
    return None


@functools.cache
def _section_names() -> frozenset[str]:
    """The names of a record's sections that never title one (case-folded): MADR's and
    Nygard's, a few translations, the decision headings
    (:data:`~.sections.DECISION_HEADINGS`) and the Links headings
    (:data:`~.common.LINKS_HEADINGS`)."""
    from .common import LINKS_HEADINGS
    from .sections import DECISION_HEADINGS

    return frozenset(
        {
            *DECISION_HEADINGS,
            *LINKS_HEADINGS,
            "context",
            "context and problem statement",
            "problem statement",
            "problem",
            "issue",
            "background",
            "motivation",
            "summary",
            "overview",
            "introduction",
            "decision drivers",
            "considered options",
            "options",
            "options considered",
            "alternatives",
            "alternatives considered",
            "rationale",
            "consequences",
            "positive consequences",
            "negative consequences",
            "implications",
            "pros and cons of the options",
            "more information",
            "notes",
            "references",
            "validation",
            "confirmation",
            "date",
            "deciders",
            "contexto",
            "contexte",
            "kontext",
            "hintergrund",
            "背景",
            "上下文",
            "consequências",
            "consecuencias",
            "conséquences",
            "konsequenzen",
        }
    )


def heading(text: str, file_name: str, prefixes: Iterable[str]) -> tuple[str, int | None]:
    """(title, number the heading states) of the title heading ``text`` of the file
    ``file_name`` (:func:`title_heading`).

    ``prefixes`` are the roots' id prefixes. The number is ``None`` when the heading
    names none; the title is the whole heading when nothing is left after the id, and
    ``""`` when the heading is the template's slot (``{short title of ...}``).
    """
    if text[-1:] == "}" and "{" in text:
        text = _ATTRIBUTES.sub("", text)
    return _without_id(inline_text(text.strip()), file_name, prefixes)


#: Attributes after a heading's text (``# Use a cache {#adr_0001}``, ``{: .big }``,
#: ``{.new}``): attr_list's and Doxygen's anchors, which the page does not show.
_ATTRIBUTES = rx.compile(r"[ \t]*\{:?[ \t]*[#.][^{}\n]*\}$")


#: ``title: 0003-use-markdown-records``: a site generator's page key (Jekyll's, a
#: just-the-docs log's), the file's slug: lower-case words joined by hyphens, after the
#: record's number or not.
_SLUG = rx.compile(r"(?:\d+-)?[a-z0-9]+(?:-[a-z0-9]+)+")


def is_slug(text: str) -> bool:
    """Whether a frontmatter title is a file name's slug, not a title: a title heading
    then gives the record's title (``# Use Markdown Records``)."""
    return _SLUG.fullmatch(text.strip()) is not None


def frontmatter_title(text: str, file_name: str, prefixes: Iterable[str]) -> str:
    """A frontmatter ``title`` without the record's id before it, as :func:`heading` takes
    it from an H1 (``title: 0001-Pick a model``, written to order a theme's navigation);
    the rest as written (frontmatter is no Markdown)."""
    return _without_id(text.strip(), file_name, prefixes)[0]


def _without_id(raw: str, file_name: str, prefixes: Iterable[str]) -> tuple[str, int | None]:
    if raw[:1] == "{" and _SLOT.match(raw):
        return "", None  # no title written: the file name's is the record's
    known = prefixes if type(prefixes) is tuple else tuple(prefixes)
    named = read_file_name(file_name, known)
    own = _own_prefixes(known)
    if named.prefix and named.prefix not in own:
        own = own | {named.prefix}
    candidate = raw
    # (each pattern below needs its first character: one look at it before the pattern)
    first = raw[:1]
    if first in _KIND_FIRST:
        numbered = _KIND_NUMBERED.match(raw)
        if numbered:
            candidate = f"ADR {raw[numbered.end() :]}"
        elif labelled := _KIND_PREFIXED.match(raw):
            candidate = raw[labelled.end() :]
    if first == "[":
        bracketed = _BRACKETED_ID.match(raw)
        if bracketed and _HEADING_ID.match(bracketed["id"].strip()):
            candidate = f"{bracketed['id'].strip()}: {bracketed['title']}"
    title, number = raw, None
    m = _HEADING_ID.match(candidate)
    if m is not None and _counts(m, own, named.number):
        number = int(m["num"])
        title = m["title"].strip() or raw
        if named.suffix and m["sep"] == "-" and title[:1] == named.suffix:
            lettered = _LETTER.match(title)
            if lettered is not None:
                title = title[lettered.end() :]
    elif named.number is not None and (unfilled := _PLACEHOLDER_NUMBER.match(raw)):
        title = raw[unfilled.end() :]  # the file's number is the record's (no heading number)
    if title[:1] == "[":
        inner = _BRACKETED.match(title)
        if inner:
            title = inner["inner"].strip() or title
    if title[:1] in _KIND_FIRST:
        label = _KIND_LABEL.match(title)
        if label:
            title = title[label.end() :]
    return title, number


#: What :data:`_KIND_NUMBERED` and :data:`_KIND_LABEL` match starts with (``architect...``,
#: ``adr``, in any case).
_KIND_FIRST = frozenset("aA")


@functools.lru_cache(maxsize=64)
def _own_prefixes(known: tuple[str, ...]) -> frozenset[str]:
    """The prefixes a heading's id may carry: ``ADR`` and the roots' (upper-cased)."""
    return frozenset({GENERIC_PREFIX, *(p.upper() for p in known)})


def _counts(m: re.Match[str], own: frozenset[str], file_number: int | None) -> bool:
    """Whether the id ``m`` found at the start of a heading is the record's id.

    A number without a separator (``# 28 Use X``) counts in a numbered file when it
    is the file's number, is zero-padded (``# 0028 Use X``), or is followed by a
    capitalised word and is not a year: ``# 2024 roadmap`` and ``# 3 ways to cache``
    keep their numbers as words.
    """
    prefix = m["prefix"]
    if prefix is not None:
        return prefix.upper() in own
    if m["sep"]:
        return True
    words = m["title"].strip()
    if file_number is None or not words:
        return False
    number = int(m["num"])
    written = m.group(0)[: m.end("num")]
    year = len(m["num"]) == 4 and 1900 <= number <= 2099
    return number == file_number or written.startswith("0") or (words[0].isupper() and not year)


def from_file_name(name: str, prefixes: Iterable[str] = ()) -> str:
    """The title a file name gives when the record has none (``adr-045-check-thing.md``
    -> ``Check thing``)."""
    rest = read_file_name(name, prefixes).rest
    rest = _LEADING_DATE_OR_NUMBER.sub("", rest)
    return rest.replace("-", " ").replace("_", " ").strip().capitalize() or name
