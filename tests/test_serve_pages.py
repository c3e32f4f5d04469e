"""Serve rebuilds after one record edit (ADR-0045, ADR-0052): a page's inputs are worked
out again only when a record they were worked out from changed (the dependency index),
its Markdown step only when what it reads changed; the rebuilt site reads byte for byte
as a fresh build of the edited tree, and under ``--dirty`` exactly the pages that must
change are rebuilt.

The edits are the ones an author makes to a record others show: a successor accepted
(the banner of the record it replaces changes), a successor back to proposed (the
record it replaces binds again), a title (shown in other pages' relation lines, local
graphs and pagers) and a new relation (shown on both pages).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr import site as site_module

from .conftest import new_plugin_instances
from .test_site_kit import make_site

#: name -> (record file, text before, text after)
EDITS = {
    "successor-accepted": (
        "0006-use-a-workflow-engine.md",
        'status: "proposed"',
        'status: "accepted"',
    ),
    "successor-proposed": (
        "0004-use-postgresql-16.md",
        'status: "accepted"',
        'status: "proposed"',
    ),
    "title": (
        "0004-use-postgresql-16.md",
        'title: "Use PostgreSQL 16"',
        'title: "Use PostgreSQL 17"',
    ),
    "relation": (
        "0007-use-soap.md",
        'status: "deprecated"',
        'status: "deprecated"\nrelates-to: ["ADR-0001"]',
    ),
    "duplicate-id": ("0011-use-redis.md", 'id: "ADR-0011"', 'id: "ADR-0004"'),
    "declared-successor": (
        "0009-use-graphql.md",
        'status: "draft"',
        'status: "accepted"\nsupersedes: ["ADR-0008"]',
    ),
}

A = "adr/"
#: the record pages whose inputs each edit makes the rebuild work out again: the edited
#: record, the records its edit shows on (its successor's, its predecessors' banners
#: and relation lines, local graphs that draw it) and its pager neighbours
WORKED_OUT = {
    # ADR-0004 claimed twice: neither is a node any more, so the records that name it
    # (its predecessors' successor, the pagers) and the pages around both change
    "duplicate-id": {
        f"{A}archive/0002-use-mysql.md",
        f"{A}archive/0003-use-postgresql-12.md",
        f"{A}0004-use-postgresql-16.md",
        f"{A}0005-use-cron.md",
        f"{A}0010-use-kafka.md",
        f"{A}0011-use-redis.md",
        f"{A}0012-hostile-script.md",
    },
    # a draft accepted that supersedes a rejected record: a relation and a status at once
    "declared-successor": {
        f"{A}0007-use-soap.md",
        f"{A}0008-use-mongodb.md",
        f"{A}0009-use-graphql.md",
        f"{A}0010-use-kafka.md",
    },
    "successor-accepted": {
        f"{A}0005-use-cron.md",
        f"{A}0006-use-a-workflow-engine.md",
        f"{A}0007-use-soap.md",
    },
    "successor-proposed": {
        f"{A}archive/0002-use-mysql.md",
        f"{A}archive/0003-use-postgresql-12.md",
        f"{A}0004-use-postgresql-16.md",
        f"{A}0005-use-cron.md",
    },
    "title": {
        f"{A}archive/0002-use-mysql.md",
        f"{A}archive/0003-use-postgresql-12.md",
        f"{A}0004-use-postgresql-16.md",
        f"{A}0005-use-cron.md",
    },
    "relation": {
        f"{A}0001-record-architecture-decisions.md",
        f"{A}archive/0002-use-mysql.md",
        f"{A}0006-use-a-workflow-engine.md",
        f"{A}0007-use-soap.md",
        f"{A}0008-use-mongodb.md",
    },
}


#: the pages whose Markdown step each edit makes the rebuild run again
VIEWS = [f"{A}GRAPH.md", f"{A}INDEX.md", f"{A}TIMELINE.md"]
MARKDOWN = {
    # ADR-0003's relation to ADR-0004 no longer resolves: its card changed
    "duplicate-id": [
        f"{A}0011-use-redis.md",
        f"{A}GRAPH.md",
        f"{A}INDEX.md",
        f"{A}archive/0003-use-postgresql-12.md",
    ],
    "declared-successor": [f"{A}0009-use-graphql.md", *VIEWS],
    "successor-accepted": [f"{A}0006-use-a-workflow-engine.md", *VIEWS],
    "successor-proposed": [
        f"{A}0004-use-postgresql-16.md",
        *VIEWS,
        f"{A}zh/0004-use-postgresql-16.md",
    ],
    "title": [f"{A}0004-use-postgresql-16.md", f"{A}INDEX.md", f"{A}zh/0004-use-postgresql-16.md"],
    "relation": [f"{A}0007-use-soap.md", f"{A}GRAPH.md"],
}


def edit(folder: Path, name: str) -> None:
    record, before, after = EDITS[name]
    path = folder / "docs" / "adr" / record
    text = path.read_text("utf-8")
    assert before in text, (record, before)
    path.write_text(text.replace(before, after, 1), "utf-8")


def outputs(site: Path) -> dict[str, bytes]:
    """Every file the build wrote, without the build time MkDocs stamps on each page."""
    return {
        p.relative_to(site).as_posix(): BUILD_DATE.sub(b"", p.read_bytes())
        for p in site.rglob("*")
        if p.is_file()
    }


BUILD_DATE = re.compile(rb"Build Date UTC : [^\n]*")


def mtimes(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_mtime_ns for p in site.rglob("*.html")}


def serve_edit(
    folder: Path, name: str, *, dirty: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[Any, dict[str, list[str]], set[str]]:
    """A first build and a rebuild after the edit with one plugin instance, as serve runs
    them; the plugin, the record pages whose inputs and the pages whose Markdown step
    the rebuild worked out, and the HTML pages it wrote again."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    calls: dict[str, list[str]] = {"inputs": [], "markdown": []}
    inputs, markdown = site_module.SiteBuild.page_inputs, site_module.SiteBuild._page_markdown

    def spy_inputs(self: Any, rec: Any, src: str) -> Any:
        calls["inputs"].append(src)
        return inputs(self, rec, src)

    def spy_markdown(self: Any, src: str, *args: Any) -> Any:
        calls["markdown"].append(src)
        return markdown(self, src, *args)

    monkeypatch.setattr(site_module.SiteBuild, "page_inputs", spy_inputs)
    monkeypatch.setattr(site_module.SiteBuild, "_page_markdown", spy_markdown)
    site = folder / "site"
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    config.plugins.on_startup(command="serve", dirty=dirty)
    build(config, dirty=dirty)
    first = mtimes(site)
    time.sleep(0.02)
    edit(folder, name)
    for found in calls.values():
        found.clear()
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    build(config, dirty=dirty)
    config.plugins.on_shutdown()
    written = {k for k, v in mtimes(site).items() if first.get(k) != v}
    return config.plugins["adr"], calls, written


def fresh_build(folder: Path, name: str) -> Path:
    """A build of ``folder`` after the edit by a plugin that never built before."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    edit(folder, name)
    with new_plugin_instances():
        config = load_config(str(folder / "mkdocs.yml"), site_dir=str(folder / "site"))
        build(config)
        assert config.plugins["adr"].cache.hits == 0  # nothing came from an earlier build
    return folder / "site"


@pytest.mark.parametrize("name", sorted(EDITS))
def test_a_rebuild_works_out_only_what_the_edit_touches(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_site(tmp_path / "serve", theme="mkdocs")
    plugin, calls, _written = serve_edit(folder, name, dirty=False, monkeypatch=monkeypatch)
    site = plugin.site
    assert not site.views_fresh  # the edit changed what the views show
    assert set(calls["inputs"]) == WORKED_OUT[name]
    # every page kept its inputs rightly: worked out again, they are the same
    monkeypatch.undo()
    for src, rec in site.record_at.items():
        assert site.page_inputs(rec, src) == site.inputs[src], src
    # the Markdown step of the edited record's page, its mirror's, and the views' whose
    # text shows what changed; not the other record pages'
    assert sorted(calls["markdown"]) == MARKDOWN[name]
    fresh = fresh_build(make_site(tmp_path / "fresh", theme="mkdocs"), name)
    again, expected = outputs(folder / "site"), outputs(fresh)
    assert again.keys() == expected.keys()
    for rel, data in expected.items():
        assert again[rel] == data, rel


#: the record pages each edit must change, which --dirty rebuilds beside the views
CHANGED = {
    "duplicate-id": WORKED_OUT["duplicate-id"],
    # ADR-0007 names ADR-0008 in its pager only, which shows it as before
    "declared-successor": {
        f"{A}0008-use-mongodb.md",
        f"{A}0009-use-graphql.md",
        f"{A}0010-use-kafka.md",
    },
    "successor-accepted": WORKED_OUT["successor-accepted"],
    "successor-proposed": WORKED_OUT["successor-proposed"],
    "title": WORKED_OUT["title"],
    # not the pager neighbours of ADR-0007: they name it as before
    "relation": {f"{A}0001-record-architecture-decisions.md", f"{A}0007-use-soap.md"},
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_a_dirty_rebuild_rebuilds_exactly_the_pages_the_edit_changes(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_site(tmp_path / "dirty", theme="mkdocs")
    plugin, _calls, written = serve_edit(folder, name, dirty=True, monkeypatch=monkeypatch)
    site = plugin.site
    pages = {
        site.file_at_path[r.path].dest_uri: src
        for src, r in site.record_at.items()
        if r.path in site.file_at_path
    }
    assert {pages[k] for k in written if k in pages} == CHANGED[name]
    fresh = fresh_build(make_site(tmp_path / "fresh", theme="mkdocs"), name)
    # each record page's content reads as the fresh build's (not its navigation: MkDocs'
    # --dirty names the pages it does not read again by their file names)
    for dest in pages:
        assert main((folder / "site" / dest).read_text("utf-8")) == main(
            (fresh / dest).read_text("utf-8")
        ), dest


def main(html: str) -> str:
    """A page of the mkdocs theme without its navigation."""
    start, end = html.index('role="main"'), html.index("<footer")
    return html[start:end]


#: edits of a record's prose only: the views and every other page stay as they were
TEXT_EDITS = {
    "text": ("0006-use-a-workflow-engine.md", "\n", "\nA sentence added while writing.\n"),
    # the same number of bytes: its stat row still changes (ADR-0055)
    "same-size": ("0004-use-postgresql-16.md", "PostgreSQL", "PostgreSQl"),
}


def text_edit(folder: Path, name: str) -> None:
    record, before, after = TEXT_EDITS[name]
    path = folder / "docs" / "adr" / record
    text = path.read_text("utf-8")
    at = text.rindex(before)  # in the body, after the frontmatter
    path.write_text(text[:at] + after + text[at + len(before) :], "utf-8")


@pytest.mark.parametrize("dirty", [False, True], ids=["clean", "dirty"])
@pytest.mark.parametrize("name", sorted(TEXT_EDITS))
def test_a_rebuild_after_a_text_edit_reads_as_a_fresh_build(
    tmp_path: Path, name: str, dirty: bool
) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    folder = make_site(tmp_path / "serve", theme="mkdocs")
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(folder / "site"))
    config.plugins.on_startup(command="serve", dirty=dirty)
    build(config, dirty=dirty)
    time.sleep(0.02)
    text_edit(folder, name)
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(folder / "site"))
    build(config, dirty=dirty)
    config.plugins.on_shutdown()
    assert config.plugins["adr"].site.views_fresh  # a text edit leaves the views as they were
    fresh = tmp_path / "fresh"
    text_edit(make_site(fresh, theme="mkdocs"), name)
    build(load_config(str(fresh / "mkdocs.yml"), site_dir=str(fresh / "site")))
    again, expected = outputs(folder / "site"), outputs(fresh / "site")
    assert again.keys() == expected.keys()
    record = TEXT_EDITS[name][0].removesuffix(".md")
    for rel, data in expected.items():
        if dirty and rel.endswith(".html"):
            # --dirty: MkDocs writes the edited page again, and its content is the fresh one
            if rel.startswith(f"adr/{record}/"):
                assert main(again[rel].decode()) == main(data.decode()), rel
            continue
        if not dirty:
            assert again[rel] == data, rel


@pytest.mark.parametrize("racy", [True, False], ids=["racy", "settled"])
@pytest.mark.parametrize("name", [*sorted(EDITS), *sorted(TEXT_EDITS)])
def test_a_reloaded_log_is_the_log_a_fresh_load_reads(
    tmp_path: Path, name: str, racy: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The serve load after an edit (its parse cache, stat rows and last resolution kept,
    ADR-0055) equals a load from nothing of the edited files; a record the edit did not
    touch is the last load's object when resolution was replayed. ``settled``: every
    stat row counts as older than the racy window (the files here were just written),
    so the unchanged files are not read again and the edited one must be."""
    from mkdocs_adr import log as log_module
    from mkdocs_adr.config import from_options
    from mkdocs_adr.log import ParseCache, load

    if not racy:
        monkeypatch.setattr(log_module, "RACY_NS", 0)

    folder = make_site(tmp_path / "log", theme="mkdocs")

    def engine() -> Any:
        return from_options(
            {}, project_dir=folder, docs_dir=folder / "docs", config_file=folder / "mkdocs.yml"
        )

    cache = ParseCache()
    before = load(engine(), cache=cache)
    time.sleep(0.02)
    if name in EDITS:
        edit(folder, name)
    else:
        text_edit(folder, name)
    reads: list[str] = []
    real = log_module._read

    def counted(path: str) -> bytes:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(log_module, "_read", counted)
    again = load(engine(), cache=cache)
    monkeypatch.undo()
    fresh = load(engine())
    if not racy:  # only the edited file was read again
        assert [Path(p).name for p in reads] == [(EDITS.get(name) or TEXT_EDITS[name])[0]]
    assert again.records == fresh.records
    assert [r.sha256 for r in again.records] == [r.sha256 for r in fresh.records]
    assert [r.parsed.text for r in again.records] == [r.parsed.text for r in fresh.records]
    assert again.problems == fresh.problems
    assert list(again.graph.edges()) == list(fresh.graph.edges())
    assert (again.fingerprint, again.roots, again.by_id.keys()) == (
        fresh.fingerprint,
        fresh.roots,
        fresh.by_id.keys(),
    )
    for rec in fresh.records:
        assert again.successor(rec.id) == fresh.successor(rec.id), rec.id
        assert again.in_effect(rec) == fresh.in_effect(rec), rec.id
    if name in ("successor-accepted", "successor-proposed", "title"):
        edited = EDITS[name][0]
        kept = [r for r in again.records if not r.path.endswith(edited)]
        assert all(r is before.by_path[r.path] for r in kept)
