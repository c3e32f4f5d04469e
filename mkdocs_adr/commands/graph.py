"""``mkdocs-adr graph``: the succession graph as SVG, Mermaid, DOT or JSON."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from ..identity import UnknownReference, lookup, shown
from ..log import Log, load
from ..views import dot, graphdata, mermaid, svg
from ._common import echo, emit_json, location_options, resolve_config

FORMATS = ("svg", "mermaid", "dot", "json")


@click.command("graph")
@click.argument("record_id", required=False, metavar="[ID]")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="svg",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--hops",
    type=click.IntRange(min=0),
    default=None,
    help="With ID: how many relation hops around it (default: the graph_hops option).",
)
@location_options
def graph_command(
    record_id: str | None,
    fmt: str,
    hops: int | None,
    config_file: Path | None,
    root: Path | None,
) -> None:
    """Print the relation graph of the whole log, or of the records around ID.

    The same graph the site draws: every record with an unambiguous id, edges for
    supersedes, amends, extends, depends-on and relates-to (mentions are left out).
    Nodes link to the record files, relative to the project folder. ID is an id in any
    spelling (ADR-0012, adr-12, ADR 12), a number (looked up in every root), a record's
    file path or its file stem.
    """
    config = resolve_config(config_file, root)
    log = load(config)
    data, title = graph_around(log, record_id, hops)

    def href(rid: str) -> str | None:
        node = data.nodes.get(rid)
        return node.path if node else None

    if fmt == "json":
        emit_json(graphdata.to_json(data))
    elif fmt == "mermaid":
        echo(mermaid.render(data, href=href), nl=False)
    elif fmt == "dot":
        echo(dot.render(data, href=href), nl=False)
    else:
        echo(svg.document([(title, data)], href=href, title=title), nl=False)


def graph_around(
    log: Log, record_id: str | None, hops: int | None
) -> tuple[graphdata.GraphData, str]:
    """The whole graph, or the records within ``hops`` (default: the graph_hops option)
    of ``record_id``, and its title; an unknown or ambiguous id is a UsageError."""
    config = log.config
    data = graphdata.build(log)
    title = "Decision graph"
    if record_id is not None:
        try:
            rec = lookup(log, record_id).record
        except UnknownReference as exc:
            if exc.excluded is not None:
                raise
            raise UsageError(
                f"no record with id {shown(record_id)}",
                fix=exc.hint() or "the log has no records",
            ) from None
        if rec.id not in data.nodes:  # named by its path, but its id is claimed twice
            claimed = log.by_id.get(rec.id.upper(), [rec])
            raise UsageError(
                f"id {rec.id} is ambiguous: " + ", ".join(r.path for r in claimed),
                fix="give one of the records a new number",
            )
        data, _more = graphdata.neighbourhood(
            data, rec.id, config.graph_hops if hops is None else hops, limit=10_000
        )
        title = f"Decisions around {rec.id}"
    return data, title


COMMANDS = [graph_command]
