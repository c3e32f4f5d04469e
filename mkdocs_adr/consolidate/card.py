"""The review card of a consolidation plan (SPEC 7, seeds/000 5.2) and its JSON.

Pure text from the plan file: plan id and version, the sources and the new
records with their numbers, the coverage map, the substantive changes (changed
and retired constraints, listed apart: they need explicit acceptance), what
blocks retirement, CURRENT and INDEX, and the records left alone. The CLI
prints it through :func:`mkdocs_adr.commands._common.echo`, which makes record
text terminal-safe.
"""

from __future__ import annotations

from typing import Any

from ..config import Config
from ..plans import Plan, plan_dir
from .coverage import Row
from .draft import KIND


def rows_of(plan: Plan) -> list[Row]:
    return [Row.from_json(d) for d in plan.review.get("coverage") or []]


def needs_acceptance(plan: Plan) -> list[Row]:
    """The changed and retired constraints: substantive, accepted only explicitly."""
    return [r for r in rows_of(plan) if r.state in ("changed", "retired")]


def _short(text: str, limit: int = 70) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1].rstrip() + "…"


def card(config: Config, plan: Plan, *, saved: bool, restaged_from: str | None = None) -> str:
    review = plan.review
    accept = plan.kind == KIND
    folder = config.rel(plan_dir(config.work_path, plan.plan_id))
    head = f"Consolidation plan {plan.plan_id}" + (
        f" (version {plan.version})" if saved else " (dry run: nothing written)"
    )
    out = [head, "=" * len(head)]
    if restaged_from:
        out.append(f"Restaged from the reviewed edits of {restaged_from}.")
    if not accept:
        out.append("Save draft only: the new records land as proposed; nothing is retired.")
    rows = rows_of(plan)
    for rep in review.get("replacements") or []:
        out += ["", f"{rep['id']} {rep['title']} -> {rep['path']} ({rep['style']})"]
        for src in rep["sources"]:
            disp = str(src["disposition"]).replace("-", " ")
            out.append(f"  {src['id']:<12} {disp:<22} {src['title']}")
    out += ["", f"Coverage ({len(rows)} constraints)"]
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.state] = counts.get(r.state, 0) + 1
    out.append("  " + ", ".join(f"{n} {state}" for state, n in sorted(counts.items())))
    for r in rows[:40]:
        where = f" -> {r.where}" if r.where else ""
        out.append(f"  {r.key:<14} {r.state:<11}{where}  {_short(r.text)}")
    if len(rows) > 40:
        out.append(f"  … and {len(rows) - 40} more (see {folder}/review/coverage.txt)")
    changes = needs_acceptance(plan)
    if changes:
        out += ["", "Substantive changes (accepting the plan accepts each of them):"]
        for r in changes:
            if r.state == "changed":
                out.append(f"  CHANGED {r.key}: {_short(r.text, 400)}")
                out.append(f"       now: {_short(r.new_text or '', 400)}")
            else:
                out.append(f"  RETIRED {r.key}: {_short(r.text, 400)}")
                out.append(f"    reason: {r.reason}")
    unresolved = [r for r in rows if r.state == "unresolved"]
    if unresolved:
        out += ["", "Unresolved (these block retiring their records):"]
        out += [f"  {r.key}: {_short(r.text)}" for r in unresolved]
    out += [""]
    current = review.get("current") or []
    index = review.get("index") or []
    if accept:
        out.append(
            "CURRENT     "
            + (
                ", ".join(current) + " (published after acceptance)"
                if current
                else "not published by this plan"
            )
        )
    else:
        out.append("CURRENT     not published (nothing it would state is accepted yet)")
    reps = review.get("replacements") or []
    moved = sum(1 for rep in reps for src in rep["sources"] if src["disposition"] == "superseded")
    change = f"{len(reps)} new record{'s' if len(reps) != 1 else ''}" + (
        f", {moved} become superseded" if accept else ""
    )
    out.append("INDEX       " + (f"{', '.join(index)} ({change})" if index else "unchanged"))
    for note in review.get("notes") or []:
        out.append(f"note        {note}")
    alone = review.get("left_alone") or []
    if alone:
        out.append(f"Left alone  {len(alone)} records:")
        for a in alone[:12]:
            out.append(f"  {a['id']:<12} {a['reason']}")
        if len(alone) > 12:
            out.append(f"  … and {len(alone) - 12} more (plan --json lists them)")
    if saved:
        out.append(f"Review      {folder}/review/ (the new records, CURRENT.md, coverage.txt)")
    out.append("")
    added = review.get("problems_added") or []
    if added:
        out.append("Problems the change would bring:")
        out += [f"  {p['code']} {p['severity']}: {p['message']}" for p in added[:8]]
    if plan.blocking:
        out.append("Blocking problems (accepting is disabled; the draft can be saved):")
        out.extend(f"  - {b}" for b in plan.blocking)
    else:
        out.append("Blocking problems: none")
    moves = review.get("archive")
    if moves is None:
        out.append("No archive moves (archive later: mkdocs-adr archive).")
    else:
        out.append(
            f"Archive     {len(moves['moves'])} records, as a separate plan after acceptance "
            "(its failure never undoes the acceptance):"
        )
        out += [f"  {m['id']:<12} {m['path']} -> {m['target']}" for m in moves["moves"][:12]]
        if len(moves["moves"]) > 12:
            out.append(f"  … and {len(moves['moves']) - 12} more")
        out += [f"  {r['id']:<12} stays: {r['reason']}" for r in moves["refused"]]
    return "\n".join(out) + "\n"


def card_json(config: Config, plan: Plan, *, dry_run: bool, saved: bool) -> dict[str, Any]:
    folder = config.rel(plan_dir(config.work_path, plan.plan_id))
    review = plan.review
    return {
        "schema": "mkdocs-adr/consolidate-plan",
        "version": 1,
        "plan_id": plan.plan_id,
        "plan_version": plan.version if saved else None,
        "kind": plan.kind,
        "mode": "consolidate",
        "dry_run": dry_run,
        "saved": saved,
        "scope": plan.scope,
        "fingerprint": plan.fingerprint,
        "replacements": review.get("replacements") or [],
        "coverage": review.get("coverage") or [],
        "needs_acceptance": [r.key for r in needs_acceptance(plan)],
        "left_alone": review.get("left_alone") or [],
        "current": review.get("current") or [],
        "index": review.get("index") or [],
        "archive": review.get("archive"),
        "notes": review.get("notes") or [],
        "problems_added": review.get("problems_added") or [],
        "writes": [
            {"path": s.path, "op": s.op, "before": s.before, "after": s.after, "part": s.part}
            for s in plan.steps
        ],
        "review_dir": f"{folder}/review" if saved else None,
        "blocking": plan.blocking,
        "next": f"mkdocs-adr plan --confirm {plan.plan_id}"
        if saved and not plan.blocking
        else None,
    }
