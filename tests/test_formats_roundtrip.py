"""Every format mkdocs-adr writes reads back as written.

For each writable style (adr-tools/Nygard, MADR 2, MADR 3/4, log4brains, our generic
frontmatter) a record is written the way users write one (``mkdocs-adr new``, then
``supersede``) and by the library writers directly, then read back with the parser
(:func:`mkdocs_adr.parsing.parse_bytes`) and, for resolved relations, the engine
(:func:`mkdocs_adr.log.load`). Title, status, date and the supersedes / superseded-by
pair (and ``link``'s amends / amended-by) must survive every step, and the parser must
detect the style that was written.

The metadata-table and inline ``Status:`` formats are read-only (the writers refuse them),
so they have no write round trip here.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mkdocs_adr.authoring import WRITABLE, NewOptions, new, supersede
from mkdocs_adr.authoring.templates import SKELETONS, substitute
from mkdocs_adr.authoring.writers import WRITERS, Ref
from mkdocs_adr.cli import cli
from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS, Config, load_from_mkdocs_yml
from mkdocs_adr.log import load
from mkdocs_adr.model import Parsed
from mkdocs_adr.parsing import ParseOptions, parse_bytes
from mkdocs_adr.parsing.editable import Editable

from .conftest import run_cli

#: The styles this module knows how to write and check, as the parser names them too.
STYLES = ["frontmatter", "log4brains", "madr", "madr2", "nygard"]
STATUSES = ("proposed", "accepted", "rejected", "deprecated", "draft")


def test_every_writable_style_has_a_round_trip() -> None:
    """A style added to the writers fails here until this module covers it."""
    assert sorted(WRITABLE) == STYLES
    assert set(SKELETONS) == set(WRITABLE)


# --------------------------------------------------------------------------- helpers


def make_project(tmp_path: Path, template: str | None = None) -> Path:
    project = tmp_path / "project"
    (project / "docs" / "adr").mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - adr\n", encoding="utf-8")
    if template is not None:
        (project / "docs" / "adr" / "template.md").write_text(template, encoding="utf-8")
    return project


def config_of(project: Path) -> Config:
    return load_from_mkdocs_yml(project / "mkdocs.yml")


def adr(project: Path, *args: str) -> dict[str, object]:
    """``mkdocs-adr -f mkdocs.yml ARGS --json`` in process; the JSON it prints."""
    result = CliRunner().invoke(cli, ["-f", str(project / "mkdocs.yml"), *args, "--json"])
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    data = json.loads(result.stdout)
    assert data["ok"] is True, data
    return dict(data)


def created(data: dict[str, object]) -> tuple[str, str]:
    """(id, project-relative path) of the record a ``new`` wrote."""
    record = data["record"]
    assert isinstance(record, dict)
    return str(record["id"]), str(record["path"])


def parsed(project: Path, rel: str) -> Parsed:
    options = ParseOptions.from_config(config_of(project))
    return parse_bytes((project / rel).read_bytes(), path=rel, options=options)


def relations(project: Path, rid: str) -> tuple[str, set[tuple[str, str | None]]]:
    """(status, {(kind, resolved target id)}) of ``rid``'s authoritative relations."""
    log = load(config_of(project))
    rec = log.get(rid)
    assert rec is not None, (rid, sorted(log.by_id))
    return rec.status, {(r.kind, r.target_id) for r in rec.relations if r.authoritative}


def parsed_targets(p: Parsed, kind: str) -> list[str]:
    """The targets of ``kind`` relations as written in the file (before resolution)."""
    return [r.target for r in p.relations if r.kind == kind and r.authoritative]


def names(rid: str, rel: str) -> tuple[str, ...]:
    """Ways a written relation may name a record: its id, or a link to its file."""
    return (rid, rel.rsplit("/", 1)[-1])


def assert_fields(p: Parsed, style: str, title: str, status: str, date: str) -> None:
    assert p.style == style, p
    assert p.title == title, p
    assert p.status == status, (p.status, p.raw_status)
    assert p.date == date, (p.date, p.raw_date)
    assert not [x for x in p.problems if x.severity.value != "info"], p.problems


# --------------------------------------------------------------------------- the CLI


@pytest.mark.parametrize("style", STYLES)
def test_new_then_new_superseding_reads_back(tmp_path: Path, style: str) -> None:
    project = make_project(tmp_path)
    old_id, old_rel = created(
        adr(
            project,
            "new",
            "Use MySQL",
            "--style",
            style,
            "--status",
            "accepted",
            "--date",
            "2024-03-01",
        )
    )
    assert_fields(parsed(project, old_rel), style, "Use MySQL", "accepted", "2024-03-01")

    new_id, new_rel = created(
        adr(
            project,
            "new",
            "Use PostgreSQL",
            "--style",
            style,
            "--status",
            "accepted",
            "--date",
            "2024-04-02",
            "-s",
            old_id,
        )
    )
    assert new_id != old_id
    new_p = parsed(project, new_rel)
    assert_fields(new_p, style, "Use PostgreSQL", "accepted", "2024-04-02")
    written = parsed_targets(new_p, "supersedes")
    assert written, new_p.relations
    assert any(n in t for t in written for n in names(old_id, old_rel)), written

    # the old record was rewritten in its own style: still its title and date
    old_p = parsed(project, old_rel)
    assert_fields(old_p, style, "Use MySQL", "superseded", "2024-03-01")
    back = parsed_targets(old_p, "superseded-by")
    assert back, old_p.relations
    assert any(n in t for t in back for n in names(new_id, new_rel)), back

    # and the engine resolves both sides to each other
    assert relations(project, old_id) == ("superseded", {("superseded-by", new_id)})
    assert relations(project, new_id) == ("accepted", {("supersedes", old_id)})
    assert load(config_of(project)).successor(old_id).current == new_id


@pytest.mark.parametrize("style", STYLES)
def test_proposed_successor_then_accepted_then_supersede(tmp_path: Path, style: str) -> None:
    """The status changes through the writers: proposed, accepted by the writer, superseded."""
    project = make_project(tmp_path)
    old_id, old_rel = created(
        adr(
            project,
            "new",
            "Use cron",
            "--style",
            style,
            "--status",
            "accepted",
            "--date",
            "2024-05-01",
        )
    )
    new_id, new_rel = created(
        adr(
            project,
            "new",
            "Use a workflow engine",
            "--style",
            style,
            "--date",
            "2024-06-01",
            "-s",
            old_id,
        )
    )
    # a proposal records the relation on both sides, and the old record keeps its status
    assert_fields(
        parsed(project, new_rel), style, "Use a workflow engine", "proposed", "2024-06-01"
    )
    assert_fields(parsed(project, old_rel), style, "Use cron", "accepted", "2024-05-01")
    assert relations(project, old_id) == ("accepted", {("superseded-by", new_id)})
    assert relations(project, new_id) == ("proposed", {("supersedes", old_id)})

    # the successor is accepted by its style's writer (what an author does by hand)
    config = config_of(project)
    headings = frozenset(h.lower() for h in config.status_headings)
    ed = Editable.from_bytes(new_rel, (project / new_rel).read_bytes(), headings)
    WRITERS[style].set_status(ed, "Accepted" if style == "nygard" else "accepted")
    (project / new_rel).write_bytes(ed.to_bytes())
    assert_fields(
        parsed(project, new_rel), style, "Use a workflow engine", "accepted", "2024-06-01"
    )

    data = adr(project, "supersede", old_id, "--by", new_id)
    assert data["plan_id"], data
    assert_fields(parsed(project, old_rel), style, "Use cron", "superseded", "2024-05-01")
    assert_fields(
        parsed(project, new_rel), style, "Use a workflow engine", "accepted", "2024-06-01"
    )
    assert relations(project, old_id) == ("superseded", {("superseded-by", new_id)})
    assert relations(project, new_id) == ("accepted", {("supersedes", old_id)})
    # a second run changes nothing
    before = (project / old_rel).read_bytes(), (project / new_rel).read_bytes()
    again = adr(project, "supersede", old_id, "--by", new_id)
    assert again["changes"] == []
    assert ((project / old_rel).read_bytes(), (project / new_rel).read_bytes()) == before


@pytest.mark.parametrize("style", STYLES)
def test_library_new_and_supersede_between_two_existing_records(tmp_path: Path, style: str) -> None:
    """:func:`authoring.new` and :func:`authoring.supersede` as the CLI calls them."""
    project = make_project(tmp_path)
    config = config_of(project)
    first = new(
        config,
        NewOptions(
            title="Keep sessions in memory",
            style=style,
            status="accepted",
            date=dt.date(2023, 1, 9),
        ),
    )
    second = new(
        config,
        NewOptions(
            title="Keep sessions in Redis",
            style=style,
            status="accepted",
            date=dt.date(2023, 2, 10),
        ),
    )
    assert not first.failures and not second.failures
    old_id, old_rel = first.record.id, first.record.path
    new_id, new_rel = second.record.id, second.record.path
    assert relations(project, old_id) == ("accepted", set())
    out = supersede(config, old_id, new_id)
    assert not out.failures and out.plan_id
    assert {c.path for c in out.changes} == {old_rel, new_rel}
    assert_fields(
        parsed(project, old_rel), style, "Keep sessions in memory", "superseded", "2023-01-09"
    )
    assert_fields(
        parsed(project, new_rel), style, "Keep sessions in Redis", "accepted", "2023-02-10"
    )
    assert relations(project, old_id) == ("superseded", {("superseded-by", new_id)})
    assert relations(project, new_id) == ("accepted", {("supersedes", old_id)})


@pytest.mark.parametrize("style", STYLES)
def test_link_writes_both_sides_and_keeps_status_title_and_date(tmp_path: Path, style: str) -> None:
    project = make_project(tmp_path)
    base_id, base_rel = created(
        adr(
            project,
            "new",
            "Store files in S3",
            "--style",
            style,
            "--status",
            "accepted",
            "--date",
            "2024-09-09",
        )
    )
    amend_id, amend_rel = created(
        adr(
            project,
            "new",
            "Encrypt stored files",
            "--style",
            style,
            "--status",
            "accepted",
            "--date",
            "2024-10-10",
        )
    )
    data = adr(project, "link", amend_id, "Amends", base_id)
    assert data["plan_id"], data
    assert_fields(
        parsed(project, amend_rel), style, "Encrypt stored files", "accepted", "2024-10-10"
    )
    assert_fields(parsed(project, base_rel), style, "Store files in S3", "accepted", "2024-09-09")
    assert parsed_targets(parsed(project, amend_rel), "amends"), "amends is written"
    assert parsed_targets(parsed(project, base_rel), "amended-by"), "amended-by is written"
    assert relations(project, amend_id) == ("accepted", {("amends", base_id)})
    assert relations(project, base_id) == ("accepted", {("amended-by", amend_id)})


def test_the_console_script_writes_what_the_parser_reads(tmp_path: Path) -> None:
    """Once through the real ``mkdocs-adr`` executable, not only the in-process CLI."""
    project = make_project(tmp_path)
    proc = run_cli(
        "new",
        "Use",
        "Kafka",
        "--style",
        "madr",
        "--status",
        "accepted",
        "--date",
        "2025-01-31",
        cwd=project,
        check=True,
    )
    rel = proc.stdout.strip()
    assert rel.endswith("0001-use-kafka.md"), proc.stdout
    assert_fields(parsed(project, rel), "madr", "Use Kafka", "accepted", "2025-01-31")


# --------------------------------------------------------------------------- templates

#: A MADR 4 template as the MADR project ships it in spirit: prose placeholders in the
#: heading and ``decision-makers``; the writer must still set title, status and date.
MADR4_TEMPLATE = """\
---
# These are optional metadata elements. Feel free to remove any of them.
status: "{proposed | rejected | accepted | deprecated | … | superseded by ADR-0123}"
date: {YYYY-MM-DD when the decision was last updated}
decision-makers: {list everyone involved in the decision}
---

# {short title, representative of solved problem and found solution}

## Context and Problem Statement

{Describe the context and problem statement.}

## Decision Outcome

Chosen option: "{title of option 1}", because {justification}.
"""

#: adr-tools' own placeholders (``NUMBER``, ``TITLE``, ``DATE``, ``STATUS``).
NYGARD_TEMPLATE = """\
# NUMBER. TITLE

Date: DATE

## Status

STATUS

## Context

The issue motivating this decision.
"""


@pytest.mark.parametrize(
    ("style", "template"),
    [("madr", MADR4_TEMPLATE), ("nygard", NYGARD_TEMPLATE)],
    ids=["madr4-template", "adr-tools-template"],
)
def test_a_roots_template_gives_a_record_that_reads_back(
    tmp_path: Path, style: str, template: str
) -> None:
    project = make_project(tmp_path, template=template)
    data = adr(project, "new", "Use gRPC", "--status", "accepted", "--date", "2024-07-07")
    rid, rel = created(data)
    record = data["record"]
    assert isinstance(record, dict) and record["style"] == style, record
    p = parsed(project, rel)
    assert_fields(p, style, "Use gRPC", "accepted", "2024-07-07")
    assert "{" not in (p.raw_status or "") and "{" not in p.title
    # superseding a template-made record rewrites it in the template's style
    nid, nrel = created(
        adr(project, "new", "Use REST", "--status", "accepted", "--date", "2024-08-08", "-s", rid)
    )
    assert_fields(parsed(project, rel), style, "Use gRPC", "superseded", "2024-07-07")
    assert_fields(parsed(project, nrel), style, "Use REST", "accepted", "2024-08-08")
    assert relations(project, rid) == ("superseded", {("superseded-by", nid)})


# --------------------------------------------------------------------------- the writers


#: The defaults a project without options parses with.
OPTIONS = ParseOptions(
    aliases=tuple(sorted(DEFAULT_ALIASES.items())),
    status_headings=frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS),
)


def skeleton(style: str, rel: str, rid: str, number: int | None, title: str) -> Editable:
    """The style's built-in skeleton, filled and set as ``new`` does it."""
    text = substitute(
        SKELETONS[style],
        number=number,
        width=4,
        rid=rid,
        title=title,
        date="2022-02-22",
        status="proposed",
    )
    ed = Editable.new(rel, text, OPTIONS.status_headings)
    writer = WRITERS[style]
    writer.set_title(ed, title, number, rid)
    writer.set_id(ed, rid)
    writer.set_date(ed, "2022-02-22")
    return ed


def parse_ed(ed: Editable) -> Parsed:
    return parse_bytes(ed.to_bytes(), path=ed.path, options=OPTIONS)


def refs(style: str) -> tuple[Ref, Ref]:
    """The old record and its successor as other records point at them."""
    if style == "log4brains":
        return (
            Ref("20220101-use-a", "adr/20220101-use-a.md", "Use A", "Use A", numbered=False),
            Ref("20220202-use-b", "adr/20220202-use-b.md", "Use B", "Use B", numbered=False),
        )
    return (
        Ref("ADR-0001", "adr/0001-use-a.md", "Use A", "1. Use A", numbered=True),
        Ref("ADR-0002", "adr/0002-use-b.md", "Use B", "2. Use B", numbered=True),
    )


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("status", STATUSES)
def test_writer_sets_each_status_and_keeps_title_and_date(style: str, status: str) -> None:
    old, _ = refs(style)
    number = None if style == "log4brains" else 1
    ed = skeleton(style, old.path, old.id, number, "Use A")
    assert_fields(parse_ed(ed), style, "Use A", "proposed", "2022-02-22")
    WRITERS[style].set_status(ed, status.capitalize() if style == "nygard" else status)
    assert_fields(parse_ed(ed), style, "Use A", status, "2022-02-22")


@pytest.mark.parametrize("style", STYLES)
def test_writer_relations_survive_a_read(style: str) -> None:
    old, succ = refs(style)
    writer = WRITERS[style]
    number_old = None if style == "log4brains" else 1
    number_new = None if style == "log4brains" else 2

    # the successor states what it supersedes
    ed_new = skeleton(style, succ.path, succ.id, number_new, "Use B")
    writer.set_status(ed_new, "Accepted" if style == "nygard" else "accepted")
    writer.add_relation(ed_new, "supersedes", "Supersedes", old)
    p_new = parse_ed(ed_new)
    assert_fields(p_new, style, "Use B", "accepted", "2022-02-22")
    targets = parsed_targets(p_new, "supersedes")
    assert len(targets) == 1, p_new.relations
    assert any(n in targets[0] for n in names(old.id, old.path)), targets

    # the old record is marked superseded by it
    ed_old = skeleton(style, old.path, old.id, number_old, "Use A")
    writer.set_status(ed_old, "Accepted" if style == "nygard" else "accepted")
    writer.mark_superseded(ed_old, succ, linked=False)
    p_old = parse_ed(ed_old)
    assert_fields(p_old, style, "Use A", "superseded", "2022-02-22")
    back = parsed_targets(p_old, "superseded-by")
    assert len(back) == 1, p_old.relations
    assert any(n in back[0] for n in names(succ.id, succ.path)), back

    # writing the same supersession again (already linked) keeps one relation
    writer.mark_superseded(ed_old, succ, linked=True)
    again = parse_ed(ed_old)
    assert again.status == "superseded"
    assert len(parsed_targets(again, "superseded-by")) == 1, again.relations
