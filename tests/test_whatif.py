"""``whatif.after`` against the truth: a real reload of a tree where the edits were made.

Each shape is worked out in memory first (nothing may change on disk), then the
same edits are made to the files and the log is loaded again; the two logs must
agree on every record (id, path, status, archived, domain, relations, units),
every problem, the excluded files, the roots and the fingerprint.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr import whatif
from mkdocs_adr.archive import candidates, moves, planner
from mkdocs_adr.authoring.ops import supersede
from mkdocs_adr.config import Config, RootConfig, from_options, load_from_mkdocs_yml
from mkdocs_adr.discovery import Found, discover, layouts_of, locate
from mkdocs_adr.log import Log, load
from mkdocs_adr.views import index as index_view
from mkdocs_adr.whatif import Move, Remove, Write

from .archive_lab import invoke, json_of, make_lab
from .conftest import LOGS, fixture_logs, tree_digest

TODAY = dt.date(2026, 6, 1)
A = "# {n}. {title}\n\n## Status\n\n{status}\n"


def rec(n: int, status: str, extra: str = "", title: str = "") -> str:
    return A.format(n=n, title=title or f"Record {n}", status=status) + extra


BASE = {
    "docs/adr/0001-first.md": rec(1, "Superseded by [2. Second](0002-second.md)"),
    "docs/adr/0002-second.md": rec(
        2, "Accepted", "\nSupersedes [1. First](0001-first.md)\n\nSee [3](0003-third.md).\n"
    ),
    "docs/adr/0003-third.md": rec(3, "Accepted", "\nReview by: 2026-01-01\n"),
    "docs/adr/archive/0004-old.md": rec(
        4, "Deprecated", "\nAmends [2. Second](../0002-second.md)\n"
    ),
    "docs/adr/fr/0002-second.md": rec(2, "Accepté"),
    "docs/adr/README.md": "# ADRs\n",
}


def make(tmp: Path, files: dict[str, str], **options: Any) -> Config:
    for rel, text in files.items():
        path = tmp / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Config(project_dir=tmp, docs_dir=tmp / "docs", **options)


def perform(project: Path, edits: list[whatif.Edit]) -> None:
    """Make the edits for real, as the journal would."""
    for edit in edits:
        if isinstance(edit, Write):
            path = project / edit.path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(edit.data)
        elif isinstance(edit, Move):
            target = project / edit.target
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(project / edit.source, target)
        else:
            (project / edit.path).unlink()


def snapshot(log: Log) -> dict[str, Any]:
    """Everything a reader of the log could tell apart."""
    return {
        "records": [
            (
                r.id,
                r.path,
                r.root,
                r.domain,
                r.archived,
                r.status,
                r.title,
                r.number,
                r.sha256,
                r.symlink,
                [x.to_json() for x in r.relations],
                [u.to_json() for u in r.units],
                log.in_effect(r),
                log.successor(r.id),
            )
            for r in log.records
        ],
        "edges": [(e.source, e.target, e.kind, e.declared_by, e.unit) for e in log.graph.edges()],
        "problems": [p.to_json() for p in log.problems],
        "excluded": [e.to_json() for e in log.excluded],
        "roots": [r.to_json() for r in log.roots],
        "fingerprint": log.fingerprint,
    }


def compare(config: Config, edits: list[whatif.Edit]) -> tuple[Log, Log]:
    """``whatif.after`` and the real reload; asserts they agree and that nothing was written."""
    before = load(config, today=TODAY)
    disk = tree_digest(config.project_dir)
    predicted = whatif.after(before, edits)
    assert tree_digest(config.project_dir) == disk, "whatif wrote to the project"
    perform(config.project_dir, edits)
    real = load(config, today=TODAY)
    assert snapshot(real)["records"], "the log after the edits is empty: nothing was compared"
    assert snapshot(predicted) == snapshot(real)
    assert snapshot(real) != snapshot(before), "the edits changed nothing: nothing was compared"
    return predicted, real


def test_an_edit_of_one_record(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    text = rec(3, "Deprecated", "\nAmends [1. First](0001-first.md)\n")
    after, _ = compare(config, [Write("docs/adr/0003-third.md", text.encode())])
    assert after.by_path["docs/adr/0003-third.md"].status == "deprecated"
    assert not [p for p in after.problems if p.code == "ADR017"]  # no longer in effect


def test_a_move_into_the_archive_with_its_links_rewritten(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    moved = rec(1, "Superseded by [2. Second](../0002-second.md)")
    relinked = rec(
        2,
        "Accepted",
        "\nSupersedes [1. First](archive/0001-first.md)\n\nSee [3](0003-third.md).\n",
    )
    after, _ = compare(
        config,
        [
            Move("docs/adr/0001-first.md", "docs/adr/archive/0001-first.md"),
            Write("docs/adr/archive/0001-first.md", moved.encode()),
            Write("docs/adr/0002-second.md", relinked.encode()),
        ],
    )
    first = after.get("ADR-0001")
    assert first is not None and first.archived
    assert after.successor("ADR-0001").current == "ADR-0002"


def test_a_move_alone_keeps_links_resolving_by_file_name(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    after, _ = compare(config, [Move("docs/adr/0001-first.md", "docs/adr/archive/0001-first.md")])
    first = after.get("ADR-0001")
    assert first is not None and first.archived
    assert [r.target_id for r in first.relations] == ["ADR-0002"]


def test_a_move_back_out_of_the_archive(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    after, _ = compare(config, [Move("docs/adr/archive/0004-old.md", "docs/adr/0004-old.md")])
    old = after.get("ADR-0004")
    assert old is not None and not old.archived


def test_a_new_record_and_a_supersession_written_on_both_sides(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    new = rec(5, "Accepted", "\nSupersedes [3. Third](0003-third.md)\n")
    old = rec(3, "Superseded by [5. Fifth](0005-fifth.md)", "\nReview by: 2026-01-01\n")
    after, _ = compare(
        config,
        [
            Write("docs/adr/0005-fifth.md", new.encode()),
            Write("docs/adr/0003-third.md", old.encode()),
        ],
    )
    assert after.successor("ADR-0003").current == "ADR-0005"


def test_a_supersession_written_on_one_side_only(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    new = rec(5, "Accepted", "\nSupersedes [3. Third](0003-third.md)\n")
    after, _ = compare(config, [Write("docs/adr/0005-fifth.md", new.encode())])
    assert {p.code for p in after.problems} >= {"ADR005", "ADR016"}


def test_a_removed_record_and_a_renumbered_one(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    compare(
        config,
        [
            Remove("docs/adr/0003-third.md"),
            Move("docs/adr/0002-second.md", "docs/adr/0003-second.md"),
        ],
    )


def test_new_files_that_are_no_records(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    after, _ = compare(
        config,
        [
            Write("docs/adr/0000-template.md", b"# Template\n"),
            Write("docs/adr/0000-blank.md", b"# {short title}\n\n## Status\n\n{status}\n"),
            Write("docs/adr/index.md", b"# Index\n"),
            Write("docs/adr/_draft.md", rec(6, "Draft").encode()),
            Write("docs/adr/de/0003-third.md", rec(3, "Angenommen").encode()),
            Write("docs/guide.md", b"# Guide\n"),
            Write("docs/adr/notes.txt", b"not markdown\n"),
            Write("docs/adr/0006-real.md", rec(6, "Proposed").encode()),
        ],
    )
    reasons = {e.path: e.reason for e in after.excluded}
    assert reasons["docs/adr/0000-template.md"] == "template"
    assert reasons["docs/adr/0000-blank.md"] == "template"  # by its placeholders
    assert reasons["docs/adr/_draft.md"] == "draft"
    assert reasons["docs/adr/de/0003-third.md"] == "mirror"


def test_a_mirror_moves_with_its_record(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    compare(
        config,
        [
            Move("docs/adr/0002-second.md", "docs/adr/archive/0002-second.md"),
            Move("docs/adr/fr/0002-second.md", "docs/adr/archive/fr/0002-second.md"),
        ],
    )


def test_a_record_in_a_new_domain_folder_changes_the_layout(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    after, _ = compare(config, [Write("docs/adr/platform/0007-db.md", rec(7, "Accepted").encode())])
    assert after.roots[0].layout == "mixed"
    assert after.by_path["docs/adr/platform/0007-db.md"].domain == "platform"


@pytest.mark.parametrize("layout", ["flat", "layered"])
def test_a_configured_layout(tmp_path: Path, layout: str) -> None:
    config = make(tmp_path, BASE, layout=layout)
    compare(config, [Write("docs/adr/platform/0007-db.md", rec(7, "Accepted").encode())])


def test_nested_roots_take_their_own_files(tmp_path: Path) -> None:
    files = {
        "docs/adr/0001-a.md": rec(1, "Accepted"),
        "docs/adr/platform/0001-p.md": rec(1, "Accepted"),
    }
    roots = (RootConfig("adr"), RootConfig("adr/platform", prefix="PLAT"))
    config = make(tmp_path, files, roots=roots)
    after, _ = compare(
        config,
        [
            Write("docs/adr/platform/0002-q.md", rec(2, "Accepted").encode()),
            Move("docs/adr/0001-a.md", "docs/adr/archive/0001-a.md"),
        ],
    )
    assert after.by_path["docs/adr/platform/0002-q.md"].id == "PLAT-0002"


def test_a_written_file_in_the_work_folder_is_no_record(tmp_path: Path) -> None:
    config = make(tmp_path, BASE, work_dir=tmp_path / "docs" / "adr" / ".work")
    (tmp_path / "docs" / "adr" / ".work").mkdir()
    compare(
        config,
        [
            Write("docs/adr/.work/0009-plan.md", rec(9, "Accepted").encode()),
            Write("docs/adr/0009-real.md", rec(9, "Accepted").encode()),
        ],
    )


def test_an_empty_edit_list_gives_the_same_log(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    before = load(config, today=TODAY)
    assert snapshot(whatif.after(before, [])) == snapshot(before)
    assert before.problems, "the base log has problems to carry over"


def test_today_defaults_to_the_logs_own(tmp_path: Path) -> None:
    config = make(tmp_path, BASE)
    before = load(config, today=dt.date(2025, 1, 1))
    assert not [p for p in whatif.after(before, []).problems if p.code == "ADR017"]
    later = whatif.after(before, [], today=TODAY)
    assert [p for p in later.problems if p.code == "ADR017"]


# --------------------------------------------------------------------- the callers


def _no_temp_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> object:
        raise AssertionError(
            "a temporary folder was made: the log after must be worked out in memory"
        )

    monkeypatch.setattr(tempfile, "TemporaryDirectory", refuse)
    monkeypatch.setattr(tempfile, "mkdtemp", refuse)


def test_an_archive_plan_predicts_the_log_its_apply_leaves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lab = make_lab(tmp_path / "lab")
    config = load_from_mkdocs_yml(lab / "mkdocs.yml")
    before = load(config, today=TODAY)
    chosen = [before.by_path[c.path] for c in candidates(before) if c.eligible]
    assert chosen, "the lab has records to archive"
    with monkeypatch.context() as patch:
        _no_temp_folders(patch)
        draft = planner.relocate(
            config, before, [(r, moves.archive_target(config, r)) for r in chosen]
        )
    assert any(i.change == "regenerated" for i in draft.index), draft.index
    edits: list[whatif.Edit] = [Move(m.source, m.target) for m in draft.moves]
    edits += [Write(path, data) for path, data in sorted(draft.contents.items())]
    predicted = whatif.after(before, edits)
    code, out, err = invoke("archive", "--json", cwd=lab)
    assert code in (0, 1), err
    code, out, err = invoke("plan", "--confirm", json_of(out)["plan_id"], cwd=lab)
    assert code == 0, out + err
    real = load(config, today=TODAY)
    assert snapshot(predicted) == snapshot(real)
    assert all(r.archived for r in real.records if r.id in {c.id for c in chosen})
    info = real.roots[0]
    index = (lab / info.path / "INDEX.md").read_text(encoding="utf-8")
    assert index == index_view.render(predicted, info)


def test_authoring_reads_its_edits_back_without_a_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = make(tmp_path, BASE)
    _no_temp_folders(monkeypatch)
    calls: list[int] = []
    real_after = whatif.after

    def counting(log: Log, edits: Any, **kwargs: Any) -> Log:
        calls.append(1)
        return real_after(log, edits, **kwargs)

    monkeypatch.setattr(whatif, "after", counting)
    out = supersede(config, "ADR-0003", "ADR-0002", dry_run=True, today=TODAY)
    assert calls, "authoring did not read its edits back through whatif.after"
    assert {c.path for c in out.changes} >= {"docs/adr/0003-third.md"}


@pytest.mark.parametrize("name", fixture_logs())
def test_locate_places_every_file_as_discovery_does(name: str) -> None:
    folder = LOGS / name
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    config = from_options(
        expected.get("config", {}), project_dir=folder, docs_dir=folder, config_file=None
    )
    found = discover(config)
    checked = 0
    for item in found.found:
        where = locate(config, item.path, item.abspath.read_bytes())
        assert isinstance(where, Found), (item.path, where)
        assert (where.root, where.path, where.rel, where.domain, where.archived) == (
            item.root,
            item.path,
            item.rel,
            item.domain,
            item.archived,
        )
        checked += 1
    for entry in found.excluded:
        if entry.path.endswith("/") or entry.reason.startswith("symlink"):
            continue  # a folder, or a link: no one file to place
        assert locate(config, entry.path, (folder / entry.path).read_bytes()) == entry
        checked += 1
    assert checked, "the fixture log has files to place"
    placed = [(f.root.path, f.rel) for f in found.found]
    assert layouts_of(config, placed) == found.layouts
