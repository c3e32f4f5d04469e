"""A small project for archive and restore tests: records, mirrors, ordinary pages, links
of every form (anchors, titles, references, HTML, code that must stay), a generated INDEX."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from mkdocs_adr.cli import cli
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.errors import AdrError
from mkdocs_adr.log import load
from mkdocs_adr.views import index as index_view


def nygard(number: int, title: str, status: str, *extra: str, body: str = "") -> str:
    lines = [
        f"# {number}. {title}",
        "",
        "Date: 2024-01-0" + str(number % 9 + 1),
        "",
        "## Status",
        "",
        status,
        "",
    ]
    lines += [*extra, ""] if extra else []
    lines += [
        "## Context",
        "",
        body or f"Context of {title.lower()}.",
        "",
        "## Decision",
        "",
        f"We decide {title.lower()}.",
        "",
    ]
    return "\n".join(lines)


MKDOCS_YML = (
    "site_name: Lab\nnav:\n  - Home: index.md\n  - Sync: guide/sync.md\n"
    "  - Polling: adr/0003-use-polling.md\nplugins:\n  - adr\n"
)

FILES: dict[str, str | bytes] = {
    "mkdocs.yml": MKDOCS_YML,
    "docs/index.md": (
        "# Home\n\n"
        'The old way: [polling](adr/0003-use-polling.md#decision "Polling, retired").\n\n'
        "```markdown\n[kept as code](adr/0003-use-polling.md)\n```\n\n"
        "Inline code stays too: `[x](adr/0003-use-polling.md)`.\n"
    ),
    "docs/guide/sync.md": (
        "# Sync\n\n"
        "See [the record][old] and the [rejected idea](../adr/0007-use-crdts.md).\n\n"
        '[old]: ../adr/0003-use-polling.md "ADR 3"\n\n'
        '<a href="../adr/0003-use-polling.md#context">context</a>\n'
    ),
    "docs/img/diagram.png": b"\x89PNG\r\n\x1a\nfake",
    "docs/adr/0001-record-decisions.md": nygard(1, "Record decisions", "Accepted"),
    "docs/adr/0003-use-polling.md": nygard(
        3,
        "Use polling",
        "Superseded by [6. Use websockets](0006-use-websockets.md)",
        body="Diagram: ![flow](../img/diagram.png). Home: [site](../index.md). "
        "Self: [here](#context).",
    ),
    "docs/adr/0006-use-websockets.md": nygard(
        6, "Use websockets", "Accepted", "Supersedes [3. Use polling](0003-use-polling.md)"
    ),
    "docs/adr/0007-use-crdts.md": nygard(7, "Use CRDTs", "Rejected"),
    "docs/adr/0008-use-rabbitmq.md": nygard(
        8, "Use RabbitMQ", "Superseded by [9. Use NATS](0009-use-nats.md)"
    ),
    "docs/adr/0009-use-nats.md": nygard(
        9, "Use NATS", "Proposed", "Supersedes [8. Use RabbitMQ](0008-use-rabbitmq.md)"
    ),
    "docs/adr/zh/0003-use-polling.md": (
        "# 3. 使用轮询\n\n## 状态\n\n已被 [6](../0006-use-websockets.md) 取代\n\n"
        "> 本页是 [英文原文](../0003-use-polling.md) 的翻译。\n"
    ),
    "docs/adr/0003-use-polling.ja.md": "# 3. ポーリング\n\n[原文](0003-use-polling.md)\n",
    "docs/adr/README.md": "# Log\n\n- [3](0003-use-polling.md)\n- [6](0006-use-websockets.md)\n",
}


def write_tree(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))


def make_lab(
    root: Path, extra: dict[str, str | bytes] | None = None, *, index: bool = True
) -> Path:
    write_tree(root, {**FILES, **(extra or {})})
    if index:
        write_index(root)
    return root


def write_index(root: Path) -> None:
    config = load_from_mkdocs_yml(root / "mkdocs.yml")
    log = load(config)
    for info in log.roots:
        (root / info.path / "INDEX.md").write_text(index_view.render(log, info), encoding="utf-8")


def docs_digest(root: Path) -> dict[str, str]:
    """Every file of the project except the work dir, by sha256 (folders left out)."""
    import hashlib

    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".mkdocs-adr") or (path.is_dir() and not path.is_symlink()):
            continue
        if path.is_symlink():
            out[rel] = "link:" + os.readlink(path)
        else:
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def invoke(*args: str, cwd: Path, input: str | None = None) -> tuple[int, str, str]:
    """The real click command in process; domain errors give their exit codes."""
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, list(args), input=input)
    finally:
        os.chdir(old)
    exc = result.exception
    if isinstance(exc, AdrError):
        return exc.exit_code, result.stdout, exc.format()
    if exc is not None and not isinstance(exc, SystemExit):
        raise exc
    return result.exit_code, result.stdout, result.stderr


def json_of(text: str) -> Any:
    import json

    return json.loads(text)
