"""``accept``, ``reject`` and ``deprecate``: an existing record's status, changed in its style.

Each command is a plan of its own kind (``accept``, ``reject``, ``deprecate``), reviewed
and then applied through the journal like every other plan (ADR-0037):

- the edits are the format writers' (:meth:`~mkdocs_adr.parsing.formats.Writer.change_status`,
  ``mark_deprecated``) and :mod:`.relate`'s (a supersession, both sides), each record in
  its own style, every other byte kept; the status word is spelled the way the record's
  root spells it (:func:`mkdocs_adr.parsing.status.spelled_like`);
- accepting a proposal marks what it supersedes superseded, with the back-link, in the
  same plan; ``deprecate --by`` writes "deprecated by" and "deprecates", read as a
  succession, so the successor is found (the status stays ``deprecated``);
- the edited log is read back through :func:`mkdocs_adr.whatif.after` (:mod:`.readback`):
  every record must read as intended, and an error the change would bring refuses it;
- every reason to refuse is collected before saying no (exit 2); nothing is written.

:data:`PLAN_KINDS` gives :data:`mkdocs_adr.apply.KINDS` the check inside the lock
(:func:`precheck`: the plan is built again from its scope and must come out the same)
and after applying (:func:`~.plan.verify_applied`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from ..config import Config
from ..errors import UsageError
from ..fsops import sha256_bytes
from ..identity import BadReference, lookup
from ..journal import read_journal
from ..log import Log, load
from ..model import Record, Severity
from ..parsing.status import spelled_like
from ..plans import Plan, PlanKind, is_current, load_plan
from . import relate
from .outcome import Outcome, Subject
from .plan import pending, save, verify_applied
from .readback import Prepared, prepare
from .refusal import AuthoringRefused, Reason
from .running import outcome_of, waiting_lock
from .session import Side, Work, unwritable
from .writers import writer_for

#: The status each command writes.
TARGET = {"accept": "accepted", "reject": "rejected", "deprecate": "deprecated"}
#: The statuses each command changes; any other is refused with its reason.
FROM = {
    "accept": ("proposed", "draft", "unknown", "missing"),
    "reject": ("proposed", "draft", "unknown", "missing"),
    "deprecate": ("accepted", "unknown", "missing"),
}


@dataclass(frozen=True)
class StatusScope:
    """What a status plan covers: the command, the record, and ``--by``."""

    verb: str
    id: str
    by: str | None

    @property
    def command(self) -> str:
        return f"{self.verb} {self.id}" + (f" --by {self.by}" if self.by else "")

    def to_json(self) -> dict[str, Any]:
        return {"command": self.command, "verb": self.verb, "id": self.id, "by": self.by}


# --------------------------------------------------------------------- building the change


def build(
    config: Config,
    log: Log,
    verb: str,
    ref: str,
    by: str | None = None,
    today: dt.date | None = None,
) -> Prepared:
    """The change ``verb ref [--by by]`` would make, read back; refuses with every reason."""
    if verb not in TARGET:
        raise ValueError(f"unknown status command {verb!r}")
    if by is not None and verb != "deprecate":
        raise ValueError("--by belongs to deprecate")
    work = Work(config, log, f"{verb} {ref}" + (f" --by {by}" if by else ""))
    rec = work.find(ref, "ID")
    succ = work.find(by, "--by") if by is not None else None
    if rec is not None:
        _state_reasons(work, verb, rec, by)
        _writable(work, rec, "ID")
    if rec is not None and succ is not None:
        _successor_reasons(work, rec, succ)
    olds = _superseded_by_accepting(work, rec) if verb == "accept" and rec is not None else []
    _refuse(work)
    assert rec is not None
    side = work.side(rec)
    _refuse(work)
    assert side is not None
    word = _spelled(log, rec, TARGET[verb])
    if verb == "deprecate" and succ is not None:
        _deprecate_by(work, side, succ, word)
    elif side.status != TARGET[verb]:
        _change(work, side, TARGET[verb], word)
    if verb == "accept":
        for old in olds:
            old_side = work.side(old)
            if old_side is not None:
                _keep_relations(old_side)
                relate.supersede(work, old_side, side)
    _refuse(work)
    scope = StatusScope(verb, rec.id, succ.id if succ is not None else None)
    prepared = prepare(work, verb, scope, Subject(rec.id, rec.path, TARGET[verb]), today)
    errors = [p for p in prepared.problems_added if p.severity >= Severity.ERROR]
    if errors:
        raise AuthoringRefused(
            work.what,
            [
                Reason(f"the log would then have an error: {p.code} {p.message}", usage=True)
                for p in errors
            ],
        )
    return prepared


def _refuse(work: Work) -> None:
    """Refuse with every reason so far; each is about what was asked (exit 2)."""
    if work.reasons:
        raise AuthoringRefused(work.what, [Reason(r.text, usage=True) for r in work.reasons])


def _state_reasons(work: Work, verb: str, rec: Record, by: str | None) -> None:
    """Why ``rec``'s status cannot change by ``verb``, if it cannot."""
    status, rid = rec.status, rec.id
    if rec.units:
        return  # a container: :func:`_writable` says why
    if status in FROM[verb]:
        return
    target = TARGET[verb]
    if status == target:
        if verb == "deprecate" and by is not None:
            return  # the successor may still have to be recorded: the edits tell
        work.reasons.append(Reason(f"{rid} is already {target}: nothing to change"))
        return
    succ = work.log.successor(rid)
    if status == "superseded":
        by_whom = f" by {succ.current}" if succ.current else ""
        work.reasons.append(
            Reason(
                f"{rid} is superseded{by_whom}: a superseded record is history and its "
                f"status does not change (write a new record: mkdocs-adr new TITLE -s "
                f"{succ.current or rid})"
            )
        )
    elif status in ("rejected", "deprecated"):
        work.reasons.append(
            Reason(
                f"{rid} is {status}: its decision is history and its status does not "
                f"change; propose it anew (mkdocs-adr new TITLE -l 'Relates to:{rid}')"
            )
        )
    elif verb == "reject":  # accepted
        work.reasons.append(
            Reason(
                f"{rid} is accepted: it took effect, so it is not rejected; deprecate it "
                f"(mkdocs-adr deprecate {rid}) or supersede it"
            )
        )
    else:  # deprecate a proposal or draft
        work.reasons.append(
            Reason(
                f"{rid} is {status}: it never took effect, so it is not deprecated; "
                f"reject it (mkdocs-adr reject {rid})"
            )
        )


def _writable(work: Work, rec: Record, role: str) -> None:
    """Every reason ``rec`` cannot be written; a container names its units in effect."""
    for reason in unwritable(rec, role):
        if rec.units and "container" in reason.text:
            live = [u.key for u in rec.units if work.log.in_effect(rec, u)]
            if live:
                reason = Reason(
                    f"{role} {rec.id} is a container whose units {', '.join(live)} are still "
                    "in effect; each unit carries its own status, so change them by hand"
                )
        work.reasons.append(reason)


def _successor_reasons(work: Work, rec: Record, succ: Record) -> None:
    """Why ``succ`` cannot be recorded as what replaces deprecated ``rec``."""
    if succ.path == rec.path:
        work.reasons.append(Reason(f"{rec.id} cannot be deprecated by itself"))
        return
    if succ.status in ("rejected", "superseded", "deprecated"):
        work.reasons.append(
            Reason(
                f"--by {succ.id} is {succ.status}; only an accepted or proposed record can "
                f"take over from {rec.id}"
            )
        )
    others = [s for s in work.log.graph.effective_successors(rec.id) if s != succ.id]
    if others:
        work.reasons.append(
            Reason(
                f"{rec.id} already has a successor in effect ({', '.join(others)}); a second "
                f"one, {succ.id}, would make its successor ambiguous (ADR007)"
            )
        )
    if work.log.graph.supersedes(rec.id, succ.id):
        work.reasons.append(
            Reason(
                f"{rec.id} already (directly or through others) supersedes {succ.id}; "
                "the reverse would be a cycle (ADR004)"
            )
        )
    _writable(work, succ, "--by")


def _superseded_by_accepting(work: Work, rec: Record) -> list[Record]:
    """The records ``rec`` supersedes as a whole, each checked; reasons for the others.

    Accepting ``rec`` takes them out of effect, so each must be written too (marked
    superseded, the back-link on both sides), or the change is refused.
    """
    log = work.log
    olds: list[Record] = []
    seen: set[str] = set()
    for edge in log.graph.edges("supersedes"):
        if edge.source != rec.id or not edge.authoritative:
            continue
        old = log.get(edge.target)
        if old is None or old.path == rec.path:
            continue
        if edge.unit is not None:
            unit = next((u for u in old.units if u.key == edge.unit), None)
            if unit is not None and log.in_effect(old, unit):
                work.reasons.append(
                    Reason(
                        f"{rec.id} supersedes {old.id}#{unit.key}, a unit of a container that "
                        "is still in effect; each unit carries its own status, so mark it "
                        f"superseded by {rec.id} by hand, then accept {rec.id}"
                    )
                )
            continue
        if old.id in seen:
            continue
        seen.add(old.id)
        if old.units:
            live = [u.key for u in old.units if log.in_effect(old, u)]
            if live:
                work.reasons.append(
                    Reason(
                        f"{rec.id} supersedes {old.id}, a container whose units "
                        f"{', '.join(live)} are still in effect; each unit carries its own "
                        "status, so mark them by hand (or let the successor partially "
                        "supersede it)"
                    )
                )
            continue
        relate.supersede_checks(work, old, rec.id, "accepted")
        linked = any(
            r.kind == "superseded-by" and r.target_id == rec.id and r.authoritative
            for r in old.relations
        )
        if old.status != "superseded" or not linked:
            _writable(work, old, "superseded record")
        olds.append(old)
    return olds


# --------------------------------------------------------------------- the edits


def _spelled(log: Log, rec: Record, status: str) -> str:
    """``status`` as ``rec``'s root writes statuses in records of its style."""
    samples = [r.raw_status for r in log.records if r.root == rec.root and r.style == rec.style]
    writer = writer_for(rec.style)
    assert writer is not None
    return spelled_like(status, samples) or writer.status_word(status)


def _change(work: Work, side: Side, status: str, word: str) -> None:
    writer = writer_for(side.style)
    assert writer is not None
    before = side.status
    work.edit(side, lambda: writer.change_status(side.ed, word))
    side.change.what.append(f"status: {before} -> {status}")
    _keep_relations(side)
    side.status = status
    side.expect.status = status


def _keep_relations(side: Side) -> None:
    """The record must still read with every relation it stated before the edit."""
    side.expect.relations.update(side.relations)


def _deprecate_by(work: Work, old: Side, new: Record, word: str) -> None:
    """``old`` deprecated, naming ``new`` as what replaces it; ``new`` says it deprecates it."""
    succ = work.side(new)
    if succ is None:
        return
    old_writer, new_writer = writer_for(old.style), writer_for(succ.style)
    assert old_writer is not None and new_writer is not None
    _keep_relations(old)
    _keep_relations(succ)
    linked = ("superseded-by", succ.ref.id) in old.relations
    if old.status != "deprecated":
        if linked:
            _change(work, old, "deprecated", word)
        else:
            work.edit(old, lambda: old_writer.mark_deprecated(old.ed, succ.ref, word))
            old.change.what.append(
                f"status: {old.status} -> deprecated; deprecated by {succ.ref.id}"
            )
    elif not linked:
        work.edit(
            old,
            lambda: old_writer.add_relation(old.ed, "superseded-by", "Deprecated by", succ.ref),
        )
        old.change.what.append(f"deprecated by {succ.ref.id}")
    old.status = "deprecated"
    old.expect.status = "deprecated"
    old.relations.add(("superseded-by", succ.ref.id))
    old.expect.relations.add(("superseded-by", succ.ref.id))
    if ("supersedes", old.ref.id) not in succ.relations:
        work.edit(
            succ, lambda: new_writer.add_relation(succ.ed, "supersedes", "Deprecates", old.ref)
        )
        succ.change.what.append(f"deprecates {old.ref.id}")
        succ.relations.add(("supersedes", old.ref.id))
    succ.expect.relations.add(("supersedes", old.ref.id))
    if not old.ed.changed and not succ.ed.changed:
        work.reasons.append(
            Reason(f"{old.ref.id} is already deprecated by {succ.ref.id}: nothing to change")
        )


# --------------------------------------------------------------------- planning


def resume_key(verb: str, rid: str, by: str | None) -> str:
    return f"{verb} {rid} {by or ''}".strip()


def _refuse_interrupted(config: Config, what: str) -> None:
    found = pending(config)
    if found:
        raise AuthoringRefused(
            what,
            [
                Reason(
                    f"plan {p.plan_id} (`mkdocs-adr {p.scope.get('command', p.kind)}`) was "
                    "interrupted and may have written only some of its files; finish it with "
                    f"`mkdocs-adr plan --confirm {p.plan_id}` or undo it with "
                    f"`mkdocs-adr plan --rollback {p.plan_id}`"
                )
                for p in found
            ],
        )


@dataclass(frozen=True)
class Planned:
    """A status change worked out: what it writes, and the saved plan (None: a dry run)."""

    outcome: Outcome
    plan: Plan | None


def plan_change(
    config: Config,
    verb: str,
    ref: str,
    *,
    by: str | None = None,
    dry_run: bool = False,
    today: dt.date | None = None,
) -> Planned:
    """Work out ``verb ref``: show it (``dry_run``: nothing written, not even the work
    dir) or save it as a plan to review and confirm. Nothing in the log is written."""
    if dry_run:
        prepared = build(config, load(config, today=today), verb, ref, by, today)
        return Planned(outcome_of(prepared, verb, dry_run=True), None)
    # a half-applied plan first: what the log says now may be its half
    _refuse_interrupted(config, f"{verb} {ref}")
    # a first pass without the lock: a refusal leaves no trace, not even a work dir
    build(config, load(config, today=today), verb, ref, by, today)
    with waiting_lock(config.work_path, f"plan {verb}"):
        _refuse_interrupted(config, f"{verb} {ref}")
        prepared = build(config, load(config, today=today), verb, ref, by, today)
        scope = prepared.scope
        assert isinstance(scope, StatusScope)
        plan = save(config, prepared, resume_key(verb, scope.id, scope.by))
    out = outcome_of(prepared, verb, dry_run=False)
    out.plan_id = plan.plan_id
    return Planned(out, plan)


def check_confirm(config: Config, verb: str, ref: str, plan_id: str, by: str | None) -> Plan:
    """The plan ``--confirm`` names, checked to be this command's on this record."""
    plan = load_plan(config.work_path, plan_id)
    if plan.kind != verb:
        raise UsageError(
            f"plan {plan_id} is a {plan.kind} plan, not a {verb} plan",
            fix=f"apply it with: mkdocs-adr plan --confirm {plan_id}",
        )
    try:
        rid = lookup(load(config), ref, partial=True).record.id
    except BadReference:
        rid = ref
    planned = str(plan.scope.get("id") or "")
    if rid.upper() != planned.upper() or (
        by is not None and str(plan.scope.get("by") or "").upper() != _id_of(config, by).upper()
    ):
        raise UsageError(
            f"plan {plan_id} is `mkdocs-adr {plan.scope.get('command', plan.kind)}`, not "
            f"`mkdocs-adr {verb} {ref}" + (f" --by {by}`" if by else "`"),
            fix=f"confirm it with that command, or plan `{verb} {ref}` again",
        )
    return plan


def _id_of(config: Config, ref: str) -> str:
    try:
        return lookup(load(config), ref, partial=True).record.id
    except BadReference:
        return ref


# --------------------------------------------------------------------- the plan kinds


def precheck(config: Config, plan: Plan) -> list[str]:
    """Inside the lock, before the first write: the plan, built again from its scope on
    the log as it is now, must write exactly what was reviewed."""
    state = read_journal(config.work_path, plan.plan_id)
    if state.begun and not state.rolled_back:
        return []  # resuming: each step's hashes say what is left to do
    if not is_current(config.work_path, plan):
        return [f"a newer version of this plan's scope exists (this is version {plan.version})"]
    scope = plan.scope
    try:
        prepared = build(
            config,
            load(config),
            str(scope.get("verb") or plan.kind),
            str(scope.get("id") or ""),
            scope.get("by"),
        )
    except AuthoringRefused as exc:
        return [f"it would now be refused: {r.text}" for r in exc.reasons]
    now = sorted((path, sha256_bytes(data)) for path, data in prepared.contents.items())
    planned = sorted((s.path, s.after or "") for s in plan.steps)
    if now != planned:
        return ["the records changed since the plan was made; it would now write other bytes"]
    return []


#: ``accept``, ``reject`` and ``deprecate`` plans; :data:`mkdocs_adr.apply.KINDS` lists them.
PLAN_KINDS = tuple(PlanKind(kind, verify=verify_applied, precheck=precheck) for kind in TARGET)
