"""The worked example of docs/guide/consolidate.md, run for real on a copy of
site_src/consolidate-example: the cards, the edits and the record it shows are what the
tool prints and writes (plan ids aside, which carry the moment CURRENT was drafted)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from .archive_lab import invoke, json_of
from .conftest import REPO

GUIDE = REPO / "docs" / "guide" / "consolidate.md"
EXAMPLE = REPO / "site_src" / "consolidate-example"
_ID = re.compile(r"consolidate-(?:draft-)?[0-9a-f]{12}")


def _blocks(kind: str) -> list[str]:
    """The fenced blocks of the guide whose info string is ``kind`` ("" for a bare fence)."""
    found: list[str] = []
    current: list[str] | None = None
    info = ""
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if current is None:
                current, info = [], line[3:].strip()
            else:
                if info == kind:
                    found.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return found


def _lines(block: str) -> list[str]:
    """The lines of a shown output, ids normalized, without the prompt and elisions."""
    return [
        _ID.sub("PLAN", line)
        for line in block.splitlines()
        if line and not line.startswith("$ ") and line.strip() not in ("...", "")
    ]


def test_the_guide_shows_what_the_tool_does(tmp_path: Path) -> None:
    project = shutil.copytree(EXAMPLE, tmp_path / "harbor")
    code, out, err = invoke("plan", "--mode", "consolidate", "--today", "2026-12-01", cwd=project)
    assert code == 0, err
    first, second, applied = _blocks("console")
    shown = set(_ID.sub("PLAN", line) for line in out.splitlines())
    missing = [line for line in _lines(first) if line not in shown]
    assert missing == []
    plan_id = _ID.search(out)
    assert plan_id is not None
    review = project / ".mkdocs-adr" / "plans" / plan_id.group(0) / "review"
    diff = _blocks("diff")[0]
    draft = review / "0007-store-bookings-in-postgresql-consolidated.md"
    text = draft.read_text(encoding="utf-8")
    for line in diff.splitlines():
        if line.startswith("-") and line[1:]:
            assert line[1:] + "\n" in text
            text = text.replace(line[1:] + "\n", "")
        elif line.startswith("+"):
            kept = "- A cancelled booking is marked cancelled, never deleted."
            kept += " (from ADR-0003, item 1)\n"
            text = text.replace(kept, kept + line[1:] + "\n")
    draft.write_text(text, encoding="utf-8")
    cov = review / "coverage.txt"
    data = cov.read_text(encoding="utf-8")
    edits = next(b for b in _blocks("") if "ADR-0002#3" in b)
    for line in edits.splitlines():
        key = line.split(":")[0]
        data = re.sub(rf"^{re.escape(key)}: .*$", line, data, flags=re.MULTILINE)
    cov.write_text(data, encoding="utf-8")
    code, out, err = invoke("plan", "--confirm", plan_id.group(0), cwd=project)
    assert code == 0, err
    shown = set(_ID.sub("PLAN", line) for line in out.splitlines())
    assert [line for line in _lines(second) if line not in shown] == [], out
    v2 = re.search(r"accept it with: mkdocs-adr plan --confirm (\S+)", out)
    assert v2 is not None
    code, out, err = invoke("status", v2.group(1), "--json", cwd=project)
    assert code == 0 and json_of(out)["version"] == 2, out
    code, out, err = invoke("plan", "--confirm", v2.group(1), cwd=project)
    assert code == 0, err
    shown = set(_ID.sub("PLAN", line) for line in out.splitlines())
    assert [line for line in _lines(applied) if line not in shown] == []
    record = _blocks("markdown")[0]
    written = (project / "docs/adr/0007-store-bookings-in-postgresql-consolidated.md").read_text(
        encoding="utf-8"
    )
    assert written == record
    code, out, err = invoke("check", cwd=project)
    assert code == 0, (out, err)
    code, out, err = invoke("context", "ADR-0003", cwd=project)
    assert "Succession: ADR-0003 is superseded; current successor ADR-0007" in out


@pytest.mark.skipif(shutil.which("adr") is None, reason="adr-tools is not installed")
def test_adr_tools_reads_the_consolidated_log(tmp_path: Path) -> None:
    """The real adr-tools lists the replacement and draws its supersessions from it."""
    import subprocess

    project = shutil.copytree(EXAMPLE, tmp_path / "harbor")
    code, out, err = invoke(
        "plan", "--mode", "consolidate", "--today", "2026-12-01", "--json", cwd=project
    )
    assert code == 0, err
    assert invoke("plan", "--confirm", json_of(out)["plan_id"], cwd=project)[0] == 0
    (project / ".adr-dir").write_text("docs/adr\n", encoding="utf-8")

    def adr(*args: str) -> str:
        proc = subprocess.run(
            ["adr", *args], cwd=project, capture_output=True, text=True, timeout=60, check=False
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    toc = adr("generate", "toc")
    assert (
        "* [7. Store bookings in PostgreSQL, consolidated]"
        "(0007-store-bookings-in-postgresql-consolidated.md)" in toc
    )
    edges = {
        line.strip()
        for line in adr("generate", "graph").splitlines()
        if line.strip().startswith("_7 -> ") and "label" in line
    }
    assert edges == {f'_7 -> _{n} [label="Supersedes", weight=0]' for n in (2, 3, 4, 5)}
