"""Plan kinds as objects, and the typed refusals of the change machinery.

Every plan here is made by the real engine (the CLI or the authoring API) in
``tmp_path``; each kind's precheck and verifier is then called directly, before
and after the plan is confirmed, and on a tree changed behind its back.
"""

from __future__ import annotations

import ast
import threading
import time
from pathlib import Path

import pytest

from mkdocs_adr import apply, authoring, journal
from mkdocs_adr.authoring import NewOptions
from mkdocs_adr.config import Config, load_from_mkdocs_yml
from mkdocs_adr.errors import LockHeld, Refused, RefusedError, StalePlan
from mkdocs_adr.fsops import lock_holder, project_lock, sha256_bytes
from mkdocs_adr.plans import Plan, PlanKind, Step, list_plans, load_plan, save_plan

from .archive_lab import invoke, json_of, make_lab
from .test_authoring import make_log
from .test_summary_support import copy_site, draft, run

ADR = "docs/adr"
PACKAGE = Path(apply.__file__).parent


def config_of(project: Path) -> Config:
    return load_from_mkdocs_yml(project / "mkdocs.yml")


def confirm(project: Path, plan_id: str) -> None:
    code, out, err = invoke("plan", "--confirm", plan_id, cwd=project)
    assert code == 0, out + err


def latest(config: Config, kind: str) -> Plan:
    found = [p for p in list_plans(config.work_path) if p.kind == kind]
    assert found, f"no {kind} plan in {config.work_path}"
    return found[-1]


# --------------------------------------------------------------------- the registry


def test_every_kind_is_an_object_in_one_registry() -> None:
    assert set(apply.KINDS) == {
        "summary",
        "archive",
        "restore",
        "new",
        "supersede",
        "link",
        "accept",
        "reject",
        "deprecate",
        "consolidate",
        "consolidate-draft",
    }
    for name, kind in apply.KINDS.items():
        assert isinstance(kind, PlanKind) and kind.name == name
        assert callable(kind.verify)
    assert apply.KINDS["summary"].precheck is not None
    assert all(apply.KINDS[k].precheck is None for k in ("archive", "restore", "new", "link"))
    # a status plan is built again inside the lock and must write what was reviewed
    assert all(apply.KINDS[k].precheck is not None for k in ("accept", "reject", "deprecate"))


def test_no_plan_kind_is_dispatched_by_an_import_string() -> None:
    for module in ("apply.py", "commands/status.py"):
        tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        } | {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "importlib" not in imported, module
        assert "import_module" not in imported, module
    assert not hasattr(apply, "VERIFIERS") and not hasattr(apply, "PRECHECKS")


def test_an_unknown_kind_is_refused_by_name(tmp_path: Path) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted")])
    data = b"# later\n"

    plan = save_plan(
        config.work_path,
        Plan(
            kind="merge-logs",
            scope={"x": 1},
            fingerprint="f",
            steps=[Step("write", "docs/later.md", None, sha256_bytes(data))],
        ),
        {sha256_bytes(data): data},
    )
    with pytest.raises(Refused, match="plans of kind 'merge-logs' cannot be applied"):
        apply.confirm(config, plan.plan_id)
    assert not (tmp_path / "docs/later.md").exists()
    code, _out, err = invoke("plan", "--confirm", plan.plan_id, cwd=tmp_path)
    assert code == 3 and "cannot be applied by this version" in err
    code, out, _ = invoke("status", plan.plan_id, "--json", cwd=tmp_path)
    assert code == 0
    assert (
        "plans of kind 'merge-logs' cannot be applied by this version" in (json_of(out)["reasons"])
    )


# --------------------------------------------------------------------- summary


def test_summary_kind_prechecks_and_verifies(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    config = config_of(site)
    kind = apply.KINDS["summary"]
    assert kind.precheck is not None
    plan = load_plan(config.work_path, draft(site))
    assert plan.steps
    assert kind.precheck(config, plan) == []
    # nothing is published yet: the verifier says so, step by step
    before = kind.verify(config, plan)
    assert f"{ADR}/CURRENT.md does not hold the reviewed content" in before
    # a source edited after planning makes the precheck name it
    rec = site / ADR / "0004-store-notes-in-postgresql.md"
    original = rec.read_bytes()
    rec.write_bytes(original + b"\nA late edit.\n")
    assert (
        f"{ADR}/0004-store-notes-in-postgresql.md changed since the plan was made"
        in kind.precheck(config, plan)
    )
    rec.write_bytes(original)
    assert kind.precheck(config, plan) == []
    confirm(site, plan.plan_id)
    assert kind.verify(config, plan) == []
    # a hand edit of the published view after confirming is caught
    current = site / ADR / "CURRENT.md"
    current.write_bytes(current.read_bytes() + b"\nhand edit\n")
    after = kind.verify(config, plan)
    assert f"{ADR}/CURRENT.md does not hold the reviewed content" in after
    assert f"{ADR}/CURRENT.md does not match the hash its manifest records" in after


# --------------------------------------------------------------------- archive and restore


def test_archive_and_restore_kinds_verify_what_they_moved(tmp_path: Path) -> None:
    lab = make_lab(tmp_path / "lab")
    config = config_of(lab)
    code, out, err = invoke("archive", "--json", cwd=lab)
    assert code == 0, err
    plan = load_plan(config.work_path, json_of(out)["plan_id"])
    archive_kind = apply.KINDS["archive"]
    assert any(s.op == "move" for s in plan.steps)
    unapplied = archive_kind.verify(config, plan)
    assert "docs/adr/0003-use-polling.md: still exists after the move" in unapplied
    confirm(lab, plan.plan_id)
    assert archive_kind.verify(config, plan) == []
    moved = lab / "docs/adr/archive/0007-use-crdts.md"
    moved.write_bytes(moved.read_bytes() + b"\nedited after the move\n")
    assert any(
        p.startswith("docs/adr/archive/0007-use-crdts.md: content differs")
        for p in archive_kind.verify(config, plan)
    )
    moved.write_bytes(moved.read_bytes().replace(b"\nedited after the move\n", b""))
    assert archive_kind.verify(config, plan) == []

    code, out, err = invoke("archive", "restore", plan.plan_id, "--json", cwd=lab)
    assert code == 0, err
    back = load_plan(config.work_path, json_of(out)["plan_id"])
    restore_kind = apply.KINDS["restore"]
    assert back.kind == "restore"
    assert "docs/adr/archive/0003-use-polling.md: still exists after the move" in (
        restore_kind.verify(config, back)
    )
    confirm(lab, back.plan_id)
    assert restore_kind.verify(config, back) == []
    # the archive plan, checked now, no longer holds
    assert archive_kind.verify(config, plan) != []


# --------------------------------------------------------------------- authoring


def test_authoring_kinds_verify_both_sides(tmp_path: Path) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("nygard", 2, "B", "accepted")])
    authoring.supersede(config, "1", "2")
    authoring.link(config, "2", "Amends", "1")
    authoring.new(config, NewOptions(title="Use queues"))
    for name in ("supersede", "link", "new"):
        plan = latest(config, name)
        assert plan.review.get("expect"), name
        assert apply.KINDS[name].verify(config, plan) == [], name
    record = tmp_path / "docs/adr/0001-a.md"
    record.write_text(record.read_text().replace("Superseded by", "Amended by"))
    problems = apply.KINDS["supersede"].verify(config, latest(config, "supersede"))
    assert "ADR-0001 does not read as 'superseded-by ADR-0002'" in problems
    new_record = next((tmp_path / "docs/adr").glob("0003-*.md"))
    new_record.unlink()
    assert apply.KINDS["new"].verify(config, latest(config, "new")) != []


# --------------------------------------------------------------------- typed refusals


def test_a_held_lock_is_lock_held_and_exit_3(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    config = config_of(site)
    plan_id = draft(site)
    with project_lock(config.work_path, "someone else"):
        with pytest.raises(LockHeld, match="lock is held") as info:
            apply.confirm(config, plan_id)
        assert isinstance(info.value, RefusedError) and not isinstance(info.value, StalePlan)
        proc = run("-f", str(site / "mkdocs.yml"), "plan", "--confirm", plan_id, cwd=site)
    assert proc.returncode == 3, proc.stderr
    assert "lock is held" in proc.stderr and "Traceback" not in proc.stderr
    assert not (site / ADR / "CURRENT.md").exists()


def test_status_names_the_lock_holder_as_the_lock_reads_it(tmp_path: Path) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted")])
    assert lock_holder(config.work_path) is None
    with project_lock(config.work_path, "a long publish"):
        found = lock_holder(config.work_path)
        assert found is not None and found.alive is True
        assert found.holder["purpose"] == "a long publish"
        code, out, _ = invoke("status", "--json", cwd=tmp_path)
        assert code == 0
        lock = json_of(out)["lock"]
        assert lock["alive"] is True and lock["holder"]["purpose"] == "a long publish"
        assert lock["path"] == ".mkdocs-adr/lock"
    (config.work_path / "lock").write_text("not json", encoding="utf-8")
    left = lock_holder(config.work_path)
    assert left is not None and left.holder == {} and left.alive is None


def test_the_lock_can_wait_for_its_holder(tmp_path: Path) -> None:
    work = tmp_path / "work"
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with project_lock(work, "holder"):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    try:
        start = time.monotonic()
        with pytest.raises(LockHeld), project_lock(work, "impatient", timeout=0.3):
            pass
        assert time.monotonic() - start >= 0.3
        with pytest.raises(LockHeld), project_lock(work, "default"):  # the default does not wait
            pass
        threading.Timer(0.2, release.set).start()
        with project_lock(work, "patient", timeout=10) as lock:
            assert '"purpose": "patient"' in lock.read_text()
    finally:
        release.set()
        holder.join(10)
    assert not (work / "lock").exists()


def test_a_stale_plan_is_stale_plan_and_exit_3(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    config = config_of(site)
    plan_id = draft(site)
    rec = site / ADR / "0004-store-notes-in-postgresql.md"
    rec.write_text(rec.read_text("utf-8") + "\nA late edit.\n", encoding="utf-8")
    with pytest.raises(StalePlan, match="is stale") as info:
        apply.confirm(config, plan_id)
    assert not isinstance(info.value, LockHeld)
    proc = run("-f", str(site / "mkdocs.yml"), "plan", "--confirm", plan_id, cwd=site)
    assert proc.returncode == 3 and f"plan {plan_id} is stale" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_file_hashes_that_moved_on_are_stale_plan_in_the_journal(tmp_path: Path) -> None:
    lab = make_lab(tmp_path / "lab")
    config = config_of(lab)
    code, out, err = invoke("archive", "--json", cwd=lab)
    assert code == 0, err
    plan_id = json_of(out)["plan_id"]
    page = lab / "docs/guide/sync.md"
    page.write_bytes(page.read_bytes() + b"\nedited\n")
    with pytest.raises(StalePlan, match=r"docs/guide/sync\.md changed"):
        journal.apply(config.project_dir, config.work_path, plan_id)
    assert journal.read_journal(config.work_path, plan_id).state == "planned"


def test_an_applied_plan_is_refused_not_stale(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    config = config_of(site)
    plan_id = draft(site)
    receipt = apply.confirm(config, plan_id)
    assert receipt.outcome == "success" and receipt.name.endswith(f"{plan_id}.json")
    assert receipt.to_json()["receipt"] == receipt.name
    assert set(receipt.parts) == {"current", "index"}
    with pytest.raises(Refused, match="already applied") as info:
        apply.confirm(config, plan_id)
    assert not isinstance(info.value, StalePlan | LockHeld)


def test_authoring_plans_again_on_stale_plan_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mkdocs_adr.authoring import running

    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("nygard", 2, "B", "accepted")])
    real = running._apply
    calls: list[str] = []

    def stale_once(cfg: Config, plan_id: str) -> journal.Receipt:
        calls.append(plan_id)
        if len(calls) == 1:
            raise StalePlan(f"plan {plan_id} went stale under us")
        return real(cfg, plan_id)

    monkeypatch.setattr(running, "_apply", stale_once)
    out = authoring.supersede(config, "1", "2")
    assert len(calls) == 2 and out.receipt and not out.failures

    # a refusal that merely says "is stale" in words is not a StalePlan: no retry
    def worded(cfg: Config, plan_id: str) -> journal.Receipt:
        calls.append(plan_id)
        raise Refused(f"plan {plan_id} is stale: but not by type")

    calls.clear()
    monkeypatch.setattr(running, "_apply", worded)
    with pytest.raises(Refused, match="not by type"):
        authoring.link(config, "2", "Amends", "1")
    assert len(calls) == 1
