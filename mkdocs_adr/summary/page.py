"""The text of CURRENT.md from the parts a draft chose: pure, no I/O (SPEC 5).

The page carries the generated marker, the statement that it is a derived
view, the decisions in effect (grouped by domain in a layered root), open
proposals, problems and conflicts, coverage (which source ended in which
part) and the sources with their hashes. Each shown source sits between
block markers (:func:`~mkdocs_adr.summary.text.start_marker`), which is how a
partial scope keeps the other parts of the published page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import manifest as mf
from ..model import Problem
from ..safetext import md_text
from .text import end_marker, href, start_marker

MARKER = (
    "<!-- mkdocs-adr:current-view. Drafted by `mkdocs-adr plan --mode summary` and published "
    "after review; CURRENT.sources.json records its sources. -->"
)
_MARKER_PREFIX = "<!-- mkdocs-adr:current-view"
KEPT_NOTE = "*Kept from the view published"

SECTION_DECISIONS = "Decisions in effect"
SECTION_PROPOSALS = "Open proposals"
PART_PROBLEMS = "Problems and conflicts"
PART_HISTORY = "History (not in this view)"
PART_RELATED = "Related (outside the scope, not summarized)"


def is_generated(text: str) -> bool:
    """Whether a CURRENT.md carries the marker mkdocs-adr writes."""
    return text.lstrip("\ufeff").startswith(_MARKER_PREFIX)


@dataclass(frozen=True)
class Item:
    """One source as CURRENT.md shows it."""

    key: str
    section: str  # SECTION_DECISIONS, SECTION_PROPOSALS, or "" (not shown as a block)
    group: str  # domain title, or ""
    body: str
    order: tuple[Any, ...]
    kept: bool = False


@dataclass(frozen=True)
class PageParts:
    """Everything the text of one root's CURRENT.md is made from."""

    title: str  # the root's configured title, or ""
    index_page: str  # the INDEX file name, linked from the intro
    view_scope: mf.Scope
    plan_scope: mf.Scope
    items: tuple[Item, ...]
    sources: tuple[mf.Source, ...]
    kept: tuple[str, ...] = ()
    kept_changed: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()
    other_views: tuple[tuple[str, str], ...] = ()  # (relative link, title)

    def blocks(self, section: str) -> list[Item]:
        return sorted((i for i in self.items if i.section == section), key=lambda i: i.order)


def render_current(parts: PageParts) -> str:
    """The whole CURRENT.md of one root."""
    out = _intro(parts) + _partial_note(parts)
    out += _decisions(parts) + _proposals(parts) + _problems(parts)
    out += _coverage(parts) + _sources(parts) + _other_views(parts)
    return "\n".join(out).rstrip("\n") + "\n"


def _intro(parts: PageParts) -> list[str]:
    members = [s for s in parts.sources if s.role == "member" and s.unit is None]
    units = [s for s in parts.sources if s.unit is not None]
    title = f": {md_text(parts.title)}" if parts.title else ""
    counts = f"{len(members)} records" + (f", {len(units)} decision units" if units else "")
    return [
        MARKER,
        "",
        f"# Current decisions{title}",
        "",
        "> **A derived view.** This page gathers the decisions in effect from the records "
        "listed under [Sources](#sources). It decides nothing: the records stay "
        "authoritative, and a summary proves nothing about the code. Every record, archived "
        f"ones included, is in the [index]({href(parts.index_page)}).",
        "",
        f"Scope: {md_text(parts.view_scope.describe())} ({counts}).",
        "",
    ]


def _partial_note(parts: PageParts) -> list[str]:
    """What a partial plan re-checked, and how many sources it kept unchecked."""
    if parts.plan_scope.kind == "root" or not parts.kept:
        return []
    changed = (
        f" Of those, {len(parts.kept_changed)} changed since then and keep this view "
        f"stale: {md_text(', '.join(parts.kept_changed))}."
        if parts.kept_changed
        else ""
    )
    return [
        f"This version re-checked {md_text(parts.plan_scope.describe())}. The other "
        f"{len(parts.kept)} sources were kept from the view published before it, without "
        f"re-checking.{changed}",
        "",
    ]


def _block(item: Item) -> list[str]:
    return [start_marker(item.key), "", item.body, "", end_marker(item.key), ""]


def _decisions(parts: PageParts) -> list[str]:
    out = [f"## {SECTION_DECISIONS}", ""]
    decisions = parts.blocks(SECTION_DECISIONS)
    if not decisions:
        out += ["No decision in this scope is in effect.", ""]
    groups = sorted({i.group for i in decisions}, key=lambda g: (g == "General", g))
    for group in groups:
        if group:
            out += [f"### {group}", ""]
        for item in (i for i in decisions if i.group == group):
            out += _block(item)
    return out


def _proposals(parts: PageParts) -> list[str]:
    out = [f"## {SECTION_PROPOSALS}", ""]
    proposals = parts.blocks(SECTION_PROPOSALS)
    if not proposals:
        return [*out, "No open proposal in this scope.", ""]
    out += ["Proposals are not in effect; they show what may change.", ""]
    for item in proposals:
        out += _block(item)
    return out


def _problems(parts: PageParts) -> list[str]:
    out = [f"## {PART_PROBLEMS}", ""]
    if not parts.problems:
        return [*out, "No problem was found in the records of this scope.", ""]
    for p in parts.problems:
        where = f" ({md_text(p.where)})" if p.where else ""
        out.append(f"- **{p.code}** {p.severity.label}: {md_text(p.message)}{where}")
    return [*out, ""]


def _coverage(parts: PageParts) -> list[str]:
    out = [
        "## Coverage",
        "",
        "Where each source ended in this view.",
        "",
        "| Source | Status | Disposition | Part |",
        "|---|---|---|---|",
    ]
    for s in parts.sources:
        kept = " (kept, not re-checked)" if s.key in parts.kept else ""
        out.append(f"| {md_text(s.key)} | {s.status} | {s.disposition} | {md_text(s.part)}{kept} |")
    return out


def _sources(parts: PageParts) -> list[str]:
    out = [
        "",
        "## Sources",
        "",
        f"{len(parts.sources)} sources; `{mf.FILENAME}` beside this page holds their hashes, "
        "so the site can tell when this view no longer matches them.",
        "",
        "| Source | Record | sha256 |",
        "|---|---|---|",
    ]
    for s in parts.sources:
        out.append(
            f"| {md_text(s.key)} | [{md_text(s.path)}]({href(s.path)}) | `{s.sha256[:12]}` |"
        )
    return [*out, ""]


def _other_views(parts: PageParts) -> list[str]:
    if not parts.other_views:
        return []
    out = ["## Other views", ""]
    for rel, title in parts.other_views:
        out.append(f"- [{md_text(title)}]({href(rel)})")
    return [*out, ""]
