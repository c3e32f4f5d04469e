"""Confirming a summary plan: its checks before and after the journal writes it.

:data:`PLAN_KIND` is what :data:`mkdocs_adr.apply.KINDS` lists for summary plans;
the journal does the writing.
"""

from __future__ import annotations

from .. import manifest as mf
from ..config import Config
from ..errors import RefusedError
from ..fsops import sha256_file
from ..log import load
from ..paths import inside_project
from ..plans import Plan, PlanKind, is_current, list_plans, staged_path
from .edits import edited_roots
from .review import KIND, review_of


def _altered(config: Config, plan: Plan) -> list[str]:
    """The plan file and its staged contents are what was made."""
    changes: list[str] = []
    if plan.plan_id != f"{plan.kind}-{plan.content_key()}":
        changes.append(f"the plan file of {plan.plan_id} was altered after it was made")
    for s in plan.steps:
        if s.op == "write" and s.after is not None:
            path = staged_path(config.work_path, plan.plan_id, s.after)
            if sha256_file(path) != s.after:
                changes.append(f"the staged content of {s.path} is missing or altered")
    return changes


def _superseded_version(config: Config, plan: Plan) -> list[str]:
    """A newer version of the same scope is the current plan."""
    if is_current(config.work_path, plan):
        return []
    newer = [
        p
        for p in list_plans(config.work_path)
        if p.scope_key() == plan.scope_key() and p.version > plan.version
    ]
    latest = max(newer, key=lambda p: p.version)
    return [
        f"{plan.plan_id} is version {plan.version}; version {latest.version} "
        f"({latest.plan_id}) of this scope is newer and is the current plan"
    ]


def _changed_inputs(config: Config, plan: Plan) -> list[str]:
    """Every record the plan was made from still has the hash it had."""
    changes: list[str] = []
    for rel, digest in sorted(plan.inputs.items()):
        try:
            now = sha256_file(inside_project(config.project_dir, rel))
        except RefusedError as exc:
            changes.append(exc.message)
            continue
        if now != digest:
            changes.append(
                f"{rel} "
                + ("was removed" if now is None else "changed")
                + " since the plan was made"
            )
    return changes


def precheck(config: Config, plan: Plan) -> list[str]:
    """Inside the lock, before anything is written: is the plan still what was reviewed?"""
    changes = _altered(config, plan) + _superseded_version(config, plan)
    for edit in edited_roots(config, plan):
        changes.append(
            f"the review copy of {edit.root.current} differs from what this plan "
            "publishes (confirm again to stage the edit)"
        )
    changes += _changed_inputs(config, plan)
    for rec in load(config).records:
        if rec.path not in plan.inputs:
            changes.append(f"{rec.path} appeared since the plan was made ({rec.id}, {rec.status})")
    return changes


def verify_applied(config: Config, plan: Plan) -> list[str]:
    """After the journal wrote the steps: is every CURRENT view what was reviewed?"""
    problems: list[str] = []
    for s in plan.steps:
        if s.op == "write" and sha256_file(config.project_dir / s.path) != s.after:
            problems.append(f"{s.path} does not hold the reviewed content")
    for root in review_of(plan).roots:
        try:
            published_manifest = mf.read(config.project_dir / root.manifest, where=root.manifest)
        except mf.ManifestError as exc:
            problems.append(f"{root.manifest}: {exc.message}")
            continue
        try:
            text = (config.project_dir / root.current).read_bytes()
        except OSError as exc:
            problems.append(f"{root.current} cannot be read: {exc.strerror}")
            continue
        if mf.text_sha256(text) != published_manifest.summary_sha256:
            problems.append(f"{root.current} does not match the hash its manifest records")
    return problems


#: Summary plans publish CURRENT views; :data:`mkdocs_adr.apply.KINDS` lists it.
PLAN_KIND = PlanKind(KIND, verify=verify_applied, precheck=precheck)
