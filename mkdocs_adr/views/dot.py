"""The succession graph in Graphviz DOT (``mkdocs-adr graph --format dot``)."""

from __future__ import annotations

from collections.abc import Callable

from ..safetext import terminal
from .graphdata import GraphData
from .palette import STATUS_FILL

_STYLE = {
    "supersedes": "bold",
    "partially-supersedes": '"bold,dashed"',
    "amends": "dashed",
    "extends": "solid",
    "depends-on": "dotted",
    "relates-to": "dotted",
}


def quote(text: str) -> str:
    """A DOT double-quoted string: controls dropped, bidi overrides shown, backslashes,
    quotes and newlines escaped."""
    body = " ".join(terminal(text).split()).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{body}"'


def render(data: GraphData, *, href: Callable[[str], str | None] | None = None) -> str:
    lines = [
        "digraph adr {",
        "  rankdir=RL;",
        '  node [shape=box, style="rounded,filled", fontcolor="#ffffff", fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    for node in data.nodes.values():
        attrs = [
            f"label={quote(node.id)[:-1]}\\n{quote(node.title)[1:]}",
            f"fillcolor={quote(STATUS_FILL.get(node.status, STATUS_FILL['unknown']))}",
            f"tooltip={quote(f'{node.id} {node.title} ({node.status})')}",
        ]
        if node.archived:
            attrs[1:1] = ['style="rounded,filled,dashed"']
        url = href(node.id) if href else None
        if url:
            attrs.append(f"URL={quote(url)}")
        lines.append(f"  {quote(node.id)} [{', '.join(attrs)}];")
    for e in data.edges:
        arrow = ", dir=none" if e.kind == "relates-to" else ""
        style = "dotted" if e.declared else _STYLE[e.kind]
        if e.proposed and not e.declared:
            # a supersession not in effect: dashed and grey, with an open arrow head
            # (a partial one keeps its bold dash and takes the same head and colour)
            style = _STYLE[e.kind] if e.kind == "partially-supersedes" else "dashed"
            arrow += ', color="#7a7a7a", arrowhead=empty'
        lines.append(
            f"  {quote(e.source)} -> {quote(e.target)} "
            f"[label={quote(e.label)}, style={style}{arrow}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"
