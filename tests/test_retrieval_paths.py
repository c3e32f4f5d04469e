"""Query paths are normalized or refused; affected-paths globs match as documented."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_adr import paths as paths_mod
from mkdocs_adr.retrieval.paths import (
    PathRefused,
    QueryPath,
    compile_pattern,
    match,
    normalize_query_path,
)
from mkdocs_adr.retrieval.project_graph import normalize_graph_path


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("src/a.py", "src/a.py"),
        ("./src/a.py", "src/a.py"),
        ("src\\pay\\a.py", "src/pay/a.py"),
        (".\\src\\a.py", "src/a.py"),
        ("src//pay/./a.py", "src/pay/a.py"),
        ("src/pay/../web/a.py", "src/web/a.py"),
        ("  src/a.py  ", "src/a.py"),
        (".", ""),
    ],
)
def test_relative_paths_are_normalized(tmp_path: Path, raw: str, want: str) -> None:
    assert normalize_query_path(raw, tmp_path).path == want


@pytest.mark.parametrize("raw", ["../outside.py", "src/../../x.py", "..\\x.py", "a/../../.."])
def test_paths_leaving_the_project_are_refused(tmp_path: Path, raw: str) -> None:
    with pytest.raises(PathRefused) as err:
        normalize_query_path(raw, tmp_path)
    assert "leaves the project" in err.value.reason
    assert str(tmp_path.resolve().as_posix()) in err.value.fix


def test_absolute_paths_inside_the_project_become_relative(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    got = normalize_query_path(str(tmp_path / "src" / "a.py"), tmp_path)
    assert got == QueryPath("src/a.py", False)
    assert normalize_query_path(str(tmp_path / "src"), tmp_path) == QueryPath("src", True)


def test_absolute_paths_outside_the_project_are_refused(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    with pytest.raises(PathRefused, match="outside the project folder"):
        normalize_query_path(str(tmp_path / "elsewhere" / "a.py"), project)
    with pytest.raises(PathRefused, match="outside"):
        normalize_query_path("C:\\Users\\x\\a.py", project)


@pytest.mark.parametrize("raw", ["", "   ", "a\x00b"])
def test_empty_or_nul_paths_are_refused(tmp_path: Path, raw: str) -> None:
    with pytest.raises(PathRefused):
        normalize_query_path(raw, tmp_path)


def test_trailing_slash_or_existing_folder_means_folder(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    assert normalize_query_path("new/", tmp_path).folder
    assert normalize_query_path("lib", tmp_path).folder
    assert not normalize_query_path("lib/x.py", tmp_path).folder


def test_case_follows_the_file_system_when_it_ignores_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "Src" / "Payments").mkdir(parents=True)
    (tmp_path / "Src" / "Payments" / "Ledger.py").write_text("x")
    # this machine's file system is case-sensitive: the path stays as typed
    assert paths_mod.case_insensitive(tmp_path) is False
    assert normalize_query_path("src/payments/ledger.py", tmp_path).path == (
        "src/payments/ledger.py"
    )
    # on a case-insensitive one (macOS, Windows) it takes the case on disk
    monkeypatch.setattr(paths_mod, "case_insensitive", lambda folder: True)
    got = normalize_query_path("SRC/payments/LEDGER.py", tmp_path)
    assert got.path == "Src/Payments/Ledger.py"
    # a component that does not exist keeps what was typed from there on
    assert normalize_query_path("src/payments/New/x.py", tmp_path).path == ("Src/Payments/New/x.py")


GLOBS = [
    ("src/payments/**", "src/payments/ledger.py", True),
    ("src/payments/**", "src/payments/a/b/c.py", True),
    ("src/payments/**", "src/paymentsx/a.py", False),
    ("src/*/ledger.py", "src/payments/ledger.py", True),
    ("src/*/ledger.py", "src/a/b/ledger.py", False),
    ("src/**/ledger.py", "src/ledger.py", True),
    ("src/**/ledger.py", "src/a/b/ledger.py", True),
    ("**/*.sql", "migrations/payments/001.sql", True),
    ("**/*.sql", "001.sql", True),
    ("migrations/payments/*.sql", "migrations/payments/001.sql", True),
    ("migrations/payments/*.sql", "migrations/payments/x/001.sql", False),
    ("src/pay?.py", "src/pay1.py", True),
    ("src/pay?.py", "src/pay/.py", False),
    ("src/[ab].py", "src/a.py", True),
    ("src/[!ab].py", "src/a.py", False),
    ("src/[!ab].py", "src/c.py", True),
    ("src/payments", "src/payments/ledger.py", True),  # a folder covers its content
    ("src/payments/", "src/payments/ledger.py", True),
    ("./src/payments/**", "src/payments/ledger.py", True),
    ("src\\payments\\**", "src/payments/ledger.py", True),
    ("/src/payments/**", "src/payments/ledger.py", True),
    ("src/a+b (1).py", "src/a+b (1).py", True),  # regex characters are literal
    ("src/a+b (1).py", "src/aab (1).py", False),
    ("Src/**", "src/x.py", False),  # case-sensitive, as the file system is
]


@pytest.mark.parametrize(("pattern", "path", "want"), GLOBS)
def test_affected_paths_globs(pattern: str, path: str, want: bool) -> None:
    compiled = compile_pattern(pattern)
    assert compiled is not None
    assert match(compiled, QueryPath(path, False)) is want


@pytest.mark.parametrize("pattern", ["../outside/**", "a/../../b", "", "   ", "./"])
def test_patterns_that_leave_the_project_are_rejected(pattern: str) -> None:
    assert compile_pattern(pattern) is None


def test_a_folder_query_finds_patterns_inside_it() -> None:
    ledger = compile_pattern("src/payments/ledger/**")
    assert ledger is not None
    assert match(ledger, QueryPath("src/payments", True))
    assert match(ledger, QueryPath("src", True))
    assert not match(ledger, QueryPath("src/pay", True))
    assert match(ledger, QueryPath("", True))  # the project folder holds everything


def test_a_name_too_long_for_the_disk_is_a_path_not_a_crash(tmp_path: Path) -> None:
    long = "n" * 300  # over NAME_MAX: is_dir() on it raises "File name too long"
    (tmp_path / "src").mkdir()
    assert normalize_query_path(f"{long}.py", tmp_path) == QueryPath(f"{long}.py", False)
    got = normalize_query_path(f"src/{long}.py", tmp_path)
    assert got == QueryPath(f"src/{long}.py", False)
    assert normalize_query_path(f"{long}/", tmp_path) == QueryPath(long, True)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [("~/a.py", "home folder"), ("C:a.py", "outside the project"), ("x" * 2000, "longer than")],
)
def test_other_refusals_say_which_rule(tmp_path: Path, raw: str, reason: str) -> None:
    with pytest.raises(PathRefused) as err:
        normalize_query_path(raw, tmp_path)
    assert reason in err.value.reason


def test_graph_node_files_become_project_relative(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    assert normalize_graph_path("src\\pay\\a.py:12:3", project) == "src/pay/a.py"
    assert normalize_graph_path(f"{project}/src/a.py:7", project) == "src/a.py"
    assert normalize_graph_path("./src/../lib/b.py", project) == "lib/b.py"
    for outside in (f"{tmp_path}/q/a.py", "../a.py", "C:\\x\\a.py", "~/a.py", ".", "a\x00b"):
        assert normalize_graph_path(outside, project) is None, outside
