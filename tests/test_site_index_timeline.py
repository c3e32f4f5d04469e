"""Status at a glance, the INDEX readers use, and the timeline (issue 13 items 1 and 2).

A real ``mkdocs build`` of a small layered log written for these tests: an accepted
record, a superseded one with its successor, an accepted record whose successor is only
proposed, a partial supersession, a rejected and a deprecated record, tags, deciders,
domains, an id of 70 characters and a hostile title. The HTML is asserted exactly where
it matters (badges, links, the successor's "(proposed)", the proposed-replacement
banner); the browser tests (``slow``) check filters, sorting, the table without
JavaScript, and that nothing is wider than its column, in Material light and dark,
desktop and 390 px, and in the ``mkdocs`` theme.
"""

from __future__ import annotations

import html as html_lib
import json
import re
import shutil
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO, playwright_sync_api, run_cli, run_mkdocs

HOSTILE = 'Escape <img src=x onerror="window.__pwned=1"> & <b>bold</b> in titles'
LONG_ID = "OBSERVABILITY-TRACING-SAMPLING-POLICY-FOR-EDGE-GATEWAYS-AND-BATCH-WORKERS"
ARTIFACTS = REPO / "test-artifacts"


def _record(root: Path, rel: str, title: str, body: str = "", **fields: object) -> None:
    lines = ["---"]
    for key, value in fields.items():
        key = key.replace("_", "-")
        lines.append(f"{key}: {json.dumps(value)}")
    lines.append("---")
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "\n".join(lines) + f"\n\n# {title}\n\n" + textwrap.dedent(body)
    if "## Context" not in text:
        text += "\n## Context\n\nWhy we looked at it.\n\n## Decision\n\nWhat we chose.\n"
    path.write_text(text, encoding="utf-8")


def write_log(folder: Path, theme: str) -> None:
    """A billing and platform decision log, layered by domain, as a small team keeps it."""
    docs = folder / "docs"
    root = docs / "decisions"
    root.mkdir(parents=True)
    (docs / "index.md").write_text("# Handbook\n\nOur decisions are in the log.\n", "utf-8")
    (root / "0001-record-architecture-decisions.md").write_text(
        "# 1. Record architecture decisions\n\nDate: 2025-01-06\n\n## Status\n\nAccepted\n\n"
        "## Context\n\nWe keep forgetting why.\n\n## Decision\n\nWe write ADRs.\n",
        "utf-8",
    )
    _record(
        root,
        "platform/0002-run-jobs-on-one-cron-host.md",
        "Run jobs on one cron host",
        status="superseded",
        date="2025-01-20",
        tags=["scheduling", "infra"],
        deciders=["Ana Ruiz", "Tomás Ek"],
        superseded_by=["ADR-0004"],
    )
    _record(
        root,
        "billing/0003-invoice-in-the-customers-currency.md",
        "Invoice in the customer's currency",
        status="accepted",
        date="2025-02-11",
        tags=["money"],
        deciders=["Li Wei"],
    )
    _record(
        root,
        "platform/0004-schedule-jobs-with-kubernetes-cronjobs.md",
        "Schedule jobs with Kubernetes CronJobs",
        status="accepted",
        date="2025-03-04",
        tags=["scheduling"],
        supersedes=["ADR-0002"],
    )
    _record(
        root,
        "billing/0005-round-amounts-half-even.md",
        "Round amounts half-even",
        status="accepted",
        date="2025-03-18",
        tags=["money"],
    )
    _record(
        root,
        "platform/0006-keep-sessions-in-memcached.md",
        "Keep sessions in Memcached",
        status="rejected",
        date="2025-03-25",
    )
    _record(
        root,
        "billing/0007-invoice-in-euros-only.md",
        "Invoice in euros only",
        status="proposed",
        date="2026-11-20",
        tags=["money"],
        supersedes=["ADR-0003"],
    )
    _record(
        root,
        "billing/0008-round-tax-per-invoice-line.md",
        "Round tax per invoice line",
        status="accepted",
        date="2026-11-02",
        partially_supersedes=["ADR-0005"],
    )
    _record(
        root,
        "platform/0009-write-logs-to-local-files.md",
        "Write logs to local files",
        status="deprecated",
        date="2024-12-01",
    )
    _record(root, "platform/0010-escape-titles.md", HOSTILE, status="accepted", date="2026-11-20")
    _record(
        root,
        "platform/0011-sample-traces-at-the-edge.md",
        "Sample traces at the edge",
        id=LONG_ID,
        status="accepted",
        tags=["observability"],
    )
    if theme == "material":
        theme_yaml = textwrap.dedent(
            """\
            theme:
              name: material
              font: false
              palette:
                - scheme: default
                  toggle: {icon: material/weather-night, name: Dark}
                - scheme: slate
                  toggle: {icon: material/weather-sunny, name: Light}
            """
        )
    else:
        theme_yaml = "theme:\n  name: mkdocs\n  highlightjs: false\n  color_mode: auto\n"
    (folder / "mkdocs.yml").write_text(
        "site_name: Billing and platform decisions\n"
        + theme_yaml
        + "markdown_extensions: [admonition, toc]\n"
        + "plugins:\n  - search\n  - adr:\n      roots: [decisions]\n      layout: layered\n",
        "utf-8",
    )


@dataclass
class Built:
    folder: Path
    theme: str
    stderr: str

    def html(self, page: str) -> str:
        return (self.folder / "site" / page / "index.html").read_text("utf-8")


def build_site(folder: Path, theme: str) -> Built:
    write_log(folder, theme)
    proc = run_mkdocs("build", "--strict", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return Built(folder, theme, proc.stderr)


@pytest.fixture(scope="module")
def material(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return build_site(tmp_path_factory.mktemp("material"), "material")


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return build_site(tmp_path_factory.mktemp("mkdocs"), "mkdocs")


def _rows(index_html: str) -> list[str]:
    return re.findall(r"<tr data-order=.*?</tr>", index_html, re.S)


def _row(index_html: str, rid: str) -> str:
    found = [r for r in _rows(index_html) if f">{rid}</a></td>" in r]
    assert len(found) == 1, (rid, found)
    return found[0]


# --------------------------------------------------------------------- record header


def test_header_badge_and_proposed_successor(material: Built) -> None:
    page = material.html("decisions/billing/0003-invoice-in-the-customers-currency")
    assert (
        '<span class="adr-status adr-status--accepted" title="Status: accepted">accepted</span>'
        in page
    )
    # the successor is named with its status, and the banner says the old one binds
    assert (
        '<li><span class="adr-label">Superseded by:</span> <a class="adr-ref" '
        'href="../0007-invoice-in-euros-only/">ADR-0007 Invoice in euros only</a> '
        '<span class="adr-note adr-pending">(proposed)</span></li>'
    ) in page
    assert (
        '<div class="admonition info adr-banner adr-banner--replacement-proposed">'
        '<p class="admonition-title">A replacement is proposed</p><p>A replacement is '
        'proposed: <a class="adr-ref" href="../0007-invoice-in-euros-only/">ADR-0007 '
        'Invoice in euros only</a> <span class="adr-note adr-pending">(proposed)</span>. '
        "This decision stays in effect until a successor is accepted.</p></div>"
    ) in page
    assert "adr-banner--superseded" not in page  # ADR-0025: it stays in effect
    assert page.count('class="admonition ') == 1


def test_accepted_successor_has_no_note(material: Built) -> None:
    page = material.html("decisions/platform/0002-run-jobs-on-one-cron-host")
    assert 'class="adr-status adr-status--superseded"' in page
    assert "adr-banner--superseded" in page and "replacement-proposed" not in page
    rels = page[page.index('<ul class="adr-relations">') :]
    rels = rels[: rels.index("</ul>")]
    assert "adr-pending" not in rels
    assert "ADR-0004 Schedule jobs with Kubernetes CronJobs" in rels


def test_badge_classes_for_every_status_in_the_stylesheet(material: Built) -> None:
    css = (material.folder / "site" / "assets" / "mkdocs-adr" / "adr.css").read_text("utf-8")
    for status in (
        "accepted",
        "proposed",
        "draft",
        "superseded",
        "deprecated",
        "rejected",
        "unknown",
        "missing",
    ):
        assert re.search(rf"\.adr-status--{status} \{{ background-color: #[0-9a-f]{{6}}; \}}", css)
    assert "adr-badge" not in css


# --------------------------------------------------------------------- page status


def test_material_page_status_is_ours_with_tooltips(material: Built) -> None:
    page = material.html("decisions/billing/0003-invoice-in-the-customers-currency")
    nav = page[page.index('<nav class="md-nav md-nav--primary"') :]
    nav = nav[: nav.index("</nav>\n</div>") if "</nav>\n</div>" in nav else len(nav)]
    spans = re.findall(r'<span class="md-status md-status--([^"]+)"(?: title="([^"]*)")?', page)
    shown = {k: t for k, t in spans}
    # every icon is one of ours, and each has its tooltip
    assert shown == {
        "adr-superseded": "Superseded: its page names the successor",
        "adr-rejected": "Rejected: never in effect",
        "adr-proposed": "Proposed: not in effect yet",
        "adr-deprecated": "Deprecated: no longer in effect",
    }
    assert len(spans) == 4  # accepted records carry none
    css = (material.folder / "site" / "assets" / "mkdocs-adr" / "adr.css").read_text("utf-8")
    for key in shown:
        assert f".md-status--{key}:after {{ -webkit-mask-image: url(" in css


def test_mkdocs_theme_has_no_page_status(plain: Built) -> None:
    page = plain.html("decisions/billing/0003-invoice-in-the-customers-currency")
    assert "md-status" not in page
    assert "A replacement is proposed" in page


# --------------------------------------------------------------------- INDEX


def test_index_table_links_badges_and_columns(material: Built) -> None:
    page = material.html("decisions/INDEX")
    heads = re.findall(r'<th data-key="([a-z]+)" aria-sort="none">([^<]+)</th>', page)
    # grouped by domain: the headings say the domain, the rows carry it for the filter
    assert heads[:7] == [
        ("id", "ID"),
        ("title", "Title"),
        ("status", "Status"),
        ("date", "Date"),
        ("tags", "Tags"),
        ("deciders", "Deciders"),
        ("successor", "Successor"),
    ]
    rows = _rows(page)
    assert len(rows) == 11
    assert _row(page, "ADR-0002") == (
        '<tr data-order="5" data-status="superseded" data-domain="platform" '
        'data-tags="[&quot;scheduling&quot;, &quot;infra&quot;]">'
        '<td class="adr-col-id" data-label="ID" data-sort="ADR-0002">'
        '<a class="adr-cell-id adr-cell-id--short" '
        'href="../platform/0002-run-jobs-on-one-cron-host/">ADR-0002</a></td>'
        '<td class="adr-col-title" data-label="Title">'
        '<a href="../platform/0002-run-jobs-on-one-cron-host/">Run jobs on one cron host</a></td>'
        '<td class="adr-col-status" data-label="Status" data-sort="3">'
        '<span class="adr-status adr-status--superseded" title="Status: superseded">'
        "superseded</span></td>"
        '<td class="adr-col-date" data-label="Date">2025-01-20</td>'
        '<td class="adr-col-tags" data-label="Tags"><span class="adr-tag">scheduling</span> '
        '<span class="adr-tag">infra</span></td>'
        '<td class="adr-col-deciders" data-label="Deciders">Ana Ruiz, Tomás Ek</td>'
        '<td class="adr-col-successor" data-label="Successor">'
        '<a href="../platform/0004-schedule-jobs-with-kubernetes-cronjobs/" '
        'title="Schedule jobs with Kubernetes CronJobs">ADR-0004</a></td></tr>'
    )
    # an accepted record with a proposed successor names it, with "(proposed)"
    assert (
        '<td class="adr-col-successor" data-label="Successor">'
        '<a href="../billing/0007-invoice-in-euros-only/" title="Invoice in euros only">'
        'ADR-0007</a> <span class="adr-note adr-pending">(proposed)</span></td>'
    ) in _row(page, "ADR-0003")
    for rid, status in [("ADR-0006", "rejected"), ("ADR-0009", "deprecated")]:
        assert f'data-status="{status}"' in _row(page, rid)
        assert f'class="adr-status adr-status--{status}"' in _row(page, rid)
    # the hostile title is text, in the table as everywhere
    hostile = _row(page, "ADR-0010")
    assert html_lib.escape(HOSTILE) in hostile
    assert "<img" not in hostile and "<b>" not in hostile
    assert f">{LONG_ID}</a>" in _row(page, LONG_ID)
    # the script is inline, from the package: no request for it
    assert page.count("<script>/* mkdocs-adr: filters and sorting for the INDEX") == 1
    assert "adr-filters" in page and 'src="http' not in page.split("adr-index")[1]
    # the controls' words come from the page (one place for a translation to set them)
    assert page.count("data-adr-labels=") == 1
    assert "&quot;count&quot;: &quot;{shown} of {total} records&quot;" in page


def test_index_groups_by_domain_and_numbers_rows_across_tables(material: Built) -> None:
    page = material.html("decisions/INDEX")
    groups = re.findall(r"<h2 id=\"([^\"]+)\">", page)
    assert groups[:3] == ["no-domain", "billing", "platform"]
    orders = [int(n) for n in re.findall(r'<tr data-order="(\d+)"', page)]
    assert orders == list(range(11))


def test_committed_index_stays_plain_markdown(material: Built, tmp_path: Path) -> None:
    project = shutil.copytree(
        material.folder, tmp_path / "p", ignore=shutil.ignore_patterns("site")
    )
    assert run_cli("index", cwd=project).returncode == 0
    text = (project / "docs" / "decisions" / "INDEX.md").read_text("utf-8")
    assert "adr-status" not in text and "<span" not in text and "<script" not in text
    assert (
        "| [ADR-0003](billing/0003-invoice-in-the-customers-currency.md) | Invoice in the "
        "customer's currency | accepted | 2025-02-11 | billing |  |"
    ) in text
    # the committed INDEX is fresh: building again reports no drift
    proc = run_mkdocs("build", "--strict", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "ADR010" not in proc.stderr


def test_flat_root_shows_a_domain_column(tmp_path: Path) -> None:
    from mkdocs_adr.config import from_options
    from mkdocs_adr.log import load
    from mkdocs_adr.views import index as index_view

    root = tmp_path / "docs" / "adr"
    _record(root, "0001-use-queues.md", "Use queues", status="accepted", domain="orders")
    _record(root, "0002-use-cron.md", "Use cron", status="draft", date="2026-02-01")
    config = from_options({}, project_dir=tmp_path, docs_dir=tmp_path / "docs", config_file=None)
    log = load(config)
    _records, tables = index_view.tables(log, log.roots[0])
    columns = index_view.site_columns(tables)
    assert [k for k, _ in columns] == ["id", "title", "status", "date", "domain", "successor"]
    drawn = index_view.site_table_html(log, tables[0], lambda r: None, columns)
    # without pages (href None) the ids and titles are text, never empty links
    assert "<a " not in drawn
    assert (
        '<td class="adr-col-id" data-label="ID" data-sort="ADR-0001">'
        '<span class="adr-cell-id adr-cell-id--short">ADR-0001</span></td>'
    ) in drawn
    assert '<td class="adr-col-domain" data-label="Domain">orders</td>' in drawn
    assert '<td class="adr-col-status" data-label="Status" data-sort="2">' in drawn  # draft


def test_draft_successor_and_a_superseded_record_with_a_proposal(tmp_path: Path) -> None:
    from mkdocs_adr.config import from_options
    from mkdocs_adr.log import load
    from mkdocs_adr.views import index as index_view
    from mkdocs_adr.views import page as page_view

    root = tmp_path / "docs" / "adr"
    _record(root, "0001-use-sqlite.md", "Use SQLite", status="accepted")
    _record(root, "0002-use-duckdb.md", "Use DuckDB", status="draft", supersedes=["ADR-0001"])
    _record(
        root,
        "0003-ship-nightly.md",
        "Ship nightly",
        status="superseded",
        superseded_by=["ADR-0004"],
    )
    _record(root, "0004-ship-weekly.md", "Ship weekly", status="proposed", supersedes=["ADR-0003"])
    config = from_options({}, project_dir=tmp_path, docs_dir=tmp_path / "docs", config_file=None)
    log = load(config)
    ctx = page_view.PageContext.build(log)

    def href(rid: str) -> str:
        return f"{rid}.html"

    first = log.get("ADR-0001")
    assert first is not None
    assert page_view.relations(ctx, first, href) == (
        '<ul class="adr-relations"><li><span class="adr-label">Superseded by:</span> '
        '<a class="adr-ref" href="ADR-0002.html">ADR-0002 Use DuckDB</a> '
        '<span class="adr-note adr-pending">(draft)</span></li></ul>'
    )
    assert page_view.banners(ctx, first, href) == [
        '<div class="admonition info adr-banner adr-banner--replacement-proposed">'
        '<p class="admonition-title">A replacement is proposed</p><p>A replacement is proposed: '
        '<a class="adr-ref" href="ADR-0002.html">ADR-0002 Use DuckDB</a> <span class="adr-note '
        'adr-pending">(draft)</span>. This decision stays in effect until a successor is '
        "accepted.</p></div>"
    ]
    # marked superseded, but its successor is only proposed: the pending banner (ADR006's
    # situation), the header and the INDEX name the successor with "(proposed)"
    third = log.get("ADR-0003")
    assert third is not None
    [banner] = page_view.banners(ctx, third, href)
    assert "adr-banner--superseded-pending" in banner and "replacement-proposed" not in banner
    assert "ADR-0004 Ship weekly</a> " in page_view.relations(ctx, third, href)
    assert '<span class="adr-note adr-pending">(proposed)</span>' in page_view.relations(
        ctx, third, href
    )
    cell = index_view.successor_html(index_view.site_successors(log, third), lambda r: None)
    assert cell == 'ADR-0004 <span class="adr-note adr-pending">(proposed)</span>'
    fourth = log.get("ADR-0004")
    assert fourth is not None and index_view.site_successors(log, fourth) == []


def test_the_shipped_script_requests_nothing() -> None:
    from mkdocs_adr.site import index_script

    script = index_script()
    assert script.startswith("/* mkdocs-adr: filters and sorting for the INDEX tables")
    for needle in ("fetch(", "XMLHttpRequest", "http:", "https:", "import(", "</script", ".src"):
        assert needle not in script, needle


# --------------------------------------------------------------------- timeline


def test_timeline_groups_by_month_newest_first(material: Built) -> None:
    page = material.html("decisions/TIMELINE")
    months = re.findall(r'<h2 id="([^"]+)">([^<]+)', page)
    assert [m[1] for m in months] == [
        "2026-11",
        "2025-03",
        "2025-02",
        "2025-01",
        "2024-12",
        "Undated",
    ]
    ids = re.findall(r'<div class="adr-timeline-entry" data-adr-id="([^"]+)"', page)
    assert ids == [
        "ADR-0010",
        "ADR-0007",
        "ADR-0008",
        "ADR-0006",
        "ADR-0005",
        "ADR-0004",
        "ADR-0003",
        "ADR-0002",
        "ADR-0001",
        "ADR-0009",
        LONG_ID,
    ]
    assert "11 records, newest first; 1 without a date, listed last." in page
    entry = page[page.index('data-adr-id="ADR-0003"') :]
    entry = entry[: entry.index("</div>")]
    assert entry == (
        'data-adr-id="ADR-0003" data-status="accepted">'
        '<span class="adr-timeline-date">2025-02-11</span> '
        '<a class="adr-timeline-title" href="../billing/0003-invoice-in-the-customers-currency/">'
        "ADR-0003 Invoice in the customer&#x27;s currency</a> "
        '<span class="adr-status adr-status--accepted" title="Status: accepted">accepted</span> '
        '<span class="adr-timeline-successor"><span class="adr-label">Successor:</span> '
        '<a href="../billing/0007-invoice-in-euros-only/" title="Invoice in euros only">'
        'ADR-0007</a> <span class="adr-note adr-pending">(proposed)</span></span>'
    )
    assert "<img" not in page.split('class="adr-timeline"')[1]


def test_timeline_is_next_to_index_in_the_nav(material: Built, plain: Built) -> None:
    for built in (material, plain):
        page = built.html("decisions/0001-record-architecture-decisions")
        order = re.findall(
            r'<a href="\.\./(INDEX|TIMELINE|GRAPH)/" '
            r'class="(?:md-nav__link|dropdown-item|nav-link)"',
            page,
        )
        firsts = [n for i, n in enumerate(order) if n not in order[:i]]
        assert firsts[:3] == ["INDEX", "TIMELINE", "GRAPH"], (built.theme, order)


def test_timeline_and_index_tables_stay_out_of_search(material: Built) -> None:
    index = json.loads(
        (material.folder / "site" / "search" / "search_index.json").read_text("utf-8")
    )
    for doc in index["docs"]:
        if doc["location"].startswith(("decisions/TIMELINE/", "decisions/INDEX/")):
            assert "Invoice in euros only" not in doc["text"], doc["location"]


# --------------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = playwright_sync_api()
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            yield chromium
        finally:
            chromium.close()


def _served(built: Built) -> Iterator[str]:
    from .test_browser_site import http_server

    with http_server(built.folder / "site") as base:
        yield base


@pytest.fixture(scope="module")
def material_url(material: Built) -> Iterator[str]:
    yield from _served(material)


@pytest.fixture(scope="module")
def plain_url(plain: Built) -> Iterator[str]:
    yield from _served(plain)


#: (theme, scheme, width): Material light and dark, desktop and phone; the mkdocs theme.
LOOKS = [
    ("material", "default", 1280),
    ("material", "slate", 1280),
    ("material", "default", 390),
    ("material", "slate", 390),
    ("mkdocs", "", 1280),
    ("mkdocs", "", 390),
    ("mkdocs", "dark", 1280),
]


def _page(browser: Any, base: str, scheme: str, width: int, *, js: bool = True) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": 900},
        java_script_enabled=js,
        color_scheme="dark" if scheme == "dark" else "light",
    )
    if scheme in ("default", "slate"):  # Material's palette toggle, remembered
        palette = json.dumps(
            {"index": 0 if scheme == "default" else 1, "color": {"scheme": scheme}}
        )
        context.add_init_script(
            f"try {{ localStorage.setItem('/.__palette', {json.dumps(palette)}) }} catch (e) {{}}"
        )
    page = context.new_page()
    outside: list[str] = []

    def only_local(route: Any) -> None:
        if route.request.url.startswith(base):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    page.outside = outside
    return context, page


def _overflowing(page: Any, selector: str) -> list[str]:
    """Elements under ``selector`` whose content is wider than their box, and the
    container wider than the page's content column."""
    return page.evaluate(
        """(selector) => {
          const bad = [];
          const main = document.querySelector('article, [role=main], .md-content') || document.body;
          for (const el of document.querySelectorAll(selector)) {
            if (el.scrollWidth > el.clientWidth + 1)
              bad.push(el.tagName + '.' + el.className + ' ' + el.scrollWidth + '>' + el.clientWidth
                       + ' ' + el.textContent.slice(0, 40));
          }
          const box = main.getBoundingClientRect();
          for (const el of document.querySelectorAll(selector)) {
            const r = el.getBoundingClientRect();
            if (r.width > 0 && r.right > box.right + 1)
              bad.push('outside column: ' + el.tagName + ' ' + el.textContent.slice(0, 40));
          }
          if (document.documentElement.scrollWidth > window.innerWidth + 1)
            bad.push('page scrolls sideways: ' + document.documentElement.scrollWidth);
          return bad;
        }""",
        selector,
    )


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _visible_ids(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        ".adr-index-table tbody tr:not([hidden]) td.adr-col-id",
        "cells => cells.filter(c => c.offsetParent !== null).map(c => c.innerText.trim())",
    )


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(("theme", "scheme", "width"), LOOKS)
def test_index_filters_sort_and_fit(
    browser: Any,
    material_url: str,
    plain_url: str,
    theme: str,
    scheme: str,
    width: int,
) -> None:
    base = material_url if theme == "material" else plain_url
    context, page = _page(browser, base, scheme, width)
    look = f"{theme}{'-' + scheme if scheme else ''}-{width}"
    try:
        page.goto(f"{base}/decisions/INDEX/")
        if theme == "material":
            assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == scheme
        elif scheme == "dark":
            assert page.evaluate("document.documentElement.getAttribute('data-bs-theme')") == "dark"
        bar = page.locator("form.adr-filters")
        assert bar.count() == 1
        assert page.locator(".adr-count").inner_text() == "11 of 11 records"
        assert _overflowing(page, ".adr-index-table td, .adr-index-table th, .adr-filters") == []
        _shot(page, f"index-{look}")
        page.select_option("select[name=status]", "accepted")
        assert page.locator(".adr-count").inner_text() == "7 of 11 records"
        assert _visible_ids(page) == [
            "ADR-0001",
            "ADR-0003",
            "ADR-0005",
            "ADR-0008",
            "ADR-0004",
            "ADR-0010",
            LONG_ID,
        ]
        page.select_option("select[name=tag]", "money")
        assert _visible_ids(page) == ["ADR-0003", "ADR-0005"]
        # the platform and undated groups have no match left: their headings hide too
        assert page.locator("h2#platform").is_hidden()
        assert page.locator("h2#billing").is_visible()
        page.select_option("select[name=status]", "")
        page.select_option("select[name=tag]", "")
        page.select_option("select[name=domain]", "platform")
        assert page.locator(".adr-count").inner_text() == "6 of 11 records"
        page.select_option("select[name=domain]", "")
        page.fill("input[name=q]", "ana ruiz")
        assert _visible_ids(page) == ["ADR-0002"]
        page.fill("input[name=q]", "")
        assert page.locator(".adr-count").inner_text() == "11 of 11 records"
        # sorting: by date, newest last then first (undated last either way)
        page.locator("th[data-key=date] button").first.click()
        assert page.locator("th[data-key=date]").first.get_attribute("aria-sort") == "ascending"
        assert _sorted_per_table(page, "date", reverse=False)
        page.locator("th[data-key=date] button").first.click()
        assert page.locator("th[data-key=date]").first.get_attribute("aria-sort") == "descending"
        assert _sorted_per_table(page, "date", reverse=True)
        page.locator("th[data-key=id] button").first.click()
        assert _sorted_per_table(page, "id", reverse=False)
        _shot(page, f"index-{look}-sorted")
        assert page.outside == []
    finally:
        context.close()


def _sorted_per_table(page: Any, key: str, *, reverse: bool) -> bool:
    tables = page.eval_on_selector_all(
        ".adr-index-table",
        f"""blocks => blocks.map(b => Array.from(b.querySelectorAll('tbody tr td.adr-col-{key}'))
              .map(c => c.getAttribute('data-sort') ?? c.innerText.trim()))""",
    )
    collator = lambda values: sorted(  # noqa: E731
        values, key=lambda v: [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", v)]
    )
    for values in tables:
        filled = [v for v in values if v]
        assert values[: len(filled)] == filled, values  # empty cells last
        expected = collator(filled)
        if reverse:
            expected.reverse()
        assert filled == expected, (key, reverse, values)
    return True


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("theme", ["material", "mkdocs"])
def test_index_without_javascript_is_complete(
    browser: Any, material_url: str, plain_url: str, theme: str
) -> None:
    base = material_url if theme == "material" else plain_url
    for width in (1280, 390):
        context, page = _page(browser, base, "", width, js=False)
        try:
            page.goto(f"{base}/decisions/INDEX/")
            assert page.locator("form.adr-filters").count() == 0
            rows = page.locator(".adr-index-table tbody tr")
            assert rows.count() == 11
            assert all(rows.nth(i).is_visible() for i in range(11))
            assert page.get_by_role("link", name="Invoice in euros only", exact=True).count() == 1
            assert _overflowing(page, ".adr-index-table td, .adr-index-table th") == []
            _shot(page, f"index-{theme}-{width}-nojs")
        finally:
            context.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(("theme", "scheme", "width"), LOOKS)
def test_timeline_and_record_in_the_browser(
    browser: Any,
    material_url: str,
    plain_url: str,
    theme: str,
    scheme: str,
    width: int,
) -> None:
    base = material_url if theme == "material" else plain_url
    context, page = _page(browser, base, scheme, width)
    look = f"{theme}{'-' + scheme if scheme else ''}-{width}"
    try:
        page.goto(f"{base}/decisions/TIMELINE/")
        entries = page.locator(".adr-timeline-entry")
        assert entries.count() == 11
        assert _overflowing(page, ".adr-timeline-entry, .adr-timeline-entry > *") == []
        _shot(page, f"timeline-{look}")
        page.locator('.adr-timeline-entry[data-adr-id="ADR-0003"] a.adr-timeline-title').click()
        page.wait_for_url("**/0003-invoice-in-the-customers-currency/")
        banner = page.locator(".adr-banner--replacement-proposed")
        assert banner.is_visible()
        assert banner.inner_text().startswith("A replacement is proposed")
        assert page.locator(".adr-relations .adr-pending").inner_text() == "(proposed)"
        badge = page.locator(".adr-header .adr-status")
        assert badge.inner_text() == "accepted"
        color = badge.evaluate("b => getComputedStyle(b).backgroundColor")
        assert color == "rgb(46, 125, 50)"  # the accepted colour, from our stylesheet
        if theme == "material" and width > 1000:
            icon = page.locator(".md-nav .md-status--adr-proposed").first
            assert icon.get_attribute("title") == "Proposed: not in effect yet"
            assert icon.is_visible()
            assert page.locator(".md-nav .md-status:not([title])").count() == 0
        _shot(page, f"record-{look}")
        assert page.outside == []
    finally:
        context.close()
