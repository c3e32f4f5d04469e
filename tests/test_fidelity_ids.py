"""Issue 11, ids and titles: every common file-name shape gives a canonical id, every
spelling of it resolves (typed and written), duplicates are ADR002, titles lose their id
and wrappers, a heading number that disagrees is ADR019, and authoring keeps the shape.

Fixtures: ``tests/fixtures/logs/ids/<log>/adr`` (the log folder stands for ``docs_dir``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_adr.config import from_options, load_from_mkdocs_yml
from mkdocs_adr.identity import (
    AmbiguousReference,
    FileName,
    Resolver,
    file_id,
    file_number,
    file_record_id,
    lookup,
    read_file_name,
)
from mkdocs_adr.log import Log, load
from mkdocs_adr.model import Severity
from mkdocs_adr.parsing.titles import from_file_name, heading

from .conftest import LOGS, run_cli

IDS = LOGS / "ids"


def log_of(name: str) -> Log:
    folder = IDS / name
    return load(from_options({}, project_dir=folder, docs_dir=folder, config_file=None))


def by_path(log: Log) -> dict[str, tuple[str, str, str]]:
    """path -> (id, status, title)."""
    return {r.path: (r.id, r.status, r.title) for r in log.records}


def problems(log: Log, code: str) -> list[tuple[str | None, str]]:
    return sorted((p.path, p.message) for p in log.problems if p.code == code)


def relations(log: Log, rid: str) -> set[tuple[str, str | None]]:
    rec = log.get(rid)
    assert rec is not None, rid
    return {(r.kind, r.target_id) for r in rec.relations if r.kind != "mentions"}


# --------------------------------------------------------------------- the file-name rule


@pytest.mark.parametrize(
    ("name", "prefix", "number", "rest", "lead"),
    [
        ("0012-use-x.md", None, 12, "use-x", ""),
        ("12.md", None, 12, "", ""),
        ("adr-045-check-thing.md", "ADR", 45, "check-thing", "adr-"),
        ("adr-18.md", "ADR", 18, "", "adr-"),
        ("ADR-0001-title.md", "ADR", 1, "title", "ADR-"),
        ("ADR045-use-x.md", "ADR", 45, "use-x", "ADR"),
        ("API-001-state-store.md", "API", 1, "state-store", "API-"),
        ("ARC-002-x.md", "ARC", 2, "x", "ARC-"),
        ("api-001-x.md", "API", 1, "x", "api-"),  # lower case, zero-padded
        # a capital letter after the number is the id's (ADR-007-A beside ADR-007) ...
        ("ADR-007-A-park-it.md", "ADR", 7, "park-it", "ADR-"),
        ("0012-B.md", None, 12, "", ""),
        # ... a small one is a slug's word, as adr-tools writes "a"
        ("0012-a-new-queue.md", None, 12, "a-new-queue", ""),
        # dates are not numbers: slugs
        ("20210907-use-x.md", None, None, "20210907-use-x", ""),
        ("2021-09-07-use-x.md", None, None, "2021-09-07-use-x", ""),
        ("20200101-use-markdown.md", None, None, "20200101-use-markdown", ""),
        # words that end in a number name none
        ("use-2-databases.md", None, None, "use-2-databases", ""),
        ("oauth2-login.md", None, None, "oauth2-login", ""),
        ("step-01-x.md", None, None, "step-01-x", ""),
        ("v2-api.md", None, None, "v2-api", ""),
    ],
)
def test_file_name_shapes(
    name: str, prefix: str | None, number: int | None, rest: str, lead: str
) -> None:
    got = read_file_name(name)
    assert (got.prefix, got.number, got.rest) == (prefix, number, rest)
    if number is not None:
        assert got.lead == lead
    assert file_number(name) == number


@pytest.mark.parametrize(
    ("name", "suffix", "rid"),
    [
        ("ADR-007-A-park-it.md", "A", "ADR-0007-A"),
        ("0012-B-x.md", "B", "PAY-0012-B"),
        ("ADR-007-retry.md", "", "ADR-0007"),
        ("0012-a-new-queue.md", "", "PAY-0012"),
        ("ADR-007-Alpha-x.md", "", "ADR-0007"),  # a word, not a letter
        ("use-x.md", "", None),
    ],
)
def test_a_capital_letter_after_the_number_stays_in_the_id(
    name: str, suffix: str, rid: str | None
) -> None:
    assert read_file_name(name).suffix == suffix
    assert file_record_id(name, "PAY" if name[:1].isdigit() else "ADR") == rid


def test_lettered_records_are_records_of_their_own() -> None:
    """A log that adds ``ADR-007-A`` and ``ADR-007-B`` beside ``ADR-007`` (a shape one real
    log writes): three ids, no ADR002, titles without the letter, and references by the
    lettered id reach the lettered record (in prose, in a status line), while ``ADR-007``
    still names its own."""
    log = log_of("lettered")
    assert by_path(log) == {
        "adr/ADR-007-retry-failed-deliveries.md": (
            "ADR-0007",
            "accepted",
            "Retry failed deliveries",
        ),
        "adr/ADR-007-A-dead-letter-queue-for-deliveries.md": (
            "ADR-0007-A",
            "accepted",
            "Park exhausted deliveries in a dead-letter queue",
        ),
        "adr/ADR-007-B-alert-on-dead-letters.md": (
            "ADR-0007-B",
            "accepted",
            "Alert on-call when dead letters pile up",
        ),
        "adr/ADR-008-weekly-dead-letter-report.md": (
            "ADR-0008",
            "superseded",
            "Mail a weekly dead-letter report",
        ),
    }
    assert [p for p in log.problems if p.severity >= Severity.WARNING] == []
    assert relations(log, "ADR-0008") == {("superseded-by", "ADR-0007-B")}
    assert relations(log, "ADR-0007-B") == {("supersedes", "ADR-0008")}
    mentioned = {
        rid: {r.target_id for r in log.get(rid).relations if r.kind == "mentions"}  # type: ignore[union-attr]
        for rid in ("ADR-0007-A", "ADR-0007-B", "ADR-0008")
    }
    assert mentioned == {
        "ADR-0007-A": {"ADR-0007"},
        "ADR-0007-B": {"ADR-0007-A"},
        "ADR-0008": {"ADR-0007-A"},
    }
    assert [r.number for r in log.records if r.id.startswith("ADR-0007")] == [7, 7, 7]


def test_a_lettered_reference_without_such_a_record_names_the_number(tmp_path: Path) -> None:
    """``ADR-0003-B`` where no record has the letter: the part B of ADR-0003, as before."""
    adr = tmp_path / "adr"
    adr.mkdir()
    (adr / "0003-cache.md").write_text("# 3. Cache\n\n## Status\n\nAccepted\n", encoding="utf-8")
    (adr / "0004-evict.md").write_text(
        "# 4. Evict\n\n## Status\n\nAccepted\n\n## Context\n\nOption ADR-0003-B was slow.\n",
        encoding="utf-8",
    )
    log = load(from_options({}, project_dir=tmp_path, docs_dir=tmp_path, config_file=None))
    rec = log.get("ADR-0004")
    assert rec is not None
    assert [(r.kind, r.target_id) for r in rec.relations] == [("mentions", "ADR-0003")]


def test_file_id_takes_the_prefix_from_the_name_else_the_root() -> None:
    assert file_id("0012-x.md", "PAY") == ("PAY", 12)
    assert file_id("adr-045-x.md", "ADR") == ("ADR", 45)
    assert file_id("API-001-x.md", "ADR") == ("API", 1)
    # a root's own prefix counts in any case, even unpadded
    assert file_id("pay-3-refunds.md", "PAY") == ("PAY", 3)
    assert read_file_name("pay-3-refunds.md") == FileName(None, None, "pay-3-refunds")
    assert file_id("2021-09-07-x.md", "ADR") is None


# --------------------------------------------------------------------- titles


@pytest.mark.parametrize(
    ("h1", "file", "title", "number"),
    [
        ("API-001: State store", "API-001-state-store.md", "State store", 1),
        ("API-002: State store", "API-001-state-store.md", "State store", 2),
        ("28 Use X", "0028-use-x.md", "Use X", 28),
        ("28. Use X", "0028-use-x.md", "Use X", 28),
        ("28 Use X", "0029-use-x.md", "Use X", 28),
        ("0028 use x", "0029-use-x.md", "use x", 28),
        ("[ADR-0005] Use X", "0005-use-x.md", "Use X", 5),
        ("[Use X]", "0005-use-x.md", "Use X", None),
        ("ADR-0003 - [Use X]", "ADR-0003-use-x.md", "Use X", 3),
        ("ADR 45 - Use X", "adr-045-use-x.md", "Use X", 45),
        ("ADR-045: Use X", "adr-045-use-x.md", "Use X", 45),
        ("adr-45: Use X", "adr-045-use-x.md", "Use X", 45),
        ("ADR-0045", "adr-045.md", "ADR-0045", 45),  # nothing left: the heading stays
        # not ids: a year, a product name, another standard's number, words
        ("2024 roadmap", "0007-x.md", "2024 roadmap", None),
        ("3 ways to cache", "0007-x.md", "3 ways to cache", None),
        ("HTTP2 support", "0007-x.md", "HTTP2 support", None),
        ("RFC 2119: wording", "0007-x.md", "RFC 2119: wording", None),
        # inline Markdown shows as MkDocs shows the heading: a link's text, a code span's
        # content, emphasis without its marks, an escaped character without its backslash
        ("[Use X](https://example.com)", "0007-x.md", "Use X", None),
        (
            "[Replaced by [ADR-0021](0021-x.md)] Ship logs",
            "0004-x.md",
            "[Replaced by ADR-0021] Ship logs",
            None,
        ),
        ("`noop` Scheduler", "adr-112-noop.md", "noop Scheduler", None),
        ("ADR-0012: Use `x` and **y**", "0012-x.md", "Use x and y", 12),
        ("`ADR-0012`: Use X", "0012-x.md", "Use X", 12),
        (
            "Use \\*stars\\* and snake_case_names",
            "0007-x.md",
            "Use *stars* and snake_case_names",
            None,
        ),
        ("Keep `a * b` and ``tick ` inside``", "0007-x.md", "Keep a * b and tick ` inside", None),
        (
            "![badge](b.svg) Use <b>HTML</b> as written",
            "0007-x.md",
            "badge Use <b>HTML</b> as written",
            None,
        ),
        ("2021 Roadmap", "20210101-roadmap.md", "2021 Roadmap", None),  # a slug file
        # the template's number placeholder, left unfilled in a numbered file: no number
        ("n. Use X", "0010-use-x.md", "Use X", None),
        ("N. Use X", "0010-use-x.md", "Use X", None),
        ("XXX. Use X", "adr-010-use-x.md", "Use X", None),
        ("NUMBER. Use X", "0010-use-x.md", "Use X", None),
        ("n. Use X", "use-x.md", "n. Use X", None),  # no number in the name: as written
        ("X. Window system", "window-system.md", "X. Window system", None),
        ("Nx. Use X", "0010-use-x.md", "Nx. Use X", None),
        # a version or a decimal before the words is no number
        ("1.0 release plan", "0007-x.md", "1.0 release plan", None),
        ("2.5 Use X", "0007-x.md", "2.5 Use X", None),
        ("7.Use X", "0007-x.md", "Use X", 7),
        # the full-width colon, as CJK records write it (ASCII or CJK words after it)
        ("ADR-0007：Use X", "0007-x.md", "Use X", 7),
        ("ADR-907：流程规范", "ADR-907-x.md", "流程规范", 907),
        ("[ADR-0007]：Use X", "0007-x.md", "Use X", 7),
        # the kind of document named before every title of a log
        ("Architecture Decision Record: Use X", "adr-004-use-x.md", "Use X", None),
        ("Architectural Decision Record - Use X", "0004-use-x.md", "Use X", None),
        ("ADR-0004: Architecture Decision Record: Use X", "0004-use-x.md", "Use X", 4),
        ("Architecture Decision Records", "0001-adrs.md", "Architecture Decision Records", None),
        ("ADR: Unified drive domain", "001-unified-drive.md", "Unified drive domain", None),
        ("ADRs: how we write them", "0001-x.md", "ADRs: how we write them", None),
        # ... and the record's number after it, as an id
        ("Architecture Decision Record 9: Pool connections", "0009-x.md", "Pool connections", 9),
        ("Architectural decision record 12 - Use X", "0012-x.md", "Use X", 12),
        ("Architecture Decision Record 9", "0009-x.md", "Architecture Decision Record 9", 9),
        (
            "Architecture decision record keeping",
            "0001-x.md",
            "Architecture decision record keeping",
            None,
        ),
        # ... and before an id with the file's own prefix, in any case (a log whose
        # folders each number their records with a prefix of their own)
        ("ADR Svc-002 — Pool connections", "svc-002-pool.md", "Pool connections", 2),
        ("ADR svc-004 - Pool connections", "svc-004-pool.md", "Pool connections", 4),
        ("ADR Layout-001 Ports first", "layout-001-ports.md", "Ports first", 1),
        ("adr-Svc-003: Pool connections", "svc-003-pool.md", "Pool connections", 3),
        # (an id of another prefix, and words, stay)
        ("ADR RFC-7230 — Framing", "svc-002-x.md", "ADR RFC-7230 — Framing", None),
        ("ADR review 2024", "0001-x.md", "ADR review 2024", None),
        # the template's slot kept as the heading: no title (the file name's is taken)
        ("{short title of solved problem and solution}", "0039-x.md", "", None),
        ("{Use X} and {Y}", "0039-x.md", "{Use X} and {Y}", None),
    ],
)
def test_heading_title_and_number(h1: str, file: str, title: str, number: int | None) -> None:
    assert heading(h1, file, ("ADR",)) == (title, number)


def test_title_from_the_file_name_drops_its_id() -> None:
    assert from_file_name("adr-045-check-thing.md") == "Check thing"
    assert from_file_name("API-001-state-store.md") == "State store"
    assert from_file_name("0012-use-x.md") == "Use x"
    assert from_file_name("20200101-use-x.md") == "Use x"
    assert from_file_name("use-2-databases.md") == "Use 2 databases"


# --------------------------------------------------------------------- the fixture logs


def test_mixed_root_ids_titles_and_supersession() -> None:
    log = log_of("mixed")
    assert by_path(log) == {
        "adr/adr-18.md": (
            "ADR-0018",
            "superseded",
            "Keep service settings in environment variables",
        ),
        "adr/adr-045-check-thing.md": (
            "ADR-0045",
            "superseded",
            "Check delivery receipts before settling an order",
        ),
        "adr/adr-111-settle-in-nightly-batches.md": (
            "ADR-0111",
            "accepted",
            "Settle orders in nightly batches",
        ),
        "adr/0028-publish-events-with-an-outbox.md": (
            "ADR-0028",
            "accepted",
            "Publish order events with an outbox table",
        ),
        # a date is not a number; a word that ends in a number is not an id
        "adr/2021-09-07-adopt-trunk-based-development.md": (
            "2021-09-07-adopt-trunk-based-development",
            "accepted",
            "Adopt trunk-based development",
        ),
        "adr/use-2-databases.md": (
            "use-2-databases",
            "rejected",
            "Use two databases for reads and writes",
        ),
    }
    # `SUPERSEDED by ADR-045`, `Superseded by ADR 111`, a link to `adr-18.md`
    assert relations(log, "ADR-0018") == {("superseded-by", "ADR-0045")}
    assert relations(log, "ADR-0045") == {
        ("superseded-by", "ADR-0111"),
        ("supersedes", "ADR-0018"),
    }
    assert relations(log, "ADR-0111") == {("supersedes", "ADR-0045")}
    assert log.successor("ADR-0018").current == "ADR-0111"
    assert log.successor("ADR-0018").chain == ("ADR-0045", "ADR-0111")
    assert log.successor("ADR-0045").current == "ADR-0111"
    rec_111 = log.get("ADR-0111")
    assert rec_111 is not None and log.in_effect(rec_111)
    assert [p.format() for p in log.problems] == []


def test_upper_case_root() -> None:
    log = log_of("upper")
    assert by_path(log) == {
        "adr/ADR-0001-record-architecture-decisions.md": (
            "ADR-0001",
            "accepted",
            "Record architecture decisions",
        ),
        "adr/ADR-0002-store-stock-levels-in-postgres.md": (
            "ADR-0002",
            "superseded",
            "Store stock levels in PostgreSQL",
        ),
        "adr/ADR-0003-keep-stock-levels-in-an-event-log.md": (
            "ADR-0003",
            "accepted",
            "Keep stock levels in an event log",
        ),
    }
    assert relations(log, "ADR-0002") == {("superseded-by", "ADR-0003")}
    assert relations(log, "ADR-0003") == {("supersedes", "ADR-0002")}
    assert log.successor("ADR-0002").current == "ADR-0003"
    assert [p.format() for p in log.problems] == []


def test_prefixes_from_file_names_side_by_side() -> None:
    log = log_of("prefixes")
    assert by_path(log) == {
        "adr/API-001-state-store.md": ("API-0001", "superseded", "State store"),
        "adr/ARC-001-layered-modules.md": ("ARC-0001", "accepted", "Layered modules"),
        "adr/ARC-002-event-bus.md": ("ARC-0002", "accepted", "Event bus between modules"),
        "adr/API-003-sessions-in-redis.md": ("API-0003", "accepted", "Keep sessions in Redis"),
    }
    assert relations(log, "API-0001") == {("superseded-by", "API-0003")}
    assert relations(log, "API-0003") == {("supersedes", "API-0001")}
    assert log.successor("API-0001").current == "API-0003"
    # the heading `# API-004: ...` of API-003-... names another number
    assert problems(log, "ADR019") == [
        (
            "adr/API-003-sessions-in-redis.md",
            "heading says number 4 but the file name says 3; the id is API-0003",
        )
    ]
    assert {p.code for p in log.problems} == {"ADR019"}


def test_duplicate_numbers_across_shapes_are_adr002_and_headings_adr019() -> None:
    log = log_of("dupes")
    ids = sorted(r.id for r in log.records)
    assert ids == ["ADR-0007", "ADR-0007", "ADR-0009", "ADR-0010", "ADR-0045", "ADR-0045"]
    dup = {p.path for p in log.problems if p.code == "ADR002"}
    assert dup == {
        "adr/0007-cache-product-pages.md",
        "adr/adr-0007-cache-search-results.md",
        "adr/adr-045-a.md",
        "adr/adr-045-b.md",
    }
    assert problems(log, "ADR019") == [
        (
            "adr/0009-retry-payment-webhooks.md",
            "heading says number 8 but the file name says 9; the id is ADR-0009",
        ),
        (
            "adr/adr-010-rotate-api-keys.md",
            "heading says number 11 but the file name says 10; the id is ADR-0010",
        ),
    ]
    # a duplicate is named, never guessed
    with pytest.raises(AmbiguousReference) as err:
        lookup(log, "ADR-045")
    assert err.value.ids == ("ADR-0045",) and len(err.value.records) == 2


# --------------------------------------------------------------------- resolving


@pytest.mark.parametrize(
    "typed", ["ADR 45", "ADR-045", "ADR-0045", "adr-45", "ADR045", "45", "adr-045-check-thing"]
)
def test_lookup_every_spelling(typed: str) -> None:
    assert lookup(log_of("mixed"), typed).record.id == "ADR-0045"


@pytest.mark.parametrize(
    ("typed", "rid"),
    [("18", "ADR-0018"), ("adr-18", "ADR-0018"), ("ADR 111", "ADR-0111"), ("28", "ADR-0028")],
)
def test_lookup_other_records_of_the_mixed_root(typed: str, rid: str) -> None:
    assert lookup(log_of("mixed"), typed).record.id == rid


def test_lookup_in_a_root_of_several_prefixes() -> None:
    log = log_of("prefixes")
    for typed in ("API-001", "api-1", "API 1", "API001"):
        assert lookup(log, typed).record.id == "API-0001", typed
    assert lookup(log, "2").record.id == "ARC-0002"  # unique number
    assert lookup(log, "3").record.id == "API-0003"
    with pytest.raises(AmbiguousReference) as err:
        lookup(log, "1")
    assert err.value.ids == ("API-0001", "ARC-0001")


def test_resolver_reads_what_records_write() -> None:
    log = log_of("mixed")
    source = log.get("ADR-0028")
    assert source is not None
    resolver = Resolver(log.records, {"adr": "ADR"})
    for written in ("ADR 111", "ADR-111", "adr-111", "ADR0111", "ADR111", "111"):
        assert resolver.resolve(written, source=source).id == "ADR-0111", written
    # a misspelled link still names its number, in the file's own shape
    assert resolver.resolve("adr-18-old-name.md", source=source).id == "ADR-0018"
    assert resolver.resolve("adr-045-check.md", source=source).id == "ADR-0045"

    several = log_of("prefixes")
    api = several.get("API-0003")
    assert api is not None
    resolver = Resolver(several.records, {"adr": "ADR"})
    assert resolver.resolve("2", source=api).id == "ARC-0002"
    assert resolver.resolve("1", source=api).ids == ("API-0001", "ARC-0001")  # ambiguous
    assert resolver.resolve("ARC 2", source=api).id == "ARC-0002"


# --------------------------------------------------------------------- real CLI and build


def project(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(IDS / name, folder / "docs")
    (folder / "mkdocs.yml").write_text("site_name: Ids\nplugins:\n  - adr\n", encoding="utf-8")
    return folder


def mkdocs_build(folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )


@pytest.mark.parametrize(("name", "typed", "rid"), [("mixed", "ADR-045", "ADR-0045")])
def test_cli_context_by_a_short_id(tmp_path: Path, name: str, typed: str, rid: str) -> None:
    folder = project(tmp_path, name)
    proc = run_cli("context", typed, cwd=folder)
    assert proc.returncode == 0, proc.stderr
    assert f"Succession: {rid} is superseded; current successor ADR-0111" in proc.stdout


def test_cli_context_with_a_file_name_prefix(tmp_path: Path) -> None:
    folder = project(tmp_path, "prefixes")
    proc = run_cli("context", "API-001", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    assert "Succession: API-0001 is superseded; current successor API-0003" in proc.stdout
    proc = run_cli("context", "1", cwd=folder)
    assert proc.returncode == 2
    assert "is ambiguous: it names API-0001" in proc.stderr and "ARC-0001" in proc.stderr


@pytest.mark.parametrize(
    ("name", "page", "successor"),
    [
        ("mixed", "adr-18", "ADR-0111"),
        ("upper", "ADR-0002-store-stock-levels-in-postgres", "ADR-0003"),
        ("prefixes", "API-001-state-store", "API-0003"),
        ("lettered", "ADR-008-weekly-dead-letter-report", "ADR-0007-B"),
    ],
)
def test_mkdocs_build_of_the_fixture_passes(
    tmp_path: Path, name: str, page: str, successor: str
) -> None:
    folder = project(tmp_path, name)
    proc = mkdocs_build(folder)
    assert proc.returncode == 0, proc.stderr
    assert "ERROR" not in proc.stderr
    index = (folder / "site" / "adr" / "INDEX" / "index.html").read_text(encoding="utf-8")
    for rec in reload(folder).records:
        if rec.number is not None:
            assert f">{rec.id}<" in index, rec.id  # the INDEX shows the short canonical id
    html = (folder / "site" / "adr" / page / "index.html").read_text(encoding="utf-8")
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert f"Current successor: {successor} " in text


def reload(folder: Path) -> Log:
    return load(load_from_mkdocs_yml(folder / "mkdocs.yml"))


def test_authoring_keeps_the_adr_nnn_shape(tmp_path: Path) -> None:
    folder = project(tmp_path, "mixed")
    proc = run_cli(
        "new", "Refund orders inside the batch", "--status", "accepted", "--supersedes",
        "ADR 111", "--date", "2026-11-02", cwd=folder, check=True,
    )  # fmt: skip
    assert proc.stdout.strip() == "docs/adr/adr-112-refund-orders-inside-the-batch.md"
    proc = run_cli("new", "Send settlement reports", "--status", "accepted", cwd=folder)
    assert proc.stdout.strip() == "docs/adr/adr-113-send-settlement-reports.md", proc.stderr
    run_cli("supersede", "28", "--by", "adr-113", cwd=folder, check=True)
    run_cli("link", "ADR113", "Amends", "adr-45", cwd=folder, check=True)
    log = reload(folder)
    new = log.by_path["docs/adr/adr-112-refund-orders-inside-the-batch.md"]
    assert (new.id, new.status, new.title) == (
        "ADR-0112",
        "accepted",
        "Refund orders inside the batch",
    )
    assert log.successor("ADR-0018").current == "ADR-0112"
    assert log.successor("ADR-0028").current == "ADR-0113"
    assert relations(log, "ADR-0113") == {("supersedes", "ADR-0028"), ("amends", "ADR-0045")}
    assert relations(log, "ADR-0045") >= {("amended-by", "ADR-0113")}
    assert [p.format() for p in log.problems] == []
    proc = run_cli("check", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("name", "file", "rid"),
    [
        ("upper", "ADR-0004-count-stock-per-warehouse.md", "ADR-0004"),
        # API- and ARC- are two files each: the latest number's shape wins
        ("prefixes", "API-004-count-stock-per-warehouse.md", "API-0004"),
    ],
)
def test_authoring_keeps_an_upper_case_or_prefixed_shape(
    tmp_path: Path, name: str, file: str, rid: str
) -> None:
    folder = project(tmp_path, name)
    proc = run_cli("new", "Count stock per warehouse", "--status", "accepted", cwd=folder)
    assert proc.stdout.strip() == f"docs/adr/{file}", proc.stderr
    rec = reload(folder).by_path[f"docs/adr/{file}"]
    assert (rec.id, rec.title, rec.number) == (rid, "Count stock per warehouse", 4)
