"""Issue 16, item 2: files the plugin refuses stay out of the build, and markup in folder
names never reaches a page as markup.

MkDocs walks ``docs_dir`` itself (following symlinks) and reads every Markdown file it
lists. A record that is not UTF-8 and a symlink that loops made that read abort the
build with a traceback; a symlink to a file outside the project was published although
the plugin reported it as skipped. :func:`mkdocs_adr.site.refused_files` decides what
the site leaves out; the plugin only removes it from MkDocs' file list. Nav sections
named after folders reach the themes escaped (:func:`mkdocs_adr.site.escape_sections`).

The builds here are real ``mkdocs build`` runs (subprocess) in temporary projects; the
browser tests (slow) load every page of a hostile log in both themes in Chromium.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr.config import from_options
from mkdocs_adr.log import load
from mkdocs_adr.model import Problem, Severity
from mkdocs_adr.site import (
    endless_walk,
    escape_sections,
    refusal,
    refused_files,
    refused_notes,
)

from .conftest import FIXTURES, REPO, playwright_sync_api, run_cli
from .test_site_kit import build, make_site

HOSTILE = FIXTURES / "hostile" / "filelist"
FOLDER = "<svg onload=alert('folder')>"
FILE = "<img src=x onerror=alert('file')>"
#: Markup from the hostile log, as it would appear in a page if it were not escaped.
RAW = re.compile(r"<(svg onload|img src=x onerror|script>alert)")

GOOD = b"""# 1. Record architecture decisions

Date: 2024-01-10

## Status

Accepted

## Context

We want to remember why we built things the way we did.

## Decision

We keep numbered Markdown records in docs/adr.
"""


def record(number: int, title: str, body: str = "It is decided.") -> bytes:
    return (
        f"# {number}. {title}\n\nDate: 2024-02-0{number}\n\n## Status\n\nAccepted\n\n"
        f"## Context\n\n{body}\n\n## Decision\n\nWe do it.\n"
    ).encode()


def project(tmp_path: Path, options: str = "fail_on: never", extra: str = "") -> Path:
    """A project with the plugin, docs/index.md and one ordinary record."""
    folder = make_site(
        tmp_path / "project", theme="mkdocs", log="none", options=options, extra=extra
    )
    adr = folder / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-record-architecture-decisions.md").write_bytes(GOOD)
    return folder


def mkdocs_build(folder: Path, *, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``mkdocs build`` with a hang guard (generous: these builds take about a second)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


#: The generated view pages of a root (besides the records).
VIEWS = ("adr/INDEX", "adr/TIMELINE", "adr/GRAPH")


def published(folder: Path) -> set[str]:
    """The site's pages, as paths relative to site/ without ``/index.html``."""
    site = folder / "site"
    return {
        p.parent.relative_to(site).as_posix() for p in site.rglob("index.html") if p.parent != site
    }


def site_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted((folder / "site").rglob("*")) if p.is_file())


def assert_clean(proc: subprocess.CompletedProcess[str]) -> None:
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out, out
    assert "internal error" not in out, out


# ------------------------------------------------------------- refused files, real builds


def test_a_record_that_is_not_utf8_is_reported_and_left_out(tmp_path: Path) -> None:
    folder = project(tmp_path)
    adr = folder / "docs" / "adr"
    (adr / "0002-serve-the-cafe-menu.md").write_bytes(
        record(2, "Serve the caf\xe9 menu").replace(b"\xc3\xa9", b"\xe9")
    )
    proc = mkdocs_build(folder)
    assert_clean(proc)
    assert proc.returncode == 0, proc.stderr
    assert (
        "docs/adr/0002-serve-the-cafe-menu.md:1: ADR013 file is not valid UTF-8 (byte 0xe9)"
        in proc.stderr
    )
    assert "adr/0002-serve-the-cafe-menu.md: left out of the site, ADR013" in proc.stderr
    assert published(folder) == {"adr/0001-record-architecture-decisions", *VIEWS}
    # the INDEX still lists the record (it is in the log), without a link to a page
    index = (folder / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    assert "ADR-0002" in index
    assert "0002-serve-the-cafe-menu/" not in index
    # no page links to it, so MkDocs has no missing link to warn about
    assert "is not found among documentation files" not in proc.stderr


def test_fail_on_alone_decides_whether_a_refused_record_fails_the_build(tmp_path: Path) -> None:
    folder = project(tmp_path, options="fail_on: warning")
    (folder / "docs" / "adr" / "0002-latin1.md").write_bytes(
        b"# 2. Caf\xe9\n\n## Status\n\nAccepted\n"
    )
    proc = mkdocs_build(folder)
    assert_clean(proc)
    assert proc.returncode == 1
    assert "adr: 1 problem(s) at or above 'warning' in the ADR log" in proc.stderr
    assert "ADR013 file is not valid UTF-8" in proc.stderr
    cli = run_cli("check", cwd=folder)
    assert "Traceback" not in cli.stdout + cli.stderr
    assert "docs/adr/0002-latin1.md:1: ADR013" in cli.stdout + cli.stderr


def test_symlinks_out_of_the_project_publish_nothing_of_their_target(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    (outside / "notes").mkdir(parents=True)
    secret = "S3CRET-ONLY-OUTSIDE-THE-PROJECT"
    (outside / "keys.md").write_text(f"# 9. Keys\n\n## Status\n\nAccepted\n\n{secret} file\n")
    (outside / "notes" / "0005-notes.md").write_text(f"# 5. Notes\n\n{secret} folder\n")
    (outside / "notes" / "passwd.txt").write_text(f"{secret} text\n")
    folder = project(tmp_path)
    adr = folder / "docs" / "adr"
    (adr / "0002-keys.md").symlink_to(outside / "keys.md")
    (adr / "notes").symlink_to(outside / "notes", target_is_directory=True)
    (adr / "diagram.txt").symlink_to(outside / "notes" / "passwd.txt")
    proc = mkdocs_build(folder)
    assert_clean(proc)
    assert proc.returncode == 0, proc.stderr
    for shown in ("0002-keys.md", "notes", "diagram.txt"):
        assert f"docs/adr/{shown}: ADR015 symlink points outside the project" in proc.stderr
    assert "adr/notes: left out of the site (2 files at and below it), ADR015" in proc.stderr
    assert secret.encode() not in site_bytes(folder)
    assert published(folder) == {"adr/0001-record-architecture-decisions", *VIEWS}
    assert not (folder / "site" / "adr" / "diagram.txt").exists()


def test_a_root_outside_docs_dir_mounts_no_outside_symlink(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# 7. Elsewhere\n\nOUTSIDE-MOUNTED-SECRET\n")
    folder = project(tmp_path, options="fail_on: never\nroots: [adr, ../doc/adr]")
    doc = folder / "doc" / "adr"
    doc.mkdir(parents=True)
    (doc / "0001-use-one-repository.md").write_bytes(record(1, "Use one repository"))
    (doc / "0002-elsewhere.md").symlink_to(outside)
    proc = mkdocs_build(folder)
    assert_clean(proc)
    assert proc.returncode == 0, proc.stderr
    assert "doc/adr/0002-elsewhere.md: left out of the site, ADR015" in proc.stderr
    assert b"OUTSIDE-MOUNTED-SECRET" not in site_bytes(folder)
    assert "doc/adr/0001-use-one-repository" in published(folder)
    assert "doc/adr/0002-elsewhere" not in published(folder)


def test_an_oversized_record_is_not_published(tmp_path: Path) -> None:
    folder = project(tmp_path)
    body = "OVERSIZED-BODY " * 250_000  # 3.75 MB, over the size bound (1 MiB)
    (folder / "docs" / "adr" / "0002-attach-the-dump.md").write_bytes(
        record(2, "Attach the dump", body)
    )
    proc = mkdocs_build(folder)
    assert_clean(proc)
    assert proc.returncode == 0, proc.stderr
    assert re.search(
        r"docs/adr/0002-attach-the-dump\.md: ADR013 [^\n]*over the [\d,]+-byte limit",
        proc.stderr,
    ), proc.stderr
    assert "adr/0002-attach-the-dump.md: left out of the site, ADR013" in proc.stderr
    assert b"OVERSIZED-BODY" not in site_bytes(folder)


def test_symlinks_that_loop_between_files_are_left_out(tmp_path: Path) -> None:
    folder = project(tmp_path)
    adr = folder / "docs" / "adr"
    (adr / "0002-ping.md").symlink_to("0003-pong.md")
    (adr / "0003-pong.md").symlink_to("0002-ping.md")
    proc = mkdocs_build(folder)
    assert_clean(proc)
    assert proc.returncode == 0, proc.stderr
    for name in ("0002-ping.md", "0003-pong.md"):
        assert f"docs/adr/{name}: ADR015 broken or looping symlink skipped" in proc.stderr
        assert f"adr/{name}: left out of the site, ADR015" in proc.stderr
    assert published(folder) == {"adr/0001-record-architecture-decisions", *VIEWS}


def test_one_folder_symlink_back_into_its_tree_leaves_the_copies_out(tmp_path: Path) -> None:
    # MkDocs lists adr/again/again/... about 40 levels deep before the system refuses
    # the path; each copy of the record, and the last, unreadable entry, are left out.
    folder = project(tmp_path)
    (folder / "docs" / "adr" / "again").symlink_to(".", target_is_directory=True)
    proc = mkdocs_build(folder)
    assert_clean(proc)
    assert proc.returncode == 0, proc.stderr
    assert "docs/adr/again: ADR015 symlink loop: this folder was already visited" in proc.stderr
    assert re.search(r"adr/again: left out of the site \(\d+ files at and below it\)", proc.stderr)
    assert published(folder) == {"adr/0001-record-architecture-decisions", *VIEWS}


def test_two_folder_symlinks_back_into_their_tree_stop_the_build_cleanly(tmp_path: Path) -> None:
    # Two such symlinks double MkDocs' walk at every level: it would never end, before
    # any plugin sees a file. The plugin refuses to start, with the symlinks named.
    folder = project(tmp_path)
    adr = folder / "docs" / "adr"
    (adr / "left").symlink_to(".", target_is_directory=True)
    (adr / "drafts").mkdir()
    (adr / "drafts" / "up").symlink_to("..", target_is_directory=True)
    proc = mkdocs_build(folder, timeout=60)  # the hang guard: without the check, no end
    assert_clean(proc)
    assert proc.returncode == 1
    assert (
        "adr: adr/drafts/up, adr/left: symlinks that point back into a folder holding them; "
        "MkDocs would follow them for ever. Remove them (ADR015)."
    ) in proc.stderr
    cli = run_cli("check", cwd=folder)  # the engine's own walk visits each folder once
    assert "Traceback" not in cli.stdout + cli.stderr
    assert "symlink loop: this folder was already visited" in cli.stdout + cli.stderr


# ------------------------------------------------------------------- host-neutral rules


def _problem(path: str) -> Problem:
    return Problem("ADR015", Severity.WARNING, "symlink loop", path=path)


def test_refused_files_names_each_refused_file_and_folder_with_its_problem(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.md").write_text("# 8. Elsewhere\n")
    folder = project(tmp_path)
    adr = folder / "docs" / "adr"
    (adr / "0002-latin1.md").write_bytes(b"# 2. Caf\xe9\n\n## Status\n\nAccepted\n")
    (adr / "0003-binary.md").write_bytes(b"# 3. Binary\n\x00\x01")
    (adr / "0004-outside.md").symlink_to(outside / "x.md")
    (adr / "shared").symlink_to(outside, target_is_directory=True)
    (adr / "0005-dangling.md").symlink_to(adr / "gone.md")
    (adr / "again").symlink_to(".", target_is_directory=True)
    config = from_options(
        {}, project_dir=folder, docs_dir=folder / "docs", config_file=folder / "mkdocs.yml"
    )
    refused = refused_files(load(config))
    assert {src: (p.code, p.message.split(" (")[0]) for src, p in refused.items()} == {
        "adr/0002-latin1.md": ("ADR013", "file is not valid UTF-8"),
        "adr/0003-binary.md": ("ADR013", "file is binary"),
        "adr/0004-outside.md": ("ADR015", "symlink points outside the project"),
        "adr/shared": ("ADR015", "symlink points outside the project"),
        "adr/0005-dangling.md": ("ADR015", "broken or looping symlink skipped"),
        "adr/again": ("ADR015", "symlink loop: this folder was already visited"),
    }
    # the ordinary record and every file the site may show are not refused
    assert refusal("adr/0001-record-architecture-decisions.md", refused) is None
    assert refusal("adr/INDEX.md", refused) is None


def test_refusal_covers_a_file_or_everything_below_a_folder() -> None:
    refused = {"adr/loop": _problem("docs/adr/loop"), "adr/0002-x.md": _problem("x")}
    assert refusal("adr/loop", refused) is refused["adr/loop"]
    assert refusal("adr/loop/loop/0001-a.md", refused) is refused["adr/loop"]
    assert refusal("adr/0002-x.md", refused) is refused["adr/0002-x.md"]
    assert refusal("adr/looping/0001-a.md", refused) is None
    assert refusal("adr/0001-a.md", refused) is None
    assert refusal("adr/0001-a.md", {}) is None
    notes = refused_notes(["adr/loop/a.md", "adr/loop/loop/a.md", "adr/0002-x.md"], refused)
    assert notes == [
        "adr/0002-x.md: left out of the site, ADR015: symlink loop",
        "adr/loop: left out of the site (2 files at and below it), ADR015: symlink loop",
    ]


def test_endless_walk_names_two_or_more_self_pointing_folder_symlinks(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "adr" / "sub").mkdir(parents=True)
    (docs / "adr" / "sideways").symlink_to(docs / "adr" / "sub", target_is_directory=True)
    (docs / "adr" / "dangling").symlink_to(docs / "nowhere", target_is_directory=True)
    assert endless_walk(docs) == []  # no symlink points at a folder holding it
    (docs / "adr" / "sub" / "top").symlink_to(docs, target_is_directory=True)
    assert endless_walk(docs) == []  # one: MkDocs' walk ends (about 40 levels)
    (docs / "adr" / "self").symlink_to(".", target_is_directory=True)
    assert endless_walk(docs) == ["adr/self", "adr/sub/top"]


@dataclass(eq=False)
class _Section:
    title: Any
    children: list[Any] = field(default_factory=list)
    is_section = True
    is_page = False


def test_escape_sections_escapes_every_section_title_once() -> None:
    inner = _Section("a & <b>")
    outer = _Section(FOLDER, [inner])
    untitled = _Section(None)
    escape_sections([outer, untitled])
    assert outer.title == "&lt;svg onload=alert(&#x27;folder&#x27;)&gt;"
    assert inner.title == "a &amp; &lt;b&gt;"
    assert untitled.title is None


# ------------------------------------------------------------------------- hostile log


def hostile_project(folder: Path, theme: str) -> Path:
    """The hostile log of tests/fixtures/hostile/filelist in a project for ``theme``."""
    make_site(folder, theme=theme, log="none")
    for src in sorted((HOSTILE / "docs").rglob("*.md")):
        rel = src.relative_to(HOSTILE).as_posix().replace("@FOLDER@", FOLDER)
        dest = folder / rel.replace("@FILE@", FILE)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(src.read_bytes())
    return folder


@pytest.fixture(scope="module", params=["material", "mkdocs"])
def hostile_site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    theme = request.param
    folder = hostile_project(tmp_path_factory.mktemp(f"hostile-{theme}"), theme)
    proc = build(folder)
    assert_clean(proc)
    assert proc.returncode == 0, proc.stderr
    return folder


def test_the_hostile_log_reads_as_its_authors_wrote_it(tmp_path: Path) -> None:
    folder = hostile_project(tmp_path, "mkdocs")
    config = from_options(
        {}, project_dir=folder, docs_dir=folder / "docs", config_file=folder / "mkdocs.yml"
    )
    adr_log = load(config)
    read = {
        r.id: (r.title, r.status, r.domain, r.parsed.tags, r.parsed.date) for r in adr_log.records
    }
    assert read == {
        "ADR-0001": (
            "<script>alert('title')</script> Publish events through a queue",
            "accepted",
            FOLDER,
            ("<script>alert('tag')</script>", "<img src=x onerror=alert('tag2')>"),
            "2024-01-10",
        ),
        "ADR-0002": (FILE, "accepted", FOLDER, (), "2024-02-01"),
        "ADR-0003": (
            "<img src=x onerror=alert('title3')> Use a managed broker",
            "accepted",
            FOLDER,  # the folder names the domain; the frontmatter's is not used
            ("messaging",),
            "2024-03-05",
        ),
        "ADR-0004": ("Keep a decision log", "superseded", None, (), "2024-04-01"),
    }
    # markup and javascript: targets are not ADRs: kept as text, each an ADR003 warning
    # (how the Markdown links of ADR-0004 and ADR-0003's Links section are cut is the
    # link reader's business, not asserted here)
    problems = [(p.code, p.path, p.line) for p in adr_log.problems]
    assert {code for code, _path, _line in problems} == {"ADR003"}
    assert problems.count(("ADR003", f"docs/adr/{FOLDER}/0003-use-a-managed-broker.md", 6)) == 2
    assert ("ADR003", "docs/adr/0004-keep-a-decision-log.md", 7) in problems
    for command in ("check", "plan"):
        proc = run_cli(command, cwd=folder)
        assert "Traceback" not in proc.stdout + proc.stderr
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert f"docs/adr/{FOLDER}/0003-use-a-managed-broker.md:6: ADR003" in proc.stdout


def test_no_markup_from_the_log_reaches_a_page(hostile_site: Path) -> None:
    pages = sorted((hostile_site / "site").rglob("*.html"))
    assert len(pages) == 9  # home, 404, INDEX, TIMELINE, GRAPH and four records
    for page in pages:
        text = page.read_text("utf-8")
        found = RAW.search(text)
        assert found is None, f"{page}: {text[max(0, found.start() - 200) : found.end() + 50]}"
    index = (hostile_site / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    # the nav section of the domain folder, escaped once: it reads as the folder's name
    assert "&lt;svg onload=alert(&#x27;folder&#x27;)&gt;" in index
    assert "&amp;lt;svg" not in index


def test_readthedocs_breadcrumbs_and_nav_show_the_folder_name_as_text(tmp_path: Path) -> None:
    # MkDocs' third theme prints section titles in its breadcrumbs as well
    folder = hostile_project(tmp_path / "rtd", "readthedocs")
    proc = build(folder)
    assert_clean(proc)
    assert proc.returncode == 0, proc.stderr
    record = folder / "site" / "adr" / FOLDER / "0003-use-a-managed-broker" / "index.html"
    text = record.read_text("utf-8")
    assert 'class="breadcrumb"' in text or "wy-breadcrumbs" in text
    for page in sorted((folder / "site").rglob("*.html")):
        assert RAW.search(page.read_text("utf-8")) is None, page
    assert "&lt;svg onload=alert(&#x27;folder&#x27;)&gt;" in text


def test_no_markup_from_the_log_reaches_the_search_index(hostile_site: Path) -> None:
    text = (hostile_site / "site" / "search" / "search_index.json").read_text("utf-8")
    if "md-search" in (hostile_site / "site" / "index.html").read_text("utf-8"):
        # Material stores HTML and shows it as HTML (titles, text and tags)
        found = RAW.search(text)
        assert found is None, text[max(0, found.start() - 200) : found.end() + 50]
    else:
        # MkDocs' own search stores plain text and escapes it when it shows a result;
        # the folder name is text there, as the reader sees it on the page
        assert "Domain: <svg onload=alert('folder')>" in text


# --------------------------------------------------------------------------- in Chromium

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = REPO / "test-artifacts"
#: Set by any payload that runs without a dialog (none do today; a guard for changes).
RAN = "window.__adr_ran === undefined && document.title.indexOf('PWNED') < 0"


GENERATED_JS_LINKS = """() => [...document.querySelectorAll(
    '[class*="adr-"] a, nav a, svg a')]
    .map(a => a.getAttribute('href') || a.getAttribute('xlink:href') || '')
    .filter(h => /^\\s*(javascript|data|vbscript):/i.test(h))"""


@pytest.mark.browser
@pytest.mark.slow
def test_every_page_of_the_hostile_log_loads_without_running_its_markup(
    hostile_site: Path,
) -> None:
    from .test_browser_site import http_server

    sync_api = playwright_sync_api()
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium", pytrace=False)
    theme = (
        "material"
        if "md-search" in (hostile_site / "site" / "index.html").read_text()
        else "mkdocs"
    )
    pages = sorted(
        p.relative_to(hostile_site / "site").as_posix()
        for p in (hostile_site / "site").rglob("*.html")
    )
    dialogs: list[str] = []
    with http_server(hostile_site / "site") as base, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.on("dialog", lambda d: (dialogs.append(f"{page.url}: {d.message}"), d.dismiss()))

            def only_local(route: Any) -> None:
                if route.request.url.startswith(base):
                    route.continue_()
                else:
                    route.abort()

            page.route("**/*", only_local)
            for rel in pages:
                url = f"{base}/{rel}".removesuffix("index.html")
                page.goto(url)
                page.wait_for_load_state("load")
                # open every nav section, so markup in a collapsed one renders too
                page.evaluate(
                    "document.querySelectorAll('input.md-nav__toggle')"
                    ".forEach(t => { t.checked = true })"
                )
                page.wait_for_timeout(150)
                assert page.evaluate(RAN), url
                # what the plugin draws (header, relations, tables, graphs, pager) and
                # the navigation link no record text as a javascript: URL
                assert page.evaluate(GENERATED_JS_LINKS) == [], url
                if rel in (
                    "adr/INDEX/index.html",
                    f"adr/{FOLDER}/0003-use-a-managed-broker/index.html",
                ):
                    ARTIFACTS.mkdir(exist_ok=True)
                    name = "index" if "INDEX" in rel else "record"
                    page.screenshot(
                        path=str(ARTIFACTS / f"hostile-{theme}-{name}.png"), full_page=True
                    )
            found = {q: _search(page, base, theme, q) for q in ("queue", "broker", "svg")}
            assert page.evaluate(RAN), found
            assert found["queue"] >= 1 and found["broker"] >= 1, found
        finally:
            browser.close()
    assert dialogs == []


def _search(page: Any, base: str, theme: str, query: str) -> int:
    """Type ``query`` into the theme's search box; the number of results it shows."""
    page.goto(f"{base}/")
    if theme == "material":
        page.locator("label.md-search__icon, .md-search__input").first.click()
        page.locator("input.md-search__input").press_sequentially(query, delay=20)
        meta = page.locator(".md-search-result__meta")
        page.wait_for_function(
            "() => /matching document/.test(document.querySelector("
            "'.md-search-result__meta')?.textContent || '')",
            timeout=15_000,
        )
        page.wait_for_timeout(300)
        assert "matching document" in meta.inner_text()
        return int(page.locator(".md-search-result__item").count())
    page.locator('a[data-bs-target="#mkdocs_search_modal"]').click()
    box = page.locator("#mkdocs-search-query")
    box.wait_for(state="visible")
    box.press_sequentially(query, delay=20)
    page.wait_for_function(
        "() => (document.querySelector('#mkdocs-search-results')?.textContent || '')"
        ".trim().length > 0",
        timeout=15_000,
    )
    page.wait_for_timeout(300)
    return int(page.locator("#mkdocs-search-results article").count())


def test_plain_text_search_shows_record_titles_as_written(tmp_path: Path) -> None:
    # MkDocs' own search escapes what it shows; the title the plugin escaped for the
    # theme is put back to text in its index, so "Don't" does not read "Don&#x27;t".
    folder = project(tmp_path)
    (folder / "docs" / "adr" / "0002-dont-share-databases.md").write_bytes(
        record(2, "Don't share databases & <queues>")
    )
    proc = mkdocs_build(folder)
    assert_clean(proc)
    assert proc.returncode == 0, proc.stderr
    index = json.loads((folder / "site" / "search" / "search_index.json").read_text("utf-8"))
    titles = {d["location"]: d["title"] for d in index["docs"]}
    assert titles["adr/0002-dont-share-databases/"] == "ADR-0002: Don't share databases & <queues>"
    page = (folder / "site" / "adr" / "0002-dont-share-databases" / "index.html").read_text()
    assert "<title>ADR-0002: Don&#x27;t share databases &amp; &lt;queues&gt; - " in page
