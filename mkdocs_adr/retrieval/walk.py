"""Evidence through relations, ranked by answer class (SPEC 9, seeds/000 5.3 and 8).

An :class:`Evidence` is the :class:`~.collect.Collector` of ``context``: every
item carries an answer class (focus, required, lineage, incidental,
background) and the best class of an item wins. :meth:`Evidence.constraints`
adds what the focus builds on (transitively, a superseded constraint replaced
by its current successor) and what amends it; :meth:`Evidence.related` adds
the supersession lineage and incidental links. ``find`` reuses the constraint
walk for its ``relations`` layer.
"""

from __future__ import annotations

from collections import deque

from ..log import Log
from ..model import Record, Unit
from .collect import Collector, replacement
from .evidence import (
    CONSTRAINT_KINDS,
    EvidenceItem,
    RelationLink,
    Relations,
    expand_units,
    status_of,
    unit_id,
)

#: Relations are followed at most this far; archived bodies at most ARCHIVED_HOPS.
RELATION_HOPS = 3
ARCHIVED_HOPS = 1

# answer classes, in order
FOCUS, REQUIRED, LINEAGE, INCIDENTAL, BACKGROUND = range(5)
_ORDER = {FOCUS: 0, REQUIRED: 1, LINEAGE: 2, INCIDENTAL: 3, BACKGROUND: 4}
#: Under ``history`` the lineage is the question, so it comes before constraints.
_HISTORY_ORDER = {FOCUS: 0, LINEAGE: 1, REQUIRED: 2, INCIDENTAL: 3, BACKGROUND: 4}


class _Reached:
    """Records (and, per record, units) a constraint walk has reached, with their depth."""

    def __init__(self, focus: list[str]) -> None:
        #: ``None``: the whole record is reached; a set: only these units of it.
        self.units: dict[str, set[str] | None] = {rid: None for rid in focus}
        self.queue: deque[tuple[str, int]] = deque((rid, 0) for rid in focus)

    def relevant(self, rid: str, unit: str | None) -> bool:
        units = self.units.get(rid)
        return unit is None or units is None or unit in units

    def reach(self, rid: str, unit: str | None, depth: int) -> None:
        if rid not in self.units:
            self.units[rid] = {unit} if unit else None
            self.queue.append((rid, depth))
            return
        units = self.units[rid]
        if unit is None:
            self.units[rid] = None
        elif units is not None:
            units.add(unit)


class Evidence(Collector):
    """Collects items with their answer class; the best class of an item wins."""

    def __init__(self, log: Log, intent: str, rels: Relations, system_roots: set[str]) -> None:
        super().__init__()
        self.log = log
        self.intent = intent
        self.rels = rels
        self.system_roots = system_roots
        self.module_query = False
        self.text_scope = "decision" if intent == "current" else "full"

    def add(self, klass: int, item: EvidenceItem) -> None:
        front = 0
        if (
            self.module_query
            and klass in (REQUIRED, LINEAGE)
            and item.rec.root not in self.system_roots
        ):
            front = 1
        if item.rec.archived and item.hops > ARCHIVED_HOPS:
            item.scope = "none"
            item.why += f"; archived more than {ARCHIVED_HOPS} hop away: body not expanded"
        rank = (_HISTORY_ORDER if self.intent == "history" else _ORDER)[klass]
        self.offer((rank, front, item.hops, item.rec.id, item.unit.key if item.unit else ""), item)

    def add_record(
        self,
        klass: int,
        rec: Record,
        why: str,
        *,
        hops: int,
        units: str | Unit | None = "effect",
        scope: str | None = None,
        required: bool = False,
    ) -> None:
        if isinstance(units, Unit):
            chosen: list[Unit | None] = [units]
        else:
            chosen = expand_units(self.log, rec, "all" if units == "all" else "effect")
            if not chosen:  # a container with nothing in effect: show it whole
                chosen = list(rec.units) or [None]
        for unit in chosen:
            self.add(
                klass,
                EvidenceItem(
                    rec, unit, why, scope or self.text_scope, hops=hops, required=required
                ),
            )

    # ------------------------------------------------------------ constraints

    def _target_unit(self, rec: Record, key: str | None) -> Unit | str:
        if key is not None:
            found = next((u for u in rec.units if u.key == key), None)
            if found is not None:
                return found
        return "all" if self.intent == "history" else "effect"

    def constraints(self, focus: list[str], *, hops: int = RELATION_HOPS) -> None:
        """What the focus builds on, transitively, and what amends it: required evidence.

        A constraint on one unit of a container (``depends-on: ADR-0005#D1``)
        follows only that unit's own relations and amendments, not its siblings'.
        """
        walk = _Reached(focus)
        while walk.queue:
            rid, depth = walk.queue.popleft()
            if depth >= hops:
                continue
            for link in self.rels.out.get(rid, []):
                if link.kind in CONSTRAINT_KINDS and walk.relevant(rid, link.source_unit):
                    self._built_on(walk, rid, link, depth + 1)
            for link in self.rels.into.get(rid, []):
                if link.kind == "amends" and walk.relevant(rid, link.target_unit):
                    self._amended_by(walk, rid, link, depth + 1)

    def _built_on(self, walk: _Reached, rid: str, link: RelationLink, depth: int) -> None:
        target = self.log.get(link.target)
        if target is None:
            return
        label = link.target + (f"#{link.target_unit}" if link.target_unit else "")
        self._constraint(target, link.target_unit, f"constraint: {rid} {link.kind} {label}", depth)
        walk.reach(link.target, link.target_unit, depth)

    def _amended_by(self, walk: _Reached, rid: str, link: RelationLink, depth: int) -> None:
        source = self.log.get(link.source)
        if source is None or not self.log.in_effect(source):
            return
        label = rid + (f"#{link.target_unit}" if link.target_unit else "")
        self.add_record(
            REQUIRED,
            source,
            f"amendment: {link.source} amends {label}",
            hops=depth,
            units=self._target_unit(source, link.source_unit),
            required=True,
        )
        walk.reach(link.source, link.source_unit, depth)

    def _constraint(self, target: Record, unit_key: str | None, why: str, hops: int) -> None:
        unit = next((u for u in target.units if u.key == unit_key), None) if unit_key else None
        if self.log.in_effect(target, unit):
            self.add_record(REQUIRED, target, why, hops=hops, units=unit or "effect", required=True)
            return
        replaceable = status_of(target, unit) == "superseded" or (target.units and unit is None)
        if replaceable and self._replaced_constraint(target, unit, why, hops):
            return
        self.add_record(
            INCIDENTAL,
            target,
            f"{why}, which is {status_of(target, unit)}: not in effect",
            hops=hops,
            units=unit or "all",
        )

    def _replaced_constraint(self, target: Record, unit: Unit | None, why: str, hops: int) -> bool:
        """A constraint out of effect answered by its successor(s); ``False`` if it has none."""
        r = replacement(self.log, target, unit)
        if r.current is not None:
            self.add_record(
                REQUIRED,
                r.current,
                f"{why}, which is superseded; its current successor ({r.chain})",
                hops=hops,
                required=True,
            )
            return True
        if not r.ambiguous:
            return False
        self.warnings.append(
            f"constraint {r.name} has more than one current successor ({r.contested}); "
            "none is chosen"
        )
        for rec in r.candidates:
            self.add_record(
                REQUIRED,
                rec,
                f"{why}; candidate successor of {r.name} (ambiguous: {r.contested}; none chosen)",
                hops=hops,
                required=True,
            )
        return True

    # ------------------------------------------------------------ lineage, incidental

    def related(self, focus: list[str], *, hops: int = RELATION_HOPS) -> None:
        """Everything else within ``hops`` relations: lineage and incidental links.

        Only the asked record's own supersession chain is lineage; the history
        of a related record is background, and nothing is followed through it.
        """
        dist = {rid: 0 for rid in focus}
        role = {rid: "focus" for rid in focus}
        via: dict[str, str | None] = {rid: None for rid in focus}  # the unit reached
        queue = deque(focus)
        while queue:
            rid = queue.popleft()
            depth = dist[rid]
            if depth >= hops:
                continue
            for link, other_id, other_unit in self._links(rid, via[rid]):
                other = self.log.get(other_id)
                if other is None or other_id in dist:
                    continue
                dist[other_id] = depth + 1
                unit = next((u for u in other.units if u.key == other_unit), None)
                follow = self._related_one(role[rid], link, other, unit, depth + 1)
                if follow is not None:
                    role[other_id] = follow
                    via[other_id] = unit.key if unit else None
                    queue.append(other_id)

    def _links(self, rid: str, mine: str | None) -> list[tuple[RelationLink, str, str | None]]:
        """Relations of ``rid`` both ways (of unit ``mine`` only, when one was reached)."""
        links = [
            (k, k.target, k.target_unit)
            for k in self.rels.out.get(rid, [])
            if mine is None or k.source_unit in (None, mine)
        ]
        links += [
            (k, k.source, k.source_unit)
            for k in self.rels.into.get(rid, [])
            if mine is None or k.target_unit in (None, mine)
        ]
        return links

    def _related_one(
        self, role: str, link: RelationLink, other: Record, unit: Unit | None, hops: int
    ) -> str | None:
        """Add one related record; return its role when the walk goes on through it."""
        phrase = f"{link.source} {link.kind} {link.target}"
        units: Unit | str = unit or "all"
        if link.kind == "supersedes":
            if self.intent == "history" and role in ("focus", "lineage"):
                self.add_record(
                    LINEAGE, other, f"history: {phrase}", hops=hops, units=units, required=True
                )
                return "lineage"
            self.add_record(
                BACKGROUND,
                other,
                f"history: {phrase}; body not shown here "
                f"(ask `context {unit_id(other, unit)} --intent history`)",
                hops=hops,
                units=units,
                scope="none",
            )
            return None
        if not self.log.in_effect(other, unit):
            self.add_record(
                BACKGROUND,
                other,
                f"related: {phrase}; {status_of(other, unit)}, not in effect",
                hops=hops,
                units=unit or "all",
                scope="none",
            )
            return None
        self.add_record(INCIDENTAL, other, f"related: {phrase}", hops=hops, units=unit or "effect")
        return "other"
