"""llms.txt and index.json: the agent files a real ``mkdocs build`` publishes.

A shop team's log in the shapes real teams write (adr-tools' Nygard records, one with
frontmatter): accepted records, a superseded one and its successor, a rejected one, a
proposal, a record without a status, an archived one and a record whose title carries
HTML and a terminal escape. The files are checked line by line, against the shipped
JSON Schema and against the log itself; two builds give the same bytes; and Chromium
opens both from the INDEX page of the served site.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import load
from mkdocs_adr.site import index_json_schema
from mkdocs_adr.views import indexjson, llms

from .conftest import REPO, copy_project_site

ESC = "\x1b"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def nygard(number: int, title: str, status: str, decision: str, date: str = "2026-03-01") -> str:
    return (
        f"# {number}. {title}\n\nDate: {date}\n\n## Status\n\n{status}\n\n"
        f"## Context\n\nThe shop grew past one team.\n\n## Decision\n\n{decision}\n\n"
        "## Consequences\n\nWe will see.\n"
    )


def shop_log(project: Path, *, options: str = "", extra: str = "") -> Path:
    """The fixture project: mkdocs.yml and docs/adr/ of a small shop's log."""
    _write(
        project / "mkdocs.yml",
        "site_name: Shop platform\n"
        f"{extra}"
        "theme:\n  name: mkdocs\n"
        "plugins:\n  - search\n  - adr" + (f":\n{options}" if options else "") + "\n",
    )
    adr = project / "docs" / "adr"
    _write(project / "docs" / "index.md", "# Shop platform\n\nSee the [decisions](adr/INDEX.md).\n")
    _write(
        adr / "0001-record-architecture-decisions.md",
        nygard(
            1,
            "Record architecture decisions",
            "Accepted",
            "We will use Architecture Decision Records, as described by Michael Nygard.",
            "2026-01-05",
        ),
    )
    _write(
        adr / "0002-use-mysql-for-orders.md",
        nygard(
            2,
            "Use MySQL for orders",
            "Superseded by [3. Use PostgreSQL for every stateful service]"
            "(0003-use-postgresql-for-every-stateful-service.md)",
            "Orders live in one MySQL 5.7 instance.",
            "2026-01-20",
        ),
    )
    _write(
        adr / "0003-use-postgresql-for-every-stateful-service.md",
        nygard(
            3,
            "Use PostgreSQL for every stateful service",
            "Accepted\n\nSupersedes [2. Use MySQL for orders](0002-use-mysql-for-orders.md)",
            "![diagram](db.png)\n\n**Scope.** Every service that keeps state runs on "
            "`PostgreSQL 15`, one schema per service. Migrations run at deploy time.",
        ),
    )
    (adr / "db.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    _write(
        adr / "0004-run-checkout-on-aws-lambda.md",
        nygard(
            4,
            "Run checkout on AWS Lambda",
            "Rejected",
            "We will not run checkout on Lambda: cold starts break the payment timeout.",
        ),
    )
    _write(
        adr / "0005-cache-sessions.md",
        nygard(
            5,
            f"Cache <img src=x onerror=alert(1)> sessions {ESC}[31min Redis{ESC}[0m",
            "Accepted",
            "Sessions are cached in Redis; see [the runbook](javascript:alert(1)) for "
            "*eviction* rules.",
        ),
    )
    _write(
        adr / "0006-publish-order-events-to-kafka.md",
        nygard(
            6,
            "Publish order events to Kafka",
            "Proposed",
            "Order events go to one Kafka topic per aggregate.",
        ),
    )
    _write(
        adr / "0007-feature-flags-in-code.md",
        "# 7. Feature flags in code\n\nDate: 2026-04-01\n\n## Decision\n\n"
        "Feature flags are constants in code, reviewed like any change.\n",
    )
    _write(
        adr / "archive" / "0000-deploy-with-fabric.md",
        "---\nstatus: deprecated\ndate: 2025-06-01\ntags: [deploy]\n---\n"
        "# Deploy with Fabric\n\n## Decision\n\nWe deploy with Fabric scripts.\n",
    )
    _write(
        adr / "0008-platform-baseline.md",
        "---\nstatus: accepted\ndate: 2026-04-10\nstyle: container\n---\n"
        "# Platform baseline\n\nThe storage and messaging every new service starts from.\n\n"
        "## D1. Use PostgreSQL as the system of record\n\nStatus: accepted\n\n"
        "Each service keeps its data in its own database.\n\n"
        "## D2. Use RabbitMQ for jobs\n\nStatus: rejected\n\nJobs would go through RabbitMQ.\n\n"
        "## D3. Use Redis for caching\n\nStatus: accepted\n\nRead-through caches use Redis.\n",
    )
    return project


def build(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = shop_log(tmp_path_factory.mktemp("shop"))
    proc = build(project)
    assert proc.returncode == 0, proc.stderr
    return project


EXPECTED_LLMS = """\
# Shop platform

> The architecture decision records (ADRs) of this site: 4 in effect, 1 proposed, \
1 with a status not recorded or not understood, 3 no longer in effect or archived.

Decisions in effect bind now; each line gives the first sentence of its decision. \
Proposals do not bind until accepted. The records under Optional are history: never \
follow them as current rules; each names what replaced it.

Every record as data: [adr/index.json](adr/index.json).

## Decisions in effect

- [ADR-0001: Record architecture decisions](adr/0001-record-architecture-decisions/): \
We will use Architecture Decision Records, as described by Michael Nygard.
- [ADR-0003: Use PostgreSQL for every stateful service]\
(adr/0003-use-postgresql-for-every-stateful-service/): \
Scope. Every service that keeps state runs on `PostgreSQL 15`, one schema per service.
- [ADR-0005: Cache &lt;img src=x onerror=alert(1)&gt; sessions in Redis]\
(adr/0005-cache-sessions/): \
Sessions are cached in Redis; see the runbook for eviction rules.
- [ADR-0008: Platform baseline](adr/0008-platform-baseline/): \
D1: Use PostgreSQL as the system of record; D3: Use Redis for caching

## Proposed

- [ADR-0006: Publish order events to Kafka](adr/0006-publish-order-events-to-kafka/): \
proposed; Order events go to one Kafka topic per aggregate.

## Status not recorded or not understood

- [ADR-0007: Feature flags in code](adr/0007-feature-flags-in-code/): \
status not recorded; Feature flags are constants in code, reviewed like any change.

## Optional

- [ADR-0000: Deploy with Fabric](adr/archive/0000-deploy-with-fabric/): \
deprecated, archived; no successor recorded
- [ADR-0002: Use MySQL for orders](adr/0002-use-mysql-for-orders/): superseded; \
replaced by [ADR-0003](adr/0003-use-postgresql-for-every-stateful-service/) \
(Use PostgreSQL for every stateful service)
- [ADR-0004: Run checkout on AWS Lambda](adr/0004-run-checkout-on-aws-lambda/): \
rejected; no successor recorded
"""


@pytest.mark.slow
def test_llms_txt_lists_decisions_in_effect_first_and_history_under_optional(
    built: Path,
) -> None:
    text = (built / "site" / "llms.txt").read_text("utf-8")
    assert text == EXPECTED_LLMS
    # llmstxt.org's shape: one H1 first, the blockquote right after it, H2 sections
    lines = text.split("\n")
    assert lines[0].startswith("# ") and lines[2].startswith("> ")
    assert [ln for ln in lines if ln.startswith("## ")][-1] == "## Optional"
    assert sum(ln.startswith("# ") for ln in lines) == 1
    # nothing of the hostile title or decision gets out raw
    assert ESC not in text and "<img" not in text and "javascript:" not in text


def _schema_validator() -> jsonschema.protocols.Validator:
    schema = index_json_schema()
    assert schema["$id"] == indexjson.SCHEMA_ID
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.mark.slow
def test_index_json_validates_against_the_shipped_schema_and_matches_the_log(
    built: Path,
) -> None:
    data = json.loads((built / "site" / "adr" / "index.json").read_text("utf-8"))
    _schema_validator().validate(data)
    assert (data["schema"], data["version"]) == ("mkdocs-adr/index", 1)
    assert data["generator"]["name"] == "mkdocs-adr"
    assert data["root"] == {
        "path": "docs/adr",
        "prefix": "ADR",
        "title": "Decisions (adr)",
        "layout": "flat",
    }
    log = load(load_from_mkdocs_yml(built / "mkdocs.yml"))
    by_id = {r["id"]: r for r in data["records"]}
    assert [r["id"] for r in data["records"]] == [f"ADR-000{n}" for n in range(9)]
    assert {rec.id: rec.path for rec in log.records} == {k: v["path"] for k, v in by_id.items()}
    for rec in log.records:
        entry = by_id[rec.id]
        assert entry["status"] == rec.status and entry["archived"] == rec.archived
        assert entry["in_effect"] == log.in_effect(rec)
        # each url, relative to index.json, is the record's published page
        page = built / "site" / "adr" / entry["url"] / "index.html"
        assert page.is_file(), entry["url"]
    assert {k for k, v in by_id.items() if v["in_effect"]} == {
        "ADR-0001",
        "ADR-0003",
        "ADR-0005",
        "ADR-0008",
    }
    assert by_id["ADR-0008"]["units"] == [
        {
            "key": key,
            "id": f"ADR-0008#{key}",
            "title": title,
            "status": status,
            "in_effect": status == "accepted",
            "successor": None,
        }
        for key, title, status in (
            ("D1", "Use PostgreSQL as the system of record", "accepted"),
            ("D2", "Use RabbitMQ for jobs", "rejected"),
            ("D3", "Use Redis for caching", "accepted"),
        )
    ]
    assert by_id["ADR-0002"]["successor"] == "ADR-0003"
    assert by_id["ADR-0002"]["succession"] == "current"
    assert by_id["ADR-0000"]["archived"] is True and by_id["ADR-0000"]["tags"] == ["deploy"]
    assert by_id["ADR-0007"]["status"] == "missing"
    assert by_id["ADR-0005"]["title"] == "Cache <img src=x onerror=alert(1)> sessions in Redis"
    assert by_id["ADR-0004"]["summary"] == (
        "We will not run checkout on Lambda: cold starts break the payment timeout."
    )
    assert by_id["ADR-0001"]["date"] == "2026-01-05"


@pytest.mark.slow
def test_the_schema_rejects_what_the_format_does_not_allow(built: Path) -> None:
    data = json.loads((built / "site" / "adr" / "index.json").read_text("utf-8"))
    validator = _schema_validator()
    for bad in (
        {**data, "version": 2},
        {**data, "records": [{**data["records"][0], "url": "javascript:alert(1)"}]},
        {**data, "records": [{**data["records"][0], "status": "valid"}]},
        {**data, "records": [{**data["records"][0], "path": "../etc/passwd"}]},
        {k: v for k, v in data.items() if k != "generator"},
    ):
        assert not validator.is_valid(bad)


@pytest.mark.slow
def test_the_index_page_links_both_files(built: Path) -> None:
    page = (built / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    line = (
        '<p class="adr-agent-files">For agents and tools: '
        '<a href="../../llms.txt"><code>llms.txt</code></a> &middot; '
        '<a href="../index.json"><code>index.json</code></a></p>'
    )
    assert line in page
    assert page.index("</h1>" + line) > 0  # right under the heading


@pytest.mark.slow
def test_two_builds_give_the_same_bytes(built: Path, tmp_path: Path) -> None:
    again = shutil.copytree(built, tmp_path / "again", ignore=shutil.ignore_patterns("site"))
    # another day, another order of files on disk: nothing of either may show
    os.utime(again / "docs" / "adr" / "0003-use-postgresql-for-every-stateful-service.md")
    proc = build(again)
    assert proc.returncode == 0, proc.stderr
    for name in ("llms.txt", "adr/index.json"):
        first = (built / "site" / name).read_bytes()
        assert first and (again / "site" / name).read_bytes() == first


@pytest.mark.slow
def test_site_url_makes_every_link_absolute(tmp_path: Path) -> None:
    project = shop_log(tmp_path / "p", extra="site_url: https://docs.shop.example/platform/\n")
    proc = build(project)
    assert proc.returncode == 0, proc.stderr
    text = (project / "site" / "llms.txt").read_text("utf-8")
    base = "https://docs.shop.example/platform/"
    assert f"Every record as data: [adr/index.json]({base}adr/index.json)." in text
    assert (
        f"- [ADR-0001: Record architecture decisions]({base}adr/0001-record-architecture-"
        "decisions/): We will use Architecture Decision Records, as described by Michael Nygard."
    ) in text
    assert "](adr/" not in text
    data = json.loads((project / "site" / "adr" / "index.json").read_text("utf-8"))
    _schema_validator().validate(data)
    assert {r["url"] for r in data["records"]} == {
        f"{base}adr/{r['path'].removeprefix('docs/adr/').removesuffix('.md')}/"
        for r in data["records"]
    }


@pytest.mark.slow
def test_agent_files_false_publishes_neither(tmp_path: Path) -> None:
    project = shop_log(tmp_path / "p", options="      agent_files: false")
    proc = build(project)
    assert proc.returncode == 0, proc.stderr
    assert not (project / "site" / "llms.txt").exists()
    assert not (project / "site" / "adr" / "index.json").exists()
    page = (project / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    assert "adr-agent-files" not in page


@pytest.mark.slow
def test_a_llms_txt_of_the_docs_is_published_as_it_is(tmp_path: Path) -> None:
    project = shop_log(tmp_path / "p")
    _write(project / "docs" / "llms.txt", "# Written by hand\n")
    proc = build(project)
    assert proc.returncode == 0, proc.stderr
    assert (project / "site" / "llms.txt").read_text("utf-8") == "# Written by hand\n"
    assert "llms.txt: a file of the docs is published here; agent_files leaves it" in proc.stderr
    assert (project / "site" / "adr" / "index.json").is_file()
    page = (project / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    assert 'href="../../llms.txt"' not in page and 'href="../index.json"' in page


# ------------------------------------------------------------------ pure parts


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("We use Postgres. It is fine.", "We use Postgres."),
        ("## Sub\n\n![x](a.png)\n\nChosen option: [Kafka](k.md), because it scales.", None),
        ("* **Use** `a.b()` for *all* calls. Then more.", "Use `a.b()` for all calls."),
        ("```\ncode. here\n```\n\nAfter the fence, prose.", "After the fence, prose."),
        ("<div>html</div>\n\n| a | b |\n\nText without a stop", "Text without a stop"),
        ("Option 3. With the second sentence read too. And not this.", None),
        ("", None),
        ("![only](a picture.png)", None),
    ],
)
def test_first_sentence(text: str, sentence: str | None) -> None:
    expected = {
        "## Sub\n\n![x](a.png)\n\nChosen option: [Kafka](k.md), because it scales.": (
            "Chosen option: Kafka, because it scales."
        ),
        "Option 3. With the second sentence read too. And not this.": (
            "Option 3. With the second sentence read too."
        ),
    }.get(text, sentence)
    assert llms.first_sentence(text) == expected


def test_a_long_decision_is_cut_at_a_word() -> None:
    found = llms.first_sentence("word " * 200)
    assert found is not None and found.endswith("word…") and len(found) <= llms.SUMMARY_MAX + 1


def test_hostile_text_is_read_in_bounded_time() -> None:
    start = time.perf_counter()
    for text in ("[" * 1_000_000, "x" + "(" * 1_000_000, "[a](" + "(" * 100_000, "`" * 500_000):
        llms.first_sentence(text)
    assert time.perf_counter() - start < 2


def test_record_text_is_one_line_of_escaped_markdown() -> None:
    assert llms.text("Bidi \u202e \x85 \x1b[2Jx\nnext [a](b) *c* <i>") == (
        "Bidi &lt;U+202E&gt; x next \\[a\\](b) \\*c\\* &lt;i&gt;"
    )
    assert llms.prose("use `<b>` and <b>") == "use `<b>` and &lt;b&gt;"


def test_a_link_that_would_run_code_is_never_written() -> None:
    assert llms.link("x", "javascript:alert(1)") == "x"
    assert llms.link("x", " JaVa&#x73;cript:alert(1)") == "x"
    assert llms.link("x", "data:text/html,hi") == "x"
    assert llms.link("x", "javascript:x/") == "x"
    assert llms.link("x", "a b(1)/") == "[x](a%20b%281%29/)"
    assert llms.link("x", "https://h.example/a/") == "[x](https://h.example/a/)"
    assert llms.index_line([llms.Link("l", "javascript:alert(1)")]) == ""


# -------------------------------------------------------------- real sites


@pytest.mark.slow
def test_the_projects_own_site_publishes_both(tmp_path: Path) -> None:
    folder = copy_project_site(tmp_path / "project")
    # --strict is test_site_build's: it also fails while INDEX or CURRENT lag a new record
    proc = build(folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (folder / "site" / "llms.txt").read_text("utf-8")
    assert text.startswith("# mkdocs-adr\n\n> The architecture decision records (ADRs) of this")
    assert "\n## Decisions in effect\n\n- [ADR-0001: Record architecture decisions]" in text
    data = json.loads((folder / "site" / "adr" / "index.json").read_text("utf-8"))
    _schema_validator().validate(data)
    assert len(data["records"]) == len(list((REPO / "docs" / "adr").glob("0*.md")))


@pytest.mark.slow
@pytest.mark.browser
def test_chromium_opens_both_from_the_index_page(built: Path) -> None:
    from .test_browser_site import ARTIFACTS, Browser, http_server

    browser = Browser()
    try:
        with http_server(built / "site") as base:
            page = browser.get().new_page()
            page.route(
                "**/*",
                lambda route: (
                    route.continue_() if route.request.url.startswith(base) else route.abort()
                ),
            )
            page.goto(f"{base}/adr/INDEX/")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "agents-index-line.png"))
            line = page.locator("p.adr-agent-files")
            assert line.inner_text() == "For agents and tools: llms.txt · index.json"

            with page.expect_navigation():
                line.get_by_role("link", name="llms.txt").click()
            assert page.url == f"{base}/llms.txt"
            shown = page.locator("body").inner_text()
            assert shown.strip() == EXPECTED_LLMS.strip()
            page.screenshot(path=str(ARTIFACTS / "agents-llms-txt.png"))

            page.go_back()
            with page.expect_navigation():
                page.locator("p.adr-agent-files").get_by_role("link", name="index.json").click()
            assert page.url == f"{base}/adr/index.json"
            data: Any = json.loads(page.locator("body").inner_text())
            written = json.loads((built / "site" / "adr" / "index.json").read_text("utf-8"))
            assert data == written
            _schema_validator().validate(data)
            page.screenshot(path=str(ARTIFACTS / "agents-index-json.png"))
            page.close()
    finally:
        browser.close()


@pytest.mark.slow
def test_each_root_gets_its_index_json_at_its_url_and_one_llms_txt_lists_both(
    tmp_path: Path,
) -> None:
    project = tmp_path / "two"
    _write(
        project / "mkdocs.yml",
        "site_name: Two roots\nuse_directory_urls: false\nplugins:\n  - adr:\n      roots:\n"
        "        - ../doc/adr\n        - {path: services/pay/adr, prefix: PAY, title: Payments}\n",
    )
    _write(project / "docs" / "index.md", "# Home\n")
    _write(
        project / "doc" / "adr" / "0001-record-architecture-decisions.md",
        nygard(1, "Record architecture decisions", "Accepted", "We keep ADRs in doc/adr."),
    )
    _write(
        project / "docs" / "services" / "pay" / "adr" / "0001-use-stripe.md",
        "---\nstatus: accepted\n---\n# Use Stripe\n\n## Decision\n\nCards go through Stripe.\n",
    )
    proc = build(project)
    assert proc.returncode == 0, proc.stderr
    site = project / "site"
    assert (site / "llms.txt").read_text("utf-8") == (
        "# Two roots\n\n"
        "> The architecture decision records (ADRs) of this site: 2 in effect.\n\n"
        "Decisions in effect bind now; each line gives the first sentence of its decision. "
        "Proposals do not bind until accepted. The records under Optional are history: never "
        "follow them as current rules; each names what replaced it.\n\n"
        "Every record as data: [doc/adr/index.json](doc/adr/index.json), "
        "[services/pay/adr/index.json](services/pay/adr/index.json).\n\n"
        "## Decisions in effect\n\n"
        "- [ADR-0001: Record architecture decisions]"
        "(doc/adr/0001-record-architecture-decisions.html): We keep ADRs in doc/adr.\n"
        "- [PAY-0001: Use Stripe](services/pay/adr/0001-use-stripe.html): "
        "Cards go through Stripe.\n"
    )
    validator = _schema_validator()
    for folder, rid, url in (
        ("doc/adr", "ADR-0001", "0001-record-architecture-decisions.html"),
        ("services/pay/adr", "PAY-0001", "0001-use-stripe.html"),
    ):
        data = json.loads((site / folder / "index.json").read_text("utf-8"))
        validator.validate(data)
        assert [(r["id"], r["url"]) for r in data["records"]] == [(rid, url)]
        assert (site / folder / url).is_file()
        page = (site / folder / "INDEX.html").read_text("utf-8")
        depth = "../" * folder.count("/") + "../"
        assert f'<a href="{depth}llms.txt">' in page and '<a href="index.json">' in page
    assert json.loads((site / "services/pay/adr/index.json").read_text("utf-8"))["root"] == {
        "path": "docs/services/pay/adr",
        "prefix": "PAY",
        "title": "Payments",
        "layout": "flat",
    }
