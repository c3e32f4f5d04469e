"""Shapes met in public ADR logs during the issue-11 survey, after the six packages landed.

Each fixture record is written in our own words in the shape a public log uses (emoji
statuses with a successor link but no "by", a status that only says "Partly superseded",
"Reverted by" a discussion, adr-NNN files in nested folders, "Implemented (moved ...)",
template guidance before a placeholder, MADR's "on hold" and records without a status).
The readings are exact: a wrong one here is a wrong banner, INDEX row or agent answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from mkdocs_adr.config import Config
from mkdocs_adr.parsing.options import ParseOptions
from mkdocs_adr.parsing.reader import parse

from .conftest import load_json, run_cli, run_mkdocs

#: id -> (status, relations as (kind, target), domain)
READINGS: dict[str, tuple[str, list[tuple[str, str]], str | None]] = {
    "ADR-0004": ("superseded", [("superseded-by", "ADR-0009")], None),
    "ADR-0009": ("accepted", [("supersedes", "ADR-0004")], None),
    "ADR-0011": ("superseded", [], None),
    "ADR-0012": ("accepted", [], None),
    "ADR-0013": ("deprecated", [("relates-to", "https://example.org/discussions/7")], None),
    "ADR-0101": ("accepted", [], None),
    "ADR-0105": ("deprecated", [], None),
    "ADR-0019": ("accepted", [], "core"),
    "ADR-0036": ("unknown", [], "core"),
    "ADR-0045": ("accepted", [("partially-supersedes", "ADR-0019")], "core"),
    "MADR-0003": ("proposed", [], None),
    "MADR-0004": ("missing", [], None),
}

PROBLEMS = [
    ("ADR001", "warning", "docs/tendermint/core/adr-036-empty-blocks.md"),
    ("ADR003", "info", "docs/emoji/0013-move-search-to-a-managed-service.md"),
    ("ADR018", "info", "docs/emoji/0012-network-outline.md"),
    ("ADR018", "info", "docs/emoji/0013-move-search-to-a-managed-service.md"),
    ("ADR018", "info", "docs/madr/0003-offer-own-tooling.md"),
    ("ADR018", "info", "docs/tendermint/adr-105-refactor-senders.md"),
    ("ADR018", "info", "docs/tendermint/core/adr-019-multisig-keys.md"),
    ("ADR018", "info", "docs/tendermint/core/adr-045-check-tx-results.md"),
    ("ADR020", "info", "docs/madr/0004-write-titles-in-imperative.md"),
]


def test_plan_reads_every_surveyed_shape(copy_log: Callable[[str], Path]) -> None:
    project = copy_log("surveyed")
    proc = run_cli("plan", "--json", cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = load_json(proc.stdout)
    got = {
        r["id"]: (
            r["status"],
            [(x["kind"], x.get("target")) for x in r.get("relations", [])],
            r.get("domain"),
        )
        for r in data["records"]
    }
    assert got == READINGS
    problems = sorted((p["code"], p["severity"], p["path"]) for p in data["problems"])
    assert problems == PROBLEMS


def test_default_build_passes_and_pages_say_what_the_records_mean(
    copy_log: Callable[[str], Path], tmp_path: Path
) -> None:
    project = copy_log("surveyed")
    site = tmp_path / "site"
    proc = run_mkdocs("build", "-d", str(site), cwd=project)
    assert proc.returncode == 0, proc.stderr
    # the only plugin warning is the unfilled template placeholder
    warnings = [ln for ln in proc.stderr.splitlines() if ln.startswith("WARNING -  mkdocs_adr")]
    assert len(warnings) == 1 and "ADR001" in warnings[0] and "adr-036" in warnings[0]

    def text(rel: str) -> str:
        html = (site / rel / "index.html").read_text("utf-8")
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))

    old = text("emoji/0004-use-shell-and-node-for-tooling")
    assert "It was superseded by ADR-0009 Use shell and Go for tooling" in old
    partial = text("tendermint/core/adr-019-multisig-keys")
    assert "Partially superseded by ADR-0045 Results of CheckTx" in partial
    assert "the rest stays in effect" in partial
    assert "Contested" not in partial
    quiet = text("madr/0004-write-titles-in-imperative")
    assert "Status not recorded" in quiet


def test_context_answers_by_every_spelling_of_a_prefixed_file_id(
    copy_log: Callable[[str], Path],
) -> None:
    project = copy_log("surveyed")
    for spelling in ("ADR-045", "adr-45", "ADR 45", "ADR0045", "45"):
        proc = run_cli("context", spelling, "--json", cwd=project)
        assert proc.returncode == 0, (spelling, proc.stdout, proc.stderr)
        assert '"ADR-0045"' in proc.stdout, spelling


OPTIONS = ParseOptions.from_config(Config(project_dir=Path("/"), docs_dir=Path("/")))


def test_a_german_replaces_line_states_no_status_of_its_own() -> None:
    # "ersetzt" alone is "replaced"; "Ersetzt ADR-3" is "replaces ADR-3"
    replaces = parse(
        "# 4. Neu\n\n## Status\n\nErsetzt ADR-0003\n", path="0004-neu.md", options=OPTIONS
    )
    assert replaces.status == "missing"
    assert [(r.kind, r.target) for r in replaces.relations] == [("supersedes", "ADR-0003")]
    replaced = parse("# 5. Alt\n\n## Status\n\nErsetzt\n", path="0005-alt.md", options=OPTIONS)
    assert (replaced.status, replaced.alias) == ("superseded", "ersetzt")
    by = parse(
        "# 6. Alt\n\n## Status\n\nErsetzt durch ADR-0007\n", path="0006-alt.md", options=OPTIONS
    )
    assert by.status == "superseded"
    assert [(r.kind, r.target) for r in by.relations] == [("superseded-by", "ADR-0007")]


def test_a_misspelled_link_whose_text_names_another_record_is_adr022(
    copy_log: Callable[[str], Path],
) -> None:
    # "[0008 - Bill ...](0007-bill-from-the-stream.md)": no such file; its name says 0007
    project = copy_log("relparse/nygard")
    proc = run_cli("check", "--root", "adr", "--json", cwd=project)
    data = load_json(proc.stdout)
    found = [p for p in data["problems"] if p["code"] == "ADR022"]
    assert [(p["path"], p["line"], p["ids"]) for p in found] == [
        ("adr/0006-use-a-message-queue.md", 14, ["ADR-0006", "ADR-0007", "ADR-0008"])
    ]
    assert "0008 - Bill from the event stream" in found[0]["message"]
