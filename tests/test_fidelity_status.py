"""Issue 11, status words and dates as real logs write them.

Three fixture logs under tests/fixtures/logs/status/: ``words`` (status words of several
languages, punctuation and attributions, bold keys without a colon, template guidance),
``dates`` (every date form of docs/guide/formats.md "Dates") and ``nostatus`` (a MADR
site whose records never write a status). Each reading is written out here in full.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_adr.config import Config, from_options, load_from_mkdocs_yml
from mkdocs_adr.freshness import Entry
from mkdocs_adr.graph import RelationGraph
from mkdocs_adr.log import Log, load
from mkdocs_adr.model import Record, Severity
from mkdocs_adr.parsing.dates import parse_date
from mkdocs_adr.parsing.status import is_guidance, normalize_status
from mkdocs_adr.summary.dispositions import SECTION_DECISIONS, SECTION_PROPOSALS, disposition
from mkdocs_adr.views import index as index_view
from mkdocs_adr.views import page as page_view

from .conftest import LOGS, run_mkdocs

HERE = LOGS / "status"
REPO = Path(__file__).resolve().parent.parent

# --------------------------------------------------------------------------- helpers


def root_log(name: str, **options: object) -> Log:
    folder = HERE / name
    config = from_options(
        dict(options), project_dir=folder, docs_dir=folder / "docs", config_file=None
    )
    return load(config)


def site_log(folder: Path, **changes: object) -> Log:
    return load(load_from_mkdocs_yml(folder / "mkdocs.yml").replace(**changes))


def by_file(log: Log) -> dict[str, Record]:
    return {r.path.rsplit("/", 1)[-1]: r for r in log.records}


def problems_of(log: Log, rec: Record) -> list[tuple[str, str]]:
    return sorted((p.code, p.severity.label) for p in log.problems if p.path == rec.path)


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), out.get("PYTHONPATH", "")]))
    return out


# --------------------------------------------------------------------------- words

ALIAS = [("ADR018", "info")]
UNKNOWN = [("ADR001", "warning")]

#: file -> (style, status, alias, raw status, problems)
WORDS: dict[str, tuple[str, str, str | None, str, list[tuple[str, str]]]] = {
    "0001-record-architecture-decisions.md": (
        "nygard",
        "accepted",
        "implemented",
        "Implemented",
        ALIAS,
    ),
    "0002-use-postgres-for-orders.md": ("nygard", "accepted", "approved", "Approved.", ALIAS),
    "0003-use-kafka-for-events.md": (
        "nygard",
        "accepted",
        "approved",
        "Approved by @platform-team",
        ALIAS,
    ),
    "0004-keep-a-changelog.md": ("nygard", "accepted", None, "Accepted (2021-03-04)", []),
    "0005-adopt-trunk-based-development.md": ("nygard", "accepted", None, "Accepted!", []),
    "0006-validate-input-at-the-edge.md": ("nygard", "accepted", "valid", "valid", ALIAS),
    "0007-split-the-billing-service.md": ("nygard", "proposed", "review", "Review", ALIAS),
    "0008-use-grpc-between-services.md": ("nygard", "proposed", "pending", "Pending", ALIAS),
    "0009-introduce-feature-flags.md": ("nygard", "proposed", "proposal", "Proposal", ALIAS),
    "0010-move-to-kubernetes.md": (
        "nygard",
        "proposed",
        "under discussion",
        "Under discussion",
        ALIAS,
    ),
    "0011-write-our-own-orm.md": ("nygard", "rejected", "declined", "Declined", ALIAS),
    "0012-deploy-with-fabric.md": ("nygard", "deprecated", "obsolete", "Obsolete", ALIAS),
    "0013-cache-product-pages.md": ("nygard", "accepted", "已实施", "已实施", ALIAS),
    "0014-search-with-elasticsearch.md": ("nygard", "draft", "草案", "草案", ALIAS),
    "0015-log-in-json.md": ("nygard", "accepted", "承認済み", "承認済み", ALIAS),
    "0016-stop-using-soap.md": ("nygard", "deprecated", "非推奨", "非推奨", ALIAS),
    "0017-usar-colas-para-correos.md": ("nygard", "proposed", "propuesta", "Propuesta", ALIAS),
    "0018-usar-graphql.md": ("nygard", "rejected", "rejeitado", "Rejeitado", ALIAS),
    "0019-chiffrer-les-sauvegardes.md": ("nygard", "accepted", "accepté", "Accepté", ALIAS),
    "0020-monorepo-einfuehren.md": ("nygard", "rejected", "abgelehnt", "Abgelehnt", ALIAS),
    "0021-try-a-service-mesh.md": ("nygard", "unknown", None, "Perhaps later", UNKNOWN),
    "0022-retire-the-ftp-drop.md": ("inline", "deprecated", None, "deprecated", []),
    "0023-use-utc-everywhere.md": ("inline", "accepted", None, "accepted", []),
    "0024-pin-dependencies.md": ("madr2", "accepted", None, "Accepted", []),
    "0025-one-database-per-service.md": ("inline", "accepted", None, "Accepted", []),
    "0026-use-openapi-for-contracts.md": (
        "nygard",
        "unknown",
        None,
        '> A decision may be "proposed" if the project stakeholders haven\'t agreed with it '
        'yet, or "accepted" once it is agreed.',
        UNKNOWN,
    ),
    "0027-rotate-secrets-monthly.md": ("nygard", "accepted", None, "Accepted", []),
    "0028-adopt-a-design-system.md": (
        "nygard",
        "unknown",
        None,
        "[proposed | rejected | accepted | deprecated | … | superseded by ADR-0005]",
        UNKNOWN,
    ),
    "0029-use-terraform.md": ("nygard", "unknown", None, "{status}", UNKNOWN),
    "0030-run-chaos-drills.md": (
        "nygard",
        "unknown",
        None,
        "What is the status, such as proposed, accepted, rejected, deprecated, superseded, etc.?",
        UNKNOWN,
    ),
    "0031-tag-every-release.md": ("nygard", "accepted", "done", "Done", ALIAS),
    "0032-write-runbooks.md": ("nygard", "accepted", None, "Accepted on 2021-03-04", []),
    # in effect for the part accepted, as a partly superseded record is
    "0033-split-reads-from-writes.md": (
        "nygard",
        "accepted",
        "partially accepted",
        "Partially Accepted",
        ALIAS,
    ),
    # the word as some real logs spell it (ensembl's, for one)
    "0034-stop-nightly-exports.md": ("nygard", "deprecated", "depreciated", "Depreciated.", ALIAS),
    # the key in Markdown's other strong emphasis, under a numbered kind-of-document title
    # (every record of a real log of 16)
    "0035-pool-database-connections.md": ("inline", "proposed", None, "proposed", []),
    "0036-keep-secrets-in-the-vault.md": (
        "inline",
        "accepted",
        "implemented",
        "Implemented in [#812][impl]",
        ALIAS,
    ),
}

#: The records whose status text is a template's guidance, not a status.
PLACEHOLDERS = {
    "0026-use-openapi-for-contracts.md",
    "0028-adopt-a-design-system.md",
    "0029-use-terraform.md",
    "0030-run-chaos-drills.md",
}


@pytest.fixture(scope="module")
def words() -> Log:
    return root_log("words")


def test_every_status_word_reads_exactly(words: Log) -> None:
    got = by_file(words)
    assert sorted(got) == sorted(WORDS)
    for name, (style, status, alias, raw, problems) in WORDS.items():
        rec = got[name]
        assert (rec.style, rec.status, rec.parsed.alias, rec.raw_status) == (
            style,
            status,
            alias,
            raw,
        ), name
        assert problems_of(words, rec) == problems, name
        assert rec.id == f"ADR-{name[:4]}"


def test_alias_reports_say_what_was_read(words: Log) -> None:
    [p] = [p for p in words.problems if p.path.endswith("0013-cache-product-pages.md")]
    assert p.message == "status '已实施' read as 'accepted' (alias '已实施')"
    assert p.severity is Severity.INFO and p.ids == ("ADR-0013",)


def test_template_guidance_is_the_unfilled_placeholder(words: Log) -> None:
    got = by_file(words)
    for name in PLACEHOLDERS:
        rec = got[name]
        [p] = [p for p in words.problems if p.path == rec.path]
        assert p.code == "ADR001" and p.severity is Severity.WARNING
        assert p.message == (
            f"status {rec.raw_status!r} is the template's unfilled placeholder, not a status"
        )
        assert not words.in_effect(rec)
    # the guidance's "superseded by ADR-0005" is an example, never a relation
    assert [r for r in got["0028-adopt-a-design-system.md"].relations if r.kind != "mentions"] == []
    # an unknown word that is no guidance keeps the usual message
    [p] = [p for p in words.problems if p.path.endswith("0021-try-a-service-mesh.md")]
    assert p.message.startswith("status 'Perhaps later' is not a known status")


#: MADR 3 frontmatter filled in with the template's braces kept (8 records of a real log of
#: 77): file -> (frontmatter lines, status, raw status, date, deciders, problems)
BRACED: dict[str, tuple[str, str, str, str | None, tuple[str, ...], list[tuple[str, str]]]] = {
    "0001-cache-the-catalogue.md": (
        "status: { accepted }\ncontact: { Ana Lima }\ndate: { 2024-05-02 }\n"
        "deciders: { Ana Lima, Ben Okafor }\nconsulted: { Chen Wei }\ninformed: {}\n",
        "accepted",
        "accepted",
        "2024-05-02",
        ("Ana Lima", "Ben Okafor"),
        [],
    ),
    "0002-page-the-search.md": (
        "status: {proposed}\ndate: {2023-11-10}\ndeciders: { Ben Okafor }\n",
        "proposed",
        "proposed",
        "2023-11-10",
        ("Ben Okafor",),
        [],
    ),
    "0003-type-the-replies.md": (
        "status: { in-progress }\ndate: { 2024-09-10 }\n",
        "unknown",
        "in-progress",
        "2024-09-10",
        (),
        [("ADR001", "status 'in-progress' is not a known status")],
    ),
    "0004-choose-a-broker.md": (
        "status: {proposed | rejected | accepted}\n"
        "date: {YYYY-MM-DD when the decision was last updated}\n",
        "unknown",
        "{proposed | rejected | accepted}",
        None,
        (),
        [("ADR001", "status '{proposed | rejected | accepted}' is the template's unfilled")],
    ),
    "0005-name-the-queues.md": (
        "status: {status}\ndate: { 2024-01-03 }\n",
        "unknown",
        "{status}",
        "2024-01-03",
        (),
        [("ADR001", "status '{status}' is the template's unfilled placeholder")],
    ),
}


def test_madr3_values_left_in_the_templates_braces_read_as_filled_in(tmp_path: Path) -> None:
    """``status: { accepted }`` is, to YAML, a mapping of ``accepted`` to null: the value
    filled in, not the template's placeholder (nor a lost date); a braced slot that lists
    its choices, or ``{status}``, stays the placeholder."""
    root = tmp_path / "docs" / "decisions"
    root.mkdir(parents=True)
    for name, (front, *_rest) in BRACED.items():
        (root / name).write_text(f"---\n{front}---\n# A decision\n", encoding="utf-8")
    config = from_options(
        {"roots": ["decisions"]}, project_dir=tmp_path, docs_dir=tmp_path / "docs", config_file=None
    )
    log = load(config)
    got = by_file(log)
    for name, (_front, status, raw, date, deciders, problems) in BRACED.items():
        rec = got[name]
        assert (rec.style, rec.status, rec.raw_status, rec.date) == ("madr", status, raw, date), (
            name
        )
        assert rec.parsed.deciders == deciders, name
        found = [(p.code, p.message) for p in log.problems if p.path == rec.path]
        assert len(found) == len(problems), (name, found)
        for (code, message), (want_code, want) in zip(found, problems, strict=True):
            assert code == want_code and message.startswith(want), (name, message)


@pytest.mark.parametrize(
    ("front", "body", "status", "raw", "note"),
    [
        # a document's lifecycle word in the frontmatter, the decision's status in the body
        (
            "status: active\nlifecycle: active\n",
            "- **Status:** Superseded by ADR-0002\n",
            "superseded",
            "Superseded by ADR-0002",
            True,
        ),
        ("status: active\n", "**Status:** Proposed\n", "proposed", "Proposed", True),
        # the same status both ways, or an alias in the body too: the frontmatter stands
        ("status: active\n", "**Status:** Accepted\n", "accepted", "active", False),
        ("status: active\n", "## Status\n\nAkzeptiert\n", "accepted", "active", False),
        # a known word in the frontmatter always stands
        ("status: accepted\n", "**Status:** Proposed\n", "accepted", "accepted", False),
    ],
)
def test_a_frontmatter_alias_gives_way_to_the_bodys_known_status(
    tmp_path: Path, front: str, body: str, status: str, raw: str, note: bool
) -> None:
    """``status: active`` beside ``lifecycle: active`` is a document's state; the body's
    ``**Status:** Superseded by ADR-0002`` is the decision's (a real log: 48 records read
    accepted; survey 7). A word read through no alias in the frontmatter always stands."""
    root = tmp_path / "docs" / "adr"
    root.mkdir(parents=True)
    (root / "0001-a.md").write_text(f"---\n{front}---\n# ADR-0001: A\n\n{body}", "utf-8")
    (root / "0002-b.md").write_text("---\nstatus: accepted\n---\n# ADR-0002: B\n", "utf-8")
    log = load(Config(project_dir=tmp_path, docs_dir=tmp_path / "docs"))
    rec = by_file(log)["0001-a.md"]
    assert (rec.status, rec.raw_status) == (status, raw)
    notes = [p.message for p in log.problems if p.path == rec.path and p.code == "ADR018"]
    assert any("the body's status" in m for m in notes) is note, notes
    assert not [p for p in log.problems if p.severity >= Severity.WARNING and p.path == rec.path]


def test_a_status_section_that_still_offers_the_templates_choice_is_a_placeholder(
    tmp_path: Path,
) -> None:
    """``> Accepted or Rejected`` above the template's list of valid statuses: nothing was
    chosen, so the record has no status (ADR001's placeholder warning), not "accepted"."""
    root = tmp_path / "docs" / "adr"
    root.mkdir(parents=True)
    (root / "ADR004-queue-the-exports.md").write_text(
        "# ADR004: Queue the exports\n\nDate: 2025-02-03\n\n## Status\n\n"
        "> Proposed or Accepted or Rejected\n>\n"
        '> Statuses we use: "Proposed", "Accepted", "Rejected", "Superseded by ADRnnn".\n\n'
        "## Context\n\nExports block the request.\n",
        encoding="utf-8",
    )
    log = load(Config(project_dir=tmp_path, docs_dir=tmp_path / "docs"))
    [rec] = log.records
    assert rec.status == "unknown"
    [problem] = [p for p in log.problems if p.path == rec.path]
    assert (problem.code, problem.severity, problem.line) == ("ADR001", Severity.WARNING, 7)
    assert "the template's unfilled placeholder" in problem.message


def test_page_banner_of_a_placeholder_says_it_is_not_filled_in(words: Log) -> None:
    ctx = page_view.PageContext.build(words)
    got = by_file(words)
    [banner] = page_view.banners(ctx, got["0029-use-terraform.md"], lambda rid: None)
    assert banner == (
        '<div class="admonition warning adr-banner adr-banner--unknown">'
        '<p class="admonition-title">Status not filled in</p><p>The status is still the '
        "template's placeholder <code>{status}</code>, so this page cannot say whether the "
        "decision is in effect.</p></div>"
    )
    [banner] = page_view.banners(ctx, got["0021-try-a-service-mesh.md"], lambda rid: None)
    assert '<p class="admonition-title">Unknown status</p>' in banner


def test_guidance_above_the_real_word_reads_the_word(words: Log) -> None:
    rec = by_file(words)["0027-rotate-secrets-monthly.md"]
    assert (rec.status, rec.raw_status, rec.parsed.status_line) == ("accepted", "Accepted", 9)


def test_status_lines_and_dates_of_the_word_log(words: Log) -> None:
    got = by_file(words)
    assert got["0004-keep-a-changelog.md"].date == "2021-03-04"  # from "Accepted (2021-03-04)"
    assert got["0032-write-runbooks.md"].date == "2021-02-01"  # the Date line wins
    assert got["0013-cache-product-pages.md"].date == "2021-05-06"  # "日期: 2021-05-06"
    assert got["0022-retire-the-ftp-drop.md"].parsed.status_line == 3
    assert got["0025-one-database-per-service.md"].parsed.status_line == 3
    assert got["0035-pool-database-connections.md"].parsed.status_line == 5
    assert got["0035-pool-database-connections.md"].title == "Pool database connections"
    assert got["0036-keep-secrets-in-the-vault.md"].title == "Keep secrets in the vault"


@pytest.mark.parametrize(
    ("raw", "status", "alias", "placeholder"),
    [
        ("Approved.", "accepted", "approved", False),
        ("Accepted!", "accepted", None, False),
        ("**Accepted** (2021-03-04)", "accepted", None, False),
        ("Implemented in v2", "accepted", "implemented", False),
        ("In review", "proposed", "in review", False),
        ("Open", "proposed", "open", False),
        ("Refused", "rejected", "refused", False),
        ("Retired", "deprecated", "retired", False),
        # a log's documented vocabulary: proposed | active | superseded | retired
        ("active", "accepted", "active", False),
        ("Inactive", "unknown", None, False),
        # ... and "Draft | Accepted | Final | Superseded", Final the in-force state
        ("Final", "accepted", "final", False),
        ("✅ Final（裁决型）", "accepted", "final", False),
        ("Finalize later", "unknown", None, False),
        ("已实现", "accepted", "已实现", False),
        ("採用", "accepted", "採用", False),
        ("提案", "proposed", "提案", False),
        ("却下", "rejected", "却下", False),
        ("廃止", "deprecated", "廃止", False),
        ("Aceptada", "accepted", "aceptada", False),
        ("Reemplazado", "superseded", "reemplazado", False),
        ("Aceito", "accepted", "aceito", False),
        ("Substituído", "superseded", "substituído", False),
        ("Proposée", "proposed", "proposée", False),
        ("Obsolète", "deprecated", "obsolète", False),
        ("Remplacé", "superseded", "remplacé", False),
        ("Angenommen", "accepted", "angenommen", False),
        ("Vorgeschlagen", "proposed", "vorgeschlagen", False),
        ("Veraltet", "deprecated", "veraltet", False),
        ("已采纳", "accepted", "已采纳", False),
        ("提议", "proposed", "提议", False),
        ("已拒绝", "rejected", "已拒绝", False),
        ("已废弃", "deprecated", "已废弃", False),
        ("已取代", "superseded", "已取代", False),
        ("Partially Accepted", "accepted", "partially accepted", False),
        ("Partly accepted: the rest waits", "accepted", "partly accepted", False),
        # a link to the review that decided it, or brackets, around the word
        ("[Accepted](https://example.org/pull/541)", "accepted", None, False),
        ('[Deprecated](https://example.org/pull/9 "the review")', "deprecated", None, False),
        ("[Approved]", "accepted", "approved", False),
        ("[**Accepted**](../reviews/12.md) on 2021-03-04", "accepted", None, False),
        ("[Perhaps](https://example.org)", "unknown", None, False),
        ("[x] Accepted", "unknown", None, False),
        # a history of dated steps: the latest that is a status
        ("Proposed on 2021-07-12, Accepted on 2021-08-04", "accepted", None, False),
        ("Accepted on 2021-08-04, Proposed on 2021-07-12", "accepted", None, False),
        ("Accepted 2021-01-01; Deprecated 2022-02-02.", "deprecated", None, False),
        ("Accepted on 2018-08-17. Revisited on 2019-01-01", "accepted", None, False),
        ("Proposed on 2021-07-12, Approved on 2021-08-04", "accepted", "approved", False),
        ("Reviewed on 2021-01-01, Checked on 2022-01-01", "unknown", None, False),
        ("Invalidated on 2021-08-04.", "deprecated", "invalidated", False),
        ("🤔 Incomplete", "draft", "incomplete", False),
        # a later sentence naming the successor is the newer step, a partial one is not
        ("Implemented. Superseded by [ADR-013](./adr-013-x.md)", "superseded", None, False),
        ("Accepted, superseded by ADR-12", "superseded", None, False),
        ("Approved. Replaced by ADR-4", "superseded", None, False),
        (
            "Implemented. Parts of this ADR were superseded by ADR-5",
            "accepted",
            "implemented",
            False,
        ),
        ("Accepted. Partially superseded by ADR-5", "accepted", None, False),
        ("Rejected, replaced by ADR-6", "rejected", None, False),
        ("Deprecated. Replaced by ADR-7", "deprecated", None, False),
        ("Proposed. Superseded by ADR-8 before a vote", "superseded", None, False),
        ("Accepted; supersedes ADR-0045", "accepted", None, False),
        # a word that only starts like a status, or a field, is not one
        ("Donezo", "unknown", None, False),
        ("Review by: 2026-01-01", "unknown", None, False),
        ("Perhaps", "unknown", None, False),
        # template guidance and placeholders
        ("{Proposed|Accepted}", "unknown", None, True),
        ("proposed | accepted", "unknown", None, True),
        ("[proposed | rejected | accepted]", "unknown", None, True),
        ("{status}", "unknown", None, True),
        ("Describe the status: proposed, accepted or rejected", "unknown", None, True),
        # the template's choice of status words joined by "or", left unfilled
        ("Accepted or Rejected", "unknown", None, True),
        ("proposed or accepted or rejected", "unknown", None, True),
        ("**Draft** or **Proposed**", "unknown", None, True),
        ("Accepted or not, it ships", "accepted", None, False),
        ("", "missing", None, False),
    ],
)
def test_normalize_status(raw: str, status: str, alias: str | None, placeholder: bool) -> None:
    from mkdocs_adr.config import DEFAULT_ALIASES

    got = normalize_status(raw, DEFAULT_ALIASES)
    assert (got.status, got.alias, got.placeholder) == (status, alias, placeholder)


def test_guidance_rule() -> None:
    assert is_guidance('> A decision may be "proposed" if the stakeholders have not agreed')
    assert not is_guidance("> Accepted")  # a quoted status word is the status
    assert not is_guidance("Accepted. It was proposed in May and rejected once before.")
    assert not is_guidance("Superseded by ADR-0005")


def test_user_alias_overrides_and_extends_the_built_in_table(tmp_path: Path) -> None:
    root = tmp_path / "docs" / "adr"
    root.mkdir(parents=True)
    (root / "0001-a.md").write_text("# 1. A\n\n## Status\n\nShipped\n", encoding="utf-8")
    (root / "0002-b.md").write_text("# 2. B\n\n## Status\n\nDone\n", encoding="utf-8")
    log = load(
        Config(
            project_dir=tmp_path,
            docs_dir=tmp_path / "docs",
            status_aliases={"Shipped": "accepted", "done": "deprecated"},
        )
    )
    got = by_file(log)
    assert (got["0001-a.md"].status, got["0001-a.md"].parsed.alias) == ("accepted", "shipped")
    assert (got["0002-b.md"].status, got["0002-b.md"].parsed.alias) == ("deprecated", "done")


def test_supersede_keeps_the_guidance_and_replaces_the_word(tmp_path: Path) -> None:
    """Round trip through the writer: the status paragraph under the guidance is replaced."""
    work = tmp_path / "words"
    shutil.copytree(HERE / "words", work)
    command = ["supersede", "ADR-0027", "--by", "ADR-0005", "--root", "docs/adr"]
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", *command],
        cwd=work,
        env=env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    text = (work / "docs/adr/0027-rotate-secrets-monthly.md").read_text(encoding="utf-8")
    assert (
        "## Status\n\n"
        '> A decision may be "proposed" if the project stakeholders haven\'t agreed with it '
        "yet.\n\n"
        "Superseded by [5. Adopt trunk-based development](0005-adopt-trunk-based-development.md)"
        "\n\n## Context"
    ) in text
    after = by_file(
        load(from_options({}, project_dir=work, docs_dir=work / "docs", config_file=None))
    )
    old = after["0027-rotate-secrets-monthly.md"]
    assert old.status == "superseded"
    assert [(r.kind, r.target_id) for r in old.relations if r.kind != "mentions"] == [
        ("superseded-by", "ADR-0005")
    ]


def test_check_reports_words_log_problems_as_json() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", "check", "--json", "--root", "docs/adr"],
        cwd=HERE / "words",
        env=env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr  # warnings only: below the default error threshold
    data = json.loads(run.stdout)
    found = {(p["path"].rsplit("/", 1)[-1], p["code"], p["severity"]) for p in data["problems"]}
    expected = {
        (name, code, severity) for name, want in WORDS.items() for code, severity in want[4]
    }
    assert expected <= found
    assert not {f for f in found if f[1] in ("ADR001", "ADR018", "ADR020")} - expected


# --------------------------------------------------------------------------- dates

#: file -> (date, raw date)
DATES: dict[str, tuple[str, str]] = {
    "0001-use-structured-logging.md": ("2022-07-13", "2022-07-13"),
    "0002-use-a-message-queue.md": ("2022-07-13", "2022-07-13"),
    "0003-adopt-typescript.md": ("2019-09-04", "September 4, 2019"),
    "0004-use-s3-for-uploads.md": ("2020-09-02", "02/09/2020"),
    "0005-use-redis-for-rate-limits.md": ("2020-09-25", "09/25/2020"),
    "0006-ship-a-mobile-app.md": ("2023-04-11", "11-April-2023"),
    "0007-drop-internet-explorer.md": ("2023-04-11", "April 11, 2023"),
    "0008-plan-the-2026-roadmap.md": ("2026-01-01", "January, 2026"),
    "0009-freeze-the-public-api.md": ("2026-01-01", "January 2026"),
    "0010-use-semantic-versioning.md": ("2021-02-03", "2021-02-03"),
    "0011-keep-runbooks-in-git.md": ("2024-05-01", "2024-05-01"),
    "0012-use-oauth-for-partners.md": ("2020-05-06", "2020-05-06"),
    "0013-use-a-cdn.md": ("2020-06-07", "2020-06-07"),
    "0014-store-money-as-integers.md": ("2020-05-06", "2020-05-06"),
    "0015-use-feature-branches.md": ("2021-01-01", "2021-01-01"),
    "0016-name-services-by-domain.md": ("2021-01-02", "2021-01-02"),
    "0017-use-one-ci-system.md": ("2021-01-03", "2021-01-03"),
    "0018-run-migrations-at-deploy.md": ("2021-03-05", "2021-03-05 (moved from 04/03/2021)"),
    "0019-archive-build-logs-monthly.md": ("2018-11-01", "2018-11"),
    "0020-tag-container-images-by-commit.md": ("2022-03-30", "2022-03-30"),  # Introduced:
    "0021-rotate-signing-keys-yearly.md": ("2022-05-13", "20220513"),  # basic ISO, whole
}

#: The styles the dates log's records are read in (the date keys are read in all of them).
DATE_STYLES = {
    "0001-use-structured-logging.md": "madr2",
    "0014-store-money-as-integers.md": "madr",
    "0016-name-services-by-domain.md": "inline",
    "0017-use-one-ci-system.md": "table",
}


def test_every_date_form_reads_exactly() -> None:
    log = root_log("dates")
    got = by_file(log)
    assert sorted(got) == sorted(DATES)
    for name, (date, raw) in DATES.items():
        rec = got[name]
        assert (rec.date, rec.parsed.raw_date) == (date, raw), name
        assert rec.style == DATE_STYLES.get(name, "nygard"), name
        assert rec.status == "accepted", name
    assert log.problems == ()


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("02/09/2020", "2020-09-02"),  # day-first
        ("13/09/2020", "2020-09-13"),
        ("09/13/2020", "2020-09-13"),  # month-first only when the day cannot be a month
        ("02-09-2020", "2020-09-02"),
        ("02.09.2020", "2020-09-02"),
        ("11-April-2023", "2023-04-11"),
        ("11 Apr 2023", "2023-04-11"),
        ("Apr 11th, 2023", "2023-04-11"),
        ("January, 2026", "2026-01-01"),
        ("Sept 2019", "2019-09-01"),
        ("2018-11", "2018-11-01"),  # ISO's year and month, like a named month
        ("2018-11 (after the outage)", "2018-11-01"),
        ("2018-13", None),
        ("12-2018-11", None),  # not a year and month: part of something longer
        ("2021-03-05, first written 04/03/2021", "2021-03-05"),  # ISO wins
        ("Spring 2022", None),
        ("31/02/2020", None),
        ("20220513", "2022-05-13"),  # ISO's basic form, the whole value
        ("20221313", None),
        ("12345678", None),  # not a year of this era: a number
        ("see 20220513", None),  # inside a text: a slug or a number, not the date
        # a two-digit year, as the whole value: day-first, this century (survey 7: 3 records
        # of two real logs had no date)
        ("10/04/18", "2018-04-10"),
        ("10.04.18", "2018-04-10"),
        ("12/25/19", "2019-12-25"),
        ("31/02/20", None),
        ("Accepted in 1.2.10", None),  # inside a text: a release, not a day
    ],
)
def test_date_rules(text: str, iso: str | None) -> None:
    assert parse_date(text) == iso


def test_portuguese_data_is_the_date_only_when_it_holds_one(tmp_path: Path) -> None:
    """adr-tools translated to Portuguese writes ``Data: 2019-02-22`` under the title (a
    real log of 7 read no date); an English ``Data:`` label is about data, no raw date."""
    root = tmp_path / "docs" / "adr"
    root.mkdir(parents=True)
    records = {
        "0001-usar-filas.md": "# 1. Usar filas\n\nData: 2019-02-22\n\n## Status\n\nAceito\n",
        "0002-keep-uploads.md": (
            "# 2. Keep uploads\n\nData: we keep it in S3\n\n## Status\n\nAccepted\n"
        ),
        "0003-expire-uploads.md": (
            "# 3. Expire uploads\n\nData: kept for a year\nCreated: 2021-06-07\n\n"
            "## Status\n\nAccepted\n"
        ),
    }
    for name, body in records.items():
        (root / name).write_text(body, encoding="utf-8")
    log = load(Config(project_dir=tmp_path, docs_dir=tmp_path / "docs"))
    got = by_file(log)
    assert [(got[n].date, got[n].parsed.raw_date) for n in records] == [
        ("2019-02-22", "2019-02-22"),
        (None, None),
        ("2021-06-07", "2021-06-07"),
    ]
    assert [(p.code, p.path.rsplit("/", 1)[-1]) for p in log.problems] == [
        ("ADR018", "0001-usar-filas.md")  # (Aceito read as accepted)
    ]


# --------------------------------------------------------------------------- no status

NOSTATUS = HERE / "nostatus"


def test_records_without_status_are_an_info_note_not_a_warning() -> None:
    log = site_log(NOSTATUS)
    assert len(log.records) == 5
    assert {r.status for r in log.records} == {"missing"}
    assert (
        sorted((p.code, p.severity.label, p.message) for p in log.problems)
        == [("ADR020", "info", "status not recorded")] * 5
    )
    for p in log.problems:
        assert "'## Status'" in p.fix and "missing_status" in p.fix
    assert not any(log.in_effect(r) for r in log.records)


@pytest.mark.parametrize(
    ("counted", "in_effect", "shown"),
    [
        ("missing", False, ("open", "")),
        ("accepted", True, ("summarized", SECTION_DECISIONS)),
        ("proposed", False, ("open", SECTION_PROPOSALS)),
    ],
)
def test_missing_status_option_says_how_they_count(
    counted: str, in_effect: bool, shown: tuple[str, str]
) -> None:
    log = site_log(NOSTATUS, missing_status=counted)
    for rec in log.records:
        assert rec.status == "missing"  # what the record says is kept
        assert log.status_of(rec) == counted
        assert log.in_effect(rec) is in_effect
        entry = Entry(rec.id, None, rec.path, rec.sha256, rec.status, "member", rec)
        assert disposition(log, entry, set()) == shown
    # the problems do not change with the option
    assert {p.code for p in log.problems} == {"ADR020"}


def test_a_missing_status_successor_retires_its_predecessor_only_when_counted_accepted() -> None:
    graph = RelationGraph({"A": "accepted", "B": "missing"})
    graph.add("B", "supersedes", "A", "frontmatter")
    assert graph.successor("A").state == "not-accepted"
    counted = RelationGraph({"A": "superseded", "B": "missing"}, missing_as="accepted")
    counted.add("B", "supersedes", "A", "frontmatter")
    assert counted.successor("A").current == "B"
    assert counted.in_effect("B") and not counted.in_effect("A")
    assert counted.statuses["B"] == "missing"


@pytest.mark.parametrize(
    ("counted", "sentence"),
    [
        ("missing", "This record does not state its status. It is not counted as in effect."),
        (
            "accepted",
            "This record does not state its status. This site counts such records as "
            "accepted, in effect (missing_status).",
        ),
        (
            "proposed",
            "This record does not state its status. This site counts such records as "
            "proposals, not in effect (missing_status).",
        ),
    ],
)
def test_page_banner_is_a_quiet_note(counted: str, sentence: str) -> None:
    log = site_log(NOSTATUS, missing_status=counted)
    ctx = page_view.PageContext.build(log)
    rec = log.records[0]
    [banner] = page_view.banners(ctx, rec, lambda rid: None)
    assert banner == (
        '<div class="admonition note adr-banner adr-banner--missing">'
        f'<p class="admonition-title">Status not recorded</p><p>{sentence}</p></div>'
    )
    assert ">not recorded</span>" in page_view.badge(rec.status)


def test_index_says_not_recorded() -> None:
    log = site_log(NOSTATUS)
    text = index_view.render(log, log.roots[0])
    assert "5 records (5 not recorded); 0 archived." in text
    assert (
        "| [ADR-0002](0002-use-react-for-the-storefront.md) | Use React for the storefront "
        "| not recorded | 2022-03-01 |  |"
    ) in text
    assert "missing" not in text


def test_mkdocs_build_strict_passes_on_a_log_without_statuses(tmp_path: Path) -> None:
    site = tmp_path / "nostatus"
    shutil.copytree(NOSTATUS, site)
    run = run_mkdocs("build", "--strict", cwd=site, env=env())
    assert run.returncode == 0, run.stderr
    assert "ADR020 status not recorded" in run.stderr
    assert "WARNING" not in run.stderr
    page = (site / "site/decisions/0003-use-stripe-for-payments/index.html").read_text("utf-8")
    assert '<p class="admonition-title">Status not recorded</p>' in page
    assert "admonition warning" not in page
    index = (site / "site/decisions/INDEX/index.html").read_text("utf-8")
    assert ">not recorded</span></td>" in index
    graph = (site / "site/decisions/GRAPH/index.html").read_text("utf-8")
    assert "5 records (5 not recorded)." in graph
    assert "ADR-0003 Use Stripe for payments (not recorded)" in graph
    assert "(missing)" not in graph


def test_check_and_plan_cli_on_a_log_without_statuses() -> None:
    for command in (["check", "--json"], ["plan", "--json"]):
        run = subprocess.run(
            [sys.executable, "-m", "mkdocs_adr", *command],
            cwd=NOSTATUS,
            env=env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, (command, run.stderr)
        data = json.loads(run.stdout)
        assert (
            sorted((p["code"], p["severity"]) for p in data["problems"]) == [("ADR020", "info")] * 5
        ), command
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", "check", "--fail-on", "info"],
        cwd=NOSTATUS,
        env=env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1  # the note is there for whoever asks for it


def test_the_alias_table_of_formats_md_is_the_built_in_table() -> None:
    """Every word the guide's alias table names maps to its row's status."""
    import re

    from mkdocs_adr.config import DEFAULT_ALIASES

    guide = (REPO / "docs" / "guide" / "formats.md").read_text("utf-8")
    part = guide[guide.index("### Status words") : guide.index("## Dates")]
    rows = re.findall(r"^\| `([a-z]+)` \| (.+) \|$", part, re.M)
    assert [status for status, _ in rows] == [
        "accepted",
        "proposed",
        "draft",
        "rejected",
        "deprecated",
        "superseded",
    ]
    for status, words in rows:
        named = re.findall(r"`([^`]+)`", words)
        assert len(named) >= 5, status
        for word in named:
            assert DEFAULT_ALIASES.get(word) == status, (word, status)


def test_a_status_bullet_deep_in_the_body_gives_way_to_the_records_own_status(
    tmp_path: Path,
) -> None:
    """A ``- **Status**:`` bullet under a later section describes a part (a component's
    rollout), not the record: the ``## Status`` section, or a status line under the title,
    is the record's status. A MADR 2 bullet under the title still is one."""
    root = tmp_path / "docs" / "adr"
    root.mkdir(parents=True)
    parts = "## Rollout\n\n- Gateway\n   - **Status**: built, not yet deployed\n- Summary\n"
    (root / "adr-001-route-through-a-gateway.md").write_text(
        "# ADR-001: Route through a gateway\n\n## Status\n\n**Accepted** - March 3, 2025\n\n"
        "## Context\n\nCalls fan out.\n\n" + parts + "\n- **Status**: Implemented\n",
        encoding="utf-8",
    )
    (root / "adr-002-cache-at-the-edge.md").write_text(
        "# ADR-002: Cache at the edge\n\nStatus: Proposed\n\n## Context\n\nSlow pages.\n\n" + parts,
        encoding="utf-8",
    )
    (root / "adr-003-sign-the-images.md").write_text(
        "# ADR-003: Sign the images\n\n* Status: rejected\n* Date: 2025-03-04\n\n"
        "## Context\n\nUnsigned images.\n\n" + parts,
        encoding="utf-8",
    )
    log = load(Config(project_dir=tmp_path, docs_dir=tmp_path / "docs"))
    got = {r.id: (r.style, r.status, r.raw_status, r.parsed.status_line) for r in log.records}
    assert got == {
        "ADR-0001": ("nygard", "accepted", "**Accepted** - March 3, 2025", 5),
        "ADR-0002": ("inline", "proposed", "Proposed", 3),
        "ADR-0003": ("madr2", "rejected", "rejected", 3),
    }
    assert [(p.code, p.path) for p in log.problems if p.severity >= Severity.WARNING] == []
