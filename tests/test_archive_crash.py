"""An archive and a restore killed at every journal step (a real process, the test-only
crash switch), then finished by re-running the same confirm, or rolled back.

In between, ``status`` explains the interrupted state, no file is lost, duplicated or
half-written, and every file holds either its old or its new bytes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_adr import archive, journal
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.plans import load_plan

from .archive_lab import docs_digest, invoke, json_of, make_lab

pytestmark = pytest.mark.slow


def cli(project: Path, *args: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("mkdocs-adr")
    cmd = [exe] if exe else [sys.executable, "-m", "mkdocs_adr"]
    env = dict(os.environ)
    env.pop(journal.CRASH_ENV, None)
    if crash is not None:
        env[journal.CRASH_ENV] = crash
    return subprocess.run(
        [*cmd, *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def prepare(base: Path, operation: str) -> tuple[Path, str]:
    """A project with a saved plan of ``operation`` (archive, or restore after an archive)."""
    project = make_lab(base / "template")
    code, out, err = invoke("archive", "--json", cwd=project)
    assert code == 0, err
    plan_id = json_of(out)["plan_id"]
    if operation == "restore":
        assert invoke("plan", "--confirm", plan_id, cwd=project)[0] == 0
        code, out, err = invoke("archive", "restore", plan_id, "--json", cwd=project)
        assert code == 0, err
        plan_id = json_of(out)["plan_id"]
    return project, plan_id


def fresh_copy(template: Path, dest: Path) -> Path:
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(template, dest, symlinks=True)
    return dest


def assert_consistent(
    project: Path, plan_id: str, before: dict[str, str], after: dict[str, str]
) -> None:
    """Every file whole: its old bytes, its new bytes, or (a moved file not yet rewritten)
    the bytes it had at its old place; every moved file in exactly one place."""
    plan = load_plan(project / ".mkdocs-adr", plan_id)
    moved_from = {s.to: s.path for s in plan.steps if s.op == "move"}
    now = docs_digest(project)
    assert now and plan.steps
    for rel, digest in now.items():
        assert ".tmp-" not in rel, f"temp file left behind: {rel}"
        allowed = {before.get(rel), after.get(rel), before.get(moved_from.get(rel, ""))}
        assert digest in allowed - {None}, f"{rel} is neither old nor new"
    for rel in set(before) & set(after):
        assert rel in now, f"{rel} was lost"
    for step in plan.steps:
        if step.op == "move":
            there = [(project / p).exists() for p in (step.path, step.to or "")]
            assert there.count(True) == 1, f"{step.path} -> {step.to}: lost or duplicated"


@pytest.mark.parametrize("operation", ["archive", "restore"])
def test_killed_at_every_step_then_finished_by_the_same_confirm(
    tmp_path: Path, operation: str
) -> None:
    template, plan_id = prepare(tmp_path, operation)
    before = docs_digest(template)
    reference = fresh_copy(template, tmp_path / "reference")
    assert cli(reference, "plan", "--confirm", plan_id).returncode == 0
    after = docs_digest(reference)
    steps = len(load_plan(template / ".mkdocs-adr", plan_id).steps)
    assert steps >= 8  # moves, link rewrites and the INDEX: a real multi-file plan
    for n in range(steps):
        for phase in ("", ":after"):
            project = fresh_copy(template, tmp_path / "run")
            proc = cli(project, "plan", "--confirm", plan_id, crash=f"{n}{phase}")
            assert proc.returncode == journal.CRASH_EXIT, proc.stderr
            assert_consistent(project, plan_id, before, after)
            assert not [
                r for r in journal.list_receipts(project / ".mkdocs-adr") if r["plan_id"] == plan_id
            ]
            # status explains the interrupted state, and so does a new archive attempt
            code, out, _ = invoke("status", plan_id, "--json", cwd=project)
            status = json_of(out)
            assert status["state"] == "interrupted"
            # step n started (and with ":after" was even carried out) but is not journalled done
            assert [s["state"] for s in status["steps"][: n + 1]] == ["done"] * n + ["started"]
            assert status["next"][0].startswith(f"resume it: mkdocs-adr plan --confirm {plan_id}")
            config = load_from_mkdocs_yml(project / "mkdocs.yml")
            [item] = archive.interrupted(config)
            assert item.plan_id == plan_id and item.done == n
            assert item.finish == f"mkdocs-adr plan --confirm {plan_id}"
            if n == 0:
                code, _, err = invoke("archive", cwd=project)
                assert code == 3 and "was interrupted" in err
            # re-running the same confirm finishes it
            code, out, err = invoke("plan", "--confirm", plan_id, cwd=project)
            assert code == 0, out + err
            assert docs_digest(project) == after, f"crash at {n}{phase}"
            receipts = [
                r for r in journal.list_receipts(project / ".mkdocs-adr") if r["plan_id"] == plan_id
            ]
            assert [r["outcome"] for r in receipts] == ["success"]


@pytest.mark.parametrize("operation", ["archive", "restore"])
def test_killed_at_every_step_then_rolled_back(tmp_path: Path, operation: str) -> None:
    template, plan_id = prepare(tmp_path, operation)
    before = docs_digest(template)
    reference = fresh_copy(template, tmp_path / "reference")
    assert cli(reference, "plan", "--confirm", plan_id).returncode == 0
    after = docs_digest(reference)
    steps = len(load_plan(template / ".mkdocs-adr", plan_id).steps)
    assert steps >= 8  # as above: a real multi-file plan, killed at each of its steps
    for n in range(steps):
        phase = ":after" if n % 2 else ""
        project = fresh_copy(template, tmp_path / "run")
        proc = cli(project, "plan", "--confirm", plan_id, crash=f"{n}{phase}")
        assert proc.returncode == journal.CRASH_EXIT, proc.stderr
        assert_consistent(project, plan_id, before, after)
        code, out, err = invoke("plan", "--rollback", plan_id, cwd=project)
        assert code == 0, out + err
        assert docs_digest(project) == before, f"crash at {n}{phase}"
        assert journal.read_journal(project / ".mkdocs-adr", plan_id).state == "rolled-back"
        # a rolled-back plan can be confirmed again from the start
        assert invoke("plan", "--confirm", plan_id, cwd=project)[0] == 0
        assert docs_digest(project) == after


def test_a_user_edit_during_an_interruption_gives_a_failure_receipt_per_part(
    tmp_path: Path,
) -> None:
    project, plan_id = prepare(tmp_path, "archive")
    plan = load_plan(project / ".mkdocs-adr", plan_id)
    first_write = next(n for n, s in enumerate(plan.steps) if s.op == "write")
    proc = cli(project, "plan", "--confirm", plan_id, crash=str(first_write))
    assert proc.returncode == journal.CRASH_EXIT
    # while the apply is interrupted, someone edits a page the plan still has to rewrite
    later = next(s for s in plan.steps[first_write + 1 :] if s.part == "links")
    page = project / later.path
    page.write_text(page.read_text("utf-8") + "\nan edit made meanwhile\n", encoding="utf-8")
    code, out, _ = invoke("plan", "--confirm", plan_id, "--json", cwd=project)
    assert code == 3
    receipt = json_of(out)
    assert receipt["outcome"] == "failure"
    assert receipt["parts"]["archive"]["state"] == "applied"
    assert receipt["parts"]["links"]["state"] in ("failed", "partial")
    assert receipt["parts"]["index"]["state"] == "not-applied"
    assert page.read_text("utf-8").endswith("\nan edit made meanwhile\n")  # never overwritten
    code, out, _ = invoke("status", plan_id, "--json", cwd=project)
    assert json_of(out)["state"] == "interrupted"
