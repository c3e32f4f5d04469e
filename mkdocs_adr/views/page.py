"""What a record page shows besides its own text: header, banners, relations, pager.

Pure functions returning HTML strings. The caller (the MkDocs plugin, or any other
host) passes ``href``, which turns a record id into a URL relative to the page being
rendered (or ``None`` when the record has no page). Every piece of record-derived
text is escaped here, so a title such as ``<script>`` is shown, never run.

Banners are admonitions written as plain HTML (``<div class="admonition warning">``):
Material for MkDocs and the built-in ``mkdocs`` theme both style that markup, so no
Markdown extension is needed (docs/adr/0013). Which admonition, CSS name, title and
sentence each banner has is one table, :data:`BANNERS`; :data:`STATUS_BANNER` picks a
status's row, and the small functions after them only choose a situation (where the
successor chain leads, who contests a decision) and fill in the links it names.
"""

from __future__ import annotations

import functools
import html
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import lazy, rx
from ..graph import Edge, Succession
from ..log import Log
from ..model import OUT_OF_EFFECT, STATUSES, Problem, Record
from ..safetext import plain
from .hrefs import RecordHref
from .i18n import ENGLISH, Messages
from .kept import Kept

if TYPE_CHECKING:
    from ..parsing import status as status_text
    from . import graphdata
    from .graphdata import DrawnEdge, GraphData
else:  # drawn only when a page is made, not when a build replays (docs/adr/0060)
    graphdata = lazy.module("mkdocs_adr.views.graphdata")
    status_text = lazy.module("mkdocs_adr.parsing.status")

#: Admonition type per banner; these four are styled by both themes.
LEVELS = ("note", "info", "warning", "danger")


def esc(text: object) -> str:
    """``text`` as HTML text or attribute value: escaped, without control characters
    (a terminal's escape sequences in a title show as nothing, not as stray boxes)."""
    return _esc(str(text))


@functools.lru_cache(maxsize=1 << 16)
def _esc(text: str) -> str:
    # the same ids, titles and labels are escaped on many pages of a build
    return html.escape(plain(text), quote=True)


# ------------------------------------------------------------------------ context


@dataclass
class PageContext:
    """Per-build lookups shared by every page (computed once, not per page)."""

    log: Log
    graph: GraphData
    edges_by_node: dict[str, list[DrawnEdge]] = field(default_factory=dict)
    adjacency: dict[str, set[str]] = field(default_factory=dict)
    #: docs-relative root path -> its records in INDEX order (archive included)
    order: dict[str, list[Record]] = field(default_factory=dict)
    position: dict[str, int] = field(default_factory=dict)  # record path -> index
    #: record id -> its ADR017 problem (review-by date passed), judged when the log loaded
    reviews: dict[str, Problem] = field(default_factory=dict)
    #: record id -> the supersessions declared in prose about it, or by it, that the other
    #: record does not agree with (shown as a quiet note on both pages)
    declared: dict[str, list[Edge]] = field(default_factory=dict)
    #: the words of the site's language (:mod:`mkdocs_adr.views.i18n`)
    words: Messages = ENGLISH
    #: pieces every page of the build shares, made on first use (the pager's words,
    #: each record's search line and pager name): computed once a build, not once a page
    shared: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(
        cls,
        log: Log,
        words: Messages = ENGLISH,
        drawn: DrawnGraph | None = None,
        kept: Kept | None = None,
    ) -> PageContext:
        """The lookups of ``log``; ``drawn``: its :func:`drawn_graph`, when known;
        ``kept``: the order of the last build's records, reused by place when no record
        that is not the same object moved (:meth:`Kept.arranged`, ADR-0068)."""
        graph, edges, adjacency = drawn or drawn_graph(log)
        order: dict[str, list[Record]] = {}
        if kept is not None:
            for recs in kept.arranged("order", log.records, _order_reads, _by_root):
                order[recs[0].root] = recs
        else:
            for rec in sorted(log.records, key=sort_key):
                order.setdefault(rec.root, []).append(rec)
        position = {r.path: i for recs in order.values() for i, r in enumerate(recs)}
        reviews = {p.ids[0]: p for p in log.problems if p.code == "ADR017" and p.ids}
        declared: dict[str, list[Edge]] = defaultdict(list)
        for edge in log.graph.edges("supersedes"):
            if edge.one_sided_declaration:
                declared[edge.source].append(edge)
                declared[edge.target].append(edge)
        return cls(
            log,
            graph,
            edges,
            adjacency,
            order,
            position,
            reviews,
            dict(declared),
            words,
        )

    def neighbours_in_order(self, rec: Record) -> tuple[Record | None, Record | None]:
        recs = self.order.get(rec.root, [])
        i = self.position.get(rec.path)
        if i is None:
            return None, None
        prev = recs[i - 1] if i > 0 else None
        nxt = recs[i + 1] if i + 1 < len(recs) else None
        return prev, nxt


#: A log's drawn graph with its edges by node and its adjacency (:func:`drawn_graph`).
DrawnGraph = tuple["GraphData", dict[str, list["DrawnEdge"]], dict[str, set[str]]]


def drawn_graph(log: Log, nodes: Kept | None = None) -> DrawnGraph:
    """The graph the pages draw, its edges by node and its adjacency; made from the
    records' ids, titles, statuses and relations only, not their prose (``nodes``: as
    :func:`graphdata.build` keeps them)."""
    graph = graphdata.build(log, nodes)
    found = graph.shape.get("edges by node")  # (the same edges give the same)
    if not isinstance(found, tuple) or found[0] is not graph.edges:
        edges: dict[str, list[DrawnEdge]] = defaultdict(list)
        for e in graph.edges:
            edges[e.source].append(e)
            edges[e.target].append(e)
        found = graph.shape["edges by node"] = (graph.edges, dict(edges))
    return graph, found[1], graph.adjacency()


def sort_key(rec: Record) -> tuple[object, ...]:
    """INDEX order: by number, then id, then path."""
    return (rec.number is None, rec.number or 0, rec.id, rec.path)


def _order_reads(rec: Record) -> tuple[object, ...]:
    """What a record's place in :attr:`PageContext.order` reads: its root and sort key."""
    return (rec.root, rec.number, rec.id, rec.path)


def _by_root(records: Sequence[Record]) -> list[list[int]]:
    """The places of ``records`` in INDEX order (:func:`sort_key`), one list per root in
    the order each root's first record comes."""
    groups: dict[str, list[int]] = {}
    for i in sorted(range(len(records)), key=lambda i: sort_key(records[i])):
        groups.setdefault(records[i].root, []).append(i)
    return list(groups.values())


# ------------------------------------------------------------------------ pieces


#: The CSS classes of a status badge: ``adr-status adr-status--<status>``, styled by the
#: package's stylesheet (:mod:`mkdocs_adr.views.assets`); one style for the record
#: header, the INDEX, the timeline and the graphs.
BADGE_CLASS = "adr-status"


def badge_class(status: str) -> str:
    """``adr-status adr-status--superseded``: a known status, else ``--unknown``."""
    known = status if status in STATUSES else "unknown"
    return f"{BADGE_CLASS} {BADGE_CLASS}--{known}"


def badge(status: str, raw: str = "", words: Messages = ENGLISH) -> str:
    """A status badge in the site's language; the tooltip also gives the word as written.
    Made once per (status, word as written, catalogue): the header, the INDEX and the
    timeline show the same few badges a thousand times."""
    key = (status, raw, words.lang)
    found = _BADGES.get(key)
    if found is None or found[0] is not words.table:
        if len(_BADGES) >= _BADGES_MAX:
            _BADGES.clear()
        found = _BADGES[key] = (words.table, _badge(status, raw, words))
    return found[1]


_BADGES: dict[tuple[str, str, str], tuple[Mapping[str, str], str]] = {}
_BADGES_MAX = 4096


def _badge(status: str, raw: str, words: Messages) -> str:
    shown = words.status(status)
    tip = words.t("badge.tip", status=shown)
    if raw and raw.lower() != status:
        tip = words.t("badge.written", tip=tip, raw=raw)
    return f'<span class="{badge_class(status)}" title="{esc(tip)}">{esc(shown)}</span>'


#: Relation labels that name a record's successor: a successor not accepted says so.
SUCCESSOR_LABELS = frozenset({"superseded by", "partially superseded by"})


def pending_note(ctx: PageContext, rid: str) -> str:
    """`` (proposed)`` beside a successor that is not accepted (empty when it is)."""
    other = ctx.log.get(rid)
    if other is None:
        return ""
    status = ctx.log.status_of(other)
    if status == "accepted":
        return ""
    return f' <span class="adr-note adr-pending">({esc(ctx.words.status(status))})</span>'


def link(ctx: PageContext, rid: str, href: RecordHref, *, with_title: bool = True) -> str:
    rec = ctx.log.get(rid)
    text = rid if rec is None or not with_title else f"{rid} {rec.title}"
    url = href(rid)
    if url is None:
        return f'<span class="adr-ref">{esc(text)}</span>'
    return f'<a class="adr-ref" href="{esc(url)}">{esc(text)}</a>'


def admonition(level: str, name: str, title: str, body: str) -> str:
    """An admonition as both themes style it; ``body`` is trusted HTML."""
    assert level in LEVELS
    return (
        f'<div class="admonition {level} adr-banner adr-banner--{esc(name)}">'
        f'<p class="admonition-title">{esc(title)}</p><p>{body}</p></div>'
    )


def _list(ctx: PageContext, items: Sequence[str]) -> str:
    return ctx.words.join(items)


#: Material for MkDocs' page status (an icon beside a page in the navigation, with a
#: tooltip from ``extra.status``), used on purpose: a record page's ``status`` meta is
#: replaced by ``adr-<status>`` (none for an accepted record: no icon where nothing needs
#: saying), and the plugin adds these tooltips to ``extra.status``. The icons are the
#: package stylesheet's (``.md-status--adr-<status>``).
NAV_STATUS: dict[str, str] = {
    k: ENGLISH.t(f"nav.{k}")
    for k in ("proposed", "draft", "superseded", "deprecated", "rejected", "unknown", "missing")
}
#: The prefix of our page-status keys, so that a site's own ``status: new`` pages keep
#: Material's icons.
NAV_STATUS_PREFIX = "adr-"


def nav_status(rec: Record) -> str | None:
    """The page-status key of a record page (``adr-superseded``), None for accepted."""
    if rec.status == "accepted":
        return None
    return NAV_STATUS_PREFIX + (rec.status if rec.status in NAV_STATUS else "unknown")


def nav_status_tips(words: Messages = ENGLISH) -> dict[str, str]:
    """``extra.status`` entries for every page-status key :func:`nav_status` gives."""
    return {NAV_STATUS_PREFIX + k: words.t(f"nav.{k}") for k in NAV_STATUS}


# ------------------------------------------------------------------------ header


def header(ctx: PageContext, rec: Record, *, relations_slot: str = "") -> str:
    """The record header: id, status badge, date, domain, deciders. Search indexes it.

    ``relations_slot`` is placed where the relations go, so a host can fill them in
    after search indexing (they name other records, and would match their ids).
    """
    words = ctx.words
    fields = [
        f'<span class="adr-id">{esc(rec.id)}</span>',
        badge(rec.status, rec.raw_status, words),
    ]
    if rec.archived:
        fields.append(archived_tag(words))
    if rec.date:
        fields.append(_field(words.t("field.date"), rec.date))
    if rec.domain:
        fields.append(_field(words.t("field.domain"), rec.domain))
    if rec.parsed.deciders:
        fields.append(_field(words.t("field.deciders"), ", ".join(rec.parsed.deciders)))
    return (
        f'<div class="adr-header" data-adr-id="{esc(rec.id)}" '
        f'data-adr-status="{esc(rec.status)}">'
        f'<p class="adr-meta">{" ".join(fields)}</p>{relations_slot}</div>'
    )


def search_line(ctx: PageContext, rec: Record) -> str:
    """What search indexes of a record's header: the text of :func:`header`'s fields (id,
    status, archived, date, domain, deciders) in one paragraph without markup, which the
    host replaces by the header and the banners after indexing. Made once a build (the
    host asks before and after indexing)."""
    key = ("search", rec.path)
    found = ctx.shared.get(key)
    if found is None:
        found = ctx.shared[key] = _search_line(ctx.words, rec)
    return str(found)


def _search_line(words: Messages, rec: Record) -> str:
    fields = [rec.id, words.status(rec.status)]
    if rec.archived:
        fields.append(words.t("tag.archived"))
    for key, value in (
        ("field.date", rec.date),
        ("field.domain", rec.domain),
        ("field.deciders", ", ".join(rec.parsed.deciders)),
    ):
        if value:
            fields.append(f"{words.t(key)}: {value}")
    return f'<p class="adr-search-line">{esc(" ".join(fields))}</p>'


def archived_tag(words: Messages = ENGLISH) -> str:
    return f'<span class="adr-tag adr-tag--archived">{esc(words.t("tag.archived"))}</span>'


def _field(label: str, value: str) -> str:
    return f'<span class="adr-field">{esc(label)}: {esc(value)}</span>'


#: The order of relation rows on a record page; the current successor (0) comes first,
#: relations to things that are not records of the log (10) last.
RELATION_ORDER = {
    "superseded by": 1,
    "supersedes": 2,
    "partially superseded by": 2,
    "partially supersedes": 2,
    "amended by": 3,
    "amends": 4,
    "extended by": 5,
    "extends": 6,
    "depends on": 7,
    "depended on by": 8,
    "relates to": 9,
    "related to": 9,
}

_Row = tuple[int, str, str]  # order, label, trusted HTML


def relations(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    """Relations as links, the current successor first; units of a container after."""
    rows = _record_rows(ctx, rec, href) + _text_rows(ctx, rec)
    rows.sort(key=lambda r: r[0])
    out = []
    if rows:
        items = "".join(
            f'<li><span class="adr-label">{esc(label)}:</span> {value}</li>'
            for _, label, value in rows
        )
        out.append(f'<ul class="adr-relations">{items}</ul>')
    if rec.units:
        out.append(_units_table(ctx, rec))
    return "".join(out)


def _record_rows(ctx: PageContext, rec: Record, href: RecordHref) -> list[_Row]:
    """Relations to records of the log, each once, from the drawn graph's edges."""
    rows: list[_Row] = []
    seen: set[tuple[str, str]] = set()
    if not rec.units and rec.status == "superseded":
        succ = ctx.log.successor(rec.id)
        if succ.current:
            current = link(ctx, succ.current, href)
            rows.append((0, ctx.words.t("relation.current-successor"), current))
            seen.add(("superseded by", succ.current))
    for e in ctx.edges_by_node.get(rec.id, []):
        if e.source == rec.id:
            label, other = graphdata.FORWARD_LABEL[e.kind], e.target
        else:
            label, other = graphdata.INVERSE_LABEL[e.kind], e.source
        if e.kind == "relates-to":
            label = "relates to"
        unit = f" ({e.unit})" if e.unit else ""
        if (label, other + unit) in seen or ((label, other) in seen and not unit):
            continue
        seen.add((label, other + unit))
        value = link(ctx, other, href) + esc(unit)
        if label in SUCCESSOR_LABELS:
            value += pending_note(ctx, other)
        if e.declared:
            value += f' <span class="adr-note">({esc(ctx.words.t("relation.declared"))})</span>'
        shown = ctx.words.t("relation." + label.replace(" ", "-"))
        rows.append((RELATION_ORDER[label], shown, value))
    return rows


def _text_rows(ctx: PageContext, rec: Record) -> list[_Row]:
    """Relations to things that are not records of this log, shown as text."""
    rows: list[_Row] = []
    for rel in rec.relations:
        if rel.target_id is None and rel.kind != "mentions":
            kind = rel.verb or rel.kind.replace("-", " ")
            rows.append(
                (
                    10,
                    kind[:1].upper() + kind[1:],
                    f'<span class="adr-ref adr-ref--text" '
                    f'title="{esc(ctx.words.t("relation.outside"))}">'
                    f"{esc(rel.target)}</span>",
                )
            )
    return rows


def _units_table(ctx: PageContext, rec: Record) -> str:
    words = ctx.words
    cells = "".join(
        f"<tr><td>{esc(rec.id)}#{esc(u.key)}</td><td>{esc(u.title)}</td>"
        f"<td>{badge(u.status, u.raw_status, words)}</td></tr>"
        for u in rec.units
    )
    head = "".join(
        f"<th>{esc(words.t(k))}</th>" for k in ("field.unit", "field.decision", "field.status")
    )
    return (
        f'<div class="adr-units"><table><thead><tr>{head}</tr></thead><tbody>{cells}</tbody>'
        "</table></div>"
    )


# ------------------------------------------------------------------------ banners


@dataclass(frozen=True)
class Banner:
    """One banner: its admonition type, CSS name (``adr-banner--<name>``), title and
    sentence. ``{field}`` in the title is filled with text (escaped with the title),
    in the sentence with trusted HTML the situation functions below make. ``title`` and
    ``text`` are the English (``en.json``); in another language the catalogue's
    ``banner.<key>.title`` and ``banner.<key>.text`` are used."""

    level: str
    name: str
    title: str
    text: str
    key: str = ""

    def render(
        self, words: Messages = ENGLISH, title: Mapping[str, str] | None = None, **parts: str
    ) -> str:
        heading, text = self.title, self.text
        if self.key and words.lang != ENGLISH.lang:
            heading = words.table[f"banner.{self.key}.title"]
            text = words.table[f"banner.{self.key}.text"]
        return admonition(
            self.level, self.name, heading.format_map(title or {}), text.format_map(parts)
        )


def _banner(level: str, name: str, key: str) -> Banner:
    """A row of :data:`BANNERS`, its English from the catalogue."""
    return Banner(
        level,
        name,
        ENGLISH.table[f"banner.{key}.title"],
        ENGLISH.table[f"banner.{key}.text"],
        key,
    )


#: Every banner a record page can show, by situation: admonition type and CSS name
#: here, the words in the catalogues (``banner.<key>.title`` / ``.text``).
BANNERS: dict[str, Banner] = {
    key: _banner(level, name, key)
    for key, level, name in (
        # a status's own banner
        ("proposed", "info", "proposed"),
        ("draft", "note", "draft"),
        ("superseded", "warning", "superseded"),
        ("deprecated", "warning", "deprecated"),
        ("rejected", "danger", "rejected"),
        ("unknown", "warning", "unknown"),
        # an unknown status that is still the template's text (parsing.status.is_guidance)
        ("placeholder", "warning", "unknown"),
        # a quiet note, not an alarm: many logs never write a status (ADR020)
        ("missing", "note", "missing"),
        # where a superseded record's successor chain leads (graph.py decides it)
        ("superseded-current", "warning", "superseded"),
        ("superseded-chain", "warning", "superseded"),
        ("superseded-pending", "info", "superseded-pending"),
        ("superseded-ambiguous", "warning", "superseded-ambiguous"),
        ("superseded-cycle", "danger", "superseded-cycle"),
        # an accepted record whose successor is only proposed (or a draft): it stays in
        # effect (ADR-0025), so this is not the superseded banner
        ("replacement-proposed", "info", "replacement-proposed"),
        # an accepted record that others say they supersede
        ("contested", "warning", "contested"),
        # a record of decision units, some or all of them out of effect
        ("units-retired", "warning", "units-retired"),
        ("units-partial", "info", "units-partial"),
        # quiet notes, whatever the status: relations that retire nothing
        ("partially-superseded", "note", "partially-superseded"),
        ("partially-supersedes", "note", "partially-supersedes"),
        ("declared", "note", "declared"),
        # whatever the status
        ("review", "warning", "review"),
        ("archived", "note", "archived"),
        # a translation's page
        ("translation", "info", "translation"),
        ("translation-orphan", "note", "translation"),
    )
}

#: The banner of each status (a key of :data:`BANNERS`); None for a status in effect.
#: Every status of :data:`mkdocs_adr.model.STATUSES` is here: a new status without a
#: row is a KeyError, never a page without a banner.
STATUS_BANNER: dict[str, str | None] = {
    "accepted": None,
    "proposed": "proposed",
    "draft": "draft",
    "superseded": "superseded",
    "deprecated": "deprecated",
    "rejected": "rejected",
    "unknown": "unknown",
    "missing": "missing",
}


def banners(ctx: PageContext, rec: Record, href: RecordHref) -> list[str]:
    """Every banner the record needs, most important first (none when in effect)."""
    out = _unit_banners(ctx, rec, href) if rec.units else _status_banners(ctx, rec, href)
    out.extend(_notes(ctx, rec, href))
    review = ctx.reviews.get(rec.id)
    if review is not None:
        out.append(_review(ctx, review))
    if rec.archived:
        effect = ctx.words.t(
            "banner.archived.effect-in" if ctx.log.in_effect(rec) else "banner.archived.effect-out"
        )
        out.append(BANNERS["archived"].render(ctx.words, effect=effect))
    return out


def _status_banners(ctx: PageContext, rec: Record, href: RecordHref) -> list[str]:
    """The banner of the record's status, in the situation the record is in."""
    key = STATUS_BANNER[rec.status]  # first: a status without a row is a KeyError
    situation = _SITUATIONS.get(rec.status)
    if situation is not None:
        found = situation(ctx, rec, href)
        return [found] if found else []
    return [BANNERS[key].render(ctx.words)] if key else []


def _notes(ctx: PageContext, rec: Record, href: RecordHref) -> list[str]:
    """Quiet notes on relations that retire nothing: partial supersession both ways,
    and a supersession only one record declares in prose (naming who declares it)."""
    words = ctx.words
    edges = ctx.edges_by_node.get(rec.id, [])
    out = []
    older = sorted({e.source for e in edges if e.kind == _PARTIAL and e.target == rec.id})
    if older:
        names = _list(ctx, [link(ctx, r, href) for r in older])
        out.append(BANNERS["partially-superseded"].render(words, names=names))
    newer = sorted({e.target for e in edges if e.kind == _PARTIAL and e.source == rec.id})
    if newer:
        out.append(
            BANNERS["partially-supersedes"].render(
                words,
                names=_list(ctx, [link(ctx, r, href) for r in newer]),
                them=words.n("banner.partially-supersedes.them", len(newer)),
                stay=words.n("banner.partially-supersedes.stay", len(newer)),
            )
        )
    for e in ctx.declared.get(rec.id, ()):
        other = e.target if e.declared_by == e.source else e.source
        out.append(
            BANNERS["declared"].render(
                words,
                who=link(ctx, e.declared_by, href, with_title=False),
                new=link(ctx, e.source, href, with_title=False),
                old=link(ctx, e.target, href, with_title=False),
                other=link(ctx, other, href, with_title=False),
            )
        )
    return out


_PARTIAL = "partially-supersedes"


#: The statuses of a successor that make it a proposed replacement.
PENDING = frozenset({"proposed", "draft"})


def _accepted(ctx: PageContext, rec: Record, href: RecordHref) -> str | None:
    """An accepted record's banner: contested by an accepted successor, or a replacement
    proposed (none when nobody says they supersede it)."""
    contested = _contested(ctx, rec, href)
    if contested is not None:
        return contested
    pending = [
        s
        for s in ctx.log.graph.direct_successors(rec.id)
        if (other := ctx.log.get(s)) is not None and ctx.log.status_of(other) in PENDING
    ]
    if not pending:
        return None
    names = _list(ctx, [link(ctx, s, href) + pending_note(ctx, s) for s in pending])
    return BANNERS["replacement-proposed"].render(ctx.words, names=names)


def _contested(ctx: PageContext, rec: Record, href: RecordHref) -> str | None:
    rivals = ctx.log.graph.direct_successors(rec.id, accepted_only=True)
    if not rivals:
        return None
    return BANNERS["contested"].render(
        ctx.words,
        rivals=_list(ctx, [link(ctx, r, href) for r in rivals]),
        verb=ctx.words.n("banner.contested.verb", len(rivals)),
    )


def _deprecated(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    return BANNERS["deprecated"].render(ctx.words, replaced_by=_replaced_by(ctx, rec, href))


def _replaced_by(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    succ = ctx.log.graph.direct_successors(rec.id)
    if not succ:
        return ""
    names = _list(ctx, [link(ctx, s, href) for s in succ])
    return ctx.words.t("banner.deprecated.replaced-by", names=names)


def _unknown(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    key = "placeholder" if status_text.is_guidance(rec.raw_status) else "unknown"
    return BANNERS[key].render(ctx.words, raw=esc(rec.raw_status))


#: How the ``missing_status`` option counts a record without a status, as its page says
#: (the catalogue key ``banner.missing.counted-<how>``).
_COUNTED_AS = frozenset({"missing", "accepted", "proposed"})


def _missing(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    counted = ctx.log.status_of(rec)
    how = counted if counted in _COUNTED_AS else "missing"
    return BANNERS["missing"].render(
        ctx.words, counted=ctx.words.t(f"banner.missing.counted-{how}")
    )


def _superseded(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    """Where the successor chain leads, as graph.py decides it."""
    s = ctx.log.successor(rec.id)
    if s.state == "current" and s.current:
        return _succeeded(ctx, s, href)
    pick = _SUCCESSION.get(s.state)
    return pick(ctx, s, href) if pick is not None else _no_successor(ctx, rec)


def _succeeded(ctx: PageContext, s: Succession, href: RecordHref) -> str:
    assert s.current is not None
    current = link(ctx, s.current, href)
    if len(s.chain) > 1:
        via = " &rarr; ".join(link(ctx, c, href) for c in s.chain[:-1])
        return BANNERS["superseded-chain"].render(ctx.words, via=via, current=current)
    return BANNERS["superseded-current"].render(ctx.words, current=current)


def _candidates(ctx: PageContext, s: Succession, href: RecordHref) -> str:
    statuses = ctx.log.graph.statuses
    return _list(
        ctx,
        [
            f"{link(ctx, c, href)} ({esc(ctx.words.status(statuses.get(c, 'unknown')))})"
            for c in s.candidates
        ],
    )


def _pending(ctx: PageContext, s: Succession, href: RecordHref) -> str:
    words = ctx.words
    lead = (
        words.t(
            "banner.superseded-pending.lead-chain",
            chain=" &rarr; ".join(link(ctx, c, href) for c in s.chain),
        )
        if s.chain
        else words.t("banner.superseded-pending.lead-none")
    )
    return BANNERS["superseded-pending"].render(words, lead=lead, names=_candidates(ctx, s, href))


def _ambiguous(ctx: PageContext, s: Succession, href: RecordHref) -> str:
    return BANNERS["superseded-ambiguous"].render(ctx.words, names=_candidates(ctx, s, href))


def _cycle(ctx: PageContext, s: Succession, href: RecordHref) -> str:
    names = _list(ctx, [link(ctx, c, href) for c in s.candidates])
    return BANNERS["superseded-cycle"].render(ctx.words, names=names)


def _no_successor(ctx: PageContext, rec: Record) -> str:
    texts = [r.target for r in rec.relations if r.kind == "superseded-by" and r.target_id is None]
    tail = (
        ctx.words.t(
            "banner.superseded.tail-outside",
            names=_list(ctx, [f"<code>{esc(t)}</code>" for t in texts]),
        )
        if texts
        else ctx.words.t("banner.superseded.tail-none")
    )
    return BANNERS["superseded"].render(ctx.words, tail=tail)


def _review(ctx: PageContext, review: Problem) -> str:
    """The review banner; the problem's own message and fix are the engine's English."""
    message = esc(review.message[:1].upper() + review.message[1:])
    return BANNERS["review"].render(
        ctx.words, message=message, fix=esc(review.fix[:1].upper() + review.fix[1:])
    )


def _unit_banners(ctx: PageContext, rec: Record, href: RecordHref) -> list[str]:
    out_units = [u for u in rec.units if u.status in OUT_OF_EFFECT]
    if not out_units:
        return []
    words = ctx.words
    parts = []
    for u in out_units:
        who = ctx.log.graph.direct_successors(rec.id, u.key)
        unit, status = f"{esc(rec.id)}#{esc(u.key)}", esc(words.status(u.status))
        parts.append(
            words.t(
                "banner.units.part-by",
                unit=unit,
                status=status,
                names=_list(ctx, [link(ctx, w, href) for w in who]),
            )
            if who
            else words.t("banner.units.part", unit=unit, status=status)
        )
    key = "units-retired" if len(out_units) == len(rec.units) else "units-partial"
    return [BANNERS[key].render(words, units="; ".join(parts))]


_Situation = Callable[[PageContext, Record, RecordHref], str | None]
#: Statuses whose banner depends on the record's situation, not on the status alone.
_SITUATIONS: dict[str, _Situation] = {
    "accepted": _accepted,
    "superseded": _superseded,
    "deprecated": _deprecated,
    "unknown": _unknown,
    "missing": _missing,
}
#: What a superseded record's banner says when its chain does not end in a decision.
_SUCCESSION: dict[str, Callable[[PageContext, Succession, RecordHref], str]] = {
    "not-accepted": _pending,
    "ambiguous": _ambiguous,
    "cycle": _cycle,
}


# ------------------------------------------------------------------------ mirrors


def mirror_banner(ctx: PageContext, original: Record | None, lang: str, href: RecordHref) -> str:
    if original is None:
        return BANNERS["translation-orphan"].render(ctx.words, {"lang": lang})
    return BANNERS["translation"].render(
        ctx.words,
        {"lang": lang},
        original=link(ctx, original.id, href),
        status=esc(ctx.words.status(original.status)),
    )


def translations(items: Sequence[tuple[str, str]], words: Messages = ENGLISH) -> str:
    """Links from an original to its mirrors: ``(language, url)`` pairs."""
    if not items:
        return ""
    links = ", ".join(
        f'<a href="{esc(url)}" hreflang="{esc(lang)}">{esc(lang)}</a>' for lang, url in items
    )
    label = esc(words.t("field.translations"))
    return f'<p class="adr-translations"><span class="adr-label">{label}:</span> {links}</p>'


# ------------------------------------------------------------------------ footer


def pager(
    ctx: PageContext,
    rec: Record,
    href: RecordHref,
    *,
    index_href: str | None,
    graph_href: str | None,
    timeline_href: str | None = None,
) -> str:
    """Previous / next record in INDEX order, and the way back to the INDEX, timeline
    and graph."""
    prev, nxt = ctx.neighbours_in_order(rec)
    label, views = _pager_words(ctx)
    cells = []
    if prev is not None and (url := href(prev.id) if _linkable(ctx, prev) else None):
        cells.append(
            f'<a class="adr-prev" rel="prev" href="{esc(url)}">&larr; {_pager_name(ctx, prev)}</a>'
        )
    else:
        cells.append('<span class="adr-prev"></span>')
    middle = [
        f'<a class="adr-{kind}-link" href="{esc(url)}">{views[kind]}</a>'
        for kind, url in (("index", index_href), ("timeline", timeline_href), ("graph", graph_href))
        if url
    ]
    cells.append(f'<span class="adr-pager-views">{" &middot; ".join(middle)}</span>')
    if nxt is not None and (url := href(nxt.id) if _linkable(ctx, nxt) else None):
        cells.append(
            f'<a class="adr-next" rel="next" href="{esc(url)}">{_pager_name(ctx, nxt)} &rarr;</a>'
        )
    else:
        cells.append('<span class="adr-next"></span>')
    return f'<nav class="adr-pager" aria-label="{label}">{"".join(cells)}</nav>'


_PAGER_VIEWS = ("index", "timeline", "graph")


def view_bar(entries: list[tuple[str, str | None]], words: Messages) -> str:
    """The bar of a root's pages where its views are out of the navigation (ADR-0054):
    each entry's name (escaped by the caller) linked to its page, the page itself
    marked as the current one (``url`` None)."""
    cells = [
        f'<a href="{esc(url)}">{name}</a>'
        if url is not None
        else f'<strong aria-current="page">{name}</strong>'
        for name, url in entries
    ]
    label = esc(words.t("views.label"))
    return f'<nav class="adr-views" aria-label="{label}">{" &middot; ".join(cells)}</nav>'


def _pager_words(ctx: PageContext) -> tuple[str, dict[str, str]]:
    """The pager's label and the names of its view links, escaped, once a build."""
    found = ctx.shared.get("pager")
    if found is None:
        words = ctx.words
        found = ctx.shared["pager"] = (
            esc(words.t("pager.label")),
            {kind: esc(words.t("pager." + kind)) for kind in _PAGER_VIEWS},
        )
    return found  # type: ignore[return-value]


def _linkable(ctx: PageContext, rec: Record) -> bool:
    """Whether the pager may link ``rec``: its id names it alone."""
    return ctx.log.get(rec.id) is not None


def _pager_name(ctx: PageContext, rec: Record) -> str:
    """``id title`` of a neighbour as the pager shows it (escaped), once a build: each
    record is named by the pages before and after it."""
    key = ("pager", rec.path)
    found = ctx.shared.get(key)
    if found is None:
        found = ctx.shared[key] = f"{esc(rec.id)} {esc(rec.title)}"
    return str(found)


def local_graph(
    svg: str, *, hops: int, more: int, graph_href: str | None, words: Messages = ENGLISH
) -> str:
    if not svg:
        return ""
    more_text = " " + esc(words.n("local.more", more)) if more else ""
    full = f' <a href="{esc(graph_href)}">{esc(words.t("local.whole"))}</a>.' if graph_href else ""
    return (
        '<div class="adr-local-graph">'
        f'<p class="adr-local-graph-title"><strong>{esc(words.t("local.title"))}</strong> '
        f"{esc(words.n('local.hops', hops))}{more_text}{full}</p>"
        f'<div class="adr-graph">{svg}</div></div>'
    )


# ------------------------------------------------------------------------ titles

_FENCE = rx.compile(r"^\s{0,3}(```|~~~)")
_ATX_H1 = rx.compile(r"^(\s{0,3}#[ \t]+)(.*?)([ \t]+#+[ \t]*)?$")
_SETEXT = rx.compile(r"^\s{0,3}=+\s*$")
_CODE_SPAN = rx.compile(r"(`+)(.+?)\1")


def escape_html_text(text: str) -> str:
    """Neutralize ``<`` and ``>`` outside code spans so Markdown shows them as text."""
    out = []
    last = 0
    for m in _CODE_SPAN.finditer(text):
        out.append(text[last : m.start()].replace("<", "&lt;").replace(">", "&gt;"))
        out.append(m.group(0))
        last = m.end()
    out.append(text[last:].replace("<", "&lt;").replace(">", "&gt;"))
    return "".join(out)


_FIRST_H1 = rx.compile(r"^\s{0,3}#[ \t]+([^\n]*)$", re.M)


def escape_first_heading(markdown: str) -> str:
    """The page's first level-1 heading with raw HTML shown as text (titles are text)."""
    quick = _FIRST_H1.search(markdown)
    if quick is not None and "<" not in quick.group(1) and ">" not in quick.group(1):
        before = markdown[: quick.start()]
        if "```" not in before and "~~~" not in before and "\n=" not in before:
            return markdown  # the usual case: a plain title, nothing to escape
    lines = markdown.split("\n")
    fence: str | None = None
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if m:
            fence = None if fence == m.group(1) else (fence or m.group(1))
            continue
        if fence:
            continue
        h = _ATX_H1.match(line)
        if h and not line.lstrip().startswith("##"):
            if "<" in h.group(2) or ">" in h.group(2):
                lines[i] = h.group(1) + escape_html_text(h.group(2)) + (h.group(3) or "")
            return "\n".join(lines)
        if (
            line.strip()
            and i + 1 < len(lines)
            and _SETEXT.match(lines[i + 1])
            and (i == 0 or not lines[i - 1].strip())
        ):
            if "<" in line or ">" in line:
                lines[i] = escape_html_text(line)
            return "\n".join(lines)
    return markdown


_MD_ESCAPE = rx.compile(r"\\([\\`*_\[\]|#])")


def first_heading_text(markdown: str) -> str | None:
    """The first ``# heading`` of Markdown we generated, as HTML text (escapes kept as
    entities, Markdown backslash escapes removed)."""
    for line in markdown.split("\n"):
        if line.startswith("# "):
            return _MD_ESCAPE.sub(r"\1", line[2:].strip())
    return None


def page_title(rec: Record, current: str | None) -> str:
    """The navigation and ``<title>`` text of a record page, HTML-escaped (themes print
    it raw): ``ADR-0003: Title`` for numbered records, so ids read and search alike."""
    base = (current or "").strip() or rec.title or rec.id
    if rec.number is not None and not base.upper().startswith(rec.id.upper()):
        base = f"{rec.id}: {rec.title or base}"
    return esc(base)
