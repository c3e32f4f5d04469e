"""``mkdocs-adr plan``: the read-only report, its JSON shape, exit codes, zero writes."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mkdocs_adr.cli import cli

from .conftest import LOGS, SITES, fixture_logs, run_cli, tree_digest

PLAN_KEYS = {
    "schema",
    "plan_id",
    "mode",
    "corpus",
    "records",
    "problems",
    "views",
    "archive_candidates",
}
RECORD_KEYS = {
    "id",
    "path",
    "title",
    "status",
    "raw_status",
    "date",
    "domain",
    "archived",
    "style",
    "units",
    "relations",
    "disposition",
}
PROBLEM_KEYS = {"code", "severity", "message", "path", "line", "ids"}


def invoke(*args: str, cwd: Path) -> tuple[int, str, str]:
    """click's runner in ``cwd`` (the real CLI function, in process)."""
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def flat_site(tmp_path: Path) -> Path:
    dest = tmp_path / "flat"
    shutil.copytree(SITES / "flat", dest, symlinks=True)
    return dest


def test_json_shape_matches_the_spec(flat_site: Path) -> None:
    code, out, _ = invoke("plan", "--json", cwd=flat_site)
    assert code == 0
    data = json.loads(out)
    assert set(data) >= PLAN_KEYS
    assert data["mode"] == "analysis"
    assert {"fingerprint", "roots", "excluded"} <= set(data["corpus"])
    root = data["corpus"]["roots"][0]
    assert {"path", "layout", "records", "archived", "units"} <= set(root)
    assert root["path"] == "docs/adr" and root["layout"] == "flat"
    assert data["records"] and any(rec["relations"] for rec in data["records"])
    assert data["corpus"]["excluded"]
    for rec in data["records"]:
        assert set(rec) >= RECORD_KEYS
        assert not rec["path"].startswith("/") and "\\" not in rec["path"]
        for rel in rec["relations"]:
            assert {"kind", "target", "origin"} <= set(rel)
        if rec["archived"]:
            assert rec["disposition"] is None
        else:
            assert rec["disposition"] in {"retained", "open", "archive-candidate"}
    for ex in data["corpus"]["excluded"]:
        assert set(ex) == {"path", "reason"}
    assert {"index", "current"} <= set(data["views"])
    assert data["views"]["index"]["state"] in {"absent", "fresh", "drift", "user-owned"}
    assert data["views"]["current"]["state"] in {"absent", "fresh", "stale", "unverifiable"}
    assert any(r["archived"] for r in data["records"]), "plan reads the archive too"


def test_text_report_names_roots_exclusions_problems_and_views(flat_site: Path) -> None:
    code, out, _ = invoke("plan", cwd=flat_site)
    assert code == 0
    for part in (
        "Roots",
        "docs/adr",
        "Excluded",
        "readme",
        "Problems",
        "Archive candidates",
        "INDEX",
        "CURRENT",
        "Nothing was written.",
    ):
        assert part in out


@pytest.mark.parametrize("name", fixture_logs())
def test_plan_writes_nothing(tmp_path: Path, name: str) -> None:
    folder = tmp_path / name
    shutil.copytree(LOGS / name, folder, symlinks=True)
    before = tree_digest(tmp_path)
    proc = run_cli("--root", "adr", "plan", "--json", cwd=folder)
    assert proc.returncode in (0, 1), proc.stderr
    json.loads(proc.stdout)
    proc = run_cli("plan", "--root", "adr", cwd=folder)
    assert proc.returncode in (0, 1), proc.stderr
    assert tree_digest(tmp_path) == before
    assert not (folder / ".mkdocs-adr").exists()


def test_location_options_before_and_after_the_command(flat_site: Path, tmp_path: Path) -> None:
    cfg = str(flat_site / "mkdocs.yml")
    outs = []
    for args in (
        ["-f", cfg, "plan", "--json"],
        ["plan", "-f", cfg, "--json"],
        ["--config-file", cfg, "plan", "--json"],
    ):
        code, out, _ = invoke(*args, cwd=tmp_path)
        assert code == 0
        outs.append(json.loads(out)["plan_id"])
    assert len(set(outs)) == 1
    code_a, out_a, _ = invoke("--root", "docs/adr", "plan", "--json", cwd=flat_site)
    code_b, out_b, _ = invoke("plan", "--root", "docs/adr", "--json", cwd=flat_site)
    assert code_a == code_b == 0
    assert json.loads(out_a)["records"] == json.loads(out_b)["records"]


def test_default_command_is_plan(flat_site: Path) -> None:
    code, out, _ = invoke(cwd=flat_site)
    assert code == 0 and "mkdocs-adr plan" in out


def test_exit_codes(tmp_path: Path) -> None:
    folder = tmp_path / "messy"
    shutil.copytree(LOGS / "messy", folder)
    # errors present (ADR002, ADR004, ADR016): exit 1 with the default fail_on=error
    assert run_cli("--root", "adr", "plan", cwd=folder).returncode == 1
    assert run_cli("--root", "adr", "plan", "--fail-on", "never", cwd=folder).returncode == 0
    # usage errors exit 2, with a message and no traceback
    for args in (
        ["plan", "--no-such-option"],
        ["--root", "nowhere", "plan"],
        ["-f", "missing.yml", "plan"],
        ["-f", "x.yml", "--root", "adr", "plan"],
    ):
        proc = run_cli(*args, cwd=folder)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr
    # no mkdocs.yml and no --root: a clear message, exit 2
    proc = run_cli("plan", cwd=tmp_path)
    assert proc.returncode == 2 and "mkdocs.yml" in proc.stderr


def test_clean_site_has_no_warnings(flat_site: Path) -> None:
    proc = run_cli("plan", "--json", "--fail-on", "warning", cwd=flat_site)
    assert proc.returncode == 0, proc.stdout
    problems = json.loads(proc.stdout)["problems"]
    assert [p for p in problems if p["severity"] != "info"] == []


def test_problem_records_name_file_line_and_fix(tmp_path: Path) -> None:
    folder = tmp_path / "messy"
    shutil.copytree(LOGS / "messy", folder)
    data = json.loads(run_cli("--root", "adr", "plan", "--json", cwd=folder).stdout)
    assert data["problems"]
    for p in data["problems"]:
        assert set(p) >= PROBLEM_KEYS
        assert p["severity"] in ("error", "warning", "info")
        assert p["fix"], p
    located = [p for p in data["problems"] if p["code"] in ("ADR001", "ADR014", "ADR004")]
    assert located, data["problems"]
    assert all(p["path"] and p["line"] for p in located), located


def test_help_reads_well() -> None:
    runner = CliRunner()
    top = runner.invoke(cli, ["--help"])
    assert top.exit_code == 0 and "Exit codes" in top.output and "plan" in top.output
    sub = runner.invoke(cli, ["plan", "--help"])
    assert sub.exit_code == 0 and "--json" in sub.output and "--root" in sub.output


def test_malformed_mkdocs_yml_names_the_line(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nplugins:\n  - adr: {roots: [\n")
    proc = run_cli("plan", cwd=tmp_path)
    assert proc.returncode == 2
    assert "mkdocs.yml:4:" in proc.stderr and "not valid YAML" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_material_style_tags_in_mkdocs_yml_are_tolerated(tmp_path: Path) -> None:
    (tmp_path / "docs" / "adr").mkdir(parents=True)
    (tmp_path / "docs/adr/0001-a.md").write_text("# 1. A\n\n## Status\n\nAccepted\n")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: x\nmarkdown_extensions:\n  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "plugins:\n  - adr:\n      fail_on: warning\nextra:\n  key: !ENV [HOME, x]\n"
    )
    proc = run_cli("plan", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [r["id"] for r in json.loads(proc.stdout)["records"]] == ["ADR-0001"]


def test_bad_plugin_option_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nplugins:\n  - adr:\n      nav: sometimes\n")
    proc = run_cli("plan", cwd=tmp_path)
    assert proc.returncode == 2
    assert "nav" in proc.stderr and "full" in proc.stderr


def test_root_outside_the_current_folder_keeps_its_links(tmp_path: Path) -> None:
    """``--root`` naming a folder beside the current one (``mkdocs-adr --root
    ../other/doc/adr``): the links between its records stay inside the log, so the
    succession they state is read and no link 'leaves the project' (ADR015); a link out
    of the log and the current folder still does. Seen surveying real logs from a
    checkout of our own."""
    log = tmp_path / "other" / "doc" / "adr"
    log.mkdir(parents=True)
    (log / "0001-keep-a-log.md").write_text(
        "# 1. Keep a log\n\nDate: 2024-02-01\n\n## Status\n\nSuperseded by "
        "[2. Keep it in the wiki](0002-keep-it-in-the-wiki.md)\n\n## Context\n\nWe forget.\n"
        "See [the guide](../../guide.md).\n",
        encoding="utf-8",
    )
    (log / "0002-keep-it-in-the-wiki.md").write_text(
        "# 2. Keep it in the wiki\n\nDate: 2024-03-01\n\n## Status\n\nAccepted\n\n"
        "Supersedes [1. Keep a log](./0001-keep-a-log.md)\n\n## Context\n\nSearch.\n",
        encoding="utf-8",
    )
    here = tmp_path / "here"
    here.mkdir()
    proc = run_cli("--root", "../other/doc/adr", "plan", "--json", cwd=here)
    data = json.loads(proc.stdout)
    by_id = {r["id"]: r for r in data["records"]}
    assert by_id["ADR-0001"]["status"] == "superseded"
    assert {(r["kind"], r["target"]) for r in by_id["ADR-0001"]["relations"]} >= {
        ("superseded-by", "ADR-0002")
    }
    assert {(r["kind"], r["target"]) for r in by_id["ADR-0002"]["relations"]} >= {
        ("supersedes", "ADR-0001")
    }
    escapes = [p for p in data["problems"] if p["code"] == "ADR015"]
    # the guide lies outside the log and outside the current folder: still reported
    assert [(p["path"], p["line"]) for p in escapes] == [
        ("../other/doc/adr/0001-keep-a-log.md", 12)
    ], escapes
