"""``mkdocs-adr check``: integrity, CURRENT freshness and INDEX drift, for CI."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import click

from .. import report
from ..log import Log, load
from ..viewstate import root_views
from ._common import as_date, echo, emit_json, location_options, resolve_config, today_option

SCHEMA = "mkdocs-adr/check"


@click.command("check")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info", "never"]),
    default=None,
    help="Exit 1 when a problem at or above this severity exists (default: the fail_on "
    "option). Stale views fail the check whatever this level: see --allow-stale.",
)
@click.option(
    "--allow-stale",
    is_flag=True,
    help="Do not fail on a stale or unverifiable CURRENT (ADR011, ADR012) or a drifting "
    "INDEX (ADR010); they are still reported.",
)
@today_option
@location_options
def check_command(
    as_json: bool,
    fail_on: str | None,
    allow_stale: bool,
    today: dt.datetime | None,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Check the log and its views in one read-only pass, for CI.

    Reports every problem of the records, whether each CURRENT view is fresh,
    stale (with each reason and the ids involved), unverifiable or absent, and
    whether INDEX.md differs from what would be generated. Writes nothing.
    Exit 1 when a problem reaches --fail-on, or when a CURRENT is stale or
    unverifiable or an INDEX drifts (unless --allow-stale).
    """
    config = resolve_config(config_file, root)
    log = load(config, today=as_date(today))
    data, code = check_data(log, fail_on=fail_on, allow_stale=allow_stale)
    if as_json:
        emit_json(data)
    else:
        echo(render_text(data), nl=False)
    raise SystemExit(code)


def check_data(
    log: Log, *, fail_on: str | None = None, allow_stale: bool = False
) -> tuple[dict[str, Any], int]:
    """What ``check --json`` prints for ``log``, and the exit code it ends with."""
    config = log.config
    views = root_views(log)
    problems = report.problems_with_views(log, views)
    threshold = fail_on or config.fail_on
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "version": 1,
        "fail_on": threshold,
        "corpus": {
            "fingerprint": log.fingerprint,
            "roots": [r.to_json() for r in log.roots],
        },
        "problems": [p.to_json() for p in problems],
        "views": report.views_json(views),
    }
    outdated = [v.path for rv in views for v in rv.outdated]
    data["allow_stale"] = allow_stale
    data["outdated"] = outdated
    code = report.exit_code(problems, threshold)
    if outdated and not allow_stale:
        code = 1
    data["ok"] = code == 0
    return data, code


def render_text(data: dict[str, Any]) -> str:
    out = ["mkdocs-adr check", ""]
    out.append("Views")
    for v in data["views"]["roots"]:
        idx, cur = v["index"], v["current"]
        extra = f" (generated index at {idx['target']})" if idx["target"] != idx["path"] else ""
        out.append(f"  INDEX    {idx['path']}: {idx['state']}{extra}")
        out.append(
            f"  CURRENT  {cur['path']}: {cur['state']}"
            + (f" ({cur['detail']})" if cur["detail"] else "")
        )
        for reason in cur["reasons"]:
            out.append(f"    - {reason['reason']}")
    out.append("")
    problems = data["problems"]
    counts = {
        s: sum(1 for p in problems if p["severity"] == s) for s in ("error", "warning", "info")
    }
    out.append(
        f"Problems: {counts['error']} errors, {counts['warning']} warnings, {counts['info']} info"
    )
    for p in problems:
        if p["severity"] == "info":
            continue
        where = p["path"] or ""
        if where and p["line"]:
            where += f":{p['line']}"
        out.append(f"  {where}: {p['code']} {p['severity']}: {p['message']}")
        if p["fix"]:
            out.append(f"    fix: {p['fix']}")
    out.append("")
    why = f"fail on {data['fail_on']}"
    if data["outdated"]:
        stale = ", ".join(data["outdated"])
        why += (
            f"; stale views allowed: {stale}"
            if data["allow_stale"]
            else f"; stale views fail the check: {stale} (--allow-stale to pass)"
        )
    out.append(("OK" if data["ok"] else "FAILED") + f" ({why}); nothing was written.")
    return "\n".join(out) + "\n"


COMMANDS = [check_command]
