"""Load a whole ADR log: discover, read, parse, identify, resolve, check.

:func:`load` is the engine's front door. It is read-only: it opens files for
reading and nothing else. Parse results may be kept in a :class:`ParseCache`
keyed by content hash, which is how ``mkdocs serve`` avoids re-parsing
unchanged records.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .config import Config
from .discovery import Discovery, Found, discover
from .graph import RelationGraph, Succession
from .identity import Resolver, canonical, file_number, parse_id
from .model import (
    Excluded,
    Parsed,
    Problem,
    Record,
    Relation,
    RootInfo,
    Severity,
    Unit,
)
from .parsing import ParseOptions
from .parsing.batch import parse_many


class ParseCache:
    """Parsed records by (content hash, path, options); survives serve rebuilds."""

    def __init__(self) -> None:
        self._data: dict[tuple[str, str, ParseOptions], Parsed] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[str, str, ParseOptions]) -> Parsed | None:
        found = self._data.get(key)
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: tuple[str, str, ParseOptions], value: Parsed) -> None:
        self._data[key] = value

    def retain(self, keys: Iterable[tuple[str, str, ParseOptions]]) -> None:
        """Drop entries not in ``keys`` so the cache never outgrows the log."""
        keep = set(keys)
        for key in list(self._data):
            if key not in keep:
                del self._data[key]

    def __len__(self) -> int:
        return len(self._data)


@dataclass
class Log:
    """Everything known about a log, read-only once built."""

    config: Config
    records: tuple[Record, ...]
    excluded: tuple[Excluded, ...]
    problems: tuple[Problem, ...]
    roots: tuple[RootInfo, ...]
    fingerprint: str
    graph: RelationGraph
    by_id: dict[str, list[Record]] = field(default_factory=dict)
    by_path: dict[str, Record] = field(default_factory=dict)

    def get(self, rid: str) -> Record | None:
        """The one record with this id, or None when absent or ambiguous."""
        found = self.by_id.get(rid.upper())
        return found[0] if found and len(found) == 1 else None

    @property
    def active(self) -> tuple[Record, ...]:
        return tuple(r for r in self.records if not r.archived)

    def successor(self, rid: str, unit: str | None = None) -> Succession:
        """What replaced ``rid`` (or its unit): :meth:`RelationGraph.successor`."""
        return self.graph.successor(rid, unit)

    def in_effect(self, rec: Record, unit: Unit | None = None) -> bool:
        """Whether ``rec`` (or its unit) binds now: :meth:`RelationGraph.in_effect`."""
        return self.graph.in_effect(
            rec.id,
            unit.key if unit is not None else None,
            status=rec.status,
            unit_statuses={u.key: u.status for u in rec.units} if rec.units else {},
        )

    def problems_for(self, rid: str) -> list[Problem]:
        return [p for p in self.problems if rid in p.ids]


def _read(path: Path) -> bytes:
    """A file's bytes; unbuffered, which saves a copy on every small file."""
    with open(path, "rb", buffering=0) as fh:
        return fh.readall()


def _sha256(data: bytes) -> str:
    """Hash of the normalized text (UTF-8, LF) so line endings never count as edits."""
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return hashlib.sha256(data).hexdigest()


def load(
    config: Config,
    *,
    cache: ParseCache | None = None,
    today: dt.date | None = None,
) -> Log:
    """Read, parse (through ``cache`` when given) and analyse the whole log."""
    with _gc_paused():
        return _load(config, cache, today)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a log is loaded.

    Loading allocates a few hundred thousand long-lived, acyclic objects; the
    collector kept re-scanning them and took about a third of the analysis
    time on 10,000 records. Reference counting still frees everything as
    usual; a cycle made meanwhile waits for the next collection.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _load(config: Config, cache: ParseCache | None, today: dt.date | None) -> Log:
    found = discover(config)
    options = ParseOptions.from_config(config)
    prefixes = {r.path: r.prefix for r in config.roots}
    problems: list[Problem] = list(found.problems)
    read: list[tuple[Found, str, bytes]] = []
    for item in found.found:
        try:
            data = _read(item.abspath)
        except OSError as exc:
            problems.append(
                Problem(
                    "ADR013",
                    Severity.WARNING,
                    f"cannot read file: {exc.strerror}",
                    path=item.path,
                    fix="check the file's permissions",
                )
            )
            continue
        read.append((item, _sha256(data), data))
    # keyed without the options, which are the same for every file here
    parsed_by_key: dict[tuple[str, str], Parsed] = {}
    misses: dict[tuple[str, str], bytes] = {}
    for item, digest, data in read:
        key = (digest, item.path)
        if key in parsed_by_key or key in misses:
            continue
        hit = cache.get((digest, item.path, options)) if cache is not None else None
        if hit is None:
            misses[key] = data
        else:
            parsed_by_key[key] = hit
    jobs = [(data, path) for (_digest, path), data in misses.items()]
    for key, parsed in zip(misses, parse_many(jobs, options), strict=True):
        parsed_by_key[key] = parsed
        if cache is not None:
            cache.put((*key, options), parsed)
    records: list[Record] = []
    for item, digest, _data in read:
        parsed = parsed_by_key[(digest, item.path)]
        records.append(_identify(item, parsed, digest, prefixes[item.root.path], problems))
    if cache is not None:
        cache.retain((digest, item.path, options) for item, digest, _data in read)
    return analyse(config, records, found, problems, today=today)


def _identify(
    item: Found, parsed: Parsed, digest: str, prefix: str, problems: list[Problem]
) -> Record:
    name = item.rel.rsplit("/", 1)[-1]
    number = file_number(name)
    rid: str
    if parsed.explicit_id:
        pid = parse_id(parsed.explicit_id)
        rid = canonical(*pid) if pid else parsed.explicit_id
        if pid:
            number = pid[1]
    elif number is not None:
        rid = canonical(prefix, number)
    else:
        rid = name.rsplit(".", 1)[0]
    if parsed.number is not None and number is not None and parsed.number != number:
        problems.append(
            Problem(
                "ADR019",
                Severity.INFO,
                f"heading says number {parsed.number} but the file name says {number}; "
                f"the id is {rid}",
                path=item.path,
                line=parsed.body_start,
                ids=(rid,),
                fix="make the heading number match the file name",
            )
        )
    domain = item.domain or parsed.domain
    return Record(
        id=rid,
        path=item.path,
        root=item.root.path,
        domain=domain,
        archived=item.archived,
        sha256=digest,
        parsed=parsed,
        number=number,
        symlink=item.symlink,
    )


def _fingerprint(config: Config, records: list[Record]) -> str:
    payload = {
        "roots": [[r.path, r.prefix] for r in config.roots],
        "records": sorted([r.path, r.sha256] for r in records),
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def analyse(
    config: Config,
    records: list[Record],
    found: Discovery,
    problems: list[Problem],
    *,
    today: dt.date | None = None,
) -> Log:
    """Resolve relations, build the graph and find every problem of SPEC 3.6."""
    prefixes = {r.path: r.prefix for r in config.roots}
    resolver = Resolver(records, prefixes)
    by_id: dict[str, list[Record]] = {}
    for rec in records:
        by_id.setdefault(rec.id.upper(), []).append(rec)
        if rec.parsed.problems:
            problems.extend(p if p.ids else p.with_ids((rec.id,)) for p in rec.parsed.problems)

    for _rid, recs in sorted(by_id.items()):
        if len(recs) > 1:
            paths = ", ".join(r.path for r in recs)
            for rec in recs:
                problems.append(
                    Problem(
                        "ADR002",
                        Severity.ERROR,
                        f"id {rec.id} is claimed by {len(recs)} records ({paths}); "
                        "references to it are not resolved",
                        path=rec.path,
                        line=rec.parsed.body_start,
                        ids=(rec.id,),
                        fix="give one of them a new number (numbers are never reused)",
                    )
                )

    unique = [r for r in records if len(by_id[r.id.upper()]) == 1]
    statuses = {r.id: r.status for r in unique}
    unit_statuses = {
        r.id: {u.key: u.status for u in r.parsed.units} for r in unique if r.parsed.units
    }
    graph = RelationGraph(statuses, unit_statuses)
    resolved_records: list[Record] = []
    for rec in records:
        rels, units = _resolve_all(rec, resolver, by_id, graph, problems)
        resolved_records.append(rec.resolved(rels, units))
    records = resolved_records

    log = Log(
        config=config,
        records=tuple(records),
        excluded=tuple(found.excluded),
        problems=(),
        roots=(),
        fingerprint=_fingerprint(config, records),
        graph=graph,
        by_id=_index_by_id(records),
        by_path={r.path: r for r in records},
    )
    problems.extend(_succession_problems(log))
    problems.extend(_review_problems(log, today or dt.date.today()))
    log.problems = tuple(sorted(_unique(problems), key=_problem_key))
    log.roots = tuple(_root_info(config, records, found))
    return log


def _index_by_id(records: list[Record]) -> dict[str, list[Record]]:
    out: dict[str, list[Record]] = {}
    for rec in records:
        out.setdefault(rec.id.upper(), []).append(rec)
    return out


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[object, ...]] = set()
    out = []
    for p in problems:
        key = (p.code, p.path, p.line, p.message)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _problem_key(p: Problem) -> tuple[object, ...]:
    return (-p.severity, p.path or "", p.line or 0, p.code, p.message)


def _root_info(config: Config, records: list[Record], found: Discovery) -> Iterable[RootInfo]:
    for root in config.roots:
        mine = [r for r in records if r.root == root.path]
        yield RootInfo(
            path=config.rel(config.root_dir(root)),
            prefix=root.prefix,
            title=root.display_title,
            layout=found.layouts.get(root.path, "flat"),
            records=sum(1 for r in mine if not r.archived),
            archived=sum(1 for r in mine if r.archived),
            units=sum(len(r.units) for r in mine),
        )


def _resolve_all(
    rec: Record,
    resolver: Resolver,
    by_id: dict[str, list[Record]],
    graph: RelationGraph,
    problems: list[Problem],
) -> tuple[tuple[Relation, ...], tuple[Unit, ...]]:
    authoritative_targets: set[str] = set()
    out: list[Relation] = []
    ambiguous_self = len(by_id[rec.id.upper()]) > 1

    def one(rel: Relation, unit: str | None) -> Relation | None:
        res = resolver.resolve(rel.target, source=rec, label=rel.label)
        if res.escapes:
            problems.append(
                Problem(
                    "ADR015",
                    Severity.WARNING,
                    f"link {rel.target!r} leaves the project; not followed",
                    path=rec.path,
                    line=rel.line,
                    ids=(rec.id,),
                    fix="link to a file inside the documentation folder",
                )
            )
            return None
        rid = res.id
        if rel.kind == "mentions":
            if rid is None or rid == rec.id or rid in authoritative_targets:
                return None
            rel = _resolved(rel, rid, res.unit)
            if not ambiguous_self:
                graph.add(rec.id, "mentions", rid, rel.origin)
            return rel
        if res.external:
            problems.append(
                Problem(
                    "ADR003",
                    Severity.INFO
                    if rel.target.startswith(("http://", "https://"))
                    else Severity.WARNING,
                    f"'{rel.verb or rel.kind}' target {rel.target!r} is not an ADR; "
                    "kept as text, not resolved",
                    path=rec.path,
                    line=rel.line,
                    ids=(rec.id,),
                    fix="point the relation at an ADR id or file if one is meant",
                )
            )
            return rel
        if len(res.ids) > 1:
            problems.append(
                Problem(
                    "ADR002",
                    Severity.ERROR,
                    f"'{rel.verb or rel.kind}' target {rel.target!r} is ambiguous: "
                    f"{', '.join(res.ids)}",
                    path=rec.path,
                    line=rel.line,
                    ids=(rec.id, *res.ids),
                    fix="refer to the record by its file path",
                )
            )
            return rel
        if not res.ids or (rid and len(by_id.get(rid.upper(), [])) > 1):
            if not res.ids:
                problems.append(
                    Problem(
                        "ADR003",
                        Severity.WARNING,
                        f"'{rel.verb or rel.kind}' target {rel.target!r} was not found",
                        path=rec.path,
                        line=rel.line,
                        ids=(rec.id,),
                        fix="check the id or file name the relation points at",
                    )
                )
            return rel
        target_id = rid
        assert target_id is not None
        target_unit = res.unit
        if target_unit is not None:
            target = by_id[target_id.upper()][0]
            if target_unit not in {u.key for u in target.parsed.units}:
                problems.append(
                    Problem(
                        "ADR008",
                        Severity.INFO,
                        f"{target_id}#{target_unit} is not a decision unit of {target_id}; "
                        f"the reference falls back to the whole record",
                        path=rec.path,
                        line=rel.line,
                        ids=(rec.id, target_id),
                        fix=f"use one of {target_id}'s units "
                        f"({', '.join(u.key for u in target.parsed.units) or 'it has none'})"
                        " or refer to the record",
                    )
                )
                target_unit = None
        if target_id == rec.id and unit is None:
            return None
        authoritative_targets.add(target_id)
        if not ambiguous_self:
            graph.add(rec.id, rel.kind, target_id, rel.origin, from_unit=unit, to_unit=target_unit)
        return _resolved(rel, target_id, target_unit)

    authoritative = [r for r in rec.parsed.relations if r.kind != "mentions"]
    mentions = [r for r in rec.parsed.relations if r.kind == "mentions"]
    for rel in authoritative:
        done = one(rel, None)
        if done is not None:
            out.append(done)
    units: list[Unit] = []
    for unit in rec.parsed.units:
        unit_rels = []
        for rel in unit.relations:
            done = one(rel, unit.key)
            if done is not None:
                unit_rels.append(done)
        units.append(unit.with_relations(tuple(unit_rels)))
    for rel in mentions:
        done = one(rel, None)
        if done is not None and not any(
            o.kind == "mentions" and o.target_id == done.target_id for o in out
        ):
            out.append(done)
    return tuple(out), tuple(units)


def _resolved(rel: Relation, target_id: str, unit: str | None) -> Relation:
    # dataclasses.replace is slow enough to show on 10,000-record logs
    return Relation(
        rel.kind, rel.target, rel.origin, rel.line, rel.verb, rel.label, target_id, unit
    )


def _succession_problems(log: Log) -> Iterable[Problem]:
    graph = log.graph
    statuses = graph.statuses
    cyc_members: set[str] = set()
    for cycle in graph.cycles():
        cyc_members.update(cycle)
        first = log.get(cycle[0])
        yield Problem(
            "ADR004",
            Severity.ERROR,
            f"supersession cycle: {' -> '.join([*cycle, cycle[0]])}",
            path=first.path if first else None,
            line=first.parsed.status_line if first else None,
            ids=tuple(cycle),
            fix="a record cannot (indirectly) supersede itself; remove one of the relations",
        )
    declared: dict[tuple[str, str], set[str]] = {}
    for edge in graph.edges("supersedes"):
        if edge.authoritative and edge.unit is None:
            declared.setdefault((edge.source, edge.target), set()).add(edge.declared_by)
    for (new, old), who in sorted(declared.items()):
        new_rec, old_rec = log.get(new), log.get(old)
        if new_rec is None or old_rec is None or new in cyc_members:
            continue
        new_status, old_status = statuses.get(new), statuses.get(old)
        if old_rec.units:
            continue  # unit-level succession is checked per unit
        if new_status != "accepted":
            continue  # a proposal may name what it would supersede
        if who == {new} and old_status != "superseded":
            yield Problem(
                "ADR005",
                Severity.WARNING,
                f"{new} says it supersedes {old}, but {old} does not say it is superseded "
                f"(its status is {old_status})",
                path=new_rec.path,
                line=next(
                    (
                        r.line
                        for r in new_rec.relations
                        if r.target_id == old and r.kind == "supersedes"
                    ),
                    None,
                ),
                ids=(new, old),
                fix=f"add 'Superseded by {new}' to {old} (mkdocs-adr supersede {old} --by {new})",
            )
        if old_status == "accepted":
            yield Problem(
                "ADR016",
                Severity.ERROR,
                f"{old} is accepted, but accepted {new} supersedes it",
                path=old_rec.path,
                line=old_rec.parsed.status_line,
                ids=(old, new),
                fix=f"mark {old} 'Superseded by {new}', or remove the relation from {new}",
            )
    for rec in log.records:
        if rec.status != "superseded" or rec.id in cyc_members or log.get(rec.id) is None:
            continue
        succ = log.successor(rec.id)
        if succ.state == "not-accepted":
            names = ", ".join(f"{s} ({statuses.get(s)})" for s in succ.candidates)
            yield Problem(
                "ADR006",
                Severity.WARNING,
                f"{rec.id} is marked superseded, but its successor is not accepted: {names}; "
                f"{rec.id} stays in effect",
                path=rec.path,
                line=rec.parsed.status_line,
                ids=(rec.id, *succ.candidates),
                fix="accept the successor, or set this record back to accepted",
            )
        elif succ.state == "ambiguous":
            yield Problem(
                "ADR007",
                Severity.WARNING,
                f"{rec.id} has more than one current successor: {', '.join(succ.candidates)}",
                path=rec.path,
                line=rec.parsed.status_line,
                ids=(rec.id, *succ.candidates),
                fix="supersede with one record, or mark the others as amending it",
            )
    # two accepted records that each supersede the other's accepted units
    unit_claims: dict[tuple[str, str], str] = {}
    for edge in graph.edges("supersedes"):
        if edge.unit and edge.authoritative:
            unit_claims[(edge.source, edge.target)] = edge.unit
    for a, b in sorted(unit_claims):
        if (b, a) in unit_claims and a < b:
            ra, rb = log.get(a), log.get(b)
            if ra and rb and log.in_effect(ra) and log.in_effect(rb):
                yield Problem(
                    "ADR016",
                    Severity.ERROR,
                    f"{a} and {b} each claim to supersede the other's accepted units",
                    path=ra.path,
                    ids=(a, b),
                    fix="decide which record wins and mark the other's unit superseded",
                )


def _review_problems(log: Log, today: dt.date) -> Iterable[Problem]:
    for rec in log.records:
        due = rec.parsed.review_by
        if not due or rec.archived or not log.in_effect(rec):
            continue
        try:
            when = dt.date.fromisoformat(due)
        except ValueError:
            yield Problem(
                "ADR017",
                Severity.WARNING,
                f"review-by date {due!r} is not a date",
                path=rec.path,
                ids=(rec.id,),
                fix="write review-by as YYYY-MM-DD",
            )
            continue
        if when < today:
            yield Problem(
                "ADR017",
                Severity.WARNING,
                f"review-by date {due} has passed ({(today - when).days} days ago)",
                path=rec.path,
                ids=(rec.id,),
                fix="review the decision, then move review-by forward or supersede it",
            )
