"""``mkdocs-adr archive``: eligibility, the preview, applying, conflicts and refusals."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from mkdocs_adr import archive, freshness, journal
from mkdocs_adr.archive import moves, planner
from mkdocs_adr.config import for_root, load_from_mkdocs_yml
from mkdocs_adr.log import load
from mkdocs_adr.views import index as index_view

from .archive_lab import FILES, docs_digest, invoke, json_of, make_lab, nygard, write_tree
from .conftest import LOGS, run_cli

PREVIEW_KEYS = {
    "schema",
    "version",
    "kind",
    "plan_id",
    "plan_version",
    "fingerprint",
    "scope",
    "records",
    "moves",
    "links",
    "index",
    "manifest",
    "redirects",
    "conflicts",
    "risks",
    "ineligible",
    "reverse",
    "writes",
    "blocking",
    "confirm",
    "notes",
}


@pytest.fixture
def lab(tmp_path: Path) -> Path:
    return make_lab(tmp_path / "lab")


def preview(project: Path, *args: str) -> dict:
    code, out, err = invoke("archive", "--json", *args, cwd=project)
    assert code in (0, 1), err
    return json_of(out)


def read(project: Path, rel: str) -> str:
    return (project / rel).read_text(encoding="utf-8")


# --------------------------------------------------------------------- the preview


def test_preview_lists_every_move_link_view_redirect_and_the_reverse(lab: Path) -> None:
    before = docs_digest(lab)
    data = preview(lab)
    assert set(data) == PREVIEW_KEYS
    assert data["schema"] == "mkdocs-adr/archive-plan" and data["kind"] == "archive"
    assert data["plan_id"].startswith("archive-") and data["plan_version"] == 1
    assert data["confirm"] == f"mkdocs-adr plan --confirm {data['plan_id']}"
    assert data["blocking"] == [] and data["conflicts"] == []
    assert [r["id"] for r in data["records"]] == ["ADR-0003", "ADR-0007"]
    polling = data["records"][0]
    assert polling["from"] == "docs/adr/0003-use-polling.md"
    assert polling["to"] == "docs/adr/archive/0003-use-polling.md"
    assert polling["successor"] == "ADR-0006" and polling["status"] == "superseded"
    assert polling["mirrors"] == [
        {
            "from": "docs/adr/zh/0003-use-polling.md",
            "to": "docs/adr/zh/archive/0003-use-polling.md",
        },
        {
            "from": "docs/adr/0003-use-polling.ja.md",
            "to": "docs/adr/archive/0003-use-polling.ja.md",
        },
    ]
    assert polling["url"] == {
        "from": "adr/0003-use-polling/",
        "to": "adr/archive/0003-use-polling/",
    }
    edits = {(e["page"], e["line"], e["old"], e["new"], e["direction"]) for e in data["links"]}
    assert edits == {
        # outbound from the moved record: a link, an image, a page outside the root
        (
            "docs/adr/0003-use-polling.md",
            7,
            "0006-use-websockets.md",
            "../0006-use-websockets.md",
            "outbound",
        ),
        (
            "docs/adr/0003-use-polling.md",
            11,
            "../img/diagram.png",
            "../../img/diagram.png",
            "outbound",
        ),
        ("docs/adr/0003-use-polling.md", 11, "../index.md", "../../index.md", "outbound"),
        # inbound from another record, the README and ordinary pages; anchors kept
        (
            "docs/adr/0006-use-websockets.md",
            9,
            "0003-use-polling.md",
            "archive/0003-use-polling.md",
            "inbound",
        ),
        ("docs/adr/README.md", 3, "0003-use-polling.md", "archive/0003-use-polling.md", "inbound"),
        (
            "docs/index.md",
            3,
            "adr/0003-use-polling.md#decision",
            "adr/archive/0003-use-polling.md#decision",
            "inbound",
        ),
        (
            "docs/guide/sync.md",
            3,
            "../adr/0007-use-crdts.md",
            "../adr/archive/0007-use-crdts.md",
            "inbound",
        ),
        (
            "docs/guide/sync.md",
            5,
            "../adr/0003-use-polling.md",
            "../adr/archive/0003-use-polling.md",
            "inbound",
        ),
        (
            "docs/guide/sync.md",
            7,
            "../adr/0003-use-polling.md#context",
            "../adr/archive/0003-use-polling.md#context",
            "inbound",
        ),
        # mirrors: out of the mirror, and to its original, which moves too
        (
            "docs/adr/zh/0003-use-polling.md",
            5,
            "../0006-use-websockets.md",
            "../../0006-use-websockets.md",
            "outbound",
        ),
        (
            "docs/adr/zh/0003-use-polling.md",
            7,
            "../0003-use-polling.md",
            "../../archive/0003-use-polling.md",
            "both",
        ),
        # the nav of mkdocs.yml names the page
        ("mkdocs.yml", 5, "adr/0003-use-polling.md", "adr/archive/0003-use-polling.md", "inbound"),
    }
    forms = {(e["page"], e["line"]): e["form"] for e in data["links"]}
    assert forms[("docs/guide/sync.md", 5)] == "reference"
    assert forms[("docs/guide/sync.md", 7)] == "html"
    assert data["index"][0]["path"] == "docs/adr/INDEX.md"
    assert data["index"][0]["change"] == "regenerated"
    assert any("archive/0003-use-polling.md" in line for line in data["index"][0]["diff"])
    redirects = {(r["from_url"], r["to_url"], r["redirect_page"]) for r in data["redirects"]}
    assert ("adr/0003-use-polling/", "adr/archive/0003-use-polling/", True) in redirects
    assert ("adr/zh/0003-use-polling/", "adr/zh/archive/0003-use-polling/", False) in redirects
    kinds = {r["kind"] for r in data["risks"]}
    assert {"external-links", "outside-docs"} <= kinds
    assert data["ineligible"] == [
        {
            "id": "ADR-0008",
            "path": "docs/adr/0008-use-rabbitmq.md",
            "eligible": False,
            "reasons": [
                "successor not accepted: ADR-0009 (proposed); ADR-0008 stays in effect until it is"
            ],
        }
    ]
    assert data["reverse"]["command"] == f"mkdocs-adr archive restore {data['plan_id']}"
    assert {"from": "docs/adr/archive/0007-use-crdts.md", "to": "docs/adr/0007-use-crdts.md"} in (
        data["reverse"]["moves"]
    )
    parts = {w["part"] for w in data["writes"]}
    assert parts == {"archive", "links", "index"}
    # a preview writes the plan into the work dir and nothing else
    assert docs_digest(lab) == before
    assert (lab / ".mkdocs-adr" / "plans" / data["plan_id"] / "plan.json").is_file()


def test_text_preview_and_the_same_plan_id_for_the_same_tree(lab: Path) -> None:
    code, out, _ = invoke("archive", cwd=lab)
    assert code == 0
    first = preview(lab)
    assert f"plan {first['plan_id']} (version 1)" in out
    assert "docs/index.md:3  inbound  adr/0003-use-polling.md#decision" in out
    assert "ADR-0008  docs/adr/0008-use-rabbitmq.md" in out
    assert "successor not accepted: ADR-0009 (proposed)" in out
    assert f"Reverse: mkdocs-adr archive restore {first['plan_id']}" in out
    assert f"Apply: mkdocs-adr plan --confirm {first['plan_id']}" in out
    assert preview(lab)["plan_id"] == first["plan_id"]


def test_age_is_never_a_reason_and_in_effect_records_are_not_listed(tmp_path: Path) -> None:
    project = make_lab(tmp_path / "p")
    log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    ids = {c.id for c in archive.candidates(log)}
    assert ids, "the lab has archive candidates whose reasons are checked below"
    assert "ADR-0001" not in ids and "ADR-0006" not in ids and "ADR-0009" not in ids
    for cand in archive.candidates(log):
        assert not any("old" in r or "age" in r or "date" in r for r in cand.reasons)


def test_nothing_eligible_gives_no_plan(tmp_path: Path) -> None:
    files = {
        "mkdocs.yml": "site_name: x\nplugins:\n  - adr\n",
        "docs/adr/0001-a.md": nygard(1, "A", "Accepted"),
    }
    write_tree(tmp_path, files)
    code, out, _ = invoke("archive", "--json", cwd=tmp_path)
    data = json_of(out)
    assert code == 0 and data["plan_id"] is None and data["records"] == []
    assert data["notes"] == ["nothing to archive: no record is eligible"]
    assert not (tmp_path / ".mkdocs-adr").exists()


# --------------------------------------------------------------------- applying


def test_apply_moves_rewrites_regenerates_and_keeps_ids(lab: Path) -> None:
    original = {rel: read(lab, rel) for rel in FILES if rel.endswith((".md", ".yml"))}
    plan_id = preview(lab)["plan_id"]
    code, out, err = invoke("plan", "--confirm", plan_id, cwd=lab)
    assert code == 0, out + err
    assert f"Applied plan {plan_id}" in out
    for gone in (
        "docs/adr/0003-use-polling.md",
        "docs/adr/0007-use-crdts.md",
        "docs/adr/zh/0003-use-polling.md",
        "docs/adr/0003-use-polling.ja.md",
    ):
        assert not (lab / gone).exists()
    # content identical apart from the listed link rewrites
    assert read(lab, "docs/adr/archive/0007-use-crdts.md") == original["docs/adr/0007-use-crdts.md"]
    moved = read(lab, "docs/adr/archive/0003-use-polling.md")
    assert moved == (
        original["docs/adr/0003-use-polling.md"]
        .replace("(0006-use-websockets.md)", "(../0006-use-websockets.md)")
        .replace("(../img/diagram.png)", "(../../img/diagram.png)")
        .replace("(../index.md)", "(../../index.md)")
    )
    home = read(lab, "docs/index.md")
    assert home == original["docs/index.md"].replace(
        '(adr/0003-use-polling.md#decision "Polling, retired")',
        '(adr/archive/0003-use-polling.md#decision "Polling, retired")',
    )
    assert "[kept as code](adr/0003-use-polling.md)" in home
    assert "`[x](adr/0003-use-polling.md)`" in home
    assert read(lab, "docs/guide/sync.md") == original["docs/guide/sync.md"].replace(
        "../adr/0003-use-polling.md", "../adr/archive/0003-use-polling.md"
    ).replace("../adr/0007-use-crdts.md", "../adr/archive/0007-use-crdts.md")
    assert "adr/archive/0003-use-polling.md" in read(lab, "mkdocs.yml")
    assert read(lab, "docs/adr/zh/archive/0003-use-polling.md").count("../../") == 2
    # ids, numbers, statuses and references stay; the log still counts the archive
    log = load(load_from_mkdocs_yml(lab / "mkdocs.yml"))
    rec = log.get("ADR-0003")
    assert rec is not None and rec.archived and rec.status == "superseded" and rec.number == 3
    assert log.successor("ADR-0003").current == "ADR-0006"
    assert {r.target_id for r in log.get("ADR-0006").relations} >= {"ADR-0003"}  # type: ignore[union-attr]
    assert not [p for p in log.problems if p.code in ("ADR003", "ADR015")]
    # the generated INDEX is regenerated and fresh
    info = log.roots[0]
    assert read(lab, "docs/adr/INDEX.md") == index_view.render(log, info)
    assert "superseded (archived)" in read(lab, "docs/adr/INDEX.md")
    # one receipt, with the moves the site turns into redirect pages
    receipts = journal.list_receipts(lab / ".mkdocs-adr")
    assert len(receipts) == 1 and receipts[0]["outcome"] == "success"
    assert {
        "from": "docs/adr/0003-use-polling.md",
        "to": "docs/adr/archive/0003-use-polling.md",
    } in (receipts[0]["moves"])
    assert receipts[0]["problems"] == []
    assert set(receipts[0]["parts"]) == {"archive", "links", "index"}
    # confirming again is refused: it is done
    code, _, err = invoke("plan", "--confirm", plan_id, cwd=lab)
    assert code == 3 and "already applied" in err


def test_numbers_of_archived_records_are_never_reused(tmp_path: Path) -> None:
    from mkdocs_adr.authoring.placement import numbering

    files = {
        "mkdocs.yml": "site_name: x\nplugins:\n  - adr\n",
        "docs/adr/0001-a.md": nygard(1, "A", "Accepted", "Supersedes [2. B](0002-b.md)"),
        "docs/adr/0002-b.md": nygard(2, "B", "Superseded by [1. A](0001-a.md)"),
        "docs/adr/0003-c.md": nygard(3, "C", "Rejected"),
    }
    write_tree(tmp_path, files)
    plan_id = preview(tmp_path, "--sources", "ADR-0003")["plan_id"]
    assert invoke("plan", "--confirm", plan_id, cwd=tmp_path)[0] == 0
    config = load_from_mkdocs_yml(tmp_path / "mkdocs.yml")
    log = load(config)
    assert log.get("ADR-0003").archived  # type: ignore[union-attr]
    assert numbering(config, log, config.roots[0])[0] == 4


def test_archive_confirm_is_the_same_apply(lab: Path) -> None:
    plan_id = preview(lab)["plan_id"]
    code, out, _ = invoke("archive", "--confirm", plan_id, "--json", cwd=lab)
    assert code == 0
    assert json_of(out)["outcome"] == "success"
    assert (lab / "docs/adr/archive/0003-use-polling.md").exists()


def test_confirm_refuses_other_kinds_and_combinations(lab: Path) -> None:
    plan_id = preview(lab)["plan_id"]
    code, _, err = invoke("archive", "--confirm", plan_id, "--sources", "ADR-0003", cwd=lab)
    assert code == 2 and "--confirm cannot be combined" in err
    code, _, err = invoke("archive", "--sources", "ADR-0003", "restore", plan_id, cwd=lab)
    assert code == 2 and "after `restore`" in err


def test_terminal_prompt_applies_only_on_an_explicit_answer(
    lab: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mkdocs_adr.commands import archive as archive_cmd

    monkeypatch.setattr(archive_cmd, "is_terminal", lambda: True)
    before = docs_digest(lab)
    code, out, _ = invoke("archive", cwd=lab, input="")  # EOF is not consent
    assert code == 0 and "Review archive plan" in out and "Cancelled" in out
    assert docs_digest(lab) == before
    code, out, _ = invoke("archive", cwd=lab, input="s\n")
    assert "is kept in the work dir; nothing was moved" in out
    assert docs_digest(lab) == before
    code, out, _ = invoke("archive", cwd=lab, input="p\n")
    assert code == 0 and "Applied plan" in out
    assert (lab / "docs/adr/archive/0003-use-polling.md").exists()


def test_root_option_without_mkdocs_yml(lab: Path) -> None:
    (lab / "mkdocs.yml").unlink()
    code, out, err = invoke("--root", "docs/adr", "archive", "--json", cwd=lab)
    assert code == 0, err
    data = json_of(out)
    assert [r["id"] for r in data["records"]] == ["ADR-0003", "ADR-0007"]
    # with --root the docs folder is the root's parent: ordinary pages there are scanned too
    assert any(e["page"] == "docs/index.md" for e in data["links"])
    code, out, _ = invoke("archive", "--root", "docs/adr", "--confirm", data["plan_id"], cwd=lab)
    assert code == 0
    log = load(for_root(Path("docs/adr"), cwd=lab))
    assert log.get("ADR-0007").archived  # type: ignore[union-attr]


def test_real_subprocess_with_f(lab: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = run_cli("archive", "-f", str(lab / "mkdocs.yml"), "--json", cwd=elsewhere)
    assert proc.returncode == 0, proc.stderr
    plan_id = json.loads(proc.stdout)["plan_id"]
    proc = run_cli("-f", str(lab / "mkdocs.yml"), "plan", "--confirm", plan_id, cwd=elsewhere)
    assert proc.returncode == 0, proc.stderr
    assert (lab / "docs/adr/archive/0007-use-crdts.md").exists()
    assert not (elsewhere / ".mkdocs-adr").exists()


# --------------------------------------------------------------------- --sources


def test_sources_selects_and_refuses_with_every_reason(lab: Path) -> None:
    data = preview(lab, "--sources", "3")
    assert [r["id"] for r in data["records"]] == ["ADR-0003"]
    assert not any("0007" in e["new"] for e in data["links"])
    code, _, err = invoke("archive", "--sources", "ADR-0004,ADR-0999", cwd=lab)
    assert code == 2
    assert "'ADR-0004' names no record (nearest unarchived: " in err
    assert "'ADR-0999' names no record" in err
    code, _, err = invoke("archive", "--sources", "ADR-0001,ADR-0008", cwd=lab)
    assert code == 3
    assert "ADR-0001 is in effect or open (status accepted)" in err
    assert "ADR-0008 is not eligible: successor not accepted: ADR-0009 (proposed)" in err
    assert invoke("plan", "--confirm", data["plan_id"], cwd=lab)[0] == 0
    code, _, err = invoke("archive", "--sources", "ADR-0003", cwd=lab)
    assert (
        code == 2 and "ADR-0003 is already archived (docs/adr/archive/0003-use-polling.md)" in err
    )


def test_ambiguous_ids_are_refused(tmp_path: Path) -> None:
    files = {
        "mkdocs.yml": "site_name: x\nplugins:\n  - adr:\n      roots: [adr, svc/adr]\n",
        "docs/adr/0001-a.md": nygard(1, "A", "Rejected"),
        "docs/svc/adr/0001-b.md": nygard(1, "B", "Rejected"),
    }
    write_tree(tmp_path, files)
    code, _, err = invoke("archive", "--sources", "1", cwd=tmp_path)
    assert code == 2 and "'1' is ambiguous" in err


# --------------------------------------------------------------------- layouts and roots


def test_layered_root_and_a_module_root(tmp_path: Path) -> None:
    project = tmp_path / "layered"
    shutil.copytree(LOGS / "layered", project / "docs", symlinks=True)
    expected = json.loads((project / "docs" / "expected.json").read_text())
    roots = expected["config"]["roots"]
    (project / "mkdocs.yml").write_text(
        "site_name: x\nplugins:\n  - adr:\n      roots: " + json.dumps(roots) + "\n"
    )
    module = project / "docs/services/payments/adr"
    write_tree(
        module,
        {
            "0004-retry-webhooks-inline.md": "---\nid: PAY-0004\nstatus: superseded\n"
            "superseded-by: [PAY-0005]\n---\n# PAY-0004: Retry webhooks inline\n\n"
            "Replaced by [the queue](0005-retry-from-a-queue.md).\n",
            "0005-retry-from-a-queue.md": "---\nid: PAY-0005\nstatus: accepted\n"
            "supersedes: [PAY-0004]\n---\n# PAY-0005: Retry from a queue\n\n"
            "Old: [inline](0004-retry-webhooks-inline.md#context).\n",
        },
    )
    write_tree(
        project / "docs/adr",
        {
            "security/0011-use-basic-auth.md": "---\nid: ADR-0011\nstatus: deprecated\n---\n"
            "# ADR-0011: Use basic auth\n\nSee [OIDC](0004-use-oidc.md).\n",
            "zh/security/0011-use-basic-auth.md": (
                "# 基本认证\n\n[原文](../../security/0011-use-basic-auth.md)\n"
            ),
        },
    )
    data = preview(project)
    moves = {(r["id"], r["from"], r["to"]) for r in data["records"]}
    assert (
        "ADR-0011",
        "docs/adr/security/0011-use-basic-auth.md",
        "docs/adr/archive/security/0011-use-basic-auth.md",
    ) in moves
    assert (
        "PAY-0004",
        "docs/services/payments/adr/0004-retry-webhooks-inline.md",
        "docs/services/payments/adr/archive/0004-retry-webhooks-inline.md",
    ) in moves
    basic = next(r for r in data["records"] if r["id"] == "ADR-0011")
    assert basic["mirrors"] == [
        {
            "from": "docs/adr/zh/security/0011-use-basic-auth.md",
            "to": "docs/adr/zh/archive/security/0011-use-basic-auth.md",
        }
    ]
    edits = {(e["page"], e["old"], e["new"]) for e in data["links"]}
    assert (
        "docs/services/payments/adr/0005-retry-from-a-queue.md",
        "0004-retry-webhooks-inline.md#context",
        "archive/0004-retry-webhooks-inline.md#context",
    ) in edits
    assert (
        "docs/adr/security/0011-use-basic-auth.md",
        "0004-use-oidc.md",
        "../../security/0004-use-oidc.md",
    ) in edits
    assert (
        "docs/adr/zh/security/0011-use-basic-auth.md",
        "../../security/0011-use-basic-auth.md",
        "../../../archive/security/0011-use-basic-auth.md",
    ) in edits
    assert invoke("plan", "--confirm", data["plan_id"], cwd=project)[0] == 0
    log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    pay = log.get("PAY-0004")
    assert pay is not None and pay.archived and pay.root == "services/payments/adr"
    basic_rec = log.get("ADR-0011")
    assert basic_rec is not None and basic_rec.archived and basic_rec.domain == "security"


def test_container_records_need_every_unit_out_of_effect(tmp_path: Path) -> None:
    container = (
        "---\nid: ADR-0002\nstyle: container\n---\n# ADR-0002: Baseline\n\n"
        "## D1. Use X\n\nStatus: {d1}\n\n## D2. Use Y\n\nStatus: rejected\n"
    )
    files = {
        "mkdocs.yml": "site_name: x\nplugins:\n  - adr\n",
        "docs/adr/0001-a.md": "---\nid: ADR-0001\nstatus: accepted\n---\n# A\n",
        "docs/adr/0002-baseline.md": container.format(d1="accepted"),
    }
    write_tree(tmp_path, files)
    data = preview(tmp_path)
    assert data["plan_id"] is None
    assert data["ineligible"][0]["id"] == "ADR-0002"
    assert data["ineligible"][0]["reasons"] == ["units still in effect or open: D1 (accepted)"]
    write_tree(tmp_path, {"docs/adr/0002-baseline.md": container.format(d1="deprecated")})
    data = preview(tmp_path)
    assert [r["id"] for r in data["records"]] == ["ADR-0002"]


# --------------------------------------------------------------------- conflicts and refusals


def test_a_record_already_in_the_archive_makes_a_duplicate_id(lab: Path) -> None:
    write_tree(lab, {"docs/adr/archive/0003-use-polling.md": FILES["docs/adr/0003-use-polling.md"]})
    data = preview(lab)
    assert [r["id"] for r in data["records"]] == ["ADR-0007"]
    bad = next(c for c in data["ineligible"] if c["id"] == "ADR-0003")
    assert any("ADR002" in r for r in bad["reasons"])


def test_a_target_that_exists_blocks_the_plan(lab: Path) -> None:
    write_tree(lab, {"docs/adr/zh/archive/0003-use-polling.md": "someone else's file\n"})
    code, out, _ = invoke("archive", "--json", cwd=lab)
    data = json_of(out)
    assert code == 1
    assert data["confirm"] is None and data["blocking"]
    assert any(
        c["path"] == "docs/adr/zh/archive/0003-use-polling.md" and "already exists" in c["reason"]
        for c in data["conflicts"]
    )
    before = docs_digest(lab)
    code, _, err = invoke("plan", "--confirm", data["plan_id"], cwd=lab)
    assert code == 3 and "blocking problems" in err
    assert docs_digest(lab) == before


def test_a_symlinked_record_is_not_eligible(lab: Path) -> None:
    real = lab / "docs/adr/0007-use-crdts.md"
    (lab / "docs/adr/real").mkdir()
    real.rename(lab / "docs/adr/real/0007-use-crdts.txt")
    os.symlink("real/0007-use-crdts.txt", real)
    data = preview(lab)
    assert [r["id"] for r in data["records"]] == ["ADR-0003"]
    bad = next(c for c in data["ineligible"] if c["id"] == "ADR-0007")
    assert "the record is a symlink" in bad["reasons"][0]
    code, _, err = invoke("archive", "--sources", "ADR-0007", cwd=lab)
    assert code == 3 and "symlink" in err


def test_a_symlinked_page_that_needs_a_rewrite_is_a_conflict(lab: Path, tmp_path: Path) -> None:
    target = lab / "docs/guide/real-notes.md"
    target.write_text("[p](../adr/0003-use-polling.md)\n")
    os.symlink("real-notes.md", lab / "docs/guide/notes.md")
    data = preview(lab)
    assert any(
        c["path"] == "docs/guide/notes.md" and "symlink" in c["reason"] for c in data["conflicts"]
    )
    assert data["blocking"]


def test_an_archive_folder_leaving_the_project_is_refused(lab: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, lab / "docs/adr/archive")
    data = preview(lab)
    assert data["blocking"]
    assert any("would leave the project" in c["reason"] for c in data["conflicts"])
    code, _, err = invoke("plan", "--confirm", data["plan_id"], cwd=lab)
    assert code == 3 and "blocking problems" in err
    assert list(outside.iterdir()) == []


def test_a_link_leaving_the_project_from_a_moving_page_is_a_conflict(lab: Path) -> None:
    path = lab / "docs/adr/0007-use-crdts.md"
    path.write_text(path.read_text() + "\nSee [code](../../../src/x.py).\n")
    data = preview(lab)
    assert any("leaves the project" in c["reason"] for c in data["conflicts"])


def test_a_page_that_is_not_utf8_and_names_a_moved_file_is_a_conflict(lab: Path) -> None:
    (lab / "docs/legacy.md").write_bytes(b"caf\xe9 [old](adr/0003-use-polling.md)\n")
    data = preview(lab)
    assert any(
        c["path"] == "docs/legacy.md" and "not UTF-8" in c["reason"] for c in data["conflicts"]
    )


def test_url_form_links_are_risks_or_conflicts_without_redirects(lab: Path) -> None:
    (lab / "docs/urls.md").write_text("[page](adr/0003-use-polling/)\n")
    data = preview(lab)
    assert any(r["kind"] == "url-link" and r["path"] == "docs/urls.md" for r in data["risks"])
    assert not data["blocking"]
    yml = lab / "mkdocs.yml"
    yml.write_text(yml.read_text().replace("  - adr\n", "  - adr:\n      redirects: false\n"))
    data = preview(lab)
    assert any("redirects are off" in c["reason"] for c in data["conflicts"])


def test_a_plan_is_stale_after_any_page_changes(lab: Path) -> None:
    plan_id = preview(lab)["plan_id"]
    (lab / "docs/guide/new.md").write_text("[fresh link](../adr/0007-use-crdts.md)\n")
    (lab / "docs/guide/sync.md").write_text("# Sync\n\nrewritten by hand\n")
    before = docs_digest(lab)
    code, _, err = invoke("plan", "--confirm", plan_id, cwd=lab)
    assert code == 3 and "is stale" in err and "docs/guide/sync.md changed" in err
    assert docs_digest(lab) == before
    # planning again sees the new page and its link
    data = preview(lab)
    assert any(e["page"] == "docs/guide/new.md" for e in data["links"])


def test_an_interrupted_plan_blocks_new_plans_with_an_explanation(lab: Path) -> None:
    plan_id = preview(lab)["plan_id"]
    journal._append(lab / ".mkdocs-adr", plan_id, {"event": "begin"})
    code, _, err = invoke("archive", cwd=lab)
    assert code == 3
    assert f"plan {plan_id} (archive) was interrupted after 0 of" in err
    assert f"mkdocs-adr plan --confirm {plan_id}" in err
    assert f"mkdocs-adr plan --rollback {plan_id}" in err


# --------------------------------------------------------------------- the CURRENT manifest


def test_the_manifest_follows_the_move_and_current_stays_fresh(lab: Path) -> None:
    code, out, err = invoke("plan", "--mode", "summary", "--json", cwd=lab)
    assert code == 0, err
    assert invoke("plan", "--confirm", json_of(out)["plan_id"], cwd=lab)[0] == 0
    manifest_before = read(lab, "docs/adr/CURRENT.sources.json")
    data = preview(lab)
    changes = data["manifest"][0]["changes"]
    assert {
        "id": "ADR-0003",
        "field": "path",
        "from": "0003-use-polling.md",
        "to": "archive/0003-use-polling.md",
    } in changes
    assert any(c["id"] == "ADR-0006" and c["field"] == "sha256" for c in changes)
    assert invoke("plan", "--confirm", data["plan_id"], cwd=lab)[0] == 0
    manifest_after = json.loads(read(lab, "docs/adr/CURRENT.sources.json"))
    paths = {s["id"]: s["path"] for s in manifest_after["sources"]}
    assert paths["ADR-0003"] == "archive/0003-use-polling.md"
    log = load(load_from_mkdocs_yml(lab / "mkdocs.yml"))
    state = freshness.current_state(log, log.roots[0])[0]
    assert state.state == "fresh", state.reasons
    # the restore puts the manifest back byte for byte
    restore = json_of(invoke("archive", "restore", data["plan_id"], "--json", cwd=lab)[1])
    assert invoke("plan", "--confirm", restore["plan_id"], cwd=lab)[0] == 0
    assert read(lab, "docs/adr/CURRENT.sources.json") == manifest_before


def test_an_unreadable_manifest_is_left_alone_and_reported(lab: Path) -> None:
    (lab / "docs/adr/CURRENT.md").write_text("# Current\n")
    (lab / "docs/adr/CURRENT.sources.json").write_text("{not json")
    data = preview(lab)
    assert data["manifest"] == [
        {"path": "docs/adr/CURRENT.sources.json", "state": "not-updated", "changes": []}
    ]
    assert any(r["kind"] == "manifest" for r in data["risks"])
    assert data["writes"]
    assert all(w["path"] != "docs/adr/CURRENT.sources.json" for w in data["writes"])


def test_a_user_owned_index_is_never_overwritten(lab: Path) -> None:
    (lab / "docs/adr/INDEX.md").write_text("# My index\n\n- [3](0003-use-polling.md)\n")
    data = preview(lab)
    assert data["index"][0]["state"] == "user-owned"
    assert ("docs/adr/INDEX.md", "0003-use-polling.md", "archive/0003-use-polling.md") in {
        (e["page"], e["old"], e["new"]) for e in data["links"]
    }
    assert invoke("plan", "--confirm", data["plan_id"], cwd=lab)[0] == 0
    assert read(lab, "docs/adr/INDEX.md") == "# My index\n\n- [3](archive/0003-use-polling.md)\n"


def test_relocation_is_pure_until_applied(lab: Path) -> None:
    config = load_from_mkdocs_yml(lab / "mkdocs.yml")
    log = load(config)
    rec = log.get("ADR-0007")
    assert rec is not None
    before = docs_digest(lab)
    draft = planner.relocate(config, log, [(rec, moves.archive_target(config, rec))])
    assert [m.target for m in draft.moves] == ["docs/adr/archive/0007-use-crdts.md"]
    assert docs_digest(lab) == before


@pytest.mark.parametrize(
    ("successor_status", "reason"),
    [("accepted", None), ("proposed", "successor of unit D1 not accepted: ADR-0003 (proposed)")],
)
def test_a_superseded_unit_needs_an_accepted_successor(
    tmp_path: Path, successor_status: str, reason: str | None
) -> None:
    files = {
        "mkdocs.yml": "site_name: x\nplugins:\n  - adr\n",
        "docs/adr/0002-baseline.md": "---\nid: ADR-0002\nstyle: container\n---\n"
        "# ADR-0002: Baseline\n\n## D1. Use X\n\nStatus: superseded\n\n"
        "## D2. Use Y\n\nStatus: rejected\n",
        "docs/adr/0003-use-z.md": f"---\nid: ADR-0003\nstatus: {successor_status}\n"
        "supersedes: [ADR-0002#D1]\n---\n# ADR-0003: Use Z\n",
    }
    write_tree(tmp_path, files)
    data = preview(tmp_path)
    if reason is None:
        assert [r["id"] for r in data["records"]] == ["ADR-0002"]
    else:
        assert data["plan_id"] is None
        assert reason in data["ineligible"][0]["reasons"]


def test_verification_catches_status_content_and_link_changes(lab: Path) -> None:
    from mkdocs_adr.plans import load_plan

    plan_id = preview(lab)["plan_id"]
    assert invoke("plan", "--confirm", plan_id, cwd=lab)[0] == 0
    config = load_from_mkdocs_yml(lab / "mkdocs.yml")
    plan = load_plan(config.work_path, plan_id)
    assert archive.verify_applied(config, plan) == []
    moved = lab / "docs/adr/archive/0007-use-crdts.md"
    moved.write_text(moved.read_text().replace("Rejected", "Accepted"))
    home = lab / "docs/index.md"
    home.write_text(home.read_text().replace("adr/archive/0003-use-polling.md#", "adr/x.md#"))
    problems = archive.verify_applied(config, plan)
    assert any("ADR-0007 has status accepted, expected rejected" in p for p in problems)
    assert any(
        p.startswith("docs/adr/archive/0007-use-crdts.md: content differs") for p in problems
    )
    assert any(p.startswith("docs/index.md: content differs") for p in problems)


def test_the_console_script_exits_with_the_documented_codes(lab: Path) -> None:
    proc = run_cli("archive", "--sources", "ADR-0001", cwd=lab)
    assert proc.returncode == 3 and "ADR-0001 is in effect or open" in proc.stderr
    proc = run_cli("archive", "--sources", "ADR-0404", cwd=lab)
    assert proc.returncode == 2 and "names no record" in proc.stderr
    write_tree(lab, {"docs/adr/zh/archive/0003-use-polling.md": "in the way\n"})
    proc = run_cli("archive", cwd=lab)
    assert proc.returncode == 1 and "Applying is blocked" in proc.stdout
