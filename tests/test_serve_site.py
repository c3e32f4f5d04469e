"""``mkdocs serve``: a real server on a free loopback port sees an edited record; and the
plugin's state does not grow across rebuilds."""

from __future__ import annotations

import re
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .conftest import start_serve, stop_serve, tree_digest
from .test_site_kit import make_site

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return str(resp.read().decode("utf-8"))
    except (urllib.error.URLError, OSError):
        return None


def wait_for(url: str, pattern: str, timeout: float = 90) -> str:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = fetch(url)
        if last is not None and re.search(pattern, last):
            return last
        time.sleep(0.3)
    raise AssertionError(f"{url} never matched {pattern!r}; last page:\n{(last or '')[:2000]}")


def test_serve_rebuilds_an_edited_record_with_its_new_banner(tmp_path: Path) -> None:
    folder = make_site(tmp_path / "serve", theme="mkdocs")
    record = folder / "docs" / "adr" / "0006-use-a-workflow-engine.md"
    port = free_port()
    proc = start_serve(folder, port)
    url = f"http://127.0.0.1:{port}/adr/0006-use-a-workflow-engine/"
    try:
        before = wait_for(url, r"adr-banner--proposed")
        assert "adr-banner--rejected" not in before
        docs_before = tree_digest(folder / "docs")
        record.write_text(
            record.read_text(encoding="utf-8").replace('status: "proposed"', 'status: "rejected"'),
            encoding="utf-8",
        )
        after = wait_for(url, r"adr-banner--rejected")
        assert "adr-banner--proposed" not in after
        # the record it would have superseded now names a rejected successor
        older = fetch(f"http://127.0.0.1:{port}/adr/0005-use-cron/") or ""
        assert "(rejected)" in older
        # the build wrote nothing into docs_dir: only our own edit changed it
        changed = {k for k, v in tree_digest(folder / "docs").items() if docs_before.get(k) != v}
        assert changed == {"adr/0006-use-a-workflow-engine.md"}
    finally:
        out = stop_serve(proc)
    assert "Traceback" not in out, out


def test_plugin_state_does_not_grow_across_rebuilds(tmp_path: Path) -> None:
    """Builds in one process reuse the plugin instance, as ``mkdocs serve`` does."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    folder = make_site(tmp_path / "rebuilds", theme="mkdocs")
    record = folder / "docs" / "adr" / "0004-use-postgresql-16.md"
    sizes = []
    plugins = []
    for i in range(4):
        config = load_config(str(folder / "mkdocs.yml"), site_dir=str(folder / "site"))
        config.plugins.on_startup(command="serve", dirty=False)
        plugin = config.plugins["adr"]
        plugins.append(plugin)
        build(config)
        state = plugin.site
        sizes.append(
            (
                len(plugin.cache),
                len(state.record_at),
                len(state.view_at),
                len(state.archived_urls),
                len(state.files_by_src),
                len(config.extra_css),
                len(plugin.memory.pages),
                len(plugin.memory.views),
            )
        )
        record.write_text(record.read_text("utf-8") + f"\nEdit {i}.\n", encoding="utf-8")
        config.plugins.on_shutdown()
    assert all(p is plugins[0] for p in plugins), "the plugin instance is kept across rebuilds"
    # rebuilds reuse what the first build filled in (ADR-0045): fewer file lookups
    assert len(set(sizes[1:])) == 1, sizes
    assert all(a >= b for a, b in zip(sizes[0], sizes[1], strict=True)), sizes
    assert plugins[0].cache.hits > 0  # unchanged records were not parsed again
