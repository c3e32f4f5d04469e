"""The relation graph of a log: succession, cycles, current successors. Pure.

Nodes are record ids. Every edge is stored once in its forward direction
(``A supersedes B`` whether A said it or B said ``superseded by A``), with the
record that declared it, so one-sided statements stay visible.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    kind: str
    declared_by: str
    origin: str
    #: The unit of ``target`` the relation is about (``ADR-0005#D2``), or None for
    #: the whole record: a unit-level supersession never retires the whole record.
    unit: str | None = None
    #: The unit of ``source`` that states or makes the relation, if any.
    source_unit: str | None = None

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
    """Edges in plain dictionaries; networkx graphs are built only when asked for.

    A 10,000-record log adds about 12,000 edges, and networkx's multigraph
    bookkeeping cost more than the rest of the analysis together.
    """

    def __init__(self, statuses: dict[str, str]) -> None:
        self.statuses = statuses
        self._by_key: dict[tuple[str, str, tuple[str, str, str | None, str | None]], Edge] = {}
        self._edges: list[Edge] = []
        self._sorted = True
        # authoritative supersession, new -> old, both ways round
        self._older: dict[str, set[str]] = {}
        self._newer: dict[str, set[str]] = {}
        self._g: nx.MultiDiGraph | None = None
        self._supersede: nx.DiGraph | None = None

    def add(
        self,
        declared_by: str,
        kind: str,
        target: str,
        origin: str,
        *,
        from_unit: str | None = None,
        to_unit: str | None = None,
    ) -> Edge:
        """Add a relation as ``declared_by`` (its unit ``from_unit``) wrote it about
        ``target`` (its unit ``to_unit``); stored in the forward direction."""
        fwd, backwards = FORWARD[kind]
        if backwards:
            source, dest, source_unit, unit = target, declared_by, to_unit, from_unit
        else:
            source, dest, source_unit, unit = declared_by, target, from_unit, to_unit
        key = (source, dest, (fwd, declared_by, unit, source_unit))
        existing = self._by_key.get(key)
        if existing is not None:
            return existing
        edge = Edge(source, dest, fwd, declared_by, origin, unit, source_unit)
        self._by_key[key] = edge
        self._edges.append(edge)
        self._sorted = False
        self._g = None
        if fwd == "supersedes" and edge.authoritative and unit is None:
            self._older.setdefault(source, set()).add(dest)
            self._newer.setdefault(dest, set()).add(source)
            self._supersede = None
        return edge

    @property
    def g(self) -> nx.MultiDiGraph:
        """Every edge as a networkx multigraph keyed ``(kind, declared_by, unit)``."""
        import networkx as nx  # ~0.1 s to import: only when a graph is asked for

        if self._g is None:
            g: nx.MultiDiGraph = nx.MultiDiGraph()
            g.add_nodes_from(sorted(self.statuses))
            for (source, dest, key), edge in self._by_key.items():
                g.add_edge(source, dest, key=key, edge=edge)
            self._g = g
        return self._g

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
        import networkx as nx  # ~0.1 s to import: only when a graph is asked for

        if self._supersede is None:
            graph: nx.DiGraph = nx.DiGraph()
            graph.add_nodes_from(sorted(self.statuses))
            graph.add_edges_from((new, old) for new, olds in self._older.items() for old in olds)
            self._supersede = graph
        return self._supersede

    def successors_of(self, rid: str) -> list[str]:
        """Records that directly supersede ``rid``."""
        return sorted(self._newer.get(rid, ()))

    def predecessors_of(self, rid: str) -> list[str]:
        """Records that ``rid`` directly supersedes."""
        return sorted(self._older.get(rid, ()))

    def cycles(self) -> list[list[str]]:
        # Only records with both a newer and an older record can be on a cycle;
        # peel off the others until none is left, then enumerate what remains.
        core = set(self._older) & set(self._newer)
        todo = sorted(core)
        while todo:
            node = todo.pop()
            if node not in core:
                continue
            older, newer = self._older[node], self._newer[node]
            if any(o in core for o in older) and any(n in core for n in newer):
                continue
            core.discard(node)
            todo.extend(n for n in (*older, *newer) if n in core)
        if not core:
            return []
        import networkx as nx  # ~0.1 s to import: only when a cycle may exist

        sub: nx.DiGraph = nx.DiGraph()
        sub.add_edges_from((n, old) for n in core for old in self._older[n] if old in core)
        found = [sorted(c) for c in nx.simple_cycles(sub) if len(c) > 1]
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
        if node != rid and self.statuses.get(node) == "superseded" and self.successors_of(node):
            # marked superseded, but only by proposals: it stays in effect (ADR006)
            return Succession(node, "current", tuple(chain))
        return Succession(None, "not-accepted", tuple(chain), tuple(self.successors_of(node)))

    def neighbourhood(self, rid: str, hops: int) -> set[str]:
        """Ids within ``hops`` edges of ``rid`` in either direction (mentions left out)."""
        import networkx as nx  # ~0.1 s to import: only when a graph is asked for

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
