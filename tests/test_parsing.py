"""Parsing one record: every style, every status oddity, relations and their origins."""

from __future__ import annotations

import pytest

from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS
from mkdocs_adr.model import Parsed
from mkdocs_adr.parsing import ParseOptions, parse_bytes
from mkdocs_adr.parsing.dates import parse_date

OPTIONS = ParseOptions(
    aliases=tuple(sorted(DEFAULT_ALIASES.items())),
    status_headings=frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS),
    prefixes=("ADR", "PAY"),
)


def parse(text: str, name: str = "adr/0007-x.md") -> Parsed:
    return parse_bytes(text.encode("utf-8"), path=name, options=OPTIONS)


def rels(parsed: Parsed, *, mentions: bool = False) -> set[tuple[str, str, str]]:
    return {
        (r.kind, r.target, r.origin) for r in parsed.relations if mentions or r.kind != "mentions"
    }


def codes(parsed: Parsed) -> list[str]:
    return [p.code for p in parsed.problems]


# --------------------------------------------------------------------- styles


def test_nygard_adr_tools_record() -> None:
    p = parse(
        "# 2. Use PostgreSQL\n\nDate: 2024-01-15\n\n## Status\n\n"
        "Superseded by [3. Use CockroachDB](0003-use-cockroachdb.md)\n\n"
        "Amended by [4. Add read replicas](0004-add-read-replicas.md)\n\n## Context\n\nx\n"
    )
    assert (p.style, p.status, p.title, p.number, p.date) == (
        "nygard",
        "superseded",
        "Use PostgreSQL",
        2,
        "2024-01-15",
    )
    assert rels(p) == {
        ("superseded-by", "0003-use-cockroachdb.md", "status-section"),
        ("amended-by", "0004-add-read-replicas.md", "status-section"),
    }
    assert codes(p) == []


@pytest.mark.parametrize("verb", ["Superceded by", "Superseded by"])
def test_adr_tools_status_replaced_by_link_lines_only(verb: str) -> None:
    # after `adr new -s`, adr-tools removes the status word and leaves links
    p = parse(f"# 2. Old\n\n## Status\n\n{verb} [3. New](0003-new.md)\n")
    assert p.status == "superseded"
    assert rels(p) == {("superseded-by", "0003-new.md", "status-section")}


@pytest.mark.parametrize("verb", ["Supercedes", "Supersedes"])
def test_both_spellings_of_supersedes(verb: str) -> None:
    p = parse(f"# 3. New\n\n## Status\n\nAccepted\n\n{verb} [2. Old](0002-old.md)\n")
    assert p.status == "accepted"
    assert rels(p) == {("supersedes", "0002-old.md", "status-section")}


def test_other_adr_link_verbs_relate_and_keep_their_wording() -> None:
    p = parse(
        "# 5. X\n\n## Status\n\nAccepted\n\nClarifies [1. Y](0001-y.md)\n\n"
        "Enables [2. Z](0002-z.md)\n"
    )
    found = {(r.kind, r.verb) for r in p.relations if r.kind != "mentions"}
    assert found == {("relates-to", "Clarifies"), ("relates-to", "Enables")}


def test_madr2_bullets_and_links_section() -> None:
    p = parse(
        "# Use X\n\n* Status: superseded by [ADR-0005](0005-example.md)\n"
        "* Deciders: alice, bob\n* Date: 2020-05-01\n\n## Links\n\n"
        "* Refined by [ADR-0003](0003-x.md)\n",
        name="adr/0004-use-x.md",
    )
    assert (p.style, p.status, p.date, p.deciders) == (
        "madr2",
        "superseded",
        "2020-05-01",
        ("alice", "bob"),
    )
    assert rels(p) == {
        ("superseded-by", "0005-example.md", "status-section"),
        ("relates-to", "0003-x.md", "links-section"),
    }


def test_madr4_frontmatter() -> None:
    p = parse(
        '---\nstatus: "superseded by [ADR-0007](0007-x.md)"\ndate: 2021-01-02\n'
        "decision-makers: [carol, dan]\nconsulted: [eve]\n---\n# Title here\n\n## Context\n"
    )
    assert (p.style, p.status, p.date, p.deciders, p.title) == (
        "madr",
        "superseded",
        "2021-01-02",
        ("carol", "dan"),
        "Title here",
    )
    assert rels(p) == {("superseded-by", "0007-x.md", "frontmatter")}


def test_log4brains_bullets_with_date_slug_name() -> None:
    p = parse(
        "# Use React\n\n- Status: accepted\n- Date: 2020-03-15\n- Tags: frontend, ui\n\n"
        "## Links\n\n- Supersedes [20200101-use-vue](20200101-use-vue.md)\n",
        name="adr/20200315-use-react.md",
    )
    assert (p.style, p.status, p.tags) == ("log4brains", "accepted", ("frontend", "ui"))
    assert rels(p) == {("supersedes", "20200101-use-vue.md", "links-section")}


def test_generic_frontmatter_with_every_relation_key() -> None:
    p = parse(
        "---\nid: ADR-0012\ntitle: Payments gateway\nstatus: accepted\ndate: 2025-01-02\n"
        "domain: payments\nsupersedes: [ADR-0003]\namends: ADR-0004#D2\nextends: ADR-0005\n"
        "depends-on: [PAY-0001]\nrelates-to: ADR-0006\naffected-paths: ['src/pay/**']\n"
        "affected-components: [gateway]\ntags: [pay]\niteration: '7'\n---\n# ignored\n"
    )
    assert (p.style, p.explicit_id, p.title, p.domain, p.iteration) == (
        "frontmatter",
        "ADR-0012",
        "Payments gateway",
        "payments",
        "7",
    )
    assert p.affected_paths == ("src/pay/**",)
    assert p.affected_components == ("gateway",)
    assert rels(p) == {
        ("supersedes", "ADR-0003", "frontmatter"),
        ("amends", "ADR-0004#D2", "frontmatter"),
        ("extends", "ADR-0005", "frontmatter"),
        ("depends-on", "PAY-0001", "frontmatter"),
        ("relates-to", "ADR-0006", "frontmatter"),
    }


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        ("0001-Pick a template", "Pick a template"),  # numbered to order a theme's nav
        ("ADR-0001: Pick a template", "Pick a template"),
        ("Pick `a` template", "Pick `a` template"),  # no Markdown in frontmatter
        ("2024 roadmap", "2024 roadmap"),
    ],
)
def test_a_frontmatter_title_loses_the_records_id(title: str, shown: str) -> None:
    p = parse(
        f'---\ntitle: "{title}"\n---\n\n# Heading\n\n* status: proposed\n',
        name="adr/0001-pick-a-template.md",
    )
    assert (p.title, p.number) == (shown, None)


def test_a_frontmatter_title_that_is_the_files_slug_gives_way_to_the_heading() -> None:
    # a Jekyll/just-the-docs page key, ``title: 0004-slug-of-the-file``, above a real H1
    for key in ("0004-cache-the-rendered-pages", "cache-rendered-pages", "adr-0004"):
        p = parse(
            f"---\nlayout: page\ntitle: {key}\n---\n# Cache the rendered pages\n\n"
            "* Status: Accepted\n",
            name="adr/0004-cache-the-rendered-pages.md",
        )
        assert (p.title, p.status) == ("Cache the rendered pages", "accepted"), key
    # without a title heading the slug is all there is; a title in words still wins
    p = parse(
        "---\ntitle: 0004-cache-the-rendered-pages\n---\n\n* Status: Accepted\n",
        name="adr/0004-x.md",
    )
    assert p.title == "cache-the-rendered-pages"
    p = parse(
        "---\ntitle: Cache pages-first\n---\n# Caching\n\n* Status: Accepted\n",
        name="adr/0004-x.md",
    )
    assert p.title == "Cache pages-first"


def test_the_templates_title_slot_kept_as_the_heading_gives_the_file_names_title() -> None:
    # MADR's "{short title ...}" left in the H1 under filled-in frontmatter
    p = parse(
        "---\nstatus: accepted\ndate: 2024-03-15\n---\n\n"
        "# {short title of solved problem and solution}\n\n## Context and Problem Statement\n\nx\n",
        name="adr/0039-name-the-plugin-early.md",
    )
    assert (p.title, p.number, p.status) == ("Name the plugin early", None, "accepted")
    # a slot in the frontmatter title gives way to the heading
    p = parse(
        '---\ntitle: "{short title of solved problem and solution}"\n---\n\n# Name it early\n',
        name="adr/0039-name-the-plugin-early.md",
    )
    assert p.title == "Name it early"


def test_frontmatter_relation_values_written_as_links() -> None:
    # a MADR log that writes its relations as Markdown links, and "refines" beside them
    p = parse(
        '---\nstatus: "superseded by ADR-0009"\nsuperseded_by: "[ADR-0009](0009-x.md)"\n'
        'refines:\n  - "[ADR-0004](0004-y.md)"\n---\n# ADR-0005: Keep it\n',
        name="adr/0005-keep-it.md",
    )
    assert p.status == "superseded"
    assert rels(p) == {
        ("superseded-by", "ADR-0009", "frontmatter"),
        ("superseded-by", "0009-x.md", "frontmatter"),
        ("relates-to", "0004-y.md", "frontmatter"),
    }


def test_metadata_table_with_bold_keys() -> None:
    p = parse(
        "# T\n\n| Field | Value |\n|---|---|\n| **Status** | Accepted |\n"
        "| **Date** | 2023-02-01 |\n| **Supersedes** | [ADR-0001](0001-a.md) |\n"
    )
    assert (p.style, p.status, p.date) == ("table", "accepted", "2023-02-01")
    assert rels(p) == {("supersedes", "0001-a.md", "metadata-table")}


def test_metadata_table_whose_header_row_holds_the_keys() -> None:
    # the keys are the header, the values the one row under its delimiter
    p = parse(
        "| Status   | Date       | Deciders       |\n|:---------|:-----------|:---|\n"
        "| Rejected | 2024-11-05 | Ana, Bo |\n\n## Context\n\nWhy not.\n"
    )
    assert (p.style, p.status, p.raw_status, p.status_line) == ("table", "rejected", "Rejected", 3)
    assert (p.date, p.deciders) == ("2024-11-05", ("Ana", "Bo"))
    assert codes(p) == [] and rels(p) == set()
    # a relation in a value cell counts as in a key-value table
    moved = parse(
        "# T\n\n| Status | Date | Superseded by |\n|---|---|---|\n"
        "| Superseded | 2023-01-02 | [ADR-0009](0009-y.md) |\n"
    )
    assert (moved.status, moved.date) == ("superseded", "2023-01-02")
    assert rels(moved) == {("superseded-by", "0009-y.md", "metadata-table")}


def test_a_key_value_table_whose_first_pair_is_its_header_stays_one() -> None:
    p = parse("# T\n\n| Status | Accepted |\n|---|---|\n| Date | 2023-02-01 |\n")
    assert (p.style, p.status, p.date) == ("table", "accepted", "2023-02-01")
    # a header of a status and a word that is no field: key and value, as before
    q = parse("# T\n\n| Status | In review |\n|---|---|\n| Date | 2023-02-01 |\n")
    assert (q.raw_status, q.date) == ("In review", "2023-02-01")


def test_container_units_have_their_own_status() -> None:
    p = parse(
        "---\nstyle: container\n---\n# T\n\n## D1. Use Postgres\n\nStatus: accepted\n\nText.\n\n"
        "## D2. Use Redis\n\nStatus: superseded by ADR-0009\n\n## D3. Use Kafka\n\n"
        "Status: proposed\n"
    )
    assert p.style == "container"
    assert [(u.key, u.status) for u in p.units] == [
        ("D1", "accepted"),
        ("D2", "superseded"),
        ("D3", "proposed"),
    ]
    assert p.status == "accepted"
    assert {(r.kind, r.target) for r in p.units[1].relations} == {("superseded-by", "ADR-0009")}


def test_body_unit_headings_make_a_container_without_frontmatter() -> None:
    p = parse("# T\n\n## D1. One\n\nStatus: rejected\n\n## D2. Two\n\nStatus: deprecated\n")
    assert [(u.key, u.status) for u in p.units] == [("D1", "rejected"), ("D2", "deprecated")]
    assert p.status == "deprecated"


# --------------------------------------------------------------------- status oddities


@pytest.mark.parametrize(
    ("raw", "status", "code"),
    [
        ("Accepted", "accepted", None),
        ("accepted", "accepted", None),
        ("**Accepted**", "accepted", None),
        ("⌛️ Superseded by [ADR-0005](0005-x.md)", "superseded", None),
        ("accepted; supersedes ADR-0045", "accepted", None),
        ("Approved by @someone", "accepted", "ADR018"),
        ("{Proposed|Accepted}", "unknown", "ADR001"),
        ("Proposed | Accepted | Rejected", "unknown", "ADR001"),
        ("Acepted", "unknown", "ADR001"),
        ("Accepted. 2026-10-01 (AT-276, owner decision)", "accepted", None),
        ("已接受", "accepted", "ADR018"),
        ("Draft", "draft", None),
        ("Deprecated since 2023", "deprecated", None),
        ("Rejected ❌", "rejected", None),
    ],
)
def test_status_values(raw: str, status: str, code: str | None) -> None:
    p = parse(f"# T\n\n## Status\n\n{raw}\n")
    assert p.status == status
    assert p.raw_status == raw
    assert codes(p) == ([code] if code else [])


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Replaces: [ADR-0002](./0002-old.md)", "supersedes"),
        ("Supersedes: [ADR-0002](./0002-old.md)", "supersedes"),
        ("Replaced by: [ADR-0002](./0002-old.md)", "superseded-by"),
        ("* **Superseded by:** [ADR-0002](./0002-old.md)", "superseded-by"),
        ("Amends: [ADR-0002](./0002-old.md)", "amends"),
    ],
)
def test_a_relation_field_under_the_title_is_metadata(line: str, kind: str) -> None:
    # a field line beside "Date:", as a record's metadata: not a mention
    p = parse(
        f"# 20. Raise the floor\n\nDate: 2023-05-29\n\nDiscussion: [#9](https://example.org/9)\n\n"
        f"{line}\n\n## Status\n\nAccepted\n\n## Context\n\nSee [the old one](./0002-old.md).\n"
    )
    assert p.status == "accepted"
    assert rels(p, mentions=True) == {
        (kind, "./0002-old.md", "status-section"),
        ("mentions", "./0002-old.md", "link"),
    }
    relation = next(r for r in p.relations if r.kind == kind)
    assert (relation.line, relation.label) == (7, "ADR-0002")
    # a field that names no relation verb keeps its links as mentions of nothing in the log
    assert ("relates-to", "https://example.org/9", "status-section") not in rels(p)


def test_relation_in_status_value_is_authoritative_but_later_prose_is_a_mention() -> None:
    p = parse(
        "# 17. X\n\n## Status\n\nAccepted. 2026-10-01 (AT-276). It extends ADR 0004 and "
        "ADR 0005 with a table-free design.\n"
    )
    assert p.status == "accepted" and p.date == "2026-10-01"
    assert rels(p) == set()
    assert {(r.kind, r.target, r.origin) for r in p.relations} == {
        ("mentions", "ADR-0004", "prose"),
        ("mentions", "ADR-0005", "prose"),
    }


def test_localized_heading_and_first_status_section_wins() -> None:
    p = parse("# T\n\n## 状态\n\n已废弃\n\n## Status\n\nAccepted\n")
    assert p.status == "deprecated"


def test_status_section_at_the_end_of_the_file() -> None:
    p = parse("# T\n\n## Context\n\nx\n\n## Decision\n\ny\n\n## Status\n\nRejected\n")
    assert p.status == "rejected"


def test_no_status_at_all_is_missing_not_unknown() -> None:
    p = parse("# T\n\nJust some text.\n")
    assert p.status == "missing"
    assert codes(p) == ["ADR020"]  # issue 11: "status not recorded", info, not ADR001
    assert p.problems[0].message == "status not recorded"
    assert p.problems[0].severity.label == "info"


def test_empty_status_section_is_missing() -> None:
    assert parse("# T\n\n## Status\n\n## Context\n").status == "missing"


def test_crlf_and_trailing_spaces_in_headings() -> None:
    p = parse("# 3. Title  \r\n\r\n## Status   \r\n\r\nAccepted  \r\n")
    assert (p.status, p.title, p.number) == ("accepted", "Title", 3)


def test_stray_unclosed_fence_hides_nothing_and_closed_fence_hides_fake_status() -> None:
    stray = parse("# T\n\n```\nsome code\n\n## Status\n\nProposed\n")
    assert stray.status == "proposed"
    fenced = parse("# T\n\n```md\n## Status\n\nRejected\n```\n\n## Status\n\nAccepted\n")
    assert fenced.status == "accepted"


def test_status_aliases_are_configurable() -> None:
    options = ParseOptions(
        aliases=(("in force", "accepted"),),
        status_headings=frozenset({"status"}),
    )
    p = parse_bytes(b"# T\n\n## Status\n\nIn force\n", path="a/0001-t.md", options=options)
    assert p.status == "accepted" and codes(p) == ["ADR018"]


def test_heading_number_and_prefix_are_read() -> None:
    assert parse("# ADR-0042: Use X\n\n## Status\n\nAccepted\n").number == 42
    assert parse("# ADR 42 - Use X\n\n## Status\n\nAccepted\n").title == "Use X"
    assert parse("# 2024 roadmap\n\n## Status\n\nAccepted\n").number is None


# --------------------------------------------------------------------- the title heading


@pytest.mark.parametrize(
    ("text", "title", "number"),
    [
        # a log whose folders number their records with prefixes of their own, the title
        # an H2 on the first line and the sections under it at level 3
        (
            "## ADR Svc-004 — Pool the connections\n\n\n**Date:** 2025-10-02\n\n"
            "**Status:** Accepted\n\n### Decision\n\nPool them.\n\n## Notes\n\nx\n",
            "Pool the connections",
            4,
        ),
        (
            "## ADR Svc-004 Pool the connections\n\nDate: 2025-10-02\n\nStatus: Accepted\n\n"
            "## Context\n\nWhy.\n",
            "Pool the connections",
            4,
        ),
        # no id: the record's sections are below it
        (
            "## Pool the connections\n\nDate: 2025-10-02\n\nStatus: Accepted\n\n"
            "### Context\n\nWhy.\n",
            "Pool the connections",
            None,
        ),
    ],
)
def test_an_h2_that_opens_a_record_without_an_h1_is_its_title(
    text: str, title: str, number: int | None
) -> None:
    p = parse(text, name="adr/svc/svc-004-pool.md")
    assert (p.title, p.number, p.status, p.date) == (title, number, "accepted", "2025-10-02")
    assert codes(p) == []


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("## Status\n\nAccepted\n\n## Context\n\nWhy.\n", "accepted"),
        ("## Status\n\nAccepted\n\n### Detail\n\nWhy.\n", "accepted"),
        ("## Context\n\nWhy.\n\n### Detail\n\nx\n\n## Status\n\nProposed\n", "proposed"),
        ("## Context and Problem Statement\n\nWhy.\n\n## Decision Outcome\n\nx\n", "missing"),
        ("## Proposal\n\n### Part one\n\nx\n", "missing"),
        ("## 1. Context\n\nWhy.\n\n## 2. Decision\n\nx\n\n## Status\n\nAccepted\n", "accepted"),
        # (not on the first line, or a peer of the sections after it with no id)
        ("Date: 2024-01-02\n\n## Pool them\n\n### Context\n\nx\n", "missing"),
        ("## Pool them\n\nx\n\n## Status\n\nAccepted\n", "accepted"),
    ],
)
def test_an_opening_h2_that_is_a_section_is_no_title(text: str, status: str) -> None:
    # real logs start records at their first section: the title is the file name's
    p = parse(text, name="adr/0007-pool-connections.md")
    assert (p.title, p.number, p.status) == ("Pool connections", None, status)


def test_an_h1_after_the_records_sections_is_no_title() -> None:
    # the last section written at level 1, 70 lines down, in a record with no title
    p = parse(
        "Data: 2019-02-22\n\n## Status\n\nAceito\n\n## Contexto\n\nx\n\n# Consequências\n\ny\n",
        name="adr/0007-container-de-relacionamento.md",
    )
    assert (p.title, p.number, p.status) == ("Container de relacionamento", None, "accepted")
    # an H1 first, then sections at level 1 too (cisagov's "# Status"), stays the title
    p = parse("# 3. Pool them\n\n# Status\n\nAccepted\n", name="adr/0003-pool.md")
    assert (p.title, p.number, p.status) == ("Pool them", 3, "accepted")


@pytest.mark.parametrize("mark", ["*", "~", "^", "#"])
def test_a_first_line_underlined_as_restructuredtext_writes_it_is_the_title(mark: str) -> None:
    p = parse(
        f"17. Encode the values in two stages (_v3)\n{mark * 42}\n\n"
        "Date: 03/12/2021\n\n## Status\n\nAccepted\n",
        name="adr/0017-v3.md",
    )
    assert (p.title, p.number, p.date, p.status) == (
        "Encode the values in two stages (_v3)",
        17,
        "2021-12-03",
        "accepted",
    )
    assert codes(p) == []
    # its words are the title's, no mention (as a heading's are not)
    p = parse(
        "3. Supersede ADR-0002 in part\n******\n\n## Status\n\nAccepted\n", name="adr/0003-x.md"
    )
    assert (p.title, p.relations) == ("Supersede ADR-0002 in part", ())


@pytest.mark.parametrize(
    "text",
    [
        "# 17. Heading wins\n\nA line\n******\n\n## Status\n\nAccepted\n",  # an H1 is there
        "- an item\n******\n\n## Status\n\nAccepted\n",  # a list, not a title line
        "A line\n**\n\n## Status\n\nAccepted\n",  # two marks: no underline
        "A line\n*-*-*-\n\n## Status\n\nAccepted\n",  # marks of two kinds
        "\nSome prose first.\n\nA line\n******\n\n## Status\n\nAccepted\n",  # not the first
    ],
)
def test_an_underline_elsewhere_makes_no_title(text: str) -> None:
    p = parse(text, name="adr/0017-v3.md")
    assert p.title in ("Heading wins", "V3")


# --------------------------------------------------------------------- unreadable input


def test_binary_file_is_reported_not_parsed() -> None:
    p = parse_bytes(b"\x89PNG\r\n\x00\x00\x00", path="adr/0020-b.md", options=OPTIONS)
    assert p.status == "unknown" and codes(p) == ["ADR013"]


def test_invalid_utf8_is_reported_and_still_read() -> None:
    data = "# 21. Héberger\n\n## Status\n\nAccepted\n".encode("latin-1")
    p = parse_bytes(data, path="adr/0021-h.md", options=OPTIONS)
    assert p.status == "accepted"
    assert codes(p) == ["ADR013"]
    assert p.problems[0].line == 1


def test_huge_file_is_refused_with_its_size() -> None:
    options = ParseOptions(OPTIONS.aliases, OPTIONS.status_headings, max_bytes=100)
    p = parse_bytes(b"# T\n" + b"x" * 200, path="adr/0001-big.md", options=options)
    assert codes(p) == ["ADR013"] and "204 bytes" in p.problems[0].message


def test_bad_frontmatter_names_the_line_and_the_body_still_counts() -> None:
    p = parse("---\ntitle: ok\nstatus: [unclosed\nother: x\n---\n# T\n\n## Status\n\nAccepted\n")
    assert p.status == "accepted"
    assert "ADR014" in codes(p)
    problem = next(x for x in p.problems if x.code == "ADR014")
    assert problem.line is not None and 2 <= problem.line <= 5


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("2024-01-15", "2024-01-15"),
        ("2024/1/5", "2024-01-05"),
        ("15/03/2023", "2023-03-15"),
        ("15.03.2023", "2023-03-15"),
        ("03/04/2023", "2023-04-03"),  # issue 11: ambiguous numeric dates are day-first
        ("March 5, 2023", "2023-03-05"),
        ("5 March 2023", "2023-03-05"),
        ("sometime in spring 2022", None),
        ("2023-02-30", None),
        # the eighth survey (docs/adr/0075): more languages, year-first names, typos
        ("6 mai 2021", "2021-05-06"),
        ("jeudi 10 juin 2022", "2022-06-10"),
        ("1er décembre 2021", "2021-12-01"),
        ("12 de febrero de 2026", "2026-02-12"),
        ("14. Januar 2026", "2026-01-14"),
        ("18 März 2024", "2024-03-18"),
        ("20 setembro 2020", "2020-09-20"),
        ("2021-Jan-20", "2021-01-20"),
        ("2021-September-5", "2021-09-05"),
        ("&#x31;2/16/2024", "2024-12-16"),
        ("2021-03-04T10:00:00Z", "2021-03-04"),
        ("2023-07-2i", None),
        ("3 years ago 2021", None),
    ],
)
def test_dates(text: str, iso: str | None) -> None:
    assert parse_date(text) == iso


def test_free_text_date_keeps_the_raw_text() -> None:
    p = parse("# T\n\nDate: sometime in spring 2022\n\n## Status\n\nAccepted\n")
    assert p.date is None and p.raw_date == "sometime in spring 2022"


def test_review_by_from_frontmatter_and_line() -> None:
    assert parse("---\nstatus: accepted\nreview-by: 2025-06-01\n---\n# T\n").review_by == (
        "2025-06-01"
    )
    assert parse("# T\n\nReview by: 2025-06-01\n\n## Status\n\nAccepted\n").review_by == (
        "2025-06-01"
    )


def test_hostile_title_is_kept_verbatim_for_renderers_to_escape() -> None:
    p = parse(
        '# 1. <script>alert(1)</script>"><img src=x onerror=alert(2)>\n\n## Status\n\nAccepted\n'
    )
    assert p.title == '<script>alert(1)</script>"><img src=x onerror=alert(2)>'


def test_problem_codes_and_inline_code_are_not_references() -> None:
    p = parse(
        "# 1. X\n\n## Status\n\nAccepted\n\nCodes `ADR001` to `ADR017` and ADR006 in prose; "
        "an example `[y](0003-y.md)`; real ones: ADR 12, ADR-0013, ADR0014 and [z](0004-z.md).\n"
    )
    assert {(r.target, r.origin) for r in p.relations} == {
        ("ADR-0012", "prose"),
        ("ADR-0013", "prose"),
        ("ADR-0014", "prose"),
        ("0004-z.md", "link"),
    }


def test_another_series_id_is_no_reference_to_ours() -> None:
    """``KIT-ADR-0007`` names record 7 of another series kept in the same folder, not our
    ADR-0007 (a real log keeps both; survey 6). A hyphen alone before the prefix is not a
    word: ``-ADR-0005`` in a list still is ours."""
    p = parse(
        "# 9. X\n\n## Status\n\nAccepted\n\n## Context\n\n"
        "- KIT-ADR-0007: the kit's own record\n- ADR-0003, (ADR-0004) and -ADR-0005\n"
    )
    assert [r.target for r in p.relations] == ["ADR-0003", "ADR-0004", "ADR-0005"]


def test_a_records_former_number_is_no_reference() -> None:
    """``Was previously ADR 0008; renumbered ...`` names the record's own old number, which
    another record has now (16 records of a real log numbered again; survey 6)."""
    p = parse(
        "# 9. X\n\n## Status\n\nAccepted\n\n## Notes\n\nWas previously ADR 0008; renumbered."
        " Formerly known as ADR-7, and before that renumbered from ADR 5. It extends ADR 0003.\n"
    )
    assert [r.target for r in p.relations] == ["ADR-0003"]


def test_setext_headings_and_loose_unit_headings() -> None:
    p = parse("Title\n=\n\nStatus\n-\n\nRejected\n")
    assert (p.title, p.status) == ("Title", "rejected")
    c = parse("# T\n\n##  D1. Spaced heading\n\nStatus: accepted\n")
    assert [(u.key, u.status) for u in c.units] == [("D1", "accepted")]


def test_a_french_etat_section_holds_the_status() -> None:
    # "État" beside "Statut": a real French log of two records titled its section so
    p = parse("# 1. Enregistrer les décisions\n\n## État\n\nProposé.\n\n## Contexte\n\nx\n")
    assert (p.status, p.status_line) == ("proposed", 5)


def test_a_template_date_left_unfilled_is_no_date() -> None:
    # log4brains' template line kept as written (three records of a real log of 22): the
    # INDEX and the page would have shown the placeholder and its comment as the date
    p = parse(
        "# Use Flyway\n\n- Status: accepted\n- Date: [YYYY-MM-DD when the decision was last "
        "updated] <!-- optional -->\n\n## Context\n\nx\n"
    )
    assert (p.status, p.date, p.raw_date) == ("accepted", None, None)
    # a date written beside the slot's words still reads
    p = parse("# Use Flyway\n\n- Status: accepted\n- Date: 2023-02-06 (was yyyy-mm-dd)\n")
    assert p.date == "2023-02-06"


@pytest.mark.parametrize(
    ("text", "date"),
    [
        # a Date section, its day unpadded (5 of 17 records of a real log)
        ("# 6. Register sources\n\n## Status\n\nAccepted\n\n## Date\n\n2022-11-1\n", "2022-11-01"),
        # a date alone under the title (a real log of 6)
        ("# Use an OIDC server\n\n27 July 2022\n\n## Status\n\nAccepted\n", "2022-07-27"),
        ("# Use an OIDC server\n\nJuly 27, 2022\n\n## Context\n\nx\n", "2022-07-27"),
        # a sentence that holds a date is no date line; a field still wins
        ("# Use X\n\nOn 27 July 2022 we met.\n\n## Status\n\nAccepted\n", None),
        ("# Use X\n\n27 July 2022\n\nDate: 2022-08-01\n\n## Status\n\nAccepted\n", "2022-08-01"),
        ("# Use X\n\n## Date\n\nlast spring\n", None),
        # a section headed by any one-word date key, a CJK one too (a real ja log of 11)
        ("# 0003: 採用\n\n## ステータス\n\n承認\n\n## 日付\n\n2026-01-30\n", "2026-01-30"),
        ("# 采用 X\n\n## 日期\n\n2026-01-30\n\n## 背景\n\nx\n", "2026-01-30"),
        ("# Use X\n\n## Decided\n\n2024-05-06\n", "2024-05-06"),
        # (``Data`` is a date key only for a value that is a date, and no section of it)
        ("# Use X\n\n## Data\n\n2024-05-06 export\n", None),
    ],
)
def test_a_date_written_alone_is_the_records_date(text: str, date: str | None) -> None:
    assert parse(text).date == date


@pytest.mark.parametrize(
    ("name", "text", "date"),
    [
        # log4brains names a record by the day it was made, and its template's date line
        # is often left out: the name's day is the date
        ("20210607-use-a-queue.md", "# Use a queue\n\n## Context\n\nWhy.\n", "2021-06-07"),
        # a date the record writes wins
        ("20210607-use-a-queue.md", "# Use a queue\n\n- Date: 2021-09-01\n", "2021-09-01"),
        # a number that is no day, or a number and no separator: no date
        ("00000012-use-a-queue.md", "# Use a queue\n", None),
        ("202106071-use-a-queue.md", "# Use a queue\n", None),
    ],
)
def test_a_log4brains_file_name_dates_a_record_that_writes_no_date(
    name: str, text: str, date: str | None
) -> None:
    """(survey 6: log4brains records without a Date line had none.)"""
    assert parse(text, name=f"docs/adr/{name}").date == date
