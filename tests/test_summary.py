"""`plan --mode summary`: the deterministic draft, its manifest, partial scopes, refusals."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from mkdocs_adr import manifest as mf
from mkdocs_adr.paths import is_normalized
from mkdocs_adr.summary import bound, extract_blocks, rebase_links, tame

from .conftest import LOGS, tree_digest
from .test_summary_support import (
    check,
    cli_json,
    confirm,
    copy_site,
    draft,
    invoke,
    publish,
    run,
)

ADR = "docs/adr"


def review_text(site: Path, plan_id: str, rel: str = f"{ADR}/CURRENT.md") -> str:
    return (site / ".mkdocs-adr/plans" / plan_id / "review" / rel).read_text(encoding="utf-8")


def staged_manifest(site: Path, plan_id: str, rel: str = f"{ADR}/{mf.FILENAME}") -> mf.Manifest:
    plan = json.loads((site / ".mkdocs-adr/plans" / plan_id / "plan.json").read_text("utf-8"))
    step = next(s for s in plan["steps"] if s["path"] == rel)
    data = (site / ".mkdocs-adr/plans" / plan_id / "staged" / step["after"]).read_bytes()
    return mf.parse(data, where=rel)


# -------------------------------------------------------------------------- the draft


def test_dry_run_reports_and_writes_nothing(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    before = tree_digest(tmp_path)
    code, data = cli_json("-f", str(site / "mkdocs.yml"), "plan", "--mode", "summary", "--dry-run")
    assert code == 0
    assert data["dry_run"] is True and data["saved"] is False
    assert data["plan_id"].startswith("summary-")
    assert [w["path"] for w in data["writes"]] == [
        f"{ADR}/CURRENT.md",
        f"{ADR}/{mf.FILENAME}",
        f"{ADR}/INDEX.md",
    ]
    [root] = data["roots"]
    assert root["action"] == "create" and root["published_state"] == "absent"
    assert {row["source"] for row in root["coverage"]} >= {"ADR-0001", "ADR-0004"}
    proc = run(
        "-f", str(site / "mkdocs.yml"), "plan", "--mode", "summary", "--dry-run", cwd=tmp_path
    )
    assert proc.returncode == 0 and "Nothing was written." in proc.stdout
    assert "plan_id summary-" in proc.stdout
    assert tree_digest(tmp_path) == before


def test_flat_draft_has_every_part(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    plan_id = draft(site)
    text = review_text(site, plan_id)
    assert text.startswith("<!-- mkdocs-adr:current-view")
    for heading in (
        "# Current decisions",
        "## Decisions in effect",
        "## Open proposals",
        "## Problems and conflicts",
        "## Coverage",
        "## Sources",
    ):
        assert f"\n{heading}\n" in text, heading
    assert "It decides nothing" in text and "proves nothing about the code" in text
    decisions = text.split("## Decisions in effect")[1].split("## Open proposals")[0]
    # every accepted record, with its Decision text and a link to it
    for rid, name, words in (
        ("ADR-0001", "0001-record-architecture-decisions.md", "Architecture Decision Records"),
        ("ADR-0004", "0004-store-notes-in-postgresql.md", "managed PostgreSQL 15"),
        ("ADR-0005", "0005-encrypt-note-bodies-at-rest.md", "per-account data key"),
        ("ADR-0006", "0006-use-websockets-for-sync.md", "WebSocket"),
        ("ADR-0009", "0009-publish-the-decision-log-with-mkdocs.md", "mkdocs-adr plugin"),
    ):
        assert f"[{rid}]({name})" in decisions and words in decisions, rid
        assert f"<!-- mkdocs-adr:source {rid} -->" in decisions
    # out of effect records are history: in the coverage, not in the decisions
    for rid in ("ADR-0003", "ADR-0007", "ADR-0008"):
        assert rid not in decisions
        assert re.search(rf"\| {rid} \| \w+ \| (retained|archive-candidate) \| History", text)
    manifest = staged_manifest(site, plan_id)
    assert manifest.summary_sha256 == mf.text_sha256(text.encode())
    assert manifest.scope.kind == "root" and manifest.scope.rechecked == ()
    assert set(manifest.members) == {
        "ADR-0001",
        "ADR-0003",
        "ADR-0004",
        "ADR-0005",
        "ADR-0006",
        "ADR-0007",
        "ADR-0008",
        "ADR-0009",
    }
    assert {s.key: s.disposition for s in manifest.sources}["ADR-0004"] == "summarized"
    assert all(is_normalized(s.path) for s in manifest.sources)


def test_layered_draft_units_proposals_and_roots(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "layered")
    plan_id = draft(site)
    text = review_text(site, plan_id)
    decisions = text.split("## Decisions in effect")[1].split("## Open proposals")[0]
    proposals = text.split("## Open proposals")[1].split("## Problems and conflicts")[0]
    assert "### Platform" in decisions and "### Data" in decisions
    for unit in ("ADR-0002#D1", "ADR-0002#D2", "ADR-0002#D3"):
        assert f"[{unit}](platform/0002-platform-baseline.md)" in decisions.replace("\\#", "#")
    assert "Each service owns a PostgreSQL database" in decisions
    assert "Status: accepted" not in decisions
    assert "ADR-0010" in proposals and "(proposed)" in proposals
    assert "ADR-0010" not in decisions
    # links in decision text are rebased from the record's folder to the root
    assert "](platform/" in decisions
    # the module root gets its own view, linked from the system root
    pay = review_text(site, plan_id, "docs/services/payments/adr/CURRENT.md")
    assert "PAY-0003" in pay.split("## Open proposals")[1]
    assert "../services/payments/adr/CURRENT.md" in text
    manifest = staged_manifest(site, plan_id)
    parts = {s.key: s.part for s in manifest.sources}
    assert parts["ADR-0002#D1"] == "Decisions in effect / Platform"
    assert parts["ADR-0010"] == "Open proposals"
    assert parts["ADR-0006"] == "History (not in this view)"


def test_problems_and_hostile_text(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    (site / ADR / "0010-x.md").write_text(
        "# 10. <img src=x onerror=alert(1)> title\n\nDate: 2024-01-01\n\n## Status\n\n"
        "Accepted\n\n## Decision\n\n### Details\n\nWe use <script>alert(1)</script> and `<b>` "
        "in code, see [four](0004-store-notes-in-postgresql.md).\n\n" + "Long text. " * 300,
        encoding="utf-8",
    )
    (site / ADR / "0011-y.md").write_text(
        "# 11. Maybe\n\nDate: 2024-01-01\n\n## Status\n\nPerhaps\n\n## Decision\n\nY.\n",
        encoding="utf-8",
    )
    plan_id = draft(site)
    text = review_text(site, plan_id)
    assert "<script>" not in text and "<img" not in text
    assert "&lt;script>" in text and "`<b>`" in text
    assert "**Details**" in text and "### Details" not in text
    assert "read the full decision" in text and " …" in text
    problems = text.split("## Problems and conflicts")[1].split("## Coverage")[0]
    assert "**ADR001**" in problems and "Perhaps" in problems
    assert re.search(r"\| ADR-0011 \| unknown \| open \| Problems and conflicts", text)


def test_text_helpers() -> None:
    assert rebase_links(
        "see [a](0001-a.md#x) and ![i](img.png) and [w](https://x.y/a.md)", "platform"
    ) == ("see [a](platform/0001-a.md#x) and ![i](platform/img.png) and [w](https://x.y/a.md)")
    assert rebase_links("[up](../data/0002-b.md)", "platform") == "[up](data/0002-b.md)"
    assert tame("```\n<x>\n## h") == "```\n<x>\n## h\n```"
    text, cut = bound("para one.\n\npara two " * 100, 200)
    assert cut and len(text) <= 202 and text.endswith(" …")
    assert bound("short", 100) == ("short", False)
    blocks = extract_blocks("<!-- mkdocs-adr:source A-1 -->\nbody\n<!-- mkdocs-adr:end A-1 -->\n")
    assert blocks == {"A-1": "body"}


# -------------------------------------------------------------------------- partial scopes


def test_partial_scope_keeps_published_parts_and_marks_them(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "layered")
    publish(site)
    current = site / ADR / "CURRENT.md"
    # a reviewer's wording in the platform part of the published page
    published = current.read_text(encoding="utf-8")
    reviewed = published.replace(
        "and is deployed with Helm.", "and is deployed with Helm (reviewed wording)."
    )
    assert reviewed != published
    # publish the reviewed wording through a plan, as a reviewer would
    plan_id = draft(site)
    review = site / ".mkdocs-adr/plans" / plan_id / "review" / ADR / "CURRENT.md"
    review.write_text(reviewed, encoding="utf-8")
    confirm(site, plan_id)
    assert "(reviewed wording)" in current.read_text(encoding="utf-8")
    # a data record changes; a data-only plan re-checks data and keeps platform as reviewed
    rec = site / ADR / "data/0008-use-bigquery-for-analytics.md"
    rec.write_text(
        rec.read_text(encoding="utf-8").replace("BigQuery", "BigQuery (EU)", 1), encoding="utf-8"
    )
    plan_id = draft(site, "--domain", "data")
    text = review_text(site, plan_id)
    assert "(reviewed wording)" in text
    assert "BigQuery (EU)" in text
    assert "This version re-checked domain data." in text
    assert "*Kept from the view published" in text
    manifest = staged_manifest(site, plan_id)
    assert manifest.scope.kind == "root"  # the view still covers the whole root
    # ADR-0002 is related to data, but a member of the whole view: kept as a member
    assert set(manifest.scope.rechecked) == {"ADR-0005", "ADR-0006", "ADR-0008"}
    confirm(site, plan_id)
    assert check(site)[1]["views"]["current"]["state"] == "fresh"
    # the kept note is not repeated by the next partial plan
    plan_id = draft(site, "--sources", "ADR-0004")
    again = review_text(site, plan_id)
    block = extract_blocks(again)["ADR-0001"]
    assert block.count("*Kept from the view published") == 1


def test_partial_scope_keeps_a_stale_part_stale(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "layered")
    publish(site)
    rec = site / ADR / "platform/0001-run-services-on-kubernetes.md"
    rec.write_text(rec.read_text(encoding="utf-8").replace("Helm", "Kustomize"), encoding="utf-8")
    plan_id = draft(site, "--domain", "data")
    text = review_text(site, plan_id)
    assert "keep this view stale: ADR-0001" in text
    confirm(site, plan_id)
    current = check(site)[1]["views"]["current"]
    assert current["state"] == "stale"
    assert [(r["kind"], r["ids"]) for r in current["reasons"]] == [("modified", ["ADR-0001"])]


# -------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("args", "code", "needles"),
    [
        (
            ["--mode", "summary", "--domain", "data", "--sources", "ADR-0001"],
            2,
            ["--domain and --sources exclude each other"],
        ),
        (
            ["--mode", "summary", "--sources", "ADR-0003,ADR-0099,PAY-9,3,ADR-0002#D1"],
            2,
            [
                "ADR-0003 is archived",
                "(nearest valid: ADR-0002, ADR-0004",
                "'ADR-0099' is not the id of any record",
                "(nearest valid: ADR-0010",
                "'PAY-9' is not the id",
                "PAY-0003",
                "'3' is ambiguous: it could be ADR-0003, PAY-0003",
                "'ADR-0002#D1' names a decision unit",
            ],
        ),
        (
            ["--mode", "summary", "--domain", "dat"],
            2,
            ["no unarchived record", "did you mean data"],
        ),
        (["--mode", "summary", "--sources", " , "], 2, ["--sources is empty"]),
        (["--confirm", "summary-x", "--mode", "summary"], 2, ["--confirm cannot be combined"]),
        (["--confirm", "summary-x", "--domain", "data"], 2, ["--confirm cannot be combined"]),
        (["--confirm", "summary-x", "--dry-run"], 2, ["--confirm cannot be combined"]),
        (["--confirm", "summary-x", "--rollback", "y"], 2, ["exclude each other"]),
        (["--rollback", "summary-x", "--mode", "summary"], 2, ["--rollback cannot be combined"]),
        (["--mode", "summary", "--archive"], 2, ["--archive belongs to --mode consolidate"]),
        (["--mode", "consolidate", "--adopt"], 2, ["--adopt only applies to --mode summary"]),
        (["--mode", "summary", "--group-by", "tag"], 2, ["--group-by only applies"]),
        (["--archive"], 2, ["--archive only applies to --mode consolidate"]),
        (["--domain", "data"], 2, ["not built yet", "--mode summary"]),
        (["--adopt"], 2, ["--adopt only applies to --mode summary"]),
        (["--confirm", "summary-nope"], 3, ["no plan 'summary-nope'"]),
        (["--mode", "summary", "--bogus"], 2, ["No such option"]),
    ],
)
def test_refusals(tmp_path: Path, args: list[str], code: int, needles: list[str]) -> None:
    site = copy_site(tmp_path, "layered")
    before = tree_digest(tmp_path)
    got, out, err = invoke("-f", str(site / "mkdocs.yml"), "plan", *args)
    assert got == code, (out, err)
    for needle in needles:
        assert needle in err, (needle, err)
    assert "Traceback" not in err
    assert tree_digest(tmp_path) == before
    proc = run("-f", str(site / "mkdocs.yml"), "plan", *args, cwd=tmp_path)
    assert proc.returncode == code and needles[0] in proc.stderr
    assert "Traceback" not in proc.stderr


def test_user_owned_current_is_never_overwritten(tmp_path: Path) -> None:
    # the layered fixture log carries a hand-written CURRENT.md; no mkdocs.yml: --root
    project = tmp_path / "proj"
    shutil.copytree(LOGS / "layered", project, symlinks=True)
    theirs = (project / "adr/CURRENT.md").read_bytes()
    before = tree_digest(project)
    proc = run("--root", "adr", "plan", "--mode", "summary", cwd=project)
    assert proc.returncode == 3, proc.stderr
    assert "adr/CURRENT.md:1: not published by mkdocs-adr" in proc.stderr
    assert "never overwritten" in proc.stderr and "--adopt" in proc.stderr
    assert tree_digest(project) == before
    # adopting it is explicit, reviewed and confirmed
    proc = run("--root", "adr", "plan", "--mode", "summary", "--adopt", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "ADOPTS and replaces adr/CURRENT.md" in proc.stdout
    plan_id = re.search(r"plan_id (summary-\w+)", proc.stdout).group(1)  # type: ignore[union-attr]
    assert (project / "adr/CURRENT.md").read_bytes() == theirs
    kept = project / ".mkdocs-adr/plans" / plan_id / "adopted/adr/CURRENT.md"
    assert kept.read_bytes() == theirs
    proc = run("--root", "adr", "plan", "--confirm", plan_id, cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert (project / "adr/CURRENT.md").read_text("utf-8").startswith("<!-- mkdocs-adr:")
    _code, data = cli_json("--root", str(project / "adr"), "check", cwd=project)
    assert data["views"]["current"]["state"] == "fresh"


def test_current_written_by_someone_after_planning_is_not_overwritten(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    plan_id = draft(site)
    (site / ADR / "CURRENT.md").write_text("# Ours\n", encoding="utf-8")
    code, _out, err = invoke("-f", str(site / "mkdocs.yml"), "plan", "--confirm", plan_id)
    assert code == 3 and "docs/adr/CURRENT.md is not as planned" in err
    assert (site / ADR / "CURRENT.md").read_text(encoding="utf-8") == "# Ours\n"


def test_a_missing_root_folder_is_never_created(tmp_path: Path) -> None:
    site = copy_site(tmp_path, "flat")
    yml = site / "mkdocs.yml"
    yml.write_text(
        yml.read_text("utf-8").replace("  - adr\n", "  - adr:\n      roots: [adr, nothere]\n"),
        encoding="utf-8",
    )
    plan_id = draft(site)
    confirm(site, plan_id)
    assert (site / ADR / "CURRENT.md").exists()
    assert not (site / "docs/nothere").exists()
