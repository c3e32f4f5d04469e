"""Review-by dates: ADR017 in `plan` and `check` once passed, the page banner text."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mkdocs_adr.authoring import overdue, review_banner, review_due
from mkdocs_adr.cli import cli
from mkdocs_adr.config import for_root
from mkdocs_adr.log import load

#: Every place a record can name its review date, each in a record in effect.
FORMS = {
    "0001-frontmatter.md": (
        "---\nid: ADR-0001\ntitle: A\nstatus: accepted\nreview-by: 2024-06-01\n---\n# A\n"
    ),
    "0002-madr.md": "---\nstatus: accepted\ndate: 2023-01-01\nreview_by: 2024-06-01\n---\n# B\n",
    "0003-line.md": (
        "# 3. C\n\nDate: 2023-01-01\nReview by: 2024-06-01\n\n## Status\n\nAccepted\n"
    ),
    "0004-status-section.md": (
        "# 4. D\n\nDate: 2023-01-01\n\n## Status\n\nAccepted\n\nReview by: 2024-06-01\n\n"
        "## Context\n\nWhy.\n"
    ),
    "0005-bullet.md": "# E\n\n* Status: accepted\n* Date: 2023-01-01\n* Review by: 2024-06-01\n",
    "0006-table.md": "# F\n\n| Status | Accepted |\n|---|---|\n| Review by | 2024-06-01 |\n",
}
#: Records whose date has passed but that must not be listed.
QUIET = {
    "0007-proposed.md": (
        "---\nid: ADR-0007\ntitle: G\nstatus: proposed\nreview-by: 2020-01-01\n---\n"
    ),
    "0008-superseded.md": (
        "# 8. H\n\nReview by: 2020-01-01\n\n## Status\n\nSuperseded by [9. I](0009-later.md)\n"
    ),
    "0009-later.md": "# 9. I\n\nReview by: 2030-01-01\n\n## Status\n\nAccepted\n\n"
    "Supersedes [8. H](0008-superseded.md)\n",
    "archive/0010-archived.md": "---\nid: ADR-0010\ntitle: J\nstatus: accepted\n"
    "review-by: 2020-01-01\n---\n",
}


@pytest.fixture
def log_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "adr"
    (folder / "archive").mkdir(parents=True)
    for name, text in {**FORMS, **QUIET}.items():
        (folder / name).write_text(text, encoding="utf-8")
    return tmp_path


def adr017(log_dir: Path, today: dt.date) -> dict[str, str]:
    log = load(for_root(Path("adr"), cwd=log_dir), today=today)
    return {p.path or "": p.message for p in log.problems if p.code == "ADR017"}


def test_every_form_is_read_and_listed_once_passed(log_dir: Path) -> None:
    found = adr017(log_dir, dt.date(2024, 6, 11))
    assert set(found) == {f"adr/{name}" for name in FORMS}
    assert all("2024-06-01 has passed (10 days ago)" in m for m in found.values())


def test_nothing_is_listed_on_or_before_the_date(log_dir: Path) -> None:
    assert adr017(log_dir, dt.date(2024, 6, 1)) == {}
    assert adr017(log_dir, dt.date(2019, 1, 1)) == {}


def test_a_review_date_that_is_not_a_date_is_reported(tmp_path: Path) -> None:
    (tmp_path / "adr").mkdir()
    (tmp_path / "adr" / "0001-a.md").write_text(
        "---\nid: ADR-0001\ntitle: A\nstatus: accepted\nreview-by: next spring\n---\n"
    )
    found = adr017(tmp_path, dt.date(2024, 1, 1))
    assert found == {"adr/0001-a.md": "review-by date 'next spring' is not a date"}


@pytest.mark.parametrize("command", ["plan", "check"])
def test_plan_and_check_list_overdue_reviews_with_today(
    log_dir: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.chdir(log_dir)
    runner = CliRunner()
    res = runner.invoke(
        cli,
        [command, "--root", "adr", "--json", "--today", "2024-06-11"],
        catch_exceptions=False,
    )
    data = json.loads(res.stdout)
    listed = [p for p in data["problems"] if p["code"] == "ADR017"]
    assert {p["path"] for p in listed} == {f"adr/{n}" for n in FORMS}
    assert {p["severity"] for p in listed} == {"warning"}
    res = runner.invoke(
        cli,
        [command, "--root", "adr", "--json", "--today", "2024-05-01"],
        catch_exceptions=False,
    )
    assert not [p for p in json.loads(res.stdout)["problems"] if p["code"] == "ADR017"]
    res = runner.invoke(cli, [command, "--root", "adr", "--today", "June 2024"])
    assert res.exit_code == 2  # a date that is not YYYY-MM-DD is a usage error


def test_banner_text_for_the_record_page(log_dir: Path) -> None:
    log = load(for_root(Path("adr"), cwd=log_dir))
    today = dt.date(2024, 6, 2)
    rec = log.by_path["adr/0003-line.md"]
    assert review_banner(rec, today, log=log) == (
        "This decision was due for review on 2024-06-01 (yesterday). Review it, then move its "
        "review-by date forward, or supersede it."
    )
    assert review_banner(rec, dt.date(2024, 6, 1), log=log) is None
    due = review_due(rec, dt.date(2024, 7, 1), log=log)
    assert due is not None and (due.id, due.due, due.days) == ("ADR-0003", "2024-06-01", 30)
    for quiet in QUIET:
        assert review_banner(log.by_path[f"adr/{quiet}"], dt.date(2025, 1, 1), log=log) is None
    assert [d.id for d in overdue(log, today)] == [
        "ADR-0001",
        "ADR-0002",
        "ADR-0003",
        "ADR-0004",
        "ADR-0005",
        "ADR-0006",
    ]
