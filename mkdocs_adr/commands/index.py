"""``mkdocs-adr index [--check]``: write the committed INDEX.md of each root, or verify it."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import click

from ..errors import RefusedError
from ..fsops import atomic_write, project_lock
from ..log import load
from ..views import index as index_view
from ..viewstate import index_state
from ._common import EXIT_OK, EXIT_PROBLEMS, echo, emit_json, location_options, resolve_config


def _diff(old: str, new: str, path: str) -> str:
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"a/{path}",
            tofile=f"b/{path}",
        )
    )


@click.command("index")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 with a diff on drift.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@location_options
def index_command(check: bool, as_json: bool, config_file: Path | None, root: Path | None) -> None:
    """Write INDEX.md (with its generated-file marker) in every ADR root.

    The same tree always gives the same bytes. An INDEX.md without the marker is
    user-owned: it is never touched (ADR009); the site publishes the generated
    index under another name, which is reported. With --check nothing is written:
    exit 1, with a unified diff, when a generated INDEX.md is missing or differs.
    """
    config = resolve_config(config_file, root)
    log = load(config)
    results: list[dict[str, Any]] = []
    diffs: list[str] = []
    writes: list[tuple[Path, bytes]] = []
    failed = False
    for info in log.roots:
        folder = config.project_dir / info.path
        state, target, _problems = index_state(log, info)
        fresh = index_view.render(log, info)
        entry: dict[str, Any] = {
            "root": info.path,
            "path": state.path,
            "state": state.state,
            "target": target,
            "written": False,
        }
        if not folder.is_dir():
            entry["state"] = "no-root"
            results.append(entry)
            continue
        if state.state == "user-owned":
            entry["note"] = (
                f"{state.path} is user-owned and left untouched (ADR009); "
                f"the site publishes the generated index as {target}"
            )
            results.append(entry)
            continue
        disk = config.project_dir / state.path
        if state.state == "fresh":
            results.append(entry)
            continue
        if check:
            old = disk.read_text(encoding="utf-8") if state.state == "drift" else ""
            diffs.append(_diff(old.replace("\r\n", "\n"), fresh, state.path))
            failed = True
        else:
            writes.append((disk, fresh.encode("utf-8")))
            entry["written"] = True
        results.append(entry)
    if writes:
        with project_lock(config.work_path, "index"):
            for disk, data in writes:
                # re-check inside the lock: a user-owned file is never overwritten
                if disk.exists() and not index_view.is_generated(
                    disk.read_text(encoding="utf-8", errors="replace")
                ):
                    raise RefusedError(
                        f"{config.rel(disk)} became user-owned while indexing; left untouched",
                        fix="run `mkdocs-adr index` again",
                    )
                atomic_write(disk, data)
    if as_json:
        emit_json({"check": check, "roots": results, "ok": not failed})
    else:
        for entry in results:
            echo(_line(entry, check))
        for diff in diffs:
            echo(diff, nl=False)
    raise SystemExit(EXIT_PROBLEMS if failed else EXIT_OK)


def _line(entry: dict[str, Any], check: bool) -> str:
    path, state = entry["path"], entry["state"]
    if state == "no-root":
        return f"{entry['root']}: the ADR root does not exist; nothing to index"
    if state == "user-owned":
        return f"{path}: {entry['note']}"
    if state == "fresh":
        return f"{path}: up to date"
    if check:
        what = "missing" if state == "absent" else "differs from what would be generated"
        return f"{path}: {what} (ADR010); run `mkdocs-adr index` and commit the result"
    return f"{path}: {'written' if state == 'absent' else 'updated'}"


COMMANDS = [index_command]
