"""The parse cache on disk (docs/adr/0044): same answers warm or cold, only edits reparsed,
anything wrong with the cache ignored, nothing written inside the project."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr import cache, report
from mkdocs_adr import log as log_module
from mkdocs_adr.config import for_root
from mkdocs_adr.log import Log, ParseCache, load

from .conftest import LOGS, tree_digest

TODAY = dt.date(2026, 12, 1)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with the messy and the madr fixture logs side by side in one root."""
    folder = tmp_path / "project"
    shutil.copytree(LOGS / "messy" / "adr", folder / "adr", symlinks=True)
    for path in sorted((LOGS / "madr" / "adr").glob("*.md")):
        shutil.copy(path, folder / "adr" / f"madr-{path.name}")
    return folder


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The paths each call of the parser got, one list per load."""
    calls: list[list[str]] = []
    real = log_module.parse_many

    def counting(jobs: Any, options: Any) -> Any:
        calls.append([path for _data, path in jobs])
        return real(jobs, options)

    monkeypatch.setattr(log_module, "parse_many", counting)
    return calls


def parsed_paths(calls: list[list[str]]) -> list[str]:
    return sorted(p for call in calls for p in call)


def read(folder: Path) -> Log:
    old = Path.cwd()
    os.chdir(folder)
    try:
        return load(for_root(Path("adr")), today=TODAY)
    finally:
        os.chdir(old)


def answer(log: Log) -> str:
    """Everything a reader of the log sees: the plan JSON and each record's reading."""
    data = report.build(log)
    readings = [
        [r.id, r.path, repr(r.parsed), r.parsed.text, repr(r.relations), repr(r.units)]
        for r in log.records
    ]
    return json.dumps([data, readings], sort_keys=True, default=str)


def packs() -> list[Path]:
    return sorted(cache.directory().glob("*.pack"))


def cold_answer(folder: Path) -> str:
    with cache.disabled():
        return answer(read(folder))


def test_the_folder_follows_xdg_then_the_platform(tmp_path: Path) -> None:
    home = Path.home()
    assert cache.directory({"XDG_CACHE_HOME": str(tmp_path)}, "linux") == tmp_path / "mkdocs-adr"
    # a relative XDG_CACHE_HOME is ignored, as the XDG rule says
    assert cache.directory({"XDG_CACHE_HOME": "rel"}, "linux") == home / ".cache" / "mkdocs-adr"
    assert cache.directory({}, "linux") == home / ".cache" / "mkdocs-adr"
    assert cache.directory({}, "darwin") == home / "Library" / "Caches" / "mkdocs-adr"
    assert cache.directory({"LOCALAPPDATA": str(tmp_path)}, "win32") == (
        tmp_path / "mkdocs-adr" / "Cache"
    )
    assert cache.directory({"XDG_CACHE_HOME": str(tmp_path)}, "win32") == tmp_path / "mkdocs-adr"


def test_the_suite_never_uses_the_users_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    assert cache.directory().is_relative_to(tmp_path_factory.getbasetemp())
    assert not cache.directory().exists()


def test_a_warm_load_parses_nothing_and_answers_the_same(
    project: Path, parses: list[list[str]]
) -> None:
    cold = read(project)
    n = len(cold.records)
    assert n > 10
    assert len(parsed_paths(parses)) == n
    assert len(packs()) == 1
    parses.clear()
    warm = read(project)
    assert parsed_paths(parses) == []
    assert answer(warm) == answer(cold) == cold_answer(project)
    assert warm.fingerprint == cold.fingerprint


def test_an_edited_file_is_the_only_one_parsed_again(
    project: Path, parses: list[list[str]]
) -> None:
    read(project)
    target = sorted((project / "adr").glob("madr-*.md"))[0]
    text = target.read_text(encoding="utf-8")
    target.write_text(text.replace("accepted", "deprecated", 1) + "\nOne more line.\n", "utf-8")
    parses.clear()
    edited = read(project)
    assert parsed_paths(parses) == [f"adr/{target.name}"]
    assert answer(edited) == cold_answer(project)
    # and the pack now holds the edit: the next load parses nothing
    parses.clear()
    assert answer(read(project)) == answer(edited)
    assert parsed_paths(parses) == []


def test_crlf_line_endings_are_part_of_the_key(project: Path, parses: list[list[str]]) -> None:
    target = sorted((project / "adr").glob("madr-*.md"))[0]
    read(project)
    target.write_bytes(target.read_bytes().replace(b"\n", b"\r\n"))
    parses.clear()
    log = read(project)
    # the text hash (which ignores line endings) is unchanged; the reading is redone
    assert parsed_paths(parses) == [f"adr/{target.name}"]
    assert answer(log) == cold_answer(project)


def _truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _flip(data: bytes) -> bytes:
    middle = len(data) - 200
    return data[:middle] + bytes([data[middle] ^ 0x55]) + data[middle + 1 :]


def _foreign(data: bytes) -> bytes:
    return b"not a pack at all\n" + data[:100]


def _other_code(data: bytes) -> bytes:
    head, _, rest = data.partition(b"\n")
    header, _, rest = rest.partition(b"\n")
    return head + b"\n" + header.replace(b'"code": "', b'"code": "0', 1) + b"\n" + rest


def _empty(data: bytes) -> bytes:
    return b""


@pytest.mark.parametrize("damage", [_truncate, _flip, _foreign, _other_code, _empty])
def test_a_damaged_pack_is_ignored_and_rewritten(
    project: Path, parses: list[list[str]], damage: Callable[[bytes], bytes]
) -> None:
    first = read(project)
    (pack,) = packs()
    pack.write_bytes(damage(pack.read_bytes()))
    parses.clear()
    again = read(project)
    assert len(parsed_paths(parses)) == len(first.records)
    assert answer(again) == answer(first)
    parses.clear()
    read(project)
    assert parsed_paths(parses) == []


def _flip_in_part(data: bytes, part: int) -> bytes:
    """``data`` (a pack) with one byte of body part ``part`` (0 the kept log, 1 the
    readings, 2 the walked paths) changed."""
    head_end = data.index(b"\n", data.index(b"\n") + 1)
    meta_end = data.index(b"\n", head_end + 1)
    lengths = json.loads(data[head_end + 1 : meta_end])[1]
    assert lengths[part] > 0
    at = meta_end + 1 + sum(lengths[:part]) + lengths[part] // 2
    return data[:at] + bytes([data[at] ^ 0x55]) + data[at + 1 :]


@pytest.mark.parametrize("part", [0, 1, 2])
def test_each_part_of_a_pack_is_checked_when_it_is_read(
    project: Path,
    parses: list[list[str]],
    analyses: list[int],
    monkeypatch: pytest.MonkeyPatch,
    part: int,
) -> None:
    """A damaged kept log is not used (nor the readings it holds: every file is parsed
    again); damaged readings are never read while the kept log answers; damaged walked
    paths vouch for nothing (the files are read, and the kept log answers). Every
    answer is the cold one."""
    monkeypatch.setattr(log_module, "RACY_NS", 0)  # the test's files vouch at once
    expected = cold_answer(project)
    read(project)
    read(project)  # parses nothing: the pack keeps the analysed log and the walk
    (pack,) = packs()
    pack.write_bytes(_flip_in_part(pack.read_bytes(), part))
    parses.clear()
    analyses.clear()
    assert answer(read(project)) == expected
    if part == 0:  # the readings of a kept log are its records'
        assert len(parsed_paths(parses)) == 47 and len(analyses) == 1
    if part == 1:  # the kept log still answers: the readings were never read
        assert parsed_paths(parses) == [] and analyses == []
    if part == 2:  # no vouching walk: the files are read, the kept log answers
        assert parsed_paths(parses) == [] and analyses == []
    assert answer(read(project)) == expected


def test_a_pack_others_may_write_is_not_trusted(project: Path, parses: list[list[str]]) -> None:
    first = read(project)
    (pack,) = packs()
    pack.chmod(0o666)
    parses.clear()
    assert answer(read(project)) == answer(first)
    assert len(parsed_paths(parses)) == len(first.records)


def test_a_pickle_of_something_else_is_not_used(project: Path, parses: list[list[str]]) -> None:
    """A pack whose header is right but whose entries are not readings is ignored."""
    first = read(project)
    (pack,) = packs()
    entries = {key: "not a reading" for key in _pack_keys(project)}
    fake = cache.Pack(project.resolve(), _options(project))
    fake.save(entries)  # type: ignore[arg-type]
    assert fake.path == pack
    parses.clear()
    assert answer(read(project)) == answer(first)
    assert len(parsed_paths(parses)) == len(first.records)


def _options(project: Path) -> Any:
    from mkdocs_adr.parsing import ParseOptions

    old = Path.cwd()
    os.chdir(project)
    try:
        return ParseOptions.from_config(for_root(Path("adr")))
    finally:
        os.chdir(old)


def _pack_keys(project: Path) -> list[tuple[str, str]]:
    pack = cache.Pack(project.resolve(), _options(project))
    pack.load()
    assert pack.entries
    return list(pack.entries)


def test_a_new_version_or_other_options_parse_again(
    project: Path, parses: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = read(project)
    n = len(first.records)
    parses.clear()
    import mkdocs_adr

    version = mkdocs_adr.__version__
    monkeypatch.setattr(mkdocs_adr, "__version__", "99.0.0")
    cache.code_stamp.cache_clear()
    try:
        assert answer(read(project)) == answer(first)
        assert len(parsed_paths(parses)) == n
    finally:
        monkeypatch.setattr(mkdocs_adr, "__version__", version)
        cache.code_stamp.cache_clear()
    # other parse options: another pack, parsed afresh, the old one kept
    config = for_root(project / "adr", cwd=project)
    parses.clear()
    load(dataclasses.replace(config, status_aliases={"ok": "accepted"}))
    assert len(parsed_paths(parses)) == n
    assert len(packs()) == 2


def test_a_serve_cache_in_memory_comes_first(project: Path, parses: list[list[str]]) -> None:
    config = for_root(project / "adr", cwd=project)
    memory = ParseCache()
    first = load(config, cache=memory, today=TODAY)
    assert len(memory) == len(first.records)
    parses.clear()
    # a second process (an empty memory cache) reads the pack the first one wrote
    other = ParseCache()
    assert answer(load(config, cache=other, today=TODAY)) == answer(first)
    assert parsed_paths(parses) == []
    assert len(other) == len(first.records)


def test_the_pack_folder_is_pruned_oldest_first(tmp_path: Path) -> None:
    folder = tmp_path / "packs"
    folder.mkdir()
    for i in range(5):
        path = folder / f"p{i}.pack"
        path.write_bytes(b"x" * 1000)
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
    (folder / "other.txt").write_bytes(b"y" * 5000)
    removed = cache.prune(folder, keep=folder / "p0.pack", limit=2500)
    assert sorted(p.name for p in removed) == ["p1.pack", "p2.pack", "p3.pack"]
    assert sorted(p.name for p in folder.iterdir()) == ["other.txt", "p0.pack", "p4.pack"]
    assert cache.clear(folder) == 2
    assert sorted(p.name for p in folder.iterdir()) == ["other.txt"]


# ------------------------------------------------------------------ the CLI, as a subprocess


def cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **(env or {})},
    )


def plan_json(proc: subprocess.CompletedProcess[str]) -> Any:
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def test_no_cache_writes_nothing_and_answers_the_same(project: Path) -> None:
    before = tree_digest(project)
    plain = cli("--no-cache", "--root", "adr", "plan", "--json", cwd=project)
    assert not cache.directory().exists()
    env_off = cli("--root", "adr", "plan", "--json", cwd=project, env={cache.ENV_OFF: "1"})
    assert not cache.directory().exists()
    cached = cli("--root", "adr", "plan", "--json", cwd=project)
    assert len(packs()) == 1
    warm = cli("--root", "adr", "check", cwd=project)
    warm_plain = cli("--no-cache", "--root", "adr", "check", cwd=project)
    assert plan_json(plain) == plan_json(env_off) == plan_json(cached)
    assert (warm.returncode, warm.stdout, warm.stderr) == (
        warm_plain.returncode,
        warm_plain.stdout,
        warm_plain.stderr,
    )
    assert tree_digest(project) == before


@pytest.fixture
def blocked_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``XDG_CACHE_HOME`` is a file: the cache folder cannot be made."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    yield blocker


def test_an_unusable_cache_folder_changes_nothing_and_says_nothing(
    project: Path, blocked_cache: Path
) -> None:
    before = tree_digest(project)
    got = cli("--root", "adr", "plan", "--json", cwd=project)
    text = cli("--root", "adr", "plan", cwd=project)
    off = cli("--no-cache", "--root", "adr", "plan", cwd=project)
    assert got.stderr == text.stderr == ""
    assert plan_json(got)["records"]
    assert (text.returncode, text.stdout) == (off.returncode, off.stdout)
    assert blocked_cache.read_text(encoding="utf-8").startswith("a file where")
    assert tree_digest(project) == before


def test_a_cache_folder_that_is_a_file_is_left_alone(project: Path, tmp_path: Path) -> None:
    base = tmp_path / "xdg"
    base.mkdir()
    (base / "mkdocs-adr").write_text("mine\n", encoding="utf-8")
    got = cli("--root", "adr", "check", cwd=project, env={"XDG_CACHE_HOME": str(base)})
    off = cli("--no-cache", "--root", "adr", "check", cwd=project)
    assert (got.returncode, got.stdout, got.stderr) == (off.returncode, off.stdout, off.stderr)
    assert (base / "mkdocs-adr").read_text(encoding="utf-8") == "mine\n"


def test_two_processes_filling_the_cache_at_once_agree(tmp_path: Path) -> None:
    from benchmarks.generate import generate

    folder = tmp_path / "big"
    generate(folder, 600)
    before = tree_digest(folder)
    cmd = [sys.executable, "-m", "mkdocs_adr", "plan", "--json"]
    procs = [
        subprocess.Popen(cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    codes = [p.returncode for p in procs]
    assert codes[0] == codes[1] and codes[0] in (0, 1), outs
    assert outs[0][1] == outs[1][1] == ""
    assert json.loads(outs[0][0]) == json.loads(outs[1][0])
    assert len(packs()) == 1
    warm = cli("plan", "--json", cwd=folder)
    off = cli("--no-cache", "plan", "--json", cwd=folder)
    assert plan_json(warm) == plan_json(off) == json.loads(outs[0][0])
    assert tree_digest(folder) == before


@pytest.fixture
def analyses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many records each whole-log analysis got."""
    calls: list[int] = []
    real = log_module.analyse

    def counting(config: Any, records: Any, **kw: Any) -> Any:
        calls.append(len(records))
        return real(config, records, **kw)

    monkeypatch.setattr(log_module, "analyse", counting)
    return calls


def test_the_analysed_log_is_kept_once_a_run_parsed_nothing(
    project: Path, parses: list[list[str]], analyses: list[int]
) -> None:
    expected = cold_answer(project)
    analyses.clear()
    parses.clear()
    first = read(project)  # parses all, keeps the readings
    second = read(project)  # parses nothing, keeps the analysis too
    assert len(analyses) == 2
    third = read(project)  # neither parses nor analyses
    assert len(analyses) == 2 and len(parsed_paths(parses)) == len(first.records)
    assert answer(third) == answer(second) == answer(first) == expected
    assert third.today == TODAY
    # another day: the review-by dates are judged again, from the kept readings
    old = Path.cwd()
    os.chdir(project)
    try:
        later = load(for_root(Path("adr")), today=dt.date(2031, 1, 1))
    finally:
        os.chdir(old)
    assert len(analyses) == 3 and len(parsed_paths(parses)) == len(first.records)
    assert later.today == dt.date(2031, 1, 1)
    with cache.disabled():
        os.chdir(project)
        try:
            fresh = load(for_root(Path("adr")), today=dt.date(2031, 1, 1))
        finally:
            os.chdir(old)
    assert answer(later) == answer(fresh)


def test_an_edit_after_the_analysis_was_kept_is_seen(
    project: Path, parses: list[list[str]], analyses: list[int]
) -> None:
    for _ in range(3):
        log = read(project)
    last = sorted(r.path for r in log.records if r.path.startswith("adr/madr-"))[-1]
    target = project / last
    target.write_text(target.read_text(encoding="utf-8") + "\nSee ADR-9999.\n", "utf-8")
    parses.clear()
    edited = read(project)
    assert parsed_paths(parses) == [f"adr/{target.name}"]
    assert answer(edited) == cold_answer(project)
    # a new file, and a removed one, change what discovery finds
    (project / "adr" / "0999-added-late.md").write_text(
        "# 999. Added late\n\nDate: 2026-11-30\n\n## Status\n\nProposed\n", "utf-8"
    )
    target.unlink()
    parses.clear()
    changed = read(project)
    assert parsed_paths(parses) == ["adr/0999-added-late.md"]
    assert answer(changed) == cold_answer(project)
    assert "adr/0999-added-late.md" in changed.by_path
    assert f"adr/{target.name}" not in changed.by_path


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every record file the log read, in order."""
    calls: list[str] = []
    real = log_module._read

    def counting(path: str | Path) -> bytes:
        calls.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(log_module, "_read", counting)
    return calls


def test_unchanged_stat_rows_vouch_for_the_kept_log(
    project: Path,
    parses: list[list[str]],
    analyses: list[int],
    reads: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the files of a test are seconds old at most: let them vouch at once
    monkeypatch.setattr(log_module, "RACY_NS", 0)
    expected = cold_answer(project)
    read(project)
    read(project)  # keeps the analysis
    n = len(reads) // 3
    reads.clear()
    analyses.clear()
    assert answer(read(project)) == expected
    assert reads == [] and analyses == []
    # same size, the old modification time put back: the change time still moves
    log = read(project)
    path = project / sorted(r.path for r in log.records if r.path.startswith("adr/madr-"))[0]
    st = path.stat()
    text = path.read_bytes()
    time.sleep(0.05)
    swapped = text.replace(b"accepted", b"rejected", 1)
    assert swapped != text and len(swapped) == len(text)
    path.write_bytes(swapped)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    parses.clear()
    edited = read(project)
    assert parsed_paths(parses) == [f"adr/{path.name}"]
    assert answer(edited) == cold_answer(project)
    # touched, not changed: read and hashed, nothing parsed or analysed; then vouched for
    read(project)  # keeps the analysis of the edit
    time.sleep(0.05)
    path.touch()
    reads.clear()
    analyses.clear()
    parses.clear()
    assert answer(read(project)) == answer(edited)
    assert len(reads) == n and analyses == [] and parses == []
    reads.clear()
    assert answer(read(project)) == answer(edited)
    assert reads == []


def test_a_file_changed_just_now_cannot_vouch(project: Path, reads: list[str]) -> None:
    """Within RACY_NS of a change, stat rows prove nothing: the files are read."""
    for _ in range(3):
        read(project)
    reads.clear()
    read(project)
    assert reads  # the fixture's files were written a moment ago


def test_the_walk_is_vouched_for_by_its_folders_and_files(
    project: Path, reads: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the kept log vouched for, no folder is listed and no file read; an added,
    removed or renamed entry moves its folder's times, an edited file its own."""
    monkeypatch.setattr(log_module, "RACY_NS", 0)
    walks: list[int] = []
    real = log_module.discover

    def counting(config: Any) -> Any:
        walks.append(1)
        return real(config)

    monkeypatch.setattr(log_module, "discover", counting)

    def settled() -> Log:
        """The log after the runs that fill the pack, keep the analysis and vouch."""
        for _ in range(3):
            read(project)
            time.sleep(0.02)
        walks.clear()
        reads.clear()
        log = read(project)
        assert walks == [] and reads == []
        return log

    first = settled()
    assert answer(first) == cold_answer(project)
    # a new folder holding a record: the root folder's times move
    (project / "adr" / "payments").mkdir()
    (project / "adr" / "payments" / "0998-pay-later.md").write_text(
        "# 998. Pay later\n\nDate: 2026-11-29\n\n## Status\n\nAccepted\n", "utf-8"
    )
    walks.clear()
    grown = read(project)
    assert walks == [1] and "adr/payments/0998-pay-later.md" in grown.by_path
    assert answer(grown) == cold_answer(project)
    settled()
    # a record added inside that folder: only the folder's own times move
    (project / "adr" / "payments" / "0997-pay-now.md").write_text(
        "# 997. Pay now\n\nDate: 2026-11-28\n\n## Status\n\nProposed\n", "utf-8"
    )
    walks.clear()
    again = read(project)
    assert walks == [1] and "adr/payments/0997-pay-now.md" in again.by_path
    assert answer(again) == cold_answer(project)
    settled()
    # a rename, then a non-record file (excluded by its name) whose content changes
    moved = project / "adr" / "payments" / "0997-pay-now.md"
    moved.rename(moved.with_name("0997-pay-at-once.md"))
    walks.clear()
    renamed = read(project)
    assert walks == [1] and "adr/payments/0997-pay-at-once.md" in renamed.by_path
    assert "adr/payments/0997-pay-now.md" not in renamed.by_path
    assert answer(renamed) == cold_answer(project)
    settled()
    readme = project / "adr" / "README.md"
    readme.write_bytes(readme.read_bytes() + b"\n\xff\xfe not text\n")
    walks.clear()
    noted = read(project)
    assert walks == [1]
    assert answer(noted) == cold_answer(project)


def test_a_prose_edit_reuses_the_analysis_and_answers_as_a_fresh_load(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Serve's cache (ADR-0045): after an edit of a record's prose only, the relations,
    graph and problems of the last analysis stand, with the new text and hash."""
    calls: list[int] = []
    real = log_module.analyse

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(log_module, "analyse", counted)
    memory = ParseCache()
    old = Path.cwd()
    os.chdir(project)
    try:
        load(for_root(Path("adr")), cache=memory, today=TODAY)
        record = project / "adr" / "0007-use-structured-logging.md"
        record.write_text(record.read_text("utf-8") + "\nOne more reason.\n", "utf-8")
        prose = load(for_root(Path("adr")), cache=memory, today=TODAY)
        assert len(calls) == 1, "a prose edit is not analysed again"
        assert answer(prose) == cold_answer(project)
        assert "One more reason." in prose.by_path["adr/0007-use-structured-logging.md"].parsed.text
        text = record.read_text("utf-8")
        assert "Accepted" in text
        record.write_text(text.replace("Accepted", "Deprecated", 1), "utf-8")
        before = len(calls)  # (cold_answer analysed once more)
        status = load(for_root(Path("adr")), cache=memory, today=TODAY)
        assert len(calls) == before + 1, "a status edit is analysed again"
        assert answer(status) == cold_answer(project)
        assert status.by_path["adr/0007-use-structured-logging.md"].status == "deprecated"
    finally:
        os.chdir(old)


def test_the_lean_form_of_every_fixture_reading_reads_back_the_same() -> None:
    """A pack keeps the readings a run parsed as plain tuples (``parsing.lean``); each
    fixture record, container units and problems included, comes back equal field
    by field, text and all, and as the same object graph (relations, units, problems)."""
    from mkdocs_adr.model import Parsed
    from mkdocs_adr.parsing import ParseOptions
    from mkdocs_adr.parsing import lean as plain
    from mkdocs_adr.parsing.reader import parse_bytes

    options = ParseOptions(aliases=(), status_headings=frozenset({"status"}))
    files = sorted(LOGS.rglob("*.md"))
    kinds = {"units": 0, "problems": 0, "relations": 0}
    for path in files:
        parsed = parse_bytes(path.read_bytes(), path=path.name, options=options)
        lean = plain.lean(parsed)
        assert type(lean) is tuple
        back = plain.unlean(lean)
        assert type(back) is Parsed
        for f in dataclasses.fields(Parsed):
            assert getattr(back, f.name) == getattr(parsed, f.name), (path, f.name)
            assert repr(getattr(back, f.name)) == repr(getattr(parsed, f.name)), (path, f.name)
        assert back == parsed
        for kind in kinds:
            kinds[kind] += bool(getattr(parsed, kind))
    assert all(kinds.values()), kinds  # the fixtures hold each shape the lean form rewrites
    assert plain.lean("not a reading") == "not a reading"
    with pytest.raises(ValueError):
        plain.unlean(("too", "short"))


def test_a_pack_keeps_no_text_and_gives_each_reading_its_files_text(tmp_path: Path) -> None:
    """A pack holds its readings without their text (docs/adr/0061); read back through
    ``Pack.get`` with the file's bytes, each is the fresh reading again, text and all:
    every fixture record, and bytes the decoder treats apart (a BOM, CR and CRLF line
    endings, bytes that are not UTF-8, a binary file, a file over the size bound)."""
    from mkdocs_adr.log import text_hash
    from mkdocs_adr.model import Parsed
    from mkdocs_adr.parsing import ParseOptions
    from mkdocs_adr.parsing.reader import parse_bytes

    options = ParseOptions(aliases=(), status_headings=frozenset({"status"}), max_bytes=4096)
    marker = b"A sentence only the record's text holds."
    files = {str(path): path.read_bytes() for path in sorted(LOGS.rglob("*.md"))}
    files |= {
        "bom.md": b"\xef\xbb\xbf# 1. With a BOM\n\n## Status\n\nAccepted\n\n## Context\n\n"
        + marker,
        "crlf.md": b"# 2. CRLF\r\n\r\n## Status\r\n\r\nAccepted\r\n\r\n## Context\r\n" + marker,
        "cr.md": b"# 3. CR\r\r## Status\r\rAccepted\r\r## Context\r\r" + marker,
        "latin1.md": b"# 4. Caf\xe9\n\n## Status\n\nAccepted\n\n## Context\n\n" + marker,
        "binary.md": b"# 5. Binary\n\x00\x01" + marker,
        "huge.md": b"# 6. Huge\n\n" + marker * 200,
    }
    fresh = {path: parse_bytes(data, path=path, options=options) for path, data in files.items()}
    keys = {path: (cache.file_key(text_hash(data), data), path) for path, data in files.items()}
    pack = cache.Pack(tmp_path, options)
    pack.save({keys[path]: fresh[path] for path in files})
    assert marker not in pack.path.read_bytes()
    assert fresh["huge.md"].text == fresh["binary.md"].text == ""
    assert "Caf\ufffd" in fresh["latin1.md"].text and "\r" not in fresh["cr.md"].text

    kept = cache.Pack(tmp_path, options)
    kept.load()
    for path, data in files.items():
        back = kept.get(keys[path], data)
        assert type(back) is Parsed
        for f in dataclasses.fields(Parsed):
            assert repr(getattr(back, f.name)) == repr(getattr(fresh[path], f.name)), (path, f.name)
        assert back.text == fresh[path].text, path
        assert kept.get(keys[path], data) is back  # (its text is filled once)
