"""A consolidation killed at every journal step (a real process, the test-only crash
switch), then finished by re-running the same confirm or rolled back while its decision
is still incomplete; once every record of the decision is written, a rollback is refused
(it never deletes an accepted record)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from mkdocs_adr import journal
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import load
from mkdocs_adr.plans import load_plan

from .consolidate_lab import make_log
from .test_consolidate import TODAY, run

pytestmark = pytest.mark.slow


def digest(project: Path) -> dict[str, str]:
    return {
        p.relative_to(project).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted((project / "docs").rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def planned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, str]]:
    """A project with a saved plan over three records, and the tree once it is applied."""
    base = tmp_path_factory.mktemp("crash")
    project = make_log(base / "template")
    proc = run(
        "plan",
        "--mode",
        "consolidate",
        "--sources",
        "ADR-0001,ADR-0002,ADR-0003",
        "--today",
        TODAY,
        "--json",
        cwd=project,
    )
    assert proc.returncode == 0, proc.stderr
    plan_id = json.loads(proc.stdout)["plan_id"]
    done = base / "done"
    shutil.copytree(project, done)
    assert run("plan", "--confirm", plan_id, cwd=done).returncode == 0
    return project, plan_id, digest(done)


def _steps(project: Path, plan_id: str) -> int:
    return len(load_plan(project / ".mkdocs-adr", plan_id).steps)


def _consistent(project: Path, before: dict[str, str], after: dict[str, str]) -> None:
    now = digest(project)
    for rel, value in now.items():
        assert ".tmp-" not in rel, f"temp file left behind: {rel}"
        assert value in {before.get(rel), after.get(rel)} - {None}, f"{rel} is neither old nor new"
    for rel in before:
        assert rel in now, f"{rel} was lost"
    ids = [r.id for r in load(load_from_mkdocs_yml(project / "mkdocs.yml")).records]
    assert len(ids) == len(set(ids)), "a number was used twice"


def test_the_plan_has_every_part(planned: tuple[Path, str, dict[str, str]]) -> None:
    project, plan_id, _after = planned
    parts = [s.part for s in load_plan(project / ".mkdocs-adr", plan_id).steps]
    assert parts == ["decisions"] * 4 + ["current", "current", "index"]


@pytest.mark.parametrize("phase", ["before", "after"])
@pytest.mark.parametrize("n", range(7))
def test_killed_at_every_step_then_resumed(
    planned: tuple[Path, str, dict[str, str]], tmp_path: Path, n: int, phase: str
) -> None:
    template, plan_id, after = planned
    project = tmp_path / "p"
    shutil.copytree(template, project)
    before = digest(template)
    assert n < _steps(project, plan_id)
    proc = run("plan", "--confirm", plan_id, cwd=project, env={journal.CRASH_ENV: f"{n}:{phase}"})
    assert proc.returncode == journal.CRASH_EXIT, proc.stderr
    _consistent(project, before, after)
    status = run("status", plan_id, "--json", cwd=project)
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["state"] == "interrupted"
    if n == 0 and phase == "before":
        again = run("plan", "--mode", "consolidate", "--dry-run", cwd=project)
        assert again.returncode == 3 and "an interrupted plan" in again.stderr
    proc = run("plan", "--confirm", plan_id, cwd=project)
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert digest(project) == after
    assert run("check", cwd=project).returncode == 0


@pytest.mark.parametrize("n", range(7))
def test_killed_then_rolled_back_only_while_the_decision_is_incomplete(
    planned: tuple[Path, str, dict[str, str]], tmp_path: Path, n: int
) -> None:
    template, plan_id, after = planned
    project = tmp_path / "p"
    shutil.copytree(template, project)
    before = digest(template)
    proc = run("plan", "--confirm", plan_id, cwd=project, env={journal.CRASH_ENV: f"{n}:after"})
    assert proc.returncode == journal.CRASH_EXIT
    proc = run("plan", "--rollback", plan_id, cwd=project)
    if n >= 3:  # every record of the decision is written: the new record is accepted
        assert proc.returncode == 3
        assert "a rollback never deletes an accepted record" in proc.stderr
        _consistent(project, before, after)
        assert run("plan", "--confirm", plan_id, cwd=project).returncode == 0
        assert digest(project) == after
    else:
        assert proc.returncode == 0, proc.stderr
        assert digest(project) == before


def test_killed_inside_the_archive_plan_keeps_the_acceptance(tmp_path: Path) -> None:
    """The crash switch counts the steps of each plan: past the consolidation's last step it
    kills the archive plan that follows the acceptance; the acceptance stands, the archive
    plan is interrupted, and confirming it finishes the moves."""
    project = make_log(tmp_path / "p")
    proc = run(
        "plan", "--mode", "consolidate", "--sources", "ADR-0001,ADR-0002,ADR-0003",
        "--archive", "--today", TODAY, "--json", cwd=project,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    plan_id = json.loads(proc.stdout)["plan_id"]
    steps = _steps(project, plan_id)
    proc = run("plan", "--confirm", plan_id, cwd=project, env={journal.CRASH_ENV: str(steps)})
    assert proc.returncode == journal.CRASH_EXIT, (proc.stdout, proc.stderr)
    log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    assert {
        log.status_of(r) for r in log.records if r.id in ("ADR-0001", "ADR-0002", "ADR-0003")
    } == {"superseded"}
    status = json.loads(run("status", "--json", cwd=project).stdout)
    states = {p["kind"]: p["state"] for p in status["plans"]}
    assert states["consolidate"] == "applied" and states["archive"] == "interrupted"
    archive_id = next(p["plan_id"] for p in status["plans"] if p["kind"] == "archive")
    # confirming the consolidation again resumes the archive plan it authorized
    proc = run("plan", "--confirm", plan_id, cwd=project)
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert f"  archive: applied (plan {archive_id})" in proc.stdout
    for name in ("0001-base-rules-for-card-payments.md", "0002-rule-1-for-card-payments.md"):
        assert (project / "docs/adr/archive/payments" / name).is_file()
    assert run("check", cwd=project).returncode == 0
