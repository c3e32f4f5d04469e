"""Serve's analysis after a status edit (ADR-0065): the relation graph is restated from
the last one (its edges and indexes shared) and the problem rules judge again only the
subjects that name an edited record or a record whose succession reads one; the log's
problems are, in order, those of a fresh load of the edited files.

Each edit is one record's status, as an author makes it in a serve session, chosen so
that a problem appears or goes: a superseded record losing its successor (ADR006), an
accepted record superseded by an accepted one (ADR016), a review-by date that counts
again once its record binds (ADR017), and a status that makes a declaration in prose
bind, which closes a cycle (ADR004: the graph cannot be restated, its relations are
added again).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr import checks
from mkdocs_adr import log as log_module
from mkdocs_adr.config import Config
from mkdocs_adr.graph import RelationGraph
from mkdocs_adr.log import Log, ParseCache, load

TODAY = dt.date(2026, 6, 1)
A = "# {n}. R{n}\n\n## Status\n\n{status}\n"

FILES = {
    "0001-a.md": (1, "Accepted", "\nReview by: 2026-01-01\n"),
    "0002-b.md": (2, "Proposed", "\nSupersedes [1. A](0001-a.md)\n"),
    "0003-c.md": (3, "Superseded", "\nSuperseded by [4. D](0004-d.md)\n"),
    "0004-d.md": (4, "Accepted", ""),
    "0005-e.md": (5, "Accepted", "\nThis ADR supersedes ADR-0006.\n"),
    "0006-f.md": (6, "Accepted", "\nSupersedes [5. E](0005-e.md)\n"),
    "0007-g.md": (7, "Accepted", "\nReview by: someday\n"),
}

#: (file, new status, codes that must appear, whether the graph is restated)
EDITS = [
    ("0004-d.md", "Proposed", {"ADR006"}, True),  # ADR-0003 loses its successor
    ("0002-b.md", "Accepted", {"ADR016"}, True),  # ADR-0001 accepted, superseded by it
    ("0001-a.md", "Superseded", set(), True),  # ...and says so: ADR016 and ADR017 go
    ("0004-d.md", "Accepted", set(), True),  # ADR006 goes
    ("0001-a.md", "Accepted", {"ADR016", "ADR017"}, True),
    ("0006-f.md", "Superseded", {"ADR004"}, False),  # ADR-0005's declaration binds
    ("0006-f.md", "Accepted", set(), False),
    ("0007-g.md", "Deprecated", set(), True),  # its ADR017 goes
]


def write(root: Path, name: str, status: str | None = None) -> None:
    n, written, extra = FILES[name]
    (root / name).write_text(A.format(n=n, status=status or written) + extra, "utf-8")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(log_module, "RACY_NS", 0)  # stat rows vouch: unedited files kept
    root = tmp_path / "docs" / "adr"
    root.mkdir(parents=True)
    for name in FILES:
        write(root, name)
    yield tmp_path


def config(tmp: Path) -> Config:
    return Config(project_dir=tmp, docs_dir=tmp / "docs")


def codes(log: Log) -> set[str]:
    return {p.code for p in log.problems}


def judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The records the per-record rules of :mod:`checks` judge (by path), from now on."""
    seen: list[str] = []
    real = checks.review_problems

    def counted(log: Log, rec: Any, today: dt.date) -> Any:
        seen.append(rec.path)
        return real(log, rec, today)

    monkeypatch.setattr(checks, "review_problems", counted)
    return seen


def test_status_edits_give_a_fresh_loads_problems(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = ParseCache()
    last = load(config(project), cache=cache, today=TODAY)
    assert codes(last) >= {"ADR005", "ADR017"}
    root = project / "docs" / "adr"
    for name, status, appear, restated in EDITS:
        write(root, name, status)
        seen = judged(monkeypatch)
        again = load(config(project), cache=cache, today=TODAY)
        monkeypatch.undo()
        fresh = load(config(project), today=TODAY)
        assert again.problems == fresh.problems, (name, status)
        assert appear <= codes(again) and codes(again) - codes(last) <= appear, (name, status)
        assert again.graph.same_relations(last.graph) == restated, (name, status)
        if restated:  # only the edited record and what it supersedes are judged again
            assert f"docs/adr/{name}" in seen and len(seen) <= 2, seen
        last = again


def test_the_comparison_fails_when_the_readers_are_left_out(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ADR-0003's ADR006 reads its successor's status: a check told that only the edited
    record may have changed keeps ADR-0003's last (empty) answer."""
    cache = ParseCache()
    load(config(project), cache=cache, today=TODAY)
    monkeypatch.setattr(RelationGraph, "readers", lambda self, ids: set(ids))
    write(project / "docs" / "adr", "0004-d.md", "Proposed")
    again = load(config(project), cache=cache, today=TODAY)
    fresh = load(config(project), today=TODAY)
    assert "ADR006" in codes(fresh) and "ADR006" not in codes(again)


def test_another_day_judges_every_record(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = ParseCache()
    load(config(project), cache=cache, today=TODAY)
    write(project / "docs" / "adr", "0004-d.md", "Proposed")
    seen = judged(monkeypatch)
    later = TODAY + dt.timedelta(days=1)
    again = load(config(project), cache=cache, today=later)
    assert len(seen) == len(FILES)
    assert again.problems == load(config(project), today=later).problems
