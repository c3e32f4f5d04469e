"""The succession graph as plain data, shared by the SVG, Mermaid, DOT and JSON views.

Nodes are the records with an unambiguous id; edges are the log's relations in
their forward direction (``A supersedes B`` however it was written), without
``mentions``, one edge per (source, target, kind, unit). Everything is sorted,
so the same log always gives the same graph.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from ..log import Log
from ..model import Record
from .kept import Kept

if TYPE_CHECKING:
    from ..graph import RelationGraph

#: Edge kinds drawn, in legend order.
EDGE_KINDS: tuple[str, ...] = (
    "supersedes",
    "partially-supersedes",
    "amends",
    "extends",
    "depends-on",
    "relates-to",
)

#: How an edge that is only declared in prose (:attr:`DrawnEdge.declared`) reads.
DECLARED_LABEL = "declared in prose"
#: How a supersession by a record that has not taken effect reads (:attr:`DrawnEdge.proposed`).
PROPOSED_LABEL = "proposed"
#: The kinds that retire (part of) a record once their source takes effect.
SUPERSESSION_KINDS = frozenset({"supersedes", "partially-supersedes"})

#: How each kind reads from the other end (``B is superseded by A``).
INVERSE_LABEL: dict[str, str] = {
    "supersedes": "superseded by",
    "partially-supersedes": "partially superseded by",
    "amends": "amended by",
    "extends": "extended by",
    "depends-on": "depended on by",
    "relates-to": "related to",
}
FORWARD_LABEL: dict[str, str] = {
    "supersedes": "supersedes",
    "partially-supersedes": "partially supersedes",
    "amends": "amends",
    "extends": "extends",
    "depends-on": "depends on",
    "relates-to": "relates to",
}


@dataclass(frozen=True)
class Node:
    id: str
    title: str
    status: str
    archived: bool
    domain: str | None
    root: str  # docs_dir-relative root path
    path: str  # project-relative


@dataclass(frozen=True)
class DrawnEdge:
    """An arrow of a drawn graph, in its forward direction (not :class:`mkdocs_adr.graph.Edge`,
    the log's relation edge, which it is made from)."""

    source: str
    target: str
    kind: str
    unit: str | None = None
    #: Only declared in prose, and the other record does not agree: never followed
    #: (:attr:`mkdocs_adr.graph.Edge.one_sided_declaration`); it is drawn apart.
    declared: bool = False
    #: A supersession (whole or partial) whose source has not taken effect (proposed,
    #: draft, rejected): the older record stays in effect (ADR006); drawn apart.
    proposed: bool = False

    @property
    def label(self) -> str:
        """What the arrow says: ``supersedes``, ``amends D2``,
        ``supersedes (declared in prose)``, ``supersedes (proposed)``."""
        unit = f" {self.unit}" if self.unit else ""
        tail = f" ({DECLARED_LABEL})" if self.declared else ""
        if self.proposed:
            tail += f" ({PROPOSED_LABEL})"
        return FORWARD_LABEL[self.kind] + unit + tail


@dataclass
class GraphData:
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[DrawnEdge] = field(default_factory=list)
    #: What the graph's shape (its node ids and roots, its edges' ends and kinds) gives,
    #: made once: shared by each graph :func:`build` draws again with the same shape
    #: (ADR-0065), so only what reads nothing else goes in (:func:`components`,
    #: :func:`root_view`'s ids, :meth:`adjacency`). Not part of what the graph is.
    shape: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    def adjacency(self) -> dict[str, set[str]]:
        """Each node's neighbours either way (the same dictionary for the same shape:
        not to be changed)."""
        found = self.shape.get("adjacency")
        if found is None:
            adj: dict[str, set[str]] = {n: set() for n in self.nodes}
            for e in self.edges:
                adj[e.source].add(e.target)
                adj[e.target].add(e.source)
            found = self.shape["adjacency"] = adj
        return cast(dict[str, set[str]], found)

    def subgraph(self, ids: Iterable[str], edges: Iterable[DrawnEdge] | None = None) -> GraphData:
        """The induced subgraph; ``edges`` narrows the edges to look at (a speed-up)."""
        nodes = self.nodes
        keep = {n for n in ids if n in nodes}
        pool = self.edges if edges is None else edges
        return GraphData(
            nodes={n: nodes[n] for n in sorted(keep)},
            edges=sorted(
                {e for e in pool if e.source in keep and e.target in keep},
                key=lambda e: (e.source, e.target, EDGE_KINDS.index(e.kind), e.unit or ""),
            ),
        )

    def edges_of(self, rid: str) -> list[DrawnEdge]:
        return [e for e in self.edges if rid in (e.source, e.target)]


def node_of(rec: Record) -> Node:
    return Node(
        id=rec.id,
        title=rec.title or rec.id,
        status=rec.status,
        archived=rec.archived,
        domain=rec.domain,
        root=rec.root,
        path=rec.path,
    )


def build(log: Log, kept: Kept | None = None) -> GraphData:
    """The whole log's graph (every root). ``kept``: each record's node (or that it has
    none: its id is claimed twice) of the last build, for a record that is the same
    object and reads nothing that changed since (ADR-0062)."""
    if kept is None:
        nodes = {r.id: node_of(r) for r in log.records if log.get(r.id) is r}
    else:

        def node(rec: Record) -> tuple[Node | None]:
            return (node_of(rec) if log.get(rec.id) is rec else None,)

        nodes = {n[0].id: n[0] for n in kept.each(None, log.records, node) if n[0] is not None}
        ordered = dict(sorted(nodes.items()))
        ends = [(n.id, n.root) for n in ordered.values()]
        last = kept.whole
        if last is not None and last[1] == ends and log.graph.same_relations(last[0]):
            edges = _restated(log, last[0], last[2])
            data = GraphData(nodes=ordered, edges=edges, shape=last[3])
        else:
            data = GraphData(nodes=ordered, edges=_edges(log, nodes))
        kept.whole = (log.graph, ends, data.edges, data.shape)
        return data
    return GraphData(nodes=dict(sorted(nodes.items())), edges=_edges(log, nodes))


def _restated(log: Log, before: RelationGraph, edges: list[DrawnEdge]) -> list[DrawnEdge]:
    """The drawn ``edges`` of a graph with the same relations as ``log``'s and other
    statuses (:meth:`RelationGraph.restated`): only whether a supersession's source took
    effect may differ; ``edges`` itself when none does."""
    graph = log.graph
    changed = {rid for rid, _status in graph.counted.items() ^ before.counted.items()}
    if not any(e.source in changed for e in edges if e.kind in SUPERSESSION_KINDS):
        return edges
    return [
        dataclasses.replace(e, proposed=not graph.took_effect(e.source))
        if e.source in changed and e.kind in SUPERSESSION_KINDS
        else e
        for e in edges
    ]


def _edges(log: Log, nodes: dict[str, Node]) -> list[DrawnEdge]:
    """The drawn edges between ``nodes`` (:func:`build`)."""
    # an edge is drawn as declared only when no record states it as metadata
    declared: dict[tuple[str, str, str, str | None], bool] = {}
    for e in log.graph.edges():
        if e.kind not in EDGE_KINDS or e.source not in nodes or e.target not in nodes:
            continue
        if e.source == e.target:
            continue
        key = (e.source, e.target, e.kind, e.unit)
        declared[key] = declared.get(key, True) and e.one_sided_declaration
    graph = log.graph
    edges = [
        DrawnEdge(
            *key,
            declared=only,
            proposed=key[2] in SUPERSESSION_KINDS and not graph.took_effect(key[0]),
        )
        for key, only in declared.items()
    ]
    edges.sort(key=lambda e: (e.source, e.target, EDGE_KINDS.index(e.kind), e.unit or ""))
    return edges


def components(data: GraphData) -> list[list[str]]:
    """Connected components (ignoring direction), largest first, then by first id (the
    same list for the same shape: not to be changed)."""
    found = data.shape.get("components")
    if found is None:
        found = data.shape["components"] = _components(data)
    return cast(list[list[str]], found)


def _components(data: GraphData) -> list[list[str]]:
    adj = data.adjacency()
    seen: set[str] = set()
    out: list[list[str]] = []
    for start in data.nodes:
        if start in seen:
            continue
        comp = []
        queue = deque([start])
        seen.add(start)
        while queue:
            n = queue.popleft()
            comp.append(n)
            for m in sorted(adj[n]):
                if m not in seen:
                    seen.add(m)
                    queue.append(m)
        out.append(sorted(comp))
    out.sort(key=lambda c: (-len(c), c[0]))
    return out


def neighbourhood(
    data: GraphData,
    rid: str,
    hops: int,
    *,
    limit: int = 30,
    adjacency: dict[str, set[str]] | None = None,
    edges_by_node: dict[str, list[DrawnEdge]] | None = None,
) -> tuple[GraphData, int]:
    """Nodes within ``hops`` of ``rid`` (nearest first, at most ``limit``), and how many
    more were within reach but left out."""
    sub, more, _reach = neighbourhood_reach(
        data, rid, hops, limit=limit, adjacency=adjacency, edges_by_node=edges_by_node
    )
    return sub, more


def neighbourhood_reach(
    data: GraphData,
    rid: str,
    hops: int,
    *,
    limit: int = 30,
    adjacency: dict[str, set[str]] | None = None,
    edges_by_node: dict[str, list[DrawnEdge]] | None = None,
) -> tuple[GraphData, int, list[str]]:
    """:func:`neighbourhood`, and every node the walk reached (those left out too): what
    the drawing was chosen from, which a host that redraws only changed pages watches."""
    if rid not in data.nodes:
        return GraphData(), 0, []
    adj = adjacency if adjacency is not None else data.adjacency()
    dist = {rid: 0}
    order = [rid]
    queue = deque([rid])
    while queue:
        n = queue.popleft()
        if dist[n] >= hops:
            continue
        for m in sorted(adj.get(n, ())):
            if m not in dist:
                dist[m] = dist[n] + 1
                order.append(m)
                queue.append(m)
    kept = order[:limit]
    pool = (
        [e for n in kept for e in edges_by_node.get(n, ())] if edges_by_node is not None else None
    )
    return data.subgraph(kept, pool), max(0, len(order) - len(kept)), order


def root_view(data: GraphData, root: str) -> tuple[GraphData, list[str]]:
    """The graph a root's graph page draws: its records plus the records of other roots
    they are related to; and the root's records without any relation."""
    found = data.shape.get(("root", root))
    if found is None:
        mine = {n for n, node in data.nodes.items() if node.root == root}
        related: set[str] = set()
        for e in data.edges:
            if e.source in mine or e.target in mine:
                related.update((e.source, e.target))
        found = data.shape[("root", root)] = (related, sorted(mine - related), {})
    related, isolated, shape = cast(tuple[set[str], list[str], dict[object, object]], found)
    sub = data.subgraph(related)
    sub.shape = shape  # the same shape gives the same root view's shape
    return sub, isolated


def to_json(data: GraphData) -> dict[str, object]:
    return {
        "schema": "mkdocs-adr/graph",
        "version": 1,
        "nodes": [
            {
                "id": n.id,
                "title": n.title,
                "status": n.status,
                "archived": n.archived,
                "domain": n.domain,
                "root": n.root,
                "path": n.path,
            }
            for n in data.nodes.values()
        ],
        "edges": [
            {"source": e.source, "target": e.target, "kind": e.kind, "unit": e.unit}
            # only an edge declared in prose and not agreed says so (schema version 1)
            | ({"declared": True} if e.declared else {})
            | ({"proposed": True} if e.proposed else {})
            for e in data.edges
        ],
    }
