"""Drafting one root's CURRENT view: its sources, their dispositions, the page, the manifest.

For the plan's scope in a root, :func:`draft_root` selects the sources (see
:func:`mkdocs_adr.freshness.select`), decides where each one ends in the page
(its disposition and part), and makes the page text
(:func:`mkdocs_adr.summary.page.render_current`), its manifest and the INDEX.

A partial scope (``--domain``, ``--sources``) re-checks only its own sources;
the other sources of the published view are kept as they were reviewed, text
and manifest entry alike, and marked as not re-checked, so a part that changed
since keeps the view stale instead of hiding behind a new publish date.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .. import manifest as mf
from .. import viewstate as view_state
from ..archive.eligibility import candidates as archive_candidates
from ..config import Config, RootConfig
from ..freshness import Entry, Freshness, check, path_domain, root_relative, select
from ..fsops import sha256_file
from ..log import Log
from ..model import Problem, RootInfo, Severity
from ..safetext import md_text
from ..views import index as index_view
from .dispositions import CoverageRow, disposition, order, part_of
from .page import (
    KEPT_NOTE,
    SECTION_DECISIONS,
    SECTION_PROPOSALS,
    Item,
    PageParts,
    render_current,
)
from .published import Published
from .text import (
    MAX_DECISION,
    MAX_PROPOSAL,
    decision_text,
    domain_title,
    extract_blocks,
    href,
    marker_key,
)


@dataclass(frozen=True)
class IndexDraft:
    """The INDEX a plan writes in a root, or why it writes none (``text`` is ``None``)."""

    rel: str  # project-relative path of INDEX.md
    text: str | None
    before: str | None = None  # hash of INDEX.md on disk now
    note: str = ""


@dataclass(frozen=True)
class RootDraft:
    """Everything a summary plan writes and tells its reviewer about one root."""

    root_config: RootConfig
    root: RootInfo
    plan_scope: mf.Scope
    view_scope: mf.Scope
    pub: Published
    text: str
    manifest: mf.Manifest
    index: IndexDraft
    coverage: tuple[CoverageRow, ...] = ()
    kept: tuple[str, ...] = ()
    kept_changed: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()
    blocking: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    published_state: str = "absent"
    published_reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Chosen:
    """The sources this plan re-checks, and the view's sources as the log holds them now."""

    fresh: tuple[Entry, ...]
    now: Mapping[str, Entry]  # every source of the view scope, by key
    ambiguous: tuple[str, ...]


# --------------------------------------------------------------------------- blocks


def _level(section: str, layered: bool) -> int:
    """Heading level of a block: decisions sit below a domain heading in a layered root."""
    return 4 if layered and section == SECTION_DECISIONS else 3


def block_body(
    config: Config, log: Log, entry: Entry, root: RootInfo, section: str, level: int
) -> str:
    """The text of one source's block: heading, decision text, status line."""
    rec = entry.record
    unit = next((u for u in rec.units if u.key == entry.unit), None) if entry.unit else None
    title = unit.title if unit is not None else rec.title
    link = href(root_relative(root, rec.path))
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


def kept_body(body: str, created: str) -> str:
    """A block kept from the published view, with the note that it was not re-checked."""
    lines = [ln for ln in body.split("\n") if not ln.startswith(KEPT_NOTE)]
    while lines and not lines[0].strip():
        lines.pop(0)
    note = f"{KEPT_NOTE} {created}; not re-checked by this plan.*"
    if lines and lines[0].lstrip().startswith("#"):
        return "\n".join([lines[0], "", note, *lines[1:]])
    return "\n".join([note, "", *lines])


# --------------------------------------------------------------------------- steps of a root


def _choose(
    log: Log,
    root_config: RootConfig,
    root: RootInfo,
    plan_scope: mf.Scope,
    view_scope: mf.Scope,
    partial: bool,
) -> _Chosen:
    """Select the plan's sources; a related record that is a member of the view is not one."""
    fresh_sel = select(log, root_config, root, plan_scope)
    view_sel = select(log, root_config, root, view_scope)
    view_members = set(view_sel.members)
    fresh = tuple(
        e
        for e in fresh_sel.entries
        if not (e.role == "related" and e.id in view_members and partial)
    )
    return _Chosen(
        fresh,
        {e.key: e for e in view_sel.entries},
        tuple(sorted(set(fresh_sel.ambiguous) | set(view_sel.ambiguous))),
    )


def kept_sources(old: mf.Manifest, plan_scope: mf.Scope, rechecked: set[str]) -> list[mf.Source]:
    """Sources of the published view that a partial plan keeps without re-checking them.

    A source of this plan's scope that is no longer selected is not kept: it
    was re-checked away.
    """
    scope_ids = {i.upper() for i in plan_scope.ids}
    kept: list[mf.Source] = []
    for src in old.sources:
        if src.id in rechecked:
            continue
        if path_domain(src.path) in plan_scope.domains or src.id.upper() in scope_ids:
            continue
        kept.append(src)
    return kept


def _unchanged(now: Entry | None, src: mf.Source) -> bool:
    return now is not None and now.sha256 == src.sha256 and now.status == src.status


def _fresh_parts(
    config: Config, log: Log, fresh: Iterable[Entry], root: RootInfo, layered: bool
) -> tuple[list[mf.Source], list[Item]]:
    """The manifest entry of every re-checked source, and the block of each shown one."""
    candidates = {c.path for c in archive_candidates(log) if c.eligible}
    sources: list[mf.Source] = []
    items: list[Item] = []
    for entry in fresh:
        disp, section = disposition(log, entry, candidates)
        part = part_of(entry, disp, section, layered)
        sources.append(
            mf.Source(
                entry.id,
                entry.unit,
                entry.path,
                entry.sha256,
                entry.status,
                disp,
                entry.role,
                part,
            )
        )
        if not section:
            continue
        group = (
            domain_title(entry.record.domain) if (layered and section == SECTION_DECISIONS) else ""
        )
        body = block_body(config, log, entry, root, section, _level(section, layered))
        items.append(Item(entry.key, section, group, body, order(entry.record, entry.key)))
    return sources, items


def _kept_items(
    config: Config,
    log: Log,
    root: RootInfo,
    pub: Published,
    kept: Iterable[mf.Source],
    now: Mapping[str, Entry],
    created: str,
    layered: bool,
) -> list[Item]:
    """The blocks of the kept sources: their published text, drafted again if it is lost."""
    published_blocks = extract_blocks(pub.text) if pub.raw is not None else {}
    items: list[Item] = []
    for src in kept:
        section, _, group = src.part.partition(" / ")
        if section not in (SECTION_DECISIONS, SECTION_PROPOSALS):
            continue
        body = published_blocks.get(marker_key(src.key))
        cur = now.get(src.key)
        if body is None:
            if cur is not None and _unchanged(cur, src):
                body = block_body(config, log, cur, root, section, _level(section, layered))
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
                kept_body(body, created),
                order(cur.record if cur else None, src.key),
                kept=True,
            )
        )
    return items


def _coverage(
    sources: Iterable[mf.Source], kept: Iterable[str], root: RootInfo
) -> tuple[CoverageRow, ...]:
    kept_keys = set(kept)
    return tuple(
        CoverageRow(
            source=s.key,
            status=s.status,
            disposition=s.disposition,
            part=s.part,
            role=s.role,
            kept=s.key in kept_keys,
            path=f"{root.path}/{s.path}",
        )
        for s in sources
    )


def _index(config: Config, log: Log, root: RootInfo) -> IndexDraft:
    """INDEX.md is written unless a user owns it."""
    idx_state, idx_target, _ = view_state.index_state(log, root)
    rel = f"{root.path}/{config.index_page}"
    if idx_state.state == "user-owned":
        note = (
            f"{rel} is user-owned and is not written (the site shows the "
            f"generated index at {idx_target})"
        )
        return IndexDraft(rel, None, note=note)
    return IndexDraft(rel, index_view.render(log, root), sha256_file(config.project_dir / rel))


def _was_edited(before: Freshness) -> bool:
    """Whether the published view is stale because its text was edited after publishing."""
    return before.state == "stale" and any(r.kind == "summary-edited" for r in before.reasons)


def _notes(
    pub: Published, before: Freshness, partial: bool, old: mf.Manifest | None, root: RootInfo
) -> tuple[str, ...]:
    """What the reviewer should know about the published page this draft replaces."""
    notes: list[str] = []
    if pub.raw is not None and not pub.owned:
        notes.append(
            f"adopts the user-owned {pub.current_rel}: the draft replaces it; its "
            "text is kept in the plan folder (adopted/)"
        )
    elif _was_edited(before):
        notes.append(
            f"{pub.current_rel} was edited after it was published; "
            + ("the kept parts keep those edits" if partial else "this draft replaces those edits")
        )
    if partial and old is None and pub.raw is not None:
        notes.append(
            f"no valid manifest is published in {root.path}: the draft covers only "
            "this plan's scope, and the other parts of the page are not kept"
        )
    return tuple(notes)


def _problems(log: Log, sources: Iterable[mf.Source]) -> tuple[Problem, ...]:
    """The warnings and errors of the log that name a source of the view."""
    ids = {s.id for s in sources}
    return tuple(
        p for p in log.problems if p.severity >= Severity.WARNING and ids.intersection(p.ids)
    )


def _blocking(root: RootInfo, ambiguous: Iterable[str]) -> tuple[str, ...]:
    return tuple(
        f"{rid} is claimed by several records in {root.path}; the manifest cannot tell them "
        "apart (fix ADR002 first)"
        for rid in ambiguous
    )


# --------------------------------------------------------------------------- a root


def _sources_and_items(
    config: Config,
    log: Log,
    root: RootInfo,
    pub: Published,
    old: mf.Manifest | None,
    chosen: _Chosen,
    kept: list[mf.Source],
) -> tuple[list[mf.Source], list[Item]]:
    """Every source of the view in manifest order, and the blocks the page shows."""
    layered = root.layout in ("layered", "mixed")
    sources, items = _fresh_parts(config, log, chosen.fresh, root, layered)
    created_before = old.created if old is not None else "earlier"
    items += _kept_items(config, log, root, pub, kept, chosen.now, created_before, layered)
    return sorted([*sources, *kept], key=lambda s: order(None, s.key)), items


def _manifest(
    config: Config,
    view_scope: mf.Scope,
    chosen: _Chosen,
    kept: Iterable[mf.Source],
    sources: Iterable[mf.Source],
    text: str,
) -> mf.Manifest:
    members = {e.id for e in chosen.fresh if e.role == "member"}
    members |= {s.id for s in kept if s.role == "member"}
    return mf.Manifest(
        scope=view_scope,
        members=tuple(sorted(members)),
        sources=tuple(sources),
        summary_path=config.current_page,
        summary_sha256=mf.text_sha256(text.encode("utf-8")),
        created=mf.now(),
    )


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
    view_scope = old.scope.union(plan_scope) if partial and old is not None else plan_scope
    before = check(log, root)
    chosen = _choose(log, root_config, root, plan_scope, view_scope, partial)
    kept: list[mf.Source] = []
    if partial and old is not None:
        kept = kept_sources(old, plan_scope, {e.id for e in chosen.fresh})
    kept_keys = tuple(src.key for src in kept)
    kept_changed = tuple(src.key for src in kept if not _unchanged(chosen.now.get(src.key), src))
    sources, items = _sources_and_items(config, log, root, pub, old, chosen, kept)
    rechecked = tuple(sorted(e.key for e in chosen.fresh)) if partial else ()
    view_scope = replace(view_scope, rechecked=rechecked)
    problems = _problems(log, sources)
    parts = PageParts(
        title=root_config.title,
        index_page=config.index_page,
        view_scope=view_scope,
        plan_scope=plan_scope,
        items=tuple(items),
        sources=tuple(sources),
        kept=kept_keys,
        kept_changed=kept_changed,
        problems=problems,
        other_views=tuple(other_views),
    )
    text = render_current(parts)
    return RootDraft(
        root_config,
        root,
        plan_scope,
        view_scope,
        pub,
        text,
        _manifest(config, view_scope, chosen, kept, sources, text),
        _index(config, log, root),
        coverage=_coverage(sources, kept_keys, root),
        kept=kept_keys,
        kept_changed=kept_changed,
        problems=problems,
        blocking=_blocking(root, chosen.ambiguous),
        notes=_notes(pub, before, partial, old, root),
        published_state=before.state,
        published_reasons=tuple(r.text for r in before.reasons),
    )
