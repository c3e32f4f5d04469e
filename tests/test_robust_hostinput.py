"""Input the host (MkDocs, Python-Markdown, Material, click) would stop on (issue 16).

Each case is a real build or a real CLI run: a README in an ADR root saved as Latin-1,
theme keys in a record's frontmatter that the theme's templates fail on, a list nested
hundreds of levels deep, escapes in a usage error, control characters typed into ``new``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mkdocs_adr.cli import cli as main
from mkdocs_adr.parsing import ParseOptions, bounds, parse_bytes

from .conftest import run_mkdocs

OSC = "\x1b]0;pwned\x07"

RECORD = """\
# {n}. {title}

Date: 2026-03-0{n}

## Status

Accepted

## Context

The ledger service writes every entry twice.

## Decision

We keep one ledger table per tenant.
"""


def site(tmp_path: Path, theme: str = "material") -> Path:
    root = tmp_path / "site"
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    (root / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        f"site_name: Ledger\ntheme:\n  name: {theme}\nplugins: [search, adr]\n", encoding="utf-8"
    )
    (adr / "0001-keep-one-ledger-per-tenant.md").write_text(
        RECORD.format(n=1, title="Keep one ledger per tenant"), encoding="utf-8"
    )
    return root


def cli(project: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", *args],
        cwd=project,
        capture_output=True,
        timeout=300,
        check=False,
    )


# --------------------------------------------------------------------- not UTF-8


def test_a_latin1_readme_in_a_root_is_left_out_and_the_build_goes_on(tmp_path: Path) -> None:
    project = site(tmp_path)
    readme = project / "docs" / "adr" / "README.md"
    readme.write_bytes(
        "# About our decisions\n\nNotes kept by the caf\xe9 team.\n".encode("latin-1")
    )
    proc = run_mkdocs("build", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert (
        "docs/adr/README.md:3: ADR013 file is not valid UTF-8 (byte 0xe9); it is not a "
        "record, and the site leaves it out" in proc.stderr
    )
    built = project / "site"
    assert (built / "adr" / "0001-keep-one-ledger-per-tenant" / "index.html").is_file()
    assert not any("caf" in p.read_text("utf-8", "replace") for p in built.rglob("*.html"))
    # the CLI reports the same problem, and a strict build fails on it, never crashes
    proc2 = cli(project, "check")
    assert b"docs/adr/README.md:3" in proc2.stdout + proc2.stderr
    strict = run_mkdocs("build", "--strict", cwd=project)
    assert strict.returncode == 1 and "Traceback" not in strict.stderr
    # re-saved as UTF-8, the README is a plain page again
    readme.write_text("# About our decisions\n\nNotes kept by the café team.\n", "utf-8")
    proc = run_mkdocs("build", "--strict", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "café team" in (built / "adr" / "index.html").read_text("utf-8")


# --------------------------------------------------------------------- theme keys

THEME_KEYS = [
    ("material", "icon: material/no-such-icon", "icon", "names no icon of the theme"),
    ("material", "icon: 5", "icon", "names no icon of the theme"),
    ("material", "hide: 5", "hide", "is not a list of names"),
    ("material", "template: missing.html", "template", "names no template of the theme"),
    ("mkdocs", "template: missing.html", "template", "names no template of the theme"),
]


@pytest.mark.parametrize(("theme", "line", "key", "what"), THEME_KEYS)
def test_a_theme_key_the_theme_would_fail_on_is_dropped_with_a_warning(
    tmp_path: Path, theme: str, line: str, key: str, what: str
) -> None:
    project = site(tmp_path, theme)
    (project / "docs" / "adr" / "0002-send-invoices-monthly.md").write_text(
        f"---\ntags: [billing]\n{line}\n---\n" + RECORD.format(n=2, title="Send invoices monthly"),
        encoding="utf-8",
    )
    proc = run_mkdocs("build", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert (
        f"docs/adr/0002-send-invoices-monthly.md:3: frontmatter '{key}' {what}; "
        "the site ignores it" in proc.stderr
    )
    page = project / "site" / "adr" / "0002-send-invoices-monthly" / "index.html"
    assert "Send invoices monthly" in page.read_text("utf-8")


def test_theme_keys_the_theme_has_are_kept(tmp_path: Path) -> None:
    project = site(tmp_path)
    (project / "docs" / "adr" / "0002-send-invoices-monthly.md").write_text(
        "---\nicon: material/scale-balance\nhide: [toc]\n---\n"
        + RECORD.format(n=2, title="Send invoices monthly"),
        encoding="utf-8",
    )
    proc = run_mkdocs("build", "--strict", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "frontmatter" not in proc.stderr
    page = (project / "site" / "adr" / "0002-send-invoices-monthly" / "index.html").read_text(
        "utf-8"
    )
    assert 'class="md-sidebar md-sidebar--secondary"' in page  # Material's toc sidebar ...
    assert "hidden" in page.split('class="md-sidebar md-sidebar--secondary"', 1)[1][:80]


# --------------------------------------------------------------------- nesting

HEAD = (
    "# 3. Nest the chart of accounts\n\nDate: 2026-03-03\n\n## Status\n\nAccepted\n\n## Context\n\n"
)


def test_render_safe_cuts_only_the_lines_over_the_depth_bound() -> None:
    ok = "    " * bounds.RENDER_DEPTH + "- at the bound\n" + ">" * bounds.RENDER_DEPTH + " quoted\n"
    code = " " * 3000 + "x = 1\n"  # one indented code line, nested in nothing
    assert bounds.render_safe(ok + code) is None
    # one item at each level, two spaces deeper each time, then back out and in again
    items = ["  " * i + f"- level {i}" for i in range(35)]
    deep = "\n".join([*items, "- back at the top", "  - one in", "> " * 40 + "quoted", ""])
    shown = bounds.render_safe(deep)
    assert shown is not None
    assert shown.split("\n")[31:39] == [
        "  " * 31 + "- level 31",
        "  " * 31 + "- level 32",  # a sibling of the deepest level allowed
        "  " * 31 + "- level 33",
        "  " * 31 + "- level 34",
        "- back at the top",
        "  - one in",
        "> " * 32 + "quoted",
        "",
    ]
    assert bounds.over_depth_bound(deep) == [33, 34, 35, 38]


def test_quote_markers_inside_a_list_item_count_as_nesting() -> None:
    """``- >>>>...``: a million quote markers after a list marker (the fuzzer's) nest a
    blockquote per marker inside the item; they are cut like those at a line's start."""
    text = "- " + ">" * 1_000_000 + " x\n- > > kept\n"
    shown = bounds.render_safe(text)
    assert shown == "- " + ">" * bounds.RENDER_DEPTH + "x\n- > > kept\n"
    assert bounds.over_depth_bound(text) == [1]


def test_a_list_nested_400_levels_deep_builds_with_one_problem(tmp_path: Path) -> None:
    project = site(tmp_path)
    # Python-Markdown alone stops with RecursionError at about 250 such levels
    body = "".join("    " * i + "- account\n" for i in range(400))
    (project / "docs" / "adr" / "0003-nest-the-chart-of-accounts.md").write_text(
        HEAD + body, encoding="utf-8"
    )
    parsed = parse_bytes(
        (HEAD + body).encode(),
        path="docs/adr/0003-x.md",
        options=ParseOptions(aliases=(), status_headings=frozenset({"status"})),
    )
    deep = [p for p in parsed.problems if p.code == "ADR023"]
    assert [(p.line, p.message.split(" (")[0]) for p in deep] == [
        (HEAD.count("\n") + 33, "line is nested more than 32 levels deep")
    ]
    assert "and 367 lines after it" in deep[0].message
    proc = run_mkdocs("build", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "RecursionError" not in proc.stderr and "Traceback" not in proc.stderr
    page = project / "site" / "adr" / "0003-nest-the-chart-of-accounts" / "index.html"
    assert page.read_text("utf-8").count("account") >= 400


# --------------------------------------------------------------------- typed text


def test_a_usage_error_quoting_an_escape_prints_no_control_character(tmp_path: Path) -> None:
    project = site(tmp_path)
    proc = cli(project, "new", "Split", "--status", OSC)
    assert proc.returncode == 2
    assert b"\x1b" not in proc.stderr and b"\x07" not in proc.stderr
    assert b"Invalid value for '--status'" in proc.stderr
    runner = CliRunner()
    result = runner.invoke(main, ["graph", "--format", OSC, "--root", str(project / "docs/adr")])
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "Invalid value for '--format'" in result.output


def test_new_refuses_a_title_or_verb_holding_control_characters(tmp_path: Path) -> None:
    project = site(tmp_path)
    before = sorted(p.name for p in (project / "docs" / "adr").iterdir())
    proc = cli(project, "new", f"Retry {OSC}failed events")
    assert proc.returncode == 2, proc.stderr
    assert (
        b"the title holds control characters (U+001B, U+0007), which would be written into "
        b"the record; type the title without them" in proc.stderr
    )
    proc = cli(project, "new", "Retry failed events", "--link", "Ame\x1bnds:1")
    assert proc.returncode == 2
    assert b"control characters" in proc.stderr
    assert sorted(p.name for p in (project / "docs" / "adr").iterdir()) == before
    # the same title typed plainly is written
    proc = cli(project, "new", "Retry failed events")
    assert proc.returncode == 0, proc.stderr
    assert (project / "docs" / "adr" / "0002-retry-failed-events.md").is_file()


def test_a_block_of_many_setext_headings_is_split_where_it_reads_the_same() -> None:
    pairs = "Ledger\n=\n" * 500  # over the split bound, under the heading bound
    shown = bounds.render_safe(pairs)
    assert shown is not None and shown.startswith("Ledger\n=\n\nLedger\n=\n\n")
    assert shown.replace("\n\n", "\n") == pairs
    # a few headings in a block, and any number inside fenced code, are left alone
    few = "Ledger\n=\n" * bounds.RENDER_SPLITS
    fenced = "```\n" + "---\n" * 5000 + "```\n"
    assert bounds.render_safe(few) is None
    assert bounds.render_safe(fenced) is None
    assert bounds.render_safe(fenced + pairs) == fenced + shown


def test_from_the_heading_over_the_bound_the_page_is_code() -> None:
    pairs = "Ledger\n=\n" * 30000
    cut = bounds.over_blank_bound(pairs)
    assert cut == 2 * bounds.RENDER_HEADINGS + 2  # the underline of heading 1,001
    shown = bounds.render_safe(pairs)
    assert shown is not None
    lines = shown.split("\n")
    assert lines.count("~~~~") == 2 and lines[-1] == "~~~~"
    before = shown.split("~~~~")[0]
    assert before.count("Ledger\n=\n\n") == bounds.RENDER_HEADINGS  # split, then cut


@pytest.mark.slow
def test_a_record_of_setext_pairs_builds(tmp_path: Path) -> None:
    project = site(tmp_path)
    (project / "docs" / "adr" / "0004-many-headings.md").write_text(
        HEAD + "Ledger\n-\n" * 30000, encoding="utf-8"
    )
    proc = run_mkdocs("build", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "1,000 headings, over the render bound" in proc.stderr
    page = (project / "site" / "adr" / "0004-many-headings" / "index.html").read_text("utf-8")
    # the record's own H2s (Status, Context) and the first headings of the run; the rest code
    assert 990 <= page.count(">Ledger</h2>") <= 1000
    assert "Ledger\n-\nLedger" in page


def test_a_page_of_more_blank_lines_than_the_bound_shows_its_rest_as_code() -> None:
    paras = "a\n\n" * (bounds.RENDER_BLANKS + 5) + "~~~~~ a tilde run\n"
    cut = bounds.over_blank_bound(paras)
    assert cut == 2 * bounds.RENDER_BLANKS + 2  # the line of the blank over the bound
    shown = bounds.render_safe(paras)
    assert shown is not None
    lines = shown.split("\n")
    head = paras.split("\n")[: cut - 1]
    assert lines[: cut - 1] == head
    assert lines[cut - 1] == "~~~~~~"  # longer than any run of '~' inside
    assert lines[-1] == "~~~~~~" and lines[-3] == "~~~~~ a tilde run"
    # blank lines inside fenced code do not count: the renderer never splits them
    fenced = "x\n\n```\n" + "\n" * (bounds.RENDER_BLANKS + 10) + "```\n"
    assert bounds.over_blank_bound(fenced) is None
    parsed = parse_bytes(
        (HEAD + paras).encode(),
        path="docs/adr/0005-x.md",
        options=ParseOptions(aliases=(), status_headings=frozenset({"status"})),
    )
    assert [(p.code, p.line) for p in parsed.problems if p.code == "ADR023"] == [
        ("ADR023", bounds.over_blank_bound(HEAD + paras))
    ]


@pytest.mark.slow
def test_a_record_of_a_million_carriage_returns_builds(tmp_path: Path) -> None:
    """CRs are line breaks: a date field of a million of them is a million blank lines,
    which Python-Markdown takes from the front of a list one block at a time."""
    project = site(tmp_path)
    (project / "docs" / "adr" / "0005-blank-lines.md").write_bytes(
        (HEAD + "x" + "\r" * 1_000_000 + "y\n").encode()
    )
    proc = run_mkdocs("build", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "more than 20,000 blank lines" in proc.stderr
    assert (project / "site" / "adr" / "0005-blank-lines" / "index.html").is_file()
