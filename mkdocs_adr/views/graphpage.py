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
from urllib.parse import quote

from ..model import STATUSES, RootInfo, status_label
from . import svg
from .graphdata import EDGE_KINDS, GraphData, components, root_view
from .hrefs import RecordHref
from .index import md_text

SLOT = "<!-- mkdocs-adr:slot {key} -->"
SLOT_RE = re.compile(r"<!-- mkdocs-adr:slot ([a-z0-9-]+) -->")
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
) -> GraphPage:
    """``root.path`` is project-relative (links), ``root_key`` the docs-relative root
    path records carry; ``index_name`` the file name of the root's INDEX page; ``title``
    the page heading as Markdown (escaped by the caller); ``unpublished`` the paths of
    records the site leaves out, named without a link."""
    sub, isolated = root_view(data, root_key)
    mine = [n for n in data.nodes.values() if n.root == root_key]
    counts = Counter(n.status for n in mine)
    lines = [f"# {title}", ""]
    summary = ", ".join(f"{counts[s]} {status_label(s)}" for s in STATUSES if counts[s])
    lines.append(
        f"{len(mine)} records ({summary or 'none'}). Each box is a record, coloured by its "
        "status and linked to its page; each line a relation, drawn from the newer record "
        "to the one it supersedes, amends, extends, depends on or relates to. Archived "
        "records and records of other roots have a dashed outline."
        if mine
        else "No records yet."
    )
    lines.append("")
    page = GraphPage(markdown="")
    statuses = {n.status for n in sub.nodes.values()}
    page.statuses = [s for s in STATUSES if s in statuses]
    page.kinds = [k for k in EDGE_KINDS if any(e.kind == k for e in sub.edges)]
    page.proposed = [k for k in EDGE_KINDS if any(e.proposed and e.kind == k for e in sub.edges)]
    page.declared = any(e.declared for e in sub.edges)
    if sub.nodes:
        lines.extend([f'<div class="adr-graph-key">{SLOT.format(key="legend")}</div>', ""])
    layered = root.layout in ("layered", "mixed")
    groups = _groups(sub, root_key, layered=layered)
    for i, name in enumerate(sorted(groups)):
        ids = [n for comp in groups[name] for n in comp]
        key = f"g{i}"
        page.groups[key] = sub.subgraph(ids)
        heading = (md_text(name) or "(no domain)") if layered else "Related decisions"
        n_comp = len(groups[name])
        lines.extend(
            [
                f"## {heading}",
                "",
                f"{len(ids)} records in {n_comp} group{'s' if n_comp != 1 else ''} of "
                "related decisions.",
                "",
                f'<div class="adr-graph">{SLOT.format(key=key)}</div>',
                "",
            ]
        )
    if isolated:
        lines.extend(_isolated(data, isolated, root, index_name, unpublished))
    page.markdown = "\n".join(lines).rstrip("\n") + "\n"
    return page


def _groups(sub: GraphData, root_key: str, *, layered: bool) -> dict[str, list[list[str]]]:
    """Connected components by section: the domain most of a component's own records are
    in (a layered root), or one section."""
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
) -> list[str]:
    """The section for records without relations: listed when few, counted when many."""
    lines = ["## Without relations", ""]
    alone = [data.nodes[n] for n in isolated]
    if len(alone) <= LIST_ISOLATED:
        lines.append(
            f"{len(alone)} record{'s' if len(alone) != 1 else ''} neither "
            "name nor are named by another record:"
        )
        lines.append("")
        for n in alone:
            named = (
                md_text(n.id)
                if n.path in unpublished
                else f"[{md_text(n.id)}]({_link(root.path, n.path)})"
            )
            lines.append(
                f"- {named} {md_text(n.title)} "
                f"({status_label(n.status)}{', archived' if n.archived else ''})"
            )
    else:
        c = Counter(n.status for n in alone)
        by = ", ".join(f"{c[s]} {status_label(s)}" for s in STATUSES if c[s])
        lines.append(
            f"{len(alone)} records ({by}) neither name nor are named by another record; "
            f"they are left out of the drawing. The [index]({index_name}) lists them all."
        )
    lines.append("")
    return lines


def fill(
    html: str,
    page: GraphPage,
    *,
    href: RecordHref,
    root_key: str,
    uid: str = "adr-graph",
) -> str:
    """Replace each slot of ``html`` (the rendered page) by its drawing."""

    def one(m: re.Match[str]) -> str:
        key = m.group(1)
        if key == "legend":
            return svg.legend_html(
                uid=f"{uid}-legend",
                statuses=page.statuses,
                kinds=page.kinds,
                declared=page.declared,
                proposed=page.proposed,
            )
        data = page.groups.get(key)
        if data is None:
            return ""
        title = f"Graph of {len(data.nodes)} related records"
        wide = svg.layout(data, isolated=False)
        drawing = svg.render(
            data, uid=f"{uid}-{key}", href=href, title=title, root=root_key, placed=wide
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
            )
            + drawing
        )

    return SLOT_RE.sub(one, html)
