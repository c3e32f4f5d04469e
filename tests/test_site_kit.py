"""Small real sites for the site, browser and serve tests (built with the real MkDocs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

HOSTILE_SCRIPT = '<script>window.__pwned = "script"</script> & friends'
HOSTILE_IMG = '"><img src=x onerror="window.__pwned=\'img\'">'


def _fm(**fields: object) -> str:
    lines = ["---"]
    for key, value in fields.items():
        key = key.replace("_", "-")
        if isinstance(value, list):
            lines.append(f"{key}: [{', '.join(json.dumps(v) for v in value)}]")
        else:
            lines.append(f"{key}: {json.dumps(value)}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def _record(path: Path, heading: str, body: str = "", **fields: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = (_fm(**fields) if fields else "") + f"\n# {heading}\n\n" + textwrap.dedent(body)
    if "## Context" not in text:
        text += "\n## Context\n\nSome context.\n\n## Decision\n\nWe decide.\n"
    path.write_text(text, encoding="utf-8")


def demo_log(docs: Path) -> None:
    """A flat log with one record per banner kind, a mirror, archived records, a
    redirect-from, a container, and two hostile titles."""
    adr = docs / "adr"
    _record(
        adr / "0001-record-architecture-decisions.md",
        "1. Record architecture decisions",
        "Date: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe need a log.\n",
    )
    _record(
        adr / "archive" / "0002-use-mysql.md",
        "Use MySQL",
        id="ADR-0002",
        title="Use MySQL",
        status="superseded",
        date="2023-01-01",
        superseded_by=["ADR-0003"],
        redirect_from=["0002-use-mysql.md"],
    )
    _record(
        adr / "archive" / "0003-use-postgresql-12.md",
        "Use PostgreSQL 12",
        id="ADR-0003",
        title="Use PostgreSQL 12",
        status="superseded",
        date="2023-06-01",
        supersedes=["ADR-0002"],
        superseded_by=["ADR-0004"],
    )
    _record(
        adr / "0004-use-postgresql-16.md",
        "Use PostgreSQL 16",
        "\n## Context\n\nThe database decision in effect.\n\n## Decision\n\nZebrafish marker.\n",
        id="ADR-0004",
        title="Use PostgreSQL 16",
        status="accepted",
        date="2024-03-01",
        supersedes=["ADR-0003"],
        deciders=["alice", "bob"],
    )
    _record(
        adr / "0005-use-cron.md",
        "Use cron",
        id="ADR-0005",
        title="Use cron",
        status="superseded",
        superseded_by=["ADR-0006"],
    )
    _record(
        adr / "0006-use-a-workflow-engine.md",
        "Use a workflow engine",
        id="ADR-0006",
        title="Use a workflow engine",
        status="proposed",
        supersedes=["ADR-0005"],
    )
    _record(
        adr / "0007-use-soap.md",
        "Use SOAP",
        id="ADR-0007",
        title="Use SOAP",
        status="deprecated",
    )
    _record(
        adr / "0008-use-mongodb.md",
        "Use MongoDB",
        id="ADR-0008",
        title="Use MongoDB",
        status="rejected",
    )
    _record(
        adr / "0009-use-graphql.md",
        "Use GraphQL",
        id="ADR-0009",
        title="Use GraphQL",
        status="draft",
    )
    _record(
        adr / "0010-use-kafka.md",
        "Use Kafka",
        id="ADR-0010",
        title="Use Kafka",
        status="pondering",
    )
    _record(adr / "0011-use-redis.md", "Use Redis", id="ADR-0011", title="Use Redis")
    _record(
        adr / "0012-hostile-script.md",
        HOSTILE_SCRIPT,
        id="ADR-0012",
        title=HOSTILE_SCRIPT,
        status="accepted",
        relates_to=["ADR-0013"],
    )
    _record(
        adr / "0013-hostile-img.md",
        HOSTILE_IMG,
        id="ADR-0013",
        title=HOSTILE_IMG,
        status="accepted",
    )
    container = adr / "0014-platform-baseline.md"
    container.write_text(
        _fm(id="ADR-0014", title="Platform baseline", status="accepted", style="container")
        + "\n# Platform baseline\n\n## D1. Use Linux\n\nStatus: accepted\n\nLinux.\n\n"
        "## D2. Use Redis for sessions\n\nStatus: superseded\n\nRedis.\n",
        encoding="utf-8",
    )
    _record(
        adr / "0015-sessions-in-postgresql.md",
        "Sessions in PostgreSQL",
        id="ADR-0015",
        title="Sessions in PostgreSQL",
        status="accepted",
        supersedes=["ADR-0014#D2"],
    )
    mirror = adr / "zh" / "0004-use-postgresql-16.md"
    mirror.parent.mkdir(parents=True, exist_ok=True)
    mirror.write_text(
        _fm(id="ADR-0004", title="使用 PostgreSQL 16", status="accepted")
        + "\n# 使用 PostgreSQL 16\n\n## 背景\n\n数据库。\n",
        encoding="utf-8",
    )
    (adr / "README.md").write_text("# Decision log\n\nSee the [index](INDEX.md).\n", "utf-8")


def receipt(project: Path, moves: list[dict[str, str]], name: str = "r-0001.json") -> None:
    folder = project / ".mkdocs-adr" / "receipts"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps({"plan_id": "p-test", "moves": moves}), "utf-8")


MATERIAL_THEME = """theme:
  name: material
  palette:
    - media: "(prefers-color-scheme: light)"
      scheme: default
      toggle:
        icon: material/brightness-7
        name: Switch to dark mode
    - media: "(prefers-color-scheme: dark)"
      scheme: slate
      toggle:
        icon: material/brightness-4
        name: Switch to light mode
"""


def make_site(
    folder: Path,
    *,
    theme: str = "material",
    options: str = "fail_on: never",
    extra: str = "",
    log: str = "demo",
) -> Path:
    """A project folder with mkdocs.yml and docs/; returns the folder."""
    docs = folder / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "index.md").write_text("# Home\n\nThe [decision index](adr/INDEX.md).\n", "utf-8")
    if log == "demo":
        demo_log(docs)
        receipt(
            folder,
            [
                {
                    "from": "docs/adr/0003-use-postgresql-12.md",
                    "to": "docs/adr/archive/0003-use-postgresql-12.md",
                },
                {"from": "/etc/passwd", "to": "../../x.md"},
                {"from": 3, "to": None},
            ],
        )
    theme_block = (
        MATERIAL_THEME
        if theme == "material"
        else f"theme:\n  name: {theme}\n  color_mode: auto\n"
        if theme == "mkdocs"
        else f"theme: {theme}\n"
    )
    opts = textwrap.indent(options.strip(), "      ")
    (folder / "mkdocs.yml").write_text(
        f"site_name: Demo decisions\n{theme_block}{extra}plugins:\n  - search\n  - adr:\n{opts}\n",
        encoding="utf-8",
    )
    return folder


def build(folder: Path, *, strict: bool = False) -> subprocess.CompletedProcess[str]:
    """``mkdocs build`` as a subprocess, the way users run it."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    cmd = [sys.executable, "-m", "mkdocs", "build", *(["--strict"] if strict else [])]
    return subprocess.run(
        cmd, cwd=folder, capture_output=True, text=True, timeout=600, env=env, check=False
    )


def copy_site(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("site", ".mkdocs-adr"))
    return dest
