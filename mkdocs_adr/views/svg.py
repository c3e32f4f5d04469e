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
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..safetext import xml_text
from .graphdata import (
    DECLARED_LABEL,
    EDGE_KINDS,
    FORWARD_LABEL,
    PROPOSED_LABEL,
    DrawnEdge,
    GraphData,
    Node,
    components,
)
from .hrefs import RecordHref
from .i18n import ENGLISH, Messages
from .palette import STATUS_FILL

NODE_W = 172
NODE_H = 62
GAP_X = 40
GAP_Y = 14
DUMMY_H = 8
COMP_GAP = 32
MARGIN = 8
#: Between layers of a component drawn downwards (room for the bends of its edges).
LAYER_GAP_DOWN = 36
#: A title wraps at about this many characters per line, on at most TITLE_LINES lines.
TITLE_CHARS = 26
TITLE_LINES = 3
#: The width drawings are packed to: about Material's content column at desktop width;
#: a wider drawing scales down to the column, a narrower one keeps its size (ADR-0039).
COLUMN = 680
#: The width of a phone's column (390 px screens): the graph page adds a drawing packed
#: to it, shown instead below :data:`.palette.NARROW_SCREEN` px (assets.GRAPH_CSS).
NARROW = 360
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

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
#: The dash of a supersession by a record not in effect (:attr:`DrawnEdge.proposed`).
PROPOSED_DASH = "7 3 2 3"


# A page whose text is ASCII stays an ASCII string through the theme and the page's
# UTF-8 encoding, CPython's fast path: one ``…`` or ``→`` of ours made each page's
# output string twice as wide and its encoding a hundred times slower. So the markup we
# add writes its own punctuation as character references (:func:`esc` here, the pager
# and banners in :mod:`mkdocs_adr.views.page`).
def esc(text: str) -> str:
    """Text for XML: controls and what XML 1.0 forbids dropped, bidi overrides shown;
    the drawing's own ``…`` and ``·`` as character references."""
    out = html.escape(xml_text(text), quote=True)
    return out if out.isascii() else out.replace("…", "&#8230;").replace("·", "&#183;")


def short(text: str, limit: int = TITLE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ------------------------------------------------------------------------- layout


@dataclass
class Placed:
    """A laid-out drawing: node boxes (top-left corners) and edge polylines; an edge's
    ``vertical`` flag says its bends run top to bottom (a component laid out downwards)."""

    width: float = 0.0
    height: float = 0.0
    nodes: dict[str, tuple[float, float]] = field(default_factory=dict)
    edges: list[tuple[DrawnEdge, list[tuple[float, float]], bool]] = field(default_factory=list)
    #: Edge crossings of the drawing: with the layers in id order, and as drawn.
    crossings_naive: int = 0
    crossings: int = 0

    def shifted(self, dx: float, dy: float) -> Placed:
        return Placed(
            self.width,
            self.height,
            {n: (x + dx, y + dy) for n, (x, y) in self.nodes.items()},
            [(e, [(x + dx, y + dy) for x, y in pts], v) for e, pts, v in self.edges],
            self.crossings_naive,
            self.crossings,
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


def _layered(nodes: list[str], edges: list[DrawnEdge], extent: float = NODE_H) -> _Layered:
    """Layers, with a chain of dummy nodes for each edge that spans more than one;
    ``extent`` is a node's size along its layer (its height, or its width downwards)."""
    layer_of: dict[str, int] = dict(_layers(nodes, edges))
    heights: dict[str, float] = {n: extent for n in nodes}
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


def _pair_crossings(left: list[str], right: list[str], right_of: dict[str, list[str]]) -> int:
    """Crossings of the links between two adjacent layers in the given orders: the
    inversions of the links' right ends, taken in the order of their left ends."""
    at = {n: i for i, n in enumerate(right)}
    ends = [m for n in left for m in sorted(at[r] for r in right_of.get(n, ()) if r in at)]
    # an inversion count by merge sort: O(E log E) for the widest layers of a big log
    return _inversions(ends)[1]


def _inversions(seq: list[int]) -> tuple[list[int], int]:
    if len(seq) < 2:
        return seq, 0
    mid = len(seq) // 2
    a, x = _inversions(seq[:mid])
    b, y = _inversions(seq[mid:])
    out: list[int] = []
    count = x + y
    i = j = 0
    while i < len(a) and j < len(b):
        if b[j] < a[i]:
            out.append(b[j])
            count += len(a) - i
            j += 1
        else:
            out.append(a[i])
            i += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return out, count


def crossings(rows: list[list[str]], right_of: dict[str, list[str]]) -> int:
    """Edge crossings of a layered drawing with its layers in the order of ``rows``."""
    return sum(_pair_crossings(a, b, right_of) for a, b in itertools.pairwise(rows))


#: Ordering passes: each sweeps left to right and back once.
SWEEPS = 6


def _order_rows(g: _Layered) -> tuple[int, int]:
    """Order each layer to reduce edge crossings (sorts ``g.rows``); the crossings with
    the layers in id order, and after.

    The layer-by-layer sweep of Sugiyama-style drawings (Gansner et al., "A technique for
    drawing directed graphs", 1993): each layer sorted by the median, then the
    barycentre, of its neighbours' positions in the layer before, then adjacent pairs
    swapped while that removes crossings; the best order seen is kept, so a sweep can
    never leave more crossings than the id order had (ADR-0039)."""
    rows = g.rows
    naive = best = crossings(rows, g.right_of)
    if best == 0:
        return naive, best
    best_rows = [list(r) for r in rows]
    pos = {n: float(i) for row in rows for i, n in enumerate(row)}
    for sweep in range(2 * SWEEPS):
        forward = sweep % 2 == 0
        seq = range(1, len(rows)) if forward else range(len(rows) - 2, -1, -1)
        nb = g.left_of if forward else g.right_of
        use_median = sweep % 4 < 2
        for li in seq:
            row = rows[li]

            def key(n: str, nb: dict[str, list[str]] = nb, use_median: bool = use_median) -> float:
                ps = sorted(pos[m] for m in nb.get(n, ()))
                if not ps:
                    return pos[n]
                if use_median:
                    mid = len(ps) // 2
                    return ps[mid] if len(ps) % 2 else (ps[mid - 1] + ps[mid]) / 2
                return sum(ps) / len(ps)

            row.sort(key=lambda n: (key(n), pos[n]))
            for i, n in enumerate(row):
                pos[n] = float(i)
        _transpose(rows, g, pos)
        found = crossings(rows, g.right_of)
        if found < best:
            best, best_rows = found, [list(r) for r in rows]
            if best == 0:
                break
    g.rows[:] = best_rows
    return naive, best


def _transpose(rows: list[list[str]], g: _Layered, pos: dict[str, float]) -> None:
    """Swap neighbours within a layer while the swap removes crossings with the layers
    on both sides (bounded: a few passes per layer)."""
    for row in rows:
        if len(row) < 2 or len(row) > 200:
            continue
        for _ in range(4):
            improved = False
            for i in range(len(row) - 1):
                a, b = row[i], row[i + 1]
                if _local(a, b, g, pos) > _local(b, a, g, pos):
                    row[i], row[i + 1] = b, a
                    pos[a], pos[b] = pos[b], pos[a]
                    improved = True
            if not improved:
                break


def _local(a: str, b: str, g: _Layered, pos: dict[str, float]) -> int:
    """Crossings between the links of ``a`` and of ``b`` with ``a`` placed above ``b``."""
    count = 0
    for nb in (g.left_of, g.right_of):
        pa, pb = nb.get(a, ()), nb.get(b, ())
        for x in pa:
            for y in pb:
                if pos[x] > pos[y]:
                    count += 1
    return count


def _vertical(g: _Layered, gap: float = GAP_Y) -> dict[str, float]:
    """Positions along each layer: stack, then pull towards neighbours without overlapping."""
    heights, n_layers = g.heights, len(g.rows)
    y: dict[str, float] = {}
    for row in g.rows:
        top = 0.0
        for n in row:
            y[n] = top
            top += heights[n] + gap

    half = {n: heights[n] / 2 for row in g.rows for n in row}
    # each node's neighbours on both sides, gathered once for the six sweeps
    linked = {n: g.left_of.get(n, []) + g.right_of.get(n, []) for row in g.rows for n in row}
    for it in range(6):
        order = range(n_layers) if it % 2 == 0 else range(n_layers - 1, -1, -1)
        for li in order:
            row = g.rows[li]
            if not row:
                continue
            want = []
            for n in row:
                ns = linked[n]
                c = sum(y[m] + half[m] for m in ns) / len(ns) if ns else y[n] + half[n]
                want.append(c - half[n])
            for n, p in zip(row, _settle(row, want, heights, gap), strict=True):
                y[n] = p
    return y


def _settle(
    row: list[str], want: list[float], heights: dict[str, float], gap: float = GAP_Y
) -> list[float]:
    """Tops for one row as near ``want`` as no overlap allows, without drifting down."""
    placed: list[float] = []
    for i in range(len(row)):
        lo = placed[-1] + heights[row[i - 1]] + gap if i else -1e9
        placed.append(max(want[i], lo))
    # spread the displacement evenly so a row does not drift downwards
    shift = sum(w - p for w, p in zip(want, placed, strict=True)) / len(row)
    if shift < 0:
        placed = [p + shift for p in placed]
        for i in range(1, len(placed)):
            lo = placed[i - 1] + heights[row[i - 1]] + gap
            placed[i] = max(placed[i], lo)
    return placed


#: Laid-out components by (nodes, edges, width): the same component is drawn on the graph
#: page and in its records' local graphs, and again on each rebuild under serve, where an
#: edit seldom changes its structure. Callers never change a :class:`Placed` they get.
_LAID_OUT: dict[tuple[tuple[str, ...], tuple[DrawnEdge, ...], float | None], Placed] = {}
_LAID_OUT_MAX = 4096


def layout_component(
    nodes: list[str], edges: list[DrawnEdge], *, max_width: float | None = None
) -> Placed:
    """Lay out one connected component, older records on the left; when that is wider
    than ``max_width`` and a drawing downwards (older records on top) is narrower, that."""
    key = (tuple(nodes), tuple(edges), max_width)
    found = _LAID_OUT.get(key)
    if found is None:
        if len(_LAID_OUT) >= _LAID_OUT_MAX:
            _LAID_OUT.clear()
        found = _LAID_OUT[key] = _layout_component(nodes, edges, max_width=max_width)
    return found


def _layout_component(
    nodes: list[str], edges: list[DrawnEdge], *, max_width: float | None
) -> Placed:
    across = _component(nodes, edges, downwards=False)
    if max_width is None or across.width <= max_width:
        return across
    down = _component(nodes, edges, downwards=True)
    return down if down.width < across.width else across


def _component(nodes: list[str], edges: list[DrawnEdge], *, downwards: bool) -> Placed:
    g = _layered(nodes, edges, extent=NODE_W if downwards else NODE_H)
    naive, after = _order_rows(g)
    gap = GAP_X / 2 if downwards else GAP_Y
    along = _vertical(g, gap)
    heights, layer_of = g.heights, g.layer_of
    low = min(along.values(), default=0.0)
    step = NODE_H + LAYER_GAP_DOWN if downwards else NODE_W + GAP_X
    # (x, y) of each node's top-left corner
    at: dict[str, tuple[float, float]] = {}
    for n in layer_of:
        a, b = along[n] - low, float(layer_of[n] * step)
        at[n] = (a, b) if downwards else (b, a)
    out = Placed(crossings_naive=naive, crossings=after)
    for n in nodes:
        out.nodes[n] = at[n]
    for e, chain in g.chains:
        pts: list[tuple[float, float]] = []
        for k, n in enumerate(chain):
            x, y = at[n]
            real = n in out.nodes
            if downwards:
                cx = x + heights[n] / 2
                if not real:
                    pts.append((cx, y + NODE_H / 2))
                else:
                    pts.append((cx, y + NODE_H if k == 0 else y))
            else:
                cy = y + heights[n] / 2
                if not real:
                    pts.append((x + NODE_W / 2, cy))
                else:
                    pts.append((x + NODE_W if k == 0 else x, cy))
        if chain[0] != e.source:
            pts.reverse()  # draw from the source (newer) to the target (older)
        out.edges.append((e, pts, downwards))
    extent = max((along[n] - low + heights[n] for n in along), default=0.0)
    length = len(g.rows) * step - (LAYER_GAP_DOWN if downwards else GAP_X)
    out.width, out.height = (extent, length) if downwards else (length, extent)
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
        out.crossings_naive += part.crossings_naive
        out.crossings += part.crossings
        out.width = max(out.width, x + part.width)
        row_h = max(row_h, part.height)
        out.height = max(out.height, y + part.height)
        x += part.width + COMP_GAP
    return out


#: Whole drawings laid out, by (node ids, edges, width, isolated): what :func:`layout`
#: reads of ``data``. The graph page is laid out again on every rebuild under serve,
#: where a status edit changes how its nodes look, not where they go (ADR-0062).
#: Callers never change a :class:`Placed` they get.
_LAYOUTS: dict[tuple[tuple[str, ...], tuple[DrawnEdge, ...], float, bool], Placed] = {}
_LAYOUTS_MAX = 256


def layout(data: GraphData, *, max_width: float = COLUMN, isolated: bool = True) -> Placed:
    """Every component of ``data``; nodes without edges in a grid below when ``isolated``."""
    key = (tuple(data.nodes), tuple(data.edges), max_width, isolated)
    found = _LAYOUTS.get(key)
    if found is None:
        if len(_LAYOUTS) >= _LAYOUTS_MAX:
            _LAYOUTS.clear()
        found = _LAYOUTS[key] = _layout(data, max_width=max_width, isolated=isolated)
    return found


def _layout(data: GraphData, *, max_width: float, isolated: bool) -> Placed:
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
        parts.append(layout_component(comp, edges, max_width=max_width))
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


def _path(pts: list[tuple[float, float]], vertical: bool = False) -> str:
    """A smooth curve through ``pts``; its bends run along the layers' axis."""
    (x0, y0), rest = pts[0], pts[1:]
    out = [f"M{x0:.1f},{y0:.1f}"]
    px, py = x0, y0
    for x, y in rest:
        if vertical:
            dy = (y - py) / 2
            out.append(f"C{px:.1f},{py + dy:.1f} {x:.1f},{y - dy:.1f} {x:.1f},{y:.1f}")
        else:
            dx = (x - px) / 2
            out.append(f"C{px + dx:.1f},{py:.1f} {x - dx:.1f},{y:.1f} {x:.1f},{y:.1f}")
        px, py = x, y
    return " ".join(out)


def wrap(text: str, width: int = TITLE_CHARS, lines: int = TITLE_LINES) -> list[str]:
    """``text`` on at most ``lines`` lines of about ``width`` characters, broken at
    spaces (a longer word is cut); an ellipsis ends the last line when text is left."""
    words = " ".join(text.split()).split(" ") if text.strip() else []
    out: list[str] = []
    line = ""
    i = 0
    while i < len(words) and len(out) < lines:
        word = words[i]
        if len(word) > width:
            head, words[i] = word[:width], word[width:]
            if line:
                out.append(line)
                line = ""
                continue
            out.append(head)
            continue
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            out.append(line)
            line = word
        i += 1
    if line and len(out) < lines:
        out.append(line)
        line = ""
    if i < len(words) or line:
        last = out[-1] if out else ""
        out[-1:] = [last[: width - 1].rstrip() + "…"]
    return out


def _marker_id(uid: str, kind: str, proposed: bool = False) -> str:
    return f"{uid}-arrow-{kind}" + ("-proposed" if proposed else "")


def _markers(uid: str, kinds: Iterable[str], proposed: Iterable[str] = ()) -> str:
    """Arrow heads per kind (filled), and per kind of proposed supersession (open)."""
    out = []
    for kind in kinds:
        color, _dash, _w = EDGE_STYLE[kind]
        if kind == "relates-to":
            continue
        out.append(
            f'<marker id="{_marker_id(uid, kind)}" viewBox="0 0 10 10" refX="9" refY="5" '
            f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{color}"/></marker>'
        )
    for kind in proposed:
        color, _dash, _w = EDGE_STYLE[kind]
        out.append(
            f'<marker id="{_marker_id(uid, kind, True)}" viewBox="0 0 10 10" refX="9" '
            f'refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">'
            f'<path d="M1,1 L9,5 L1,9" fill="none" stroke="{color}" stroke-width="1.6"/>'
            "</marker>"
        )
    return "<defs>" + "".join(out) + "</defs>" if out else ""


def edge_style(e: DrawnEdge, uid: str) -> tuple[str, str]:
    """The class list and presentation attributes of one edge's path.

    A supersession whose source has not taken effect (proposed) is drawn dash-dotted,
    fainter and with an open arrow head; one only declared in prose is dotted; each
    kind keeps its colour, so a proposed partial supersession is a teal dash-dot."""
    color, dash, width = EDGE_STYLE[e.kind]
    opacity = ""
    if e.proposed:
        dash = PROPOSED_DASH
        opacity = ' stroke-opacity="0.75"'
    if e.declared:
        dash = DECLARED_DASH
    dash_attr = f' stroke-dasharray="{dash}"' if dash and dash != "2 0" else ""
    marker = (
        ""
        if e.kind == "relates-to"
        else f' marker-end="url(#{_marker_id(uid, e.kind, e.proposed)})"'
    )
    css = (
        f"adr-edge adr-edge--{e.kind}"
        + (" adr-edge--proposed" if e.proposed else "")
        + (" adr-edge--declared" if e.declared else "")
    )
    return css, f'stroke="{color}" stroke-width="{width}"{dash_attr}{opacity}{marker}'


@dataclass(frozen=True)
class NodeParts:
    """One node of a :class:`Prepared` drawing: its attributes and body, the body once
    as the focused node (the page's own record) and once as any other."""

    id: str
    attrs: str
    label: str  # the aria-label, escaped
    body: str
    focus_body: str


def _node_parts(
    node: Node, x: float, y: float, *, external: bool, clip: str, words: Messages = ENGLISH
) -> NodeParts:
    fill = STATUS_FILL.get(node.status, STATUS_FILL["unknown"])
    archived = words.t("tag.archived")
    label = short(node.id, 23) + (f" · {archived}" if node.archived else "")
    shown = words.status(node.status)
    if node.archived:
        shown += words.t("list.sep") + archived
    full = f"{node.id} {node.title} ({shown})"
    stroke = ""
    if node.archived or external:
        stroke = ' stroke="currentColor" stroke-width="1.5" stroke-dasharray="4 3"'
    title_lines = "".join(
        f'<text x="{x + 10:.1f}" y="{y + 31 + 13 * k:.1f}" font-size="11">{esc(line)}</text>'
        for k, line in enumerate(wrap(node.title))
    )
    head = (
        f"<title>{esc(full)}</title>"
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W}" height="{NODE_H}" rx="7" '
        f'fill="{fill}"'
    )
    tail = (
        "/>"
        f'<clipPath id="{clip}"><rect x="{x + 4:.1f}" y="{y:.1f}" width="{NODE_W - 8}" '
        f'height="{NODE_H}"/></clipPath>'
        f'<g clip-path="url(#{clip})" fill="#fff">'
        f'<text x="{x + 10:.1f}" y="{y + 16:.1f}" font-size="12" font-weight="700">'
        f"{esc(label)}</text>{title_lines}</g>"
    )
    attrs = (
        f' class="adr-node adr-node--{esc(node.status)}" data-adr-id="{esc(node.id)}"'
        f' data-adr-status="{esc(node.status)}"'
    )
    return NodeParts(
        node.id,
        attrs,
        esc(full),
        head + stroke + tail,
        head + ' stroke="currentColor" stroke-width="3"' + tail,
    )


def _node_html(part: NodeParts, href: str | None, *, focus: bool) -> str:
    body = part.focus_body if focus else part.body
    if href is not None:
        return f'<a href="{esc(href)}"{part.attrs} aria-label="{part.label}">{body}</a>'
    return f"<g{part.attrs}>{body}</g>"


@dataclass(frozen=True)
class Prepared:
    """A drawing rendered once (:func:`prepare`) and filled per page (:func:`fill`):
    only its title, its links and which node is the page's own differ between the
    pages that show it (the records of one neighbourhood share a local graph)."""

    head: str  # up to the title's text
    body: str  # from the title's end to the nodes
    nodes: tuple[NodeParts, ...]


def prepare(
    data: GraphData,
    *,
    uid: str,
    root: str | None = None,
    placed: Placed | None = None,
    max_width: float = COLUMN,
    isolated: bool = True,
    css_class: str = "adr-graph-svg",
    fixed: bool = False,
    words: Messages = ENGLISH,
) -> Prepared:
    """Everything of :func:`render`'s drawing that does not depend on the page."""
    placed = placed or layout(data, max_width=max_width, isolated=isolated)
    w = placed.width + 2 * MARGIN
    h = placed.height + 2 * MARGIN
    kinds = [k for k in EDGE_KINDS if any(e.kind == k for e, _, _ in placed.edges)]
    proposed = [
        k for k in EDGE_KINDS if any(e.kind == k and e.proposed for e, _, _ in placed.edges)
    ]
    size = (
        f'width="{w:.0f}" height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}"'
        if fixed
        else f'width="100%" viewBox="0 0 {w:.0f} {h:.0f}" style="max-width: {w:.0f}px"'
    )
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" {size} role="img" '
        f'aria-labelledby="{uid}-title" font-family="{esc(FONT)}" '
        f'data-adr-crossings="{placed.crossings}">'
        f'<title id="{uid}-title">'
    )
    parts = [
        "</title>",
        _markers(uid, kinds, proposed),
        f'<g transform="translate({MARGIN},{MARGIN})">',
        '<g class="adr-edges" fill="none">',
    ]
    table = words.table
    for e, pts, vertical in placed.edges:
        key = (e, tuple(pts), vertical, uid, words.lang)
        found = _EDGE_MARKUP.get(key)
        if found is None or found[0] is not table:
            found = _EDGE_MARKUP[key] = (table, _edge_markup(e, pts, vertical, uid, words))
        parts.append(found[1])
    parts.append("</g>")
    parts.append('<g class="adr-nodes">')
    nodes = []
    for i, (nid, (x, y)) in enumerate(placed.nodes.items()):
        node = data.nodes[nid]
        external = root is not None and node.root != root
        clip = f"{uid}-c{i}"
        spot = (node, x, y, external, clip, words.lang)
        known = _NODE_MARKUP.get(spot)
        if known is None or known[0] is not table:
            made = _node_parts(node, x, y, external=external, clip=clip, words=words)
            known = _NODE_MARKUP[spot] = (table, made)
        nodes.append(known[1])
    if len(_NODE_MARKUP) >= _MARKUP_MAX or len(_EDGE_MARKUP) >= _MARKUP_MAX:
        _NODE_MARKUP.clear()
        _EDGE_MARKUP.clear()
    return Prepared(head, "".join(parts), tuple(nodes))


#: The markup of each node and edge by everything it is drawn from (the node or edge,
#: its place, its clip id or drawing, the language; the catalogue it was worded from is
#: kept beside it): the graph page and the local graphs are drawn again on every rebuild
#: under serve, where an edit changes few nodes and moves none (ADR-0050).
_NODE_MARKUP: dict[tuple[object, ...], tuple[object, NodeParts]] = {}
_EDGE_MARKUP: dict[tuple[object, ...], tuple[object, str]] = {}
_MARKUP_MAX = 1 << 15


def _edge_markup(
    e: DrawnEdge, pts: list[tuple[float, float]], vertical: bool, uid: str, words: Messages
) -> str:
    css, attrs = edge_style(e, uid)
    what = words.t(f"edge.{e.kind}", new=e.source, old=e.target)
    if e.unit:
        what += words.t("edge.unit", unit=e.unit)
    if e.proposed:
        what += words.t("edge.proposed", new=e.source, old=e.target)
    if e.declared:
        what += words.t("edge.declared")
    return (
        f'<path class="{css}" d="{_path(pts, vertical)}" {attrs}><title>{esc(what)}</title></path>'
    )


def fill(prepared: Prepared, *, title: str, href: RecordHref, focus: str | None = None) -> str:
    """The drawing of ``prepared`` on one page: its title, links and focused node."""
    nodes = "".join(_node_html(n, href(n.id), focus=n.id == focus) for n in prepared.nodes)
    return f"{prepared.head}{esc(title)}{prepared.body}{nodes}</g></g></svg>"


def render(
    data: GraphData,
    *,
    uid: str,
    href: RecordHref,
    title: str,
    focus: str | None = None,
    root: str | None = None,
    placed: Placed | None = None,
    max_width: float = COLUMN,
    isolated: bool = True,
    css_class: str = "adr-graph-svg",
    fixed: bool = False,
    words: Messages = ENGLISH,
) -> str:
    """One ``<svg>`` element drawing ``data``. ``root`` marks nodes of other roots;
    ``css_class`` the drawing's classes (the graph page's narrow variant has its own).

    The drawing scales to its container (``width="100%"`` over its ``viewBox``) and
    never grows past its own size (``max-width``), so it fits any column without
    clipping or a sideways scroll bar (ADR-0039). ``fixed``: its own size in pixels
    instead, for a drawing nested in another SVG (:func:`document`), where 100% would be
    the outer drawing's width."""
    prepared = prepare(
        data,
        uid=uid,
        root=root,
        placed=placed,
        max_width=max_width,
        isolated=isolated,
        css_class=css_class,
        fixed=fixed,
        words=words,
    )
    return fill(prepared, title=title, href=href, focus=focus)


def _legend_items(
    uid: str,
    statuses: Sequence[str],
    kinds: Sequence[str],
    declared: bool,
    proposed: Sequence[str],
    words: Messages = ENGLISH,
) -> list[tuple[str, str, float]]:
    """The legend's keys: (swatch markup at the origin, label, swatch width), in the
    language of ``words``."""
    items: list[tuple[str, str, float]] = []

    def relation(kind: str) -> str:
        label = FORWARD_LABEL[kind]
        return label if words is ENGLISH else words.t("relation." + label.replace(" ", "-"))

    for status in statuses:
        fill = STATUS_FILL.get(status, STATUS_FILL["unknown"])
        items.append(
            (
                f'<rect x="0" y="3" width="14" height="14" rx="3" fill="{fill}"/>',
                words.status(status),
                19,
            )
        )
    for kind in kinds:
        css, attrs = edge_style(DrawnEdge("", "", kind), uid)
        items.append(
            (f'<path class="{css}" d="M0,10 h30" fill="none" {attrs}/>', relation(kind), 38)
        )
    for kind in proposed:
        css, attrs = edge_style(DrawnEdge("", "", kind, proposed=True), uid)
        items.append(
            (
                f'<path class="{css}" d="M0,10 h30" fill="none" {attrs}/>',
                f"{relation(kind)} ({words.status(PROPOSED_LABEL)})",
                38,
            )
        )
    if declared:
        items.append(
            (
                f'<path class="adr-edge adr-edge--declared" d="M0,10 h30" '
                f'stroke="currentColor" stroke-width="2" fill="none" '
                f'stroke-dasharray="{DECLARED_DASH}"/>',
                DECLARED_LABEL if words is ENGLISH else words.t("relation.declared"),
                38,
            )
        )
    return items


def label_width(label: str) -> float:
    """The width of a 12 px legend label: about 7.5 px a character, 12.5 for the wide
    characters of Chinese and Japanese (a translated legend, ADR-0041)."""
    return sum(12.5 if unicodedata.east_asian_width(ch) in "WF" else 7.5 for ch in label)


def _legend_defs(uid: str, kinds: Sequence[str], proposed: Sequence[str]) -> str:
    return _markers(uid, kinds, proposed)


LEGEND_TITLE = "Legend: node colour is the status, line style the relation"


def legend(
    *,
    uid: str,
    statuses: Sequence[str],
    kinds: Sequence[str],
    declared: bool = False,
    proposed: Sequence[str] = (),
) -> str:
    """A small SVG key (the standalone export): node colours by status, line styles by
    relation kind, the kinds of proposed supersession in ``proposed``, and the dotted line of a
    supersession only declared in prose when ``declared``."""
    items = _legend_items(uid, statuses, kinds, declared, proposed)
    parts: list[str] = []
    x = y = sw = 0.0
    for i, (swatch, label, width) in enumerate(items):
        if i and (x > 560 or (i == len(statuses) and statuses)):
            x, y = 0.0, y + 22
        parts.append(
            f'<g transform="translate({x:.0f},{y:.0f})">{swatch}'
            f'<text x="{width:.0f}" y="14" font-size="12" fill="currentColor">'
            f"{esc(label)}</text></g>"
        )
        x += width + label_width(label) + 16
        sw = max(sw, x)
    height = y + 22
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="adr-graph-legend" '
        f'width="{sw:.0f}" height="{height:.0f}" viewBox="0 0 {sw:.0f} {height:.0f}" '
        f'role="img" aria-labelledby="{uid}-title" font-family="{esc(FONT)}">'
        f'<title id="{uid}-title">{LEGEND_TITLE}</title>'
        f"{_legend_defs(uid, kinds, proposed)}" + "".join(parts) + "</svg>"
    )


def legend_html(
    *,
    uid: str,
    statuses: Sequence[str],
    kinds: Sequence[str],
    declared: bool = False,
    proposed: Sequence[str] = (),
    words: Messages = ENGLISH,
) -> str:
    """The graph page's key as a wrapping list, one small drawing per key, so it reflows
    to any column width (390 px phones included) instead of shrinking."""
    title = LEGEND_TITLE if words is ENGLISH else esc(words.t("graph.legend"))
    out = [f'<ul class="adr-graph-legend" aria-label="{title}">']
    for i, (swatch, label, width) in enumerate(
        _legend_items(uid, statuses, kinds, declared, proposed, words)
    ):
        item_uid = f"{uid}-{i}"
        # each key has its own arrow heads: ids must be unique on the page
        swatch = swatch.replace(f"url(#{uid}-", f"url(#{item_uid}-")
        w = width + label_width(label) + 6
        out.append(
            f'<li><svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="20" '
            f'viewBox="0 0 {w:.0f} 20" aria-hidden="true" font-family="{esc(FONT)}">'
            f"{_legend_defs(item_uid, kinds, proposed) if 'marker-end' in swatch else ''}"
            f'{swatch}<text x="{width:.0f}" y="14" font-size="12" fill="currentColor">'
            f"{esc(label)}</text></svg></li>"
        )
    out.append("</ul>")
    return "".join(out)


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
    proposed = [
        k for k in EDGE_KINDS if any(e.proposed and e.kind == k for _, g in groups for e in g.edges)
    ]
    leg = legend(
        uid=f"{uid}-legend", statuses=statuses, kinds=kinds, declared=declared, proposed=proposed
    )
    body.append(
        f'<text x="0" y="16" font-size="16" font-weight="700" fill="currentColor">'
        f"{esc(title)}</text>"
    )
    body.append(f'<g transform="translate(0,28)">{leg}</g>')
    y = 28 + float(leg.split('height="', 1)[1].split('"', 1)[0]) + 6
    for i, (heading, data) in enumerate(groups):
        placed = layout(data)
        svg = render(data, uid=f"{uid}-{i}", href=href, title=heading, placed=placed, fixed=True)
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
