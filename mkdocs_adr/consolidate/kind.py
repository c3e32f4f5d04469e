"""Confirming a consolidation plan: its checks inside the lock and after the journal.

Inside the lock (:func:`precheck`), before the first write: the plan must be its
scope's current version, every number it reserved must still be free (a number
taken meanwhile makes the plan stale; it is never silently renumbered), no record
may have appeared, and the plan built again from its scope and reviewed coverage
on the log as it is now must write exactly the reviewed bytes. A resumed plan is
checked by its steps' hashes alone. After the journal (:func:`verify_applied`):
every record reads back with the reviewed id, status and relations, and each
CURRENT view matches its manifest.
"""

from __future__ import annotations

from dataclasses import replace

from ..authoring.placement import numbering
from ..authoring.readback import check
from ..authoring.refusal import AuthoringRefused
from ..authoring.session import Expect
from ..config import Config
from ..errors import RefusedError, UsageError
from ..identity import parse_id
from ..journal import read_journal
from ..log import load
from ..plans import Plan, PlanKind, is_current
from ..summary.kind import verify_applied as current_verified
from .draft import DRAFT_KIND, KIND, Scope, build, reserved
from .save import overrides_of


def taken_numbers(config: Config, plan: Plan) -> list[str]:
    """Every number ``plan`` reserved that the log (or a numbered file) now holds."""
    log = load(config)
    out: list[str] = []
    for rid, path in reserved(plan):
        holders = [r.path for r in log.by_id.get(rid.upper(), []) if r.path != path]
        if holders:
            out.append(
                f"the number of {rid}, reserved by this plan for {path}, is now taken by "
                f"{', '.join(holders)}; plan again (nothing is renumbered silently)"
            )
    firsts: dict[str, int] = {}
    for rep in plan.review.get("replacements") or []:
        parsed = parse_id(str(rep["id"]))
        if parsed is not None:
            where = str(rep.get("root") or "")
            firsts[where] = min(firsts.get(where, parsed[1]), parsed[1])
    for root in config.roots:
        if root.path in firsts and not out:
            nxt, _width = numbering(config, log, root)
            if nxt > firsts[root.path]:
                out.append(
                    f"number {firsts[root.path]}, the first this plan reserved in {root.path}, "
                    f"is now in use (the next free number is {nxt}); plan again "
                    "(nothing is renumbered silently)"
                )
    return out


def precheck(config: Config, plan: Plan) -> list[str]:
    state = read_journal(config.work_path, plan.plan_id)
    if state.begun and not state.rolled_back:
        return []  # resuming: each step's hashes say what is left to do
    if not is_current(config.work_path, plan):
        return [f"a newer version of this plan's scope exists (this is version {plan.version})"]
    taken = taken_numbers(config, plan)
    if taken:
        return taken
    log = load(config)
    written = {s.path for s in plan.steps}
    appeared = [
        f"{r.path} appeared since the plan was made ({r.id}, {r.status})"
        for r in log.records
        if r.path not in plan.inputs and r.path not in written
    ]
    if appeared:
        return appeared
    try:
        again = build(
            config,
            log,
            Scope.from_json(plan.scope),
            overrides=overrides_of(plan),
            accept=plan.kind == KIND,
            date=str(plan.review.get("date") or "") or None,
        )
    except AuthoringRefused as exc:
        return [f"it would now be refused: {r.text}" for r in exc.reasons]
    except (UsageError, RefusedError) as exc:
        return [f"it would now be refused: {exc.message}"]
    if _compared(again.plan) != _compared(plan):
        return ["the records changed since the plan was made; it would now write other bytes"]
    return []


def _compared(plan: Plan) -> list[dict[str, object]]:
    """The steps a rebuild must reproduce: records and INDEX (a CURRENT manifest carries
    the time it was made, so the views are compared by the records they derive from)."""
    return [s.to_json() for s in plan.steps if s.part != "current"]


def verify_applied(config: Config, plan: Plan) -> list[str]:
    expects = [Expect.from_json(e) for e in plan.review.get("expect") or []]
    problems = check(load(config), expects)
    current = plan.review.get("current_review")
    if current:
        problems += current_verified(config, replace(plan, review=current))
    return problems


#: Consolidation plans (accept and apply; save draft only): :data:`mkdocs_adr.apply.KINDS`.
PLAN_KINDS = (
    PlanKind(KIND, verify=verify_applied, precheck=precheck),
    PlanKind(DRAFT_KIND, verify=verify_applied, precheck=precheck),
)
