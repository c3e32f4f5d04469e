"""The relation graph of a log: succession, cycles, current successors. Pure.

Nodes are record ids. Every edge is stored once in its forward direction
(``A supersedes B`` whether A said it or B said ``superseded by A``), with the
record that declared it, so one-sided statements stay visible.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import networkx as nx

#: Forward kind for each written kind; the flag says the edge was written backwards.
FORWARD: dict[str, tuple[str, bool]] = {
    "supersedes": ("supersedes", False),
    "superseded-by": ("supersedes", True),
    "amends": ("amends", False),
    "amended-by": ("amends", True),
    "extends": ("extends", False),
    "extended-by": ("extends", True),
    "depends-on": ("depends-on", False),
    "depended-on-by": ("depends-on", True),
    "relates-to": ("relates-to", False),
    "mentions": ("mentions", False),
}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    kind: str
    declared_by: str
    origin: str
    unit: str | None = None

    @property
    def authoritative(self) -> bool:
        return self.kind != "mentions" and self.origin not in ("link", "prose")


@dataclass(frozen=True)
class Succession:
    """The answer to "what replaced X?" following metadata only."""

    current: str | None
    state: str  # none | current | ambiguous | not-accepted | cycle
    chain: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()


class RelationGraph:
    def __init__(self, statuses: dict[str, str]) -> None:
        self.statuses = statuses
        self.g: nx.MultiDiGraph = nx.MultiDiGraph()
        self.g.add_nodes_from(sorted(statuses))
        self._supersede: nx.DiGraph = nx.DiGraph()
        self._supersede.add_nodes_from(sorted(statuses))
        self._edges: list[Edge] = []
        self._sorted = True

    def add(
        self,
        declared_by: str,
        kind: str,
        target: str,
        origin: str,
        unit: str | None = None,
    ) -> Edge:
        fwd, backwards = FORWARD[kind]
        source, dest = (target, declared_by) if backwards else (declared_by, target)
        edge = Edge(source, dest, fwd, declared_by, origin, unit)
        key = (fwd, declared_by, unit)
        if self.g.has_edge(source, dest, key=key):
            existing: Edge = self.g.edges[source, dest, key]["edge"]
            return existing
        self.g.add_edge(source, dest, key=key, edge=edge)
        self._edges.append(edge)
        self._sorted = False
        if fwd == "supersedes" and edge.authoritative:
            self._supersede.add_edge(source, dest)
        return edge

    def edges(self, kind: str | None = None) -> Iterator[Edge]:
        if not self._sorted:
            self._edges.sort(
                key=lambda e: (e.source, e.target, e.kind, e.declared_by, e.unit or "")
            )
            self._sorted = True
        for edge in self._edges:
            if kind is None or edge.kind == kind:
                yield edge

    def supersession(self) -> nx.DiGraph:
        """new -> old edges of authoritative supersession."""
        return self._supersede

    def successors_of(self, rid: str) -> list[str]:
        """Records that directly supersede ``rid``."""
        if rid not in self._supersede:
            return []
        return sorted(self._supersede.predecessors(rid))

    def predecessors_of(self, rid: str) -> list[str]:
        """Records that ``rid`` directly supersedes."""
        if rid not in self._supersede:
            return []
        return sorted(self._supersede.successors(rid))

    def cycles(self) -> list[list[str]]:
        found = [sorted(c) for c in nx.simple_cycles(self._supersede) if len(c) > 1]
        return sorted({tuple(c): c for c in found}.values())

    def current_successor(self, rid: str) -> Succession:
        """Follow ``superseded by`` to the record now in effect, never guessing."""
        if not self.successors_of(rid):
            return Succession(None, "none")
        chain: list[str] = []
        seen = {rid}
        node = rid
        while True:
            succ = self.successors_of(node)
            if not succ:
                break
            fresh = [s for s in succ if s not in seen]
            if not fresh:
                return Succession(None, "cycle", tuple(chain), tuple(succ))
            # a superseded successor may itself lead on to an accepted one
            onward = [s for s in fresh if self.statuses.get(s) in ("accepted", "superseded")]
            if not onward:
                break  # only proposed, draft or rejected successors
            if len(onward) > 1:
                return Succession(None, "ambiguous", tuple(chain), tuple(onward))
            node = onward[0]
            seen.add(node)
            chain.append(node)
        if node != rid and self.statuses.get(node) == "accepted":
            return Succession(node, "current", tuple(chain))
        return Succession(None, "not-accepted", tuple(chain), tuple(self.successors_of(node)))

    def neighbourhood(self, rid: str, hops: int) -> set[str]:
        """Ids within ``hops`` edges of ``rid`` in either direction (mentions left out)."""
        if rid not in self.g:
            return set()
        und = nx.Graph()
        und.add_nodes_from(self.g.nodes)
        und.add_edges_from((e.source, e.target) for e in self.edges() if e.kind != "mentions")
        lengths = nx.single_source_shortest_path_length(und, rid, cutoff=hops)
        return set(lengths)

    @staticmethod
    def unique(values: Iterable[str]) -> list[str]:
        return sorted(set(values))
