"""The MkDocs adapter: typed options and lifecycle hooks over the engine.

This is the only module that imports MkDocs. It turns options into an engine
:class:`~mkdocs_adr.config.Config`, loads the log once per build (parse results
cached by content hash across ``mkdocs serve`` rebuilds), and reports every
problem through MkDocs' logger so ``--strict`` counts warnings.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config as MkDocsConfigBase
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger

from . import config as engine_config
from .errors import AdrError
from .log import Log, ParseCache, load
from .model import Problem, Severity

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files

log = get_plugin_logger(__name__)


class AdrConfig(MkDocsConfigBase):
    roots = c.Type(list, default=["adr"])
    """ADR roots relative to docs_dir; items are folder names or {path, prefix, title}."""
    layout = c.Choice(engine_config.LAYOUTS, default="auto")
    """flat, layered, or auto (detected per root)."""
    style = c.Choice(engine_config.STYLES, default="auto")
    """Force one record style instead of detecting it per file."""
    mirrors = c.ListOfItems(c.Type(str), default=list(engine_config.DEFAULT_MIRRORS))
    """Folder names (and *.<lang>.md suffixes) that hold translations, never records."""
    index_page = c.Type(str, default="INDEX.md")
    """File name of the INDEX view in each root."""
    current_page = c.Type(str, default="CURRENT.md")
    """File name of the CURRENT view in each root."""
    graph = c.Type(bool, default=True)
    """A graph page per root and a local graph on each record page."""
    graph_hops = c.Type(int, default=3)
    """Hops shown in local graphs."""
    nav = c.Choice(engine_config.NAV_MODES, default="auto")
    """full lists every record; index lists only the views; auto switches above nav_limit."""
    nav_limit = c.Type(int, default=50)
    """Above this many records, nav: auto behaves like nav: index."""
    read_guard = c.Choice(engine_config.READ_GUARDS, default="off")
    """What archived bodies contribute to search: off, warn, guard."""
    fail_on = c.Choice(engine_config.FAIL_ON, default="error")
    """Problems at or above this severity fail the build (never: only log)."""
    preview = c.Type(str, default="auto")
    """Under serve: auto previews the newest CURRENT draft; off; or a plan id."""
    redirects = c.Type(bool, default=True)
    """Archived records keep their old URL alive through a redirect page."""
    work_dir = c.Type(str, default=".mkdocs-adr")
    """Plans, drafts, receipts and journals, relative to the config file."""
    status_headings = c.ListOfItems(
        c.Type(str), default=list(engine_config.DEFAULT_STATUS_HEADINGS)
    )
    """Headings that open a status section (localized)."""
    status_aliases = c.Type(dict, default={})
    """Extra words that mean a status, e.g. {approved: accepted}."""


_LEVELS = {
    Severity.ERROR: logging.ERROR,
    Severity.WARNING: logging.WARNING,
    Severity.INFO: logging.INFO,
}


class AdrPlugin(BasePlugin[AdrConfig]):
    """``plugins: [adr]``."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self.cache = ParseCache()
        self.engine: engine_config.Config | None = None
        self.log: Log | None = None

    # Defining on_startup keeps this instance across `mkdocs serve` rebuilds,
    # so the parse cache survives; per-build state is reset in on_config.
    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.command = command

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        self.log = None
        config_file = Path(config.config_file_path).resolve() if config.config_file_path else None
        project_dir = config_file.parent if config_file else Path.cwd()
        options: dict[str, Any] = {
            k: v for k, v in self.config.items() if k != "enabled"
        }
        try:
            self.engine = engine_config.from_options(
                options,
                project_dir=project_dir,
                docs_dir=Path(config.docs_dir).resolve(),
                config_file=config_file,
            )
        except AdrError as exc:
            raise PluginError(f"adr: {exc.format()}") from exc
        return config

    # After other plugins have added or removed files, so the log we read is
    # the one the site will show.
    @event_priority(-50)
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        assert self.engine is not None
        self.log = load(self.engine, cache=self.cache)
        self._report(self.log.problems)
        return files

    def _report(self, problems: tuple[Problem, ...]) -> None:
        for problem in problems:
            log.log(_LEVELS[problem.severity], problem.format())
        assert self.engine is not None
        threshold = self.engine.fail_on
        if threshold == "never":
            return
        failing = [p for p in problems if p.severity >= Severity.parse(threshold)]
        if failing:
            raise PluginError(
                f"adr: {len(failing)} problem(s) at or above '{threshold}' in the ADR log "
                f"(first: {failing[0].format()}). Set fail_on: never to only log them."
            )

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer | None:
        if self.engine is None:
            return server
        docs = self.engine.docs_dir
        for root in self.engine.roots:
            folder = self.engine.root_dir(root)
            if folder.is_dir() and not _inside(folder, docs):
                server.watch(str(folder))
        work = self.engine.work_path
        if work.is_dir():
            server.watch(str(work))
        return server


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True
