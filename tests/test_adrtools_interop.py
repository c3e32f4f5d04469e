"""Interop with the real adr-tools (Debian package adr-tools, `/usr/bin/adr`).

A log built with adr-tools and extended with mkdocs-adr, and the other way
round, stays consistent: `adr list`, `adr generate toc` and `adr generate
graph` agree with `mkdocs-adr plan --json` on the records, their titles and
their relations, and neither tool reports or causes a problem.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .conftest import run_cli

pytestmark = pytest.mark.skipif(
    shutil.which("adr") is None, reason="adr-tools is not installed (`apt-get install adr-tools`)"
)

_EDGE = re.compile(r'^\s*_(\d+) -> _(\d+) \[label="([^"]+)"')
_TOC = re.compile(r"^\* \[(.+)\]\((.+)\)$")


def adr(cwd: Path, *args: str, date: str = "2024-01-01") -> str:
    env = dict(os.environ, ADR_DATE=date, VISUAL="true", EDITOR="true")
    proc = subprocess.run(
        ["adr", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, f"adr {' '.join(args)}: {proc.stdout}{proc.stderr}"
    return proc.stdout


def ours(cwd: Path, *args: str) -> str:
    proc = run_cli(*args, "--root", "doc/adr", cwd=cwd)
    assert proc.returncode == 0, f"mkdocs-adr {' '.join(args)}: {proc.stdout}{proc.stderr}"
    return proc.stdout


def plan(cwd: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ours(cwd, "plan", "--json", "--fail-on", "never"))
    return data


def number(rid: str) -> int:
    return int(rid.rsplit("-", 1)[1])


def assert_consistent(cwd: Path) -> dict[str, Any]:
    """adr-tools and mkdocs-adr read the same records, titles and relations."""
    data = plan(cwd)
    records = {r["id"]: r for r in data["records"]}
    # adr list: the same files
    listed = [line.strip() for line in adr(cwd, "list").splitlines() if line.strip()]
    assert sorted(listed) == sorted(r["path"] for r in records.values())
    # adr generate toc: the same titles, as "N. Title"
    toc = [_TOC.match(line) for line in adr(cwd, "generate", "toc").splitlines()]
    entries = {m.group(2): m.group(1) for m in toc if m}
    assert entries == {
        r["path"].rsplit("/", 1)[1]: f"{number(r['id'])}. {r['title']}" for r in records.values()
    }
    # adr generate graph: forward links (adr-tools drops "... by") are our relations
    graph = {
        (int(m.group(1)), int(m.group(2)), m.group(3))
        for m in map(_EDGE.match, adr(cwd, "generate", "graph").splitlines())
        if m
    }
    mine = {
        (number(r["id"]), number(rel["target"]), rel["verb"])
        for r in records.values()
        for rel in r["relations"]
        if rel["origin"] == "status-section" and not rel["verb"].lower().endswith(" by")
    }
    assert graph == mine
    # and every backward link is the inverse of a forward one
    backward = {
        (number(rel["target"]), number(r["id"]))
        for r in records.values()
        for rel in r["relations"]
        if rel["origin"] == "status-section" and rel["verb"].lower().endswith(" by")
    }
    assert backward == {(s, t) for s, t, _ in graph}
    serious = [p for p in data["problems"] if p["severity"] in ("error", "warning")]
    assert serious == []
    return records


@pytest.mark.slow  # the real adr-tools shell scripts, one process per command
def test_adr_tools_log_extended_with_mkdocs_adr(tmp_path: Path) -> None:
    adr(tmp_path, "init", "doc/adr")
    adr(tmp_path, "new", "Use", "MySQL", "for", "persistence")
    adr(tmp_path, "new", "-s", "2", "Use", "PostgreSQL", "for", "persistence")
    adr(tmp_path, "new", "-l", "3:Amends:Amended by", "Use", "PgBouncer")
    assert_consistent(tmp_path)

    path = ours(tmp_path, "new", "Use", "CockroachDB", "-s", "3", "--status", "accepted")
    assert path.strip() == "doc/adr/0005-use-cockroachdb.md"
    ours(tmp_path, "link", "5", "Clarifies", "1")
    ours(tmp_path, "new", "Shard", "by", "tenant", "--status", "accepted", "-l", "Amends:ADR-0005")
    records = assert_consistent(tmp_path)
    assert records["ADR-0003"]["status"] == "superseded"
    assert records["ADR-0005"]["status"] == "accepted"
    # adr-tools continues the numbering after what mkdocs-adr wrote
    adr(tmp_path, "new", "-s", "6", "Shard", "by", "region")
    records = assert_consistent(tmp_path)
    assert records["ADR-0007"]["status"] == "accepted"
    assert records["ADR-0006"]["status"] == "superseded"


@pytest.mark.slow  # the real adr-tools shell scripts, one process per command
def test_mkdocs_adr_log_extended_with_adr_tools(tmp_path: Path) -> None:
    (tmp_path / "doc" / "adr").mkdir(parents=True)
    ours(
        tmp_path,
        "new",
        "Record",
        "architecture",
        "decisions",
        "--style",
        "nygard",
        "--status",
        "accepted",
    )
    ours(tmp_path, "new", "Use", "REST", "--style", "nygard", "--status", "accepted")
    ours(tmp_path, "new", "Use", "GraphQL", "--status", "accepted", "-s", "2")
    ours(tmp_path, "link", "3", "Amends", "1")
    assert_consistent(tmp_path)
    # adr-tools finds the folder by itself (doc/adr) and carries on
    out = adr(tmp_path, "new", "-s", "3", "Use", "gRPC")
    assert out.strip() == "doc/adr/0004-use-grpc.md"
    adr(tmp_path, "link", "4", "Clarifies", "1", "Clarified by")
    records = assert_consistent(tmp_path)
    assert [records[f"ADR-000{n}"]["status"] for n in (1, 2, 3, 4)] == [
        "accepted",
        "superseded",
        "superseded",
        "accepted",
    ]
    # and mkdocs-adr reads what adr-tools wrote and continues from it
    ours(
        tmp_path,
        "supersede",
        "4",
        "--by",
        ours(tmp_path, "new", "Use", "Connect", "--status", "accepted").strip(),
    )
    records = assert_consistent(tmp_path)
    assert records["ADR-0004"]["status"] == "superseded"


def test_proposed_successor_keeps_adr_tools_graph_and_old_record(tmp_path: Path) -> None:
    adr(tmp_path, "init", "doc/adr")
    adr(tmp_path, "new", "Use", "Jenkins")
    ours(tmp_path, "new", "Use", "GitHub", "Actions", "-s", "2")  # proposed by default
    records = assert_consistent(tmp_path)
    assert records["ADR-0002"]["status"] == "accepted"  # stays in effect
    assert records["ADR-0003"]["status"] == "proposed"


def test_a_supersession_added_with_adr_link_retires_the_old_record(tmp_path: Path) -> None:
    """``adr link 3 Supersedes 2 "Superseded by"`` appends ``Superseded by [3. ..](..)``
    under record 2's ``Accepted`` and leaves the word (unlike ``adr new -s``). The
    link line is the status's later step: record 2 is superseded, and the check that
    a real team's build runs finds no contradiction (it was an ADR016 error, survey 6)."""
    adr(tmp_path, "init", "doc/adr")
    adr(tmp_path, "new", "Keep", "sessions", "in", "cookies")
    adr(tmp_path, "new", "Keep", "sessions", "in", "Redis")
    adr(tmp_path, "link", "3", "Supersedes", "2", "Superseded by")
    old = (tmp_path / "doc/adr/0002-keep-sessions-in-cookies.md").read_text("utf-8")
    assert "\nAccepted\n\nSuperseded by [3. Keep sessions in Redis]" in old  # adr-tools' shape
    records = assert_consistent(tmp_path)
    assert records["ADR-0002"]["status"] == "superseded"
    assert records["ADR-0002"]["raw_status"] == "Accepted"
    assert records["ADR-0003"]["status"] == "accepted"
    proc = run_cli("check", "--root", "doc/adr", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ADR016" not in proc.stdout + proc.stderr
    # mkdocs-adr's own supersede on top finds the relation there: nothing is added twice
    ours(tmp_path, "supersede", "2", "--by", "3")
    again = (tmp_path / "doc/adr/0002-keep-sessions-in-cookies.md").read_text("utf-8")
    assert again.count("Superseded by [3.") == 1, again
    assert assert_consistent(tmp_path)["ADR-0002"]["status"] == "superseded"
