"""A one-off ``mkdocs build`` starts from what the last build of the same site kept
(docs/adr/0051): with nothing changed, the record pages' additions and the generated
views are taken from the snapshot instead of being made again, and the site is
byte-identical to one built without any cache; after an edit of any kind the snapshot
is not used, and the site again equals a build without cache."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr import site as site_module

from .conftest import run_mkdocs, tree_digest
from .test_site_kit import make_site

PROSE = "docs/adr/0001-record-architecture-decisions.md"
DECISION = "docs/adr/0004-use-postgresql-16.md"  # its Decision is quoted by llms.txt
STATUS = "docs/adr/0006-use-a-workflow-engine.md"


def _build(folder: Path, dest: str, *, cache: bool = True) -> dict[str, str]:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if not cache:
        env["MKDOCS_ADR_NO_CACHE"] = "1"
    proc = run_mkdocs("build", "-q", "-d", dest, cwd=folder, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return tree_digest(folder / dest)


def _snapshots() -> list[Path]:
    folder = Path(os.environ["XDG_CACHE_HOME"]) / "mkdocs-adr"
    return sorted(folder.glob("site-*.pack"))


def _edit(folder: Path, rel: str, old: str, new: str) -> None:
    path = folder / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{rel} has no {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_site(tmp_path / "p")


def test_an_unchanged_site_is_replayed_and_reads_as_a_build_without_cache(
    project: Path,
) -> None:
    first = _build(project, "site-1")
    assert len(_snapshots()) == 1, "the first build keeps a snapshot"
    again = _build(project, "site-2")
    assert again == first
    assert _build(project, "site-none", cache=False) == first


def test_every_kind_of_edit_makes_the_site_again(project: Path) -> None:
    _build(project, "site-0")
    _build(project, "site-0b")  # replayed
    edits = [
        (PROSE, "We need a log.", "We need a log that survives reorganisations."),
        (DECISION, "Zebrafish marker.", "Zebrafish marker, moved to the new cluster."),
        (STATUS, 'status: "proposed"', 'status: "rejected"'),
        (
            "mkdocs.yml",
            "site_name: Demo decisions\n",
            "site_name: Demo\nsite_url: https://x.example/\n",
        ),
        ("mkdocs.yml", "  - adr:\n", "  - adr:\n      language: de\n"),
    ]
    before = _build(project, "site-before", cache=False)
    for n, (rel, old, new) in enumerate(edits):
        _edit(project, rel, old, new)
        fresh = _build(project, f"site-{n}-none", cache=False)
        assert fresh != before, f"edit {n} ({rel}) changed nothing: it would prove nothing"
        assert _build(project, f"site-{n}") == fresh, f"edit {n} ({rel}): a stale snapshot"
        assert _build(project, f"site-{n}-again") == fresh, f"edit {n} ({rel}): replayed"
        before = fresh


def test_a_replayed_build_makes_no_page_additions_and_no_views(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    made: list[str] = []
    additions = site_module.SiteBuild._additions

    def counted(self: Any, rec: Any, at: Any) -> Any:
        made.append(rec.id)
        return additions(self, rec, at)

    monkeypatch.setattr(site_module.SiteBuild, "_additions", counted)
    counts = []
    for n in range(3):
        config = load_config(str(project / "mkdocs.yml"), site_dir=str(project / f"s{n}"))
        config.plugins.on_startup(command="build", dirty=False)
        made.clear()
        build(config)
        counts.append(len(made))
        if n == 1:
            _edit(project, PROSE, "We need a log.", "We need a log, kept.")
    assert counts[0] > 5, counts
    assert counts[1] == 0, "nothing changed: every page's additions come from the snapshot"
    assert counts[2] == counts[0], "after an edit every page is made again"


def test_a_damaged_snapshot_is_not_used(project: Path) -> None:
    first = _build(project, "site-1")
    (pack,) = _snapshots()
    data = pack.read_bytes()
    pack.write_bytes(data[: len(data) // 2] + b"x" * (len(data) - len(data) // 2))
    assert _build(project, "site-2") == first
    pack.write_bytes(b"not a snapshot")
    assert _build(project, "site-3") == first


def test_serve_keeps_its_memory_in_the_process_and_writes_no_snapshot(project: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(str(project / "mkdocs.yml"), site_dir=str(project / "s"))
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    config.plugins.on_shutdown()
    assert _snapshots() == []


@pytest.mark.parametrize("enabled", [True, False])
def test_a_snapshot_loads_with_the_collector_paused_and_leaves_it_as_it_was(
    tmp_path: Path, enabled: bool
) -> None:
    """Unpickling a snapshot makes as many long-lived objects as the log it was made
    from: the collector is paused meanwhile and they end in the oldest generation, so
    the next young collection does not walk them (docs/adr/0060)."""
    import gc

    from mkdocs_adr import cache

    value = {f"page-{n}.md": (None, f"<p>{n}</p>", [n, {"n": n}]) for n in range(20000)}
    snapshot = cache.Snapshot(tmp_path, "the site")
    snapshot.save("key", value)
    gc.collect()
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        loaded = snapshot.load("key")
        young = gc.get_count()[0]
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
    assert loaded == value
    assert young < 100, "the loaded objects were left in the youngest generation"


def _holders(obj: object) -> str:
    """What refers to ``obj``, one short line each (a failure's evidence: this test has
    failed in full-suite runs only, and the holder says whether the plugin or another
    test keeps the object)."""
    import gc

    rows = []
    for ref in gc.get_referrers(obj):
        if isinstance(ref, dict):
            owners = [type(o).__qualname__ for o in gc.get_referrers(ref) if o is not ref][:3]
            rows.append(f"dict with keys {sorted(map(str, ref))[:6]} of {owners}")
        else:
            rows.append(type(ref).__qualname__)
    return "; ".join(rows[:8]) or "nothing (a cycle)"


@pytest.mark.parametrize("command", ["build", "serve"])
def test_a_one_off_build_frees_what_it_loaded_at_shutdown(project: Path, command: str) -> None:
    """After a one-off build, ``on_shutdown`` lets go of the log and the snapshot while
    reference counts alone free them: at the interpreter's exit the cycle collector
    would walk them first (docs/adr/0063). A server keeps its memory until it exits."""
    import gc
    import weakref

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    _build(project, "site-1")  # the snapshot the second build replays
    config = load_config(str(project / "mkdocs.yml"), site_dir=str(project / "s"))
    config.plugins.on_startup(command=command, dirty=False)
    build(config)
    plugin = config.plugins["adr"]
    assert plugin.site is not None and plugin.site.log is not None
    assert plugin.site.replay is (command == "build"), (
        "a one-off build of an unchanged site replays the first build's snapshot"
    )
    log, memory = weakref.ref(plugin.site.log), plugin.site.memory
    kept = weakref.ref(memory) if memory is not None else None
    del memory
    enabled = gc.isenabled()
    gc.disable()
    try:
        config.plugins.on_shutdown()
        if command == "build":
            assert log() is None, (
                "the log is freed by reference counts, no collection; held by " + _holders(log())
            )
            assert kept is not None and kept() is None, (
                "and so is the replayed snapshot; held by " + _holders(kept())
            )
        else:
            assert log() is not None and plugin.site is not None
    finally:
        if enabled:
            gc.enable()
