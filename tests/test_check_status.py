"""`mkdocs-adr check` (CI) and `mkdocs-adr status`: shapes, exit codes, zero writes."""

from __future__ import annotations

import shutil
from pathlib import Path

from .conftest import LOGS, tree_digest
from .test_summary_support import check, cli_json, copy_site, draft, invoke, publish, run

ADR = "docs/adr"
PROBLEM_KEYS = {"code", "severity", "message", "path", "line", "ids", "fix"}
VIEW_KEYS = {"path", "state", "reasons", "detail"}


def test_check_json_shape_and_zero_writes(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    publish(site)
    before = tree_digest(tmp_path)
    code, data = check(site)
    assert code == 0
    assert {"schema", "version", "ok", "fail_on", "corpus", "problems", "views"} <= set(data)
    assert data["schema"] == "mkdocs-adr/check" and data["ok"] is True
    assert data["fail_on"] == "error"
    assert set(data["views"]) >= {"index", "current", "roots"}
    assert set(data["views"]["current"]) >= VIEW_KEYS
    assert data["views"]["current"]["state"] == "fresh"
    assert data["views"]["index"]["state"] == "fresh"
    assert data["corpus"]["fingerprint"].startswith("sha256:")
    assert tree_digest(tmp_path) == before


def test_check_fails_ci_on_a_stale_view_unless_allowed(tmp_path: Path) -> None:
    # issue 11 item 10: a stale CURRENT fails `check` by default (it used to pass: ADR011
    # is a warning and fail_on is error); --allow-stale relaxes exactly that
    site = copy_site(tmp_path, "flat")
    publish(site)
    (site / ADR / "0005-encrypt-note-bodies-at-rest.md").unlink()
    code, data = check(site)
    assert code == 1 and data["ok"] is False and data["fail_on"] == "error"
    # the published INDEX no longer lists ADR-0005 either
    assert data["outdated"] == [f"{ADR}/INDEX.md", f"{ADR}/CURRENT.md"]
    assert data["allow_stale"] is False
    [problem] = [p for p in data["problems"] if p["code"] == "ADR011"]
    assert set(problem) >= PROBLEM_KEYS
    assert problem["severity"] == "warning" and problem["ids"] == ["ADR-0005"]
    assert problem["path"] == f"{ADR}/CURRENT.md" and problem["fix"]
    reason = data["views"]["current"]["reasons"][0]
    assert reason["kind"] == "removed" and reason["ids"] == ["ADR-0005"]
    code, data = check(site, "--allow-stale")
    assert code == 0 and data["ok"] is True and data["allow_stale"] is True
    assert "ADR011" in {p["code"] for p in data["problems"]}  # still reported
    code, data = check(site, "--allow-stale", "--fail-on", "warning")
    assert code == 1 and data["ok"] is False  # the warning itself reaches the threshold
    proc = run("-f", str(site / "mkdocs.yml"), "check", cwd=tmp_path)
    assert proc.returncode == 1
    assert f"CURRENT  {ADR}/CURRENT.md: stale" in proc.stdout
    assert "ADR-0005 was removed" in proc.stdout
    assert (
        f"FAILED (fail on error; stale views fail the check: {ADR}/INDEX.md, {ADR}/CURRENT.md "
        "(--allow-stale to pass))" in proc.stdout
    )


def test_check_reports_index_drift(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    publish(site)
    (site / ADR / "0010-new.md").write_text(
        "# 10. New\n\nDate: 2024-01-01\n\n## Status\n\nProposed\n", encoding="utf-8"
    )
    _code, data = check(site)
    assert data["views"]["index"]["state"] == "drift"
    assert "ADR010" in {p["code"] for p in data["problems"]}
    assert data["views"]["current"]["state"] == "stale"


def test_check_and_plan_work_with_root_and_no_mkdocs_yml(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    shutil.copytree(LOGS / "adrtools", project, symlinks=True)
    assert not (project / "mkdocs.yml").exists()
    proc = run("--root", "adr", "plan", "--mode", "summary", cwd=project)
    assert proc.returncode == 0, proc.stderr
    plan_id = proc.stdout.split("plan_id ")[1].split()[0]
    proc = run("--root", "adr", "plan", "--confirm", plan_id, cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert (project / "adr/CURRENT.md").exists() and (project / "adr/CURRENT.sources.json").exists()
    proc = run("check", "--root", "adr", "--json", cwd=project)
    assert proc.returncode in (0, 1), proc.stderr
    _code, data = cli_json("--root", str(project / "adr"), "check", cwd=project)
    assert data["views"]["current"]["state"] == "fresh"
    assert data["views"]["current"]["path"] == "adr/CURRENT.md"


def test_status_with_nothing_planned_writes_nothing(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    before = tree_digest(tmp_path)
    code, data = cli_json("-f", str(site / "mkdocs.yml"), "status")
    assert code == 0
    assert data["schema"] == "mkdocs-adr/status"
    assert data["plans"] == [] and data["receipts"] == [] and data["interrupted"] == []
    assert data["lock"] is None
    code, out, _err = invoke("-f", str(site / "mkdocs.yml"), "status")
    assert code == 0 and "Plans (0)" in out and "Lock: free" in out
    assert tree_digest(tmp_path) == before


def test_status_shows_versions_validity_and_receipts(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    first = draft(site)
    code, data = cli_json("-f", str(site / "mkdocs.yml"), "status")
    [plan] = data["plans"]
    assert plan["plan_id"] == first and plan["version"] == 1 and plan["kind"] == "summary"
    assert plan["state"] == "planned" and plan["valid"] is True
    assert plan["next"] == [f"apply it: mkdocs-adr plan --confirm {first}"]
    assert plan["review_files"] == [f".mkdocs-adr/plans/{first}/review/{ADR}/CURRENT.md"]
    rec = site / ADR / "0004-store-notes-in-postgresql.md"
    rec.write_text(rec.read_text("utf-8") + "\nEdit.\n", encoding="utf-8")
    code, data = cli_json("-f", str(site / "mkdocs.yml"), "status", first)
    assert data["valid"] is False
    assert any("0004-store-notes-in-postgresql.md changed" in r for r in data["reasons"])
    second = draft(site)
    code, data = cli_json("-f", str(site / "mkdocs.yml"), "status")
    by_id = {p["plan_id"]: p for p in data["plans"]}
    assert by_id[second]["version"] == 2 and by_id[second]["current_version"] is True
    assert by_id[first]["current_version"] is False
    code, out, err = invoke("-f", str(site / "mkdocs.yml"), "plan", "--confirm", second)
    assert code == 0, err
    code, data = cli_json("-f", str(site / "mkdocs.yml"), "status")
    [receipt] = data["receipts"]
    assert receipt["plan_id"] == second and receipt["outcome"] == "success"
    code, out, err = invoke("-f", str(site / "mkdocs.yml"), "status", second)
    assert code == 0 and "state    applied" in out and "receipt " in out
    code, out, err = invoke("-f", str(site / "mkdocs.yml"), "status", "summary-nope")
    assert code == 3 and "no plan 'summary-nope'" in err
