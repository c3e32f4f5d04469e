"""Each problem code of SPEC 3.6 that the files alone reveal, on a minimal log."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from mkdocs_adr import report
from mkdocs_adr.config import Config
from mkdocs_adr.log import load
from mkdocs_adr.model import Severity

A = "# {n}. R{n}\n\n## Status\n\n{status}\n"

CASES: dict[str, tuple[dict[str, str], str, Severity]] = {
    "ADR001": ({"0001-a.md": A.format(n=1, status="Acepted")}, "0001-a.md", Severity.WARNING),
    "ADR002": (
        {
            "0001-a.md": A.format(n=1, status="Accepted"),
            "0001-b.md": A.format(n=1, status="Accepted"),
        },
        "0001-a.md",
        Severity.ERROR,
    ),
    "ADR003": (
        {"0001-a.md": A.format(n=1, status="Superseded by [9. Gone](0009-gone.md)")},
        "0001-a.md",
        Severity.WARNING,
    ),
    "ADR004": (
        {
            "0001-a.md": A.format(n=1, status="Superseded by [2. B](0002-b.md)")
            + "\nSupersedes [2. B](0002-b.md)\n",
            "0002-b.md": A.format(n=2, status="Superseded by [1. A](0001-a.md)")
            + "\nSupersedes [1. A](0001-a.md)\n",
        },
        "0001-a.md",
        Severity.ERROR,
    ),
    "ADR005": (
        {
            "0001-a.md": A.format(n=1, status="Deprecated"),
            "0002-b.md": A.format(n=2, status="Accepted") + "\nSupersedes [1. A](0001-a.md)\n",
        },
        "0002-b.md",
        Severity.WARNING,
    ),
    "ADR006": (
        {
            "0001-a.md": A.format(n=1, status="Superseded by [2. B](0002-b.md)"),
            "0002-b.md": A.format(n=2, status="Proposed") + "\nSupersedes [1. A](0001-a.md)\n",
        },
        "0001-a.md",
        Severity.WARNING,
    ),
    "ADR007": (
        {
            "0001-a.md": A.format(n=1, status="Superseded by [2. B](0002-b.md)")
            + "\nSuperseded by [3. C](0003-c.md)\n",
            "0002-b.md": A.format(n=2, status="Accepted") + "\nSupersedes [1. A](0001-a.md)\n",
            "0003-c.md": A.format(n=3, status="Accepted") + "\nSupersedes [1. A](0001-a.md)\n",
        },
        "0001-a.md",
        Severity.WARNING,
    ),
    "ADR008": (
        {
            "0001-a.md": A.format(n=1, status="Accepted"),
            "0002-b.md": "---\nstatus: accepted\namends: ADR-0001#D4\n---\n# B\n",
        },
        "0002-b.md",
        Severity.INFO,
    ),
    "ADR013": ({"0001-a.md": "\x00\x01binary"}, "0001-a.md", Severity.WARNING),
    "ADR014": ({"0001-a.md": "---\nstatus: [x\n---\n# A\n"}, "0001-a.md", Severity.WARNING),
    "ADR015": (
        {"0001-a.md": A.format(n=1, status="Accepted") + "\nAmends [x](../../../../etc/x.md)\n"},
        "0001-a.md",
        Severity.WARNING,
    ),
    "ADR016": (
        {
            "0001-a.md": A.format(n=1, status="Accepted"),
            "0002-b.md": A.format(n=2, status="Accepted") + "\nSupersedes [1. A](0001-a.md)\n",
        },
        "0001-a.md",
        Severity.ERROR,
    ),
    "ADR017": (
        {"0001-a.md": "---\nstatus: accepted\nreview-by: 2020-01-01\n---\n# A\n"},
        "0001-a.md",
        Severity.WARNING,
    ),
    "ADR018": ({"0001-a.md": A.format(n=1, status="Approved")}, "0001-a.md", Severity.INFO),
    "ADR019": ({"0002-a.md": A.format(n=7, status="Accepted")}, "0002-a.md", Severity.INFO),
    "ADR021": (
        {"0001-a.md": A.format(n=1, status="已接受") + "\n" + A.format(n=1, status="Rejected")},
        "0001-a.md",
        Severity.WARNING,
    ),
}


def make(tmp: Path, files: dict[str, str]) -> Config:
    root = tmp / "docs" / "adr"
    root.mkdir(parents=True)
    for name, text in files.items():
        (root / name).write_bytes(text.encode("utf-8", "surrogatepass"))
    return Config(project_dir=tmp, docs_dir=tmp / "docs")


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code(tmp_path: Path, code: str) -> None:
    files, where, severity = CASES[code]
    log = load(make(tmp_path, files), today=dt.date(2026, 11, 30))
    found = [p for p in log.problems if p.code == code]
    assert found, [p.format() for p in log.problems]
    assert any(p.path == f"docs/adr/{where}" for p in found), [p.format() for p in found]
    assert {p.severity for p in found} == {severity}
    for p in found:
        assert p.fix and p.message


def test_a_clean_log_has_no_problems(tmp_path: Path) -> None:
    log = load(
        make(
            tmp_path,
            {
                "0001-a.md": A.format(n=1, status="Superseded by [2. B](0002-b.md)"),
                "0002-b.md": A.format(n=2, status="Accepted") + "\nSupersedes [1. A](0001-a.md)\n",
            },
        )
    )
    assert log.problems == ()
    assert log.successor("ADR-0001").current == "ADR-0002"


def test_review_by_in_future_is_quiet_and_today_is_settable(tmp_path: Path) -> None:
    cfg = make(tmp_path, {"0001-a.md": "---\nstatus: accepted\nreview-by: 2027-01-01\n---\n# A\n"})
    assert not [p for p in load(cfg, today=dt.date(2026, 12, 31)).problems if p.code == "ADR017"]
    assert [p for p in load(cfg, today=dt.date(2027, 1, 2)).problems if p.code == "ADR017"]


def test_user_owned_index_is_adr009_and_generated_drift_is_adr010(tmp_path: Path) -> None:
    cfg = make(tmp_path, {"0001-a.md": A.format(n=1, status="Accepted")})
    index = tmp_path / "docs/adr/INDEX.md"
    index.write_text("# My own index\n")
    data = report.build(load(cfg))
    codes = {p["code"] for p in data["problems"]}
    assert "ADR009" in codes
    assert data["views"]["index"]["state"] == "user-owned"
    assert data["views"]["index"]["target"] != data["views"]["index"]["path"]
    from mkdocs_adr.views.index import MARKER

    index.write_text(MARKER + "\n\nstale\n")
    data = report.build(load(cfg))
    assert {p["code"] for p in data["problems"]} >= {"ADR010"}
    assert data["views"]["index"]["state"] == "drift"


def test_successor_chain_is_followed_by_metadata(tmp_path: Path) -> None:
    log = load(
        make(
            tmp_path,
            {
                "0001-a.md": A.format(n=1, status="Superseded by [2. B](0002-b.md)"),
                "0002-b.md": A.format(n=2, status="Superseded by [3. C](0003-c.md)")
                + "\nSupersedes [1. A](0001-a.md)\n",
                "0003-c.md": A.format(n=3, status="Accepted") + "\nSupersedes [2. B](0002-b.md)\n",
            },
        )
    )
    succ = log.successor("ADR-0001")
    assert (succ.current, succ.state, succ.chain) == (
        "ADR-0003",
        "current",
        ("ADR-0002", "ADR-0003"),
    )
    assert not log.in_effect(log.by_path["docs/adr/0001-a.md"])


def test_unit_level_supersession_never_retires_the_whole_container(tmp_path: Path) -> None:
    log = load(
        make(
            tmp_path,
            {
                "0005-base.md": "---\nstyle: container\n---\n# Base\n\n## D1. Keep\n\n"
                "Status: accepted\n\n## D2. Replace\n\nStatus: superseded by ADR-0009\n",
                "0009-new.md": "---\nstatus: accepted\nsupersedes: ADR-0005#D2\n---\n# New\n",
                "0010-unit.md": "---\nstyle: container\n---\n# Unit source\n\n## D1. Takes over\n\n"
                "Status: accepted\n\nSupersedes [8. Old](0008-old.md)\n",
                "0008-old.md": A.format(n=8, status="Superseded by [10. U](0010-unit.md)"),
            },
        )
    )
    assert log.successor("ADR-0005").state == "none"
    assert log.in_effect(log.by_path["docs/adr/0005-base.md"])
    edge = next(e for e in log.graph.edges("supersedes") if e.target == "ADR-0005")
    assert (edge.source, edge.unit, edge.source_unit) == ("ADR-0009", "D2", None)
    # a unit that supersedes a whole record retires that record
    assert log.successor("ADR-0008").current == "ADR-0010"
    unit_edge = next(
        e
        for e in log.graph.edges("supersedes")
        if e.target == "ADR-0008" and e.declared_by == "ADR-0010"
    )
    assert (unit_edge.unit, unit_edge.source_unit) == (None, "D1")
    assert not [p for p in log.problems if p.severity >= 2]


def test_successor_marked_superseded_by_a_proposal_is_still_current(tmp_path: Path) -> None:
    log = load(
        make(
            tmp_path,
            {
                "0001-a.md": A.format(n=1, status="Superseded by [2. B](0002-b.md)"),
                "0002-b.md": A.format(n=2, status="Superseded by [3. C](0003-c.md)")
                + "\nSupersedes [1. A](0001-a.md)\n",
                "0003-c.md": A.format(n=3, status="Proposed") + "\nSupersedes [2. B](0002-b.md)\n",
            },
        )
    )
    b = log.by_path["docs/adr/0002-b.md"]
    assert log.in_effect(b)
    assert log.successor("ADR-0001").current == "ADR-0002"
    assert log.successor("ADR-0002").state == "not-accepted"
    assert [p.code for p in log.problems if p.ids and p.ids[0] == "ADR-0002"] == ["ADR006"]


def test_a_links_list_item_to_a_page_that_is_no_record_relates_to_nothing(
    tmp_path: Path,
) -> None:
    # MADR 2's "## Links" list: bare links to records relate; a guide beside the log
    # (outside the root, or a file discovery leaves out) is a page, no decision, so it
    # relates to nothing and is no note (ADR-0070); a verb still binds it
    record = A.format(n=1, status="Accepted") + (
        "\n## Links\n\n- [Crypto policy](./../handbook/crypto-policy.md)\n"
        "- [How we work](PROCESS.md)\n- [Vanished](0009-vanished.md)\n"
        "- Relates to [the style guide](./../handbook/style.md)\n"
    )
    config = make(tmp_path, {"0001-a.md": record, "PROCESS.md": "How we work.\n"})
    (tmp_path / "docs" / "handbook").mkdir()
    (tmp_path / "docs" / "handbook" / "crypto-policy.md").write_text("# Crypto\n")
    (tmp_path / "docs" / "handbook" / "style.md").write_text("# Style\n")
    log = load(config, today=dt.date(2026, 11, 30))
    found = sorted((p.line, p.severity, p.message) for p in log.problems if p.code == "ADR003")
    assert found == [
        # a record's name in the root that no file has is still a broken relation
        (11, Severity.WARNING, "'relates-to' target '0009-vanished.md' was not found"),
        (
            12,
            Severity.INFO,
            "'Relates to' target './../handbook/style.md' is not an ADR; "
            "kept as text, not resolved",
        ),
    ]
    a = log.by_path["docs/adr/0001-a.md"]
    assert sorted((r.kind, r.target, r.line) for r in a.relations) == [
        ("relates-to", "./../handbook/style.md", 12),
        ("relates-to", "0009-vanished.md", 11),
    ]


def test_words_after_a_links_list_item_link_are_no_references(tmp_path: Path) -> None:
    # a MADR "## Links" list of sources, each link followed by what it is and when it
    # was published: "Edition 3" or "March 2021" is no record, so no ADR003 warning
    record = A.format(n=1, status="Accepted") + (
        "\n## Links\n\n"
        "* [`Survey`](https://example.org/survey) Yearly survey of queue brokers, Edition 3\n"
        "* [`Report`](https://example.org/report) Broker comparison, Published 4 March 2021\n"
        "* [ADR-0002](0002-b.md), [ADR-0003](0003-c.md)\n"
        "- [ADR-0002](0002-b.md) ADR-0003\n"
        "- [Notes](https://example.org/notes) go with [ADR-0004](0004-d.md), Part 2\n"
    )
    config = make(
        tmp_path,
        {
            "0001-a.md": record,
            "0002-b.md": A.format(n=2, status="Accepted"),
            "0003-c.md": A.format(n=3, status="Accepted"),
            "0004-d.md": A.format(n=4, status="Accepted"),
        },
    )
    log = load(config, today=dt.date(2026, 11, 30))
    assert [p for p in log.problems if p.severity >= Severity.WARNING] == []
    a = log.by_path["docs/adr/0001-a.md"]
    assert {(r.kind, r.target_id or r.target) for r in a.relations} == {
        ("relates-to", "ADR-0002"),
        ("relates-to", "ADR-0003"),
        ("relates-to", "ADR-0004"),  # a link in the note relates; its "Part 2" does not
    }  # (the links to web pages name no record: docs/adr/0070)


def test_bare_ids_a_related_label_names_relate_where_a_record_has_them(tmp_path: Path) -> None:
    """``- ADR-0002: Queue`` under ``## Related``, ``**Related:** ADR-0003 (why)`` in the
    body: relations to the records with those ids (a real log of 119 wrote them so in 16
    records). An id no record has is no warning: a log whose ids are file stems writes
    ``ADR 0009`` there too (another real log of 92)."""
    record = A.format(n=1, status="Accepted") + (
        "\n## Context\n\n**Related:** ADR-0003 (the ledger), ADR 0009 (not in this log)\n"
        "\n## Related\n\n- ADR-0002: Record refunds as orders\n- Q4 2018 planning notes\n"
    )
    config = make(
        tmp_path,
        {
            "0001-a.md": record,
            "0002-b.md": A.format(n=2, status="Accepted"),
            "0003-c.md": A.format(n=3, status="Accepted"),
        },
    )
    log = load(config, today=dt.date(2026, 11, 30))
    assert [p for p in log.problems if p.severity >= Severity.WARNING] == []
    a = log.by_path["docs/adr/0001-a.md"]
    assert {(r.kind, r.target_id, r.origin) for r in a.relations} == {
        ("relates-to", "ADR-0002", "links-section"),
        ("relates-to", "ADR-0003", "links-section"),
    }
    assert {(r.source, r.kind, r.target) for r in log.graph.edges("relates-to")} >= {
        ("ADR-0001", "relates-to", "ADR-0002"),
        ("ADR-0001", "relates-to", "ADR-0003"),
    }


def test_a_record_that_says_it_is_superseded_and_accepted_is_told_to_fix_itself(
    tmp_path: Path,
) -> None:
    """``Status: accepted`` above ``- Superseded by [2. B](0002-b.md)`` in its own Links list,
    the successor silent (a real log of 17): the contradiction is the record's own, so the
    fix names its own line, not a relation the successor never wrote."""
    config = make(
        tmp_path,
        {
            "0001-a.md": A.format(n=1, status="Accepted")
            + "\n## Links\n\n- Superseded by [2. B](0002-b.md)\n",
            "0002-b.md": A.format(n=2, status="Accepted"),
        },
    )
    log = load(config, today=dt.date(2026, 11, 30))
    [found] = [p for p in log.problems if p.code == "ADR016"]
    assert (found.path, found.line) == ("docs/adr/0001-a.md", 5)
    assert found.message == "ADR-0001 is accepted, but says accepted ADR-0002 supersedes it"
    assert "remove the relation from ADR-0002" not in found.fix
    assert "remove its 'Superseded by ADR-0002'" in found.fix
