"""``new`` as a library call: write the next record of a root, and update what it relates to.

The steps, each its module's job: find and check what the record relates to
(:mod:`.session`, :mod:`.relate`), place and name it (:mod:`.placement`), choose
its style (:mod:`.style`), write its text (:mod:`.compose`), relate both sides
(:mod:`.relate`), read the result back (:mod:`.readback`), then show or apply
it (:mod:`.running`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from .. import safetext
from ..config import Config, RootConfig
from ..log import Log
from ..model import Record
from ..parsing.editable import UnsafeEdit
from . import placement, relate, style
from .compose import Fields, compose, heading
from .outcome import Change, Outcome, Subject
from .plan import NewScope
from .readback import Prepared, prepare
from .refusal import AuthoringRefused, Reason
from .relate import LinkSpec
from .running import run
from .session import Expect, Side, Work
from .writers import Ref, capitalized


@dataclass
class NewOptions:
    title: str
    adr_root: str | None = None
    domain: str | None = None
    style: str | None = None
    status: str = "proposed"
    supersedes: list[str] = field(default_factory=list)
    links: list[LinkSpec] = field(default_factory=list)
    date: dt.date | None = None
    review_by: dt.date | None = None
    template: Path | None = None


def new(
    config: Config,
    options: NewOptions,
    *,
    dry_run: bool = False,
    today: dt.date | None = None,
) -> Outcome:
    """Write the next record of a root, and update what it supersedes or links."""

    def build(log: Log) -> Prepared:
        return _build(config, log, options, today)

    def key(log: Log) -> str:
        return f"new {options.adr_root or ''} {options.domain or ''} {options.title.strip()}"

    return run(config, build, command="new", dry_run=dry_run, today=today, resume_key=key)


@dataclass(frozen=True)
class _Target:
    verb: str
    record: Record
    inverse: str


@dataclass(frozen=True)
class _Where:
    root: RootConfig
    folder: Path
    choice: style.Choice


def _build(config: Config, log: Log, opts: NewOptions, today: dt.date | None) -> Prepared:
    title = " ".join(opts.title.split())
    work = Work(config, log, f"new {title!r}")
    if not title:
        work.reasons.append(Reason("the title is empty", usage=True))
    typed = safetext.controls(title)
    if typed:
        work.reasons.append(
            Reason(
                f"the title holds control characters ({', '.join(typed)}), which would "
                "be written into the record; type the title without them",
                usage=True,
            )
        )
    olds, targets = _related(work, opts)
    where = _where(config, log, opts, work, [*olds, *(t.record for t in targets)])
    work.refuse_if_any()
    assert where is not None
    date = (opts.date or dt.date.today()).isoformat()
    named = placement.name(config, log, where.root, where.choice.style, title, date)
    path = config.rel(where.folder / named.file)
    if (where.folder / named.file).exists():
        work.reasons.append(Reason(f"{path} already exists; nothing is overwritten"))
    work.refuse_if_any()
    fields = Fields(
        title=title,
        number=named.number,
        width=named.width,
        id=named.id,
        date=date,
        status=opts.status,
        review_by=None if opts.review_by is None else opts.review_by.isoformat(),
    )
    side = _new_side(work, where.choice, path, fields)
    work.add_new(side)
    _relate(work, side, olds, targets)
    if where.choice.template is not None:
        work.notes.append(f"filled from {config.rel(where.choice.template)}")
    scope = NewScope(
        command=f"new {title!r}",
        root=where.root.path,
        domain=opts.domain,
        title=title,
        style=where.choice.style,
        status=opts.status,
        date=date,
        supersedes=tuple(r.id for r in olds),
        links=tuple((t.verb, t.record.id, t.inverse) for t in targets),
    )
    subject = Subject(named.id, path, opts.status, style=where.choice.style, title=title)
    return prepare(work, "new", scope, subject, today)


def _related(work: Work, opts: NewOptions) -> tuple[list[Record], list[_Target]]:
    """What the new record supersedes and links to, each found and checked."""
    olds = [r for r in (work.find(ref, "--supersedes") for ref in opts.supersedes) if r]
    targets: list[_Target] = []
    for spec in opts.links:
        inverse = relate.check_verbs(
            work, spec.verb, spec.inverse, f"--link '{spec.verb}:{spec.target}:INVERSE'"
        )
        found = work.find(spec.target, "--link")
        if found is not None and inverse is not None:
            targets.append(_Target(capitalized(spec.verb), found, capitalized(inverse)))
    if olds and opts.status in ("rejected", "deprecated"):
        work.reasons.append(
            Reason(
                f"a new record with --status {opts.status} cannot supersede anything; "
                "only an accepted or proposed record can",
                usage=True,
            )
        )
    for rec in olds:
        if work.writable(rec, "--supersedes"):
            relate.supersede_checks(work, rec, "(new)", "proposed")
    for target in targets:
        work.writable(target.record, "--link")
    return olds, targets


def _where(
    config: Config, log: Log, opts: NewOptions, work: Work, hint: list[Record]
) -> _Where | None:
    """Root, folder and style of the new record, or None with reasons recorded."""
    root = placement.choose_root(config, opts.adr_root, work, hint)
    if root is None:
        return None
    folder = placement.folder(config, log, root, opts.domain, work)
    if folder is None:
        return None
    choice = style.choose(config, log, root, folder, work, style=opts.style, template=opts.template)
    return None if choice is None else _Where(root, folder, choice)


def _new_side(work: Work, choice: style.Choice, path: str, fields: Fields) -> Side:
    """The side of the new record: its text filled in, what it must read back as."""
    template = choice.template
    source = template.read_text(encoding="utf-8-sig") if template else None
    try:
        ed = compose(choice.style, path, fields, source=source, headings=work.headings)
    except UnsafeEdit as exc:
        where = work.config.rel(template) if template else f"the built-in {choice.style} skeleton"
        raise AuthoringRefused(work.what, [Reason(f"{where} cannot be filled in: {exc}")]) from None
    rid, title, status = fields.id, fields.title, fields.status
    return Side(
        ref=Ref(rid, path, title, heading(ed, title), numbered=fields.number is not None),
        style=choice.style,
        ed=ed,
        status=status,
        relations=set(),
        expect=Expect(path, rid, status, title=title),
        change=Change(path, rid, "created", [f"new {choice.style} record ({status})"]),
    )


def _relate(work: Work, side: Side, olds: list[Record], targets: list[_Target]) -> None:
    """Supersede and link from the new record, both sides each in its own style."""
    for rec in olds:
        old_side = work.side(rec)
        if old_side is not None:
            relate.supersede(work, old_side, side)
    for target in targets:
        tgt_side = work.side(target.record)
        if tgt_side is not None:
            relate.link(work, side, target.verb, tgt_side, target.inverse)
            relate.frontmatter_wording(work, [side, tgt_side], [target.verb, target.inverse])
