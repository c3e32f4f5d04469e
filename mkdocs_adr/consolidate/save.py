"""Storing a consolidation plan with its review copies, and restaging reviewer edits.

The plan folder holds, beside the plan and its staged bytes, ``review/``: each
replacement's text, the CURRENT candidate, and ``coverage.txt`` (one line per
constraint: ``KEY: STATE``). A reviewer who answers "needs changes" edits them:

- rewording an item of a replacement's Decision makes it ``changed``;
- deleting an item makes it ``retired`` (give the reason in coverage.txt as
  ``KEY: retired: REASON``; without one the card says no reason was given);
- ``KEY: unresolved`` in coverage.txt leaves the constraint where it is: its
  record is then superseded only in part and stays in effect;
- ``KEY: retained`` in coverage.txt carries a retired or unresolved constraint again,
  in its source's wording.

:func:`restage_if_edited` turns those edits into coverage overrides and builds the
next version of the plan from them (ADR-0048); the original staged bytes are
never touched, so what a plan id names never changes.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..config import Config
from ..errors import RefusedError
from ..fsops import atomic_write
from ..journal import read_journal
from ..log import load
from ..parsing.markdown import scan
from ..parsing.sections import is_decision_heading
from ..plans import Plan, is_current, list_plans, plan_dir, read_staged, save_plan
from .coverage import NO_REASON, Override, Row
from .draft import Built, Scope, build

COVERAGE = "coverage.txt"
_LINE = re.compile(r"^\s*([^\s:#]+#\d+)\s*:\s*(retained|changed|retired|unresolved)\b\s*:?\s*(.*)$")


def refuse_if_interrupted(config: Config) -> None:
    """A plan of any kind left half-applied: what the log says now may be its half."""
    found = [
        p
        for p in list_plans(config.work_path)
        if read_journal(config.work_path, p.plan_id).state == "interrupted"
    ]
    if found:
        raise RefusedError(
            "an interrupted plan may have written only some of its files: "
            + ", ".join(f"{p.plan_id} ({p.kind})" for p in found),
            fix="finish it with `mkdocs-adr plan --confirm PLAN_ID` or undo it with "
            "`mkdocs-adr plan --rollback PLAN_ID`, then plan the consolidation",
        )


def review_dir(config: Config, plan: Plan) -> Path:
    return plan_dir(config.work_path, plan.plan_id) / "review"


def coverage_file(config: Config, plan: Plan) -> Path:
    return review_dir(config, plan) / COVERAGE


def coverage_text(plan: Plan) -> str:
    lines = [
        f"# Coverage of plan {plan.plan_id} (version {plan.version}): one line per constraint.",
        "# KEY: STATE, STATE one of retained, changed, retired, unresolved.",
        "# To retire an item, delete it from the replacement and write: KEY: retired: REASON",
        "# To leave an item in its record (partial supersession), write: KEY: unresolved",
        "# Reword an item in the replacement's file itself. Then run the --confirm again.",
    ]
    for data in plan.review.get("coverage") or []:
        r = Row.from_json(data)
        tail = f" -> {r.where}" if r.where else ""
        if r.state == "retired":
            tail = f": {r.reason or NO_REASON}"
        lines.append(f"{r.key}: {r.state}{tail}")
    return "\n".join(lines) + "\n"


def _newest(config: Config, plan: Plan) -> Plan:
    """``plan`` as the newest version of its scope: a restage that comes back to the
    content of an earlier version (edits undone) makes that content current again."""
    if is_current(config.work_path, plan):
        return plan
    same = [p.version for p in list_plans(config.work_path) if p.scope_key() == plan.scope_key()]
    plan.version = max(same) + 1
    text = json.dumps(plan.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    atomic_write(plan_dir(config.work_path, plan.plan_id) / "plan.json", text.encode())
    return plan


def save(config: Config, built: Built) -> Plan:
    """Store the plan, its staged bytes and the review copies (never overwritten)."""
    plan = _newest(config, save_plan(config.work_path, built.plan, built.staged))
    folder = review_dir(config, plan)
    for name, data in sorted(built.copies.items()):
        target = folder / name
        if not target.exists():
            atomic_write(target, data, make_parents=True)
    target = folder / COVERAGE
    if not target.exists():
        atomic_write(target, coverage_text(plan).encode("utf-8"), make_parents=True)
    return plan


def overrides_of(plan: Plan) -> dict[str, Override]:
    return {k: Override.from_json(v) for k, v in (plan.review.get("overrides") or {}).items()}


def _decision_items(text: str) -> dict[str, str] | None:
    """Key -> wording of the items of an edited replacement's Decision (None: no Decision)."""
    from .units import parse_items

    doc = scan(text.replace("\r\n", "\n"))
    for sec in doc.sections(level=2):
        if is_decision_heading(sec.name):
            return parse_items(doc.section_text(sec, stop_at_subheading=True))
    return None


def edited_overrides(config: Config, plan: Plan) -> dict[str, Override]:
    """The overrides the review copies now say (the plan's own when nothing was edited)."""
    folder = review_dir(config, plan)
    out = overrides_of(plan)
    rows = [Row.from_json(d) for d in plan.review.get("coverage") or []]
    for rep in plan.review.get("replacements") or []:
        try:
            text = (folder / Path(str(rep["path"])).name).read_text(encoding="utf-8")
        except OSError:
            continue
        items = _decision_items(text)
        if items is None:
            continue
        for r in rows:
            if r.where != rep["id"] and not (r.state == "retired" and r.record in _ids(rep)):
                continue
            if r.key in items:
                wording = items[r.key]
                if wording.strip() == r.text.strip():
                    out.pop(r.key, None)
                else:
                    out[r.key] = Override("changed", wording)
            elif r.carried:
                out[r.key] = Override("retired", "")
    try:
        lines = coverage_file(config, plan).read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
    planned = {r.key: r.state for r in rows}
    known = set(planned)
    for line in lines:
        m = _LINE.match(line)
        if m is None or m.group(1) not in known:
            continue
        key, state, rest = m.group(1), m.group(2), m.group(3).strip()
        if state == "retired":
            reason = "" if rest.startswith("->") or rest == NO_REASON else rest
            out[key] = Override("retired", reason or out.get(key, Override("retired")).text)
        elif state == "unresolved" and planned[key] != "unresolved":
            out[key] = Override("unresolved")
        elif state == "retained" and planned[key] in ("retired", "unresolved"):
            out.pop(key, None)  # the reviewer carries it again, as its source says it
    return out


def _ids(rep: dict[str, Any]) -> set[str]:
    return {str(s["id"]) for s in rep.get("sources") or [] if isinstance(s, dict)}


def restage_if_edited(config: Config, plan: Plan) -> Plan:
    """The plan the review copies now describe: ``plan`` itself when unedited, else the
    next version, built from the edits (and saved, with fresh review copies)."""
    refuse_uncarried_edits(config, plan)
    wanted = edited_overrides(config, plan)
    if wanted == overrides_of(plan):
        return plan
    built = build(
        config,
        load(config),
        Scope.from_json(plan.scope),
        overrides=wanted,
        accept=bool(plan.review.get("accept", True)),
        date=str(plan.review.get("date") or "") or None,
    )
    return save(config, built)


def refuse_uncarried_edits(config: Config, plan: Plan) -> None:
    """Refuse review copies edited where restaging does not read them.

    Only a replacement's Decision items and ``coverage.txt`` are read back; an edit
    anywhere else (a replacement's Context, a sub-section of its Decision, the CURRENT
    candidate) would be silently lost, so it stops the restage with the file and the
    first line that differs. A copy is compared with the bytes the plan staged for it.
    """
    folder = review_dir(config, plan)
    replacements = {
        Path(str(r.get("path", ""))).name for r in plan.review.get("replacements") or []
    }
    steps: dict[str, list[str]] = {}
    for step in plan.steps:
        if step.op == "write" and step.after is not None:
            steps.setdefault(Path(step.path).name, []).append(step.after)
    lost: list[str] = []
    for name, digests in sorted(steps.items()):
        if len(digests) != 1 or name == COVERAGE:
            continue  # a name staged twice (CURRENT.md of two roots) has no one copy
        try:
            edited = (folder / name).read_bytes().decode("utf-8", "replace")
            staged = read_staged(config.work_path, plan.plan_id, digests[0]).decode("utf-8")
        except (OSError, RefusedError, UnicodeDecodeError):
            continue
        keep_decision = name in replacements
        line = _first_difference(_outside(staged, keep_decision), _outside(edited, keep_decision))
        if line is not None:
            lost.append(f"{config.rel(folder / name)}:{line}")
    if lost:
        raise RefusedError(
            "review copies edited outside the Decision items, where restaging does not "
            "read them, so the edits would be lost: " + "; ".join(lost),
            fix="undo those edits (only a replacement's Decision items and coverage.txt "
            "are carried into the next version), then run the --confirm again; make "
            "other changes in the records after applying",
        )


def _outside(text: str, without_decision: bool) -> list[tuple[int, str]]:
    """(line number, text) of each line of ``text`` a restage does not read (a
    replacement's Decision lead left out), trailing spaces and blank lines ignored."""
    lines = text.replace("\r\n", "\n").split("\n")
    skip: set[int] = set()
    if without_decision:
        doc = scan("\n".join(lines))
        for sec in doc.sections(level=2):
            if is_decision_heading(sec.name):
                for i in range(sec.start, sec.end):  # the lead, up to a sub-heading
                    line = doc.lines[i]
                    if not doc.fenced[i] and line.lstrip().startswith("#"):
                        break
                    skip.add(doc.lineno(i))
                break
    return [(n, ln.rstrip()) for n, ln in enumerate(lines, 1) if ln.strip() and n not in skip]


def _first_difference(staged: list[tuple[int, str]], edited: list[tuple[int, str]]) -> int | None:
    """The line of ``edited`` where it first differs from ``staged`` (None: the same)."""
    for (_, a), (n, b) in zip(staged, edited, strict=False):
        if a != b:
            return n
    if len(staged) == len(edited):
        return None
    return edited[len(staged)][0] if len(edited) > len(staged) else (edited[-1][0] if edited else 1)


def save_draft_only(config: Config, plan: Plan) -> Plan:
    """The "save draft only" plan of ``plan``: the same replacements, as proposals."""
    built = build(
        config,
        load(config),
        replace(Scope.from_json(plan.scope), archive=False),
        overrides=overrides_of(plan),
        accept=False,
        date=str(plan.review.get("date") or "") or None,
    )
    return save(config, built)
