"""The one path rule and MkDocs' URL scheme (``mkdocs_adr.paths``), tested directly."""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mkdocs.structure.files import File

from mkdocs_adr import paths
from mkdocs_adr.errors import RefusedError
from mkdocs_adr.paths import (
    MAX_CHARS,
    UnsafePath,
    docs_relative,
    from_project,
    inside_project,
    is_absolute,
    is_normalized,
    normalize,
    page_dest,
    page_url,
    project_relative,
    relative,
    relative_url,
    site_url,
)

LONG = "n" * 300  # over NAME_MAX (255 bytes): a legal string, a name no disk can hold

# --------------------------------------------------------------------- the rule


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("a/b.md", "a/b.md"),
        ("./a/b.md", "a/b.md"),
        ("a//b/./c.md", "a/b/c.md"),
        ("a/b/", "a/b"),
        ("a\\b\\c.md", "a/b/c.md"),
        (".\\a.md", "a.md"),
        ("a/../b.md", "b.md"),
        ("a/b/../../c", "c"),
        ("a/..", ""),
        (".", ""),
        ("", ""),
        # names, not syntax: kept exactly, whitespace included
        (" a.md", " a.md"),
        ("a b/c#d%20e?.md", "a b/c#d%20e?.md"),
        ("决策/記録-ü.md", "决策/記録-ü.md"),
        ("<script>alert(1)</script>.md", "<script>alert(1)</script>.md"),
        ("...", "..."),
        ("..a/b..", "..a/b.."),
        (".hidden/x", ".hidden/x"),
        ("a/~b", "a/~b"),
        ("a/C:/b", "a/C:/b"),
        ("1:x", "1:x"),
        (f"{LONG}/{LONG}.md", f"{LONG}/{LONG}.md"),
    ],
)
def test_normalization_table(raw: str, want: str) -> None:
    assert normalize(raw) == want
    assert relative(raw) == want


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        ("..", "escapes"),
        ("../a.md", "escapes"),
        ("a/../../b", "escapes"),
        ("..\\a.md", "escapes"),
        ("a/b/../../..", "escapes"),
        ("/etc/passwd", "absolute"),
        ("//server/share/a.md", "absolute"),
        ("\\\\server\\share\\a.md", "absolute"),
        ("\\a.md", "absolute"),
        ("C:/x.md", "drive"),
        ("c:\\Users\\x.md", "drive"),
        ("C:x.md", "drive"),
        ("Z:", "drive"),
        ("a/../C:/x", "drive"),
        ("~/a.md", "home"),
        ("~root/a.md", "home"),
        ("a/../~/x", "home"),
        ("a\x00b", "nul"),
        ("\x00", "nul"),
        ("a/" * 600, "too-long"),
    ],
)
def test_refused_paths_say_why(raw: str, kind: str) -> None:
    assert normalize(raw) is None
    with pytest.raises(UnsafePath) as err:
        relative(raw)
    assert err.value.kind == kind
    assert err.value.reason in str(err.value)
    assert not is_normalized(raw)


def test_the_length_limit_is_on_the_normalized_path() -> None:
    assert normalize("x" * MAX_CHARS) == "x" * MAX_CHARS
    assert normalize("x" * (MAX_CHARS + 1)) is None
    # ``./`` and ``..`` that drop out do not count
    assert normalize("./" * MAX_CHARS + "x") == "x"


@pytest.mark.parametrize(
    "good", ["a.md", "a/b.md", "archive/0002-x.md", " a.md", "a b/#.md", "...", "1:x", LONG]
)
def test_normalized_paths_pass_as_they_are(good: str) -> None:
    assert is_normalized(good)


@pytest.mark.parametrize(
    "bad",
    [
        *("", ".", "./a", "a/", "a//b", "a/./b", "a/../b", "a\\b"),
        *("/a", "C:x", "~/a", "a\x00b", 3, None),
    ],
)
def test_paths_not_in_normal_form_are_not_rewritten_but_refused(bad: object) -> None:
    assert not is_normalized(bad)


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("/a", True),
        ("\\a", True),
        ("//srv/x", True),
        ("C:/a", True),
        ("c:a", True),
        ("a/b", False),
        ("~/a", False),  # a home folder is refused, but it is not an absolute path
        ("1:a", False),
        ("", False),
    ],
)
def test_is_absolute(raw: str, want: bool) -> None:
    assert is_absolute(raw) is want


segment = st.one_of(
    st.sampled_from(["", ".", "..", "a", "B", "~", "~u", "C:", "c:x", " ", "é", "#", "\x00"]),
    st.text(alphabet="ab.~:\\ ", min_size=1, max_size=4),
)
raw_path = st.builds(
    lambda lead, parts: lead + "/".join(parts),
    st.sampled_from(["", "/", "\\", "./", "../"]),
    st.lists(segment, max_size=8),
)


def _answer(rule: Any, raw: str) -> tuple[str, str]:
    try:
        return ("ok", rule(raw))
    except paths.UnsafePath as exc:
        return ("refused", exc.kind)


def test_the_plain_path_shortcut_answers_as_the_rule_for_every_short_string() -> None:
    """``relative`` takes a path already in normal form at once (one pattern); every
    string of up to five characters over the characters the rule looks at gets the
    answer the rule's own walk gives."""
    alphabet = "a./\\~:C\x00\n"
    strings = [""]
    frontier = [""]
    for _ in range(5):
        frontier = [s + c for s in frontier for c in alphabet]
        strings += frontier
    for raw in strings:
        assert _answer(paths.relative, raw) == _answer(paths._relative, raw), repr(raw)
    long_name = "a/" * (paths.MAX_CHARS // 2) + "b"
    assert _answer(paths.relative, long_name) == ("refused", "too-long")


@settings(max_examples=400, deadline=None)
@given(raw_path)
def test_normalize_is_idempotent_and_only_yields_safe_paths(raw: str) -> None:
    got = normalize(raw)
    if got is None:
        return
    assert normalize(got) == got
    assert got == "" or is_normalized(got)
    assert "\\" not in got and "\x00" not in got
    assert not got.startswith(("/", "~")) and not is_absolute(got)
    assert ".." not in got.split("/") and "." not in got.split("/")
    # lexically it stays inside the folder it is relative to
    assert not posixpath.normpath(posixpath.join("root", got)).startswith("..")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "..", ".", ""]), max_size=10))
def test_dot_dot_is_refused_exactly_when_it_climbs_above_the_start(parts: list[str]) -> None:
    depth, escapes = 0, False
    for part in parts:
        if part == "..":
            depth -= 1
            escapes = escapes or depth < 0
        elif part not in ("", "."):
            depth += 1
    assert (normalize("./" + "/".join(parts)) is None) is escapes


# --------------------------------------------------------------------- against the project


def test_from_project_takes_absolute_paths_inside_the_project(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    assert from_project(str(project / "src" / "a.py"), project) == "src/a.py"
    assert from_project(str(project), project) == ""
    assert from_project(str(project / "src" / ".." / "b.py"), project) == "b.py"
    assert from_project("src\\a.py", project) == "src/a.py"
    # the project reached through a symlink is still the project
    link = tmp_path / "link"
    link.symlink_to(project, target_is_directory=True)
    assert from_project(str(project.resolve() / "src" / "a.py"), link) == "src/a.py"


@pytest.mark.parametrize(
    ("raw", "kind"),
    [("../x.py", "escapes"), ("~/x.py", "home"), ("a\x00b", "nul"), ("C:\\Users\\x.py", "outside")],
)
def test_from_project_refuses(tmp_path: Path, raw: str, kind: str) -> None:
    with pytest.raises(UnsafePath) as err:
        from_project(raw, tmp_path)
    assert err.value.kind == kind


def test_from_project_refuses_absolute_paths_outside_and_names_the_project(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    with pytest.raises(UnsafePath) as err:
        from_project(str(tmp_path / "other" / "a.py"), project)
    assert err.value.kind == "outside"
    assert project.resolve().as_posix() in err.value.reason
    # a sibling whose name starts like the project is not inside it
    with pytest.raises(UnsafePath):
        from_project(str(tmp_path / "project-two" / "a.py"), project)


def test_inside_project_gives_the_file_under_the_project(tmp_path: Path) -> None:
    assert inside_project(tmp_path, "docs/adr/0001-x.md") == tmp_path / "docs/adr/0001-x.md"
    assert inside_project(tmp_path, "docs\\a.md") == tmp_path / "docs" / "a.md"
    # a name no file system takes is still a path: opening it fails later, not here
    assert inside_project(tmp_path, f"{LONG}/{LONG}.md") == tmp_path / LONG / f"{LONG}.md"


@pytest.mark.parametrize("bad", ["", ".", "a/..", "../x", "/etc/passwd", "C:/x", "~/x", "a\x00b"])
def test_inside_project_refuses(tmp_path: Path, bad: str) -> None:
    with pytest.raises(RefusedError, match="refused"):
        inside_project(tmp_path, bad)


def test_inside_project_refuses_a_symlink_out_of_the_project(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / "escape").symlink_to(outside, target_is_directory=True)
    (project / "inner").symlink_to(project / "docs", target_is_directory=True)
    with pytest.raises(RefusedError, match="symlink"):
        inside_project(project, "escape/a.md")
    assert inside_project(project, "inner/a.md") == project / "inner" / "a.md"


def test_disk_case_only_on_a_case_insensitive_file_system(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "Src").mkdir()
    (tmp_path / "Src" / "A.py").write_text("x")
    assert paths.case_insensitive(tmp_path) is (tmp_path / "src").exists()
    monkeypatch.setattr(paths, "case_insensitive", lambda folder: False)
    assert paths.disk_case(tmp_path, "src/a.py") == "src/a.py"
    monkeypatch.setattr(paths, "case_insensitive", lambda folder: True)
    assert paths.disk_case(tmp_path, "src/a.py") == "Src/A.py"
    assert paths.disk_case(tmp_path, "src/new/x.py") == "Src/new/x.py"
    assert paths.disk_case(tmp_path, f"src/{LONG}") == f"Src/{LONG}"
    assert paths.disk_case(tmp_path, "") == ""


# --------------------------------------------------------------------- docs_dir


@pytest.mark.parametrize(
    ("project_rel", "docs", "want"),
    [
        ("docs/adr/0001-x.md", "docs", "adr/0001-x.md"),
        ("docs/index.md", "docs", "index.md"),
        ("site/docs/a.md", "site/docs", "a.md"),
        ("adr/0001-x.md", "", "adr/0001-x.md"),
        ("adr/0001-x.md", ".", "adr/0001-x.md"),
        ("docs/./adr//a.md", "docs/", "adr/a.md"),
        ("README.md", "docs", None),
        ("docsx/a.md", "docs", None),  # a prefix of the name is not the folder
        ("docs", "docs", None),  # the folder itself is no page
        ("../docs/a.md", "docs", None),
        ("docs/a.md", "../docs", None),
        ("/docs/a.md", "docs", None),
    ],
)
def test_docs_relative(project_rel: str, docs: str, want: str | None) -> None:
    assert docs_relative(project_rel, docs) == want


@pytest.mark.parametrize(
    ("src_uri", "docs", "want"),
    [
        ("adr/0001-x.md", "docs", "docs/adr/0001-x.md"),
        ("index.md", "site/docs", "site/docs/index.md"),
        ("adr/a.md", "", "adr/a.md"),
        ("adr/a.md", ".", "adr/a.md"),
        ("", "docs", "docs"),
        ("../a.md", "docs", None),
        ("/a.md", "docs", None),
    ],
)
def test_project_relative(src_uri: str, docs: str, want: str | None) -> None:
    assert project_relative(src_uri, docs) == want


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b c", "é", "x.md"]), min_size=1, max_size=4),
    st.sampled_from(["", "docs", "site/docs"]),
)
def test_docs_and_project_relative_are_inverse(parts: list[str], docs: str) -> None:
    src = "/".join(parts)
    project_rel = project_relative(src, docs)
    assert project_rel is not None
    assert docs_relative(project_rel, docs) == src


# --------------------------------------------------------------------- MkDocs URLs


@pytest.mark.parametrize(
    ("src_uri", "dir_url", "file_url"),
    [
        ("index.md", "./", "index.html"),
        ("README.md", "./", "index.html"),
        ("a.md", "a/", "a.html"),
        ("adr/index.md", "adr/", "adr/index.html"),
        ("adr/README.md", "adr/", "adr/index.html"),
        ("adr/README.markdown", "adr/", "adr/index.html"),
        ("adr/0001-x.md", "adr/0001-x/", "adr/0001-x.html"),
        ("adr/zh/archive/0003-x.md", "adr/zh/archive/0003-x/", "adr/zh/archive/0003-x.html"),
        ("adr/0002-y.markdown", "adr/0002-y/", "adr/0002-y.html"),
        # MkDocs compares the names exactly: these are ordinary pages
        ("adr/Index.md", "adr/Index/", "adr/Index.html"),
        ("adr/readme.md", "adr/readme/", "adr/readme.html"),
        ("adr/index.en.md", "adr/index.en/", "adr/index.en.html"),
        ("a b/c#d.md", "a%20b/c%23d/", "a%20b/c%23d.html"),
        ("决策/ü.md", "%E5%86%B3%E7%AD%96/%C3%BC/", "%E5%86%B3%E7%AD%96/%C3%BC.html"),
        ("img/x.png", "img/x.png", "img/x.png"),
    ],
)
def test_page_url_both_ways(src_uri: str, dir_url: str, file_url: str) -> None:
    assert page_url(src_uri, True) == dir_url
    assert page_url(src_uri, False) == file_url


@pytest.mark.parametrize(
    ("src_uri", "dir_dest", "file_dest"),
    [
        ("index.md", "index.html", "index.html"),
        ("adr/README.md", "adr/index.html", "adr/index.html"),
        ("adr/0001-x.md", "adr/0001-x/index.html", "adr/0001-x.html"),
        ("a b.md", "a b/index.html", "a b.html"),
    ],
)
def test_page_dest_both_ways(src_uri: str, dir_dest: str, file_dest: str) -> None:
    assert page_dest(src_uri, True) == dir_dest
    assert page_dest(src_uri, False) == file_dest


name = st.one_of(
    st.sampled_from(["index", "README", "Index", "readme", "a b", "x#y", "é", ".hidden", "a.b"]),
    st.text(alphabet="aZ09-_. %#?é", min_size=1, max_size=6).filter(lambda s: s not in (".", "..")),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(name, max_size=3),
    name,
    st.sampled_from([".md", ".markdown", ".mdown", ".txt", ".png", ".html"]),
    st.booleans(),
)
def test_page_url_is_what_mkdocs_gives(
    folders: list[str], stem: str, suffix: str, use_directory_urls: bool
) -> None:
    src = "/".join([*folders, stem + suffix])
    f = File(src, src_dir=None, dest_dir="/site", use_directory_urls=use_directory_urls)
    assert page_dest(src, use_directory_urls) == f.dest_uri
    assert page_url(src, use_directory_urls) == f.url


@pytest.mark.parametrize(
    ("project_rel", "docs", "dirs", "want"),
    [
        ("docs/adr/0003-x.md", "docs", True, "adr/0003-x/"),
        ("docs/adr/archive/0003-x.md", "docs", False, "adr/archive/0003-x.html"),
        ("docs/index.md", "docs", True, "./"),
        ("docs/index.md", "docs", False, "index.html"),
        ("adr/0001-x.md", ".", True, "adr/0001-x/"),
        ("README.md", "docs", True, None),
    ],
)
def test_site_url_of_a_project_relative_file(
    project_rel: str, docs: str, dirs: bool, want: str | None
) -> None:
    assert site_url(project_rel, docs, dirs) == want


@pytest.mark.parametrize(
    ("from_src", "to_src", "dirs", "want"),
    [
        ("adr/0001-x.md", "adr/0002-y.md", True, "../0002-y/"),
        ("adr/0001-x.md", "adr/0002-y.md", False, "0002-y.html"),
        ("adr/0001-x.md", "adr/index.md", True, "../"),
        ("adr/0001-x.md", "adr/index.md", False, "index.html"),
        ("adr/0001-x.md", "index.md", True, "../../"),
        ("adr/0001-x.md", "index.md", False, "../index.html"),
        ("index.md", "adr/CURRENT.md", True, "adr/CURRENT/"),
        ("index.md", "adr/CURRENT.md", False, "adr/CURRENT.html"),
        ("adr/index.md", "adr/zh/0001-x.md", True, "zh/0001-x/"),
        ("adr/zh/0001-x.md", "adr/0001-x.md", False, "../0001-x.html"),
        ("index.md", "index.md", True, "./"),
    ],
)
def test_relative_url_between_pages(from_src: str, to_src: str, dirs: bool, want: str) -> None:
    assert relative_url(from_src, to_src, dirs) == want


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "index", "README", "x y"]), min_size=1, max_size=3),
    st.lists(st.sampled_from(["a", "b", "index", "README", "x y"]), min_size=1, max_size=3),
    st.booleans(),
)
def test_relative_url_reaches_the_page(
    here_parts: list[str], there_parts: list[str], dirs: bool
) -> None:
    here, there = "/".join(here_parts) + ".md", "/".join(there_parts) + ".md"
    href = relative_url(here, there, dirs)
    # a browser on ``here`` resolves ``href`` against the page's own URL
    site = "https://example.org/site/"
    landed = urljoin(urljoin(site, page_url(here, dirs)), href)
    assert landed == urljoin(site, page_url(there, dirs))


def test_paths_imports_nothing_of_mkdocs_or_the_rest_of_the_package() -> None:
    source = Path(paths.__file__).read_text(encoding="utf-8")
    imports = [
        line.strip() for line in source.splitlines() if line.startswith(("import ", "from "))
    ]
    assert imports, "the module has imports to check"
    for line in imports:
        assert not line.startswith(("import mkdocs", "from mkdocs")), line
        if line.startswith("from ."):
            assert line.startswith("from .errors import"), line


def test_within_compares_folders_by_their_parts_not_their_text(tmp_path: Path) -> None:
    from mkdocs_adr.paths import within

    assert within(tmp_path / "docs" / "adr", tmp_path / "docs")
    assert within(tmp_path / "docs", tmp_path / "docs")
    assert not within(tmp_path / "docs-old" / "adr", tmp_path / "docs")
    assert not within(tmp_path, tmp_path / "docs")
