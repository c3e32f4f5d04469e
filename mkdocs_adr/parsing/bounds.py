"""The size bounds of reading a record: THE rule for how much text each step looks at.

- A file over ``max_file_bytes`` (1 MiB by default) is not read at all: ADR013
  (:func:`mkdocs_adr.parsing.reader.decode`).
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


#: ``[`` characters on one line above which the line is shown as text in the site: the
#: host's Markdown renderer (Python-Markdown 3.x) takes quadratic time on long runs of
#: link openers (``[a](`` x 5,000 takes over 9 s, 30,000 ``[`` over a minute).
RENDER_BRACKETS = 1000


def over_render_bound(text: str) -> list[int]:
    """The (1-based) lines of ``text`` with more than :data:`RENDER_BRACKETS` ``[``."""
    if text.count("[") <= RENDER_BRACKETS:
        return []
    return [n for n, line in enumerate(text.split("\n"), 1) if line.count("[") > RENDER_BRACKETS]


def render_safe(markdown: str) -> str | None:
    """``markdown`` with every ``[`` escaped on the lines over the render bound (they show
    as text, without links), or None when no line is over it."""
    lines = over_render_bound(markdown)
    if not lines:
        return None
    out = markdown.split("\n")
    for n in lines:
        out[n - 1] = out[n - 1].replace("\\[", "[").replace("[", "\\[")
    return "\n".join(out)


def render_bound_problem(path: str, line: int, count: int) -> Problem:
    """ADR023: a line with so many ``[`` that the site shows it as text."""
    return Problem(
        "ADR023",
        Severity.WARNING,
        f"line has {count:,} '[' characters, over the render bound of {RENDER_BRACKETS:,}: "
        "the site shows it as text, without links",
        path=path,
        line=line,
        fix=f"keep a line under {RENDER_BRACKETS:,} '[' characters",
    )
