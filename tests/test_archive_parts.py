"""The parts a relocation plan is made of, one at a time: moves, one page's link rewrites,
mkdocs.yml nav edits, URL changes, the INDEX diff and the review's JSON shapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mkdocs_adr.archive.findings import Conflict, Risk
from mkdocs_adr.archive.index_update import IndexChange, diff_lines
from mkdocs_adr.archive.moves import FileMove, archive_target, file_moves, move_conflicts
from mkdocs_adr.archive.nav import nav_edits
from mkdocs_adr.archive.pages import Page, pages_to_read
from mkdocs_adr.archive.planner import relocate
from mkdocs_adr.archive.redirects import url_changes
from mkdocs_adr.archive.review import ReviewRecord, SavedReview, build_review
from mkdocs_adr.archive.rewrite import MoveMap, PageRewrite, Rewriter, rewrite_page
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import load
from mkdocs_adr.plans import Plan

from .archive_lab import make_lab, write_tree

POLLING = FileMove(
    "docs/adr/0003-use-polling.md", "docs/adr/archive/0003-use-polling.md", "record", "ADR-0003"
)


def rewriter(project: Path, *moves: FileMove, redirects: bool = True) -> Rewriter:
    return Rewriter(MoveMap.of(moves or (POLLING,)), "docs", project, True, redirects)


def page(
    project: Path, path: str, text: str | bytes, *, symlink: bool = False
) -> tuple[Page, bytes]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return Page(path, project / path, symlink), data


# --------------------------------------------------------------------- one page's links


def test_a_page_that_stays_gets_its_links_to_a_moved_file_pointed_at_the_new_place(
    tmp_path: Path,
) -> None:
    p, data = page(
        tmp_path,
        "docs/guide/sync.md",
        'See [it](../adr/0003-use-polling.md#context "t") and [kept](../adr/0001-x.md).\n',
    )
    result = rewrite_page(rewriter(tmp_path), p, data)
    assert result.content == (
        b'See [it](../adr/archive/0003-use-polling.md#context "t") and [kept](../adr/0001-x.md).\n'
    )
    [edit] = result.edits
    assert (edit.page, edit.page_after, edit.line, edit.direction, edit.id) == (
        "docs/guide/sync.md",
        "docs/guide/sync.md",
        1,
        "inbound",
        "ADR-0003",
    )
    assert (edit.old, edit.new) == (
        "../adr/0003-use-polling.md#context",
        "../adr/archive/0003-use-polling.md#context",
    )
    assert edit.target == "docs/adr/archive/0003-use-polling.md"
    assert edit.target_exists  # the target is one of the moves, though not on disk here
    assert result.conflicts == () and result.risks == ()


def test_a_moving_page_gets_its_outbound_links_re_relativised(tmp_path: Path) -> None:
    write_tree(tmp_path, {"docs/index.md": "# Home\n"})
    p, data = page(
        tmp_path,
        "docs/adr/0003-use-polling.md",
        "[home](../index.md) [self](#context) [gone](../nowhere.md)\n",
    )
    result = rewrite_page(rewriter(tmp_path), p, data)
    assert result.content == b"[home](../../index.md) [self](#context) [gone](../../nowhere.md)\n"
    assert [(e.new, e.direction, e.target_exists) for e in result.edits] == [
        ("../../index.md", "outbound", True),
        ("../../nowhere.md", "outbound", False),
    ]
    assert {e.page_after for e in result.edits} == {"docs/adr/archive/0003-use-polling.md"}


def test_a_link_between_two_moving_pages_is_both_ways(tmp_path: Path) -> None:
    crdts = FileMove(
        "docs/adr/0007-use-crdts.md", "docs/adr/old/0007-use-crdts.md", "record", "ADR-0007"
    )
    p, data = page(tmp_path, "docs/adr/0003-use-polling.md", "[c](0007-use-crdts.md)\n")
    result = rewrite_page(rewriter(tmp_path, POLLING, crdts), p, data)
    [edit] = result.edits
    assert (edit.new, edit.direction, edit.id) == ("../old/0007-use-crdts.md", "both", "ADR-0007")


def test_code_and_untouched_pages_give_no_edit(tmp_path: Path) -> None:
    p, data = page(
        tmp_path, "docs/index.md", "`[x](adr/0003-use-polling.md)` and [y](adr/0001-x.md)\n"
    )
    assert rewrite_page(rewriter(tmp_path), p, data) == PageRewrite()


def test_a_restore_puts_back_the_spelling_the_archive_replaced(tmp_path: Path) -> None:
    back = FileMove(POLLING.target, POLLING.source, "record", "ADR-0003")
    p, data = page(tmp_path, "docs/index.md", "[a](adr/archive/0003-use-polling.md)\n")
    plain = rewrite_page(rewriter(tmp_path, back), p, data)
    assert [e.new for e in plain.edits] == ["adr/0003-use-polling.md"]
    # the archive had rewritten "./adr/0003-use-polling.md"; that spelling comes back
    prefer = [("adr/archive/0003-use-polling.md", "./adr/0003-use-polling.md")]
    result = rewrite_page(rewriter(tmp_path, back), p, data, prefer)
    assert [e.new for e in result.edits] == ["./adr/0003-use-polling.md"]
    # a remembered spelling that no longer reaches the target is not used
    wrong = [("adr/archive/0003-use-polling.md", "adr/0009-other.md")]
    assert [e.new for e in rewrite_page(rewriter(tmp_path, back), p, data, wrong).edits] == [
        "adr/0003-use-polling.md"
    ]


def test_a_symlinked_page_that_needs_a_rewrite_is_a_conflict_not_an_edit(tmp_path: Path) -> None:
    p, data = page(tmp_path, "docs/notes.md", "[p](adr/0003-use-polling.md)\n", symlink=True)
    result = rewrite_page(rewriter(tmp_path), p, data)
    assert result.edits == () and result.content is None
    [conflict] = result.conflicts
    assert (conflict.path, conflict.line, conflict.id) == ("docs/notes.md", 1, "ADR-0003")
    assert "the page is a symlink" in conflict.reason


def test_a_link_leaving_the_project_blocks_only_a_moving_page(tmp_path: Path) -> None:
    text = "[code](../../../src/x.py)\n"
    staying, data = page(tmp_path, "docs/guide/a.md", text)
    assert rewrite_page(rewriter(tmp_path), staying, data).conflicts == ()
    moving, data = page(tmp_path, "docs/adr/0003-use-polling.md", text)
    [conflict] = rewrite_page(rewriter(tmp_path), moving, data).conflicts
    assert "leaves the project" in conflict.reason and conflict.id == "ADR-0003"


def test_a_page_that_is_not_utf8_is_a_conflict_only_when_it_may_name_a_moved_file(
    tmp_path: Path,
) -> None:
    unrelated, data = page(tmp_path, "docs/legacy.md", b"caf\xe9 [x](other.md)\n")
    assert (
        rewrite_page(rewriter(tmp_path), unrelated, data)
        == type(rewrite_page(rewriter(tmp_path), unrelated, data))()
    )
    naming, data = page(tmp_path, "docs/legacy.md", b"caf\xe9 [x](adr/0003-use-polling.md)\n")
    [conflict] = rewrite_page(rewriter(tmp_path), naming, data).conflicts
    assert "not UTF-8" in conflict.reason and conflict.line is None


@pytest.mark.parametrize("redirects", [True, False])
def test_a_link_to_a_moved_pages_url_is_a_risk_or_with_redirects_off_a_conflict(
    tmp_path: Path, redirects: bool
) -> None:
    p, data = page(tmp_path, "docs/urls.md", "[page](adr/0003-use-polling/)\n")
    result = rewrite_page(rewriter(tmp_path, redirects=redirects), p, data)
    assert result.edits == () and result.content is None
    if redirects:
        [risk] = result.risks
        assert (risk.kind, risk.path, risk.line, risk.id) == (
            "url-link",
            "docs/urls.md",
            1,
            "ADR-0003",
        )
        assert risk.message.endswith("it will reach the redirect page at adr/0003-use-polling/")
        assert result.conflicts == ()
    else:
        [conflict] = result.conflicts
        assert "redirects are off" in conflict.reason
        assert conflict.fix == "link to the file (0003-use-polling.md) instead of its URL"
        assert result.risks == ()


# --------------------------------------------------------------------- mkdocs.yml nav


def test_nav_edits_replace_whole_paths_outside_comments() -> None:
    text = (
        "nav:\n"
        "  - Polling: adr/0003-use-polling.md\n"
        "  # - Old: adr/0003-use-polling.md\n"
        "  - Backup: adr/0003-use-polling.md.bak\n"
        "  - Other: xadr/0003-use-polling.md\n"
        "  - Again: 'adr/0003-use-polling.md'\n"
    )
    edits, new = nav_edits(text, "mkdocs.yml", MoveMap.of([POLLING]), "docs")
    assert [(e.line, e.old, e.new, e.form, e.id) for e in edits] == [
        (2, "adr/0003-use-polling.md", "adr/archive/0003-use-polling.md", "nav", "ADR-0003"),
        (6, "adr/0003-use-polling.md", "adr/archive/0003-use-polling.md", "nav", "ADR-0003"),
    ]
    assert new == text.replace("Polling: adr/0003", "Polling: adr/archive/0003").replace(
        "'adr/0003", "'adr/archive/0003"
    )
    assert {e.page for e in edits} == {"mkdocs.yml"}


def test_nav_edits_leave_a_config_without_moved_pages_alone() -> None:
    text = "nav:\n  - Home: index.md\n"
    assert nav_edits(text, "mkdocs.yml", MoveMap.of([POLLING]), "docs") == ([], text)


def test_a_move_outside_the_docs_folder_is_not_a_nav_path() -> None:
    readme = FileMove("README.md", "old/README.md", "mirror", "ADR-0003")
    text = "nav:\n  - README.md\n"
    assert nav_edits(text, "mkdocs.yml", MoveMap.of([readme]), "docs") == ([], text)


# --------------------------------------------------------------------- moves and URLs


@pytest.fixture
def lab(tmp_path: Path) -> Path:
    return make_lab(tmp_path / "lab")


def test_a_record_moves_with_its_mirrors(lab: Path) -> None:
    config = load_from_mkdocs_yml(lab / "mkdocs.yml")
    rec = load(config).get("ADR-0003")
    assert rec is not None
    moves = file_moves(config, [(rec, archive_target(config, rec))])
    assert [(m.source, m.target, m.kind, m.id) for m in moves] == [
        (
            "docs/adr/0003-use-polling.md",
            "docs/adr/archive/0003-use-polling.md",
            "record",
            "ADR-0003",
        ),
        (
            "docs/adr/zh/0003-use-polling.md",
            "docs/adr/zh/archive/0003-use-polling.md",
            "mirror",
            "ADR-0003",
        ),
        (
            "docs/adr/0003-use-polling.ja.md",
            "docs/adr/archive/0003-use-polling.ja.md",
            "mirror",
            "ADR-0003",
        ),
    ]
    assert move_conflicts(config, moves) == []


def test_move_conflicts_name_each_blocked_move(lab: Path) -> None:
    config = load_from_mkdocs_yml(lab / "mkdocs.yml")
    moves = [
        FileMove("docs/adr/0404-missing.md", "docs/adr/archive/0404-missing.md", "record", "X"),
        FileMove("docs/adr/0007-use-crdts.md", "docs/adr/0001-record-decisions.md", "record", "Y"),
        FileMove("docs/adr/0009-use-nats.md", "docs/adr/archive/a.md", "record", "Z"),
        FileMove("docs/adr/0008-use-rabbitmq.md", "docs/adr/archive/a.md", "record", "W"),
    ]
    found = [(c.path, c.id, c.reason.split(";")[0]) for c in move_conflicts(config, moves)]
    assert found == [
        ("docs/adr/0404-missing.md", "X", "does not exist"),
        (
            "docs/adr/0001-record-decisions.md",
            "Y",
            "already exists",
        ),
        (
            "docs/adr/archive/a.md",
            "W",
            "is the target of two moves (docs/adr/0009-use-nats.md and "
            "docs/adr/0008-use-rabbitmq.md)",
        ),
    ]


def test_the_pages_read_leave_out_a_generated_index_and_add_moved_files_outside_docs(
    lab: Path,
) -> None:
    write_tree(lab, {"notes/outside.md": "[x](../docs/index.md)\n"})
    config = load_from_mkdocs_yml(lab / "mkdocs.yml")
    paths = [p.path for p in pages_to_read(config, ["notes/outside.md"])]
    assert "docs/adr/INDEX.md" not in paths
    assert "docs/guide/sync.md" in paths and "docs/adr/README.md" in paths
    assert paths[-1] == "notes/outside.md"
    assert paths[:-1] == sorted(paths[:-1])


def test_records_get_a_redirect_page_and_mirrors_a_risk(lab: Path) -> None:
    config = load_from_mkdocs_yml(lab / "mkdocs.yml")
    mirror = FileMove(
        "docs/adr/zh/0003-use-polling.md",
        "docs/adr/zh/archive/0003-use-polling.md",
        "mirror",
        "ADR-0003",
    )
    outside = FileMove("README.md", "old/README.md", "mirror", "ADR-0003")
    redirects, risks = url_changes(config, [POLLING, mirror, outside], True)
    assert [r.to_json() for r in redirects] == [
        {
            "id": "ADR-0003",
            "kind": "record",
            "from": POLLING.source,
            "to": POLLING.target,
            "from_url": "adr/0003-use-polling/",
            "to_url": "adr/archive/0003-use-polling/",
            "redirect_page": True,
        },
        {
            "id": "ADR-0003",
            "kind": "mirror",
            "from": mirror.source,
            "to": mirror.target,
            "from_url": "adr/zh/0003-use-polling/",
            "to_url": "adr/zh/archive/0003-use-polling/",
            "redirect_page": False,
        },
    ]
    [risk] = risks
    assert risk.to_json() == {
        "kind": "external-links",
        "id": "ADR-0003",
        "message": "mirror docs/adr/zh/0003-use-polling.md: its published URL changes from "
        "adr/zh/0003-use-polling/ to adr/zh/archive/0003-use-polling/ and gets no redirect "
        "page; links to it from outside this site break",
    }
    flat, _ = url_changes(config, [POLLING], False)
    assert (flat[0].from_url, flat[0].to_url) == (
        "adr/0003-use-polling.html",
        "adr/archive/0003-use-polling.html",
    )


# --------------------------------------------------------------------- shapes of the review


def test_conflict_message_names_the_place() -> None:
    assert Conflict("a.md", 3, "X", "broken").message == "a.md:3: broken"
    assert Conflict("a.md", None, "X", "broken").message == "a.md: broken"
    assert Conflict(None, None, None, "broken").to_json() == {
        "path": None,
        "line": None,
        "id": None,
        "reason": "broken",
        "fix": "",
        "message": "broken",
    }


def test_a_risk_leaves_out_the_fields_its_kind_has_none_of() -> None:
    assert Risk("outside-docs", "m").to_json() == {"kind": "outside-docs", "message": "m"}
    assert Risk("url-link", "m", id="X", path="a.md", line=2).to_json() == {
        "kind": "url-link",
        "path": "a.md",
        "line": 2,
        "id": "X",
        "message": "m",
    }


def test_an_index_diff_lists_changed_lines_only() -> None:
    old = b"# Index\n\n| 3 | active |\n| 6 | active |\n"
    new = b"# Index\n\n| 3 | archived |\n| 6 | active |\n"
    assert diff_lines(old, new) == ("-| 3 | active |", "+| 3 | archived |")
    change = IndexChange("docs/adr/INDEX.md", "generated", "regenerated", diff_lines(old, new))
    assert change.to_json()["diff"] == ["-| 3 | active |", "+| 3 | archived |"]
    assert "diff" not in IndexChange("x", "absent", "none").to_json()


def test_a_review_record_as_json() -> None:
    item = ReviewRecord(
        "ADR-0003",
        "Use polling",
        "superseded",
        3,
        "ADR-0006",
        POLLING.source,
        POLLING.target,
        (("docs/adr/zh/0003-use-polling.md", "docs/adr/zh/archive/0003-use-polling.md"),),
        ("adr/0003-use-polling/", "adr/archive/0003-use-polling/"),
        4,
    )
    assert item.to_json() == {
        "id": "ADR-0003",
        "title": "Use polling",
        "status": "superseded",
        "number": 3,
        "successor": "ADR-0006",
        "from": POLLING.source,
        "to": POLLING.target,
        "mirrors": [
            {
                "from": "docs/adr/zh/0003-use-polling.md",
                "to": "docs/adr/zh/archive/0003-use-polling.md",
            }
        ],
        "url": {"from": "adr/0003-use-polling/", "to": "adr/archive/0003-use-polling/"},
        "links": 4,
    }


def test_a_saved_review_reads_back_what_the_draft_held(lab: Path) -> None:
    config = load_from_mkdocs_yml(lab / "mkdocs.yml")
    log = load(config)
    chosen = [r for r in log.records if r.id in ("ADR-0003", "ADR-0007")]
    draft = relocate(config, log, [(r, archive_target(config, r)) for r in chosen])
    review = build_review("archive", log, chosen, draft, [])
    plan = Plan("archive", {}, log.fingerprint, draft.steps, review=json.loads(json.dumps(review)))
    saved = SavedReview.of(plan)
    assert saved.moves == tuple(draft.moves) and len(saved.moves) == 4
    assert saved.links == tuple(draft.edits) and saved.links
    assert [r.to_json() for r in saved.records] == review["records"]
    assert [r.id for r in saved.records] == ["ADR-0003", "ADR-0007"]
    assert saved.relations == tuple(review["relations"]) and saved.relations


def test_a_saved_move_without_kind_or_id_reads_as_an_unowned_mirror() -> None:
    assert FileMove.from_json({"to": "b.md"}) == FileMove("", "b.md", "mirror", "")
    assert FileMove.from_json(["a.md", "b.md"]) is None
    assert FileMove.from_json({"from": "a.md", "to": None}) is None
