"""Other hosts than MkDocs, each in a virtualenv of its own (docs/adr/0042-...).

- **ProperDocs** (the maintained MkDocs 1.x fork) runs the plugin unchanged: it reads
  ``mkdocs.plugins`` entry points and answers ``import mkdocs.*`` with its own modules.
  A real ``properdocs build --strict`` of the project's own site and of an example site.
- **Zensical** does not run MkDocs plugins (it drops unknown ``plugins:`` entries without a
  word); it renders the views the CLI commits. A real ``zensical build`` of an example log
  whose INDEX.md and CURRENT.md were written by ``mkdocs-adr index`` / ``plan --confirm``.

The virtualenvs are made once per test session from the package registry, with this
checkout installed from a copy (pip builds in the source tree, which must stay clean).
Without a registry the tests fail and say so: a host that was not tried is not a pass.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from markdown import Markdown
from markdown.preprocessors import Preprocessor

from .conftest import LOGS, REPO, SITES, copy_project_site, run_cli
from .test_agents_guard import hook_json, nygard, run_guard, write

# the example site: one record of each status situation the banners tell apart
FLAT_RECORDS = {
    "adr/0001-record-architecture-decisions": "accepted",
    "adr/archive/0002-store-notes-in-sqlite-on-the-server": "superseded",
    "adr/0003-use-rest-polling-for-sync": "superseded",
    "adr/0004-store-notes-in-postgresql": "accepted",
    "adr/0005-encrypt-note-bodies-at-rest": "accepted",
    "adr/0006-use-websockets-for-sync": "accepted",
    "adr/0007-support-offline-editing-with-crdts": "rejected",
    "adr/0008-offer-a-public-plugin-api": "deprecated",
    "adr/0009-publish-the-decision-log-with-mkdocs": "accepted",
}

# the banners the plugin puts on each page of it (a record in effect has none)
FLAT_BANNERS = {
    **{stem: [] for stem in FLAT_RECORDS},
    "adr/archive/0002-store-notes-in-sqlite-on-the-server": ["superseded", "archived"],
    "adr/0003-use-rest-polling-for-sync": ["superseded"],
    "adr/0007-support-offline-editing-with-crdts": ["rejected"],
    "adr/0008-offer-a-public-plugin-api": ["deprecated"],
    "adr/zh/0004-store-notes-in-postgresql": ["translation"],
}


def _env() -> dict[str, str]:
    """The environment of a host's process: the venv's own packages, not this checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # Material 9.7+ and ProperDocs print a banner about MkDocs 2 on every build
    env.update(NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(cmd: list[str], cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=timeout, check=False
    )


def _venv(base: Path, name: str, packages: list[str]) -> Path:
    """A virtualenv with ``packages`` and this checkout; its ``bin`` folder.

    Made once per test run: the pytest-xdist workers of one run share ``base`` and take
    turns through a lock file, so the second finds the first's (marked ``.done``)."""
    venv = base / name
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    base.mkdir(parents=True, exist_ok=True)
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (venv / ".done").exists():
            return bin_dir
        shutil.rmtree(venv, ignore_errors=True)
        src = base / f"{name}-src"  # pip builds in the source tree, which must stay clean
        shutil.rmtree(src, ignore_errors=True)
        src.mkdir()
        for part in ("pyproject.toml", "README.md"):
            shutil.copy(REPO / part, src / part)
        shutil.copytree(
            REPO / "mkdocs_adr", src / "mkdocs_adr", ignore=shutil.ignore_patterns("__pycache__")
        )
        made = _run([sys.executable, "-m", "venv", str(venv)], cwd=base)
        assert made.returncode == 0, made.stderr
        pip = [str(bin_dir / "python"), "-m", "pip", "install", "--quiet"]
        got = _run([*pip, *packages, str(src)], cwd=base, timeout=900)
        if got.returncode != 0:
            pytest.fail(
                f"could not install {' '.join(packages)} into a virtualenv "
                f"(exit {got.returncode}); these tests need a package registry (PyPI or a "
                f"mirror pip is configured for):\n{got.stderr[-3000:]}",
                pytrace=False,
            )
        (venv / ".done").touch()
    return bin_dir


def _shared(factory: pytest.TempPathFactory) -> Path:
    """A folder of this test run that every xdist worker sees (the workers' base
    temporary folders are ``popen-gw<n>`` inside the run's own)."""
    base = factory.getbasetemp()
    return (base.parent if base.name.startswith("popen-gw") else base) / "hosts"


@pytest.fixture(scope="session")
def properdocs_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # ProperDocs has no built-in themes: the `mkdocs` theme is a package of its own
    return _venv(
        _shared(tmp_path_factory),
        "properdocs",
        ["properdocs", "properdocs-theme-mkdocs", "mkdocs-material"],
    )


@pytest.fixture(scope="session")
def zensical_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _venv(_shared(tmp_path_factory), "zensical", ["zensical"])


def _read(path: Path) -> str:
    assert path.is_file(), f"{path} was not built"
    return path.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- ProperDocs


@pytest.mark.slow
def test_properdocs_builds_the_project_site_strict(properdocs_bin: Path, tmp_path: Path) -> None:
    folder = copy_project_site(tmp_path / "project")  # with the showcase roots and hook
    proc = _run(
        [str(properdocs_bin / "properdocs"), "build", "--strict", "-f", "mkdocs.yml"], cwd=folder
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    site = folder / "site"
    home = _read(site / "index.html")
    # ProperDocs built it (its generator tag), through Material
    assert re.search(
        r'<meta name="generator" content="mkdocs-ProperDocs [\d.]+, mkdocs-material', home
    )
    records = sorted(p.stem for p in (folder / "docs" / "adr").glob("[0-9][0-9][0-9][0-9]-*.md"))
    assert len(records) >= 30
    index = _read(site / "adr" / "INDEX" / "index.html")
    for stem in records:
        page = _read(site / "adr" / stem / "index.html")
        number = stem[:4]
        assert f'data-adr-id="ADR-{number}"' in page, stem
        assert f'href="../{stem}/"' in index, stem
    assert 'class="adr-index' in index
    assert (site / "adr" / "GRAPH" / "index.html").is_file()
    assert (site / "adr" / "CURRENT" / "index.html").is_file()


@pytest.mark.slow
def test_properdocs_builds_an_example_site_from_properdocs_yml(
    properdocs_bin: Path, tmp_path: Path
) -> None:
    """The `mkdocs` theme, the config under ProperDocs' own name, and the CLI on it."""
    folder = shutil.copytree(
        SITES / "flat", tmp_path / "flat", ignore=shutil.ignore_patterns("site")
    )
    (folder / "mkdocs.yml").rename(folder / "properdocs.yml")
    proc = _run([str(properdocs_bin / "properdocs"), "build", "--strict"], cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "should be renamed to 'properdocs.yml'" not in proc.stderr
    site = folder / "site"
    for stem, status in FLAT_RECORDS.items():
        page = _read(site / stem / "index.html")
        number = stem.rsplit("/", 1)[1][:4]
        header = f'class="adr-header" data-adr-id="ADR-{number}" data-adr-status="{status}"'
        assert header in page, stem
    for stem, expected in FLAT_BANNERS.items():
        page = _read(site / stem / "index.html")
        banners = re.findall(r'class="admonition \w+ adr-banner adr-banner--([\w-]+)"', page)
        assert banners == expected, stem
    old = _read(site / "adr" / "0003-use-rest-polling-for-sync" / "index.html")
    banner = old[old.index("adr-banner--superseded") :].split("</div>", 1)[0]
    assert 'href="../0006-use-websockets-for-sync/"' in banner
    rows = _index_rows(_read(site / "adr" / "INDEX" / "index.html"))
    assert rows == {stem.split("/", 1)[1]: status for stem, status in FLAT_RECORDS.items()}
    # the CLI finds properdocs.yml when there is no mkdocs.yml
    check = _run([str(properdocs_bin / "mkdocs-adr"), "check"], cwd=folder)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "docs/adr/INDEX.md: absent" in check.stdout
    assert "Problems: 0 errors, 0 warnings, 0 info" in check.stdout


def _index_rows(html: str) -> dict[str, str]:
    """The plugin's INDEX table: record link (docs-relative, no .md) to its row's status."""
    rows = re.findall(r'<tr [^>]*data-status="([\w-]+)"[^>]*>(.*?)</tr>', html, re.S)
    out = {}
    for status, cells in rows:
        link = re.search(r'href="\.\./([^"#]+)/"', cells)
        assert link, cells
        out[link.group(1)] = status
    return out


def test_the_cli_reads_properdocs_yml_when_there_is_no_mkdocs_yml(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(LOGS / "adrtools" / "adr", site / "notes" / "adr")
    (site / "properdocs.yml").write_text(
        "site_name: x\ndocs_dir: notes\nplugins:\n  - adr\n", encoding="utf-8"
    )
    run_cli("index", cwd=site, check=True)
    assert (site / "notes" / "adr" / "INDEX.md").is_file()
    # with both, mkdocs.yml wins (it names another docs_dir here)
    (site / "mkdocs.yml").write_text("site_name: x\ndocs_dir: docs\n", encoding="utf-8")
    shutil.copytree(LOGS / "adrtools" / "adr", site / "docs" / "adr")
    run_cli("index", cwd=site, check=True)
    assert (site / "docs" / "adr" / "INDEX.md").is_file()


def test_the_read_guard_finds_a_properdocs_yml(tmp_path: Path) -> None:
    write(tmp_path / "properdocs.yml", "site_name: S\nplugins:\n  - adr:\n      read_guard: warn\n")
    write(tmp_path / "docs/adr/archive/0004-x.md", nygard(4, "X", "Deprecated", "Old."))
    stdin = hook_json("Read", {"file_path": "adr/archive/0004-x.md"}, tmp_path / "docs")
    _code, out, _ = run_guard(stdin)
    spec = json.loads(out)["hookSpecificOutput"]
    assert "mkdocs-adr -f ../properdocs.yml context ADR-0004 --json" in spec["additionalContext"]


# ------------------------------------------------------------ the Markdown extension


class _Context(Preprocessor):  # type: ignore[misc]
    """What Zensical registers for each page: ``rendering_context`` with its ``page``."""

    def __init__(self, md: Markdown, path: str) -> None:
        super().__init__(md)
        self.page = SimpleNamespace(path=path, meta={})

    def run(self, lines: list[str]) -> list[str]:
        return lines


def _render(text: str, path: str | None, config_file: Path) -> tuple[str, Any]:
    md = Markdown(
        extensions=["toc", "admonition", "mkdocs_adr.markdown_ext"],
        extension_configs={"mkdocs_adr.markdown_ext": {"config_file": str(config_file)}},
    )
    page = None
    if path is not None:
        context = _Context(md, path)
        md.preprocessors.register(context, "rendering_context", 0)
        page = context.page
    return md.convert(text), page


def test_the_extension_renders_a_record_as_the_plugin_does(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    site = shutil.copytree(SITES / "flat", tmp_path / "flat", ignore=shutil.ignore_patterns("site"))
    src = "adr/0003-use-rest-polling-for-sync.md"
    text = (site / "docs" / src).read_text(encoding="utf-8")
    html, page = _render(text, src, site / "mkdocs.yml")
    assert html.count('class="adr-header" data-adr-id="ADR-0003" data-adr-status="superseded"') == 1
    assert re.findall(r"adr-banner--([\w-]+)", html) == ["superseded"]
    # links between source files: the host turns them into page URLs
    assert 'href="0006-use-websockets-for-sync.md"' in html
    assert page.meta["title"] == "ADR-0003: Use REST polling for sync"
    # a page that is not a record, and a renderer without a page: unchanged
    plain, _ = _render(text, "index.md", site / "mkdocs.yml")
    bare, _ = _render(text, None, site / "mkdocs.yml")
    assert plain == bare == Markdown(extensions=["toc", "admonition"]).convert(text)
    # a configuration it cannot read: said once, pages unchanged
    broken = tmp_path / "broken.yml"
    broken.write_text("plugins:\n  - adr:\n      roots: 7\n", encoding="utf-8")
    caplog.set_level(logging.ERROR, logger="mkdocs_adr")
    first, _ = _render(text, src, broken)
    again, _ = _render(text, src, broken)
    assert first == again == bare
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and said[0].startswith("mkdocs_adr.markdown_ext: "), said
    assert "Traceback" not in caplog.text


# --------------------------------------------------------------------------- Zensical


ZENSICAL_YML = """\
site_name: Lumen Notes architecture
theme:
  name: material
plugins:
  - search
  - adr
markdown_extensions:
  - admonition
  - tables
"""


@pytest.mark.slow
def test_zensical_renders_the_committed_index_and_current(
    zensical_bin: Path, tmp_path: Path
) -> None:
    folder = shutil.copytree(
        SITES / "flat", tmp_path / "flat", ignore=shutil.ignore_patterns("site")
    )
    # Zensical ships one theme (Material's successor); `theme: mkdocs` is not installed there
    (folder / "mkdocs.yml").write_text(ZENSICAL_YML, encoding="utf-8")
    cli = str(zensical_bin / "mkdocs-adr")
    wrote = _run([cli, "index"], cwd=folder)
    assert wrote.returncode == 0, wrote.stdout + wrote.stderr
    drafted = _run([cli, "plan", "--mode", "summary"], cwd=folder)
    found = re.search(r"plan_id (summary-[0-9a-f]+)", drafted.stdout)
    assert drafted.returncode == 0 and found, drafted.stdout + drafted.stderr
    confirmed = _run([cli, "plan", "--confirm", found.group(1)], cwd=folder)
    assert confirmed.returncode == 0, confirmed.stdout + confirmed.stderr
    assert (folder / "docs" / "adr" / "CURRENT.md").is_file()

    proc = _run([str(zensical_bin / "zensical"), "build", "--strict"], cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    site = folder / "site"
    index = _read(site / "adr" / "INDEX" / "index.html")
    assert "Decision index" in index
    for stem, status in FLAT_RECORDS.items():
        # every record is a page, and INDEX links to it by its directory URL
        _read(site / stem / "index.html")
        rel = stem.split("/", 1)[1]
        row = re.search(
            rf'<tr>\s*<td><a href="\.\./{re.escape(rel)}/">ADR-\d+</a></td>.*?</tr>', index, re.S
        )
        assert row, stem
        assert f"<td>{status}" in row.group(0), (stem, row.group(0))
    current = _read(site / "adr" / "CURRENT" / "index.html")
    assert "Decisions in effect" in current
    for stem, status in FLAT_RECORDS.items():
        if status == "accepted":
            assert f'href="../{stem.split("/", 1)[1]}/' in current, stem
    # Zensical does not run the plugin: no header, no banner on a superseded record
    old = _read(site / "adr" / "0003-use-rest-polling-for-sync" / "index.html")
    assert "Use REST polling for sync" in old
    assert "adr-banner" not in old and "adr-header" not in old

    # what keeps the committed views honest there: the CLI's check, in CI
    assert _run([cli, "check", "--fail-on", "warning"], cwd=folder).returncode == 0
    record = folder / "docs" / "adr" / "0009-publish-the-decision-log-with-mkdocs.md"
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("## Status\n\nAccepted", "## Status\n\nDeprecated", 1), "utf-8")
    stale = _run([cli, "check", "--fail-on", "warning"], cwd=folder)
    assert stale.returncode == 1, stale.stdout + stale.stderr
    assert "ADR010" in stale.stdout and "ADR011" in stale.stdout


@pytest.mark.slow
def test_zensical_renders_headers_and_banners_with_the_markdown_extension(
    zensical_bin: Path, tmp_path: Path
) -> None:
    folder = shutil.copytree(
        SITES / "flat", tmp_path / "flat", ignore=shutil.ignore_patterns("site")
    )
    (folder / "mkdocs.yml").write_text(
        ZENSICAL_YML + "  - mkdocs_adr.markdown_ext\n", encoding="utf-8"
    )
    cli = str(zensical_bin / "mkdocs-adr")
    assert _run([cli, "index"], cwd=folder).returncode == 0
    # --clean: Zensical caches each page's HTML by its own text, and a record's banner
    # depends on other records
    proc = _run([str(zensical_bin / "zensical"), "build", "--strict", "--clean"], cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    site = folder / "site"
    for stem, status in FLAT_RECORDS.items():
        page = _read(site / stem / "index.html")
        number = stem.rsplit("/", 1)[1][:4]
        header = f'class="adr-header" data-adr-id="ADR-{number}" data-adr-status="{status}"'
        assert page.count(header) == 1, stem
    for stem, expected in FLAT_BANNERS.items():
        page = _read(site / stem / "index.html")
        banners = re.findall(r'class="admonition \w+ adr-banner adr-banner--([\w-]+)"', page)
        assert banners == expected, stem
    old = _read(site / "adr" / "0003-use-rest-polling-for-sync" / "index.html")
    banner = old[old.index("adr-banner--superseded") :].split("</div>", 1)[0]
    assert 'href="../0006-use-websockets-for-sync/"' in banner
    # the table of contents keeps its own labels (postprocessors also see each heading)
    assert 'id="consequences"' in old
    # the committed INDEX shows the plugin's table, rendered fresh
    rows = _index_rows(_read(site / "adr" / "INDEX" / "index.html"))
    assert rows == {stem.split("/", 1)[1]: status for stem, status in FLAT_RECORDS.items()}
    # pages only the plugin generates are not there, and nothing links to them
    assert not (site / "adr" / "GRAPH").exists()
    assert "GRAPH/" not in old and "TIMELINE/" not in old
