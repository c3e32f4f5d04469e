"""``mkdocs-adr status [PLAN_ID]``: plans, receipts, and what needs recovery."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from .. import apply
from ..config import Config
from ..errors import AdrError
from ..fsops import is_leftover_temp, lock_holder, temps_under
from ..journal import list_receipts, preconditions, read_journal, targets
from ..plans import Plan, is_current, list_plans, load_plan, plan_dir, staged_problems
from ._common import EXIT_OK, echo, emit_json, location_options, resolve_config

SCHEMA = "mkdocs-adr/status"


def validity(config: Config, plan: Plan, state: str) -> list[str]:
    """Why a plan could not be applied as it stands (empty: it could)."""
    if state == "applied":
        return []
    reasons: list[str] = []
    if state != "interrupted":
        try:
            reasons.extend(preconditions(config.project_dir, plan))
        except AdrError as exc:
            reasons.append(exc.message)
    kind = apply.KINDS.get(plan.kind)
    if kind is None:
        reasons.append(f"plans of kind {plan.kind!r} cannot be applied by this version")
    elif kind.precheck is not None:
        try:
            found = kind.precheck(config, plan)
        except AdrError as exc:
            found = [exc.message]
        reasons.extend(r for r in found if r not in reasons)
    elif not is_current(config.work_path, plan):
        reasons.append(
            f"a newer version of this plan's scope exists (this is version {plan.version})"
        )
    if plan.blocking:
        reasons.extend(f"blocking: {b}" for b in plan.blocking)
    done = read_journal(config.work_path, plan.plan_id).done if state == "interrupted" else None
    reasons.extend(staged_problems(config.work_path, plan, skip=done))
    return reasons


def next_steps(plan: Plan, state: str, valid: bool) -> list[str]:
    pid = plan.plan_id
    if state == "applied":
        return []
    if state == "interrupted":
        return [
            f"resume it: mkdocs-adr plan --confirm {pid} (finished steps are not redone)",
            f"or undo what it wrote: mkdocs-adr plan --rollback {pid}",
        ]
    if not valid:
        return ["plan again: the tree or the plan changed since it was made"]
    return [f"apply it: mkdocs-adr plan --confirm {pid}"]


def _lock(config: Config) -> dict[str, Any] | None:
    found = lock_holder(config.work_path)
    if found is None:
        return None
    return {"path": config.rel(found.path), "holder": found.holder, "alive": found.alive}


def leftover_temps(config: Config, plans: list[Plan]) -> list[str]:
    """The temp files killed writes left (project-relative): anywhere under the docs
    folder, and beside every file a plan in the work dir writes (mkdocs.yml, roots
    outside the docs folder). A resume or a rollback of the plan removes its own."""
    found = set(temps_under([config.docs_dir], skip=config.work_path))
    for plan in plans:
        for target in targets(config.project_dir, plan):
            try:
                names = [e.name for e in os.scandir(target.parent)]
            except OSError:
                continue
            found.update(target.parent / n for n in names if is_leftover_temp(n, target.name))
    return sorted(config.rel(p) for p in found)


def plan_json(config: Config, plan: Plan, restaged: list[str] | None = None) -> dict[str, Any]:
    journal = read_journal(config.work_path, plan.plan_id)
    restaged = restaged or []
    reasons = (
        validity(config, plan, journal.state)
        if not restaged
        else [f"its edited draft was staged as {', '.join(restaged)}"]
    )
    folder = plan_dir(config.work_path, plan.plan_id)
    review_files = []
    for root in plan.review.get("roots", []):
        path = folder / str(root.get("review_file", ""))
        if root.get("review_file") and path.exists():
            review_files.append(config.rel(path))
    return {
        "plan_id": plan.plan_id,
        "kind": plan.kind,
        "version": plan.version,
        "created": plan.created,
        "scope": plan.scope,
        "current_version": is_current(config.work_path, plan),
        "state": journal.state,
        "valid": not reasons,
        "reasons": reasons,
        "steps": [
            {
                "n": n,
                "op": s.op,
                "path": s.path,
                "to": s.to,
                "part": s.part,
                "state": "done"
                if n in journal.done
                else ("started" if n in journal.started else "pending"),
            }
            for n, s in enumerate(plan.steps)
        ],
        "receipt": journal.receipt,
        "review_files": review_files,
        "restaged_as": restaged,
        "next": next_steps(plan, journal.state, not reasons)
        if not restaged
        else [f"see `mkdocs-adr status {restaged[-1]}`"],
    }


def restaged_map(plans: list[Plan]) -> dict[str, list[str]]:
    """Plan id -> the plans its edited review draft was staged as."""
    out: dict[str, list[str]] = {}
    for p in plans:
        source = p.review.get("restaged_from")
        if isinstance(source, str):
            out.setdefault(source, []).append(p.plan_id)
    return out


@click.command("status")
@click.argument("plan_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@location_options
def status_command(
    plan_id: str | None, as_json: bool, config_file: Path | None, root: Path | None
) -> None:
    """Plans in the work dir with their version and validity, receipts, and recovery.

    With PLAN_ID, the steps of that plan and how far they got. An interrupted
    plan is resumed by re-running `mkdocs-adr plan --confirm PLAN_ID` (finished
    steps are not redone) or undone with `mkdocs-adr plan --rollback PLAN_ID`.
    Writes nothing.
    """
    config = resolve_config(config_file, root)
    receipts = list_receipts(config.work_path)
    if plan_id:
        plan = load_plan(config.work_path, plan_id)
        data = plan_json(config, plan, restaged_map(list_plans(config.work_path)).get(plan_id))
        data["receipts"] = [r for r in receipts if r.get("plan_id") == plan_id]
        data["schema"] = SCHEMA
        data["lock"] = _lock(config)
        data["leftover_temp_files"] = leftover_temps(config, [plan])
        if as_json:
            emit_json(data)
        else:
            echo(_plan_text(config, data))
        raise SystemExit(EXIT_OK)
    found = list_plans(config.work_path)
    restaged = restaged_map(found)
    plans = [plan_json(config, p, restaged.get(p.plan_id)) for p in found]
    data = {
        "schema": SCHEMA,
        "version": 1,
        "work_dir": config.rel(config.work_path),
        "plans": plans,
        "interrupted": [p["plan_id"] for p in plans if p["state"] == "interrupted"],
        "receipts": [
            {
                k: r.get(k)
                for k in ("receipt", "plan_id", "kind", "version", "outcome", "applied_at")
            }
            for r in receipts
        ],
        "lock": _lock(config),
        "leftover_temp_files": leftover_temps(config, found),
    }
    if as_json:
        emit_json(data)
    else:
        echo(_overview_text(data))
    raise SystemExit(EXIT_OK)


def _overview_text(data: dict[str, Any]) -> str:
    out = [f"mkdocs-adr status  (work dir {data['work_dir']})", ""]
    plans = data["plans"]
    out.append(f"Plans ({len(plans)})")
    if not plans:
        out.append("  none")
    for p in plans:
        validity_text = "valid" if p["valid"] else "not valid: " + "; ".join(p["reasons"][:3])
        if p["state"] == "applied":
            validity_text = "applied"
        latest = "" if p["current_version"] else " (superseded by a newer version)"
        out.append(
            f"  {p['plan_id']}  {p['kind']} v{p['version']}{latest}  {p['state']}  {p['created']}"
        )
        out.append(f"    {validity_text}")
        for step in p["next"]:
            out.append(f"    next: {step}")
    out.append("")
    if data["interrupted"]:
        out.append("Interrupted (needs recovery): " + ", ".join(data["interrupted"]))
        out.append("")
    receipts = data["receipts"]
    out.append(f"Receipts ({len(receipts)})")
    if not receipts:
        out.append("  none")
    for r in receipts:
        out.append(f"  {r['receipt']}  {r['kind']} v{r['version']}  {r['outcome']}")
    out.extend(_temps_text(data["leftover_temp_files"]))
    lock = data["lock"]
    out.append("")
    out.append(_lock_text(lock))
    return "\n".join(out)


def _temps_text(temps: list[str]) -> list[str]:
    """Leftover temp files, with what removes them (nothing when there are none)."""
    if not temps:
        return []
    out = ["", f"Leftover temp files ({len(temps)}), left by a write that was killed:"]
    out.extend(f"  {t}" for t in temps)
    out.append(
        "  a resume (plan --confirm) or a rollback (plan --rollback) of the interrupted plan "
        "removes those beside its files; any other can be deleted"
    )
    return out


def _lock_text(lock: dict[str, Any] | None) -> str:
    if lock is None:
        return "Lock: free"
    holder = lock["holder"]
    who = f"pid {holder.get('pid')} ({holder.get('purpose')}) since {holder.get('since')}"
    if lock["alive"] is False:
        return f"Lock: {lock['path']} left by {who}, which no longer runs (taken over next time)"
    return f"Lock: held by {who}"


def _plan_text(config: Config, data: dict[str, Any]) -> str:
    out = [
        f"Plan {data['plan_id']}  {data['kind']} v{data['version']}"
        + ("" if data["current_version"] else " (a newer version exists)"),
        f"  created  {data['created']}",
        f"  state    {data['state']}",
        f"  scope    {json.dumps(data['scope'], sort_keys=True)}",
    ]
    if data["state"] != "applied":
        out.append("  valid    yes" if data["valid"] else "  valid    no")
        for reason in data["reasons"]:
            out.append(f"    - {reason}")
    out.append("  steps")
    for step in data["steps"]:
        target = f" -> {step['to']}" if step["to"] else ""
        out.append(
            f"    {step['n']}. {step['op']} {step['path']}{target}  [{step['part']}]  "
            f"{step['state']}"
        )
    for path in data["review_files"]:
        out.append(f"  review   {path}")
    for r in data["receipts"]:
        out.append(f"  receipt  {r['receipt']}  {r['outcome']}")
    for step in data["next"]:
        out.append(f"  next     {step}")
    for temp in data["leftover_temp_files"]:
        out.append(
            f"  temp     {temp}  (left by a killed write; a resume or a rollback removes it)"
        )
    out.append(_lock_text(data["lock"]))
    return "\n".join(out)


COMMANDS = [status_command]
