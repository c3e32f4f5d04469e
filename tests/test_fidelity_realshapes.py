"""Shapes met in public ADR logs in the second survey (reallogs, 2026-12-02).

Each fixture record is written in our own words in the shape a public log uses: a metadata
table whose header row holds the keys, a ``## Links`` list pointing at a page of the docs
that is no record (its items bulleted with ``-`` or ``*``), a title holding a link and one
holding a code span (and hostile HTML), an ISO year-month date, a ``Replaces:`` field
under the title, ``Partially Accepted``, and the log's own index page numbered ``000-``;
from the third survey (2026-12-03), a status written as a link to the review that decided
it (``[Accepted](https://...)``), one in brackets (``[Approved]``), a ``000-``
template written in French, a succession declared under the date with a noun before
its link ("This decision has been superseded by decision: [...]"), a table of the body
headed ``| Status | Meaning | Next status |``, and a decision-log table whose status is a
history (``Proposed on ..., Accepted on ...``) or ``Invalidated on ...``, a partial
succession written "is in part superseded by", and a status whose later sentence names the
successor (``Implemented. Superseded by [ADR-016](..)``).
Each was a false warning or a wrong reading;
the default strict build of this log now passes without one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import load

from .conftest import load_json, run_cli, run_mkdocs

ROOT = "docs/decisions"

#: id -> (title, status, date, authoritative relations as (kind, target))
READINGS: dict[str, tuple[str, str, str | None, list[tuple[str, str]]]] = {
    "ADR-0001": ("Retire the job queue", "accepted", "2025-02-03", []),
    "ADR-0002": (
        "[Superseded by ADR-0005] Ship metrics through a relay",
        "superseded",
        "2019-04-02",
        [
            ("superseded-by", "ADR-0005"),
            ("relates-to", "ADR-0001"),
            # (its "- [Crypto policy](./../handbook/..)" and "- [Relay project](https://..)"
            # name a page of the docs and a web page, no decision: no relation)
        ],
    ),
    "ADR-0003": (
        'Use the noop scheduler <img src=x onerror="window.__pwned=1">',
        "accepted",
        "2018-11-01",
        [],
    ),
    "ADR-0005": (
        "Scrape metrics from the store",
        "accepted",
        "2020-06-01",
        # a "*" item under Links relates, as a "-" item does
        [("relates-to", "ADR-0001"), ("supersedes", "ADR-0002")],
    ),
    # the status as a link to the review that decided it, or in brackets (survey 3)
    "ADR-0006": ("Sign release artifacts", "accepted", "2021-03-09", []),
    "ADR-0007": ("Keep one signing key per team", "accepted", "2021-04-20", []),
    # no status section; under the date, "This decision has been superseded by decision:
    # [link]" and "This decision supersedes decision: [link]" (survey 3)
    "ADR-0008": (
        "Publish nightly builds",
        "missing",
        "2022-01-10",
        [("superseded-by", "ADR-0009")],
    ),
    "ADR-0009": (
        "Publish a build on every merge",
        "missing",
        "2022-05-02",
        [("supersedes", "ADR-0008")],
    ),
    # a table of the body whose header cell is "Status", three columns wide (survey 3)
    "ADR-0010": ("Name the states of an order", "accepted", "2022-06-14", []),
    # a "Decision log" table: a status history read as its latest step, and
    # "Invalidated on ..." (survey 3)
    "ADR-0011": ("Drop the API proxy", "accepted", None, []),
    "ADR-0012": ("Keep a proxy in front of the API", "deprecated", None, []),
    # a partial succession written "in part superseded by" and "supersedes parts of": both
    # stay in effect, no ADR016 error (survey 3)
    "ADR-0013": (
        "Promote releases by hand",
        "accepted",
        None,
        [("partially-superseded-by", "ADR-0014")],
    ),
    "ADR-0014": (
        "Promote releases through pull requests",
        "accepted",
        "2023-02-16",
        [("partially-supersedes", "ADR-0013")],
    ),
    # "Implemented. Superseded by [ADR-016](..)": the later step of the status decides,
    # not its first word (a false ADR016 error before; survey 3)
    "ADR-0015": (
        "Pad blocks to a power of two",
        "superseded",
        None,
        [("superseded-by", "ADR-0016")],
    ),
    "ADR-0016": ("Pad blocks with zeros", "accepted", None, []),
}

#: Every problem: notes only, none a warning.
PROBLEMS = [
    ("ADR005", "info", f"{ROOT}/015-pad-blocks-to-a-power-of-two.md", 5),
    ("ADR018", "info", f"{ROOT}/003-use-the-noop-scheduler.md", 7),
    ("ADR018", "info", f"{ROOT}/007-keep-one-signing-key-per-team.md", 7),
    ("ADR018", "info", f"{ROOT}/012-keep-a-proxy-in-front-of-the-api.md", 8),
    ("ADR018", "info", f"{ROOT}/016-pad-blocks-with-zeros.md", 5),
    ("ADR020", "info", f"{ROOT}/008-publish-nightly-builds.md", 1),
    ("ADR020", "info", f"{ROOT}/009-publish-a-build-on-every-merge.md", 1),
]


def test_plan_reads_every_shape(copy_log: Callable[[str], Path]) -> None:
    project = copy_log("realshapes")
    proc = run_cli("plan", "--json", cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = load_json(proc.stdout)
    got = {
        r["id"]: (
            r["title"],
            r["status"],
            r.get("date"),
            [
                (x["kind"], x.get("target_id") or x["target"])
                for x in r.get("relations", [])
                if x["kind"] != "mentions"
            ],
        )
        for r in data["records"]
    }
    assert got == READINGS
    # the log's own index page is no record ADR-0000 "Index"
    log = load(load_from_mkdocs_yml(project / "mkdocs.yml"))
    assert [(e.path, e.reason) for e in log.excluded] == [
        (f"{ROOT}/000-index.md", "index"),
        # a template in French: its slots offer choices, "{proposé | accepté | ...}"
        (f"{ROOT}/000-modele-de-decision.md", "template"),
    ]
    problems = sorted((p["code"], p["severity"], p["path"], p["line"]) for p in data["problems"])
    assert problems == PROBLEMS


@pytest.mark.slow
def test_strict_build_passes_and_titles_read_as_their_headings_show(
    copy_log: Callable[[str], Path], tmp_path: Path
) -> None:
    project = copy_log("realshapes")
    site = tmp_path / "site"
    proc = run_mkdocs("build", "--strict", "-d", str(site), cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert [ln for ln in proc.stderr.splitlines() if ln.startswith(("WARNING", "ERROR"))] == []

    def page(rel: str) -> str:
        return (site / "decisions" / rel / "index.html").read_text("utf-8")

    linked = "[Superseded by ADR-0005] Ship metrics through a relay"
    old = page("002-ship-metrics-through-a-relay")
    # the page's <title> and its navigation entry
    assert f"<title>ADR-0002: {linked} - " in old
    assert (
        f'href="../002-ship-metrics-through-a-relay/" class="dropdown-item">ADR-0002: {linked}'
        in (page("005-scrape-metrics-from-the-store"))
    )
    # the INDEX row, the graph's node and the pager of the record before it
    assert f'<a href="../002-ship-metrics-through-a-relay/">{linked}</a>' in page("INDEX")
    assert f"<title>ADR-0002 {linked} (superseded)</title>" in page("GRAPH")
    assert f"ADR-0002 {linked} &rarr;</a>" in page("001-retire-the-job-queue")
    # the code span's text without backticks, the HTML in the heading escaped everywhere
    shown = "Use the noop scheduler &lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;"
    assert f"<title>ADR-0003: {shown} - " in page("003-use-the-noop-scheduler")
    assert shown in page("INDEX") and shown in page("TIMELINE")
    for html in site.rglob("*.html"):
        text = html.read_text("utf-8")
        assert "<img src=x" not in text, html
        # no title keeps its Markdown (the raw status in a tooltip is shown as written)
        assert "](0005" not in text and "`noop`" not in re.sub(r"<code>.*?</code>", "", text)
