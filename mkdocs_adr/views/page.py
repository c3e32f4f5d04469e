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

import html
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..graph import Edge, Succession
from ..log import Log
from ..model import OUT_OF_EFFECT, STATUSES, Problem, Record, status_label
from ..parsing.status import is_guidance
from ..safetext import plain
from . import graphdata
from .graphdata import DECLARED_LABEL, FORWARD_LABEL, INVERSE_LABEL, DrawnEdge, GraphData
from .hrefs import RecordHref

#: Admonition type per banner; these four are styled by both themes.
LEVELS = ("note", "info", "warning", "danger")


def esc(text: object) -> str:
    """``text`` as HTML text or attribute value: escaped, without control characters
    (a terminal's escape sequences in a title show as nothing, not as stray boxes)."""
    return html.escape(plain(str(text)), quote=True)


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

    @classmethod
    def build(cls, log: Log) -> PageContext:
        graph = graphdata.build(log)
        edges: dict[str, list[DrawnEdge]] = defaultdict(list)
        for e in graph.edges:
            edges[e.source].append(e)
            edges[e.target].append(e)
        order: dict[str, list[Record]] = defaultdict(list)
        for rec in sorted(log.records, key=sort_key):
            order[rec.root].append(rec)
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
            dict(edges),
            graph.adjacency(),
            dict(order),
            position,
            reviews,
            dict(declared),
        )

    def neighbours_in_order(self, rec: Record) -> tuple[Record | None, Record | None]:
        recs = self.order.get(rec.root, [])
        i = self.position.get(rec.path)
        if i is None:
            return None, None
        prev = recs[i - 1] if i > 0 else None
        nxt = recs[i + 1] if i + 1 < len(recs) else None
        return prev, nxt


def sort_key(rec: Record) -> tuple[object, ...]:
    """INDEX order: by number, then id, then path."""
    return (rec.number is None, rec.number or 0, rec.id, rec.path)


# ------------------------------------------------------------------------ pieces


#: The CSS classes of a status badge: ``adr-status adr-status--<status>``, styled by the
#: package's stylesheet (:mod:`mkdocs_adr.views.assets`); one style for the record
#: header, the INDEX, the timeline and the graphs.
BADGE_CLASS = "adr-status"


def badge_class(status: str) -> str:
    """``adr-status adr-status--superseded``: a known status, else ``--unknown``."""
    known = status if status in STATUSES else "unknown"
    return f"{BADGE_CLASS} {BADGE_CLASS}--{known}"


def badge(status: str, raw: str = "") -> str:
    shown = status_label(status)
    tip = f"Status: {shown}" + (f" (written: {raw})" if raw and raw.lower() != status else "")
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
    return f' <span class="adr-note adr-pending">({esc(status_label(status))})</span>'


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


def _list(items: Sequence[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


#: Material for MkDocs' page status (an icon beside a page in the navigation, with a
#: tooltip from ``extra.status``), used on purpose: a record page's ``status`` meta is
#: replaced by ``adr-<status>`` (none for an accepted record: no icon where nothing needs
#: saying), and the plugin adds these tooltips to ``extra.status``. The icons are the
#: package stylesheet's (``.md-status--adr-<status>``).
NAV_STATUS: dict[str, str] = {
    "proposed": "Proposed: not in effect yet",
    "draft": "Draft: not in effect",
    "superseded": "Superseded: its page names the successor",
    "deprecated": "Deprecated: no longer in effect",
    "rejected": "Rejected: never in effect",
    "unknown": "Status not understood: see the page",
    "missing": "Status not recorded",
}
#: The prefix of our page-status keys, so that a site's own ``status: new`` pages keep
#: Material's icons.
NAV_STATUS_PREFIX = "adr-"


def nav_status(rec: Record) -> str | None:
    """The page-status key of a record page (``adr-superseded``), None for accepted."""
    if rec.status == "accepted":
        return None
    return NAV_STATUS_PREFIX + (rec.status if rec.status in NAV_STATUS else "unknown")


def nav_status_tips() -> dict[str, str]:
    """``extra.status`` entries for every page-status key :func:`nav_status` gives."""
    return {NAV_STATUS_PREFIX + k: v for k, v in NAV_STATUS.items()}


# ------------------------------------------------------------------------ header


def header(ctx: PageContext, rec: Record, *, relations_slot: str = "") -> str:
    """The record header: id, status badge, date, domain, deciders. Search indexes it.

    ``relations_slot`` is placed where the relations go, so a host can fill them in
    after search indexing (they name other records, and would match their ids).
    """
    fields = [
        f'<span class="adr-id">{esc(rec.id)}</span>',
        badge(rec.status, rec.raw_status),
    ]
    if rec.archived:
        fields.append('<span class="adr-tag adr-tag--archived">archived</span>')
    if rec.date:
        fields.append(_field("Date", rec.date))
    if rec.domain:
        fields.append(_field("Domain", rec.domain))
    if rec.parsed.deciders:
        fields.append(_field("Deciders", ", ".join(rec.parsed.deciders)))
    return (
        f'<div class="adr-header" data-adr-id="{esc(rec.id)}" '
        f'data-adr-status="{esc(rec.status)}">'
        f'<p class="adr-meta">{" ".join(fields)}</p>{relations_slot}</div>'
    )


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
    rows = _record_rows(ctx, rec, href) + _text_rows(rec)
    rows.sort(key=lambda r: r[0])
    out = []
    if rows:
        items = "".join(
            f'<li><span class="adr-label">{esc(label)}:</span> {value}</li>'
            for _, label, value in rows
        )
        out.append(f'<ul class="adr-relations">{items}</ul>')
    if rec.units:
        out.append(_units_table(rec))
    return "".join(out)


def _record_rows(ctx: PageContext, rec: Record, href: RecordHref) -> list[_Row]:
    """Relations to records of the log, each once, from the drawn graph's edges."""
    rows: list[_Row] = []
    succ = ctx.log.successor(rec.id)
    seen: set[tuple[str, str]] = set()
    if succ.current and not rec.units and rec.status == "superseded":
        rows.append((0, "Current successor", link(ctx, succ.current, href)))
        seen.add(("superseded by", succ.current))
    for e in ctx.edges_by_node.get(rec.id, []):
        if e.source == rec.id:
            label, other = FORWARD_LABEL[e.kind], e.target
        else:
            label, other = INVERSE_LABEL[e.kind], e.source
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
            value += f' <span class="adr-note">({esc(DECLARED_LABEL)})</span>'
        rows.append((RELATION_ORDER[label], label.capitalize(), value))
    return rows


def _text_rows(rec: Record) -> list[_Row]:
    """Relations to things that are not records of this log, shown as text."""
    rows: list[_Row] = []
    for rel in rec.relations:
        if rel.target_id is None and rel.kind != "mentions":
            kind = rel.verb or rel.kind.replace("-", " ")
            rows.append(
                (
                    10,
                    kind[:1].upper() + kind[1:],
                    f'<span class="adr-ref adr-ref--text" title="not an ADR in this log">'
                    f"{esc(rel.target)}</span>",
                )
            )
    return rows


def _units_table(rec: Record) -> str:
    cells = "".join(
        f"<tr><td>{esc(rec.id)}#{esc(u.key)}</td><td>{esc(u.title)}</td>"
        f"<td>{badge(u.status, u.raw_status)}</td></tr>"
        for u in rec.units
    )
    return (
        '<div class="adr-units"><table><thead><tr><th>Unit</th><th>Decision</th>'
        f"<th>Status</th></tr></thead><tbody>{cells}</tbody></table></div>"
    )


# ------------------------------------------------------------------------ banners


@dataclass(frozen=True)
class Banner:
    """One banner: its admonition type, CSS name (``adr-banner--<name>``), title and
    sentence. ``{field}`` in the title is filled with text (escaped with the title),
    in the sentence with trusted HTML the situation functions below make."""

    level: str
    name: str
    title: str
    text: str

    def render(self, title: Mapping[str, str] | None = None, **parts: str) -> str:
        return admonition(
            self.level, self.name, self.title.format_map(title or {}), self.text.format_map(parts)
        )


#: Every banner a record page can show, by situation.
BANNERS: dict[str, Banner] = {
    # a status's own banner
    "proposed": Banner(
        "info", "proposed", "Proposed", "This decision is proposed and not in effect."
    ),
    "draft": Banner("note", "draft", "Draft", "This decision is a draft and not in effect."),
    "superseded": Banner(
        "warning", "superseded", "Superseded", "This decision is no longer in effect.{tail}"
    ),
    "deprecated": Banner(
        "warning", "deprecated", "Deprecated", "This decision is no longer in effect.{replaced_by}"
    ),
    "rejected": Banner(
        "danger",
        "rejected",
        "Rejected",
        "This decision was considered and rejected; it was never in effect.",
    ),
    "unknown": Banner(
        "warning",
        "unknown",
        "Unknown status",
        "The status <code>{raw}</code> is not one mkdocs-adr knows, so this page cannot say "
        "whether the decision is in effect.",
    ),
    # an unknown status that is still the template's text (parsing.status.is_guidance)
    "placeholder": Banner(
        "warning",
        "unknown",
        "Status not filled in",
        "The status is still the template's placeholder <code>{raw}</code>, so this page "
        "cannot say whether the decision is in effect.",
    ),
    # a quiet note, not an alarm: many logs never write a status (ADR020)
    "missing": Banner(
        "note",
        "missing",
        "Status not recorded",
        "This record does not state its status.{counted}",
    ),
    # where a superseded record's successor chain leads (graph.py decides it)
    "superseded-current": Banner(
        "warning",
        "superseded",
        "Superseded",
        "This decision is no longer in effect. It was superseded by {current}, the decision "
        "in effect now.",
    ),
    "superseded-chain": Banner(
        "warning",
        "superseded",
        "Superseded",
        "This decision is no longer in effect. It was superseded by {via}, which was "
        "superseded in turn; the decision in effect now is {current}.",
    ),
    "superseded-pending": Banner(
        "info",
        "superseded-pending",
        "Superseded only by a proposal: still in effect",
        "This record is marked superseded. {lead}successor {names} is not accepted, so this "
        "decision stays in effect until a successor is.",
    ),
    "superseded-ambiguous": Banner(
        "warning",
        "superseded-ambiguous",
        "Superseded: successor unclear",
        "This decision is no longer in effect, and more than one record claims to replace "
        "it: {names}. Which one is in effect is not decided.",
    ),
    "superseded-cycle": Banner(
        "danger",
        "superseded-cycle",
        "Superseded: cycle",
        "This record is part of a supersession cycle ({names}), so no decision in effect "
        "can be named.",
    ),
    # an accepted record whose successor is only proposed (or a draft): it stays in
    # effect (ADR-0025), so this is not the superseded banner
    "replacement-proposed": Banner(
        "info",
        "replacement-proposed",
        "A replacement is proposed",
        "A replacement is proposed: {names}. This decision stays in effect until a "
        "successor is accepted.",
    ),
    # an accepted record that others say they supersede
    "contested": Banner(
        "warning",
        "contested",
        "Contested",
        "{rivals} {verb} this decision, which still says it is accepted.",
    ),
    # a record of decision units, some or all of them out of effect
    "units-retired": Banner(
        "warning",
        "units-retired",
        "No longer in effect",
        "Every decision unit of this record is out of effect: {units}.",
    ),
    "units-partial": Banner(
        "info",
        "units-partial",
        "Partly out of effect",
        "Some decision units of this record are no longer in effect: {units}. The others "
        "still are.",
    ),
    # quiet notes, whatever the status: relations that retire nothing
    "partially-superseded": Banner(
        "note",
        "partially-superseded",
        "Partially superseded",
        "Partially superseded by {names}: parts of this decision were replaced; the rest "
        "stays in effect.",
    ),
    "partially-supersedes": Banner(
        "note",
        "partially-supersedes",
        "Partially supersedes",
        "Partially supersedes {names}: this decision replaces parts of {them}, which "
        "otherwise {stay} in effect.",
    ),
    "declared": Banner(
        "note",
        "declared",
        "Declared in prose",
        "{who} declares in prose that {new} supersedes {old}, but {other} does not say so; "
        "{old} stays in effect until both records agree.",
    ),
    # whatever the status
    "review": Banner("warning", "review", "Review overdue", "{message}. {fix}."),
    "archived": Banner(
        "note",
        "archived",
        "Archived",
        "This record was moved to the archive. It stays in the log, the INDEX and the graphs "
        "for its history{effect}",
    ),
    # a translation's page
    "translation": Banner(
        "info",
        "translation",
        "Translation ({lang})",
        "This page is a translation of {original} (status: {status}). The original is "
        "authoritative; if the two differ, the original holds.",
    ),
    "translation-orphan": Banner(
        "note",
        "translation",
        "Translation ({lang})",
        "This page is a translation. Its original record was not found in the log, so it is "
        "not authoritative.",
    ),
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
        out.append(_review(review))
    if rec.archived:
        effect = "." if not ctx.log.in_effect(rec) else ", and it is still marked in effect."
        out.append(BANNERS["archived"].render(effect=effect))
    return out


def _status_banners(ctx: PageContext, rec: Record, href: RecordHref) -> list[str]:
    """The banner of the record's status, in the situation the record is in."""
    key = STATUS_BANNER[rec.status]  # first: a status without a row is a KeyError
    situation = _SITUATIONS.get(rec.status)
    if situation is not None:
        found = situation(ctx, rec, href)
        return [found] if found else []
    return [BANNERS[key].render()] if key else []


def _notes(ctx: PageContext, rec: Record, href: RecordHref) -> list[str]:
    """Quiet notes on relations that retire nothing: partial supersession both ways,
    and a supersession only one record declares in prose (naming who declares it)."""
    edges = ctx.edges_by_node.get(rec.id, [])
    out = []
    older = sorted({e.source for e in edges if e.kind == _PARTIAL and e.target == rec.id})
    if older:
        names = _list([link(ctx, r, href) for r in older])
        out.append(BANNERS["partially-superseded"].render(names=names))
    newer = sorted({e.target for e in edges if e.kind == _PARTIAL and e.source == rec.id})
    if newer:
        out.append(
            BANNERS["partially-supersedes"].render(
                names=_list([link(ctx, r, href) for r in newer]),
                them="it" if len(newer) == 1 else "them",
                stay="stays" if len(newer) == 1 else "stay",
            )
        )
    for e in ctx.declared.get(rec.id, ()):
        other = e.target if e.declared_by == e.source else e.source
        out.append(
            BANNERS["declared"].render(
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
    names = _list([link(ctx, s, href) + pending_note(ctx, s) for s in pending])
    return BANNERS["replacement-proposed"].render(names=names)


def _contested(ctx: PageContext, rec: Record, href: RecordHref) -> str | None:
    rivals = ctx.log.graph.direct_successors(rec.id, accepted_only=True)
    if not rivals:
        return None
    verb = "says it supersedes" if len(rivals) == 1 else "say they supersede"
    return BANNERS["contested"].render(
        rivals=_list([link(ctx, r, href) for r in rivals]), verb=verb
    )


def _deprecated(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    return BANNERS["deprecated"].render(replaced_by=_replaced_by(ctx, rec, href))


def _replaced_by(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    succ = ctx.log.graph.direct_successors(rec.id)
    if not succ:
        return ""
    return " It is replaced by " + _list([link(ctx, s, href) for s in succ]) + "."


def _unknown(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    key = "placeholder" if is_guidance(rec.raw_status) else "unknown"
    return BANNERS[key].render(raw=esc(rec.raw_status))


#: How the ``missing_status`` option counts a record without a status, as its page says.
_COUNTED_AS = {
    "missing": " It is not counted as in effect.",
    "accepted": " This site counts such records as accepted, in effect (missing_status).",
    "proposed": " This site counts such records as proposals, not in effect (missing_status).",
}


def _missing(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    counted = ctx.log.status_of(rec)
    return BANNERS["missing"].render(counted=_COUNTED_AS.get(counted, _COUNTED_AS["missing"]))


def _superseded(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    """Where the successor chain leads, as graph.py decides it."""
    s = ctx.log.successor(rec.id)
    if s.state == "current" and s.current:
        return _succeeded(ctx, s, href)
    pick = _SUCCESSION.get(s.state)
    return pick(ctx, s, href) if pick is not None else _no_successor(rec)


def _succeeded(ctx: PageContext, s: Succession, href: RecordHref) -> str:
    assert s.current is not None
    current = link(ctx, s.current, href)
    if len(s.chain) > 1:
        via = " → ".join(link(ctx, c, href) for c in s.chain[:-1])
        return BANNERS["superseded-chain"].render(via=via, current=current)
    return BANNERS["superseded-current"].render(current=current)


def _candidates(ctx: PageContext, s: Succession, href: RecordHref) -> str:
    statuses = ctx.log.graph.statuses
    return _list(
        [f"{link(ctx, c, href)} ({esc(statuses.get(c, 'unknown'))})" for c in s.candidates]
    )


def _pending(ctx: PageContext, s: Succession, href: RecordHref) -> str:
    lead = (
        "It was superseded by " + " → ".join(link(ctx, c, href) for c in s.chain) + ", whose "
        if s.chain
        else "Its "
    )
    return BANNERS["superseded-pending"].render(lead=lead, names=_candidates(ctx, s, href))


def _ambiguous(ctx: PageContext, s: Succession, href: RecordHref) -> str:
    return BANNERS["superseded-ambiguous"].render(names=_candidates(ctx, s, href))


def _cycle(ctx: PageContext, s: Succession, href: RecordHref) -> str:
    names = _list([link(ctx, c, href) for c in s.candidates])
    return BANNERS["superseded-cycle"].render(names=names)


def _no_successor(rec: Record) -> str:
    texts = [r.target for r in rec.relations if r.kind == "superseded-by" and r.target_id is None]
    tail = (
        " It names a successor that is not a record of this log: "
        + _list([f"<code>{esc(t)}</code>" for t in texts])
        + "."
        if texts
        else " No successor is recorded."
    )
    return BANNERS["superseded"].render(tail=tail)


def _review(review: Problem) -> str:
    message = esc(review.message[:1].upper() + review.message[1:])
    return BANNERS["review"].render(
        message=message, fix=esc(review.fix[:1].upper() + review.fix[1:])
    )


def _unit_banners(ctx: PageContext, rec: Record, href: RecordHref) -> list[str]:
    out_units = [u for u in rec.units if u.status in OUT_OF_EFFECT]
    if not out_units:
        return []
    parts = []
    for u in out_units:
        who = ctx.log.graph.direct_successors(rec.id, u.key)
        tail = f" by {_list([link(ctx, w, href) for w in who])}" if who else ""
        parts.append(f"{esc(rec.id)}#{esc(u.key)} is {esc(u.status)}{tail}")
    key = "units-retired" if len(out_units) == len(rec.units) else "units-partial"
    return [BANNERS[key].render(units="; ".join(parts))]


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
        return BANNERS["translation-orphan"].render({"lang": lang})
    return BANNERS["translation"].render(
        {"lang": lang}, original=link(ctx, original.id, href), status=esc(original.status)
    )


def translations(items: Sequence[tuple[str, str]]) -> str:
    """Links from an original to its mirrors: ``(language, url)`` pairs."""
    if not items:
        return ""
    links = ", ".join(
        f'<a href="{esc(url)}" hreflang="{esc(lang)}">{esc(lang)}</a>' for lang, url in items
    )
    return f'<p class="adr-translations"><span class="adr-label">Translations:</span> {links}</p>'


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
    cells = []
    if prev is not None and (url := href(prev.id) if ctx.log.get(prev.id) else None):
        cells.append(
            f'<a class="adr-prev" rel="prev" href="{esc(url)}">← {esc(prev.id)} '
            f"{esc(prev.title)}</a>"
        )
    else:
        cells.append('<span class="adr-prev"></span>')
    middle = []
    if index_href:
        middle.append(f'<a class="adr-index-link" href="{esc(index_href)}">Index</a>')
    if timeline_href:
        middle.append(f'<a class="adr-timeline-link" href="{esc(timeline_href)}">Timeline</a>')
    if graph_href:
        middle.append(f'<a class="adr-graph-link" href="{esc(graph_href)}">Graph</a>')
    cells.append(f'<span class="adr-pager-views">{" · ".join(middle)}</span>')
    if nxt is not None and (url := href(nxt.id) if ctx.log.get(nxt.id) else None):
        cells.append(
            f'<a class="adr-next" rel="next" href="{esc(url)}">{esc(nxt.id)} {esc(nxt.title)} →</a>'
        )
    else:
        cells.append('<span class="adr-next"></span>')
    return f'<nav class="adr-pager" aria-label="Decision records">{"".join(cells)}</nav>'


def local_graph(svg: str, *, hops: int, more: int, graph_href: str | None) -> str:
    if not svg:
        return ""
    more_text = (
        f" {more} more record{'s' if more != 1 else ''} within reach are left out." if more else ""
    )
    full = f' <a href="{esc(graph_href)}">Whole graph</a>.' if graph_href else ""
    return (
        '<div class="adr-local-graph">'
        f'<p class="adr-local-graph-title"><strong>Related decisions</strong> '
        f"(within {hops} hop{'s' if hops != 1 else ''}).{more_text}{full}</p>"
        f'<div class="adr-graph">{svg}</div></div>'
    )


# ------------------------------------------------------------------------ titles

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_ATX_H1 = re.compile(r"^(\s{0,3}#[ \t]+)(.*?)([ \t]+#+[ \t]*)?$")
_SETEXT = re.compile(r"^\s{0,3}=+\s*$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")


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


_FIRST_H1 = re.compile(r"^\s{0,3}#[ \t]+([^\n]*)$", re.M)


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


_MD_ESCAPE = re.compile(r"\\([\\`*_\[\]|#])")


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
