"""Hostile text (issue 16, item 3): nothing a record says reaches a terminal, an XML export
or a generated link raw.

The log is written in a temporary folder, because its point is bytes a fixture file
would hide: ESC, BEL, C1 controls and bidi overrides in titles, statuses, domains,
tags and relation targets, and ``javascript:``/``data:``/``vbscript:`` links in a
decision. Every command runs as a real subprocess and its raw bytes are inspected.
"""

from __future__ import annotations

import ast
import html
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mkdocs_adr import safetext
from mkdocs_adr.summary import rebase_links, tame
from mkdocs_adr.views import dot, mermaid, svg
from mkdocs_adr.views.graphdata import DrawnEdge, GraphData, Node

from .test_summary_support import checkout_env

ESC, BEL = "\x1b", "\x07"
OSC_TITLE = f"{ESC}]0;pwned{BEL}"  # sets the terminal's window title
#: The heading title of ADR-0001, as the file holds it.
TITLE_1 = (
    f"Use queues {OSC_TITLE}for {ESC}[31mbilling{ESC}[0m \u0085next \u009b2J \u202egnp.exe\u202c"
)
#: ... and as a terminal must show it: sequences and controls gone, bidi shown.
SHOWN_1 = "Use queues for billing next  <U+202E>gnp.exe<U+202C>"

RECORD_1 = (
    # YAML escapes put ESC (\e), BEL (\a), NEL (\N) and CSI (\x9b) in the fields
    "---\n"
    'status: "accepted\\e]0;pwned\\a"\n'
    "date: 2024-03-01\n"
    'domain: "pay\\e[2Jments\\N"\n'
    'tags: ["ops\\e]0;tag\\a", "bidi\\u2066x\\u2069", "c1\\x9bm"]\n'
    "---\n"
    f"# {TITLE_1}\n"
    "\n"
    "## Context\n"
    "\n"
    "Billing needs a queue between checkout and the ledger.\n"
    "\n"
    "## Decision\n"
    "\n"
    "We publish billing events to a queue. See [the runbook](javascript:alert(1)),\n"
    "[the map](data:text/html;base64,PHNjcmlwdD4=), [legacy](VBScript:msgbox(1)),\n"
    "[encoded](java&#x73;cript:alert(2)), [spaced]( \tjavascript:alert(3)),\n"
    "![pixel](DATA:image/svg+xml,%3Csvg%20onload=alert(5)%3E) and [the ref][r];\n"
    "[the broker](0002-use-a-broker.md) says how.\n"
    "\n"
    "[r]: JAVASCRIPT:alert(4)\n"
)
#: ADR-0002, in adr-tools' shape: a DCS string and C0 controls in its heading, an
#: OSC 8 hyperlink in a relation to something outside the log.
RECORD_2 = (
    f"# 2. Use a broker {ESC}P1$q{ESC}\\ for \x01\x02\x7fqueues\n"
    "\n"
    "Date: 2024-04-02\n"
    "\n"
    "## Status\n"
    "\n"
    "Accepted\n"
    "\n"
    "Amends [1. Use queues](0001-use-queues.md)\n"
    "\n"
    f"Relates to {ESC}]8;;https://evil.example/{ESC}\\the-ledger{ESC}]8;;{ESC}\\\n"
    "\n"
    "## Context\n"
    "\n"
    "Queues need a broker.\n"
    "\n"
    "## Decision\n"
    "\n"
    "We run one broker per region.\n"
)
#: ADR-0003 sits in a domain folder whose name is a script URL: the folder name is the
#: attacker's, and a link to the record must still read as a path.
SCRIPT_FOLDER = "javascript:alert(1)"
RECORD_3 = (
    "# 3. Keep a dead-letter queue\n\nDate: 2024-05-01\n\n## Status\n\nAccepted\n\n"
    "## Context\n\nSome events fail.\n\n## Decision\n\nFailed events go to a dead-letter queue.\n"
)
MKDOCS_YML = "site_name: hostile\ndocs_dir: docs\nplugins:\n  - adr\n"


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    adr = site / "docs" / "adr"
    adr.mkdir(parents=True)
    (site / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    (adr / "0001-use-queues.md").write_text(RECORD_1, encoding="utf-8", newline="\n")
    (adr / "0002-use-a-broker.md").write_text(RECORD_2, encoding="utf-8", newline="\n")
    (adr / SCRIPT_FOLDER).mkdir()
    (adr / SCRIPT_FOLDER / "0003-keep-a-dead-letter-queue.md").write_text(RECORD_3, "utf-8")
    return site


def cli(site: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """The real CLI, its output kept as bytes: nothing decodes or cleans it first."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", *args],
        cwd=site,
        env=checkout_env(),
        capture_output=True,
        timeout=300,
        check=False,
    )


def raw_controls(data: bytes) -> list[str]:
    """Every character of ``data`` a terminal would act on: C0 (but newline and tab),
    DEL, C1 and bidi overrides."""
    text = data.decode("utf-8")  # a lone surrogate or stray byte fails here too
    return [
        repr(c)
        for c in text
        if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F or c in safetext.BIDI
    ]


TEXT_COMMANDS = [
    ("context", "ADR-0001"),
    ("context", "ADR-0002", "--intent", "history"),
    ("context",),
    ("find", "--topic", "queue billing broker"),
    ("plan",),
    ("plan", "--verbose"),
    ("check",),
    ("status",),
    ("graph", "--format", "svg"),
    ("graph", "--format", "dot"),
    ("graph", "--format", "mermaid"),
    ("graph", "--format", "json"),
    ("index", "--check"),
    ("archive",),
    ("new", "--dry-run", f"Retry {OSC_TITLE}failed \u202eevents"),  # typed, not read
    ("context", "ADR-0001", "--json"),
    ("find", "--topic", "queue", "--json"),
    ("plan", "--json"),
    ("check", "--json"),
]


@pytest.mark.parametrize("args", TEXT_COMMANDS, ids=" ".join)
def test_no_command_prints_a_control_character(hostile: Path, args: tuple[str, ...]) -> None:
    proc = cli(hostile, *args)
    # no INDEX yet: it drifts; a typed title with control characters is refused (usage)
    expected = 1 if args == ("index", "--check") else 2 if args[0] == "new" else 0
    assert proc.returncode == expected, proc.stderr.decode()
    assert raw_controls(proc.stdout) == []
    assert raw_controls(proc.stderr) == []
    assert b"Traceback" not in proc.stderr


def test_context_shows_the_title_cleaned_and_the_bidi_override_visible(hostile: Path) -> None:
    out = cli(hostile, "context", "ADR-0001").stdout.decode()
    assert f"[1] ADR-0001  accepted  {SHOWN_1}\n" in out
    assert "pwned" not in out and "[31m" not in out
    # the relation's OSC 8 hyperlink is gone, its text stays
    history = cli(hostile, "context", "ADR-0002", "--intent", "history").stdout.decode()
    assert re.search(r"ADR-0002  accepted  Use a broker +for queues\n", history)
    assert "evil.example" not in history


def test_index_check_diff_is_clean(hostile: Path) -> None:
    proc = cli(hostile, "index", "--check")
    diff = proc.stdout.decode()
    assert "+++ b/docs/adr/INDEX.md" in diff
    assert "Use queues for billing next  <U+202E>gnp.exe<U+202C>" in diff
    # INDEX.md itself drops controls (md_text), and keeps the bidi character as data
    assert cli(hostile, "index").returncode == 0
    index = (hostile / "docs/adr/INDEX.md").read_text("utf-8")
    assert ESC not in index and "\x85" not in index and "\u202e" in index
    assert "Use queues for billing next  \u202egnp.exe\u202c" in index


def test_json_keeps_the_exact_data(hostile: Path) -> None:
    proc = cli(hostile, "context", "ADR-0001", "--json")
    data = json.loads(proc.stdout)
    unit = data["units"][0]
    assert unit["title"] == TITLE_1
    assert unit["domain"] == "pay\x1b[2Jments\x85"
    assert "\\u001b]0;pwned\\u0007" in proc.stdout.decode()  # JSON's own escapes
    assert "\\u0085" in proc.stdout.decode() and "\\u202e" in proc.stdout.decode()
    # the budget counts the text as printed, escapes included
    assert data["budget"]["codepoints"] == len(proc.stdout.decode().rstrip("\n"))
    nodes = json.loads(cli(hostile, "graph", "--format", "json").stdout)["nodes"]
    titles = {n["id"]: n["title"] for n in nodes}
    assert titles["ADR-0001"] == TITLE_1
    assert titles["ADR-0002"] == f"Use a broker {ESC}P1$q{ESC}\\ for \x01\x02\x7fqueues"


def test_graph_exports_are_clean_and_the_svg_parses(hostile: Path) -> None:
    svg_text = cli(hostile, "graph", "--format", "svg").stdout.decode()
    root = ET.fromstring(svg_text)
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert any(SHOWN_1 in t for t in texts), texts
    dot_text = cli(hostile, "graph", "--format", "dot").stdout.decode()
    one_line = " ".join(SHOWN_1.split())  # DOT and Mermaid labels collapse white space
    assert f'label="ADR-0001\\n{one_line}"' in dot_text
    mermaid_text = cli(hostile, "graph", "--format", "mermaid").stdout.decode()
    assert "Use queues for billing next #60;U+202E#62;gnp.exe" in mermaid_text


# ----------------------------------------------------------------- SVG and XML


def test_svg_of_a_title_with_every_control_character_is_well_formed() -> None:
    every = "".join(map(chr, range(0x20))) + "\x7f" + "".join(map(chr, range(0x80, 0xA0)))
    title = f"A{every}B\ud800\ufffe\uffff\u202eC"
    node = Node(
        id=f"ADR-1{every}",
        title=title,
        status="accepted",
        archived=False,
        domain=None,
        root="adr",
        path="adr/0001-a.md",
    )
    other = Node("ADR-2", "Plain", "superseded", False, None, "adr", "adr/0002-b.md")
    data = GraphData(
        nodes={node.id: node, other.id: other},
        edges=[DrawnEdge(node.id, other.id, "supersedes")],
    )
    doc = svg.document([(title, data)], href=lambda rid: f"x/{rid}/", title=title)
    root = ET.fromstring(doc)  # raises on any character XML 1.0 forbids
    titles = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert "A\t\nB\ufffd<U+202E>C" in titles  # a lone surrogate shows as U+FFFD
    assert svg.esc(title) == "A\t\nB\ufffd&lt;U+202E&gt;C"
    assert "\x1b" not in dot.render(data) and "\x1b" not in mermaid.render(data)


# ----------------------------------------------------------------- the rules


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (f"a{ESC}[1;31mred{ESC}[0m", "ared"),  # CSI with parameters
        (f"a{ESC}[?25l b", "a b"),  # private CSI
        ("a\x9b2Jb", "ab"),  # one-byte CSI
        (f"a{OSC_TITLE}b", "ab"),  # OSC ended by BEL
        (f"a{ESC}]8;;https://x/{ESC}\\link{ESC}]8;;{ESC}\\b", "alinkb"),  # OSC 8, ST
        ("a\x9d0;t\x9cb", "ab"),  # one-byte OSC and ST
        (f"a{ESC}P1$q{ESC}\\b", "ab"),  # DCS
        (f"a{ESC}X sos {ESC}\\b{ESC}^pm{ESC}\\c{ESC}_apc{ESC}\\d", "abcd"),
        (f"a{ESC}cb{ESC}(Bc{ESC}7d", "abcd"),  # single ESC sequences
        (f"a{ESC}]0;never ended\nnext", "a0;never ended\nnext"),  # only the introducer
        ("t\tn\nr\rb\x08e\x00", "t\tn\nrbe"),  # C0: tab and newline kept
        ("nel\x85del\x7fend", "neldelend"),
        ("x\u202ey\u2066z\u2069", "x<U+202E>y<U+2066>z<U+2069>"),
        ("lone \ud83d half", "lone \ufffd half"),
        ("Entscheidung für Kafka 決定 ✓ \u200d", "Entscheidung für Kafka 決定 ✓ \u200d"),
    ],
)
def test_terminal_text(raw: str, shown: str) -> None:
    assert safetext.terminal(raw) == shown
    assert safetext.terminal(shown) == shown  # what it prints is left as it is


def test_json_text_is_the_same_data() -> None:
    value = {"t": "a\x1b]0;x\x07\x85\x9b\u202e\u2028\ud800\\\x85 ok ü"}
    text = safetext.json_text(json.dumps(value, ensure_ascii=False))
    assert json.loads(text) == value
    assert raw_controls(text.encode("utf-8")) == []
    assert "ü" in text  # other text stays readable


@pytest.mark.parametrize(
    "value",
    [{"t": "plain ascii"}, {"t": "del \x7f here"}, {"t": "c1 \x85"}, {"t": "\u2028 ü"}],
)
def test_json_text_ascii_or_not_escapes_the_same(value: dict[str, str]) -> None:
    # ASCII text skips the pattern: only DEL of the escaped characters is ASCII
    text = json.dumps(value, ensure_ascii=False)
    assert safetext.json_text(text) == safetext.JSON_ESCAPED.sub(
        lambda m: f"\\u{ord(m.group()):04x}", text
    )
    assert json.loads(safetext.json_text(text)) == value
    assert not safetext.JSON_ESCAPED.search(safetext.json_text(text))


@pytest.mark.parametrize(
    "target",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        " \t\x01javascript:alert(1)",
        "java\tscript:alert(1)",
        "java&#x73;cript:alert(1)",
        "&#106;avascript:alert(1)",
        "javascript&colon;alert(1)",
        "javascript\\:alert(1)",
        "vbscript:msgbox(1)",
        "VBScript:msgbox(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "DATA:image/svg+xml,x",
    ],
)
def test_unsafe_hrefs(target: str) -> None:
    assert safetext.unsafe_href(target)


@pytest.mark.parametrize(
    "target",
    [
        "0002-use-a-broker.md",
        "data.md",
        "javascript-notes.md",
        "docs/data:x",  # a colon after a slash is a path
        "#decision",
        "/adr/",
        "https://example.com/javascript:x",
        "mailto:team@example.com",
        "?q=data:",
    ],
)
def test_safe_hrefs(target: str) -> None:
    assert not safetext.unsafe_href(target)


def test_relative_href_never_reads_as_a_scheme() -> None:
    assert safetext.relative_href("javascript:alert(1).md") == "./javascript:alert(1).md"
    assert safetext.relative_href("platform/a:b.md") == "platform/a:b.md"
    assert safetext.relative_href("0001-a.md") == "0001-a.md"


def test_rebase_links_leaves_unsafe_links_as_text() -> None:
    text = (
        'See [a](javascript:alert(1)), [b]( JAVA&#x53;cript:x "t"), ![i](data:image/png,AA),\n'
        "[c](vbscript\\:x), [d](<javascript:x>), \\[e\\](javascript:escaped), [f](0002-b.md)\n"
        "\n"
        "[r]: javascript:alert(4)\n"
        '  [s]: <VBScript:x> "t"\n'
        "[t]: 0003-c.md\n"
    )
    assert rebase_links(text, "platform") == (
        'See [a\\](javascript:alert(1)), [b\\]( JAVA&#x53;cript:x "t"), '
        "![i\\](data:image/png,AA),\n"
        "[c\\](vbscript\\:x), [d\\](<javascript:x>), \\[e\\](javascript:escaped), "
        "[f](platform/0002-b.md)\n"
        "\n"
        "\\[r]: javascript:alert(4)\n"
        '  \\[s]: <VBScript:x> "t"\n'
        "[t]: platform/0003-c.md\n"
    )
    # without a folder to rebase from, the unsafe ones are still left as text
    assert rebase_links("[a](javascript:x) [b](c.md)", "") == "[a\\](javascript:x) [b](c.md)"


def test_tame_escapes_attribute_lists() -> None:
    assert tame('[x](y.md){: onclick="alert(1)"} and `{kept}`') == (
        '[x](y.md)\\{: onclick="alert(1)"} and `{kept}`'
    )


def test_patterns_are_linear_on_pathological_text() -> None:
    """A hang guard, not a timing: each piece is ~1 MB, and the old link pattern took
    quadratic time on the ``[b]`` run."""
    script = (
        "from mkdocs_adr import safetext\n"
        "from mkdocs_adr.summary import rebase_links\n"
        "n = 300_000\n"
        "for s in ['\\x1b]' * n, '\\x1b]' + 'a' * n * 3, '\\x1b[' + '0;' * n, '\\x9d' * n,\n"
        "          '\\x1bP' + 'q' * n * 3 + '\\x1b', '\\x1b' * n, '\\u202e' * n]:\n"
        "    safetext.terminal(s); safetext.xml_text(s)\n"
        "for s in ['[b]' * n, '](' * n, '\\\\' * n + '](javascript:x)', '[' * n,\n"
        "          '](javascript:' * n, '[r]: ' + 'javascript:' * n]:\n"
        "    rebase_links(s, 'platform')\n"
        "print('done')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        env=checkout_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.stdout == "done\n", proc.stderr


# ----------------------------------------------------------------- CURRENT, built


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.targets += [v for k, v in attrs if k in ("href", "src") and v is not None]


def hrefs(page: Path) -> list[str]:
    parser = _Links()
    parser.feed(page.read_text("utf-8"))
    return parser.targets


def runs_code(target: str) -> bool:
    """Read independently of the product: what a browser would take as the scheme."""
    seen = re.sub(r"[\x00-\x20]", "", html.unescape(target)).lower()
    return seen.startswith(("javascript:", "vbscript:", "data:"))


def test_published_current_and_its_built_page_carry_no_unsafe_link(hostile: Path) -> None:
    drafted = cli(hostile, "plan", "--mode", "summary", "--json")
    assert drafted.returncode == 0, drafted.stderr.decode()
    plan_id = json.loads(drafted.stdout)["plan_id"]
    confirmed = cli(hostile, "plan", "--confirm", plan_id)
    assert confirmed.returncode == 0, confirmed.stderr.decode()
    assert f"Applied plan {plan_id}" in confirmed.stdout.decode()
    assert raw_controls(confirmed.stdout) == []

    current = (hostile / "docs/adr/CURRENT.md").read_text("utf-8")
    assert "[the runbook\\](javascript:alert(1))" in current
    assert "[encoded\\](java&#x73;cript:alert(2))" in current
    assert "\\[r]: JAVASCRIPT:alert(4)" in current
    assert "[the broker](0002-use-a-broker.md)" in current  # a safe link stays a link
    # the folder name reads as a path, not as a scheme
    assert "[ADR-0003](./javascript:alert%281%29/0003-keep-a-dead-letter-queue.md)" in current
    index = (hostile / "docs/adr/INDEX.md").read_text("utf-8")
    assert "[ADR-0003](javascript%3Aalert%281%29/0003-keep-a-dead-letter-queue.md)" in index
    assert not re.search(r"(?<!\\)\]\(\s*<?\s*(?:java|vbscript|data)", current, re.IGNORECASE)
    assert ESC not in current and "\x85" not in current

    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q"],
        cwd=hostile,
        env=checkout_env(),
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert build.returncode == 0, build.stderr.decode()
    assert raw_controls(build.stdout) == [] and raw_controls(build.stderr) == []
    page = hostile / "site/adr/CURRENT/index.html"
    targets = hrefs(page)
    assert [t for t in targets if runs_code(t)] == []
    assert "../0002-use-a-broker/" in targets
    assert "../javascript%3Aalert%281%29/0003-keep-a-dead-letter-queue/" in targets
    body = page.read_text("utf-8")
    assert "javascript:alert(1)" in body  # shown as text, for the reader to see
    # the record's own page is its author's Markdown, rendered as MkDocs renders it
    # (docs/guide/cli.md#hostile-text): the plugin adds no unsafe link, it removes none
    record = hrefs(hostile / "site/adr/0001-use-queues/index.html")
    assert "javascript:alert(1)" in record
    for view in ("INDEX", "GRAPH"):
        links = hrefs(hostile / f"site/adr/{view}/index.html")
        assert [t for t in links if runs_code(t)] == [], view
        assert "../javascript%3Aalert%281%29/0003-keep-a-dead-letter-queue/" in links, view


def test_commands_print_only_through_the_one_echo() -> None:
    """Every command's text goes through ``commands/_common.echo`` (or the JSON one):
    a ``click.echo``, ``click.secho`` or ``print`` anywhere else would bypass
    :func:`safetext.terminal`."""
    package = Path(safetext.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).as_posix() == "commands/_common.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if (isinstance(f, ast.Name) and f.id == "print") or (
                isinstance(f, ast.Attribute)
                and f.attr in ("echo", "secho")
                and isinstance(f.value, ast.Name)
                and f.value.id == "click"
            ):
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    assert found == []
