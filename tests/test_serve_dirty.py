"""Rebuilds under ``mkdocs serve`` (ADR-0045): the pages whose additions depend on an
edited record are rebuilt, with and without ``--dirty``; a page whose inputs did not
change is reused, and reads as a fresh build's."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from .conftest import new_plugin_instances, start_serve, stop_serve
from .test_serve_site import fetch, free_port, wait_for
from .test_site_kit import make_site

pytestmark = pytest.mark.slow

EDITED = "docs/adr/0006-use-a-workflow-engine.md"


def reject_0006(folder: Path) -> None:
    record = folder / EDITED
    text = record.read_text(encoding="utf-8")
    assert 'status: "proposed"' in text
    record.write_text(text.replace('status: "proposed"', 'status: "rejected"'), "utf-8")


def pages(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_mtime_ns for p in site.rglob("*.html")}


def index_status(html: str, rid: str) -> str:
    row = re.search(rf"data-sort=\"{rid}\".*?</tr>", html, re.S)
    assert row is not None, rid
    found = re.search(r"adr-status--(\w+)", row.group(0))
    assert found is not None
    return found.group(1)


def in_process_builds(folder: Path, *, dirty: bool, edit: bool = True) -> tuple[dict, dict]:
    """Two builds with one plugin instance, as ``mkdocs serve`` runs them; the output
    files' mtimes after each (0006 rejected in between)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    site = folder / "site"
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    config.plugins.on_startup(command="serve", dirty=dirty)
    build(config, dirty=dirty)
    first = pages(site)
    time.sleep(0.02)
    if edit:
        reject_0006(folder)
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    build(config, dirty=dirty)
    config.plugins.on_shutdown()
    return first, pages(site)


def test_dirty_rebuild_rebuilds_the_pages_that_name_the_edited_record(tmp_path: Path) -> None:
    folder = make_site(tmp_path / "dirty", theme="mkdocs")
    first, second = in_process_builds(folder, dirty=True)
    rebuilt = {k for k in second if first.get(k) != second[k]}
    records = {k for k in rebuilt if re.match(r"adr/(archive/)?\d{4}-", k)}
    # the record itself; 0005, whose banner names its successor 0006; 0007, whose pager
    # steps back to 0006; and the redirect pages (generated, always written)
    assert records == {
        "adr/0002-use-mysql/index.html",
        "adr/0003-use-postgresql-12/index.html",
        "adr/0005-use-cron/index.html",
        "adr/0006-use-a-workflow-engine/index.html",
        "adr/0007-use-soap/index.html",
    }
    assert {"adr/INDEX/index.html", "adr/GRAPH/index.html", "adr/TIMELINE/index.html"} <= rebuilt
    assert "adr/0001-record-architecture-decisions/index.html" not in rebuilt
    site = folder / "site"
    older = (site / "adr/0005-use-cron/index.html").read_text("utf-8")
    assert "ADR-0006 Use a workflow engine</a> (rejected)" in older
    assert index_status((site / "adr/INDEX/index.html").read_text("utf-8"), "ADR-0006") == (
        "rejected"
    )


def test_a_rebuild_that_reuses_pages_reads_as_a_fresh_build(tmp_path: Path) -> None:
    """Without --dirty every page is rendered again, the unchanged ones from memory."""
    folder = make_site(tmp_path / "again", theme="mkdocs")
    in_process_builds(folder, dirty=False)
    fresh = make_site(tmp_path / "fresh", theme="mkdocs")
    reject_0006(fresh)
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    with new_plugin_instances():
        build(load_config(str(fresh / "mkdocs.yml"), site_dir=str(fresh / "site")))
    again = folder / "site"
    compared = 0
    for path in sorted((fresh / "site" / "adr").rglob("*.html")):
        rel = path.relative_to(fresh / "site")
        assert (again / rel).read_text("utf-8") == path.read_text("utf-8"), rel
        compared += 1
    assert compared > 15


@pytest.mark.parametrize("dirty", [False, True], ids=["serve", "serve-dirty"])
def test_serve_shows_the_edit_on_every_page_that_names_it(tmp_path: Path, dirty: bool) -> None:
    folder = make_site(tmp_path / "serve", theme="mkdocs")
    port = free_port()
    proc = start_serve(folder, port, *(["--dirty"] if dirty else []))
    base = f"http://127.0.0.1:{port}/adr"
    try:
        before = wait_for(f"{base}/0005-use-cron/", r"adr-banner")
        assert "ADR-0006 Use a workflow engine</a> (proposed)" in before
        index = fetch(f"{base}/INDEX/") or ""
        assert index_status(index, "ADR-0006") == "proposed"
        reject_0006(folder)
        wait_for(f"{base}/0006-use-a-workflow-engine/", r"adr-banner--rejected")
        older = wait_for(f"{base}/0005-use-cron/", r"\(rejected\)")
        assert "ADR-0006 Use a workflow engine</a> (rejected)" in older
        assert index_status(fetch(f"{base}/INDEX/") or "", "ADR-0006") == "rejected"
    finally:
        out = stop_serve(proc)
    assert "Traceback" not in out, out


def test_a_rebuild_after_a_prose_edit_quotes_the_new_decision(tmp_path: Path) -> None:
    """A text edit keeps every view's inputs but the agent files' summaries: INDEX and
    graph are reused, llms.txt and index.json say the new first sentence."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    folder = make_site(tmp_path / "prose", theme="mkdocs")
    site = folder / "site"
    record = folder / "docs" / "adr" / "0004-use-postgresql-16.md"
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    config.plugins.on_startup(command="serve", dirty=False)
    plugin = config.plugins["adr"]
    build(config)
    assert "Zebrafish marker." in (site / "llms.txt").read_text("utf-8")
    index_before = plugin.memory.views["index:adr"]
    record.write_text(
        record.read_text("utf-8").replace("Zebrafish marker.", "Okapi marker."), "utf-8"
    )
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    build(config)
    config.plugins.on_shutdown()
    assert plugin.site.views_fresh
    assert plugin.memory.views["index:adr"] is index_before  # not made again
    llms_txt = (site / "llms.txt").read_text("utf-8")
    assert "Okapi marker." in llms_txt and "Zebrafish" not in llms_txt
    entries = (site / "adr" / "index.json").read_text("utf-8")
    assert "Okapi marker." in entries and "Zebrafish" not in entries
    assert "Okapi marker." in (site / "adr/0004-use-postgresql-16/index.html").read_text("utf-8")


def test_dirty_rebuild_after_a_rename_links_the_new_url(tmp_path: Path) -> None:
    """A record renamed on disk: every page that links it is rebuilt with its new URL."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    folder = make_site(tmp_path / "rename", theme="mkdocs")
    site = folder / "site"
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    config.plugins.on_startup(command="serve", dirty=True)
    build(config, dirty=True)
    older = site / "adr/0005-use-cron/index.html"
    assert 'href="../0006-use-a-workflow-engine/"' in older.read_text("utf-8")
    (folder / EDITED).rename(folder / "docs/adr/0006-use-a-flow-engine.md")
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    build(config, dirty=True)
    config.plugins.on_shutdown()
    html = older.read_text("utf-8")
    assert 'href="../0006-use-a-flow-engine/"' in html
    assert "0006-use-a-workflow-engine/" not in html
