"""``mkdocs-adr find``: the decisions that govern the files or topic at hand."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from ..log import load
from ..model import STATUSES
from ..retrieval import FindQuery, find, render
from ._common import echo, echo_json_text, location_options, resolve_config


def command_prefix(config_file: Path | None, root: Path | None) -> str:
    """``mkdocs-adr`` with the location options in use, for navigation hints."""
    params = click.get_current_context().find_root().params
    config_file = config_file or params.get("config_file")
    root = root or params.get("root")
    if config_file is not None:
        return f"mkdocs-adr -f {shlex.quote(str(config_file))}"
    if root is not None:
        return f"mkdocs-adr --root {shlex.quote(str(root))}"
    return "mkdocs-adr"


@click.command("find")
@click.option(
    "--path",
    "paths",
    multiple=True,
    metavar="P",
    help="A file or folder being worked on (project-relative; repeatable).",
)
@click.option(
    "--component", "components", multiple=True, metavar="C", help="A component (repeatable)."
)
@click.option("--topic", default=None, help="Words describing the work; ranks the narrowed set.")
@click.option(
    "--status",
    "statuses",
    multiple=True,
    type=click.Choice([*STATUSES, "all"]),
    help="Statuses to admit (repeatable); default: decisions in effect, then those "
    "whose status is not recorded (labelled status-unverified).",
)
@click.option("--cursor", default=None, help="Continue an earlier answer (its next_cursor).")
@click.option("--json", "as_json", is_flag=True, help="Print the response as JSON.")
@location_options
def find_command(
    paths: tuple[str, ...],
    components: tuple[str, ...],
    topic: str | None,
    statuses: tuple[str, ...],
    cursor: str | None,
    as_json: bool,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Find the decisions for --path/--component/--topic, deterministic layers first.

    1 affected-paths and affected-components, 2 status (in effect unless
    --status), 3 graphify-out/graph.json when present and the log's own
    relations, 4 --topic ranking over what is left. Bounded like `context`.
    """
    config = resolve_config(config_file, root)
    log = load(config)
    query = FindQuery(paths, components, topic, statuses, cursor)
    flags = ("--json",) if as_json else ()
    data, text = find(log, query, prefix=command_prefix(config_file, root), flags=flags)
    if as_json:
        echo_json_text(text)
    else:
        echo(render(data), nl=False)


COMMANDS = [find_command]
