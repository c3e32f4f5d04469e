"""The write-ahead journal: real crashes at every step, resume, rollback, lock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_adr import journal
from mkdocs_adr.errors import RefusedError
from mkdocs_adr.fsops import atomic_write, project_lock, sha256_bytes, sha256_file
from mkdocs_adr.plans import Plan, Step, list_plans, load_plan, save_plan

from .conftest import tree_digest

ORIGINAL = {
    "docs/adr/0001-a.md": b"# 1. A\n\n## Status\n\nAccepted\n",
    "docs/adr/0002-b.md": b"# 2. B\n\n## Status\n\nSuperseded by [3. C](0003-c.md)\n",
    "docs/adr/0003-c.md": b"# 3. C\n\n## Status\n\nAccepted\n",
    "docs/other.md": b"unrelated\n",
}
NEW_INDEX = b"<!-- generated -->\n# Index\n"
NEW_A = b"# 1. A\n\n## Status\n\nDeprecated\n"


def make_project(tmp: Path) -> tuple[Path, Path]:
    for rel, data in ORIGINAL.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_bytes(data)
    return tmp, tmp / ".mkdocs-adr"


def make_plan(project: Path, work: Path) -> Plan:
    steps = [
        Step(
            "write",
            "docs/adr/0001-a.md",
            sha256_bytes(ORIGINAL["docs/adr/0001-a.md"]),
            sha256_bytes(NEW_A),
            part="decision",
        ),
        Step(
            "move",
            "docs/adr/0002-b.md",
            sha256_bytes(ORIGINAL["docs/adr/0002-b.md"]),
            sha256_bytes(ORIGINAL["docs/adr/0002-b.md"]),
            to="docs/adr/archive/0002-b.md",
            part="archive",
        ),
        Step("write", "docs/adr/INDEX.md", None, sha256_bytes(NEW_INDEX), part="index"),
        Step(
            "delete",
            "docs/adr/0003-c.md",
            sha256_bytes(ORIGINAL["docs/adr/0003-c.md"]),
            None,
            part="archive",
        ),
    ]
    plan = Plan(
        kind="test",
        scope={"all": True},
        fingerprint="f",
        steps=steps,
        inputs={"docs/other.md": sha256_bytes(ORIGINAL["docs/other.md"])},
    )
    return save_plan(work, plan, {sha256_bytes(NEW_A): NEW_A, sha256_bytes(NEW_INDEX): NEW_INDEX})


def expected_after(project: Path) -> None:
    assert (project / "docs/adr/0001-a.md").read_bytes() == NEW_A
    assert not (project / "docs/adr/0002-b.md").exists()
    assert (project / "docs/adr/archive/0002-b.md").read_bytes() == ORIGINAL["docs/adr/0002-b.md"]
    assert (project / "docs/adr/INDEX.md").read_bytes() == NEW_INDEX
    assert not (project / "docs/adr/0003-c.md").exists()
    assert (project / "docs/other.md").read_bytes() == ORIGINAL["docs/other.md"]


def run_apply_child(project: Path, work: Path, plan_id: str, crash: str | None) -> int:
    code = (
        "import sys; from pathlib import Path; from mkdocs_adr import journal;"
        "journal.apply(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3])"
    )
    env = dict(os.environ)
    env.pop(journal.CRASH_ENV, None)
    if crash:
        env[journal.CRASH_ENV] = crash
    proc = subprocess.run(
        [sys.executable, "-c", code, str(project), str(work), plan_id],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return proc.returncode


def test_apply_writes_every_step_and_one_receipt(tmp_path: Path) -> None:
    project, work = make_project(tmp_path)
    plan = make_plan(project, work)
    receipt = journal.apply(project, work, plan.plan_id)
    assert receipt.outcome == "success"
    expected_after(project)
    assert len(journal.list_receipts(work)) == 1
    assert journal.read_journal(work, plan.plan_id).state == "applied"
    with pytest.raises(RefusedError, match="already applied"):
        journal.apply(project, work, plan.plan_id)
    assert len(journal.list_receipts(work)) == 1


@pytest.mark.parametrize("crash", ["0", "0:after", "1", "1:after", "2", "2:after", "3", "3:after"])
def test_killed_at_each_step_then_resumed(tmp_path: Path, crash: str) -> None:
    project, work = make_project(tmp_path)
    plan = make_plan(project, work)
    assert run_apply_child(project, work, plan.plan_id, crash) == journal.CRASH_EXIT
    state = journal.read_journal(work, plan.plan_id)
    assert state.state == "interrupted"
    assert not journal.list_receipts(work)
    # no half-written file anywhere: every file is either the old or the new bytes
    assert any(path.is_file() for path in (project / "docs").rglob("*"))
    for path in (project / "docs").rglob("*"):
        if path.is_file():
            assert not path.name.startswith("."), f"temp file left behind: {path}"
    assert run_apply_child(project, work, plan.plan_id, None) == 0
    expected_after(project)
    assert journal.read_journal(work, plan.plan_id).state == "applied"
    assert [r["outcome"] for r in journal.list_receipts(work)] == ["success"]


@pytest.mark.parametrize("crash", ["0:after", "1", "1:after", "2:after", "3"])
def test_killed_then_rolled_back_restores_every_byte(tmp_path: Path, crash: str) -> None:
    project, work = make_project(tmp_path)
    before = tree_digest(project / "docs")
    plan = make_plan(project, work)
    assert run_apply_child(project, work, plan.plan_id, crash) == journal.CRASH_EXIT
    receipt = journal.rollback(project, work, plan.plan_id)
    assert receipt.outcome == "rolled-back"
    after = {k: v for k, v in tree_digest(project / "docs").items() if v != "dir"}
    assert after == {k: v for k, v in before.items() if v != "dir"}


def test_user_edit_during_interruption_is_never_overwritten(tmp_path: Path) -> None:
    project, work = make_project(tmp_path)
    plan = make_plan(project, work)
    assert run_apply_child(project, work, plan.plan_id, "2") == journal.CRASH_EXIT
    (project / "docs/adr/0003-c.md").write_bytes(b"# 3. C\n\nuser edit\n")
    receipt = journal.apply(project, work, plan.plan_id)
    assert receipt.outcome == "failure"
    assert receipt.parts["archive"].state in ("failed", "partial")
    assert receipt.parts["decision"].state == "applied"
    assert (project / "docs/adr/0003-c.md").read_bytes() == b"# 3. C\n\nuser edit\n"
    assert journal.read_journal(work, plan.plan_id).state == "interrupted"


def test_stale_plan_is_refused_with_every_reason(tmp_path: Path) -> None:
    project, work = make_project(tmp_path)
    plan = make_plan(project, work)
    (project / "docs/other.md").write_bytes(b"changed\n")
    (project / "docs/adr/0001-a.md").write_bytes(b"changed too\n")
    with pytest.raises(RefusedError) as info:
        journal.apply(project, work, plan.plan_id)
    assert "docs/other.md changed" in info.value.message
    assert "docs/adr/0001-a.md" in info.value.message
    assert (project / "docs/adr/0002-b.md").exists()


def test_lock_held_by_live_process_refuses_and_dead_one_is_taken_over(tmp_path: Path) -> None:
    project, work = make_project(tmp_path)
    plan = make_plan(project, work)
    with project_lock(work, "other"), pytest.raises(RefusedError, match="lock is held"):
        journal.apply(project, work, plan.plan_id)
    # a lock left by a process that no longer exists is stale
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    import json
    import socket

    (work / "lock").write_text(
        json.dumps(
            {"pid": int(dead.stdout), "host": socket.gethostname(), "purpose": "x", "since": "then"}
        )
    )
    assert journal.apply(project, work, plan.plan_id).outcome == "success"
    assert not (work / "lock").exists()


def test_plan_ids_are_content_derived_and_versions_grow(tmp_path: Path) -> None:
    project, work = make_project(tmp_path)
    first = make_plan(project, work)
    again = make_plan(project, work)
    assert again.plan_id == first.plan_id and again.version == 1
    atomic_write(project / "docs/adr/0001-a.md", b"# 1. A\n\nedited\n")
    other = Plan(
        kind="test",
        scope={"all": True},
        fingerprint="g",
        steps=[
            Step(
                "write",
                "docs/adr/0001-a.md",
                sha256_file(project / "docs/adr/0001-a.md"),
                sha256_bytes(NEW_A),
            )
        ],
    )
    second = save_plan(work, other, {sha256_bytes(NEW_A): NEW_A})
    assert second.plan_id != first.plan_id and second.version == 2
    assert [p.plan_id for p in list_plans(work)][-1] == second.plan_id
    assert load_plan(work, second.plan_id).version == 2


def test_paths_leaving_the_project_are_refused(tmp_path: Path) -> None:
    project, work = make_project(tmp_path)
    plan = Plan(
        kind="test",
        scope={},
        fingerprint="f",
        steps=[Step("write", "../escape.md", None, sha256_bytes(b"x"))],
    )
    plan = save_plan(work, plan, {sha256_bytes(b"x"): b"x"})
    with pytest.raises(RefusedError, match="leaves the project"):
        journal.apply(project, work, plan.plan_id)
    assert not (tmp_path.parent / "escape.md").exists()


# --------------------------------------------------------------------------- receipt moves


def _receipt_with_moves(moves: tuple[tuple[str, str], ...]) -> journal.Receipt:
    return journal.Receipt(
        plan_id="p-moves",
        kind="archive",
        version=1,
        outcome="success",
        applied_at="2024-01-01T00:00:00Z",
        parts={},
        moves=moves,
        problems=(),
        scope={},
    )


def test_receipt_moves_reads_what_write_receipt_wrote(tmp_path: Path) -> None:
    written = journal.write_receipt(
        tmp_path,
        _receipt_with_moves((("docs/adr/0002-b.md", "docs/adr/archive/0002-b.md"),)),
    )
    assert journal.receipt_moves(tmp_path) == [
        journal.RecordedMove("docs/adr/0002-b.md", "docs/adr/archive/0002-b.md", written.name)
    ]


def test_receipt_moves_skips_garbage_and_keeps_the_good(tmp_path: Path) -> None:
    folder = tmp_path / "receipts"
    folder.mkdir()
    (folder / "a-broken.json").write_text("{not json", "utf-8")
    (folder / "b-list.json").write_text("[1, 2]", "utf-8")
    (folder / "c-no-moves.json").write_text('{"moves": "docs/a.md"}', "utf-8")
    (folder / "d-binary.json").write_bytes(b"\xff\xfe\x00garbage")
    (folder / "e-not-json.txt").write_text('{"moves": [{"from": "a.md", "to": "b.md"}]}', "utf-8")
    (folder / "f-dir.json").mkdir()
    (folder / "g-good.json").write_text('{"moves": [{"from": "./a.md", "to": "x//b.md"}]}', "utf-8")
    assert journal.receipt_moves(tmp_path) == [
        journal.RecordedMove("a.md", "x/b.md", "g-good.json")
    ]


def test_receipt_moves_skips_moves_that_are_not_plain_path_pairs(tmp_path: Path) -> None:
    folder = tmp_path / "receipts"
    folder.mkdir()
    moves = [
        "docs/a.md",
        ["docs/a.md", "docs/b.md"],
        {"from": 3, "to": None},
        {"from": "docs/a.md"},
        {"from": "", "to": "docs/b.md"},
        {"from": "/etc/passwd", "to": "docs/b.md"},
        {"from": "../../outside.md", "to": "docs/b.md"},
        {"from": "docs/same.md", "to": "docs/./same.md"},
        {"from": "docs/a.md", "to": "docs/b.md", "extra": "ignored"},
    ]
    (folder / "r.json").write_text(json.dumps({"moves": moves}), "utf-8")
    assert journal.receipt_moves(tmp_path) == [
        journal.RecordedMove("docs/a.md", "docs/b.md", "r.json")
    ]


def test_receipt_moves_skips_an_oversize_receipt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "receipts"
    folder.mkdir()
    text = json.dumps({"moves": [{"from": "docs/a.md", "to": "docs/b.md"}]})
    (folder / "big.json").write_text(text + " " * 64, "utf-8")
    (folder / "small.json").write_text(text, "utf-8")
    monkeypatch.setattr(journal, "MAX_RECEIPT_BYTES", len(text))
    assert [m.receipt for m in journal.receipt_moves(tmp_path)] == ["small.json"]


def test_receipt_moves_without_a_receipts_folder(tmp_path: Path) -> None:
    assert journal.receipt_moves(tmp_path) == []
    (tmp_path / "receipts").write_text("a file, not a folder", "utf-8")
    assert journal.receipt_moves(tmp_path) == []
