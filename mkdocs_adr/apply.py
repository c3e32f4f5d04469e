"""Confirming a plan of any kind: one entry point, one journal, one receipt.

``mkdocs-adr plan --confirm PLAN_ID`` is the single spelling for every plan
kind (summary, archive, restore, supersede, link, new). The plan file names
its kind; the kind's module supplies a verifier that re-checks the result
after the journal has applied the steps (ids, statuses, references).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .config import Config
from .errors import RefusedError
from .journal import apply as journal_apply
from .plans import Plan, load_plan

#: kind -> "module:function" returning problems (strings) for an applied plan.
VERIFIERS: dict[str, str] = {
    "summary": "mkdocs_adr.summary:verify_applied",
    "archive": "mkdocs_adr.archive:verify_applied",
    "restore": "mkdocs_adr.archive:verify_applied",
    "supersede": "mkdocs_adr.authoring:verify_applied",
    "link": "mkdocs_adr.authoring:verify_applied",
    "new": "mkdocs_adr.authoring:verify_applied",
}


#: kind -> "module:function" returning why a plan is stale, run inside the lock first.
PRECHECKS: dict[str, str] = {
    "summary": "mkdocs_adr.summary:precheck",
}


def _bound(config: Config, spec: str | None) -> Callable[[Plan], list[str]] | None:
    if spec is None:
        return None
    module_name, _, func = spec.partition(":")
    fn = getattr(importlib.import_module(module_name), func)

    def call(plan: Plan) -> list[str]:
        result: list[str] = fn(config, plan)
        return result

    return call


def verifier_for(config: Config, kind: str) -> Callable[[Plan], list[str]] | None:
    spec = VERIFIERS.get(kind)
    if spec is None:
        return None
    module_name, _, func = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        raise RefusedError(
            f"plans of kind {kind!r} cannot be applied by this version",
            fix="upgrade mkdocs-adr, or plan again",
        ) from None
    fn = getattr(module, func)

    def verify(plan: Plan) -> list[str]:
        result: list[str] = fn(config, plan)
        return result

    return verify


def confirm(config: Config, plan_id: str) -> dict[str, Any]:
    """Apply (or resume) ``plan_id`` under the lock; return the receipt."""
    plan = load_plan(config.work_path, plan_id)
    return journal_apply(
        config.project_dir,
        config.work_path,
        plan_id,
        verify=verifier_for(config, plan.kind),
        purpose=f"confirm {plan.kind}",
        precheck=_bound(config, PRECHECKS.get(plan.kind)),
    )
