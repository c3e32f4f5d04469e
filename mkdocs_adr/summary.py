"""Drafting and publishing the CURRENT view: ``mkdocs-adr plan --mode summary`` (SPEC 5, 7).

Drafting is deterministic and calls no model. For every root the scope
touches, it selects the sources (see :func:`mkdocs_adr.freshness.select`) and
writes, into a summary plan in the work dir:

- CURRENT.md: every accepted decision unit in scope with its decision text
  (the Decision section, bounded, linked to the record), open proposals in
  their own section, problems and conflicts in their own section, coverage
  (which source ended in which part), the sources, and the statement that the
  page is a derived view that decides nothing and proves nothing about the code;
- CURRENT.sources.json, the manifest (:mod:`mkdocs_adr.manifest`);
- INDEX.md, from :func:`mkdocs_adr.views.index.render`, unless a user owns it.

Each source's text sits between ``<!-- mkdocs-adr:source KEY -->`` and
``<!-- mkdocs-adr:end KEY -->`` markers, which is how a partial scope
(``--domain``, ``--sources``) keeps the other parts of the published page
as they were reviewed, and marks them as not re-checked. Their manifest
entries are kept as they were too, so a part that changed since keeps the
view stale instead of hiding behind a new publish date.

The reviewer may edit the drafted CURRENT.md in ``plans/<id>/review/`` before
confirming: :func:`restage_if_edited` then stages the edited text as the next
version of the plan, with the manifest recording the hash of the edited text,
and that version is what gets published.
"""

from __future__ import annotations

import difflib
import posixpath
import re
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from . import manifest as mf
from .archive.eligibility import candidates as archive_candidates
from .config import Config, RootConfig
from .errors import RefusedError, UsageError
from .freshness import (
    Entry,
    check,
    path_domain,
    root_pairs,
    root_relative,
    select,
)
from .fsops import atomic_write, sha256_bytes, sha256_file
from .identity import (
    AmbiguousReference,
    BadReference,
    References,
    UnknownReference,
    hint,
    parse_id,
)
from .log import Log, load
from .model import OUT_OF_EFFECT, Problem, Record, RootInfo, Severity, Unit
from .parsing.markdown import scan
from .parsing.sections import section_of
from .paths import inside_project
from .plans import (
    Plan,
    PlanKind,
    Step,
    is_current,
    list_plans,
    plan_dir,
    save_plan,
    staged_path,
)
from .views import index as index_view
from .views import state as view_state
from .views.index import md_text

KIND = "summary"
MARKER = (
    "<!-- mkdocs-adr:current-view. Drafted by `mkdocs-adr plan --mode summary` and published "
    "after review; CURRENT.sources.json records its sources. -->"
)
_MARKER_PREFIX = "<!-- mkdocs-adr:current-view"
DECISION_HEADINGS = (
    "Decision",
    "Decision Outcome",
    "Decisions",
    "决策",
    "決策",
    "决定",
    "決定",
    "Entscheidung",
    "Décision",
    "Decisión",
    "Decisão",
)
MAX_DECISION = 1200
MAX_PROPOSAL = 600
KEPT_NOTE = "*Kept from the view published"

SECTION_DECISIONS = "Decisions in effect"
SECTION_PROPOSALS = "Open proposals"
PART_PROBLEMS = "Problems and conflicts"
PART_HISTORY = "History (not in this view)"
PART_RELATED = "Related (outside the scope, not summarized)"


def is_generated(text: str) -> bool:
    """Whether a CURRENT.md carries the marker mkdocs-adr writes."""
    return text.lstrip("\ufeff").startswith(_MARKER_PREFIX)


# --------------------------------------------------------------------------- scope requests


def resolve_sources(log: Log, text: str) -> dict[str, list[str]]:
    """``--sources ID,ID``: record ids by root; every bad id in one refusal (exit 2)."""
    tokens = [t.strip() for t in text.split(",") if t.strip()]
    if not tokens:
        raise UsageError("--sources is empty", fix="give ids such as --sources ADR-0004,ADR-0007")
    refs = References(log)

    def valid(rec: Record) -> bool:
        return not rec.archived and len(log.by_id[rec.id.upper()]) == 1

    errors: list[str] = []
    chosen: dict[str, list[str]] = {}

    def bad(text: str, near: list[str]) -> None:
        shown = hint(near, "nearest valid")
        errors.append(text + (f" ({shown})" if shown else ""))

    def claimed(rid: str) -> None:
        recs = log.by_id[rid.upper()]
        bad(
            f"{rid} is claimed by {len(recs)} records ({', '.join(r.path for r in recs)}), "
            "so it is ambiguous",
            refs.nearest(rid, among=valid),
        )

    for token in tokens:
        try:
            found = refs.lookup(token, unit_ok=True, among=valid)
        except UnknownReference as exc:
            bad(
                exc.message if exc.excluded else f"{token!r} is not the id of any record",
                list(exc.nearest),
            )
            continue
        except AmbiguousReference as exc:
            if len(exc.ids) > 1:
                bad(f"{token!r} is ambiguous: it could be {', '.join(exc.ids)}", [])
            else:
                claimed(exc.ids[0])
            continue
        except BadReference as exc:
            bad(exc.message, [])
            continue
        rec = found.record
        if len(log.by_id[rec.id.upper()]) > 1:  # named by its path
            claimed(rec.id)
            continue
        if found.unit is not None or found.segment is not None:
            bad(
                f"{token!r} names a decision unit; a scope selects whole records",
                [rec.id] if valid(rec) else [],
            )
            continue
        if rec.archived:
            bad(
                f"{rec.id} is archived ({rec.path}); archived records are history, not "
                "sources of the current view",
                refs.nearest(rec.id, among=valid),
            )
            continue
        chosen.setdefault(rec.root, [])
        if rec.id not in chosen[rec.root]:
            chosen[rec.root].append(rec.id)
    if errors:
        raise UsageError(
            "--sources: " + "; ".join(errors),
            fix="give unarchived, unambiguous record ids (`mkdocs-adr plan` lists them)",
        )
    return chosen


def resolve_domain(log: Log, domain: str) -> list[str]:
    """``--domain D``: the roots that have active records in domain D."""
    roots = sorted({r.root for r in log.active if r.domain == domain})
    if not roots:
        known = sorted({r.domain for r in log.active if r.domain})
        near = difflib.get_close_matches(domain, known, n=3, cutoff=0.4)
        raise UsageError(
            f"--domain {domain!r}: no unarchived record is in that domain",
            fix=(f"did you mean {', '.join(near)}? " if near else "")
            + (
                f"known domains: {', '.join(known)}"
                if known
                else "this log has no domains (domains are the first folder below a layered root)"
            ),
        )
    return roots


def plan_scopes(
    log: Log, *, domain: str | None = None, sources: str | None = None
) -> dict[str, mf.Scope]:
    """The scope of this plan in each root it touches, keyed by the configured root path."""
    if domain and sources:
        raise UsageError("--domain and --sources exclude each other", fix="pick one scope")
    if domain:
        return {r: mf.Scope.make(r, domains=[domain]) for r in resolve_domain(log, domain)}
    if sources:
        return {r: mf.Scope.make(r, ids=ids) for r, ids in resolve_sources(log, sources).items()}
    return {cfg.path: mf.Scope.make(cfg.path) for cfg in log.config.roots}


# --------------------------------------------------------------------------- what is published


@dataclass(frozen=True)
class Published:
    """CURRENT.md and its manifest as they are on disk in one root, and who owns them."""

    current_rel: str
    manifest_rel: str
    raw: bytes | None
    manifest_raw: bytes | None
    manifest: mf.Manifest | None
    owned: bool
    why: str

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8", "replace") if self.raw is not None else ""

    @property
    def exact(self) -> str | None:
        return sha256_bytes(self.raw) if self.raw is not None else None

    @property
    def manifest_exact(self) -> str | None:
        return sha256_bytes(self.manifest_raw) if self.manifest_raw is not None else None


def published(config: Config, root: RootInfo) -> Published:
    folder = config.project_dir / root.path
    current_rel = f"{root.path}/{config.current_page}"
    manifest_rel = f"{root.path}/{mf.FILENAME}"
    try:
        raw: bytes | None = (folder / config.current_page).read_bytes()
    except FileNotFoundError:
        raw = None
    except OSError as exc:
        raise RefusedError(
            f"{current_rel} cannot be read: {exc.strerror}",
            path=current_rel,
            fix="check its permissions",
        ) from None
    try:
        manifest_raw: bytes | None = (folder / mf.FILENAME).read_bytes()
    except FileNotFoundError:
        manifest_raw = None
    except OSError as exc:
        raise RefusedError(
            f"{manifest_rel} cannot be read: {exc.strerror}",
            path=manifest_rel,
            fix="check its permissions, or remove it to publish anew",
        ) from None
    manifest = None
    if manifest_raw is not None:
        try:
            manifest = mf.parse(manifest_raw, where=manifest_rel)
        except mf.ManifestError:
            manifest = None
    if raw is None:
        return Published(current_rel, manifest_rel, None, manifest_raw, manifest, True, "absent")
    text = raw.decode("utf-8", "replace")
    if is_generated(text):
        return Published(current_rel, manifest_rel, raw, manifest_raw, manifest, True, "marker")
    if manifest is not None and mf.text_sha256(raw) == manifest.summary_sha256:
        return Published(current_rel, manifest_rel, raw, manifest_raw, manifest, True, "manifest")
    return Published(current_rel, manifest_rel, raw, manifest_raw, manifest, False, "user-owned")


def refuse_user_owned(pubs: Iterable[Published]) -> None:
    theirs = [p for p in pubs if not p.owned]
    if not theirs:
        return
    also = f" (and {', '.join(p.current_rel for p in theirs[1:])})" if len(theirs) > 1 else ""
    raise RefusedError(
        f"not published by mkdocs-adr{also}: it has no generated marker and no "
        f"{mf.FILENAME} records its hash, and a user-owned file is never overwritten",
        path=theirs[0].current_rel,
        line=1,
        fix="to let mkdocs-adr take it over, plan again with --adopt: the draft replaces it "
        "only after you review and confirm, and its current text is kept in the plan folder; "
        "or set the plugin's current_page option to another file name",
    )


# --------------------------------------------------------------------------- text


_LINK_TARGET = re.compile(r"(!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?)([^)\s>]+)")
_URLISH = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|#|/)", re.IGNORECASE)
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def rebase_links(text: str, from_dir: str) -> str:
    """Relative link targets written in ``from_dir`` (root-relative), rewritten for the root."""
    if not from_dir:
        return text

    def fix(m: re.Match[str]) -> str:
        target = m.group(2)
        if _URLISH.match(target):
            return m.group(0)
        path, sep, anchor = target.partition("#")
        new = posixpath.normpath(posixpath.join(from_dir, path)) if path else path
        return m.group(1) + new + sep + anchor

    return _LINK_TARGET.sub(fix, text)


def _escape_html(line: str) -> str:
    """``<`` outside code spans becomes ``&lt;``: record text never injects markup here."""
    parts = re.split(r"(`+[^`]*`+)", line)
    return "".join(p if p.startswith("`") else p.replace("<", "&lt;") for p in parts)


def tame(text: str) -> str:
    """Record text made safe to sit inside CURRENT.md: no headings, no raw HTML."""
    out: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        if fenced:
            out.append(line)
            continue
        m = _HEADING.match(line)
        if m:
            line = f"**{m.group(1)}**"
        out.append(_escape_html(line))
    if fenced:
        out.append("```")
    return "\n".join(out)


def bound(text: str, limit: int) -> tuple[str, bool]:
    """At most ``limit`` characters, cut at a paragraph, line or word boundary."""
    text = text.strip()
    if len(text) <= limit:
        return text, False
    head = text[:limit]
    cut = head.rfind("\n\n")
    if cut < limit // 3:
        cut = head.rfind("\n")
    if cut < limit // 3:
        cut = head.rfind(" ")
    if cut <= 0:
        cut = limit
    kept = text[:cut].rstrip()
    if len(_FENCE.findall(kept)) % 2 or sum(1 for ln in kept.split("\n") if _FENCE.match(ln)) % 2:
        kept += "\n```"
    return kept + " …", True


def _strip_status_line(text: str, headings: Iterable[str]) -> str:
    names = {h.lower() for h in headings}
    lines = text.split("\n")
    for n, line in enumerate(lines[:6]):
        head = line.strip().lstrip("*_").split(":", 1)[0].strip("*_ ").lower()
        if ":" in line and head in names:
            del lines[n]
            break
    return "\n".join(lines).strip("\n")


def _full_section(config: Config, rec: Record) -> str | None:
    """The Decision section with its sub-sections (the parse keeps only its lead)."""
    try:
        text = (config.project_dir / rec.path).read_bytes().decode("utf-8-sig", "replace")
    except OSError:
        return None
    doc = scan(text.replace("\r\n", "\n"))
    wanted = {h.lower() for h in DECISION_HEADINGS}
    for sec in doc.sections(level=2):
        if sec.name.strip().lower() in wanted:
            return doc.section_text(sec, stop_at_subheading=False)
    return None


def decision_text(
    config: Config, rec: Record, unit: Unit | None, root: RootInfo, limit: int
) -> tuple[str, bool]:
    """The decision text of a record or unit, bounded, made safe and with rebased links."""
    if unit is not None:
        raw = _strip_status_line(unit.text, config.status_headings)
    else:
        raw = _full_section(config, rec) or section_of(rec.parsed, *DECISION_HEADINGS) or ""
    if not raw.strip():
        return "", False
    from_dir = posixpath.dirname(root_relative(root, rec.path))
    text, cut = bound(tame(rebase_links(raw, from_dir)), limit)
    return text, cut


def _href(rel: str) -> str:
    return rel.replace(" ", "%20").replace("(", "%28").replace(")", "%29")


def marker_key(key: str) -> str:
    return quote(key, safe="#").replace("--", "-%2D")


def _start(key: str) -> str:
    return f"<!-- mkdocs-adr:source {marker_key(key)} -->"


def _end(key: str) -> str:
    return f"<!-- mkdocs-adr:end {marker_key(key)} -->"


_BLOCK = re.compile(
    r"^<!-- mkdocs-adr:source (\S+) -->\n(.*?)\n<!-- mkdocs-adr:end \1 -->$",
    re.MULTILINE | re.DOTALL,
)


def extract_blocks(text: str) -> dict[str, str]:
    """The body of every marked source block of a CURRENT.md, by marker key."""
    text = text.replace("\r\n", "\n")
    return {m.group(1): m.group(2).strip("\n") for m in _BLOCK.finditer(text)}


def domain_title(domain: str | None) -> str:
    if not domain:
        return "General"
    return md_text(domain.replace("-", " ").replace("_", " ").strip().capitalize() or domain)


# --------------------------------------------------------------------------- drafting


@dataclass
class Item:
    """One source as CURRENT.md shows it."""

    key: str
    section: str  # SECTION_DECISIONS, SECTION_PROPOSALS, or "" (not shown as a block)
    group: str  # domain title, or ""
    body: str
    order: tuple[Any, ...]
    kept: bool = False


@dataclass
class RootDraft:
    root_config: RootConfig
    root: RootInfo
    plan_scope: mf.Scope
    view_scope: mf.Scope
    pub: Published
    text: str = ""
    manifest: mf.Manifest | None = None
    index_text: str | None = None
    index_rel: str = ""
    index_before: str | None = None
    index_note: str = ""
    coverage: list[dict[str, Any]] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    kept_changed: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    blocking: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    published_state: str = "absent"
    published_reasons: list[str] = field(default_factory=list)


def _disposition(log: Log, entry: Entry, candidates: set[str]) -> tuple[str, str]:
    """(disposition, section) of a freshly checked entry."""
    rec = entry.record
    if entry.role == "related":
        return "retained", ""
    if entry.unit is not None:
        status = entry.status
        if status == "accepted":
            return "summarized", SECTION_DECISIONS
        if status in ("proposed", "draft"):
            return "open", SECTION_PROPOSALS
        if status in OUT_OF_EFFECT:
            return "retained", ""
        return "open", ""
    if rec.units:
        if log.in_effect(rec):
            return "summarized", ""  # its units carry the text
        if rec.path in candidates:
            return "archive-candidate", ""
        if all(u.status in OUT_OF_EFFECT for u in rec.units):
            return "retained", ""
        return "open", ""
    if log.in_effect(rec):
        return "summarized", SECTION_DECISIONS
    if rec.status in ("proposed", "draft"):
        return "open", SECTION_PROPOSALS
    if rec.status in OUT_OF_EFFECT:
        return ("archive-candidate" if rec.path in candidates else "retained"), ""
    return "open", ""


def _part(entry: Entry, disposition: str, section: str, layered: bool) -> str:
    if entry.role == "related":
        return PART_RELATED
    if section == SECTION_DECISIONS:
        return (
            f"{SECTION_DECISIONS} / {domain_title(entry.record.domain)}"
            if layered
            else (SECTION_DECISIONS)
        )
    if section == SECTION_PROPOSALS:
        return SECTION_PROPOSALS
    if disposition == "summarized":
        return f"{SECTION_DECISIONS} (by decision unit)"
    if disposition == "open":
        return PART_PROBLEMS
    return PART_HISTORY


def _block_body(
    config: Config, log: Log, entry: Entry, root: RootInfo, section: str, level: int
) -> str:
    rec = entry.record
    unit = next((u for u in rec.units if u.key == entry.unit), None) if entry.unit else None
    title = unit.title if unit is not None else rec.title
    link = _href(root_relative(root, rec.path))
    label = md_text(entry.key)
    status = entry.status
    heading = f"{'#' * level} [{label}]({link}): {md_text(title or rec.id)}"
    if section == SECTION_PROPOSALS:
        heading += f" ({status})"
    limit = MAX_DECISION if section == SECTION_DECISIONS else MAX_PROPOSAL
    text, cut = decision_text(config, rec, unit, root, limit)
    lines = [heading, ""]
    if text:
        lines.append(text)
    else:
        lines.append(f"*The record has no Decision section; read [{label}]({link}).*")
    meta = [status]
    if rec.date:
        meta.append(md_text(rec.date))
    if cut:
        meta.append(f"shortened: [read the full decision]({link})")
    if rec.status == "superseded" and log.in_effect(rec) and unit is None:
        succ = ", ".join(log.graph.direct_successors(rec.id))
        meta.append(
            f"marked superseded, but its successor ({md_text(succ)}) is not accepted, "
            "so it stays in effect"
        )
    lines.extend(["", "*" + "; ".join(meta) + "*"])
    return "\n".join(lines)


def _order(rec: Record | None, key: str) -> tuple[Any, ...]:
    number = rec.number if rec is not None else None
    if number is None:
        parsed = parse_id(key.split("#")[0])
        number = parsed[1] if parsed else None
    unit = key.split("#")[1] if "#" in key else ""
    return (number is None, number or 0, key.split("#")[0], int(unit[1:] or 0) if unit else -1)


def _kept_body(body: str, created: str) -> str:
    lines = [ln for ln in body.split("\n") if not ln.startswith(KEPT_NOTE)]
    while lines and not lines[0].strip():
        lines.pop(0)
    note = f"{KEPT_NOTE} {created}; not re-checked by this plan.*"
    if lines and lines[0].lstrip().startswith("#"):
        return "\n".join([lines[0], "", note, *lines[1:]])
    return "\n".join([note, "", *lines])


def draft_root(
    config: Config,
    log: Log,
    root_config: RootConfig,
    root: RootInfo,
    plan_scope: mf.Scope,
    pub: Published,
    *,
    other_views: list[tuple[str, str]],
) -> RootDraft:
    """Draft CURRENT.md and its manifest for one root."""
    old = pub.manifest if pub.owned or pub.raw is None else None
    partial = plan_scope.kind != "root"
    view_scope = plan_scope
    if partial and old is not None:
        view_scope = old.scope.union(plan_scope)
    d = RootDraft(root_config, root, plan_scope, view_scope, pub)
    before = check(log, root)
    d.published_state = before.state
    d.published_reasons = [r.text for r in before.reasons]
    layered = root.layout in ("layered", "mixed")
    candidates = {c.path for c in archive_candidates(log) if c.eligible}
    fresh_sel = select(log, root_config, root, plan_scope)
    view_sel = select(log, root_config, root, view_scope)
    view_members = set(view_sel.members)
    fresh = [
        e
        for e in fresh_sel.entries
        if not (e.role == "related" and e.id in view_members and partial)
    ]
    rechecked_ids = {e.id for e in fresh}
    d.blocking.extend(
        f"{rid} is claimed by several records in {root.path}; the manifest cannot tell them "
        "apart (fix ADR002 first)"
        for rid in sorted(set(fresh_sel.ambiguous) | set(view_sel.ambiguous))
    )

    # sources kept from the published view without re-checking (partial scope only)
    kept_sources: list[mf.Source] = []
    if partial and old is not None:
        scope_ids = {i.upper() for i in plan_scope.ids}
        for src in old.sources:
            if src.id in rechecked_ids:
                continue
            if path_domain(src.path) in plan_scope.domains or src.id.upper() in scope_ids:
                continue  # in this plan's scope, and gone: re-checked away
            kept_sources.append(src)
    now_by_key = {e.key: e for e in view_sel.entries}
    for src in kept_sources:
        d.kept.append(src.key)
        cur = now_by_key.get(src.key)
        if cur is None or cur.sha256 != src.sha256 or cur.status != src.status:
            d.kept_changed.append(src.key)

    # the items CURRENT.md shows
    sources: list[mf.Source] = []
    items: list[Item] = []
    level = 4 if layered else 3
    for entry in fresh:
        disposition, section = _disposition(log, entry, candidates)
        part = _part(entry, disposition, section, layered)
        sources.append(
            mf.Source(
                entry.id,
                entry.unit,
                entry.path,
                entry.sha256,
                entry.status,
                disposition,
                entry.role,
                part,
            )
        )
        if section:
            lvl = level if section == SECTION_DECISIONS else 3
            group = (
                domain_title(entry.record.domain)
                if (layered and section == SECTION_DECISIONS)
                else ""
            )
            items.append(
                Item(
                    entry.key,
                    section,
                    group,
                    _block_body(config, log, entry, root, section, lvl),
                    _order(entry.record, entry.key),
                )
            )
    old_blocks = extract_blocks(pub.text) if pub.raw is not None else {}
    created_before = old.created if old is not None else "earlier"
    for src in kept_sources:
        sources.append(src)
        section, _, group = src.part.partition(" / ")
        if section not in (SECTION_DECISIONS, SECTION_PROPOSALS):
            continue
        body = old_blocks.get(marker_key(src.key))
        cur = now_by_key.get(src.key)
        if body is None:
            if cur is not None and cur.sha256 == src.sha256 and cur.status == src.status:
                lvl = level if section == SECTION_DECISIONS else 3
                body = _block_body(config, log, cur, root, section, lvl)
            else:
                body = (
                    f"**{md_text(src.key)}**: its text was not found in the published "
                    f"{config.current_page}; read the record ({md_text(root.path)}/"
                    f"{md_text(src.path)})."
                )
        items.append(
            Item(
                src.key,
                section,
                group,
                _kept_body(body, created_before),
                _order(cur.record if cur else None, src.key),
                kept=True,
            )
        )

    members = sorted(
        {e.id for e in fresh if e.role == "member"}
        | {s.id for s in kept_sources if s.role == "member"}
    )
    sources.sort(key=lambda s: _order(None, s.key))
    rechecked = sorted(e.key for e in fresh)
    view_scope = replace(view_scope, rechecked=tuple(rechecked) if partial else ())
    d.view_scope = view_scope

    # problems and conflicts among the sources
    ids = {s.id for s in sources}
    d.problems = [
        p for p in log.problems if p.severity >= Severity.WARNING and ids.intersection(p.ids)
    ]
    d.coverage = [
        {
            "source": s.key,
            "status": s.status,
            "disposition": s.disposition,
            "part": s.part,
            "role": s.role,
            "kept": s.key in d.kept,
            "path": f"{root.path}/{s.path}",
        }
        for s in sources
    ]
    d.text = render_current(config, log, d, items, sources, other_views)
    d.manifest = mf.Manifest(
        scope=view_scope,
        members=tuple(members),
        sources=tuple(sources),
        summary_path=config.current_page,
        summary_sha256=mf.text_sha256(d.text.encode("utf-8")),
        created=mf.now(),
    )

    # INDEX: written unless a user owns INDEX.md
    idx_state, idx_target, _ = view_state.index_state(log, root)
    d.index_rel = f"{root.path}/{config.index_page}"
    if idx_state.state == "user-owned":
        d.index_note = (
            f"{d.index_rel} is user-owned and is not written (the site shows the "
            f"generated index at {idx_target})"
        )
    else:
        d.index_text = index_view.render(log, root)
        d.index_before = sha256_file(config.project_dir / d.index_rel)
    if pub.raw is not None and not pub.owned:
        d.notes.append(
            f"adopts the user-owned {pub.current_rel}: the draft replaces it; its "
            "text is kept in the plan folder (adopted/)"
        )
    elif before.state == "stale" and any(r.kind == "summary-edited" for r in before.reasons):
        d.notes.append(
            f"{pub.current_rel} was edited after it was published; "
            + ("the kept parts keep those edits" if partial else "this draft replaces those edits")
        )
    if partial and old is None and pub.raw is not None:
        d.notes.append(
            f"no valid manifest is published in {root.path}: the draft covers only "
            "this plan's scope, and the other parts of the page are not kept"
        )
    return d


def render_current(
    config: Config,
    log: Log,
    d: RootDraft,
    items: list[Item],
    sources: list[mf.Source],
    other_views: list[tuple[str, str]],
) -> str:
    members = [s for s in sources if s.role == "member" and s.unit is None]
    units = [s for s in sources if s.unit is not None]
    title = f": {md_text(d.root_config.title)}" if d.root_config.title else ""
    out = [MARKER, "", f"# Current decisions{title}", ""]
    index_link = _href(config.index_page)
    out += [
        "> **A derived view.** This page gathers the decisions in effect from the records "
        "listed under [Sources](#sources). It decides nothing: the records stay "
        "authoritative, and a summary proves nothing about the code. Every record, archived "
        f"ones included, is in the [index]({index_link}).",
        "",
    ]
    counts = f"{len(members)} records" + (f", {len(units)} decision units" if units else "")
    out += [f"Scope: {md_text(d.view_scope.describe())} ({counts}).", ""]
    if d.plan_scope.kind != "root" and d.kept:
        changed = (
            f" Of those, {len(d.kept_changed)} changed since then and keep this view "
            f"stale: {md_text(', '.join(d.kept_changed))}."
            if d.kept_changed
            else ""
        )
        out += [
            f"This version re-checked {md_text(d.plan_scope.describe())}. The other "
            f"{len(d.kept)} sources were kept from the view published before it, without "
            f"re-checking.{changed}",
            "",
        ]

    def blocks(section: str) -> list[Item]:
        return sorted((i for i in items if i.section == section), key=lambda i: i.order)

    out += [f"## {SECTION_DECISIONS}", ""]
    decisions = blocks(SECTION_DECISIONS)
    if not decisions:
        out += ["No decision in this scope is in effect.", ""]
    groups = sorted({i.group for i in decisions}, key=lambda g: (g == "General", g))
    for group in groups:
        if group:
            out += [f"### {group}", ""]
        for item in (i for i in decisions if i.group == group):
            out += [_start(item.key), "", item.body, "", _end(item.key), ""]
    out += [f"## {SECTION_PROPOSALS}", ""]
    proposals = blocks(SECTION_PROPOSALS)
    if proposals:
        out += ["Proposals are not in effect; they show what may change.", ""]
        for item in proposals:
            out += [_start(item.key), "", item.body, "", _end(item.key), ""]
    else:
        out += ["No open proposal in this scope.", ""]
    out += [f"## {PART_PROBLEMS}", ""]
    if d.problems:
        for p in d.problems:
            where = f" ({md_text(p.where)})" if p.where else ""
            out.append(f"- **{p.code}** {p.severity.label}: {md_text(p.message)}{where}")
        out.append("")
    else:
        out += ["No problem was found in the records of this scope.", ""]
    out += [
        "## Coverage",
        "",
        "Where each source ended in this view.",
        "",
        "| Source | Status | Disposition | Part |",
        "|---|---|---|---|",
    ]
    for s in sources:
        kept = " (kept, not re-checked)" if s.key in d.kept else ""
        out.append(f"| {md_text(s.key)} | {s.status} | {s.disposition} | {md_text(s.part)}{kept} |")
    out += [
        "",
        "## Sources",
        "",
        f"{len(sources)} sources; `{mf.FILENAME}` beside this page holds their hashes, so the "
        "site can tell when this view no longer matches them.",
        "",
        "| Source | Record | sha256 |",
        "|---|---|---|",
    ]
    for s in sources:
        out.append(
            f"| {md_text(s.key)} | [{md_text(s.path)}]({_href(s.path)}) | `{s.sha256[:12]}` |"
        )
    out.append("")
    if other_views:
        out += ["## Other views", ""]
        for rel, title in other_views:
            out.append(f"- [{md_text(title)}]({_href(rel)})")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


# --------------------------------------------------------------------------- plans


@dataclass
class Draft:
    plan: Plan
    staged: dict[str, bytes]
    roots: list[RootDraft]
    adopted: dict[str, bytes]


def review_rel(current_rel: str) -> str:
    return f"review/{current_rel}"


def draft(
    config: Config,
    log: Log,
    *,
    domain: str | None = None,
    sources: str | None = None,
    adopt: bool = False,
) -> Draft:
    """Draft a summary plan (nothing is written; see :func:`save`)."""
    scopes = plan_scopes(log, domain=domain, sources=sources)
    pairs = root_pairs(log)
    chosen = [(cfg, info) for cfg, info in pairs if cfg.path in scopes]
    missing = [info.path for cfg, info in chosen if not config.root_dir(cfg).is_dir()]
    chosen = [(cfg, info) for cfg, info in chosen if config.root_dir(cfg).is_dir()]
    if not chosen:
        raise RefusedError(
            "no ADR root folder exists: " + ", ".join(missing),
            fix="create the folder and its records first (mkdocs-adr never creates a root)",
        )
    pubs = {cfg.path: published(config, info) for cfg, info in chosen}
    if not adopt:
        refuse_user_owned(pubs.values())
    roots: list[RootDraft] = []
    for cfg, info in chosen:
        others = []
        for ocfg, oinfo in pairs:
            if ocfg.path == cfg.path:
                continue
            if (
                ocfg.path in scopes
                or (config.project_dir / oinfo.path / config.current_page).exists()
            ):
                rel = posixpath.relpath(f"{oinfo.path}/{config.current_page}", info.path)
                others.append((rel, f"{oinfo.title}: current decisions"))
        roots.append(
            draft_root(config, log, cfg, info, scopes[cfg.path], pubs[cfg.path], other_views=others)
        )
    steps: list[Step] = []
    staged: dict[str, bytes] = {}
    adopted: dict[str, bytes] = {}
    for d in roots:
        assert d.manifest is not None
        text = d.text.encode("utf-8")
        data = d.manifest.to_bytes()
        for rel, before, after, part in (
            (d.pub.current_rel, d.pub.exact, text, "current"),
            (d.pub.manifest_rel, d.pub.manifest_exact, data, "current"),
        ):
            digest = sha256_bytes(after)
            staged[digest] = after
            steps.append(Step("write", rel, before, digest, part=part))
        if d.index_text is not None:
            idx = d.index_text.encode("utf-8")
            digest = sha256_bytes(idx)
            if digest != d.index_before:
                staged[digest] = idx
                steps.append(Step("write", d.index_rel, d.index_before, digest, part="index"))
        if d.pub.raw is not None and not d.pub.owned:
            adopted[d.pub.current_rel] = d.pub.raw
    inputs: dict[str, str | None] = {}
    for rec in log.records:
        inputs[rec.path] = sha256_file(config.project_dir / rec.path)
    first = next(iter(scopes.values()))
    scope = {
        "mode": KIND,
        "kind": first.kind,
        "domains": list(first.domains),
        "ids": sorted({i for s in scopes.values() for i in s.ids}),
        "roots": [d.root.path for d in roots],
    }
    review = {
        "mode": KIND,
        "adopt": bool(adopted),
        "roots": [_root_review(d) for d in roots],
    }
    blocking = [b for d in roots for b in d.blocking]
    plan = Plan(
        kind=KIND,
        scope=scope,
        fingerprint=log.fingerprint,
        steps=steps,
        inputs=inputs,
        review=review,
        blocking=blocking,
    )
    plan.plan_id = f"{KIND}-{plan.content_key()}"
    return Draft(plan, staged, roots, adopted)


def _root_review(d: RootDraft) -> dict[str, Any]:
    assert d.manifest is not None
    dispositions: dict[str, int] = {}
    for s in d.manifest.sources:
        dispositions[s.disposition] = dispositions.get(s.disposition, 0) + 1
    return {
        "root": d.root.path,
        "current": d.pub.current_rel,
        "manifest": d.pub.manifest_rel,
        "index": d.index_rel if d.index_text is not None else None,
        "index_note": d.index_note,
        "review_file": review_rel(d.pub.current_rel),
        "action": "create" if d.pub.raw is None else ("adopt" if not d.pub.owned else "replace"),
        "published_state": d.published_state,
        "published_reasons": d.published_reasons,
        "plan_scope": d.plan_scope.to_json(),
        "view_scope": d.view_scope.to_json(),
        "members": len(d.manifest.members),
        "sources": len(d.manifest.sources),
        "dispositions": dispositions,
        "coverage": d.coverage,
        "kept": d.kept,
        "kept_changed": d.kept_changed,
        "problems": [p.to_json() for p in d.problems],
        "notes": d.notes,
    }


def save(config: Config, d: Draft) -> Plan:
    """Store the plan, its staged contents and the editable review copies."""
    plan = save_plan(config.work_path, d.plan, d.staged)
    folder = plan_dir(config.work_path, plan.plan_id)
    for root in plan.review.get("roots", []):
        step = _current_step(plan, root["current"])
        target = folder / root["review_file"]
        if step is not None and not target.exists():
            data = staged_path(config.work_path, plan.plan_id, str(step.after)).read_bytes()
            atomic_write(target, data, make_parents=True)
    for rel, data in d.adopted.items():
        target = folder / "adopted" / rel
        if not target.exists():
            atomic_write(target, data, make_parents=True)
    return plan


def discard(config: Config, plan_id: str) -> None:
    """Remove an unapplied plan's folder (the "cancel" answer)."""
    shutil.rmtree(plan_dir(config.work_path, plan_id), ignore_errors=True)


def _current_step(plan: Plan, current_rel: str) -> Step | None:
    return next((s for s in plan.steps if s.op == "write" and s.path == current_rel), None)


def _manifest_step(plan: Plan, manifest_rel: str) -> Step | None:
    return next((s for s in plan.steps if s.op == "write" and s.path == manifest_rel), None)


def review_file(config: Config, plan: Plan, root: Mapping[str, Any]) -> Path:
    return plan_dir(config.work_path, plan.plan_id) / str(root["review_file"])


def staged_text(config: Config, plan: Plan, rel: str) -> bytes | None:
    step = next((s for s in plan.steps if s.op == "write" and s.path == rel), None)
    if step is None or step.after is None:
        return None
    try:
        return staged_path(config.work_path, plan.plan_id, step.after).read_bytes()
    except OSError:
        return None


def edited_roots(config: Config, plan: Plan) -> list[tuple[dict[str, Any], bytes]]:
    """Roots whose review copy of CURRENT.md differs from the staged draft, with its bytes."""
    out = []
    for root in plan.review.get("roots", []):
        step = _current_step(plan, root["current"])
        path = review_file(config, plan, root)
        if step is None:
            continue
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise RefusedError(
                f"the review copy {path} cannot be read: {exc.strerror}", path=str(path)
            ) from None
        if sha256_bytes(data) != step.after:
            out.append((root, data))
    return out


def restage_if_edited(config: Config, plan: Plan) -> Plan:
    """If the reviewer edited the draft, stage the edited text as the next plan version.

    The published page is then exactly the reviewed text, and the manifest
    records its hash. An unedited plan is returned as it is.
    """
    edits = edited_roots(config, plan)
    if not edits:
        return plan
    steps = list(plan.steps)
    staged: dict[str, bytes] = {}
    for s in steps:
        if s.op == "write" and s.after is not None:
            data = staged_text(config, plan, s.path)
            if data is None or sha256_bytes(data) != s.after:
                raise RefusedError(
                    f"plan {plan.plan_id}: the staged content of {s.path} is missing or altered",
                    fix="plan again",
                )
            staged[s.after] = data
    edited_paths = []
    for root, data in edits:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RefusedError(
                f"the edited draft is not UTF-8 (byte {exc.start})",
                path=str(review_file(config, plan, root)),
                fix="save it as UTF-8 and confirm again",
            ) from None
        cstep = _current_step(plan, root["current"])
        mstep = _manifest_step(plan, root["manifest"])
        assert cstep is not None and mstep is not None and mstep.after is not None
        old_manifest = mf.parse(staged[mstep.after], where=root["manifest"])
        new_manifest = replace(old_manifest, summary_sha256=mf.text_sha256(data))
        mdata = new_manifest.to_bytes()
        cdigest, mdigest = sha256_bytes(data), sha256_bytes(mdata)
        staged[cdigest], staged[mdigest] = data, mdata
        steps = [
            replace(s, after=cdigest)
            if s is cstep
            else (replace(s, after=mdigest) if s is mstep else s)
            for s in steps
        ]
        edited_paths.append(root["current"])
    review = dict(plan.review)
    review["restaged_from"] = plan.plan_id
    review["edited"] = edited_paths
    new = Plan(
        kind=plan.kind,
        scope=plan.scope,
        fingerprint=plan.fingerprint,
        steps=steps,
        inputs=plan.inputs,
        review=review,
        blocking=plan.blocking,
    )
    used = {s.after for s in steps if s.after is not None}
    saved = save_plan(config.work_path, new, {k: v for k, v in staged.items() if k in used})
    folder = plan_dir(config.work_path, saved.plan_id)
    for root, data in edits:
        target = folder / root["review_file"]
        if not target.exists():
            atomic_write(target, data, make_parents=True)
    return saved


# --------------------------------------------------------------------------- confirming


def precheck(config: Config, plan: Plan) -> list[str]:
    """Inside the lock, before anything is written: is the plan still what was reviewed?"""
    changes: list[str] = []
    if plan.plan_id != f"{plan.kind}-{plan.content_key()}":
        changes.append(f"the plan file of {plan.plan_id} was altered after it was made")
    for s in plan.steps:
        if s.op == "write" and s.after is not None:
            path = staged_path(config.work_path, plan.plan_id, s.after)
            if sha256_file(path) != s.after:
                changes.append(f"the staged content of {s.path} is missing or altered")
    if not is_current(config.work_path, plan):
        newer = [
            p
            for p in list_plans(config.work_path)
            if p.scope_key() == plan.scope_key() and p.version > plan.version
        ]
        latest = max(newer, key=lambda p: p.version)
        changes.append(
            f"{plan.plan_id} is version {plan.version}; version {latest.version} "
            f"({latest.plan_id}) of this scope is newer and is the current plan"
        )
    for root, _data in edited_roots(config, plan):
        changes.append(
            f"the review copy of {root['current']} differs from what this plan "
            "publishes (confirm again to stage the edit)"
        )
    for rel, digest in sorted(plan.inputs.items()):
        try:
            now = sha256_file(inside_project(config.project_dir, rel))
        except RefusedError as exc:
            changes.append(exc.message)
            continue
        if now != digest:
            changes.append(
                f"{rel} "
                + ("was removed" if now is None else "changed")
                + " since the plan was made"
            )
    log = load(config)
    for rec in log.records:
        if rec.path not in plan.inputs:
            changes.append(f"{rec.path} appeared since the plan was made ({rec.id}, {rec.status})")
    return changes


def verify_applied(config: Config, plan: Plan) -> list[str]:
    """After the journal wrote the steps: is every CURRENT view what was reviewed?"""
    problems: list[str] = []
    for s in plan.steps:
        if s.op == "write" and sha256_file(config.project_dir / s.path) != s.after:
            problems.append(f"{s.path} does not hold the reviewed content")
    for root in plan.review.get("roots", []):
        manifest_path = config.project_dir / root["manifest"]
        try:
            published_manifest = mf.read(manifest_path, where=root["manifest"])
        except mf.ManifestError as exc:
            problems.append(f"{root['manifest']}: {exc.message}")
            continue
        try:
            text = (config.project_dir / root["current"]).read_bytes()
        except OSError as exc:
            problems.append(f"{root['current']} cannot be read: {exc.strerror}")
            continue
        if mf.text_sha256(text) != published_manifest.summary_sha256:
            problems.append(f"{root['current']} does not match the hash its manifest records")
    return problems


#: Summary plans publish CURRENT views; :data:`mkdocs_adr.apply.KINDS` lists it.
PLAN_KIND = PlanKind(KIND, verify=verify_applied, precheck=precheck)


# --------------------------------------------------------------------------- output


def plan_json(config: Config, plan: Plan, *, dry_run: bool, saved: bool) -> dict[str, Any]:
    folder = config.rel(plan_dir(config.work_path, plan.plan_id))
    return {
        "schema": "mkdocs-adr/summary-plan",
        "version": 1,
        "plan_id": plan.plan_id,
        "plan_version": plan.version if saved else None,
        "mode": KIND,
        "dry_run": dry_run,
        "saved": saved,
        "scope": plan.scope,
        "fingerprint": plan.fingerprint,
        "roots": [
            {**root, "review_file": f"{folder}/{root['review_file']}" if saved else None}
            for root in plan.review.get("roots", [])
        ],
        "writes": [
            {"path": s.path, "op": s.op, "before": s.before, "after": s.after, "part": s.part}
            for s in plan.steps
        ],
        "blocking": plan.blocking,
        "next": f"mkdocs-adr plan --confirm {plan.plan_id}"
        if saved and not plan.blocking
        else None,
    }


def card(config: Config, plan: Plan, *, saved: bool) -> str:
    """The review card (SPEC 7): plan, sources and outputs, coverage, changes, blockers."""
    folder = config.rel(plan_dir(config.work_path, plan.plan_id))
    head = f"Summary plan {plan.plan_id}" + (
        f" (version {plan.version})" if saved else " (dry run: nothing written)"
    )
    out = [head, "=" * len(head)]
    if plan.review.get("edited"):
        out.append(
            "Staged from the reviewed draft of "
            f"{plan.review.get('restaged_from')}: {', '.join(plan.review['edited'])}"
        )
    for root in plan.review.get("roots", []):
        out.append("")
        action = {"create": "creates", "replace": "replaces", "adopt": "ADOPTS and replaces"}[
            root["action"]
        ]
        out.append(
            f"{root['root']}: {action} {root['current']} "
            f"(published view: {root['published_state']})"
        )
        view = root["view_scope"]
        plan_scope = root["plan_scope"]
        out.append(
            f"  scope       {_describe(view)}"
            + (
                f"; this plan re-checks {_describe(plan_scope)}"
                if plan_scope["kind"] != "root"
                else ""
            )
        )
        disp = ", ".join(f"{n} {k}" for k, n in sorted(root["dispositions"].items()))
        out.append(f"  sources     {root['sources']} ({root['members']} member records): {disp}")
        parts: dict[str, list[str]] = {}
        for row in root["coverage"]:
            parts.setdefault(row["part"], []).append(row["source"])
        out.append("  coverage")
        for part, keys in sorted(parts.items()):
            shown = ", ".join(keys[:8]) + (f", … (+{len(keys) - 8})" if len(keys) > 8 else "")
            out.append(f"    {part}: {shown}")
        if root["kept"]:
            out.append(
                f"  kept        {len(root['kept'])} sources from the published view, not re-checked"
            )
        if root["kept_changed"]:
            out.append(
                f"  still stale {', '.join(root['kept_changed'])} changed since "
                "publishing and keep the view stale"
            )
        for reason in root["published_reasons"][:8]:
            out.append(f"  now         {reason}")
        if root["problems"]:
            out.append(f"  problems    {len(root['problems'])} (listed in the draft):")
            for p in root["problems"][:6]:
                out.append(f"    {p['code']} {p['message']}")
        outputs = [root["current"], root["manifest"]] + ([root["index"]] if root["index"] else [])
        out.append(f"  writes      {', '.join(outputs)}")
        if root["index_note"]:
            out.append(f"  note        {root['index_note']}")
        for note in root["notes"]:
            out.append(f"  note        {note}")
        if saved:
            out.append(
                f"  review      {folder}/{root['review_file']} (edit it before "
                "publishing if needed)"
            )
    out.append("")
    if plan.blocking:
        out.append("Blocking problems (publishing is disabled; the draft can be saved):")
        out.extend(f"  - {b}" for b in plan.blocking)
    else:
        out.append("Blocking problems: none")
    out.append("No archive moves; no decision changes status. The page is a derived view.")
    return "\n".join(out) + "\n"


def _describe(scope: Mapping[str, Any]) -> str:
    return mf.Scope.from_json(scope).describe()
