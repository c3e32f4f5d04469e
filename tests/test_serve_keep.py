"""What a serve rebuild keeps from the last build by identity (ADR-0059): each record's
one-line summary (the agent files' prose) is the last build's while the log kept the
record as the same object (a container's: and the same relation graph), and after any
edit the summaries equal those of a load from nothing.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from mkdocs_adr import log as log_module
from mkdocs_adr.config import from_options
from mkdocs_adr.log import ParseCache, load
from mkdocs_adr.views import llms

from .test_serve_pages import EDITS, TEXT_EDITS, edit, text_edit
from .test_site_kit import make_site


def _engine(folder: Path) -> Any:
    return from_options(
        {}, project_dir=folder, docs_dir=folder / "docs", config_file=folder / "mkdocs.yml"
    )


@pytest.mark.parametrize("racy", [True, False], ids=["racy", "settled"])
@pytest.mark.parametrize("name", [*sorted(EDITS), *sorted(TEXT_EDITS)])
def test_kept_summaries_are_the_summaries_of_a_fresh_load(
    tmp_path: Path, name: str, racy: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not racy:
        monkeypatch.setattr(log_module, "RACY_NS", 0)
    folder = make_site(tmp_path / "log", theme="mkdocs")
    cache, kept = ParseCache(), {}  # type: ignore[var-annotated]
    before = load(_engine(folder), cache=cache)
    assert llms.summaries(before, kept) == llms.summaries(load(_engine(folder)))
    assert any(rec.units for rec in before.records)  # a container is among them
    time.sleep(0.02)
    if name in EDITS:
        edit(folder, name)
    else:
        text_edit(folder, name)
    made: list[str] = []
    real = llms.summary

    def counted(log: Any, rec: Any) -> str:
        made.append(rec.path)
        return real(log, rec)

    monkeypatch.setattr(llms, "summary", counted)
    again = load(_engine(folder), cache=cache)
    got = llms.summaries(again, kept)
    monkeypatch.setattr(llms, "summary", real)
    assert got == llms.summaries(load(_engine(folder)))
    if name in TEXT_EDITS:  # only the edited record's summary is made again
        assert [Path(p).name for p in made] == [TEXT_EDITS[name][0]]


def test_unchanged_record_pages_are_answered_by_identity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a text edit, a record page the edit did not change gets each hook's kept
    result from its record object (Markdown step, search line) and its inputs object
    (additions): nothing is worked out for it; the edited page is made again."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from mkdocs_adr import site as site_module

    folder = make_site(tmp_path / "serve", theme="mkdocs")
    site = folder / "site"
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    time.sleep(0.02)
    text_edit(folder, "text")
    calls: dict[str, list[str]] = {"reads": [], "line": [], "additions": []}
    real = site_module.SiteBuild

    def spy(name: str, method: Any, key: Any) -> Any:
        def spied(self: Any, *args: Any) -> Any:
            calls[name].append(key(*args))
            return method(self, *args)

        return spied

    monkeypatch.setattr(real, "_markdown_reads", spy("reads", real._markdown_reads, str))
    monkeypatch.setattr(real, "_search_line", spy("line", real._search_line, lambda r: r.path))
    monkeypatch.setattr(real, "_additions", spy("additions", real._additions, lambda r, at: r.path))
    config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
    build(config)
    config.plugins.on_shutdown()
    edited = "adr/" + TEXT_EDITS["text"][0]
    plugin = config.plugins["adr"]
    records = set(plugin.site.record_at)
    assert edited in records
    assert [src for src in calls["reads"] if src in records] == [edited]
    assert {Path(p).name for p in calls["line"]} == {TEXT_EDITS["text"][0]}
    assert calls["additions"] == []  # the edited page's additions are the kept ones
