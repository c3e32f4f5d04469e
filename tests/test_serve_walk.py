"""Serve loads that skip the folder walk (ADR-0059): while the stat row of every folder
discovery listed and of every file whose bytes it read holds, a load through the serve
cache reuses the last walk's answer; a file added, removed or renamed (a folder's times
move), a template that becomes a record, a new folder, changed options or a symlink make
it walk again, and the load always equals a load from nothing of the same tree.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr import log as log_module
from mkdocs_adr.config import from_options
from mkdocs_adr.log import ParseCache, load

from .test_site_kit import make_site

RECORD = '---\nstatus: "accepted"\ndate: "2024-05-01"\n---\n# {title}\n\n## Decision\n\nWe do.\n'
TEMPLATE = "# {short title}\n\n## Status\n\n{proposed | accepted}\n"


def _adr(folder: Path) -> Path:
    return folder / "docs" / "adr"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


def _add(folder: Path) -> None:
    _write(_adr(folder) / "0016-use-nats.md", RECORD.format(title="Use NATS"))


def _add_nested(folder: Path) -> None:
    _write(_adr(folder) / "archive" / "0016-use-nats.md", RECORD.format(title="Use NATS"))


def _add_folder(folder: Path) -> None:
    _write(_adr(folder) / "payments" / "0016-use-nats.md", RECORD.format(title="Use NATS"))


def _remove(folder: Path) -> None:
    (_adr(folder) / "0011-use-redis.md").unlink()


def _rename(folder: Path) -> None:
    adr = _adr(folder)
    (adr / "0011-use-redis.md").rename(adr / "0016-use-redis.md")


def _template_filled(folder: Path) -> None:
    # discovery read this file's first bytes: a template, left out; filled in place
    # (its folder's listing unchanged), it is a record
    (_adr(folder) / "0000-start.md").write_text(RECORD.format(title="Use gRPC"), "utf-8")


def _record_to_template(folder: Path) -> None:
    # a record whose first bytes discovery read (a ``0000-`` name) becomes a template
    (_adr(folder) / "0000-kickoff.md").write_text(TEMPLATE, "utf-8")


def _readme_to_record(folder: Path) -> None:
    # an excluded file (its encoding was checked): edited in place
    (_adr(folder) / "README.md").write_text("# Records\n\nSee the index, now longer.\n", "utf-8")


CHANGES: dict[str, Callable[[Path], None]] = {
    "added": _add,
    "added-in-subfolder": _add_nested,
    "added-with-folder": _add_folder,
    "removed": _remove,
    "renamed": _rename,
    "template-filled": _template_filled,
    "record-to-template": _record_to_template,
    "excluded-edited": _readme_to_record,
}


def _engine(folder: Path, **options: Any) -> Any:
    return from_options(
        options, project_dir=folder, docs_dir=folder / "docs", config_file=folder / "mkdocs.yml"
    )


def _walks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count discovery's walks from now on."""
    calls: list[int] = []
    real = log_module.discover

    def counted(config: Any) -> Any:
        calls.append(1)
        return real(config)

    monkeypatch.setattr(log_module, "discover", counted)
    return calls


def _same(again: Any, fresh: Any) -> None:
    assert [r.path for r in again.records] == [r.path for r in fresh.records]
    assert again.records == fresh.records
    assert again.excluded == fresh.excluded
    assert again.problems == fresh.problems
    assert again.fingerprint == fresh.fingerprint
    assert list(again.graph.edges()) == list(fresh.graph.edges())


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every stat row counts as older than the racy window (the files were just written)."""
    monkeypatch.setattr(log_module, "RACY_NS", 0)


def _site(tmp_path: Path) -> Path:
    folder = make_site(tmp_path / "walk", theme="mkdocs")
    _write(_adr(folder) / "0000-start.md", TEMPLATE)
    _write(_adr(folder) / "0000-kickoff.md", RECORD.format(title="Kick off"))
    return folder


@pytest.mark.usefixtures("settled")
def test_an_unchanged_tree_is_not_walked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _site(tmp_path)
    cache = ParseCache()
    before = load(_engine(folder), cache=cache)
    walks = _walks(monkeypatch)
    time.sleep(0.02)
    path = _adr(folder) / "0011-use-redis.md"
    path.write_text(path.read_text("utf-8") + "\nOne more line.\n", "utf-8")  # in place
    again = load(_engine(folder), cache=cache)
    assert walks == []
    # the same discovery: the records the edit did not touch are the same objects
    cron = "docs/adr/0005-use-cron.md"
    assert again.by_path[cron] is before.by_path[cron]
    monkeypatch.undo()
    _same(again, load(_engine(folder)))


@pytest.mark.usefixtures("settled")
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_changed_listing_is_walked_again(
    tmp_path: Path, change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _site(tmp_path)
    cache = ParseCache()
    before = load(_engine(folder), cache=cache)
    walks = _walks(monkeypatch)
    time.sleep(0.02)
    CHANGES[change](folder)
    again = load(_engine(folder), cache=cache)
    assert walks == [1]
    monkeypatch.undo()
    fresh = load(_engine(folder))
    _same(again, fresh)
    assert [r.path for r in again.records] != [r.path for r in before.records] or (
        change == "excluded-edited"
    )
    # and the next load, with nothing changed, is answered without a walk again
    walks = _walks(monkeypatch)
    _same(load(_engine(folder), cache=cache), fresh)
    assert walks == []


@pytest.mark.usefixtures("settled")
def test_other_options_walk_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _site(tmp_path)
    cache = ParseCache()
    load(_engine(folder), cache=cache)
    walks = _walks(monkeypatch)
    again = load(_engine(folder, exclude=["0011-*.md"]), cache=cache)
    assert walks == [1]
    assert not any(r.path.endswith("0011-use-redis.md") for r in again.records)


def test_a_recent_listing_is_walked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the real racy window, the folders just written cannot vouch for a listing."""
    folder = _site(tmp_path)
    cache = ParseCache()
    load(_engine(folder), cache=cache)
    assert cache.walk is None
    walks = _walks(monkeypatch)
    _add(folder)
    again = load(_engine(folder), cache=cache)
    assert walks == [1]
    assert any(r.path.endswith("0016-use-nats.md") for r in again.records)


@pytest.mark.usefixtures("settled")
@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_a_symlink_is_walked_every_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _site(tmp_path)
    outside = folder / "elsewhere"
    _write(outside / "0020-use-s3.md", RECORD.format(title="Use S3"))
    try:
        (_adr(folder) / "linked").symlink_to(outside, target_is_directory=True)
    except OSError:
        pytest.skip("symlinks not allowed here")
    cache = ParseCache()
    load(_engine(folder), cache=cache)
    assert cache.walk is None
    walks = _walks(monkeypatch)
    time.sleep(0.02)
    _write(outside / "0021-use-gcs.md", RECORD.format(title="Use GCS"))
    again = load(_engine(folder), cache=cache)
    assert walks == [1]
    assert any(r.path.endswith("0021-use-gcs.md") for r in again.records)


@pytest.mark.usefixtures("settled")
@pytest.mark.parametrize("change", ["added", "removed"])
def test_a_serve_rebuild_shows_an_added_or_removed_record(tmp_path: Path, change: str) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    folder = _site(tmp_path)
    site = folder / "site"
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    assert config.plugins["adr"].cache.walk is not None
    time.sleep(0.02)
    CHANGES[change](folder)
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    build(config)
    config.plugins.on_shutdown()
    index = (site / "adr" / "INDEX" / "index.html").read_text("utf-8")
    if change == "added":
        assert (site / "adr" / "0016-use-nats" / "index.html").is_file()
        assert "Use NATS" in index
    else:
        assert "Use Redis" not in index


@pytest.mark.usefixtures("settled")
@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_the_loop_check_walks_again_when_a_folder_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mkdocs_adr.site import Memory, endless_walk

    docs = tmp_path / "docs"
    (docs / "adr" / "sub").mkdir(parents=True)
    memory = Memory()
    assert endless_walk(docs, memory) == []
    assert memory.folders is not None  # no symlink met: the folders' rows are kept
    listed: list[str] = []
    real = os.scandir

    def counted(path: Any) -> Any:
        listed.append(os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", counted)
    assert endless_walk(docs, memory) == []
    assert listed == []  # nothing changed: no folder listed
    time.sleep(0.02)
    try:
        (docs / "adr" / "sub" / "top").symlink_to(docs, target_is_directory=True)
        (docs / "adr" / "self").symlink_to(".", target_is_directory=True)
    except OSError:
        pytest.skip("symlinks not allowed here")
    assert endless_walk(docs, memory) == ["adr/self", "adr/sub/top"]
    assert os.fspath(docs) in listed
    assert memory.folders is None  # symlinks met: every later check walks
    listed.clear()
    assert endless_walk(docs, memory) == ["adr/self", "adr/sub/top"]
    assert os.fspath(docs) in listed


@pytest.mark.usefixtures("settled")
@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_the_loop_check_keeps_nothing_after_meeting_a_file_symlink(tmp_path: Path) -> None:
    """A symlink that is not a folder now (a broken one) may become one without its
    folder changing: the loop check then walks every time."""
    from mkdocs_adr.site import Memory, endless_walk

    docs = tmp_path / "docs"
    (docs / "adr").mkdir(parents=True)
    try:
        (docs / "adr" / "later").symlink_to(tmp_path / "nowhere", target_is_directory=True)
    except OSError:
        pytest.skip("symlinks not allowed here")
    memory = Memory()
    assert endless_walk(docs, memory) == []
    assert memory.folders is None
