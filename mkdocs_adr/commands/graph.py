"""``mkdocs-adr graph``: the succession graph as SVG, Mermaid, DOT or JSON."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from ..identity import canonical, parse_id
from ..log import Log, load
from ..model import Record
from ..views import dot, graphdata, mermaid, svg
from ._common import emit_json, location_options, resolve_config

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
    Nodes link to the record files, relative to the project folder.
    """
    config = resolve_config(config_file, root)
    log = load(config)
    data = graphdata.build(log)
    title = "Decision graph"
    if record_id is not None:
        rec = _lookup(log, record_id)
        if rec is None:
            wanted = record_id.upper()
            claimed = log.by_id.get(wanted)
            if claimed:
                raise UsageError(
                    f"id {record_id} is ambiguous: " + ", ".join(r.path for r in claimed),
                    fix="give one of the records a new number",
                )
            near = sorted(data.nodes, key=lambda n: _distance(n.upper(), wanted))[:5]
            raise UsageError(
                f"no record with id {record_id}",
                fix=f"nearest ids: {', '.join(near)}" if near else "the log has no records",
            )
        data, _more = graphdata.neighbourhood(
            data, rec.id, config.graph_hops if hops is None else hops, limit=10_000
        )
        title = f"Decisions around {rec.id}"

    def href(rid: str) -> str | None:
        node = data.nodes.get(rid)
        return node.path if node else None

    if fmt == "json":
        emit_json(graphdata.to_json(data))
    elif fmt == "mermaid":
        click.echo(mermaid.render(data, href=href), nl=False)
    elif fmt == "dot":
        click.echo(dot.render(data, href=href), nl=False)
    else:
        click.echo(svg.document([(title, data)], href=href, title=title), nl=False)


def _lookup(log: Log, text: str) -> Record | None:
    """``ADR-0012``, ``adr-12``, ``ADR 12`` or a bare ``12`` (in the first root)."""
    rec = log.get(text)
    if rec is not None:
        return rec
    parsed = parse_id(text)
    if parsed is not None:
        return log.get(canonical(*parsed))
    if text.strip().isdigit() and log.config.roots:
        return log.get(canonical(log.config.roots[0].prefix, int(text)))
    return None


def _distance(a: str, b: str) -> int:
    """Levenshtein distance, for suggesting ids."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


COMMANDS = [graph_command]
