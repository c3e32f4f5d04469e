"""Per-record pieces of the views, kept by a long-lived host (ADR-0050).

``index.json`` lines, ``llms.txt`` entries, the site's INDEX rows and the timeline's
entries can be handed a plain dict of the pieces an earlier render made: a render with
it gives the same bytes as one without, makes no piece again while its record's inputs
hold, and makes again exactly the pieces whose records a status edit changes (the edited
record and the one it replaces, whose successor cell and history line follow it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import Log, load
from mkdocs_adr.model import Record
from mkdocs_adr.views import graphdata, i18n, indexjson, llms, svg
from mkdocs_adr.views import index as index_view
from mkdocs_adr.views import timeline as timeline_view

from .test_agents_llms import shop_log

POSTGRES = "0003-use-postgresql-for-every-stateful-service.md"


def _url(rec: Record) -> str | None:
    return None if rec.archived else rec.path.rsplit("/", 1)[-1].removesuffix(".md") + "/"


def _views(log: Log, caches: dict[str, dict[Any, str]] | None) -> list[str]:
    """Every view made of per-record pieces, with ``caches`` or without."""
    root = log.roots[0]
    get = (lambda name: caches.setdefault(name, {})) if caches is not None else lambda name: None
    _records, tables = index_view.tables(log, root)
    columns = index_view.site_columns(tables)
    months = timeline_view.months(index_view.root_records(log, root))
    return [
        indexjson.render(log, root, _url, get("json")),
        llms.render(log, name="Shop", url=_url, entries=get("llms")),
        *(index_view.site_table_html(log, t, _url, columns, rows=get("rows")) for t in tables),
        *(timeline_view.month_html(log, m, _url, entries=get("timeline")) for m in months),
    ]


def test_pieces_give_the_same_bytes_and_are_made_once(tmp_path: Path) -> None:
    project = shop_log(tmp_path / "shop")
    log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    records = len(log.records)
    caches: dict[str, dict[Any, str]] = {}
    plain = _views(log, None)
    assert _views(log, caches) == plain
    # one piece per record in each view
    assert {name: len(found) for name, found in caches.items()} == {
        "json": records,
        "llms": records,
        "rows": records,
        "timeline": records,
    }
    before = {name: dict(found) for name, found in caches.items()}
    assert _views(load(load_from_mkdocs_yml(project / "mkdocs.yml")), caches) == plain
    assert caches == before  # nothing made again


def test_a_status_edit_remakes_the_pieces_it_changes(tmp_path: Path) -> None:
    project = shop_log(tmp_path / "shop")
    config = load_from_mkdocs_yml(project / "mkdocs.yml")
    caches: dict[str, dict[Any, str]] = {}
    _views(load(config), caches)
    sizes = {name: len(found) for name, found in caches.items()}
    record = project / "docs" / "adr" / POSTGRES
    record.write_text(
        record.read_text("utf-8").replace("Accepted\n\nSupersedes", "Deprecated\n\nSupersedes"),
        "utf-8",
    )
    edited = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    assert edited.get("ADR-0003") is not None and edited.get("ADR-0003").status == "deprecated"
    assert _views(edited, caches) == _views(edited, None)
    grown = {name: len(found) - sizes[name] for name, found in caches.items()}
    # ADR-0003's own piece in every view; ADR-0002's where its successor shows (its
    # index.json successor state, its history line, its INDEX successor cell, its
    # timeline successor): a successor no longer accepted is named with its status
    assert grown == {"json": 2, "llms": 2, "rows": 2, "timeline": 2}


def test_a_title_edit_remakes_the_pieces_that_name_it(tmp_path: Path) -> None:
    project = shop_log(tmp_path / "shop")
    caches: dict[str, dict[Any, str]] = {}
    _views(load(load_from_mkdocs_yml(project / "mkdocs.yml")), caches)
    sizes = {name: len(found) for name, found in caches.items()}
    record = project / "docs" / "adr" / POSTGRES
    record.write_text(
        record.read_text("utf-8").replace(
            "# 3. Use PostgreSQL for every stateful service", "# 3. Use PostgreSQL 16 everywhere"
        ),
        "utf-8",
    )
    edited = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    assert edited.get("ADR-0003").title == "Use PostgreSQL 16 everywhere"
    assert _views(edited, caches) == _views(edited, None)
    grown = {name: len(found) - sizes[name] for name, found in caches.items()}
    # ADR-0003's own piece everywhere; ADR-0002's where its successor's title shows
    # (its history line, the successor link's tooltip in the INDEX and the timeline),
    # not in index.json, which names the successor by id only
    assert grown == {"json": 1, "llms": 2, "rows": 2, "timeline": 2}


def test_graph_markup_kept_across_drawings_matches_a_fresh_drawing(tmp_path: Path) -> None:
    """svg.prepare keeps each node's and edge's markup (ADR-0050): drawing again, in
    another language, and after a status edit gives what a first drawing gives."""
    project = shop_log(tmp_path / "shop")

    def drawing(lang: str) -> str:
        log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
        return svg.render(
            graphdata.build(log),
            uid="g",
            href=lambda rid: f"../{rid}/",
            title="All",
            root=log.roots[0].path,
            words=i18n.messages(lang),
        )

    def fresh(lang: str) -> str:
        svg._NODE_MARKUP.clear()
        svg._EDGE_MARKUP.clear()
        return drawing(lang)

    english, french = fresh("en"), fresh("fr")
    assert english != french and "ADR-0003" in english
    assert drawing("en") == english and drawing("fr") == french
    assert drawing("en") == english
    record = project / "docs" / "adr" / POSTGRES
    record.write_text(
        record.read_text("utf-8").replace("Accepted\n\nSupersedes", "Deprecated\n\nSupersedes"),
        "utf-8",
    )
    edited = drawing("en")
    assert edited != english and 'data-adr-status="deprecated"' in edited
    assert edited == fresh("en")


def test_summaries_are_made_once_per_log(tmp_path: Path) -> None:
    log = load(load_from_mkdocs_yml(shop_log(tmp_path / "shop") / "mkdocs.yml"))
    found = llms.summaries(log)
    assert found == tuple(llms.summary(log, r) for r in log.records)
    assert llms.summaries(log) is found
    by_id = dict(zip((r.id for r in log.records), found, strict=True))
    assert by_id["ADR-0003"] == (
        "Scope. Every service that keeps state runs on `PostgreSQL 15`, one schema per service."
    )
    assert by_id["ADR-0008"] == (
        "D1: Use PostgreSQL as the system of record; D3: Use Redis for caching"
    )
