"""The relation graph: the one place that decides succession, for records and units.

Most tests build a :class:`RelationGraph` directly; the last ones load small real
logs and check that every caller (INDEX, banners, archive, review, retrieval) gives
the graph's answer.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

import pytest

from mkdocs_adr.archive.eligibility import candidates, dispositions
from mkdocs_adr.authoring import review_due
from mkdocs_adr.config import Config
from mkdocs_adr.graph import RelationGraph, Succession
from mkdocs_adr.log import Log, load
from mkdocs_adr.views import index as index_view
from mkdocs_adr.views import page as page_view

Supersession = tuple[str, str] | tuple[str, str, str]


def graph(
    statuses: dict[str, str],
    supersedes: Sequence[Supersession] = (),
    units: dict[str, dict[str, str]] | None = None,
) -> RelationGraph:
    """A graph where each ``(new, old)`` or ``(new, old, unit of old)`` is a supersession."""
    g = RelationGraph(statuses, units)
    for new, old, *unit in supersedes:
        g.add(new, "supersedes", old, "frontmatter", to_unit=unit[0] if unit else None)
    return g


# ------------------------------------------------------------------ whole records


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        ("accepted", True),
        ("proposed", False),
        ("draft", False),
        ("deprecated", False),
        ("rejected", False),
        ("unknown", False),
        ("missing", False),
        ("superseded", False),  # superseded, but no successor named
    ],
)
def test_in_effect_of_a_record_alone(status: str, expected: bool) -> None:
    g = graph({"A": status})
    assert g.in_effect("A") is expected
    assert g.successor("A") == Succession(None, "none")
    assert g.direct_successors("A") == []


def test_superseded_only_by_a_proposal_stays_in_effect() -> None:
    g = graph({"A": "superseded", "B": "proposed"}, [("B", "A")])
    assert g.in_effect("A")
    assert not g.in_effect("B")
    assert g.successor("A") == Succession(None, "not-accepted", (), ("B",))
    assert g.direct_successors("A") == ["B"]
    assert g.effective_successors("A") == []


@pytest.mark.parametrize("successor", ["draft", "rejected"])
def test_a_successor_that_never_took_effect_retires_nothing(successor: str) -> None:
    g = graph({"A": "superseded", "B": successor}, [("B", "A")])
    assert g.in_effect("A")
    assert g.successor("A").state == "not-accepted"


def test_an_accepted_successor_retires_the_record() -> None:
    g = graph({"A": "superseded", "B": "accepted"}, [("B", "A")])
    assert not g.in_effect("A")
    assert g.in_effect("B")
    assert g.successor("A") == Succession("B", "current", ("B",))
    assert g.effective_successors("A") == ["B"]


def test_chain_a_b_c_is_followed_to_the_record_in_effect() -> None:
    g = graph({"A": "superseded", "B": "superseded", "C": "accepted"}, [("B", "A"), ("C", "B")])
    assert g.successor("A") == Succession("C", "current", ("B", "C"))
    assert g.successor("B") == Succession("C", "current", ("C",))
    assert g.successor("C") == Succession(None, "none")
    assert [g.in_effect(r) for r in "ABC"] == [False, False, True]
    assert g.direct_successors("A") == ["B"]  # one step only
    assert g.supersedes("C", "A") and g.supersedes("B", "A")
    assert not g.supersedes("A", "C")


def test_a_chain_stops_at_a_record_superseded_only_by_a_proposal() -> None:
    g = graph({"A": "superseded", "B": "superseded", "C": "proposed"}, [("B", "A"), ("C", "B")])
    assert g.successor("A") == Succession("B", "current", ("B",))
    assert g.in_effect("B") and not g.in_effect("A")
    assert g.successor("B") == Succession(None, "not-accepted", (), ("C",))


def test_a_cycle_names_no_successor() -> None:
    g = graph({"A": "superseded", "B": "superseded"}, [("B", "A"), ("A", "B")])
    assert g.cycles() == [["A", "B"]]
    succ = g.successor("A")
    assert (succ.current, succ.state) == (None, "cycle")
    assert "A" in (*succ.chain, *succ.candidates)
    assert not g.in_effect("A") and not g.in_effect("B")


def test_no_cycle_in_a_plain_chain() -> None:
    g = graph({"A": "superseded", "B": "superseded", "C": "accepted"}, [("B", "A"), ("C", "B")])
    assert g.cycles() == []


def test_two_accepted_successors_are_ambiguous() -> None:
    g = graph({"A": "superseded", "B": "accepted", "C": "accepted"}, [("B", "A"), ("C", "A")])
    assert g.successor("A") == Succession(None, "ambiguous", (), ("B", "C"))
    assert not g.in_effect("A")
    assert g.direct_successors("A") == ["B", "C"]


def test_an_accepted_and_a_proposed_successor_are_not_ambiguous() -> None:
    g = graph({"A": "superseded", "B": "accepted", "C": "proposed"}, [("B", "A"), ("C", "A")])
    assert g.successor("A") == Succession("B", "current", ("B",))
    assert g.direct_successors("A", accepted_only=True) == ["B"]


def test_accepted_record_with_an_accepted_successor_is_contested() -> None:
    """The old record still says accepted: it is in effect, and the page warns (ADR016)."""
    g = graph({"A": "accepted", "B": "accepted", "P": "proposed"}, [("B", "A"), ("P", "A")])
    assert g.in_effect("A")
    assert g.direct_successors("A", accepted_only=True) == ["B"]


def test_deprecated_record_lists_its_replacement_but_is_out_of_effect() -> None:
    g = graph({"A": "deprecated", "B": "proposed"}, [("B", "A")])
    assert not g.in_effect("A")
    assert g.direct_successors("A") == ["B"]


def test_backwards_and_non_authoritative_relations() -> None:
    g = RelationGraph({"A": "superseded", "B": "accepted", "C": "accepted"})
    g.add("A", "superseded-by", "B", "status-section")  # A says: superseded by B
    g.add("C", "supersedes", "A", "prose")  # a sentence is not metadata
    g.add("C", "mentions", "A", "link")
    edge = next(g.edges("supersedes"))
    assert (edge.source, edge.target, edge.declared_by) == ("B", "A", "A")
    assert g.direct_successors("A") == ["B"]
    assert g.successor("A") == Succession("B", "current", ("B",))


def test_status_of_a_record_outside_the_graph_can_be_given() -> None:
    """A record whose id two files claim is no node; its own status still answers."""
    g = graph({"B": "accepted"})
    assert not g.in_effect("DUP")
    assert g.in_effect("DUP", status="accepted")
    assert not g.in_effect("DUP", status="superseded")
    assert g.in_effect("DUP", status="proposed", unit_statuses={"D1": "accepted"})


# ------------------------------------------------------------------ decision units

CONTAINER = {"X": {"D1": "accepted", "D2": "superseded"}}


def test_a_unit_level_supersession_never_retires_the_whole_record() -> None:
    g = graph({"X": "accepted", "Y": "accepted"}, [("Y", "X", "D2")], CONTAINER)
    assert g.in_effect("X")
    assert g.successor("X") == Succession(None, "none")
    assert g.direct_successors("X") == []
    assert g.direct_successors("X", "D2") == ["Y"]
    assert g.direct_successors("X", "D1") == []
    assert g.in_effect("X", "D1") and not g.in_effect("X", "D2")


def test_unit_successor() -> None:
    g = graph({"X": "accepted", "Y": "accepted"}, [("Y", "X", "D2")], CONTAINER)
    assert g.successor("X", "D2") == Succession("Y", "current", ("Y",))
    assert g.successor("X", "D1") == Succession(None, "none")


def test_unit_successor_follows_a_superseded_successor_onward() -> None:
    g = graph(
        {"X": "accepted", "Y": "superseded", "Z": "accepted"},
        [("Y", "X", "D2"), ("Z", "Y")],
        CONTAINER,
    )
    assert g.successor("X", "D2") == Succession("Z", "current", ("Y", "Z"))


def test_unit_successor_not_accepted_and_ambiguous() -> None:
    g = graph(
        {"X": "accepted", "P": "proposed", "B": "accepted", "C": "accepted"},
        [("P", "X", "D1"), ("B", "X", "D2"), ("C", "X", "D2")],
        CONTAINER,
    )
    assert g.successor("X", "D1") == Succession(None, "not-accepted", (), ("P",))
    assert g.successor("X", "D2") == Succession(None, "ambiguous", (), ("B", "C"))


def test_a_container_with_no_unit_in_effect_is_replaced_by_its_units_successor() -> None:
    units = {"X": {"D1": "superseded", "D2": "superseded"}}
    g = graph({"X": "accepted", "Y": "accepted"}, [("Y", "X", "D1"), ("Y", "X", "D2")], units)
    assert not g.in_effect("X")
    assert g.successor("X") == Succession("Y", "current", ("Y",))


def test_a_container_whose_units_went_to_different_records_is_ambiguous() -> None:
    units = {"X": {"D1": "superseded", "D2": "superseded"}}
    g = graph(
        {"X": "accepted", "Y": "accepted", "Z": "accepted"},
        [("Y", "X", "D1"), ("Z", "X", "D2")],
        units,
    )
    assert g.successor("X") == Succession(None, "ambiguous", (), ("Y", "Z"))


def test_a_container_whose_units_have_only_proposed_successors() -> None:
    units = {"X": {"D1": "superseded", "D2": "rejected"}}
    g = graph({"X": "accepted", "P": "proposed"}, [("P", "X", "D1")], units)
    assert not g.in_effect("X")
    assert g.successor("X") == Succession(None, "not-accepted", (), ("P",))


def test_a_retired_container_without_unit_successors_falls_back_to_the_record() -> None:
    units = {"X": {"D1": "deprecated"}}
    g = graph({"X": "superseded", "Y": "accepted"}, [("Y", "X")], units)
    assert g.successor("X") == Succession("Y", "current", ("Y",))


# ------------------------------------------------------------------ restated (ADR-0065)

ADDS = [
    (("B", "supersedes", "A", "frontmatter"), {}),
    (("C", "superseded-by", "B", "frontmatter"), {}),
    (("D", "supersedes", "C", "declaration"), {}),  # declared in prose by D
    (("E", "supersedes", "X", "frontmatter"), {"to_unit": "D1"}),
    (("A", "relates-to", "E", "frontmatter"), {}),
]
UNITS = {"X": {"D1": "accepted", "D2": "accepted"}}


def _built(statuses: dict[str, str], units: dict[str, dict[str, str]]) -> RelationGraph:
    g = RelationGraph(statuses, units)
    for args, kwargs in ADDS:
        g.add(*args, **kwargs)
    return g


def _answers(g: RelationGraph) -> object:
    ids = sorted(g.statuses)
    return (
        list(g.edges()),
        [(r, g.successor(r), g.in_effect(r), g.direct_successors(r)) for r in ids],
        g.successor("X", "D1"),
        g.cycles(),
        g.readers({"A"}),
        g.edges_at({"B"}),
    )


@pytest.mark.parametrize("a", ["accepted", "superseded", "deprecated"])
@pytest.mark.parametrize("d", ["accepted", "proposed"])
@pytest.mark.parametrize("unit", ["accepted", "superseded"])
def test_restated_answers_as_a_graph_built_with_the_new_statuses(a: str, d: str, unit: str) -> None:
    before = {"A": "accepted", "B": "accepted", "C": "accepted", "D": "accepted", "E": "accepted"}
    before.update(X="accepted")
    last = _built(before, UNITS)
    _answers(last)  # its indexes made: shared with what is restated from it
    after = {**before, "A": a, "D": d}
    units = {"X": {"D1": unit, "D2": "accepted"}}
    restated = last.restated(after, units)
    assert restated is not None  # C's status is the same: D's declaration judged the same
    assert _answers(restated) == _answers(_built(after, units))
    assert restated.touched(last, {"A"}) == {"A"}  # the same edges


def test_restated_refuses_when_a_declaration_would_be_judged_otherwise() -> None:
    before = {r: "accepted" for r in "ABCDEX"}
    last = _built(before, UNITS)
    assert not any(e.agreed for e in last.edges() if e.origin == "declaration")
    assert last.restated({**before, "C": "superseded"}, UNITS) is None  # D's now binds
    follows = _built({**before, "C": "superseded"}, UNITS)
    assert "D" in follows.direct_successors("C")
    assert follows.restated(before, UNITS) is None  # and back


# ------------------------------------------------------------------ real logs

A = "# {n}. R{n}\n\n## Status\n\n{status}\n"


def make(tmp: Path, files: dict[str, str]) -> Config:
    root = tmp / "docs" / "adr"
    root.mkdir(parents=True)
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    return Config(project_dir=tmp, docs_dir=tmp / "docs")


def _index_cell(log: Log, rid: str) -> str:
    _records, tables = index_view.tables(log, log.roots[0])
    for table in tables:
        for row in table.rows:
            if row[0][0][0] == rid:
                return "".join(text for text, _ in row[-1])
    raise AssertionError(f"{rid} not in the INDEX")


def test_real_log_chain_every_caller_names_the_same_successor(tmp_path: Path) -> None:
    log = load(
        make(
            tmp_path,
            {
                "0001-a.md": A.format(n=1, status="Superseded by [2. B](0002-b.md)"),
                "0002-b.md": A.format(n=2, status="Superseded by [3. C](0003-c.md)")
                + "\nSupersedes [1. A](0001-a.md)\n",
                "0003-c.md": A.format(n=3, status="Accepted") + "\nSupersedes [2. B](0002-b.md)\n",
            },
        )
    )
    assert log.graph.successor("ADR-0001") == Succession(
        "ADR-0003", "current", ("ADR-0002", "ADR-0003")
    )
    assert log.successor("ADR-0001") == log.graph.successor("ADR-0001")
    assert _index_cell(log, "ADR-0001") == "ADR-0003"
    eligible = {c.id for c in candidates(log) if c.eligible}
    assert eligible == {"ADR-0001", "ADR-0002"}
    ctx = page_view.PageContext.build(log)
    banner = " ".join(page_view.banners(ctx, log.by_path["docs/adr/0001-a.md"], lambda r: r))
    assert "the decision in effect now is" in banner and "ADR-0003" in banner


def test_real_log_superseded_by_a_proposal_is_in_effect_everywhere(tmp_path: Path) -> None:
    log = load(
        make(
            tmp_path,
            {
                "0001-a.md": "---\nreview-by: 2020-01-01\n---\n"
                + A.format(n=1, status="Superseded by [2. B](0002-b.md)"),
                "0002-b.md": A.format(n=2, status="Proposed") + "\nSupersedes [1. A](0001-a.md)\n",
            },
        ),
        today=dt.date(2026, 1, 1),
    )
    a = log.by_path["docs/adr/0001-a.md"]
    assert log.in_effect(a)
    assert log.successor(a.id).state == "not-accepted"
    # the review-by rule, the record page's review and the plan all see it in effect
    assert "ADR017" in {p.code for p in log.problems_for(a.id)}
    due = review_due(a, dt.date(2026, 1, 1), log=log)
    assert due is not None and due.id == "ADR-0001"
    assert dispositions(log)[a.path] == "retained"
    assert not any(c.eligible for c in candidates(log) if c.id == a.id)
    assert _index_cell(log, a.id) == "ADR-0002 (not-accepted)"


def test_real_log_units(tmp_path: Path) -> None:
    log = load(
        make(
            tmp_path,
            {
                "0005-base.md": "---\nstyle: container\n---\n# Base\n\n## D1. Keep\n\n"
                "Status: accepted\n\n## D2. Replace\n\nStatus: superseded by ADR-0009\n",
                "0009-new.md": "---\nstatus: accepted\nsupersedes: ADR-0005#D2\n---\n# New\n",
            },
        )
    )
    base = log.by_path["docs/adr/0005-base.md"]
    d1, d2 = base.units
    assert log.graph.unit_statuses["ADR-0005"] == {"D1": "accepted", "D2": "superseded"}
    assert log.in_effect(base) and log.in_effect(base, d1) and not log.in_effect(base, d2)
    assert log.successor("ADR-0005") == Succession(None, "none")
    assert log.successor("ADR-0005", "D2") == Succession("ADR-0009", "current", ("ADR-0009",))
    assert _index_cell(log, "ADR-0005") == "D2: ADR-0009"
    assert not any(c.eligible for c in candidates(log) if c.id == "ADR-0005")


def test_real_log_unit_replaced_through_a_chain_is_archivable(tmp_path: Path) -> None:
    """The unit's successor was itself superseded: archive follows the chain the
    agents' answers follow (before, eligibility counted accepted successors only)."""
    log = load(
        make(
            tmp_path,
            {
                "0005-base.md": "---\nstyle: container\n---\n# Base\n\n## D1. Replace\n\n"
                "Status: superseded by ADR-0009\n",
                "0009-new.md": "---\nstatus: superseded\nsupersedes: ADR-0005#D1\n"
                "superseded-by: ADR-0010\n---\n# New\n",
                "0010-newer.md": "---\nstatus: accepted\nsupersedes: ADR-0009\n---\n# Newer\n",
            },
        )
    )
    assert log.successor("ADR-0005", "D1") == Succession(
        "ADR-0010", "current", ("ADR-0009", "ADR-0010")
    )
    assert log.successor("ADR-0005").current == "ADR-0010"
    found = {c.id: c for c in candidates(log)}
    assert found["ADR-0005"].eligible, found["ADR-0005"].reasons
