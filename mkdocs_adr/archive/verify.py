"""Check an applied archive or restore plan against what it promised.

Called by the journal inside the project lock after the last step: the log
is read again, and every moved record must have kept its id and status, sit
where the plan put it (archived or not), hold exactly the planned bytes
(its original content apart from the listed link rewrites), and every
reference of the log must still resolve to the same record.
"""

from __future__ import annotations

from ..config import Config
from ..errors import RefusedError
from ..fsops import sha256_file
from ..links import resolve, split_target
from ..log import load
from ..paths import inside_project
from ..plans import Plan, PlanKind
from .planner import relations_snapshot


def verify_applied(config: Config, plan: Plan) -> list[str]:
    """Problems (empty when all is well) with an applied ``archive``/``restore`` plan."""
    problems: list[str] = []
    review = plan.review
    log = load(config)
    archived = plan.kind == "archive"
    for item in review.get("records", []):
        rec = log.by_path.get(item["to"])
        if rec is None:
            problems.append(f"{item['to']}: {item['id']} is not found there after the move")
            continue
        if rec.id != item["id"]:
            problems.append(f"{item['to']}: holds {rec.id}, expected {item['id']}")
        if rec.status != item["status"]:
            problems.append(
                f"{item['to']}: {rec.id} has status {rec.status}, expected {item['status']} "
                "(a move never changes a status)"
            )
        if rec.archived != archived:
            where = "in" if archived else "out of"
            problems.append(f"{item['to']}: {rec.id} should be {where} the archive")
    expected: dict[str, str | None] = {}
    for step in plan.steps:
        if step.op == "move" and step.to is not None:
            expected[step.path] = None
            expected[step.to] = step.before
        elif step.op == "write":
            expected[step.path] = step.after
        elif step.op == "delete":
            expected[step.path] = None
    for path, digest in sorted(expected.items()):
        try:
            now = sha256_file(inside_project(config.project_dir, path))
        except RefusedError as exc:
            problems.append(exc.message)
            continue
        if now != digest:
            if digest is None:
                problems.append(f"{path}: still exists after the move")
            elif now is None:
                problems.append(f"{path}: missing after the plan was applied")
            else:
                problems.append(
                    f"{path}: content differs from the plan (only the listed link rewrites "
                    "were expected)"
                )
    before = set(review.get("relations", []))
    after = set(relations_snapshot(log))
    for lost in sorted(before - after):
        problems.append(f"reference lost: {lost}")
    for gained in sorted(after - before):
        problems.append(f"reference changed: {gained} (not there before)")
    # plain links (mentions) are checked link by link: each rewritten link must reach
    # the planned target (the file it reached before, at its place after the plan)
    docs_rel = config.rel(config.docs_dir)
    for edit in review.get("links", []):
        if edit.get("form") == "nav":
            continue
        target = resolve(edit["page_after"], split_target(edit["new"])[0], docs_rel)
        if target != edit["target"]:
            problems.append(
                f"{edit['page_after']}:{edit['line']}: link {edit['new']!r} reaches {target}, "
                f"not {edit['target']}"
            )
        elif edit.get("target_exists") and not (config.project_dir / target).exists():
            problems.append(
                f"{edit['page_after']}:{edit['line']}: link {edit['new']!r} does not resolve"
            )
    return problems


#: Archive and restore plans, checked alike; :data:`mkdocs_adr.apply.KINDS` lists them.
PLAN_KINDS = tuple(PlanKind(kind, verify=verify_applied) for kind in ("archive", "restore"))
