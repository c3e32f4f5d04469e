"""``Kept.each``: a view's list of pieces reused by place, remade where a record changed
(ADR-0067), giving what per-record ``Kept.get`` gives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mkdocs_adr.views.kept import Kept


@dataclass(frozen=True, eq=False)
class _Rec:
    path: str
    status: str = "accepted"


class _Log:
    """A log: only its identity matters to ``Kept``."""


def _render(
    kept: Kept,
    records: list[Any],
    stale: frozenset[str] | None,
    made: list[str],
    context: object = "ctx",
    start: int | None = None,
) -> list[str]:
    kept.begin(_Log(), context, lambda before: stale)

    def make(rec: Any) -> str:
        made.append(rec.path)
        return f"{rec.path}:{rec.status}"

    return kept.each("table", records, make, extra="cols" if start is None else None, start=start)


def test_an_unchanged_list_is_reused_and_only_changed_records_are_made() -> None:
    recs = [_Rec(f"r{i}") for i in range(5)]
    kept, made = Kept(), []
    assert _render(kept, recs, None, made) == [f"r{i}:accepted" for i in range(5)]
    assert made == [f"r{i}" for i in range(5)]
    made.clear()
    assert _render(kept, recs, frozenset(), made) == [f"r{i}:accepted" for i in range(5)]
    assert made == []
    # a new object for r2 (a status edit) and r4 named stale (it reads r2)
    recs[2] = _Rec("r2", "deprecated")
    out = _render(kept, recs, frozenset({"r2", "r4"}), made)
    assert sorted(made) == ["r2", "r4"]
    assert out[2] == "r2:deprecated" and out[4] == "r4:accepted"


def test_a_stale_path_that_left_the_list_is_ignored_and_unknown_changes_redo_all() -> None:
    recs = [_Rec(f"r{i}") for i in range(3)]
    kept, made = Kept(), []
    _render(kept, recs, None, made)
    made.clear()
    _render(kept, recs, frozenset({"elsewhere"}), made)
    assert made == []
    _render(kept, recs, None, made)  # changes unknown: every piece made again
    assert made == ["r0", "r1", "r2"]


def test_pieces_checked_by_the_list_stay_kept_for_a_render_that_asks_by_record() -> None:
    """The list's reuse stamps each piece as drawn in that render: when the list changes
    length next (a record added), the unchanged records' pieces are still reused."""
    recs = [_Rec(f"r{i}") for i in range(4)]
    kept, made = Kept(), []
    _render(kept, recs, None, made)
    _render(kept, recs, frozenset(), made)
    made.clear()
    added = [*recs[:2], _Rec("new"), *recs[2:]]
    out = _render(kept, added, frozenset({"new"}), made)
    assert made == ["new"]
    assert out == ["r0:accepted", "r1:accepted", "new:accepted", "r2:accepted", "r3:accepted"]
    made.clear()
    # and a record moved to another place by the list is found by its path
    moved = [added[4], *added[:4]]
    assert _render(kept, moved, frozenset(), made) == [
        "r3:accepted",
        "r0:accepted",
        "r1:accepted",
        "new:accepted",
        "r2:accepted",
    ]
    assert made == []


def test_numbered_pieces_are_made_again_in_another_place() -> None:
    recs = [_Rec(f"r{i}") for i in range(3)]
    kept, made = Kept(), []
    _render(kept, recs, None, made, start=0)
    made.clear()
    _render(kept, recs, frozenset(), made, start=0)
    assert made == []
    _render(kept, recs, frozenset(), made, start=10)  # each row numbered otherwise
    assert made == ["r0", "r1", "r2"]


def test_another_context_makes_every_piece_again() -> None:
    recs = [_Rec(f"r{i}") for i in range(3)]
    kept, made = Kept(), []
    _render(kept, recs, None, made)
    made.clear()
    _render(kept, recs, frozenset(), made, context="another URL")
    assert made == ["r0", "r1", "r2"]


def test_an_arrangement_is_kept_while_what_it_reads_is_the_same() -> None:
    """``Kept.arranged``: a status edit (a new object, the same number) keeps the order;
    a number edit arranges again; the groups hold the records given, not the last ones."""

    @dataclass(frozen=True, eq=False)
    class _Numbered:
        path: str
        number: int
        status: str = "accepted"

    recs = [_Numbered("r0", 3), _Numbered("r1", 1), _Numbered("r2", 2), _Numbered("r3", 0)]
    kept, arranged = Kept(), []

    def arrange(records: Any) -> list[list[int]]:
        arranged.append(len(records))
        return [sorted(range(len(records)), key=lambda i: records[i].number)]

    def reads(rec: Any) -> object:
        return rec.number

    assert kept.arranged("s", recs, reads, arrange) == [[recs[3], recs[1], recs[2], recs[0]]]  # type: ignore[arg-type]
    recs[2] = _Numbered("r2", 2, "deprecated")
    assert kept.arranged("s", recs, reads, arrange) == [[recs[3], recs[1], recs[2], recs[0]]]  # type: ignore[arg-type]
    assert arranged == [4]
    recs[0] = _Numbered("r0", -1)
    assert kept.arranged("s", recs, reads, arrange) == [[recs[0], recs[3], recs[1], recs[2]]]  # type: ignore[arg-type]
    assert arranged == [4, 4]


def test_timeline_months_through_a_kept_arrangement_match_a_fresh_one() -> None:
    from mkdocs_adr.views import timeline as timeline_view

    @dataclass(frozen=True, eq=False)
    class _Dated:
        path: str
        date: str | None
        number: int | None
        id: str

    recs = [
        _Dated("a", "2024-01-05", 1, "ADR-0001"),
        _Dated("b", "2024-01-09", 2, "ADR-0002"),
        _Dated("c", None, 3, "ADR-0003"),
        _Dated("d", "2023-12-01", 4, "ADR-0004"),
    ]
    kept = Kept()
    assert timeline_view.months(recs, kept) == timeline_view.months(recs)  # type: ignore[arg-type]
    recs[3] = _Dated("d", "2024-01-07", 4, "ADR-0004")  # moved to another month
    got = timeline_view.months(recs, kept)  # type: ignore[arg-type]
    assert got == timeline_view.months(recs)  # type: ignore[arg-type]
    assert [m.key for m in got] == ["2024-01", ""]
    assert [r.path for r in got[0].records] == ["b", "d", "a"]


def test_a_record_moved_between_lists_after_a_reuse_keeps_a_valid_piece() -> None:
    """Pieces a list reused are stamped only when a render asks by record: a record that
    moves to another list (a date edit: another month) after a reuse is found by path,
    and a stale one is made again."""
    a, b, c = _Rec("a"), _Rec("b"), _Rec("c")
    kept, made = Kept(), []

    def render(lists: dict[str, list[Any]], stale: frozenset[str] | None) -> dict[str, list[str]]:
        kept.begin(_Log(), "ctx", lambda before: stale)

        def make(rec: Any) -> str:
            made.append(rec.path)
            return f"{rec.path}:{rec.status}"

        return {slot: kept.each(slot, recs, make) for slot, recs in lists.items()}

    render({"m1": [a, b], "m2": [c]}, None)
    render({"m1": [a, b], "m2": [c]}, frozenset())
    made.clear()
    assert render({"m1": [a], "m2": [b, c]}, frozenset()) == {
        "m1": ["a:accepted"],
        "m2": ["b:accepted", "c:accepted"],
    }
    assert made == []
    assert render({"m1": [a], "m2": [c, b]}, frozenset({"b"})) == {
        "m1": ["a:accepted"],
        "m2": ["c:accepted", "b:accepted"],
    }
    assert made == ["b"]


def _write(root: Any, name: str, number: int, title: str) -> None:
    (root / name).write_text(
        f"# {number}. {title}\n\nDate: 2024-01-15\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n",
        encoding="utf-8",
    )


def test_the_pages_order_through_a_kept_arrangement_matches_a_fresh_one(tmp_path: Any) -> None:
    """``PageContext.build`` with a ``Kept`` (serve, ADR-0068) reuses the last build's
    order by place only while no record that is not the same object moved: a record
    renumbered (a new object, another number) is ordered again, as a fresh build orders."""
    from mkdocs_adr.config import from_options
    from mkdocs_adr.log import ParseCache, load
    from mkdocs_adr.views import page as page_view

    root = tmp_path / "docs" / "adr"
    (root / "x").mkdir(parents=True)
    (root / "a").mkdir()
    for n in range(1, 6):
        _write(root, f"x/000{n}-rec-{n}.md", n, f"Record {n}")
    config = from_options({}, project_dir=tmp_path, docs_dir=tmp_path / "docs", config_file=None)
    cache, kept = ParseCache(), Kept()

    def order(log: Any, with_kept: bool) -> list[str]:
        if with_kept:
            kept.begin(log, "ctx", lambda before: None)
        ctx = page_view.PageContext.build(log, kept=kept if with_kept else None)
        return [r.id for recs in ctx.order.values() for r in recs]

    first = load(config, cache=cache)
    assert order(first, True) == order(first, False)
    assert order(first, True)[0] == "ADR-0001"
    # ADR-0001 becomes ADR-0009 in a folder read first: the same number of records, one
    # of them moved, in another place of the log than of the order
    (root / "x" / "0001-rec-1.md").unlink()
    _write(root, "a/0009-rec-1.md", 9, "Record 1")
    second = load(config, cache=cache)
    assert second.records[0].id == "ADR-0009"
    assert order(second, True) == order(second, False)
    assert order(second, False)[-1] == "ADR-0009"


def test_the_agent_files_order_taken_from_the_page_context_matches_a_sort(tmp_path: Any) -> None:
    """``llms.by_root`` given the page context's order (the site seeds it, so the agent
    files sort nothing again) equals the order it sorts itself, for two roots, a record
    renumbered through a kept arrangement, and an empty root."""
    from mkdocs_adr.config import from_options
    from mkdocs_adr.log import ParseCache, load
    from mkdocs_adr.views import llms
    from mkdocs_adr.views import page as page_view

    docs = tmp_path / "docs"
    for folder in ("adr", "rfc", "empty"):
        (docs / folder).mkdir(parents=True)
    for n in (3, 1, 2):
        _write(docs / "adr", f"000{n}-rec-{n}.md", n, f"Record {n}")
    _write(docs / "rfc", "0002-b.md", 2, "B")
    _write(docs / "rfc", "0001-a.md", 1, "A")
    roots = [{"path": "adr"}, {"path": "rfc", "prefix": "RFC"}, {"path": "empty", "prefix": "E"}]
    config = from_options({"roots": roots}, project_dir=tmp_path, docs_dir=docs, config_file=None)
    cache, kept = ParseCache(), Kept()

    def both(log: Any) -> tuple[Any, Any]:
        kept.begin(log, "ctx", lambda before: None)
        ctx = page_view.PageContext.build(log, kept=kept)
        return llms._by_root(log, ctx.order), llms._by_root(log)

    seeded, sorted_ = both(load(config, cache=cache))
    assert seeded == sorted_ and list(seeded) == list(sorted_)
    assert [len(v) for v in seeded.values()] == [3, 2, 0]
    (docs / "adr" / "0001-rec-1.md").unlink()
    _write(docs / "adr", "0009-rec-1.md", 9, "Record 1")
    seeded, sorted_ = both(load(config, cache=cache))
    assert seeded == sorted_ and list(seeded) == list(sorted_)
    assert seeded[next(iter(seeded))][-1].id == "ADR-0009"
