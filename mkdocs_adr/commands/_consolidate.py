"""``plan --mode consolidate`` at the command line: the card, its four answers, the
restaging of reviewer edits at ``--confirm``, and the archive plan applied after acceptance.

The plan itself is :mod:`mkdocs_adr.consolidate`'s; :mod:`.plan` calls in here and
hands over its ``confirm_plan`` (the one way any plan is applied and reported).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import click

from .. import apply, consolidate, summary
from ..config import Config
from ..consolidate.archiving import ids_of, plan_after
from ..consolidate.card import card, card_json, needs_acceptance
from ..errors import AdrError, Refused
from ..fsops import sha256_file
from ..journal import Receipt, read_journal
from ..log import Log, load
from ..paths import inside_project
from ..plans import Plan, list_plans
from . import _review
from ._common import EXIT_OK, EXIT_PROBLEMS, echo, emit_json, is_terminal

Confirm = Callable[[Config, str, bool], int]


def draft(
    config: Config,
    log: Log,
    scope: consolidate.Scope,
    *,
    dry_run: bool,
    as_json: bool,
    today: dt.date | None,
    confirm: Confirm,
) -> int:
    """Draft the plan; show it (``dry_run``), or save it and review it."""
    consolidate.refuse_if_interrupted(config)
    built = consolidate.build(config, log, scope, today=today)
    if dry_run:
        if as_json:
            emit_json(card_json(config, built.plan, dry_run=True, saved=False))
        else:
            echo(card(config, built.plan, saved=False), nl=False)
            echo(f"plan_id {built.plan.plan_id}\nNothing was written.")
        return EXIT_OK
    plan = consolidate.save(config, built)
    draft_plan = consolidate.save_draft_only(config, plan)
    if as_json:
        emit_json(
            {
                **card_json(config, plan, dry_run=False, saved=True),
                "draft_plan_id": draft_plan.plan_id,
            }
        )
        return EXIT_OK
    if not is_terminal():
        echo(card(config, plan, saved=True), nl=False)
        echo(f"plan_id {plan.plan_id}")
        if not plan.blocking:
            echo(f"Accept the new records and apply: mkdocs-adr plan --confirm {plan.plan_id}")
        echo(f"Save the draft only (proposals): mkdocs-adr plan --confirm {draft_plan.plan_id}")
        echo(edit_hint(config, plan))
        return EXIT_OK
    return _review_loop(config, plan, draft_plan, confirm)


def _review_loop(config: Config, plan: Plan, draft_plan: Plan, confirm: Confirm) -> int:
    """Ask until an answer ends it; "needs changes" restages the edits and asks again."""
    shown = card(config, plan, saved=True)
    while True:
        answer = _review.ask(shown, can_apply=not plan.blocking, apply_label="accept and apply")
        if answer == "apply" and not _accepts_changes(plan):
            answer = "cancel"
        if answer == "apply":
            return confirm(config, plan.plan_id, False)
        if answer == "draft":
            return confirm(config, draft_plan.plan_id, False)
        if answer == "cancel":
            for gone in (plan, draft_plan):
                summary.discard(config, gone.plan_id)
            echo(
                f"Cancelled: nothing was written to the log, and the staged files of "
                f"{plan.plan_id} and {draft_plan.plan_id} were removed from the work dir."
            )
            return EXIT_OK
        echo("Nothing was applied. " + edit_hint(config, plan))
        try:
            click.prompt(
                "Press Enter once the edits are saved (Ctrl-C stops here)",
                default="",
                show_default=False,
            )
        except (click.exceptions.Abort, EOFError, KeyboardInterrupt):
            echo(
                f"\nStopped: nothing was applied; the staged drafts of {plan.plan_id} remain "
                "in the work dir."
            )
            return EXIT_OK
        again = consolidate.restage_if_edited(config, plan)
        if again.plan_id == plan.plan_id:
            echo("No edit was found; the plan is unchanged.")
            shown = card(config, plan, saved=True)
            continue
        shown = card(config, again, saved=True, restaged_from=plan.plan_id)
        plan, draft_plan = again, consolidate.save_draft_only(config, again)


def edit_hint(config: Config, plan: Plan) -> str:
    folder = config.rel(consolidate.coverage_file(config, plan).parent)
    return (
        f"To change it, edit the drafts in {folder}/ (reword or delete Decision items; "
        "retire or leave unresolved in coverage.txt), then run "
        f"`mkdocs-adr plan --confirm {plan.plan_id}`: the edits are staged as the next "
        "version and shown for review before anything is applied."
    )


def _accepts_changes(plan: Plan) -> bool:
    """Changed and retired constraints are accepted with one explicit answer more."""
    changes = needs_acceptance(plan)
    if not changes:
        return True
    try:
        raw = click.prompt(
            f"The plan changes or retires {len(changes)} "
            f"constraint{'s' if len(changes) != 1 else ''} (listed above). "
            "Type 'accept' to accept them",
            default="",
            show_default=False,
        )
    except (click.exceptions.Abort, EOFError, KeyboardInterrupt):
        return False
    return str(raw).strip().lower() == "accept"


# --------------------------------------------------------------------- at --confirm


def restaged(config: Config, plan: Plan, *, as_json: bool) -> bool:
    """Whether the review copies of ``plan`` were edited: then the edits are staged as the
    next version and shown, and nothing is applied (True)."""
    again = consolidate.restage_if_edited(config, plan)
    if again.plan_id == plan.plan_id:
        return False
    if as_json:
        emit_json(
            {
                **card_json(config, again, dry_run=False, saved=True),
                "restaged_from": plan.plan_id,
                "applied": None,
            }
        )
        return True
    echo(card(config, again, saved=True, restaged_from=plan.plan_id), nl=False)
    echo(
        f"The drafts of {plan.plan_id} were edited; nothing was applied. The edits are "
        f"staged as {again.plan_id} (version {again.version}): review it, then accept it "
        f"with: mkdocs-adr plan --confirm {again.plan_id}"
    )
    return True


def _interrupted_archive(config: Config, plan: Plan) -> Plan | None:
    """The archive plan of ``plan``'s authorized moves that was begun and interrupted."""
    ids = sorted(ids_of(plan))
    for other in list_plans(config.work_path):
        if (
            other.kind == "archive"
            and sorted(str(i) for i in other.scope.get("ids") or []) == ids
            and read_journal(config.work_path, other.plan_id).state == "interrupted"
        ):
            return other
    return None


def archive_pending(config: Config, plan: Plan) -> bool:
    """An applied consolidation whose authorized moves are not all made yet."""
    if plan.kind != consolidate.KIND or not ids_of(plan):
        return False
    if not read_journal(config.work_path, plan.plan_id).committed:
        return False
    if _interrupted_archive(config, plan) is not None:
        return True
    log = load(config)
    return any((rec := log.get(rid)) is not None and not rec.archived for rid in ids_of(plan))


def archive_after(config: Config, plan: Plan) -> dict[str, Any] | None:
    """Plan and apply the authorized archive moves; its failure leaves the acceptance."""
    if plan.kind != consolidate.KIND or not ids_of(plan):
        return None
    resumed = _interrupted_archive(config, plan)
    moves, why = (resumed, "") if resumed is not None else plan_after(config, plan)
    if moves is None:
        return {"state": "not-applied", "plan_id": None, "problems": [why]}
    try:
        receipt: Receipt = apply.confirm(config, moves.plan_id)
    except AdrError as exc:
        return {"state": "failed", "plan_id": moves.plan_id, "problems": [exc.message]}
    ok = receipt.outcome == "success"
    return {
        "state": "applied" if ok else "failed",
        "plan_id": moves.plan_id,
        "receipt": receipt.name,
        "problems": list(receipt.problems),
    }


def report_archive(result: dict[str, Any] | None) -> int:
    """Print the archive part of a consolidation's outcome; its exit code."""
    if result is None:
        return EXIT_OK
    plan_id = result.get("plan_id")
    echo(f"  archive: {result['state']}" + (f" (plan {plan_id})" if plan_id else ""))
    for problem in result["problems"]:
        echo(f"    {problem}")
    if result["state"] != "applied":
        echo(
            "  The acceptance stands: the old records stay superseded where they are; move "
            "them later with `mkdocs-adr archive`."
        )
        return EXIT_PROBLEMS
    return EXIT_OK


def refuse_rollback(config: Config, plan: Plan) -> None:
    """A consolidation whose every record is written is accepted: no rollback deletes it."""
    if plan.kind != consolidate.KIND:
        return
    decided = [s for s in plan.steps if s.part == "decisions"]
    written = all(
        sha256_file(inside_project(config.project_dir, s.path)) == s.after for s in decided
    )
    if written and not read_journal(config.work_path, plan.plan_id).committed:
        raise Refused(
            f"plan {plan.plan_id} already wrote every record of its decision: the new records "
            "are accepted, and a rollback never deletes an accepted record",
            fix=f"finish it with `mkdocs-adr plan --confirm {plan.plan_id}`; to undo the "
            "decision, write a new one",
        )
