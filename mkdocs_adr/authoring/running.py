"""Running a command: show the change (``--dry-run``) or plan and apply it at once.

Allocation of a new number happens under ``work_dir/authoring/lock`` (held
until the new file is written) so two ``new`` commands never take one number;
the journal takes the project lock for the writes themselves. A plan that went
stale between planning and applying (:class:`~mkdocs_adr.errors.StalePlan`,
matched by type) is planned again, at most three times.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path

from ..config import Config
from ..errors import RefusedError, StalePlan
from ..fsops import project_lock
from ..journal import Receipt, read_journal
from ..journal import apply as journal_apply
from ..journal import rollback as journal_rollback
from ..log import Log, load
from ..plans import Plan
from .outcome import Change, Outcome, Subject, unified_diff
from .plan import interrupted, pending, save, verify_applied
from .readback import Prepared

#: Seconds to wait for another mkdocs-adr process to let go of a lock.
LOCK_WAIT = 30.0

Builder = Callable[[Log], Prepared]


@contextlib.contextmanager
def waiting_lock(work_dir: Path, purpose: str, timeout: float = LOCK_WAIT) -> Iterator[None]:
    """``project_lock`` that waits a while for another mkdocs-adr process."""
    with project_lock(work_dir, purpose, timeout=timeout):
        yield


def _apply(config: Config, plan_id: str) -> Receipt:
    """Apply through the journal, waiting while another process holds the project lock."""

    def verify(plan: Plan) -> list[str]:
        return verify_applied(config, plan)

    return journal_apply(
        config.project_dir,
        config.work_path,
        plan_id,
        verify=verify,
        purpose="authoring",
        lock_timeout=LOCK_WAIT,
    )


def run(
    config: Config,
    build: Builder,
    *,
    command: str,
    dry_run: bool,
    today: dt.date | None,
    resume_key: Callable[[Log], str] | None = None,
) -> Outcome:
    """Build the change, then show it (``dry_run``) or apply it at once."""
    if dry_run:
        return outcome_of(build(load(config, today=today)), command, dry_run=True)
    if not pending(config):
        # a first pass without locks: a refusal or "nothing to do" leaves no trace,
        # not even a work dir; the pass under the lock below is the one that counts
        first = build(load(config, today=today))
        if not first.contents:
            return outcome_of(first, command, dry_run=False)
    with waiting_lock(config.work_path / "authoring", command):
        for attempt in range(3):
            plan, outcome, resumable = _plan_locked(config, build, command, today, resume_key)
            if resumable is not None:
                return _resume(config, resumable, command)
            if plan is None:
                return outcome
            try:
                receipt = _apply(config, plan.plan_id)
            except StalePlan:
                if attempt < 2:
                    continue  # a record was edited between planning and applying: plan again
                raise
            return _finish(config, outcome, plan, receipt)
    raise RefusedError(f"{command}: the records kept changing while planning; try again")


def _plan_locked(
    config: Config,
    build: Builder,
    command: str,
    today: dt.date | None,
    resume_key: Callable[[Log], str] | None,
) -> tuple[Plan | None, Outcome, Plan | None]:
    """Read, build and save under the project lock: numbers and hashes stay true."""
    with waiting_lock(config.work_path, f"plan {command}"):
        log = load(config, today=today)
        key = resume_key(log) if resume_key else ""
        resumable = interrupted(config, key)
        if resumable is not None:
            return None, Outcome(command, dry_run=False), resumable
        prepared = build(log)
        outcome = outcome_of(prepared, command, dry_run=False)
        if not prepared.contents:
            return None, outcome, None
        return save(config, prepared, key), outcome, None


def outcome_of(prepared: Prepared, command: str, *, dry_run: bool) -> Outcome:
    """What ``prepared`` changes, as the command reports it (diff included)."""
    work = prepared.work
    out = Outcome(command=command, dry_run=dry_run, record=prepared.record)
    for path in work.order:
        side = work.sides[path]
        if path in prepared.contents:
            out.changes.append(side.change)
            out.diff += unified_diff(path, prepared.before[path], prepared.contents[path])
    if not prepared.contents:
        out.notes.append("already recorded: nothing to change")
    out.notes.extend(work.notes)
    out.problems_added = prepared.problems_added
    out.problems_resolved = prepared.problems_resolved
    return out


def _resume(config: Config, plan: Plan, command: str) -> Outcome:
    receipt = _apply(config, plan.plan_id)
    out = Outcome(command=command, dry_run=False, resumed=True, plan_id=plan.plan_id)
    record = plan.review.get("record")
    out.record = Subject.from_json(record) if record else None
    out.changes = [Change.from_json(c) for c in plan.review.get("changes") or []]
    out.notes.append(f"finished the interrupted plan {plan.plan_id}")
    return _finish(config, out, plan, receipt)


def _finish(config: Config, out: Outcome, plan: Plan, receipt: Receipt) -> Outcome:
    out.plan_id = plan.plan_id
    out.receipt = receipt.name
    if receipt.outcome == "success":
        return out
    problems = list(receipt.problems)
    state = read_journal(config.work_path, plan.plan_id)
    if not state.committed:
        # a step could not be applied: undo the finished ones so no side is half-written
        undone = journal_rollback(config.project_dir, config.work_path, plan.plan_id)
        raise RefusedError(
            f"{out.command}: could not apply plan {plan.plan_id} ({'; '.join(problems)}); "
            f"undid the finished steps: {'; '.join(undone.undone or ())}",
            fix="review the files named above, then run the command again",
        )
    out.failures = problems
    return out
