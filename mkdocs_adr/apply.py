"""Confirming a plan of any kind: one entry point, one journal, one receipt.

``mkdocs-adr plan --confirm PLAN_ID`` is the single spelling for every plan
kind (summary, archive, restore, supersede, link, new, accept, reject,
deprecate, consolidate, consolidate-draft). The plan file names
its kind; :data:`KINDS` maps that name to the kind's
:class:`~mkdocs_adr.plans.PlanKind`, defined by the module that makes such
plans: its precheck runs inside the lock before anything is written, its
verifier re-checks the result after the journal applied the steps (ids,
statuses, references).
"""

from __future__ import annotations

from functools import partial

from . import archive, authoring, consolidate, summary
from .config import Config
from .errors import Refused
from .journal import Receipt
from .journal import apply as journal_apply
from .plans import Plan, PlanKind, load_plan

#: Every plan kind this version can confirm, by the name its plan files carry.
KINDS: dict[str, PlanKind] = {
    kind.name: kind
    for kind in (
        summary.PLAN_KIND,
        *archive.PLAN_KINDS,
        *authoring.PLAN_KINDS,
        *authoring.STATUS_PLAN_KINDS,
        *consolidate.PLAN_KINDS,
    )
}


def kind_of(plan: Plan) -> PlanKind:
    """The kind of ``plan``; :class:`Refused` for a kind this version does not know."""
    kind = KINDS.get(plan.kind)
    if kind is None:
        raise Refused(
            f"plans of kind {plan.kind!r} cannot be applied by this version",
            fix="upgrade mkdocs-adr, or plan again",
        )
    return kind


def confirm(config: Config, plan_id: str) -> Receipt:
    """Apply (or resume) ``plan_id`` under the lock; return the receipt."""
    plan = load_plan(config.work_path, plan_id)
    kind = kind_of(plan)
    return journal_apply(
        config.project_dir,
        config.work_path,
        plan_id,
        verify=partial(kind.verify, config),
        purpose=f"confirm {plan.kind}",
        precheck=None if kind.precheck is None else partial(kind.precheck, config),
    )
