"""The three authoring commands as library calls: ``new``, ``supersede``, ``link``."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Config, RootConfig
from ..identity import BadReference, canonical, lookup
from ..log import Log
from ..model import Record
from ..parsing import ParseOptions, parse_bytes
from ..parsing.editable import Editable, UnsafeEdit
from . import core, templates
from .core import (
    INVERSE_VERBS,
    Change,
    Expect,
    Outcome,
    Prepared,
    Reason,
    Side,
    Work,
    verb_kind,
)
from .writers import KEEPS_WORDING, UNNUMBERED, WRITABLE, Ref, capitalized, writer_for

SUCCESSION = ("supersedes", "superseded-by")
_VERB_OK = re.compile(r"^[^\[\]()\n:]{1,40}$")


# --------------------------------------------------------------------- link specs


@dataclass(frozen=True)
class LinkSpec:
    verb: str
    target: str
    inverse: str | None = None


def parse_link_spec(text: str) -> LinkSpec:
    """``VERB:ID`` or ``VERB:ID:INVERSE``; adr-tools' ``ID:VERB:INVERSE`` also reads."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) == 2 and all(parts):
        return LinkSpec(parts[0], parts[1])
    if len(parts) == 3 and all(parts):
        first_is_ref = bool(re.search(r"\d", parts[0])) and " " not in parts[0]
        second_is_ref = bool(re.search(r"\d", parts[1])) and " " not in parts[1]
        if first_is_ref and not second_is_ref:
            return LinkSpec(parts[1], parts[0], parts[2])
        return LinkSpec(parts[0], parts[1], parts[2])
    raise core.AuthoringRefused(
        "new",
        [
            Reason(
                f"--link {text!r} is not VERB:ID (e.g. 'Amends:ADR-0003') or "
                "VERB:ID:INVERSE (e.g. 'Clarifies:3:Clarified by')",
                usage=True,
            )
        ],
    )


def _check_verbs(work: Work, verb: str, inverse: str | None, example: str) -> str | None:
    """The inverse verb to write, or None with reasons recorded."""
    ok = True
    for label, value in (("verb", verb), ("inverse verb", inverse)):
        if value is None:
            continue
        if not _VERB_OK.match(value.strip()):
            work.reasons.append(
                Reason(
                    f"{label} {value!r} cannot be written as a link line: use words only "
                    "(no brackets, parentheses or colons, at most 40 characters)",
                    usage=True,
                )
            )
            ok = False
        elif verb_kind(value) in SUCCESSION:
            work.reasons.append(
                Reason(
                    f"{label} {value!r} is a supersession, which also changes a status; "
                    "use `mkdocs-adr supersede OLD --by NEW` (or `new --supersedes`)",
                    usage=True,
                )
            )
            ok = False
    if inverse is None:
        inverse = INVERSE_VERBS.get(" ".join(verb.lower().split()))
        if inverse is None and ok:
            work.reasons.append(
                Reason(
                    f"verb {verb!r} has no default inverse; give the other record's wording "
                    f"(as in adr-tools' `adr link 12 Amends 10 'Amended by'`): {example}",
                    usage=True,
                )
            )
            return None
    return inverse.strip() if ok and inverse else None


# --------------------------------------------------------------------- supersede


def _supersede_checks(work: Work, old: Record, new_id: str, new_status: str) -> None:
    log = work.log
    if new_status in ("rejected", "superseded", "deprecated"):
        work.reasons.append(
            Reason(
                f"NEW {new_id} is {new_status}; only an accepted or proposed record can "
                "supersede another"
            )
        )
    if old.status == "rejected":
        work.reasons.append(
            Reason(
                f"OLD {old.id} is rejected: it never took effect, so nothing supersedes it "
                f"(relate them instead: mkdocs-adr link {new_id} 'Relates to' {old.id})"
            )
        )
    others = [s for s in log.graph.effective_successors(old.id) if s != new_id]
    if others:
        work.reasons.append(
            Reason(
                f"OLD {old.id} is already superseded by {', '.join(others)}; supersede "
                f"{others[0]} instead, so the log keeps one current successor (ADR007)"
            )
        )
    if log.graph.supersedes(old.id, new_id):
        work.reasons.append(
            Reason(
                f"{old.id} already (directly or through others) supersedes {new_id}; "
                "the reverse would be a cycle (ADR004)"
            )
        )


def supersede(
    config: Config,
    old_ref: str,
    new_ref: str,
    *,
    dry_run: bool = False,
    today: dt.date | None = None,
) -> Outcome:
    """Record that ``new_ref`` supersedes ``old_ref``, in both records at once."""

    def build(log: Log) -> Prepared:
        work = Work(config, log, f"supersede {old_ref} --by {new_ref}")
        old = work.find(old_ref, "OLD")
        new = work.find(new_ref, "NEW")
        if old is not None and new is not None:
            if old.path == new.path:
                work.reasons.append(Reason(f"{old.id} cannot supersede itself", usage=True))
            else:
                work.writable(old, "OLD")
                work.writable(new, "NEW")
                _supersede_checks(work, old, new.id, new.status)
        work.refuse_if_any()
        assert old is not None and new is not None
        old_side, new_side = work.side(old), work.side(new)
        work.refuse_if_any()
        assert old_side is not None and new_side is not None
        work.supersede(old_side, new_side)
        return core.prepare(
            work,
            "supersede",
            {"command": f"supersede {old.id} --by {new.id}", "old": old.id, "new": new.id},
            {"id": new.id, "path": new.path, "status": new.status, "supersedes": old.id},
            today,
        )

    def key(log: Log) -> str:
        return f"supersede {_key_id(config, log, old_ref)} {_key_id(config, log, new_ref)}"

    return core.run(
        config, build, command="supersede", dry_run=dry_run, today=today, resume_key=key
    )


def _key_id(config: Config, log: Log, ref: str) -> str:
    try:
        return lookup(log, ref, partial=True).record.id
    except BadReference:
        return ref


# --------------------------------------------------------------------- link


def link(
    config: Config,
    source_ref: str,
    verb: str,
    target_ref: str,
    inverse: str | None = None,
    *,
    dry_run: bool = False,
    today: dt.date | None = None,
) -> Outcome:
    """Relate two records, the verb in the source and its inverse in the target."""

    def build(log: Log) -> Prepared:
        work = Work(config, log, f"link {source_ref} {verb!r} {target_ref}")
        inverse_verb = _check_verbs(
            work, verb, inverse, f"mkdocs-adr link {source_ref} '{verb}' {target_ref} 'INVERSE'"
        )
        source = work.find(source_ref, "SOURCE")
        target = work.find(target_ref, "TARGET")
        if source is not None and target is not None:
            if source.path == target.path:
                work.reasons.append(Reason(f"{source.id} cannot be linked to itself", usage=True))
            else:
                work.writable(source, "SOURCE")
                work.writable(target, "TARGET")
        work.refuse_if_any()
        assert source is not None and target is not None and inverse_verb is not None
        src_side, tgt_side = work.side(source), work.side(target)
        work.refuse_if_any()
        assert src_side is not None and tgt_side is not None
        work.link(src_side, capitalized(verb), tgt_side, capitalized(inverse_verb))
        _frontmatter_wording(work, [src_side, tgt_side], [verb, inverse_verb])
        return core.prepare(
            work,
            "link",
            {
                "command": f"link {source.id} '{verb}' {target.id} '{inverse_verb}'",
                "source": source.id,
                "verb": verb,
                "target": target.id,
                "inverse": inverse_verb,
            },
            {"id": source.id, "path": source.path, "status": source.status},
            today,
        )

    def key(log: Log) -> str:
        return (
            f"link {_key_id(config, log, source_ref)} {verb.lower()} "
            f"{_key_id(config, log, target_ref)} {(inverse or '').lower()}"
        )

    return core.run(config, build, command="link", dry_run=dry_run, today=today, resume_key=key)


def _frontmatter_wording(work: Work, sides: list[Side], verbs: list[str]) -> None:
    for side, verb in zip(sides, verbs, strict=True):
        kind = verb_kind(verb)
        if (
            side.style in WRITABLE
            and side.style not in KEEPS_WORDING
            and kind == "relates-to"
            and " ".join(verb.lower().split()) not in ("relates to", "related to")
        ):
            work.notes.append(
                f"{side.ref.id} keeps relations in frontmatter: '{verb}' is written as relates-to"
            )


# --------------------------------------------------------------------- new


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
        return _build_new(config, log, options, today)

    def key(log: Log) -> str:
        return f"new {options.adr_root or ''} {options.domain or ''} {options.title.strip()}"

    return core.run(config, build, command="new", dry_run=dry_run, today=today, resume_key=key)


@dataclass
class _Target:
    verb: str
    record: Record
    inverse: str


def _build_new(config: Config, log: Log, opts: NewOptions, today: dt.date | None) -> Prepared:
    title = " ".join(opts.title.split())
    work = Work(config, log, f"new {title!r}")
    if not title:
        work.reasons.append(Reason("the title is empty", usage=True))
    olds = [r for r in (work.find(ref, "--supersedes") for ref in opts.supersedes) if r]
    targets: list[_Target] = []
    for spec in opts.links:
        inverse = _check_verbs(
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
            _supersede_checks(work, rec, "(new)", "proposed")
    for target in targets:
        work.writable(target.record, "--link")
    root = core.choose_root(config, opts.adr_root, work, [*olds, *(t.record for t in targets)])
    folder: Path | None = None
    style: str | None = None
    template: Path | None = None
    if root is not None:
        folder = _folder(config, log, root, opts.domain, work)
        if folder is not None:
            style, template = _style(config, log, root, opts, folder, work)
    work.refuse_if_any()
    assert root is not None and folder is not None and style is not None
    date = (opts.date or dt.date.today()).isoformat()
    if style in UNNUMBERED:
        number, width = None, 4
        name = f"{date.replace('-', '')}-{templates.slug(title)}.md"
        rid = name[:-3]
    else:
        number, width = core.numbering(config, log, root)
        name = f"{number:0{width}d}-{templates.slug(title)}.md"
        rid = canonical(root.prefix, number)
    path = config.rel(folder / name)
    if (folder / name).exists():
        work.reasons.append(Reason(f"{path} already exists; nothing is overwritten"))
    work.refuse_if_any()
    writer = writer_for(style)
    assert writer is not None
    status_word = writer.status_word(opts.status)
    source = template.read_text(encoding="utf-8-sig") if template else templates.SKELETONS[style]
    text = templates.substitute(
        source, number=number, width=width, rid=rid, title=title, date=date, status=status_word
    )
    ed = Editable.new(path, text, work.headings)
    try:
        writer.set_title(ed, title, number, rid)
        writer.set_status(ed, status_word)
        writer.set_date(ed, date)
        writer.set_id(ed, rid)
        if opts.review_by is not None:
            writer.set_review_by(ed, opts.review_by.isoformat())
    except UnsafeEdit as exc:
        where = config.rel(template) if template else f"the built-in {style} skeleton"
        raise core.AuthoringRefused(
            work.what, [Reason(f"{where} cannot be filled in: {exc}")]
        ) from None
    h1 = ed.first_h1()
    heading = ed.lines[h1][2:].strip() if h1 is not None else title
    side = Side(
        ref=Ref(rid, path, title, heading, numbered=number is not None),
        style=style,
        ed=ed,
        status=opts.status,
        relations=set(),
        expect=Expect(path, rid, opts.status, title=title),
        change=Change(path, rid, "created", [f"new {style} record ({opts.status})"]),
    )
    work.add_new(side)
    for rec in olds:
        old_side = work.side(rec)
        if old_side is not None:
            work.supersede(old_side, side)
    for target in targets:
        tgt_side = work.side(target.record)
        if tgt_side is not None:
            work.link(side, target.verb, tgt_side, target.inverse)
            _frontmatter_wording(work, [side, tgt_side], [target.verb, target.inverse])
    if template is not None:
        work.notes.append(f"filled from {config.rel(template)}")
    return core.prepare(
        work,
        "new",
        {
            "command": f"new {title!r}",
            "root": root.path,
            "domain": opts.domain,
            "title": title,
            "style": style,
            "status": opts.status,
            "date": date,
            "supersedes": [r.id for r in olds],
            "links": [[t.verb, t.record.id, t.inverse] for t in targets],
        },
        {"id": rid, "path": path, "status": opts.status, "style": style, "title": title},
        today,
    )


def _folder(
    config: Config, log: Log, root: RootConfig, domain: str | None, work: Work
) -> Path | None:
    base = config.root_dir(root)
    if not base.is_dir():
        work.reasons.append(
            Reason(
                f"ADR root {config.rel(base)} does not exist; create the folder first "
                f"(mkdir -p {config.rel(base)})"
            )
        )
        return None
    known = core.domains(config, root)
    layout = core.root_layout(log, config, root)
    if domain is None:
        if layout == "layered":
            work.reasons.append(
                Reason(
                    f"{config.rel(base)} keeps its records in domain folders; pass --domain "
                    f"(one of: {', '.join(known) or 'none yet'})",
                    usage=True,
                )
            )
            return None
        return base
    name = domain.strip().strip("/")
    bad = (
        not name
        or "/" in name
        or "\\" in name
        or name in (".", "..", "archive", "templates")
        or name in config.mirrors
        or name.startswith((".", "_"))
    )
    if bad:
        work.reasons.append(
            Reason(
                f"--domain {domain!r} is not a domain folder name (one folder below the root; "
                "not archive, a mirror, or a name starting with '.' or '_')",
                usage=True,
            )
        )
        return None
    if name not in known:
        work.reasons.append(
            Reason(
                f"domain {name!r} does not exist in {config.rel(base)} (domains: "
                f"{', '.join(known) or 'none'}); check the spelling, or create the folder "
                f"{config.rel(base / name)} first",
                usage=True,
            )
        )
        return None
    return base / name


def _template_style(config: Config, path: Path) -> str | None:
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    sample = templates.substitute(
        raw,
        number=1,
        width=4,
        rid="ADR-0001",
        title="Sample",
        date="2000-01-01",
        status="accepted",
    )
    parsed = parse_bytes(
        sample.encode(), path="adr/0001-sample.md", options=ParseOptions.from_config(config)
    )
    return parsed.style


def _style(
    config: Config,
    log: Log,
    root: RootConfig,
    opts: NewOptions,
    folder: Path,
    work: Work,
) -> tuple[str | None, Path | None]:
    forced = config.style if config.style in WRITABLE else None
    if (
        opts.style
        and forced
        and opts.style != forced
        and {opts.style, forced} != {"madr2", "log4brains"}
    ):
        work.reasons.append(
            Reason(
                f"--style {opts.style} conflicts with the configured style '{forced}', under "
                "which such a record would not read",
                usage=True,
            )
        )
        return None, None
    if opts.template is not None:
        template: Path | None = opts.template
        if not opts.template.is_file():
            work.reasons.append(Reason(f"--template {opts.template} is not a file", usage=True))
            return None, None
    else:
        template = templates.find_template(
            [folder, config.root_dir(root)] if folder != config.root_dir(root) else [folder]
        )
    template_style = _template_style(config, template) if template else None
    wanted = opts.style or forced
    if template is not None and template_style not in WRITABLE:
        if opts.template is not None or wanted is None:
            work.reasons.append(
                Reason(
                    f"template {config.rel(template)} reads as style '{template_style}', which "
                    "mkdocs-adr cannot fill in (it needs a status it can set: a '## Status' "
                    "section, a '* Status:' bullet or 'status:' frontmatter); fix the template, "
                    "or pass --style to use a built-in skeleton"
                )
            )
            return None, None
        template = None
    if wanted is not None:
        if template is not None and template_style != wanted:
            if opts.template is not None:
                work.reasons.append(
                    Reason(
                        f"--template {opts.template} is in style '{template_style}', not "
                        f"'{wanted}'",
                        usage=True,
                    )
                )
                return None, None
            work.notes.append(
                f"{config.rel(template)} is in style '{template_style}'; used the built-in "
                f"'{wanted}' skeleton for --style {wanted}"
            )
            template = None
        return wanted, template
    if template is not None:
        return template_style, template
    return core.majority_style(log, root) or "frontmatter", None
