"""``archive restore PLAN_ID``: the exact reverse of a completed archive plan.

The receipt of the archive plan says which files moved where; those moves are
reversed one for one. Where the archive plan itself is still in the work dir,
each page the archive rewrote and that nobody has edited since gets its
original bytes back (kept by the journal), and pages edited since get the
original link spellings back with their edits preserved. Without a receipt,
``--sources`` names archived records and each goes back to the place its
archive path mirrors. A restored record keeps its status: moving a file never
puts a decision back in effect.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import Config
from ..errors import RefusedError, UsageError
from ..fsops import exists, sha256_bytes, sha256_file
from ..journal import read_journal
from ..log import Log, load
from ..model import Record
from ..paths import inside_project, receipts_dir
from ..plans import Plan, load_plan, plan_dir
from .moves import FileMove, restore_target
from .planner import Draft, relocate
from .review import SavedReview, build_review
from .service import Preview, refuse_if_interrupted, save_draft, select


@dataclass(frozen=True)
class _Reversal:
    """What a restore moves back, and on what basis (a receipt, or the archive paths)."""

    basis: str  # receipt | archived-paths
    records: list[Record]
    moves: list[FileMove] = field(default_factory=list)  # replayed one for one
    record_moves: list[tuple[Record, str]] = field(default_factory=list)  # mirrors follow
    notes: list[str] = field(default_factory=list)


def plan_restore(config: Config, plan_id: str, sources: str | None = None) -> Preview:
    work = config.work_path
    folder = plan_dir(work, plan_id)  # refuses ids that are not plain names
    refuse_if_interrupted(config)
    log = load(config)
    archive_plan = _archive_plan(config, plan_id) if (folder / "plan.json").exists() else None
    state = read_journal(work, plan_id)
    receipt = _receipt(work, plan_id, state.receipt) if state.state == "applied" else None
    if state.state == "interrupted":
        raise RefusedError(
            f"archive plan {plan_id} was interrupted and never completed",
            fix=f"finish it (mkdocs-adr plan --confirm {plan_id}) or undo it "
            f"(mkdocs-adr plan --rollback {plan_id})",
        )
    if receipt is not None:
        reversal = _from_receipt(config, log, plan_id, receipt, archive_plan, sources)
    else:
        reversal = _from_archived_paths(config, log, plan_id, archive_plan, state.state, sources)
    prefer, originals = _originals(config, archive_plan)
    draft = relocate(
        config,
        log,
        reversal.record_moves,
        moves=reversal.moves,
        prefer=prefer,
        originals=originals,
    )
    notes = [*reversal.notes, *_return_notes(reversal.records, draft)]
    basis = reversal.basis
    scope = {"of": plan_id, "basis": basis, "ids": sorted(r.id for r in reversal.records)}
    extra = {"of": plan_id, "basis": basis}
    review = build_review("restore", log, reversal.records, draft, [], extra=extra)
    plan = save_draft(config, "restore", log, scope, draft, review)
    return Preview("restore", plan, plan.review, log.fingerprint, scope, notes)


def _archive_plan(config: Config, plan_id: str) -> Plan:
    plan = load_plan(config.work_path, plan_id)
    if plan.kind != "archive":
        raise UsageError(
            f"{plan_id} is a {plan.kind} plan, not an archive plan",
            fix="give the id of the archive plan to reverse (see its receipt)",
        )
    return plan


def _from_receipt(
    config: Config,
    log: Log,
    plan_id: str,
    receipt: dict[str, Any],
    archive_plan: Plan | None,
    sources: str | None,
) -> _Reversal:
    """The receipt's moves reversed one for one (only those of ``sources`` when given)."""
    pairs = _receipt_moves(config, plan_id, receipt)
    chosen_ids = None
    if sources is not None:
        chosen_ids = {r.id for r in select(log, sources, archived=True)}
    moves, records, skipped = _reverse_moves(log, pairs, archive_plan, chosen_ids)
    if not records and not moves:
        raise RefusedError(
            f"nothing to restore from archive plan {plan_id}: "
            + ("; ".join(skipped) or "its receipt lists no moves"),
            fix="`mkdocs-adr plan` shows where each record is now",
        )
    return _Reversal("receipt", records, moves=moves, notes=skipped)


def _from_archived_paths(
    config: Config,
    log: Log,
    plan_id: str,
    archive_plan: Plan | None,
    state: str,
    sources: str | None,
) -> _Reversal:
    """Without a receipt: the records ``sources`` names, back where their archive path says."""
    if archive_plan is not None and state == "planned":
        what = f"archive plan {plan_id} was never applied"
    elif state == "rolled-back":
        what = f"archive plan {plan_id} was rolled back"
    else:
        what = f"there is no receipt for archive plan {plan_id}"
    if sources is None:
        raise RefusedError(
            f"{what}, so there is nothing to reverse from it",
            fix="to restore archived records from their archive paths, name them: "
            f"mkdocs-adr archive restore {plan_id} --sources IDS",
        )
    records = select(log, sources, archived=True)
    record_moves: list[tuple[Record, str]] = []
    for rec in records:
        target = restore_target(config, rec)
        if target is None:  # pragma: no cover - select() only returns archived records
            raise RefusedError(f"{rec.path} is not under an archive folder")
        record_moves.append((rec, target))
    notes = [f"{what}; restoring from the archive paths"]
    return _Reversal("archived-paths", records, record_moves=record_moves, notes=notes)


def _return_notes(records: list[Record], draft: Draft) -> list[str]:
    return [
        f"{rec.id} returns to {next(m.target for m in draft.moves if m.source == rec.path)} "
        f"and keeps its status ({rec.status}): restoring a location never restores a "
        "decision's effect"
        for rec in records
    ]


def _receipt(work: Path, plan_id: str, name: str | None) -> dict[str, Any]:
    path = receipts_dir(work) / (name or "")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RefusedError(
            f"the receipt of archive plan {plan_id} ({name}) cannot be read: {exc}",
            path=str(path),
            fix=f"restore from the archive paths: mkdocs-adr archive restore {plan_id} "
            "--sources IDS",
        ) from None
    if not isinstance(data, dict) or data.get("plan_id") != plan_id:
        raise RefusedError(f"{path.name} is not a receipt of plan {plan_id}", path=str(path))
    return data


def _receipt_moves(config: Config, plan_id: str, receipt: dict[str, Any]) -> list[tuple[str, str]]:
    moves = receipt.get("moves")
    if not isinstance(moves, list):
        raise RefusedError(f"the receipt of {plan_id} has no list of moves")
    out = []
    for item in moves:
        if not isinstance(item, dict) or not all(
            isinstance(item.get(k), str) for k in ("from", "to")
        ):
            raise RefusedError(f"the receipt of {plan_id} has a malformed move: {item!r}")
        for key in ("from", "to"):
            try:
                inside_project(config.project_dir, item[key])
            except RefusedError as exc:
                raise RefusedError(
                    f"the receipt of {plan_id} names a path that leaves the project "
                    f"({item[key]!r}); refused: {exc.message}",
                    fix="the receipt was edited or damaged; restore with --sources instead",
                ) from None
        out.append((item["from"], item["to"]))
    return out


def _reverse_moves(
    log: Log,
    pairs: list[tuple[str, str]],
    archive_plan: Plan | None,
    chosen: set[str] | None,
) -> tuple[list[FileMove], list[Record], list[str]]:
    """Receipt moves reversed, with the record each belongs to; skipped ones explained."""
    planned: dict[str, FileMove] = {}
    if archive_plan is not None:
        planned = {m.target: m for m in SavedReview.of(archive_plan).moves}
    project = log.config.project_dir
    moves: list[FileMove] = []
    records: list[Record] = []
    skipped: list[str] = []
    for source, target in pairs:  # the archive moved source -> target
        rec = log.by_path.get(target)
        info = planned.get(target)
        rid = rec.id if rec is not None else (info.id if info else "")
        kind = "record" if rec is not None else (info.kind if info else "mirror")
        if chosen is not None and rid not in chosen:
            continue
        here = exists(project / target)
        if not here and exists(project / source):
            skipped.append(f"{source} is already back in place")
            continue
        if rec is not None and info and info.id and info.id != rec.id:
            raise RefusedError(
                f"{target} now holds {rec.id}, but the archive plan moved {info.id} there",
                fix="restore with --sources naming the record to bring back",
            )
        moves.append(FileMove(target, source, kind, rid))
        if rec is not None and kind == "record":
            records.append(rec)
    if chosen is not None:
        missing = sorted(chosen - {r.id for r in records})
        if missing:
            raise UsageError(
                f"archive plan {archive_plan.plan_id if archive_plan else ''} did not move: "
                + ", ".join(missing),
                fix="name only records that the archive plan moved, or use another plan id",
            )
    return moves, records, skipped


def _originals(
    config: Config, archive_plan: Plan | None
) -> tuple[dict[str, list[tuple[str, str]]], dict[str, bytes]]:
    """Link spellings and original bytes the archive plan replaced, where still valid."""
    prefer: dict[str, list[tuple[str, str]]] = {}
    originals: dict[str, bytes] = {}
    if archive_plan is None:
        return prefer, originals
    for edit in SavedReview.of(archive_plan).links:
        if edit.form != "nav":
            prefer.setdefault(edit.page_after, []).append((edit.new, edit.old))
    backup = plan_dir(config.work_path, archive_plan.plan_id) / "backup"
    for step in archive_plan.steps:
        if step.op != "write" or step.part != "links" or step.before is None:
            continue
        try:
            now = sha256_file(inside_project(config.project_dir, step.path))
        except RefusedError:
            continue
        if now != step.after:
            continue  # edited since: its links are reversed one by one instead
        try:
            data = (backup / step.before).read_bytes()
        except OSError:
            continue
        if sha256_bytes(data) == step.before:
            originals[step.path] = data
    return prefer, originals
