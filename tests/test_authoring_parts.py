"""The parts authoring is made of, each tested alone.

:mod:`tests.test_authoring` runs whole commands; here each job's module is
called directly: the next number and the placement of a new record across
roots, archive and drafts (:mod:`mkdocs_adr.authoring.placement`), the style a
new record gets (:mod:`~mkdocs_adr.authoring.style`), its text in every
writable style (:mod:`~mkdocs_adr.authoring.compose`), the verbs a link may use
(:mod:`~mkdocs_adr.authoring.relate`), the read-back check
(:mod:`~mkdocs_adr.authoring.readback`) and the typed subject and scopes a plan
stores (:mod:`~mkdocs_adr.authoring.outcome`, :mod:`~mkdocs_adr.authoring.plan`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_adr.authoring import WRITABLE, placement, relate, style
from mkdocs_adr.authoring.compose import Fields, compose, heading
from mkdocs_adr.authoring.outcome import Change, Subject, unified_diff
from mkdocs_adr.authoring.plan import LinkScope, NewScope, SupersedeScope
from mkdocs_adr.authoring.readback import check
from mkdocs_adr.authoring.session import Expect, Work, unwritable
from mkdocs_adr.config import (
    DEFAULT_ALIASES,
    DEFAULT_STATUS_HEADINGS,
    Config,
    RootConfig,
    load_from_mkdocs_yml,
)
from mkdocs_adr.log import Log, load
from mkdocs_adr.parsing import ParseOptions, parse_bytes

from .test_authoring import record_text

HEADINGS = frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS)
OPTIONS = ParseOptions(tuple(DEFAULT_ALIASES.items()), HEADINGS)


def nygard(n: int, title: str, status: str = "Accepted") -> str:
    return f"# {n}. {title}\n\nDate: 2024-01-01\n\n## Status\n\n{status}\n\n## Context\n\nc\n"


def project(tmp: Path, files: dict[str, str], roots: str = "") -> tuple[Config, Log]:
    for rel, text in files.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_text(text, encoding="utf-8")
    plugin = f"  - adr:\n      roots: {roots}\n" if roots else "  - adr\n"
    (tmp / "mkdocs.yml").write_text(f"site_name: t\nplugins:\n{plugin}", encoding="utf-8")
    config = load_from_mkdocs_yml(tmp / "mkdocs.yml")
    return config, load(config)


def root_named(config: Config, path: str) -> RootConfig:
    return next(r for r in config.roots if r.path == path)


# --------------------------------------------------------------------- numbering


def test_next_number_counts_archive_and_numbered_drafts(tmp_path: Path) -> None:
    config, log = project(
        tmp_path,
        {
            "docs/adr/0001-a.md": nygard(1, "A"),
            "docs/adr/archive/0007-old.md": nygard(7, "Old", "Rejected"),
            "docs/adr/0003-b.md": nygard(3, "B"),
        },
    )
    assert placement.numbering(config, log, config.roots[0]) == (8, 4)
    # a numbered file that is no record yet (a draft) holds its number too
    (tmp_path / "docs/adr/0012-draft-notes.md").write_text("notes\n", encoding="utf-8")
    assert placement.numbering(config, log, config.roots[0])[0] == 13


def test_next_number_width_follows_most_files(tmp_path: Path) -> None:
    config, log = project(
        tmp_path,
        {
            "docs/adr/001-a.md": nygard(1, "A"),
            "docs/adr/002-b.md": nygard(2, "B"),
            "docs/adr/0003-c.md": nygard(3, "C"),
        },
    )
    assert placement.numbering(config, log, config.roots[0]) == (4, 3)


def test_next_number_is_shared_by_roots_of_one_prefix_not_by_nested_roots(
    tmp_path: Path,
) -> None:
    config, log = project(
        tmp_path,
        {
            "docs/adr/0003-a.md": nygard(3, "A"),
            "docs/adr/team/000020-c.md": nygard(20, "C"),
            "docs/rfc/0009-b.md": nygard(9, "B"),
        },
        roots="[{path: adr, prefix: ADR}, {path: adr/team, prefix: TEAM}, "
        "{path: rfc, prefix: ADR}]",
    )
    adr, team, rfc = (root_named(config, p) for p in ("adr", "adr/team", "rfc"))
    # rfc shares the ADR prefix: its 9 counts; team is nested but its own prefix
    assert placement.numbering(config, log, adr) == (10, 4)
    assert placement.numbering(config, log, rfc) == (10, 4)
    assert placement.numbering(config, log, team) == (21, 6)


def test_name_is_numbered_or_dated_by_style(tmp_path: Path) -> None:
    config, log = project(
        tmp_path,
        {"docs/adr/0002-a.md": nygard(2, "A")},
        roots="[{path: adr, prefix: PAY}]",
    )
    root = config.roots[0]
    numbered = placement.name(config, log, root, "nygard", "Use gRPC, now!", "2024-05-06")
    assert numbered == placement.Name(3, 4, "0003-use-grpc-now.md", "PAY-0003")
    dated = placement.name(config, log, root, "log4brains", "Use gRPC", "2024-05-06")
    assert dated == placement.Name(None, 4, "20240506-use-grpc.md", "20240506-use-grpc")


# --------------------------------------------------------------------- roots and folders


def test_choose_root_by_folder_prefix_hint_or_first(tmp_path: Path) -> None:
    config, log = project(
        tmp_path,
        {"docs/adr/0001-a.md": nygard(1, "A"), "docs/rfc/0001-b.md": nygard(1, "B")},
        roots="[{path: adr, prefix: ADR}, {path: rfc, prefix: RFC}]",
    )
    work = Work(config, log, "new")
    rfc = root_named(config, "rfc")
    assert placement.choose_root(config, "rfc", work, []) == rfc
    assert placement.choose_root(config, "docs/rfc/", work, []) == rfc
    assert placement.choose_root(config, "rfc".upper(), work, []) == rfc
    b = log.get("RFC-0001")
    assert b is not None
    assert placement.choose_root(config, None, work, [b]) == rfc
    assert placement.choose_root(config, None, work, []) == config.roots[0]
    assert not work.reasons
    assert placement.choose_root(config, "nope", work, []) is None
    assert [r.text for r in work.reasons] == [
        "--adr-root 'nope' is not a configured root (roots: adr (ADR), rfc (RFC))"
    ]
    assert work.reasons[0].usage


def test_domains_and_the_folder_of_a_layered_root(tmp_path: Path) -> None:
    config, log = project(
        tmp_path,
        {
            "docs/adr/api/0001-a.md": nygard(1, "A"),
            "docs/adr/web/0002-b.md": nygard(2, "B"),
        },
    )
    root = config.roots[0]
    for other in ("archive", "templates", "_drafts", ".git"):
        (config.root_dir(root) / other).mkdir()
    assert placement.domains(config, root) == ["api", "web"]
    assert placement.root_layout(log, config, root) == "layered"
    work = Work(config, log, "new")
    base = config.root_dir(root)
    assert placement.folder(config, log, root, "web/", work) == base / "web"
    assert not work.reasons
    assert placement.folder(config, log, root, None, work) is None
    assert "pass --domain (one of: api, web)" in work.reasons[-1].text
    for bad in ("../x", "archive", "_drafts", "a/b", ""):
        assert placement.bad_domain_name(config, bad.strip().strip("/")), bad
        assert placement.folder(config, log, root, bad, work) is None
    assert placement.folder(config, log, root, "db", work) is None
    assert "domain 'db' does not exist" in work.reasons[-1].text
    assert all(r.usage for r in work.reasons)


def test_a_flat_root_takes_records_in_its_folder_and_a_missing_root_refuses(
    tmp_path: Path,
) -> None:
    config, log = project(tmp_path, {"docs/adr/0001-a.md": nygard(1, "A")})
    root = config.roots[0]
    work = Work(config, log, "new")
    assert placement.folder(config, log, root, None, work) == config.root_dir(root)
    (config.root_dir(root) / "0001-a.md").unlink()
    config.root_dir(root).rmdir()
    assert placement.folder(config, log, root, None, work) is None
    assert work.reasons[-1].text.startswith("ADR root docs/adr does not exist")
    assert not work.reasons[-1].usage


# --------------------------------------------------------------------- style


def test_majority_style_ties_go_to_the_newest(tmp_path: Path) -> None:
    files: dict[str, str] = {}
    for st, n in (("nygard", 1), ("nygard", 2), ("madr2", 3), ("madr2", 4)):
        name, text = record_text(st, n, f"R{n}", "accepted")
        files[f"docs/adr/{name}"] = text
    config, log = project(tmp_path, files)
    # two each: the style of the newest record wins, not the name
    assert style.majority_style(log, config.roots[0]) == "madr2"
    name, text = record_text("nygard", 5, "R5", "accepted")
    (tmp_path / "docs/adr" / name).write_text(text, encoding="utf-8")
    name, text = record_text("nygard", 6, "R6", "accepted")
    (tmp_path / "docs/adr" / name).write_text(text, encoding="utf-8")
    assert style.majority_style(load(config), config.roots[0]) == "nygard"


def test_style_from_template_else_majority_else_frontmatter(tmp_path: Path) -> None:
    config, log = project(tmp_path, {})
    root = config.roots[0]
    base = config.root_dir(root)
    base.mkdir(parents=True)
    work = Work(config, log, "new")
    chosen = style.choose(config, log, root, base, work, style=None, template=None)
    assert chosen == style.Choice("frontmatter", None)
    template = base / "template.md"
    template.write_text(nygard(1, "TITLE", "STATUS").replace("1.", "NUMBER."), encoding="utf-8")
    assert style.template_style(config, template) == "nygard"
    chosen = style.choose(config, log, root, base, work, style=None, template=None)
    assert chosen == style.Choice("nygard", template)
    # --style another style: the built-in skeleton, with a note
    chosen = style.choose(config, log, root, base, work, style="madr", template=None)
    assert chosen == style.Choice("madr", None)
    assert work.notes == [
        "docs/adr/template.md is in style 'nygard'; used the built-in 'madr' skeleton "
        "for --style madr"
    ]
    # ... but an explicit --template in another style refuses
    assert style.choose(config, log, root, base, work, style="madr", template=template) is None
    assert work.reasons[-1].text.endswith("is in style 'nygard', not 'madr'")
    # a template that reads as no writable style refuses unless --style is given
    template.write_text("# TITLE\n\nJust prose.\n", encoding="utf-8")
    assert style.choose(config, log, root, base, work, style=None, template=None) is None
    assert "reads as style 'unknown'" in work.reasons[-1].text
    chosen = style.choose(config, log, root, base, work, style="madr2", template=None)
    assert chosen == style.Choice("madr2", None)


# --------------------------------------------------------------------- text of a new record


@pytest.mark.parametrize("name", sorted(WRITABLE))
def test_the_text_of_a_new_record_reads_back_in_its_style(name: str) -> None:
    dated = name == "log4brains"
    fields = Fields(
        title="Use PostgreSQL",
        number=None if dated else 7,
        width=4,
        id="20240301-use-postgresql" if dated else "ADR-0007",
        date="2024-03-01",
        status="accepted",
        review_by="2025-03-01",
    )
    file = "20240301-use-postgresql.md" if dated else "0007-use-postgresql.md"
    ed = compose(name, f"docs/adr/{file}", fields, source=None, headings=HEADINGS)
    assert ed.original is None and ed.changed
    got = parse_bytes(ed.to_bytes(), path=f"adr/{file}", options=OPTIONS)
    assert (got.style, got.title, got.status, got.date) == (
        name,
        "Use PostgreSQL",
        "accepted",
        "2024-03-01",
    )
    assert got.review_by == "2025-03-01"
    assert heading(ed, "none") in ("Use PostgreSQL", "7. Use PostgreSQL")


def test_a_template_is_filled_by_placeholder_and_by_the_writer() -> None:
    source = "# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n\n## Context\n\nWhy.\n"
    fields = Fields("Cache it", 12, 3, "ADR-0012", "2024-02-02", "proposed")
    ed = compose("nygard", "docs/adr/012-cache-it.md", fields, source=source, headings=HEADINGS)
    assert ed.text == (
        "# 12. Cache it\n\nDate: 2024-02-02\n\n## Status\n\nProposed\n\n## Context\n\nWhy.\n"
    )
    assert heading(ed, "x") == "12. Cache it"


def test_the_writer_sets_what_a_template_writes_as_prose() -> None:
    """A template's status and title need not be placeholders (MADR's prose)."""
    source = (
        "# [short title of solved problem]\n\n* Status: [proposed | rejected | accepted]\n"
        "* Date: [YYYY-MM-DD when the decision was last updated]\n\n"
        "## Context and Problem Statement\n\nWhy.\n"
    )
    fields = Fields("Cache it", 3, 4, "ADR-0003", "2024-02-02", "accepted")
    ed = compose("madr2", "docs/adr/0003-cache-it.md", fields, source=source, headings=HEADINGS)
    got = parse_bytes(
        ed.to_bytes(),
        path="adr/0003-cache-it.md",
        options=OPTIONS,
    )
    assert (got.style, got.title, got.status, got.date) == (
        "madr2",
        "Cache it",
        "accepted",
        "2024-02-02",
    )


# --------------------------------------------------------------------- verbs and sides


def test_check_verbs_inverse_default_given_or_refused(tmp_path: Path) -> None:
    config, log = project(tmp_path, {"docs/adr/0001-a.md": nygard(1, "A")})
    work = Work(config, log, "link")
    assert relate.check_verbs(work, "Amends", None, "ex") == "Amended by"
    assert relate.check_verbs(work, "Governs", " Governed by ", "ex") == "Governed by"
    assert not work.reasons
    assert relate.check_verbs(work, "Governs", None, "EXAMPLE") is None
    assert work.reasons[-1].text.endswith(": EXAMPLE")
    assert relate.check_verbs(work, "Supersedes", None, "ex") is None
    assert "is a supersession" in work.reasons[-1].text
    assert relate.check_verbs(work, "See [this]", "x", "ex") is None
    assert "cannot be written as a link line" in work.reasons[-1].text
    assert relate.verb_kind("  Amended   BY ") == "amended-by"
    assert relate.verb_kind("Governs") == "relates-to"


def test_parse_link_spec_reads_both_orders() -> None:
    assert relate.parse_link_spec("Amends:3") == relate.LinkSpec("Amends", "3")
    assert relate.parse_link_spec("3:Clarifies:Clarified by") == relate.LinkSpec(
        "Clarifies", "3", "Clarified by"
    )
    assert relate.parse_link_spec("Clarifies:ADR-3:Clarified by") == relate.LinkSpec(
        "Clarifies", "ADR-3", "Clarified by"
    )


def test_unwritable_names_every_reason(tmp_path: Path) -> None:
    _, log = project(
        tmp_path,
        {
            "docs/adr/0001-a.md": nygard(1, "A"),
            "docs/adr/archive/0002-b.md": nygard(2, "B"),
            "docs/adr/0003-c.md": "# 3. C\n\n| Status | Accepted |\n|---|---|\n\nText.\n",
        },
    )
    a, b = log.get("ADR-0001"), log.get("ADR-0002")
    assert a is not None and b is not None
    assert unwritable(a, "OLD") == []
    reasons = unwritable(b, "OLD")
    assert [r.text.split(";")[0] for r in reasons] == [
        "OLD ADR-0002 is archived (docs/adr/archive/0002-b.md)"
    ]
    c = log.by_path["docs/adr/0003-c.md"]
    assert c.style == "table" and c.style not in WRITABLE
    (only,) = unwritable(c, "NEW")
    assert "written in style 'table'" in only.text and "cannot change safely" in only.text


# --------------------------------------------------------------------- read-back


def test_check_names_every_difference(tmp_path: Path) -> None:
    _, log = project(
        tmp_path,
        {"docs/adr/0001-a.md": nygard(1, "A"), "docs/adr/0002-b.md": nygard(2, "B")},
    )
    good = Expect("docs/adr/0001-a.md", "ADR-0001", "accepted", title="A")
    assert check(log, [good]) == []
    wrong = Expect(
        "docs/adr/0002-b.md",
        "ADR-0009",
        "superseded",
        {("superseded-by", "ADR-0001")},
        title="Bee",
    )
    missing = Expect("docs/adr/0003-c.md", "ADR-0003", None)
    assert check(log, [wrong, missing]) == [
        "docs/adr/0002-b.md reads as ADR-0002, not ADR-0009",
        "ADR-0009 reads as status 'accepted', not 'superseded'",
        "ADR-0009 reads as title 'B', not 'Bee'",
        "ADR-0009 does not read as 'superseded-by ADR-0001'",
        "docs/adr/0003-c.md is not read as a record",
    ]
    assert Expect.from_json(wrong.to_json()) == wrong


# --------------------------------------------------------------------- typed data, JSON at the edge


def test_subject_json_has_only_the_fields_of_its_command() -> None:
    new = Subject("ADR-0003", "docs/adr/0003-x.md", "proposed", style="madr", title="X")
    assert new.to_json() == {
        "id": "ADR-0003",
        "path": "docs/adr/0003-x.md",
        "status": "proposed",
        "style": "madr",
        "title": "X",
    }
    sup = Subject("ADR-0003", "p", "accepted", supersedes="ADR-0001")
    assert sorted(sup.to_json()) == ["id", "path", "status", "supersedes"]
    for subject in (new, sup):
        assert Subject.from_json(subject.to_json()) == subject
    change = Change("p", "ADR-0003", "updated", ["supersedes ADR-0001"])
    assert Change.from_json(change.to_json()) == change


def test_scopes_are_the_plan_scopes_as_stored() -> None:
    assert SupersedeScope("supersede A --by B", "A", "B").to_json() == {
        "command": "supersede A --by B",
        "old": "A",
        "new": "B",
    }
    assert sorted(LinkScope("c", "A", "Amends", "B", "Amended by").to_json()) == [
        "command",
        "inverse",
        "source",
        "target",
        "verb",
    ]
    scope = NewScope(
        "new 'X'",
        "adr",
        None,
        "X",
        "nygard",
        "proposed",
        "2024-01-01",
        ("ADR-0001",),
        (("Amends", "ADR-0002", "Amended by"),),
    )
    data = scope.to_json()
    assert data["domain"] is None and data["supersedes"] == ["ADR-0001"]
    assert data["links"] == [["Amends", "ADR-0002", "Amended by"]]


def test_unified_diff_of_a_new_file_and_a_missing_final_newline() -> None:
    assert unified_diff("a.md", None, b"x\n").splitlines()[:2] == ["--- /dev/null", "+++ b/a.md"]
    text = unified_diff("a.md", b"x\n", b"y")
    assert text.endswith("+y\n\\ No newline at end of file\n")
    assert "--- a/a.md" in text
