"""The relation graph of a log and its succession rules. Pure.

This module is the only place that decides succession, for whole records and
for the decision units of a container:

- :meth:`RelationGraph.in_effect`: whether a record, or one unit, binds now;
- :meth:`RelationGraph.successor`: what replaced it, as a :class:`Succession`
  (a chain, a cycle, an ambiguity, or successors that are not accepted);
- :meth:`RelationGraph.direct_successors`: who says they supersede it, of any
  status, for views that show what is written rather than what binds.

Nodes are record ids. Every edge is stored once in its forward direction
(``A supersedes B`` whether A said it or B said ``superseded by A``), with the
record that declared it, so one-sided statements stay visible.

Two kinds of statement never retire a record by themselves:

- ``partially-supersedes``: its own kind, never a supersession (the record it
  names stays in effect, and it is nobody's successor);
- a supersession of origin ``declaration`` (a sentence such as "This ADR
  supersedes X"): it binds only once the other side agrees, that is the old
  record's status is ``superseded``, or the other record states the same
  supersession itself (any origin but a body link or prose mention). Until then
  the edge is kept with ``agreed`` false: drawn, listed, reported (ADR005).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .model import slot_init

#: Forward kind for each written kind; the flag says the edge was written backwards.
FORWARD: dict[str, tuple[str, bool]] = {
    "supersedes": ("supersedes", False),
    "superseded-by": ("supersedes", True),
    "partially-supersedes": ("partially-supersedes", False),
    "partially-superseded-by": ("partially-supersedes", True),
    "amends": ("amends", False),
    "amended-by": ("amends", True),
    "extends": ("extends", False),
    "extended-by": ("extends", True),
    "depends-on": ("depends-on", False),
    "depended-on-by": ("depends-on", True),
    "relates-to": ("relates-to", False),
    "mentions": ("mentions", False),
}

#: Origins that are no statement of a relation, only evidence of one.
MENTION_ORIGINS = frozenset({"link", "prose"})
#: The origin of a supersession declared in a sentence; it binds once the other side agrees.
DECLARATION = "declaration"

#: Statuses of a successor that took effect: accepted, or accepted once and
#: superseded since (it may lead on to the record in effect now). A proposed,
#: draft or rejected successor never retires what it names (ADR006, ADR-0025).
TOOK_EFFECT = frozenset({"accepted", "superseded"})

_NO_UNITS: Mapping[str, str] = {}


@slot_init  # a cold 10,000-record plan makes 12,000 of them (docs/adr/0064)
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
    #: False for a declaration (origin ``declaration``) the other record does not agree
    #: with: shown as declared in prose, never followed (module docstring).
    agreed: bool = True

    @property
    def authoritative(self) -> bool:
        return self.kind != "mentions" and self.origin not in MENTION_ORIGINS and self.agreed

    @property
    def one_sided_declaration(self) -> bool:
        """A declaration in prose that the other record does not agree with."""
        return self.origin == DECLARATION and not self.agreed

    @property
    def ids(self) -> tuple[str, str, str]:
        """The ids (upper case) a change of this relation touches: both ends and the
        record that declared it."""
        return (self.source.upper(), self.target.upper(), self.declared_by.upper())


def _agreed(
    edge: Edge, said: bool, statuses: Mapping[str, str], units: Mapping[str, Mapping[str, str]]
) -> bool:
    """Whether declared supersession ``edge`` is followed: the other record states it too
    (``said``), or what it supersedes (the record, or its unit) says it is superseded."""
    if said:
        return True
    if edge.unit is None:
        return statuses.get(edge.target) == "superseded"
    return units.get(edge.target, _NO_UNITS).get(edge.unit) == "superseded"


@dataclass(frozen=True)
class Succession:
    """The answer to "what replaced X?" following metadata only."""

    current: str | None
    state: str  # none | current | ambiguous | not-accepted | cycle
    chain: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()


class RelationGraph:
    """Edges and statuses in plain dictionaries (no networkx at load).

    A 10,000-record log adds about 12,000 edges, and networkx's multigraph
    bookkeeping cost more than the rest of the analysis together.

    ``statuses`` maps each record id that names one record to its status;
    ``unit_statuses`` maps each container's id to its units' statuses, in the
    record's order. ``missing_as`` is what a record without a status counts as
    in succession and effect (the ``missing_status`` option: ``missing``,
    ``accepted`` or ``proposed``); ``statuses`` keep what the records say.
    """

    def __init__(
        self,
        statuses: dict[str, str],
        unit_statuses: dict[str, dict[str, str]] | None = None,
        *,
        missing_as: str = "missing",
    ) -> None:
        self.statuses = statuses
        self.unit_statuses = unit_statuses if unit_statuses is not None else {}
        self.missing_as = missing_as
        #: the statuses succession reads: ``statuses`` with ``missing`` counted as ``missing_as``
        self._counted = (
            statuses
            if missing_as == "missing"
            else {rid: missing_as if st == "missing" else st for rid, st in statuses.items()}
        )
        self._by_key: dict[tuple[str, str, tuple[str, str, str | None, str | None]], Edge] = {}
        self._edges: list[Edge] = []
        self._sorted = True
        # authoritative supersession of whole records, new -> old, both ways round
        self._older: dict[str, set[str]] = {}
        self._newer: dict[str, set[str]] = {}
        # authoritative supersession of one unit: (container, unit) -> new
        self._unit_newer: dict[tuple[str, str], set[str]] = {}
        # declared supersessions not yet judged (:meth:`_settle`)
        self._declared: list[Edge] = []
        # each declared supersession judged, as declared, with whether the other record
        # states it too and whether it was agreed (:meth:`restated`)
        self._judged: list[tuple[Edge, bool, bool]] = []
        # indexes of the edges, made on first use (:meth:`readers`: every supersession,
        # new -> old; :meth:`edges_at`: every edge by each id it touches; ids upper case),
        # one dictionary shared with each graph :meth:`restated` from this one
        self._indexes: dict[str, dict[str, Any]] = {}

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
        declared = fwd == "supersedes" and origin == DECLARATION
        if existing is not None:
            if declared or existing.origin != DECLARATION or existing.agreed:
                return existing
            # the record states what it also declared in prose: the statement counts
            self._edges.remove(existing)
            if existing in self._declared:
                self._declared.remove(existing)
        edge = Edge(source, dest, fwd, declared_by, origin, unit, source_unit, not declared)
        self._by_key[key] = edge
        self._edges.append(edge)
        self._sorted = False
        self._indexes = {}
        if declared:
            self._declared.append(edge)
        else:
            self._follow(edge)
        return edge

    def _follow(self, edge: Edge) -> None:
        """Index an authoritative supersession for succession."""
        if edge.kind != "supersedes" or not edge.authoritative:
            return
        if edge.unit is None:
            self._older.setdefault(edge.source, set()).add(edge.target)
            self._newer.setdefault(edge.target, set()).add(edge.source)
        else:
            self._unit_newer.setdefault((edge.target, edge.unit), set()).add(edge.source)

    def _settle(self) -> None:
        """Judge each declared supersession once every relation is in (module docstring)."""
        if not self._declared:
            return
        stated = {
            (e.source, e.target, e.declared_by)
            for e in self._edges
            if e.kind == "supersedes" and e.origin not in MENTION_ORIGINS
        }
        pending, self._declared = self._declared, []
        where = {id(e): i for i, e in enumerate(self._edges)}
        for edge in pending:
            other = edge.target if edge.declared_by == edge.source else edge.source
            said = (edge.source, edge.target, other) in stated
            follows = _agreed(edge, said, self.statuses, self.unit_statuses)
            self._judged.append((edge, said, follows))
            if not follows:
                continue  # one-sided: kept as declared, never followed
            agreed = Edge(
                edge.source,
                edge.target,
                edge.kind,
                edge.declared_by,
                edge.origin,
                edge.unit,
                edge.source_unit,
                True,
            )
            detail = (edge.kind, edge.declared_by, edge.unit, edge.source_unit)
            key = (edge.source, edge.target, detail)
            self._by_key[key] = agreed
            self._edges[where[id(edge)]] = agreed
            self._follow(agreed)

    def retire(self, rid: str) -> None:
        """Count record ``rid`` superseded, as if the graph had been made so: only before
        it is first read (declared supersessions are judged then, from the statuses)."""
        if rid in self.statuses:
            self.statuses[rid] = "superseded"
            if self._counted is not self.statuses:
                self._counted[rid] = "superseded"

    def restated(
        self, statuses: dict[str, str], unit_statuses: dict[str, dict[str, str]]
    ) -> RelationGraph | None:
        """This graph's relations with other statuses (``statuses`` and ``unit_statuses``
        as for the constructor, of the same records): what adding the same relations to a
        graph of those statuses would give (ADR-0065), sharing this graph's edges and
        their indexes; None when a declared supersession would be judged otherwise
        (:meth:`_settle` reads the old record's status), so the relations must be added
        again. Neither graph may be added to afterwards."""
        self._settle()
        for edge, said, follows in self._judged:
            if _agreed(edge, said, statuses, unit_statuses) != follows:
                return None
        self._sort()  # once, for both
        new = RelationGraph(statuses, unit_statuses, missing_as=self.missing_as)
        new._by_key, new._edges, new._judged = self._by_key, self._edges, self._judged
        new._older, new._newer, new._unit_newer = self._older, self._newer, self._unit_newer
        new._indexes = self._indexes
        return new

    def same_relations(self, other: RelationGraph) -> bool:
        """Whether ``other`` is this graph or one :meth:`restated` from it (or it from
        ``other``): the same edges, followed the same way."""
        return other._indexes is self._indexes

    def _sort(self) -> None:
        self._settle()
        if not self._sorted:
            self._edges.sort(
                key=lambda e: (e.source, e.target, e.kind, e.declared_by, e.unit or "")
            )
            self._sorted = True

    def edges(self, kind: str | None = None) -> Iterator[Edge]:
        self._sort()
        for edge in self._edges:
            if kind is None or edge.kind == kind:
                yield edge

    @property
    def counted(self) -> Mapping[str, str]:
        """Each record id's status as succession counts it (:meth:`counted_status`)."""
        return self._counted

    def counted_status(self, status: str | None) -> str | None:
        """``status`` as succession and effect count it: ``missing`` is ``missing_as``."""
        return self.missing_as if status == "missing" else status

    # ------------------------------------------------------------------ who says so

    def direct_successors(
        self, rid: str, unit: str | None = None, *, accepted_only: bool = False
    ) -> list[str]:
        """Records that say they supersede ``rid`` (or its unit ``unit``), of any status.

        What is written, one step away: for views that list it. What binds is
        :meth:`successor`'s answer. ``accepted_only`` keeps the accepted ones.
        """
        self._settle()
        found = self._newer.get(rid, ()) if unit is None else self._unit_newer.get((rid, unit), ())
        if accepted_only:
            return sorted(s for s in found if self._counted.get(s) == "accepted")
        return sorted(found)

    def effective_successors(self, rid: str) -> list[str]:
        """Direct successors of the whole record that took effect (:data:`TOOK_EFFECT`):
        the ones succession follows. None of them means a superseded record stays
        in effect."""
        return [s for s in self.direct_successors(rid) if self._counted.get(s) in TOOK_EFFECT]

    def took_effect(self, rid: str) -> bool:
        """Whether record ``rid``, as a successor, retires what it supersedes
        (:data:`TOOK_EFFECT`); a proposed or draft successor does not (ADR006)."""
        return self._counted.get(rid) in TOOK_EFFECT

    def supersedes(self, new: str, old: str) -> bool:
        """Whether ``new`` supersedes ``old`` as a whole, directly or through others."""
        if new not in self.statuses or old not in self.statuses:
            return False
        self._settle()
        todo, seen = [new], {new}
        while todo:
            node = todo.pop()
            if node == old:
                return True
            for older in self._older.get(node, ()):
                if older not in seen:
                    seen.add(older)
                    todo.append(older)
        return False

    # ------------------------------------------------------------------ what binds

    def in_effect(
        self,
        rid: str,
        unit: str | None = None,
        *,
        status: str | None = None,
        unit_statuses: Mapping[str, str] | None = None,
    ) -> bool:
        """Whether record ``rid``, or its unit ``unit``, binds now (SPEC 3.2).

        A unit binds when it is accepted; a container when one of its units does
        (a unit-level supersession never retires the whole record); any other
        record when it is accepted, or marked superseded while no successor took
        effect (ADR006: superseded only by proposals, it stays in effect).

        ``status`` and ``unit_statuses`` default to those the graph was built
        with; a caller holding the record passes its own, which also answers for
        a record whose id is claimed twice (it is no node, so nothing succeeds it).
        """
        units = self.unit_statuses.get(rid, _NO_UNITS) if unit_statuses is None else unit_statuses
        if unit is not None:
            return self.counted_status(units.get(unit)) == "accepted"
        if units:
            return any(self.counted_status(s) == "accepted" for s in units.values())
        status = self.counted_status(self.statuses.get(rid) if status is None else status)
        if status == "accepted":
            return True
        if status == "superseded":
            return bool(self.direct_successors(rid)) and not self.effective_successors(rid)
        return False

    def successor(self, rid: str, unit: str | None = None) -> Succession:
        """What replaced record ``rid``, or its unit ``unit``, following metadata only.

        Never guesses: two successors in effect are ``ambiguous``, successors
        that never took effect are ``not-accepted`` (the old decision stays in
        effect), a loop is a ``cycle``. A container is replaced as a whole only
        once none of its units binds, by what replaced its units.
        """
        self._settle()
        if unit is not None:
            return self._unit_successor(rid, unit)
        units = self.unit_statuses.get(rid)
        if not units:
            return self._record_successor(rid)
        if self.in_effect(rid):
            return Succession(None, "none")  # some units still bind: not replaced as a whole
        per_unit = [self._unit_successor(rid, key) for key in units]
        found = sorted({s.current for s in per_unit if s.current})
        if len(found) == 1:
            return Succession(found[0], "current", (found[0],))
        if found:
            return Succession(None, "ambiguous", (), tuple(found))
        if all(s.state == "none" for s in per_unit):
            return self._record_successor(rid)
        return Succession(
            None, "not-accepted", (), tuple(sorted({c for s in per_unit for c in s.candidates}))
        )

    def _unit_successor(self, rid: str, unit: str) -> Succession:
        direct = self.direct_successors(rid, unit)
        if not direct:
            return Succession(None, "none")
        current: dict[str, tuple[str, ...]] = {}
        for succ in direct:
            status = self._counted.get(succ)
            if status == "accepted":
                current[succ] = (succ,)
            elif status == "superseded":
                onward = self._record_successor(succ)
                if onward.state == "current" and onward.current:
                    current[onward.current] = (succ, *onward.chain)
        if len(current) == 1:
            ((winner, chain),) = current.items()
            return Succession(winner, "current", chain)
        if len(current) > 1:
            return Succession(None, "ambiguous", (), tuple(sorted(current)))
        return Succession(None, "not-accepted", (), tuple(direct))

    def _record_successor(self, rid: str) -> Succession:
        """Follow whole-record supersession to the record in effect now."""
        if not self._newer.get(rid):
            return Succession(None, "none")
        chain: list[str] = []
        seen = {rid}
        node = rid
        while True:
            succ = self.direct_successors(node)
            if not succ:
                break
            fresh = [s for s in succ if s not in seen]
            if not fresh:
                return Succession(None, "cycle", tuple(chain), tuple(succ))
            # a superseded successor may itself lead on to an accepted one
            onward = [s for s in fresh if self._counted.get(s) in TOOK_EFFECT]
            if not onward:
                break  # only proposed, draft or rejected successors
            if len(onward) > 1:
                return Succession(None, "ambiguous", tuple(chain), tuple(onward))
            node = onward[0]
            seen.add(node)
            chain.append(node)
        status = self._counted.get(node)
        if node != rid and (
            status == "accepted" or (status == "superseded" and self.direct_successors(node))
        ):
            # accepted, or marked superseded but only by proposals (ADR006): the chain
            # stopped here because none of its successors took effect
            return Succession(node, "current", tuple(chain))
        return Succession(None, "not-accepted", tuple(chain), tuple(self.direct_successors(node)))

    def edges_at(self, ids: Collection[str]) -> set[Edge]:
        """Every edge with an end, or the record that declared it, among ``ids`` (upper
        case): what a change of those records may have changed."""
        found = self._indexes.get("at")
        if found is None:
            at: dict[str, list[Edge]] = {}
            for edge in self.edges():
                source, target, by = edge.ids
                at.setdefault(source, []).append(edge)
                if target != source:
                    at.setdefault(target, []).append(edge)
                if by != source and by != target:
                    at.setdefault(by, []).append(edge)
            found = self._indexes["at"] = at
        return {edge for rid in ids for edge in found.get(rid, ())}

    def touched(self, before: RelationGraph, ids: Collection[str]) -> set[str]:
        """``ids`` (upper case) with every id a change of relations at them touches
        between ``before`` and this graph: the ends, and who declared it, of each
        relation at ``ids`` that one graph has and the other has not (gained, lost or
        changed)."""
        found = set(ids)
        if self.same_relations(before):
            return found
        for edge in before.edges_at(ids) ^ self.edges_at(ids):
            found.update(edge.ids)
        return found

    def readers(self, ids: Iterable[str]) -> set[str]:
        """``ids`` (upper case) and every record whose succession answers may read one
        of them: what :meth:`successor`, :meth:`in_effect` and :meth:`direct_successors`
        say of a record (or its units) reads only its successors, theirs onward, and
        their statuses, so the readers of a record are those it supersedes, whole or a
        unit, and onward. Every supersession counts, followed or only declared (a
        declaration is followed once the old record says it is superseded)."""
        older = self._indexes.get("superseded")
        if older is None:
            older = self._indexes["superseded"] = {}
            self._settle()
            for edge in self._edges:
                if edge.kind == "supersedes":
                    older.setdefault(edge.source.upper(), set()).add(edge.target.upper())
        found = set(ids)
        todo = list(found)
        while todo:
            for old in older.get(todo.pop(), ()):
                if old not in found:
                    found.add(old)
                    todo.append(old)
        return found

    # ------------------------------------------------------------------ problems

    def cycles(self) -> list[list[str]]:
        """Supersession cycles of whole records, each sorted (networkx only if one may exist)."""
        self._settle()
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
