"""The built site in headless Chromium (Debian's, through Playwright), both themes.

Each theme's demo site is built once per module and served from a thread of the test
process on a loopback port the kernel picks (port 0), so parallel workers never collide.
Requests that leave the loopback address are aborted, so the tests also show the site
works offline. Screenshots of the INDEX, a superseded record and the graph page, in light
and dark, go to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO, playwright_sync_api
from .test_site_kit import build, make_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]


CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = REPO / "test-artifacts"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def http_server(root: Path) -> Iterator[str]:
    """Serve ``root`` on a loopback port chosen by the kernel, until the block ends."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class Site:
    def __init__(self, theme: str, base: str) -> None:
        self.theme = theme
        self.base = base

    def url(self, stem: str) -> str:
        """``adr/INDEX`` -> the page's URL (both themes use directory URLs here)."""
        return f"{self.base}/{stem}/"


class Browser:
    """Chromium, launched by the first test that opens a page.

    Launched inside the test, not in fixture setup, so that a missing Playwright or
    Chromium fails each browser test with a message rather than erroring the module.
    """

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def get(self) -> Any:
        if self._browser is None:
            sync_api = playwright_sync_api()
            if not Path(CHROMIUM).exists():
                pytest.fail(
                    f"{CHROMIUM} is missing: install Debian's chromium (scripts/test.sh does)",
                    pytrace=False,
                )
            self._playwright = sync_api.sync_playwright().start()
            self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        return self._browser

    def close(self) -> None:
        if self._browser is not None:
            self._browser.close()
        if self._playwright is not None:
            self._playwright.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    b = Browser()
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="module", params=["material", "mkdocs"])
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    theme = request.param
    folder = make_site(tmp_path_factory.mktemp(f"browser-{theme}"), theme=theme)
    proc = build(folder)
    assert proc.returncode == 0, proc.stderr
    with http_server(folder / "site") as base:
        yield Site(theme, base)


def new_page(browser: Browser, site: Site, scheme: str = "light") -> tuple[Any, Any, list[str]]:
    context = browser.get().new_context(
        viewport={"width": 1280, "height": 900}, color_scheme=scheme
    )
    dialogs: list[str] = []
    page = context.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

    def only_local(route: Any) -> None:
        if route.request.url.startswith(site.base):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_local)
    return context, page, dialogs


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_index_to_superseded_record_to_its_successor(browser: Browser, site: Site) -> None:
    context, page, _ = new_page(browser, site)
    try:
        page.goto(site.url("adr/INDEX"))
        table = page.locator(".adr-index table")
        assert table.locator("tbody tr").count() == 15
        shot(page, f"{site.theme}-index-light")
        table.get_by_role("link", name="ADR-0002", exact=True).first.click()
        page.wait_for_url("**/archive/0002-use-mysql/")
        banner = page.locator(".adr-banner--superseded")
        assert banner.is_visible()
        text = banner.inner_text()
        assert "Superseded" in text and "the decision in effect now is" in text
        assert "ADR-0004 Use PostgreSQL 16" in text
        assert page.locator(".adr-banner--archived").is_visible()
        shot(page, f"{site.theme}-superseded-light")
        banner.get_by_role("link", name="ADR-0004 Use PostgreSQL 16").click()
        page.wait_for_url("**/0004-use-postgresql-16/")
        header = page.locator(".adr-header")
        assert header.get_attribute("data-adr-id") == "ADR-0004"
        assert header.locator(".adr-status").inner_text() == "accepted"
        assert page.locator(".adr-banner").count() == 0
    finally:
        context.close()


def test_click_a_graph_node(browser: Browser, site: Site) -> None:
    context, page, _ = new_page(browser, site)
    try:
        page.goto(site.url("adr/GRAPH"))
        node = page.locator('svg.adr-graph-svg a[data-adr-id="ADR-0015"]')
        assert node.count() == 1
        shot(page, f"{site.theme}-graph-light")
        node.click()
        page.wait_for_url("**/0015-sessions-in-postgresql/")
        assert page.locator(".adr-header").get_attribute("data-adr-id") == "ADR-0015"
        # and the local graph on a record page links on
        page.locator('.adr-local-graph a[data-adr-id="ADR-0014"]').click()
        page.wait_for_url("**/0014-platform-baseline/")
    finally:
        context.close()


def _search(page: Any, site: Site, query: str) -> list[str]:
    """Type ``query`` into the theme's own search box; the result links, in order."""
    if site.theme == "material":
        page.locator("label.md-search__icon, .md-search__input").first.click()
        page.locator("input.md-search__input").press_sequentially(query, delay=30)
        results = page.locator(".md-search-result__item a, a.md-search-result__link")
        results.first.wait_for(timeout=15_000)
    else:
        page.locator('a[data-bs-target="#mkdocs_search_modal"]').click()
        box = page.locator("#mkdocs-search-query")
        box.wait_for(state="visible")
        box.press_sequentially(query, delay=30)
        results = page.locator("#mkdocs-search-results article h3 a")
        results.first.wait_for(timeout=15_000)

    def links() -> list[str]:
        return [str(results.nth(i).get_attribute("href")) for i in range(results.count())]

    # Both themes search as the query is typed: results for a prefix ("ADR-000") may be
    # shown before those for the whole query. Read them once they stop changing.
    found, deadline = links(), time.monotonic() + 10
    while time.monotonic() < deadline:
        page.wait_for_timeout(400)
        again = links()
        if again == found:
            break
        found = again
    return found


def test_find_a_record_by_id_with_the_site_search(browser: Browser, site: Site) -> None:
    context, page, _ = new_page(browser, site)
    try:
        page.goto(site.url("adr/INDEX"))
        links = _search(page, site, "ADR-0007")
        assert links, "no search results"
        assert "0007-use-soap" in links[0], links
        # and by status
        page.goto(site.url("adr/INDEX"))
        links = _search(page, site, "rejected")
        assert any("0008-use-mongodb" in h for h in links), links
    finally:
        context.close()


def test_hostile_titles_show_as_text_and_run_nothing(browser: Browser, site: Site) -> None:
    context, page, dialogs = new_page(browser, site)
    try:
        for stem in (
            "adr/0012-hostile-script",
            "adr/0013-hostile-img",
            "adr/INDEX",
            "adr/GRAPH",
        ):
            page.goto(site.url(stem))
            page.wait_for_load_state("load")
            assert page.evaluate("() => window.__pwned === undefined"), stem
            assert page.evaluate("() => document.querySelectorAll('img[src=\"x\"]').length") == 0
        page.goto(site.url("adr/0012-hostile-script"))
        assert "<script>window.__pwned" in page.locator("h1").first.inner_text()
        assert "<script>window.__pwned" in page.title()
        page.goto(site.url("adr/0013-hostile-img"))
        assert '"><img src=x onerror=' in page.locator("h1").first.inner_text()
        # search results render the titles too
        # (the themes tokenize the escaped title differently: Material's index holds
        # HTML and matches prefixes, MkDocs' holds text and matches whole terms)
        img_query = "onerror" if site.theme == "material" else "img"
        for query, stem in (("friends", "0012-hostile-script"), (img_query, "0013-hostile-img")):
            page.goto(site.url("adr/INDEX"))
            links = _search(page, site, query)
            assert any(stem in h for h in links), (query, links)
            page.wait_for_timeout(300)
            assert page.evaluate("() => window.__pwned === undefined")
            assert page.evaluate("() => document.querySelectorAll('img[src=\"x\"]').length") == 0
        assert dialogs == []
    finally:
        context.close()


def test_dark_scheme_screenshots(browser: Browser, site: Site) -> None:
    context, page, _ = new_page(browser, site, scheme="dark")
    try:
        for stem, name in (
            ("adr/INDEX", "index"),
            ("adr/archive/0002-use-mysql", "superseded"),
            ("adr/GRAPH", "graph"),
        ):
            page.goto(site.url(stem))
            page.wait_for_load_state("load")
            shot(page, f"{site.theme}-{name}-dark")
        # the page really is dark: the body background is darker than mid grey
        bg = page.evaluate(
            "() => getComputedStyle(document.querySelector('.md-main, body')).backgroundColor"
        )
        rgb = [int(x) for x in bg[bg.index("(") + 1 : bg.index(")")].split(",")[:3]]
        assert sum(rgb) < 3 * 128, bg
        # graph labels outside the boxes follow the text colour (light on dark)
        legend = page.locator(".adr-graph-legend text").first
        color = legend.evaluate("el => getComputedStyle(el).fill")
        rgbf = [int(x) for x in color[color.index("(") + 1 : color.index(")")].split(",")[:3]]
        assert sum(rgbf) > 3 * 128, color
    finally:
        context.close()
