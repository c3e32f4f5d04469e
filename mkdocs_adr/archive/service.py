"""Archive planning: choose records, build the relocation, save the plan, preview it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..config import Config
from ..errors import RefusedError, UsageError
from ..identity import BadReference, References, UnknownReference
from ..journal import read_journal
from ..log import Log, load
from ..model import Record
from ..plans import Plan, list_plans, save_plan
from .eligibility import candidates
from .moves import archive_target
from .planner import Draft, relocate
from .review import build_review

PREVIEW_SCHEMA = "mkdocs-adr/archive-plan"
PREVIEW_VERSION = 1
CONFIRM = "mkdocs-adr plan --confirm {plan_id}"
RESTORE = "mkdocs-adr archive restore {plan_id}"
ROLLBACK = "mkdocs-adr plan --rollback {plan_id}"


@dataclass
class Preview:
    """A saved plan (or none, when nothing moves) and what to show about it."""

    kind: str
    plan: Plan | None
    review: dict[str, Any]
    fingerprint: str
    scope: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def blocking(self) -> list[str]:
        return list(self.plan.blocking) if self.plan else []

    def to_json(self) -> dict[str, Any]:
        review = {k: v for k, v in self.review.items() if k != "relations"}
        plan_id = self.plan.plan_id if self.plan else None
        steps = self.plan.steps if self.plan else []
        reverse = dict(review.get("reverse") or {})
        if plan_id and self.kind == "archive":
            reverse["command"] = RESTORE.format(plan_id=plan_id)
        return {
            "schema": PREVIEW_SCHEMA,
            "version": PREVIEW_VERSION,
            "kind": self.kind,
            "plan_id": plan_id,
            "plan_version": self.plan.version if self.plan else None,
            "fingerprint": self.fingerprint,
            "scope": self.scope,
            "records": review.get("records", []),
            "moves": review.get("moves", []),
            "links": review.get("links", []),
            "index": review.get("index", []),
            "manifest": review.get("manifest", []),
            "redirects": review.get("redirects", []),
            "conflicts": review.get("conflicts", []),
            "risks": review.get("risks", []),
            "ineligible": review.get("ineligible", []),
            "reverse": reverse,
            "writes": [{"op": s.op, "path": s.path, "to": s.to, "part": s.part} for s in steps],
            "blocking": self.blocking,
            "confirm": CONFIRM.format(plan_id=plan_id) if plan_id and not self.blocking else None,
            "notes": self.notes,
        }


# --------------------------------------------------------------------- selection


def select(log: Log, raw: str, *, archived: bool) -> list[Record]:
    """Records named in ``--sources``; every bad token is reported at once (exit 2)."""
    tokens = [t.strip() for t in raw.split(",") if t.strip()]
    if not tokens:
        raise UsageError("--sources names no record", fix="give ids such as ADR-0003,ADR-0007")
    chosen: list[Record] = []
    errors: list[str] = []
    wanted = "archived" if archived else "unarchived"
    refs = References(log)
    for token in tokens:
        try:
            rec = refs.lookup(token, among=lambda r: r.archived == archived).record
        except UnknownReference as exc:
            if exc.excluded is not None:
                errors.append(exc.message)
                continue
            near = exc.hint(f"nearest {wanted}")
            errors.append(f"{token!r} names no record" + (f" ({near})" if near else ""))
            continue
        except BadReference as exc:  # ambiguous, a unit, a path leaving the project
            errors.append(exc.message)
            continue
        if rec.archived != archived:
            errors.append(
                f"{rec.id} is already archived ({rec.path})"
                if rec.archived
                else f"{rec.id} is not archived ({rec.path})"
            )
        elif rec not in chosen:
            chosen.append(rec)
    if errors:
        raise UsageError(
            "; ".join(errors),
            fix=f"name {wanted} records by id or path; `mkdocs-adr plan` lists them",
        )
    return chosen


# --------------------------------------------------------------------- interrupted plans


@dataclass(frozen=True)
class Interrupted:
    """A plan whose apply stopped part-way: what is done, and how to finish or undo it."""

    plan_id: str
    kind: str
    done: int  # steps journalled done
    total: int
    half_done: tuple[str, ...]  # steps started but not journalled done
    next: str | None
    finish: str  # the command that finishes it
    undo: str | None  # the command that undoes it (archive and restore plans)


def interrupted(config: Config) -> list[Interrupted]:
    """Plans whose apply stopped part-way, with what is done and how to finish or undo."""
    out: list[Interrupted] = []
    for plan in list_plans(config.work_path):
        state = read_journal(config.work_path, plan.plan_id)
        if state.state != "interrupted":
            continue
        pending = [n for n in range(len(plan.steps)) if n not in state.done]
        half = sorted(state.started - state.done)
        out.append(
            Interrupted(
                plan_id=plan.plan_id,
                kind=plan.kind,
                done=len(state.done),
                total=len(plan.steps),
                half_done=tuple(_describe(plan, n) for n in half),
                next=_describe(plan, pending[0]) if pending else None,
                finish=CONFIRM.format(plan_id=plan.plan_id),
                undo=ROLLBACK.format(plan_id=plan.plan_id)
                if plan.kind in ("archive", "restore")
                else None,
            )
        )
    return out


def _describe(plan: Plan, n: int) -> str:
    step = plan.steps[n]
    if step.op == "move":
        return f"step {n + 1}: move {step.path} -> {step.to}"
    return f"step {n + 1}: {step.op} {step.path} ({step.part})"


def explain_interrupted(items: list[Interrupted]) -> str:
    lines = []
    for item in items:
        lines.append(
            f"plan {item.plan_id} ({item.kind}) was interrupted after "
            f"{item.done} of {item.total} steps" + (f"; next: {item.next}" if item.next else "")
        )
        lines.append(f"  finish it: {item.finish}")
        if item.undo:
            lines.append(f"  or undo what it did: {item.undo}")
    return "\n".join(lines)


def refuse_if_interrupted(config: Config) -> None:
    items = interrupted(config)
    if items:
        raise RefusedError(
            "the tree is part-way through another plan, so a new plan would start from a "
            "half-moved state:\n" + explain_interrupted(items),
            fix="finish or undo that plan first",
        )


# --------------------------------------------------------------------- archive


def plan_archive(config: Config, sources: str | None = None) -> Preview:
    """Plan archiving ``sources`` (or every eligible record) and save the plan."""
    refuse_if_interrupted(config)
    log = load(config)
    cands = candidates(log)
    by_id = {c.id: c for c in cands}
    if sources is not None:
        chosen = select(log, sources, archived=False)
        refused = []
        for rec in chosen:
            cand = by_id.get(rec.id)
            if cand is None:
                refused.append(f"{rec.id} is in effect or open (status {rec.status})")
            elif not cand.eligible:
                refused.append(f"{rec.id} is not eligible: " + "; ".join(cand.reasons))
        if refused:
            raise RefusedError(
                "; ".join(refused),
                fix="archive only records out of effect whose successor is settled "
                "(`mkdocs-adr archive` lists the eligible ones)",
            )
        scope: dict[str, Any] = {"select": "sources", "ids": sorted(r.id for r in chosen)}
    else:
        chosen = [r for r in log.active if by_id.get(r.id) and by_id[r.id].eligible]
        scope = {"select": "eligible", "ids": sorted(r.id for r in chosen)}
    ineligible = [c for c in cands if not c.eligible]
    if not chosen:
        review = {
            "kind": "archive",
            "ineligible": [c.to_json() for c in ineligible],
        }
        return Preview(
            "archive",
            None,
            review,
            log.fingerprint,
            scope,
            ["nothing to archive: no record is eligible"],
        )
    draft = relocate(config, log, [(rec, archive_target(config, rec)) for rec in chosen])
    review = build_review("archive", log, chosen, draft, ineligible)
    plan = save_draft(config, "archive", log, scope, draft, review)
    return Preview("archive", plan, plan.review, log.fingerprint, scope)


def save_draft(
    config: Config,
    kind: str,
    log: Log,
    scope: dict[str, Any],
    draft: Draft,
    review: dict[str, Any],
) -> Plan:
    """Store a relocation draft as a plan of ``kind`` (archive or restore)."""
    plan = Plan(
        kind=kind,
        scope=scope,
        fingerprint=log.fingerprint,
        steps=draft.steps,
        inputs=draft.inputs,
        review=review,
        blocking=[c.message for c in draft.conflicts],
    )
    return save_plan(config.work_path, plan, draft.staged)
