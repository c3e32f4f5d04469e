"""A missing ADR root's warning names the folder where the records are (ADR013's fix).

The shapes are the default folders of the usual tools: MADR keeps ``docs/decisions``,
adr-tools ``doc/adr`` beside ``docs``, log4brains dated names; the plugin's default
root is ``docs/adr``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_adr import cache
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import load
from mkdocs_adr.suggest import looks_like_record, record_folder

from .conftest import run_cli, run_mkdocs

RECORD = "# {n}. Pick a thing\n\n## Status\n\nAccepted\n\n## Context\n\nWe had to.\n"


def project(tmp_path: Path, folders: dict[str, list[str]], plugin: str = "[adr]") -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(f"site_name: t\nplugins: {plugin}\n", encoding="utf-8")
    for folder, names in folders.items():
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        for i, name in enumerate(names, 1):
            (tmp_path / folder / name).write_text(RECORD.format(n=i), encoding="utf-8")
    return tmp_path


def fix_of_missing_root(folder: Path) -> str:
    with cache.disabled():
        log = load(load_from_mkdocs_yml(folder / "mkdocs.yml"))
    (problem,) = [p for p in log.problems if p.code == "ADR013"]
    assert problem.fix is not None
    return problem.fix


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("0001-record-architecture-decisions.md", True),
        ("adr-045-use-kafka.md", True),
        ("ADR-0001.md", True),
        ("20210907-use-log4brains.md", True),
        ("2021-09-07-dated.md", True),
        ("README.md", False),
        ("adr-template.md", False),
        ("use-2-databases.md", False),
        ("0001-x.txt", False),
    ],
)
def test_record_like_names(name: str, expected: bool) -> None:
    assert looks_like_record(name) is expected


def test_a_nested_madr_folder_is_named(tmp_path: Path) -> None:
    folder = project(
        tmp_path,
        {"docs/architecture/decisions": ["0001-a.md", "0002-b.md", "adr-template.md", "README.md"]},
    )
    fix = fix_of_missing_root(folder)
    assert fix.startswith("docs/architecture/decisions holds files named like records")
    assert "roots: [architecture/decisions]" in fix


def test_madrs_own_folder_is_the_default_root_without_docs_adr(tmp_path: Path) -> None:
    """``plugins: [adr]`` in a MADR project (records in ``docs/decisions``, MADR's folder):
    the default root finds them, and the site has its INDEX there (survey 6: two real
    logs built with the defaults published no record)."""
    folder = project(tmp_path, {"docs/decisions": ["0001-a.md", "0002-b.md"]})
    with cache.disabled():
        log = load(load_from_mkdocs_yml(folder / "mkdocs.yml"))
    assert [r.path for r in log.records] == [
        "docs/decisions/0001-a.md",
        "docs/decisions/0002-b.md",
    ]
    assert not [p for p in log.problems if p.code == "ADR013"]
    build = run_mkdocs("build", "-d", str(tmp_path / "site"), cwd=folder)
    assert build.returncode == 0, build.stderr
    assert "ADR013" not in build.stderr
    assert (tmp_path / "site" / "decisions" / "INDEX" / "index.html").is_file()
    # a docs/adr folder, or roots set to anything else, keeps what is configured
    (folder / "docs" / "adr").mkdir()
    with cache.disabled():
        assert [r.path for r in load(load_from_mkdocs_yml(folder / "mkdocs.yml")).roots] == [
            "docs/adr"
        ]


def test_adr_tools_folder_beside_docs_is_named_from_docs_dir(tmp_path: Path) -> None:
    folder = project(tmp_path, {"doc/adr": ["0001-a.md", "0002-b.md", "0003-c.md"]})
    fix = fix_of_missing_root(folder)
    assert fix.startswith("doc/adr holds")
    assert "roots: [../doc/adr]" in fix


def test_the_fullest_folder_wins_and_hidden_or_installed_ones_are_skipped(
    tmp_path: Path,
) -> None:
    many = [f"{i:04d}-x.md" for i in range(1, 9)]
    folder = project(
        tmp_path,
        {
            "docs/notes": ["0001-a.md", "0002-b.md"],
            "docs/architecture/decisions": ["20200101-a.md", "20200102-b.md", "20200103-c.md"],
            "node_modules/pkg/adr": many,
            ".git/adr": many,
        },
    )
    assert "roots: [architecture/decisions]" in fix_of_missing_root(folder)


def test_no_candidate_keeps_the_plain_fix(tmp_path: Path) -> None:
    folder = project(tmp_path, {"docs/guides": ["intro.md", "setup.md"], "docs/one": ["0001-a.md"]})
    assert fix_of_missing_root(folder) == "create the folder or remove it from the plugin's roots"


def test_an_existing_root_is_not_suggested_for_the_missing_one(tmp_path: Path) -> None:
    folder = project(
        tmp_path,
        {
            "docs/adr": ["0001-a.md", "0002-b.md", "0003-c.md"],
            "docs/rfc": ["0001-r.md", "0002-s.md"],
        },
        plugin="[{adr: {roots: [adr, decisions]}}]",
    )
    fix = fix_of_missing_root(folder)
    assert "roots: [rfc]" in fix  # not adr, which is already a root (and fuller)


def test_the_folder_found_is_a_root_that_reads_the_records(tmp_path: Path) -> None:
    folder = project(tmp_path, {"doc/adr": ["0001-a.md", "0002-b.md"]})
    fix = fix_of_missing_root(folder)
    root = fix.split("roots: [", 1)[1].split("]", 1)[0]
    (folder / "mkdocs.yml").write_text(
        f"site_name: t\nplugins:\n  - adr:\n      roots: [{root}]\n", encoding="utf-8"
    )
    with cache.disabled():
        log = load(load_from_mkdocs_yml(folder / "mkdocs.yml"))
    assert [r.id for r in log.records] == ["ADR-0001", "ADR-0002"]
    assert not [p for p in log.problems if p.code == "ADR013"]


def test_cli_check_and_mkdocs_build_show_the_folder(tmp_path: Path) -> None:
    folder = project(tmp_path, {"docs/architecture/decisions": ["0001-a.md", "0002-b.md"]})
    check = run_cli("check", cwd=folder)
    assert check.returncode == 0, check.stderr
    assert "write roots: [architecture/decisions] in the adr plugin's options" in check.stdout
    build = run_mkdocs("build", "-d", str(tmp_path / "site"), cwd=folder)
    assert build.returncode == 0, build.stderr
    assert "ADR013" in build.stderr and "roots: [architecture/decisions]" in build.stderr
    assert "Traceback" not in build.stderr


def test_the_walk_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mkdocs_adr.suggest as suggest

    monkeypatch.setattr(suggest, "MAX_FOLDERS", 3)
    for i in range(6):
        (tmp_path / f"f{i}").mkdir()
    (tmp_path / "f5" / "0001-a.md").write_text("x", encoding="utf-8")
    (tmp_path / "f5" / "0002-b.md").write_text("x", encoding="utf-8")
    # the project folder and two of its folders are looked at, not f5
    assert record_folder(tmp_path, tmp_path / "docs") is None
    monkeypatch.setattr(suggest, "MAX_FOLDERS", 100)
    assert record_folder(tmp_path, tmp_path / "docs") == "../f5"
