"""``mkdocs-adr archive restore PLAN_ID``: the exact reverse, from the receipt or the paths."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import load

from .archive_lab import FILES, docs_digest, invoke, json_of, make_lab, write_tree


@pytest.fixture
def lab(tmp_path: Path) -> Path:
    return make_lab(tmp_path / "lab")


def archive_all(project: Path, *args: str) -> str:
    code, out, err = invoke("archive", "--json", *args, cwd=project)
    assert code == 0, err
    plan_id = json_of(out)["plan_id"]
    code, out, err = invoke("plan", "--confirm", plan_id, cwd=project)
    assert code == 0, out + err
    return str(plan_id)


def restore(project: Path, plan_id: str, *args: str) -> tuple[int, dict, str]:
    code, out, err = invoke("archive", "restore", plan_id, "--json", *args, cwd=project)
    return code, (json_of(out) if out.strip() else {}), err


def confirm(project: Path, plan_id: str) -> None:
    code, out, err = invoke("plan", "--confirm", plan_id, cwd=project)
    assert code == 0, out + err


def test_restore_gives_back_every_byte_and_keeps_statuses(lab: Path) -> None:
    before = docs_digest(lab)
    plan_id = archive_all(lab)
    assert docs_digest(lab) != before
    code, data, err = restore(lab, plan_id)
    assert code == 0, err
    assert data["kind"] == "restore" and data["plan_id"].startswith("restore-")
    assert data["scope"] == {"of": plan_id, "basis": "receipt", "ids": ["ADR-0003", "ADR-0007"]}
    assert {(m["from"], m["to"]) for m in data["moves"]} == {
        ("docs/adr/archive/0003-use-polling.md", "docs/adr/0003-use-polling.md"),
        ("docs/adr/zh/archive/0003-use-polling.md", "docs/adr/zh/0003-use-polling.md"),
        ("docs/adr/archive/0003-use-polling.ja.md", "docs/adr/0003-use-polling.ja.md"),
        ("docs/adr/archive/0007-use-crdts.md", "docs/adr/0007-use-crdts.md"),
    }
    assert any(
        "ADR-0003 returns to docs/adr/0003-use-polling.md and keeps its status (superseded)" in n
        for n in data["notes"]
    )
    confirm(lab, data["plan_id"])
    assert docs_digest(lab) == before
    log = load(load_from_mkdocs_yml(lab / "mkdocs.yml"))
    rec = log.get("ADR-0003")
    # restoring a location never restores a decision's effect
    assert rec is not None and not rec.archived and rec.status == "superseded"
    assert not log.in_effect(rec)
    assert log.successor("ADR-0003").current == "ADR-0006"


def test_text_output_of_a_restore(lab: Path) -> None:
    plan_id = archive_all(lab)
    code, out, _ = invoke("archive", "restore", plan_id, cwd=lab)
    assert code == 0
    assert "mkdocs-adr archive restore: plan restore-" in out
    assert "keeps its status (superseded)" in out
    assert "Apply: mkdocs-adr plan --confirm restore-" in out


def test_user_edits_made_while_archived_are_preserved(lab: Path) -> None:
    original = {rel: (lab / rel).read_bytes() for rel in FILES if rel.startswith("docs/")}
    plan_id = archive_all(lab)
    edits = {
        "docs/adr/archive/0003-use-polling.md": b"\nA note added in the archive.\n",
        "docs/index.md": b"\nA new paragraph.\n",
        "docs/guide/sync.md": b"\nMore words.\n",
    }
    for rel, extra in edits.items():
        with open(lab / rel, "ab") as fh:
            fh.write(extra)
    code, data, err = restore(lab, plan_id)
    assert code == 0, err
    confirm(lab, data["plan_id"])
    assert (lab / "docs/adr/0003-use-polling.md").read_bytes() == (
        original["docs/adr/0003-use-polling.md"] + edits["docs/adr/archive/0003-use-polling.md"]
    )
    assert (lab / "docs/index.md").read_bytes() == original["docs/index.md"] + edits[
        "docs/index.md"
    ]
    assert (lab / "docs/guide/sync.md").read_bytes() == (
        original["docs/guide/sync.md"] + edits["docs/guide/sync.md"]
    )
    for rel, data_before in original.items():
        if rel not in ("docs/adr/0003-use-polling.md", "docs/index.md", "docs/guide/sync.md"):
            assert (lab / rel).read_bytes() == data_before, rel


def test_the_original_spelling_of_a_link_comes_back_even_after_an_edit(tmp_path: Path) -> None:
    odd = "docs/adr/0006-use-websockets.md"
    text = FILES[odd]
    assert isinstance(text, str)
    text = text.replace("(0003-use-polling.md)", "(./0003-use-polling.md)") + (
        "\nAlso [again](../adr/0003-use-polling.md) and [once more](0003-use-polling.md).\n"
    )
    project = make_lab(tmp_path / "p", {odd: text})
    plan_id = archive_all(project, "--sources", "ADR-0003")
    archived_text = (project / odd).read_text()
    assert archived_text.count("archive/0003-use-polling.md") == 3
    (project / odd).write_text(archived_text + "\nEdited while archived.\n")
    code, data, err = restore(project, plan_id)
    assert code == 0, err
    confirm(project, data["plan_id"])
    assert (project / odd).read_text() == text + "\nEdited while archived.\n"


def test_restore_a_subset_with_sources(lab: Path) -> None:
    plan_id = archive_all(lab)
    code, data, _ = restore(lab, plan_id, "--sources", "ADR-0007")
    assert code == 0
    assert [r["id"] for r in data["records"]] == ["ADR-0007"]
    confirm(lab, data["plan_id"])
    assert (lab / "docs/adr/0007-use-crdts.md").exists()
    assert (lab / "docs/adr/archive/0003-use-polling.md").exists()
    code, data, err = restore(lab, plan_id, "--sources", "ADR-0001")
    assert code == 2 and "ADR-0001 is not archived" in err


def test_without_a_receipt_the_archived_paths_are_used(lab: Path) -> None:
    before = docs_digest(lab)
    plan_id = archive_all(lab)
    shutil.rmtree(lab / ".mkdocs-adr")  # a fresh clone: the work dir is git-ignored
    code, _, err = restore(lab, plan_id)
    assert code == 3
    assert f"there is no receipt for archive plan {plan_id}" in err
    assert f"mkdocs-adr archive restore {plan_id} --sources IDS" in err
    code, data, err = restore(lab, plan_id, "--sources", "ADR-0003,ADR-0007")
    assert code == 0, err
    assert data["scope"]["basis"] == "archived-paths"
    assert {(m["from"], m["to"]) for m in data["moves"]} >= {
        ("docs/adr/zh/archive/0003-use-polling.md", "docs/adr/zh/0003-use-polling.md"),
        ("docs/adr/archive/0003-use-polling.ja.md", "docs/adr/0003-use-polling.ja.md"),
    }
    confirm(lab, data["plan_id"])
    # links written in canonical form come back byte for byte
    assert docs_digest(lab) == before


def test_a_receipt_that_leaves_the_project_is_refused(lab: Path, tmp_path: Path) -> None:
    plan_id = archive_all(lab)
    receipts = sorted((lab / ".mkdocs-adr" / "receipts").glob("*.json"))
    data = json.loads(receipts[0].read_text())
    data["moves"][0]["from"] = "../../outside.md"
    receipts[0].write_text(json.dumps(data))
    before = docs_digest(lab)
    code, _, err = restore(lab, plan_id)
    assert code == 3 and "leaves the project" in err and "refused" in err
    assert docs_digest(lab) == before
    assert not (tmp_path / "outside.md").exists()


def test_an_occupied_original_place_blocks_the_restore(lab: Path) -> None:
    plan_id = archive_all(lab)
    write_tree(lab, {"docs/adr/zh/0003-use-polling.md": "a new translation\n"})
    code, data, _ = restore(lab, plan_id)
    assert code == 1 and data["blocking"]
    assert any("already exists" in c["reason"] for c in data["conflicts"])
    code, _, err = invoke("plan", "--confirm", data["plan_id"], cwd=lab)
    assert code == 3 and "blocking problems" in err
    assert (lab / "docs/adr/zh/0003-use-polling.md").read_text() == "a new translation\n"


def test_restoring_twice_and_bad_plan_ids(lab: Path) -> None:
    plan_id = archive_all(lab)
    code, data, _ = restore(lab, plan_id)
    confirm(lab, data["plan_id"])
    code, _, err = restore(lab, plan_id)
    assert code == 3 and "nothing to restore" in err and "already back in place" in err
    code, _, err = restore(lab, data["plan_id"])
    assert code == 2 and "is a restore plan, not an archive plan" in err
    code, _, err = restore(lab, "../x")
    assert code == 2 and "is not a plan id" in err
    code, _, err = restore(lab, "archive-000000000000")
    assert code == 3 and "no receipt" in err


def test_a_plan_never_applied_has_nothing_to_reverse(lab: Path) -> None:
    code, out, _ = invoke("archive", "--json", cwd=lab)
    plan_id = json_of(out)["plan_id"]
    code, _, err = restore(lab, plan_id)
    assert code == 3 and f"archive plan {plan_id} was never applied" in err
