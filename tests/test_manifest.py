"""CURRENT.sources.json: the shipped schema, validation on every read, path updates."""

from __future__ import annotations

import copy
import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mkdocs_adr import manifest as mf
from mkdocs_adr.config import Config, RootConfig
from mkdocs_adr.paths import is_normalized

SHA = "a" * 64


def sample() -> mf.Manifest:
    return mf.Manifest(
        scope=mf.Scope.make("adr"),
        members=("ADR-0001", "ADR-0002"),
        sources=(
            mf.Source(
                "ADR-0001",
                None,
                "0001-a.md",
                SHA,
                "accepted",
                "summarized",
                "member",
                "Decisions in effect",
            ),
            mf.Source(
                "ADR-0002",
                None,
                "platform/0002-b.md",
                "b" * 64,
                "accepted",
                "summarized",
                "member",
                "Decisions in effect (by decision unit)",
            ),
            mf.Source(
                "ADR-0002",
                "D1",
                "platform/0002-b.md",
                "c" * 64,
                "accepted",
                "summarized",
                "member",
                "Decisions in effect / Platform",
            ),
        ),
        summary_path="CURRENT.md",
        summary_sha256="d" * 64,
        created="2026-01-02T03:04:05Z",
    )


def test_schema_is_package_data_and_a_valid_schema() -> None:
    text = resources.files("mkdocs_adr").joinpath("schemas/current-sources.schema.json")
    schema = json.loads(text.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["schema"]["const"] == mf.SCHEMA_NAME
    assert schema["properties"]["version"]["const"] == mf.VERSION


def test_round_trip_and_deterministic_bytes() -> None:
    m = sample()
    data = m.to_bytes()
    assert data.endswith(b"\n") and b"\r" not in data
    assert mf.parse(data, where="x") == m
    assert m.to_bytes() == data
    raw = json.loads(data)
    assert raw["schema"] == "mkdocs-adr/current-sources" and raw["version"] == 1
    assert set(raw) == {
        "schema",
        "version",
        "generator",
        "scope",
        "members",
        "sources",
        "summary",
        "created",
    }
    assert set(raw["generator"]) == {"name", "version", "protocol"}
    assert mf.validate(raw) == []


def _broken(change: Any) -> bytes:
    raw = json.loads(sample().to_bytes())
    change(raw)
    return json.dumps(raw).encode()


@pytest.mark.parametrize(
    ("change", "kind", "needle"),
    [
        (
            lambda r: r["sources"][0].__setitem__("path", "../../etc/passwd"),
            "invalid",
            "sources[0].path '../../etc/passwd' is absolute or leaves the ADR root",
        ),
        (
            lambda r: r["sources"][1].__setitem__("path", "/etc/passwd"),
            "invalid",
            "sources[1].path '/etc/passwd'",
        ),
        (
            lambda r: r["sources"][1].__setitem__("path", "platform/../../x.md"),
            "invalid",
            "leaves the ADR root",
        ),
        (lambda r: r["sources"][1].__setitem__("path", "C:/x.md"), "invalid", "leaves the ADR"),
        (lambda r: r["sources"][1].__setitem__("path", "a\\b.md"), "invalid", "leaves the ADR"),
        (
            lambda r: r["summary"].__setitem__("path", "../CURRENT.md"),
            "invalid",
            "summary.path '../CURRENT.md'",
        ),
        (lambda r: r["sources"][0].__setitem__("sha256", 42), "invalid", "sources[0].sha256"),
        (lambda r: r["sources"][0].__setitem__("path", ["x"]), "invalid", "sources[0].path"),
        (lambda r: r.__setitem__("members", "ADR-0001"), "invalid", "members"),
        (lambda r: r.pop("summary"), "invalid", "'summary' is a required property"),
        (lambda r: r.__setitem__("extra", 1), "invalid", "extra"),
        (lambda r: r["sources"][0].__setitem__("status", "maybe"), "invalid", "status"),
        (lambda r: r.__setitem__("version", 2), "version", "version 2"),
        (lambda r: r.__setitem__("version", "1"), "invalid", "version"),
        (lambda r: r.__setitem__("schema", "something/else"), "invalid", "not a source manifest"),
    ],
)
def test_invalid_manifests_are_refused_with_the_reason(change: Any, kind: str, needle: str) -> None:
    with pytest.raises(mf.ManifestError) as err:
        mf.parse(_broken(change), where="docs/adr/CURRENT.sources.json")
    assert err.value.kind == kind
    assert needle in err.value.message
    assert err.value.path == "docs/adr/CURRENT.sources.json"
    assert err.value.fix


def test_every_error_is_listed_not_only_the_first() -> None:
    def change(r: dict[str, Any]) -> None:
        r["sources"][0]["path"] = "../a.md"
        r["sources"][1]["sha256"] = "nope"
        r["members"] = [1]

    with pytest.raises(mf.ManifestError) as err:
        mf.parse(_broken(change), where="m.json")
    message = err.value.message
    assert "sources[0].path" in message and "sources[1].sha256" in message
    assert "members[0]" in message


@pytest.mark.parametrize(
    ("data", "kind", "line"),
    [
        (b'{"schema": "mkdocs-adr/current-sources",\n "version": 1,\n oops}', "unreadable", 3),
        (b"\xff\xfe\x00garbage", "unreadable", None),
        (b"[1, 2]", "invalid", None),
        (b"null", "invalid", None),
    ],
)
def test_unreadable_manifests(data: bytes, kind: str, line: int | None) -> None:
    with pytest.raises(mf.ManifestError) as err:
        mf.parse(data, where="m.json")
    assert err.value.kind == kind
    assert err.value.line == line


def test_read_missing_and_unreadable(tmp_path: Path) -> None:
    with pytest.raises(mf.ManifestError) as err:
        mf.read(tmp_path / "nothing.json", where="docs/adr/CURRENT.sources.json")
    assert err.value.kind == "missing"
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(mf.ManifestError) as err:
        mf.read(tmp_path / "dir.json", where="d")
    assert err.value.kind == "unreadable"


def test_safe_relpath() -> None:
    assert is_normalized("a/b.md") and is_normalized("archive/0002-x.md")
    for bad in ("", "/a", "~/a", "a/../b", "..", "./a", "a//b", "a\\b", "C:x", "a\x00b", 3):
        assert not is_normalized(bad), bad


def test_rewrite_paths_changes_only_paths() -> None:
    m = sample()
    moved = mf.rewrite_paths(m, {"platform/0002-b.md": "archive/platform/0002-b.md"})
    assert [s.path for s in moved.sources] == [
        "0001-a.md",
        "archive/platform/0002-b.md",
        "archive/platform/0002-b.md",
    ]
    assert [s.sha256 for s in moved.sources] == [s.sha256 for s in m.sources]
    assert moved.members == m.members and moved.summary_sha256 == m.summary_sha256
    relinked = mf.rewrite_paths(m, {}, summary_sha256="e" * 64)
    assert relinked.summary_sha256 == "e" * 64
    with pytest.raises(ValueError):
        mf.rewrite_paths(m, {"0001-a.md": "../escape.md"})
    with pytest.raises(ValueError):
        mf.rewrite_paths(m, {}, summary_sha256="short")


def _project(tmp_path: Path) -> Config:
    docs = tmp_path / "docs"
    (docs / "adr").mkdir(parents=True)
    return Config(project_dir=tmp_path, docs_dir=docs, roots=(RootConfig("adr"),))


def _updated(
    config: Config, moves: dict[str, str], rewritten: dict[str, bytes] | None = None
) -> list[mf.ManifestUpdate]:
    """The manifest writes a plan carries: every root's update that changes something."""
    found = (mf.mechanical_update(config, root, moves, rewritten) for root in config.roots)
    return [u for u in found if u is not None and u.state == "updated"]


def test_mechanical_updates_for_an_archive_plan(tmp_path: Path) -> None:
    config = _project(tmp_path)
    folder = tmp_path / "docs/adr"
    current = b"# Current\n\nsee [B](platform/0002-b.md)\n"
    m = sample()
    m = mf.Manifest(m.scope, m.members, m.sources, "CURRENT.md", mf.text_sha256(current), m.created)
    (folder / "CURRENT.md").write_bytes(current)
    (folder / mf.FILENAME).write_bytes(m.to_bytes())
    relinked = b"# Current\n\nsee [B](archive/platform/0002-b.md)\n"
    updates = _updated(
        config,
        {"docs/adr/platform/0002-b.md": "docs/adr/archive/platform/0002-b.md"},
        {"docs/adr/CURRENT.md": relinked},
    )
    assert len(updates) == 1
    up = updates[0]
    assert up.path == "docs/adr/CURRENT.sources.json"
    assert up.before == hashlib.sha256(m.to_bytes()).hexdigest()
    new = mf.parse(up.data, where="x")
    assert new.sources[1].path == "archive/platform/0002-b.md"
    assert new.summary_sha256 == mf.text_sha256(relinked)
    # a CURRENT.md edited by hand since publishing keeps its stale hash: nothing laundered
    (folder / "CURRENT.md").write_bytes(current + b"hand edit\n")
    updates = _updated(
        config,
        {"docs/adr/platform/0002-b.md": "docs/adr/archive/platform/0002-b.md"},
        {"docs/adr/CURRENT.md": relinked},
    )
    assert mf.parse(updates[0].data, where="x").summary_sha256 == m.summary_sha256
    # moves that touch no listed path, and invalid manifests, give no update
    assert _updated(config, {"docs/adr/9-x.md": "docs/adr/archive/9-x.md"}) == []
    (folder / mf.FILENAME).write_text("{broken", encoding="utf-8")
    assert (
        _updated(config, {"docs/adr/platform/0002-b.md": "docs/adr/archive/platform/0002-b.md"})
        == []
    )


def test_scope_union_and_description() -> None:
    a = mf.Scope.make("adr", domains=["data"])
    b = mf.Scope.make("adr", ids=["ADR-0007"])
    u = a.union(b)
    assert u.kind == "mixed" and u.domains == ("data",) and u.ids == ("ADR-0007",)
    assert a.union(mf.Scope.make("adr")).kind == "root"
    assert "domain data" in u.describe() and "ADR-0007" in u.describe()
    assert copy.deepcopy(u) == u
