"""An authoring change as a plan: its scope, its steps, and the check after applying.

A prepared change (:class:`.readback.Prepared`) is saved as a plan of kind
``new``, ``supersede`` or ``link``: one write step per file, the hashes of the
other records it read, and in its review what every record must read back as.
:data:`PLAN_KINDS` hands :mod:`mkdocs_adr.apply` the check that runs once the
journal applied such a plan. A plan that was interrupted half-way is found
again here (:func:`interrupted`) so the same command can finish it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config import Config
from ..errors import RefusedError
from ..fsops import sha256_bytes
from ..journal import read_journal
from ..log import load
from ..plans import Plan, PlanKind, Step, list_plans, save_plan
from .readback import Prepared, check
from .refusal import AuthoringRefused, Reason
from .session import Expect

KINDS = ("new", "supersede", "link")
#: The status plans of :mod:`.status_change`: reviewed, then confirmed by plan id.
STATUS_KINDS = ("accept", "reject", "deprecate")


# --------------------------------------------------------------------- scopes


@dataclass(frozen=True)
class NewScope:
    command: str
    root: str
    domain: str | None
    title: str
    style: str
    status: str
    date: str
    supersedes: tuple[str, ...]
    links: tuple[tuple[str, str, str], ...]  # (verb, target id, inverse)

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "root": self.root,
            "domain": self.domain,
            "title": self.title,
            "style": self.style,
            "status": self.status,
            "date": self.date,
            "supersedes": list(self.supersedes),
            "links": [list(link) for link in self.links],
        }


@dataclass(frozen=True)
class SupersedeScope:
    command: str
    old: str
    new: str

    def to_json(self) -> dict[str, Any]:
        return {"command": self.command, "old": self.old, "new": self.new}


@dataclass(frozen=True)
class LinkScope:
    command: str
    source: str
    verb: str
    target: str
    inverse: str

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "source": self.source,
            "verb": self.verb,
            "target": self.target,
            "inverse": self.inverse,
        }


# --------------------------------------------------------------------- saving


def save(config: Config, prepared: Prepared, key: str) -> Plan:
    """Store ``prepared`` as a new plan (a fresh one if that plan was begun already)."""
    steps = [
        Step(
            "write",
            path,
            None if prepared.before[path] is None else sha256_bytes(prepared.before[path] or b""),
            sha256_bytes(data),
            part="decision",
        )
        for path, data in prepared.contents.items()
    ]
    staged = {sha256_bytes(data): data for data in prepared.contents.values()}
    inputs = {p: d for p, d in prepared.work.inputs.items() if p not in prepared.contents}
    scope = {**prepared.scope.to_json(), "resume_key": key}
    for repeat in range(1, 100):
        plan = Plan(
            kind=prepared.kind,
            scope={**scope, "repeat": repeat} if repeat > 1 else scope,
            fingerprint=prepared.work.log.fingerprint,
            steps=steps,
            inputs=inputs,
            review=_review(prepared),
        )
        plan = save_plan(config.work_path, plan, staged)
        if not read_journal(config.work_path, plan.plan_id).begun:
            return plan
    raise RefusedError("could not store a new plan", path=str(config.work_path))


def _review(prepared: Prepared) -> dict[str, Any]:
    """What the plan keeps for the check after applying and for a resume."""
    work = prepared.work
    return {
        "expect": [e.to_json() for e in work.expectations()],
        "changes": [work.sides[p].change.to_json() for p in prepared.contents],
        "notes": work.notes,
        "record": prepared.record.to_json(),
    }


# --------------------------------------------------------------------- interrupted plans


def pending(config: Config) -> list[Plan]:
    """Authoring and status plans whose journal says they were interrupted."""
    return [
        plan
        for plan in list_plans(config.work_path)
        if plan.kind in (*KINDS, *STATUS_KINDS)
        and read_journal(config.work_path, plan.plan_id).state == "interrupted"
    ]


def interrupted(config: Config, key: str) -> Plan | None:
    """An interrupted authoring plan: the same one is resumed, any other refuses."""
    found = pending(config)
    for plan in found:
        if key and plan.scope.get("resume_key") == key and plan.kind in KINDS:
            return plan
    if found:
        reasons = [
            Reason(
                f"an earlier `mkdocs-adr {p.scope.get('command', p.kind)}` (plan {p.plan_id}) "
                "was interrupted and may have written only some of its files; finish it "
                + (
                    f"by running that command again (or `mkdocs-adr plan --confirm {p.plan_id}`)"
                    if p.kind in KINDS
                    else f"with `mkdocs-adr plan --confirm {p.plan_id}`"
                )
                + f", or undo it with `mkdocs-adr plan --rollback {p.plan_id}`"
            )
            for p in found
        ]
        raise AuthoringRefused("refused", reasons)
    return None


# --------------------------------------------------------------------- after applying


def verify_applied(config: Config, plan: Plan) -> list[str]:
    """After the journal applied ``plan``: re-read the log and check both records."""
    expects = [Expect.from_json(e) for e in plan.review.get("expect") or []]
    return check(load(config), expects)


#: ``new``, ``supersede`` and ``link`` plans; :data:`mkdocs_adr.apply.KINDS` lists them.
PLAN_KINDS = tuple(PlanKind(kind, verify=verify_applied) for kind in KINDS)
