"""Issue 11, items 7 and 10: files that are not records are left out with their reason
(``exclude`` globs and the automatic guess), and ``check`` fails CI on out-of-date views.

The log is tests/fixtures/logs/exclude (see its README section): two roots holding records
beside a process document, a contributing guide, an onboarding guide, a folder's own index
page and notes left out by globs, and two records whose names say "guide".
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from mkdocs_adr.config import RootConfig, from_options
from mkdocs_adr.discovery import (
    Excluder,
    Found,
    discover,
    has_adr_metadata,
    locate,
    looks_like_contents,
    non_record_name,
)
from mkdocs_adr.errors import ConfigError
from mkdocs_adr.log import load
from mkdocs_adr.model import Excluded

from .conftest import LOGS, run_cli
from .test_summary_support import build, copy_site, page, publish, run

FIXTURE = LOGS / "exclude"
EXPECTED: dict[str, Any] = json.loads((FIXTURE / "expected.json").read_text(encoding="utf-8"))
HEADINGS = ("Status", "状态")

#: Every file of the fixture left out, with its reason, as `plan --json` names them.
EXCLUDED = [
    ("docs/adr/CONTRIBUTING.md", "looks like a non-record document: a contributing guide"),
    ("docs/adr/PROCESS.md", "looks like a non-record document: a process document"),
    ("docs/adr/README.md", "readme"),
    ("docs/adr/onboarding-guide.md", "looks like a non-record document: an onboarding document"),
    ("docs/adr/retro-2024-q1-notes.md", "excluded by pattern '*-notes.md' (exclude option)"),
    ("docs/decisions/decisions.md", "looks like a non-record document: named after its folder"),
    (
        "docs/decisions/guides/release-checklist.md",
        "excluded by pattern 'guides/**' (exclude option)",
    ),
]
RECORDS = {
    "docs/adr/0001-record-architecture-decisions.md": ("ADR-0001", "accepted"),
    "docs/adr/0002-publish-decisions-with-mkdocs.md": ("ADR-0002", "accepted"),
    "docs/adr/0003-review-decisions-every-quarter.md": ("ADR-0003", "proposed"),
    "docs/adr/0004-write-a-style-guide.md": ("ADR-0004", "accepted"),
    "docs/adr/deployment-guide.md": ("ADR-0005", "accepted"),
    "docs/decisions/0001-split-invoicing-from-payments.md": ("DEC-0001", "accepted"),
    "docs/decisions/0002-bill-in-the-customer-currency.md": ("DEC-0002", "rejected"),
}


def project(tmp_path: Path) -> Path:
    """The fixture as a MkDocs project: its folder is ``docs/``, its config the plugin's."""
    proj = tmp_path / "proj"
    shutil.copytree(FIXTURE, proj / "docs")
    (proj / "docs" / "expected.json").unlink()
    (proj / "docs" / "index.md").write_text("# Handbook\n", encoding="utf-8")
    config = {"site_name": "Handbook", "plugins": ["search", {"adr": EXPECTED["config"]}]}
    (proj / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return proj


# ------------------------------------------------------------------ the CLI and the site


def test_plan_json_lists_every_exclusion_with_its_reason(tmp_path: Path) -> None:
    proj = project(tmp_path)
    proc = run_cli("plan", "--json", cwd=proj)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    got = [(e["path"], e["reason"]) for e in data["corpus"]["excluded"]]
    assert got == EXCLUDED
    records = {r["path"]: (r["id"], r["status"]) for r in data["records"]}
    assert records == RECORDS
    assert data["problems"] == []  # a record linking PROCESS.md is no broken reference
    proc = run_cli("plan", cwd=proj)
    assert proc.returncode == 0, proc.stderr
    assert "Excluded (7)" in proc.stdout
    assert (
        "  looks like a non-record document: named after its folder (1): "
        "docs/decisions/decisions.md\n" in proc.stdout
    )
    assert (
        "  excluded by pattern 'guides/**' (exclude option) (1): "
        "docs/decisions/guides/release-checklist.md\n" in proc.stdout
    )


def test_excluded_files_are_published_as_plain_pages(tmp_path: Path) -> None:
    proj = project(tmp_path)
    out = build(proj, "--strict")
    for src in (
        "adr/PROCESS.md",
        "adr/CONTRIBUTING.md",
        "adr/onboarding-guide.md",
        "adr/retro-2024-q1-notes.md",
        "decisions/decisions.md",
        "decisions/guides/release-checklist.md",
    ):
        html = page(out, src)
        assert "adr-header" not in html and "adr-banner" not in html, src
        assert "No status" not in html and "adr-status" not in html, src
    assert "How we write decisions" in page(out, "adr/PROCESS.md")
    for src, (rid, _status) in RECORDS.items():
        html = page(out, src.removeprefix("docs/"))
        assert f'data-adr-id="{rid}"' in html, src
    # the record's link to the excluded page is an ordinary working link
    first = page(out, "adr/0001-record-architecture-decisions.md")
    assert 'href="../PROCESS/"' in first
    index = page(out, "adr/INDEX.md").split('role="main"', 1)[1]  # the page, not the nav
    assert "ADR-0004" in index and "ADR-0005" in index
    assert "PROCESS" not in index and "onboarding" not in index.lower()


# ------------------------------------------------------------------ the rules, one by one


@pytest.mark.parametrize(
    ("name", "folder", "looks"),
    [
        ("decisions.md", "decisions", "named after its folder"),
        ("ADR.md", "adr", "named after its folder"),
        ("PROCESS.md", "adr", "a process document"),
        ("CONTRIBUTING.md", "adr", "a contributing guide"),
        ("GUIDE.md", "adr", "a guide"),
        ("api-style-guide.md", "adr", "a guide"),
        ("onboarding.md", "adr", "an onboarding document"),
        ("how-to-propose-a-decision.md", "adr", "a how-to"),
        # an adr-tools log's page on installing the tool (a real log of 38 records)
        ("install.md", "adr", "an installation guide"),
        ("INSTALLATION.md", "adr", "an installation guide"),
        ("install-adr-tools.md", "adr", "an installation guide"),
        ("installer-choice.md", "adr", None),
        # a record's name, whatever the words in it
        ("0012-developer-guide.md", "adr", None),
        ("adr-18-process.md", "adr", None),
        ("20240301-onboarding-flow.md", "adr", None),
        ("use-postgres.md", "adr", None),
        ("0001-use-stripe-as-the-card-processor.md", "adr", None),
    ],
)
def test_non_record_names(name: str, folder: str, looks: str | None) -> None:
    assert non_record_name(name, folder) == looks


@pytest.mark.parametrize(
    ("text", "metadata"),
    [
        ("# How we work\n\nWe review every record for a week.\n", False),
        ("# Guide\n\nThe status of a record is set in review.\n", False),
        ("# Onboarding\n\n1. Read the first three records.\n", False),
        ("# Step 1 of onboarding\n", False),
        ("# Guide\n\n## Status\n\nAccepted\n", True),
        ("# Guide\n\n## 状态\n\n已接受\n", True),
        ("---\nstatus: accepted\n---\n# Guide\n", True),
        ("# Guide\n\nStatus: Accepted\n", True),
        ("# Guide\n\n- **Status** deprecated\n", True),
        ("# Guide\n\n* **Status:** proposed\n", True),
        ("# Guide\n\n| Status | Accepted |\n|---|---|\n", True),
        ("# 12. Use a style guide\n", True),
        ("# ADR-0012: Onboarding\n", True),
    ],
)
def test_adr_metadata_is_a_cheap_look(text: str, metadata: bool) -> None:
    assert has_adr_metadata(text.encode("utf-8"), HEADINGS) is metadata


@pytest.mark.parametrize(
    ("rel", "pattern"),
    [
        ("PROCESS.md", "PROCESS.md"),
        ("payments/PROCESS.md", "PROCESS.md"),
        ("guides/release.md", "guides/**"),
        ("guides/old/release.md", "guides/**"),
        ("payments/guides/release.md", None),  # a glob with '/' starts at the root
        ("retro-notes.md", "*-notes.md"),
        ("payments/retro-notes.md", "*-notes.md"),
        ("payments/notes.md", None),
        ("minutes/2024/jan.md", "minutes"),  # a folder name: everything below it
        ("0001-minutes-format.md", None),
    ],
)
def test_exclude_globs(rel: str, pattern: str | None) -> None:
    assert Excluder(("PROCESS.md", "guides/**", "*-notes.md", "minutes")).match(rel) == pattern


def test_a_guide_with_metadata_stays_a_record_and_a_root_named_file_is_left_out(
    tmp_path: Path,
) -> None:
    adr = tmp_path / "adr"
    adr.mkdir()
    (adr / "adr.md").write_text("# ADR\n\nThe list lives in the INDEX.\n", encoding="utf-8")
    (adr / "review-guide.md").write_text(
        "# Review guide\n\n- **Status** deprecated\n", encoding="utf-8"
    )
    (adr / "how-to.md").write_text("# How to\n\nCopy the template.\n", encoding="utf-8")
    config = from_options({}, project_dir=tmp_path, docs_dir=tmp_path, config_file=None)
    found = discover(config)
    assert [f.path for f in found.found] == ["adr/review-guide.md"]
    assert found.excluded == [
        Excluded("adr/adr.md", "looks like a non-record document: named after its folder"),
        Excluded("adr/how-to.md", "looks like a non-record document: a how-to"),
    ]
    # a planned file is placed by the same rules (locate reads the planned bytes)
    assert locate(config, "adr/how-to.md", b"# How to\n") == found.excluded[1]
    assert isinstance(locate(config, "adr/how-to.md", b"# How to\n\nStatus: draft\n"), Found)


#: What ``adr generate toc`` writes beside the records it lists.
TOC = (
    "# Table of Contents\n\n"
    "- [1. Keep a log of decisions](0001-keep-a-log-of-decisions.md)\n"
    "- [2. Ship the site nightly](0002-ship-the-site-nightly.md)\n"
)


@pytest.mark.parametrize(
    ("text", "contents"),
    [
        (TOC, True),
        (TOC.replace("# Table of Contents", "# Decisions"), True),  # only links to records
        ("# Decisions\n\n## Payments\n\n* [Bill](0003-bill.md)\n  * [Refund](0004-r.md)\n", True),
        ("1. [Keep a log](0001-keep.md)\n2. [Ship it](0002-ship.md)\n", True),
        ("# Contents\n\nThe records of the team, by area.\n", True),  # named so
        ("# Index\n\nSee the INDEX page.\n", True),
        # prose, a single link, links to web pages: a page of its own
        ("# Decisions\n\nWe list them below.\n\n" + TOC.split("\n\n", 1)[1], False),
        ("# Related work\n\n- [Keep a log](0001-keep.md)\n", False),
        (
            "# Reading\n\n- [Nygard](https://example.org/a)\n- [MADR](https://example.org/b)\n",
            False,
        ),
        ("# Use an index for lookups\n\nWe add one.\n", False),
    ],
)
def test_a_table_of_contents_is_told_by_a_cheap_look(text: str, contents: bool) -> None:
    assert looks_like_contents(text.encode("utf-8")) is contents


def test_a_table_of_contents_beside_numbered_records_is_no_record(tmp_path: Path) -> None:
    adr = tmp_path / "adr"
    adr.mkdir()
    (adr / "0001-keep-a-log-of-decisions.md").write_text(
        "# 1. Keep a log of decisions\n\n## Status\n\nAccepted\n", encoding="utf-8"
    )
    (adr / "0002-ship-the-site-nightly.md").write_text(
        "# 2. Ship the site nightly\n\n## Status\n\nAccepted\n", encoding="utf-8"
    )
    # a numbered record that is mostly links stays a record, its status or not
    (adr / "0003-reading-list.md").write_text(
        "# 3. Reading list\n\n- [1. Keep](0001-keep-a-log-of-decisions.md)\n"
        "- [2. Ship](0002-ship-the-site-nightly.md)\n",
        encoding="utf-8",
    )
    (adr / "decisions.md").write_text(TOC, encoding="utf-8")
    # a list of links that states a status is a record
    (adr / "overview.md").write_text(TOC + "\n## Status\n\nAccepted\n", encoding="utf-8")
    config = from_options({}, project_dir=tmp_path, docs_dir=tmp_path, config_file=None)
    found = discover(config)
    contents = Excluded("adr/decisions.md", "looks like a non-record document: a table of contents")
    assert found.excluded == [contents]
    assert [f.path for f in found.found] == [
        "adr/0001-keep-a-log-of-decisions.md",
        "adr/0002-ship-the-site-nightly.md",
        "adr/0003-reading-list.md",
        "adr/overview.md",
    ]
    # a planned file is placed by the same rules
    assert locate(config, "adr/decisions.md", TOC.encode("utf-8")) == contents
    # the log counts no such record in its INDEX
    log = load(config)
    assert sorted(r.id for r in log.records) == ["ADR-0001", "ADR-0002", "ADR-0003", "overview"]
    # in a log of unnumbered records no file is read for it: the same page is a record
    slugs = tmp_path / "slugs" / "adr"
    slugs.mkdir(parents=True)
    (slugs / "keep-a-log.md").write_text("# Keep a log\n\n## Status\n\nAccepted\n", "utf-8")
    (slugs / "decisions.md").write_text(TOC, encoding="utf-8")
    config = from_options({}, project_dir=slugs.parent, docs_dir=slugs.parent, config_file=None)
    found = discover(config)
    assert [f.path for f in found.found] == ["adr/decisions.md", "adr/keep-a-log.md"]
    assert found.depends == [str(slugs)]


def test_locate_gives_each_fixture_exclusion_its_reason() -> None:
    config = from_options(
        EXPECTED["config"], project_dir=FIXTURE, docs_dir=FIXTURE, config_file=None
    )
    for path, reason in EXPECTED["excluded"].items():
        where = locate(config, path, (FIXTURE / path).read_bytes())
        assert where == Excluded(path, reason), path


def test_exclude_option_and_root_key_are_read_and_checked(tmp_path: Path) -> None:
    config = from_options(
        EXPECTED["config"], project_dir=tmp_path, docs_dir=tmp_path, config_file=None
    )
    assert config.exclude == ("*-notes.md",)
    assert config.roots == (
        RootConfig("adr"),
        RootConfig("decisions", prefix="DEC", exclude=("guides/**",)),
    )
    for bad in (
        {"exclude": "PROCESS.md"},
        {"exclude": [3]},
        {"roots": [{"path": "adr", "exclude": "guides/**"}]},
    ):
        with pytest.raises(ConfigError, match="option 'exclude' must be a list of globs"):
            from_options(bad, project_dir=tmp_path, docs_dir=tmp_path, config_file=None)


# ------------------------------------------------------------------ check fails on stale views

ADR = "docs/adr"


def check(site: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    proc = run("check", "--json", *extra, cwd=site)
    assert proc.returncode in (0, 1), proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return proc.returncode, data


def test_check_fails_on_a_stale_current_unless_allowed(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    publish(site)
    assert check(site)[0] == 0
    record = site / ADR / "0004-store-notes-in-postgresql.md"
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("## Context", "## Context\n\nA changed reason.\n", 1), "utf-8")
    code, data = check(site)
    assert code == 1 and data["ok"] is False
    assert data["views"]["current"]["state"] == "stale"
    assert data["outdated"] == [f"{ADR}/CURRENT.md"]
    assert [p["severity"] for p in data["problems"] if p["code"] == "ADR011"] == ["warning"]
    assert check(site, "--fail-on", "never")[0] == 1  # the threshold does not relax it
    code, data = check(site, "--allow-stale")
    assert code == 0 and data["ok"] is True and data["outdated"] == [f"{ADR}/CURRENT.md"]
    # plan keeps its read-only exit rule: only a problem at or above --fail-on
    assert run("plan", cwd=site).returncode == 0
    proc = run("check", cwd=site)
    assert proc.returncode == 1 and "--allow-stale to pass" in proc.stdout


def test_check_fails_on_a_corrupt_manifest(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    publish(site)
    (site / ADR / "CURRENT.sources.json").write_text("{not json", encoding="utf-8")
    code, data = check(site)
    assert code == 1 and data["views"]["current"]["state"] == "unverifiable"
    assert "ADR012" in {p["code"] for p in data["problems"]}
    assert data["outdated"] == [f"{ADR}/CURRENT.md"]
    assert check(site, "--allow-stale")[0] == 0


def test_check_fails_on_index_drift(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    publish(site)
    index = site / ADR / "INDEX.md"
    index.write_text(index.read_text(encoding="utf-8") + "\nEdited by hand.\n", "utf-8")
    code, data = check(site)
    assert code == 1 and data["views"]["index"]["state"] == "drift"
    assert data["views"]["current"]["state"] == "fresh"
    assert data["outdated"] == [f"{ADR}/INDEX.md"]
    assert "ADR010" in {p["code"] for p in data["problems"]}
    assert check(site, "--allow-stale")[0] == 0
    assert run("plan", cwd=site).returncode == 0
