"""Check an applied archive or restore plan against what it promised.

Called by the journal inside the project lock after the last step: the log
is read again, and every moved record must have kept its id and status, sit
where the plan put it (archived or not), hold exactly the planned bytes
(its original content apart from the listed link rewrites), and every
reference of the log must still resolve to the same record.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..config import Config
from ..errors import RefusedError
from ..fsops import exists, sha256_file
from ..links import resolve, split_target
from ..log import Log, load
from ..paths import docs_relative, inside_project, mounted_file
from ..plans import Plan, PlanKind
from .review import ReviewRecord, SavedReview, relations_snapshot
from .rewrite import LinkEdit


def verify_applied(config: Config, plan: Plan) -> list[str]:
    """Problems (empty when all is well) with an applied ``archive``/``restore`` plan."""
    review = SavedReview.of(plan)
    log = load(config)
    return [
        *_record_problems(log, review.records, archived=plan.kind == "archive"),
        *_content_problems(config, _expected_digests(plan)),
        *_relation_problems(review.relations, relations_snapshot(log)),
        *_link_problems(config, review.links),
    ]


def _record_problems(log: Log, records: Sequence[ReviewRecord], *, archived: bool) -> list[str]:
    """Each moved record where the plan put it, with its id, status and archive state."""
    problems: list[str] = []
    for item in records:
        rec = log.by_path.get(item.target)
        if rec is None:
            problems.append(f"{item.target}: {item.id} is not found there after the move")
            continue
        if rec.id != item.id:
            problems.append(f"{item.target}: holds {rec.id}, expected {item.id}")
        if rec.status != item.status:
            problems.append(
                f"{item.target}: {rec.id} has status {rec.status}, expected {item.status} "
                "(a move never changes a status)"
            )
        if rec.archived != archived:
            where = "in" if archived else "out of"
            problems.append(f"{item.target}: {rec.id} should be {where} the archive")
    return problems


def _expected_digests(plan: Plan) -> dict[str, str | None]:
    """Every path the plan touches -> the hash it must have now (``None``: gone)."""
    expected: dict[str, str | None] = {}
    for step in plan.steps:
        if step.op == "move" and step.to is not None:
            expected[step.path] = None
            expected[step.to] = step.before
        elif step.op == "write":
            expected[step.path] = step.after
        elif step.op == "delete":
            expected[step.path] = None
    return expected


def _content_problems(config: Config, expected: dict[str, str | None]) -> list[str]:
    problems: list[str] = []
    for path, digest in sorted(expected.items()):
        try:
            now = sha256_file(inside_project(config.project_dir, path))
        except RefusedError as exc:
            problems.append(exc.message)
            continue
        if now == digest:
            continue
        if digest is None:
            problems.append(f"{path}: still exists after the move")
        elif now is None:
            problems.append(f"{path}: missing after the plan was applied")
        else:
            problems.append(
                f"{path}: content differs from the plan (only the listed link rewrites "
                "were expected)"
            )
    return problems


def _relation_problems(before: Sequence[str], after: Sequence[str]) -> list[str]:
    lost, gained = set(before) - set(after), set(after) - set(before)
    return [
        *(f"reference lost: {item}" for item in sorted(lost)),
        *(f"reference changed: {item} (not there before)" for item in sorted(gained)),
    ]


def _link_problems(config: Config, links: Sequence[LinkEdit]) -> list[str]:
    """Plain links (mentions) are checked link by link: each rewritten link must reach the
    planned target (the file it reached before, at its place after the plan)."""
    problems: list[str] = []
    docs_rel = config.docs_rel
    for edit in links:
        if edit.form == "nav":
            continue
        target = resolve(edit.page_after, split_target(edit.new)[0], docs_rel)
        src = docs_relative(target, docs_rel) if target != edit.target else None
        if src is not None and mounted_file(src, config.mounts) == edit.target:
            target = edit.target  # written by its path in the site (a root outside docs)
        if target != edit.target:
            problems.append(
                f"{edit.page_after}:{edit.line}: link {edit.new!r} reaches {target}, "
                f"not {edit.target}"
            )
        elif edit.target_exists and not exists(config.project_dir / target):
            problems.append(f"{edit.page_after}:{edit.line}: link {edit.new!r} does not resolve")
    return problems


#: Archive and restore plans, checked alike; :data:`mkdocs_adr.apply.KINDS` lists them.
PLAN_KINDS = tuple(PlanKind(kind, verify=verify_applied) for kind in ("archive", "restore"))
