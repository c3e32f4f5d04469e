"""``new``, ``supersede`` and ``link``: plan both sides, check, then apply at once.

Every command works the same way:

1. read the log (archive included) and resolve every reference, collecting
   every reason to refuse before saying no;
2. edit the records' text in memory, each in its own style (:mod:`.writers`);
3. read the edited log back in memory and check that every record says what
   was intended (status, relations, id); if not, refuse and write nothing;
4. ``--dry-run`` stops here and shows the exact diff; otherwise the change is
   saved as a plan and applied at once through the write-ahead journal, so
   the files change together or not at all, and is verified again on disk.

Allocation of a new number happens under ``work_dir/authoring/lock`` (held
until the new file is written) so two ``new`` commands never take one number;
the journal takes the project lock for the writes themselves.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import whatif
from ..config import Config, RootConfig
from ..discovery import ARCHIVE
from ..errors import AdrError, RefusedError, StalePlan
from ..fsops import project_lock, sha256_bytes
from ..identity import AmbiguousReference, BadReference, UnknownReference, lookup, parse_id
from ..journal import Receipt, read_journal
from ..journal import apply as journal_apply
from ..journal import rollback as journal_rollback
from ..log import Log, load
from ..model import Problem, Record, Severity
from ..parsing.editable import Editable, UnsafeEdit
from ..parsing.status import VERBS
from ..plans import Plan, PlanKind, Step, list_plans, save_plan
from .writers import KEEPS_WORDING, WRITABLE, Ref, writer_for

SCHEMA = "mkdocs-adr/authoring"
KINDS = ("new", "supersede", "link")
#: Seconds to wait for another mkdocs-adr process to let go of a lock.
LOCK_WAIT = 30.0

#: Default inverse wording, as adr-tools users write it.
INVERSE_VERBS: dict[str, str] = {
    "amends": "Amended by",
    "amended by": "Amends",
    "extends": "Extended by",
    "extended by": "Extends",
    "depends on": "Depended on by",
    "depended on by": "Depends on",
    "relates to": "Relates to",
    "related to": "Related to",
    "clarifies": "Clarified by",
    "clarified by": "Clarifies",
    "refines": "Refined by",
    "refined by": "Refines",
}
#: Styles that keep a relation's wording (frontmatter keeps only its kind).
TEXT_STYLES = KEEPS_WORDING
NEW_STATUSES = ("proposed", "accepted", "draft", "rejected", "deprecated")


# --------------------------------------------------------------------- refusals


@dataclass(frozen=True)
class Reason:
    text: str
    usage: bool = False  # a mistake on the command line (exit 2), else a refusal (exit 3)


class AuthoringRefused(AdrError):
    """One or more reasons not to write; all of them, never just the first."""

    def __init__(self, what: str, reasons: list[Reason]) -> None:
        self.reasons = reasons
        self.exit_code = 2 if any(r.usage for r in reasons) else 3
        lines = "\n".join(f"  - {r.text}" for r in reasons)
        super().__init__(f"{what}: nothing was written, because:\n{lines}")


# --------------------------------------------------------------------- results


@dataclass
class Change:
    path: str
    id: str
    action: str  # created | updated
    what: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "id": self.id, "action": self.action, "what": self.what}


@dataclass
class Outcome:
    """What a command did (or, with ``--dry-run``, would do)."""

    command: str
    dry_run: bool
    changes: list[Change] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    diff: str = ""
    plan_id: str | None = None
    receipt: str | None = None
    record: dict[str, Any] = field(default_factory=dict)
    problems_added: list[Problem] = field(default_factory=list)
    problems_resolved: list[Problem] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    resumed: bool = False

    @property
    def written(self) -> bool:
        return not self.dry_run and bool(self.changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "command": self.command,
            "dry_run": self.dry_run,
            "ok": not self.failures,
            "record": self.record,
            "changes": [c.to_json() for c in self.changes],
            "notes": self.notes,
            "diff": self.diff,
            "plan_id": self.plan_id,
            "receipt": self.receipt,
            "resumed": self.resumed,
            "problems_added": [p.to_json() for p in self.problems_added],
            "problems_resolved": [p.to_json() for p in self.problems_resolved],
            "failures": self.failures,
        }


# --------------------------------------------------------------------- the working set


@dataclass
class Expect:
    """What a record must read back as after the change."""

    path: str
    id: str
    status: str | None
    relations: set[tuple[str, str]] = field(default_factory=set)
    title: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "id": self.id,
            "status": self.status,
            "title": self.title,
            "relations": sorted([k, t] for k, t in self.relations),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Expect:
        return cls(
            path=str(data["path"]),
            id=str(data["id"]),
            status=data.get("status"),
            title=data.get("title"),
            relations={(str(k), str(t)) for k, t in data.get("relations") or []},
        )


@dataclass
class Side:
    """One record taking part in a change: its text, its style and what it says."""

    ref: Ref
    style: str
    ed: Editable
    status: str
    relations: set[tuple[str, str]]
    expect: Expect
    change: Change
    #: (verb, target) as written: "Clarifies" and "Governs" both relate, but in
    #: styles that keep the wording they are different lines.
    verbs: set[tuple[str, str]] = field(default_factory=set)

    def states(self, kind: str, verb: str, target: str) -> bool:
        if kind == "relates-to" and self.style in TEXT_STYLES:
            return (" ".join(verb.lower().split()), target) in self.verbs
        return (kind, target) in self.relations

    def record(self, kind: str, verb: str, target: str) -> None:
        self.relations.add((kind, target))
        self.verbs.add((" ".join(verb.lower().split()), target))


class Work:
    """The records one command touches, edited in memory."""

    def __init__(self, config: Config, log: Log, what: str) -> None:
        self.config = config
        self.log = log
        self.what = what
        self.reasons: list[Reason] = []
        self.notes: list[str] = []
        self.sides: dict[str, Side] = {}
        self.order: list[str] = []
        self.inputs: dict[str, str | None] = {}
        self.headings = frozenset(h.lower() for h in config.status_headings)

    def refuse_if_any(self) -> None:
        if self.reasons:
            raise AuthoringRefused(self.what, self.reasons)

    # ------------------------------------------------------------- references

    def find(self, ref: str, role: str) -> Record | None:
        """The one record ``ref`` names, or None with a reason recorded."""
        try:
            rec = lookup(self.log, ref, partial=True).record
        except UnknownReference as exc:
            if exc.excluded is not None:
                self.reasons.append(Reason(f"{role} {exc.message}", usage=True))
                return None
            near = exc.hint("nearest")
            hint = f" ({near})" if near else ""
            self.reasons.append(Reason(f"{role} {ref!r}: no such record{hint}", usage=True))
            return None
        except AmbiguousReference as exc:
            self.reasons.append(Reason(f"{role} {exc.message}; pass a file path", usage=True))
            return None
        except BadReference as exc:
            self.reasons.append(Reason(f"{role} {exc.message}", usage=True))
            return None
        claimed = self.log.by_id.get(rec.id.upper(), [])
        if len(claimed) > 1:
            listed = ", ".join(r.path for r in claimed)
            self.reasons.append(
                Reason(
                    f"{role} {rec.id} is claimed by {len(claimed)} records ({listed}); "
                    "references to it cannot resolve, so no relation is written until one of "
                    "them gets a new number (ADR002)"
                )
            )
            return None
        return rec

    def writable(self, rec: Record, role: str) -> bool:
        """Whether ``rec`` can take a new relation; records every reason it cannot."""
        before = len(self.reasons)
        if rec.archived:
            self.reasons.append(
                Reason(
                    f"{role} {rec.id} is archived ({rec.path}); an archived record is history "
                    "and takes no new relation (restore it first if it must)"
                )
            )
        if rec.units:
            self.reasons.append(
                Reason(
                    f"{role} {rec.id} is a container record (units "
                    f"{', '.join(u.key for u in rec.units)}); each unit has its own status, so "
                    "edit it by hand"
                )
            )
        elif rec.style not in WRITABLE:
            self.reasons.append(
                Reason(
                    f"{role} {rec.id} is written in style '{rec.style}' ({rec.path}), which "
                    f"mkdocs-adr cannot change safely (it writes: {', '.join(WRITABLE)}); "
                    "edit it by hand"
                )
            )
        if rec.symlink:
            self.reasons.append(
                Reason(
                    f"{role} {rec.id} is a symlink ({rec.path}); writing would replace the link, "
                    "so edit the file it points to"
                )
            )
        return len(self.reasons) == before

    def side(self, rec: Record) -> Side | None:
        """The editable side of an existing record (read once, edited in place)."""
        if rec.path in self.sides:
            return self.sides[rec.path]
        path = self.config.project_dir / rec.path
        try:
            data = path.read_bytes()
            ed = Editable.from_bytes(rec.path, data, self.headings)
        except OSError as exc:
            self.reasons.append(Reason(f"cannot read {rec.path}: {exc.strerror}"))
            return None
        except UnsafeEdit as exc:
            self.reasons.append(Reason(str(exc)))
            return None
        self.inputs[rec.path] = sha256_bytes(data)
        rels = {(r.kind, r.target_id) for r in rec.relations if r.authoritative and r.target_id}
        side = Side(
            ref=ref_for(rec, ed),
            style=rec.style,
            ed=ed,
            status=rec.status,
            relations={(k, t) for k, t in rels if t is not None},
            expect=Expect(rec.path, rec.id, rec.status),
            change=Change(rec.path, rec.id, "updated"),
            verbs={
                (" ".join(r.verb.lower().split()), r.target_id)
                for r in rec.relations
                if r.authoritative and r.target_id
            },
        )
        self.sides[rec.path] = side
        self.order.append(rec.path)
        return side

    def add_new(self, side: Side) -> None:
        self.sides[side.ref.path] = side
        self.order.insert(0, side.ref.path)

    # ------------------------------------------------------------- operations

    def supersede(self, old: Side, new: Side) -> None:
        """``new`` supersedes ``old``, each side in its own style."""
        old_writer, new_writer = writer_for(old.style), writer_for(new.style)
        assert old_writer is not None and new_writer is not None
        if ("supersedes", old.ref.id) not in new.relations:
            self._edit(
                new, lambda: new_writer.add_relation(new.ed, "supersedes", "Supersedes", old.ref)
            )
            new.change.what.append(f"supersedes {old.ref.id}")
            new.relations.add(("supersedes", old.ref.id))
        new.expect.relations.add(("supersedes", old.ref.id))
        linked = ("superseded-by", new.ref.id) in old.relations
        old.expect.relations.add(("superseded-by", new.ref.id))
        if new.status == "accepted":
            if old.status != "superseded" or not linked:
                self._edit(old, lambda: old_writer.mark_superseded(old.ed, new.ref, linked=linked))
                old.change.what.append(f"superseded by {new.ref.id} (status: superseded)")
            old.expect.status = "superseded"
            old.status = "superseded"
        else:
            if not linked:
                self._edit(
                    old,
                    lambda: old_writer.add_relation(
                        old.ed, "superseded-by", "Superseded by", new.ref
                    ),
                )
                old.change.what.append(
                    f"superseded by {new.ref.id} (recorded; status stays {old.status})"
                )
            self.notes.append(
                f"{new.ref.id} is {new.status}, not accepted: {old.ref.id} stays in effect and "
                f"keeps its status ({old.status}). Once {new.ref.id} is accepted, run "
                f"`mkdocs-adr supersede {old.ref.id} --by {new.ref.id}` to mark {old.ref.id} "
                "superseded."
            )
        old.relations.add(("superseded-by", new.ref.id))

    def link(self, source: Side, verb: str, target: Side, inverse: str) -> None:
        kind, inverse_kind = verb_kind(verb), verb_kind(inverse)
        src_writer, tgt_writer = writer_for(source.style), writer_for(target.style)
        assert src_writer is not None and tgt_writer is not None
        if not source.states(kind, verb, target.ref.id):
            self._edit(source, lambda: src_writer.add_relation(source.ed, kind, verb, target.ref))
            source.change.what.append(f"{verb} {target.ref.id}")
            source.record(kind, verb, target.ref.id)
        source.expect.relations.add((kind, target.ref.id))
        if not tgt_writer.states_kind(inverse_kind):
            self.notes.append(
                f"{target.ref.id} keeps its relations in frontmatter, which has no key for "
                f"'{inverse}'; the relation is stated in {source.ref.id} and the graph reads it "
                "from there"
            )
            return
        if not target.states(inverse_kind, inverse, source.ref.id):
            self._edit(
                target,
                lambda: tgt_writer.add_relation(target.ed, inverse_kind, inverse, source.ref),
            )
            target.change.what.append(f"{inverse} {source.ref.id}")
            target.record(inverse_kind, inverse, source.ref.id)
        target.expect.relations.add((inverse_kind, source.ref.id))

    def _edit(self, side: Side, action: Callable[[], None]) -> None:
        try:
            action()
        except UnsafeEdit as exc:
            self.reasons.append(Reason(f"{side.ref.id}: {exc}"))

    # ------------------------------------------------------------- result

    def contents(self) -> dict[str, bytes]:
        return {
            path: self.sides[path].ed.to_bytes()
            for path in self.order
            if self.sides[path].ed.changed
        }

    def expectations(self) -> list[Expect]:
        return [self.sides[p].expect for p in self.order]


def ref_for(rec: Record, ed: Editable) -> Ref:
    index = ed.first_h1()
    heading = ed.lines[index][2:].strip() if index is not None else ""
    if not heading:
        heading = f"{rec.number}. {rec.title}" if rec.number is not None else rec.title
    return Ref(
        id=rec.id,
        path=rec.path,
        title=rec.title,
        heading=heading,
        numbered=parse_id(rec.id) is not None,
    )


def verb_kind(verb: str) -> str:
    """The relation kind a verb means, as the parser reads it (unknown verbs relate)."""
    return VERBS.get(" ".join(verb.lower().split()), "relates-to")


# --------------------------------------------------------------------- reading back


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


def verify_applied(config: Config, plan: Plan) -> list[str]:
    """After the journal applied ``plan``: re-read the log and check both records."""
    expects = [Expect.from_json(e) for e in plan.review.get("expect") or []]
    return check(load(config), expects)


#: ``new``, ``supersede`` and ``link`` plans; :data:`mkdocs_adr.apply.KINDS` lists them.
PLAN_KINDS = tuple(PlanKind(kind, verify=verify_applied) for kind in KINDS)


# --------------------------------------------------------------------- diffs


def unified_diff(path: str, before: bytes | None, after: bytes) -> str:
    old = [] if before is None else _lines(before)
    new = _lines(after)
    out = difflib.unified_diff(
        old, new, fromfile="/dev/null" if before is None else f"a/{path}", tofile=f"b/{path}"
    )
    text = ""
    for line in out:
        text += line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
    return text


def _lines(data: bytes) -> list[str]:
    text = data.decode("utf-8-sig", "replace").replace("\r\n", "\n")
    return text.splitlines(keepends=True)


# --------------------------------------------------------------------- locks


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


# --------------------------------------------------------------------- running a command


@dataclass
class Prepared:
    """A change worked out in memory, checked, ready to show or apply."""

    work: Work
    kind: str
    scope: dict[str, Any]
    record: dict[str, Any]
    contents: dict[str, bytes]
    before: dict[str, bytes | None]
    problems_added: list[Problem]
    problems_resolved: list[Problem]


Builder = Callable[[Log], Prepared]


def prepare(
    work: Work, kind: str, scope: dict[str, Any], record: dict[str, Any], today: dt.date | None
) -> Prepared:
    """Check the edited log reads back as intended; refuse otherwise."""
    work.refuse_if_any()
    contents = work.contents()
    before: dict[str, bytes | None] = {}
    for path in contents:
        side = work.sides[path]
        before[path] = side.ed.original
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
    touched = {e.id for e in work.expectations()}
    old = {_problem_key(p): p for p in work.log.problems if touched & set(p.ids)}
    new = {_problem_key(p): p for p in after.problems if touched & set(p.ids)}
    added = [p for k, p in new.items() if k not in old and p.severity >= Severity.WARNING]
    resolved = [p for k, p in old.items() if k not in new and p.severity >= Severity.WARNING]
    return Prepared(work, kind, scope, record, contents, before, added, resolved)


def _problem_key(p: Problem) -> tuple[str, str]:
    return (p.code, re.sub(r"\d+ days", "N days", p.message))


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
        return _outcome(build(load(config, today=today)), command, dry_run=True)
    if not _pending(config):
        # a first pass without locks: a refusal or "nothing to do" leaves no trace,
        # not even a work dir; the pass under the lock below is the one that counts
        first = build(load(config, today=today))
        if not first.contents:
            return _outcome(first, command, dry_run=False)
    with waiting_lock(config.work_path / "authoring", command):
        for attempt in range(3):
            plan, outcome, interrupted = _plan_locked(config, build, command, today, resume_key)
            if interrupted is not None:
                return _resume(config, interrupted, command)
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
        interrupted = _interrupted(config, key)
        if interrupted is not None:
            return None, Outcome(command, dry_run=False), interrupted
        prepared = build(log)
        outcome = _outcome(prepared, command, dry_run=False)
        if not prepared.contents:
            return None, outcome, None
        return _save(config, prepared, key), outcome, None


def _outcome(prepared: Prepared, command: str, *, dry_run: bool) -> Outcome:
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


def _save(config: Config, prepared: Prepared, key: str) -> Plan:
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
    scope = {**prepared.scope, "resume_key": key}
    review = {
        "expect": [e.to_json() for e in prepared.work.expectations()],
        "changes": [
            c.to_json() for c in (prepared.work.sides[p].change for p in prepared.contents)
        ],
        "notes": prepared.work.notes,
        "record": prepared.record,
    }
    for repeat in range(1, 100):
        plan = Plan(
            kind=prepared.kind,
            scope={**scope, "repeat": repeat} if repeat > 1 else scope,
            fingerprint=prepared.work.log.fingerprint,
            steps=steps,
            inputs=inputs,
            review=review,
        )
        plan = save_plan(config.work_path, plan, staged)
        if not read_journal(config.work_path, plan.plan_id).begun:
            return plan
    raise RefusedError("could not store a new plan", path=str(config.work_path))


def _pending(config: Config) -> list[Plan]:
    """Authoring plans whose journal says they were interrupted."""
    return [
        plan
        for plan in list_plans(config.work_path)
        if plan.kind in KINDS
        and read_journal(config.work_path, plan.plan_id).state == "interrupted"
    ]


def _interrupted(config: Config, key: str) -> Plan | None:
    """An interrupted authoring plan: the same one is resumed, any other refuses."""
    pending = _pending(config)
    for plan in pending:
        if key and plan.scope.get("resume_key") == key:
            return plan
    if pending:
        reasons = [
            Reason(
                f"an earlier `mkdocs-adr {p.scope.get('command', p.kind)}` (plan {p.plan_id}) "
                "was interrupted and may have written only some of its files; finish it by "
                f"running that command again (or `mkdocs-adr plan --confirm {p.plan_id}`), or "
                f"undo it with `mkdocs-adr plan --rollback {p.plan_id}`"
            )
            for p in pending
        ]
        raise AuthoringRefused("refused", reasons)
    return None


def _resume(config: Config, plan: Plan, command: str) -> Outcome:
    receipt = _apply(config, plan.plan_id)
    out = Outcome(command=command, dry_run=False, resumed=True, plan_id=plan.plan_id)
    out.record = dict(plan.review.get("record") or {})
    out.changes = [
        Change(str(c["path"]), str(c["id"]), str(c["action"]), list(c.get("what") or []))
        for c in plan.review.get("changes") or []
    ]
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


# --------------------------------------------------------------------- choosing a root


def choose_root(
    config: Config, wanted: str | None, work: Work, hint: list[Record]
) -> RootConfig | None:
    roots = config.roots
    if wanted:
        norm = wanted.strip().strip("/")
        for root in roots:
            names = {root.path, config.rel(config.root_dir(root)), root.prefix.upper()}
            if norm in names or norm.upper() == root.prefix.upper():
                return root
        listed = ", ".join(f"{r.path} ({r.prefix})" for r in roots)
        work.reasons.append(
            Reason(f"--adr-root {wanted!r} is not a configured root (roots: {listed})", True)
        )
        return None
    homes = {r.root for r in hint}
    if len(homes) == 1:
        home = homes.pop()
        return next(r for r in roots if r.path == home)
    return roots[0]


def root_layout(log: Log, config: Config, root: RootConfig) -> str:
    rel = config.rel(config.root_dir(root))
    return next((r.layout for r in log.roots if r.path == rel), "flat")


def domains(config: Config, root: RootConfig) -> list[str]:
    base = config.root_dir(root)
    if not base.is_dir():
        return []
    return sorted(
        p.name
        for p in base.iterdir()
        if p.is_dir()
        and p.name != ARCHIVE
        and p.name not in config.mirrors
        and not p.name.startswith((".", "_"))
        and p.name != "templates"
    )


# --------------------------------------------------------------------- numbering


_NUMBERED = re.compile(r"^(\d+)[-_]")


def numbering(config: Config, log: Log, root: RootConfig) -> tuple[int, int]:
    """(next number, zero-padding width) for ``root``.

    The next number follows every number in use: active and archived
    records, drafts and other numbered files under the root, and records of
    other roots with the same id prefix (their ids would collide).
    """
    same = {r.path for r in config.roots if r.prefix.upper() == root.prefix.upper()}
    numbers = [r.number for r in log.records if r.root in same and r.number is not None]
    widths: dict[int, int] = {}
    nested = [config.root_dir(r) for r in config.roots if r.path != root.path]
    base = config.root_dir(root)
    work = config.work_path.resolve()
    for folder, dirs, files in os.walk(base):
        here = Path(folder)
        dirs[:] = sorted(
            d for d in dirs if (here / d) not in nested and (here / d).resolve() != work
        )
        for name in files:
            m = _NUMBERED.match(name)
            if m and name.lower().endswith((".md", ".markdown")):
                numbers.append(int(m.group(1)))
                widths[len(m.group(1))] = widths.get(len(m.group(1)), 0) + 1
    width = max(widths.items(), key=lambda kv: (kv[1], kv[0]))[0] if widths else 4
    return max(numbers, default=0) + 1, width


def majority_style(log: Log, root: RootConfig) -> str | None:
    counts: dict[str, int] = {}
    latest: dict[str, int] = {}
    for rec in log.records:
        if rec.root == root.path and rec.style in WRITABLE:
            counts[rec.style] = counts.get(rec.style, 0) + 1
            latest[rec.style] = max(latest.get(rec.style, 0), rec.number or 0)
    if not counts:
        return None
    return max(counts, key=lambda s: (counts[s], latest[s], s))


def today_iso(value: dt.date | None) -> str:
    return (value or dt.date.today()).isoformat()
