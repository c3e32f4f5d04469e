"""``mkdocs-adr context``: bounded evidence about a decision, a domain or an iteration."""

from __future__ import annotations

from pathlib import Path

import click

from ..log import load
from ..retrieval import INTENTS, ContextQuery, context, render
from ._common import echo, echo_json_text, location_options, resolve_config
from .find import command_prefix


@click.command("context")
@click.argument("target", required=False, metavar="[ID]")
@click.option("--domain", default=None, help="Every decision in effect in one domain.")
@click.option("--iteration", default=None, help="Every decision in effect of one iteration.")
@click.option(
    "--intent",
    type=click.Choice(INTENTS),
    default="current",
    show_default=True,
    help="current: what binds now (an old id answers with its accepted successor); "
    "rationale: full text with context and consequences; history: the supersession lineage.",
)
@click.option("--unit", default=None, metavar="D2", help="One decision unit of a container.")
@click.option("--cursor", default=None, help="Continue an earlier answer (its next_cursor).")
@click.option("--json", "as_json", is_flag=True, help="Print the response as JSON.")
@location_options
def context_command(
    target: str | None,
    domain: str | None,
    iteration: str | None,
    intent: str,
    unit: str | None,
    cursor: str | None,
    as_json: bool,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Evidence about ID (ADR-0042, ADR-0042#D2, ADR-0042#D2@2 or a record's path).

    At most 8 decision units and 12,000 code points per answer; follow
    next_cursor for more. Without ID, --domain or --iteration: an overview of
    the log and how to ask next.
    """
    config = resolve_config(config_file, root)
    log = load(config)
    query = ContextQuery(target, domain, iteration, intent, unit, cursor)
    flags = ("--json",) if as_json else ()
    data, text = context(log, query, prefix=command_prefix(config_file, root), flags=flags)
    if as_json:
        echo_json_text(text)
    else:
        echo(render(data), nl=False)


COMMANDS = [context_command]
