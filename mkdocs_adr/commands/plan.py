"""``mkdocs-adr plan``: read-only analysis of the whole log."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from .. import report
from ..errors import NotBuiltError, UsageError
from ..log import load
from ._common import as_date, emit_json, location_options, resolve_config, today_option

MODES = ("analysis", "summary", "consolidate")


@click.command("plan")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.option("--dry-run", is_flag=True, help="Analyse a scope and mode without writing.")
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default=None,
    help="analysis (default, read-only); summary drafts CURRENT; consolidate (later).",
)
@click.option("--domain", default=None, help="Limit the scope to one domain.")
@click.option("--sources", default=None, help="Limit the scope to these ids (comma-separated).")
@click.option("--archive", "archive_", is_flag=True, help="With consolidate: plan archive moves.")
@click.option("--confirm", default=None, metavar="PLAN_ID", help="Apply a reviewed plan.")
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info", "never"]),
    default=None,
    help="Exit 1 when a problem at or above this severity exists (default: the fail_on option).",
)
@click.option("-v", "--verbose", is_flag=True, help="List every info-level problem.")
@today_option
@location_options
def plan_command(
    as_json: bool,
    dry_run: bool,
    mode: str | None,
    domain: str | None,
    sources: str | None,
    archive_: bool,
    confirm: str | None,
    fail_on: str | None,
    verbose: bool,
    today: dt.datetime | None,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Analyse every record, archive included, and write nothing.

    Reports roots and layouts, excluded files with reasons, statuses, problems
    with file:line and a fix, archive candidates, and the state of INDEX and
    CURRENT. Exit 1 when a problem reaches --fail-on.
    """
    if domain and sources:
        raise UsageError("--domain and --sources exclude each other", fix="pick one scope")
    if confirm and (mode or domain or sources or dry_run or archive_):
        raise UsageError(
            "--confirm cannot be combined with a scope, a mode or --dry-run",
            fix="to change the content, plan again; then confirm the new plan id",
        )
    if mode in ("summary", "consolidate") or confirm or archive_:
        raise NotBuiltError(
            f"plan {'--confirm' if confirm else '--mode ' + str(mode)} is not built yet",
            fix="run `mkdocs-adr plan` for the read-only analysis",
        )
    if domain or sources:
        raise NotBuiltError(
            "scoped analysis (--domain/--sources) needs --mode summary, which is not built yet",
            fix="run `mkdocs-adr plan` for the whole log",
        )
    config = resolve_config(config_file, root)
    log = load(config, today=as_date(today))
    data = report.build(log, mode="analysis")
    if as_json:
        emit_json(data)
    else:
        click.echo(report.render_text(data, verbose=verbose), nl=False)
    raise SystemExit(report.exit_code(data, fail_on or config.fail_on))


COMMANDS = [plan_command]
