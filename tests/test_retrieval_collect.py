"""Direct tests of retrieval's parts: the shared collector, the ranked walk, the focus."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_adr.errors import UsageError
from mkdocs_adr.graph import Succession
from mkdocs_adr.log import Log
from mkdocs_adr.retrieval.collect import (
    Collector,
    Replacement,
    item_key,
    replacement,
    system_roots,
)
from mkdocs_adr.retrieval.evidence import EvidenceItem, Relations
from mkdocs_adr.retrieval.focus import (
    MAX_SUCCESSION,
    SuccessionInfo,
    by_domain,
    by_iteration,
    focus_on_group,
    focus_on_target,
    resolve_target,
)
from mkdocs_adr.retrieval.walk import (
    BACKGROUND,
    INCIDENTAL,
    LINEAGE,
    REQUIRED,
    Evidence,
)

from .retrieval_logs import Spec, load_log

SUP, BY = "supersedes", "superseded-by"


@pytest.fixture
def log(tmp_path: Path) -> Log:
    return load_log(
        tmp_path,
        [
            Spec(1, "Base", domain="core"),
            Spec(2, "Old", "superseded", domain="core", relations={BY: ["ADR-0003"]}),
            Spec(
                3,
                "New",
                domain="core",
                relations={SUP: ["ADR-0002"], "depends-on": ["ADR-0001", "ADR-0005#D2"]},
                iteration="2025-Q1",
            ),
            Spec(4, "Side note", relations={"relates-to": ["ADR-0003"]}),
            Spec(
                5,
                "Container",
                units=[
                    ("First", "accepted, depends on ADR-0004", "unit one"),
                    ("Second", "accepted", "unit two"),
                ],
            ),
            Spec(7, "Rejected idea", "rejected", relations={"relates-to": ["ADR-0001"]}),
        ],
    )


def evidence(log: Log, intent: str = "current") -> Evidence:
    return Evidence(log, intent, Relations.of(log), system_roots(log))


def rec_item(log: Log, rid: str, why: str = "w") -> EvidenceItem:
    rec = log.get(rid)
    assert rec is not None
    return EvidenceItem(rec, None, why, "decision")


# --------------------------------------------------------------------- collector


def test_the_collector_keeps_the_smallest_sort_key_per_record_and_unit(log: Log) -> None:
    c = Collector()
    first, better, worse = (rec_item(log, "ADR-0001", w) for w in ("first", "better", "worse"))
    assert c.offer((2, "x"), first) is True
    assert c.offer((1, "x"), better) is False  # the key was held already
    assert c.offer((3, "x"), worse) is False
    assert c.ordered() == [better]
    assert c.items[item_key(better)] == ((1, "x"), better)


def test_the_collector_orders_by_sort_key_and_lists_ids_once(log: Log) -> None:
    c = Collector()
    rec5 = log.get("ADR-0005")
    assert rec5 is not None and len(rec5.units) == 2
    c.offer((3,), rec_item(log, "ADR-0001"))
    c.offer((1,), EvidenceItem(rec5, rec5.units[1], "u2", "unit"))
    c.offer((2,), EvidenceItem(rec5, rec5.units[0], "u1", "unit"))
    assert [i.id for i in c.ordered()] == ["ADR-0005#D2", "ADR-0005#D1", "ADR-0001"]
    assert c.ids() == ["ADR-0001", "ADR-0005"]


def test_system_roots_are_the_shallowest(tmp_path: Path) -> None:
    log = load_log(tmp_path, [Spec(1), Spec(1, root="services/pay/adr", prefix="PAY")], module=True)
    assert system_roots(log) == {"adr"}


# --------------------------------------------------------------------- ranked walk


def test_the_best_answer_class_of_an_item_wins(log: Log) -> None:
    ev = evidence(log)
    ev.add(INCIDENTAL, rec_item(log, "ADR-0001", "incidental"))
    ev.add(REQUIRED, rec_item(log, "ADR-0001", "required"))
    ev.add(BACKGROUND, rec_item(log, "ADR-0001", "background"))
    [item] = ev.ordered()
    assert item.why == "required"


def test_history_puts_lineage_before_constraints(log: Log) -> None:
    for intent, first in (("current", "ADR-0001"), ("history", "ADR-0002")):
        ev = evidence(log, intent)
        ev.add(REQUIRED, rec_item(log, "ADR-0001"))
        ev.add(LINEAGE, rec_item(log, "ADR-0002"))
        assert ev.ordered()[0].rec.id == first, intent


def test_archived_records_far_away_lose_their_body(tmp_path: Path) -> None:
    log = load_log(tmp_path, [Spec(1, archived=True, status="deprecated")])
    ev = evidence(log)
    rec = log.get("ADR-0001")
    assert rec is not None and rec.archived
    near = EvidenceItem(rec, None, "near", "decision", hops=1)
    far = EvidenceItem(rec, None, "far", "decision", hops=2)
    ev.add(INCIDENTAL, near)
    assert near.scope == "decision"
    ev.add(INCIDENTAL, far)
    assert far.scope == "none" and "body not expanded" in far.why


def test_constraints_follow_builds_on_and_replace_a_superseded_one(tmp_path: Path) -> None:
    log = load_log(
        tmp_path,
        [
            Spec(1, "Old base", "superseded", relations={BY: ["ADR-0002"]}),
            Spec(2, "New base", relations={SUP: ["ADR-0001"]}),
            Spec(3, "Middle", relations={"depends-on": ["ADR-0001"]}),
            Spec(4, "Top", relations={"extends": ["ADR-0003"]}),
            Spec(5, "Amends top", relations={"amends": ["ADR-0004"]}),
        ],
    )
    ev = evidence(log)
    ev.constraints(["ADR-0004"])
    got = {i.id: i for i in ev.ordered()}
    # the amendment builds on the focus again (find leaves the focus out; context holds it)
    assert set(got) == {"ADR-0003", "ADR-0002", "ADR-0005", "ADR-0004"}
    assert got["ADR-0004"].hops == 2
    assert all(i.required for i in got.values())
    assert got["ADR-0003"].hops == 1 and got["ADR-0002"].hops == 2
    assert "its current successor (ADR-0001 → ADR-0002)" in got["ADR-0002"].why
    assert got["ADR-0005"].why == "amendment: ADR-0005 amends ADR-0004"
    ev = evidence(log)
    ev.constraints(["ADR-0004"], hops=1)
    assert {i.id for i in ev.ordered()} == {"ADR-0003", "ADR-0005"}  # nothing two hops away


def test_a_constraint_on_one_unit_follows_that_unit_only(log: Log) -> None:
    ev = evidence(log)
    ev.constraints(["ADR-0003"])
    ids = [i.id for i in ev.ordered()]
    assert "ADR-0005#D2" in ids and "ADR-0005#D1" not in ids
    assert "ADR-0001" in ids
    # D1 of the container builds on ADR-0004; only D2 was reached, so it is not followed
    assert "ADR-0004" not in ids
    ev = evidence(log)
    ev.constraints(["ADR-0005"])
    assert "ADR-0004" in [i.id for i in ev.ordered()]


def test_related_marks_lineage_under_history_and_background_otherwise(log: Log) -> None:
    ev = evidence(log, "history")
    ev.related(["ADR-0003"])
    by_id = {i.id: i for i in ev.ordered()}
    assert by_id["ADR-0002"].why == "history: ADR-0003 supersedes ADR-0002"
    assert by_id["ADR-0002"].required
    ev = evidence(log, "current")
    ev.related(["ADR-0003"])
    by_id = {i.id: i for i in ev.ordered()}
    assert by_id["ADR-0002"].scope == "none" and not by_id["ADR-0002"].required
    assert by_id["ADR-0004"].why == "related: ADR-0004 relates-to ADR-0003"
    # the rejected record two hops away is background, with no body
    assert by_id["ADR-0007"].scope == "none" and "rejected, not in effect" in by_id["ADR-0007"].why


# --------------------------------------------------------------------- targets and focus


def test_resolve_target_reads_units_and_refuses_conflicts(log: Log) -> None:
    target = resolve_target(log, "ADR-0005", "D2")
    assert target.rec.id == "ADR-0005" and target.unit is not None and target.unit.key == "D2"
    missing = resolve_target(log, "ADR-0005", "9")
    assert missing.unit is None and missing.note and "has no decision unit D9" in missing.note
    with pytest.raises(UsageError, match="is not a unit key"):
        resolve_target(log, "ADR-0005", "x")
    with pytest.raises(UsageError, match="names unit D1 but --unit says D2"):
        resolve_target(log, "ADR-0005#D1", "D2")


def test_groups_and_their_errors(log: Log) -> None:
    assert [r.id for r in by_domain(log, "CORE")] == ["ADR-0001", "ADR-0002", "ADR-0003"]
    with pytest.raises(UsageError, match=r"no record is in domain 'nope'; domains: core"):
        by_domain(log, "nope")
    assert [r.id for r in by_iteration(log, " 2025-Q1 ")] == ["ADR-0003"]
    with pytest.raises(UsageError, match=r"iterations: 2025-Q1"):
        by_iteration(log, "1999")
    ev = evidence(log)
    assert focus_on_group(ev, log, by_domain(log, "core"), "in core") == ["ADR-0001", "ADR-0003"]
    ev = evidence(log, "history")
    assert focus_on_group(ev, log, by_domain(log, "core"), "in core") == [
        "ADR-0001",
        "ADR-0002",
        "ADR-0003",
    ]


def test_an_old_id_is_answered_by_its_successor_under_current(log: Log) -> None:
    ev = evidence(log)
    focus, info = focus_on_target(ev, log, resolve_target(log, "ADR-0002", None))
    assert focus == ["ADR-0003"]
    [item] = ev.ordered()
    assert item.rec.id == "ADR-0003" and item.why.startswith("current successor of ADR-0002")
    assert ev.hints == ["context ADR-0002 --intent history"]
    data = info.to_json()
    assert data is not None and data["state"] == "current" and data["current"] == "ADR-0003"
    assert data["asked"] == "ADR-0002" and data["in_effect"] is False
    ev = evidence(log, "history")
    focus, _ = focus_on_target(ev, log, resolve_target(log, "ADR-0002", None))
    assert focus == ["ADR-0002", "ADR-0003"]


def test_a_record_in_effect_is_its_own_focus_without_succession(log: Log) -> None:
    ev = evidence(log)
    focus, info = focus_on_target(ev, log, resolve_target(log, "ADR-0001", None))
    assert focus == ["ADR-0001"] and [i.id for i in ev.ordered()] == ["ADR-0001"]
    assert info.to_json() is None and info.in_effect


def test_succession_info_caps_long_chains() -> None:
    chain = tuple(f"ADR-{n:04d}" for n in range(MAX_SUCCESSION + 3))
    info = SuccessionInfo("ADR-0100", "superseded", False, Succession(chain[-1], "current", chain))
    data = info.to_json()
    assert data is not None
    assert data["chain"] == list(chain[:MAX_SUCCESSION])
    assert data["omitted"] == {"chain": 3, "candidates": 0}
    short = SuccessionInfo("A", "superseded", False, Succession(None, "none", ("B",)))
    assert "omitted" not in (short.to_json() or {"omitted": 1})


def test_replacement_resolves_the_logs_successor_to_records(tmp_path: Path) -> None:
    log = load_log(
        tmp_path,
        [
            Spec(1, "Old", "superseded", relations={BY: ["ADR-0002"]}),
            Spec(2, "New", relations={SUP: ["ADR-0001"]}),
            Spec(3, "Contested", "superseded", relations={BY: ["ADR-0004", "ADR-0005"]}),
            Spec(4, "One way", relations={SUP: ["ADR-0003"]}),
            Spec(5, "Other way", relations={SUP: ["ADR-0003"]}),
            Spec(6, "Live"),
        ],
    )

    def of(rid: str) -> Replacement:
        rec = log.get(rid)
        assert rec is not None
        return replacement(log, rec, None)

    old = of("ADR-0001")
    assert old.current is not None and old.current.id == "ADR-0002"
    assert old.chain == "ADR-0001 → ADR-0002" and not old.ambiguous
    contested = of("ADR-0003")
    assert contested.current is None and contested.ambiguous
    assert [r.id for r in contested.candidates] == ["ADR-0004", "ADR-0005"]
    assert contested.contested == "ADR-0004, ADR-0005"
    live = of("ADR-0006")
    assert live.current is None and live.candidates == () and live.succession.state == "none"
