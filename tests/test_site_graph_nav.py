"""Issue 13 items 3, 4, 5 and 7: a graph that fits and reads, navigation for an ADR-only
site, drift left to the CLI, and no request to another origin.

Every site here is a real ``mkdocs build`` of an ADR-only project (``docs/`` holds only
``adr/``, no home page) in both themes. The log is written the way a small team writes
Nygard records with frontmatter relations: a supersession in effect, one only proposed,
a partial supersession, and two amendments that cross when the records are laid out in
id order.
"""

from __future__ import annotations

import re
import textwrap
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from mkdocs_adr.config import from_options
from mkdocs_adr.log import load
from mkdocs_adr.views import dot, graphdata, mermaid, svg

from .conftest import REPO, run_cli
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
        r'<svg xmlns="http://www.w3.org/2000/svg" class="adr-graph-svg".*?</svg>', html, flags=re.S
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
    css = (site / "assets" / "mkdocs-adr" / "adr.css").read_text(encoding="utf-8")
    assert "width: 100%; height: auto;" in css


def test_titles_wrap_and_the_full_title_is_the_tooltip(site: Path) -> None:
    html = graph_page(site)
    node = html.split('data-adr-id="ADR-0005"', 1)[1].split("</a>", 1)[0]
    assert f"<title>ADR-0005 {LONG_TITLE} (proposed)</title>" in node
    lines = re.findall(r'font-size="11">([^<]*)</text>', node)
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
        "ADR-0005 supersedes ADR-0003 (proposed: ADR-0003 stays in effect until ADR-0005 is accepted)"
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
