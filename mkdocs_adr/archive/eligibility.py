"""Which records may move to the archive (SPEC 8). Age is never a reason.

Eligible: a whole record out of effect (superseded, rejected, deprecated; for
a container, every unit), whose current successor resolves unambiguously
when it is superseded, and with no open problem that affects the move.
Records a user might expect to be eligible (out of effect, or a container
with some units out of effect) are listed with every reason they are not.
"""

from __future__ import annotations

from ..log import Log
from ..model import OUT_OF_EFFECT, Candidate, Problem, Record, Severity

#: Problems that never block a move: a passed review-by date concerns a
#: decision in effect, and info-level findings are annotations.
NON_BLOCKING_CODES = frozenset({"ADR017"})


def candidates(log: Log) -> list[Candidate]:
    """Every unarchived record out of effect, eligible or with all its reasons."""
    out: list[Candidate] = []
    problems: dict[str, list[Problem]] = {}
    for p in log.problems:
        if p.severity >= Severity.WARNING and p.code not in NON_BLOCKING_CODES:
            for rid in dict.fromkeys(p.ids):
                problems.setdefault(rid, []).append(p)
    for rec in log.active:
        if rec.units:
            live = [u for u in rec.units if u.status not in OUT_OF_EFFECT]
            if live:
                if len(live) < len(rec.units):
                    shown = ", ".join(f"{u.key} ({u.status})" for u in live)
                    out.append(
                        Candidate(
                            rec.id,
                            rec.path,
                            False,
                            (f"units still in effect or open: {shown}",),
                        )
                    )
                continue
        elif rec.status not in OUT_OF_EFFECT:
            continue
        succession = _succession_reasons(log, rec)
        reasons = [
            *succession,
            *_file_reasons(rec),
            *_problem_reasons(rec, problems.get(rec.id, []), bool(succession)),
        ]
        out.append(Candidate(rec.id, rec.path, not reasons, tuple(reasons)))
    return out


def eligible_ids(log: Log) -> list[str]:
    return [c.id for c in candidates(log) if c.eligible]


def dispositions(log: Log, found: list[Candidate] | None = None) -> dict[str, str]:
    """Disposition of every unarchived record in a read-only plan.

    ``found`` is :func:`candidates` of ``log`` when the caller has it.
    """
    if found is None:
        found = candidates(log)
    eligible = {c.path for c in found if c.eligible}
    out: dict[str, str] = {}
    for rec in log.active:
        if rec.path in eligible:
            out[rec.path] = "archive-candidate"
        elif log.in_effect(rec) or rec.status in OUT_OF_EFFECT:
            out[rec.path] = "retained"
        else:
            out[rec.path] = "open"
    return out


def _succession_reasons(log: Log, rec: Record) -> list[str]:
    """Why the succession of ``rec`` (or of its superseded units) does not settle."""
    if rec.units:
        return [
            r
            for unit in rec.units
            if unit.status == "superseded"
            for r in _unit(log, rec, unit.key)
        ]
    if rec.status != "superseded":
        return []
    succ = log.successor(rec.id)
    statuses = log.graph.statuses
    if succ.state == "current":
        return []
    if succ.state == "ambiguous":
        return [f"ambiguous successor: {', '.join(succ.candidates)}"]
    if succ.state == "cycle":
        return ["supersession cycle: " + ", ".join((rec.id, *succ.chain, *succ.candidates))]
    if succ.state == "not-accepted":
        names = ", ".join(f"{s} ({statuses.get(s, 'unknown')})" for s in succ.candidates)
        return [
            f"successor not accepted: {names}; {rec.id} stays in effect until it is"
            if names
            else f"successor not accepted; {rec.id} stays in effect"
        ]
    written = [
        r.target for r in rec.relations if r.kind in ("superseded-by",) and r.target_id is None
    ]
    if written:
        return ["successor does not resolve to a record: " + ", ".join(repr(w) for w in written)]
    return ["superseded, but no successor is named"]


def _unit(log: Log, rec: Record, key: str) -> list[str]:
    succ = log.successor(rec.id, key)
    if succ.state == "current":
        return []
    if succ.state == "ambiguous":
        return [f"ambiguous successor of unit {key}: {', '.join(succ.candidates)}"]
    if succ.state == "not-accepted":
        statuses = log.graph.statuses
        names = ", ".join(f"{s} ({statuses.get(s, 'unknown')})" for s in succ.candidates)
        return [f"successor of unit {key} not accepted: {names}"]
    return [f"unit {key} is superseded, but no successor is named"]


def _file_reasons(rec: Record) -> list[str]:
    if rec.symlink:
        return [
            "the record is a symlink; moving the link would break it "
            "(archive the file it points to, or replace the link with the file)"
        ]
    return []


#: Problems that say what a succession reason already said.
SUCCESSION_CODES = frozenset({"ADR004", "ADR006", "ADR007"})


def _problem_reasons(rec: Record, problems: list[Problem], succession_said: bool) -> list[str]:
    out = []
    for p in problems:
        if succession_said and p.code in SUCCESSION_CODES:
            continue
        out.append(f"open problem {p.code} at {p.where or rec.path}: {p.message}")
    return out
