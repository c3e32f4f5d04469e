"""After an archive the example sites still build with ``mkdocs build --strict``, the
archived page shows its banner, and the old URL redirects (in headless Chromium too)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin

import pytest

from .archive_lab import invoke, json_of
from .conftest import SITES, playwright_sync_api

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: An archived record of each example site, and the place it moves to.
CASES = {
    "flat": (
        "ADR-0003",
        "adr/0003-use-rest-polling-for-sync/",
        "adr/archive/0003-use-rest-polling-for-sync/",
    ),
    "layered": (
        "ADR-0006",
        "adr/data/0006-give-analysts-a-read-replica/",
        "adr/archive/data/0006-give-analysts-a-read-replica/",
    ),
}

pytestmark = pytest.mark.slow


def archived_site(tmp_path: Path, name: str) -> Path:
    site = tmp_path / name
    shutil.copytree(SITES / name, site, symlinks=True)
    code, out, err = invoke("archive", "--json", cwd=site)
    assert code == 0, err
    data = json_of(out)
    assert CASES[name][0] in {r["id"] for r in data["records"]}
    code, out, err = invoke("plan", "--confirm", data["plan_id"], cwd=site)
    assert code == 0, out + err
    return site


def build(site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", "site"],
        cwd=site,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_strict_build_after_an_archive(tmp_path: Path, name: str) -> None:
    site = archived_site(tmp_path, name)
    proc = build(site)
    assert proc.returncode == 0, proc.stderr
    assert "WARNING" not in proc.stderr, proc.stderr
    _, old, new = CASES[name]
    page = (site / "site" / new / "index.html").read_text("utf-8")
    assert "adr-banner--archived" in page
    redirect = (site / "site" / old / "index.html").read_text("utf-8")
    assert 'http-equiv="refresh"' in redirect
    target = re.search(r'http-equiv="refresh" content="0; url=([^"]+)"', redirect)
    assert target is not None
    assert urljoin("https://site.test/" + old, target.group(1)) == "https://site.test/" + new


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(CASES))
def test_old_url_redirects_to_the_archived_page_in_chromium(tmp_path: Path, name: str) -> None:
    pw_api = playwright_sync_api()
    expect, sync_playwright = pw_api.expect, pw_api.sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium is required (docs/adr/0006)"
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    site = archived_site(tmp_path, name)
    assert build(site).returncode == 0
    rid, old, new = CASES[name]
    with serving(site / "site") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(url + old)
            page.wait_for_url(url + new, timeout=15_000)
            banner = page.locator(".adr-banner--archived")
            expect(banner).to_be_visible()
            expect(banner).to_contain_text("Archived")
            expect(page.locator("body")).to_contain_text(rid)
        finally:
            browser.close()
