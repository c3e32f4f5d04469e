"""``mkdocs-adr index`` and ``mkdocs-adr graph``, through click and as real subprocesses."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from mkdocs_adr.cli import cli
from mkdocs_adr.views import index as index_view

from .conftest import run_cli, tree_digest

LAYERED_YML = (
    "site_name: t\ndocs_dir: docs\nplugins:\n  - adr:\n"
    "      roots: [adr, {path: services/payments/adr, prefix: PAY}]\n"
)


def layered_project(copy_log: Callable[[str], Path]) -> Path:
    src = copy_log("layered")
    project = src.parent / "project"
    (project / "docs").mkdir(parents=True)
    for name in ("adr", "services"):
        (src / name).rename(project / "docs" / name)
    (project / "mkdocs.yml").write_text(LAYERED_YML, encoding="utf-8")
    return project


def test_index_writes_every_root_then_check_passes(copy_log: Callable[[str], Path]) -> None:
    project = layered_project(copy_log)
    check = run_cli("index", "--check", cwd=project)
    assert check.returncode == 1
    # a unified diff of the drifted INDEX (legacy marker) and one for the missing INDEX
    assert "--- a/docs/adr/INDEX.md\n+++ b/docs/adr/INDEX.md\n" in check.stdout
    assert "+++ b/docs/services/payments/adr/INDEX.md" in check.stdout
    assert "ADR010" in check.stdout
    before = tree_digest(project / "docs")
    done = run_cli("index", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "docs/adr/INDEX.md: updated" in done.stdout
    assert "docs/services/payments/adr/INDEX.md: written" in done.stdout
    after = tree_digest(project / "docs")
    changed = {k for k in after if before.get(k) != after[k]}
    assert changed == {"adr/INDEX.md", "services/payments/adr/INDEX.md"}
    text = (project / "docs" / "adr" / "INDEX.md").read_text(encoding="utf-8")
    assert text.startswith(index_view.MARKER + "\n") and text.endswith("|\n")
    assert run_cli("index", "--check", cwd=project).returncode == 0
    again = run_cli("index", cwd=project)
    assert "up to date" in again.stdout and tree_digest(project / "docs") == after
    assert not list((project / "docs").rglob(".INDEX.md.tmp-*"))


def test_index_check_json_and_user_owned(copy_log: Callable[[str], Path]) -> None:
    project = layered_project(copy_log)
    mine = project / "docs" / "adr" / "INDEX.md"
    mine.write_text("# Our index\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli, ["-f", str(project / "mkdocs.yml"), "index", "--check", "--json"])
    assert result.exit_code == 1  # the payments root has no INDEX yet
    data = json.loads(result.output)
    by_root = {r["root"]: r for r in data["roots"]}
    assert by_root["docs/adr"]["state"] == "user-owned"
    assert by_root["docs/adr"]["target"] == "docs/adr/INDEX.generated.md"
    assert by_root["docs/services/payments/adr"]["state"] == "absent"
    result = runner.invoke(cli, ["index", "-f", str(project / "mkdocs.yml")])
    assert result.exit_code == 0
    assert mine.read_text(encoding="utf-8") == "# Our index\n"
    assert "user-owned and left untouched (ADR009)" in result.output
    assert not (project / "docs" / "adr" / "INDEX.generated.md").exists()


def test_index_with_root_option(copy_log: Callable[[str], Path]) -> None:
    folder = copy_log("adrtools")
    proc = run_cli("--root", "adr", "index", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    text = (folder / "adr" / "INDEX.md").read_text(encoding="utf-8")
    assert "[ADR-0002](0002-use-mysql-for-persistence.md)" in text
    assert run_cli("index", "--check", "--root", "adr", cwd=folder).returncode == 0


def test_graph_formats(copy_log: Callable[[str], Path]) -> None:
    project = layered_project(copy_log)
    svg_out = run_cli("graph", cwd=project)
    assert svg_out.returncode == 0, svg_out.stderr
    root = ET.fromstring(svg_out.stdout.split("\n", 1)[1])
    ids = {el.get("data-adr-id") for el in root.iter() if el.get("data-adr-id")}
    assert "PAY-0001" in ids and "ADR-0002" in ids
    hrefs = {el.get("href") for el in root.iter() if el.get("href")}
    assert "docs/adr/archive/payments/0002-store-balances-in-mutable-rows.md" in hrefs
    mm = run_cli("graph", "--format", "mermaid", cwd=project).stdout
    assert mm.startswith("flowchart LR") and "==>|supersedes|" in mm
    dot = run_cli("graph", "--format", "dot", cwd=project).stdout
    assert dot.startswith("digraph adr {") and '"ADR-0003" -> "ADR-0002"' in dot
    data = json.loads(run_cli("graph", "--format", "json", cwd=project).stdout)
    assert data["schema"] == "mkdocs-adr/graph"
    assert {"source": "ADR-0003", "target": "ADR-0002", "kind": "supersedes", "unit": None} in (
        data["edges"]
    )


def test_graph_around_one_record(copy_log: Callable[[str], Path]) -> None:
    project = layered_project(copy_log)
    one = json.loads(
        run_cli("graph", "--format", "json", "--hops", "1", "adr-2", cwd=project).stdout
    )
    assert {n["id"] for n in one["nodes"]} == {"ADR-0002", "ADR-0003"}
    wide = json.loads(run_cli("graph", "ADR-0002", "--format", "json", cwd=project).stdout)
    assert len(wide["nodes"]) > len(one["nodes"])
    missing = run_cli("graph", "ADR-0099", cwd=project)
    assert missing.returncode == 2
    assert re.search(r"no record with id ADR-0099.*nearest ids: ADR-", missing.stderr)
    bad = run_cli("graph", "--format", "png", cwd=project)
    assert bad.returncode == 2
