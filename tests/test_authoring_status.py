"""`accept`, `reject` and `deprecate [--by]`: a record's status changed in its own style.

Every change is a reviewed plan applied through the journal: the exact bytes of every
file are asserted, the log is read back through the engine (`log.load`) for what is in
effect and what succeeds what, and real adr-tools reads the result the same way.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mkdocs_adr import journal
from mkdocs_adr.authoring import AuthoringRefused
from mkdocs_adr.authoring import status_change as sc
from mkdocs_adr.cli import cli
from mkdocs_adr.commands import status_change as status_cmd
from mkdocs_adr.config import Config, load_from_mkdocs_yml
from mkdocs_adr.log import Log, load
from mkdocs_adr.plans import list_plans, load_plan

from .conftest import tree_digest

STYLES = ("nygard", "madr2", "log4brains", "madr", "frontmatter")
TITLES = {
    1: "Queue jobs in Redis",
    2: "Queue jobs in SQS",
    3: "Send receipts by email",
    4: "Keep card data out of logs",
}


def slug(title: str) -> str:
    return "-".join(title.lower().split())


def name_of(style: str, n: int) -> str:
    stem = f"2025030{n}" if style == "log4brains" else f"{n:04d}"
    return f"{stem}-{slug(TITLES[n])}.md"


def rid(style: str, n: int) -> str:
    return name_of(style, n)[:-3] if style == "log4brains" else f"ADR-{n:04d}"


def text(style: str, n: int, status: str, links: str = "") -> str:
    """A record of the payments team's log in ``style``; ``links`` as that style keeps them."""
    title = TITLES[n]
    if style == "nygard":
        return (
            f"# {n}. {title}\n\nDate: 2025-03-0{n}\n\n## Status\n\n{status}\n\n{links}"
            f"## Context\n\nCheckout must not wait on {title.lower()}.\n"
        )
    if style in ("madr2", "log4brains"):
        mark = "*" if style == "madr2" else "-"
        who = f"{mark} Deciders: Priya, Jon\n" if style == "madr2" else f"{mark} Tags: payments\n"
        return (
            f"# {title}\n\n{mark} Status: {status}\n{who}{mark} Date: 2025-03-0{n}\n\n"
            f"## Context and Problem Statement\n\nCheckout must not wait on {title.lower()}.\n"
            f"{links}"
        )
    if style == "madr":
        return (
            f"---\n# MADR 4, as the team's template has it\nstatus: {status}\n"
            f"date: 2025-03-0{n}\ndecision-makers: [Priya]\n{links}---\n"
            f"# {title}\n\n## Context and Problem Statement\n\nCheckout must not wait.\n"
        )
    assert style == "frontmatter"
    return (
        f"---\nid: ADR-{n:04d}\ntitle: {title}\nstatus: {status}  # set by the review board\n"
        f"date: 2025-03-0{n}\n{links}---\n# {title}\n\nCheckout must not wait.\n"
    )


def word(style: str, status: str) -> str:
    return status.capitalize() if style == "nygard" else status


def project(tmp: Path, records: dict[str, str]) -> Config:
    folder = tmp / "docs" / "adr"
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in records.items():
        (folder / name).write_text(body, encoding="utf-8")
    (tmp / "mkdocs.yml").write_text("site_name: Payments\nplugins:\n  - adr\n", encoding="utf-8")
    return load_from_mkdocs_yml(tmp / "mkdocs.yml")


def read(tmp: Path, name: str) -> str:
    return (tmp / "docs" / "adr" / name).read_bytes().decode("utf-8")


def apply(config: Config, verb: str, ref: str, by: str | None = None) -> None:
    """Plan, then confirm the plan by its id: what a script without a terminal does."""
    planned = sc.plan_change(config, verb, ref, by=by)
    assert planned.plan is not None
    code, out, err = invoke(
        verb,
        ref,
        *(["--by", by] if by else []),
        "--confirm",
        planned.plan.plan_id,
        cwd=config.project_dir,
    )
    assert code == 0, out + err


def invoke(*args: str, cwd: Path, stdin: str | None = None) -> tuple[int, str, str]:
    runner = CliRunner()
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = runner.invoke(cli, list(args), input=stdin, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def state(log: Log, ref: str) -> tuple[str, bool, str | None]:
    rec = log.get(ref)
    assert rec is not None, sorted(log.by_id)
    return rec.status, log.in_effect(rec), log.successor(rec.id).current


def serious(log: Log) -> list[str]:
    return [p.format() for p in log.problems if p.severity.label in ("error", "warning")]


# --------------------------------------------------------------------- one record


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(
    ("verb", "before", "after"),
    [
        ("accept", "proposed", "accepted"),
        ("reject", "proposed", "rejected"),
        ("deprecate", "accepted", "deprecated"),
    ],
)
def test_each_command_in_each_style(
    tmp_path: Path, style: str, verb: str, before: str, after: str
) -> None:
    config = project(tmp_path, {name_of(style, 1): text(style, 1, word(style, before))})
    apply(config, verb, rid(style, 1))
    assert read(tmp_path, name_of(style, 1)) == text(style, 1, word(style, after))
    log = load(config)
    assert state(log, rid(style, 1)) == (after, after == "accepted", None)
    assert serious(log) == []


@pytest.mark.parametrize("style", STYLES)
def test_deprecate_by_writes_both_sides(tmp_path: Path, style: str) -> None:
    accepted = word(style, "accepted")
    config = project(
        tmp_path,
        {name_of(style, 1): text(style, 1, accepted), name_of(style, 2): text(style, 2, accepted)},
    )
    apply(config, "deprecate", rid(style, 1), rid(style, 2))
    old, new = name_of(style, 1), name_of(style, 2)
    expected = {
        "nygard": (
            text(style, 1, f"Deprecated by [2. Queue jobs in SQS]({new})"),
            text(style, 2, "Accepted", f"Deprecates [1. Queue jobs in Redis]({old})\n\n"),
        ),
        "madr2": (
            text(style, 1, f"deprecated by [ADR-0002]({new})"),
            text(style, 2, "accepted", f"\n## Links\n\n* Deprecates [ADR-0001]({old})\n"),
        ),
        "log4brains": (
            text(style, 1, f"deprecated by [{new[:-3]}]({new})"),
            text(style, 2, "accepted", f"\n## Links\n\n- Deprecates [{old[:-3]}]({old})\n"),
        ),
        "madr": (
            text(style, 1, f'"deprecated by [ADR-0002]({new})"'),
            text(style, 2, "accepted", "deprecates: [ADR-0001]\n"),
        ),
        "frontmatter": (
            text(style, 1, "deprecated", "deprecated-by: [ADR-0002]\n"),
            text(style, 2, "accepted", "deprecates: [ADR-0001]\n"),
        ),
    }[style]
    assert (read(tmp_path, old), read(tmp_path, new)) == expected
    log = load(config)
    # out of effect for good, and the successor is found through the link
    assert state(log, rid(style, 1)) == ("deprecated", False, rid(style, 2))
    assert state(log, rid(style, 2)) == ("accepted", True, None)
    assert serious(log) == []


@pytest.mark.parametrize("key", ["statut", "État"])
def test_a_localized_status_key_is_read_and_edited_in_place(tmp_path: Path, key: str) -> None:
    """The French MADR template's ``statut: proposé``: a status heading as the frontmatter
    key is the record's status (it read 'missing' in a real log), and every change edits
    that key rather than add a second ``status:`` beside it."""

    def french(n: int, status: str, extra: str = "") -> str:
        return (
            f"---\n{key}: {status}\ndate: 2025-03-0{n}\ndécideurs: Léa Martin\n{extra}---\n\n"
            f"# {TITLES[n]}\n\n## Contexte et problématique\n\nLe paiement attend.\n"
        )

    old, new = name_of("madr", 1), name_of("madr", 2)
    config = project(tmp_path, {old: french(1, "accepté"), new: french(2, "proposé")})
    log = load(config)
    assert [(r.style, r.status, r.raw_status, r.parsed.status_line) for r in log.records] == [
        ("madr", "accepted", "accepté", 2),
        ("madr", "proposed", "proposé", 2),
    ]
    apply(config, "accept", "ADR-0002")
    assert read(tmp_path, new) == french(2, "accepted")
    apply(config, "deprecate", "ADR-0001", "ADR-0002")
    assert read(tmp_path, old) == french(1, f'"deprecated by [ADR-0002]({new})"')
    assert read(tmp_path, new) == french(2, "accepted", "deprecates: [ADR-0001]\n")
    log = load(config)
    assert state(log, "ADR-0001") == ("deprecated", False, "ADR-0002")
    assert state(log, "ADR-0002") == ("accepted", True, None)
    assert serious(log) == []


@pytest.mark.parametrize("old_style", STYLES)
@pytest.mark.parametrize("new_style", STYLES)
def test_accepting_a_proposal_supersedes_what_it_names_on_both_sides(
    tmp_path: Path, old_style: str, new_style: str
) -> None:
    # the proposal says it would supersede ADR-0001; ADR-0001 stays in effect (ADR-0025)
    old_name, new_name = name_of(old_style, 1), name_of(new_style, 3)
    config = project(
        tmp_path,
        {
            old_name: text(old_style, 1, word(old_style, "accepted")),
            new_name: text(new_style, 3, word(new_style, "proposed")),
        },
    )
    code, _, err = invoke("supersede", rid(old_style, 1), "--by", rid(new_style, 3), cwd=tmp_path)
    assert code == 0, err
    assert state(load(config), rid(old_style, 1)) == ("accepted", True, None)
    apply(config, "accept", rid(new_style, 3))
    log = load(config)
    assert state(log, rid(old_style, 1)) == ("superseded", False, rid(new_style, 3))
    assert state(log, rid(new_style, 3)) == ("accepted", True, None)
    assert serious(log) == []
    new_rec = log.get(rid(new_style, 3))
    assert new_rec is not None
    assert ("supersedes", rid(old_style, 1)) in {(r.kind, r.target_id) for r in new_rec.relations}


def test_accept_over_an_accepted_record_exact_bytes_nygard_and_madr(tmp_path: Path) -> None:
    config = project(
        tmp_path,
        {
            name_of("nygard", 1): text("nygard", 1, "Accepted"),
            name_of("madr", 2): text("madr", 2, "accepted"),
            name_of("nygard", 3): text(
                "nygard",
                3,
                "Proposed",
                f"Supersedes [1. Queue jobs in Redis]({name_of('nygard', 1)})\n\n"
                "Supersedes [ADR-0002](0002-queue-jobs-in-sqs.md)\n\n",
            ),
        },
    )
    planned = sc.plan_change(config, "accept", "3")
    assert planned.plan is not None and len(planned.plan.steps) == 3  # one journaled change
    apply(config, "accept", "3")
    assert read(tmp_path, name_of("nygard", 1)) == text(
        "nygard", 1, f"Superseded by [3. Send receipts by email]({name_of('nygard', 3)})"
    )
    assert read(tmp_path, name_of("madr", 2)) == text(
        "madr", 2, f'"superseded by [ADR-0003]({name_of("nygard", 3)})"'
    )
    assert read(tmp_path, name_of("nygard", 3)).startswith(
        "# 3. Send receipts by email\n\nDate: 2025-03-03\n\n## Status\n\nAccepted\n\nSupersedes"
    )


def test_status_words_follow_the_log(tmp_path: Path) -> None:
    # a MADR 2 log whose team capitalizes statuses; a Nygard log that writes them lower case
    config = project(
        tmp_path,
        {
            name_of("madr2", 1): text("madr2", 1, "Accepted"),
            name_of("madr2", 2): text("madr2", 2, "Proposed"),
        },
    )
    apply(config, "accept", "2")
    assert read(tmp_path, name_of("madr2", 2)) == text("madr2", 2, "Accepted")
    lower = tmp_path / "lower"
    config = project(
        lower,
        {
            name_of("nygard", 1): text("nygard", 1, "accepted"),
            name_of("nygard", 2): text("nygard", 2, "accepted"),
            name_of("nygard", 3): text("nygard", 3, "proposed"),
        },
    )
    apply(config, "reject", "3")
    assert read(lower, name_of("nygard", 3)) == text("nygard", 3, "rejected")


def test_crlf_bom_and_other_lines_keep_their_bytes(tmp_path: Path) -> None:
    body = text("madr2", 1, "proposed").replace("\n", "\r\n").encode()
    config = project(tmp_path, {})
    (tmp_path / "docs/adr" / name_of("madr2", 1)).write_bytes(b"\xef\xbb\xbf" + body)
    apply(config, "accept", "1")
    after = (tmp_path / "docs/adr" / name_of("madr2", 1)).read_bytes()
    assert after == b"\xef\xbb\xbf" + text("madr2", 1, "accepted").replace("\n", "\r\n").encode()


# --------------------------------------------------------------------- refusals


def refused(config: Config, verb: str, ref: str, by: str | None = None) -> list[str]:
    with pytest.raises(AuthoringRefused) as info:
        sc.plan_change(config, verb, ref, by=by)
    assert info.value.exit_code == 2
    return [r.text for r in info.value.reasons]


CONTAINER = """\
# 10. Payment platform baseline

## Status

Accepted

## D1. Card tokens stay in the vault

Status: Accepted

Tokens never leave the vault.

## D2. Refunds go through the ledger

Status: Superseded

The ledger books every refund.
"""

TABLE = """\
# 5. Settle in batches

| Field | Value |
|---|---|
| Status | Proposed |
| Date | 2025-03-05 |

## Context

Supersedes [1. Queue jobs in Redis](0001-queue-jobs-in-redis.md) and
Supersedes [2. Queue jobs in SQS](0002-queue-jobs-in-sqs.md).
"""


def test_every_reason_is_listed_at_once_and_nothing_is_written(tmp_path: Path) -> None:
    config = project(
        tmp_path,
        {
            name_of("nygard", 1): text("nygard", 1, "Rejected"),
            name_of("nygard", 2): text(
                "nygard",
                2,
                "Superseded by [3. Send receipts by email](0003-send-receipts-by-email.md)",
            ),
            name_of("nygard", 3): text(
                "nygard",
                3,
                "Accepted",
                "Supersedes [2. Queue jobs in SQS](0002-queue-jobs-in-sqs.md)\n\n",
            ),
            "0004-keep-card-data-out-of-logs.md": text(
                "nygard",
                4,
                "Proposed",
                "Supersedes [1. Queue jobs in Redis](0001-queue-jobs-in-redis.md)\n\n"
                "Supersedes [2. Queue jobs in SQS](0002-queue-jobs-in-sqs.md)\n\n",
            ),
            "0010-payment-platform-baseline.md": CONTAINER,
        },
    )
    before = tree_digest(tmp_path / "docs")
    # accepting 4 would supersede a rejected record and give 2 a second successor
    reasons = refused(config, "accept", "4")
    assert len(reasons) == 2, reasons
    assert reasons[0].startswith("OLD ADR-0001 is rejected: it never took effect")
    assert reasons[1].startswith("OLD ADR-0002 is already superseded by ADR-0003")
    # a container with units in effect, a superseded successor, all at once
    reasons = refused(config, "deprecate", "10", by="2")
    assert reasons == [
        "ID ADR-0010 is a container whose units D1 are still in effect; each unit carries its "
        "own status, so change them by hand",
        "--by ADR-0002 is superseded; only an accepted or proposed record can take over from "
        "ADR-0010",
    ]
    # not found, with the nearest ids; and the state each command refuses
    assert refused(config, "accept", "ADR-0040")[0].startswith("ID 'ADR-0040': no such record")
    assert "nearest" in refused(config, "accept", "ADR-0040")[0]
    assert refused(config, "accept", "3") == ["ADR-0003 is already accepted: nothing to change"]
    assert refused(config, "accept", "2")[0].startswith(
        "ADR-0002 is superseded by ADR-0003: a superseded record is history"
    )
    assert refused(config, "reject", "3")[0].startswith("ADR-0003 is accepted: it took effect")
    assert refused(config, "deprecate", "4")[0].startswith("ADR-0004 is proposed: it never took")
    assert refused(config, "deprecate", "3", by="3") == ["ADR-0003 cannot be deprecated by itself"]
    assert tree_digest(tmp_path / "docs") == before
    assert not config.work_path.exists()  # not even a work dir


def test_unwritable_styles_and_ambiguous_successors_are_refused(tmp_path: Path) -> None:
    config = project(
        tmp_path,
        {
            name_of("nygard", 1): text("nygard", 1, "Accepted"),
            name_of("nygard", 2): text("nygard", 2, "Accepted"),
            "0005-settle-in-batches.md": TABLE,
        },
    )
    reasons = refused(config, "accept", "5")
    assert len(reasons) == 1 and "style 'table'" in reasons[0] and "edit it by hand" in reasons[0]
    # "queue-jobs" names two files: the successor is ambiguous
    reasons = refused(config, "deprecate", "5", by="queue-jobs")
    assert len(reasons) == 3, reasons
    assert reasons[0] == (
        "--by 'queue-jobs' is ambiguous: it names ADR-0001 (docs/adr/0001-queue-jobs-in-redis.md), "
        "ADR-0002 (docs/adr/0002-queue-jobs-in-sqs.md); pass a file path"
    )
    assert reasons[1].startswith("ADR-0005 is proposed: it never took effect")
    assert "style 'table'" in reasons[2]
    # a status paragraph of several lines is not guessed at
    (tmp_path / "docs/adr/0003-send-receipts-by-email.md").write_text(
        text("nygard", 3, "Proposed by the platform team\nafter the March review"), "utf-8"
    )
    assert refused(config, "accept", "3") == [
        "ADR-0003: docs/adr/0003-send-receipts-by-email.md:7: the status paragraph spans 2 "
        "lines; mkdocs-adr only replaces a one-line status. Replace it by hand with 'Accepted'"
    ]


def test_cli_refusal_exit_code_and_json(tmp_path: Path) -> None:
    project(tmp_path, {name_of("nygard", 1): text("nygard", 1, "Accepted")})
    code, out, err = invoke("accept", "1", cwd=tmp_path)
    assert code == 2 and "already accepted" in err and out == ""
    code, out, _ = invoke("deprecate", "9", "--by", "8", "--json", cwd=tmp_path)
    data = json.loads(out)
    assert code == 2 and data["ok"] is False and data["exit_code"] == 2
    assert [r.split(":")[0] for r in data["refused"]] == ["ID '9'", "--by '8'"]


# --------------------------------------------------------------------- review and confirm


def test_dry_run_shows_every_diff_and_writes_nothing(tmp_path: Path) -> None:
    config = project(
        tmp_path,
        {
            name_of("nygard", 1): text("nygard", 1, "Accepted"),
            name_of("nygard", 2): text("nygard", 2, "Accepted"),
        },
    )
    before = tree_digest(tmp_path / "docs")
    code, out, err = invoke("deprecate", "1", "--by", "2", "--dry-run", cwd=tmp_path)
    assert code == 0 and "dry run: nothing was written" in err
    assert out.count("--- a/docs/adr/") == 2
    assert "-Accepted\n+Deprecated by [2. Queue jobs in SQS](0002-queue-jobs-in-sqs.md)\n" in out
    assert "+Deprecates [1. Queue jobs in Redis](0001-queue-jobs-in-redis.md)\n" in out
    assert tree_digest(tmp_path / "docs") == before and not config.work_path.exists()


def test_without_a_terminal_only_confirm_applies(tmp_path: Path) -> None:
    project(tmp_path, {name_of("madr", 1): text("madr", 1, "proposed")})
    before = tree_digest(tmp_path / "docs")
    code, out, _ = invoke("accept", "1", cwd=tmp_path)
    assert code == 0 and "Nothing was written" in out
    plan_id = out.split("plan_id ", 1)[1].split()[0]
    assert plan_id.startswith("accept-") and "+status: accepted" in out
    assert tree_digest(tmp_path / "docs") == before
    code, out, _ = invoke("accept", "1", "--json", cwd=tmp_path)
    data = json.loads(out)
    assert data["plan_id"] == plan_id and data["next"] == f"mkdocs-adr accept 1 --confirm {plan_id}"
    # a plan for another record, or of another kind, is refused
    code, _, err = invoke("reject", "1", "--confirm", plan_id, cwd=tmp_path)
    assert code == 2 and "is a accept plan, not a reject plan" in err
    code, _, err = invoke("accept", "1", "--confirm", plan_id, "--dry-run", cwd=tmp_path)
    assert code == 2 and "exclude each other" in err
    assert tree_digest(tmp_path / "docs") == before
    code, out, err = invoke("accept", "ADR-0001", "--confirm", plan_id, cwd=tmp_path)
    assert code == 0, err
    assert "docs/adr/0001-queue-jobs-in-redis.md (ADR-0001): status: proposed -> accepted" in out
    assert read(tmp_path, name_of("madr", 1)) == text("madr", 1, "accepted")
    # confirming again is refused: a plan applies once
    code, _, err = invoke("plan", "--confirm", plan_id, cwd=tmp_path)
    assert code == 3 and "already applied" in err


def test_plan_confirm_applies_a_status_plan_and_a_stale_one_is_refused(tmp_path: Path) -> None:
    config = project(
        tmp_path,
        {
            name_of("frontmatter", 1): text("frontmatter", 1, "accepted"),
            name_of("frontmatter", 2): text(
                "frontmatter", 2, "proposed", "supersedes: [ADR-0001]\n"
            ),
        },
    )
    planned = sc.plan_change(config, "accept", "2")
    assert planned.plan is not None
    # meanwhile another record takes over ADR-0001: the files the plan writes did not
    # change, but accepting 2 now would give ADR-0001 a second successor
    third = tmp_path / "docs/adr" / name_of("frontmatter", 3)
    third.write_text(text("frontmatter", 3, "accepted", "supersedes: [ADR-0001]\n"), "utf-8")
    code, _, err = invoke("plan", "--confirm", planned.plan.plan_id, cwd=tmp_path)
    assert code == 3 and "stale" in err and "already superseded by ADR-0003" in err
    assert read(tmp_path, name_of("frontmatter", 2)).count("status: proposed") == 1
    third.unlink()
    code, out, err = invoke("plan", "--confirm", planned.plan.plan_id, cwd=tmp_path)
    assert code == 0, out + err
    assert read(tmp_path, name_of("frontmatter", 2)) == text(
        "frontmatter", 2, "accepted", "supersedes: [ADR-0001]\n"
    )
    assert read(tmp_path, name_of("frontmatter", 1)) == text(
        "frontmatter", 1, "superseded", "superseded-by: [ADR-0002]\n"
    )


@pytest.mark.parametrize(
    ("answer", "written", "plan_kept"),
    [
        ("p\n", True, False),
        ("s\n", False, True),
        ("c\n", False, False),
        ("", False, False),
        ("n\n", False, False),
        ("yes please\n", False, False),
    ],
)
def test_on_a_terminal_only_an_explicit_answer_applies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str, written: bool, plan_kept: bool
) -> None:
    monkeypatch.setattr(status_cmd, "is_terminal", lambda: True)
    config = project(tmp_path, {name_of("nygard", 1): text("nygard", 1, "Proposed")})
    code, out, _ = invoke("accept", "1", cwd=tmp_path, stdin=answer)
    assert code == 0
    assert "[p] accept  [s] save draft only  [n] needs changes  [c] cancel" in out
    expected = text("nygard", 1, "Accepted" if written else "Proposed")
    assert read(tmp_path, name_of("nygard", 1)) == expected
    plans = list_plans(config.work_path)
    assert len(plans) == (1 if written or plan_kept else 0)


# --------------------------------------------------------------------- real processes


def cli_proc(cwd: Path, *args: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop(journal.CRASH_ENV, None)
    if crash is not None:
        env[journal.CRASH_ENV] = crash
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def three_file_log(tmp: Path) -> Config:
    """A proposal that supersedes two accepted records: one plan writes three files."""
    return project(
        tmp,
        {
            name_of("nygard", 1): text("nygard", 1, "Accepted"),
            name_of("madr2", 2): text("madr2", 2, "accepted"),
            name_of("frontmatter", 3): text(
                "frontmatter", 3, "proposed", "supersedes: [ADR-0001, ADR-0002]\n"
            ),
        },
    )


def test_real_subprocess_plan_then_confirm(tmp_path: Path) -> None:
    three_file_log(tmp_path)
    proc = cli_proc(tmp_path, "accept", "ADR-0003", "--json")
    assert proc.returncode == 0, proc.stderr
    plan_id = json.loads(proc.stdout)["plan_id"]
    proc = cli_proc(tmp_path, "accept", "ADR-0003", "--confirm", plan_id)
    assert proc.returncode == 0, proc.stderr
    assert "Applied plan" in proc.stdout
    log = load(load_from_mkdocs_yml(tmp_path / "mkdocs.yml"))
    assert [state(log, r) for r in ("ADR-0001", "ADR-0002", "ADR-0003")] == [
        ("superseded", False, "ADR-0003"),
        ("superseded", False, "ADR-0003"),
        ("accepted", True, None),
    ]
    assert serious(log) == []
    proc = cli_proc(tmp_path, "check")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _planned_template(base: Path) -> tuple[Path, str, dict[str, str], dict[str, str]]:
    template = base / "template"
    three_file_log(template)
    proc = cli_proc(template, "accept", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    plan_id = json.loads(proc.stdout)["plan_id"]
    reference = base / "reference"
    shutil.copytree(template, reference)
    assert cli_proc(reference, "accept", "3", "--confirm", plan_id).returncode == 0
    return template, plan_id, tree_digest(template / "docs"), tree_digest(reference / "docs")


def _fresh(template: Path, dest: Path) -> Path:
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(template, dest)
    return dest


@pytest.mark.slow
def test_killed_at_every_journal_step_then_resumed_or_rolled_back(tmp_path: Path) -> None:
    template, plan_id, before, after = _planned_template(tmp_path)
    steps = len(load_plan(template / ".mkdocs-adr", plan_id).steps)
    assert steps == 3
    for n in range(steps):
        for phase in ("", ":after"):
            for finish in ("resume", "rollback"):
                run = _fresh(template, tmp_path / "run")
                proc = cli_proc(run, "accept", "3", "--confirm", plan_id, crash=f"{n}{phase}")
                assert proc.returncode == journal.CRASH_EXIT, proc.stderr
                now = tree_digest(run / "docs")
                assert set(now) == set(before)  # no record lost, none added
                for rel, digest in now.items():
                    assert digest in (before[rel], after[rel]), f"{rel} half-written"
                status = json.loads(cli_proc(run, "status", plan_id, "--json").stdout)
                assert status["state"] == "interrupted"
                assert [s["state"] for s in status["steps"][: n + 1]] == ["done"] * n + ["started"]
                # no other authoring or status change is built on a half-applied one
                other = cli_proc(run, "reject", "3")
                assert other.returncode == 3 and "was interrupted" in other.stderr
                if n == 0 and not phase:
                    other = cli_proc(run, "link", "1", "Amends", "2")
                    assert other.returncode == 3 and plan_id in other.stderr
                if finish == "resume":
                    proc = cli_proc(run, "accept", "3", "--confirm", plan_id)
                    assert proc.returncode == 0, proc.stdout + proc.stderr
                    assert tree_digest(run / "docs") == after, f"crash at {n}{phase}"
                else:
                    proc = cli_proc(run, "plan", "--rollback", plan_id)
                    assert proc.returncode == 0, proc.stdout + proc.stderr
                    assert tree_digest(run / "docs") == before, f"crash at {n}{phase}"
                    assert journal.read_journal(run / ".mkdocs-adr", plan_id).state == (
                        "rolled-back"
                    )


def test_two_concurrent_confirms_one_is_refused(tmp_path: Path) -> None:
    template, plan_id, _before, after = _planned_template(tmp_path)
    env = dict(os.environ)
    env.pop(journal.CRASH_ENV, None)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "mkdocs_adr", "accept", "3", "--confirm", plan_id],
            cwd=template,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    codes = sorted(p.returncode for p in procs)
    assert codes == [0, 3], results
    loser = results[[p.returncode for p in procs].index(3)][1]
    assert "lock" in loser or "already applied" in loser, loser
    assert tree_digest(template / "docs") == after
    receipts = [
        r for r in journal.list_receipts(template / ".mkdocs-adr") if r["plan_id"] == plan_id
    ]
    assert [r["outcome"] for r in receipts] == ["success"]


# --------------------------------------------------------------------- real adr-tools


@pytest.mark.slow  # the real adr-tools shell scripts, one process per command
@pytest.mark.skipif(shutil.which("adr") is None, reason="adr-tools is not installed")
def test_adr_tools_reads_accept_deprecate_and_reject_the_same_way(tmp_path: Path) -> None:
    from .test_adrtools_interop import adr, assert_consistent, ours

    # what adr-tools itself writes when a record supersedes another at once
    ref = tmp_path / "by-adr-tools"
    ref.mkdir()
    adr(ref, "init", "doc/adr")
    adr(ref, "new", "Use", "MySQL")
    adr(ref, "new", "-s", "2", "Use", "PostgreSQL")
    # the same log, with the successor proposed first and accepted by mkdocs-adr
    log = tmp_path / "with-mkdocs-adr"
    log.mkdir()
    adr(log, "init", "doc/adr")
    adr(log, "new", "Use", "MySQL")
    ours(log, "new", "Use", "PostgreSQL", "-s", "2")  # proposed: 2 stays in effect
    assert_consistent(log)
    plan_id = json.loads(ours(log, "accept", "3", "--json"))["plan_id"]
    ours(log, "accept", "3", "--confirm", plan_id)
    records = assert_consistent(log)
    assert [records[f"ADR-000{n}"]["status"] for n in (1, 2, 3)] == [
        "accepted",
        "superseded",
        "accepted",
    ]
    # the superseded record holds exactly what adr-tools writes, and adr-tools' own
    # toc and graph come out the same, the superseded edge included
    name = "doc/adr/0002-use-mysql.md"
    assert (log / name).read_bytes() == (ref / name).read_bytes()
    for args in (("generate", "toc"), ("generate", "graph")):
        assert adr(log, *args) == adr(ref, *args)
    assert '_3 -> _2 [label="Supersedes", weight=0]' in adr(log, "generate", "graph")

    # deprecate --by: a forward "Deprecates" edge in adr-tools' graph, "Deprecated by" back
    adr(log, "new", "Cache", "sessions", "in", "Memcached")
    adr(log, "new", "Cache", "sessions", "in", "Redis")
    plan_id = json.loads(ours(log, "deprecate", "4", "--by", "5", "--json"))["plan_id"]
    ours(log, "deprecate", "4", "--by", "5", "--confirm", plan_id)
    records = assert_consistent(log)
    assert records["ADR-0004"]["status"] == "deprecated"
    assert '_5 -> _4 [label="Deprecates", weight=0]' in adr(log, "generate", "graph")
    status = (log / "doc/adr/0004-cache-sessions-in-memcached.md").read_text().split("## ")[1]
    assert status == (
        "Status\n\nDeprecated by [5. Cache sessions in Redis](0005-cache-sessions-in-redis.md)\n\n"
    )

    # reject: a proposal adr-tools lists like any record
    ours(log, "new", "Store", "sessions", "in", "MongoDB")
    plan_id = json.loads(ours(log, "reject", "6", "--json"))["plan_id"]
    ours(log, "reject", "6", "--confirm", plan_id)
    records = assert_consistent(log)
    assert records["ADR-0006"]["status"] == "rejected"
    assert "* [6. Store sessions in MongoDB](0006-store-sessions-in-mongodb.md)" in adr(
        log, "generate", "toc"
    )


def test_spelled_like_follows_the_majority_of_canonical_words() -> None:
    from mkdocs_adr.parsing.status import spelled_like

    assert spelled_like("accepted", ["ACCEPTED", "REJECTED", "Proposed"]) == "ACCEPTED"
    assert spelled_like("deprecated", ["Accepted. 2024-01-01", "**Proposed**"]) == "Deprecated"
    assert spelled_like("rejected", ["accepted", "Accepted", "superseded by ADR-3"]) == "rejected"
    # aliases and free text show no convention: the style's writer decides
    assert spelled_like("accepted", ["Approved", "In review", ""]) is None
