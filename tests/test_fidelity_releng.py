"""Issue 11, engine side of partial supersession, declared prose succession, one-sided
supersession both ways (ADR005) and links whose text and file name disagree (ADR022).

The parser's phrases for "Partially supersedes X" and "This ADR supersedes X" belong to
another package; here a partial supersession is written with the frontmatter keys, and a
declaration (origin ``declaration``) is built as the parser hands it over.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from mkdocs_adr.config import Config
from mkdocs_adr.graph import RelationGraph
from mkdocs_adr.log import Log, analyse, load
from mkdocs_adr.model import Parsed, Problem, Record, Relation, Severity
from mkdocs_adr.views import dot, graphdata, mermaid, page, svg

from .conftest import LOGS, run_cli, run_mkdocs

RELENG = LOGS / "releng"


def _codes(log: Log, code: str) -> list[Problem]:
    return [p for p in log.problems if p.code == code]


def _fixture(copy_log: Callable[[str], Path], name: str) -> tuple[Path, Log]:
    project = copy_log(f"releng/{name}")
    return project, load(Config(project_dir=project, docs_dir=project / "docs"))


# --------------------------------------------------------------------- partial supersession


def test_partial_supersession_never_retires_and_is_no_successor(
    copy_log: Callable[[str], Path],
) -> None:
    _, log = _fixture(copy_log, "partial")
    old, new = log.get("ADR-0016"), log.get("ADR-0018")
    assert old is not None and new is not None
    assert [(r.kind, r.target_id, r.origin) for r in new.relations] == [
        ("partially-supersedes", "ADR-0016", "frontmatter")
    ]
    # the old record names it the other way round: one side is enough
    told = log.get("ADR-0019")
    assert told is not None
    assert [(r.kind, r.target_id) for r in told.relations] == [
        ("partially-superseded-by", "ADR-0021")
    ]
    for rid in ("ADR-0016", "ADR-0019"):
        rec = log.get(rid)
        assert rec is not None and log.in_effect(rec)
        assert log.successor(rid).state == "none"
        assert log.graph.direct_successors(rid) == []
    assert not log.graph.supersedes("ADR-0018", "ADR-0016")
    edges = {(e.source, e.target, e.declared_by) for e in log.graph.edges("partially-supersedes")}
    assert edges == {("ADR-0018", "ADR-0016", "ADR-0018"), ("ADR-0021", "ADR-0019", "ADR-0019")}
    assert list(log.graph.edges("supersedes")) == []
    assert {p.code for p in log.problems} & {"ADR005", "ADR006", "ADR016"} == set()


def test_partial_supersession_of_a_superseded_record_is_no_successor() -> None:
    graph = RelationGraph({"ADR-0001": "superseded", "ADR-0002": "accepted"})
    graph.add("ADR-0002", "partially-supersedes", "ADR-0001", "frontmatter")
    assert graph.direct_successors("ADR-0001") == []
    assert graph.successor("ADR-0001").state == "none"
    # marked superseded with no successor at all: out of effect, as before
    assert not graph.in_effect("ADR-0001")


def test_partial_supersession_builds_without_adr016_and_shows_on_both_pages(
    copy_log: Callable[[str], Path],
) -> None:
    """The real-log abort of issue 11: an accepted record partially superseded by an
    accepted one must build by default, with a quiet note on both pages."""
    project = copy_log("releng/partial")
    proc = run_mkdocs("build", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "ADR016" not in proc.stderr and "ADR005" not in proc.stderr
    site = project / "site" / "adr"
    old = (site / "0016-keep-sessions-in-one-shared-cache" / "index.html").read_text()
    new = (site / "0018-regional-session-caches" / "index.html").read_text()
    assert "adr-banner--contested" not in old and "Contested" not in old
    assert "admonition note adr-banner adr-banner--partially-superseded" in old
    assert re.search(r"Partially superseded by <a class=\"adr-ref\"[^>]*>ADR-0018 ", old)
    assert '<span class="adr-label">Partially superseded by:</span>' in old
    assert "admonition note adr-banner adr-banner--partially-supersedes" in new
    assert re.search(r"Partially supersedes <a class=\"adr-ref\"[^>]*>ADR-0016 ", new)
    assert '<span class="adr-label">Partially supersedes:</span>' in new
    # declared on the old record's side only: both pages show it
    told = (site / "0019-sign-session-tokens-with-rsa" / "index.html").read_text()
    teller = (site / "0021-sign-access-tokens-with-ed25519" / "index.html").read_text()
    assert re.search(r"Partially superseded by <a class=\"adr-ref\"[^>]*>ADR-0021 ", told)
    assert re.search(r"Partially supersedes <a class=\"adr-ref\"[^>]*>ADR-0019 ", teller)
    assert "adr-banner--superseded" not in old + told


def test_partial_supersession_edge_styles_in_cli_graphs(copy_log: Callable[[str], Path]) -> None:
    project = copy_log("releng/partial")
    plan = run_cli("plan", "--json", cwd=project)
    assert plan.returncode == 0, plan.stderr
    codes = {p["code"] for p in json.loads(plan.stdout)["problems"]}
    assert not codes & {"ADR005", "ADR016"}
    mm = run_cli("graph", "--format", "mermaid", cwd=project, check=True).stdout
    assert re.search(r"n_ADR_0018_\d+ --o\|partially supersedes\| n_ADR_0016_\d+", mm), mm
    assert "==>" not in mm  # no full supersession drawn
    dots = run_cli("graph", "--format", "dot", cwd=project, check=True).stdout
    assert '"ADR-0018" -> "ADR-0016" [label="partially supersedes", style="bold,dashed"];' in dots
    drawn = run_cli("graph", "--format", "svg", cwd=project, check=True).stdout
    assert 'class="adr-edge adr-edge--partially-supersedes"' in drawn
    assert 'stroke-dasharray="8 4"' in drawn
    assert ">partially supersedes</text>" in drawn  # the legend entry
    data = json.loads(run_cli("graph", "--format", "json", cwd=project, check=True).stdout)
    assert {
        "source": "ADR-0021",
        "target": "ADR-0019",
        "kind": "partially-supersedes",
        "unit": None,
    } in data["edges"]


# --------------------------------------------------------------------- declared in prose


def _record(
    number: int, status: str, relations: tuple[Relation, ...] = (), title: str = ""
) -> Record:
    name = f"{number:04d}-{(title or f'record {number}').lower().replace(' ', '-')}.md"
    parsed = Parsed(
        style="nygard",
        title=title or f"Record {number}",
        status=status,
        raw_status=status.capitalize(),
        status_line=5,
        number=number,
        relations=relations,
        body_start=1,
    )
    return Record(
        id=f"ADR-{number:04d}",
        path=f"docs/adr/{name}",
        root="adr",
        domain=None,
        archived=False,
        sha256=f"{number:064x}",
        parsed=parsed,
        number=number,
    )


def _declared(kind: str, target: str, line: int = 3) -> Relation:
    return Relation(kind, target, "declaration", line, verb=kind.replace("-", " "))


def _log(*records: Record) -> Log:
    config = Config(project_dir=Path("/nowhere"), docs_dir=Path("/nowhere/docs"))
    return analyse(config, list(records), excluded=(), layouts={})


def test_one_sided_declaration_is_adr005_and_retires_nothing() -> None:
    log = _log(
        _record(9, "accepted"),
        _record(12, "accepted", (_declared("supersedes", "ADR-0009", line=3),)),
    )
    old = log.get("ADR-0009")
    assert old is not None and log.in_effect(old)
    assert log.successor("ADR-0009").state == "none"
    assert log.graph.direct_successors("ADR-0009") == []
    new = log.get("ADR-0012")
    assert new is not None
    # kept as the relation it is, never a mention
    assert [(r.kind, r.target_id, r.origin) for r in new.relations] == [
        ("supersedes", "ADR-0009", "declaration")
    ]
    (edge,) = log.graph.edges("supersedes")
    assert edge.one_sided_declaration and not edge.authoritative
    (found,) = _codes(log, "ADR005")
    assert (found.severity, found.path, found.line) == (
        Severity.WARNING,
        "docs/adr/0012-record-12.md",
        3,
    )
    assert "declares in prose" in found.message and "ADR-0009 stays in effect" in found.message
    assert found.ids == ("ADR-0012", "ADR-0009")
    assert not _codes(log, "ADR016")


def test_declaration_by_the_old_record_alone_is_adr005_on_the_old_record() -> None:
    log = _log(
        _record(3, "accepted", (_declared("superseded-by", "ADR-0007", line=9),)),
        _record(7, "accepted"),
    )
    old = log.get("ADR-0003")
    assert old is not None and log.in_effect(old)
    (found,) = _codes(log, "ADR005")
    assert (found.severity, found.path, found.line) == (
        Severity.WARNING,
        "docs/adr/0003-record-3.md",
        9,
    )
    assert "it is superseded by ADR-0007" in found.message
    assert not _codes(log, "ADR016")


def test_a_proposal_may_declare_what_it_would_supersede() -> None:
    log = _log(_record(1, "accepted"), _record(2, "proposed", (_declared("supersedes", "1"),)))
    assert not _codes(log, "ADR005") and not _codes(log, "ADR016")
    assert log.successor("ADR-0001").state == "none"


def test_declaration_binds_when_the_old_status_says_superseded() -> None:
    log = _log(
        _record(9, "superseded"),
        _record(12, "accepted", (_declared("supersedes", "ADR-0009"),)),
    )
    succ = log.successor("ADR-0009")
    assert (succ.state, succ.current) == ("current", "ADR-0012")
    old = log.get("ADR-0009")
    assert old is not None and not log.in_effect(old)
    (edge,) = log.graph.edges("supersedes")
    assert edge.authoritative and edge.origin == "declaration"
    assert not _codes(log, "ADR005") and not _codes(log, "ADR006")


def test_declaration_binds_when_the_other_record_declares_it_back() -> None:
    log = _log(
        _record(4, "deprecated", (_declared("superseded-by", "ADR-0006"),)),
        _record(6, "accepted", (_declared("supersedes", "ADR-0004"),)),
    )
    assert log.graph.direct_successors("ADR-0004") == ["ADR-0006"]
    assert log.successor("ADR-0004").current == "ADR-0006"
    assert all(e.authoritative for e in log.graph.edges("supersedes"))
    assert not _codes(log, "ADR005")


def test_multi_target_declaration_keeps_every_target() -> None:
    """'**This document is superseded by**' and a list of two links, status superseded."""
    log = _log(
        _record(
            11,
            "superseded",
            (
                _declared("superseded-by", "0013-a.md", line=8),
                _declared("superseded-by", "0014-b.md", line=9),
            ),
        ),
        _record(13, "accepted", title="A"),
        _record(14, "accepted", title="B"),
    )
    old = log.get("ADR-0011")
    assert old is not None
    assert [(r.target_id, r.line) for r in old.relations] == [("ADR-0013", 8), ("ADR-0014", 9)]
    assert log.graph.direct_successors("ADR-0011") == ["ADR-0013", "ADR-0014"]
    assert log.successor("ADR-0011").state == "ambiguous"
    assert _codes(log, "ADR007")
    # bound by the old record's status; that the successors do not say so back is a note
    assert {(p.severity, p.line, p.ids) for p in _codes(log, "ADR005")} == {
        (Severity.INFO, 8, ("ADR-0011", "ADR-0013")),
        (Severity.INFO, 9, ("ADR-0011", "ADR-0014")),
    }


def test_a_stated_relation_outweighs_the_same_declaration() -> None:
    stated = Relation("supersedes", "ADR-0001", "status-section", 6, verb="Supersedes")
    log = _log(
        _record(1, "accepted"),
        _record(2, "accepted", (_declared("supersedes", "ADR-0001"), stated)),
    )
    (edge,) = log.graph.edges("supersedes")
    assert (edge.origin, edge.authoritative) == ("status-section", True)
    assert {p.code for p in log.problems} >= {"ADR005", "ADR016"}  # a stated contradiction
    assert not [p for p in _codes(log, "ADR005") if "prose" in p.message]


def test_declared_in_prose_shows_on_both_pages_and_draws_apart() -> None:
    log = _log(
        _record(9, "accepted", title="One queue per service"),
        _record(12, "accepted", (_declared("supersedes", "ADR-0009"),), title="Partition"),
    )
    ctx = page.PageContext.build(log)

    def href(rid: str) -> str:
        return f"../{rid}/"

    for rid in ("ADR-0009", "ADR-0012"):
        rec = log.get(rid)
        assert rec is not None
        notes = [b for b in page.banners(ctx, rec, href) if "adr-banner--declared" in b]
        assert len(notes) == 1, page.banners(ctx, rec, href)
        assert notes[0].startswith('<div class="admonition note')
        assert 'href="../ADR-0012/">ADR-0012</a> declares in prose' in notes[0]
        assert "ADR-0009</a> stays in effect" in notes[0]
        listed = page.relations(ctx, rec, href)
        assert '<span class="adr-note">(declared in prose)</span>' in listed
    old = log.get("ADR-0009")
    assert old is not None
    assert not [b for b in page.banners(ctx, old, href) if "contested" in b]
    data = graphdata.build(log)
    (edge,) = data.edges
    assert (edge.source, edge.target, edge.kind, edge.declared) == (
        "ADR-0012",
        "ADR-0009",
        "supersedes",
        True,
    )
    assert re.search(r"-\.->\|supersedes #40;declared in prose#41;\|", mermaid.render(data)), (
        mermaid.render(data)
    )
    assert (
        '"ADR-0012" -> "ADR-0009" [label="supersedes (declared in prose)", style=dotted];'
        in dot.render(data)
    )
    drawn = svg.render(data, uid="t", href=href, title="t")
    assert 'class="adr-edge adr-edge--supersedes adr-edge--declared"' in drawn
    assert 'stroke-dasharray="1 4"' in drawn
    assert ">declared in prose</text>" in svg.document([("All", data)], href=href, title="t")
    assert graphdata.to_json(data)["edges"] == [
        {
            "source": "ADR-0012",
            "target": "ADR-0009",
            "kind": "supersedes",
            "unit": None,
            "declared": True,
        }
    ]


# --------------------------------------------------------------------- links and ADR005


def test_link_text_and_file_name_naming_two_records_is_adr022(
    copy_log: Callable[[str], Path],
) -> None:
    _, log = _fixture(copy_log, "links")
    (found,) = _codes(log, "ADR022")
    assert (found.severity, found.path, found.line) == (
        Severity.WARNING,
        "docs/adr/0010-use-rabbitmq.md",
        7,
    )
    assert found.ids == ("ADR-0010", "ADR-0011", "ADR-0012")
    assert "ADR-0011 by its file name" in found.message
    assert "ADR-0012 by its text 'ADR-0012'" in found.message
    assert found.fix == "make the link text and the file name name the same record"
    # the file name wins
    old = log.get("ADR-0010")
    assert old is not None
    assert [r.target_id for r in old.relations] == ["ADR-0011"]
    assert log.successor("ADR-0010").current == "ADR-0011"


def test_misspelled_file_names_fall_back_to_their_number_then_the_text(
    copy_log: Callable[[str], Path],
) -> None:
    _, log = _fixture(copy_log, "links")
    by_file = log.get("ADR-0012")  # 0009-one-queue-per-servce.md
    by_text = log.get("ADR-0013")  # [ADR-0005](event-schema-registry.md)
    assert by_file is not None and by_text is not None
    assert [(r.kind, r.target_id) for r in by_file.relations] == [("supersedes", "ADR-0009")]
    assert [(r.kind, r.target_id) for r in by_text.relations] == [("amends", "ADR-0005")]
    assert not _codes(log, "ADR003")


def test_a_body_link_to_a_file_of_another_subject_mentions_no_record(tmp_path: Path) -> None:
    """A log numbered again leaves links to files that are gone (``0005-wallet-balance.md``)
    whose number now names another decision (``0005-build-with-tsc.md``): a body link names
    no record then, where a renamed file that keeps a word of its subject still does; a
    link line names none either and is not found, unless its text names the record's
    subject (surveys 6 and 7: a supersession pointed at an unrelated decision)."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0005-build-with-tsc.md").write_text("# 5. Build with tsc\n\n## Status\n\nAccepted\n")
    (adr / "0002-queue-per-tenant.md").write_text("# 2. Queues\n\n## Status\n\nAccepted\n")
    (adr / "0001-wallet.md").write_text(
        "# 1. Wallet\n\n## Status\n\nAccepted\n\n## Context\n\nWe read "
        "[ADR-0005](0005-wallet-balance.md) and [ADR-0002](0002-queue-per-service.md) first.\n"
    )
    (adr / "0003-ledger.md").write_text(
        "# 3. Ledger\n\n## Status\n\nAccepted\n\nAmends [5. Wallet balance](0005-wallet-balance.md)"
        "\n\nAmends [5. Build it with tsc](0005-compile-step.md)\n"
    )
    log = load(Config(project_dir=tmp_path, docs_dir=tmp_path / "docs"))
    mentioning, linking = log.get("ADR-0001"), log.get("ADR-0003")
    assert mentioning is not None and linking is not None
    assert [(r.kind, r.target_id) for r in mentioning.relations] == [("mentions", "ADR-0002")]
    # the first names no record (ADR003); the second's text names record 5's subject
    assert [(r.kind, r.target_id) for r in linking.relations] == [
        ("amends", None),
        ("amends", "ADR-0005"),
    ]
    [missing] = _codes(log, "ADR003")
    assert (missing.path, missing.line) == ("docs/adr/0003-ledger.md", 7)


def test_a_forges_page_of_a_record_file_names_that_record(tmp_path: Path) -> None:
    """``[..](https://github.com/o/r/blob/main/docs/adr/0008-x.md)`` is the record file
    ``docs/adr/0008-x.md`` of this project (survey 6: a mention missed, a successor kept as
    text); a page of another path, or of a file that is gone, stays a web page."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0008-eight.md").write_text(
        "# 8. Eight\n\n## Status\n\nSuperseded by [9](https://gitlab.example/o/r/-/blob/0a1b/docs/adr/0009-nine.md)\n"
    )
    (adr / "0009-nine.md").write_text(
        "# 9. Nine\n\n## Status\n\nAccepted\n\nSupersedes [8](0008-eight.md)\n\n## Context\n\n"
        "See [eight](https://github.com/o/r/blob/main/docs/adr/0008-eight.md#context), "
        "[gone](https://github.com/o/r/blob/main/docs/adr/0007-gone.md) and "
        "[elsewhere](https://github.com/x/y/blob/main/docs/adr/0001-other.md).\n"
    )
    log = load(Config(project_dir=tmp_path, docs_dir=tmp_path / "docs"))
    old = log.get("ADR-0008")
    assert old is not None and old.status == "superseded"
    assert [(r.kind, r.target_id) for r in old.relations] == [("superseded-by", "ADR-0009")]
    assert log.successor("ADR-0008").current == "ADR-0009"
    assert not [p for p in log.problems if p.severity >= Severity.WARNING]


def test_references_reach_records_whose_ids_go_on_with_their_slug(tmp_path: Path) -> None:
    """``id: ADR-0011-keep-a-ledger`` names the file; the log refers to the record as
    ``ADR-0011`` and by the whole id (a real log of 183 records, 488 false ADR003
    warnings; survey 7). A number two such records share stays unresolved: only the
    whole id tells them apart."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)

    def record(stem: str, status: str, extra: str = "") -> None:
        (adr / f"{stem}.md").write_text(
            f"---\nid: {stem}\nstatus: {status}\n{extra}---\n# {stem[:8]}: T\n", "utf-8"
        )

    record("ADR-0011-keep-a-ledger", "superseded", "superseded_by: [ADR-0012-split-the-ledger]\n")
    record("ADR-0012-split-the-ledger", "accepted", "supersedes: ADR-0011\nrelates_to: ADR-0013\n")
    record("ADR-0013-audit-a", "accepted")
    record("ADR-0013-audit-b", "accepted")
    log = load(Config(project_dir=tmp_path, docs_dir=tmp_path / "docs"))
    old, new = log.get("ADR-0011-keep-a-ledger"), log.get("ADR-0012-split-the-ledger")
    assert old is not None and new is not None
    assert [(r.kind, r.target_id) for r in old.relations] == [
        ("superseded-by", "ADR-0012-split-the-ledger")
    ]
    stated = [(r.kind, r.target_id) for r in new.relations]
    assert ("supersedes", "ADR-0011-keep-a-ledger") in stated
    assert log.successor("ADR-0011-keep-a-ledger").current == "ADR-0012-split-the-ledger"
    # ADR-0013 names two records' number: not found, as before
    assert [p.path for p in _codes(log, "ADR003")] == ["docs/adr/ADR-0012-split-the-ledger.md"]
    assert not _codes(log, "ADR002")


@pytest.mark.parametrize(
    ("text", "href", "target", "conflict"),
    [
        ("0009 - One queue per service", "one-queue.md", "ADR-0009", False),
        ("12. Partition events", "0019-partition.md", "ADR-0012", False),  # no 0019: the text
        ("9. One queue per service", "0002-b.md", "ADR-0002", True),
        ("ADR 2", "0002-b.md", "ADR-0002", False),
    ],
)
def test_link_resolution_order(
    tmp_path: Path, text: str, href: str, target: str, conflict: bool
) -> None:
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    for n, name in ((2, "b"), (9, "one-queue-per-service"), (12, "partition-events")):
        (adr / f"{n:04d}-{name}.md").write_text(f"# {n}. {name}\n\n## Status\n\nAccepted\n")
    (adr / "0020-x.md").write_text(f"# 20. X\n\n## Status\n\nAccepted\n\nAmends [{text}]({href})\n")
    log = load(Config(project_dir=tmp_path, docs_dir=tmp_path / "docs"))
    rec = log.get("ADR-0020")
    assert rec is not None
    assert [r.target_id for r in rec.relations] == [target]
    found = _codes(log, "ADR022")
    assert bool(found) is conflict
    if conflict:
        assert found[0].ids == ("ADR-0020", "ADR-0002", "ADR-0009") and found[0].line == 7


def test_superseded_by_without_the_successor_saying_so_is_adr005_info(
    copy_log: Callable[[str], Path],
) -> None:
    _, log = _fixture(copy_log, "links")
    (found,) = _codes(log, "ADR005")
    assert (found.severity, found.path, found.line) == (
        Severity.INFO,
        "docs/adr/0008-poll-the-orders-table.md",
        7,
    )
    assert found.ids == ("ADR-0008", "ADR-0014")
    assert found.fix == "add 'Supersedes ADR-0008' to ADR-0014"
    old = log.get("ADR-0008")
    assert old is not None and not log.in_effect(old)
    assert log.successor("ADR-0008").current == "ADR-0014"


def test_superseded_by_with_a_status_that_disagrees_is_adr005_warning(tmp_path: Path) -> None:
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-a.md").write_text("---\nstatus: deprecated\nsuperseded-by: ADR-0002\n---\n# A\n")
    (adr / "0002-b.md").write_text("---\nstatus: accepted\n---\n# B\n")
    log = load(Config(project_dir=tmp_path, docs_dir=tmp_path / "docs"))
    (found,) = _codes(log, "ADR005")
    assert (found.severity, found.path, found.line) == (Severity.WARNING, "docs/adr/0001-a.md", 3)
    assert not _codes(log, "ADR016")


def test_adr_tools_logs_with_both_sides_stay_quiet(copy_log: Callable[[str], Path]) -> None:
    project = copy_log("adrtools")
    log = load(Config(project_dir=project, docs_dir=project))
    assert log.graph.direct_successors("ADR-0002") == ["ADR-0003"]
    assert not _codes(log, "ADR005") and not _codes(log, "ADR022")


def test_check_reports_both_codes_from_the_cli(copy_log: Callable[[str], Path]) -> None:
    project = copy_log("releng/links")
    proc = run_cli("plan", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr  # a warning and an info: no error
    problems = json.loads(proc.stdout)["problems"]
    got = {(p["code"], p["severity"], p["path"], p["line"]) for p in problems}
    assert ("ADR022", "warning", "docs/adr/0010-use-rabbitmq.md", 7) in got
    assert ("ADR005", "info", "docs/adr/0008-poll-the-orders-table.md", 7) in got
