"""Roots outside ``docs_dir`` (issue 11, item 8): adr-tools' ``doc/adr`` beside ``docs/``
and log4brains' ``packages/*/docs/adr``, read by the real CLI and published by a real
``mkdocs build --strict`` under a URL prefix."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr.config import Config, RootConfig, from_options
from mkdocs_adr.errors import ConfigError
from mkdocs_adr.paths import UnsafePath, climbing, default_mount, mounted_file, site_src

from .conftest import LOGS, run_cli, run_mkdocs, tree_digest

ROOTS = LOGS / "roots"
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
_HREF = re.compile(r'href="([^"#]*)(?:#[^"]*)?"')


def project(tmp_path: Path, name: str) -> Path:
    dest = tmp_path / name
    shutil.copytree(ROOTS / name, dest)
    return dest


def build(folder: Path) -> subprocess.CompletedProcess[str]:
    return run_mkdocs("build", "--strict", cwd=folder, env=ENV)


def built(folder: Path) -> Path:
    proc = build(folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return folder / "site"


def page(site: Path, url: str) -> str:
    return (site / url / "index.html").read_text(encoding="utf-8")


def links_of(site: Path, url: str) -> dict[str, str]:
    """Each link text on a page (its main column) -> the site path its href reaches."""
    html = page(site, url)
    main = html[html.find('role="main"') :]
    out = {}
    for m in re.finditer(r'<a [^>]*?href="([^"]*)"[^>]*>([^<]+)</a>', main):
        href = m.group(1).split("#")[0]
        if href.startswith(("http:", "https:")):
            continue
        target = os.path.normpath(os.path.join(url, href)) if href else url
        out[m.group(2).strip()] = target
    return out


def assert_local_links_resolve(site: Path) -> None:
    """Every relative href of every built page names a file the build wrote."""
    for html in site.rglob("*.html"):
        base = html.parent
        for href in _HREF.findall(html.read_text(encoding="utf-8")):
            if not href or re.match(r"[a-z]+:", href) or href.startswith("/"):
                continue
            target = (base / href).resolve()
            if href.endswith("/") or target.is_dir():
                target = target / "index.html"
            assert target.exists(), f"{html.relative_to(site)}: {href} -> missing {target}"


def plan_json(folder: Path) -> dict[str, Any]:
    proc = run_cli("plan", "--json", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def reading(data: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    return {
        r["id"]: (
            r["path"],
            r["status"],
            r["title"],
            r["date"],
            sorted((x["kind"], x["target"]) for x in r["relations"]),
        )
        for r in data["records"]
    }


# ------------------------------------------------------------------ path rules


@pytest.mark.parametrize(
    ("typed", "normal", "mount"),
    [
        ("../doc/adr", "../doc/adr", "doc/adr"),
        ("./../doc//adr/", "../doc/adr", "doc/adr"),
        ("..\\doc\\adr", "../doc/adr", "doc/adr"),
        ("../packages/app/docs/adr", "../packages/app/docs/adr", "packages/app/docs/adr"),
        ("adr/../../doc/adr", "../doc/adr", "doc/adr"),
        ("adr", "adr", "adr"),
    ],
)
def test_a_root_typed_relative_to_docs_keeps_its_leading_dotdots(
    typed: str, normal: str, mount: str
) -> None:
    assert climbing(typed) == normal
    assert default_mount(typed) == mount


@pytest.mark.parametrize("typed", ["/srv/adr", "C:/adr", "~/adr", "../~x/adr", "a\x00b"])
def test_an_absolute_or_home_root_is_refused_by_the_path_rule(typed: str) -> None:
    with pytest.raises(UnsafePath):
        climbing(typed)


def test_site_src_puts_a_mounted_file_under_its_url_and_back() -> None:
    mounts = [("doc/adr", "decisions")]
    assert site_src("docs/guide.md", "docs", mounts) == "guide.md"
    assert site_src("doc/adr/0001-x.md", "docs", mounts) == "decisions/0001-x.md"
    assert site_src("doc/other/x.md", "docs", mounts) is None
    assert site_src("src/app.py", "docs", mounts) is None
    assert mounted_file("decisions/0001-x.md", mounts) == "doc/adr/0001-x.md"
    assert mounted_file("guide.md", mounts) is None
    nested = [("doc/adr", "decisions"), ("doc/adr/payments", "doc/adr/payments")]
    assert site_src("doc/adr/payments/0001-x.md", "docs", nested) == "doc/adr/payments/0001-x.md"
    assert site_src("doc/adr/0001-x.md", "docs", nested) == "decisions/0001-x.md"
    assert mounted_file("doc/adr/payments/0001-x.md", nested) == "doc/adr/payments/0001-x.md"


# ------------------------------------------------------------------ config


def _config(folder: Path, roots: Any) -> Config:
    return from_options(
        {"roots": roots}, project_dir=folder, docs_dir=folder / "docs", config_file=None
    )


def test_a_glob_root_becomes_one_root_per_folder_it_matches(tmp_path: Path) -> None:
    folder = project(tmp_path, "packages")
    config = _config(folder, ["adr", {"path": "../packages/*/docs/adr", "prefix": "PKG"}])
    assert config.roots == (
        RootConfig("adr"),
        RootConfig("../packages/catalog/docs/adr", prefix="PKG"),
        RootConfig("../packages/checkout/docs/adr", prefix="PKG"),
    )
    assert config.mounts == (
        ("packages/catalog/docs/adr", "packages/catalog/docs/adr"),
        ("packages/checkout/docs/adr", "packages/checkout/docs/adr"),
    )


@pytest.mark.parametrize(
    ("roots", "message"),
    [
        (["/srv/decisions"], "root '/srv/decisions' is absolute"),
        (["../../outside-project"], "root '../../outside-project' leaves the project folder"),
        (["../services/*/adr"], "root pattern '../services/*/adr' matches no folder"),
        (
            [{"path": "../packages/*/docs/adr", "url": "pkg"}],
            "root '../packages/*/docs/adr' is a pattern and has a url",
        ),
        (
            [{"path": "../packages/checkout/docs/adr", "url": "adr"}],
            "would be published at 'adr', which docs_dir already has",
        ),
        ([{"path": "adr", "url": "decisions"}], "root 'adr' is inside docs_dir and has a url"),
        ([{"path": "../doc/adr", "url": "../x"}], "root '../doc/adr' has url '../x'"),
        ([{"path": "..", "url": "all"}], "root '..' holds docs_dir"),
        (
            [{"path": "../packages", "url": "p"}, {"path": "../packages/catalog", "url": "p"}],
            "roots '../packages' and '../packages/catalog' would share the site path 'p'",
        ),
    ],
)
def test_roots_that_cannot_be_published_are_config_errors(
    tmp_path: Path, roots: list[Any], message: str
) -> None:
    folder = project(tmp_path, "packages")
    with pytest.raises(ConfigError) as err:
        _config(folder, roots)
    assert message in err.value.format()


def test_a_root_linked_out_of_the_project_is_refused(tmp_path: Path) -> None:
    folder = project(tmp_path, "adrtools")
    (tmp_path / "elsewhere").mkdir()
    (folder / "decisions").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ConfigError) as err:
        _config(folder, ["../decisions"])
    assert "root '../decisions' resolves outside the project folder" in err.value.format()


@pytest.mark.parametrize(
    ("root", "message"),
    [
        ("/srv/decisions", "root '/srv/decisions' is absolute"),
        ("../../outside-project", "root '../../outside-project' leaves the project folder"),
    ],
)
def test_the_cli_and_the_build_refuse_a_root_outside_the_project(
    tmp_path: Path, root: str, message: str
) -> None:
    folder = project(tmp_path, "adrtools")
    (tmp_path / "outside-project").mkdir()
    cfg = folder / "mkdocs.yml"
    cfg.write_text(
        cfg.read_text(encoding="utf-8").replace("[../doc/adr]", f"['{root}']"), encoding="utf-8"
    )
    proc = run_cli("plan", cwd=folder)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr
    proc = build(folder)
    assert proc.returncode != 0
    assert message in proc.stdout + proc.stderr


# ------------------------------------------------------------------ adr-tools: doc/adr


ADRTOOLS = {
    "ADR-0001": (
        "doc/adr/0001-record-architecture-decisions.md",
        "accepted",
        "Record architecture decisions",
        "2023-11-06",
        [],
    ),
    "ADR-0002": (
        "doc/adr/0002-keep-ledger-entries-in-sqlite.md",
        "superseded",
        "Keep ledger entries in SQLite",
        "2023-11-20",
        [("superseded-by", "ADR-0003")],
    ),
    "ADR-0003": (
        "doc/adr/0003-keep-ledger-entries-in-postgresql.md",
        "accepted",
        "Keep ledger entries in PostgreSQL",
        "2024-02-14",
        [("supersedes", "ADR-0002")],
    ),
}


def test_adrtools_log_beside_docs_is_read_by_plan_and_check(tmp_path: Path) -> None:
    folder = project(tmp_path, "adrtools")
    data = plan_json(folder)
    assert reading(data) == ADRTOOLS
    assert data["problems"] == []
    proc = run_cli("check", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "INDEX    doc/adr/INDEX.md: absent" in proc.stdout


def test_adrtools_context_follows_the_succession_in_doc_adr(tmp_path: Path) -> None:
    folder = project(tmp_path, "adrtools")
    proc = run_cli("context", "ADR-0002", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ADR-0002 is superseded; current successor ADR-0003" in proc.stdout
    assert "doc/adr/0003-keep-ledger-entries-in-postgresql.md" in proc.stdout
    proc = run_cli("find", "--topic", "ledger", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "[1] ADR-0003  accepted  Keep ledger entries in PostgreSQL" in proc.stdout


def test_adrtools_site_publishes_doc_adr_under_its_path(tmp_path: Path) -> None:
    folder = project(tmp_path, "adrtools")
    before = tree_digest(folder / "doc")
    site = built(folder)
    # nothing was written beside the records
    assert tree_digest(folder / "doc") == before
    assert not (folder / "docs" / "doc").exists()
    old = page(site, "doc/adr/0002-keep-ledger-entries-in-sqlite")
    assert "adr-banner--superseded" in old
    assert links_of(site, "doc/adr/0002-keep-ledger-entries-in-sqlite")[
        "3. Keep ledger entries in PostgreSQL"
    ] == ("doc/adr/0003-keep-ledger-entries-in-postgresql")
    new = links_of(site, "doc/adr/0003-keep-ledger-entries-in-postgresql")
    # written relative to the file on disk (../../docs/guide.md#backups): pointed at the page
    assert new["operating guide"] == "guide"
    assert "../../../guide/#backups" in page(site, "doc/adr/0003-keep-ledger-entries-in-postgresql")
    index = links_of(site, "doc/adr/INDEX")
    assert {k: v for k, v in index.items() if k.startswith("ADR-")} == {
        "ADR-0001": "doc/adr/0001-record-architecture-decisions",
        "ADR-0002": "doc/adr/0002-keep-ledger-entries-in-sqlite",
        "ADR-0003": "doc/adr/0003-keep-ledger-entries-in-postgresql",
    }
    home = links_of(site, ".")
    assert home["decision log"] == "doc/adr/INDEX"
    assert home["ADR 1"] == "doc/adr/0001-record-architecture-decisions"  # by its site path
    assert home["ADR 3"] == "doc/adr/0003-keep-ledger-entries-in-postgresql"  # by its disk path
    assert_local_links_resolve(site)


def test_adrtools_new_writes_into_doc_adr_and_the_site_shows_it(tmp_path: Path) -> None:
    folder = project(tmp_path, "adrtools")
    docs = tree_digest(folder / "docs")
    proc = run_cli("new", "Use", "X", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "doc/adr/0004-use-x.md"
    text = (folder / "doc/adr/0004-use-x.md").read_text(encoding="utf-8")
    assert text.startswith("# 4. Use X\n")
    assert "\n## Status\n\nProposed\n" in text
    assert tree_digest(folder / "docs") == docs
    site = built(folder)
    assert "adr-banner--proposed" in page(site, "doc/adr/0004-use-x")


def test_adrtools_supersede_and_archive_keep_every_link_working(tmp_path: Path) -> None:
    folder = project(tmp_path, "adrtools")
    proc = run_cli("new", "--status", "accepted", "Write", "decisions", "in", "MADR", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = run_cli("supersede", "ADR-0001", "--by", "ADR-0004", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    first = (folder / "doc/adr/0001-record-architecture-decisions.md").read_text(encoding="utf-8")
    link = "[4. Write decisions in MADR](0004-write-decisions-in-madr.md)"
    assert f"## Status\n\nSuperseded by {link}" in first
    proc = run_cli("archive", "--json", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    planned = json.loads(proc.stdout)
    assert [(m["from"], m["to"]) for m in planned["moves"]] == [
        (f"doc/adr/{name}", f"doc/adr/archive/{name}")
        for name in (
            "0001-record-architecture-decisions.md",
            "0002-keep-ledger-entries-in-sqlite.md",
        )
    ]
    assert {(r["from_url"], r["to_url"]) for r in planned["redirects"]} == {
        (
            "doc/adr/0001-record-architecture-decisions/",
            "doc/adr/archive/0001-record-architecture-decisions/",
        ),
        (
            "doc/adr/0002-keep-ledger-entries-in-sqlite/",
            "doc/adr/archive/0002-keep-ledger-entries-in-sqlite/",
        ),
    }
    proc = run_cli("plan", "--confirm", planned["plan_id"], cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    home = (folder / "docs/index.md").read_text(encoding="utf-8")
    # the link by site path is followed to the moved file, in the same form
    assert "[ADR 1](doc/adr/archive/0001-record-architecture-decisions.md)" in home
    nav = (folder / "mkdocs.yml").read_text(encoding="utf-8")
    assert "- doc/adr/archive/0002-keep-ledger-entries-in-sqlite.md" in nav
    later = (folder / "doc/adr/0003-keep-ledger-entries-in-postgresql.md").read_text("utf-8")
    assert "(archive/0002-keep-ledger-entries-in-sqlite.md)" in later
    site = built(folder)
    archived = page(site, "doc/adr/archive/0001-record-architecture-decisions")
    assert "adr-banner--superseded" in archived
    redirect = page(site, "doc/adr/0001-record-architecture-decisions")
    assert "../archive/0001-record-architecture-decisions/" in redirect
    assert_local_links_resolve(site)


def test_adrtools_current_view_is_published_beside_the_records(tmp_path: Path) -> None:
    folder = project(tmp_path, "adrtools")
    proc = run_cli("plan", "--mode", "summary", "--json", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    plan_id = json.loads(proc.stdout)["plan_id"]
    proc = run_cli("plan", "--confirm", plan_id, cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    manifest = json.loads((folder / "doc/adr/CURRENT.sources.json").read_text("utf-8"))
    assert manifest["scope"]["root"] == "../doc/adr"  # as configured
    proc = run_cli("check", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "CURRENT  doc/adr/CURRENT.md: fresh" in proc.stdout
    assert "Problems: 0 errors, 0 warnings, 0 info" in proc.stdout
    site = built(folder)
    assert "adr-banner--current-fresh" in page(site, "doc/adr/CURRENT")
    # a record edited after publishing: the banner turns stale and links the record
    record = folder / "doc/adr/0003-keep-ledger-entries-in-postgresql.md"
    record.write_text(record.read_text("utf-8") + "\nThe cluster runs version 16.\n", "utf-8")
    stale = run_cli("check", cwd=folder)
    assert "CURRENT  doc/adr/CURRENT.md: stale" in stale.stdout
    proc = run_mkdocs("build", cwd=folder, env=ENV)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    current = page(site, "doc/adr/CURRENT")
    assert "adr-banner--current-stale" in current
    assert 'href="../0003-keep-ledger-entries-in-postgresql/"' in current


def test_the_url_key_publishes_the_root_elsewhere(tmp_path: Path) -> None:
    folder = project(tmp_path, "adrtools")
    cfg = folder / "mkdocs.yml"
    text = cfg.read_text(encoding="utf-8").replace(
        "[../doc/adr]", "[{path: ../doc/adr, url: decisions}]"
    )
    cfg.write_text(text.replace("- doc/adr/", "- decisions/"), encoding="utf-8")
    home = folder / "docs/index.md"
    home.write_text(home.read_text("utf-8").replace("(doc/adr/", "(decisions/"), "utf-8")
    assert reading(plan_json(folder)) == ADRTOOLS  # paths on disk do not change
    site = built(folder)
    assert not (site / "doc").exists()
    assert "adr-banner--superseded" in page(site, "decisions/0002-keep-ledger-entries-in-sqlite")
    assert links_of(site, ".")["ADR 3"] == "decisions/0003-keep-ledger-entries-in-postgresql"
    assert_local_links_resolve(site)


def test_a_link_to_a_file_the_site_does_not_publish_fails_the_strict_build(
    tmp_path: Path,
) -> None:
    folder = project(tmp_path, "adrtools")
    (folder / "src").mkdir()
    (folder / "src/ledger.py").write_text("LEDGER = 1\n", encoding="utf-8")
    record = folder / "doc/adr/0003-keep-ledger-entries-in-postgresql.md"
    record.write_text(
        record.read_text("utf-8") + "\nThe code is in [ledger.py](../../src/ledger.py).\n",
        "utf-8",
    )
    proc = build(folder)
    assert proc.returncode == 1
    assert (
        "Doc file 'doc/adr/0003-keep-ledger-entries-in-postgresql.md' contains a link "
        "'../../src/ledger.py', but the target 'src/ledger.py' is not found among "
        "documentation files."
    ) in proc.stdout + proc.stderr


# ------------------------------------------------------------------ log4brains: packages


PACKAGES = {
    "20230904-use-a-monorepo": (
        "docs/adr/20230904-use-a-monorepo.md",
        "accepted",
        "Use a monorepo for all shop packages",
        "2023-09-04",
        [],
    ),
    "20231002-take-card-payments-through-stripe": (
        "packages/checkout/docs/adr/20231002-take-card-payments-through-stripe.md",
        "superseded",
        "Take card payments through Stripe",
        "2023-10-02",
        [("superseded-by", "20240220-take-card-payments-through-adyen")],
    ),
    "20240220-take-card-payments-through-adyen": (
        "packages/checkout/docs/adr/20240220-take-card-payments-through-adyen.md",
        "accepted",
        "Take card payments through Adyen",
        "2024-02-20",
        # log4brains states the succession on the old record only
        [("mentions", "20230904-use-a-monorepo")],
    ),
    "20231115-index-products-in-opensearch": (
        "packages/catalog/docs/adr/20231115-index-products-in-opensearch.md",
        "proposed",
        "Index products in OpenSearch",
        "2023-11-15",
        [],
    ),
}


def test_packages_each_log_is_a_root_of_its_own(tmp_path: Path) -> None:
    folder = project(tmp_path, "packages")
    data = plan_json(folder)
    assert reading(data) == PACKAGES
    # MADR/log4brains state a supersession on the old record only: an ADR005 note, no more
    assert [(p["code"], p["severity"], p["ids"]) for p in data["problems"]] == [
        (
            "ADR005",
            "info",
            [
                "20231002-take-card-payments-through-stripe",
                "20240220-take-card-payments-through-adyen",
            ],
        )
    ]
    proc = run_cli("plan", cwd=folder)
    roots = [line.split("  [")[0].strip() for line in proc.stdout.splitlines() if "[flat" in line]
    assert roots == ["docs/adr", "packages/catalog/docs/adr", "packages/checkout/docs/adr"]
    proc = run_cli("context", "20231002-take-card-payments-through-stripe", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "current successor 20240220-take-card-payments-through-adyen" in proc.stdout


def test_packages_site_publishes_each_package_log(tmp_path: Path) -> None:
    folder = project(tmp_path, "packages")
    site = built(folder)
    checkout = "packages/checkout/docs/adr"
    assert "adr-banner--superseded" in page(
        site, f"{checkout}/20231002-take-card-payments-through-stripe"
    )
    index = links_of(site, f"{checkout}/INDEX")
    assert {k: v for k, v in index.items() if k.startswith("2")} == {
        "20231002-take-card-payments-through-stripe": (
            f"{checkout}/20231002-take-card-payments-through-stripe"
        ),
        "20240220-take-card-payments-through-adyen": (
            f"{checkout}/20240220-take-card-payments-through-adyen"
        ),
    }
    adyen = links_of(site, f"{checkout}/20240220-take-card-payments-through-adyen")
    assert adyen["monorepo decision"] == "adr/20230904-use-a-monorepo"
    home = links_of(site, ".")
    assert home["checkout decisions"] == f"{checkout}/20231002-take-card-payments-through-stripe"
    assert home["catalog decisions"] == (
        "packages/catalog/docs/adr/20231115-index-products-in-opensearch"
    )
    assert (
        '<h1 id="decision-index-packagescatalogdocsadr">Decision index: packages/catalog/docs/adr'
        in page(site, "packages/catalog/docs/adr/INDEX")
    )
    assert_local_links_resolve(site)


def test_packages_new_goes_to_the_chosen_package(tmp_path: Path) -> None:
    folder = project(tmp_path, "packages")
    proc = run_cli(
        "new", "--adr-root", "packages/catalog/docs/adr", "Cache", "search", "results", cwd=folder
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    written = proc.stdout.strip()
    assert written.startswith("packages/catalog/docs/adr/")
    assert (folder / written).is_file()
    site = built(folder)
    src = written[: -len(".md")]
    assert "adr-banner--proposed" in page(site, src)


# ------------------------------------------------------------------ serve


@pytest.mark.slow
def test_serve_rebuilds_when_an_outside_record_changes(tmp_path: Path) -> None:
    from .test_serve_site import free_port, wait_for

    folder = project(tmp_path, "adrtools")
    record = folder / "doc/adr/0003-keep-ledger-entries-in-postgresql.md"
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=folder,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/doc/adr/0003-keep-ledger-entries-in-postgresql/"
    try:
        wait_for(url, r"adr-status--accepted")
        record.write_text(
            record.read_text("utf-8").replace("## Status\n\nAccepted", "## Status\n\nDeprecated"),
            "utf-8",
        )
        wait_for(url, r"adr-status--deprecated")
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
