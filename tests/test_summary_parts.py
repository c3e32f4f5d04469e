"""The parts of the summary package on their own: scope, dispositions, the page, one root's draft.

The CLI tests (test_summary.py, test_publish.py) drive the whole plan; these call
each job directly on a small log written to ``tmp_path`` or on hand-made data.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from mkdocs_adr import manifest as mf
from mkdocs_adr.errors import RefusedError, UsageError
from mkdocs_adr.freshness import root_pairs, select
from mkdocs_adr.log import Log, load
from mkdocs_adr.model import Problem, Severity
from mkdocs_adr.summary.dispositions import disposition, order, part_of
from mkdocs_adr.summary.draft import RootDraft, draft_root, kept_body, kept_sources
from mkdocs_adr.summary.page import (
    KEPT_NOTE,
    MARKER,
    Item,
    PageParts,
    is_generated,
    render_current,
)
from mkdocs_adr.summary.planning import draft
from mkdocs_adr.summary.published import published, refuse_user_owned
from mkdocs_adr.summary.review import PlanScope, RootReview, SummaryReview, review_of
from mkdocs_adr.summary.scope import plan_scopes, resolve_domain, resolve_sources
from mkdocs_adr.summary.text import (
    end_marker,
    extract_blocks,
    marker_key,
    start_marker,
    strip_status_line,
)

from .retrieval_logs import Spec, load_log

#: a layered root (domains data and platform) with every kind of source
LAYERED = [
    Spec(
        1,
        "Use queues",
        domain="platform",
        sections={"Decision": "We use queues.\n\n### Detail\n\nMore <b>bold</b>."},
    ),
    Spec(2, "Use caches", domain="data", status="proposed"),
    Spec(
        3, "Old way", domain="data", status="superseded", relations={"superseded-by": ["ADR-0004"]}
    ),
    Spec(4, "New way", domain="data", relations={"supersedes": ["ADR-0003"]}),
    Spec(
        5,
        "Shared",
        domain="data",
        units=[("Use A", "accepted", "A it is."), ("Use B", "rejected", "Not B.")],
    ),
]


def _draft(log: Log, scope: mf.Scope | None = None) -> RootDraft:
    cfg, info = root_pairs(log)[0]
    return draft_root(
        log.config,
        log,
        cfg,
        info,
        scope or mf.Scope.make(cfg.path),
        published(log.config, info),
        other_views=[],
    )


def _publish(log: Log, d: RootDraft) -> None:
    """Put a draft on disk as if its plan had been confirmed."""
    folder = log.config.project_dir / d.root.path
    (folder / log.config.current_page).write_text(d.text, encoding="utf-8")
    (folder / mf.FILENAME).write_bytes(d.manifest.to_bytes())


# --------------------------------------------------------------------------- scope


@pytest.fixture
def two_roots(tmp_path: Path) -> Log:
    return load_log(
        tmp_path,
        [
            Spec(1, "One"),
            Spec(4, "Four", domain="data"),
            Spec(5, "Five", units=[("Use A", "accepted", "A.")]),
            Spec(6, "Six", status="rejected", archived=True),
            Spec(3, "Pay three", root="services/pay/adr", prefix="PAY"),
        ],
        module=True,
    )


def test_sources_group_by_root_in_the_order_given_without_repeats(two_roots: Log) -> None:
    chosen = resolve_sources(two_roots, " ADR-0004, PAY-0003,ADR-0001 ,ADR-0004,")
    assert chosen == {"adr": ["ADR-0004", "ADR-0001"], "services/pay/adr": ["PAY-0003"]}


def test_every_bad_source_is_refused_in_one_message(two_roots: Log) -> None:
    with pytest.raises(UsageError) as err:
        resolve_sources(two_roots, "ADR-0099,ADR-0005#D1,ADR-0006,ADR-0001")
    message = err.value.message
    assert message.startswith("--sources: 'ADR-0099' is not the id of any record")
    unit = "; 'ADR-0005#D1' names a decision unit; a scope selects whole records"
    assert unit + " (nearest valid: ADR-0005);" in message
    assert "; ADR-0006 is archived (adr/archive/0006-record.md); archived records" in message
    # the refusals come in the order given, and the valid id is not among them
    assert message.index("ADR-0099") < message.index("ADR-0005#D1") < message.index("ADR-0006")
    assert "'ADR-0001'" not in message and "ADR-0001 is" not in message


def test_empty_sources_are_a_usage_error(two_roots: Log) -> None:
    with pytest.raises(UsageError, match="--sources is empty"):
        resolve_sources(two_roots, " , ,")


def test_domain_scope_names_its_roots_and_suggests_near_domains(two_roots: Log) -> None:
    assert resolve_domain(two_roots, "data") == ["adr"]
    with pytest.raises(UsageError) as err:
        resolve_domain(two_roots, "dat")
    assert "did you mean data?" in err.value.fix


def test_plan_scopes_per_root(two_roots: Log) -> None:
    whole = plan_scopes(two_roots)
    assert list(whole) == ["adr", "services/pay/adr"]
    assert {s.kind for s in whole.values()} == {"root"}
    by_domain = plan_scopes(two_roots, domain="data")
    assert by_domain == {"adr": mf.Scope.make("adr", domains=["data"])}
    by_ids = plan_scopes(two_roots, sources="PAY-0003")
    assert by_ids == {"services/pay/adr": mf.Scope.make("services/pay/adr", ids=["PAY-0003"])}
    with pytest.raises(UsageError, match="exclude each other"):
        plan_scopes(two_roots, domain="data", sources="ADR-0001")


def test_plan_scope_joins_the_ids_of_every_root() -> None:
    scope = PlanScope.of(
        {
            "b": mf.Scope.make("b", ids=["PAY-0003"]),
            "a": mf.Scope.make("a", ids=["ADR-0004", "ADR-0001"]),
        },
        ["docs/a", "docs/b"],
    )
    assert scope.to_json() == {
        "mode": "summary",
        "kind": "sources",
        "domains": [],
        "ids": ["ADR-0001", "ADR-0004", "PAY-0003"],
        "roots": ["docs/a", "docs/b"],
    }


# --------------------------------------------------------------------------- dispositions


def test_each_source_gets_its_disposition_and_part(tmp_path: Path) -> None:
    log = load_log(tmp_path, LAYERED)
    cfg, info = root_pairs(log)[0]
    entries = select(log, cfg, info, mf.Scope.make(cfg.path)).entries
    candidates = {"adr/data/0003-record.md"}
    got = {}
    for e in entries:
        disp, section = disposition(log, e, candidates)
        got[e.key] = (disp, section, part_of(e, disp, section, layered=True))
    assert got == {
        "ADR-0001": ("summarized", "Decisions in effect", "Decisions in effect / Platform"),
        "ADR-0002": ("open", "Open proposals", "Open proposals"),
        "ADR-0003": ("archive-candidate", "", "History (not in this view)"),
        "ADR-0004": ("summarized", "Decisions in effect", "Decisions in effect / Data"),
        "ADR-0005": ("summarized", "", "Decisions in effect (by decision unit)"),
        "ADR-0005#D1": ("summarized", "Decisions in effect", "Decisions in effect / Data"),
        "ADR-0005#D2": ("retained", "", "History (not in this view)"),
    }
    # without being an archive candidate, a superseded record is retained history
    old = next(e for e in entries if e.key == "ADR-0003")
    assert disposition(log, old, set()) == ("retained", "")
    # a flat root has no domain groups
    first = next(e for e in entries if e.key == "ADR-0001")
    assert part_of(first, "summarized", "Decisions in effect", layered=False) == (
        "Decisions in effect"
    )


def test_sources_sort_by_number_then_unit() -> None:
    keys = ["ADR-0010", "ADR-0002#D2", "x-notes", "ADR-0002", "ADR-0002#D10", "ADR-0002#D1"]
    assert sorted(keys, key=lambda k: order(None, k)) == [
        "ADR-0002",
        "ADR-0002#D1",
        "ADR-0002#D2",
        "ADR-0002#D10",
        "ADR-0010",
        "x-notes",
    ]


# --------------------------------------------------------------------------- the page


def _item(key: str, section: str, group: str = "", n: int = 0) -> Item:
    return Item(key, section, group, f"body of {key}", (False, n, key, -1))


def _parts(**kw: object) -> PageParts:
    base: dict[str, object] = {
        "title": "",
        "index_page": "INDEX.md",
        "view_scope": mf.Scope.make("adr"),
        "plan_scope": mf.Scope.make("adr"),
        "items": (),
        "sources": (),
    }
    base.update(kw)
    return PageParts(**base)  # type: ignore[arg-type]


def test_page_groups_decisions_by_domain_with_general_last() -> None:
    text = render_current(
        _parts(
            title="Payments",
            items=(
                _item("ADR-0003", "Decisions in effect", "General", 3),
                _item("ADR-0002", "Decisions in effect", "Zeta", 2),
                _item("ADR-0001", "Decisions in effect", "Alpha", 1),
                _item("ADR-0004", "Open proposals", "", 4),
            ),
        )
    )
    assert text.startswith(MARKER + "\n\n# Current decisions: Payments\n")
    headings = [ln for ln in text.split("\n") if ln.startswith("#")]
    assert headings == [
        "# Current decisions: Payments",
        "## Decisions in effect",
        "### Alpha",
        "### Zeta",
        "### General",
        "## Open proposals",
        "## Problems and conflicts",
        "## Coverage",
        "## Sources",
    ]
    # every block sits between its markers, so a partial plan can keep it
    assert extract_blocks(text) == {
        "ADR-0001": "body of ADR-0001",
        "ADR-0002": "body of ADR-0002",
        "ADR-0003": "body of ADR-0003",
        "ADR-0004": "body of ADR-0004",
    }
    assert "Proposals are not in effect" in text
    assert "This version re-checked" not in text


def test_an_empty_page_says_so_and_lists_problems_and_other_views() -> None:
    problem = Problem("ADR005", Severity.ERROR, "two records <claim> it", path="adr/x.md", line=3)
    text = render_current(
        _parts(problems=(problem,), other_views=(("../pay/CURRENT.md", "Pay (one)"),))
    )
    assert "No decision in this scope is in effect." in text
    assert "No open proposal in this scope." in text
    assert "- **ADR005** error: two records &lt;claim&gt; it (adr/x.md:3)" in text
    assert text.endswith("## Other views\n\n- [Pay (one)](../pay/CURRENT.md)\n")


def test_a_partial_page_says_what_it_rechecked_and_what_it_kept() -> None:
    src = mf.Source("ADR-0007", None, "data/0007-x.md", "a" * 64, "accepted", "summarized")
    text = render_current(
        _parts(
            view_scope=mf.Scope.make("adr", domains=["data", "platform"]),
            plan_scope=mf.Scope.make("adr", domains=["platform"]),
            sources=(src,),
            kept=("ADR-0007",),
            kept_changed=("ADR-0007",),
        )
    )
    assert "This version re-checked domain platform. The other 1 sources were kept" in text
    assert "Of those, 1 changed since then and keep this view stale: ADR-0007." in text
    assert "| ADR-0007 | accepted | summarized |  (kept, not re-checked) |" in text
    assert "| ADR-0007 | [data/0007-x.md](data/0007-x.md) | `aaaaaaaaaaaa` |" in text


def test_the_marker_is_recognised_only_at_the_top() -> None:
    assert is_generated("\ufeff" + MARKER + "\n# x\n")
    assert not is_generated("# Mine\n\n" + MARKER + "\n")


# --------------------------------------------------------------------------- one root


def test_draft_of_a_small_layered_log(tmp_path: Path) -> None:
    log = load_log(tmp_path, LAYERED)
    d = _draft(log)
    blocks = extract_blocks(d.text)
    assert list(blocks) == ["ADR-0004", "ADR-0005#D1", "ADR-0001", "ADR-0002"]
    assert blocks["ADR-0004"].startswith("#### [ADR-0004](data/0004-record.md): New way")
    assert blocks["ADR-0002"].startswith(
        "### [ADR-0002](data/0002-record.md): Use caches (proposed)"
    )
    # the whole Decision section, sub-headings flattened and HTML escaped
    assert "We use queues.\n\n**Detail**\n\nMore &lt;b>bold&lt;/b>." in blocks["ADR-0001"]
    assert "A it is." in blocks["ADR-0005#D1"] and "Not B." not in d.text
    assert d.text.index("### Data") < d.text.index("### Platform")
    assert {row.source: row.disposition for row in d.coverage}["ADR-0005#D2"] == "retained"
    assert d.manifest.members == ("ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004", "ADR-0005")
    assert d.manifest.summary_sha256 == mf.text_sha256(d.text.encode("utf-8"))
    assert d.published_state == "absent" and d.kept == () and d.blocking == ()
    assert d.index.text is not None and d.index.rel == "adr/INDEX.md"


def test_a_partial_draft_keeps_the_other_parts_as_published(tmp_path: Path) -> None:
    log = load_log(tmp_path, LAYERED)
    _publish(log, _draft(log))
    record = tmp_path / "adr/data/0004-record.md"
    record.write_text(record.read_text("utf-8") + "\nLater edit.\n", encoding="utf-8")
    log = load(log.config)
    d = _draft(log, mf.Scope.make("adr", domains=["platform"]))
    assert d.view_scope.kind == "root"  # the published scope covered everything
    assert d.view_scope.rechecked == ("ADR-0001",)
    assert "ADR-0001" not in d.kept and "ADR-0004" in d.kept
    assert d.kept_changed == ("ADR-0004",)
    blocks = extract_blocks(d.text)
    assert KEPT_NOTE not in blocks["ADR-0001"]
    kept = blocks["ADR-0004"].split("\n")
    assert kept[0].startswith("#### [ADR-0004]") and kept[2].startswith(KEPT_NOTE)
    assert "Later edit." not in blocks["ADR-0004"]  # the reviewed text, not the new one
    assert {row.source for row in d.coverage if row.kept} == set(d.kept)


def test_kept_sources_leave_out_what_the_plan_rechecks(tmp_path: Path) -> None:
    log = load_log(tmp_path, LAYERED)
    old = _draft(log).manifest
    kept = kept_sources(old, mf.Scope.make("adr", domains=["data"]), rechecked={"ADR-0001"})
    assert kept == []
    kept = kept_sources(old, mf.Scope.make("adr", ids=["ADR-0002"]), rechecked={"ADR-0002"})
    assert [s.key for s in kept] == [
        "ADR-0001",
        "ADR-0003",
        "ADR-0004",
        "ADR-0005",
        "ADR-0005#D1",
        "ADR-0005#D2",
    ]


def test_a_kept_block_carries_one_note_under_its_heading() -> None:
    once = kept_body("### [ADR-0001](x.md): X\n\nText.", "2026-01-01T00:00:00Z")
    assert once.split("\n")[:3] == [
        "### [ADR-0001](x.md): X",
        "",
        f"{KEPT_NOTE} 2026-01-01T00:00:00Z; not re-checked by this plan.*",
    ]
    twice = kept_body(once, "2026-02-02T00:00:00Z")
    assert twice.count(KEPT_NOTE) == 1 and "2026-02-02" in twice
    assert kept_body("Just text.", "then").startswith(KEPT_NOTE)


# --------------------------------------------------------------------------- what is published


def test_who_owns_a_published_page(tmp_path: Path) -> None:
    log = load_log(tmp_path, LAYERED)
    info = root_pairs(log)[0][1]
    page = tmp_path / "adr/CURRENT.md"
    assert published(log.config, info).why == "absent"
    d = _draft(log)
    _publish(log, d)
    assert published(log.config, info).why == "marker"
    # without the marker, the manifest's hash of the page still proves who wrote it
    text = d.text.replace(MARKER + "\n", "")
    page.write_text(text, encoding="utf-8")
    manifest = replace(d.manifest, summary_sha256=mf.text_sha256(text.encode("utf-8")))
    (tmp_path / "adr" / mf.FILENAME).write_bytes(manifest.to_bytes())
    assert published(log.config, info).why == "manifest"
    page.write_text("# My own page\n", encoding="utf-8")
    mine = published(log.config, info)
    assert (mine.owned, mine.why) == (False, "user-owned")
    with pytest.raises(RefusedError, match="not published by mkdocs-adr"):
        refuse_user_owned([mine])


# --------------------------------------------------------------------------- the review record


def test_the_review_record_survives_the_plan_file(tmp_path: Path) -> None:
    pay = Spec(3, "Pay three", root="services/pay/adr", prefix="PAY")
    log = load_log(tmp_path, [*LAYERED, pay], module=True)
    drafted = draft(log.config, log, domain="data")
    review = review_of(drafted.plan)
    assert [r.root for r in review.roots] == ["adr"]
    [root] = review.roots
    assert root.plan_scope == mf.Scope.make("adr", domains=["data"])
    assert root.dispositions == {"open": 1, "archive-candidate": 1, "summarized": 3, "retained": 1}
    assert RootReview.from_json(root.to_json()) == root
    assert drafted.plan.scope["kind"] == "domain" and drafted.plan.scope["roots"] == ["adr"]
    again = SummaryReview.from_json(review.to_json())
    assert again == review and "restaged_from" not in review.to_json()
    restaged = SummaryReview(review.roots, restaged_from="summary-x", edited=("adr/CURRENT.md",))
    assert restaged.to_json()["edited"] == ["adr/CURRENT.md"]


# --------------------------------------------------------------------------- text helpers


def test_a_units_status_line_is_left_out_once() -> None:
    text = "Status: accepted\n\nWe do A.\n\nStatus: a word in the text"
    assert strip_status_line(text, ["Status"]) == "We do A.\n\nStatus: a word in the text"
    assert strip_status_line("**Status**: accepted\nA.", ["status"]) == "A."
    assert strip_status_line("No status here.", ["Status"]) == "No status here."


def test_block_markers_survive_keys_that_comments_cannot_hold() -> None:
    key = "ADR--0001#D1"
    assert "--0001" not in marker_key(key)
    page = f"{start_marker(key)}\nText.\n{end_marker(key)}\n"
    assert extract_blocks(page) == {marker_key(key): "Text."}


# --------------------------------------------------------------------------- the card at a terminal


def test_each_answer_at_the_card_does_what_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mkdocs_adr.commands import plan as plan_cmd

    from .test_summary_support import copy_site, invoke

    monkeypatch.setattr(plan_cmd, "is_terminal", lambda: True)
    # the draft's manifest is stamped to the second, and the stamp is part of the plan's
    # content: the four runs below must draft the same plan even when they cross a second
    monkeypatch.setattr(mf, "now", lambda: "2026-12-01T00:00:00Z")
    site = copy_site(tmp_path, "flat")
    plans = site / ".mkdocs-adr" / "plans"
    args = ("-f", str(site / "mkdocs.yml"), "plan", "--mode", "summary")

    code, out, _ = invoke(*args, input="")  # no answer is no consent
    assert code == 0 and "Cancelled: nothing was published" in out
    assert not any(plans.iterdir())
    code, out, _ = invoke(*args, input="n\n")
    [plan_id] = [p.name for p in plans.iterdir()]
    assert f"Edit the draft (.mkdocs-adr/plans/{plan_id}/review/docs/adr/CURRENT.md)" in out
    code, out, _ = invoke(*args, input="s\n")
    assert f"Draft saved as plan {plan_id}" in out
    assert not (site / "docs/adr/CURRENT.md").exists()
    code, out, _ = invoke(*args, input="p\n")
    assert code == 0 and f"Applied plan {plan_id} (summary, version 1)." in out
    assert is_generated((site / "docs/adr/CURRENT.md").read_text(encoding="utf-8"))
