"""Plans as data: what would change, stored in ``work_dir/plans/<plan_id>/``.

A plan lists file steps (write, move, delete) with the exact hash each path
must have before and will have after, the input hashes it was computed from,
and a review summary. Its id is derived from its content; planning the same
scope again with different content gives a new id and the next version, and
the highest version of a scope is the current one.

New contents are staged in the plan folder, addressed by hash, so that the
apply step copies exactly the reviewed bytes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import Config
from .errors import Refused, StalePlan, UsageError
from .fsops import atomic_write, sha256_bytes

PLAN_SCHEMA = "mkdocs-adr/plan-file"
OPS = ("write", "move", "delete")


@dataclass(frozen=True)
class Step:
    """One file operation. Hashes are of exact bytes; ``None`` means absent."""

    op: str
    path: str
    before: str | None
    after: str | None
    to: str | None = None
    part: str = "files"  # which part of a receipt this step belongs to

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        if data.get("op") not in OPS or not isinstance(data.get("path"), str):
            raise ValueError(f"bad step: {data!r}")
        return cls(
            op=data["op"],
            path=data["path"],
            before=data.get("before"),
            after=data.get("after"),
            to=data.get("to"),
            part=str(data.get("part") or "files"),
        )


@dataclass
class Plan:
    kind: str
    scope: dict[str, Any]
    fingerprint: str
    steps: list[Step]
    inputs: dict[str, str | None] = field(default_factory=dict)
    review: dict[str, Any] = field(default_factory=dict)
    blocking: list[str] = field(default_factory=list)
    plan_id: str = ""
    version: int = 1
    created: str = ""

    def content_key(self) -> str:
        """The content part of the plan id: kind, scope, fingerprint, steps, inputs,
        and the blocking problems, so that a plan blocked by a conflict and the plan
        made once the conflict is fixed never share an id (and a cached blocked plan
        is never handed back for a tree that no longer blocks it)."""
        payload: dict[str, Any] = {
            "kind": self.kind,
            "scope": self.scope,
            "fingerprint": self.fingerprint,
            "steps": [s.to_json() for s in self.steps],
            "inputs": self.inputs,
        }
        if self.blocking:  # absent when empty: the ids of unblocked plans stay as they were
            payload["blocking"] = sorted(self.blocking)
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def scope_key(self) -> str:
        return json.dumps({"kind": self.kind, "scope": self.scope}, sort_keys=True)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": PLAN_SCHEMA,
            "plan_id": self.plan_id,
            "version": self.version,
            "kind": self.kind,
            "created": self.created,
            "scope": self.scope,
            "fingerprint": self.fingerprint,
            "inputs": self.inputs,
            "steps": [s.to_json() for s in self.steps],
            "review": self.review,
            "blocking": self.blocking,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Plan:
        if data.get("schema") != PLAN_SCHEMA:
            raise ValueError("not a plan file")
        return cls(
            kind=str(data["kind"]),
            scope=dict(data.get("scope") or {}),
            fingerprint=str(data.get("fingerprint") or ""),
            steps=[Step.from_json(s) for s in data.get("steps") or []],
            inputs=dict(data.get("inputs") or {}),
            review=dict(data.get("review") or {}),
            blocking=list(data.get("blocking") or []),
            plan_id=str(data["plan_id"]),
            version=int(data.get("version") or 1),
            created=str(data.get("created") or ""),
        )


#: A check over a plan: every problem found, in words (empty when all is well).
PlanCheck = Callable[[Config, Plan], list[str]]


@dataclass(frozen=True)
class PlanKind:
    """What one kind of plan brings to confirming it; the journal does the rest.

    The module that makes plans of a kind defines its ``PlanKind`` beside its
    checks, and :data:`mkdocs_adr.apply.KINDS` lists them all.
    """

    name: str
    #: After the journal applied every step: does the tree say what was reviewed?
    verify: PlanCheck
    #: Inside the lock, before anything is written: why the plan is stale, for
    #: what its file hashes cannot express (a file that appeared, a newer version).
    precheck: PlanCheck | None = None


def plans_dir(work_dir: Path) -> Path:
    return work_dir / "plans"


def plan_dir(work_dir: Path, plan_id: str) -> Path:
    if not plan_id or "/" in plan_id or "\\" in plan_id or plan_id.startswith("."):
        raise UsageError(f"{plan_id!r} is not a plan id", fix="see `mkdocs-adr status`")
    return plans_dir(work_dir) / plan_id


def staged_path(work_dir: Path, plan_id: str, digest: str) -> Path:
    return plan_dir(work_dir, plan_id) / "staged" / digest


def read_staged(work_dir: Path, plan_id: str, digest: str) -> bytes:
    """The staged bytes of ``digest``, checked against it: exactly what was reviewed.

    :class:`~mkdocs_adr.errors.StalePlan` when the staged file is missing,
    unreadable, or no longer hashes to ``digest`` (edited or damaged after the
    plan was made): such bytes are never written.
    """
    path = staged_path(work_dir, plan_id, digest)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise StalePlan(
            f"plan {plan_id}: its staged content {digest[:12]} is missing or unreadable "
            f"({exc.strerror or exc}); nothing was written from it",
            path=str(path),
            fix="plan again and review the new plan",
        ) from None
    if sha256_bytes(data) != digest:
        raise StalePlan(
            f"plan {plan_id}: its staged content {digest[:12]} does not match its sha256 "
            "(it changed after the plan was made); nothing was written from it",
            path=str(path),
            fix="plan again and review the new plan",
        )
    return data


def staged_problems(work_dir: Path, plan: Plan, skip: set[int] | None = None) -> list[str]:
    """Every write step of ``plan`` (but those in ``skip``) whose staged bytes fail
    :func:`read_staged`, in words."""
    out: list[str] = []
    for n, step in enumerate(plan.steps):
        if step.op != "write" or step.after is None or (skip and n in skip):
            continue
        try:
            read_staged(work_dir, plan.plan_id, step.after)
        except StalePlan as exc:
            out.append(f"{step.path}: {exc.message}")
    return out


def save_plan(work_dir: Path, plan: Plan, staged: dict[str, bytes]) -> Plan:
    """Store ``plan`` with its staged contents (by hash); set id, version, created."""
    for step in plan.steps:
        if step.op == "write" and step.after not in staged:
            raise ValueError(f"step for {step.path} has no staged content")
    plan.plan_id = f"{plan.kind}-{plan.content_key()}"
    folder = plan_dir(work_dir, plan.plan_id)
    existing = folder / "plan.json"
    if existing.exists():
        old = load_plan(work_dir, plan.plan_id)
        # the same id is the same content: staged bytes that were damaged since are
        # put back from the ones just computed, which hash to what the plan records
        for digest, data in sorted(staged.items()):
            try:
                read_staged(work_dir, old.plan_id, digest)
            except StalePlan:
                if sha256_bytes(data) == digest:
                    atomic_write(
                        staged_path(work_dir, old.plan_id, digest), data, make_parents=True
                    )
        return old
    versions = [p.version for p in list_plans(work_dir) if p.scope_key() == plan.scope_key()]
    plan.version = max(versions, default=0) + 1
    plan.created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for digest, data in sorted(staged.items()):
        if sha256_bytes(data) != digest:
            raise ValueError("staged content does not match its hash")
        atomic_write(staged_path(work_dir, plan.plan_id, digest), data, make_parents=True)
    text = json.dumps(plan.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    atomic_write(existing, text.encode(), make_parents=True)
    return plan


def load_plan(work_dir: Path, plan_id: str) -> Plan:
    path = plan_dir(work_dir, plan_id) / "plan.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Plan.from_json(data)
    except FileNotFoundError:
        known = ", ".join(p.plan_id for p in list_plans(work_dir)[-5:]) or "none"
        raise Refused(
            f"no plan {plan_id!r} in {plans_dir(work_dir)}",
            fix=f"plan again; recent plans: {known}",
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise Refused(
            f"plan {plan_id!r} is unreadable or damaged ({exc})",
            path=str(path),
            fix="plan again",
        ) from None


def list_plans(work_dir: Path) -> list[Plan]:
    out: list[Plan] = []
    folder = plans_dir(work_dir)
    if not folder.is_dir():
        return out
    for sub in sorted(folder.iterdir()):
        try:
            out.append(Plan.from_json(json.loads((sub / "plan.json").read_text("utf-8"))))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return sorted(out, key=lambda p: (p.created, p.plan_id))


def is_current(work_dir: Path, plan: Plan) -> bool:
    """The highest version of its scope is the current plan."""
    same = [p for p in list_plans(work_dir) if p.scope_key() == plan.scope_key()]
    return not same or max(p.version for p in same) == plan.version
