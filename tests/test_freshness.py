"""Freshness details: hashes not times, line endings, scopes with related records, restore."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mkdocs_adr import manifest as mf
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.freshness import check as freshness_check
from mkdocs_adr.freshness import path_domain, root_pairs, select
from mkdocs_adr.log import load
from mkdocs_adr.model import StaleReason

from .test_summary_support import check, copy_site, publish

ADR = "docs/adr"


@pytest.fixture
def flat(tmp_path: Path) -> Path:
    site = copy_site(tmp_path, "flat")
    publish(site)
    return site


def state(site: Path) -> dict[str, object]:
    _code, data = check(site)
    current: dict[str, object] = data["views"]["current"]
    return current


def test_absent_without_current(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    current = state(site)
    assert current["state"] == "absent" and current["reasons"] == []


def test_modification_times_never_count(flat: Path) -> None:
    for path in (flat / ADR).rglob("*.md"):
        os.utime(path, (1, 1))
    os.utime(flat / ADR / mf.FILENAME, (2_000_000_000, 2_000_000_000))
    assert state(flat)["state"] == "fresh"


def test_line_endings_never_count(flat: Path) -> None:
    for name in ("0004-store-notes-in-postgresql.md", "CURRENT.md"):
        path = flat / ADR / name
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert state(flat)["state"] == "fresh"


def test_restore_after_a_recorded_archive_move(flat: Path) -> None:
    name = "0003-use-rest-polling-for-sync.md"
    path = flat / ADR / mf.FILENAME
    (flat / ADR / "archive").mkdir(exist_ok=True)
    (flat / ADR / name).rename(flat / ADR / "archive" / name)
    path.write_bytes(
        mf.rewrite_paths(
            mf.parse(path.read_bytes(), where="m"), {name: f"archive/{name}"}
        ).to_bytes()
    )
    assert state(flat)["state"] == "fresh"
    (flat / ADR / "archive" / name).rename(flat / ADR / name)  # restored by hand
    current = state(flat)
    assert current["state"] == "stale"
    [reason] = current["reasons"]  # type: ignore[misc]
    assert reason["kind"] == "moved" and reason["ids"] == ["ADR-0003"]
    assert reason["semantic"] is False and "restored from" in reason["reason"]


def test_archived_and_edited_is_a_semantic_change(flat: Path) -> None:
    name = "0003-use-rest-polling-for-sync.md"
    (flat / ADR / "archive").mkdir(exist_ok=True)
    (flat / ADR / name).rename(flat / ADR / "archive" / name)
    with (flat / ADR / "archive" / name).open("a", encoding="utf-8") as fh:
        fh.write("\nA late note.\n")
    [reason] = state(flat)["reasons"]  # type: ignore[misc]
    assert reason["kind"] == "modified" and "archived" in reason["reason"]
    assert reason["semantic"] is True


def test_duplicate_id_is_reported(flat: Path) -> None:
    src = flat / ADR / "0004-store-notes-in-postgresql.md"
    (flat / ADR / "0004-store-notes-in-mysql.md").write_bytes(src.read_bytes())
    kinds = [r["kind"] for r in state(flat)["reasons"]]  # type: ignore[attr-defined]
    assert "ambiguous" in kinds


def test_domain_scope_tracks_related_records_outside_it(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "layered")
    # data/ADR-0005 depends on ADR-0002#D1 (platform): a related source of a data view
    publish(site, "--domain", "data")
    manifest = mf.parse((site / ADR / mf.FILENAME).read_bytes(), where="m")
    assert manifest.scope.kind == "domain" and manifest.scope.domains == ("data",)
    related = {s.id for s in manifest.sources if s.role == "related"}
    assert related == {"ADR-0002"}
    assert any(s.role == "member" for s in manifest.sources)
    assert all(path_domain(s.path) == "data" for s in manifest.sources if s.role == "member")
    assert state(site)["state"] == "fresh"
    # a change to the related record, outside the domain, makes the view stale
    dep = site / ADR / "platform/0002-platform-baseline.md"
    dep.write_text(
        dep.read_text(encoding="utf-8").replace("no service reads", "no service ever reads"),
        encoding="utf-8",
    )
    current = state(site)
    assert current["state"] == "stale"
    assert [(r["kind"], r["ids"]) for r in current["reasons"]] == [  # type: ignore[attr-defined]
        ("modified", ["ADR-0002"])
    ]
    # a record added to another domain is outside the scope: no reason
    (site / ADR / "security/0011-x.md").write_text(
        "---\nid: ADR-0011\ntitle: X\nstatus: accepted\n---\n# X\n", encoding="utf-8"
    )
    assert len(state(site)["reasons"]) == 1  # type: ignore[arg-type]


def test_select_is_what_the_manifest_records(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "layered")
    publish(site)
    config = load_from_mkdocs_yml(site / "mkdocs.yml")
    log = load(config)
    (cfg, info), _ = root_pairs(log)
    manifest = mf.parse((site / ADR / mf.FILENAME).read_bytes(), where="m")
    sel = select(log, cfg, info, manifest.scope)
    assert {e.key for e in sel.entries} == {s.key for s in manifest.sources}
    assert {(e.key, e.sha256, e.status) for e in sel.entries} == {
        (s.key, s.sha256, s.status) for s in manifest.sources
    }
    assert "ADR-0002#D1" in {e.key for e in sel.entries}
    assert set(sel.members) == set(manifest.members)
    result = freshness_check(log, info)
    assert result.state == "fresh" and result.manifest == manifest


def test_plan_json_reports_the_same_view_state(flat: Path) -> None:
    (flat / ADR / "0005-encrypt-note-bodies-at-rest.md").unlink()
    from .test_summary_support import cli_json

    _code, data = cli_json("-f", str(flat / "mkdocs.yml"), "plan")
    current = data["views"]["current"]
    assert current["state"] == "stale"
    assert current["reasons"][0]["ids"] == ["ADR-0005"]
    assert json.dumps(current)  # plain JSON


def test_reasons_are_typed_until_the_edge(flat: Path) -> None:
    """The engine hands StaleReason objects around; only to_json makes the JSON shape."""
    name = "0004-store-notes-in-postgresql.md"
    path = flat / ADR / name
    path.write_text(path.read_text(encoding="utf-8") + "\nA late edit.\n", encoding="utf-8")
    (flat / ADR / name).rename(flat / ADR / "0004-keep-notes-in-postgresql.md")
    log = load(load_from_mkdocs_yml(flat / "mkdocs.yml"))
    result = freshness_check(log, log.roots[0])
    assert result.state == "stale" and result.reasons
    assert all(isinstance(r, StaleReason) for r in result.reasons)
    assert [(r.kind, r.ids) for r in result.reasons] == [
        ("modified", ("ADR-0004",)),
        ("renamed", ("ADR-0004",)),
    ]
    renamed = result.reasons[1]
    assert renamed.semantic and renamed.path == f"{ADR}/0004-keep-notes-in-postgresql.md"
    assert renamed.to_json() == {
        "kind": "renamed",
        "ids": ["ADR-0004"],
        "reason": f"ADR-0004 was renamed from {ADR}/{name} to "
        f"{ADR}/0004-keep-notes-in-postgresql.md",
        "path": f"{ADR}/0004-keep-notes-in-postgresql.md",
        "semantic": True,
    }
    assert list(renamed.to_json()) == ["kind", "ids", "reason", "path", "semantic"]
    view = result.view_state()
    assert view.reasons == result.reasons
    assert view.to_json()["reasons"] == [r.to_json() for r in result.reasons]
    [problem] = result.problems
    assert problem.code == "ADR011" and problem.ids == ("ADR-0004",)
