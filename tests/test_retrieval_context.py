"""``context``: successor-first answers, constraints first, hops, coverage, segments."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr.errors import RefusedError, UsageError
from mkdocs_adr.log import Log, load
from mkdocs_adr.retrieval import MAX_CODEPOINTS, ContextQuery, context
from mkdocs_adr.retrieval.budget import SEGMENT_CODEPOINTS
from mkdocs_adr.retrieval.render import CUT, render

from .retrieval_logs import Spec, load_log, write_log


def ask(log: Log, target: str | None = None, **kw: Any) -> dict[str, Any]:
    data, text = context(log, ContextQuery(target, **kw))
    assert len(text) <= MAX_CODEPOINTS
    assert json.loads(text) == data
    return data


def ids(data: dict[str, Any]) -> list[str]:
    return [u["id"] for u in data["units"]]


def unit(data: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in data["units"] if u["id"] == uid)


@pytest.fixture
def succession_log(tmp_path: Path) -> Log:
    sup, by = "supersedes", "superseded-by"
    specs = [
        Spec(1, "Base platform", sections={"Context": "ctx one", "Decision": "base decision"}),
        # a chain: 2 -> 3 -> 4
        Spec(
            2,
            "Oldest",
            "superseded",
            relations={by: ["ADR-0003"]},
            sections={"Decision": "OLDEST BODY"},
        ),
        Spec(
            3,
            "Middle",
            "superseded",
            relations={by: ["ADR-0004"], sup: ["ADR-0002"]},
            sections={"Decision": "MIDDLE BODY"},
        ),
        Spec(
            4,
            "Newest",
            relations={sup: ["ADR-0003"], "depends-on": ["ADR-0001"]},
            sections={"Context": "why newest", "Decision": "NEWEST BODY"},
        ),
        # ambiguous: 5 replaced by both 6 and 7
        Spec(5, "Split", "superseded", relations={by: ["ADR-0006", "ADR-0007"]}),
        Spec(6, "Half A", relations={sup: ["ADR-0005"]}),
        Spec(7, "Half B", relations={sup: ["ADR-0005"]}),
        # a proposed successor does not retire an accepted record
        Spec(8, "Still valid", sections={"Decision": "EIGHT BODY"}),
        Spec(9, "Maybe later", "proposed", relations={sup: ["ADR-0008"]}),
        # marked superseded, but the successor is only proposed: stays in effect
        Spec(10, "Marked early", "superseded", relations={by: ["ADR-0011"]}),
        Spec(11, "Not yet", "proposed", relations={sup: ["ADR-0010"]}),
        # archived ancestors: 14 -> 12 -> 13
        Spec(
            14,
            "Ancient",
            "superseded",
            archived=True,
            relations={by: ["ADR-0012"]},
            sections={"Decision": "ANCIENT BODY"},
        ),
        Spec(
            12,
            "Archived",
            "superseded",
            archived=True,
            relations={by: ["ADR-0013"], sup: ["ADR-0014"]},
            sections={"Decision": "ARCHIVED BODY"},
        ),
        Spec(13, "Current", relations={sup: ["ADR-0012"]}),
        # a container with one unit replaced; 17 depends on the live unit only
        Spec(
            15,
            "Baseline",
            units=[("Postgres", "accepted", "D1 TEXT"), ("Redis", "superseded", "D2 TEXT")],
        ),
        Spec(16, "Sessions in Postgres", relations={sup: ["ADR-0015#D2"]}),
        Spec(17, "Ledger", relations={"depends-on": ["ADR-0015#D1"]}),
        # a cycle
        Spec(18, "Loop A", "superseded", relations={by: ["ADR-0019"]}),
        Spec(19, "Loop B", "superseded", relations={by: ["ADR-0018"]}),
    ]
    return load_log(tmp_path, specs)


class TestSuccession:
    def test_old_id_answers_with_the_end_of_the_chain_without_ancestor_bodies(
        self, succession_log: Log
    ) -> None:
        data = ask(succession_log, "ADR-0002")
        assert ids(data)[0] == "ADR-0004"
        first = data["units"][0]
        assert "current successor of ADR-0002" in first["why"]
        assert "NEWEST BODY" in first["text"]
        assert data["succession"] == {
            "asked": "ADR-0002",
            "status": "superseded",
            "in_effect": False,
            "state": "current",
            "current": "ADR-0004",
            "chain": ["ADR-0003", "ADR-0004"],
            "candidates": [],
        }
        text = json.dumps(data)
        assert "OLDEST BODY" not in text and "MIDDLE BODY" not in text
        # the constraint of the successor follows it
        assert ids(data)[1] == "ADR-0001"
        assert unit(data, "ADR-0001")["why"].startswith("constraint: ADR-0004 depends-on")

    def test_history_intent_returns_the_lineage_with_bodies(self, succession_log: Log) -> None:
        data = ask(succession_log, "ADR-0004", intent="history")
        assert ids(data)[:3] == ["ADR-0004", "ADR-0003", "ADR-0002"]
        assert "MIDDLE BODY" in unit(data, "ADR-0003")["text"]
        assert unit(data, "ADR-0004")["scope"] == "full"
        assert "why newest" in unit(data, "ADR-0004")["text"]

    def test_rationale_of_an_old_id_shows_it_then_its_successor(self, succession_log: Log) -> None:
        data = ask(succession_log, "ADR-0002", intent="rationale")
        assert ids(data)[:2] == ["ADR-0002", "ADR-0004"]
        assert "OLDEST BODY" in unit(data, "ADR-0002")["text"]

    def test_ambiguous_successor_is_reported_not_guessed(self, succession_log: Log) -> None:
        data = ask(succession_log, "ADR-0005")
        assert data["succession"]["state"] == "ambiguous"
        assert data["succession"]["current"] is None
        assert data["succession"]["candidates"] == ["ADR-0006", "ADR-0007"]
        assert ids(data)[:2] == ["ADR-0006", "ADR-0007"]
        for uid in ("ADR-0006", "ADR-0007"):
            assert "none chosen" in unit(data, uid)["why"]
        assert any("more than one current successor" in w for w in data["warnings"])

    def test_proposed_successor_leaves_the_record_in_effect(self, succession_log: Log) -> None:
        data = ask(succession_log, "ADR-0008")
        assert ids(data)[0] == "ADR-0008"
        assert data["units"][0]["why"] == "asked"
        proposed = unit(data, "ADR-0009")
        assert proposed["status"] == "proposed"
        assert "not in effect" in proposed["why"]
        assert ids(data).index("ADR-0009") > 0

    def test_superseded_by_a_proposal_stays_in_effect_with_a_warning(
        self, succession_log: Log
    ) -> None:
        data = ask(succession_log, "ADR-0010")
        assert ids(data)[0] == "ADR-0010"
        assert "stays in effect" in data["units"][0]["why"]
        assert data["succession"]["state"] == "not-accepted"
        assert data["succession"]["in_effect"] is True
        assert any("ADR-0010" in w and "stays in effect" in w for w in data["warnings"])

    def test_cycle_is_reported(self, succession_log: Log) -> None:
        data = ask(succession_log, "ADR-0018")
        assert data["succession"]["state"] == "cycle"
        assert ids(data)[0] == "ADR-0018"
        assert any("loops" in w for w in data["warnings"])

    def test_archived_bodies_at_most_one_hop(self, succession_log: Log) -> None:
        data = ask(succession_log, "ADR-0013", intent="history")
        near = unit(data, "ADR-0012")
        far = unit(data, "ADR-0014")
        assert near["archived"] and near["hops"] == 1 and "ARCHIVED BODY" in near["text"]
        assert far["archived"] and far["hops"] == 2
        assert far["text"] is None and far["scope"] == "none"
        assert "archived more than 1 hop away" in far["why"]

    def test_asking_an_archived_record_directly_shows_its_body(self, succession_log: Log) -> None:
        data = ask(succession_log, "ADR-0014", intent="history")
        assert data["units"][0]["id"] == "ADR-0014"
        assert "ANCIENT BODY" in data["units"][0]["text"]

    def test_unit_constraint_follows_only_that_unit(self, succession_log: Log) -> None:
        data = ask(succession_log, "ADR-0017")
        assert ids(data)[:2] == ["ADR-0017", "ADR-0015#D1"]
        assert "ADR-0015#D2" not in ids(data)
        assert unit(data, "ADR-0015#D1")["text"].endswith("D1 TEXT")

    def test_a_replaced_unit_answers_with_its_successor(self, succession_log: Log) -> None:
        data = ask(succession_log, "ADR-0015#D2")
        assert ids(data)[0] == "ADR-0016"
        assert data["succession"]["current"] == "ADR-0016"
        assert "D2 TEXT" not in json.dumps(data)

    def test_container_in_effect_lists_live_units_then_replacements(
        self, succession_log: Log
    ) -> None:
        data = ask(succession_log, "ADR-0015")
        assert ids(data)[:2] == ["ADR-0015#D1", "ADR-0016"]
        assert data["succession"] is None  # the record as a whole is not replaced

    def test_unknown_unit_falls_back_to_the_record_and_says_so(self, succession_log: Log) -> None:
        data = ask(succession_log, "ADR-0015", unit="D9")
        assert ids(data)[0] == "ADR-0015#D1"
        assert any("has no decision unit D9" in w for w in data["warnings"])


class TestSelectors:
    def test_overview_without_selector(self, succession_log: Log) -> None:
        data = ask(succession_log)
        ov = data["overview"]
        assert ov["roots"][0]["path"] == "adr"
        assert ov["statuses"]["accepted"] >= 8
        assert data["units"] == [] and data["coverage"] == "complete"
        assert data["freshness"]["roots"][0]["state"] == "absent"
        assert any(h.startswith("mkdocs-adr context ") for h in data["navigation"]["hints"])

    def test_unknown_id_names_the_nearest(self, succession_log: Log) -> None:
        with pytest.raises(UsageError) as err:
            ask(succession_log, "ADR-0099")
        assert "nearest ids" in err.value.message

    @pytest.mark.parametrize(
        "ref", ["ADR 4", "adr-4", "4", "adr/0004-record.md", "./adr/0004-record.md"]
    )
    def test_ids_and_paths_resolve(self, succession_log: Log, ref: str) -> None:
        assert ask(succession_log, ref)["units"][0]["id"] == "ADR-0004"

    def test_excluded_file_is_not_a_record(self, tmp_path: Path) -> None:
        log = load_log(tmp_path, [Spec(1)])
        (tmp_path / "adr" / "README.md").write_text("# Log\n")
        log = load(log.config)
        with pytest.raises(UsageError, match="is not a record"):
            ask(log, "adr/README.md")

    def test_path_outside_the_project_is_refused(self, succession_log: Log) -> None:
        with pytest.raises(UsageError, match="leaves the project"):
            ask(succession_log, "../adr/0004-record.md")

    def test_ambiguous_id_asks_for_a_path(self, tmp_path: Path) -> None:
        log = load_log(tmp_path, [Spec(1, domain="a"), Spec(1, domain="b")])
        with pytest.raises(UsageError) as err:
            ask(log, "ADR-0001")
        assert "ambiguous" in err.value.message and "adr/a/0001-record.md" in err.value.message
        assert ask(log, "adr/b/0001-record.md")["units"][0]["path"] == "adr/b/0001-record.md"

    def test_selectors_exclude_each_other(self, succession_log: Log) -> None:
        with pytest.raises(UsageError, match="exclude each other"):
            ask(succession_log, "ADR-0004", domain="x")
        with pytest.raises(UsageError, match="needs a record id"):
            ask(succession_log, unit="D1")

    def test_domain_and_iteration(self, tmp_path: Path) -> None:
        log = load_log(
            tmp_path,
            [
                Spec(1, domain="pay", iteration="2025-Q1"),
                Spec(2, domain="pay", status="rejected"),
                Spec(3, domain="web", iteration="2025-Q1", relations={"depends-on": ["ADR-0004"]}),
                Spec(4, domain="core"),
            ],
        )
        assert ids(ask(log, domain="pay")) == ["ADR-0001"]
        assert ids(ask(log, domain="pay", intent="history")) == ["ADR-0001", "ADR-0002"]
        got = ask(log, iteration="2025-Q1")
        assert ids(got) == ["ADR-0001", "ADR-0003", "ADR-0004"]
        assert unit(got, "ADR-0004")["why"].startswith("constraint")
        with pytest.raises(UsageError, match="domains: core, pay, web"):
            ask(log, domain="nope")
        with pytest.raises(UsageError, match="iterations: 2025-Q1"):
            ask(log, iteration="nope")

    def test_current_shows_the_decision_rationale_shows_everything(
        self, succession_log: Log
    ) -> None:
        current = ask(succession_log, "ADR-0001")["units"][0]
        assert current["scope"] == "decision"
        assert current["text"] == "## Decision\n\nbase decision"
        full = ask(succession_log, "ADR-0001", intent="rationale")["units"][0]
        assert full["scope"] == "full" and "ctx one" in full["text"]

    def test_freshness_is_in_every_answer(self, succession_log: Log) -> None:
        (succession_log.config.project_dir / "adr" / "CURRENT.md").write_text("# Current\n")
        log = load(succession_log.config)
        for data in (ask(log), ask(log, "ADR-0004"), ask(log, "ADR-0004", intent="history")):
            assert data["freshness"]["roots"][0]["path"] == "adr/CURRENT.md"
            assert data["freshness"]["roots"][0]["state"] == "unverifiable"


class TestModuleRoots:
    def test_system_root_constraints_come_first(self, tmp_path: Path) -> None:
        log = load_log(
            tmp_path,
            [
                Spec(1, "System rule"),
                Spec(
                    1,
                    "Module choice",
                    root="services/pay/adr",
                    prefix="PAY",
                    relations={"depends-on": ["PAY-0003"]},
                ),
                Spec(
                    2,
                    "Neighbour",
                    root="services/pay/adr",
                    prefix="PAY",
                    relations={"relates-to": ["PAY-0001"]},
                ),
                # the system rule is two hops away, behind a module record
                Spec(
                    3,
                    "Module base",
                    root="services/pay/adr",
                    prefix="PAY",
                    relations={"depends-on": ["ADR-0001"]},
                ),
            ],
            module=True,
        )
        data = ask(log, "PAY-0001")
        assert ids(data) == ["PAY-0001", "ADR-0001", "PAY-0003", "PAY-0002"]
        assert [u["why"].split(":")[0] for u in data["units"]] == [
            "asked",
            "constraint",
            "constraint",
            "related",
        ]
        assert unit(data, "ADR-0001")["hops"] == 2
        # asked from the system root, nothing is moved forward
        assert ids(ask(log, "ADR-0001"))[0] == "ADR-0001"


class TestBudget:
    def test_required_constraints_that_do_not_fit_make_coverage_incomplete(
        self, tmp_path: Path
    ) -> None:
        big = "constraint text " * 150
        specs = [Spec(1, relations={"depends-on": [f"ADR-{n:04d}" for n in range(2, 14)]})]
        specs += [Spec(n, sections={"Decision": big}) for n in range(2, 14)]
        log = load_log(tmp_path, specs)
        first = ask(log, "ADR-0001")
        assert first["coverage"] == "incomplete"
        assert first["total"] == 13
        assert first["omitted"] == 13 - len(first["units"])
        missing = first["coverage_detail"]["missing"]
        assert missing and set(missing).isdisjoint(ids(first))
        seen = ids(first)
        page = first
        while page["next_cursor"]:
            page = ask(log, "ADR-0001", cursor=page["next_cursor"])
            seen += ids(page)
            assert page["navigation"]["next"] in (
                None,
                f"mkdocs-adr context ADR-0001 --cursor {page['next_cursor']}",
            )
        assert page["coverage"] == "complete" and page["omitted"] == 0
        assert sorted(seen) == [f"ADR-{n:04d}" for n in range(1, 14)]

    def test_long_unit_is_split_into_addressable_segments(self, tmp_path: Path) -> None:
        paragraph = "The ledger keeps every entry. " * 40
        decision = "\n\n".join(f"P{i} {paragraph}" for i in range(30))
        log = load_log(tmp_path, [Spec(1, sections={"Decision": decision})])
        whole = f"## Decision\n\n{decision.strip()}"
        pages, page = [], ask(log, "ADR-0001")
        pages.append(page)
        while page["next_cursor"]:
            page = ask(log, "ADR-0001", cursor=page["next_cursor"])
            pages.append(page)
        segs = [u for p in pages for u in p["units"]]
        count = segs[0]["segments"]
        assert count == len(segs) > 2
        assert [u["segment"] for u in segs] == [f"ADR-0001@{i}" for i in range(1, count + 1)]
        assert "".join(u["text"] for u in segs) == whole
        assert all(
            len(json.dumps(u["text"], ensure_ascii=False)) - 2 <= SEGMENT_CODEPOINTS for u in segs
        )
        # a segment is addressable directly, and continues from there
        direct = ask(log, "ADR-0001@2")
        assert direct["units"][0]["segment"] == "ADR-0001@2"
        assert direct["units"][0]["text"] == segs[1]["text"]
        with pytest.raises(UsageError, match="segment"):
            ask(log, f"ADR-0001@{count + 1}")

    def test_container_segments_need_a_unit(self, tmp_path: Path) -> None:
        log = load_log(tmp_path, [Spec(1, units=[("One", "accepted", "x " * 5000)])])
        with pytest.raises(UsageError, match="container"):
            ask(log, "ADR-0001@1")
        assert ask(log, "ADR-0001#D1@2")["units"][0]["segment"] == "ADR-0001#D1@2"

    def test_hostile_titles_and_text_stay_within_budget(self, tmp_path: Path) -> None:
        title = '<script>alert("x")</script> \\ ' * 30
        text = '"\\\x01\n' * 3000 + "缓存😀" * 2000
        specs = [
            Spec(
                n,
                title=title,
                sections={"Decision": text},
                relations={"relates-to": [f"ADR-{m:04d}" for m in range(1, 12) if m != n]},
            )
            for n in range(1, 12)
        ]
        log = load_log(tmp_path, specs)
        data = ask(log, "ADR-0001")
        assert data["units"][0]["title_shortened"] is True
        assert data["budget"]["codepoints"] <= MAX_CODEPOINTS
        assert data["budget"]["bytes"] > data["budget"]["codepoints"]


class TestCursorBinding:
    def test_changed_corpus_refuses_the_cursor(self, tmp_path: Path) -> None:
        specs = [Spec(1, relations={"relates-to": [f"ADR-{n:04d}" for n in range(2, 12)]})]
        specs += [Spec(n) for n in range(2, 12)]
        config = write_log(tmp_path, specs)
        first = ask(load(config), "ADR-0001")
        assert first["next_cursor"]
        (tmp_path / "adr" / "0005-record.md").write_text(specs[4].text() + "\nedited\n")
        with pytest.raises(RefusedError) as err:
            ask(load(config), "ADR-0001", cursor=first["next_cursor"])
        assert "mkdocs-adr context ADR-0001" in err.value.fix

    def test_cursor_of_another_query_is_refused(self, tmp_path: Path) -> None:
        specs = [Spec(1, relations={"relates-to": [f"ADR-{n:04d}" for n in range(2, 12)]})]
        specs += [Spec(n) for n in range(2, 12)]
        log = load_log(tmp_path, specs)
        first = ask(log, "ADR-0001")
        with pytest.raises(RefusedError, match="different query"):
            ask(log, "ADR-0001", intent="history", cursor=first["next_cursor"])

    def test_changed_configuration_refuses_the_cursor(self, tmp_path: Path) -> None:
        specs = [Spec(1, relations={"relates-to": [f"ADR-{n:04d}" for n in range(2, 12)]})]
        specs += [Spec(n) for n in range(2, 12)]
        config = write_log(tmp_path, specs)
        first = ask(load(config), "ADR-0001")
        other = config.replace(status_aliases={"approved": "accepted", "ok": "accepted"})
        with pytest.raises(RefusedError):
            ask(load(other), "ADR-0001", cursor=first["next_cursor"])


def test_a_record_without_sections_shows_its_body(tmp_path: Path) -> None:
    write_log(tmp_path, [])
    (tmp_path / "adr" / "0001-plain.md").write_text(
        "---\nstatus: accepted\ntitle: Plain\n---\n# Plain\n\nOne paragraph of decision.\n\nMore.\n"
    )
    (tmp_path / "adr" / "0002-nygard.md").write_text(
        "# 2. Nygard\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n"
    )
    config = write_log(tmp_path, [])
    log = load(config)
    first = ask(log, "ADR-0001")["units"][0]
    assert first["text"] == "One paragraph of decision.\n\nMore."
    assert first["scope"] == "full"
    second = ask(log, "ADR-0002")["units"][0]
    assert second["status"] == "accepted" and "Date: 2024-01-01" in second["text"]


def test_the_printed_page_keeps_the_budget_when_indenting_would_break_it(
    tmp_path: Path,
) -> None:
    # Thousands of one-character lines: the JSON spends 3 code points a line ("x\n"
    # escaped), the printed page would spend 6 with its indent of four spaces.
    lines = "\n".join("x" for _ in range(3000))
    log = load_log(tmp_path, [Spec(1, sections={"Context": "c", "Decision": lines})])
    data, _text = context(log, ContextQuery(target="ADR-0001"))
    assert data["units"] and data["budget"]["codepoints"] <= MAX_CODEPOINTS
    printed = render(data)
    assert len(printed) <= MAX_CODEPOINTS
    assert "ADR-0001" in printed and CUT in printed
    # a page that fits as it is is printed whole
    small = dict(data, units=[dict(u, text="short") for u in data["units"]])
    assert CUT not in render(small)
