"""The typed-reference resolver (``identity.lookup``): every input shape, one hint rule."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.errors import UsageError
from mkdocs_adr.identity import (
    AmbiguousReference,
    BadReference,
    References,
    UnknownReference,
    hint,
    lookup,
    nearest,
    shown,
)
from mkdocs_adr.log import Log, load

from .conftest import run_cli
from .retrieval_logs import Spec

YML = (
    "site_name: t\ndocs_dir: docs\nplugins:\n  - adr:\n"
    "      roots: [adr, {path: services/pay/adr, prefix: PAY}]\n"
)

#: path below docs/ -> the record written there
FILES: dict[str, Spec] = {
    "adr/0001-start-here.md": Spec(1, "Start here"),
    "adr/0005-platform.md": Spec(
        5,
        "Platform",
        units=[("Use queues", "accepted", "Queues."), ("Use caches", "accepted", "Caches.")],
    ),
    "adr/0007-seven-in-core.md": Spec(7, "Seven in core"),
    "adr/0012-use-x.md": Spec(12, "Use X"),
    "adr/archive/0004-old-way.md": Spec(4, "Old way", status="rejected"),
    "services/pay/adr/0003-pay-thing.md": Spec(3, "Pay thing", prefix="PAY"),
    "services/pay/adr/0007-pay-seven.md": Spec(7, "Pay seven", prefix="PAY"),
}


def write_project(folder: Path) -> Path:
    for rel, spec in FILES.items():
        path = folder / "docs" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(spec.text(), encoding="utf-8")
    (folder / "docs" / "adr" / "README.md").write_text("# About this log\n", encoding="utf-8")
    (folder / "mkdocs.yml").write_text(YML, encoding="utf-8")
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    folder = write_project(tmp_path / "project")
    old = Path.cwd()
    os.chdir(tmp_path)  # outside the project: cwd-relative paths must not be what works
    try:
        yield folder
    finally:
        os.chdir(old)


@pytest.fixture
def log(project: Path) -> Log:
    loaded = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    # the log really holds what the tests below ask about
    assert {r.id for r in loaded.records} == {
        "ADR-0001",
        "ADR-0004",
        "ADR-0005",
        "ADR-0007",
        "ADR-0012",
        "PAY-0003",
        "PAY-0007",
    }
    assert [e.path for e in loaded.excluded] == ["docs/adr/README.md"]
    return loaded


def found_id(log: Log, text: str, **kwargs: bool) -> str:
    return lookup(log, text, **kwargs).record.id


# --------------------------------------------------------------------- ids and numbers


@pytest.mark.parametrize(
    "text", ["ADR-0012", "adr-12", "ADR 12", "ADR0012", "adr0012", "  ADR-012 ", "Adr-0012"]
)
def test_canonical_ids_in_any_case_and_spacing(log: Log, text: str) -> None:
    assert found_id(log, text) == "ADR-0012"


@pytest.mark.parametrize("text", ["PAY-3", "pay 3", "PAY0003", "pay-0003"])
def test_other_prefixes(log: Log, text: str) -> None:
    assert found_id(log, text) == "PAY-0003"


@pytest.mark.parametrize(("text", "rid"), [("12", "ADR-0012"), ("0012", "ADR-0012")])
def test_bare_numbers_in_the_first_root(log: Log, text: str, rid: str) -> None:
    assert found_id(log, text) == rid


@pytest.mark.parametrize("text", ["3", "03", "0003"])
def test_bare_numbers_are_looked_up_in_every_root(log: Log, text: str) -> None:
    assert found_id(log, text) == "PAY-0003"


def test_a_number_in_two_roots_is_ambiguous_and_lists_both(log: Log) -> None:
    with pytest.raises(AmbiguousReference) as err:
        lookup(log, "7")
    assert err.value.ids == ("ADR-0007", "PAY-0007")
    assert "ADR-0007 (docs/adr/0007-seven-in-core.md)" in err.value.message
    assert "PAY-0007 (docs/services/pay/adr/0007-pay-seven.md)" in err.value.message
    assert err.value.exit_code == 2 and isinstance(err.value, UsageError)
    # the prefix settles it
    assert found_id(log, "pay-7") == "PAY-0007"


def test_non_ascii_digits_are_not_numbers(log: Log) -> None:
    with pytest.raises(UnknownReference):
        lookup(log, "\u0661\u0662")  # Arabic-Indic "12"


# --------------------------------------------------------------------- paths and stems


@pytest.mark.parametrize(
    "text",
    [
        "docs/adr/0012-use-x.md",  # project-relative
        "./docs/adr/0012-use-x.md",
        "docs/adr/../adr/0012-use-x.md",
        "docs\\adr\\0012-use-x.md",  # typed on Windows
        "adr/0012-use-x.md",  # docs_dir-relative
        "0012-use-x.md",  # root-relative
        "0012-use-x",  # stem
        "0012-USE-X",
    ],
)
def test_paths_and_stems(log: Log, text: str) -> None:
    assert found_id(log, text) == "ADR-0012"


def test_an_absolute_path_inside_the_project(log: Log, project: Path) -> None:
    text = str(project / "docs" / "services" / "pay" / "adr" / "0003-pay-thing.md")
    assert found_id(log, text) == "PAY-0003"
    assert found_id(log, "0003-pay-thing.md") == "PAY-0003"  # relative to the second root


def test_paths_relative_to_the_current_folder(log: Log, project: Path) -> None:
    os.chdir(project / "docs" / "services")
    assert found_id(log, "pay/adr/0007-pay-seven.md") == "PAY-0007"


def test_a_removed_current_folder_is_no_crash(log: Log, tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    os.chdir(gone)
    gone.rmdir()
    assert found_id(log, "docs/adr/0012-use-x.md") == "ADR-0012"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("../project/docs/adr/0012-use-x.md", "leaves the project folder"),
        ("docs/../../project/docs/adr/0012-use-x.md", "leaves the project folder"),
        ("..\\docs\\adr\\0012-use-x.md", "leaves the project folder"),
        ("/etc/passwd", "is outside the project folder"),
        ("docs/adr/\x00.md", "NUL"),
    ],
)
def test_paths_leaving_the_project_are_refused(log: Log, text: str, needle: str) -> None:
    with pytest.raises(BadReference) as err:
        lookup(log, text)
    assert needle in err.value.message
    assert not isinstance(err.value, UnknownReference | AmbiguousReference)


def test_an_excluded_file_says_why_it_is_not_a_record(log: Log) -> None:
    with pytest.raises(UnknownReference) as err:
        lookup(log, "docs/adr/README.md")
    assert err.value.excluded is not None
    assert err.value.message.startswith("docs/adr/README.md is not a record (")


def test_part_of_a_file_name_only_when_asked(log: Log) -> None:
    with pytest.raises(UnknownReference):
        lookup(log, "use-x")
    assert found_id(log, "use-x", partial=True) == "ADR-0012"
    with pytest.raises(AmbiguousReference):
        lookup(log, "seven", partial=True)


def test_an_id_claimed_twice_is_ambiguous_and_its_paths_are_not(tmp_path: Path) -> None:
    files = {"adr/0001-a.md": Spec(1, "A"), "svc/adr/0001-b.md": Spec(1, "B")}
    for rel, spec in files.items():
        (tmp_path / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / rel).write_text(spec.text(), encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - adr:\n      roots: [adr, svc/adr]\n", encoding="utf-8"
    )
    two = load(load_from_mkdocs_yml(tmp_path / "mkdocs.yml"))
    for text in ("ADR-0001", "1"):
        with pytest.raises(AmbiguousReference) as err:
            lookup(two, text)
        assert err.value.ids == ("ADR-0001",)
        assert [r.path for r in err.value.records] == [
            "docs/adr/0001-a.md",
            "docs/svc/adr/0001-b.md",
        ]
        assert "give the file path instead" in err.value.fix
    assert lookup(two, "docs/svc/adr/0001-b.md").record.path == "docs/svc/adr/0001-b.md"


# --------------------------------------------------------------------- archived records


def test_archived_records_resolve_and_say_so(log: Log) -> None:
    for text in ("ADR-0004", "4", "0004-old-way", "docs/adr/archive/0004-old-way.md"):
        rec = lookup(log, text).record
        assert rec.id == "ADR-0004" and rec.archived


# --------------------------------------------------------------------- unit locators


def test_unit_locators(log: Log) -> None:
    found = lookup(log, "ADR-0005#D2", unit_ok=True)
    assert (found.record.id, found.unit, found.segment) == ("ADR-0005", "D2", None)
    found = lookup(log, "adr-5#d02", unit_ok=True)
    assert (found.record.id, found.unit) == ("ADR-0005", "D2")
    found = lookup(log, "5@3", unit_ok=True)
    assert (found.record.id, found.unit, found.segment) == ("ADR-0005", None, 3)
    found = lookup(log, "docs/adr/0005-platform.md#D1@2", unit_ok=True)
    assert (found.record.id, found.unit, found.segment) == ("ADR-0005", "D1", 2)
    assert {u.key for u in found.record.units} == {"D1", "D2"}
    assert lookup(log, "ADR-0005").unit is None


def test_unit_locators_refused_where_a_whole_record_is_wanted(log: Log) -> None:
    with pytest.raises(BadReference) as err:
        lookup(log, "ADR-0005#D2")
    assert "names a part of a record" in err.value.message
    assert not isinstance(err.value, UnknownReference)


def test_a_unit_of_an_unknown_record_is_unknown(log: Log) -> None:
    with pytest.raises(UnknownReference) as err:
        lookup(log, "ADR-0099#D1", unit_ok=True)
    assert err.value.text == "ADR-0099"


# --------------------------------------------------------------------- nearest ids


def test_unknown_id_names_the_nearest(log: Log) -> None:
    with pytest.raises(UnknownReference) as err:
        lookup(log, "ADR-0013")
    assert err.value.nearest[0] == "ADR-0012"
    assert len(err.value.nearest) == 3
    assert "no record has the id or path 'ADR-0013'; nearest ids: ADR-0012, " in err.value.message
    assert err.value.hint("nearest valid").startswith("nearest valid: ADR-0012")


def test_nearest_keeps_to_the_typed_prefix(log: Log) -> None:
    # closest numbers of the same prefix first, then ids spelled alike
    assert nearest(log, "PAY-0009") == ["PAY-0007", "PAY-0003", "ADR-0007"]
    assert nearest(log, "PAY-0009", n=2) == ["PAY-0007", "PAY-0003"]


def test_nearest_by_spelling_of_a_stem(log: Log) -> None:
    assert nearest(log, "0012-use-y")[0] == "ADR-0012"
    assert nearest(log, "start-heer")[0] == "ADR-0001"
    assert nearest(log, "stat-here")[0] == "ADR-0001"


def test_nearest_among_a_pool(log: Log) -> None:
    assert nearest(log, "ADR-0004")[0] == "ADR-0004"
    assert "ADR-0004" not in nearest(log, "ADR-0004", among=lambda r: not r.archived)
    with pytest.raises(UnknownReference) as err:
        lookup(log, "ADR-0003", among=lambda r: r.archived)
    assert err.value.nearest == ("ADR-0004",)


def test_hint_wording() -> None:
    assert hint([]) == ""
    assert hint(["ADR-0001", "PAY-0002"]) == "nearest ids: ADR-0001, PAY-0002"
    assert hint(["ADR-0001"], "nearest unarchived") == "nearest unarchived: ADR-0001"


def test_an_empty_log_has_no_hint(tmp_path: Path) -> None:
    (tmp_path / "docs" / "adr").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - adr\n", encoding="utf-8")
    empty = load(load_from_mkdocs_yml(tmp_path / "mkdocs.yml"))
    with pytest.raises(UnknownReference) as err:
        lookup(empty, "ADR-0001")
    assert err.value.nearest == () and "nearest" not in err.value.message


# --------------------------------------------------------------------- hostile input

HOSTILE = "\x1b[2J\x1b]0;owned\x07ADR-12\u202e\r\n" + "x" * 5000


def test_hostile_input_is_never_echoed_raw(log: Log) -> None:
    for text in (HOSTILE, HOSTILE + "#D1", "docs/" + HOSTILE + ".md", "\x1b[31m"):
        with pytest.raises(BadReference) as err:
            lookup(log, text, unit_ok=True)
        printed = err.value.format()
        assert not any(c in printed for c in "\x1b\x07\u202e\r\n"), repr(printed)
        assert len(printed) < 1000


def test_shown_escapes_and_shortens() -> None:
    assert shown("ADR-12\x1b[0m") == "ADR-12\\x1b[0m"
    assert shown("  x\u202ey ") == "x\\u202ey"
    assert shown("a" * 500).endswith("…") and len(shown("a" * 500)) == 121


def test_one_index_serves_many_lookups(log: Log) -> None:
    refs = References(log)
    assert [refs.lookup(t).record.id for t in ("1", "pay-3", "0012-use-x")] == [
        "ADR-0001",
        "PAY-0003",
        "ADR-0012",
    ]


# --------------------------------------------------------------------- the CLI


def test_graph_finds_a_bare_number_in_the_second_root(tmp_path: Path) -> None:
    project = write_project(tmp_path / "project")
    proc = run_cli("graph", "3", "--format", "json", "--hops", "0", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert [n["id"] for n in json.loads(proc.stdout)["nodes"]] == ["PAY-0003"]


def test_graph_refuses_a_number_in_two_roots(tmp_path: Path) -> None:
    project = write_project(tmp_path / "project")
    proc = run_cli("graph", "7", "--format", "json", cwd=project)
    assert proc.returncode == 2
    assert "ADR-0007" in proc.stderr and "PAY-0007" in proc.stderr and "ambiguous" in proc.stderr


def test_graph_unknown_id_hint_and_hostile_text(tmp_path: Path) -> None:
    project = write_project(tmp_path / "project")
    proc = run_cli("graph", "PAY-0009", cwd=project)
    assert proc.returncode == 2
    assert "no record with id PAY-0009" in proc.stderr
    assert "nearest ids: PAY-0007, PAY-0003" in proc.stderr
    proc = run_cli("graph", "\x1b]0;owned\x07ADR-99", cwd=project)
    assert proc.returncode == 2 and "no record with id" in proc.stderr
    assert "\x1b" not in proc.stderr and "\x07" not in proc.stderr
