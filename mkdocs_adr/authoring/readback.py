"""The read-back: the edited log, worked out in memory, must say what was intended.

The edited texts are handed to :func:`mkdocs_adr.whatif.after`, which reads the
log as it would be once they are written; every record taking part must read
back with the intended id, status, title and relations, or nothing is written.
The same check runs again on disk after the journal applied a plan
(:func:`mkdocs_adr.authoring.plan.verify_applied`).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any, Protocol

from .. import whatif
from ..log import Log
from ..model import Problem, Severity
from .outcome import Subject
from .refusal import AuthoringRefused, Reason
from .session import Expect, Work


class Scope(Protocol):
    """What a plan of one kind covers; its JSON is the plan's scope."""

    @property
    def command(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Prepared:
    """A change worked out in memory, checked, ready to show or apply."""

    work: Work
    kind: str
    scope: Scope
    record: Subject
    contents: dict[str, bytes]
    before: dict[str, bytes | None]
    problems_added: list[Problem]
    problems_resolved: list[Problem]


def check(log: Log, expects: list[Expect]) -> list[str]:
    """Every way the log differs from what the change meant to write."""
    out: list[str] = []
    for exp in expects:
        rec = log.by_path.get(exp.path)
        if rec is None:
            out.append(f"{exp.path} is not read as a record")
            continue
        if rec.id != exp.id:
            out.append(f"{exp.path} reads as {rec.id}, not {exp.id}")
        if exp.status is not None and rec.status != exp.status:
            out.append(f"{exp.id} reads as status '{rec.status}', not '{exp.status}'")
        if exp.title is not None and rec.title != exp.title:
            out.append(f"{exp.id} reads as title {rec.title!r}, not {exp.title!r}")
        have = {(r.kind, r.target_id) for r in rec.relations if r.authoritative}
        for kind, target in sorted(exp.relations):
            if (kind, target) not in have:
                out.append(f"{exp.id} does not read as '{kind} {target}'")
    return out


def prepare(
    work: Work, kind: str, scope: Scope, record: Subject, today: dt.date | None
) -> Prepared:
    """Check the edited log reads back as intended; refuse otherwise."""
    work.refuse_if_any()
    contents = work.contents()
    before: dict[str, bytes | None] = {path: work.sides[path].ed.original for path in contents}
    after = whatif.after(work.log, [whatif.Write(p, d) for p, d in contents.items()], today=today)
    mismatches = check(after, work.expectations())
    if mismatches:
        raise AuthoringRefused(
            work.what,
            [
                Reason(f"the edited records would not read back as intended: {m}")
                for m in mismatches
            ],
        )
    added, resolved = problem_delta(work.log, after, {e.id for e in work.expectations()})
    return Prepared(work, kind, scope, record, contents, before, added, resolved)


def problem_delta(
    before: Log, after: Log, touched: set[str]
) -> tuple[list[Problem], list[Problem]]:
    """(added, resolved) warnings and errors about the ``touched`` ids."""
    old = {_problem_key(p): p for p in before.problems if touched & set(p.ids)}
    new = {_problem_key(p): p for p in after.problems if touched & set(p.ids)}
    added = [p for k, p in new.items() if k not in old and p.severity >= Severity.WARNING]
    resolved = [p for k, p in old.items() if k not in new and p.severity >= Severity.WARNING]
    return added, resolved


def _problem_key(p: Problem) -> tuple[str, str]:
    # "overdue by 3 days" today and "by 4 days" tomorrow are one problem
    return (p.code, re.sub(r"\d+ days", "N days", p.message))
