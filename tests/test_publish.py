"""Publishing a summary plan: confirm, reviewer edits, refusals, crashes, races, the card."""

from __future__ import annotations

import json
import os
import pty
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mkdocs_adr import manifest as mf
from mkdocs_adr.journal import CRASH_ENV, CRASH_EXIT

from .test_summary_support import (
    check,
    checkout_env,
    cli_json,
    copy_site,
    draft,
    invoke,
    run,
)

ADR = "docs/adr"
OUTPUTS = (f"{ADR}/CURRENT.md", f"{ADR}/{mf.FILENAME}", f"{ADR}/INDEX.md")


def plan_file(site: Path, plan_id: str) -> dict:  # type: ignore[type-arg]
    data: dict = json.loads(  # type: ignore[type-arg]
        (site / ".mkdocs-adr/plans" / plan_id / "plan.json").read_text("utf-8")
    )
    return data


def staged(site: Path, plan_id: str) -> dict[str, bytes]:
    """What each write step of the plan puts at its path."""
    plan = plan_file(site, plan_id)
    return {
        s["path"]: (site / ".mkdocs-adr/plans" / plan_id / "staged" / s["after"]).read_bytes()
        for s in plan["steps"]
    }


def outputs(site: Path) -> dict[str, bytes | None]:
    return {rel: (site / rel).read_bytes() if (site / rel).exists() else None for rel in OUTPUTS}


def receipts(site: Path) -> list[dict]:  # type: ignore[type-arg]
    folder = site / ".mkdocs-adr/receipts"
    return (
        [json.loads(p.read_text("utf-8")) for p in sorted(folder.glob("*.json"))]
        if (folder.is_dir())
        else []
    )


@pytest.fixture
def flat(tmp_path: Path) -> Path:
    return copy_site(tmp_path, "flat")


# -------------------------------------------------------------------------- confirm


def test_confirm_publishes_through_the_journal_with_one_receipt(flat: Path) -> None:
    plan_id = draft(flat)
    expected = staged(flat, plan_id)
    assert outputs(flat) == dict.fromkeys(OUTPUTS)
    proc = run("-f", str(flat / "mkdocs.yml"), "plan", "--confirm", plan_id, cwd=flat)
    assert proc.returncode == 0, proc.stderr
    assert f"Applied plan {plan_id}" in proc.stdout and "Receipt: .mkdocs-adr/receipts/" in (
        proc.stdout
    )
    assert outputs(flat) == expected
    [receipt] = receipts(flat)
    assert receipt["outcome"] == "success" and receipt["plan_id"] == plan_id
    assert set(receipt["parts"]) == {"current", "index"}
    assert check(flat)[1]["views"]["current"]["state"] == "fresh"
    assert check(flat)[1]["views"]["index"]["state"] == "fresh"
    # applying twice is refused, nothing is redone
    again = run("-f", str(flat / "mkdocs.yml"), "plan", "--confirm", plan_id, cwd=flat)
    assert again.returncode == 3 and "already applied" in again.stderr
    assert len(receipts(flat)) == 1


def test_reviewer_edits_are_what_gets_published(flat: Path) -> None:
    plan_id = draft(flat)
    review = flat / ".mkdocs-adr/plans" / plan_id / "review" / ADR / "CURRENT.md"
    edited = review.read_text("utf-8").replace(
        "## Decisions in effect", "## Decisions in effect\n\nReviewed by the architecture group."
    )
    review.write_text(edited, encoding="utf-8")
    code, out, err = invoke("-f", str(flat / "mkdocs.yml"), "plan", "--confirm", plan_id)
    assert code == 0, err
    assert f"The reviewed draft of {plan_id} was edited" in out
    assert (flat / ADR / "CURRENT.md").read_text("utf-8") == edited
    manifest = mf.parse((flat / ADR / mf.FILENAME).read_bytes(), where="m")
    assert manifest.summary_sha256 == mf.text_sha256(edited.encode())
    assert check(flat)[1]["views"]["current"]["state"] == "fresh"
    code, status = cli_json("-f", str(flat / "mkdocs.yml"), "status")
    by_id = {p["plan_id"]: p for p in status["plans"]}
    [new_id] = by_id[plan_id]["restaged_as"]
    assert by_id[new_id]["state"] == "applied" and by_id[new_id]["version"] == 2
    assert plan_file(flat, new_id)["review"]["restaged_from"] == plan_id


def test_a_changed_source_makes_the_plan_stale(flat: Path) -> None:
    plan_id = draft(flat)
    rec = flat / ADR / "0004-store-notes-in-postgresql.md"
    rec.write_text(rec.read_text("utf-8") + "\nA late edit.\n", encoding="utf-8")
    code, _out, err = invoke("-f", str(flat / "mkdocs.yml"), "plan", "--confirm", plan_id)
    assert code == 3
    assert f"plan {plan_id} is stale" in err
    assert "docs/adr/0004-store-notes-in-postgresql.md changed since the plan was made" in err
    assert outputs(flat) == dict.fromkeys(OUTPUTS) and receipts(flat) == []


def test_a_new_record_makes_the_plan_stale(flat: Path) -> None:
    plan_id = draft(flat)
    (flat / ADR / "0010-new.md").write_text(
        "# 10. New\n\nDate: 2024-01-01\n\n## Status\n\nProposed\n", encoding="utf-8"
    )
    code, _out, err = invoke("-f", str(flat / "mkdocs.yml"), "plan", "--confirm", plan_id)
    assert code == 3
    assert "docs/adr/0010-new.md appeared since the plan was made (ADR-0010, proposed)" in err
    assert outputs(flat) == dict.fromkeys(OUTPUTS)


def test_an_older_version_is_refused(flat: Path) -> None:
    first = draft(flat)
    rec = flat / ADR / "0004-store-notes-in-postgresql.md"
    rec.write_text(rec.read_text("utf-8") + "\nEdit.\n", encoding="utf-8")
    second = draft(flat)
    rec.write_text(rec.read_text("utf-8").replace("\nEdit.\n", ""), encoding="utf-8")
    code, _out, err = invoke("-f", str(flat / "mkdocs.yml"), "plan", "--confirm", first)
    assert code == 3 and f"version 2 ({second}) of this scope is newer" in err


def test_a_tampered_plan_is_refused(flat: Path) -> None:
    plan_id = draft(flat)
    plan = plan_file(flat, plan_id)
    step = plan["steps"][0]
    (flat / ".mkdocs-adr/plans" / plan_id / "staged" / step["after"]).write_text("evil")
    code, _out, err = invoke("-f", str(flat / "mkdocs.yml"), "plan", "--confirm", plan_id)
    assert code == 3 and "staged content of docs/adr/CURRENT.md is missing or altered" in err
    assert outputs(flat) == dict.fromkeys(OUTPUTS)


def test_a_held_lock_refuses(flat: Path) -> None:
    plan_id = draft(flat)
    lock = flat / ".mkdocs-adr/lock"
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        lock.write_text(
            json.dumps(
                {
                    "pid": holder.pid,
                    "host": socket.gethostname(),
                    "purpose": "confirm summary other",
                    "since": "now",
                }
            )
        )
        proc = run("-f", str(flat / "mkdocs.yml"), "plan", "--confirm", plan_id, cwd=flat)
        assert proc.returncode == 3
        assert f"the project lock is held by pid {holder.pid}" in proc.stderr
        assert outputs(flat) == dict.fromkeys(OUTPUTS)
        _code, status = cli_json("-f", str(flat / "mkdocs.yml"), "status")
        assert status["lock"]["alive"] is True
    finally:
        holder.kill()
        holder.wait()
    # a dead holder's lock is taken over
    proc = run("-f", str(flat / "mkdocs.yml"), "plan", "--confirm", plan_id, cwd=flat)
    assert proc.returncode == 0, proc.stderr


# -------------------------------------------------------------------------- crashes


@pytest.mark.slow
@pytest.mark.parametrize("crash", ["0", "0:after", "1", "1:after", "2", "2:after"])
def test_a_publish_killed_at_any_step_is_explained_and_resumed(flat: Path, crash: str) -> None:
    plan_id = draft(flat)
    expected = staged(flat, plan_id)
    config = ("-f", str(flat / "mkdocs.yml"))
    proc = run(
        *config, "plan", "--confirm", plan_id, cwd=flat, env=checkout_env({CRASH_ENV: crash})
    )
    assert proc.returncode == CRASH_EXIT, proc.stderr
    # status explains what happened and what to do
    code, status = cli_json(*config, "status", plan_id)
    assert code == 0 and status["state"] == "interrupted"
    n = int(crash.split(":")[0])
    states = [s["state"] for s in status["steps"]]
    assert states[:n] == ["done"] * n and states[n] == "started"
    assert f"mkdocs-adr plan --confirm {plan_id}" in " ".join(status["next"])
    assert f"mkdocs-adr plan --rollback {plan_id}" in " ".join(status["next"])
    text = run(*config, "status", cwd=flat)
    assert f"Interrupted (needs recovery): {plan_id}" in text.stdout
    # no half-written file: each output holds its old or its new bytes
    for rel, data in outputs(flat).items():
        assert data in (None, expected[rel]), rel
    # the site never claims a half-published view is current
    assert check(flat)[1]["views"]["current"]["state"] != "fresh" or all(
        outputs(flat)[rel] == expected[rel] for rel in OUTPUTS[:2]
    )
    # re-running --confirm completes it
    proc = run(*config, "plan", "--confirm", plan_id, cwd=flat)
    assert proc.returncode == 0, proc.stderr
    assert outputs(flat) == expected
    assert [r["outcome"] for r in receipts(flat)] == ["success"]
    assert check(flat)[1]["views"]["current"]["state"] == "fresh"
    assert cli_json(*config, "status", plan_id)[1]["state"] == "applied"


def test_an_interrupted_publish_can_be_rolled_back(flat: Path) -> None:
    plan_id = draft(flat)
    config = ("-f", str(flat / "mkdocs.yml"))
    proc = run(
        *config, "plan", "--confirm", plan_id, cwd=flat, env=checkout_env({CRASH_ENV: "1:after"})
    )
    assert proc.returncode == CRASH_EXIT
    assert (flat / ADR / "CURRENT.md").exists()
    proc = run(*config, "plan", "--rollback", plan_id, cwd=flat)
    assert proc.returncode == 0, proc.stderr
    assert "removed (it did not exist before)" in proc.stdout
    assert outputs(flat) == dict.fromkeys(OUTPUTS)
    assert cli_json(*config, "status", plan_id)[1]["state"] == "rolled-back"
    proc = run(*config, "plan", "--confirm", plan_id, cwd=flat)
    assert proc.returncode == 0, proc.stderr
    assert check(flat)[1]["views"]["current"]["state"] == "fresh"


# -------------------------------------------------------------------------- races


def _race(site: Path, first: str, second: str) -> list[subprocess.CompletedProcess[str]]:
    args = [sys.executable, "-m", "mkdocs_adr", "-f", str(site / "mkdocs.yml"), "plan", "--confirm"]
    procs = [
        subprocess.Popen(
            [*args, pid],
            cwd=site,
            env=checkout_env(),
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for pid in (first, second)
    ]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=120)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
    return out


@pytest.mark.slow
def test_two_concurrent_publishes_one_wins(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "layered")
    whole = draft(site)
    data_only = draft(site, "--domain", "data")
    plans = {whole: staged(site, whole), data_only: staged(site, data_only)}
    results = _race(site, whole, data_only)
    codes = sorted(r.returncode for r in results)
    assert codes == [0, 3], [(r.returncode, r.stderr) for r in results]
    loser = next(r for r in results if r.returncode == 3)
    assert "lock is held" in loser.stderr or "is stale" in loser.stderr
    assert "Traceback" not in loser.stderr
    winner = next(r for r in results if r.returncode == 0)
    won = whole if whole in winner.stdout else data_only
    # every output of the winner, none of the loser: nothing interleaved
    assert plans[won]
    for rel, data in plans[won].items():
        assert (site / rel).read_bytes() == data, rel
    assert [r["plan_id"] for r in receipts(site)] == [won]
    assert check(site)[1]["views"]["current"]["state"] == "fresh"


@pytest.mark.slow
def test_the_same_plan_confirmed_twice_at_once(flat: Path) -> None:
    plan_id = draft(flat)
    results = _race(flat, plan_id, plan_id)
    assert sorted(r.returncode for r in results) == [0, 3]
    loser = next(r for r in results if r.returncode == 3)
    assert "lock is held" in loser.stderr or "already applied" in loser.stderr
    assert outputs(flat) == staged(flat, plan_id)
    assert len(receipts(flat)) == 1


# -------------------------------------------------------------------------- the review card


def _terminal(site: Path, answer: bytes | None) -> tuple[int, str]:
    """Run `plan --mode summary` in a real pseudo-terminal and answer the card."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mkdocs_adr",
            "-f",
            str(site / "mkdocs.yml"),
            "plan",
            "--mode",
            "summary",
        ],
        cwd=site,
        env=checkout_env({"COLUMNS": "200"}),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 60
    answered = False
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            if not answered and b"[c] cancel" in seen:
                os.write(master, answer if answer is not None else b"\x04")
                answered = True
            if proc.poll() is not None and not ready:
                break
        proc.wait(timeout=60)
    finally:
        os.close(master)
    return proc.returncode, seen.decode("utf-8", "replace")


@pytest.mark.slow
def test_review_card_publish_on_a_terminal(flat: Path) -> None:
    code, screen = _terminal(flat, b"p\n")
    assert code == 0, screen
    for words in (
        "Summary plan summary-",
        "scope",
        "sources",
        "coverage",
        "writes",
        "Blocking problems: none",
        "[p] publish",
        "[s] save draft only",
        "[n] needs changes",
        "[c] cancel",
        "Applied plan",
    ):
        assert words in screen, words
    assert check(flat)[1]["views"]["current"]["state"] == "fresh"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("answer", "kept", "words"),
    [
        (b"c\n", False, "Cancelled: nothing was published"),
        (None, False, "Cancelled: nothing was published"),  # EOF is not consent
        (b"s\n", True, "Draft saved as plan"),
        (b"n\n", True, "Nothing was published. Edit the draft"),
        (b"yes please\n", False, "Cancelled"),  # anything else is not consent either
    ],
)
def test_review_card_other_answers_publish_nothing(
    flat: Path, answer: bytes | None, kept: bool, words: str
) -> None:
    code, screen = _terminal(flat, answer)
    assert code == 0, screen
    assert words in screen
    assert outputs(flat) == dict.fromkeys(OUTPUTS)
    plans = list((flat / ".mkdocs-adr/plans").iterdir())
    assert bool(plans) == kept
