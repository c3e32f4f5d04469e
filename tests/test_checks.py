"""Each rule of :mod:`mkdocs_adr.checks` on a minimal real log: it fires, and it stays
quiet on the near miss (the log one step away from the problem)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr import checks
from mkdocs_adr.authoring.review import overdue, review_due
from mkdocs_adr.config import Config, RootConfig
from mkdocs_adr.log import Log, load
from mkdocs_adr.model import Problem, Severity

TODAY = dt.date(2026, 6, 1)
A = "# {n}. R{n}\n\n## Status\n\n{status}\n"


def nygard(n: int, status: str, extra: str = "") -> str:
    return A.format(n=n, status=status) + extra


def container(title: str, *units: tuple[str, str], meta: str = "") -> str:
    body = "".join(f"## {key}. Unit {key}\n\nStatus: {status}\n\n" for key, status in units)
    return f"---\nstyle: container\n{meta}---\n# {title}\n\n{body}"


def log_of(tmp: Path, files: dict[str, str], **options: Any) -> Log:
    for rel, text in files.items():
        path = tmp / "docs" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    config = Config(project_dir=tmp, docs_dir=tmp / "docs", **options)
    return load(config, today=TODAY)


def codes(log: Log, code: str) -> list[Problem]:
    return [p for p in log.problems if p.code == code]


def test_run_gives_the_problems_the_log_reports(tmp_path: Path) -> None:
    log = log_of(
        tmp_path,
        {
            "adr/0001-a.md": nygard(1, "Accepted", "\nReview by: 2026-01-01\n"),
            "adr/0002-b.md": nygard(2, "Accepted", "\nSupersedes [1. A](0001-a.md)\n"),
        },
    )
    found = checks.run(log, TODAY)
    assert {p.code for p in found} == {"ADR005", "ADR016", "ADR017"}
    assert set(found) <= set(log.problems)


# --------------------------------------------------------------------- identity


def test_adr002_an_id_claimed_twice(tmp_path: Path) -> None:
    log = log_of(
        tmp_path,
        {"adr/0001-a.md": nygard(1, "Accepted"), "adr/0001-b.md": nygard(1, "Accepted")},
    )
    found = codes(log, "ADR002")
    assert {p.path for p in found} == {"docs/adr/0001-a.md", "docs/adr/0001-b.md"}
    assert all(p.severity == Severity.ERROR for p in found)


def test_adr002_near_miss_one_number_in_two_roots_with_their_own_prefixes(
    tmp_path: Path,
) -> None:
    log = log_of(
        tmp_path,
        {"adr/0001-a.md": nygard(1, "Accepted"), "ops/0001-b.md": nygard(1, "Accepted")},
        roots=(RootConfig("adr"), RootConfig("ops", prefix="OPS")),
    )
    assert not codes(log, "ADR002")
    assert {r.id for r in log.records} == {"ADR-0001", "OPS-0001"}


def test_adr002_a_reference_that_names_two_records(tmp_path: Path) -> None:
    files = {
        "adr/0001-shared.md": nygard(1, "Accepted"),
        "ops/0001-shared.md": nygard(1, "Accepted"),
        "adr/0002-c.md": "---\nstatus: accepted\namends: 0001-shared\n---\n# C\n",
    }
    roots = (RootConfig("adr"), RootConfig("ops", prefix="OPS"))
    found = [p for p in codes(log_of(tmp_path, files, roots=roots), "ADR002")]
    assert [(p.path, p.ids) for p in found] == [
        ("docs/adr/0002-c.md", ("ADR-0002", "ADR-0001", "OPS-0001"))
    ]
    files["adr/0002-c.md"] = files["adr/0002-c.md"].replace("0001-shared", "OPS-0001")
    assert not codes(log_of(tmp_path / "near", files, roots=roots), "ADR002")


def test_adr019_heading_number_and_file_number_disagree(tmp_path: Path) -> None:
    log = log_of(tmp_path, {"adr/0002-a.md": nygard(7, "Accepted")})
    (found,) = codes(log, "ADR019")
    assert "says number 7" in found.message and found.ids == ("ADR-0002",)


def test_adr019_near_miss_numbers_agree(tmp_path: Path) -> None:
    assert not codes(log_of(tmp_path, {"adr/0002-a.md": nygard(2, "Accepted")}), "ADR019")


# --------------------------------------------------------------------- references


def test_adr003_a_missing_target_and_a_url(tmp_path: Path) -> None:
    log = log_of(
        tmp_path,
        {
            "adr/0001-a.md": nygard(1, "Superseded by [9. Gone](0009-gone.md)"),
            "adr/0002-b.md": "---\nstatus: accepted\nrelates-to: https://example.com/x\n---\n# B\n",
        },
    )
    by_path = {p.path: p for p in codes(log, "ADR003")}
    assert by_path["docs/adr/0001-a.md"].severity == Severity.WARNING
    assert by_path["docs/adr/0002-b.md"].severity == Severity.INFO  # a URL is only a note


def test_adr003_near_miss_the_target_exists(tmp_path: Path) -> None:
    log = log_of(
        tmp_path,
        {
            "adr/0001-a.md": nygard(1, "Superseded by [2. B](0002-b.md)"),
            "adr/0002-b.md": nygard(2, "Accepted", "\nSupersedes [1. A](0001-a.md)\n"),
        },
    )
    assert not codes(log, "ADR003")


def test_adr008_a_unit_the_target_does_not_have(tmp_path: Path) -> None:
    files = {
        "adr/0001-a.md": container("A", ("D1", "accepted")),
        "adr/0002-b.md": "---\nstatus: accepted\namends: ADR-0001#D4\n---\n# B\n",
    }
    (found,) = codes(log_of(tmp_path, files), "ADR008")
    assert "D1" in found.fix
    near = tmp_path / "near"
    files["adr/0002-b.md"] = files["adr/0002-b.md"].replace("#D4", "#D1")
    assert not codes(log_of(near, files), "ADR008")


def test_adr015_a_link_out_of_the_project(tmp_path: Path) -> None:
    files = {"adr/0001-a.md": nygard(1, "Accepted", "\nAmends [x](../../../../etc/x.md)\n")}
    assert codes(log_of(tmp_path, files), "ADR015")
    inside = {"adr/0001-a.md": nygard(1, "Accepted", "\nAmends [x](../guide.md)\n")}
    assert not codes(log_of(tmp_path / "near", inside), "ADR015")


# --------------------------------------------------------------------- succession


def test_adr004_a_cycle(tmp_path: Path) -> None:
    log = log_of(
        tmp_path,
        {
            "adr/0001-a.md": nygard(1, "Superseded by [2. B](0002-b.md)"),
            "adr/0002-b.md": nygard(2, "Superseded by [1. A](0001-a.md)"),
        },
    )
    (found,) = codes(log, "ADR004")
    assert found.ids == ("ADR-0001", "ADR-0002")
    assert not codes(log, "ADR006")  # a cycle is reported once, as a cycle


def test_adr004_near_miss_a_chain(tmp_path: Path) -> None:
    log = log_of(
        tmp_path,
        {
            "adr/0001-a.md": nygard(1, "Superseded by [2. B](0002-b.md)"),
            "adr/0002-b.md": nygard(2, "Superseded by [3. C](0003-c.md)"),
            "adr/0003-c.md": nygard(3, "Accepted"),
        },
    )
    assert not codes(log, "ADR004")
    assert log.successor("ADR-0001").current == "ADR-0003"


def test_adr005_only_the_new_record_says_so(tmp_path: Path) -> None:
    log = log_of(
        tmp_path,
        {
            "adr/0001-a.md": nygard(1, "Deprecated"),
            "adr/0002-b.md": nygard(2, "Accepted", "\nSupersedes [1. A](0001-a.md)\n"),
        },
    )
    (found,) = codes(log, "ADR005")
    assert found.path == "docs/adr/0002-b.md" and found.line is not None
    assert "supersede ADR-0001 --by ADR-0002" in found.fix


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Superseded by [2. B](0002-b.md)", "Accepted"),  # both sides say it
        ("Superseded", "Accepted"),  # the old one says so, without naming it
        ("Deprecated", "Proposed"),  # a proposal may name what it would supersede
    ],
)
def test_adr005_near_misses(tmp_path: Path, old: str, new: str) -> None:
    log = log_of(
        tmp_path,
        {
            "adr/0001-a.md": nygard(1, old),
            "adr/0002-b.md": nygard(2, new, "\nSupersedes [1. A](0001-a.md)\n"),
        },
    )
    assert not codes(log, "ADR005")


@pytest.mark.parametrize(("new", "fires"), [("Accepted", True), ("Proposed", False)])
def test_adr016_only_when_the_superseding_record_is_accepted(
    tmp_path: Path, new: str, fires: bool
) -> None:
    log = log_of(
        tmp_path,
        {
            "adr/0001-a.md": nygard(1, "Accepted"),
            "adr/0002-b.md": nygard(2, new, "\nSupersedes [1. A](0001-a.md)\n"),
        },
    )
    found = codes(log, "ADR016")
    assert bool(found) is fires
    if fires:
        assert found[0].path == "docs/adr/0001-a.md" and found[0].severity == Severity.ERROR


def test_adr006_the_successor_is_only_proposed(tmp_path: Path) -> None:
    files = {
        "adr/0001-a.md": nygard(1, "Superseded by [2. B](0002-b.md)"),
        "adr/0002-b.md": nygard(2, "Proposed", "\nSupersedes [1. A](0001-a.md)\n"),
    }
    log = log_of(tmp_path, files)
    (found,) = codes(log, "ADR006")
    assert "ADR-0002 (proposed)" in found.message
    assert log.in_effect(log.by_path["docs/adr/0001-a.md"])
    files["adr/0002-b.md"] = files["adr/0002-b.md"].replace("Proposed", "Accepted")
    assert not codes(log_of(tmp_path / "near", files), "ADR006")


def test_adr007_two_successors_in_effect(tmp_path: Path) -> None:
    files = {
        "adr/0001-a.md": nygard(1, "Superseded by [2. B](0002-b.md)")
        + "\nSuperseded by [3. C](0003-c.md)\n",
        "adr/0002-b.md": nygard(2, "Accepted", "\nSupersedes [1. A](0001-a.md)\n"),
        "adr/0003-c.md": nygard(3, "Accepted", "\nSupersedes [1. A](0001-a.md)\n"),
    }
    (found,) = codes(log_of(tmp_path, files), "ADR007")
    assert found.ids == ("ADR-0001", "ADR-0002", "ADR-0003")
    near = dict(files)
    near["adr/0001-a.md"] = nygard(1, "Superseded by [2. B](0002-b.md)")
    near["adr/0003-c.md"] = nygard(3, "Accepted", "\nAmends [1. A](0001-a.md)\n")
    assert not codes(log_of(tmp_path / "near", near), "ADR007")


def test_adr016_two_containers_claim_each_others_units(tmp_path: Path) -> None:
    files = {
        "adr/0001-a.md": container(
            "A", ("D1", "accepted"), ("D2", "accepted"), meta="supersedes: ADR-0002#D1\n"
        ),
        "adr/0002-b.md": container(
            "B", ("D1", "accepted"), ("D2", "accepted"), meta="supersedes: ADR-0001#D1\n"
        ),
    }
    found = [p for p in codes(log_of(tmp_path, files), "ADR016") if "each claim" in p.message]
    assert [p.ids for p in found] == [("ADR-0001", "ADR-0002")]
    one_way = dict(files)
    one_way["adr/0002-b.md"] = container("B", ("D1", "superseded"), ("D2", "accepted"))
    assert not codes(log_of(tmp_path / "near", one_way), "ADR016")


# --------------------------------------------------------------------- review-by


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("---\nstatus: accepted\nreview-by: 2026-01-01\n---\n# A\n", "has passed (151 days ago)"),
        ("---\nstatus: accepted\nreview-by: soon\n---\n# A\n", "is not a date"),
    ],
)
def test_adr017_fires_for_a_passed_date_and_for_no_date(
    tmp_path: Path, text: str, message: str
) -> None:
    (found,) = codes(log_of(tmp_path, {"adr/0001-a.md": text}), "ADR017")
    assert message in found.message


@pytest.mark.parametrize(
    "files",
    [
        {"adr/0001-a.md": "---\nstatus: accepted\nreview-by: 2026-06-01\n---\n# A\n"},  # today
        {"adr/archive/0001-a.md": "---\nstatus: accepted\nreview-by: 2026-01-01\n---\n# A\n"},
        {"adr/0001-a.md": "---\nstatus: rejected\nreview-by: 2026-01-01\n---\n# A\n"},
        {
            "adr/0001-a.md": "---\nstatus: superseded\nsuperseded-by: ADR-0002\n"
            "review-by: 2026-01-01\n---\n# A\n",
            "adr/0002-b.md": "---\nstatus: accepted\nsupersedes: ADR-0001\n---\n# B\n",
        },
    ],
    ids=["due-today", "archived", "rejected", "superseded"],
)
def test_adr017_near_misses(tmp_path: Path, files: dict[str, str]) -> None:
    assert not codes(log_of(tmp_path, files), "ADR017")


def test_adr017_superseded_only_by_a_proposal_is_still_reviewed(tmp_path: Path) -> None:
    log = log_of(
        tmp_path,
        {
            "adr/0001-a.md": "---\nstatus: superseded\nsuperseded-by: ADR-0002\n"
            "review-by: 2026-01-01\n---\n# A\n",
            "adr/0002-b.md": "---\nstatus: proposed\nsupersedes: ADR-0001\n---\n# B\n",
        },
    )
    assert codes(log, "ADR017")


def test_the_banner_and_adr017_read_one_rule(tmp_path: Path) -> None:
    log = log_of(
        tmp_path,
        {
            "adr/0001-a.md": "---\nstatus: accepted\nreview-by: 2026-05-31\n---\n# A\n",
            "adr/0002-b.md": "---\nstatus: accepted\nreview-by: 2025-06-01\n---\n# B\n",
            "adr/0003-c.md": "---\nstatus: accepted\nreview-by: someday\n---\n# C\n",
            "adr/0004-d.md": "---\nstatus: accepted\nreview-by: 2026-06-01\n---\n# D\n",
        },
    )
    passed = {p.ids[0]: p.message for p in codes(log, "ADR017") if "passed" in p.message}
    due = overdue(log, TODAY)
    assert passed and {d.id for d in due} == set(passed)
    for d in due:
        assert f"({d.days} days ago)" in passed[d.id]
        review = checks.review_by(log, log.by_path[d.path], TODAY)
        assert review is not None and review.overdue and review.days == d.days
    not_a_date = log.by_path["docs/adr/0003-c.md"]
    assert review_due(not_a_date, TODAY, log=log) is None  # ADR017 says so; no banner guesses
    assert any("not a date" in p.message for p in log.problems_for("ADR-0003"))
