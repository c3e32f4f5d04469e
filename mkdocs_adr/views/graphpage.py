"""The graph page of one root: Markdown with slots where the SVG drawings go.

Headings and the list of unrelated records are Markdown (they get a table of contents
and checked links); each drawing is a slot, an HTML comment the host replaces with the
SVG once it knows the page's URL. Keeping drawings out of the Markdown also keeps
their hundreds of node labels out of the search index.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Container
from dataclasses import dataclass, field
from typing import cast
from urllib.parse import quote

from .. import rx
from ..model import STATUSES, RootInfo
from ..safetext import md_text
from . import svg
from .graphdata import EDGE_KINDS, GraphData, components, root_view
from .hrefs import RecordHref
from .i18n import ENGLISH, Messages

SLOT = "<!-- mkdocs-adr:slot {key} -->"
SLOT_RE = rx.compile(r"<!-- mkdocs-adr:slot ([a-z0-9-]+) -->")
#: Unrelated records are listed when there are at most this many; counted otherwise.
LIST_ISOLATED = 40


@dataclass
class GraphPage:
    markdown: str
    groups: dict[str, GraphData] = field(default_factory=dict)
    statuses: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    proposed: list[str] = field(default_factory=list)  # kinds drawn as proposed
    declared: bool = False  # a supersession only declared in prose is drawn


def _link(from_dir: str, path: str) -> str:
    return quote(posixpath.relpath(path, from_dir or "."), safe="/")


def build(
    data: GraphData,
    root: RootInfo,
    root_key: str,
    *,
    index_name: str,
    title: str,
    unpublished: Container[str] = (),
    words: Messages = ENGLISH,
) -> GraphPage:
    """``root.path`` is project-relative (links), ``root_key`` the docs-relative root
    path records carry; ``index_name`` the file name of the root's INDEX page; ``title``
    the page heading as Markdown (escaped by the caller); ``unpublished`` the paths of
    records the site leaves out, named without a link; ``words`` the site's language."""
    sub, isolated = root_view(data, root_key)
    mine = [n for n in data.nodes.values() if n.root == root_key]
    counts = Counter(n.status for n in mine)
    lines = [f"# {title}", ""]
    summary = _counts(counts, words)
    lines.append(
        words.t("graph.summary", n=len(mine), summary=summary or words.t("index.none"))
        if mine
        else words.t("index.empty")
    )
    lines.append("")
    page = GraphPage(markdown="")
    statuses = {n.status for n in sub.nodes.values()}
    page.statuses = [s for s in STATUSES if s in statuses]
    kinds = {e.kind for e in sub.edges}
    proposed = {e.kind for e in sub.edges if e.proposed}
    page.kinds = [k for k in EDGE_KINDS if k in kinds]
    page.proposed = [k for k in EDGE_KINDS if k in proposed]
    page.declared = any(e.declared for e in sub.edges)
    if sub.nodes:
        lines.extend([f'<div class="adr-graph-key">{SLOT.format(key="legend")}</div>', ""])
    layered = root.layout in ("layered", "mixed")
    groups = _groups(sub, root_key, layered=layered)
    for i, name in enumerate(sorted(groups)):
        ids = [n for comp in groups[name] for n in comp]
        key = f"g{i}"
        page.groups[key] = sub.subgraph(ids)
        heading = (
            (md_text(name) or words.t("index.no-domain")) if layered else words.t("graph.related")
        )
        n_comp = len(groups[name])
        lines.extend(
            [
                f"## {heading}",
                "",
                words.t(
                    f"graph.groups-{'one' if n_comp == 1 else 'other'}", n=len(ids), groups=n_comp
                ),
                "",
                f'<div class="adr-graph">{SLOT.format(key=key)}</div>',
                "",
            ]
        )
    if isolated:
        lines.extend(_isolated(data, isolated, root, index_name, unpublished, words))
    page.markdown = "\n".join(lines).rstrip("\n") + "\n"
    return page


def _counts(counts: Counter[str], words: Messages) -> str:
    """``3 accepted, 1 superseded`` in the site's language, in status order."""
    return words.t("list.sep").join(
        words.t("index.count", n=counts[s], status=words.status(s)) for s in STATUSES if counts[s]
    )


def _groups(sub: GraphData, root_key: str, *, layered: bool) -> dict[str, list[list[str]]]:
    """Connected components by section: the domain most of a component's own records are
    in (a layered root), or one section. Kept with the graph's shape (ADR-0065) for the
    nodes' domains it was worked out from: the same shape and domains, the same sections."""
    domains = [n.domain for n in sub.nodes.values()] if layered else None
    found = sub.shape.get(("groups", root_key))
    if isinstance(found, tuple) and found[0] == domains:
        return cast(dict[str, list[list[str]]], found[1])
    groups = _grouped(sub, root_key, layered=layered)
    sub.shape[("groups", root_key)] = (domains, groups)
    return groups


def _grouped(sub: GraphData, root_key: str, *, layered: bool) -> dict[str, list[list[str]]]:
    groups: dict[str, list[list[str]]] = {}
    for comp in components(sub):
        group = ""
        if layered:
            domains = Counter(
                sub.nodes[n].domain or "" for n in comp if sub.nodes[n].root == root_key
            )
            top = sorted(domains.items(), key=lambda kv: (-kv[1], kv[0]))
            group = top[0][0] if top else ""
        groups.setdefault(group, []).append(comp)
    return groups


def _isolated(
    data: GraphData,
    isolated: list[str],
    root: RootInfo,
    index_name: str,
    unpublished: Container[str] = (),
    words: Messages = ENGLISH,
) -> list[str]:
    """The section for records without relations: listed when few, counted when many."""
    lines = [f"## {words.t('graph.alone')}", ""]
    alone = [data.nodes[n] for n in isolated]
    if len(alone) <= LIST_ISOLATED:
        lines.append(words.n("graph.alone-list", len(alone)))
        lines.append("")
        for n in alone:
            named = (
                md_text(n.id)
                if n.path in unpublished
                else f"[{md_text(n.id)}]({_link(root.path, n.path)})"
            )
            shown = words.status(n.status)
            if n.archived:
                shown += words.t("list.sep") + words.t("tag.archived")
            lines.append(f"- {named} {md_text(n.title)} ({shown})")
    else:
        by = _counts(Counter(n.status for n in alone), words)
        lines.append(words.t("graph.alone-count", n=len(alone), summary=by, index=index_name))
    lines.append("")
    return lines


def fill(
    html: str,
    page: GraphPage,
    *,
    href: RecordHref,
    root_key: str,
    uid: str = "adr-graph",
    words: Messages = ENGLISH,
    kept: Drawings | None = None,
    context: object = None,
) -> str:
    """Replace each slot of ``html`` (the rendered page) by its drawing.

    ``kept``: the drawings of the last fill by slot, with the data and ``context`` they
    were drawn for (what ``href`` reads: the page's URL and every record's, which the
    host says), which a long-lived host keeps: a slot whose data and context are equal
    is not drawn again (ADR-0062). A status edit changes one section's drawing."""

    def one(m: re.Match[str]) -> str:
        key = m.group(1)
        if key == "legend":
            return svg.legend_html(
                uid=f"{uid}-legend",
                statuses=page.statuses,
                kinds=page.kinds,
                declared=page.declared,
                proposed=page.proposed,
                words=words,
            )
        data = page.groups.get(key)
        if data is None:
            return ""
        shown = (uid, root_key, words.lang, context)
        if kept is not None:
            found = kept.get(key)
            if found is not None and found[0] == shown and found[1] == data:
                return found[2]
        drawing = _drawing(data, key, href=href, root_key=root_key, uid=uid, words=words)
        if kept is not None:
            kept[key] = (shown, data, drawing)
        return drawing

    return SLOT_RE.sub(one, html)


#: The drawings of a graph page by slot, each with what it was drawn for (:func:`fill`).
Drawings = dict[str, tuple[object, GraphData, str]]


def _drawing(
    data: GraphData, key: str, *, href: RecordHref, root_key: str, uid: str, words: Messages
) -> str:
    """One section's drawing: wide, and packed to a phone's column before it when wider."""
    title = words.t("graph.drawing", n=len(data.nodes))
    wide = svg.layout(data, isolated=False)
    drawing = svg.render(
        data,
        uid=f"{uid}-{key}",
        href=href,
        title=title,
        root=root_key,
        placed=wide,
        words=words,
    )
    if wide.width <= svg.NARROW:
        return drawing
    # a phone shows the same records packed to its column, at a readable size; it
    # comes first, so the stylesheet can hide the wide one after it (assets.GRAPH_CSS)
    narrow = svg.layout(data, max_width=svg.NARROW, isolated=False)
    return (
        svg.render(
            data,
            uid=f"{uid}-{key}-n",
            href=href,
            title=title,
            root=root_key,
            placed=narrow,
            css_class="adr-graph-narrow",
            words=words,
        )
        + drawing
    )
