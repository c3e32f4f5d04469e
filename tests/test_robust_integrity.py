"""Issue 16, integrity: the lock, staged bytes, temp files, plan ids, long names, writers.

Every test here reproduces one finding of the attack on main 54fb7b2 and checks that
it no longer happens: two processes holding the lock after a stale takeover, staged
bytes written without checking their hash, ``.name.tmp-*`` files left by a killed
write, a blocked plan cached under an id that does not change when the conflict is
fixed, a link to a file name over 255 bytes crashing ``archive``, and the authoring
writers (``new``, ``link``) killed mid-apply.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mkdocs_adr import fsops, journal
from mkdocs_adr.errors import LockHeld, RefusedError
from mkdocs_adr.fsops import project_lock
from mkdocs_adr.paths import inside_project
from mkdocs_adr.plans import Plan, list_plans, plan_dir, staged_path

from .conftest import run_mkdocs, tree_digest

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


def test_a_taker_killed_mid_take_leaves_nothing_that_lasts(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    left = work / f".lock.new-{_dead_pid()}-5"
    left.write_text("{}", encoding="utf-8")
    _stale_lock(work, _dead_pid())
    with project_lock(work, "next") as lock:
        assert json.loads(lock.read_text(encoding="utf-8"))["purpose"] == "next"
        assert not left.exists()
    assert sorted(p.name for p in work.iterdir()) == ["lock.guard"]


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


# --------------------------------------------------------------------- a small log

MKDOCS_YML = "site_name: Orders platform\nplugins:\n  - adr\n"


def nygard(number: int, title: str, status: str, body: str = "") -> str:
    return (
        f"# {number}. {title}\n\nDate: 2026-0{number}-1{number}\n\n## Status\n\n{status}\n\n"
        f"## Context\n\nThe orders service grew; {title.lower()} came up in review.\n\n"
        f"## Decision\n\nWe {title.lower()}.{body}\n\n## Consequences\n\nFewer pages at night.\n"
    )


RECORDS = {
    "0001-record-architecture-decisions.md": nygard(1, "Record architecture decisions", "Accepted"),
    "0002-use-postgres-for-orders.md": nygard(
        2, "Use Postgres for orders", "Superseded by [4. Shard orders](0004-shard-orders.md)"
    ),
    "0003-cache-reads-in-redis.md": nygard(3, "Cache reads in Redis", "Proposed"),
    "0004-shard-orders.md": nygard(
        4,
        "Shard orders",
        "Accepted\n\nSupersedes [2. Use Postgres](0002-use-postgres-for-orders.md)",
    ),
}


def make_project(
    base: Path, *, home: str = "# Orders\n\nSee the [decisions](adr/INDEX.md).\n"
) -> Path:
    (base / "docs/adr").mkdir(parents=True)
    (base / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    (base / "docs/index.md").write_text(home, encoding="utf-8")
    for name, text in RECORDS.items():
        (base / "docs/adr" / name).write_text(text, encoding="utf-8")
    return base


def cli(project: Path, *args: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
    """The real CLI as a child process (the crash switch set or cleared)."""
    env = dict(os.environ)
    env.pop(journal.CRASH_ENV, None)
    if crash is not None:
        env[journal.CRASH_ENV] = crash
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def docs(project: Path) -> dict[str, str]:
    """The project's files outside the work dir, byte for byte (temp files included)."""
    return {k: v for k, v in tree_digest(project).items() if not k.startswith(".mkdocs-adr")}


def plan_of(project: Path, kind: str | None = None) -> Plan:
    found = list_plans(project / ".mkdocs-adr")
    if kind is not None:
        found = [p for p in found if p.kind == kind]
    assert found, f"no {kind or ''} plan in {project}"
    return found[-1]


def staged_files(project: Path, plan: Plan) -> list[Path]:
    return [
        staged_path(project / ".mkdocs-adr", plan.plan_id, s.after)
        for s in plan.steps
        if s.op == "write" and s.after is not None
    ]


# --------------------------------------------------------------------- staged bytes


def test_a_staged_file_edited_after_planning_refuses_the_archive_and_writes_nothing(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "p")
    proc = cli(project, "archive", "--json")
    assert proc.returncode == 0, proc.stderr
    plan_id = json.loads(proc.stdout)["plan_id"]
    plan = plan_of(project, "archive")
    assert plan.plan_id == plan_id
    staged = staged_files(project, plan)
    assert staged, "the archive rewrites at least the successor's link"
    staged[-1].write_bytes(staged[-1].read_bytes() + b"\n<script>not reviewed</script>\n")
    before = docs(project)
    shown = json.loads(cli(project, "status", plan_id, "--json").stdout)
    assert shown["valid"] is False
    assert [r for r in shown["reasons"] if "does not match its sha256" in r]
    proc = cli(project, "plan", "--confirm", plan_id)
    assert proc.returncode == 3, proc.stderr
    assert "does not match its sha256" in proc.stderr
    assert "nothing was written" in proc.stderr
    assert docs(project) == before
    assert journal.read_journal(project / ".mkdocs-adr", plan_id).state == "planned"
    # planning again puts the reviewed bytes back under the same id, and it applies
    proc = cli(project, "archive", "--json")
    assert json.loads(proc.stdout)["plan_id"] == plan_id
    proc = cli(project, "plan", "--confirm", plan_id)
    assert proc.returncode == 0, proc.stderr
    assert (project / "docs/adr/archive/0002-use-postgres-for-orders.md").exists()
    assert b"not reviewed" not in (project / "docs/adr/0004-shard-orders.md").read_bytes()


def test_a_staged_file_damaged_during_an_interruption_refuses_the_resume(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    original = docs(project)
    proc = cli(project, "link", "3", "Amends", "1", crash="0")
    assert proc.returncode == journal.CRASH_EXIT, proc.stderr
    plan = plan_of(project)
    assert docs(project) == original  # killed before its first write
    staged = staged_files(project, plan)
    staged[0].unlink()
    proc = cli(project, "plan", "--confirm", plan.plan_id)
    assert proc.returncode == 3
    assert "is missing or unreadable" in proc.stderr and "plan --rollback" in proc.stderr
    assert docs(project) == original
    staged[1].write_bytes(b"# 1. Something else entirely\n")
    proc = cli(project, "plan", "--confirm", plan.plan_id)
    assert proc.returncode == 3 and "does not match its sha256" in proc.stderr
    assert docs(project) == original


def test_a_damaged_backup_is_kept_rather_than_restored(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    proc = cli(project, "link", "3", "Amends", "1", crash="1")
    assert proc.returncode == journal.CRASH_EXIT
    plan = plan_of(project)
    first = plan.steps[0]
    assert first.before is not None
    backup = plan_dir(project / ".mkdocs-adr", plan.plan_id) / "backup" / first.before
    written = (project / first.path).read_bytes()
    backup.write_bytes(b"not what was there\n")
    proc = cli(project, "plan", "--rollback", plan.plan_id, "--json")
    assert proc.returncode in (0, 1), proc.stderr
    assert f"kept {first.path}: its backup is missing or damaged" in proc.stdout
    assert (project / first.path).read_bytes() == written


# --------------------------------------------------------------------- temp files


KILLED_WRITE = """
import os, sys
from pathlib import Path
from mkdocs_adr import fsops
os.replace = lambda *a: os._exit(9)  # killed after the temp file was written, before the rename
fsops.atomic_write(Path(sys.argv[1]), b"half of a new version\\n")
"""


def killed_write(target: Path) -> Path:
    """Run the real ``atomic_write`` of ``target`` in a child killed before its rename;
    return the temp file it leaves."""
    proc = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(target)], check=False)
    assert proc.returncode == 9
    left = [p for p in target.parent.iterdir() if p.name.startswith(f".{target.name}.tmp-")]
    assert len(left) == 1
    return left[0]


@pytest.mark.parametrize("recover", ["resume", "rollback"])
def test_the_temp_file_of_a_killed_write_is_listed_then_removed(
    tmp_path: Path, recover: str
) -> None:
    project = make_project(tmp_path / "p")
    original = docs(project)
    done = make_project(tmp_path / "control")
    assert cli(done, "link", "3", "Amends", "1").returncode == 0
    finished = docs(done)

    proc = cli(project, "link", "3", "Amends", "1", crash="1")
    assert proc.returncode == journal.CRASH_EXIT
    plan = plan_of(project)
    temp = killed_write(project / plan.steps[1].path)
    rel = temp.relative_to(project).as_posix()
    status = json.loads(cli(project, "status", "--json").stdout)
    assert status["leftover_temp_files"] == [rel]
    text = cli(project, "status").stdout
    assert "Leftover temp files (1)" in text and rel in text
    one = json.loads(cli(project, "status", plan.plan_id, "--json").stdout)
    assert one["leftover_temp_files"] == [rel]
    # the temp file is no record: the log reads as before
    listed = json.loads(cli(project, "plan", "--json").stdout)
    assert sorted(r["path"] for r in listed["records"]) == sorted(f"docs/adr/{n}" for n in RECORDS)
    if recover == "resume":
        assert cli(project, "link", "3", "Amends", "1").returncode == 0
        assert docs(project) == finished
    else:
        proc = cli(project, "plan", "--rollback", plan.plan_id, "--json")
        assert proc.returncode == 0, proc.stderr
        assert f"{rel}: removed (a temp file of a killed write)" in proc.stdout
        assert docs(project) == original
    assert not temp.exists()
    assert json.loads(cli(project, "status", "--json").stdout)["leftover_temp_files"] == []


def test_a_running_writers_temp_file_is_never_removed(tmp_path: Path) -> None:
    target = tmp_path / "0001-x.md"
    mine = tmp_path / f".0001-x.md.tmp-{os.getpid()}-1"
    dead = tmp_path / f".0001-x.md.tmp-{_dead_pid()}-2"
    other = tmp_path / f".0002-y.md.tmp-{_dead_pid()}-3"
    for path in (mine, dead, other):
        path.write_bytes(b"partial")
    assert fsops.leftover_temps(target) == [dead]
    assert fsops.remove_leftover_temps([target]) == [dead]
    assert mine.exists() and other.exists() and not dead.exists()
    assert fsops.temps_under([tmp_path]) == [other]


def test_temp_files_are_no_records_and_stay_out_of_the_site(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    copy = project / "docs/adr" / f".0003-cache-reads-in-redis.md.tmp-{_dead_pid()}-77"
    copy.write_text(nygard(3, "Cache reads in Redis", "Accepted"), encoding="utf-8")
    listed = json.loads(cli(project, "plan", "--json").stdout)
    assert len(listed["records"]) == len(RECORDS)
    assert [r["status"] for r in listed["records"] if r["id"] == "ADR-0003"] == ["proposed"]
    proc = run_mkdocs("build", "-q", cwd=project)
    assert proc.returncode == 0, proc.stderr
    site = project / "site"
    assert not [p for p in site.rglob("*") if ".tmp-" in p.name]


# --------------------------------------------------------------------- plan ids


def test_a_blocked_archive_plan_is_not_handed_back_once_the_conflict_is_fixed(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "p")
    in_the_way = project / "docs/adr/archive/0002-use-postgres-for-orders.md"
    in_the_way.mkdir(parents=True)  # a folder, not a record: the log reads the same
    blocked = json.loads(cli(project, "archive", "--json").stdout)
    assert blocked["blocking"] == [
        "docs/adr/archive/0002-use-postgres-for-orders.md: already exists; moving "
        "docs/adr/0002-use-postgres-for-orders.md there would overwrite it"
    ]
    assert blocked["confirm"] is None
    proc = cli(project, "plan", "--confirm", blocked["plan_id"])
    assert proc.returncode == 3 and "blocking problems" in proc.stderr
    in_the_way.rmdir()
    fixed = json.loads(cli(project, "archive", "--json").stdout)
    assert fixed["plan_id"] != blocked["plan_id"]
    assert fixed["blocking"] == []
    assert cli(project, "plan", "--confirm", fixed["plan_id"]).returncode == 0
    assert (project / "docs/adr/archive/0002-use-postgres-for-orders.md").is_file()


def test_the_plan_id_covers_blocking_problems_and_nothing_else_changes() -> None:
    plain = Plan(kind="archive", scope={"sources": []}, fingerprint="f", steps=[])
    blocked = Plan(
        kind="archive", scope={"sources": []}, fingerprint="f", steps=[], blocking=["x: exists"]
    )
    other = Plan(
        kind="archive", scope={"sources": []}, fingerprint="f", steps=[], blocking=["y: exists"]
    )
    assert len({plain.content_key(), blocked.content_key(), other.content_key()}) == 3
    # an unblocked plan keeps the id it had before blocking problems were part of it
    before = {"kind": "archive", "scope": {"sources": []}, "fingerprint": "f"}
    text = json.dumps({**before, "steps": [], "inputs": {}}, sort_keys=True, separators=(",", ":"))
    assert plain.content_key() == hashlib.sha256(text.encode()).hexdigest()[:12]


# --------------------------------------------------------------------- long names


LONG = "a-decision-whose-file-name-goes-on-" * 9  # 315 bytes: over any file system's 255


def test_archive_survives_links_to_names_longer_than_the_file_system_takes(
    tmp_path: Path,
) -> None:
    home = (
        "# Orders\n\n"
        f"An old link: [gone](adr/{LONG}.md) and [deeper](adr/{LONG}/{LONG}.md#why).\n\n"
        "The current one: [sharding](adr/0004-shard-orders.md).\n"
    )
    project = make_project(tmp_path / "p", home=home)
    record = project / "docs/adr/0002-use-postgres-for-orders.md"
    record.write_text(
        record.read_text(encoding="utf-8") + f"\nSee also [the draft]({LONG}.md).\n",
        encoding="utf-8",
    )
    proc = cli(project, "archive", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["blocking"] == []
    rewritten = {(e["page"], e["old"], e["new"]) for e in data["links"]}
    assert (
        "docs/adr/0002-use-postgres-for-orders.md",
        f"{LONG}.md",
        f"../{LONG}.md",
    ) in rewritten
    assert cli(project, "plan", "--confirm", data["plan_id"]).returncode == 0
    assert cli(project, "check").returncode == 0
    proc = run_mkdocs("build", "-q", cwd=project)
    assert proc.returncode == 0, proc.stderr


def test_probes_answer_no_for_paths_the_os_cannot_look_at(tmp_path: Path) -> None:
    long = tmp_path / f"{LONG}.md"
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "file.md").write_text("x", encoding="utf-8")
    below_a_file = tmp_path / "file.md" / "x.md"
    for path in (long, tmp_path / "loop" / "x.md", below_a_file):
        assert not fsops.exists(path)
        assert not fsops.is_file(path)
        assert not fsops.is_symlink(path)
    assert fsops.sha256_file(long) is None
    assert fsops.sha256_file(below_a_file) is None
    assert fsops.sha256_file(tmp_path / "loop") == "unreadable"
    with pytest.raises(RefusedError, match="cannot be resolved"):
        inside_project(tmp_path, "loop/x.md")


# --------------------------------------------------------------------- writers killed

#: The authoring writers, each with a command that writes more than one file.
WRITERS: dict[str, tuple[str, ...]] = {
    "new": (
        "new",
        "Split",
        "order",
        "reads",
        "--status",
        "accepted",
        "--supersedes",
        "4",
        "--link",
        "Amends:3",
        "--date",
        "2026-11-30",
    ),
    "link": ("link", "3", "Amends", "1"),
}


def copy_project(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest, symlinks=True)
    return dest


def assert_each_file_old_or_new(
    half: dict[str, str], original: dict[str, str], finished: dict[str, str]
) -> None:
    """No file is half-written, duplicated, or anything but its old or its new bytes."""
    assert set(half) <= set(original) | set(finished), set(half) - set(original) - set(finished)
    for path, digest in half.items():
        assert digest in (original.get(path), finished.get(path)), path


def interrupted_plan(project: Path) -> str:
    status = json.loads(cli(project, "status", "--json").stdout)
    assert len(status["interrupted"]) == 1, status
    return str(status["interrupted"][0])


@pytest.mark.slow
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_writer_killed_at_every_journal_step_is_resumed_or_rolled_back_byte_for_byte(
    tmp_path: Path, writer: str
) -> None:
    args = WRITERS[writer]
    template = make_project(tmp_path / "template")
    original = docs(template)
    control = copy_project(template, tmp_path / "control")
    proc = cli(control, *args)
    assert proc.returncode == 0, proc.stderr
    finished = docs(control)
    steps = len(plan_of(control).steps)
    assert steps >= 2  # both sides of a relation: a kill between them is the danger
    for n in range(steps):
        for crash in (str(n), f"{n}:after"):
            project = copy_project(template, tmp_path / f"killed-{crash.replace(':', '-')}")
            proc = cli(project, *args, crash=crash)
            assert proc.returncode == journal.CRASH_EXIT, proc.stderr
            assert_each_file_old_or_new(docs(project), original, finished)
            plan_id = interrupted_plan(project)
            # another writer refuses while the plan is half-applied, and writes nothing
            half = docs(project)
            proc = cli(project, "link", "1", "Relates to", "4")
            assert proc.returncode == 3 and "was interrupted" in proc.stderr
            assert docs(project) == half
            undo = copy_project(project, tmp_path / f"undo-{crash.replace(':', '-')}")
            # the same command again finishes it
            proc = cli(project, *args)
            assert proc.returncode == 0, proc.stderr
            assert docs(project) == finished, crash
            # or a rollback puts every byte back
            proc = cli(undo, "plan", "--rollback", plan_id)
            assert proc.returncode == 0, proc.stderr
            assert docs(undo) == original, crash
    # after a rollback the command runs again, to the same result
    proc = cli(undo, *args)
    assert proc.returncode == 0, proc.stderr
    assert docs(undo) == finished


@pytest.mark.slow
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_writer_killed_at_random_points_recovers(tmp_path: Path, writer: str) -> None:
    """SIGKILL at random moments of a real run (planning, staging, the journal, the
    writes): the tree is always the old one, the new one, or an interrupted plan that a
    resume finishes; never a stray temp file."""
    args = WRITERS[writer]
    template = make_project(tmp_path / "template")
    original = docs(template)
    control = copy_project(template, tmp_path / "control")
    begun = time.monotonic()
    assert cli(control, *args).returncode == 0
    took = time.monotonic() - begun  # only to spread the kills over a run, never asserted
    finished = docs(control)
    rng = random.Random(f"{writer}-16")
    for trial in range(8):
        project = copy_project(template, tmp_path / f"trial-{trial}")
        env = {k: v for k, v in os.environ.items() if k != journal.CRASH_ENV}
        child = subprocess.Popen(
            [sys.executable, "-m", "mkdocs_adr", *args],
            cwd=project,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if trial % 2:
            # anywhere in the run: reading, planning, staging, applying
            time.sleep(rng.uniform(0.3, 1.05) * took)
        else:
            # once the journal exists: inside the apply, between or during the writes
            journal_dir = project / ".mkdocs-adr" / "journal"
            while child.poll() is None and not any(journal_dir.glob("*.jsonl")):
                time.sleep(0.001)
            time.sleep(rng.uniform(0.0, 0.03))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
        state = docs(project)
        status = json.loads(cli(project, "status", "--json").stdout)
        # a kill inside an atomic write leaves its temp file, which status lists
        temps = {k for k in state if fsops.is_leftover_temp(k.rpartition("/")[2])}
        assert sorted(temps) == status["leftover_temp_files"]
        assert not temps or status["interrupted"]
        state = {k: v for k, v in state.items() if k not in temps}
        assert_each_file_old_or_new(state, original, finished)
        if status["interrupted"] or state != finished:
            # the same command finishes an interrupted plan, or makes it anew
            proc = cli(project, *args)
            assert proc.returncode == 0, proc.stderr
        assert docs(project) == finished, trial
        assert json.loads(cli(project, "status", "--json").stdout)["interrupted"] == []


def test_two_writers_at_once_one_is_refused_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live process holds the project lock: a confirm is refused at once (LockHeld,
    exit 3) and an authoring writer after its wait, neither writing anything."""
    from click.testing import CliRunner

    from mkdocs_adr.authoring import running
    from mkdocs_adr.cli import cli as main

    project = make_project(tmp_path / "p")
    proc = cli(project, "link", "3", "Amends", "1", crash="0")
    assert proc.returncode == journal.CRASH_EXIT
    plan_id = interrupted_plan(project)
    before = docs(project)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(project / ".mkdocs-adr")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        proc = cli(project, "plan", "--confirm", plan_id)
        assert proc.returncode == 3
        assert f"the project lock is held by pid {holder.pid} (a long publish)" in proc.stderr
        monkeypatch.chdir(project)
        monkeypatch.setattr(running, "LOCK_WAIT", 0.2)
        monkeypatch.setattr(running.waiting_lock.__wrapped__, "__defaults__", (0.2,))
        result = CliRunner().invoke(main, ["link", "3", "Amends", "1"])
        assert result.exit_code == 3, result.output
        assert "lock is held" in result.output
        assert docs(project) == before
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)
        if holder.stdout is not None:
            holder.stdout.close()
    proc = cli(project, "plan", "--confirm", plan_id)
    assert proc.returncode == 0, proc.stderr


HOLD_LOCK = """
import sys
from pathlib import Path
from mkdocs_adr.fsops import project_lock
with project_lock(Path(sys.argv[1]), "a long publish"):
    print("held", flush=True)
    sys.stdin.read()
"""
