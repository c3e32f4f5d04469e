"""Serve's analysis reuses the last one record by record: resolution is replayed when
every record is the last load's object or reads the same to resolution
(:func:`~mkdocs_adr.log.resolution_row`), and the fingerprint's JSON pairs are made
again only for records that are not the last fingerprint's objects. Each load through
the cache must give what a fresh load of the same files gives."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mkdocs_adr import log as log_module
from mkdocs_adr.config import Config
from mkdocs_adr.log import Log, ParseCache, Resolved, load

A = "# {n}. R{n}\n\n## Status\n\n{status}\n{extra}"


def reference(config: Any, records: list[Any]) -> str:
    """The fingerprint as json.dumps writes its payload."""
    payload = {
        "roots": [[r.path, r.prefix] for r in config.roots],
        "records": sorted((r.path, r.sha256) for r in records),
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def test_the_fingerprint_reads_as_json_dumps_writes_it_through_every_edit() -> None:
    def rec(path: str, sha: str) -> Any:
        return SimpleNamespace(path=path, sha256=sha)

    config = SimpleNamespace(
        roots=[
            SimpleNamespace(path="docs/adr", prefix="ADR"),
            SimpleNamespace(path='d"ö', prefix=None),
        ]
    )
    names = ["a.md", "é/ü.md", 'q"x.md', "t\tab.md", "\ud800x.md", "z\u2028.md", "日本.md", "b\\c"]
    rng = random.Random(7)
    records = [
        rec(f"{n}{i}", hashlib.sha256(bytes([i])).hexdigest()) for i, n in enumerate(names * 9)
    ]
    rng.shuffle(records)
    kept = Resolved()
    assert log_module._fingerprint(config, records) == reference(config, records)  # type: ignore[arg-type]
    for step in range(60):
        records = list(records)
        n, roll = rng.randrange(len(records)), rng.random()
        if roll < 0.6:  # an edit: the same path, another hash
            records[n] = rec(records[n].path, hashlib.sha256(bytes([step, 1])).hexdigest())
        elif roll < 0.8:  # a move
            records[n] = rec(records[n].path + "~", records[n].sha256)
        elif roll < 0.9:
            records.pop(n)
        else:
            records.append(rec(f"new{step}.md", "0" * 64))
        got = log_module._fingerprint(config, records, kept)  # type: ignore[arg-type]
        assert got == reference(config, records), step


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(log_module, "RACY_NS", 0)  # stat rows vouch: unedited files kept
    (tmp_path / "docs" / "adr").mkdir(parents=True)
    for n in range(1, 6):
        write(tmp_path, n, "Accepted")
    yield tmp_path


def write(tmp: Path, n: int, status: str, extra: str = "") -> None:
    path = tmp / "docs" / "adr" / f"000{n}-r.md"
    path.write_text(A.format(n=n, status=status, extra=extra), "utf-8")


def same(again: Log, fresh: Log) -> None:
    assert again.fingerprint == fresh.fingerprint
    assert again.records == fresh.records
    assert [r.relations for r in again.records] == [r.relations for r in fresh.records]
    assert again.problems == fresh.problems


def test_each_load_through_the_cache_is_a_fresh_loads(project: Path) -> None:
    config = Config(project_dir=project, docs_dir=project / "docs")
    cache = ParseCache()
    load(config, cache=cache)
    edits = [
        (2, "Superseded", "\nSuperseded by [3. R3](0003-r.md)\n"),  # resolution reads it
        (3, "Deprecated", ""),  # a status only: replayed
        (2, "Superseded", "\nSuperseded by [4. R4](0004-r.md)\n"),  # another target
        (4, "Accepted", "\nSupersedes [2. R2](0002-r.md)\n"),
        (2, "Accepted", ""),
        # `adr link`'s shape: read as superseded while its successor is in effect (survey 6)
        (2, "Accepted", "\nSuperseded by [3. R3](0003-r.md)\n"),
        (3, "Proposed", ""),  # the successor a proposal again: record 2 back in effect
        (3, "Accepted", ""),
    ]
    retired = []
    for n, status, extra in edits:
        write(project, n, status, extra)
        again = load(config, cache=cache)
        same(again, load(config))
        retired.append(again.by_path["docs/adr/0002-r.md"].status)
    assert retired[-3:] == ["superseded", "accepted", "superseded"]
    (project / "docs" / "adr" / "0005-r.md").rename(project / "docs" / "adr" / "0009-r.md")
    same(load(config, cache=cache), load(config))
