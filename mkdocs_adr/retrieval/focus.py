"""What a ``context`` question is about: the target it names and the focus it starts from.

:func:`resolve_target` turns the typed id (through :func:`mkdocs_adr.identity.lookup`)
and ``--unit`` into a :class:`Target`; :func:`by_domain` and :func:`by_iteration`
select a group. :func:`focus_on_target` and :func:`focus_on_group` put the focus
items into an :class:`~.walk.Evidence` and return the ids the relation walks
start from: for an old id under ``current``, its accepted successor, found
through metadata without the ancestors' bodies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import rx
from ..errors import UsageError
from ..graph import Succession
from ..identity import UnknownReference, lookup
from ..log import Log
from ..model import Record, Unit
from .budget import capped
from .collect import Replacement, replacement
from .evidence import status_of
from .respond import quote_args
from .walk import FOCUS, INCIDENTAL, REQUIRED, Evidence

MAX_LISTED = 30
#: Ids listed in ``succession.chain`` and ``candidates``; the rest are counted.
MAX_SUCCESSION = 10

_UNIT = rx.compile(r"^[Dd]?(\d{1,3})$")
#: Typed text that reads as words (two letters running), not an id or a number.
_WORDS = rx.compile(r"[^\W\d_]{2}")


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
    try:
        found = lookup(log, raw, unit_ok=True)
    except UnknownReference as exc:
        if exc.nearest or exc.excluded is not None or not _WORDS.search(raw):
            raise
        # words, not an id: the refusal names the search that takes words
        raise UsageError(
            exc.message,
            fix=f"{exc.fix}; to search by words: mkdocs-adr {quote_args(['find', '--topic', raw])}",
        ) from None
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


def _unknown(what: str, value: str, known: list[str], *, none: str, fix: str) -> UsageError:
    shown, more = capped(known, MAX_LISTED)
    listed = (
        f"; {what}s: {', '.join(shown)}" + (f" (+{more} more)" if more else "") if known else none
    )
    return UsageError(f"no record is in {what} {value!r}{listed}", fix=fix)


def by_domain(log: Log, domain: str) -> list[Record]:
    recs = [r for r in log.records if r.domain == domain]
    if not recs:
        folded = [r for r in log.records if (r.domain or "").casefold() == domain.casefold()]
        recs = folded if len({r.domain for r in folded}) == 1 else []
    if not recs:
        raise _unknown(
            "domain",
            domain,
            sorted({r.domain for r in log.records if r.domain}),
            none="; this log has no domains",
            fix="run `mkdocs-adr context` for an overview",
        )
    return recs


def by_iteration(log: Log, iteration: str) -> list[Record]:
    recs = [r for r in log.records if (r.parsed.iteration or "").strip() == iteration.strip()]
    if not recs:
        raise _unknown(
            "iteration",
            iteration,
            sorted({r.parsed.iteration for r in log.records if r.parsed.iteration}),
            none="; no record names an iteration",
            fix="records name their iteration in frontmatter (`iteration: 2024-Q1`)",
        )
    return recs


# --------------------------------------------------------------------- succession


@dataclass(frozen=True)
class SuccessionInfo:
    """What the answer says about the asked record's succession (``succession``)."""

    asked: str
    status: str
    in_effect: bool
    #: The successor, when there is one to speak of (or the record says superseded).
    succession: Succession | None = None

    def to_json(self) -> dict[str, Any] | None:
        """The response's ``succession`` block; ``None`` when nothing replaced the record."""
        succ = self.succession
        if succ is None:
            return None
        chain, chain_left = capped(succ.chain, MAX_SUCCESSION)
        candidates, cand_left = capped(succ.candidates, MAX_SUCCESSION)
        out: dict[str, Any] = {
            "asked": self.asked,
            "status": self.status,
            "in_effect": self.in_effect,
            "state": succ.state,
            "current": succ.current,
            "chain": chain,
            "candidates": candidates,
        }
        if chain_left or cand_left:
            out["omitted"] = {"chain": chain_left, "candidates": cand_left}
        return out


@dataclass(frozen=True)
class _Asked:
    """One asked record or unit with what the log says about it now."""

    rec: Record
    unit: Unit | None
    name: str
    status: str
    effect: bool
    repl: Replacement
    #: The units shown for the asked record itself.
    units: Unit | str

    @property
    def succ(self) -> Succession:
        return self.repl.succession


# --------------------------------------------------------------------- focus


def focus_on_target(ev: Evidence, log: Log, target: Target) -> tuple[list[str], SuccessionInfo]:
    """Focus items for one asked record or unit; returns the focus ids and the succession."""
    rec, unit = target.rec, target.unit
    if target.note:
        ev.warnings.append(target.note)
    status = status_of(rec, unit)
    repl = replacement(log, rec, unit)
    succ = repl.succession
    asked = _Asked(
        rec,
        unit,
        repl.name,
        status,
        log.in_effect(rec, unit),
        repl,
        unit or ("all" if ev.intent != "current" else "effect"),
    )
    info = SuccessionInfo(
        asked.name,
        status,
        asked.effect,
        succ if succ.state != "none" or status == "superseded" else None,
    )
    if target.segment is not None:
        ev.add_record(
            FOCUS,
            rec,
            "asked (one segment)",
            hops=0,
            units=unit or "all",
            scope=ev.text_scope,
            required=True,
        )
        return [rec.id], info
    if rec.units and unit is None and asked.effect:
        return _container_in_effect(ev, log, asked), info
    if asked.effect:
        return _in_effect(ev, log, asked), info
    if repl.current is not None:
        return _replaced(ev, asked, repl.current), info
    if succ.state == "ambiguous":
        return _ambiguous(ev, log, asked), info
    return _out_of_effect(ev, asked), info


def _container_in_effect(ev: Evidence, log: Log, asked: _Asked) -> list[str]:
    """A container in effect: its live units, then what replaced the others."""
    rec = asked.rec
    ev.add_record(FOCUS, rec, "asked", hops=0, units=asked.units, required=True)
    focus = [rec.id]
    for u in rec.units:
        if log.in_effect(rec, u):
            continue
        r = replacement(log, rec, u)
        if r.current is not None:
            ev.add_record(
                REQUIRED,
                r.current,
                f"current successor of {r.name} ({r.chain})",
                hops=1,
                required=True,
            )
            focus.append(r.current.id)
    return focus


def _in_effect(ev: Evidence, log: Log, asked: _Asked) -> list[str]:
    """In effect (even if marked superseded with no accepted successor); proposals besides."""
    succ, why = asked.succ, "asked"
    if asked.status == "superseded":
        why = (
            f"asked; marked superseded, but no accepted record replaces it "
            f"({', '.join(succ.candidates) or 'no successor named'}), so it stays in effect"
        )
        ev.warnings.append(f"{asked.name}: {why[len('asked; ') :]}")
    ev.add_record(FOCUS, asked.rec, why, hops=0, units=asked.units, required=True)
    for other in asked.repl.candidates:
        ev.add_record(
            INCIDENTAL,
            other,
            f"proposed successor of {asked.name}, {other.status}: not in effect",
            hops=1,
            units="all",
        )
    return [asked.rec.id]


def _replaced(ev: Evidence, asked: _Asked, current: Record) -> list[str]:
    """Replaced by an accepted successor: it answers ``current``; both answer the others."""
    why = f"current successor of {asked.name} ({asked.repl.chain})"
    if ev.intent == "current":
        ev.add_record(FOCUS, current, why, hops=0, required=True)
        ev.hints.append(f"context {asked.name} --intent history")
        return [current.id]
    ev.add_record(
        FOCUS,
        asked.rec,
        f"asked; {asked.status}, replaced by {current.id}",
        hops=0,
        units=asked.units,
        required=True,
    )
    scope_full = "full" if ev.intent != "current" else None
    ev.add_record(FOCUS, current, why, hops=1, scope=scope_full, required=True)
    return [asked.rec.id, current.id]


def _ambiguous(ev: Evidence, log: Log, asked: _Asked) -> list[str]:
    """More than one current successor: none is chosen, all are shown."""
    candidates = asked.succ.candidates
    ev.warnings.append(
        f"{asked.name} has more than one current successor ({', '.join(candidates)}); "
        "none is chosen: all are shown"
    )
    if ev.intent != "current":
        ev.add_record(
            FOCUS, asked.rec, f"asked; {asked.status}", hops=0, units=asked.units, required=True
        )
    for other in asked.repl.candidates:
        ev.add_record(
            FOCUS,
            other,
            f"candidate successor of {asked.name} (ambiguous: {asked.repl.contested}; none chosen)",
            hops=1,
            required=True,
        )
    return [*([asked.rec.id] if ev.intent != "current" else []), *candidates]


def _out_of_effect(ev: Evidence, asked: _Asked) -> list[str]:
    """Out of effect, with no accepted successor to answer with: shown as it is."""
    succ = asked.succ
    reason = {
        "cycle": "its supersession chain loops",
        "not-accepted": "no accepted record replaces it "
        f"({', '.join(succ.candidates) or 'successor not accepted'})",
        "none": "superseded, but it names no successor" if asked.status == "superseded" else "",
    }.get(succ.state, "")
    why = f"asked; {asked.status}: not in effect" + (f"; {reason}" if reason else "")
    if reason:
        ev.warnings.append(f"{asked.name}: {reason}")
    units = asked.units if asked.unit else "all"
    ev.add_record(FOCUS, asked.rec, why, hops=0, units=units, required=True)
    return [asked.rec.id]


def focus_on_group(ev: Evidence, log: Log, recs: list[Record], label: str) -> list[str]:
    """Focus for ``--domain``/``--iteration``: live units; under history, the whole lineage."""
    focus: list[str] = []
    for rec in recs:
        if ev.intent == "history":
            if rec.archived:
                ev.add_record(
                    FOCUS,
                    rec,
                    f"{label}; archived: body not read implicitly (ask `context {rec.id}`)",
                    hops=0,
                    units="all",
                    scope="none",
                    required=True,
                )
            else:
                ev.add_record(
                    FOCUS, rec, f"{label}; {rec.status}", hops=0, units="all", required=True
                )
            focus.append(rec.id)
        elif log.in_effect(rec) and not rec.archived:
            ev.add_record(FOCUS, rec, label, hops=0, required=True)
            focus.append(rec.id)
    return focus
