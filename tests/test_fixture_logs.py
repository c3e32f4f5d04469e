"""Every fixture log parses to the answers written down in its expected.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr.config import from_options
from mkdocs_adr.log import Log, load
from mkdocs_adr.model import Record

from .conftest import LOGS, fixture_logs


def load_fixture(folder: Path) -> tuple[Log, dict[str, Any]]:
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    config = from_options(
        expected.get("config", {}), project_dir=folder, docs_dir=folder, config_file=None
    )
    return load(config), expected


def relation_pairs(rec: Record) -> set[tuple[str, str]]:
    pairs = set()
    for rel in rec.relations:
        if rel.kind == "mentions":
            continue
        target = rel.target_id or rel.target
        if rel.target_unit:
            target += f"#{rel.target_unit}"
        pairs.add((rel.kind, target))
    return pairs


@pytest.mark.parametrize("name", fixture_logs())
def test_records_match_expected(name: str) -> None:
    log, expected = load_fixture(LOGS / name)
    got = {r.path: r for r in log.records}
    missing = sorted(set(expected["records"]) - set(got))
    extra = sorted(set(got) - set(expected["records"]))
    assert expected["records"], "an expected.json must name the records it checks"
    assert not missing and not extra, f"missing records {missing}, unexpected records {extra}"
    for path, want in expected["records"].items():
        rec = got[path]
        assert rec.id == want["id"], path
        assert rec.status == want["status"], (path, rec.raw_status)
        if "title" in want:
            assert rec.title == want["title"], path
        if "date" in want:
            assert rec.date == want["date"] or rec.parsed.raw_date == want["date"], path
        if "archived" in want:
            assert rec.archived is want["archived"], path
        if "domain" in want:
            assert rec.domain == want["domain"], path
        if "relations" in want:
            assert relation_pairs(rec) == {tuple(p) for p in want["relations"]}, path
        if "units" in want:
            assert {u.key: u.status for u in rec.units} == want["units"], path


@pytest.mark.parametrize("name", fixture_logs())
def test_exclusions_match_expected(name: str) -> None:
    log, expected = load_fixture(LOGS / name)
    got = {e.path.rstrip("/"): e.reason for e in log.excluded}
    assert expected["excluded"], "an expected.json must name the exclusions it checks"
    for path, reason in expected.get("excluded", {}).items():
        assert got.get(path.rstrip("/")) == reason, (path, got.get(path.rstrip("/")))


@pytest.mark.parametrize("name", fixture_logs(declaring="problems"))
def test_expected_problems_reported(name: str) -> None:
    log, expected = load_fixture(LOGS / name)
    got = {(p.code, p.path) for p in log.problems}
    assert expected["problems"]
    for code, path in expected.get("problems", []):
        assert (code, path) in got, (code, path, sorted(got))
