"""Issue 13 items 3, 4, 5 and 7: a graph that fits and reads, navigation for an ADR-only
site, drift left to the CLI, and no request to another origin.

Every site here is a real ``mkdocs build`` of an ADR-only project (``docs/`` holds only
``adr/``, no home page) in both themes. The log is written the way a small team writes
Nygard records with frontmatter relations: a supersession in effect, one only proposed,
a partial supersession, and two amendments that cross when the records are laid out in
id order.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import textwrap
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from mkdocs_adr.config import from_options
from mkdocs_adr.log import load
from mkdocs_adr.views import dot, graphdata, mermaid, palette, svg

from .conftest import REPO, run_cli, run_mkdocs, start_serve, stop_serve
from .test_browser_site import ARTIFACTS, Browser, http_server
from .test_site_kit import build

THEMES = ("material", "mkdocs")

RECORDS: dict[str, str] = {
    "0001-record-architecture-decisions.md": """\
        # 1. Record architecture decisions

        Date: 2025-01-06

        ## Status

        Accepted

        ## Context

        We want to remember why we built things the way we did.

        ## Decision

        We keep Nygard-style records in docs/adr.
        """,
    "0002-store-orders-in-mysql.md": """\
        ---
        status: superseded
        date: 2025-01-20
        superseded-by: [ADR-0004]
        ---
        # 2. Store orders in MySQL

        ## Context

        The order service needs a relational store.

        ## Decision

        MySQL 8, managed by the hosting provider.
        """,
    "0003-write-logs-as-json-lines-to-standard-output.md": """\
        ---
        status: accepted
        date: 2025-02-03
        ---
        # 3. Write logs as JSON lines to standard output

        ## Context

        Log shipping differs per cluster.

        ## Decision

        Every service writes one JSON object per line to stdout.
        """,
    "0004-store-orders-in-postgresql.md": """\
        ---
        status: accepted
        date: 2025-03-10
        supersedes: [ADR-0002]
        ---
        # 4. Store orders in PostgreSQL

        ## Context

        MySQL's JSON support held us back.

        ## Decision

        PostgreSQL 16 for orders.
        """,
    "0005-ship-logs-with-opentelemetry-collector-agents.md": """\
        ---
        status: proposed
        date: 2025-04-01
        supersedes: [ADR-0003]
        ---
        # 5. Ship logs with OpenTelemetry collector agents on every node of every cluster

        ## Context

        Teams want traces and logs in one pipeline.

        ## Decision

        A collector agent per node reads stdout and ships OTLP.
        """,
    "0006-keep-invoices-in-a-separate-schema.md": """\
        ---
        status: accepted
        date: 2025-04-15
        partially-supersedes: [ADR-0004]
        ---
        # 6. Keep invoices in a separate schema

        ## Context

        Invoices have a retention rule of their own.

        ## Decision

        Invoices move to their own schema; orders stay as ADR-0004 says.
        """,
    "0007-queue-jobs-with-rabbitmq.md": """\
        ---
        status: accepted
        date: 2025-05-05
        ---
        # 7. Queue jobs with RabbitMQ

        ## Context

        Background jobs need a broker.

        ## Decision

        RabbitMQ with quorum queues.
        """,
    "0008-deploy-on-kubernetes.md": """\
        ---
        status: accepted
        date: 2025-05-06
        ---
        # 8. Deploy on Kubernetes

        ## Context

        We run on three clusters.

        ## Decision

        Every service ships as a Helm chart.
        """,
    "0009-autoscale-workers-on-cpu.md": """\
        ---
        status: accepted
        date: 2025-06-02
        amends: [ADR-0008]
        ---
        # 9. Autoscale workers on CPU

        ## Context

        Night batches starve the day traffic.

        ## Decision

        A horizontal pod autoscaler per worker deployment.
        """,
    "0010-dead-letter-queues-for-failed-jobs.md": """\
        ---
        status: accepted
        date: 2025-06-20
        amends: [ADR-0007]
        depends-on: [ADR-0008]
        ---
        # 10. Dead-letter queues for failed jobs

        ## Context

        Failed jobs vanish.

        ## Decision

        Every queue gets a dead-letter queue, run as a Kubernetes job.
        """,
}

LONG_TITLE = "Ship logs with OpenTelemetry collector agents on every node of every cluster"


def write_log(docs: Path) -> None:
    adr = docs / "adr"
    adr.mkdir(parents=True, exist_ok=True)
    for name, text in RECORDS.items():
        (adr / name).write_text(textwrap.dedent(text), encoding="utf-8")


def adr_only_site(
    folder: Path, theme: str, *, roots: str = "", extra: str = "", log: bool = True
) -> Path:
    """An ADR-only project: ``docs/adr`` and nothing else in ``docs``."""
    docs = folder / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    if log:
        write_log(docs)
    theme_block = f"theme:\n  name: {theme}\n"
    options = f"\n      roots: {roots}" if roots else ""
    (folder / "mkdocs.yml").write_text(
        f"site_name: Shop decisions\n{theme_block}{extra}"
        f"plugins:\n  - search\n  - adr:{options or ' {}'}\n",
        encoding="utf-8",
    )
    return folder


def built(folder: Path, *, strict: bool = True) -> Path:
    proc = build(folder, strict=strict)
    assert proc.returncode == 0, proc.stderr
    return folder / "site"


@pytest.fixture(scope="module", params=THEMES)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = adr_only_site(tmp_path_factory.mktemp(f"site-{request.param}"), request.param)
    return built(folder)


def engine_graph(folder: Path) -> graphdata.GraphData:
    config = from_options(
        {}, project_dir=folder, docs_dir=folder / "docs", config_file=folder / "mkdocs.yml"
    )
    return graphdata.build(load(config))


class _Tags(HTMLParser):
    """Every tag's attributes, and the nav entries: (level, text) of the theme's menu."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def tags(html: str) -> list[tuple[str, dict[str, str]]]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


def graph_page(site: Path) -> str:
    return (site / "adr" / "GRAPH" / "index.html").read_text(encoding="utf-8")


def drawings(html: str) -> list[str]:
    return re.findall(
        r'<svg xmlns="http://www.w3.org/2000/svg" class="adr-graph-svg[^"]*".*?</svg>',
        html,
        flags=re.S,
    )


# ------------------------------------------------------------------------- graph


def test_graph_drawings_scale_to_the_column(site: Path) -> None:
    html = graph_page(site)
    found = drawings(html)
    assert len(found) == 1  # one section: the log has no domains
    head = found[0].split(">", 1)[0]
    m = re.search(r'width="100%" viewBox="0 0 (\d+) (\d+)" style="max-width: (\d+)px"', head)
    assert m, head
    width, height, cap = (int(g) for g in m.groups())
    # never wider than its own size, never packed wider than the column it is made for
    assert cap == width and width <= svg.COLUMN + 2 * svg.MARGIN
    assert ' height="' not in head  # the height follows the width through the viewBox
    # the same drawing, laid out by the engine, has exactly this size
    data = engine_graph(site.parent)
    sub, _isolated = graphdata.root_view(data, "adr")
    placed = svg.layout(sub, isolated=False)
    assert (width, height) == (
        round(placed.width + 2 * svg.MARGIN),
        round(placed.height + 2 * svg.MARGIN),
    )
    # and a second drawing packed to a phone's column, which the stylesheet shows there
    narrow = re.findall(r'class="adr-graph-narrow" width="100%" viewBox="0 0 (\d+) (\d+)"', html)
    phone = svg.layout(sub, max_width=svg.NARROW, isolated=False)
    assert narrow == [
        (str(round(phone.width + 2 * svg.MARGIN)), str(round(phone.height + 2 * svg.MARGIN)))
    ]
    assert phone.width < placed.width and set(phone.nodes) == set(placed.nodes)
    css = (site / "assets" / "mkdocs-adr" / "adr.css").read_text(encoding="utf-8")
    assert "width: 100%; height: auto;" in css
    assert "@media screen and (max-width: 599px) {" in css


def test_titles_wrap_and_the_full_title_is_the_tooltip(site: Path) -> None:
    html = graph_page(site)
    node = html.split('data-adr-id="ADR-0005"', 1)[1].split("</a>", 1)[0]
    assert f"<title>ADR-0005 {LONG_TITLE} (proposed)</title>" in node
    lines = [unescape(t) for t in re.findall(r'font-size="11">([^<]*)</text>', node)]
    assert lines == ["Ship logs with", "OpenTelemetry collector", "agents on every node of…"]
    assert svg.wrap("Keep invoices in a separate schema") == [
        "Keep invoices in a",
        "separate schema",
    ]
    assert svg.wrap("x" * 60) == ["x" * 26, "x" * 26, "x" * 8]
    assert svg.wrap("x" * 100) == ["x" * 26, "x" * 26, "x" * 25 + "…"]


def test_nodes_link_to_their_records(site: Path) -> None:
    html = graph_page(site)
    nodes = re.findall(r'<a href="([^"]+)" class="adr-node[^"]*" data-adr-id="([^"]+)"', html)
    assert {rid for _, rid in nodes} == {f"ADR-{i:04d}" for i in range(2, 11)}
    for href, rid in nodes:
        target = (site / "adr" / "GRAPH" / href / "index.html").resolve()
        assert f'data-adr-id="{rid}"' in target.read_text(encoding="utf-8"), href


def test_proposed_and_partial_supersessions_are_drawn_apart(site: Path) -> None:
    html = drawings(graph_page(site))[0]
    paths = {
        re.search(r"<title>([^<]*)</title>", p).group(1): p  # type: ignore[union-attr]
        for p in re.findall(r"<path class=\"adr-edge[^>]*>.*?</path>", html)
    }
    proposed = paths[
        "ADR-0005 supersedes ADR-0003 "
        "(proposed: ADR-0003 stays in effect until ADR-0005 is accepted)"
    ]
    accepted = paths["ADR-0004 supersedes ADR-0002"]
    partial = paths["ADR-0006 partially supersedes ADR-0004"]
    assert 'class="adr-edge adr-edge--supersedes adr-edge--proposed"' in proposed
    assert 'class="adr-edge adr-edge--supersedes"' in accepted
    assert 'class="adr-edge adr-edge--partially-supersedes"' in partial
    dash = re.compile(r'stroke-dasharray="([^"]+)"')
    assert dash.search(accepted) is None
    assert dash.search(proposed).group(1) == "7 3 2 3"  # type: ignore[union-attr]
    assert dash.search(partial).group(1) == "8 4"  # type: ignore[union-attr]
    assert "-arrow-supersedes-proposed)" in proposed and "-arrow-supersedes)" in accepted
    # the legend names each, as a list that wraps
    page = graph_page(site)
    legend = page.split('<ul class="adr-graph-legend"', 1)[1].split("</ul>", 1)[0]
    keys = re.findall(r'fill="currentColor">([^<]+)</text>', legend)
    assert keys == [
        "accepted",
        "proposed",
        "superseded",
        "supersedes",
        "partially supersedes",
        "amends",
        "depends on",
        "supersedes (proposed)",
    ]


def test_other_formats_draw_proposed_and_partial_apart(tmp_path: Path) -> None:
    write_log(tmp_path / "docs")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nplugins: [adr]\n", encoding="utf-8")
    data = engine_graph(tmp_path)
    edges = {(e.source, e.target): e for e in data.edges}
    assert edges["ADR-0005", "ADR-0003"].proposed
    assert not edges["ADR-0004", "ADR-0002"].proposed
    assert not edges["ADR-0006", "ADR-0004"].proposed
    assert not edges["ADR-0009", "ADR-0008"].proposed  # an amendment is never "proposed"
    text = mermaid.render(data)
    # one line per edge, in the data's order: linkStyle counts them the same way
    lines = [ln.strip() for ln in text.splitlines() if "|" in ln and "click" not in ln]
    assert len(lines) == len(data.edges)
    index = data.edges.index(edges["ADR-0005", "ADR-0003"])
    assert lines[index] == (
        f"{mermaid.node_key('ADR-0005')} -.->|supersedes #40;proposed#41;| "
        f"{mermaid.node_key('ADR-0003')}"
    )
    assert f"    linkStyle {index} {mermaid.PROPOSED_STYLE}\n" in text
    assert text.count("linkStyle") == 1
    assert any(ln.startswith(mermaid.node_key("ADR-0004") + " ==>|") for ln in lines)
    assert any(ln.startswith(mermaid.node_key("ADR-0006") + " --o|") for ln in lines)
    graph = dot.render(data)
    assert (
        '"ADR-0005" -> "ADR-0003" [label="supersedes (proposed)", style=dashed, '
        'color="#7a7a7a", arrowhead=empty];'
    ) in graph
    assert '"ADR-0004" -> "ADR-0002" [label="supersedes", style=bold];' in graph
    assert (
        '"ADR-0006" -> "ADR-0004" [label="partially supersedes", style="bold,dashed"];'
    ) in graph
    doc = svg.document([("All", data)], href=lambda r: None, title="All")
    # nested in the export's own drawing, the graph keeps its size (100% would be the outer's)
    inner = re.search(r'<svg [^>]*class="adr-graph-svg"[^>]*>', doc).group(0)  # type: ignore[union-attr]
    placed = svg.layout(data)
    w, h = round(placed.width + 2 * svg.MARGIN), round(placed.height + 2 * svg.MARGIN)
    assert f'width="{w}" height="{h}" viewBox="0 0 {w} {h}"' in inner
    assert (
        "supersedes (proposed)</text>" in doc
        and 'class="adr-edge adr-edge--supersedes adr-edge--proposed"' in doc
    )


def test_layer_ordering_removes_the_crossing_of_the_id_order(site: Path) -> None:
    data = engine_graph(site.parent)
    jobs = data.subgraph(["ADR-0007", "ADR-0008", "ADR-0009", "ADR-0010"])
    placed = svg.layout(jobs, isolated=False)
    # in id order ADR-0009 (amends 0008) sits above ADR-0010 (amends 0007): one crossing
    assert (placed.crossings_naive, placed.crossings) == (1, 0)
    y = {n: placed.nodes[n][1] for n in placed.nodes}
    assert y["ADR-0010"] < y["ADR-0009"]
    # and the built page draws that order
    assert 'data-adr-crossings="0"' in drawings(graph_page(site))[0]


def test_crossings_counts_inversions_exactly() -> None:
    right_of = {"a": ["x", "y"], "b": ["x"], "c": ["z"]}
    rows = [["a", "b", "c"], ["z", "y", "x"]]
    # c-z crosses a-x, a-y and b-x; a-x and b-x share an end, a-x and a-y a start
    assert svg.crossings(rows, right_of) == 3
    assert svg.crossings([["a", "b", "c"], ["x", "y", "z"]], right_of) == 1  # a-y, b-x


def test_a_woven_log_of_a_thousand_records_loses_most_crossings() -> None:
    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_graph import woven

    placed = svg.layout(woven(300), isolated=False)
    assert placed.crossings_naive > 0
    assert placed.crossings * 4 < placed.crossings_naive  # at least three quarters gone


# ---------------------------------------------------------------------------- nav


class _Menu(HTMLParser):
    """The site menu as (depth, title): Material's primary navigation (depth is the
    nesting of its ``<nav>`` levels, the table of contents left out), or the ``mkdocs``
    theme's navbar (depth 0 for its items and dropdown toggles, 1 for dropdown items)."""

    def __init__(self, theme: str) -> None:
        super().__init__(convert_charrefs=True)
        self.theme = theme
        self.items: list[tuple[int, str]] = []
        self.stack: list[str] = []  # open <nav> classes (Material) / open <ul> (mkdocs)
        self.inside = False  # in the primary menu
        self.capture: int | None = None
        self.text = ""
        self.done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        cls = dict(attrs).get("class") or ""
        if self.done:
            return
        if self.theme == "material":
            if tag == "nav":
                if "md-nav--primary" in cls:
                    self.inside = True
                if self.inside:
                    self.stack.append(cls)
            elif (
                self.inside
                and tag == "span"
                and "md-ellipsis" in cls
                and not any("md-nav--secondary" in c for c in self.stack)
            ):
                self.capture, self.text = len(self.stack) - 1, ""
        else:
            if tag == "ul" and cls == "nav navbar-nav":
                self.inside = True
            if self.inside and tag == "a":
                if "dropdown-item" in cls:
                    self.capture, self.text = 1, ""
                elif "nav-link" in cls:
                    self.capture, self.text = 0, ""

    def handle_endtag(self, tag: str) -> None:
        if self.done:
            return
        if self.capture is not None and tag in ("span", "a"):
            self.items.append((self.capture, " ".join(self.text.split())))
            self.capture = None
        if self.theme == "material" and tag == "nav" and self.inside:
            self.stack.pop()
            if not self.stack:
                self.done = True

    def handle_data(self, data: str) -> None:
        if self.capture is not None:
            self.text += data


def menu(html: str, theme: str) -> list[tuple[int, str]]:
    if theme == "mkdocs":  # the left navbar only (search and edit links sit right)
        html = html.split('<ul class="nav navbar-nav ms-md-auto">', 1)[0]
    parser = _Menu(theme)
    parser.feed(html)
    return parser.items


def top(items: list[tuple[int, str]]) -> list[str]:
    return [t for d, t in items if d == 0]


RECORD_TITLES = [
    "ADR-0001: Record architecture decisions",
    "ADR-0002: Store orders in MySQL",
    "ADR-0003: Write logs as JSON lines to standard output",
    "ADR-0004: Store orders in PostgreSQL",
    f"ADR-0005: {LONG_TITLE}",
    "ADR-0006: Keep invoices in a separate schema",
    "ADR-0007: Queue jobs with RabbitMQ",
    "ADR-0008: Deploy on Kubernetes",
    "ADR-0009: Autoscale workers on CPU",
    "ADR-0010: Dead-letter queues for failed jobs",
]


def test_an_adr_only_site_has_a_menu_home_page_and_views_on_top(site: Path) -> None:
    theme = "material" if (site / "assets" / "javascripts").is_dir() else "mkdocs"
    items = menu((site / "adr" / "INDEX" / "index.html").read_text("utf-8"), theme)
    assert items == [
        (0, "Overview"),
        (0, "Decision index"),
        (0, "Decision timeline"),
        (0, "Decision graph"),
        (0, "Decisions"),
        *((1, t) for t in RECORD_TITLES),
    ]
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<h1 id="overview">Overview</h1>' in home
    assert "This site publishes 10 architecture decision records (Decisions)." in home
    assert "10 records: 8 accepted, 1 proposed, 1 superseded." in home
    assert '<a href="adr/INDEX/">Decision index</a>' in home
    assert '<a href="adr/GRAPH/">Decision graph</a>' in home


@pytest.mark.parametrize("theme", THEMES)
def test_the_section_is_titled_from_the_root_title(tmp_path: Path, theme: str) -> None:
    folder = adr_only_site(tmp_path, theme, roots='[{path: adr, title: "Shop & orders"}]')
    site = built(folder)
    items = menu((site / "index.html").read_text("utf-8"), theme)
    # escaped once: the menu reads the title as written
    assert top(items) == [
        "Overview",
        "Shop & orders: decision index",
        "Shop & orders: decision timeline",
        "Shop & orders: decision graph",
        "Shop & orders",
    ]
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "records (Shop &amp;amp; orders)." not in home
    assert "records (Shop &amp; orders)." in home


@pytest.mark.parametrize("theme", THEMES)
def test_a_large_log_is_one_entry_with_its_views_in_a_bar(tmp_path: Path, theme: str) -> None:
    """Above ``nav_limit`` the records leave the nav, and the root's section would hold
    its README and its views: every page of the site would render those entries. The
    README stands in the section's place under its title, and it and each view carry
    a bar of the others (ADR-0054)."""
    folder = adr_only_site(tmp_path, theme, roots='[{path: adr, title: "Shop & orders"}]')
    yml = folder / "mkdocs.yml"
    yml.write_text(yml.read_text("utf-8") + "      nav_limit: 3\n", "utf-8")
    (folder / "docs" / "adr" / "README.md").write_text("# How we decide\n\nOur log.\n", "utf-8")
    site = built(folder)
    for page in ("index.html", "adr/index.html", "adr/INDEX/index.html", "adr/GRAPH/index.html"):
        assert menu((site / page).read_text("utf-8"), theme) == [
            (0, "Overview"),
            (0, "Shop & orders"),
        ], page
    readme = (site / "adr" / "index.html").read_text("utf-8")
    assert "Our log." in readme and "How we decide" in readme
    # MkDocs' own search lists the entry under its nav title, as text (not "&amp;");
    # Material's under the page's heading
    index = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    titles = {d["location"]: d["title"] for d in index["docs"]}
    assert titles["adr/"] == ("How we decide" if theme == "material" else "Shop & orders")
    bars = {
        page: re.findall(
            r'<nav class="adr-views" aria-label="Decision views">(.*?)</nav>',
            (site / page).read_text("utf-8"),
        )
        for page in ("adr/index.html", "adr/INDEX/index.html", "adr/TIMELINE/index.html")
    }
    assert bars == {
        "adr/index.html": [
            '<strong aria-current="page">Shop &amp; orders</strong> &middot; '
            '<a href="INDEX/">Decision index</a> &middot; <a href="TIMELINE/">Decision timeline</a>'
            ' &middot; <a href="GRAPH/">Decision graph</a>'
        ],
        "adr/INDEX/index.html": [
            '<a href="../">Shop &amp; orders</a> &middot; '
            '<strong aria-current="page">Decision index</strong> &middot; '
            '<a href="../TIMELINE/">Decision timeline</a> &middot; '
            '<a href="../GRAPH/">Decision graph</a>'
        ],
        "adr/TIMELINE/index.html": [
            '<a href="../">Shop &amp; orders</a> &middot; '
            '<a href="../INDEX/">Decision index</a> &middot; '
            '<strong aria-current="page">Decision timeline</strong> &middot; '
            '<a href="../GRAPH/">Decision graph</a>'
        ],
    }
    # a log without a README: its INDEX is the entry, under the same title
    (folder / "docs" / "adr" / "README.md").unlink()
    site = built(folder)
    assert menu((site / "index.html").read_text("utf-8"), theme) == [
        (0, "Overview"),
        (0, "Shop & orders"),
    ]
    assert (
        '<strong aria-current="page">Shop &amp; orders</strong> &middot; <a href="../TIMELINE/">'
        in (site / "adr" / "INDEX" / "index.html").read_text("utf-8")
    )


@pytest.mark.parametrize("theme", THEMES)
def test_root_dot_puts_the_views_first(tmp_path: Path, theme: str) -> None:
    """The log is docs_dir itself (``roots: [.]``): views at the top, before the records."""
    folder = adr_only_site(tmp_path, theme, roots="[.]", log=False)
    write_log(tmp_path / "build")
    for f in (tmp_path / "build" / "adr").iterdir():
        f.rename(folder / "docs" / f.name)
    site = built(folder)
    items = menu((site / "INDEX" / "index.html").read_text("utf-8"), theme)
    assert items == [
        (0, "Overview"),
        (0, "Decision index"),
        (0, "Decision timeline"),
        (0, "Decision graph"),
        *((0, t) for t in RECORD_TITLES),
    ]


@pytest.mark.parametrize("theme", THEMES)
def test_a_site_with_its_own_home_and_pages_keeps_them(tmp_path: Path, theme: str) -> None:
    folder = adr_only_site(tmp_path, theme)
    (folder / "docs" / "index.md").write_text("# Shop\n\nOur handbook.\n", "utf-8")
    (folder / "docs" / "guide.md").write_text("# Guide\n\nHow we work.\n", "utf-8")
    site = built(folder)
    items = menu((site / "index.html").read_text("utf-8"), theme)
    # more than one section's worth of pages: nothing is lifted, the views lead the section
    assert top(items) == ["Shop", "Guide", "Decisions"]
    assert [t for d, t in items if d == 1][:3] == [
        "Decision index",
        "Decision timeline",
        "Decision graph",
    ]
    assert "Our handbook." in (site / "index.html").read_text("utf-8")


def test_serve_answers_the_home_page(tmp_path: Path) -> None:

    from .test_serve_site import free_port, wait_for

    folder = adr_only_site(tmp_path, "mkdocs")
    port = free_port()
    proc = start_serve(folder, port)
    try:
        page = wait_for(f"http://127.0.0.1:{port}/", r"This site publishes 10")
        assert '<a href="adr/INDEX/">Decision index</a>' in page
    finally:
        stop_serve(proc)
    assert not (folder / "docs" / "index.md").exists()  # generated, never written


# -------------------------------------------------------------------------- drift


@pytest.mark.parametrize("theme", THEMES)
def test_a_drifted_index_is_rendered_fresh_and_noted_at_info(tmp_path: Path, theme: str) -> None:
    folder = adr_only_site(tmp_path, theme)
    wrote = run_cli("index", cwd=folder)
    assert wrote.returncode == 0, wrote.stderr
    committed = folder / "docs" / "adr" / "INDEX.md"
    before = committed.read_text(encoding="utf-8")
    assert run_cli("index", "--check", cwd=folder).returncode == 0
    # a status edit after the INDEX was committed
    record = folder / "docs" / "adr" / "0007-queue-jobs-with-rabbitmq.md"
    record.write_text(
        record.read_text("utf-8").replace("status: accepted", "status: deprecated"), "utf-8"
    )
    proc = build(folder, strict=True)
    assert proc.returncode == 0, proc.stderr
    notes = [ln for ln in proc.stderr.splitlines() if "ADR010" in ln]
    assert len(notes) == 1 and notes[0].startswith("INFO"), proc.stderr
    assert notes[0].endswith("(the site shows the fresh one)")
    assert "WARNING" not in proc.stderr
    html = (folder / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    table = html.split("<table>", 1)[1]
    row = table.split("ADR-0007", 1)[1].split("</tr>", 1)[0]
    assert "deprecated" in row and "accepted" not in row
    assert committed.read_text(encoding="utf-8") == before  # the build wrote nothing
    # the CLI is where drift fails
    check = run_cli("check", cwd=folder)
    assert check.returncode == 1 and "ADR010" in check.stdout + check.stderr
    index_check = run_cli("index", "--check", cwd=folder)
    assert index_check.returncode == 1
    diff = [ln for ln in index_check.stdout.splitlines() if ln.startswith(("-|", "+|"))]
    assert len(diff) == 2 and all("ADR-0007" in ln for ln in diff), index_check.stdout


# ------------------------------------------------------------------------ offline

#: ``<link rel=...>`` values that make the browser fetch the target.
FETCHING_RELS = frozenset(
    {
        "stylesheet",
        "preconnect",
        "preload",
        "prefetch",
        "modulepreload",
        "dns-prefetch",
        "icon",
        "shortcut",
        "apple-touch-icon",
        "manifest",
    }
)


def external_requests(site: Path) -> dict[str, set[str]]:
    """Every URL on another origin that a built page loads (scripts, styles, fonts,
    images, frames, preconnects), by page."""
    found: dict[str, set[str]] = {}
    for page in sorted(site.rglob("*.html")):
        urls: set[str] = set()
        html = page.read_text(encoding="utf-8")
        for tag, attrs in tags(html):
            if tag == "link" and FETCHING_RELS & set(attrs.get("rel", "").lower().split()):
                urls.add(attrs.get("href", ""))
            elif tag in ("script", "img", "iframe", "source", "audio", "video", "embed"):
                urls.add(attrs.get("src", ""))
            elif tag == "object":
                urls.add(attrs.get("data", ""))
        urls.update(re.findall(r"@import\s+(?:url\()?['\"]?([^'\")\s;]+)", html))
        external = {u for u in urls if urlsplit(u).netloc or u.startswith("//")}
        if external:
            found[page.relative_to(site).as_posix()] = external
    return found


def test_our_own_site_loads_nothing_from_another_origin(tmp_path: Path) -> None:
    proc = run_mkdocs(
        "build",  # not --strict: a record added before the lead re-drafts CURRENT warns
        "-f",
        str(REPO / "mkdocs.yml"),
        "-d",
        str(tmp_path / "site"),
        cwd=REPO,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    pages = list((tmp_path / "site").rglob("*.html"))
    assert len(pages) > 40
    assert external_requests(tmp_path / "site") == {}


@pytest.mark.parametrize("theme", THEMES)
def test_the_plugin_adds_no_request_to_another_origin(tmp_path: Path, theme: str) -> None:
    """A default ``plugins: [adr]`` site loads from other origins exactly what the theme
    alone does (Material: Google Fonts; ``mkdocs``: highlight.js), and nothing once the
    theme's own switches are off."""
    with_adr = built(adr_only_site(tmp_path / "adr", theme))
    bare = tmp_path / "bare"
    adr_only_site(bare, theme)
    (bare / "mkdocs.yml").write_text(
        f"site_name: Shop decisions\ntheme:\n  name: {theme}\nplugins:\n  - search\n", "utf-8"
    )
    without = built(bare, strict=False)
    theirs = set().union(*external_requests(without).values())
    ours = set().union(*external_requests(with_adr).values())
    assert theirs  # the theme's defaults do fetch from elsewhere
    assert ours == theirs
    switches = "  font: false\n" if theme == "material" else "  highlightjs: false\n"
    offline = adr_only_site(tmp_path / "offline", theme)
    yml = offline / "mkdocs.yml"
    yml.write_text(
        yml.read_text("utf-8").replace(f"  name: {theme}\n", f"  name: {theme}\n{switches}"),
        "utf-8",
    )
    assert external_requests(built(offline)) == {}


# ------------------------------------------------------------------------ browser


def theme_of(site: Path) -> str:
    return "material" if (site / "assets" / "javascripts").is_dir() else "mkdocs"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    b = Browser()
    try:
        yield b
    finally:
        b.close()


@contextlib.contextmanager
def opened(
    chromium: Browser, site: Path, *, width: int, scheme: str = "light"
) -> Iterator[tuple[Any, str]]:
    """A page of a fresh context at ``width`` px; requests off the loopback are aborted."""
    with http_server(site) as base:
        context = chromium.get().new_context(
            viewport={"width": width, "height": 900}, color_scheme=scheme
        )
        page = context.new_page()
        page.route(
            "**/*",
            lambda route: (
                route.continue_() if route.request.url.startswith(base) else route.abort()
            ),
        )
        try:
            yield page, base
        finally:
            context.close()


#: The content column of each theme, and every element in it wider than the column.
OVERFLOW = """(sel) => {
  const col = document.querySelector(sel);
  const box = col.getBoundingClientRect();
  const wide = [];
  for (const el of col.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > box.right + 1 || r.left < box.left - 1)) {
      wide.push(el.tagName + '.' + (el.getAttribute('class') || '') + ' ' + Math.round(r.left)
        + '..' + Math.round(r.right));
    }
  }
  return {wide, column: [Math.round(box.left), Math.round(box.right)],
          scroll: document.documentElement.scrollWidth, inner: window.innerWidth};
}"""
COLUMN_OF = {"material": ".md-content__inner", "mkdocs": 'div[role="main"]'}


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 390])
def test_graph_page_fits_its_column_in_the_browser(
    chromium: Browser, site: Path, width: int
) -> None:
    theme = theme_of(site)
    for scheme in ("light", "dark"):
        with opened(chromium, site, width=width, scheme=scheme) as (page, base):
            page.goto(f"{base}/adr/GRAPH/")
            page.wait_for_load_state("load")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(
                path=str(ARTIFACTS / f"graphnav-{theme}-graph-{width}-{scheme}.png"),
                full_page=True,
            )
            found = page.evaluate(OVERFLOW, COLUMN_OF[theme])
            assert found["wide"] == [], found
            assert found["scroll"] <= found["inner"], found
            shown = page.locator(".adr-graph svg >> visible=true")
            assert shown.count() == 1
            drawing = shown.first.bounding_box()
            left, right = found["column"]
            assert drawing is not None and drawing["width"] <= right - left + 1
            # drawn at a readable size: not shrunk below 90% of its own
            own = float(str(shown.first.get_attribute("viewBox")).split()[2])
            assert drawing["width"] >= 0.9 * min(own, right - left), (drawing, own)
            kind = "adr-graph-narrow" if width < palette.NARROW_SCREEN else "adr-graph-svg"
            assert shown.first.get_attribute("class") == kind


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 390])
def test_a_graph_node_click_lands_on_the_record(chromium: Browser, site: Path, width: int) -> None:
    with opened(chromium, site, width=width) as (page, base):
        page.goto(f"{base}/adr/GRAPH/")
        # one drawing per screen size; the one shown is the one to click
        node = page.locator('.adr-graph a[data-adr-id="ADR-0005"] >> visible=true')
        assert node.count() == 1
        # the tooltip is the full title
        assert node.locator("title").first.text_content() == f"ADR-0005 {LONG_TITLE} (proposed)"
        node.click()
        page.wait_for_url("**/adr/0005-ship-logs-with-opentelemetry-collector-agents/")
        assert page.locator(".adr-header").get_attribute("data-adr-id") == "ADR-0005"
        # its local graph fits the column too, and links on
        found = page.evaluate(OVERFLOW, COLUMN_OF[theme_of(site)])
        assert found["wide"] == [], found
        page.locator('.adr-local-graph a[data-adr-id="ADR-0003"]').click()
        page.wait_for_url("**/adr/0003-write-logs-as-json-lines-to-standard-output/")


@pytest.mark.slow
@pytest.mark.browser
def test_proposed_and_partial_edges_look_different(chromium: Browser, site: Path) -> None:
    theme = theme_of(site)
    with opened(chromium, site, width=1280) as (page, base):
        page.goto(f"{base}/adr/GRAPH/")
        style = """(el) => { const s = getComputedStyle(el);
            return [s.stroke, s.strokeDasharray, s.strokeOpacity,
                    el.getAttribute('marker-end')]; }"""
        edges = "svg.adr-graph-svg path.adr-edge"
        accepted = page.locator(f"{edges}.adr-edge--supersedes:not(.adr-edge--proposed)")
        proposed = page.locator(f"{edges}.adr-edge--proposed")
        partial = page.locator(f"{edges}.adr-edge--partially-supersedes")
        assert (accepted.count(), proposed.count(), partial.count()) == (1, 1, 1)
        a, p, q = (x.first.evaluate(style) for x in (accepted, proposed, partial))
        assert a[1] == "none" and p[1] != "none" and q[1] != "none" and p[1] != q[1], (a, p, q)
        assert p[2] == "0.75" and a[2] == "1"
        assert q[0] != a[0]  # the partial one in its own colour
        assert p[3] != a[3]  # an open arrow head for the proposed one
        page.locator("ul.adr-graph-legend").screenshot(
            path=str(ARTIFACTS / f"graphnav-{theme}-legend.png")
        )


def click_menu(page: Any, theme: str, width: int, text: str) -> None:
    """Click the menu entry ``text``, unfolding the menu first where the theme folds it
    behind a button (both do below 800 px)."""
    if width < 800:
        toggle = (
            'label.md-header__button[for="__drawer"]'
            if theme == "material"
            else "button.navbar-toggler"
        )
        page.locator(toggle).first.click()
    link = (
        page.locator(".md-nav--primary .md-nav__link", has_text=text)
        if theme == "material"
        else page.locator(".navbar-nav .nav-link", has_text=text)
    )
    link.first.click()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 390])
def test_the_menu_of_an_adr_only_site_reaches_the_views(
    chromium: Browser, site: Path, width: int
) -> None:
    theme = theme_of(site)
    with opened(chromium, site, width=width) as (page, base):
        page.goto(f"{base}/")
        assert page.locator("h1").first.inner_text() == "Overview"
        click_menu(page, theme, width, "Decision graph")
        page.wait_for_url("**/adr/GRAPH/")
        page.screenshot(path=str(ARTIFACTS / f"graphnav-{theme}-after-menu-{width}.png"))


@pytest.fixture(scope="module", params=THEMES)
def large_site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ADR-only site with its records out of the nav (``nav_limit: 3``) and a README."""
    folder = adr_only_site(tmp_path_factory.mktemp(f"large-{request.param}"), request.param)
    yml = folder / "mkdocs.yml"
    yml.write_text(yml.read_text("utf-8").replace("adr: {}", "adr: {nav_limit: 3}"), "utf-8")
    (folder / "docs" / "adr" / "README.md").write_text("# How we decide\n\nOur log.\n", "utf-8")
    return built(folder)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 390])
def test_a_large_logs_view_bar_fits_and_reaches_each_view(
    chromium: Browser, large_site: Path, width: int
) -> None:
    """From the menu's one entry for the log to its README, then along the view bar to
    the graph and back to the INDEX; the bar stays inside the column at phone width."""
    theme = theme_of(large_site)
    with opened(chromium, large_site, width=width) as (page, base):
        page.goto(f"{base}/")
        click_menu(page, theme, width, "Decisions")
        page.wait_for_url("**/adr/")
        bar = page.locator("nav.adr-views")
        assert bar.locator('[aria-current="page"]').inner_text() == "Decisions"
        overflow = page.evaluate(OVERFLOW, COLUMN_OF[theme])
        assert overflow["wide"] == [], overflow
        page.screenshot(path=str(ARTIFACTS / f"viewbar-{theme}-readme-{width}.png"))
        bar.locator("a", has_text="Decision graph").click()
        page.wait_for_url("**/adr/GRAPH/")
        bar.locator("a", has_text="Decision index").click()
        page.wait_for_url("**/adr/INDEX/")
        assert bar.locator('[aria-current="page"]').inner_text() == "Decision index"
        assert page.locator("table a", has_text="ADR-0004").count() >= 1
        page.screenshot(path=str(ARTIFACTS / f"viewbar-{theme}-index-{width}.png"))


def test_an_ascii_log_gives_ascii_pages(site: Path) -> None:
    """What the plugin adds writes its own punctuation (the pager's arrows, the bars'
    dots, a cut title's ellipsis, a chain's arrows) as character references, so the page
    of an ASCII log stays an ASCII string through the theme and its UTF-8 encoding
    (CPython's fast path: the plugin's overhead, issue 15)."""
    pages = {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*.html"))}
    record = pages["adr/0005-ship-logs-with-opentelemetry-collector-agents/index.html"]
    assert b"&rarr;" in record and b"&larr;" in record  # its pager, both ways
    assert b"&#8230;" in pages["adr/GRAPH/index.html"]  # the long title, cut
    assert [src for src, data in pages.items() if not data.isascii()] == []
