"""A consolidation plan, worked out in memory: replacements, relations, CURRENT, INDEX.

Deterministic and without any model service. For every group of :mod:`.scope`
with at least two sources it places and numbers a replacement record
(:mod:`mkdocs_adr.authoring.placement`: each next number is taken from the log
with the earlier replacements already in it, :func:`mkdocs_adr.whatif.after`),
chooses its style like ``new`` does (:mod:`mkdocs_adr.authoring.style`), writes
its text (:mod:`.text`) from the coverage map (:mod:`.coverage`), and relates
both sides of every (partial) supersession in each record's own style
(:mod:`mkdocs_adr.authoring.relate`). The edited log is read back
(:mod:`mkdocs_adr.authoring.readback`); the CURRENT view after acceptance and
the INDEX are the summary draft's (:func:`mkdocs_adr.summary.draft`) over that
log. Nothing is written here (see :mod:`.save`).

``accept=False`` is the "save draft only" variant: the replacements land as
proposals, every old record stays in effect (it only names its proposed
successor), and no CURRENT is published (the INDEX is, since it lists files).
"""

from __future__ import annotations

import datetime as dt
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .. import summary, whatif
from ..authoring import placement, relate, style
from ..authoring.compose import Fields, heading
from ..authoring.outcome import Change
from ..authoring.readback import check, problem_delta
from ..authoring.refusal import AuthoringRefused, Reason
from ..authoring.session import Expect, Side, Work
from ..authoring.writers import Ref
from ..config import Config
from ..errors import RefusedError, UsageError
from ..fsops import sha256_bytes, sha256_file
from ..log import Log
from ..model import Severity
from ..parsing.editable import UnsafeEdit
from ..plans import Plan, Step
from ..safetext import controls, plain
from ..summary.text import rebase_links
from .archiving import authorized
from .coverage import Override, Row, disposition, row, unresolved_body
from .scope import NO_KEY, Group, groups
from .text import replacement
from .units import Constraint, constraints

KIND = "consolidate"
DRAFT_KIND = "consolidate-draft"
KINDS = (KIND, DRAFT_KIND)
PARTIAL_VERB, PARTIAL_INVERSE = "Partially supersedes", "Partially superseded by"


@dataclass(frozen=True)
class Scope:
    """What a consolidation plan covers; its JSON is the plan's scope."""

    group_by: str
    domain: str | None
    sources: str | None
    archive: bool = False

    @property
    def command(self) -> str:
        where = f" --domain {self.domain}" if self.domain else ""
        where += f" --sources {self.sources}" if self.sources else ""
        tail = " --archive" if self.archive else ""
        return f"plan --mode consolidate{where} --group-by {self.group_by}{tail}"

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "group_by": self.group_by,
            "domain": self.domain,
            "sources": self.sources,
            "archive": self.archive,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Scope:
        return cls(
            str(data.get("group_by") or "domain"),
            data.get("domain"),
            data.get("sources"),
            bool(data.get("archive")),
        )


@dataclass
class Made:
    """One replacement: where it goes, what it carries, what becomes of its sources."""

    id: str
    path: str
    title: str
    style: str
    group: Group
    rows: list[Row]
    dispositions: dict[str, str]  # source id -> superseded | partially-superseded | left-in-effect

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": self.path,
            "title": self.title,
            "style": self.style,
            "group": self.group.key,
            "root": self.group.root,
            "sources": [
                {
                    "id": rec.id,
                    "path": rec.path,
                    "title": rec.title,
                    "status": rec.status,
                    "disposition": self.dispositions[rec.id],
                }
                for rec in self.group.sources
            ],
        }


@dataclass
class Built:
    """A consolidation plan not yet saved, with its staged bytes and review copies."""

    plan: Plan
    staged: dict[str, bytes]
    copies: dict[str, bytes] = field(default_factory=dict)  # review file name -> bytes
    after: Log | None = None


def _subject(group: Group) -> str:
    """What the replacement is about, in prose: a domain, tag or component, or (for a
    group without one) its first source's title."""
    if group.key not in ("selected", NO_KEY):
        return group.key
    domains = {r.domain for r in group.sources}
    one = domains.pop() if len(domains) == 1 else None
    return one or f"'{group.sources[0].title}'"


def _title(group: Group) -> str:
    subject = _subject(group)
    if subject.startswith("'"):
        title = f"{' '.join(group.sources[0].title.split())}, consolidated"
    else:
        title = f"Consolidated {subject} decisions"
    return "Consolidated decisions" if controls(title) else title


def _folder(group: Group) -> str:
    """The folder the replacement goes to: its sources' one folder, else its first
    source's (a layered root keeps every record in a domain folder)."""
    return posixpath.dirname(group.sources[0].path)


def _href(source: str, target: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(source) or ".")


def _rows(
    group: Group, where: str, path: str, overrides: Mapping[str, Override]
) -> tuple[list[Row], dict[str, Constraint]]:
    """The coverage rows of ``group``'s sources; each constraint as the replacement at
    ``path`` carries it (relative links rebased to its folder, unsafe ones defused,
    control characters left out: no writer puts them into a record file)."""
    rows: list[Row] = []
    by_key: dict[str, Constraint] = {}
    here = posixpath.dirname(path)
    for rec in group.sources:
        there = posixpath.relpath(posixpath.dirname(rec.path) or ".", here or ".")
        found = [replace(c, text=plain(rebase_links(c.text, there))) for c in constraints(rec)]
        if not found:
            rows.append(unresolved_body(rec.id, rec.path, overrides.get(f"{rec.id}#0")))
        for c in found:
            by_key[c.key] = c
            rows.append(row(c, where, overrides.get(c.key)))
    return rows, by_key


def _notes_of(rows: list[Row]) -> list[str]:
    """What the replacement says it retires or leaves unsettled (part of its text)."""
    out = []
    for r in rows:
        if r.state == "retired":
            what = f"item {r.item} ({_one_line(r.text)})" if r.item else "its whole record"
            out.append(f"- Retired: {r.record}, {what}: {r.reason}")
        elif r.state == "unresolved" and r.item:
            out.append(
                f"- Not settled here: {r.record}, item {r.item} ({_one_line(r.text)}) stays "
                f"in effect in {r.record}"
            )
    return out


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _make(
    config: Config,
    log: Log,
    now: Log,
    group: Group,
    work: Work,
    overrides: Mapping[str, Override],
    date: str,
    status: str,
) -> tuple[Made, Side] | None:
    """The replacement of ``group`` (numbered on ``now``), or None with reasons recorded."""
    root = next(r for r in config.roots if r.path == group.root)
    folder = config.project_dir / _folder(group)
    choice = style.choose(config, log, root, folder, work, style=None, template=None)
    if choice is None:
        return None
    title = _title(group)
    named = placement.name(config, now, root, choice.style, title, date)
    path = config.rel(folder / named.file)
    if (folder / named.file).exists():
        work.reasons.append(Reason(f"{path} already exists; nothing is overwritten"))
        return None
    rows, by_key = _rows(group, named.id, path, overrides)
    dispositions = {
        rec.id: disposition([r for r in rows if r.record == rec.id]) for rec in group.sources
    }
    fields = Fields(title, named.number, named.width, named.id, date, status)
    template = choice.template.read_text(encoding="utf-8-sig") if choice.template else None
    try:
        ed = replacement(
            choice.style,
            path,
            fields,
            template=template,
            headings=work.headings,
            subject=_subject(group),
            sources=[
                (r.id, plain(r.title), dispositions[r.id], _href(path, r.path))
                for r in group.sources
            ],
            rows=rows,
            by_key=by_key,
            notes=_notes_of(rows),
        )
    except UnsafeEdit as exc:
        where = config.rel(choice.template) if choice.template else f"the {choice.style} skeleton"
        work.reasons.append(Reason(f"{where} cannot be filled in: {exc}"))
        return None
    side = Side(
        ref=Ref(named.id, path, title, heading(ed, title), numbered=named.number is not None),
        style=choice.style,
        ed=ed,
        status=status,
        relations=set(),
        expect=Expect(path, named.id, status, title=title),
        change=Change(path, named.id, "created", [f"new {choice.style} record ({status})"]),
    )
    made = Made(named.id, path, title, choice.style, group, rows, dispositions)
    return made, side


def _relate(work: Work, made: Made, new: Side) -> None:
    """Both sides of every (partial) supersession, each record in its own style."""
    for rec in made.group.sources:
        disp = made.dispositions[rec.id]
        if disp == "left-in-effect":
            continue
        old = work.side(rec)
        if old is None:
            continue
        if disp == "superseded":
            relate.supersede_checks(work, rec, made.id, new.status)
            relate.supersede(work, old, new)
        else:
            relate.link(work, new, PARTIAL_VERB, old, PARTIAL_INVERSE)


@dataclass
class _Views:
    """What the plan writes of the derived views: CURRENT (accepted plans) and INDEX."""

    steps: list[Step] = field(default_factory=list)
    staged: dict[str, bytes] = field(default_factory=dict)
    blocking: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    review: dict[str, Any] | None = None  # the summary review, for the check after applying
    copies: dict[str, bytes] = field(default_factory=dict)


def _views(config: Config, after: Log, *, accept: bool) -> _Views:
    """The summary draft of the log after acceptance: its CURRENT, manifest and INDEX
    steps; a draft-only plan keeps the INDEX alone (nothing it states is accepted yet)."""
    out = _Views()
    try:
        drafted = summary.draft(config, after)
    except (RefusedError, UsageError) as exc:
        out.notes.append(f"CURRENT is not part of this plan: {exc.message}")
        return out
    for step in drafted.plan.steps:
        if not accept and step.part != "index":
            continue
        out.steps.append(step)
        if step.after is not None:
            out.staged[step.after] = drafted.staged[step.after]
    if accept:
        out.blocking = [f"CURRENT: {b}" for b in drafted.plan.blocking]
        out.review = drafted.plan.review
        for d in drafted.roots:
            name = "CURRENT.md" if len(drafted.roots) == 1 else d.pub.current_rel
            out.copies[name] = d.text.encode("utf-8")
    return out


def build(
    config: Config,
    log: Log,
    scope: Scope,
    *,
    overrides: Mapping[str, Override] | None = None,
    accept: bool = True,
    date: str | None = None,
    today: dt.date | None = None,
) -> Built:
    """The consolidation plan of ``scope`` on ``log`` (nothing is written)."""
    overrides = dict(overrides or {})
    day = date or (today or dt.date.today()).isoformat()
    status = "accepted" if accept else "proposed"
    found = groups(log, group_by=scope.group_by, domain=scope.domain, sources=scope.sources)
    work = Work(config, log, scope.command)
    made: list[tuple[Made, Side]] = []
    writes: list[whatif.Write] = []
    now = log
    for group in found:
        if len(group.sources) < 2:
            continue
        one = _make(config, log, now, group, work, overrides, day, status)
        if one is None:
            continue
        made.append(one)
        work.add_new(one[1])
        writes.append(whatif.Write(one[0].path, one[1].ed.to_bytes()))
        now = whatif.after(log, writes, today=today)
    if not made:
        alone = [a for g in found for a in g.left_alone]
        raise RefusedError(
            "nothing to consolidate: no group has two related records in effect"
            + (" (" + "; ".join(f"{a.id}: {a.reason}" for a in alone[:6]) + ")" if alone else ""),
            fix="pick the records with --sources ID,ID, or group them otherwise (--group-by)",
        )
    for m, side in made:
        _relate(work, m, side)
    work.refuse_if_any()
    contents = {p: d for p, d in work.contents().items()}
    # the new records first, then the old ones: the decision part in journal order
    order = [m.path for m, _s in made] + [
        p for p in contents if p not in {m.path for m, _s in made}
    ]
    after = whatif.after(log, [whatif.Write(p, contents[p]) for p in order], today=today)
    mismatches = check(after, work.expectations())
    if mismatches:
        raise AuthoringRefused(
            work.what,
            [
                Reason(f"the edited records would not read back as intended: {m}")
                for m in mismatches
            ],
        )
    added, resolved = problem_delta(log, after, {e.id for e in work.expectations()})
    blocking = [f"{p.code} {p.message}" for p in added if p.severity >= Severity.ERROR]
    steps: list[Step] = []
    staged: dict[str, bytes] = {}
    for path in order:
        data = contents[path]
        original = work.sides[path].ed.original
        digest = sha256_bytes(data)
        staged[digest] = data
        before = None if original is None else sha256_bytes(original)
        steps.append(Step("write", path, before, digest, part="decisions"))
    views = _views(config, after, accept=accept)
    steps += views.steps
    staged.update(views.staged)
    blocking += views.blocking
    notes = [*work.notes, *views.notes]
    current_review = views.review
    copies = dict(views.copies)
    written = {s.path for s in steps}
    inputs = {
        rec.path: sha256_file(config.project_dir / rec.path)
        for rec in log.records
        if rec.path not in written
    }
    for m, _side in made:
        copies[posixpath.basename(m.path)] = contents[m.path]
    retired = [rid for m, _s in made for rid, d in m.dispositions.items() if d == "superseded"]
    moves = authorized(config, after, retired) if scope.archive and accept else None
    review: dict[str, Any] = {
        "accept": accept,
        "date": day,
        "replacements": [m.to_json() for m, _s in made],
        "coverage": [r.to_json() for m, _s in made for r in m.rows],
        "left_alone": [a.to_json() for g in found for a in g.left_alone],
        "groups": [
            {"key": g.key, "root": g.root, "sources": [r.id for r in g.sources]} for g in found
        ],
        "overrides": {k: o.to_json() for k, o in sorted(overrides.items())},
        "changes": [work.sides[p].change.to_json() for p in order],
        "expect": [e.to_json() for e in work.expectations()],
        "notes": notes,
        "problems_added": [p.to_json() for p in added],
        "problems_resolved": [p.to_json() for p in resolved],
        "current_review": current_review,
        "index": [s.path for s in steps if s.part == "index"],
        "current": [s.path for s in steps if s.part == "current"],
        "archive": moves,
    }
    plan = Plan(
        kind=KIND if accept else DRAFT_KIND,
        scope=scope.to_json(),
        fingerprint=log.fingerprint,
        steps=steps,
        inputs=inputs,
        review=review,
        blocking=blocking,
    )
    plan.plan_id = f"{plan.kind}-{plan.content_key()}"
    return Built(plan, staged, copies, after)


def reserved(plan: Plan) -> list[tuple[str, str]]:
    """(id, path) of every record number the plan reserves."""
    return [(str(r["id"]), str(r["path"])) for r in plan.review.get("replacements") or []]
