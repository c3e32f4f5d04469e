"""Serve rebuilds keep each whole-log view's pieces by record (ADR-0062): after one edit
only the pieces of the records it may change are made again, and every file of the
rebuilt site reads byte for byte as a fresh build of the edited tree, edit after edit in
one serve process (a status, a successor's status, a title, a date, a relation, a unit's
status, a record added and one removed). ADR-0065's edits: statuses that make problems
appear and go (a superseded record losing its successor, a declaration that binds and
closes a cycle, a review-by date on a record that then retires) and a domain; the build
log's problems are compared with a fresh build's too.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr import site as site_module
from mkdocs_adr.views import index as index_view
from mkdocs_adr.views import indexjson, llms
from mkdocs_adr.views import timeline as timeline_view

from .conftest import new_plugin_instances
from .test_serve_pages import main, outputs
from .test_site_kit import _record, make_site

ADR = Path("docs") / "adr"


def _replace(name: str, before: str, after: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / ADR / name
        text = path.read_text("utf-8")
        assert before in text, (name, before)
        path.write_text(text.replace(before, after, 1), "utf-8")

    return edit


def _add(folder: Path) -> None:
    _record(
        folder / ADR / "0016-sanitize-titles.md",
        "Sanitize titles",
        id="ADR-0016",
        title="Sanitize titles",
        status="accepted",
        date="2024-05-02",
        supersedes=["ADR-0013"],
    )


def _declaration(folder: Path) -> None:
    _replace("0012-hostile-script.md", "id:", 'supersedes: ["ADR-0013"]\nid:')(folder)
    _replace("0013-hostile-img.md", "## Context", "This ADR supersedes ADR-0012.\n\n## Context")(
        folder
    )


def _remove(folder: Path) -> None:
    (folder / ADR / "0008-use-mongodb.md").unlink()


#: One serve session's edits, in order: each rebuild follows the ones before it.
EDITS: list[tuple[str, Callable[[Path], None]]] = [
    # the record in effect retired: the records it replaced show no current successor
    (
        "status",
        _replace("0004-use-postgresql-16.md", 'status: "accepted"', 'status: "deprecated"'),
    ),
    # a proposed successor accepted: the record it replaces leaves the decisions in effect
    (
        "successor-status",
        _replace("0006-use-a-workflow-engine.md", 'status: "proposed"', 'status: "accepted"'),
    ),
    ("status-back", _replace("0004-use-postgresql-16.md", "deprecated", "accepted")),
    # a successor's title, shown in the successor cells of the records it replaces
    ("title", _replace("0004-use-postgresql-16.md", "PostgreSQL 16", "PostgreSQL 17")),
    # a date: the record moves to another month of the timeline
    ("date", _replace("0004-use-postgresql-16.md", "2024-03-01", "2022-11-15")),
    # a relation added: ADR-0011 now replaces ADR-0007
    (
        "relation",
        _replace(
            "0011-use-redis.md",
            'title: "Use Redis"',
            'title: "Use Redis"\nsupersedes: ["ADR-0007"]',
        ),
    ),
    ("superseded", _replace("0007-use-soap.md", 'status: "deprecated"', 'status: "superseded"')),
    # a unit of the container: the container's summary and sections follow its units
    ("unit-status", _replace("0014-platform-baseline.md", "Status: accepted", "Status: rejected")),
    ("added", _add),
    ("removed", _remove),
    (
        "status-again",
        _replace("0006-use-a-workflow-engine.md", 'status: "accepted"', 'status: "rejected"'),
    ),
    # ADR-0065: statuses that make problems appear and go, the graph restated or not
    # a superseded record loses its successor (ADR006 on ADR-0003)
    ("successor-lost", _replace("0004-use-postgresql-16.md", "accepted", "proposed")),
    ("successor-back", _replace("0004-use-postgresql-16.md", "proposed", "accepted")),
    # ADR-0013 declares in prose that it supersedes ADR-0012, which supersedes it
    ("declaration", _declaration),
    # ADR-0012 says it is superseded: the declaration binds and closes a cycle (ADR004);
    # a status that judges a declaration otherwise: the graph is not restated
    ("cycle", _replace("0012-hostile-script.md", 'status: "accepted"', 'status: "superseded"')),
    (
        "cycle-gone",
        _replace("0012-hostile-script.md", 'status: "superseded"', 'status: "accepted"'),
    ),
    # a review-by date passed on ADR-0015 (ADR017), then its status retires it
    (
        "review-by",
        _replace("0015-sessions-in-postgresql.md", "id:", 'review-by: "2020-01-01"\nid:'),
    ),
    (
        "review-status",
        _replace("0015-sessions-in-postgresql.md", 'status: "accepted"', 'status: "deprecated"'),
    ),
    # a domain: the same relations and node ids, what the graph shows of a node changed
    ("domain", _replace("0013-hostile-img.md", "id:", 'domain: "web"\nid:')),
]

#: the edits that make a problem appear (True) or go (False): its code and path
_0003, _0012, _0015 = (
    "archive/0003-use-postgresql-12",
    "0012-hostile-script",
    "0015-sessions-in-postgresql",
)
PROBLEMS = {
    "successor-lost": ("ADR006", _0003, True),
    "successor-back": ("ADR006", _0003, False),
    "cycle": ("ADR004", _0012, True),
    "cycle-gone": ("ADR004", _0012, False),
    "review-by": ("ADR017", _0015, True),
    "review-status": ("ADR017", _0015, False),
}


def _build(folder: Path, *, dirty: bool = False) -> Any:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(folder / "site"))
    build(config, dirty=dirty)
    return config


def _fresh(folder: Path, where: Path, problems: list[Any] | None = None) -> dict[str, bytes]:
    """A build of a copy of ``folder`` as it is now, by a plugin that never built before
    (MkDocs keeps a plugin with ``on_startup`` for the process: the serve one is put
    aside meanwhile); ``problems`` gets the problems its log reported."""
    shutil.copytree(folder, where, ignore=shutil.ignore_patterns("site"))
    with new_plugin_instances():
        config = _build(where)
        if problems is not None:
            problems.extend(config.plugins["adr"].site.log.problems)
    return outputs(where / "site")


class _Made:
    """How many pieces each view made (not kept) while counting."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.counts: dict[str, int] = {}
        for name, module, attr in (
            ("index.json", indexjson, "_record"),
            ("INDEX row", index_view, "_site_row"),
            ("timeline", timeline_view, "_entry"),
            ("llms.txt", llms, "entry"),
        ):
            monkeypatch.setattr(module, attr, self._counted(name, getattr(module, attr)))

    def _counted(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.counts[name] = self.counts.get(name, 0) + 1
            return real(*args, **kwargs)

        return counted


def _serve(tmp_path: Path, *, dirty: bool) -> tuple[Path, Any]:
    from mkdocs.config import load_config

    folder = make_site(tmp_path / "serve", theme="mkdocs")
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(folder / "site"))
    config.plugins.on_startup(command="serve", dirty=dirty)
    from mkdocs.commands.build import build

    build(config, dirty=dirty)
    return folder, config


def test_each_rebuild_reads_as_a_fresh_build_of_the_edited_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, config = _serve(tmp_path, dirty=False)
    made = _Made(monkeypatch)
    records = len(config.plugins["adr"].site.log.records)
    last = {(p.code, p.path) for p in config.plugins["adr"].site.log.problems}
    for n, (name, edit) in enumerate(EDITS):
        time.sleep(0.02)
        edit(folder)
        made.counts.clear()
        _build(folder)
        site = config.plugins["adr"].site
        assert not site.views_fresh, name  # every edit here changes what the views show
        if name in ("status", "successor-status", "title", "unit-status"):
            # the edited record's pieces and a few of those that show it, not every one
            for view, count in made.counts.items():
                assert 0 < count < records - 4, (name, view, count)
        problems: list[Any] = []
        again = outputs(folder / "site")
        expected = _fresh(folder, tmp_path / f"fresh-{n}", problems)
        assert again.keys() == expected.keys(), name
        for rel, data in expected.items():
            assert again[rel] == data, (name, rel)
        # the build log's problems too, in order (ADR-0065: the rules rerun by subject)
        assert site.log.problems == tuple(problems), name
        reported = {(p.code, p.path) for p in problems}
        if name in PROBLEMS:
            code, stem, now = PROBLEMS[name]
            problem = (code, f"docs/adr/{stem}.md")
            assert (problem in reported, problem in last) == (now, not now), name
        last = reported
    config.plugins.on_shutdown()


def test_a_dirty_rebuild_shows_the_views_a_fresh_build_shows(tmp_path: Path) -> None:
    folder, config = _serve(tmp_path, dirty=True)
    views = ("adr/INDEX/index.html", "adr/TIMELINE/index.html", "adr/GRAPH/index.html")
    for n, (name, edit) in enumerate(EDITS[:4]):
        time.sleep(0.02)
        edit(folder)
        _build(folder, dirty=True)
        again, expected = outputs(folder / "site"), _fresh(folder, tmp_path / f"fresh-{n}")
        for rel in ("adr/index.json", "llms.txt"):
            assert again[rel] == expected[rel], (name, rel)
        for rel in views:
            assert main(again[rel].decode()) == main(expected[rel].decode()), (name, rel)
    config.plugins.on_shutdown()


def test_a_piece_kept_past_what_it_reads_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comparison above fails when the kept pieces are trusted after an edit that
    changes them: told that nothing changed, the rebuild shows the old status."""
    folder, config = _serve(tmp_path, dirty=False)
    monkeypatch.setattr(site_module, "stale_paths", lambda before, after: frozenset())
    time.sleep(0.02)
    EDITS[0][1](folder)
    _build(folder)
    config.plugins.on_shutdown()
    again, expected = outputs(folder / "site"), _fresh(folder, tmp_path / "fresh")
    assert [rel for rel, data in expected.items() if again.get(rel) != data]


def test_a_graph_shape_kept_past_its_relations_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ADR-0065 keeps the drawn graph's edges, components and root views, and the problem
    rules' answers, while the relations are the same: told they are when a status makes a
    declaration bind, the rebuild draws and reports the old graph."""
    from mkdocs_adr.graph import RelationGraph

    folder, config = _serve(tmp_path, dirty=False)
    edits = dict(EDITS)
    for name in ("declaration", "cycle"):
        if name == "cycle":
            monkeypatch.setattr(RelationGraph, "same_relations", lambda self, other: True)
        time.sleep(0.02)
        edits[name](folder)
        _build(folder)
    problems = config.plugins["adr"].site.log.problems
    config.plugins.on_shutdown()
    monkeypatch.undo()
    fresh: list[Any] = []
    again, expected = outputs(folder / "site"), _fresh(folder, tmp_path / "fresh", fresh)
    assert "adr/GRAPH/index.html" in [
        rel for rel, data in expected.items() if again.get(rel) != data
    ]
    assert problems != tuple(fresh)
