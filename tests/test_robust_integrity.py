"""Issue 16, integrity: the lock, staged bytes, temp files, plan ids, long names, writers.

Every test here reproduces one finding of the attack on main 54fb7b2 and checks that
it no longer happens: two processes holding the lock after a stale takeover, staged
bytes written without checking their hash, ``.name.tmp-*`` files left by a killed
write, a blocked plan cached under an id that does not change when the conflict is
fixed, a link to a file name over 255 bytes crashing ``archive``, and the authoring
writers (``new``, ``link``) killed mid-apply.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mkdocs_adr.errors import LockHeld
from mkdocs_adr.fsops import project_lock

# --------------------------------------------------------------------- the lock

WORKERS = 8
ROUNDS = 30


def _dead_pid() -> int:
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(proc.stdout)


def _stale_lock(work: Path, pid: int) -> None:
    record = {"pid": pid, "host": socket.gethostname(), "purpose": "killed", "since": "then"}
    (work / "lock").write_text(json.dumps(record), encoding="utf-8")


def _log(path: Path, line: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


def _contender(work: str, log: str, start: object, done: object, rounds: int) -> None:
    """One process: every round, wait for the start, take the lock, hold it briefly."""
    for n in range(rounds):
        start.wait()  # type: ignore[attr-defined]
        try:
            with project_lock(Path(work), f"contender {os.getpid()}", timeout=5):
                _log(Path(log), f"{n} take {os.getpid()}\n")
                time.sleep(0.002)
                _log(Path(log), f"{n} free {os.getpid()}\n")
        except LockHeld:
            _log(Path(log), f"{n} refused {os.getpid()}\n")
        done.wait()  # type: ignore[attr-defined]


def test_many_processes_on_a_stale_lock_never_hold_it_together(tmp_path: Path) -> None:
    """8 processes start at once on a lock whose holder is dead, 30 rounds: the log
    (appended with O_APPEND, so its order is the order of the holds) never shows a
    second take before the first holder's free."""
    work = tmp_path / "work"
    work.mkdir()
    log = tmp_path / "holds.log"
    dead = _dead_pid()
    ctx = multiprocessing.get_context("fork")
    start = ctx.Barrier(WORKERS + 1)
    done = ctx.Barrier(WORKERS + 1)
    procs = [
        ctx.Process(target=_contender, args=(str(work), str(log), start, done, ROUNDS))
        for _ in range(WORKERS)
    ]
    for proc in procs:
        proc.start()
    try:
        for _ in range(ROUNDS):
            _stale_lock(work, dead)
            start.wait(timeout=60)
            done.wait(timeout=60)
    finally:
        for proc in procs:
            proc.join(timeout=60)
            if proc.is_alive():  # pragma: no cover - only when the test already failed
                proc.kill()
    assert all(proc.exitcode == 0 for proc in procs)
    lines = log.read_text(encoding="utf-8").splitlines()
    holder: str | None = None
    takes = 0
    for line in lines:
        _round, what, pid = line.split()
        if what == "take":
            assert holder is None, f"{pid} took the lock while {holder} held it: {lines}"
            holder = pid
            takes += 1
        elif what == "free":
            assert holder == pid
            holder = None
    # every process got the lock in every round (they wait up to 5 s for each other)
    assert takes == WORKERS * ROUNDS
    assert not (work / "lock").exists()
    assert not [p.name for p in work.iterdir() if p.name.startswith(".lock.new-")]


def test_a_live_holder_is_never_taken_over(tmp_path: Path) -> None:
    work = tmp_path / "work"
    with project_lock(work, "publishing"):
        before = (work / "lock").read_bytes()
        with (
            pytest.raises(LockHeld, match=r"held by pid \d+ \(publishing\)"),
            project_lock(work, "second"),
        ):
            pass  # pragma: no cover - never reached
        assert (work / "lock").read_bytes() == before
    assert not (work / "lock").exists()
