"""`new`, `supersede` and `link`: both sides written in each record's own style.

Every test reads the result back through the engine (`log.load`), never by
looking for strings, so "written" always means "read as intended".
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mkdocs_adr import authoring
from mkdocs_adr.authoring import AuthoringRefused, NewOptions
from mkdocs_adr.authoring.plan import verify_applied
from mkdocs_adr.cli import cli
from mkdocs_adr.config import Config, for_root, load_from_mkdocs_yml
from mkdocs_adr.log import Log, load
from mkdocs_adr.model import Severity
from mkdocs_adr.plans import list_plans

from .conftest import LOGS, run_cli, tree_digest

STYLES = ("nygard", "madr2", "madr", "log4brains", "frontmatter")
DATE = "2024-01-01"


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def record_text(style: str, n: int, title: str, status: str) -> tuple[str, str]:
    """(file name, text) of a small record in ``style``."""
    slug = _slug(title)
    if style == "nygard":
        return f"{n:04d}-{slug}.md", (
            f"# {n}. {title}\n\nDate: {DATE}\n\n## Status\n\n{status.capitalize()}\n\n"
            "## Context\n\nWhy.\n\n## Decision\n\nWhat.\n"
        )
    if style == "madr2":
        return f"{n:04d}-{slug}.md", (
            f"# {title}\n\n* Status: {status}\n* Deciders: Ana\n* Date: {DATE}\n\n"
            "## Context and Problem Statement\n\nWhy.\n\n## Decision Outcome\n\nWhat.\n"
        )
    if style == "log4brains":
        return f"2024010{n}-{slug}.md", (
            f"# {title}\n\n- Status: {status}\n- Date: {DATE}\n- Tags: web\n\n"
            "## Context and Problem Statement\n\nWhy.\n\n## Decision Outcome\n\nWhat.\n"
        )
    if style == "madr":
        return f"{n:04d}-{slug}.md", (
            f"---\n# These are optional elements.\nstatus: {status}\ndate: {DATE}\n"
            "decision-makers: [Ana, Tom]\n---\n"
            f"# {title}\n\n## Context and Problem Statement\n\nWhy.\n"
        )
    assert style == "frontmatter"
    return f"{n:04d}-{slug}.md", (
        f"---\nid: ADR-{n:04d}\ntitle: {title}\nstatus: {status}\ndate: {DATE}\n"
        "tags: [x]\n---\n"
        f"# {title}\n\n## Context\n\nWhy.\n"
    )


def make_log(tmp: Path, specs: list[tuple[str, int, str, str]]) -> tuple[Config, dict[int, str]]:
    """A flat ``adr`` root under ``tmp/docs``; returns the config and number -> id."""
    folder = tmp / "docs" / "adr"
    folder.mkdir(parents=True, exist_ok=True)
    ids: dict[int, str] = {}
    for style, n, title, status in specs:
        name, text = record_text(style, n, title, status)
        (folder / name).write_text(text, encoding="utf-8")
        ids[n] = name[:-3] if style == "log4brains" else f"ADR-{n:04d}"
    (tmp / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - adr\n", encoding="utf-8")
    return load_from_mkdocs_yml(tmp / "mkdocs.yml"), ids


def rec_of(log: Log, rid: str) -> tuple[str, set[tuple[str, str | None]]]:
    rec = log.get(rid)
    assert rec is not None, f"{rid} not in log: {sorted(log.by_id)}"
    return rec.status, {(r.kind, r.target_id) for r in rec.relations if r.authoritative}


def codes_for(log: Log, *ids: str) -> set[str]:
    return {p.code for p in log.problems if set(ids) & set(p.ids)}


def records_dir(tmp: Path) -> dict[str, str]:
    return tree_digest(tmp / "docs")


# --------------------------------------------------------------------- supersede


@pytest.mark.parametrize("old_style", STYLES)
@pytest.mark.parametrize("new_style", STYLES)
def test_supersede_with_accepted_record_in_every_style_pair(
    tmp_path: Path, old_style: str, new_style: str
) -> None:
    config, ids = make_log(
        tmp_path,
        [
            (old_style, 1, "Use MySQL", "accepted"),
            (new_style, 2, "Use PostgreSQL", "accepted"),
            ("nygard", 3, "Unrelated", "accepted"),
        ],
    )
    before = records_dir(tmp_path)
    out = authoring.supersede(config, ids[1], ids[2])
    assert not out.failures and out.plan_id and out.receipt
    log = load(config)
    old_status, old_rels = rec_of(log, ids[1])
    new_status, new_rels = rec_of(log, ids[2])
    assert old_status == "superseded"
    assert ("superseded-by", ids[2]) in old_rels
    assert new_status == "accepted"
    assert ("supersedes", ids[1]) in new_rels
    assert log.successor(ids[1]).current == ids[2]
    assert not codes_for(log, ids[1], ids[2]) & {"ADR003", "ADR005", "ADR006", "ADR016"}
    after = records_dir(tmp_path)
    changed = {p for p in after if after[p] != before.get(p)}
    assert len(changed) == 2, changed  # both records, nothing else
    assert verify_applied(config, list_plans(config.work_path)[-1]) == []


@pytest.mark.parametrize("style", STYLES)
def test_supersede_with_proposed_record_keeps_old_in_effect(tmp_path: Path, style: str) -> None:
    config, ids = make_log(
        tmp_path, [(style, 1, "Use MySQL", "accepted"), (style, 2, "Use PostgreSQL", "proposed")]
    )
    out = authoring.supersede(config, ids[1], ids[2])
    assert any("stays in effect" in n for n in out.notes)
    log = load(config)
    old_status, old_rels = rec_of(log, ids[1])
    _, new_rels = rec_of(log, ids[2])
    assert old_status == "accepted"
    assert ("superseded-by", ids[2]) in old_rels and ("supersedes", ids[1]) in new_rels
    old = log.get(ids[1])
    assert old is not None and log.in_effect(old)
    assert not codes_for(log, ids[1], ids[2]) & {"ADR005", "ADR006", "ADR016"}

    # the successor is accepted later, by hand: the log now flags the old record
    new_path = config.project_dir / str(log.get(ids[2]).path)  # type: ignore[union-attr]
    text = new_path.read_text(encoding="utf-8")
    new_path.write_text(
        text.replace("Proposed", "Accepted").replace("proposed", "accepted"), encoding="utf-8"
    )
    accepted_by_hand = load(config)
    assert "ADR016" in codes_for(accepted_by_hand, ids[1])
    if style == "nygard":  # `Accepted` above `Superseded by`: adr link's shape, superseded now
        assert rec_of(accepted_by_hand, ids[1])[0] == "superseded"
        [note] = [p for p in accepted_by_hand.problems if p.code == "ADR016"]
        assert note.severity == Severity.INFO
    # running the same command again finishes the job: only the status changes
    again = authoring.supersede(config, ids[1], ids[2])
    assert [c.path for c in again.changes] == [old.path]
    log = load(config)
    assert rec_of(log, ids[1])[0] == "superseded"
    assert not codes_for(log, ids[1], ids[2]) & {"ADR005", "ADR006", "ADR016"}


def test_supersede_twice_writes_nothing_the_second_time(tmp_path: Path) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("nygard", 2, "B", "accepted")])
    authoring.supersede(config, "1", "2")
    before = tree_digest(tmp_path)
    out = authoring.supersede(config, "ADR-0001", "ADR-0002")
    assert out.changes == [] and "already recorded: nothing to change" in out.notes
    assert tree_digest(tmp_path) == before


def test_nygard_supersede_matches_what_adr_tools_writes(tmp_path: Path) -> None:
    config, _ = make_log(
        tmp_path, [("nygard", 1, "Use MySQL", "accepted"), ("nygard", 2, "Use Pg", "accepted")]
    )
    authoring.supersede(config, "1", "2")
    folder = tmp_path / "docs" / "adr"
    old = (folder / "0001-use-mysql.md").read_text(encoding="utf-8")
    new = (folder / "0002-use-pg.md").read_text(encoding="utf-8")
    assert "## Status\n\nSuperseded by [2. Use Pg](0002-use-pg.md)\n\n## Context" in old
    assert (
        "## Status\n\nAccepted\n\nSupersedes [1. Use MySQL](0001-use-mysql.md)\n\n## Context" in new
    )


def test_madr_forms_follow_madr(tmp_path: Path) -> None:
    config, _ = make_log(
        tmp_path,
        [
            ("madr2", 1, "A", "accepted"),
            ("madr2", 2, "B", "accepted"),
            ("madr", 3, "C", "accepted"),
            ("madr", 4, "D", "accepted"),
        ],
    )
    authoring.supersede(config, "1", "2")
    authoring.supersede(config, "3", "4")
    folder = tmp_path / "docs" / "adr"
    assert "* Status: superseded by [ADR-0002](0002-b.md)\n" in (folder / "0001-a.md").read_text()
    assert "## Links\n\n* Supersedes [ADR-0001](0001-a.md)\n" in (folder / "0002-b.md").read_text()
    assert 'status: "superseded by [ADR-0004](0004-d.md)"\n' in (folder / "0003-c.md").read_text()
    assert "supersedes: [ADR-0003]\n" in (folder / "0004-d.md").read_text()


def test_generic_frontmatter_lists_are_extended_in_their_own_form(tmp_path: Path) -> None:
    config, _ = make_log(
        tmp_path,
        [
            ("frontmatter", 1, "A", "accepted"),
            ("frontmatter", 2, "B", "accepted"),
            ("frontmatter", 3, "C", "accepted"),
            ("frontmatter", 4, "D", "accepted"),
        ],
    )
    folder = tmp_path / "docs" / "adr"
    b = folder / "0002-b.md"
    b.write_text(b.read_text().replace("tags: [x]\n", "tags: [x]\namends:\n  - ADR-0003\n"))
    c = folder / "0003-c.md"
    c.write_text(c.read_text().replace("tags: [x]\n", "tags: [x]\nsupersedes: ADR-0001\n"))
    authoring.link(config, "2", "Amends", "4")
    authoring.supersede(config, "2", "3")
    assert "amends:\n  - ADR-0003\n  - ADR-0004\n" in b.read_text()
    assert "supersedes: [ADR-0001, ADR-0002]\n" in c.read_text()
    text_b = b.read_text()
    assert "status: superseded\n" in text_b and "superseded-by: [ADR-0003]\n" in text_b
    log = load(config)
    assert rec_of(log, "ADR-0002")[1] >= {
        ("amends", "ADR-0003"),
        ("amends", "ADR-0004"),
        ("superseded-by", "ADR-0003"),
    }


def test_crlf_and_bom_are_kept(tmp_path: Path) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("madr", 2, "B", "accepted")])
    folder = tmp_path / "docs" / "adr"
    for path in folder.iterdir():
        data = path.read_bytes().replace(b"\n", b"\r\n")
        path.write_bytes(b"\xef\xbb\xbf" + data if path.name.startswith("0002") else data)
    authoring.supersede(config, "1", "2")
    one = (folder / "0001-a.md").read_bytes()
    two = (folder / "0002-b.md").read_bytes()
    assert b"\r\n" in one and b"\n" not in one.replace(b"\r\n", b"")
    assert two.startswith(b"\xef\xbb\xbf") and b"\n" not in two.replace(b"\r\n", b"")
    assert rec_of(load(config), "ADR-0001")[0] == "superseded"


# --------------------------------------------------------------------- link


@pytest.mark.parametrize("source_style", STYLES)
@pytest.mark.parametrize("target_style", STYLES)
def test_link_in_every_style_pair(tmp_path: Path, source_style: str, target_style: str) -> None:
    config, ids = make_log(
        tmp_path, [(target_style, 1, "Base", "accepted"), (source_style, 2, "Tweak", "accepted")]
    )
    out = authoring.link(config, ids[2], "Amends", ids[1])
    assert len(out.changes) == 2
    log = load(config)
    assert ("amends", ids[1]) in rec_of(log, ids[2])[1]
    assert ("amended-by", ids[2]) in rec_of(log, ids[1])[1]
    assert rec_of(log, ids[1])[0] == rec_of(log, ids[2])[0] == "accepted"
    assert not codes_for(log, ids[1], ids[2]) & {"ADR001", "ADR003", "ADR014"}


def test_link_verbs_and_inverses(tmp_path: Path) -> None:
    config, _ = make_log(
        tmp_path,
        [
            ("nygard", 1, "A", "accepted"),
            ("nygard", 2, "B", "accepted"),
            ("frontmatter", 3, "C", "accepted"),
        ],
    )
    authoring.link(config, "2", "Clarifies", "1")  # default inverse: Clarified by
    text = (tmp_path / "docs/adr/0001-a.md").read_text()
    assert "Clarified by [2. B](0002-b.md)" in text
    authoring.link(config, "2", "Governs", "1", "Governed by")  # any wording, as adr-tools
    assert "Governed by [2. B](0002-b.md)" in (tmp_path / "docs/adr/0001-a.md").read_text()
    out = authoring.link(config, "2", "Depends on", "3")
    assert any("no key for 'Depended on by'" in n for n in out.notes)
    log = load(config)
    assert ("relates-to", "ADR-0001") in rec_of(log, "ADR-0002")[1]
    assert ("depends-on", "ADR-0003") in rec_of(log, "ADR-0002")[1]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("2", "Blesses", "1"), "has no default inverse"),
        (("2", "Supersedes", "1"), "use `mkdocs-adr supersede"),
        (("2", "Amends", "2"), "cannot be linked to itself"),
        (("2", "Am[ends", "1", "x"), "cannot be written as a link line"),
    ],
)
def test_link_refusals(tmp_path: Path, args: tuple[str, ...], needle: str) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("nygard", 2, "B", "accepted")])
    before = tree_digest(tmp_path)
    with pytest.raises(AuthoringRefused) as err:
        authoring.link(config, *args)
    assert needle in err.value.message
    assert err.value.exit_code == 2
    assert tree_digest(tmp_path) == before


# --------------------------------------------------------------------- refusals


def test_every_reason_is_named_at_once(tmp_path: Path) -> None:
    shutil.copytree(LOGS / "messy", tmp_path / "messy")
    config = for_root(Path("adr"), cwd=tmp_path / "messy")
    log = load(config)
    table = next(r for r in log.records if r.style == "table")
    before = tree_digest(tmp_path)
    with pytest.raises(AuthoringRefused) as err:
        authoring.new(
            config,
            NewOptions(
                title="Use something",
                supersedes=["ADR-0011", "ADR-0999", table.id],
                links=[authoring.LinkSpec("Amends", "nonsense-id")],
            ),
        )
    text = err.value.message
    assert "'ADR-0011' is ambiguous" in text
    assert "'ADR-0999': no such record" in text and "nearest:" in text
    assert f"{table.id} is written in style 'table'" in text
    assert "'nonsense-id': no such record" in text
    assert err.value.exit_code == 2  # unknown ids are usage errors
    assert tree_digest(tmp_path) == before


def test_archived_container_and_status_refusals(tmp_path: Path) -> None:
    shutil.copytree(LOGS / "layered", tmp_path / "layered")
    (tmp_path / "layered" / "mkdocs.yml").write_text(
        "site_name: x\ndocs_dir: .\nplugins:\n  - adr:\n      roots: [adr, "
        "{path: services/payments/adr, prefix: PAY}]\n",
        encoding="utf-8",
    )
    config = load_from_mkdocs_yml(tmp_path / "layered" / "mkdocs.yml")
    with pytest.raises(AuthoringRefused) as err:
        authoring.supersede(config, "ADR-0002", "ADR-0005")
    text = err.value.message
    assert "ADR-0002 is archived" in text
    assert "ADR-0005 is a container record" in text
    assert err.value.exit_code == 3
    with pytest.raises(AuthoringRefused) as err:
        authoring.new(config, NewOptions(title="X"))
    assert "pass --domain (one of: payments, platform, security)" in err.value.message
    with pytest.raises(AuthoringRefused) as err:
        authoring.new(config, NewOptions(title="X", domain="paymnets"))
    assert "domain 'paymnets' does not exist" in err.value.message


def test_succession_refusals(tmp_path: Path) -> None:
    config, _ = make_log(
        tmp_path,
        [
            ("nygard", 1, "A", "accepted"),
            ("nygard", 2, "B", "accepted"),
            ("nygard", 3, "C", "accepted"),
            ("nygard", 4, "D", "rejected"),
        ],
    )
    authoring.supersede(config, "1", "2")
    cases = [
        (("2", "1"), "the reverse would be a cycle"),
        (("1", "3"), "already superseded by ADR-0002"),
        (("4", "3"), "OLD ADR-0004 is rejected"),
        (("3", "4"), "NEW ADR-0004 is rejected"),
        (("3", "3"), "cannot supersede itself"),
    ]
    for args, needle in cases:
        with pytest.raises(AuthoringRefused) as err:
            authoring.supersede(config, *args)
        assert needle in err.value.message, (args, err.value.message)


def test_unsafe_status_paragraph_is_refused(tmp_path: Path) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("nygard", 2, "B", "accepted")])
    path = tmp_path / "docs/adr/0001-a.md"
    two_lines = "Accepted on 2024-01-01\nby the board\n"
    path.write_text(path.read_text().replace("Accepted\n", two_lines))
    before = tree_digest(tmp_path)
    with pytest.raises(AuthoringRefused) as err:
        authoring.supersede(config, "1", "2")
    assert "status paragraph spans 2 lines" in err.value.message
    assert tree_digest(tmp_path) == before


# --------------------------------------------------------------------- new


@pytest.mark.parametrize("style", STYLES)
def test_new_in_each_style_reads_back(tmp_path: Path, style: str) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted")])
    out = authoring.new(
        config,
        NewOptions(
            title="Cache exchange rates",
            style=style,
            status="accepted",
            date=__import__("datetime").date(2024, 5, 6),
        ),
    )
    path = out.record.path
    expected = (
        "docs/adr/20240506-cache-exchange-rates.md"
        if style == "log4brains"
        else "docs/adr/0002-cache-exchange-rates.md"
    )
    assert path == expected
    log = load(config)
    rec = log.by_path[path]
    assert (rec.style, rec.title, rec.status, rec.date) == (
        style,
        "Cache exchange rates",
        "accepted",
        "2024-05-06",
    )
    assert rec.id == out.record.id
    assert not [p for p in log.problems if rec.id in p.ids]


def test_new_numbers_after_archive_and_drafts_and_keeps_padding(tmp_path: Path) -> None:
    folder = tmp_path / "adr"
    (folder / "archive").mkdir(parents=True)
    for name in ("001-a.md", "002-b.md", "archive/007-old.md"):
        n = int(name.split("/")[-1][:3])
        (folder / name).write_text(f"# {n}. X\n\n## Status\n\nAccepted\n", encoding="utf-8")
    (folder / "009-idea.draft.md").write_text("# 9. Idea\n", encoding="utf-8")
    config = for_root(Path("adr"), cwd=tmp_path)
    out = authoring.new(config, NewOptions(title="Next one"))
    assert out.record.path == "adr/010-next-one.md"
    assert out.record.id == "ADR-0010"
    assert load(config).by_path["adr/010-next-one.md"].style == "nygard"  # the majority


def test_new_with_supersedes_and_links_updates_the_others(tmp_path: Path) -> None:
    config, _ = make_log(
        tmp_path,
        [
            ("madr2", 1, "A", "accepted"),
            ("madr", 2, "B", "accepted"),
            ("frontmatter", 3, "C", "accepted"),
        ],
    )
    out = authoring.new(
        config,
        NewOptions(
            title="D",
            style="frontmatter",
            status="accepted",
            supersedes=["1"],
            links=[
                authoring.parse_link_spec("Amends:ADR-0002"),
                authoring.parse_link_spec("3:Clarifies:Clarified by"),
            ],
        ),
    )
    rid = out.record.id
    assert rid == "ADR-0004"
    log = load(config)
    assert rec_of(log, "ADR-0001") == ("superseded", {("superseded-by", rid)})
    assert ("amended-by", rid) in rec_of(log, "ADR-0002")[1]
    assert ("relates-to", rid) in rec_of(log, "ADR-0003")[1]
    assert rec_of(log, rid)[1] == {
        ("supersedes", "ADR-0001"),
        ("amends", "ADR-0002"),
        ("relates-to", "ADR-0003"),
    }
    assert [c.action for c in out.changes] == ["created", "updated", "updated", "updated"]


def test_new_fills_templates(tmp_path: Path) -> None:
    # adr-tools' templates/template.md
    shutil.copytree(LOGS / "adrtools", tmp_path / "a")
    config = for_root(Path("adr"), cwd=tmp_path / "a")
    out = authoring.new(config, NewOptions(title="Use DATE types", status="accepted"))
    text = (tmp_path / "a" / out.record.path).read_text()
    assert text.startswith("# 8. Use DATE types\n\nDate: ")
    assert "\n## Status\n\nAccepted\n" in text
    assert "What is the issue that we're seeing" in text  # the template's own prose
    # this project's template: ADR-NNNN, YYYY-MM-DD
    folder = tmp_path / "b" / "adr"
    folder.mkdir(parents=True)
    shutil.copy(Path(__file__).parent.parent / "docs" / "adr" / "template.md", folder)
    config = for_root(Path("adr"), cwd=tmp_path / "b")
    out = authoring.new(
        config, NewOptions(title="First", date=__import__("datetime").date(2025, 2, 3))
    )
    text = (tmp_path / "b" / out.record.path).read_text()
    assert "id: ADR-0001\ntitle: First\nstatus: proposed\ndate: 2025-02-03\n" in text
    assert "# ADR-0001: First\n" in text
    rec = load(config).by_path["adr/0001-first.md"]
    assert (rec.id, rec.style, rec.status) == ("ADR-0001", "frontmatter", "proposed")


def test_new_review_by_is_written_and_read(tmp_path: Path) -> None:
    import datetime as dt

    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted")])
    for style in STYLES:
        out = authoring.new(
            config,
            NewOptions(
                title=f"R {style}", style=style, status="accepted", review_by=dt.date(2025, 1, 1)
            ),
        )
        rec = load(config).by_path[out.record.path]
        assert rec.parsed.review_by == "2025-01-01", style
    late = load(config, today=dt.date(2025, 3, 1))
    assert sum(1 for p in late.problems if p.code == "ADR017") == len(STYLES)


def test_dry_run_writes_nothing_not_even_the_work_dir(tmp_path: Path) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("madr", 2, "B", "accepted")])
    before = tree_digest(tmp_path)
    out = authoring.new(
        config, NewOptions(title="C", supersedes=["1"], status="accepted"), dry_run=True
    )
    assert tree_digest(tmp_path) == before
    assert not (tmp_path / ".mkdocs-adr").exists()
    assert out.diff.startswith("--- /dev/null\n+++ b/docs/adr/0003-c.md\n")
    assert "--- a/docs/adr/0001-a.md\n+++ b/docs/adr/0001-a.md\n" in out.diff
    # the diff is exact: applying it gives the same bytes as running for real
    real = authoring.new(config, NewOptions(title="C", supersedes=["1"], status="accepted"))
    assert real.diff == out.diff


# --------------------------------------------------------------------- the CLI


def test_cli_new_prints_the_path_and_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_log(tmp_path, [("nygard", 1, "A", "accepted")])
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    res = runner.invoke(cli, ["new", "Use", "Redis", "--status", "accepted"])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == "docs/adr/0002-use-redis.md"
    res = runner.invoke(
        cli, ["new", "Use Kafka", "-s", "2", "--json", "-f", "mkdocs.yml", "--date", "2024-02-02"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["schema"] == "mkdocs-adr/authoring" and data["ok"] is True
    assert data["record"] == {
        "id": "ADR-0003",
        "path": "docs/adr/0003-use-kafka.md",
        "status": "proposed",
        "style": "nygard",
        "title": "Use Kafka",
    }
    assert [c["action"] for c in data["changes"]] == ["created", "updated"]
    assert data["plan_id"].startswith("new-") and data["receipt"]
    assert any("stays in effect" in n for n in data["notes"])


def test_cli_supersede_and_link_with_root_and_dry_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("madr2", 2, "B", "accepted")])
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    before = tree_digest(tmp_path)
    res = runner.invoke(cli, ["--root", "docs/adr", "supersede", "1", "--by", "2", "--dry-run"])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("--- a/docs/adr/0001-a.md")
    assert "dry run: nothing was written" in res.stderr
    assert tree_digest(tmp_path) == before
    res = runner.invoke(cli, ["supersede", "1", "--by", "2", "--root", "docs/adr", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {c["id"] for c in data["changes"]} == {"ADR-0001", "ADR-0002"}
    res = runner.invoke(cli, ["link", "2", "Clarifies", "1", "--root", "docs/adr"])
    assert res.exit_code == 0, res.output
    assert "updated docs/adr/0002-b.md (ADR-0002): Clarifies ADR-0001" in res.stdout


def test_cli_refusals_exit_codes_and_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_log(tmp_path, [("nygard", 1, "A", "accepted")])
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    res = runner.invoke(cli, ["supersede", "1", "--by", "9"])
    assert res.exit_code == 2
    assert "NEW '9': no such record" in res.stderr and "Traceback" not in res.output
    res = runner.invoke(cli, ["supersede", "1", "--by", "9", "--json"])
    assert res.exit_code == 2
    assert json.loads(res.stdout)["refused"] == ["NEW '9': no such record (nearest: ADR-0001)"]
    res = runner.invoke(cli, ["new", "X", "--link", "nonsense"])
    assert res.exit_code == 2 and "is not VERB:ID" in res.stderr
    res = runner.invoke(cli, ["new", "X", "--style", "table"])
    assert res.exit_code == 2  # click refuses an unknown choice
    res = runner.invoke(cli, ["new"])
    assert res.exit_code == 2


def test_cli_edit_opens_visual_and_needs_an_editor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_log(tmp_path, [("nygard", 1, "A", "accepted")])
    monkeypatch.chdir(tmp_path)
    editor = tmp_path / "editor.py"
    editor.write_text("import sys\nopen(sys.argv[1], 'a').write('Edited.\\n')\n", encoding="utf-8")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    runner = CliRunner()
    before = tree_digest(tmp_path)
    res = runner.invoke(cli, ["new", "X", "--edit"])
    assert res.exit_code == 2 and "neither $VISUAL nor $EDITOR" in res.stderr
    assert tree_digest(tmp_path) == before
    monkeypatch.setenv("EDITOR", "false-editor-never-used")
    monkeypatch.setenv("VISUAL", f"{sys.executable} {editor}")
    res = runner.invoke(cli, ["new", "X", "--edit"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "docs/adr/0002-x.md").read_text().endswith("Edited.\n")
    res = runner.invoke(cli, ["new", "Y"])  # no --edit: no editor, ever
    assert not (tmp_path / "docs/adr/0003-y.md").read_text().endswith("Edited.\n")


def test_real_subprocess_new(tmp_path: Path) -> None:
    make_log(tmp_path, [("frontmatter", 1, "A", "accepted")])
    proc = run_cli("new", "Adopt", "OpenAPI", "--status", "accepted", cwd=tmp_path, check=True)
    assert proc.stdout.strip() == "docs/adr/0002-adopt-openapi.md"
    assert "created docs/adr/0002-adopt-openapi.md (ADR-0002)" in proc.stderr
    proc = run_cli("plan", "--json", cwd=tmp_path, check=True)
    recs = {r["id"]: r for r in json.loads(proc.stdout)["records"]}
    assert recs["ADR-0002"]["status"] == "accepted" and recs["ADR-0002"]["style"] == "frontmatter"


# --------------------------------------------------------------------- crashes and locks


def _cli_env(crash: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("MKDOCS_ADR_CRASH_AT", None)
    if crash:
        env["MKDOCS_ADR_CRASH_AT"] = crash
    return env


def _cli(args: list[str], cwd: Path, crash: str | None = None) -> tuple[int, str, str]:
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", *args],
        cwd=cwd,
        env=_cli_env(crash),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("crash", ["0:after", "1", "1:after"])
def test_interrupted_supersede_never_leaves_one_side(tmp_path: Path, crash: str) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("madr", 2, "B", "accepted")])
    original = records_dir(tmp_path)
    code, _, _ = _cli(["supersede", "1", "--by", "2"], tmp_path, crash)
    assert code == 75  # the crash switch killed it mid-plan
    half = records_dir(tmp_path)
    assert half != original  # one side is written: the journal knows
    # another authoring command refuses while a plan is half-applied
    code, _, err = _cli(["link", "2", "Amends", "1"], tmp_path)
    assert code == 3 and "was interrupted" in err and "plan --rollback" in err
    # running the same command again finishes it, without redoing finished steps
    code, out, err = _cli(["supersede", "ADR-0001", "--by", "ADR-0002"], tmp_path)
    assert code == 0, err
    assert "finished the interrupted plan" in out
    log = load(config)
    assert rec_of(log, "ADR-0001") == ("superseded", {("superseded-by", "ADR-0002")})
    assert rec_of(log, "ADR-0002")[1] == {("supersedes", "ADR-0001")}


def test_interrupted_supersede_rolls_back_to_both_originals(tmp_path: Path) -> None:
    from mkdocs_adr import journal

    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("madr", 2, "B", "accepted")])
    original = records_dir(tmp_path)
    code, _, _ = _cli(["supersede", "1", "--by", "2"], tmp_path, "1")
    assert code == 75
    plan = list_plans(config.work_path)[-1]
    journal.rollback(config.project_dir, config.work_path, plan.plan_id)
    assert records_dir(tmp_path) == original
    code, _, err = _cli(["supersede", "1", "--by", "2"], tmp_path)  # and it can be done again
    assert code == 0, err
    assert rec_of(load(config), "ADR-0001")[0] == "superseded"


def test_two_new_at_once_never_share_a_number(tmp_path: Path) -> None:
    import subprocess

    make_log(tmp_path, [("nygard", 1, "A", "accepted")])
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "mkdocs_adr", "new", f"Parallel {i}", "--json"],
            cwd=tmp_path,
            env=_cli_env(None),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(4)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], results
    ids = [json.loads(out)["record"]["id"] for out, _ in results]
    assert sorted(ids) == ["ADR-0002", "ADR-0003", "ADR-0004", "ADR-0005"]
    log = load(load_from_mkdocs_yml(tmp_path / "mkdocs.yml"))
    assert not [p for p in log.problems if p.code == "ADR002"]


def test_verify_applied_reports_a_record_that_no_longer_reads_as_planned(
    tmp_path: Path,
) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted"), ("nygard", 2, "B", "accepted")])
    authoring.supersede(config, "1", "2")
    plan = list_plans(config.work_path)[-1]
    path = tmp_path / "docs/adr/0001-a.md"
    path.write_text(path.read_text().replace("Superseded by", "Amended by"))
    problems = verify_applied(config, plan)
    assert "ADR-0001 reads as status 'missing', not 'superseded'" in problems
    assert "ADR-0001 does not read as 'superseded-by ADR-0002'" in problems


def test_new_picks_a_root_by_folder_or_prefix_and_numbers_it_alone(tmp_path: Path) -> None:
    shutil.copytree(LOGS / "layered", tmp_path / "layered")
    (tmp_path / "layered" / "mkdocs.yml").write_text(
        "site_name: x\ndocs_dir: .\nplugins:\n  - adr:\n      roots: [adr, "
        "{path: services/payments/adr, prefix: PAY}]\n",
        encoding="utf-8",
    )
    config = load_from_mkdocs_yml(tmp_path / "layered" / "mkdocs.yml")
    out = authoring.new(config, NewOptions(title="Refund in batches", adr_root="PAY"))
    assert out.record.id == "PAY-0003"
    assert out.record.path == "services/payments/adr/0003-refund-in-batches.md"
    # without --adr-root, a record superseding a PAY record goes to the PAY root
    out = authoring.new(config, NewOptions(title="Retry less", supersedes=["PAY-0002"]))
    assert out.record.id == "PAY-0004"
    # the system root: after its highest number, a draft's number included
    out = authoring.new(config, NewOptions(title="Use gRPC", domain="platform"))
    assert out.record.path == "adr/platform/0010-use-grpc.md"
    with pytest.raises(AuthoringRefused) as err:
        authoring.new(config, NewOptions(title="X", adr_root="nowhere"))
    assert "--adr-root 'nowhere' is not a configured root" in err.value.message


def test_new_refuses_a_missing_root_folder(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - adr\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    config = load_from_mkdocs_yml(tmp_path / "mkdocs.yml")
    with pytest.raises(AuthoringRefused) as err:
        authoring.new(config, NewOptions(title="First"))
    assert "ADR root docs/adr does not exist; create the folder first" in err.value.message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs", "mkdocs.yml"]


def test_a_symlinked_record_is_not_written_through(tmp_path: Path) -> None:
    config, _ = make_log(tmp_path, [("nygard", 1, "A", "accepted")])
    real = tmp_path / "shared.md"
    real.write_text(record_text("nygard", 2, "B", "accepted")[1], encoding="utf-8")
    (tmp_path / "docs/adr/0002-b.md").symlink_to(real)
    with pytest.raises(AuthoringRefused) as err:
        authoring.supersede(config, "1", "2")
    assert "ADR-0002 is a symlink" in err.value.message


def test_cli_link_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_log(tmp_path, [("madr2", 1, "A", "accepted"), ("frontmatter", 2, "B", "accepted")])
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["link", "2", "Extends", "1", "--json", "--dry-run"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["dry_run"] is True and data["plan_id"] is None
    assert [(c["id"], c["what"]) for c in data["changes"]] == [
        ("ADR-0002", ["Extends ADR-0001"]),
        ("ADR-0001", ["Extended by ADR-0002"]),
    ]
    assert "+extends: [ADR-0001]" in data["diff"]
    assert "+* Extended by [ADR-0002](0002-b.md)" in data["diff"]
