"""``mkdocs-adr accept ID``, ``reject ID``, ``deprecate ID [--by ID]``: plan, review, confirm.

Each command works the change out (:mod:`mkdocs_adr.authoring.status_change`), saves it
as a plan and shows its review card and the exact diff. On a terminal it asks; no
answer, EOF or Ctrl-C is "cancel". Without a terminal nothing is written until the same
command runs with ``--confirm PLAN_ID`` (or ``mkdocs-adr plan --confirm PLAN_ID``).
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..authoring import SCHEMA
from ..authoring import status_change as sc
from ..config import Config
from ..errors import AdrError, UsageError
from ..plans import Plan, plan_dir
from . import _review
from ._common import (
    EXIT_OK,
    as_date,
    echo,
    echo_err,
    emit_json,
    is_terminal,
    resolve_config,
)
from .authoring import writer_options
from .plan import confirm_plan


def _options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The writers' options (:func:`~.authoring.writer_options`) and ``--confirm``."""
    func = click.option(
        "--confirm",
        default=None,
        metavar="PLAN_ID",
        help="Apply the reviewed plan of this change (same as `plan --confirm`).",
    )(func)
    return writer_options(func)


def _refused(exc: AdrError, as_json: bool) -> SystemExit:
    if as_json:
        reasons = getattr(exc, "reasons", None)
        emit_json(
            {
                "schema": SCHEMA,
                "ok": False,
                "refused": [r.text for r in reasons] if reasons else [exc.message],
                "fix": exc.fix,
                "exit_code": exc.exit_code,
            }
        )
    else:
        echo_err(f"mkdocs-adr: {exc.format()}")
    return SystemExit(exc.exit_code)


def _run(
    verb: str,
    ref: str,
    by: str | None,
    *,
    dry_run: bool,
    confirm: str | None,
    as_json: bool,
    today: dt.datetime | None,
    config_file: Path | None,
    root: Path | None,
) -> int:
    try:
        if dry_run and confirm:
            raise UsageError(
                "--dry-run and --confirm exclude each other",
                fix="review with --dry-run, or apply a plan with --confirm",
            )
        config = resolve_config(config_file, root)
        if confirm:
            plan = sc.check_confirm(config, verb, ref, confirm, by)
            code = confirm_plan(config, plan.plan_id, as_json=as_json)
            if code == EXIT_OK and not as_json:
                _changes(plan)
            return code
        planned = sc.plan_change(config, verb, ref, by=by, dry_run=dry_run, today=as_date(today))
    except AdrError as exc:
        # handled here, so the command has its exit code under click's runner too
        raise _refused(exc, as_json) from None
    out = planned.outcome
    command = f"mkdocs-adr {verb} {ref}" + (f" --by {by}" if by else "")
    if as_json:
        emit_json(_json(out, planned.plan, command))
        return EXIT_OK
    if planned.plan is None:
        echo(out.diff, nl=False)
        for note in out.notes:
            echo_err(f"note: {note}")
        echo_err("dry run: nothing was written")
        return EXIT_OK
    card = _card(out, planned.plan)
    if not is_terminal():
        echo(card, nl=False)
        echo(out.diff, nl=False)
        echo(f"plan_id {planned.plan.plan_id}")
        echo(f"Nothing was written. Apply it with: {command} --confirm {planned.plan.plan_id}")
        return EXIT_OK
    echo(out.diff, nl=False)
    answer = _review.ask(card, can_apply=True, apply_label=verb)
    return _answered(config, planned.plan, answer, command)


def _answered(config: Config, plan: Plan, answer: str, command: str) -> int:
    if answer == "apply":
        code = confirm_plan(config, plan.plan_id, as_json=False)
        if code == EXIT_OK:
            _changes(plan)
        return code
    if answer == "draft":
        echo(
            f"Plan {plan.plan_id} is kept in the work dir; nothing was written. Apply it "
            f"later with: {command} --confirm {plan.plan_id}"
        )
        return EXIT_OK
    shutil.rmtree(plan_dir(config.work_path, plan.plan_id), ignore_errors=True)
    if answer == "changes":
        echo(
            "Nothing was written, and the plan was removed. Edit the records as needed, "
            f"then run `{command}` again."
        )
    else:
        echo(f"Cancelled: nothing was written, and the plan {plan.plan_id} was removed.")
    return EXIT_OK


def _card(out: Any, plan: Plan) -> str:
    """The review card: plan, every record and what changes in it, what follows."""
    head = f"{plan.kind.capitalize()} plan {plan.plan_id} (version {plan.version})"
    lines = [head, "=" * len(head)]
    for change in out.changes:
        lines.append(f"  {change.id}  {change.path}")
        lines.extend(f"      {what}" for what in change.what)
    for note in out.notes:
        lines.append(f"  note: {note}")
    for problem in out.problems_added:
        lines.append(f"  after this change: {problem.format()}")
    for problem in out.problems_resolved:
        lines.append(f"  resolved: {problem.code} {problem.message}")
    lines.append(
        f"  writes {len(plan.steps)} file(s) through the journal; nothing else changes "
        "(no archive move, no view)"
    )
    return "\n".join(lines) + "\n"


def _changes(plan: Plan) -> None:
    for change in plan.review.get("changes") or []:
        what = "; ".join(change.get("what") or [])
        echo(f"{change.get('path')} ({change.get('id')}): {what}")


def _json(out: Any, plan: Plan | None, command: str) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "command": out.command,
        "dry_run": out.dry_run,
        "ok": True,
        "record": out.record.to_json() if out.record is not None else {},
        "changes": [c.to_json() for c in out.changes],
        "notes": out.notes,
        "diff": out.diff,
        "plan_id": plan.plan_id if plan is not None else None,
        "plan_version": plan.version if plan is not None else None,
        "receipt": None,
        "problems_added": [p.to_json() for p in out.problems_added],
        "problems_resolved": [p.to_json() for p in out.problems_resolved],
        "next": f"{command} --confirm {plan.plan_id}" if plan is not None else None,
    }


@click.command("accept")
@click.argument("record")
@_options
def accept_command(
    record: str,
    as_json: bool,
    confirm: str | None,
    dry_run: bool,
    today: dt.datetime | None,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Accept a proposal; what it supersedes is marked superseded in the same change.

    Shows the plan and its exact diff. On a terminal it asks; otherwise apply it
    with --confirm PLAN_ID. Each record is written in its own style.
    Exit 0 planned or applied, 2 refused (every reason is listed), 3 stale or locked.
    """
    raise SystemExit(
        _run(
            "accept",
            record,
            None,
            dry_run=dry_run,
            confirm=confirm,
            as_json=as_json,
            today=today,
            config_file=config_file,
            root=root,
        )
    )


@click.command("reject")
@click.argument("record")
@_options
def reject_command(
    record: str,
    as_json: bool,
    confirm: str | None,
    dry_run: bool,
    today: dt.datetime | None,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Reject a proposal (an accepted record is deprecated or superseded instead).

    Shows the plan and its exact diff. On a terminal it asks; otherwise apply it
    with --confirm PLAN_ID. Exit 0 planned or applied, 2 refused, 3 stale or locked.
    """
    raise SystemExit(
        _run(
            "reject",
            record,
            None,
            dry_run=dry_run,
            confirm=confirm,
            as_json=as_json,
            today=today,
            config_file=config_file,
            root=root,
        )
    )


@click.command("deprecate")
@click.argument("record")
@click.option(
    "--by",
    default=None,
    metavar="ID",
    help="The record that takes over: 'Deprecated by' in RECORD, 'Deprecates' in ID.",
)
@_options
def deprecate_command(
    record: str,
    by: str | None,
    as_json: bool,
    confirm: str | None,
    dry_run: bool,
    today: dt.datetime | None,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Deprecate an accepted record, optionally naming what replaces it (--by).

    Shows the plan and its exact diff. On a terminal it asks; otherwise apply it
    with --confirm PLAN_ID. Exit 0 planned or applied, 2 refused, 3 stale or locked.
    """
    raise SystemExit(
        _run(
            "deprecate",
            record,
            by,
            dry_run=dry_run,
            confirm=confirm,
            as_json=as_json,
            today=today,
            config_file=config_file,
            root=root,
        )
    )


COMMANDS = [accept_command, reject_command, deprecate_command]
