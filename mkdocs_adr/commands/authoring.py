"""``mkdocs-adr new``, ``supersede`` and ``link``: write both sides, or nothing."""

from __future__ import annotations

import datetime as dt
import os
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .. import authoring
from ..authoring import NEW_STATUSES, SCHEMA, WRITABLE, Outcome
from ..errors import AdrError, UsageError
from ._common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    as_date,
    echo,
    echo_err,
    emit_json,
    location_options,
    resolve_config,
    today_option,
)


def writer_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--json``, ``--dry-run``, ``--today`` and the location options of every writer."""
    func = click.option(
        "--json", "as_json", is_flag=True, help=f"Print machine-readable JSON (schema {SCHEMA})."
    )(func)
    func = click.option(
        "--dry-run", is_flag=True, help="Show the exact diff and write nothing (no work dir)."
    )(func)
    func = today_option(func)
    return location_options(func)


def _run(as_json: bool, action: Callable[[], Outcome], *, new_path: bool = False) -> Outcome:
    """Run ``action``; refusals become JSON under --json, else the CLI's error line."""
    try:
        outcome = action()
    except AdrError as exc:
        # handled here, not only in cli.main, so the command is a function with
        # an exit code also under click's CliRunner
        if not as_json:
            echo_err(f"mkdocs-adr: {exc.format()}")
            raise SystemExit(exc.exit_code) from None
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
        raise SystemExit(exc.exit_code) from None
    if as_json:
        emit_json(_outcome_json(outcome))
    else:
        _print(outcome, new_path=new_path)
    return outcome


def _outcome_json(out: Outcome) -> dict[str, Any]:
    """The JSON answer of a command that ran (schema :data:`SCHEMA`)."""
    return {
        "schema": SCHEMA,
        "command": out.command,
        "dry_run": out.dry_run,
        "ok": not out.failures,
        "record": out.record.to_json() if out.record is not None else {},
        "changes": [c.to_json() for c in out.changes],
        "notes": out.notes,
        "diff": out.diff,
        "plan_id": out.plan_id,
        "receipt": out.receipt,
        "resumed": out.resumed,
        "problems_added": [p.to_json() for p in out.problems_added],
        "problems_resolved": [p.to_json() for p in out.problems_resolved],
        "failures": out.failures,
    }


def _print(out: Outcome, *, new_path: bool) -> None:
    if out.dry_run:
        if out.diff:
            echo(out.diff, nl=False)
        for note in out.notes:
            echo_err(f"note: {note}")
        echo_err("dry run: nothing was written")
        return
    say: Callable[[str], None] = echo_err if new_path else echo
    if new_path and out.record is not None and out.record.path:
        echo(out.record.path)  # alone on stdout, as adr-tools prints it
    for change in out.changes:
        what = "; ".join(change.what)
        say(f"{change.action} {change.path} ({change.id}): {what}")
    for note in out.notes:
        say(f"note: {note}")
    for problem in out.problems_added:
        say(f"after this change: {problem.format()}")
    for problem in out.problems_resolved:
        say(f"resolved: {problem.code} {problem.message}")
    for failure in out.failures:
        echo_err(f"mkdocs-adr: written, but it does not read back as intended: {failure}")


def _exit(out: Outcome) -> None:
    raise SystemExit(EXIT_PROBLEMS if out.failures else EXIT_OK)


# --------------------------------------------------------------------- new


@click.command("new")
@click.argument("title", nargs=-1, required=True)
@click.option(
    "--adr-root",
    default=None,
    metavar="ROOT",
    help="Which configured root gets the record: its folder or id prefix "
    "(default: the root of what it supersedes or links, else the first root).",
)
@click.option("--domain", default=None, help="Domain folder of a layered root.")
@click.option(
    "--style",
    type=click.Choice(WRITABLE),
    default=None,
    help="Record style (default: the root's template.md, else most of its records, "
    "else frontmatter). madr is MADR 3/4, madr2 MADR 2.",
)
@click.option(
    "--status",
    type=click.Choice(NEW_STATUSES),
    default="proposed",
    show_default=True,
    help="Status of the new record. Only an accepted record marks what it supersedes "
    "as superseded.",
)
@click.option(
    "-s", "--supersedes", multiple=True, metavar="ID", help="A record this one supersedes."
)
@click.option(
    "-l",
    "--link",
    "links",
    multiple=True,
    metavar="VERB:ID[:INVERSE]",
    help="Relate to a record, e.g. 'Amends:ADR-0003' or 'Clarifies:3:Clarified by' "
    "(adr-tools' '3:Amends:Amended by' also reads).",
)
@click.option(
    "--date",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="Date of the record (default: today).",
)
@click.option(
    "--review-by",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="Write a review-by date into the record.",
)
@click.option(
    "--template",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Fill this template instead of the root's template.md.",
)
@click.option(
    "--edit", is_flag=True, help="Open the new record in $VISUAL or $EDITOR after writing it."
)
@writer_options
def new_command(
    title: tuple[str, ...],
    adr_root: str | None,
    domain: str | None,
    style: str | None,
    status: str,
    supersedes: tuple[str, ...],
    links: tuple[str, ...],
    date: dt.datetime | None,
    review_by: dt.datetime | None,
    template: Path | None,
    edit: bool,
    as_json: bool,
    dry_run: bool,
    today: dt.datetime | None,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Write the next record (TITLE words are joined) and print its path.

    The number follows every number in the root, archive and drafts included,
    zero-padded like the existing files. Superseding and linking update the
    other record too, in its own style, both files or neither.
    """
    editor: list[str] = []
    project: list[Path] = []

    def action() -> Outcome:
        if edit and dry_run:
            raise UsageError("--edit and --dry-run exclude each other", fix="drop one of them")
        if edit:
            editor.extend(_editor())
        config = resolve_config(config_file, root)
        project.append(config.project_dir)
        options = authoring.NewOptions(
            title=" ".join(title),
            adr_root=adr_root,
            domain=domain,
            style=style,
            status=status,
            supersedes=list(supersedes),
            links=[authoring.parse_link_spec(s) for s in links],
            date=as_date(date),
            review_by=as_date(review_by),
            template=template,
        )
        return authoring.new(config, options, dry_run=dry_run, today=as_date(today))

    out = _run(as_json, action, new_path=True)
    if editor and out.written and out.record is not None and out.record.path:
        _open_editor(editor, project[0] / out.record.path)
    _exit(out)


def _editor() -> list[str]:
    command = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not command:
        raise UsageError(
            "--edit needs an editor, and neither $VISUAL nor $EDITOR is set",
            fix="export EDITOR=vi (or your editor), or leave out --edit",
        )
    return shlex.split(command)


def _open_editor(editor: list[str], path: Path) -> None:
    try:
        code = subprocess.run([*editor, str(path)], check=False).returncode
    except OSError as exc:
        echo_err(f"mkdocs-adr: could not start the editor {editor[0]!r}: {exc.strerror}")
        return
    if code != 0:
        echo_err(f"mkdocs-adr: the editor exited with {code}; the record is written")


# --------------------------------------------------------------------- supersede


@click.command("supersede")
@click.argument("old")
@click.option("--by", "new", required=True, metavar="NEW", help="The record that supersedes OLD.")
@writer_options
def supersede_command(
    old: str,
    new: str,
    as_json: bool,
    dry_run: bool,
    today: dt.datetime | None,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Record that NEW supersedes OLD, in both records, each in its own style.

    If NEW is accepted, OLD's status becomes superseded. If NEW is only
    proposed, the relation is recorded on both sides and OLD stays in effect
    with its status; run the command again once NEW is accepted.
    """
    out = _run(
        as_json,
        lambda: authoring.supersede(
            resolve_config(config_file, root), old, new, dry_run=dry_run, today=as_date(today)
        ),
    )
    _exit(out)


# --------------------------------------------------------------------- link


@click.command("link", short_help="Relate SOURCE to TARGET: VERB in SOURCE, INVERSE in TARGET.")
@click.argument("source")
@click.argument("verb")
@click.argument("target")
@click.argument("inverse", required=False)
@writer_options
def link_command(
    source: str,
    verb: str,
    target: str,
    inverse: str | None,
    as_json: bool,
    dry_run: bool,
    today: dt.datetime | None,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Relate SOURCE to TARGET: VERB in SOURCE, INVERSE (e.g. 'Amended by') in TARGET.

    Known verbs have a default inverse (Amends/Amended by, Extends/Extended by,
    Depends on, Relates to, Clarifies/Clarified by, Refines/Refined by).
    Supersession changes a status: use `mkdocs-adr supersede`.
    """
    out = _run(
        as_json,
        lambda: authoring.link(
            resolve_config(config_file, root),
            source,
            verb,
            target,
            inverse,
            dry_run=dry_run,
            today=as_date(today),
        ),
    )
    _exit(out)


COMMANDS = [new_command, supersede_command, link_command]
