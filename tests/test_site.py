"""site.py's policies without MkDocs: plain objects stand in for files, pages and sections."""

from __future__ import annotations

import json
import posixpath
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr import site
from mkdocs_adr.config import Config, from_options
from mkdocs_adr.model import Problem, Severity
from mkdocs_adr.views.search import ArchivedPage

from .test_site_kit import demo_log

# ----------------------------------------------------------------------- stand-ins


@dataclass(eq=False)
class FakeFile:
    src_uri: str
    page: Any = None

    @property
    def dest_uri(self) -> str:
        stem, ext = posixpath.splitext(self.src_uri)
        return f"{stem}/index.html" if ext == ".md" else self.src_uri

    @property
    def url(self) -> str:
        stem, ext = posixpath.splitext(self.src_uri)
        return f"{stem}/" if ext == ".md" else self.src_uri

    def url_relative_to(self, other: Any) -> str:
        base = other if isinstance(other, str) else other.url
        start = base if base.endswith("/") else posixpath.dirname(base) or "."
        rel = posixpath.relpath(self.url, start)
        return rel + "/" if self.url.endswith("/") else rel


@dataclass(eq=False)
class FakePage:
    file: FakeFile
    parent: Any = None
    previous_page: Any = None
    next_page: Any = None
    is_page = True
    is_section = False

    def __post_init__(self) -> None:
        self.file.page = self


@dataclass(eq=False)
class FakeSection:
    title: str
    children: list[Any]
    parent: Any = None
    is_page = False
    is_section = True

    def __post_init__(self) -> None:
        for child in self.children:
            child.parent = self


@dataclass
class FakeFiles:
    """A FileHost over a dict: what a host adapter gives site.py."""

    by_src: dict[str, FakeFile] = field(default_factory=dict)
    added: dict[str, str] = field(default_factory=dict)

    def get(self, src: str) -> FakeFile | None:
        return self.by_src.get(src)

    def __iter__(self) -> Iterator[FakeFile]:
        return iter(list(self.by_src.values()))

    def add(self, src: str, content: str) -> None:
        self.by_src[src] = FakeFile(src)
        self.added[src] = content

    def probe(self, src: str) -> FakeFile:
        return FakeFile(src)

    def remove(self, src: str) -> None:
        self.by_src.pop(src, None)


def page(src: str) -> FakePage:
    return FakePage(FakeFile(src))


def srcs(items: list[Any]) -> list[Any]:
    """A navigation as nested lists of src paths."""
    out: list[Any] = []
    for item in items:
        if item.is_section:
            out.append([item.title, srcs(item.children)])
        else:
            out.append(item.file.src_uri)
    return out


# ------------------------------------------------------------------------- nav mode


@pytest.mark.parametrize(
    ("option", "records", "limit", "expected"),
    [
        ("full", 500, 50, "full"),
        ("index", 1, 50, "index"),
        ("auto", 50, 50, "full"),
        ("auto", 51, 50, "index"),
        ("auto", 0, 0, "full"),
    ],
)
def test_nav_mode(option: str, records: int, limit: int, expected: str) -> None:
    assert site.nav_mode(option, records, limit) == expected


# ---------------------------------------------------------------------- views first


def test_views_first_after_the_section_index_in_view_order() -> None:
    inner = FakeSection("pay", [page("adr/pay/0001-a.md"), page("adr/pay/INDEX.md")])
    section = FakeSection(
        "adr",
        [
            page("adr/0001-a.md"),
            page("adr/GRAPH.md"),
            page("adr/README.md"),
            page("adr/0002-b.md"),
            page("adr/CURRENT.md"),
            page("adr/INDEX.generated.md"),
            inner,
        ],
    )
    other = FakeSection("guide", [page("guide/a.md"), page("guide/index.md")])
    items: list[Any] = [page("index.md"), section, other]
    views = {"adr/GRAPH.md", "adr/CURRENT.md", "adr/INDEX.generated.md", "adr/pay/INDEX.md"}
    site.views_first(items, views)
    assert srcs(items) == [
        "index.md",
        [
            "adr",
            [
                "adr/README.md",
                "adr/INDEX.generated.md",
                "adr/CURRENT.md",
                "adr/GRAPH.md",
                "adr/0001-a.md",
                "adr/0002-b.md",
                ["pay", ["adr/pay/INDEX.md", "adr/pay/0001-a.md"]],
            ],
        ],
        ["guide", ["guide/a.md", "guide/index.md"]],  # no views here: left as it was
    ]


# ---------------------------------------------------------------------------- prune


def test_prune_drops_records_and_puts_an_unlisted_index_in_the_first_place() -> None:
    index = page("adr/INDEX.md")
    first, second = page("adr/0001-a.md"), page("adr/0002-b.md")
    only_records = FakeSection("records", [page("adr/0003-c.md")])
    items: list[Any] = [
        page("index.md"),
        FakeSection("adr", [first, page("adr/notes.md"), second]),
        only_records,
    ]
    drop = {"adr/0001-a.md", "adr/0002-b.md", "adr/0003-c.md"}
    out = site.prune(items, drop, {"adr/INDEX.md": index.file, "adr/GONE.md": None})
    assert srcs(out) == ["index.md", ["adr", ["adr/INDEX.md", "adr/notes.md"]]]
    assert first.parent is None and second.parent is None  # no section claims them


def test_prune_keeps_a_listed_index_where_it_is() -> None:
    index = page("adr/INDEX.md")
    items: list[Any] = [FakeSection("adr", [page("adr/0001-a.md"), index])]
    out = site.prune(items, {"adr/0001-a.md"}, {"adr/INDEX.md": index.file})
    assert srcs(out) == [["adr", ["adr/INDEX.md"]]]


def test_arrange_nav_links_pages_and_parents(tmp_path: Path) -> None:
    build = site.SiteBuild(Config(project_dir=tmp_path, docs_dir=tmp_path / "docs"))
    build.view_at = {"adr/INDEX.md": ("index", "adr")}
    record, index = page("adr/0001-a.md"), page("adr/INDEX.md")
    section = FakeSection("adr", [record, index])
    items, pages = build.arrange_nav([page("index.md"), section], generated=True)
    assert [p.file.src_uri for p in pages] == ["index.md", "adr/INDEX.md", "adr/0001-a.md"]
    assert pages[0].previous_page is None and pages[0].next_page is index
    assert index.previous_page is pages[0] and index.next_page is record
    assert record.next_page is None
    assert record.parent is section and items[0].parent is None


# -------------------------------------------------------------------------- fail_on


PROBLEMS = (
    Problem("ADR018", Severity.INFO, "an alias"),
    Problem("ADR009", Severity.WARNING, "a user-owned INDEX", path="docs/adr/INDEX.md"),
)


@pytest.mark.parametrize(
    ("threshold", "count"), [("never", 0), ("error", 0), ("warning", 1), ("info", 2)]
)
def test_fail_on_threshold(threshold: str, count: int) -> None:
    message = site.failure(PROBLEMS, threshold)
    if not count:
        assert message is None
        return
    assert message is not None
    assert message.startswith(f"adr: {count} problem(s) at or above '{threshold}'")
    first = next(p for p in PROBLEMS if p.severity >= Severity.parse(threshold))
    assert f"(first: {first.format()})" in message and "fail_on: never" in message


def test_read_log_reports_every_problem_with_its_level(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "adr").mkdir(parents=True)
    (docs / "adr" / "INDEX.md").write_text("# Mine\n", encoding="utf-8")  # user-owned: ADR009
    for threshold, fails in (("warning", True), ("error", False)):
        config = from_options(
            {"fail_on": threshold}, project_dir=tmp_path, docs_dir=docs, config_file=None
        )
        report = site.SiteBuild(config).read_log()
        assert any(
            level == site.LEVELS[Severity.WARNING] and "ADR009" in text
            for level, text in report.messages
        )
        assert (report.failure is not None) == fails


# ------------------------------------------------------------------------ read_guard


def search_index() -> dict[str, Any]:
    return {
        "config": {"lang": ["en"]},
        "docs": [
            {"location": "adr/0002-old/", "title": "Use <b>", "text": "old body"},
            {"location": "adr/0002-old/#context", "title": "Context", "text": "more body"},
            {"location": "adr/0004-new/", "title": "New", "text": "live body"},
        ],
    }


ARCHIVED = {"adr/0002-old/": ArchivedPage("ADR-0002", "superseded", "Use <b>")}


def test_read_guard_off_or_nothing_archived_changes_nothing() -> None:
    assert site.read_guard(search_index(), ARCHIVED, "off", html_text=True) == (None, [])
    assert site.read_guard(search_index(), {}, "guard", html_text=True) == (None, [])


def test_read_guard_guard_keeps_one_entry_per_archived_page() -> None:
    new, warnings = site.read_guard(search_index(), ARCHIVED, "guard", html_text=True)
    assert new is not None and warnings == []
    assert new["docs"] == [
        {
            "location": "adr/0002-old/",
            "title": "ADR-0002: Use &lt;b&gt;",
            "text": "ADR-0002 superseded archived",
        },
        {"location": "adr/0004-new/", "title": "New", "text": "live body"},
    ]
    plain, _ = site.read_guard(search_index(), ARCHIVED, "guard", html_text=False)
    assert plain is not None and plain["docs"][0]["title"] == "ADR-0002: Use <b>"


def test_read_guard_warn_marks_every_archived_entry() -> None:
    new, _ = site.read_guard(search_index(), ARCHIVED, "warn", html_text=True)
    assert new is not None
    assert [d["title"] for d in new["docs"]] == ["[archived] Use <b>", "[archived] Context", "New"]


def test_read_guard_rebuilds_a_prebuilt_lunr_index() -> None:
    pytest.importorskip("lunr")
    data = {**search_index(), "index": {"stale": True}}
    new, warnings = site.read_guard(data, ARCHIVED, "guard", html_text=True)
    assert new is not None and warnings == []
    assert new["index"] != {"stale": True}
    refs = json.dumps(new["index"])
    assert "adr/0002-old/#context" not in refs and "adr/0004-new/" in refs


def test_read_guard_drops_a_prebuilt_index_it_cannot_rebuild() -> None:
    pytest.importorskip("lunr")
    data = search_index()
    data["docs"].append({"title": "an entry without a location", "text": "x"})
    data["index"] = {}
    new, warnings = site.read_guard(data, ARCHIVED, "guard", html_text=True)
    assert new is not None and "index" not in new
    assert len(warnings) == 1 and "cannot rebuild the prebuilt search index" in warnings[0]


def test_rewrite_search_index_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "search_index.json"
    assert site.rewrite_search_index(path, ARCHIVED, "guard", html_text=True) == []  # none yet
    path.write_text(json.dumps(search_index()), encoding="utf-8")
    assert site.rewrite_search_index(path, ARCHIVED, "guard", html_text=True) == []
    written = json.loads(path.read_text(encoding="utf-8"))
    assert [d["location"] for d in written["docs"]] == ["adr/0002-old/", "adr/0004-new/"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["search_index.json"]  # no temp left
    path.write_text("{not json", encoding="utf-8")
    (warning,) = site.rewrite_search_index(path, ARCHIVED, "warn", html_text=True)
    assert warning.startswith(f"read_guard: cannot read {path}")


# ----------------------------------------------------------------- pages of a build


def test_add_pages_without_a_host(tmp_path: Path) -> None:
    """A whole build's pages assembled over plain objects: site.py needs no MkDocs."""
    docs = tmp_path / "docs"
    demo_log(docs)
    config = from_options({}, project_dir=tmp_path, docs_dir=docs, config_file=None)
    files = FakeFiles(
        {
            p.relative_to(docs).as_posix(): FakeFile(p.relative_to(docs).as_posix())
            for p in sorted(docs.rglob("*.md"))
        }
    )
    build = site.SiteBuild(config)
    assert build.read_log().failure is None
    build.add_pages(files)
    assert site.STYLESHEET in files.added
    assert "adr/GRAPH.md" in files.added and "adr/INDEX.md" in files.added
    assert build.view_at["adr/INDEX.md"] == ("index", "adr")
    # the redirect-from of ADR-0002 leaves a page at its old place, pointing to the new one
    redirect = files.added["adr/0002-use-mysql/index.html"]
    assert 'url=../archive/0002-use-mysql/"' in redirect
    # records map to their files; the record page gets its header after the <h1>
    rec = build.record_at["adr/0001-record-architecture-decisions.md"]
    assert rec.id == "ADR-0001"
    at = files.by_src["adr/0001-record-architecture-decisions.md"]
    html = build.page_content("<h1>T</h1><p>body</p>", at, at)
    assert html is not None and html.startswith("<h1>T</h1>") and site.AFTER_SLOT in html
    filled = build.page_context(html, at)
    assert filled is not None and site.AFTER_SLOT not in filled and "adr-pager" in filled


def test_site_imports_no_mkdocs() -> None:
    code = (
        "import sys, mkdocs_adr.site; "
        "print(sorted(m for m in sys.modules if m == 'mkdocs' or m.startswith('mkdocs.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_after_h1() -> None:
    assert site.after_h1("<h1>T</h1><p>x</p>", "<b>") == "<h1>T</h1><b><p>x</p>"
    assert site.after_h1("<p>x</p>", "<b>") == "<b><p>x</p>"
