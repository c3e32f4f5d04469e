"""The DRAFT preview under `mkdocs serve`, and the banners in a real browser.

`mkdocs serve` runs for real in a subprocess; the browser test drives Debian's
Chromium through Playwright (docs/adr/0006).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import load
from mkdocs_adr.preview import preview_pages

from .conftest import playwright_sync_api, tree_digest
from .test_summary_support import (
    banner,
    build,
    checkout_env,
    confirm,
    copy_site,
    draft,
    publish,
)

ADR = "docs/adr"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def review_file(site: Path, plan_id: str) -> Path:
    return site / ".mkdocs-adr/plans" / plan_id / "review" / ADR / "CURRENT.md"


def previews(site: Path, preview: str = "auto") -> list[tuple[str, str, str]]:
    log = load(load_from_mkdocs_yml(site / "mkdocs.yml"))
    pages, _ = preview_pages(log, preview)
    return [(p.src_uri, p.plan_id, p.banner) for p in pages]


# -------------------------------------------------------------------------- engine


def test_preview_picks_the_newest_unpublished_draft(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    assert previews(site) == []
    first = publish(site)
    assert previews(site) == []  # published: nothing to preview
    rec = site / ADR / "0004-store-notes-in-postgresql.md"
    rec.write_text(
        rec.read_text("utf-8").replace("stateless", "stateless and fast"), encoding="utf-8"
    )
    second = draft(site)
    [(src, plan_id, html)] = previews(site)
    assert src == "adr/CURRENT.md" and plan_id == second != first
    assert f"DRAFT: unpublished summary plan {second}" in html
    assert "sources changed: ADR-0004" in html and "lines added" in html
    assert previews(site, "off") == []
    assert previews(site, second)[0][1] == second
    assert previews(site, "summary-unknown") == []
    review_file(site, second).write_text("# Edited\n", encoding="utf-8")
    assert "includes your edits to the review copy" in previews(site)[0][2]


def test_mkdocs_build_never_publishes_a_draft(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    draft(site)
    docs_before = tree_digest(site / "docs")
    out = build(site)
    assert not (out / "adr/CURRENT/index.html").exists()
    assert "DRAFT" not in "".join(p.read_text("utf-8") for p in out.rglob("*.html"))
    assert tree_digest(site / "docs") == docs_before


# -------------------------------------------------------------------------- serve


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(site: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "serve",
            "-f",
            str(site / "mkdocs.yml"),
            "-a",
            f"127.0.0.1:{port}",
        ],
        cwd=site,
        env=checkout_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for(lambda: fetch(url) is not None, what="mkdocs serve to answer")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            text: str = resp.read().decode("utf-8")
            return text
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def wait_for(predicate: Callable[[], bool], *, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


def current_banner(url: str) -> tuple[str, str] | None:
    html = fetch(url + "adr/CURRENT/")
    if html is None or "adr-current-banner" not in html:
        return None
    return banner(html)


@pytest.mark.slow
def test_mkdocs_serve_previews_the_draft_and_reloads_edits(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    publish(site)
    rec = site / ADR / "0004-store-notes-in-postgresql.md"
    rec.write_text(
        rec.read_text("utf-8").replace("stateless", "stateless and fast"), encoding="utf-8"
    )
    plan_id = draft(site)
    with serving(site) as url:
        state, text = current_banner(url) or ("", "")
        assert state == "draft", text
        assert f"DRAFT: unpublished summary plan {plan_id}" in text
        assert "sources changed: ADR-0004" in text
        assert "stateless and fast" in (fetch(url + "adr/CURRENT/") or "")
        # the reviewer edits the draft: the served page follows
        review = review_file(site, plan_id)
        review.write_text(
            review.read_text("utf-8").replace(
                "## Decisions in effect", "## Decisions in effect\n\nReviewed wording 42."
            ),
            encoding="utf-8",
        )
        wait_for(
            lambda: "Reviewed wording 42." in (fetch(url + "adr/CURRENT/") or ""),
            what="the edited draft to be served",
        )
        assert "includes your edits" in (current_banner(url) or ("", ""))[1]
        # published: the preview gives way to the published page, fresh
        confirm(site, plan_id)
        wait_for(
            lambda: (current_banner(url) or ("",))[0] == "fresh",
            what="the fresh banner after publishing",
        )
        assert "Reviewed wording 42." in (fetch(url + "adr/CURRENT/") or "")
        # a source edit makes it stale, naming the record
        rec.write_text(rec.read_text("utf-8") + "\nOne more thing.\n", encoding="utf-8")
        wait_for(
            lambda: (current_banner(url) or ("",))[0] == "stale",
            what="the stale banner after a source edit",
        )
        assert "ADR-0004 was modified" in (current_banner(url) or ("", ""))[1]


# -------------------------------------------------------------------------- browser


@pytest.mark.browser
@pytest.mark.slow
def test_browser_shows_draft_then_stale_banner(tmp_path: Path) -> None:
    pw_api = playwright_sync_api()
    expect, sync_playwright = pw_api.expect, pw_api.sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium is required (docs/adr/0006)"
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    site = copy_site(tmp_path, "layered")
    publish(site)
    rec = site / ADR / "data/0008-use-bigquery-for-analytics.md"
    rec.write_text(rec.read_text("utf-8").replace("BigQuery", "BigQuery (EU)", 1), encoding="utf-8")
    plan_id = draft(site, "--domain", "data")
    with serving(site) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page_ = browser.new_page()
            page_.goto(url + "adr/CURRENT/")
            draft_banner = page_.locator('[data-adr-current="draft"]')
            expect(draft_banner).to_be_visible()
            expect(draft_banner).to_contain_text(f"DRAFT: unpublished summary plan {plan_id}")
            expect(draft_banner).to_contain_text("sources changed: ADR-0008")
            assert draft_banner.evaluate("e => getComputedStyle(e).display") != "none"
            # editing the draft reloads the open page (livereload), no manual reload
            review = review_file(site, plan_id)
            review.write_text(
                review.read_text("utf-8").replace(
                    "## Open proposals", "Browser-visible reviewer note.\n\n## Open proposals"
                ),
                encoding="utf-8",
            )
            expect(page_.get_by_text("Browser-visible reviewer note.")).to_be_visible(
                timeout=30_000
            )
            # publish, then edit a source: the open page turns stale
            confirm(site, plan_id)
            expect(page_.locator('[data-adr-current="fresh"]')).to_be_visible(timeout=30_000)
            rec.write_text(
                rec.read_text("utf-8").replace("BigQuery (EU)", "BigQuery (US)", 1),
                encoding="utf-8",
            )
            stale = page_.locator('[data-adr-current="stale"]')
            expect(stale).to_be_visible(timeout=30_000)
            expect(stale).to_contain_text("ADR-0008")
            expect(stale).to_contain_text("was modified")
            link = stale.locator("a", has_text="ADR-0008")
            href = link.get_attribute("href")
            assert href is not None and "0008-use-bigquery-for-analytics" in href
            link.click()
            expect(page_).to_have_url(url + "adr/data/0008-use-bigquery-for-analytics/")
        finally:
            browser.close()
