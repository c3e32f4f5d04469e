"""Static SVG succession graphs, laid out at build time. Pure: data in, markup out.

The layout is a small layered (Sugiyama-style) drawing per connected component:
older decisions on the left, the records that supersede, amend or extend them to
their right, long edges routed through dummy points, layers ordered by
barycentre sweeps. Components are packed in rows. Nothing needs JavaScript or a
network: the markup works offline, in print and in both colour schemes (edges and
labels outside nodes use ``currentColor``; node fills carry white text).

Every piece of record-derived text is escaped; every id in the markup carries a
caller-chosen prefix so several graphs can share one HTML page.
"""

from __future__ import annotations

import html
import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..model import status_label
from ..safetext import xml_text
from .graphdata import (
    DECLARED_LABEL,
    EDGE_KINDS,
    FORWARD_LABEL,
    DrawnEdge,
    GraphData,
    Node,
    components,
)
from .hrefs import RecordHref

NODE_W = 158
NODE_H = 44
GAP_X = 38
GAP_Y = 14
DUMMY_H = 8
COMP_GAP = 32
MARGIN = 8
TITLE_CHARS = 24
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

#: Node fill per status; every fill carries white text at a contrast of 4.5:1 or more.
STATUS_FILL: dict[str, str] = {
    "accepted": "#2e7d32",
    "proposed": "#1565c0",
    "draft": "#5f6368",
    "superseded": "#a04a00",
    "deprecated": "#6d4c41",
    "rejected": "#c62828",
    "unknown": "#6a1b9a",
    "missing": "#455a64",
}
#: Edge stroke, dash pattern and width per kind. Mid tones read on light and dark.
EDGE_STYLE: dict[str, tuple[str, str, float]] = {
    "supersedes": ("currentColor", "", 2.0),
    # the same weight as a supersession, dashed: it replaces parts, and retires nothing
    "partially-supersedes": ("#2a9d8f", "8 4", 2.0),
    "amends": ("#e67e22", "7 4", 1.6),
    "extends": ("#3b8fd9", "2 0", 1.6),
    "depends-on": ("#9b6bd3", "2 3", 1.6),
    "relates-to": ("#8a9499", "2 3", 1.6),
}


#: The dash of an edge only declared in prose (:attr:`DrawnEdge.declared`), in its kind's colour.
DECLARED_DASH = "1 4"


def esc(text: str) -> str:
    """Text for XML: controls and what XML 1.0 forbids dropped, bidi overrides shown."""
    return html.escape(xml_text(text), quote=True)


def short(text: str, limit: int = TITLE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ------------------------------------------------------------------------- layout


@dataclass
class Placed:
    """A laid-out drawing: node boxes (top-left corners) and edge polylines."""

    width: float = 0.0
    height: float = 0.0
    nodes: dict[str, tuple[float, float]] = field(default_factory=dict)
    edges: list[tuple[DrawnEdge, list[tuple[float, float]]]] = field(default_factory=list)

    def shifted(self, dx: float, dy: float) -> Placed:
        return Placed(
            self.width,
            self.height,
            {n: (x + dx, y + dy) for n, (x, y) in self.nodes.items()},
            [(e, [(x + dx, y + dy) for x, y in pts]) for e, pts in self.edges],
        )


def _layers(nodes: list[str], edges: list[DrawnEdge]) -> dict[str, int]:
    """Layer per node: an edge's target sits left of its source (older on the left)."""
    succ: dict[str, set[str]] = {n: set() for n in nodes}
    for e in edges:
        if e.source != e.target:
            succ[e.target].add(e.source)
    # break cycles: drop DFS back edges
    state: dict[str, int] = {}
    dag: dict[str, set[str]] = {n: set() for n in nodes}
    for start in nodes:
        if start in state:
            continue
        stack: list[tuple[str, Iterable[str]]] = [(start, iter(sorted(succ[start])))]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(iter(it), None)
            if nxt is None:
                state[node] = 2
                stack.pop()
                continue
            if state.get(nxt) == 1:
                continue  # back edge: left out of the layering
            dag[node].add(nxt)
            if nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(sorted(succ[nxt]))))
    indeg = {n: 0 for n in nodes}
    for n in nodes:
        for m in dag[n]:
            indeg[m] += 1
    order: list[str] = []
    ready = sorted(n for n in nodes if indeg[n] == 0)
    while ready:
        n = ready.pop(0)
        order.append(n)
        for m in sorted(dag[n]):
            indeg[m] -= 1
            if indeg[m] == 0:
                ready.append(m)
    layer = {n: 0 for n in nodes}
    for n in order:
        for m in dag[n]:
            layer[m] = max(layer[m], layer[n] + 1)
    # pull sources rightwards next to what they point at, so they do not dangle
    preds: dict[str, set[str]] = defaultdict(set)
    for n in nodes:
        for m in dag[n]:
            preds[m].add(n)
    for n in reversed(order):
        if not preds[n] and dag[n]:
            layer[n] = min(layer[m] for m in dag[n]) - 1
    return layer


@dataclass
class _Layered:
    """One component in layers: real nodes and the dummies that carry long edges."""

    layer_of: dict[str, int]
    heights: dict[str, float]
    chains: list[tuple[DrawnEdge, list[str]]]
    left_of: dict[str, list[str]]
    right_of: dict[str, list[str]]
    rows: list[list[str]]


def _layered(nodes: list[str], edges: list[DrawnEdge]) -> _Layered:
    """Layers, with a chain of dummy nodes for each edge that spans more than one."""
    layer_of: dict[str, int] = dict(_layers(nodes, edges))
    heights: dict[str, float] = {n: NODE_H for n in nodes}
    links: list[tuple[str, str]] = []  # (left, right) between adjacent layers
    chains: list[tuple[DrawnEdge, list[str]]] = []
    for i, e in enumerate(edges):
        a, b = e.target, e.source
        if layer_of[a] > layer_of[b]:
            a, b = b, a
        chain = [a]
        for k in range(layer_of[a] + 1, layer_of[b]):
            d = f"\x00d{i}:{k}"
            layer_of[d] = k
            heights[d] = DUMMY_H
            chain.append(d)
        chain.append(b)
        for left, right in itertools.pairwise(chain):
            if layer_of[left] != layer_of[right]:
                links.append((left, right))
        chains.append((e, chain))
    rows: list[list[str]] = [[] for _ in range(max(layer_of.values(), default=0) + 1)]
    for n in sorted(layer_of, key=lambda n: (layer_of[n], n)):
        rows[layer_of[n]].append(n)
    left_of: dict[str, list[str]] = defaultdict(list)
    right_of: dict[str, list[str]] = defaultdict(list)
    for left, right in links:
        right_of[left].append(right)
        left_of[right].append(left)
    return _Layered(layer_of, heights, chains, left_of, right_of, rows)


def _order_rows(g: _Layered) -> None:
    """Barycentre sweeps, left to right and back, to reduce crossings (sorts ``g.rows``)."""
    rows, n_layers = g.rows, len(g.rows)
    pos = {n: float(i) for row in rows for i, n in enumerate(row)}
    for sweep in range(8):
        forward = sweep % 2 == 0
        seq = range(1, n_layers) if forward else range(n_layers - 2, -1, -1)
        for li in seq:
            row = rows[li]
            nb = g.left_of if forward else g.right_of

            def bary(n: str, nb: dict[str, list[str]] = nb) -> float:
                ns = nb.get(n)
                return sum(pos[m] for m in ns) / len(ns) if ns else pos[n]

            row.sort(key=lambda n: (bary(n), pos[n], n))
            for i, n in enumerate(row):
                pos[n] = float(i)


def _vertical(g: _Layered) -> dict[str, float]:
    """Vertical coordinates: stack, then pull towards neighbours without overlapping."""
    heights, n_layers = g.heights, len(g.rows)
    y: dict[str, float] = {}
    for row in g.rows:
        top = 0.0
        for n in row:
            y[n] = top
            top += heights[n] + GAP_Y

    def centre(n: str) -> float:
        return y[n] + heights[n] / 2

    for it in range(6):
        order = range(n_layers) if it % 2 == 0 else range(n_layers - 1, -1, -1)
        for li in order:
            row = g.rows[li]
            if not row:
                continue
            want = []
            for n in row:
                ns = g.left_of.get(n, []) + g.right_of.get(n, [])
                c = sum(centre(m) for m in ns) / len(ns) if ns else centre(n)
                want.append(c - heights[n] / 2)
            for n, p in zip(row, _settle(row, want, heights), strict=True):
                y[n] = p
    return y


def _settle(row: list[str], want: list[float], heights: dict[str, float]) -> list[float]:
    """Tops for one row as near ``want`` as no overlap allows, without drifting down."""
    placed: list[float] = []
    for i in range(len(row)):
        lo = placed[-1] + heights[row[i - 1]] + GAP_Y if i else -1e9
        placed.append(max(want[i], lo))
    # spread the displacement evenly so a row does not drift downwards
    shift = sum(w - p for w, p in zip(want, placed, strict=True)) / len(row)
    if shift < 0:
        placed = [p + shift for p in placed]
        for i in range(1, len(placed)):
            lo = placed[i - 1] + heights[row[i - 1]] + GAP_Y
            placed[i] = max(placed[i], lo)
    return placed


def layout_component(nodes: list[str], edges: list[DrawnEdge]) -> Placed:
    """Lay out one connected component."""
    g = _layered(nodes, edges)
    _order_rows(g)
    y = _vertical(g)
    heights, layer_of = g.heights, g.layer_of
    min_y = min(y.values(), default=0.0)
    x = {n: layer_of[n] * (NODE_W + GAP_X) for n in layer_of}
    out = Placed()
    for n in nodes:
        out.nodes[n] = (float(x[n]), y[n] - min_y)
    for e, chain in g.chains:
        pts: list[tuple[float, float]] = []
        for k, n in enumerate(chain):
            yy = y[n] - min_y + heights[n] / 2
            if n in out.nodes:
                if k == 0:
                    pts.append((x[n] + NODE_W, yy))
                else:
                    pts.append((float(x[n]), yy))
            else:
                pts.append((x[n] + NODE_W / 2, yy))
        if chain[0] == e.source:
            pass  # the source is on the left (a cycle edge): draw as placed
        else:
            pts.reverse()  # draw from the source (right) to the target (left)
        out.edges.append((e, pts))
    out.width = len(g.rows) * (NODE_W + GAP_X) - GAP_X
    out.height = max((y[n] - min_y + heights[n] for n in y), default=0.0)
    return out


def grid(nodes: Sequence[str], max_width: float) -> Placed:
    """Unrelated nodes in a compact grid."""
    per_row = max(1, int((max_width + GAP_X / 2) // (NODE_W + GAP_X / 2)))
    out = Placed()
    for i, n in enumerate(nodes):
        r, c = divmod(i, per_row)
        out.nodes[n] = (c * (NODE_W + GAP_X / 2), r * (NODE_H + GAP_Y))
    cols = min(per_row, len(nodes))
    rows = (len(nodes) + per_row - 1) // per_row
    out.width = cols * (NODE_W + GAP_X / 2) - GAP_X / 2 if nodes else 0
    out.height = rows * (NODE_H + GAP_Y) - GAP_Y if nodes else 0
    return out


def pack(parts: Sequence[Placed], max_width: float) -> Placed:
    """Place drawings left to right in rows no wider than ``max_width`` (unless one is)."""
    out = Placed()
    x = y = row_h = 0.0
    for part in parts:
        if x > 0 and x + part.width > max_width:
            x, y = 0.0, y + row_h + COMP_GAP
            row_h = 0.0
        moved = part.shifted(x, y)
        out.nodes.update(moved.nodes)
        out.edges.extend(moved.edges)
        out.width = max(out.width, x + part.width)
        row_h = max(row_h, part.height)
        out.height = max(out.height, y + part.height)
        x += part.width + COMP_GAP
    return out


def layout(data: GraphData, *, max_width: float = 600, isolated: bool = True) -> Placed:
    """Every component of ``data``; nodes without edges in a grid below when ``isolated``."""
    comps = components(data)
    linked = [c for c in comps if len(c) > 1]
    alone = [c[0] for c in comps if len(c) == 1]
    by_node: dict[str, list[DrawnEdge]] = defaultdict(list)
    for e in data.edges:
        by_node[e.source].append(e)
    parts = []
    for comp in linked:
        members = set(comp)
        edges = [e for n in comp for e in by_node[n] if e.target in members]
        parts.append(layout_component(comp, edges))
    placed = pack(parts, max_width)
    if isolated and alone:
        g = grid(alone, max(max_width, placed.width))
        top = placed.height + COMP_GAP if parts else 0.0
        moved = g.shifted(0, top)
        placed.nodes.update(moved.nodes)
        placed.width = max(placed.width, g.width)
        placed.height = top + g.height
    return placed


# ------------------------------------------------------------------------- markup


def _path(pts: list[tuple[float, float]]) -> str:
    (x0, y0), rest = pts[0], pts[1:]
    out = [f"M{x0:.1f},{y0:.1f}"]
    px, py = x0, y0
    for x, y in rest:
        dx = (x - px) / 2
        out.append(f"C{px + dx:.1f},{py:.1f} {x - dx:.1f},{y:.1f} {x:.1f},{y:.1f}")
        px, py = x, y
    return " ".join(out)


def _markers(uid: str, kinds: Iterable[str]) -> str:
    out = []
    for kind in kinds:
        color, _dash, _w = EDGE_STYLE[kind]
        if kind == "relates-to":
            continue
        out.append(
            f'<marker id="{uid}-arrow-{kind}" viewBox="0 0 10 10" refX="9" refY="5" '
            f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{color}"/></marker>'
        )
    return "<defs>" + "".join(out) + "</defs>" if out else ""


def _node(
    node: Node,
    x: float,
    y: float,
    href: str | None,
    *,
    focus: bool,
    external: bool,
    clip: str,
) -> str:
    fill = STATUS_FILL.get(node.status, STATUS_FILL["unknown"])
    label = short(node.id, 21) + (" · archived" if node.archived else "")
    shown = status_label(node.status)
    full = f"{node.id} {node.title} ({shown}{', archived' if node.archived else ''})"
    stroke = ""
    if focus:
        stroke = ' stroke="currentColor" stroke-width="3"'
    elif node.archived or external:
        stroke = ' stroke="currentColor" stroke-width="1.5" stroke-dasharray="4 3"'
    body = (
        f"<title>{esc(full)}</title>"
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W}" height="{NODE_H}" rx="7" '
        f'fill="{fill}"{stroke}/>'
        f'<clipPath id="{clip}"><rect x="{x + 4:.1f}" y="{y:.1f}" width="{NODE_W - 8}" '
        f'height="{NODE_H}"/></clipPath>'
        f'<g clip-path="url(#{clip})" fill="#fff">'
        f'<text x="{x + 10:.1f}" y="{y + 18:.1f}" font-size="12" font-weight="700">'
        f"{esc(label)}</text>"
        f'<text x="{x + 10:.1f}" y="{y + 34:.1f}" font-size="11">'
        f"{esc(short(node.title))}</text></g>"
    )
    attrs = (
        f' class="adr-node adr-node--{esc(node.status)}" data-adr-id="{esc(node.id)}"'
        f' data-adr-status="{esc(node.status)}"'
    )
    if href is not None:
        return f'<a href="{esc(href)}"{attrs} aria-label="{esc(full)}">{body}</a>'
    return f"<g{attrs}>{body}</g>"


def render(
    data: GraphData,
    *,
    uid: str,
    href: RecordHref,
    title: str,
    focus: str | None = None,
    root: str | None = None,
    placed: Placed | None = None,
    max_width: float = 600,
    isolated: bool = True,
) -> str:
    """One ``<svg>`` element drawing ``data``. ``root`` marks nodes of other roots."""
    placed = placed or layout(data, max_width=max_width, isolated=isolated)
    w = placed.width + 2 * MARGIN
    h = placed.height + 2 * MARGIN
    kinds = [k for k in EDGE_KINDS if any(e.kind == k for e, _ in placed.edges)]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="adr-graph-svg" width="{w:.0f}" '
        f'height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}" role="img" '
        f'aria-labelledby="{uid}-title" font-family="{esc(FONT)}">',
        f'<title id="{uid}-title">{esc(title)}</title>',
        _markers(uid, kinds),
        f'<g transform="translate({MARGIN},{MARGIN})">',
        '<g class="adr-edges" fill="none">',
    ]
    for e, pts in placed.edges:
        color, dash, width = EDGE_STYLE[e.kind]
        if e.declared:
            dash = DECLARED_DASH
        dash_attr = f' stroke-dasharray="{dash}"' if dash and dash != "2 0" else ""
        marker = "" if e.kind == "relates-to" else f' marker-end="url(#{uid}-arrow-{e.kind})"'
        what = f"{e.source} {FORWARD_LABEL[e.kind]} {e.target}" + (
            f" (unit {e.unit})" if e.unit else ""
        )
        if e.declared:
            what += f" ({DECLARED_LABEL}, not agreed by the other record)"
        css = f"adr-edge adr-edge--{e.kind}" + (" adr-edge--declared" if e.declared else "")
        parts.append(
            f'<path class="{css}" d="{_path(pts)}" stroke="{color}" '
            f'stroke-width="{width}"{dash_attr}{marker}><title>{esc(what)}</title></path>'
        )
    parts.append("</g>")
    parts.append('<g class="adr-nodes">')
    for i, (nid, (x, y)) in enumerate(placed.nodes.items()):
        node = data.nodes[nid]
        parts.append(
            _node(
                node,
                x,
                y,
                href(nid),
                focus=nid == focus,
                external=root is not None and node.root != root,
                clip=f"{uid}-c{i}",
            )
        )
    parts.append("</g></g></svg>")
    return "".join(parts)


def legend(
    *, uid: str, statuses: Sequence[str], kinds: Sequence[str], declared: bool = False
) -> str:
    """A small SVG key: node colours by status, line styles by relation kind, and the
    dotted line of a supersession only declared in prose when ``declared``."""
    items: list[str] = []
    x = 0.0
    sw = 0.0
    row1: list[str] = []
    for status in statuses:
        width = 22 + 7 * len(status_label(status))
        row1.append(
            f'<rect x="{x:.0f}" y="2" width="14" height="14" rx="3" '
            f'fill="{STATUS_FILL.get(status, STATUS_FILL["unknown"])}"/>'
            f'<text x="{x + 19:.0f}" y="13.5" font-size="12" fill="currentColor">'
            f"{esc(status_label(status))}</text>"
        )
        x += width + 10
    sw = max(sw, x)
    x = 0.0
    row2: list[str] = []
    for kind in kinds:
        color, dash, stroke = EDGE_STYLE[kind]
        dash_attr = f' stroke-dasharray="{dash}"' if dash and dash != "2 0" else ""
        marker = "" if kind == "relates-to" else f' marker-end="url(#{uid}-arrow-{kind})"'
        label = FORWARD_LABEL[kind]
        row2.append(
            f'<path d="M{x:.0f},31 h30" stroke="{color}" stroke-width="{stroke}" '
            f'fill="none"{dash_attr}{marker}/>'
            f'<text x="{x + 38:.0f}" y="35" font-size="12" fill="currentColor">'
            f"{esc(label)}</text>"
        )
        x += 46 + 7 * len(label) + 10
    if declared:
        row2.append(
            f'<path d="M{x:.0f},31 h30" stroke="currentColor" stroke-width="2" fill="none" '
            f'stroke-dasharray="{DECLARED_DASH}"/>'
            f'<text x="{x + 38:.0f}" y="35" font-size="12" fill="currentColor">'
            f"{esc(DECLARED_LABEL)}</text>"
        )
        x += 46 + 7 * len(DECLARED_LABEL) + 10
    sw = max(sw, x)
    items = row1 + row2
    height = 42 if kinds else 20
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="adr-graph-legend" '
        f'width="{sw:.0f}" height="{height}" viewBox="0 0 {sw:.0f} {height}" role="img" '
        f'aria-labelledby="{uid}-title" font-family="{esc(FONT)}">'
        f'<title id="{uid}-title">Legend: node colour is the status, line style the '
        f"relation</title>{_markers(uid, kinds)}" + "".join(items) + "</svg>"
    )


def document(
    groups: Sequence[tuple[str, GraphData]], *, href: RecordHref, title: str, uid: str = "adr"
) -> str:
    """A standalone SVG file: a legend, then each group under its heading (CLI export)."""
    statuses = sorted(
        {n.status for _, g in groups for n in g.nodes.values()},
        key=lambda s: list(STATUS_FILL).index(s) if s in STATUS_FILL else 99,
    )
    kinds = [k for k in EDGE_KINDS if any(e.kind == k for _, g in groups for e in g.edges)]
    pieces: list[tuple[str, str, float, float]] = []
    y = 0.0
    width = 0.0
    body: list[str] = []
    declared = any(e.declared for _, g in groups for e in g.edges)
    leg = legend(uid=f"{uid}-legend", statuses=statuses, kinds=kinds, declared=declared)
    body.append(
        f'<text x="0" y="16" font-size="16" font-weight="700" fill="currentColor">'
        f"{esc(title)}</text>"
    )
    body.append(f'<g transform="translate(0,28)">{leg}</g>')
    y = 28 + 48
    for i, (heading, data) in enumerate(groups):
        placed = layout(data)
        svg = render(data, uid=f"{uid}-{i}", href=href, title=heading, placed=placed)
        body.append(
            f'<text x="0" y="{y + 14:.0f}" font-size="14" font-weight="700" '
            f'fill="currentColor">{esc(heading)}</text>'
        )
        body.append(f'<g transform="translate(0,{y + 22:.0f})">{svg}</g>')
        y += 22 + placed.height + 2 * MARGIN + 24
        width = max(width, placed.width + 2 * MARGIN)
        pieces.append((heading, svg, placed.width, placed.height))
    width = max(width, 400.0)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 16:.0f}" '
        f'height="{y + 16:.0f}" viewBox="-8 -8 {width + 16:.0f} {y + 16:.0f}" '
        f'font-family="{esc(FONT)}" color="#222" style="background:#fff">'
        + "".join(body)
        + "</svg>\n"
    )
