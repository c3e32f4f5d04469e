"""The cheap tests and constructors a cold ``plan`` takes (docs/adr/0064): each gives what
the slower way it stands in for gives, on both sides of its condition."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS
from mkdocs_adr.discovery import Found
from mkdocs_adr.identity import FileName, Resolution
from mkdocs_adr.model import Problem, Record, Relation, Severity, Unit, slot_init
from mkdocs_adr.parsing import ParseOptions, parse_bytes
from mkdocs_adr.parsing.formats.base import Context
from mkdocs_adr.parsing.markdown import FEW_BRACKETS, LINK, links, scan

OPTIONS = ParseOptions(
    aliases=tuple(sorted(DEFAULT_ALIASES.items())),
    status_headings=frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS),
    prefixes=("ADR",),
)


def parse(text: str, name: str = "adr/0007-x.md"):  # type: ignore[no-untyped-def]
    return parse_bytes(text.encode("utf-8"), path=name, options=OPTIONS)


# ------------------------------------------------------------------ slot_init


def _plain(cls: type) -> type:
    """The same fields as ``cls`` in a frozen slotted dataclass that keeps the
    generated ``__init__``."""
    spec = [
        (f.name, f.type, dataclasses.field(default=f.default))
        if f.default is not dataclasses.MISSING
        else (f.name, f.type)
        for f in dataclasses.fields(cls)
    ]
    return dataclasses.make_dataclass(f"Plain{cls.__name__}", spec, frozen=True, slots=True)


@pytest.mark.parametrize(
    "cls", [Problem, Relation, Unit, Record, FileName, Resolution, Found, Context]
)
def test_slot_init_takes_what_the_generated_init_takes(cls: type) -> None:
    plain = _plain(cls)
    assert inspect.signature(cls.__init__) == inspect.signature(plain.__init__)
    names = [f.name for f in dataclasses.fields(cls)]
    required = [f.name for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING]
    values = {name: f"v-{name}" for name in required}
    made, expected = cls(**values), plain(**values)
    assert [getattr(made, n) for n in names] == [getattr(expected, n) for n in names]
    # positionally, every field given
    every = [f"w-{n}" for n in names]
    assert [getattr(cls(*every), n) for n in names] == every
    if required:
        with pytest.raises(TypeError, match="missing"):
            cls()
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.__setattr__(names[0], "x")


def test_slot_init_objects_compare_hash_pickle_and_replace_as_before() -> None:
    rel = Relation("supersedes", "ADR-0001", "frontmatter", 3, verb="supersedes")
    same = Relation("supersedes", "ADR-0001", "frontmatter", 3, "supersedes", "", None, None)
    assert rel == same and hash(rel) == hash(same)
    assert pickle.loads(pickle.dumps(rel)) == rel
    assert dataclasses.replace(rel, target_id="ADR-0001").target_id == "ADR-0001"
    problem = Problem("ADR001", Severity.WARNING, "m", path="p", line=2)
    assert problem.with_ids(("ADR-0002",)).ids == ("ADR-0002",)
    assert Unit("D1", "t", "accepted", "Accepted", 4).relations == ()


def test_slot_init_refuses_what_it_cannot_serve() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(slots=True)
    class NotFrozen:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True, slots=True)
    class KwOnly:
        a: int = dataclasses.field(default=0, kw_only=True)

    @dataclasses.dataclass(frozen=True, slots=True)
    class PostInit:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (NoSlots, NotFrozen, Factory, KwOnly, PostInit, int):
        with pytest.raises(TypeError, match="slot_init"):
            slot_init(cls)


# ------------------------------------------------------- scan: setext headings


def _setext_by_lines(text: str) -> list[tuple[int, str, int]]:
    """The headings of ``text`` read one line at a time (no guard): an underline
    after a one-line paragraph makes the heading above it."""
    return [(h.level, h.text, h.line) for h in scan(text).headings]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # no underline anywhere: no search result, no setext heading
        ("# T\n\nplain - text = more\n\n## S\n\nx\n", [(1, "T", 1), (2, "S", 5)]),
        # the first underline deep in the text: the loop starts at it and counts lines
        ("# T\n\na\n\nb\n\nTitle two\n---------\n\nc\n", [(1, "T", 1), (2, "Title two", 7)]),
        ("Top\n===\n\ntext\n\nNext\n  ---\n", [(1, "Top", 1), (2, "Next", 6)]),
        # an underline under a list item or a paragraph's later line makes no heading
        ("- item\n---\n\npara\nmore\n---\n", []),
    ],
)
def test_setext_headings_found_from_the_first_underline(
    text: str, expected: list[tuple[int, str, int]]
) -> None:
    assert _setext_by_lines(text) == expected


# --------------------------------------------------------------- section_text


@pytest.mark.parametrize(
    "body",
    [
        "\n\nfirst\n\n### sub\n\nafter\n\n",
        "only\n",
        "\n\n",
        "```\n# not a heading\n```\ntail\n",
    ],
)
def test_section_text_whole_section_is_the_slice(body: str) -> None:
    doc = scan(f"# T\n\n## D1. Unit\n{body}## D2. Next\n\nx\n")
    sec = next(s for s in doc.sections(level=2) if s.name == "D1. Unit")
    whole = doc.section_text(sec, stop_at_subheading=False)
    assert whole == "\n".join(doc.lines[sec.start : sec.end]).strip("\n")
    # stopping at a sub-heading still stops there (and only outside a fence)
    upto = doc.section_text(sec)
    assert ("after" in upto) is ("after" in body and "### sub" not in body)
    assert ("# not a heading" in upto) is ("```" in body)


# ------------------------------------------------- container units: link lines


def test_unit_link_lines_read_and_lines_without_a_link_skipped() -> None:
    p = parse(
        "---\nstyle: container\n---\n# ADR-0007: Units\n\n## D1. One\n\nStatus: accepted\n"
        "Supersedes [ADR-0003](0003-x.md)\nplain words: no link\n"
        "Relates to [ADR-0004](0004-x.md)\n\n## D2. Two\n\nStatus: proposed\n"
    )
    one = p.units[0]
    assert [(r.kind, r.target) for r in one.relations] == [
        ("supersedes", "0003-x.md"),
        ("relates-to", "0004-x.md"),
    ]
    assert one.text.startswith("Status: accepted") and one.text.endswith("(0004-x.md)")
    assert p.units[1].relations == ()


# ------------------------------------------------------ status section review-by


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Review by: 2025-06-01", "2025-06-01"),
        ("* **REVIEW-BY**: 2025-07-01", "2025-07-01"),
        ("rEvIeW bY: 2025-08-01", "2025-08-01"),
        ("Rewiew by: 2025-06-01", None),  # no "v": not read, as the pattern would not
        ("Accepted by the board", None),
    ],
)
def test_review_by_in_the_status_section(line: str, expected: str | None) -> None:
    p = parse(f"# 7. T\n\n## Status\n\nAccepted\n\n{line}\n\n## Context\n\nx\n")
    assert p.review_by == expected


# --------------------------------------------------------------- links: few brackets


@pytest.mark.parametrize(
    "text",
    [
        "no link here",
        "see [a](0001-a.md) and [b](0002-b.md)",
        "![img](x.png) then [a](0001-a.md)",
        "!![x](y) [[nested] label](z.md) [broken](",
        '[a] [b](c) [d]( e "t") [f](<g h>)',
        "[x](y)[z](w)",
        "![only](image.png)",
    ],
)
def test_few_links_are_the_pattern_s_matches(text: str) -> None:
    assert text.count("[") <= FEW_BRACKETS
    assert [m.span() for m in links(text)] == [m.span() for m in LINK.finditer(text)]
    assert [m.groups() for m in links(text)] == [m.groups() for m in LINK.finditer(text)]


# ------------------------------------------------------------ keep_until_exit


def test_keep_until_exit_holds_only_from_the_console(monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_adr import kept

    assert kept._held is None  # in-process: nothing is held
    kept.keep_until_exit(object())
    assert kept._held is None
    monkeypatch.setattr(kept, "_held", None)
    kept.hold_until_exit()
    held = kept._held
    assert held is not None and held[0] is held  # the cycle
    value = object()
    kept.keep_until_exit(value)
    kept.hold_until_exit()  # a second call keeps what is held
    assert kept._held is held and held[1:] == [value]
