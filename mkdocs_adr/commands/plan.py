"""``mkdocs-adr plan``: read-only analysis, summary drafting, and confirming any plan."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .. import kept, report
from ..config import Config
from ..errors import NotBuiltError, UsageError
from ..log import Log, load
from ._common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_REFUSED,
    as_date,
    echo,
    emit_json,
    is_terminal,
    location_options,
    resolve_config,
    today_option,
)

if TYPE_CHECKING:
    from ..journal import Receipt
    from ..plans import Plan

# apply, summary, journal, plans and _review are imported where a plan is drafted,
# confirmed or rolled back: the read-only analysis (the common call) needs none of them

MODES = ("analysis", "summary", "consolidate")


@click.command("plan")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.option("--dry-run", is_flag=True, help="Analyse a scope and mode without writing.")
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default=None,
    help="analysis (default, read-only); summary drafts CURRENT; consolidate drafts "
    "replacement records.",
)
@click.option("--domain", default=None, help="With --mode summary or consolidate: one domain.")
@click.option(
    "--sources", default=None, help="With --mode summary or consolidate: these ids (ID,ID,...)."
)
@click.option(
    "--group-by",
    # consolidate.GROUP_BY, written here so `plan` imports consolidation only when asked
    # (tests/test_consolidate.py ties the two)
    type=click.Choice(("domain", "tag", "component")),
    default=None,
    help="With --mode consolidate: one replacement per domain (default), tag or component.",
)
@click.option(
    "--archive",
    "archive_",
    is_flag=True,
    help="With --mode consolidate: also move the records it retires to the archive, as a "
    "separate plan applied after acceptance.",
)
@click.option(
    "--adopt",
    is_flag=True,
    help="With --mode summary: take over a CURRENT.md that mkdocs-adr did not publish.",
)
@click.option(
    "--confirm", default=None, metavar="PLAN_ID", help="Apply a reviewed plan of any kind."
)
@click.option(
    "--rollback", default=None, metavar="PLAN_ID", help="Undo the steps of an interrupted plan."
)
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
    group_by: str | None,
    archive_: bool,
    adopt: bool,
    confirm: str | None,
    rollback: str | None,
    fail_on: str | None,
    verbose: bool,
    today: dt.datetime | None,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Analyse the log (read-only), draft the CURRENT view, or apply a reviewed plan.

    \b
    mkdocs-adr plan                                 read-only analysis of the whole log
    mkdocs-adr plan --mode summary [--domain D | --sources ID,ID] [--dry-run]
    mkdocs-adr plan --mode consolidate [--domain D | --sources ID,ID]
                    [--group-by domain|tag|component] [--archive] [--dry-run]
    mkdocs-adr plan --confirm PLAN_ID               apply a reviewed plan (any kind)
    mkdocs-adr plan --rollback PLAN_ID              undo an interrupted plan

    A summary draft goes to the work dir; on a terminal a review card asks
    whether to publish it, otherwise `--confirm PLAN_ID` publishes it. A
    consolidation drafts one replacement record per group with a coverage map;
    its card asks to accept, save the draft only, change or cancel. Exit 1
    when a problem reaches --fail-on, 2 on a usage error, 3 when refused.
    """
    _check_combinations(mode, domain, sources, archive_, adopt, confirm, rollback, dry_run)
    if group_by and mode != "consolidate":
        raise UsageError("--group-by only applies to --mode consolidate", fix="add it")
    config = resolve_config(config_file, root)
    if confirm:
        raise SystemExit(confirm_plan(config, confirm, as_json=as_json))
    if rollback:
        receipt = _rollback(config, rollback)
        if as_json:
            emit_json(receipt.to_json())
        else:
            echo(f"Rolled back plan {rollback}:")
            for line in receipt.undone or ():
                echo(f"  {line}")
            echo(f"Receipt: {config.rel(config.work_path / 'receipts')}/{receipt.name}")
        raise SystemExit(EXIT_PROBLEMS if receipt.problems else EXIT_OK)
    log = load(config, today=as_date(today))
    kept.keep_until_exit(log)  # (from the console: not freed when the command returns)
    if mode == "summary":
        raise SystemExit(_summary(config, log, domain, sources, adopt, dry_run, as_json))
    if mode == "consolidate":
        from .. import consolidate
        from . import _consolidate

        scope = consolidate.Scope(group_by or "domain", domain, sources, archive_)
        raise SystemExit(
            _consolidate.draft(
                config,
                log,
                scope,
                dry_run=dry_run,
                as_json=as_json,
                today=as_date(today),
                confirm=lambda c, p, j: confirm_plan(c, p, as_json=j),
            )
        )
    analysis = report.analyse(log, mode="analysis")
    if as_json:
        emit_json(analysis.to_json())
    else:
        text = report.render_text(analysis.to_json(records=False), verbose=verbose)
        echo(text, nl=False)
    raise SystemExit(analysis.exit_code(fail_on or config.fail_on))


def _check_combinations(
    mode: str | None,
    domain: str | None,
    sources: str | None,
    archive_: bool,
    adopt: bool,
    confirm: str | None,
    rollback: str | None,
    dry_run: bool,
) -> None:
    if confirm and rollback:
        raise UsageError("--confirm and --rollback exclude each other", fix="pick one")
    for flag, value in (("--confirm", confirm), ("--rollback", rollback)):
        if value and (mode or domain or sources or dry_run or archive_ or adopt):
            raise UsageError(
                f"{flag} cannot be combined with a scope, a mode, --adopt or --dry-run",
                fix="to change the content, plan again; then confirm the new plan id",
            )
    if domain and sources:
        raise UsageError("--domain and --sources exclude each other", fix="pick one scope")
    if archive_:
        if mode == "summary":
            raise UsageError(
                "--archive belongs to --mode consolidate; a summary never moves records",
                fix="drop --archive",
            )
        if mode != "consolidate":
            raise UsageError("--archive only applies to --mode consolidate", fix="add it")
    if (domain or sources) and mode not in ("summary", "consolidate"):
        raise NotBuiltError(
            "a scoped analysis (--domain/--sources without --mode summary) is not built yet",
            fix="add --mode summary to draft CURRENT for that scope, or run `mkdocs-adr plan`",
        )
    if adopt and mode != "summary":
        raise UsageError("--adopt only applies to --mode summary", fix="add --mode summary")


# --------------------------------------------------------------------------- summary


def _summary(
    config: Config,
    log: Log,
    domain: str | None,
    sources: str | None,
    adopt: bool,
    dry_run: bool,
    as_json: bool,
) -> int:
    from .. import summary
    from . import _review

    drafted = summary.draft(config, log, domain=domain, sources=sources, adopt=adopt)
    if dry_run:
        if as_json:
            emit_json(_review.summary_json(config, drafted.plan, dry_run=True, saved=False))
        else:
            echo(_review.summary_card(config, drafted.plan, saved=False), nl=False)
            echo(f"plan_id {drafted.plan.plan_id}\nNothing was written.")
        return EXIT_OK
    plan = summary.save(config, drafted)
    if as_json:
        emit_json(_review.summary_json(config, plan, dry_run=False, saved=True))
        return EXIT_OK
    card = _review.summary_card(config, plan, saved=True)
    if not is_terminal():
        echo(card, nl=False)
        echo(f"plan_id {plan.plan_id}")
        if plan.blocking:
            echo(
                "The draft is saved; it cannot be published until the blocking problems "
                "are fixed and it is planned again."
            )
        else:
            echo(
                f"Review the draft, then publish it with: mkdocs-adr plan --confirm {plan.plan_id}"
            )
        return EXIT_OK
    answer = _review.ask(card, can_apply=not plan.blocking, apply_label="publish")
    return _answered(config, plan, answer)


def _answered(config: Config, plan: Plan, answer: str) -> int:
    """Do what the reviewer answered at the card: publish, keep, or drop the draft."""
    from .. import summary

    if answer == "apply":
        return confirm_plan(config, plan.plan_id, as_json=False)
    if answer == "draft":
        echo(
            f"Draft saved as plan {plan.plan_id}; `mkdocs serve` previews it. Publish "
            f"it later with: mkdocs-adr plan --confirm {plan.plan_id}"
        )
    elif answer == "changes":
        review = summary.review_file(config, plan, summary.review_of(plan).roots[0])
        echo(
            f"Nothing was published. Edit the draft ({config.rel(review)}) and run "
            f"mkdocs-adr plan --confirm {plan.plan_id}, or change the records and plan "
            "again."
        )
    else:
        summary.discard(config, plan.plan_id)
        echo(
            f"Cancelled: nothing was published, and the draft {plan.plan_id} was "
            "removed from the work dir."
        )
    return EXIT_OK


# --------------------------------------------------------------------------- confirm


def confirm_plan(config: Config, plan_id: str, *, as_json: bool) -> int:
    """Apply a reviewed plan of any kind through the journal; print its receipt."""
    from .. import apply, consolidate, summary
    from ..plans import load_plan
    from . import _consolidate

    plan = load_plan(config.work_path, plan_id)
    applied_id = plan_id
    note = ""
    if plan.kind == summary.KIND:
        restaged = summary.restage_if_edited(config, plan)
        if restaged.plan_id != plan.plan_id:
            applied_id = restaged.plan_id
            note = (
                f"The reviewed draft of {plan_id} was edited; the edited text was staged "
                f"as {applied_id} (version {restaged.version}) and that is what is "
                "published."
            )
    if plan.kind in consolidate.KINDS and _consolidate.restaged(config, plan, as_json=as_json):
        return EXIT_OK
    if _consolidate.archive_pending(config, plan):
        archived = _consolidate.archive_after(config, plan)
        if as_json:
            emit_json({"confirmed": plan_id, "applied": None, "archive": archived})
            return EXIT_OK if archived and archived["state"] == "applied" else EXIT_PROBLEMS
        echo(f"Plan {plan_id} was applied already; its authorized archive plan:")
        return _consolidate.report_archive(archived)
    receipt = apply.confirm(config, applied_id)
    failed = [name for name, part in receipt.parts.items() if part.state != "applied"]
    archived = None if failed else _consolidate.archive_after(config, plan)
    if as_json:
        extra = {} if archived is None else {"archive": archived}
        emit_json({**receipt.to_json(), "confirmed": plan_id, "applied": applied_id, **extra})
    else:
        if note:
            echo(note)
        verb = "Applied" if receipt.outcome == "success" else "Could not fully apply"
        echo(f"{verb} plan {applied_id} ({receipt.kind}, version {receipt.version}).")
        for name, part in sorted(receipt.parts.items()):
            echo(f"  {name}: {part.state}")
            for step in part.steps:
                echo(f"    {step.what}: {step.state}")
        for problem in receipt.problems:
            echo(f"  problem: {problem}")
        echo(f"Receipt: {config.rel(config.work_path / 'receipts')}/{receipt.name}")
        if _consolidate.report_archive(archived) != EXIT_OK:
            return EXIT_PROBLEMS
        if failed:
            echo(
                f"See `mkdocs-adr status {applied_id}`; re-run `mkdocs-adr plan "
                f"--confirm {applied_id}` after resolving the conflict, or roll back "
                f"with `mkdocs-adr plan --rollback {applied_id}`."
            )
    if failed:
        return EXIT_REFUSED
    return EXIT_OK if receipt.outcome == "success" else EXIT_PROBLEMS


def _rollback(config: Config, plan_id: str) -> Receipt:
    from ..journal import rollback
    from ..plans import load_plan
    from . import _consolidate

    _consolidate.refuse_rollback(config, load_plan(config.work_path, plan_id))
    return rollback(config.project_dir, config.work_path, plan_id)


COMMANDS = [plan_command]
