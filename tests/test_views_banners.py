"""Banners from a table: every status and situation gets its admonition, CSS name and
title from ``views/page.BANNERS`` and ``views/current.BANNERS``; the views read no file."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mkdocs_adr.config import from_options
from mkdocs_adr.freshness import Freshness
from mkdocs_adr.log import Log, load
from mkdocs_adr.model import STATUSES
from mkdocs_adr.views import current as current_view
from mkdocs_adr.views import page as page_view

VIEWS = Path(page_view.__file__).parent

#: What each status shows, written out here rather than read from the table under test:
#: (admonition type, CSS name, title), or None for a status in effect.
STATUS_SHOWS: dict[str, tuple[str, str, str] | None] = {
    "accepted": None,
    "proposed": ("info", "proposed", "Proposed"),
    "draft": ("note", "draft", "Draft"),
    "superseded": ("warning", "superseded", "Superseded"),
    "deprecated": ("warning", "deprecated", "Deprecated"),
    "rejected": ("danger", "rejected", "Rejected"),
    "unknown": ("warning", "unknown", "Unknown status"),
    "missing": ("note", "missing", "Status not recorded"),  # issue 11: a quiet note
}

#: Status line of a record of each status (``unknown``: a status no table knows).
STATUS_LINE = {status: f"status: {status}\n" for status in STATUSES}
STATUS_LINE["unknown"] = "status: pondering\n"
STATUS_LINE["missing"] = ""

#: One record per situation: (file name, frontmatter lines, body) of the log below.
SITUATION_RECORDS = [
    ("0001-a.md", "status: accepted\nreview-by: 2020-01-01\n", ""),
    ("0002-external.md", "status: superseded\nsuperseded-by: [nowhere-external]\n", ""),
    ("0003-cycle-a.md", "status: superseded\nsuperseded-by: [ADR-0004]\n", ""),
    ("0004-cycle-b.md", "status: superseded\nsuperseded-by: [ADR-0003]\n", ""),
    ("0006-dep.md", "status: deprecated\nsuperseded-by: [ADR-0001]\n", ""),
    ("0007-contested.md", "status: accepted\n", ""),
    ("0008-rival.md", "status: accepted\nsupersedes: [ADR-0007]\n", ""),
    ("0009-two-claim.md", "status: superseded\n", ""),
    ("0010-claim-one.md", "status: accepted\nsupersedes: [ADR-0009]\n", ""),
    ("0011-claim-two.md", "status: accepted\nsupersedes: [ADR-0009]\n", ""),
    ("0012-pending.md", "status: superseded\nsuperseded-by: [ADR-0013]\n", ""),
    ("0013-proposal.md", "status: proposed\nsupersedes: [ADR-0012]\n", ""),
    ("0014-chain-a.md", "status: superseded\nsuperseded-by: [ADR-0015]\n", ""),
    ("0015-chain-b.md", "status: superseded\nsuperseded-by: [ADR-0016]\n", ""),
    ("0016-chain-c.md", "status: accepted\nsupersedes: [ADR-0015]\n", ""),
    (
        "0017-retired.md",
        "status: accepted\nstyle: container\n",
        "## D1. One\n\nStatus: superseded\n\nx.\n\n## D2. Two\n\nStatus: deprecated\n\ny.\n",
    ),
    (
        "0018-partial.md",
        "status: accepted\nstyle: container\n",
        "## D1. One\n\nStatus: accepted\n\nx.\n\n## D2. Two\n\nStatus: rejected\n\ny.\n",
    ),
    ("archive/0019-archived.md", "status: rejected\n", ""),
]

#: (record id) -> [(CSS name, admonition type, title, a sentence it must say)], in order.
SITUATION_SHOWS: dict[str, list[tuple[str, str, str, str]]] = {
    "ADR-0001": [("review", "warning", "Review overdue", "2020-01-01")],
    "ADR-0002": [
        (
            "superseded",
            "warning",
            "Superseded",
            "names a successor that is not a record of this log: <code>nowhere-external</code>",
        )
    ],
    "ADR-0003": [("superseded-cycle", "danger", "Superseded: cycle", "supersession cycle (")],
    "ADR-0006": [("deprecated", "warning", "Deprecated", "It is replaced by <a")],
    "ADR-0007": [("contested", "warning", "Contested", "says it supersedes this decision")],
    "ADR-0009": [
        (
            "superseded-ambiguous",
            "warning",
            "Superseded: successor unclear",
            "more than one record claims to replace it",
        )
    ],
    "ADR-0012": [
        (
            "superseded-pending",
            "info",
            "Superseded only by a proposal: still in effect",
            "(proposed) is not accepted",
        )
    ],
    "ADR-0014": [("superseded", "warning", "Superseded", "which was superseded in turn")],
    "ADR-0015": [("superseded", "warning", "Superseded", "the decision in effect now.")],
    "ADR-0016": [],
    "ADR-0017": [("units-retired", "warning", "No longer in effect", "ADR-0017#D2 is deprecated")],
    "ADR-0018": [("units-partial", "info", "Partly out of effect", "The others still are.")],
    "ADR-0019": [
        ("rejected", "danger", "Rejected", "never in effect"),
        ("archived", "note", "Archived", "for its history."),
    ],
}

_BANNER = re.compile(
    r'<div class="admonition (\w+) adr-banner adr-banner--([\w-]+)">'
    r'<p class="admonition-title">([^<]*)</p><p>(.*?)</p></div>'
)


def href(rid: str) -> str:
    return f"../{rid}/"


def make_log(folder: Path, records: list[tuple[str, str, str]]) -> Log:
    adr = folder / "docs" / "adr"
    for name, front, body in records:
        path = adr / name
        path.parent.mkdir(parents=True, exist_ok=True)
        title = name.split("-", 1)[1].removesuffix(".md")
        path.write_text(f"---\n{front}---\n# {title}\n\nText.\n\n{body}", encoding="utf-8")
    config = from_options({}, project_dir=folder, docs_dir=folder / "docs", config_file=None)
    return load(config)


def shown(ctx: page_view.PageContext, log: Log, rid: str) -> list[tuple[str, str, str, str]]:
    rec = log.get(rid)
    assert rec is not None, rid
    out = []
    for html in page_view.banners(ctx, rec, href):
        m = _BANNER.fullmatch(html)
        assert m is not None, html
        level, name, title, body = m.groups()
        out.append((name, level, title, body))
    return out


@pytest.fixture(scope="module")
def statuses(tmp_path_factory: pytest.TempPathFactory) -> Log:
    folder = tmp_path_factory.mktemp("statuses")
    records = [
        (f"{n:04d}-{status}.md", STATUS_LINE[status], "")
        for n, status in enumerate(STATUSES, start=1)
    ]
    return make_log(folder, records)


@pytest.fixture(scope="module")
def situations(tmp_path_factory: pytest.TempPathFactory) -> Log:
    return make_log(tmp_path_factory.mktemp("situations"), SITUATION_RECORDS)


# --------------------------------------------------------------------------- the table


def test_every_status_has_a_row_and_every_row_a_banner() -> None:
    assert set(page_view.STATUS_BANNER) == set(STATUSES) == set(STATUS_SHOWS)
    for key in page_view.STATUS_BANNER.values():
        assert key is None or key in page_view.BANNERS
    for key, banner in page_view.BANNERS.items():
        assert banner.level in page_view.LEVELS, key  # styled by both themes
        assert re.fullmatch(r"[a-z-]+", banner.name), key


@pytest.mark.parametrize("status", STATUSES)
def test_each_status_shows_its_banner_kind_and_title(statuses: Log, status: str) -> None:
    ctx = page_view.PageContext.build(statuses)
    [rec] = [r for r in statuses.records if r.path.endswith(f"-{status}.md")]
    assert rec.status == status
    got = [(level, name, title) for name, level, title, _ in shown(ctx, statuses, rec.id)]
    want = STATUS_SHOWS[status]
    assert got == ([want] if want else [])
    key = page_view.STATUS_BANNER[status]
    if key is not None:
        banner = page_view.BANNERS[key]
        assert (banner.level, banner.name, banner.title) == want


@pytest.mark.parametrize("status", ["draft", "accepted", "superseded"])
def test_a_status_missing_from_the_table_fails_loudly(
    statuses: Log, status: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx = page_view.PageContext.build(statuses)
    [rec] = [r for r in statuses.records if r.status == status]
    monkeypatch.delitem(page_view.STATUS_BANNER, status)
    with pytest.raises(KeyError, match=status):
        page_view.banners(ctx, rec, href)


def test_the_table_decides_kind_and_title(statuses: Log, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = page_view.PageContext.build(statuses)
    [rec] = [r for r in statuses.records if r.status == "rejected"]
    monkeypatch.setitem(
        page_view.BANNERS,
        "rejected",
        page_view.Banner("note", "rejected", "Turned <down>", "No way."),
    )
    assert page_view.banners(ctx, rec, href) == [
        '<div class="admonition note adr-banner adr-banner--rejected">'
        '<p class="admonition-title">Turned &lt;down&gt;</p><p>No way.</p></div>'
    ]


# --------------------------------------------------------------------------- situations


@pytest.mark.parametrize("rid", sorted(SITUATION_SHOWS))
def test_each_situation_shows_its_banner(situations: Log, rid: str) -> None:
    ctx = page_view.PageContext.build(situations)
    got = shown(ctx, situations, rid)
    want = SITUATION_SHOWS[rid]
    assert [g[:3] for g in got] == [w[:3] for w in want]
    for (*_, body), (*_, sentence) in zip(got, want, strict=True):
        assert sentence in body


def test_translation_banners_escape_the_language(situations: Log) -> None:
    ctx = page_view.PageContext.build(situations)
    original = situations.get("ADR-0001")
    orphan = page_view.mirror_banner(ctx, None, "<zh>", href)
    assert orphan.startswith('<div class="admonition note adr-banner adr-banner--translation">')
    assert "Translation (&lt;zh&gt;)" in orphan and "<zh>" not in orphan
    known = page_view.mirror_banner(ctx, original, "zh", href)
    assert known.startswith('<div class="admonition info adr-banner adr-banner--translation">')
    assert "translation of <a" in known and "(status: accepted)" in known


# --------------------------------------------------------------------------- CURRENT


def _freshness(log: Log, state: str, detail: str = "") -> Freshness:
    return Freshness(log.roots[0], "docs/adr/CURRENT.md", state, detail=detail)


def test_current_banners_by_state(situations: Log) -> None:
    assert set(current_view.BANNERS) == {"fresh", "stale", "unverifiable", "draft"}
    unverifiable = current_view.banner(
        situations,
        _freshness(situations, "unverifiable", "manifest <missing>"),
        href=lambda src: f"s/{src}",
        index_target="docs/adr/INDEX.md",
    )
    assert unverifiable.startswith(
        '<div class="admonition danger adr-banner adr-banner--current-unverifiable '
        'adr-current-banner" data-adr-current="unverifiable">\n'
        '<p class="admonition-title">Unverifiable: this view cannot be checked against its '
        "sources</p>\n<p>manifest &lt;missing&gt;.</p>"
    )
    assert '<a href="s/adr/INDEX.md">index</a>' in unverifiable
    # a fresh or stale state without a manifest cannot be vouched for
    for state in ("fresh", "stale"):
        text = current_view.banner(
            situations,
            _freshness(situations, state, "x"),
            href=lambda s: s,
            index_target="docs/adr/INDEX.md",
        )
        assert 'data-adr-current="unverifiable"' in text
    draft = current_view.draft_banner("p-<1>", 2, "planned", ["a <b>"])
    assert '<div class="admonition info adr-banner adr-banner--current-draft' in draft
    assert (
        "DRAFT: unpublished summary plan p-&lt;1&gt;" in draft and "<li>a &lt;b&gt;</li>" in draft
    )


# --------------------------------------------------------------------------- no files


def _file_reads(path: Path) -> list[str]:
    """Calls in ``path`` that open or list files."""
    reads = {"open", "read_text", "read_bytes", "iterdir", "glob", "rglob", "load", "stat"}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in reads:
                found.append(f"{path.name}:{node.lineno} {name}()")
    return found


@pytest.mark.parametrize("module", sorted(p.name for p in VIEWS.glob("*.py")))
def test_views_read_no_file(module: str) -> None:
    assert not _file_reads(VIEWS / module)


def test_the_file_check_sees_a_read() -> None:
    # the check above would pass on anything if it could not see a read
    assert _file_reads(Path(__file__))
    assert _file_reads(VIEWS.parent / "viewstate.py")  # the INDEX on disk, read outside views/
