"""The showcase on the project's own site (docs/showcase.md, site_src/showcase/).

The project's site is built once per module from a copy of mkdocs.yml, docs/ and
site_src/showcase/; each banner kind is looked up on the page of the record that shows it,
with its exact text. The CURRENT views are checked with the real CLI (one stale, one
fresh), the hook that keeps ``--strict`` green is shown to lower exactly the two expected
warnings, and one Chromium screenshot per banner kind goes to test-artifacts/.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from .conftest import REPO, copy_project_site, run_cli, run_mkdocs

SHOWCASE = REPO / "site_src" / "showcase"
ARTIFACTS = REPO / "test-artifacts"

#: banner kind -> (page in the site, banner class, exact text of the banner)
BANNERS: dict[str, tuple[str, str, str]] = {
    "superseded": (
        "showcase/parcelwise/tracking/0006-store-tracking-events-in-postgresql",
        "superseded",
        "Superseded This decision is no longer in effect. It was superseded by PW-0011 "
        "Store tracking events in ClickHouse, the decision in effect now.",
    ),
    "replacement-proposed": (
        "showcase/parcelwise/dispatch/0008-plan-routes-with-or-tools",
        "replacement-proposed",
        "A replacement is proposed A replacement is proposed: PW-0013 Buy route planning "
        "from a vendor (proposed). This decision stays in effect until a successor is accepted.",
    ),
    "partial": (
        "showcase/parcelwise/tracking/0004-push-tracking-events-to-shops-by-webhook",
        "partially-superseded",
        "Partially superseded Partially superseded by PW-0012 Sign webhooks with a key per "
        "shop: parts of this decision were replaced; the rest stays in effect.",
    ),
    "units-partial": (
        "showcase/parcelwise/platform/0002-platform-baseline",
        "units-partial",
        "Partly out of effect Some decision units of this record are no longer in effect: "
        "PW-0002#D2 is superseded by PW-0009 Move domain events to NATS JetStream. The "
        "others still are.",
    ),
    "deprecated": (
        "showcase/parcelwise/platform/0016-send-alerts-by-sms",
        "deprecated",
        "Deprecated This decision is no longer in effect.",
    ),
    "rejected": (
        "showcase/billing/BIL-0003-charge-shops-in-their-own-currency",
        "rejected",
        "Rejected This decision was considered and rejected; it was never in effect.",
    ),
    "archived": (
        "showcase/parcelwise/archive/dispatch/0003-assign-couriers-to-the-nearest-depot",
        "archived",
        "Archived This record was moved to the archive. It stays in the log, the INDEX and "
        "the graphs for its history.",
    ),
    "proposed": (
        "showcase/parcelwise/dispatch/0013-buy-route-planning-from-a-vendor",
        "proposed",
        "Proposed This decision is proposed and not in effect.",
    ),
    "review": (
        "showcase/parcelwise/platform/0010-stay-in-one-region",
        "review",
        "Review overdue Review-by date 2026-06-30 has passed",  # (N days ago). Review the ...
    ),
    "translation": (
        "showcase/parcelwise/zh/dispatch/0007-assign-couriers-by-delivery-zone",
        "translation",
        "",
    ),
    "current-stale": (
        "showcase/parcelwise/CURRENT",
        "current-stale",
        "Stale: the records changed since this view was published",
    ),
    "current-fresh": (
        "showcase/billing/CURRENT",
        "current-fresh",
        "Current: this view matches its sources Verified against 3 sources",
    ),
}


class Project:
    def __init__(self, folder: Path, log: str) -> None:
        self.folder = folder
        self.log = log

    def html(self, stem: str) -> str:
        return (self.folder / "site" / stem / "index.html").read_text("utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    folder = copy_project_site(tmp_path_factory.mktemp("showcase") / "project")
    proc = run_mkdocs("build", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return Project(folder, proc.stdout + proc.stderr)


def banners(html: str) -> dict[str, str]:
    """Each record banner of a page: kind (the class after ``adr-banner--``) -> its text."""
    out: dict[str, str] = {}
    for m in re.finditer(
        r'<div class="admonition [^"]*\badr-banner--([a-z-]+)[^"]*"[^>]*>(.*?)</div>', html, re.S
    ):
        text = " ".join(re.sub(r"<[^>]+>", " ", m.group(2)).split())
        out[m.group(1)] = re.sub(r" ([.,:;)])", r"\1", text)  # no gap where a link ends
    return out


# --------------------------------------------------------------------------- pages


@pytest.mark.parametrize("kind", sorted(BANNERS))
def test_each_banner_kind_is_live_on_its_showcase_page(project: Project, kind: str) -> None:
    stem, css, text = BANNERS[kind]
    found = banners(project.html(stem))
    assert css in found, f"{stem} has banners {sorted(found)}, not {css}"
    assert found[css].startswith(text), found[css]


def test_archived_records_also_keep_their_status_banner(project: Project) -> None:
    rejected = banners(
        project.html("showcase/parcelwise/archive/tracking/0005-poll-carrier-apis-every-minute")
    )
    assert sorted(rejected) == ["archived", "rejected"]
    superseded = banners(project.html(BANNERS["archived"][0]))
    assert sorted(superseded) == ["archived", "superseded"]
    assert "superseded by PW-0007 Assign couriers by delivery zone" in superseded["superseded"]


def test_records_in_effect_carry_no_banner(project: Project) -> None:
    for stem in (
        "showcase/parcelwise/platform/0001-record-architecture-decisions",
        "showcase/parcelwise/tracking/0011-store-tracking-events-in-clickhouse",
        "showcase/billing/BIL-0001-invoice-shops-monthly",
    ):
        assert banners(project.html(stem)) == {}, stem


def test_review_banner_reads_as_two_sentences(project: Project) -> None:
    review = banners(project.html(BANNERS["review"][0]))["review"]
    assert re.fullmatch(
        r"Review overdue Review-by date 2026-06-30 has passed \(\d+ days ago\)\. Review the "
        r"decision, then move review-by forward or supersede it\.",
        review,
    ), review


def test_stale_banner_names_the_edited_record(project: Project) -> None:
    stale = banners(project.html("showcase/parcelwise/CURRENT"))["current-stale"]
    assert "PW-0014 was modified" in stale
    assert "current-stale" not in banners(project.html("showcase/billing/CURRENT"))


def test_relations_amends_extends_and_translation_are_linked(project: Project) -> None:
    zone = project.html("showcase/parcelwise/dispatch/0007-assign-couriers-by-delivery-zone")
    assert re.search(r"Amended by:</span>\s*<a [^>]*href=\"\.\./0014-let-depots", zone)
    assert 'href="../../zh/dispatch/0007-assign-couriers-by-delivery-zone/"' in zone
    store = project.html("showcase/parcelwise/tracking/0011-store-tracking-events-in-clickhouse")
    assert re.search(r"Extended by:</span>\s*<a [^>]*href=\"\.\./0015-keep-raw", store)


def test_index_lists_tags_deciders_and_the_proposed_successor(project: Project) -> None:
    index = project.html("showcase/parcelwise/INDEX")
    row = re.search(r"<tr [^>]*>(?:(?!</tr>).)*PW-0008(?:(?!</tr>).)*</tr>", index, re.S)
    assert row is not None
    cells = " ".join(re.sub(r"<[^>]+>", " ", row.group(0)).split())
    assert cells == (
        "PW-0008 Plan courier routes with OR-Tools accepted 2024-07-10 routing "
        "Maren Holt, Ola Nilsen PW-0013 (proposed)"
    )


def test_build_log_lowers_exactly_the_two_expected_problems(project: Project) -> None:
    expected = [line for line in project.log.splitlines() if "(expected in the showcase)" in line]
    assert len(expected) == 2, expected
    assert all(line.startswith("INFO") for line in expected)
    assert any("parcelwise/CURRENT.md:1: ADR011" in line for line in expected)
    assert any("0010-stay-in-one-region.md: ADR017" in line for line in expected)
    warned = [
        line
        for line in project.log.splitlines()
        if line.startswith("WARNING") and "showcase" in line
    ]
    assert warned == []


# --------------------------------------------------------------------------- CLI


@pytest.mark.parametrize("config", ["site_src/showcase/mkdocs.yml", "mkdocs.yml"])
def test_check_reports_one_stale_and_one_fresh_current(tmp_path: Path, config: str) -> None:
    folder = copy_project_site(tmp_path / "project")
    proc = run_cli("-f", config, "check", "--json", cwd=folder)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    roots = {
        r["root"].rsplit("/", 1)[-1]: r["current"]
        for r in json.loads(proc.stdout)["views"]["roots"]
    }
    assert roots["parcelwise"]["state"] == "stale"
    assert [(r["kind"], r["ids"]) for r in roots["parcelwise"]["reasons"]] == [
        ("modified", ["PW-0014"])
    ]
    assert roots["billing"]["state"] == "fresh"
    assert roots["billing"]["detail"].startswith("verified against 3 sources")


def test_showcase_builds_strict_on_its_own_and_fails_without_its_hook(tmp_path: Path) -> None:
    folder = shutil.copytree(
        SHOWCASE, tmp_path / "showcase", ignore=shutil.ignore_patterns(".mkdocs-adr", "site")
    )
    proc = run_mkdocs("build", "--strict", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    config = folder / "mkdocs.yml"
    config.write_text(config.read_text("utf-8").replace("hooks:\n  - hooks.py\n", ""), "utf-8")
    proc = run_mkdocs("build", "--strict", cwd=folder)
    assert proc.returncode == 1
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("WARNING")]
    codes = sorted(re.search(r" (ADR\d{3}) ", line).group(1) for line in warnings)  # type: ignore[union-attr]
    assert codes == ["ADR011", "ADR017"], warnings


@pytest.fixture(scope="module")
def hook() -> Iterator[ModuleType]:
    """site_src/showcase/hooks.py, loaded as MkDocs loads it; its filter is taken off the
    plugin's logger again afterwards, so no other test of this process sees it."""
    spec = importlib.util.spec_from_file_location("showcase_hooks", SHOWCASE / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    logger = logging.getLogger(module.LOGGER)
    try:
        yield module
    finally:
        for f in [f for f in logger.filters if isinstance(f, module.ExpectedInShowcase)]:
            logger.removeFilter(f)


@pytest.mark.parametrize(
    ("message", "lowered"),
    [
        (
            "mkdocs_adr: site_src/showcase/docs/parcelwise/CURRENT.md:1: ADR011 stale",
            True,
        ),
        ("mkdocs_adr: docs/parcelwise/platform/0010-stay-in-one-region.md: ADR017 review-by", True),
        # the project's own CURRENT, another code on a showcase file, another showcase file
        ("mkdocs_adr: docs/adr/CURRENT.md:1: ADR011 CURRENT.md is stale", False),
        ("mkdocs_adr: site_src/showcase/docs/parcelwise/CURRENT.md:1: ADR012 manifest", False),
        (
            "mkdocs_adr: site_src/showcase/docs/billing/CURRENT.md:1: ADR011 CURRENT.md is stale",
            False,
        ),
        ("mkdocs_adr: elsewhere/docs/parcelwise/CURRENT.md:1: ADR011 CURRENT.md is stale", False),
    ],
)
def test_hook_lowers_only_the_expected_pairs(hook: ModuleType, message: str, lowered: bool) -> None:
    assert any(
        isinstance(f, hook.ExpectedInShowcase) for f in logging.getLogger(hook.LOGGER).filters
    )
    record = logging.LogRecord(hook.LOGGER, logging.WARNING, __file__, 1, message, (), None)
    assert hook.ExpectedInShowcase().filter(record)
    assert record.levelno == (logging.INFO if lowered else logging.WARNING)
    assert record.getMessage().startswith("(expected in the showcase) ") is lowered


def test_every_showcase_record_is_in_the_nav_and_on_the_showcase_page() -> None:
    nav = yaml.safe_load((REPO / "mkdocs.yml").read_text("utf-8"))["nav"]
    showcase = next(item["Showcase"] for item in nav if "Showcase" in item)
    listed = {p for section in showcase[1:] for entries in section.values() for p in entries}
    page = (REPO / "docs" / "showcase.md").read_text("utf-8")
    docs = SHOWCASE / "docs"
    records = [
        p.relative_to(docs).as_posix()
        for p in sorted(docs.rglob("*.md"))
        if p.name not in {"README.md", "CURRENT.md", "INDEX.md", "index.md"}
        and "/zh/" not in p.as_posix()
    ]
    assert len(records) == 19
    for rec in records:
        assert f"showcase/{rec}" in listed, rec
        assert f"](showcase/{rec})" in page, rec


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def served(project: Project) -> Iterator[str]:
    from .test_browser_site import http_server

    with http_server(project.folder / "site") as base:
        yield base


@pytest.mark.slow
@pytest.mark.browser
def test_screenshot_each_banner_kind(project: Project, served: str) -> None:
    from .test_browser_site import Browser

    ARTIFACTS.mkdir(exist_ok=True)
    browser = Browser()
    try:
        context: Any = browser.get().new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.route(
            "**/*", lambda r: r.continue_() if r.request.url.startswith(served) else r.abort()
        )
        for kind, (stem, css, text) in sorted(BANNERS.items()):
            page.goto(f"{served}/{stem}/")
            banner = page.locator(f".adr-banner--{css}").first
            assert banner.is_visible(), kind
            assert " ".join(banner.inner_text().split()).startswith(text.split(" ", 1)[0])
            banner.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"showcase-{kind}.png"))
        context.close()
    finally:
        browser.close()
