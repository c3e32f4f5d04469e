"""Which records a consolidation takes as sources, grouped, and which it leaves alone.

A group is the records of one root that share a domain, a tag or a component
(``--group-by``), or exactly the records ``--sources`` names. Within a group the
sources are the whole, unarchived records in effect that mkdocs-adr can write and
that take part in a relation with another such record (an amend, an extension, a
partial supersession...): a record on its own is already clear and is left alone,
and so is everything that is history (superseded, rejected, deprecated), a
proposal (it stays a proposal), a container (its units carry their own status)
or a record in a style mkdocs-adr cannot write. Every record left alone is
reported with its reason. What is in effect is :meth:`mkdocs_adr.log.Log.in_effect`'s
answer; nothing here re-derives succession.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from ..identity import BadReference, lookup
from ..log import Log
from ..model import Record
from ..parsing.formats import WRITABLE

GROUP_BY = ("domain", "tag", "component")
NO_KEY = "(none)"


@dataclass(frozen=True)
class LeftAlone:
    id: str
    path: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "path": self.path, "reason": self.reason}


@dataclass
class Group:
    """The records of one root that one replacement takes over."""

    key: str
    root: str
    sources: list[Record] = field(default_factory=list)
    left_alone: list[LeftAlone] = field(default_factory=list)


def _key(rec: Record, group_by: str) -> str:
    if group_by == "domain":
        return rec.domain or NO_KEY
    values = rec.parsed.tags if group_by == "tag" else rec.parsed.affected_components
    return sorted(values)[0] if values else NO_KEY


def why_not(log: Log, rec: Record) -> str | None:
    """Why ``rec`` cannot be a source at all (None: it can)."""
    if rec.archived:
        return "archived: history, read only for a named dependency"
    if rec.units:
        return "a container record: each unit carries its own status; change its units by hand"
    if not log.in_effect(rec):
        status = log.status_of(rec)
        if status in ("proposed", "draft"):
            return f"{status}: a proposal stays a proposal until it is accepted"
        if status == "missing":
            return "states no status, so it is not in effect"
        if status == "unknown":
            return f"its status {rec.raw_status!r} is not one mkdocs-adr reads as in effect"
        return f"{status}: not in effect (history)"
    if rec.style not in WRITABLE:
        return f"written in style '{rec.style}', which mkdocs-adr cannot change safely"
    if len(log.by_id.get(rec.id.upper(), [])) != 1:
        return f"its id {rec.id} is claimed by more than one record"
    return None


def _related(log: Log, ids: set[str]) -> set[str]:
    """The ids of ``ids`` that relate to another of ``ids`` (either side states it)."""
    out: set[str] = set()
    for edge in log.graph.edges():
        if not edge.authoritative or edge.source == edge.target:
            continue
        if edge.source in ids and edge.target in ids:
            out.update((edge.source, edge.target))
    return out


def groups(
    log: Log,
    *,
    group_by: str = "domain",
    domain: str | None = None,
    sources: str | None = None,
) -> list[Group]:
    """The groups of the scope, in root and key order; every group, even one too small."""
    if group_by not in GROUP_BY:
        raise UsageError(f"--group-by {group_by!r} is not one of {', '.join(GROUP_BY)}")
    if sources is not None:
        return [_named(log, sources)]
    found: dict[tuple[str, str], Group] = {}
    for rec in log.records:
        if rec.archived:
            continue
        if domain is not None and (rec.domain or "") != domain:
            continue
        key = _key(rec, group_by)
        group = found.setdefault((rec.root, key), Group(key, rec.root))
        reason = why_not(log, rec)
        if reason is None:
            group.sources.append(rec)
        else:
            group.left_alone.append(LeftAlone(rec.id, rec.path, reason))
    if domain is not None and not found:
        known = sorted({r.domain for r in log.records if r.domain})
        raise UsageError(
            f"no unarchived record is in domain {domain!r}",
            fix=f"domains: {', '.join(known) or 'none'}",
        )
    out = []
    for _where, group in sorted(found.items(), key=_first):
        related = _related(log, {r.id for r in group.sources})
        alone = [r for r in group.sources if r.id not in related]
        for rec in alone:
            group.left_alone.append(
                LeftAlone(
                    rec.id,
                    rec.path,
                    "unrelated: no amend, extension or other relation to another record "
                    "in effect in this group, so it is already clear on its own",
                )
            )
        group.sources = sorted((r for r in group.sources if r not in alone), key=_order)
        out.append(group)
    return out


def _order(rec: Record) -> tuple[int, str]:
    """Sources in number order (dated records, numberless, by path after them)."""
    return (rec.number if rec.number is not None else 1 << 30, rec.path)


def _first(item: tuple[tuple[str, str], Group]) -> tuple[str, int, str]:
    """Groups in root order, then by the number of their first record."""
    (root, key), group = item
    numbers = [r.number for r in group.sources if r.number is not None]
    return (root, min(numbers, default=1 << 30), key)


def _named(log: Log, text: str) -> Group:
    """The one group ``--sources ID,ID`` names; every bad token is said at once."""
    tokens = [t.strip() for t in text.split(",") if t.strip()]
    errors: list[str] = []
    chosen: list[Record] = []
    for token in tokens:
        try:
            rec = lookup(log, token, partial=True).record
        except BadReference as exc:
            errors.append(f"{token!r}: {exc.message}")
            continue
        reason = why_not(log, rec)
        if reason is not None:
            errors.append(f"{rec.id} cannot be consolidated: {reason}")
        elif rec not in chosen:
            chosen.append(rec)
    if len(chosen) + len(errors) and len({r.root for r in chosen}) > 1:
        errors.append("the sources lie in more than one ADR root; consolidate each root apart")
    if not errors and len(chosen) < 2:
        errors.append("consolidating needs at least two records in effect")
    if errors:
        raise UsageError("--sources: " + "; ".join(errors), fix="see `mkdocs-adr plan`")
    return Group("selected", chosen[0].root, sorted(chosen, key=_order))
