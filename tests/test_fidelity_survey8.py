"""The eighth survey's shapes (docs/adr/0075), each in a fixture of our own words.

``tests/fixtures/logs/survey8/<log>/adr`` (the log folder stands for ``docs_dir``):

- ``blockfield``: a bullet block between ``---`` rules whose ``superseded by:`` field names
  the successor while ``status:`` still says accepted (a false ADR016 error stopped the
  real log's build);
- ``datenamed``: date-named files, one of them named by year and month only (it read as
  ADR-2024, and a second such file would have been a false ADR002 error);
- ``brokenyaml``: frontmatter one value of which YAML refuses (``@ana``), beside a valid
  status and date (both were lost, and ADR020 said "status not recorded");
- ``localized``: a German template numbered like a page of the log (a false ADR002
  error), Spanish and Chinese templates and indexes read as records, French month names
  and labels, ``proposition``, partial and struck-through supersessions, a successor
  named by its bare number;
- ``nygardwrap``: adr-tools records with a no-break space after ``##``, a status
  paragraph that wraps inside its list of successors, ``Superseded by 0004`` and
  ``Superseded by 0005-x.md`` (read as the target ``by 0004``), a title's ``{#anchor}``,
  ``2021-Jan-20`` and a mistyped day;
- ``shortids`` (the ninth survey, docs/adr/0077): records that name each other ``AD003``
  in a log of ADR-0003, a ``## Related Decisions`` section whose ``### Supersedes`` and
  ``### Superseded By`` sub-headings state those relations over bold links, and part
  words after the reference (``Supersedes AD002 partially``, ``- [..](..) - Partially
  superseded``);
- ``supersededfolder`` (the ninth survey, docs/adr/0077): a log that writes no statuses
  keeps its superseded records in ``_superseded/``, each opening with a ``## Superseded by
  [..](../..)`` heading (they were drafts, and gone).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mkdocs_adr.config import Config, from_options
from mkdocs_adr.discovery import discover
from mkdocs_adr.identity import read_file_name
from mkdocs_adr.log import Log, load
from mkdocs_adr.model import Record, Severity
from mkdocs_adr.parsing.markdown import load_frontmatter, scan

from .conftest import LOGS, run_cli, run_mkdocs

SURVEY = LOGS / "survey8"


def config_of(name: str) -> Config:
    folder = SURVEY / name
    return from_options({}, project_dir=folder, docs_dir=folder, config_file=None)


def log_of(name: str) -> Log:
    return load(config_of(name))


def rec(log: Log, rid: str) -> Record:
    found = log.get(rid)
    assert found is not None, (rid, [r.id for r in log.records])
    return found


def relations(log: Log, rid: str) -> set[tuple[str, str | None]]:
    return {(r.kind, r.target_id) for r in rec(log, rid).relations if r.kind != "mentions"}


def codes(log: Log, *, at_least: Severity = Severity.WARNING) -> list[tuple[str, str | None]]:
    order = [Severity.INFO, Severity.WARNING, Severity.ERROR]
    return sorted(
        (p.code, p.path) for p in log.problems if order.index(p.severity) >= order.index(at_least)
    )


def log_in(tmp_path: Path, files: dict[str, str]) -> Log:
    """The log of ``files`` (name: text) written to ``tmp_path/adr``."""
    folder = tmp_path / "adr"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return load(from_options({}, project_dir=tmp_path, docs_dir=tmp_path, config_file=None))


def project(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(SURVEY / name, folder / "docs")
    (folder / "mkdocs.yml").write_text("site_name: Survey\nplugins:\n  - adr\n", encoding="utf-8")
    return folder


def checked_and_built(tmp_path: Path, name: str) -> Path:
    """The fixture log as a project that ``mkdocs-adr check`` and a ``mkdocs build`` with
    the default ``fail_on: error`` both pass (the real CLI and MkDocs, as subprocesses)."""
    folder = project(tmp_path, name)
    proc = run_cli("check", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    built = run_mkdocs("build", cwd=folder)
    assert built.returncode == 0, built.stderr
    return folder


# ------------------------------------------------------------------ a status block's own field


def test_a_superseded_by_field_beside_a_stale_status_retires_the_record() -> None:
    log = log_of("blockfield")
    old = rec(log, "ADR-0001")
    assert old.parsed.status == "accepted"  # what the file says
    assert old.status == "superseded"  # what the log reads
    assert relations(log, "ADR-0001") == {("superseded-by", "ADR-0002")}
    assert ("supersedes", "ADR-0001") in relations(log, "ADR-0002")
    found = [p for p in log.problems if p.code == "ADR016"]
    old_path = "adr/0001-ship-logs-as-text.md"
    assert [(p.severity, p.path) for p in found] == [(Severity.INFO, old_path)]
    assert "already names ADR-0002" in (found[0].fix or "")
    assert not [p for p in log.problems if p.severity is Severity.ERROR]
    # a record whose block names no successor (``superseded by: -``) is as written
    assert rec(log, "ADR-0003").status == "proposed"
    assert relations(log, "ADR-0003") == set()


def test_check_and_a_default_build_of_the_block_log_pass(tmp_path: Path) -> None:
    folder = checked_and_built(tmp_path, "blockfield")
    page = (folder / "site" / "adr" / "0001-ship-logs-as-text" / "index.html").read_text("utf-8")
    assert "superseded" in page and "ADR-0002" in page


# ------------------------------------------------------------------ ids


@pytest.mark.parametrize(
    "name", ["2024-04-pick-a-cache.md", "2024-05-drop-the-ftp-drop.md", "2024-03-05-use-a-queue.md"]
)
def test_a_year_and_month_that_start_a_file_name_are_a_date_not_a_number(name: str) -> None:
    assert read_file_name(name).number is None


@pytest.mark.parametrize(("name", "number"), [("2024-13-x.md", 2024), ("0012-x.md", 12)])
def test_a_number_that_is_no_year_and_month_stays_one(name: str, number: int) -> None:
    assert read_file_name(name).number == number


def test_a_date_named_log_with_month_named_files_has_no_duplicate_ids() -> None:
    log = log_of("datenamed")
    assert sorted(r.id for r in log.records) == [
        "2022-21-11-swap-the-nightly-job",
        "2024-03-05-use-a-queue",
        "2024-04-pick-a-cache",
        "2024-05-drop-the-ftp-drop",
    ]
    assert not [p for p in log.problems if p.code == "ADR002"]


# ------------------------------------------------------------------ frontmatter YAML refuses


def test_one_value_yaml_refuses_costs_that_key_not_the_status_and_date() -> None:
    fm, error = load_frontmatter('status: "accepted"\ndate: 2025-01-02\nreviewers: @ana @ben\n')
    assert error is not None and error[1] == 4
    assert fm is not None and fm["status"] == "accepted" and "reviewers" not in fm
    log = log_of("brokenyaml")
    got = rec(log, "ADR-0001")
    assert (got.status, got.date) == ("accepted", "2025-01-02")
    found = {p.code: p for p in log.problems if p.path == "adr/0001-name-the-buckets.md"}
    assert set(found) == {"ADR014"}  # no "status not recorded" (ADR020)
    assert found["ADR014"].line == 4
    assert "'@'" in (found["ADR014"].fix or "")


# ------------------------------------------------------------------ localized pages and words


def test_localized_templates_and_indexes_are_no_records() -> None:
    found = discover(config_of("localized"))
    reasons = {e.path: e.reason for e in found.excluded}
    assert reasons["adr/0000-adr-template-de.md"] == "template"
    assert reasons["adr/plantilla.md"] == "template"
    assert reasons["adr/indice.md"] == "index"
    assert reasons["adr/ADR-000-索引.md"] == "index"
    log = log_of("localized")
    assert rec(log, "ADR-0000").path == "adr/000-offene-punkte.md"
    assert not [p for p in log.problems if p.code == "ADR002"]


def test_localized_dates_labels_and_statuses() -> None:
    log = log_of("localized")
    first = rec(log, "ADR-0001")
    assert (first.status, first.date) == ("proposed", "2021-05-06")
    second = rec(log, "ADR-0002")
    assert (second.status, second.date) == ("accepted", "2022-09-14")  # created, not updated
    assert second.parsed.raw_status == "accepté"  # the template's comment beside it left out
    assert rec(log, "ADR-0007").date == "2026-02-12"
    assert rec(log, "ADR-0008").date == "2026-03-03"


@pytest.mark.parametrize(
    ("name", "rid", "successor"),
    [
        ("localized", "ADR-0003", "ADR-0004"),  # "Teilweise ersetzt durch [ADR-0004](..)"
        ("headerblock", "ADR-0004", "ADR-0005"),  # "Superseded in part by [5. ..](..)"
    ],
)
def test_a_partial_replacement_keeps_the_record_in_effect(
    name: str, rid: str, successor: str
) -> None:
    log = log_of(name)
    assert rec(log, rid).status == "accepted"
    assert relations(log, rid) == {("partially-superseded-by", successor)}


def test_a_struck_status_word_gives_way_to_the_one_after_it() -> None:
    log = log_of("localized")
    assert rec(log, "ADR-0005").status == "superseded"
    assert relations(log, "ADR-0005") == {("superseded-by", "ADR-0006")}
    assert not [p for p in log.problems if p.code == "ADR016"]


def test_a_successor_named_by_its_bare_number_in_code() -> None:
    log = log_of("localized")
    assert rec(log, "ADR-0007").status == "superseded"
    assert relations(log, "ADR-0007") == {("superseded-by", "ADR-0008")}


def test_check_and_a_default_build_of_the_localized_log_pass(tmp_path: Path) -> None:
    folder = checked_and_built(tmp_path, "localized")
    listed = json.loads((folder / "site" / "adr" / "index.json").read_text("utf-8"))
    assert [r["path"].rsplit("/", 1)[-1] for r in listed["records"]][:2] == [
        "000-offene-punkte.md",
        "0001-files-d-attente.md",
    ]
    assert len(listed["records"]) == 12  # no template, no index page


# ------------------------------------------------------------------ adr-tools shapes


def test_a_no_break_space_after_the_hashes_still_makes_a_heading() -> None:
    doc = scan("# 3. T\n\n##\u00a0Status\n\nAccepted\n")
    assert [(h.level, h.text) for h in doc.headings] == [(1, "3. T"), (2, "Status")]
    got = rec(log_of("nygardwrap"), "ADR-0003")
    assert got.status == "accepted"


def test_a_title_loses_its_attribute_anchor() -> None:
    assert rec(log_of("nygardwrap"), "ADR-0003").title == "Keep sessions in memory"


def test_a_wrapped_status_paragraph_keeps_its_successions() -> None:
    log = log_of("nygardwrap")
    assert relations(log, "ADR-0004") == {("supersedes", "ADR-0002"), ("supersedes", "ADR-0005")}
    assert not [p for p in log.problems if p.code == "ADR005"]


@pytest.mark.parametrize(("rid", "successor"), [("ADR-0002", "ADR-0004"), ("ADR-0005", "ADR-0004")])
def test_a_bare_number_or_file_name_after_superseded_by(rid: str, successor: str) -> None:
    log = log_of("nygardwrap")
    assert relations(log, rid) == {("superseded-by", successor)}
    assert not [p for p in log.problems if p.code == "ADR003"]


def test_prose_after_a_verb_is_no_bare_reference() -> None:
    from mkdocs_adr.parsing.status import relations_in_text

    for text in ("Deprecated by 2025 plans", "Replaced by 2 newer records", "Superseded by 2024."):
        assert [r.target for r in relations_in_text(text, "status-section", 1)] == [], text


def test_nygard_dates() -> None:
    log = log_of("nygardwrap")
    assert rec(log, "ADR-0001").date == "2021-01-20"
    assert rec(log, "ADR-0003").date is None  # "2021-04-2x": no day is made up


# ------------------------------------------------------------------ a subfolder's own series


def test_a_subfolder_numbered_from_the_start_is_named_in_the_duplicate_fix() -> None:
    log = log_of("subseries")
    found = [p for p in log.problems if p.code == "ADR002"]
    assert {p.path for p in found} == {
        "adr/0000-keep-decision-records.md",
        "adr/reviews/0000-how-we-review-third-party-tools.md",
        "adr/0001-render-pages-on-the-server.md",
        "adr/reviews/0001-review-of-a-screenshot-service.md",
    }
    assert all("{path: adr/reviews, prefix: ...}" in (p.fix or "") for p in found)


def test_the_subfolder_as_a_root_of_its_own_reads_without_duplicates() -> None:
    folder = SURVEY / "subseries"
    config = from_options(
        {"roots": ["adr", {"path": "adr/reviews", "prefix": "REV"}]},
        project_dir=folder,
        docs_dir=folder,
        config_file=None,
    )
    log = load(config)
    assert not [p for p in log.problems if p.code == "ADR002"]
    assert sorted(r.id for r in log.records) == ["ADR-0000", "ADR-0001", "REV-0000", "REV-0001"]


def test_a_part_named_between_the_verb_and_the_reference_makes_it_partial() -> None:
    log = log_of("nygardwrap")
    assert relations(log, "ADR-0006") == {("partially-supersedes", "ADR-0003")}
    assert rec(log, "ADR-0003").status == "accepted"  # a part replaced: still in effect


def test_fields_in_a_first_metadata_section_are_the_records_fields() -> None:
    assert rec(log_of("nygardwrap"), "ADR-0007").date == "2020-08-17"


def test_a_frontmatter_title_beside_a_subtitle_gives_way_to_the_heading() -> None:
    # the emphasis on a part of the heading is flattened, not cut at one end
    assert rec(log_of("localized"), "ADR-0009").title == "Choix d'un outil de déploiement"


def test_a_title_field_under_no_heading_is_the_title_not_the_slug() -> None:
    # a frontmatter block closed with a mistyped "--": its lines are fields
    got = rec(log_of("localized"), "ADR-0010")
    assert (got.title, got.status, got.date) == (
        "Rendre l'export accessible",
        "accepted",
        "2021-11-18",
    )


def test_a_chinese_passive_succession_is_the_status() -> None:
    log = log_of("localized")
    got = rec(log, "ADR-0011")
    assert got.status == "superseded"
    assert relations(log, "ADR-0011") == {("superseded-by", "ADR-0008")}
    assert not [p for p in log.problems if p.path == got.path and p.code == "ADR001"]


# ------------------------------------------------------------------ the ninth survey's shapes


def test_a_folder_per_record_log_reads_each_folders_readme_as_its_record() -> None:
    found = discover(config_of("folders"))
    reasons = {e.path: e.reason for e in found.excluded}
    assert (
        reasons["adr/2022-02-03-use-tracing/notes.md"]
        == "a part of the record 2022-02-03-use-tracing/"
    )
    assert reasons["adr/CHANGELOG.md"] == reasons["adr/LICENSE.md"] == "project-file"
    assert reasons["adr/README.md"] == "readme"
    log = log_of("folders")
    got = {r.id: (r.title, r.date, r.path) for r in log.records}
    assert got == {
        "2022-02-03-use-tracing": (
            "Use tracing",
            "2022-02-03",
            "adr/2022-02-03-use-tracing/README.md",
        ),
        "2022-03-01-keep-metrics-local": (
            "Keep metrics local",
            "2022-03-01",
            "adr/2022-03-01-keep-metrics-local/README.md",
        ),
    }
    mentioned = {r.target_id for r in rec(log, "2022-03-01-keep-metrics-local").relations}
    assert "2022-02-03-use-tracing" in mentioned


def test_a_folder_per_record_log_builds_one_page_per_record(tmp_path: Path) -> None:
    folder = checked_and_built(tmp_path, "folders")
    listed = json.loads((folder / "site" / "adr" / "index.json").read_text("utf-8"))
    assert [r["url"] for r in listed["records"]] == [
        "2022-02-03-use-tracing/",
        "2022-03-01-keep-metrics-local/",
    ]


def test_a_year_and_two_numbers_that_make_no_day_are_still_a_date() -> None:
    assert read_file_name("2022-21-11-swap-the-nightly-job.md").number is None
    assert "2022-21-11-swap-the-nightly-job" in {r.id for r in log_of("datenamed").records}


def test_a_dashed_day_that_starts_a_file_name_is_its_date() -> None:
    got = rec(log_of("folders"), "2022-02-03-use-tracing")
    assert got.date == "2022-02-03"  # (the folder's name: the record has no date line)


def test_other_tools_and_lifecycles() -> None:
    log = log_of("tools")
    got = {r.id: (r.status, r.date) for r in log.records}
    assert got == {
        "ADR-0001": ("accepted", "2020-05-17"),  # a two-column header row of keys
        "ADR-0002": ("proposed", "2020-06-02"),  # "Open", the keys the other way round
        "ADR-0003": ("draft", "2024-01-09"),  # .NET adr-cli's "__New__"
        "ADR-0004": ("accepted", "2021-02-01"),  # an EIP-style "Living" record
        "ADR-0005": ("accepted", "2022-05-05"),  # "Partially Implemented"
    }
    assert rec(log, "ADR-0003").parsed.raw_status == "__New__"  # as written
    assert not [p for p in log.problems if p.severity is not Severity.INFO]
    reasons = {e.path: e.reason for e in discover(config_of("tools")).excluded}
    assert reasons["adr/adr000-template.md"] == "template"


def test_a_status_line_under_the_title_wins_over_a_status_far_into_the_body() -> None:
    log = log_of("headerblock")
    got = {r.id: (r.status, r.parsed.style) for r in log.records}
    assert got["ADR-0001"] == ("accepted", "inline")  # not a phase's "### Status"
    assert got["ADR-0002"] == ("accepted", "inline")  # not the legend's "| Status | Meaning |"
    assert got["ADR-0003"] == ("accepted", "nygard")  # its first section: the section's
    assert not [p for p in log.problems if p.code == "ADR001"]


def test_a_quoted_block_of_fields_under_the_title() -> None:
    log = log_of("quoted")
    got = {r.id: (r.status, r.date) for r in log.records}
    assert got == {
        "ADR-0001": ("accepted", "2026-03-02"),
        "ADR-0002": ("accepted", "2026-04-10"),
        "ADR-0003": ("superseded", "2026-03-09"),
        "ADR-0004": ("accepted", "2026-05-01"),
    }
    # a possessive names a part of the record: partial, so no contradiction (ADR016)
    assert relations(log, "ADR-0002") == {("partially-supersedes", "ADR-0001")}
    assert relations(log, "ADR-0003") == {("superseded-by", "ADR-0004")}
    assert relations(log, "ADR-0004") == {("supersedes", "ADR-0003")}
    assert not [p for p in log.problems if p.severity is not Severity.INFO]


# ------------------------------------------------------------------ docs beside mkdocs.yml


def test_docs_beside_the_config_folder_are_inside_the_project(tmp_path: Path) -> None:
    from mkdocs_adr.config import project_folder

    (tmp_path / "site-config").mkdir()
    assert project_folder(tmp_path / "site-config", tmp_path / "docs") == tmp_path
    assert project_folder(tmp_path, tmp_path / "docs") == tmp_path
    far = tmp_path / "a" / "b" / "c"
    far.mkdir(parents=True)
    # more than two levels up: the config's own folder, as before
    assert project_folder(far, tmp_path / "docs") == far


def test_a_site_whose_docs_lie_beside_its_config_builds_strict(tmp_path: Path) -> None:
    (tmp_path / "docs" / "guide").mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "docs" / "guide" / "setup.md").write_text("# Setup\n", encoding="utf-8")
    shutil.copytree(SURVEY / "headerblock" / "adr", tmp_path / "docs" / "adr")
    (tmp_path / "docs" / "adr" / "0006-link-the-guide.md").write_text(
        "# 6. Link the guide\n\n## Status\n\nAccepted\n\n## Context\n\n"
        "See [the setup guide](../guide/setup.md).\n",
        encoding="utf-8",
    )
    config = tmp_path / "mkdocs"
    config.mkdir()
    (config / "mkdocs.yml").write_text(
        "site_name: Beside\ndocs_dir: ../docs\nplugins:\n  - adr\n", encoding="utf-8"
    )
    built = run_mkdocs("build", "--strict", "-d", str(tmp_path / "site"), cwd=config)
    assert built.returncode == 0, built.stderr
    assert "ADR015" not in built.stderr
    assert (tmp_path / "site" / "adr" / "INDEX" / "index.html").is_file()
    page = (tmp_path / "site" / "adr" / "0006-link-the-guide" / "index.html").read_text("utf-8")
    assert 'class="adr-meta"' in page
    plan = json.loads(run_cli("plan", "--json", cwd=config, check=True).stdout)
    assert [r["path"] for r in plan["corpus"]["roots"]] == ["docs/adr"]


# ------------------------------------------------------------------ short ids, verb sub-headings


def written(log: Log, rid: str) -> set[tuple[str, str | None, int | None]]:
    return {(r.kind, r.target_id, r.line) for r in rec(log, rid).relations if r.kind != "mentions"}


def test_the_roots_prefix_cut_short_names_the_roots_records() -> None:
    log = log_of("shortids")
    assert ("superseded-by", "ADR-0005", 4) in written(log, "ADR-0003")  # "SUPERSEDED by AD005"
    assert ("supersedes", "ADR-0003", 4) in written(log, "ADR-0005")  # "Supersedes AD003"
    assert ("superseded-by", "ADR-0003", 4) in written(log, "ADR-0001")
    assert not [p for p in log.problems if p.code == "ADR003"]
    assert rec(log, "ADR-0003").status == "superseded"


def test_a_links_sub_heading_that_is_a_verb_states_that_relation() -> None:
    log = log_of("shortids")
    # ``### Supersedes`` over ``- **[AD003: ..](0003-..)** - ..``: not a mere mention
    assert ("supersedes", "ADR-0003", 18) in written(log, "ADR-0005")
    assert ("superseded-by", "ADR-0003", 18) in written(log, "ADR-0001")
    # ``### Related`` under it relates, and words before the link leave it a relation of
    # unknown kind (``- Drift handling of [AD001: ..](..)``): no supersession guessed
    assert ("relates-to", "ADR-0001", 21) in written(log, "ADR-0005")
    assert ("relates-to", "ADR-0001", 18) in written(log, "ADR-0003")


def test_part_words_after_the_reference_make_the_supersession_partial() -> None:
    log = log_of("shortids")
    assert written(log, "ADR-0004") == {
        ("partially-supersedes", "ADR-0002", 4),  # "(Supersedes AD002 partially)"
        ("partially-supersedes", "ADR-0002", 18),  # "- [AD002: ..](..) - Partially superseded"
    }
    assert rec(log, "ADR-0002").status == "accepted"
    assert not [p for p in log.problems if p.code in ("ADR005", "ADR016")]


@pytest.mark.parametrize(
    ("reference", "found"),
    [
        ("AD002", True),  # ADR cut short
        ("ad-2", True),
        ("AP002", False),  # another word: no record of this log
        ("A002", False),  # one letter is no prefix
        ("AD009", False),  # no record 9: still not found
    ],
)
def test_only_the_roots_own_prefix_cut_short_names_a_record(
    tmp_path: Path, reference: str, found: bool
) -> None:
    log = log_in(
        tmp_path,
        {
            "0001-a.md": f"# 1. A\n\n## Status\n\nAccepted\n\nSupersedes {reference}\n",
            "0002-b.md": "# 2. B\n\n## Status\n\nSuperseded by [1. A](0001-a.md)\n",
        },
    )
    targets = {r.target_id for r in rec(log, "ADR-0001").relations if r.kind == "supersedes"}
    assert targets == ({"ADR-0002"} if found else {None})
    assert bool([p for p in log.problems if p.code == "ADR003"]) is not found


def test_check_and_a_default_build_of_the_short_id_log_pass(tmp_path: Path) -> None:
    folder = checked_and_built(tmp_path, "shortids")
    page = (folder / "site" / "adr" / "0004-size-the-ring-by-free-memory" / "index.html").read_text(
        encoding="utf-8"
    )
    assert 'data-adr-status="accepted"' in page and "Partially supersedes" in page
    strict = run_cli("check", "--fail-on", "warning", cwd=folder)
    assert strict.returncode == 0, strict.stdout  # no ADR003 for ``AD002`` and the like


# ------------------------------------------------------------------ a folder of superseded records


def test_a_superseded_folder_holds_archived_records_not_drafts() -> None:
    log = log_of("supersededfolder")
    got = {r.id: (r.archived, r.domain) for r in log.records}
    assert got == {
        "2024-03-04-split-the-release-by-team": (False, None),
        "2024-06-11-keep-toggles-short-lived": (False, None),
        "2023-01-10-one-release-for-everything": (True, None),
        "2023-05-02-a-shared-release-calendar": (True, None),
        "2023-07-19-nightly-catalogue-import": (True, None),
    }
    found = discover(config_of("supersededfolder"))
    assert [(e.path, e.reason) for e in found.excluded] == [
        ("adr/_drafts/2024-09-01-maybe-event-sourcing.md", "draft")  # still a draft's folder
    ]


def test_a_first_heading_that_names_the_successor_is_the_status() -> None:
    log = log_of("supersededfolder")
    successor = "2024-03-04-split-the-release-by-team"
    for rid in ("2023-01-10-one-release-for-everything", "2023-05-02-a-shared-release-calendar"):
        assert rec(log, rid).status == "superseded"
        assert rec(log, rid).parsed.status_line == 8  # the heading's line
        assert relations(log, rid) == {("superseded-by", successor)}
    # a heading that names no record, or only says why, is a section
    assert rec(log, "2024-06-11-keep-toggles-short-lived").status == "missing"
    assert rec(log, "2023-07-19-nightly-catalogue-import").status == "missing"


def test_a_successor_that_records_no_status_is_an_info_not_a_warning(tmp_path: Path) -> None:
    log = log_of("supersededfolder")
    late = [p for p in log.problems if p.code == "ADR006"]
    assert len(late) == 2 and {p.severity for p in late} == {Severity.INFO}
    assert all("missing_status: accepted" in (p.fix or "") for p in late)
    folder = SURVEY / "supersededfolder"
    counted = load(
        from_options(
            {"missing_status": "accepted"}, project_dir=folder, docs_dir=folder, config_file=None
        )
    )
    assert not [p for p in counted.problems if p.code == "ADR006"]
    old = rec(counted, "2023-01-10-one-release-for-everything")
    assert not counted.in_effect(old)


def test_a_strict_build_of_the_superseded_folder_log_passes(tmp_path: Path) -> None:
    folder = checked_and_built(tmp_path, "supersededfolder")
    strict = run_mkdocs("build", "--strict", "-d", "strict", cwd=folder)
    assert strict.returncode == 0, strict.stderr
    page = folder / "site" / "adr" / "_superseded" / "2023-01-10-one-release-for-everything"
    html = (page / "index.html").read_text(encoding="utf-8")
    assert 'data-adr-status="superseded"' in html and "adr-tag--archived" in html


# ------------------------------------------------------------------ relations to other documents


@pytest.mark.parametrize(
    ("target", "severity"),
    [
        ("RB-0012-app-readiness", Severity.INFO),  # a runbook of the same docs
        ("12_DEPLOY_GUIDE", Severity.INFO),
        ("notes/2026-01-21-dns-cutover", Severity.INFO),
        ("ADR_INDEX_SPEC", Severity.INFO),  # no number: not an id
        ("ADR-0009", Severity.WARNING),  # an id of this log no record has: a typo
        ("ADR-0009-use-x", Severity.WARNING),
        ("AD009", Severity.WARNING),
        ("9", Severity.WARNING),
        ("0009-use-x.md", Severity.WARNING),
    ],
)
def test_a_relation_to_another_kind_of_document_is_a_note(
    tmp_path: Path, target: str, severity: Severity
) -> None:
    text = f"---\nstatus: accepted\nrelates_to:\n  - {target}\n---\n# 1. A\n"
    found = [p for p in log_in(tmp_path, {"0001-a.md": text}).problems if p.code == "ADR003"]
    assert [p.severity for p in found] == [severity], found


def test_a_supersession_of_another_kind_of_document_stays_a_warning(tmp_path: Path) -> None:
    text = "---\nstatus: accepted\nsupersedes:\n  - RB-0012-app-readiness\n---\n# 1. A\n"
    found = [p for p in log_in(tmp_path, {"0001-a.md": text}).problems if p.code == "ADR003"]
    assert [p.severity for p in found] == [Severity.WARNING]
