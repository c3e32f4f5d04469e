"""The succession graph as a Mermaid flowchart (``mkdocs-adr graph --format mermaid``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..safetext import terminal
from .graphdata import EDGE_KINDS, GraphData
from .palette import STATUS_FILL

_ARROW = {
    "supersedes": "==>",
    "partially-supersedes": "--o",
    "amends": "-.->",
    "extends": "-->",
    "depends-on": "-.->",
    "relates-to": "---",
}

#: A supersession only declared in prose: dotted, whatever its kind.
_DECLARED = "-.->"
#: A supersession by a record not in effect (proposed): dotted, with the kind's head
#: (an arrow for the whole record, a circle for a part), and a dash-dot style below.
_PROPOSED = {"supersedes": "-.->", "partially-supersedes": "-.-o"}
#: The ``linkStyle`` of a proposed supersession: the SVG view's dash-dot, fainter.
PROPOSED_STYLE = "stroke-dasharray:7 3 2 3,stroke-opacity:0.75"


def node_key(rid: str) -> str:
    """A Mermaid-safe node identifier derived from the record id (stable, unique)."""
    safe = re.sub(r"[^A-Za-z0-9_]", "_", rid)
    return f"n_{safe}_{sum(map(ord, rid)) % 997}"


def label(text: str) -> str:
    """Text for a quoted Mermaid label: controls dropped, bidi overrides shown, quotes
    and markup as entity codes."""
    out = []
    for ch in " ".join(terminal(text).split()):
        if ch in '"#<>&`[]{}()|;':
            out.append(f"#{ord(ch)};")
        else:
            out.append(ch)
    return "".join(out)


def render(data: GraphData, *, href: Callable[[str], str | None] | None = None) -> str:
    lines = ["flowchart LR"]
    for status, color in STATUS_FILL.items():
        lines.append(f"    classDef {status} fill:{color},color:#fff,stroke:#333")
    lines.append("    classDef archived stroke-dasharray:4 3")
    for node in data.nodes.values():
        text = f"{node.id}: {node.title}" + (" (archived)" if node.archived else "")
        lines.append(f'    {node_key(node.id)}["{label(text)}"]')
    proposed: list[str] = []
    for i, e in enumerate(data.edges):
        arrow = _ARROW[e.kind]
        if e.proposed:
            arrow = _PROPOSED.get(e.kind, arrow)
            proposed.append(str(i))
        if e.declared:
            arrow = _DECLARED
        lines.append(f"    {node_key(e.source)} {arrow}|{label(e.label)}| {node_key(e.target)}")
    if proposed:
        lines.append(f"    linkStyle {','.join(proposed)} {PROPOSED_STYLE}")
    for node in data.nodes.values():
        status = node.status if node.status in STATUS_FILL else "unknown"
        lines.append(f"    class {node_key(node.id)} {status}")
        if node.archived:
            lines.append(f"    class {node_key(node.id)} archived")
        url = href(node.id) if href else None
        if url:
            lines.append(f'    click {node_key(node.id)} href "{label(url)}"')
    assert all(k in _ARROW for k in EDGE_KINDS)
    return "\n".join(lines) + "\n"
