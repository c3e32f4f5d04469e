"""What a record page shows besides its own text: header, banners, relations, pager.

Pure functions returning HTML strings. The caller (the MkDocs plugin, or any other
host) passes ``href``, which turns a record id into a URL relative to the page being
rendered (or ``None`` when the record has no page). Every piece of record-derived
text is escaped here, so a title such as ``<script>`` is shown, never run.

Banners are admonitions written as plain HTML (``<div class="admonition warning">``):
Material for MkDocs and the built-in ``mkdocs`` theme both style that markup, so no
Markdown extension is needed (docs/adr/0013).
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..log import Log
from ..model import OUT_OF_EFFECT, Problem, Record
from . import graphdata
from .graphdata import FORWARD_LABEL, INVERSE_LABEL, DrawnEdge, GraphData
from .hrefs import RecordHref

#: Admonition type per banner; these four are styled by both themes.
LEVELS = ("note", "info", "warning", "danger")


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


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
        return cls(log, graph, dict(edges), graph.adjacency(), dict(order), position, reviews)

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


def badge(status: str, raw: str = "") -> str:
    tip = f"Status: {status}" + (f" (written: {raw})" if raw and raw.lower() != status else "")
    return (
        f'<span class="adr-badge adr-badge--{esc(status)}" title="{esc(tip)}">{esc(status)}</span>'
    )


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


def relations(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    """Relations as links, the current successor first; units of a container after."""
    rows: list[tuple[int, str, str]] = []
    succ = ctx.log.successor(rec.id)
    seen: set[tuple[str, str]] = set()
    if succ.current and not rec.units and rec.status == "superseded":
        rows.append((0, "Current successor", link(ctx, succ.current, href)))
        seen.add(("superseded by", succ.current))
    order = {
        "superseded by": 1,
        "supersedes": 2,
        "amended by": 3,
        "amends": 4,
        "extended by": 5,
        "extends": 6,
        "depends on": 7,
        "depended on by": 8,
        "relates to": 9,
        "related to": 9,
    }
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
        rows.append((order[label], label.capitalize(), link(ctx, other, href) + esc(unit)))
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
    rows.sort(key=lambda r: r[0])
    out = []
    if rows:
        items = "".join(
            f'<li><span class="adr-label">{esc(label)}:</span> {value}</li>'
            for _, label, value in rows
        )
        out.append(f'<ul class="adr-relations">{items}</ul>')
    if rec.units:
        cells = "".join(
            f"<tr><td>{esc(rec.id)}#{esc(u.key)}</td><td>{esc(u.title)}</td>"
            f"<td>{badge(u.status, u.raw_status)}</td></tr>"
            for u in rec.units
        )
        out.append(
            '<div class="adr-units"><table><thead><tr><th>Unit</th><th>Decision</th>'
            f"<th>Status</th></tr></thead><tbody>{cells}</tbody></table></div>"
        )
    return "".join(out)


# ------------------------------------------------------------------------ banners


def banners(ctx: PageContext, rec: Record, href: RecordHref) -> list[str]:
    """Every banner the record needs, most important first (none when in effect)."""
    log = ctx.log
    out: list[str] = []
    status = rec.status

    def L(rid: str) -> str:
        return link(ctx, rid, href)

    if rec.units:
        out.extend(_unit_banners(ctx, rec, href))
    elif status == "superseded":
        out.append(_superseded(ctx, rec, href))
    elif status == "deprecated":
        more = _replaced_by(ctx, rec, href)
        out.append(
            admonition(
                "warning",
                "deprecated",
                "Deprecated",
                "This decision is no longer in effect." + more,
            )
        )
    elif status == "rejected":
        out.append(
            admonition(
                "danger",
                "rejected",
                "Rejected",
                "This decision was considered and rejected; it was never in effect.",
            )
        )
    elif status == "proposed":
        out.append(
            admonition(
                "info",
                "proposed",
                "Proposed",
                "This decision is proposed and not in effect.",
            )
        )
    elif status == "draft":
        out.append(
            admonition("note", "draft", "Draft", "This decision is a draft and not in effect.")
        )
    elif status == "unknown":
        out.append(
            admonition(
                "warning",
                "unknown",
                "Unknown status",
                f"The status <code>{esc(rec.raw_status)}</code> is not one mkdocs-adr "
                "knows, so this page cannot say whether the decision is in effect.",
            )
        )
    elif status == "missing":
        out.append(
            admonition(
                "warning",
                "missing",
                "No status",
                "This record states no status, so it is not treated as in effect.",
            )
        )
    elif status == "accepted":
        rivals = log.graph.direct_successors(rec.id, accepted_only=True)
        if rivals:
            out.append(
                admonition(
                    "warning",
                    "contested",
                    "Contested",
                    f"{_list([L(r) for r in rivals])} "
                    f"{'says it supersedes' if len(rivals) == 1 else 'say they supersede'} "
                    "this decision, which still says it is accepted.",
                )
            )
    review = ctx.reviews.get(rec.id)
    if review is not None:
        out.append(
            admonition(
                "warning",
                "review",
                "Review overdue",
                f"{esc(review.message[:1].upper() + review.message[1:])}. {esc(review.fix)}.",
            )
        )
    if rec.archived:
        out.append(
            admonition(
                "note",
                "archived",
                "Archived",
                "This record was moved to the archive. It stays in the log, the INDEX and "
                "the graphs for its history"
                + ("." if not log.in_effect(rec) else ", and it is still marked in effect."),
            )
        )
    return out


def _replaced_by(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    succ = ctx.log.graph.direct_successors(rec.id)
    if not succ:
        return ""
    return " It is replaced by " + _list([link(ctx, s, href) for s in succ]) + "."


def _superseded(ctx: PageContext, rec: Record, href: RecordHref) -> str:
    log = ctx.log
    s = log.successor(rec.id)

    def L(rid: str) -> str:
        return link(ctx, rid, href)

    if s.state == "current" and s.current:
        if len(s.chain) > 1:
            via = " → ".join(L(c) for c in s.chain[:-1])
            body = (
                f"This decision is no longer in effect. It was superseded by {via}, which "
                f"was superseded in turn; the decision in effect now is {L(s.current)}."
            )
        else:
            body = (
                f"This decision is no longer in effect. It was superseded by "
                f"{L(s.current)}, the decision in effect now."
            )
        return admonition("warning", "superseded", "Superseded", body)
    names = [f"{L(c)} ({esc(log.graph.statuses.get(c, 'unknown'))})" for c in s.candidates]
    if s.state == "not-accepted":
        lead = (
            "It was superseded by " + " → ".join(L(c) for c in s.chain) + ", whose "
            if s.chain
            else "Its "
        )
        return admonition(
            "info",
            "superseded-pending",
            "Superseded only by a proposal: still in effect",
            f"This record is marked superseded. {lead}successor {_list(names)} is not "
            "accepted, so this decision stays in effect until a successor is.",
        )
    if s.state == "ambiguous":
        return admonition(
            "warning",
            "superseded-ambiguous",
            "Superseded: successor unclear",
            f"This decision is no longer in effect, and more than one record claims to "
            f"replace it: {_list(names)}. Which one is in effect is not decided.",
        )
    if s.state == "cycle":
        return admonition(
            "danger",
            "superseded-cycle",
            "Superseded: cycle",
            "This record is part of a supersession cycle ("
            + _list([L(c) for c in s.candidates])
            + "), so no decision in effect can be named.",
        )
    texts = [r.target for r in rec.relations if r.kind == "superseded-by" and r.target_id is None]
    tail = (
        " It names a successor that is not a record of this log: "
        + _list([f"<code>{esc(t)}</code>" for t in texts])
        + "."
        if texts
        else " No successor is recorded."
    )
    return admonition(
        "warning", "superseded", "Superseded", "This decision is no longer in effect." + tail
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
    if len(out_units) == len(rec.units):
        return [
            admonition(
                "warning",
                "units-retired",
                "No longer in effect",
                "Every decision unit of this record is out of effect: " + "; ".join(parts) + ".",
            )
        ]
    return [
        admonition(
            "info",
            "units-partial",
            "Partly out of effect",
            "Some decision units of this record are no longer in effect: "
            + "; ".join(parts)
            + ". The others still are.",
        )
    ]


# ------------------------------------------------------------------------ mirrors


def mirror_banner(ctx: PageContext, original: Record | None, lang: str, href: RecordHref) -> str:
    if original is None:
        return admonition(
            "note",
            "translation",
            f"Translation ({lang})",
            "This page is a translation. Its original record was not found in the log, "
            "so it is not authoritative.",
        )
    return admonition(
        "info",
        "translation",
        f"Translation ({lang})",
        f"This page is a translation of {link(ctx, original.id, href)} "
        f"(status: {esc(original.status)}). The original is authoritative; "
        "if the two differ, the original holds.",
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
) -> str:
    """Previous / next record in INDEX order, and the way back to the INDEX and graph."""
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
