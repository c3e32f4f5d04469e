"""Real ``mkdocs build`` runs of small sites, in both themes, checking the HTML."""

from __future__ import annotations

import json
import posixpath
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from mkdocs_adr.config import from_options
from mkdocs_adr.log import load
from mkdocs_adr.views import index as index_view

from .conftest import LOGS, SITES, copy_project_site, run_cli, tree_digest
from .test_site_kit import HOSTILE_IMG, HOSTILE_SCRIPT, build, make_site

pytestmark = pytest.mark.slow

THEMES = ("material", "mkdocs")


# --------------------------------------------------------------------------- helpers


def page_path(site: Path, url: str) -> Path:
    """The file a site-relative URL is served from."""
    path = site / unquote(urlsplit(url).path)
    return path / "index.html" if url.endswith("/") or path.is_dir() else path


def resolve(site: Path, html_file: Path, href: str) -> Path:
    """Where a relative ``href`` found in ``html_file`` points inside ``site``."""
    base = html_file.parent.relative_to(site).as_posix()
    target = posixpath.normpath(posixpath.join(base, unquote(urlsplit(href).path)))
    out = site / target
    if href.split("#")[0].endswith("/") or out.is_dir():
        out = out / "index.html"
    return out


def hrefs(html: str, pattern: str = r'<a [^>]*href="([^"#]+)[^"]*"') -> list[str]:
    return [h for h in re.findall(pattern, html) if not urlsplit(h).scheme]


class Built:
    def __init__(self, folder: Path, use_directory_urls: bool = True) -> None:
        self.folder = folder
        self.site = folder / "site"
        self.dirs = use_directory_urls

    def page(self, src: str) -> Path:
        """The output file of a docs-relative Markdown path."""
        stem = src[: -len(".md")]
        if stem == "README" or stem.endswith("/README"):  # a folder's page, as index.md
            stem = stem[: -len("README")] + "index"
        if not self.dirs:
            return self.site / f"{stem}.html"
        if stem.endswith("/index") or stem == "index":
            return self.site / f"{stem}.html"
        return self.site / stem / "index.html"

    def html(self, src: str) -> str:
        return self.page(src).read_text(encoding="utf-8")


@pytest.fixture(scope="module", params=THEMES)
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The demo log, Material with directory URLs and read_guard warn; the mkdocs
    theme with .html URLs and read_guard guard."""
    theme = request.param
    folder = tmp_path_factory.mktemp(f"demo-{theme}")
    if theme == "material":
        make_site(folder, theme=theme, options="fail_on: never\nread_guard: warn")
        dirs = True
    else:
        make_site(
            folder,
            theme=theme,
            options="fail_on: never\nread_guard: guard",
            extra="use_directory_urls: false\n",
        )
        dirs = False
    proc = build(folder)
    assert proc.returncode == 0, proc.stderr
    return Built(folder, dirs)


# --------------------------------------------------------------------------- pages


def test_record_header(demo: Built) -> None:
    html = demo.html("adr/0004-use-postgresql-16.md")
    assert 'class="adr-header" data-adr-id="ADR-0004" data-adr-status="accepted"' in html
    assert re.search(r'class="adr-status adr-status--accepted"[^>]*>accepted</span>', html)
    assert "Deciders: alice, bob" in html
    assert "Date: 2024-03-01" in html
    # relations: who it supersedes, and the translation
    assert re.search(r"Supersedes:</span> <a class=\"adr-ref\" href=\"[^\"]+\">ADR-0003 ", html)
    assert "Translations:" in html
    # the header sits right after the title
    assert html.index("</h1>") < html.index('class="adr-header"') < html.index("Context</h2>")


@pytest.mark.parametrize(
    ("src", "kinds"),
    [
        ("adr/0001-record-architecture-decisions.md", []),
        ("adr/archive/0002-use-mysql.md", ["superseded", "archived"]),
        ("adr/0004-use-postgresql-16.md", []),
        ("adr/0005-use-cron.md", ["superseded-pending"]),
        ("adr/0006-use-a-workflow-engine.md", ["proposed"]),
        ("adr/0007-use-soap.md", ["deprecated"]),
        ("adr/0008-use-mongodb.md", ["rejected"]),
        ("adr/0009-use-graphql.md", ["draft"]),
        ("adr/0010-use-kafka.md", ["unknown"]),
        ("adr/0011-use-redis.md", ["missing"]),
        ("adr/0014-platform-baseline.md", ["units-partial"]),
        ("adr/zh/0004-use-postgresql-16.md", ["translation"]),
    ],
)
def test_each_banner_kind(demo: Built, src: str, kinds: list[str]) -> None:
    html = demo.html(src)
    assert re.findall(r'<div class="admonition \w+ adr-banner adr-banner--([\w-]+)"', html) == (
        kinds
    )
    # an admonition the theme styles, with a title
    for kind in kinds:
        block = html.split(f"adr-banner--{kind}", 1)[1]
        assert block.lstrip('">').startswith('<p class="admonition-title">')


def test_superseded_banner_links_the_current_successor(demo: Built) -> None:
    page = demo.page("adr/archive/0002-use-mysql.md")
    html = page.read_text(encoding="utf-8")
    banner = html.split("adr-banner--superseded", 1)[1].split("</div>", 1)[0]
    assert "the decision in effect now is" in banner
    links = hrefs(banner)
    targets = [resolve(demo.site, page, h) for h in links]
    assert targets[-1] == demo.page("adr/0004-use-postgresql-16.md")
    assert all(t.is_file() for t in targets)


def test_every_internal_link_we_write_resolves(demo: Built) -> None:
    checked = 0
    for page in demo.site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        for block in re.findall(
            r'<div class="adr-(?:header|local-graph)".*?</div>|<nav class="adr-pager".*?</nav>'
            r'|<div class="admonition[^"]*adr-banner.*?</div>',
            html,
            flags=re.S,
        ):
            for h in hrefs(block):
                assert resolve(demo.site, page, h).is_file(), (page, h)
                checked += 1
    assert checked > 50


def test_graph_page_nodes_link_to_existing_pages(demo: Built) -> None:
    page = demo.page("adr/GRAPH.md")
    html = page.read_text(encoding="utf-8")
    nodes = re.findall(r'<a href="([^"]+)" class="adr-node[^"]*" data-adr-id="([^"]+)"', html)
    assert {rid for _, rid in nodes} == {
        "ADR-0002",
        "ADR-0003",
        "ADR-0004",
        "ADR-0005",
        "ADR-0006",
        "ADR-0012",
        "ADR-0013",
        "ADR-0014",
        "ADR-0015",
    }
    for href, rid in nodes:
        target = resolve(demo.site, page, href)
        assert target.is_file(), href
        assert f'data-adr-id="{rid}"' in target.read_text(encoding="utf-8")
    # a legend, no script, and the unrelated records listed as links
    assert 'class="adr-graph-legend"' in html
    drawings = re.findall(r"<svg .*?</svg>", html, flags=re.S)
    assert len(drawings) >= 2 and not any("<script" in d for d in drawings)
    assert "ADR-0001</a>" in html


def test_local_graph_on_record_pages(demo: Built) -> None:
    html = demo.html("adr/archive/0003-use-postgresql-12.md")
    local = html.split('class="adr-local-graph"', 1)[1]
    assert set(re.findall(r'data-adr-id="([^"]+)"', local.split("</svg>")[0])) == {
        "ADR-0002",
        "ADR-0003",
        "ADR-0004",
    }
    lonely = demo.html("adr/0001-record-architecture-decisions.md")
    assert "adr-local-graph" not in lonely


def test_pager_steps_through_records_in_index_order(demo: Built) -> None:
    page = demo.page("adr/0004-use-postgresql-16.md")
    html = page.read_text(encoding="utf-8")
    pager = html.split('<nav class="adr-pager"', 1)[1].split("</nav>", 1)[0]
    prev = re.search(r'class="adr-prev" rel="prev" href="([^"]+)"', pager)
    nxt = re.search(r'class="adr-next" rel="next" href="([^"]+)"', pager)
    assert prev and nxt
    assert resolve(demo.site, page, prev.group(1)) == demo.page(
        "adr/archive/0003-use-postgresql-12.md"
    )
    assert resolve(demo.site, page, nxt.group(1)) == demo.page("adr/0005-use-cron.md")
    assert "Index</a>" in pager and "Graph</a>" in pager


def test_hostile_titles_are_text_everywhere(demo: Built) -> None:
    assert any(demo.site.rglob("*.html"))
    for page in demo.site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert (
            "window.__pwned" not in html
            or page.name == "404.html"
            or ("<script>window.__pwned" not in html and "<img src=x onerror" not in html)
        ), page
    html = demo.html("adr/0012-hostile-script.md")
    assert "&lt;script&gt;window.__pwned" in html
    # the navigation and <title> carry the escaped title too
    assert re.search(r"<title>ADR-0012: &lt;script&gt;", html)
    index = json.loads((demo.site / "search" / "search_index.json").read_text("utf-8"))
    assert HOSTILE_IMG.split()[0] in json.dumps(index) or "img src=x" in json.dumps(index)
    assert HOSTILE_SCRIPT


def test_mirror_and_original_link_each_other(demo: Built) -> None:
    mirror = demo.page("adr/zh/0004-use-postgresql-16.md")
    html = mirror.read_text(encoding="utf-8")
    banner = html.split("adr-banner--translation", 1)[1].split("</div>", 1)[0]
    (back,) = hrefs(banner)
    assert resolve(demo.site, mirror, back) == demo.page("adr/0004-use-postgresql-16.md")
    original = demo.page("adr/0004-use-postgresql-16.md")
    trans = original.read_text("utf-8").split('class="adr-translations"', 1)[1].split("</p>")[0]
    (there,) = hrefs(trans)
    assert resolve(demo.site, original, there) == mirror


def test_redirect_pages_for_old_locations(demo: Built) -> None:
    # redirect-from frontmatter (ADR-0002) and an archive receipt (ADR-0003)
    for old, new in [
        ("adr/0002-use-mysql.md", "adr/archive/0002-use-mysql.md"),
        ("adr/0003-use-postgresql-12.md", "adr/archive/0003-use-postgresql-12.md"),
    ]:
        page = demo.page(old)
        html = page.read_text(encoding="utf-8")
        (url,) = re.findall(r'http-equiv="refresh" content="0; url=([^"]+)"', html)
        assert resolve(demo.site, page, url) == demo.page(new)
    # the hostile receipt entries wrote nothing anywhere
    assert not list(demo.site.rglob("passwd*"))
    assert not (demo.folder / "x.md").exists() and not (demo.site.parent.parent / "x.md").exists()


def test_search_index_finds_ids_and_statuses(demo: Built) -> None:
    index = json.loads((demo.site / "search" / "search_index.json").read_text("utf-8"))
    page = "adr/0004-use-postgresql-16/" if demo.dirs else "adr/0004-use-postgresql-16.html"
    entries = [d for d in index["docs"] if d["location"].split("#")[0] == page]
    text = " ".join(d["title"] + " " + d["text"] for d in entries)
    assert "ADR-0004" in text and "accepted" in text
    # the relations and local graph name other records but are not indexed with this page
    assert "ADR-0003" not in text


def test_read_guard_in_the_built_index(demo: Built) -> None:
    index = json.loads((demo.site / "search" / "search_index.json").read_text("utf-8"))
    archived = "adr/archive/0002-use-mysql/" if demo.dirs else "adr/archive/0002-use-mysql.html"
    entries = [d for d in index["docs"] if d["location"].split("#")[0] == archived]
    if demo.dirs:  # Material, read_guard: warn
        assert len(entries) > 1 and all(e["title"].startswith("[archived] ") for e in entries)
        assert any("Some context." in e["text"] for e in entries)
    else:  # mkdocs theme, read_guard: guard
        assert [e["title"] for e in entries] == ["ADR-0002: Use MySQL"]
        assert "Some context." not in entries[0]["text"]
    live = "adr/0004-use-postgresql-16/" if demo.dirs else "adr/0004-use-postgresql-16.html"
    assert any(d["location"].startswith(live) and "Zebrafish" in d["text"] for d in index["docs"])


# --------------------------------------------------------------------------- INDEX


def test_index_page_is_the_cli_output(demo: Built, tmp_path: Path) -> None:
    html = demo.html("adr/INDEX.md")
    rows = re.findall(
        r'<tr data-order="\d+"[^>]*><td class="adr-col-id" data-label="ID" '
        r'data-sort="[^"]+"><a class="adr-cell-id[^"]*" href="([^"]+)">(ADR-\d{4})</a>',
        html,
    )
    assert [rid for _, rid in rows] == [f"ADR-{i:04d}" for i in range(1, 16)]
    for href, _ in rows:
        assert resolve(demo.site, demo.page("adr/INDEX.md"), href).is_file()
    # the page is rendered from exactly the bytes `mkdocs-adr index` writes
    project = shutil.copytree(demo.folder, tmp_path / "p", ignore=shutil.ignore_patterns("site"))
    assert run_cli("index", cwd=project).returncode == 0
    written = (project / "docs" / "adr" / "INDEX.md").read_bytes()
    config = from_options({}, project_dir=project, docs_dir=project / "docs", config_file=None)
    log = load(config)
    assert written == index_view.render(log, log.roots[0]).encode()
    first = tree_digest(project / "docs")
    assert run_cli("index", cwd=project).returncode == 0
    assert tree_digest(project / "docs") == first  # byte-identical regeneration
    assert run_cli("index", "--check", cwd=project).returncode == 0


def test_drifted_index_is_regenerated_and_reported(tmp_path: Path) -> None:
    folder = make_site(tmp_path / "drift", theme="mkdocs")
    stale = index_view.MARKER + "\n\n# Old index\n\n| ID |\n|---|\n| ADR-0001 |\n"
    (folder / "docs" / "adr" / "INDEX.md").write_text(stale, encoding="utf-8")
    proc = build(folder)
    assert proc.returncode == 0
    assert "ADR010" in proc.stderr
    html = (folder / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    assert "Old index" not in html and "ADR-0015" in html
    assert (folder / "docs" / "adr" / "INDEX.md").read_text("utf-8") == stale  # untouched


def test_user_owned_index_is_never_touched(tmp_path: Path) -> None:
    folder = make_site(tmp_path / "owned", theme="mkdocs")
    mine = "# Our own index\n\nHand-written.\n"
    (folder / "docs" / "adr" / "INDEX.md").write_text(mine, encoding="utf-8")
    before = tree_digest(folder / "docs")
    proc = build(folder)
    assert proc.returncode == 0
    assert "ADR009" in proc.stderr and "docs/adr/INDEX.generated.md" in proc.stderr
    assert tree_digest(folder / "docs") == before
    own = (folder / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    assert "Hand-written." in own
    generated = (folder / "site" / "adr" / "INDEX.generated" / "index.html").read_text("utf-8")
    assert "ADR-0015" in generated
    cli = run_cli("index", cwd=folder)
    assert cli.returncode == 0 and "user-owned" in cli.stdout
    assert tree_digest(folder / "docs") == before


# --------------------------------------------------------------------------- nav


def _nav_links(html: str, theme: str) -> list[str]:
    if theme == "material":
        nav = html.split('<nav class="md-nav md-nav--primary"', 1)[1]
        nav = nav.split('<div class="md-sidebar md-sidebar--secondary"')[0]
    else:
        nav = html.split('id="navbar-collapse"', 1)[1].split('class="nav navbar-nav ms-md-auto"')[0]
    return re.findall(r'href="([^"]+)"', nav)


@pytest.mark.parametrize("theme", THEMES)
def test_nav_index_keeps_records_out_of_the_nav_but_reachable(tmp_path: Path, theme: str) -> None:
    folder = make_site(tmp_path / theme, theme=theme, options="fail_on: never\nnav_limit: 5")
    assert build(folder).returncode == 0
    site = Built(folder)
    links = _nav_links(site.html("index.md"), theme)
    # one entry for the log, its README; the views are a bar on it (ADR-0054)
    assert "adr/" in links and not any("INDEX" in h or "GRAPH" in h for h in links)
    assert not any("0004-use-postgresql-16" in h or "/zh/" in h for h in links)
    bar = re.search(r'<nav class="adr-views"[^>]*>(.*?)</nav>', site.html("adr/README.md"))
    assert bar is not None
    assert re.findall(r'href="([^"]+)"', bar.group(1)) == ["INDEX/", "TIMELINE/", "GRAPH/"]
    assert "0004-use-postgresql-16" in site.html("adr/INDEX.md")
    record = site.html("adr/0004-use-postgresql-16.md")
    assert "adr-pager" in record
    if theme == "mkdocs":  # the theme's own previous/next buttons step between records
        assert re.search(r'rel="prev" href="[^"]*0003-use-postgresql-12', record)
    full = make_site(tmp_path / f"{theme}-full", theme=theme, options="fail_on: never\nnav: full")
    assert build(full).returncode == 0
    links = " ".join(_nav_links(Built(full).html("index.md"), theme))
    assert "0004-use-postgresql-16" in links


def test_explicit_nav_in_index_mode_is_pruned(tmp_path: Path) -> None:
    folder = make_site(
        tmp_path / "explicit",
        theme="mkdocs",
        options="fail_on: never\nnav: index",
        extra=(
            "nav:\n  - Home: index.md\n  - Decisions:\n"
            "      - adr/0001-record-architecture-decisions.md\n"
            "      - adr/0004-use-postgresql-16.md\n"
        ),
    )
    proc = build(folder)
    assert proc.returncode == 0, proc.stderr
    links = _nav_links(Built(folder).html("index.md"), "mkdocs")
    assert any("INDEX" in h for h in links)
    assert not any("0001-record" in h or "0004-use" in h for h in links)


# --------------------------------------------------------------------------- strict


@pytest.mark.parametrize("name", ["flat", "layered"])
def test_example_sites_build_strict(name: str, tmp_path: Path) -> None:
    src = SITES / name
    if not (src / "mkdocs.yml").exists():
        pytest.fail(f"site_src/{name} is missing")
    folder = shutil.copytree(src, tmp_path / name, ignore=shutil.ignore_patterns("site"))
    proc = build(folder, strict=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    html = (folder / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    assert "adr-index" in html


def test_project_site_builds_strict(tmp_path: Path) -> None:
    folder = copy_project_site(tmp_path / "project")
    proc = build(folder, strict=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (folder / "site" / "adr" / "INDEX" / "index.html").is_file()


def test_strict_fails_on_a_log_with_errors(tmp_path: Path) -> None:
    folder = make_site(tmp_path / "messy", theme="mkdocs", options="fail_on: error", log="none")
    shutil.copytree(LOGS / "messy" / "adr", folder / "docs" / "adr")
    proc = build(folder, strict=True)
    assert proc.returncode == 1
    assert "ADR002" in proc.stderr and "Aborted" in proc.stderr + proc.stdout


def test_strict_is_clean_on_a_clean_log(tmp_path: Path) -> None:
    folder = make_site(tmp_path / "clean", theme="material", options="fail_on: warning", log="none")
    shutil.copytree(LOGS / "adrtools" / "adr", folder / "docs" / "adr")
    proc = build(folder, strict=True)
    assert proc.returncode == 0, proc.stderr
    assert "WARNING" not in proc.stderr
