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
