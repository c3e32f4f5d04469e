"""``context``: evidence about one decision, a domain or an iteration, never a dump.

Answer order (SPEC 9, seeds/000 5.3 and 8):

1. the focus: the asked record or unit, or for an old id under ``current``
   its accepted successor, found through metadata without the ancestors' bodies;
2. required evidence: what the focus builds on (``depends-on``, ``extends``,
   ``amends``, up to 3 hops, a superseded constraint replaced by its current
   successor) and what amends it; from the system root first when a module
   root is asked about; under ``history``, the supersession lineage;
3. incidental relations (``relates-to``, dependents) up to 3 hops;
4. metadata-only entries: ancestors under ``current``, archived records more
   than 1 hop away.

Coverage is ``complete`` once every required unit has been returned.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..identity import lookup
from ..log import Log
from ..model import STATUSES, Record, Severity, Unit
from .budget import Position, capped
from .evidence import (
    CONSTRAINT_KINDS,
    Item,
    Relations,
    chain_text,
    expand_units,
    status_of,
    unit_id,
)
from .respond import Answer

INTENTS = ("current", "rationale", "history")
#: Relations are followed at most this far; archived bodies at most ARCHIVED_HOPS.
RELATION_HOPS = 3
ARCHIVED_HOPS = 1
MAX_LISTED = 30
#: Ids listed in ``succession.chain`` and ``candidates``; the rest are counted.
MAX_SUCCESSION = 10

_UNIT = re.compile(r"^[Dd]?(\d{1,3})$")

# answer classes, in order
FOCUS, REQUIRED, LINEAGE, INCIDENTAL, BACKGROUND = range(5)
_ORDER = {FOCUS: 0, REQUIRED: 1, LINEAGE: 2, INCIDENTAL: 3, BACKGROUND: 4}
#: Under ``history`` the lineage is the question, so it comes before constraints.
_HISTORY_ORDER = {FOCUS: 0, LINEAGE: 1, REQUIRED: 2, INCIDENTAL: 3, BACKGROUND: 4}


@dataclass(frozen=True)
class ContextQuery:
    target: str | None = None
    domain: str | None = None
    iteration: str | None = None
    intent: str = "current"
    unit: str | None = None
    cursor: str | None = None

    def validate(self) -> None:
        chosen = [
            name
            for name, value in (
                ("ID", self.target),
                ("--domain", self.domain),
                ("--iteration", self.iteration),
            )
            if value is not None
        ]
        if len(chosen) > 1:
            raise UsageError(
                f"{' and '.join(chosen)} exclude each other",
                fix="ask about one record, one domain or one iteration at a time",
            )
        if self.intent not in INTENTS:
            raise UsageError(
                f"--intent {self.intent!r} is not known", fix=f"use one of: {', '.join(INTENTS)}"
            )
        if self.unit is not None and self.target is None:
            raise UsageError("--unit needs a record id", fix="write `context ADR-0042 --unit D2`")
        for name, value in (
            ("ID", self.target),
            ("--domain", self.domain),
            ("--iteration", self.iteration),
        ):
            if value is not None and (not value.strip() or len(value) > 1024):
                raise UsageError(f"{name} is empty or too long", fix="give a short value")


# --------------------------------------------------------------------- targets


@dataclass(frozen=True)
class Target:
    rec: Record
    unit: Unit | None
    segment: int | None
    note: str | None = None  # a unit reference that fell back to the record


def resolve_target(log: Log, text: str, unit_opt: str | None) -> Target:
    """The record (and unit, segment) that ``text`` names, or a clear error."""
    raw = text.strip()
    found = lookup(log, raw, unit_ok=True)
    rec, unit_key, segment = found.record, found.unit, found.segment
    if unit_opt is not None:
        um = _UNIT.match(unit_opt.strip())
        if um is None:
            raise UsageError(f"--unit {unit_opt!r} is not a unit key", fix="write --unit D2")
        if unit_key is not None and unit_key != f"D{int(um[1])}":
            raise UsageError(
                f"{raw} names unit {unit_key} but --unit says {unit_opt}", fix="give one unit"
            )
        unit_key = f"D{int(um[1])}"
    unit: Unit | None = None
    note = None
    if unit_key is not None:
        unit = next((u for u in rec.units if u.key == unit_key), None)
        if unit is None:
            keys = ", ".join(u.key for u in rec.units) or "it has none"
            note = (
                f"{rec.id} has no decision unit {unit_key}; the whole record is shown "
                f"instead (its units: {keys})"
            )
    if segment is not None and segment < 1:
        raise UsageError(f"segment @{segment} does not exist", fix="segments count from @1")
    return Target(rec, unit, segment, note)


# --------------------------------------------------------------------- building


class Builder:
    """Collects items with their answer class; the best class of an item wins."""

    def __init__(self, log: Log, intent: str, rels: Relations, system_roots: set[str]) -> None:
        self.log = log
        self.intent = intent
        self.rels = rels
        self.system_roots = system_roots
        self.module_query = False
        self.items: dict[tuple[str, str | None], tuple[tuple[Any, ...], Item]] = {}
        self.warnings: list[str] = []
        self.hints: list[str] = []
        self.text_scope = "decision" if intent == "current" else "full"

    def add(self, klass: int, item: Item) -> None:
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
        key = (item.rec.id, item.unit.key if item.unit else None)
        rank = (_HISTORY_ORDER if self.intent == "history" else _ORDER)[klass]
        sort = (rank, front, item.hops, item.rec.id, item.unit.key if item.unit else "")
        held = self.items.get(key)
        if held is None or sort < held[0]:
            self.items[key] = (sort, item)

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
                Item(rec, unit, why, scope or self.text_scope, hops=hops, required=required),
            )

    def ordered(self) -> list[Item]:
        return [item for _, item in sorted(self.items.values(), key=lambda p: p[0])]

    # ------------------------------------------------------------ relations

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
        reached: dict[str, set[str] | None] = {rid: None for rid in focus}
        queue = deque((rid, 0) for rid in focus)

        def relevant(rid: str, unit: str | None) -> bool:
            units = reached.get(rid)
            return unit is None or units is None or unit in units

        def reach(rid: str, unit: str | None, depth: int) -> None:
            if rid not in reached:
                reached[rid] = {unit} if unit else None
                queue.append((rid, depth))
            elif unit is None:
                reached[rid] = None
            elif reached[rid] is not None:
                reached[rid].add(unit)  # type: ignore[union-attr]

        while queue:
            rid, depth = queue.popleft()
            if depth >= hops:
                continue
            for link in self.rels.out.get(rid, []):
                if link.kind not in CONSTRAINT_KINDS or not relevant(rid, link.source_unit):
                    continue
                target = self.log.get(link.target)
                if target is None:
                    continue
                label = link.target + (f"#{link.target_unit}" if link.target_unit else "")
                self._constraint(
                    target, link.target_unit, f"constraint: {rid} {link.kind} {label}", depth + 1
                )
                reach(link.target, link.target_unit, depth + 1)
            for link in self.rels.into.get(rid, []):
                if link.kind != "amends" or not relevant(rid, link.target_unit):
                    continue
                source = self.log.get(link.source)
                if source is None or not self.log.in_effect(source):
                    continue
                unit = self._target_unit(source, link.source_unit)
                label = rid + (f"#{link.target_unit}" if link.target_unit else "")
                self.add_record(
                    REQUIRED,
                    source,
                    f"amendment: {link.source} amends {label}",
                    hops=depth + 1,
                    units=unit,
                    required=True,
                )
                reach(link.source, link.source_unit, depth + 1)

    def _constraint(self, target: Record, unit_key: str | None, why: str, hops: int) -> None:
        unit = next((u for u in target.units if u.key == unit_key), None) if unit_key else None
        if self.log.in_effect(target, unit):
            self.add_record(REQUIRED, target, why, hops=hops, units=unit or "effect", required=True)
            return
        if status_of(target, unit) == "superseded" or (target.units and unit is None):
            succ = self.log.successor(target.id, unit.key if unit else None)
            name = unit_id(target, unit)
            if succ.state == "current" and succ.current:
                current = self.log.get(succ.current)
                if current is not None:
                    self.add_record(
                        REQUIRED,
                        current,
                        f"{why}, which is superseded; its current successor "
                        f"({chain_text([name, *succ.chain])})",
                        hops=hops,
                        required=True,
                    )
                    return
            if succ.state == "ambiguous":
                self.warnings.append(
                    f"constraint {name} has more than one current successor "
                    f"({', '.join(succ.candidates)}); none is chosen"
                )
                for cand in succ.candidates:
                    rec = self.log.get(cand)
                    if rec is not None:
                        self.add_record(
                            REQUIRED,
                            rec,
                            f"{why}; candidate successor of {name} (ambiguous: "
                            f"{', '.join(succ.candidates)}; none chosen)",
                            hops=hops,
                            required=True,
                        )
                return
        self.add_record(
            INCIDENTAL,
            target,
            f"{why}, which is {status_of(target, unit)}: not in effect",
            hops=hops,
            units=unit or "all",
        )

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
            mine = via[rid]
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
            for link, other_id, other_unit in links:
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

    def _related_one(
        self, role: str, link: Any, other: Record, unit: Unit | None, hops: int
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


def _system_roots(log: Log) -> set[str]:
    """Roots at the shallowest depth: the project's system-level log."""
    if not log.config.roots:
        return set()
    depth = min(r.path.count("/") for r in log.config.roots)
    return {r.path for r in log.config.roots if r.path.count("/") == depth}


def _problem_warnings(log: Log, ids: list[str]) -> list[str]:
    wanted = set(ids)
    out = []
    for p in log.problems:
        if p.severity >= Severity.WARNING and wanted.intersection(p.ids) and p.code != "ADR017":
            out.append(f"{p.code} {p.message}")
    return out


def _about_target(b: Builder, log: Log, target: Target) -> tuple[list[str], dict[str, Any]]:
    """Focus items for one asked record or unit; returns the focus ids and the succession."""
    rec, unit, intent = target.rec, target.unit, b.intent
    asked = unit_id(rec, unit)
    if target.note:
        b.warnings.append(target.note)
    effect = log.in_effect(rec, unit)
    status = status_of(rec, unit)
    succ = log.successor(rec.id, unit.key if unit else None)
    info: dict[str, Any] = {"asked": asked, "status": status, "in_effect": effect}
    if succ.state != "none" or status == "superseded":
        chain, chain_left = capped(succ.chain, MAX_SUCCESSION)
        candidates, cand_left = capped(succ.candidates, MAX_SUCCESSION)
        info.update(state=succ.state, current=succ.current, chain=chain, candidates=candidates)
        if chain_left or cand_left:
            info["omitted"] = {"chain": chain_left, "candidates": cand_left}
    asked_units: Unit | str = unit or ("all" if intent != "current" else "effect")
    scope_full = "full" if intent != "current" else None
    focus = [rec.id]

    if target.segment is not None:
        b.add_record(
            FOCUS,
            rec,
            "asked (one segment)",
            hops=0,
            units=unit or "all",
            scope=b.text_scope,
            required=True,
        )
        return focus, info

    if rec.units and unit is None and effect:
        # a container in effect: its live units, then what replaced the others
        b.add_record(FOCUS, rec, "asked", hops=0, units=asked_units, required=True)
        for u in rec.units:
            if log.in_effect(rec, u):
                continue
            u_succ = log.successor(rec.id, u.key)
            if u_succ.state == "current" and u_succ.current:
                current = log.get(u_succ.current)
                if current is not None:
                    b.add_record(
                        REQUIRED,
                        current,
                        f"current successor of {rec.id}#{u.key} "
                        f"({chain_text([f'{rec.id}#{u.key}', *u_succ.chain])})",
                        hops=1,
                        required=True,
                    )
                    focus.append(current.id)
        return focus, info

    if effect:
        why = "asked"
        if status == "superseded":
            why = (
                f"asked; marked superseded, but no accepted record replaces it "
                f"({', '.join(succ.candidates) or 'no successor named'}), so it stays in effect"
            )
            b.warnings.append(f"{asked}: {why[len('asked; ') :]}")
        b.add_record(FOCUS, rec, why, hops=0, units=asked_units, required=True)
        if succ.candidates:
            for cand in succ.candidates:
                other = log.get(cand)
                if other is not None:
                    b.add_record(
                        INCIDENTAL,
                        other,
                        f"proposed successor of {asked}, {other.status}: not in effect",
                        hops=1,
                        units="all",
                    )
        return focus, info

    current = log.get(succ.current) if succ.state == "current" and succ.current else None
    if current is not None:
        path = chain_text([asked, *succ.chain])
        if intent == "current":
            b.add_record(
                FOCUS, current, f"current successor of {asked} ({path})", hops=0, required=True
            )
            b.hints.append(f"context {asked} --intent history")
            return [current.id], info
        b.add_record(
            FOCUS,
            rec,
            f"asked; {status}, replaced by {current.id}",
            hops=0,
            units=asked_units,
            required=True,
        )
        b.add_record(
            FOCUS,
            current,
            f"current successor of {asked} ({path})",
            hops=1,
            scope=scope_full,
            required=True,
        )
        return [rec.id, current.id], info

    if succ.state == "ambiguous":
        b.warnings.append(
            f"{asked} has more than one current successor ({', '.join(succ.candidates)}); "
            "none is chosen: all are shown"
        )
        if intent != "current":
            b.add_record(FOCUS, rec, f"asked; {status}", hops=0, units=asked_units, required=True)
        for cand in succ.candidates:
            other = log.get(cand)
            if other is not None:
                b.add_record(
                    FOCUS,
                    other,
                    f"candidate successor of {asked} (ambiguous: "
                    f"{', '.join(succ.candidates)}; none chosen)",
                    hops=1,
                    required=True,
                )
        return [*([rec.id] if intent != "current" else []), *succ.candidates], info

    # out of effect, with no accepted successor to answer with: show it as it is
    reason = {
        "cycle": "its supersession chain loops",
        "not-accepted": "no accepted record replaces it "
        f"({', '.join(succ.candidates) or 'successor not accepted'})",
        "none": "superseded, but it names no successor" if status == "superseded" else "",
    }.get(succ.state, "")
    why = f"asked; {status}: not in effect" + (f"; {reason}" if reason else "")
    if reason:
        b.warnings.append(f"{asked}: {reason}")
    b.add_record(FOCUS, rec, why, hops=0, units=asked_units if unit else "all", required=True)
    return focus, info


def _select_group(b: Builder, log: Log, recs: list[Record], label: str) -> list[str]:
    """Focus for ``--domain``/``--iteration``: live units; under history, the whole lineage."""
    focus: list[str] = []
    for rec in recs:
        live = log.in_effect(rec)
        if b.intent == "history":
            if rec.archived:
                b.add_record(
                    FOCUS,
                    rec,
                    f"{label}; archived: body not read implicitly (ask `context {rec.id}`)",
                    hops=0,
                    units="all",
                    scope="none",
                    required=True,
                )
            else:
                b.add_record(
                    FOCUS, rec, f"{label}; {rec.status}", hops=0, units="all", required=True
                )
            focus.append(rec.id)
        elif live and not rec.archived:
            b.add_record(FOCUS, rec, label, hops=0, required=True)
            focus.append(rec.id)
    return focus


def build(log: Log, query: ContextQuery, *, prefix: str = "mkdocs-adr") -> Answer:
    """The whole answer to ``query`` before paging (see :meth:`Answer.respond`)."""
    query.validate()
    if query.target is None and query.domain is None and query.iteration is None:
        return _overview(log, query, prefix)
    rels = Relations.of(log)
    b = Builder(log, query.intent, rels, _system_roots(log))
    args: list[str] = []
    extra: dict[str, Any] = {}
    echo: dict[str, Any] = {"intent": query.intent}
    target: Target | None = None
    if query.target is not None:
        target = resolve_target(log, query.target, query.unit)
        if target.segment is not None and target.rec.units and target.unit is None:
            keys = ", ".join(u.key for u in target.rec.units)
            raise UsageError(
                f"{target.rec.id} is a container; a segment belongs to one of its units ({keys})",
                fix=f"write {target.rec.id}#{target.rec.units[0].key}@{target.segment}",
            )
        echo["id"] = query.target
        if query.unit is not None:
            echo["unit"] = query.unit
        args = [query.target, *(["--unit", query.unit] if query.unit else [])]
        b.module_query = target.rec.root not in b.system_roots
        focus, info = _about_target(b, log, target)
        extra["succession"] = info if "state" in info else None
        if target.segment is None:
            b.constraints(focus)
            b.related(focus)
        b.warnings.extend(_problem_warnings(log, [target.rec.id]))
        b.hints += [
            f"context {target.rec.id} --intent rationale",
            f"context {target.rec.id} --intent history",
        ]
    else:
        if query.domain is not None:
            recs, label = _by_domain(log, query.domain), f"in domain {query.domain}"
            echo["domain"] = query.domain
            args = ["--domain", query.domain]
        else:
            assert query.iteration is not None
            recs, label = _by_iteration(log, query.iteration), f"in iteration {query.iteration}"
            echo["iteration"] = query.iteration
            args = ["--iteration", query.iteration]
        b.module_query = bool(recs) and all(r.root not in b.system_roots for r in recs)
        focus = _select_group(b, log, recs, label)
        b.constraints(focus)
        if not focus:
            b.warnings.append(f"nothing {label} matches intent {query.intent}")
    if query.intent != "current":
        args += ["--intent", query.intent]
    items = b.ordered()
    start_default: Position | None = None
    if target is not None and target.segment is not None:
        count = len(items[0].segments(log)) if items else 0
        if target.segment > count:
            raise UsageError(
                f"{unit_id(target.rec, target.unit)} has {count} segment(s) "
                f"under intent {query.intent}",
                fix=f"ask for @1 to @{count}, or for the unit without @",
            )
        start_default = Position(0, target.segment - 1)
    hints = [
        f"{prefix} {h}"
        for h in dict.fromkeys(b.hints)
        if not h.endswith(f"--intent {query.intent}")
    ]
    return Answer(
        "context",
        log,
        items,
        echo,
        args,
        prefix,
        extra=extra,
        warnings=b.warnings,
        hints=hints,
        start_default=start_default,
    )


def _by_domain(log: Log, domain: str) -> list[Record]:
    recs = [r for r in log.records if r.domain == domain]
    if not recs:
        folded = [r for r in log.records if (r.domain or "").casefold() == domain.casefold()]
        recs = folded if len({r.domain for r in folded}) == 1 else []
    if not recs:
        known = sorted({r.domain for r in log.records if r.domain})
        shown, more = capped(known, MAX_LISTED)
        raise UsageError(
            f"no record is in domain {domain!r}"
            + (
                f"; domains: {', '.join(shown)}" + (f" (+{more} more)" if more else "")
                if known
                else "; this log has no domains"
            ),
            fix="run `mkdocs-adr context` for an overview",
        )
    return recs


def _by_iteration(log: Log, iteration: str) -> list[Record]:
    recs = [r for r in log.records if (r.parsed.iteration or "").strip() == iteration.strip()]
    if not recs:
        known = sorted({r.parsed.iteration for r in log.records if r.parsed.iteration})
        shown, more = capped(known, MAX_LISTED)
        raise UsageError(
            f"no record is in iteration {iteration!r}"
            + (
                f"; iterations: {', '.join(shown)}" + (f" (+{more} more)" if more else "")
                if known
                else "; no record names an iteration"
            ),
            fix="records name their iteration in frontmatter (`iteration: 2024-Q1`)",
        )
    return recs


def _overview(log: Log, query: ContextQuery, prefix: str) -> Answer:
    """No selector: roots, counts, CURRENT's state and how to ask next."""
    statuses = Counter(r.status for r in log.records)
    domains = Counter(r.domain for r in log.records if r.domain and not r.archived)
    iterations = Counter(r.parsed.iteration for r in log.records if r.parsed.iteration)
    problems = Counter(p.severity.label for p in log.problems)
    dom_list, dom_more = capped(sorted(domains.items()), MAX_LISTED)
    it_list, it_more = capped(sorted(iterations.items()), MAX_LISTED)
    overview: dict[str, Any] = {
        "roots": [r.to_json() for r in log.roots[:MAX_LISTED]],
        "statuses": {s: statuses[s] for s in STATUSES if statuses[s]},
        "in_effect": sum(1 for r in log.active if log.in_effect(r)),
        "domains": {name: n for name, n in dom_list},
        "iterations": {name: n for name, n in it_list},
        "problems": {k: problems[k] for k in ("error", "warning", "info") if problems[k]},
    }
    if dom_more:
        overview["domains_omitted"] = dom_more
    if it_more:
        overview["iterations_omitted"] = it_more
    if len(log.roots) > MAX_LISTED:
        overview["roots_omitted"] = len(log.roots) - MAX_LISTED
    example = next((r.id for r in log.active if log.in_effect(r)), None)
    hints = []
    if example:
        hints.append(f"{prefix} context {example}")
    if dom_list:
        hints.append(f"{prefix} context --domain {dom_list[0][0]}")
    hints.append(f"{prefix} find --path src/some/file.py --topic 'what you are changing'")
    return Answer(
        "context",
        log,
        [],
        {"intent": query.intent},
        [],
        prefix,
        extra={"overview": overview, "succession": None},
        hints=hints,
    )


def context(
    log: Log, query: ContextQuery, *, prefix: str = "mkdocs-adr"
) -> tuple[dict[str, Any], str]:
    """Answer a context query: the response data and its exact JSON text."""
    answer = build(log, query, prefix=prefix)
    return answer.respond(answer.start(query.cursor))
