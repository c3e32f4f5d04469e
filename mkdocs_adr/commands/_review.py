"""The review card: the prompt shared by every plan kind, and the summary plan's card (SPEC 7).

Only an explicit answer at a terminal is consent: no answer, EOF, Ctrl-C or
a closed terminal is "cancel". Without a terminal, nothing is asked and only
``mkdocs-adr plan --confirm PLAN_ID`` applies.
"""

from __future__ import annotations

from typing import Any

import click

from ..config import Config
from ..plans import Plan, plan_dir
from ..summary import KIND, RootReview, review_of
from ._common import echo

ANSWERS = {
    "p": "apply",
    "publish": "apply",
    "a": "apply",
    "accept": "apply",
    "s": "draft",
    "save": "draft",
    "n": "changes",
    "needs changes": "changes",
    "c": "cancel",
    "cancel": "cancel",
}


def ask(card: str, *, can_apply: bool, apply_label: str = "publish") -> str:
    """Show ``card`` and ask; returns apply | draft | changes | cancel."""
    echo(card)
    options = ([f"[p] {apply_label}"] if can_apply else []) + [
        "[s] save draft only",
        "[n] needs changes",
        "[c] cancel",
    ]
    if not can_apply:
        echo("Applying is disabled: the plan has blocking problems.")
    try:
        raw = click.prompt("  ".join(options), default="", show_default=False)
    except (click.exceptions.Abort, EOFError, KeyboardInterrupt):
        return "cancel"
    answer = ANSWERS.get(str(raw).strip().lower(), "cancel")
    if answer == "apply" and not can_apply:
        return "cancel"
    return answer


# --------------------------------------------------------------------------- summary plans


def summary_json(config: Config, plan: Plan, *, dry_run: bool, saved: bool) -> dict[str, Any]:
    """``plan --mode summary --json``: the plan, each root's review, the writes, what next."""
    folder = config.rel(plan_dir(config.work_path, plan.plan_id))
    return {
        "schema": "mkdocs-adr/summary-plan",
        "version": 1,
        "plan_id": plan.plan_id,
        "plan_version": plan.version if saved else None,
        "mode": KIND,
        "dry_run": dry_run,
        "saved": saved,
        "scope": plan.scope,
        "fingerprint": plan.fingerprint,
        "roots": [
            {**root.to_json(), "review_file": f"{folder}/{root.review_file}" if saved else None}
            for root in review_of(plan).roots
        ],
        "writes": [
            {"path": s.path, "op": s.op, "before": s.before, "after": s.after, "part": s.part}
            for s in plan.steps
        ],
        "blocking": plan.blocking,
        "next": f"mkdocs-adr plan --confirm {plan.plan_id}"
        if saved and not plan.blocking
        else None,
    }


_ACTIONS = {"create": "creates", "replace": "replaces", "adopt": "ADOPTS and replaces"}


def _scope_lines(root: RootReview) -> list[str]:
    rechecks = (
        f"; this plan re-checks {root.plan_scope.describe()}"
        if root.plan_scope.kind != "root"
        else ""
    )
    disp = ", ".join(f"{n} {k}" for k, n in sorted(root.dispositions.items()))
    return [
        f"  scope       {root.view_scope.describe()}{rechecks}",
        f"  sources     {root.sources} ({root.members} member records): {disp}",
    ]


def _coverage_lines(root: RootReview) -> list[str]:
    parts: dict[str, list[str]] = {}
    for row in root.coverage:
        parts.setdefault(row.part, []).append(row.source)
    out = ["  coverage"]
    for part, keys in sorted(parts.items()):
        shown = ", ".join(keys[:8]) + (f", … (+{len(keys) - 8})" if len(keys) > 8 else "")
        out.append(f"    {part}: {shown}")
    return out


def _state_lines(root: RootReview) -> list[str]:
    """Kept parts, what changed since publishing, and the problems in the scope."""
    out = []
    if root.kept:
        out.append(
            f"  kept        {len(root.kept)} sources from the published view, not re-checked"
        )
    if root.kept_changed:
        out.append(
            f"  still stale {', '.join(root.kept_changed)} changed since "
            "publishing and keep the view stale"
        )
    for reason in root.published_reasons[:8]:
        out.append(f"  now         {reason}")
    if root.problems:
        out.append(f"  problems    {len(root.problems)} (listed in the draft):")
        for p in root.problems[:6]:
            out.append(f"    {p.code} {p.message}")
    return out


def _root_card(root: RootReview, folder: str, *, saved: bool) -> list[str]:
    out = [
        "",
        f"{root.root}: {_ACTIONS[root.action]} {root.current} "
        f"(published view: {root.published_state})",
    ]
    out += _scope_lines(root) + _coverage_lines(root) + _state_lines(root)
    outputs = [root.current, root.manifest] + ([root.index] if root.index else [])
    out.append(f"  writes      {', '.join(outputs)}")
    if root.index_note:
        out.append(f"  note        {root.index_note}")
    for note in root.notes:
        out.append(f"  note        {note}")
    if saved:
        out.append(
            f"  review      {folder}/{root.review_file} (edit it before publishing if needed)"
        )
    return out


def summary_card(config: Config, plan: Plan, *, saved: bool) -> str:
    """The review card (SPEC 7): plan, sources and outputs, coverage, changes, blockers."""
    folder = config.rel(plan_dir(config.work_path, plan.plan_id))
    review = review_of(plan)
    head = f"Summary plan {plan.plan_id}" + (
        f" (version {plan.version})" if saved else " (dry run: nothing written)"
    )
    out = [head, "=" * len(head)]
    if review.edited:
        out.append(
            f"Staged from the reviewed draft of {review.restaged_from}: {', '.join(review.edited)}"
        )
    for root in review.roots:
        out += _root_card(root, folder, saved=saved)
    out.append("")
    if plan.blocking:
        out.append("Blocking problems (publishing is disabled; the draft can be saved):")
        out.extend(f"  - {b}" for b in plan.blocking)
    else:
        out.append("Blocking problems: none")
    out.append("No archive moves; no decision changes status. The page is a derived view.")
    return "\n".join(out) + "\n"
