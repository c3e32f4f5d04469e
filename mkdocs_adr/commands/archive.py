"""``mkdocs-adr archive`` and ``mkdocs-adr archive restore PLAN_ID``: plan, review, apply."""

from __future__ import annotations

from pathlib import Path

import click

from .. import archive
from ..archive.render import render_preview, review_card
from ..config import Config
from ..errors import UsageError
from ..plans import load_plan
from . import _review
from ._common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    echo,
    emit_json,
    is_terminal,
    location_options,
    resolve_config,
)
from .plan import confirm_plan


def _config(config_file: Path | None, root: Path | None) -> Config:
    """``-f``/``--root`` given before ``archive``, after it, or after ``restore``."""
    ctx = click.get_current_context()
    parent = ctx.parent
    while parent is not None and parent.parent is not None:
        config_file = config_file or parent.params.get("config_file")
        root = root or parent.params.get("root")
        parent = parent.parent
    return resolve_config(config_file, root)


def _present(config: Config, preview: archive.Preview, as_json: bool) -> int:
    data = preview.to_json()
    if as_json:
        emit_json(data)
        return EXIT_PROBLEMS if data["blocking"] else EXIT_OK
    echo(render_preview(data), nl=False)
    plan = preview.plan
    if plan is None:
        return EXIT_OK
    if not is_terminal():
        return EXIT_PROBLEMS if data["blocking"] else EXIT_OK
    label = "archive" if preview.kind == "archive" else "restore"
    answer = _review.ask(review_card(data), can_apply=not data["blocking"], apply_label=label)
    if answer == "apply":
        return confirm_plan(config, plan.plan_id, as_json=False)
    if answer == "draft":
        echo(
            f"Plan {plan.plan_id} is kept in the work dir; nothing was moved. Apply it later "
            f"with: mkdocs-adr plan --confirm {plan.plan_id}"
        )
    elif answer == "changes":
        echo(
            "Nothing was moved. Choose other records with --sources, or fix the conflicts, "
            "and plan again."
        )
    else:
        echo("Cancelled: nothing was moved.")
    return EXIT_OK


@click.group(
    "archive",
    invoke_without_command=True,
    subcommand_metavar="[restore PLAN_ID]",
)
@click.option(
    "--sources",
    default=None,
    metavar="IDS",
    help="Archive only these records (ID,ID,...); default: every eligible record.",
)
@click.option(
    "--confirm",
    default=None,
    metavar="PLAN_ID",
    help="Apply a reviewed archive or restore plan (same as `plan --confirm`).",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@location_options
@click.pass_context
def archive_command(
    ctx: click.Context,
    sources: str | None,
    confirm: str | None,
    as_json: bool,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Plan moving out-of-effect records to <root>/archive/, and review it.

    \b
    mkdocs-adr archive [--sources IDS] [--json]     plan and preview (writes only the plan)
    mkdocs-adr archive restore PLAN_ID [--sources IDS] [--json]
    mkdocs-adr plan --confirm PLAN_ID               apply a reviewed plan

    Eligible: a whole record that is superseded (with a settled, accepted
    successor), rejected or deprecated, with no open problem; age is never a
    reason. The preview lists every move, every link rewrite, the INDEX and
    manifest changes, the old URLs that get a redirect page, conflicts, risks,
    the records that are not eligible with every reason, and the reverse
    operation. On a terminal it asks whether to apply; otherwise apply it with
    `mkdocs-adr plan --confirm PLAN_ID`. Statuses never change: an archived
    record keeps its id, number, status and references.

    Exit 0 planned (or nothing to do), 1 the plan has blocking conflicts,
    2 usage error, 3 refused.
    """
    if ctx.invoked_subcommand is not None:
        if sources or confirm or as_json:
            raise UsageError(
                "options of `archive` go after `restore` when restoring",
                fix="mkdocs-adr archive restore PLAN_ID [--sources IDS] [--json]",
            )
        return
    config = _config(config_file, root)
    if confirm:
        if sources:
            raise UsageError(
                "--confirm cannot be combined with --sources",
                fix="to change the content, plan again; then confirm the new plan id",
            )
        kind = load_plan(config.work_path, confirm).kind
        if kind not in ("archive", "restore"):
            raise UsageError(
                f"{confirm} is a {kind} plan",
                fix=f"apply it with: mkdocs-adr plan --confirm {confirm}",
            )
        raise SystemExit(confirm_plan(config, confirm, as_json=as_json))
    preview = archive.plan_archive(config, sources)
    raise SystemExit(_present(config, preview, as_json))


@archive_command.command("restore")
@click.argument("plan_id")
@click.option(
    "--sources",
    default=None,
    metavar="IDS",
    help="Restore only these archived records; without a receipt, the records to restore.",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@location_options
def restore_command(
    plan_id: str,
    sources: str | None,
    as_json: bool,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Plan the exact reverse of a completed archive plan, and review it.

    The moves come from the archive plan's receipt; each link the archive
    rewrote gets its original spelling back, and files nobody edited since get
    their original bytes. Without a receipt, name the archived records with
    --sources and each goes back to the place its archive path mirrors.
    Restoring a location never restores a decision's effect: a superseded
    record stays superseded.
    """
    config = _config(config_file, root)
    preview = archive.plan_restore(config, plan_id, sources)
    raise SystemExit(_present(config, preview, as_json))


COMMANDS = [archive_command]
