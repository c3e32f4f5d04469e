"""Apply plans through a write-ahead journal; resume, roll back, and leave receipts.

``work_dir/journal/<plan_id>.jsonl`` records ``begin``, then ``start`` and
``done`` around every step, then ``commit`` (or ``rolled-back``), each line
fsynced before the step it announces. Every step is idempotent by hash:
re-running ``--confirm`` after a crash skips what is done, redoes what was
started, and refuses where a file holds bytes the plan never expected (a user
edit is never overwritten). Originals are kept, by hash, in the plan folder so
that a rollback can put them back (only from a backup that still hashes to the original).
Staged bytes are checked against their hash before the first write (ADR-0032), and a
resume or a rollback removes the temp files killed writes left beside the plan's files.
:func:`receipt_moves` is the one reader of the
moves receipts record (redirect pages for records that moved are built from it).

Tests stop the process at a chosen step with ``MKDOCS_ADR_CRASH_AT=N`` (before
step N's operation) or ``N:after`` (after it, before it is journalled done).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .errors import Refused, RefusedError, StalePlan
from .fsops import (
    atomic_move,
    atomic_write,
    fsync_dir,
    project_lock,
    remove_leftover_temps,
    sha256_bytes,
    sha256_file,
)
from .paths import inside_project, normalize, receipts_dir
from .plans import Plan, Step, load_plan, plan_dir, read_staged, staged_problems

RECEIPT_SCHEMA = "mkdocs-adr/receipt"
#: A receipt larger than this is not read for its moves (receipts are a few KiB).
MAX_RECEIPT_BYTES = 4 * 1024 * 1024
CRASH_ENV = "MKDOCS_ADR_CRASH_AT"
CRASH_EXIT = 75


@dataclass
class JournalState:
    plan_id: str
    begun: bool = False
    started: set[int] = field(default_factory=set)
    done: set[int] = field(default_factory=set)
    committed: bool = False
    rolled_back: bool = False
    receipt: str | None = None

    @property
    def state(self) -> str:
        if self.committed:
            return "applied"
        if self.rolled_back:
            return "rolled-back"
        if self.begun:
            return "interrupted"
        return "planned"

    def to_json(self) -> dict[str, Any]:
        return {
            "plan_id": self.plan_id,
            "state": self.state,
            "done_steps": sorted(self.done),
            "started_steps": sorted(self.started - self.done),
            "receipt": self.receipt,
        }


@dataclass(frozen=True)
class StepOutcome:
    """How far one step of a plan got."""

    n: int
    what: str  # e.g. ``move a.md -> archive/a.md``
    state: str  # done | failed | not-applied

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "what": self.what, "state": self.state}


@dataclass(frozen=True)
class PartOutcome:
    """A part of a receipt (``decision``, ``archive``, ``links``...): as good as its worst step."""

    state: str  # applied | partial | failed | not-applied
    steps: tuple[StepOutcome, ...]

    @classmethod
    def of(cls, steps: list[StepOutcome]) -> PartOutcome:
        # one failure fails the part, whatever follows
        states = {s.state for s in steps}
        if "failed" in states:
            state = "failed"
        elif states == {"done"}:
            state = "applied"
        elif "done" in states:
            state = "partial"
        else:
            state = "not-applied"
        return cls(state, tuple(steps))

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "steps": [s.to_json() for s in self.steps]}


@dataclass(frozen=True)
class Receipt:
    """What applying (or rolling back) a plan did; stored as ``receipts/<name>``."""

    plan_id: str
    kind: str
    version: int
    outcome: str  # success | failure | rolled-back
    applied_at: str
    parts: dict[str, PartOutcome]
    moves: tuple[tuple[str, str], ...]  # (from, to) of the moves that were done
    problems: tuple[str, ...]
    scope: dict[str, Any]
    undone: tuple[str, ...] | None = None  # a rollback's account, step by step
    name: str = ""  # the receipt's file name, once written

    def file_json(self) -> dict[str, Any]:
        """The receipt as its file holds it."""
        data: dict[str, Any] = {
            "schema": RECEIPT_SCHEMA,
            "plan_id": self.plan_id,
            "kind": self.kind,
            "version": self.version,
            "outcome": self.outcome,
            "applied_at": self.applied_at,
            "parts": {name: part.to_json() for name, part in self.parts.items()},
            "moves": [{"from": src, "to": dst} for src, dst in self.moves],
            "problems": list(self.problems),
            "scope": self.scope,
        }
        if self.undone is not None:
            data["undone"] = list(self.undone)
        return data

    def to_json(self) -> dict[str, Any]:
        """The receipt as the CLI reports it: its file's content and its file name."""
        return {**self.file_json(), "receipt": self.name}


def journal_path(work_dir: Path, plan_id: str) -> Path:
    return work_dir / "journal" / f"{plan_id}.jsonl"


def read_journal(work_dir: Path, plan_id: str) -> JournalState:
    state = JournalState(plan_id)
    path = journal_path(work_dir, plan_id)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return state
    for line in lines:
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a torn last line from a crash mid-append: the step was not done
        kind = event.get("event")
        if kind == "begin":
            state.begun = True
        elif kind == "start":
            state.started.add(int(event["n"]))
        elif kind == "done":
            state.done.add(int(event["n"]))
        elif kind == "commit":
            state.committed = True
            state.receipt = event.get("receipt")
        elif kind == "rolled-back":
            state.rolled_back = True
            state.receipt = event.get("receipt")
            # the undone steps must be redone if the plan is confirmed again
            state.started.clear()
            state.done.clear()
        elif kind == "resume":
            state.rolled_back = False
    return state


def _append(work_dir: Path, plan_id: str, event: dict[str, Any]) -> None:
    path = journal_path(work_dir, plan_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps({**event, "at": time.time()}, sort_keys=True) + "\n"
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line)
        fh.flush()
        os.fsync(fh.fileno())
    fsync_dir(path.parent)


def _crash_point(n: int, when: str) -> None:
    spec = os.environ.get(CRASH_ENV)
    if not spec:
        return
    target, _, phase = spec.partition(":")
    if target.isdigit() and int(target) == n and (phase or "before") == when:
        os._exit(CRASH_EXIT)


class Conflict(StalePlan):
    """A file holds bytes the plan never expected: the step is not carried out."""


def _backup(work_dir: Path, plan_id: str, path: Path, digest: str | None) -> None:
    if digest is None:
        return
    dest = plan_dir(work_dir, plan_id) / "backup" / digest
    if not dest.exists():
        data = path.read_bytes()
        if sha256_bytes(data) != digest:  # changed between hashing and reading
            raise Conflict(f"{path.name} changed while it was being applied; not touched")
        atomic_write(dest, data, make_parents=True)


def _describe(step: Step) -> str:
    if step.op == "move":
        return f"move {step.path} -> {step.to}"
    return f"{step.op} {step.path}"


def perform(project_dir: Path, work_dir: Path, plan_id: str, step: Step) -> None:
    """Carry out one step idempotently; :class:`Conflict` when bytes are unexpected."""
    path = inside_project(project_dir, step.path)
    current = sha256_file(path)
    if step.op == "write":
        if current == step.after:
            return
        if current != step.before:
            raise Conflict(
                f"{step.path} changed since the plan was made; it was not overwritten",
                path=step.path,
                fix="review the change, then plan again",
            )
        assert step.after is not None
        data = read_staged(work_dir, plan_id, step.after)
        _backup(work_dir, plan_id, path, current)
        atomic_write(path, data, make_parents=True)
    elif step.op == "delete":
        if current is None:
            return
        if current != step.before:
            raise Conflict(f"{step.path} changed since the plan was made; not deleted")
        _backup(work_dir, plan_id, path, current)
        path.unlink()
        fsync_dir(path.parent)
    elif step.op == "move":
        assert step.to is not None
        dest = inside_project(project_dir, step.to)
        dest_hash = sha256_file(dest)
        if current is None and dest_hash == step.before:
            return
        if current != step.before:
            raise Conflict(f"{step.path} changed or vanished since the plan was made; not moved")
        if dest_hash is not None:
            raise Conflict(f"{step.to} already exists; a move never overwrites")
        atomic_move(path, dest)
        # a move may empty a folder; leave empty folders: they are harmless and
        # removing them could race a user creating a file there


Verifier = Callable[[Plan], list[str]]


def targets(project_dir: Path, plan: Plan) -> list[Path]:
    """Every file a step of ``plan`` writes, deletes, or moves from or to."""
    out: list[Path] = []
    for step in plan.steps:
        for rel in (step.path, step.to):
            if rel is None:
                continue
            try:
                path = inside_project(project_dir, rel)
            except RefusedError:
                continue
            if path not in out:
                out.append(path)
    return out


def sweep(project_dir: Path, work_dir: Path, plan: Plan) -> list[str]:
    """Remove the temp files killed writes of ``plan``'s targets left (project-relative
    names of the files removed), and journal them."""
    removed = remove_leftover_temps(targets(project_dir, plan))
    names = [p.relative_to(project_dir).as_posix() for p in removed]
    if names:
        _append(work_dir, plan.plan_id, {"event": "swept", "files": names})
    return names


def preconditions(project_dir: Path, plan: Plan) -> list[str]:
    """Every way the tree differs from what the plan was computed from."""
    changes: list[str] = []
    for rel, digest in sorted(plan.inputs.items()):
        try:
            current = sha256_file(inside_project(project_dir, rel))
        except RefusedError as exc:
            changes.append(exc.message)
            continue
        if current != digest:
            what = (
                "was removed" if current is None else ("appeared" if digest is None else "changed")
            )
            changes.append(f"{rel} {what} since the plan was made")
    # Steps are checked in order against the tree as the earlier steps will
    # leave it, so a plan may move a file and then rewrite it at its new path.
    expected: dict[str, str | None] = {}

    def state(rel: str) -> str | None:
        if rel in expected:
            return expected[rel]
        return sha256_file(inside_project(project_dir, rel))

    for step in plan.steps:
        current = state(step.path)
        unexpected = current != step.before and not (step.op == "write" and current == step.after)
        if unexpected and f"{step.path} changed since the plan was made" not in " ".join(changes):
            changes.append(f"{step.path} is not as planned ({_describe(step)})")
        if step.op == "move" and step.to is not None:
            if state(step.to) is not None:
                changes.append(f"{step.to} already exists; the move would overwrite it")
            expected[step.to] = step.before
            expected[step.path] = None
        elif step.op == "write":
            expected[step.path] = step.after
        elif step.op == "delete":
            expected[step.path] = None
    return changes


def apply(
    project_dir: Path,
    work_dir: Path,
    plan_id: str,
    *,
    verify: Verifier | None = None,
    purpose: str = "apply",
    precheck: Verifier | None = None,
    lock_timeout: float = 0.0,
) -> Receipt:
    """Apply (or resume) a plan inside the project lock; return its receipt.

    ``precheck`` runs inside the lock before anything is written (on a first
    apply and on a resume alike) and returns every way the plan is no longer
    valid, for checks the plan's own hashes cannot express (a file that
    appeared, a newer plan version); any answer refuses the plan with
    :class:`~mkdocs_adr.errors.StalePlan`. ``lock_timeout`` is how long to wait
    for another process's lock before :class:`~mkdocs_adr.errors.LockHeld`.
    """
    with project_lock(work_dir, f"{purpose} {plan_id}", timeout=lock_timeout):
        plan = load_plan(work_dir, plan_id)
        state = read_journal(work_dir, plan_id)
        if state.committed:
            raise Refused(
                f"plan {plan_id} was already applied (receipt {state.receipt})",
                fix="nothing to do; plan again for new changes",
            )
        if plan.blocking:
            raise Refused(
                f"plan {plan_id} has blocking problems: " + "; ".join(plan.blocking),
                fix="fix them and plan again (a draft can still be saved)",
            )
        if precheck is not None:
            stale = precheck(plan)
            if stale:
                raise StalePlan(
                    f"plan {plan_id} is stale: " + "; ".join(stale),
                    fix="plan again and review the new plan"
                    + (
                        "; roll back the interrupted steps first with "
                        f"`mkdocs-adr plan --rollback {plan_id}`"
                        if state.begun and not state.rolled_back
                        else ""
                    ),
                )
        # the staged bytes of every write still to do must hash to what was
        # reviewed, before the first write (on a first apply and a resume alike)
        damaged = staged_problems(work_dir, plan, skip=state.done)
        if damaged:
            raise StalePlan(
                f"plan {plan_id} cannot be applied: " + "; ".join(damaged),
                fix="plan again and review the new plan"
                + (
                    f"; undo the interrupted steps with `mkdocs-adr plan --rollback {plan_id}`"
                    if state.begun and not state.rolled_back
                    else ""
                ),
            )
        if state.begun:
            sweep(project_dir, work_dir, plan)
        if not state.begun or state.rolled_back:
            changes = preconditions(project_dir, plan)
            if changes:
                raise StalePlan(
                    f"plan {plan_id} is stale: " + "; ".join(changes),
                    fix="plan again and review the new plan",
                )
            _append(work_dir, plan_id, {"event": "resume" if state.rolled_back else "begin"})
            state = read_journal(work_dir, plan_id)
        failed: dict[int, str] = {}
        for n, step in enumerate(plan.steps):
            if n in state.done:
                continue
            _append(work_dir, plan_id, {"event": "start", "n": n, "step": step.to_json()})
            _crash_point(n, "before")
            try:
                perform(project_dir, work_dir, plan_id, step)
            except Conflict as exc:
                failed[n] = exc.message
                break
            _crash_point(n, "after")
            _append(work_dir, plan_id, {"event": "done", "n": n})
            state.done.add(n)
        problems = list(failed.values())
        if not failed and verify is not None:
            problems.extend(verify(plan))
        receipt = write_receipt(work_dir, _receipt(plan, state.done, failed, problems))
        if not failed:
            _append(work_dir, plan_id, {"event": "commit", "receipt": receipt.name})
        return receipt


def _receipt(plan: Plan, done: set[int], failed: dict[int, str], problems: list[str]) -> Receipt:
    steps: dict[str, list[StepOutcome]] = {}
    for n, step in enumerate(plan.steps):
        step_state = "done" if n in done else ("failed" if n in failed else "not-applied")
        steps.setdefault(step.part, []).append(StepOutcome(n, _describe(step), step_state))
    return Receipt(
        plan_id=plan.plan_id,
        kind=plan.kind,
        version=plan.version,
        outcome="success" if not failed and not problems else "failure",
        applied_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        parts={part: PartOutcome.of(found) for part, found in steps.items()},
        moves=tuple(
            (s.path, s.to)
            for n, s in enumerate(plan.steps)
            if s.op == "move" and s.to is not None and n in done
        ),
        problems=tuple(problems),
        scope=plan.scope,
    )


def write_receipt(work_dir: Path, receipt: Receipt) -> Receipt:
    """One file per receipt, never merged: ``receipts/<time>-<plan_id>[-n].json``.

    Returns the receipt with its file name.
    """
    folder = receipts_dir(work_dir)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    base = f"{stamp}-{receipt.plan_id}"
    name = f"{base}.json"
    n = 2
    while (folder / name).exists():
        name = f"{base}-{n}.json"
        n += 1
    text = json.dumps(receipt.file_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    atomic_write(folder / name, text.encode())
    return replace(receipt, name=name)


def list_receipts(work_dir: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    folder = receipts_dir(work_dir)
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.json")):
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("schema") == RECEIPT_SCHEMA:
                data["receipt"] = path.name
                out.append(data)
    return out


@dataclass(frozen=True)
class RecordedMove:
    """A file move a receipt says was done: project-relative paths in normal form."""

    source: str
    target: str
    receipt: str  # the file name of the receipt that records it


def receipt_moves(work_dir: Path) -> list[RecordedMove]:
    """Every move recorded in ``work_dir/receipts/*.json``, receipts in name order.

    Read defensively, since a receipt is evidence, never an instruction: a receipt
    over :data:`MAX_RECEIPT_BYTES`, one that does not parse, or one that is not an
    object with a ``moves`` list is skipped; so is a move that is not
    ``{"from": str, "to": str}`` or whose paths do not normalize (absolute, leaving
    the project) or name the same place.
    """
    folder = receipts_dir(work_dir)
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix == ".json" and p.is_file())
    except OSError:
        return []
    moves: list[RecordedMove] = []
    for path in files:
        try:
            if path.stat().st_size > MAX_RECEIPT_BYTES:
                continue
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("moves"), list):
            moves.extend(_recorded(data["moves"], path.name))
    return moves


def _recorded(items: list[Any], receipt: str) -> list[RecordedMove]:
    out = []
    for move in items:
        if not isinstance(move, dict):
            continue
        src, dst = move.get("from"), move.get("to")
        if isinstance(src, str) and isinstance(dst, str) and src and dst:
            a, b = normalize(src), normalize(dst)
            if a and b and a != b:
                out.append(RecordedMove(a, b, receipt))
    return out


def rollback(project_dir: Path, work_dir: Path, plan_id: str) -> Receipt:
    """Undo the done (and half-done) steps of an interrupted plan, newest first."""
    with project_lock(work_dir, f"rollback {plan_id}"):
        plan = load_plan(work_dir, plan_id)
        state = read_journal(work_dir, plan_id)
        if state.committed:
            raise Refused(
                f"plan {plan_id} completed; a rollback only undoes interrupted plans",
                fix="plan the reverse operation instead (e.g. `mkdocs-adr archive restore`)",
            )
        touched = sorted(state.started | state.done, reverse=True)
        undone: list[str] = []
        for n in touched:
            step = plan.steps[n]
            undone.append(_undo(project_dir, work_dir, plan_id, step))
        undone.extend(
            f"{name}: removed (a temp file of a killed write)"
            for name in sweep(project_dir, work_dir, plan)
        )
        receipt = Receipt(
            plan_id=plan.plan_id,
            kind=plan.kind,
            version=plan.version,
            outcome="rolled-back",
            applied_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            parts={},
            moves=(),
            problems=tuple(u for u in undone if u.startswith("kept")),
            scope=plan.scope,
            undone=tuple(undone),
        )
        receipt = write_receipt(work_dir, receipt)
        _append(work_dir, plan_id, {"event": "rolled-back", "receipt": receipt.name})
        return receipt


def _backed_up(backup: Path, digest: str) -> bytes | None:
    """A backup's bytes when they still hash to ``digest``; None otherwise."""
    try:
        data = backup.read_bytes()
    except OSError:
        return None
    return data if sha256_bytes(data) == digest else None


def _undo(project_dir: Path, work_dir: Path, plan_id: str, step: Step) -> str:
    path = inside_project(project_dir, step.path)
    current = sha256_file(path)
    backup = (
        plan_dir(work_dir, plan_id) / "backup" / step.before if step.before is not None else None
    )
    if step.op == "write":
        if current == step.before:
            return f"{step.path}: already as before"
        if current != step.after:
            return f"kept {step.path}: it was edited after the step; not rolled back"
        if step.before is None:
            path.unlink()
            fsync_dir(path.parent)
            return f"{step.path}: removed (it did not exist before)"
        assert backup is not None and step.before is not None
        original = _backed_up(backup, step.before)
        if original is None:
            return f"kept {step.path}: its backup is missing or damaged; not rolled back"
        atomic_write(path, original)
        return f"{step.path}: restored"
    if step.op == "delete":
        if current is not None:
            return f"{step.path}: present"
        assert backup is not None and step.before is not None
        original = _backed_up(backup, step.before)
        if original is None:
            return f"kept {step.path} deleted: its backup is missing or damaged; not restored"
        atomic_write(path, original, make_parents=True)
        return f"{step.path}: restored"
    assert step.to is not None
    dest = inside_project(project_dir, step.to)
    if current == step.before:
        return f"{step.path}: not moved"
    if current is None and sha256_file(dest) == step.before:
        atomic_move(dest, path)
        return f"{step.to} -> {step.path}: moved back"
    return f"kept {step.to}: it changed after the move; not moved back"
