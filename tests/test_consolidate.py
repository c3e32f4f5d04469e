"""``plan --mode consolidate``: a generated 60-record log consolidated per domain, the
coverage map, save-draft-only, reviewer edits (a dropped constraint, an unresolved one),
a number taken meanwhile, and the terminal review card. The real CLI runs both in
process (click's runner) and as a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.consolidate import units
from mkdocs_adr.fsops import project_lock
from mkdocs_adr.log import load
from mkdocs_adr.model import Parsed, Record
from mkdocs_adr.plans import is_current, list_plans, load_plan

from .archive_lab import invoke, json_of
from .consolidate_lab import DOMAINS, LEFT_ALONE, SOURCES, make_log, rid

TODAY = "2026-12-01"


def run(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ)
    full.pop("MKDOCS_ADR_CRASH_AT", None)
    full.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", *args],
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def plan_json(project: Path, *extra: str) -> dict[str, Any]:
    code, out, err = invoke(
        "plan", "--mode", "consolidate", "--today", TODAY, "--json", *extra, cwd=project
    )
    assert code == 0, err
    data: dict[str, Any] = json_of(out)
    return data


def records(project: Path) -> dict[str, Record]:
    log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    return {r.id: r for r in log.records}


def tree(project: Path) -> dict[str, bytes]:
    return {
        p.relative_to(project).as_posix(): p.read_bytes()
        for p in sorted((project / "docs").rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_log(tmp_path_factory.mktemp("lab") / "project")


def fresh(lab: Path, tmp_path: Path) -> Path:
    import shutil

    dest = tmp_path / "project"
    shutil.copytree(lab, dest)
    return dest


# --------------------------------------------------------------------- the draft


def test_sixty_records_consolidate_per_domain_with_a_full_coverage_map(
    lab: Path, tmp_path: Path
) -> None:
    project = fresh(lab, tmp_path)
    before = tree(project)
    data = plan_json(project, "--dry-run")
    assert tree(project) == before and not (project / ".mkdocs-adr").exists()
    assert set(data) == {
        "schema", "version", "plan_id", "plan_version", "kind", "mode", "dry_run", "saved",
        "scope", "fingerprint", "replacements", "coverage", "needs_acceptance", "left_alone",
        "current", "index", "archive", "notes", "problems_added", "writes", "review_dir",
        "blocking", "next",
    }  # fmt: skip
    assert data["schema"] == "mkdocs-adr/consolidate-plan" and data["archive"] is None
    assert set(data["coverage"][0]) == {
        "key", "record", "item", "path", "text", "state", "where", "new_text", "reason"
    }  # fmt: skip
    reps = data["replacements"]
    assert [r["group"] for r in reps] == list(DOMAINS)
    assert [r["id"] for r in reps] == ["ADR-0061", "ADR-0062", "ADR-0063"]
    assert [r["path"] for r in reps] == [
        "docs/adr/payments/0061-consolidated-payments-decisions.md",
        "docs/adr/identity/0062-consolidated-identity-decisions.md",
        "docs/adr/search/0063-consolidated-search-decisions.md",
    ]
    for d, rep in enumerate(reps):
        assert [s["id"] for s in rep["sources"]] == [rid(d, i) for i in SOURCES]
        assert {s["disposition"] for s in rep["sources"]} == {"superseded"}
    # every in-effect constraint of every source, once, in exactly one replacement
    coverage = data["coverage"]
    keys = [row["key"] for row in coverage]
    assert len(keys) == len(set(keys)) == 3 * (3 + 5 * 2 + 9 * 1)
    log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    for d in range(3):
        for i in SOURCES:
            rec = log.get(rid(d, i))
            assert rec is not None and log.in_effect(rec)
            mine = [row for row in coverage if row["record"] == rec.id]
            assert [row["text"] for row in mine] == [c.text for c in units.constraints(rec)]
            assert {row["where"] for row in mine} == {reps[d]["id"]}
            assert {row["state"] for row in mine} == {"retained"}
    alone = {a["id"] for a in data["left_alone"]}
    assert alone == {rid(d, i) for d in range(3) for i in LEFT_ALONE}
    assert data["needs_acceptance"] == [] and data["blocking"] == []
    assert data["current"] == ["docs/adr/CURRENT.md", "docs/adr/CURRENT.sources.json"]
    assert data["index"] == ["docs/adr/INDEX.md"]


def test_accepting_supersedes_the_sources_and_publishes_current(lab: Path, tmp_path: Path) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project)
    plan_id = data["plan_id"]
    assert data["saved"] is True and data["plan_version"] == 1
    assert data["draft_plan_id"].startswith("consolidate-draft-")
    folder = project / data["review_dir"]
    text = (folder / "0061-consolidated-payments-decisions.md").read_text(encoding="utf-8")
    assert (
        "- Writes to the ledger are idempotent and carry a request id. (from ADR-0001, item 2)"
        in text
    )
    assert "## Status\n\nAccepted\n\nSupersedes [1. Base rules for card payments]" in text
    assert (
        "- [ADR-0001](0001-base-rules-for-card-payments.md): Base rules for card payments" in text
    )
    assert (folder / "CURRENT.md").is_file() and (folder / "coverage.txt").is_file()
    proc = run("plan", "--confirm", plan_id, cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "decisions: applied" in proc.stdout and "current: applied" in proc.stdout
    assert "index: applied" in proc.stdout
    proc = run("check", "--json", cwd=project)
    assert proc.returncode == 0, proc.stdout
    checked = json.loads(proc.stdout)
    assert [p for p in checked["problems"] if p["severity"] != "info"] == []
    assert checked["views"]["current"]["state"] == "fresh"
    assert checked["views"]["index"]["state"] == "fresh"
    recs = records(project)
    log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    for d in range(3):
        new = f"ADR-{61 + d:04d}"
        assert recs[new].status == "accepted"
        for i in SOURCES:
            old = recs[rid(d, i)]
            assert old.status == "superseded"
            assert ("superseded-by", new) in {(r.kind, r.target_id) for r in old.relations}
            assert log.successor(old.id).current == new
        for i in LEFT_ALONE:
            assert (
                recs[rid(d, i)].sha256
                == load(load_from_mkdocs_yml(lab / "mkdocs.yml"))
                .by_path[recs[rid(d, i)].path]
                .sha256
            )
    proc = run("context", "ADR-0003", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["succession"]["current"] == "ADR-0061"
    assert answer["units"][0]["id"] == "ADR-0061"
    # applied once: a second confirm is refused
    assert run("plan", "--confirm", plan_id, cwd=project).returncode == 3


def test_save_draft_only_leaves_every_old_record_in_effect(lab: Path, tmp_path: Path) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "payments")
    assert [r["group"] for r in data["replacements"]] == ["payments"]
    draft_id = data["draft_plan_id"]
    assert draft_id.startswith("consolidate-draft-")
    code, out, err = invoke("plan", "--confirm", draft_id, cwd=project)
    assert code == 0, err
    assert "current" not in {line.strip().split(":")[0] for line in out.splitlines()}
    log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    new = log.get("ADR-0061")
    assert new is not None and new.status == "proposed" and not log.in_effect(new)
    for i in SOURCES:
        old = log.get(rid(0, i))
        assert old is not None and old.status == "accepted" and log.in_effect(old)
    assert not (project / "docs/adr/CURRENT.md").exists()
    assert run("check", cwd=project).returncode == 0
    # the proposal can be accepted later, which then supersedes the sources
    code, out, err = invoke("accept", "ADR-0061", "--json", cwd=project)
    assert code == 0, err
    assert invoke("plan", "--confirm", json_of(out)["plan_id"], cwd=project)[0] == 0
    recs = records(project)
    assert recs["ADR-0061"].status == "accepted"
    assert {recs[rid(0, i)].status for i in SOURCES} == {"superseded"}


# --------------------------------------------------------------------- reviewer edits


def _edit_review(project: Path, data: dict[str, Any], name: str, old: str, new: str) -> None:
    path = project / data["review_dir"] / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_dropped_constraint_is_a_retirement_needing_explicit_acceptance(
    lab: Path, tmp_path: Path
) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "payments")
    before = tree(project)
    rep = "0061-consolidated-payments-decisions.md"
    _edit_review(
        project,
        data,
        rep,
        "- Step 1: card payments retries at most 3 times. (from ADR-0002, item 1)\n",
        "",
    )
    _edit_review(
        project,
        data,
        rep,
        "- Refunds are kept for seven years. (from ADR-0001, item 3)",
        "- Refunds are kept for ten years. (from ADR-0001, item 3)",
    )
    proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert tree(project) == before  # nothing applied: the edits are a new version to review
    assert "RETIRED ADR-0002#1: Step 1: card payments retries at most 3 times." in proc.stdout
    assert "reason: (no reason given)" in proc.stdout
    assert "CHANGED ADR-0001#3: Refunds are kept for seven years." in proc.stdout
    assert "now: Refunds are kept for ten years." in proc.stdout
    plans = [p for p in list_plans(project / ".mkdocs-adr") if p.kind == "consolidate"]
    assert sorted(p.version for p in plans) == [1, 2]
    v2 = max(plans, key=lambda p: p.version)
    assert f"accept it with: mkdocs-adr plan --confirm {v2.plan_id}" in proc.stdout
    # the reason, given in coverage.txt, restages once more; then the version is accepted
    cov = project / ".mkdocs-adr/plans" / v2.plan_id / "review/coverage.txt"
    cov.write_text(
        cov.read_text(encoding="utf-8").replace(
            "ADR-0002#1: retired: (no reason given)",
            "ADR-0002#1: retired: retries moved to the client",
        ),
        encoding="utf-8",
    )
    code, out, err = invoke("plan", "--confirm", v2.plan_id, "--json", cwd=project)
    assert code == 0, err
    v3 = json_of(out)
    assert v3["plan_version"] == 3 and v3["needs_acceptance"] == ["ADR-0001#3", "ADR-0002#1"]
    code, out, err = invoke("plan", "--confirm", v3["plan_id"], cwd=project)
    assert code == 0, (out, err)
    text = (project / "docs/adr/payments" / rep).read_text(encoding="utf-8")
    assert "retries at most 3 times" not in text.split("## Consequences")[0]
    assert (
        "- Retired: ADR-0002, item 1 (Step 1: card payments retries at most 3 times.): "
        "retries moved to the client" in text
    )
    assert "- Refunds are kept for ten years. (from ADR-0001, item 3)" in text
    assert records(project)["ADR-0002"].status == "superseded"


def test_an_edit_restaging_cannot_carry_is_refused_with_its_line(lab: Path, tmp_path: Path) -> None:
    """An edit outside the Decision items (here the Context, and the CURRENT candidate)
    is not read back by restaging: rather than lose it silently, --confirm refuses,
    naming the file and line, and applies nothing."""
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "payments")
    before = tree(project)
    rep = "0061-consolidated-payments-decisions.md"
    path = project / data["review_dir"] / rep
    lines = path.read_text(encoding="utf-8").split("\n")
    context = lines.index("## Context")
    lines.insert(context + 2, "The reviewer adds a sentence here.")
    path.write_text("\n".join(lines), encoding="utf-8")
    proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 3, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert f"{data['review_dir']}/{rep}:{context + 3}" in proc.stderr
    assert "undo those edits" in proc.stderr
    assert tree(project) == before
    # undone, the same plan applies; a CURRENT candidate edited is refused the same way
    lines.pop(context + 2)
    path.write_text("\n".join(lines), encoding="utf-8")
    current = project / data["review_dir"] / "CURRENT.md"
    current.write_text(
        current.read_text(encoding="utf-8") + "\nA note of mine.\n", encoding="utf-8"
    )
    proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 3 and "CURRENT.md:" in proc.stderr, proc.stderr
    current.write_text(
        current.read_text(encoding="utf-8").replace("\nA note of mine.\n", ""), encoding="utf-8"
    )
    proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert records(project)["ADR-0001"].status == "superseded"


def test_an_unresolved_unit_blocks_retiring_its_record(lab: Path, tmp_path: Path) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "payments")
    _edit_review(
        project, data, "coverage.txt", "ADR-0003#2: retained -> ADR-0061", "ADR-0003#2: unresolved"
    )
    code, out, err = invoke("plan", "--confirm", data["plan_id"], "--json", cwd=project)
    assert code == 0, err
    v2 = json_of(out)
    rep = v2["replacements"][0]
    disp = {s["id"]: s["disposition"] for s in rep["sources"]}
    assert disp["ADR-0003"] == "partially-superseded"
    assert {d for k, d in disp.items() if k != "ADR-0003"} == {"superseded"}
    code, out, err = invoke("plan", "--confirm", v2["plan_id"], cwd=project)
    assert code == 0, (out, err)
    log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    kept = log.get("ADR-0003")
    assert kept is not None and kept.status == "accepted" and log.in_effect(kept)
    assert ("partially-superseded-by", "ADR-0061") in {
        (r.kind, r.target_id) for r in kept.relations
    }
    whole = log.get("ADR-0002")
    assert whole is not None and whole.status == "superseded"
    text = (project / "docs/adr/payments/0061-consolidated-payments-decisions.md").read_text(
        "utf-8"
    )
    assert "(from ADR-0003, item 2)" not in text
    assert "Not settled here: ADR-0003, item 2" in text
    assert run("check", cwd=project).returncode == 0


def test_retained_in_coverage_carries_an_unresolved_constraint_again(
    lab: Path, tmp_path: Path
) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "payments")
    _edit_review(
        project, data, "coverage.txt", "ADR-0003#2: retained -> ADR-0061", "ADR-0003#2: unresolved"
    )
    code, out, err = invoke("plan", "--confirm", data["plan_id"], "--json", cwd=project)
    assert code == 0, err
    v2 = json_of(out)
    cov2 = project / v2["review_dir"] / "coverage.txt"
    assert "ADR-0003#2: unresolved\n" in cov2.read_text(encoding="utf-8")
    cov2.write_text(
        cov2.read_text(encoding="utf-8").replace("ADR-0003#2: unresolved", "ADR-0003#2: retained")
    )
    code, out, err = invoke("plan", "--confirm", v2["plan_id"], "--json", cwd=project)
    assert code == 0, err
    v3 = json_of(out)
    assert v3["plan_version"] == 3
    assert {r["state"] for r in v3["coverage"]} == {"retained"}
    assert {s["disposition"] for s in v3["replacements"][0]["sources"]} == {"superseded"}


def test_a_number_taken_meanwhile_makes_the_plan_stale(lab: Path, tmp_path: Path) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "search")
    assert data["replacements"][0]["id"] == "ADR-0061"
    (project / "docs/adr/identity/0061-use-passkeys.md").write_text(
        "# 61. Use passkeys\n\nDate: 2026-11-30\n\n## Status\n\nProposed\n\n"
        "## Context\n\nPasswords leak.\n\n## Decision\n\n- Offer passkeys.\n",
        encoding="utf-8",
    )
    before = tree(project)
    proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 3
    assert "ADR-0061, reserved by this plan" in proc.stderr
    assert "docs/adr/identity/0061-use-passkeys.md" in proc.stderr
    assert tree(project) == before
    again = plan_json(project, "--domain", "search")
    assert again["replacements"][0]["id"] == "ADR-0062"


def test_two_concurrent_confirms_one_is_refused(lab: Path, tmp_path: Path) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "identity")
    before = tree(project)
    with project_lock(project / ".mkdocs-adr", "another confirm"):
        proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 3 and "lock is held" in proc.stderr
    assert tree(project) == before
    proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 0, proc.stderr


# --------------------------------------------------------------------- the terminal card


@pytest.mark.parametrize(
    ("typed", "applied"),
    [("c\n", None), ("", None), ("s\n", "draft"), ("p\n", "accept"), ("n\n", None)],
)
def test_the_review_card_and_its_four_answers(
    lab: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str, applied: str | None
) -> None:
    from mkdocs_adr.commands import _consolidate as plan_cmd

    project = fresh(lab, tmp_path)
    monkeypatch.setattr(plan_cmd, "is_terminal", lambda: True)
    code, out, err = invoke(
        "plan",
        "--mode",
        "consolidate",
        "--domain",
        "payments",
        "--today",
        TODAY,
        cwd=project,
        input=typed,
    )
    assert code == 0, err
    assert "Consolidation plan consolidate-" in out and "(version 1)" in out
    assert "ADR-0061 Consolidated payments decisions -> docs/adr/payments/" in out
    assert "Coverage (22 constraints)" in out and "22 retained" in out
    assert "[p] accept and apply  [s] save draft only  [n] needs changes  [c] cancel" in out
    status = records(project).get("ADR-0061")
    if applied is None:
        assert status is None
    else:
        assert status is not None
        assert status.status == ("proposed" if applied == "draft" else "accepted")
    if typed in ("c\n", ""):
        assert "staged files of" in out and "were removed" in out
        assert not any((project / ".mkdocs-adr/plans").iterdir())
    if typed == "n\n":
        assert "edit the drafts in .mkdocs-adr/plans/consolidate-" in out
        assert "Stopped: nothing was applied; the staged drafts of consolidate-" in out
        assert len(list((project / ".mkdocs-adr/plans").iterdir())) == 2


# --------------------------------------------------------------------- units


def _rec(decision: str) -> Record:
    text = (
        "# 1. X\n\n## Status\n\nAccepted\n\n## Decision\n\n"
        f"{decision}\n\n## Consequences\n\nNone.\n"
    )
    parsed = Parsed("nygard", "X", "accepted", "Accepted", text=text)
    return Record("ADR-0001", "adr/0001-x.md", "adr", None, False, "h", parsed, 1)


def test_constraints_are_items_and_paragraphs_in_order() -> None:
    rec = _rec(
        "We will use one queue.\nIt is shared.\n\n"
        "- First rule\n  spanning two lines\n- Second rule\n\n"
        "  1. nested item stays with the second\n\n"
        "### Rationale\n\n<!-- hidden -->\n"
        "```\ncode block\n\nkept whole\n```\n\n"
        "Closing paragraph."
    )
    found = [c.text for c in units.constraints(rec)]
    assert found == [
        "We will use one queue.\nIt is shared.",
        "First rule\nspanning two lines",
        "Second rule\n\n1. nested item stays with the second",
        "```\ncode block\n\nkept whole\n```",
        "Closing paragraph.",
    ]
    c = units.constraints(rec)[1]
    rendered = "\n".join(units.render_item(c.text, c))
    assert rendered == "- First rule\n  spanning two lines (from ADR-0001, item 2)"
    assert units.parse_items(rendered + "\n- Loose item without a source\n") == {
        "ADR-0001#2": "First rule\nspanning two lines"
    }


def test_madr_consequences_under_the_decision_are_no_constraints() -> None:
    rec = _rec(
        'Chosen option: "one queue", because it is the simplest.\n\n'
        "### Consequences\n\n* Good, because fewer moving parts\n* Bad, because one queue\n\n"
        "### Rollout\n\n- Move the billing jobs first."
    )
    assert [c.text for c in units.constraints(rec)] == [
        'Chosen option: "one queue", because it is the simplest.',
        "Move the billing jobs first.",
    ]


def test_nothing_to_consolidate_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "docs" / "adr"
    root.mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - adr\n", encoding="utf-8")
    for n, title in ((1, "Use queues"), (2, "Use tabs")):
        (root / f"000{n}-{title.lower().replace(' ', '-')}.md").write_text(
            f"# {n}. {title}\n\nDate: 2026-01-0{n}\n\n## Status\n\nAccepted\n\n"
            f"## Context\n\nC.\n\n## Decision\n\n- {title}.\n",
            encoding="utf-8",
        )
    code, _out, err = invoke("plan", "--mode", "consolidate", cwd=tmp_path)
    assert code == 3
    assert "nothing to consolidate: no group has two related records in effect" in err
    assert "ADR-0001: unrelated" in err and "ADR-0002: unrelated" in err
    assert not (tmp_path / ".mkdocs-adr" / "plans").exists()


def _queues_without_decision(tmp_path: Path) -> None:
    """Two adr-tools records: ADR-0002 amends ADR-0001 but has no Decision section."""
    root = tmp_path / "docs" / "adr"
    root.mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - adr\n", encoding="utf-8")
    (root / "0001-use-queues.md").write_text(
        "# 1. Use queues\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n"
        "Amended by [2. Bound the queues](0002-bound-the-queues.md)\n\n"
        "## Context\n\nLoad spikes.\n\n## Decision\n\n- Every service talks through a queue.\n",
        encoding="utf-8",
    )
    (root / "0002-bound-the-queues.md").write_text(
        "# 2. Bound the queues\n\nDate: 2026-02-01\n\n## Status\n\nAccepted\n\n"
        "Amends [1. Use queues](0001-use-queues.md)\n\n## Context\n\nQueues grew.\n",
        encoding="utf-8",
    )


def test_a_record_without_decision_is_unresolved_and_stays_in_effect(tmp_path: Path) -> None:
    _queues_without_decision(tmp_path)
    data = plan_json(tmp_path)
    rows = {r["key"]: r["state"] for r in data["coverage"]}
    assert rows == {"ADR-0001#1": "retained", "ADR-0002#0": "unresolved"}
    disp = {s["id"]: s["disposition"] for s in data["replacements"][0]["sources"]}
    assert disp == {"ADR-0001": "superseded", "ADR-0002": "left-in-effect"}
    code, out, err = invoke("plan", "--confirm", data["plan_id"], cwd=tmp_path)
    assert code == 0 and "Applied plan" in out, (out, err)  # no edit: nothing to restage
    recs = records(tmp_path)
    assert recs["ADR-0001"].status == "superseded" and recs["ADR-0002"].status == "accepted"


def test_a_record_without_decision_can_be_retired_by_the_reviewer(tmp_path: Path) -> None:
    _queues_without_decision(tmp_path)
    data = plan_json(tmp_path)
    _edit_review(
        tmp_path,
        data,
        "coverage.txt",
        "ADR-0002#0: unresolved",
        "ADR-0002#0: retired: it never said what to bound",
    )
    code, out, err = invoke("plan", "--confirm", data["plan_id"], "--json", cwd=tmp_path)
    assert code == 0, err
    v2 = json_of(out)
    disp = {s["id"]: s["disposition"] for s in v2["replacements"][0]["sources"]}
    assert disp == {"ADR-0001": "superseded", "ADR-0002": "superseded"}
    assert invoke("plan", "--confirm", v2["plan_id"], cwd=tmp_path)[0] == 0
    recs = records(tmp_path)
    assert recs["ADR-0002"].status == "superseded"
    text = (tmp_path / recs["ADR-0003"].path).read_text(encoding="utf-8")
    assert "- Retired: ADR-0002, its whole record: it never said what to bound" in text


def test_refusals_name_every_reason(lab: Path, tmp_path: Path) -> None:
    project = fresh(lab, tmp_path)
    before = tree(project)
    code, _out, err = invoke(
        "plan", "--mode", "consolidate", "--sources", "ADR-0007,ADR-0013,ADR-9999", cwd=project
    )
    assert code == 2
    assert "ADR-0007 cannot be consolidated: superseded: not in effect (history)" in err
    assert "ADR-0013 cannot be consolidated: proposed: a proposal stays a proposal" in err
    assert "'ADR-9999'" in err
    code, _out, err = invoke("plan", "--mode", "consolidate", "--domain", "billing", cwd=project)
    assert code == 2 and "no unarchived record is in domain 'billing'" in err
    assert "payments" in err
    assert tree(project) == before


# --------------------------------------------------------------------- --archive


def test_archive_moves_the_retired_records_after_acceptance(lab: Path, tmp_path: Path) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "payments", "--archive")
    moves = data["archive"]["moves"]
    assert [m["id"] for m in moves] == [rid(0, i) for i in SOURCES]
    assert moves[0] == {
        "id": "ADR-0001",
        "path": "docs/adr/payments/0001-base-rules-for-card-payments.md",
        "target": "docs/adr/archive/payments/0001-base-rules-for-card-payments.md",
    }
    assert data["archive"]["refused"] == []
    proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert "  archive: applied (plan archive-" in proc.stdout
    for m in moves:
        assert not (project / m["path"]).exists() and (project / m["target"]).is_file()
    assert run("check", cwd=project).returncode == 0
    answer = json.loads(run("context", "ADR-0003", "--json", cwd=project).stdout)
    assert answer["units"][0]["id"] == "ADR-0061"
    text = (project / "docs/adr/payments/0061-consolidated-payments-decisions.md").read_text(
        "utf-8"
    )
    assert "(../archive/payments/0001-base-rules-for-card-payments.md)" in text


def test_a_failed_archive_never_undoes_the_acceptance(lab: Path, tmp_path: Path) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "payments", "--archive")
    # something in the way of one move, which the archive plan refuses
    (project / "docs/adr/archive/payments/0002-rule-1-for-card-payments.md").mkdir(parents=True)
    proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "decisions: applied" in proc.stdout and "current: applied" in proc.stdout
    assert "  archive: not-applied" in proc.stdout
    assert "The acceptance stands" in proc.stdout
    recs = records(project)
    assert recs["ADR-0061"].status == "accepted"
    assert {recs[rid(0, i)].status for i in SOURCES} == {"superseded"}
    assert (project / "docs/adr/payments/0001-base-rules-for-card-payments.md").is_file()


def test_undoing_the_edits_makes_the_original_content_current_again(
    lab: Path, tmp_path: Path
) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "payments")
    _edit_review(
        project, data, "coverage.txt", "ADR-0003#2: retained -> ADR-0061", "ADR-0003#2: unresolved"
    )
    code, out, err = invoke("plan", "--confirm", data["plan_id"], "--json", cwd=project)
    v2 = json_of(out)
    assert code == 0 and v2["plan_version"] == 2, err
    # the reviewer undoes the edit in version 2's copy: the content is version 1's again
    cov2 = project / v2["review_dir"] / "coverage.txt"
    cov2.write_text(
        cov2.read_text(encoding="utf-8").replace("ADR-0003#2: unresolved", "ADR-0003#2: retained")
    )
    code, out, err = invoke("plan", "--confirm", v2["plan_id"], "--json", cwd=project)
    v3 = json_of(out)
    assert code == 0 and v3["plan_version"] == 3, err
    config = load_from_mkdocs_yml(project / "mkdocs.yml")
    from mkdocs_adr import consolidate

    twin = consolidate.save_draft_only(config, load_plan(project / ".mkdocs-adr", v3["plan_id"]))
    assert twin.plan_id == data["draft_plan_id"]  # the same proposals as version 1's twin
    assert is_current(project / ".mkdocs-adr", twin)
    code, out, err = invoke("plan", "--confirm", v3["plan_id"], cwd=project)
    assert code == 0, (out, err)


def test_sources_in_two_folders_keep_their_links_working(tmp_path: Path) -> None:
    """--sources across domain folders: the replacement sits in the first source's folder,
    and the relative links the other source's rules carry are rebased to it."""
    adr = tmp_path / "docs" / "adr"
    for folder in ("auth", "api"):
        (adr / folder).mkdir(parents=True)
    (tmp_path / "docs" / "runbook.md").write_text("# Runbook\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nnav:\n  - runbook.md\nplugins:\n  - adr\n", encoding="utf-8"
    )
    (adr / "auth/0001-issue-tokens-centrally.md").write_text(
        "# 1. Issue tokens centrally\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n"
        "Extended by [2. Check tokens at the gateway](../api/0002-check-tokens-at-the-gateway.md)"
        "\n\n## Context\n\nC.\n\n## Decision\n\n- One issuer signs every token.\n",
        encoding="utf-8",
    )
    (adr / "api/0002-check-tokens-at-the-gateway.md").write_text(
        "# 2. Check tokens at the gateway\n\nDate: 2026-02-01\n\n## Status\n\nAccepted\n\n"
        "Extends [1. Issue tokens centrally](../auth/0001-issue-tokens-centrally.md)\n\n"
        "## Context\n\nC.\n\n## Decision\n\n"
        "- The gateway rejects expired tokens ([runbook](../../runbook.md#tokens), "
        "[why](0002-check-tokens-at-the-gateway.md#context)).\n"
        "- Never follow [this](javascript:alert(1)).\n",
        encoding="utf-8",
    )
    data = plan_json(tmp_path, "--sources", "ADR-0001,ADR-0002")
    rep = data["replacements"][0]
    assert rep["path"] == "docs/adr/auth/0003-issue-tokens-centrally-consolidated.md"
    texts = {r["key"]: r["text"] for r in data["coverage"]}
    assert (
        texts["ADR-0002#1"] == "The gateway rejects expired tokens ([runbook]"
        "(../../runbook.md#tokens), [why](../api/0002-check-tokens-at-the-gateway.md#context))."
    )
    assert texts["ADR-0002#2"] == "Never follow [this\\](javascript:alert(1))."
    assert invoke("plan", "--confirm", data["plan_id"], cwd=tmp_path)[0] == 0
    proc = run("check", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout
    assert [p for p in json.loads(proc.stdout)["problems"] if p["severity"] != "info"] == []


def test_an_archive_that_did_not_run_runs_on_the_next_confirm(lab: Path, tmp_path: Path) -> None:
    from mkdocs_adr import apply

    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "search", "--archive")
    # the acceptance applied, the process gone before the archive plan was made
    receipt = apply.confirm(load_from_mkdocs_yml(project / "mkdocs.yml"), data["plan_id"])
    assert receipt.outcome == "success"
    assert (project / "docs/adr/search/0041-base-rules-for-the-search-index.md").is_file()
    proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert "was applied already; its authorized archive plan:" in proc.stdout
    assert "  archive: applied (plan archive-" in proc.stdout
    assert (project / "docs/adr/archive/search/0041-base-rules-for-the-search-index.md").is_file()
    # once moved, the plan is applied in every part: a further confirm is refused
    proc = run("plan", "--confirm", data["plan_id"], cwd=project)
    assert proc.returncode == 3 and "was already applied" in proc.stderr


@pytest.mark.parametrize(("typed", "accepted"), [("\naccept\n", True), ("\nyes\n", False)])
def test_needs_changes_at_the_terminal_restages_and_asks_for_explicit_acceptance(
    lab: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str, accepted: bool
) -> None:
    from mkdocs_adr.commands import _consolidate, _review

    project = fresh(lab, tmp_path)
    monkeypatch.setattr(_consolidate, "is_terminal", lambda: True)
    cards: list[str] = []

    def answer(card: str, *, can_apply: bool, apply_label: str = "publish") -> str:
        cards.append(card)
        if len(cards) == 1:  # the reviewer drops a rule from the draft, then says so
            folder = next(
                p for p in (project / ".mkdocs-adr/plans").iterdir() if "draft" not in p.name
            )
            draft = folder / "review/0061-consolidated-payments-decisions.md"
            text = draft.read_text(encoding="utf-8")
            drop = "- Refunds are kept for seven years. (from ADR-0001, item 3)\n"
            draft.write_text(text.replace(drop, ""), encoding="utf-8")
            return "changes"
        return "apply"

    monkeypatch.setattr(_review, "ask", answer)
    code, out, err = invoke(
        "plan", "--mode", "consolidate", "--domain", "payments", "--today", TODAY,
        cwd=project, input=typed,
    )  # fmt: skip
    assert code == 0, err
    assert len(cards) == 2 and "(version 2)" in cards[1]
    assert "RETIRED ADR-0001#3: Refunds are kept for seven years." in cards[1]
    assert "The plan changes or retires 1 constraint (listed above)" in out
    rec = records(project).get("ADR-0061")
    if accepted:
        assert rec is not None and rec.status == "accepted"
        text = (project / rec.path).read_text(encoding="utf-8")
        assert "- Retired: ADR-0001, item 3 (Refunds are kept for seven years.)" in text
    else:
        assert rec is None and "Cancelled: nothing was written to the log" in out


def test_hostile_text_is_neither_written_raw_nor_printed_raw(tmp_path: Path) -> None:
    root = tmp_path / "docs" / "adr"
    root.mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - adr\n", encoding="utf-8")
    (root / "0001-use-queues.md").write_text(
        "# 1. Use queues \x1b[31mnow\x1b[0m\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n"
        "Amended by [2. Bound the queues](0002-bound-the-queues.md)\n\n"
        "## Context\n\nC.\n\n## Decision\n\n"
        "- Every service talks \x1b]0;pwned\x07through a queue.\n",
        encoding="utf-8",
    )
    (root / "0002-bound-the-queues.md").write_text(
        "# 2. Bound the queues\n\nDate: 2026-02-01\n\n## Status\n\nAccepted\n\n"
        "Amends [1. Use queues now](0001-use-queues.md)\n\n## Context\n\nC.\n\n"
        "## Decision\n\n- Queues hold at most 10k messages.\n",
        encoding="utf-8",
    )
    proc = run("plan", "--mode", "consolidate", "--today", TODAY, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout
    data = plan_json(tmp_path, "--dry-run")
    rep = data["replacements"][0]
    assert rep["title"] == "Consolidated decisions"  # the first source's title holds controls
    assert {r["text"] for r in data["coverage"]} == {
        "Every service talks through a queue.",
        "Queues hold at most 10k messages.",
    }


def test_two_confirms_started_together_apply_once(lab: Path, tmp_path: Path) -> None:
    project = fresh(lab, tmp_path)
    data = plan_json(project, "--domain", "identity")
    env = {k: v for k, v in os.environ.items() if k != "MKDOCS_ADR_CRASH_AT"}
    cmd = [sys.executable, "-m", "mkdocs_adr", "plan", "--confirm", data["plan_id"]]
    procs = [
        subprocess.Popen(cmd, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    results = []
    for p in procs:
        _out, err = p.communicate(timeout=180)
        results.append((p.returncode, err.decode()))
    codes = sorted(code for code, _err in results)
    assert codes == [0, 3], results
    refused = next(err for code, err in results if code == 3)
    assert "lock is held" in refused or "was already applied" in refused
    recs = records(project)
    assert recs["ADR-0061"].status == "accepted"
    assert {recs[rid(1, i)].status for i in SOURCES} == {"superseded"}
    assert run("check", cwd=project).returncode == 0


def test_plan_group_by_choices_are_consolidations() -> None:
    """`plan --group-by` lists consolidate.GROUP_BY (written in the command so that
    `plan` imports consolidation only when it is asked for)."""
    from mkdocs_adr import consolidate
    from mkdocs_adr.commands.plan import plan_command

    option = next(p for p in plan_command.params if p.name == "group_by")
    assert tuple(option.type.choices) == consolidate.GROUP_BY  # type: ignore[attr-defined]
