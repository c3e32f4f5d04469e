"""``--archive``: the archive plan a consolidation authorizes, applied after acceptance.

At planning time, :func:`authorized` reads the log as it will be once the plan is
accepted (:func:`mkdocs_adr.whatif.after`) and lists the sources that will then be
wholly out of effect and eligible to move (:func:`mkdocs_adr.archive.candidates`,
the one eligibility rule), each with its target (:func:`mkdocs_adr.archive.moves.archive_target`);
the review card shows them, so one answer authorizes them. Once the acceptance is
applied, :func:`plan_after` makes the ordinary archive plan for exactly those ids
(:func:`mkdocs_adr.archive.plan_archive`: link rewrites, INDEX, manifest, redirects)
and refuses when the log no longer gives the same set; the CLI then confirms it as
a plan of its own. Its failure never undoes the acceptance: the records stay
superseded where they are, and ``mkdocs-adr archive`` can move them later.
"""

from __future__ import annotations

from typing import Any

from .. import archive
from ..archive.moves import archive_target
from ..config import Config
from ..errors import AdrError
from ..log import Log
from ..plans import Plan


def authorized(config: Config, after: Log, retired: list[str]) -> dict[str, Any]:
    """The moves the plan authorizes, and why any retired source cannot move."""
    found = {c.id: c for c in archive.candidates(after)}
    moves: list[dict[str, str]] = []
    refused: list[dict[str, str]] = []
    for rid in retired:
        rec, cand = after.get(rid), found.get(rid)
        if rec is None or cand is None:
            refused.append({"id": rid, "reason": "still in effect after acceptance"})
        elif not cand.eligible:
            refused.append({"id": rid, "reason": "; ".join(cand.reasons)})
        else:
            moves.append({"id": rid, "path": rec.path, "target": archive_target(config, rec)})
    return {"moves": moves, "refused": refused}


def ids_of(plan: Plan) -> list[str]:
    return [str(m["id"]) for m in (plan.review.get("archive") or {}).get("moves") or []]


def plan_after(config: Config, plan: Plan) -> tuple[Plan | None, str]:
    """The archive plan of ``plan``'s authorized moves on the log as it is now, or why
    there is none (a refusal in words; the acceptance stands either way)."""
    ids = ids_of(plan)
    if not ids:
        return None, "no record was authorized to move"
    try:
        preview = archive.plan_archive(config, ",".join(ids))
    except AdrError as exc:
        return None, exc.message
    if preview.plan is None:
        return None, "; ".join(preview.notes) or "nothing to archive"
    moved = sorted(str(i) for i in preview.plan.scope.get("ids") or [])
    if moved != sorted(ids):
        return None, f"the archive plan would move {', '.join(moved)}, not what was reviewed"
    if preview.plan.blocking:
        return None, "; ".join(preview.plan.blocking)
    return preview.plan, ""
