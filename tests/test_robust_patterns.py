"""Issue 16, reading in linear time: the records that stalled the reader, read in full.

Each reproduction of the issue is parsed in a subprocess under a generous guard (a hang
detector, never a speed assertion) and its exact reading asserted. The patterns and
scanners that replaced backtracking ones are compared with the patterns they replace on
many small generated texts, so a reading cannot drift. The size bounds (a line's first
4,096 characters for patterns, fields cut at 1,000 characters with ADR023) are checked
on records that cross them, and one real CLI run and one real build read a log of all of
them.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr.parsing import ParseOptions, bounds, markdown, parse_bytes, status
from mkdocs_adr.parsing.reader import inline_code_spans

from .conftest import run_mkdocs

#: Seconds a record that reads in milliseconds may take before it counts as a hang.
GUARD = 30
OPTIONS = ParseOptions(aliases=(), status_headings=frozenset({"status"}))
NAME = "docs/adr/0007-keep-the-ledger-in-postgres.md"
HEAD = "# 7. Keep the ledger in Postgres\n\nDate: 2024-03-05\n\n## Status\n\n"

#: The reproductions of issue 16 (and the shapes found auditing the other patterns).
RECORDS: dict[str, str] = {
    "status-spaces": HEAD + " " * 1000 + "x\n",
    "accepted-spaces": HEAD + "Accepted" + " " * 3000 + ".\n",
    "links-indent": HEAD
    + "Accepted\n\n## Links\n\n- Supersedes [6. Keep it in files](0006-keep-it-in-files.md)\n"
    + " " * 500
    + "- b\n",
    "brackets": HEAD + "Accepted\n\n" + "[" * 5000 + "](" + "x" * 60000 + "\n",
    "setext": "a\n-\n" * 100000,
    "empty-links": HEAD + "Accepted\n\n" + "[](" * 30000 + "\n",
    "backticks": HEAD + "Accepted\n\n" + "` " * 50000 + "\n",
    "field-spaces": "# 7. Keep the ledger in Postgres\n\nStatus:" + " " * 4000 + "x:\n",
    "wrapped-list": HEAD + "Accepted\n\n## Links\n\n被 " + "ADR-1 " * 3000 + "\n",
}

_READ = """
import json, sys
from mkdocs_adr.parsing import ParseOptions, parse_bytes
options = ParseOptions(aliases=(), status_headings=frozenset({"status"}))
p = parse_bytes(open(sys.argv[1], "rb").read(), path=sys.argv[2], options=options)
print(json.dumps({
    "style": p.style, "title": p.title, "status": p.status, "raw": p.raw_status,
    "line": p.status_line, "date": p.date,
    "relations": [[r.kind, r.target, r.line, r.origin] for r in p.relations],
    "problems": [[x.code, x.line] for x in p.problems],
    "headings": len(p.text.splitlines()),
}))
"""


def read_guarded(tmp_path: Path, text: str) -> dict[str, Any]:
    """The reading of ``text``, parsed in a subprocess that must finish within GUARD."""
    record = tmp_path / "record.md"
    record.write_text(text, encoding="utf-8")
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _READ, str(record), NAME],
            capture_output=True,
            text=True,
            timeout=GUARD,
            check=False,
        )
    except subprocess.TimeoutExpired:  # pragma: no cover - the regression this guards
        pytest.fail(f"reading the record did not finish within {GUARD} s")
    assert proc.returncode == 0, proc.stderr
    reading: dict[str, Any] = json.loads(proc.stdout)
    return reading


def test_a_run_of_spaces_under_status_reads_as_its_last_word(tmp_path: Path) -> None:
    got = read_guarded(tmp_path, RECORDS["status-spaces"])
    assert (got["style"], got["status"], got["raw"], got["line"]) == ("nygard", "unknown", "x", 7)
    assert got["relations"] == [] and got["problems"] == [["ADR001", 7]]


def test_accepted_then_three_thousand_spaces_is_accepted_and_cut(tmp_path: Path) -> None:
    got = read_guarded(tmp_path, RECORDS["accepted-spaces"])
    assert (got["status"], got["line"], got["date"]) == ("accepted", 7, "2024-03-05")
    assert got["raw"] == "Accepted" + " " * (bounds.FIELD - len("Accepted"))
    assert got["problems"] == [["ADR023", 7]]


def test_a_deep_indent_under_links_keeps_the_link_above_it(tmp_path: Path) -> None:
    got = read_guarded(tmp_path, RECORDS["links-indent"])
    assert got["status"] == "accepted"
    assert got["relations"] == [["supersedes", "0006-keep-it-in-files.md", 11, "links-section"]]
    assert got["problems"] == []


def test_five_thousand_brackets_and_a_long_tail_are_no_link(tmp_path: Path) -> None:
    got = read_guarded(tmp_path, RECORDS["brackets"])
    # the run is over the site's render bound: shown as text there (ADR023)
    assert (got["status"], got["relations"], got["problems"]) == ("accepted", [], [["ADR023", 9]])


def test_a_hundred_thousand_setext_underlines_read(tmp_path: Path) -> None:
    got = read_guarded(tmp_path, RECORDS["setext"])
    assert (got["style"], got["status"], got["title"]) == (
        "unknown",
        "missing",
        "Keep the ledger in postgres",
    )
    # over the site's heading bound: from heading 1,001 on the page is code (ADR023)
    assert got["problems"] == [["ADR023", 2002], ["ADR020", 1]]


@pytest.mark.parametrize("name", ["empty-links", "backticks", "field-spaces", "wrapped-list"])
def test_the_other_audited_shapes_read(tmp_path: Path, name: str) -> None:
    got = read_guarded(tmp_path, RECORDS[name])
    if name == "field-spaces":
        # "Status:" then spaces and "x:": an inline status "x:", not a known one
        assert (got["style"], got["status"], got["raw"]) == ("inline", "unknown", "x:")
        assert got["problems"] == [["ADR001", 3]]
    elif name == "wrapped-list":
        # "被" and references with no "取代" after them: no relation, a prose mention
        assert got["status"] == "accepted" and got["problems"] == []
        assert got["relations"] == [["mentions", "ADR-0001", 11, "prose"]]
    elif name in ("empty-links", "backticks"):
        # 5,000 "[](" or 50,000 "`" on one line: over the site's render bound (ADR023)
        assert (got["status"], got["relations"], got["problems"]) == (
            "accepted",
            [],
            [["ADR023", 9]],
        )
    else:
        assert (got["status"], got["relations"], got["problems"]) == ("accepted", [], [])


# -- the new patterns and scanners read what the old patterns read ---------------------

OLD_LINK = re.compile(
    r"(?<!!)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'][^)]*[\"'])?\s*\)"
)
OLD_LINK_LINE = re.compile(r"^\s*(?:[-*+]\s+)?(?P<verb>[^\[\]]+?)\s*:?\s+(?P<refs>\[.*\]\(.*\).*)$")
OLD_INLINE_CODE = re.compile(r"(`+)[^`\n](?:[^\n]*?[^`\n])?\1(?!`)")
_OLD_SLINK = r"\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)\s]*(?:\s+\"[^\"]*\")?\)"
_OLD_ID = r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_]*[- ]?\d{1,6}(?:#[Dd]\d+)?(?![A-Za-z0-9_])"
_OLD_REFS = (
    rf"(?:{_OLD_SLINK}|https?://[^\s)\]>,;]+|{_OLD_ID})"
    rf"(?:\s*(?:,|、|，|&|and|;)?\s*(?:{_OLD_SLINK}|https?://[^\s)\]>,;]+|{_OLD_ID}))*"
)
OLD_REFS_AT = re.compile(_OLD_REFS)
# (in a quote too, and a middle dot between key and value: docs/adr/0075)
OLD_INLINE_FIELD = re.compile(
    r"^\s*(?:>[ \t]*)*(?:[-*+]\s+)?\**([^\W\d_][\w \-]*?)"
    r"(?:\**\s*(?:[:：]|\s[-–—·]\s)|(?<=[^\s*])\*\*(?=\s))\s*\**\s*(.+?)\s*$"
)
PIECES = [
    " ",
    " ",
    "\t",
    "\n",
    "[",
    "]",
    "(",
    ")",
    "x",
    "a",
    "1",
    "-",
    "*",
    "**",
    ":",
    ",",
    '"',
    "'",
    "<",
    ">",
    "!",
    "`",
    "``",
    "](",
    "[a](b)",
    "ADR-1",
    "and ",
    "http://x",
    " - ",
    "Status",
    "supersedes ",
    "\u00a0",
]


def generated(seed: int, count: int, most: int) -> list[str]:
    rnd = random.Random(seed)
    return ["".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, most))) for _ in range(count)]


def _groups(matches: Any) -> list[tuple[tuple[int, int], tuple[str | Any, ...]]]:
    return [(m.span(), m.groups()) for m in matches]


def test_links_and_the_link_pattern_find_what_the_backtracking_pattern_found() -> None:
    for text in generated(1, 20000, 14):
        want = _groups(OLD_LINK.finditer(text))
        assert _groups(markdown.LINK.finditer(text)) == want, text
        assert _groups(markdown.links(text)) == want, text


def test_both_ways_of_finding_links_find_the_same_links() -> None:
    # links() searches a text of few "[" with the pattern, any other by its tables
    texts = generated(5, 5000, 14) + generated(6, 500, 80)
    texts += ["[a](b) " * 20, "![x [y](z)](w)", "[[a](b)](c)", "[" * 30 + "](x)"]
    assert any(t.count("[") > markdown.FEW_BRACKETS for t in texts)
    for text in texts:
        table = _groups(markdown._table_links(text))
        assert _groups(markdown._few_links(text)) == table, text
        assert _groups(markdown.links(text)) == table, text


def test_a_text_without_a_digit_a_link_or_a_url_names_no_reference() -> None:
    # the quick test before the relation patterns (status._MAY_REF)
    extra = ["Accepted", "superseded by x", "被 ADR 取代", "Ersetzt durch ADR-٣"]
    for text in generated(7, 20000, 12) + extra:
        if status._MAY_REF.search(text) is None:
            # so no pattern the test skips could have found anything
            for pattern in (
                status.REF,
                status.VERB_PHRASE,
                status._CJK_VERB_PHRASE,
                status.WRAPPED_PHRASE,
            ):
                assert pattern.search(text) is None, (pattern.pattern[:40], text)


def test_the_link_line_scanner_reads_what_the_link_line_pattern_read() -> None:
    for text in generated(2, 20000, 14):
        m = OLD_LINK_LINE.match(text)
        want = (m.group("verb"), m.group("refs")) if m else None
        assert status.link_line_parts(text) == want, text


def test_inline_code_spans_are_those_of_the_backtracking_pattern() -> None:
    for text in generated(3, 20000, 14):
        assert inline_code_spans(text) == [m.span() for m in OLD_INLINE_CODE.finditer(text)], text


def test_reference_lists_and_fields_read_as_before() -> None:
    for text in generated(4, 20000, 12):
        old, new = OLD_REFS_AT.match(text), status.REFS_AT.match(text)
        assert (old and old.span()) == (new and new.span()), text
        old_f, new_f = OLD_INLINE_FIELD.match(text), status_field(text)
        assert (old_f and old_f.groups()) == (new_f and new_f.groups()), text


def status_field(text: str) -> re.Match[str] | None:
    from mkdocs_adr.parsing.common import INLINE_FIELD

    return INLINE_FIELD.match(text)


# -- size bounds -------------------------------------------------------------------------


def test_a_title_a_status_and_a_target_over_the_field_bound_are_cut_with_adr023() -> None:
    title = "Keep " * 300
    target = "x" * 1200 + ".md"
    text = f"# 7. {title}\n\n## Status\n\nAccepted\n\nSupersedes [ADR-6]({target})\n"
    parsed = parse_bytes(text.encode(), path=NAME, options=OPTIONS)
    assert parsed.title == title[: bounds.FIELD] and parsed.status == "accepted"
    (rel,) = parsed.relations
    assert (rel.kind, rel.target, rel.line) == ("supersedes", target[: bounds.FIELD], 7)
    got = [(p.code, p.severity.label, p.line) for p in parsed.problems]
    assert got == [("ADR023", "warning", 1), ("ADR023", "warning", 7)]
    assert "field cut at its size bound" in parsed.problems[0].message
    assert parsed.problems[0].fix


def test_a_field_value_over_the_bound_is_cut() -> None:
    text = "# 7. Keep the ledger\n\n* Status: accepted\n* Deciders: " + "Ann, " * 400 + "\n"
    parsed = parse_bytes(text.encode(), path=NAME, options=OPTIONS)
    assert parsed.status == "accepted"
    assert sum(len(d) + 2 for d in parsed.deciders) <= bounds.FIELD + 2
    assert [(p.code, p.line) for p in parsed.problems] == [("ADR023", 4)]


def test_patterns_look_at_the_first_line_bound_characters_of_a_line() -> None:
    far = "Accepted\n\n" + " " * bounds.LINE + "Supersedes ADR-3\n"
    near = "Accepted\n\nSupersedes ADR-3\n"
    read = [
        parse_bytes(("# 7. X\n\n## Status\n\n" + t).encode(), path=NAME, options=OPTIONS)
        for t in (near, far)
    ]
    assert [(r.kind, r.target) for r in read[0].relations] == [("supersedes", "ADR-3")]
    # past the bound the phrase is no relation; the id is still a prose mention
    assert [(r.kind, r.target, r.origin) for r in read[1].relations] == [
        ("mentions", "ADR-0003", "prose")
    ]


def test_a_file_over_max_file_bytes_is_adr013_and_not_parsed() -> None:
    small = ParseOptions(aliases=(), status_headings=frozenset({"status"}), max_bytes=1024)
    parsed = parse_bytes(
        b"# 7. X\n\n## Status\n\nAccepted\n" + b" " * 2000, path=NAME, options=small
    )
    assert (parsed.style, parsed.status) == ("unreadable", "unknown")
    assert [p.code for p in parsed.problems] == ["ADR013"]


# -- the whole engine over a log of all of them -----------------------------------------


def hostile_project(root: Path, names: tuple[str, ...] = tuple(RECORDS)) -> Path:
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        textwrap.dedent(
            """\
            site_name: hostile patterns
            docs_dir: docs
            plugins:
              - adr:
                  roots: [adr]
            """
        ),
        encoding="utf-8",
    )
    (root / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    # numbered from 11, so that no record is the "0006-keep-it-in-files.md" linked above
    for number, (name, text) in enumerate(RECORDS.items(), start=11):
        if name in names:
            (adr / f"{number:04d}-{name}.md").write_text(text, encoding="utf-8")
    return root


EXPECTED_PROBLEMS = [
    ("ADR001", "docs/adr/0011-status-spaces.md"),
    ("ADR001", "docs/adr/0018-field-spaces.md"),
    ("ADR003", "docs/adr/0013-links-indent.md"),
    ("ADR023", "docs/adr/0012-accepted-spaces.md"),
    # lines over the site's render bound of 1,000 inline marks (shown as code there)
    ("ADR023", "docs/adr/0014-brackets.md"),
    ("ADR023", "docs/adr/0015-setext.md"),  # 100,000 headings: over the heading bound
    ("ADR023", "docs/adr/0016-empty-links.md"),
    ("ADR023", "docs/adr/0017-backticks.md"),
]


def test_plan_over_a_log_of_every_stalling_record_finishes(tmp_path: Path) -> None:
    project = hostile_project(tmp_path / "project")
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "mkdocs_adr", "plan", "--json"],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=GUARD * 3,
            check=False,
        )
    except subprocess.TimeoutExpired:  # pragma: no cover - the regression this guards
        pytest.fail("plan over the hostile log did not finish")
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    statuses = {r["id"]: r["status"] for r in data["records"]}
    assert statuses == {
        "ADR-0011": "unknown",
        "ADR-0012": "accepted",
        "ADR-0013": "accepted",
        "ADR-0014": "accepted",
        "ADR-0015": "missing",
        "ADR-0016": "accepted",
        "ADR-0017": "accepted",
        "ADR-0018": "unknown",
        "ADR-0019": "accepted",
    }
    found = sorted(
        (p["code"], p["path"])
        for p in data["problems"]
        if p["code"] in ("ADR001", "ADR003", "ADR023")
    )
    assert found == EXPECTED_PROBLEMS


#: The records Python-Markdown itself renders in reasonable time: MkDocs' renderer (not
#: this package) still stalls on thousands of ``[``, ``[](`` and setext underlines.
RENDERABLE = ("status-spaces", "accepted-spaces", "links-indent", "field-spaces", "wrapped-list")


def test_a_build_of_the_hostile_log_finishes(tmp_path: Path) -> None:
    project = hostile_project(tmp_path / "project", RENDERABLE)
    proc = run_mkdocs("build", "-d", str(tmp_path / "site"), cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "ADR023" in proc.stderr
    assert (tmp_path / "site" / "adr" / "0012-accepted-spaces" / "index.html").exists()


def test_a_line_of_link_openers_builds_as_text_with_adr023(tmp_path: Path) -> None:
    """Python-Markdown takes quadratic time on ``[a](`` x 5,000 and 30,000 ``[`` (over 9 s
    and over a minute): the site shows such a line as code, and says so."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\ntheme: mkdocs\nplugins:\n  - adr\n", encoding="utf-8"
    )
    (adr / "0001-openers.md").write_text(
        "# 1. Openers\n\n## Status\n\nAccepted\n\n## Context\n\n" + "[a](" * 5000 + "\n",
        encoding="utf-8",
    )
    (adr / "0002-brackets.md").write_text(
        "# 2. Brackets\n\n## Status\n\nAccepted\n\n## Context\n\n"
        + "[" * 30000
        + "\n\nSee [the first](0001-openers.md).\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,  # a hang guard: without the bound this build takes minutes
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    found = re.findall(r"(\S+\.md):(\d+): ADR023 line has ([\d,]+) inline markup", proc.stderr)
    assert sorted(found) == [
        ("docs/adr/0001-openers.md", "9", "5,000"),
        ("docs/adr/0002-brackets.md", "9", "30,000"),
    ]
    page = (tmp_path / "site" / "adr" / "0002-brackets" / "index.html").read_text("utf-8")
    assert "<code>" + "[" * 100 in page  # shown as code
    assert 'href="../0001-openers/"' in page  # the lines under the bound keep their links
    assert bounds.render_safe("ordinary [link](x.md)\n") is None
