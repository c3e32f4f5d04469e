"""The MkDocs adapter: typed options and lifecycle hooks over :mod:`mkdocs_adr.site`.

This is the only module that imports MkDocs. Its options come from the one option
table, :data:`mkdocs_adr.config.OPTIONS`; each build gets a new
:class:`~mkdocs_adr.site.SiteBuild`, which decides what the site shows. The hooks hand
it MkDocs' objects and give back what it returns:

- ``on_files``: the log is loaded (parse results cached by content hash across
  ``mkdocs serve`` rebuilds) and every problem logged through MkDocs' logger, so
  ``--strict`` counts warnings; the generated pages become virtual files
  (``File.generated``; nothing is written into ``docs_dir``), refused files are
  removed, roots outside ``docs_dir`` added under their URL prefix, records under
  ``nav: index`` kept out of the navigation; under serve, the pages whose additions
  changed are marked modified, so ``--dirty`` rebuilds them too (ADR-0045); a one-off
  build starts from what the last build of the same inputs kept (ADR-0051);
- ``on_nav``: views first, records pruned, previous/next links; ``on_page_markdown``,
  ``on_page_content``: titles, a line with id and status for search;
  ``on_page_context``: the rest, after search indexing (ADR-0045);
- ``on_post_build``: ``read_guard`` applied to the written search index;
  ``on_shutdown``: a one-off build lets go of its log (ADR-0063).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config import config_options as c
from mkdocs.config.base import BaseConfigOption
from mkdocs.config.base import Config as MkDocsConfigBase
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.utils import get_markdown_title

from .config import OPTIONS, Option, from_options, project_folder
from .errors import AdrError
from .log import ParseCache
from .safetext import terminal
from .site import STYLESHEET, Memory, SiteBuild, endless_walk, watched_folders

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page
    from mkdocs.utils.templates import TemplateContext

log = get_plugin_logger(__name__)
_LISTED = (InclusionLevel.INCLUDED, InclusionLevel.UNDEFINED)  # (in the nav unless told)


class _Choice(c.Choice):  # type: ignore[type-arg]
    def __init__(self, opt: Option, default: Any) -> None:
        super().__init__(opt.choices, default=default)
        self.opt = opt

    def run_validation(self, value: object) -> Any:
        return super().run_validation(self.opt.unyaml(value))


class _Type(c.Type):  # type: ignore[type-arg]
    def __init__(self, opt: Option, default: Any) -> None:
        super().__init__(opt.type, default=default)
        self.opt = opt

    def run_validation(self, value: object) -> Any:
        return super().run_validation(self.opt.unyaml(value))


def _mkdocs_option(opt: Option) -> BaseConfigOption[Any]:
    """The MkDocs option for one table entry, so MkDocs validates and words the errors
    (an unquoted ``off``, which YAML reads as ``false``, is put back first)."""
    default = opt.fresh_default()
    if opt.choices:
        return _Choice(opt, default)
    if opt.items is not None:
        return c.ListOfItems(c.Type(opt.items), default=default)
    return _Type(opt, default)


if TYPE_CHECKING:
    _Options = MkDocsConfigBase
else:
    # MkDocs collects the options of a config class when the class is made.
    _Options = type("_Options", (MkDocsConfigBase,), {o.name: _mkdocs_option(o) for o in OPTIONS})


# MkDocs leaves Config.__init_subclass__ untyped; nothing to check on our side.
class AdrConfig(_Options):  # type: ignore[no-untyped-call]
    __doc__ = "The plugin's options (from mkdocs_adr.config.OPTIONS):\n\n" + "\n".join(
        f"{o.name}: {o.doc}" for o in OPTIONS
    )


class _Files:
    """MkDocs' ``Files`` as the :class:`mkdocs_adr.site.FileHost` of one build."""

    def __init__(self, files: Files, config: MkDocsConfig) -> None:
        self.files, self.config = files, config

    def get(self, src: str) -> File | None:  # src_uri as the engine writes them, posix
        return self.files.src_uris.get(src)

    def __iter__(self) -> Iterator[File]:
        return iter(self.files)

    def add(self, src: str, content: str) -> None:
        self.remove(src)
        self.files.append(File.generated(self.config, src, content=content))

    def remove(self, src: str) -> None:
        old = self.files.get_file_from_path(src)
        if old is not None:
            self.files.remove(old)

    def mount(self, src: str, path: Path, edit: str) -> None:
        self.remove(src)
        found = File.generated(self.config, src, abs_src_path=str(path))
        found.edit_uri = edit
        self.files.append(found)

    def probe(self, src: str) -> File:
        return File(
            src,
            src_dir=None,
            dest_dir=self.config.site_dir,
            use_directory_urls=self.config.use_directory_urls,
        )


class AdrPlugin(BasePlugin[AdrConfig]):  # type: ignore[no-untyped-call]
    """``plugins: [adr]``."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self.cache, self.memory = ParseCache(), Memory()
        self.site: SiteBuild | None = None
        self.command, self.dirty = "build", False

    # Defining on_startup keeps this instance across `mkdocs serve` rebuilds, so the
    # parse cache and the pages' memory survive; per-build state is replaced in on_config.
    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.command, self.dirty = command, dirty

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        self.site = None
        config_file = Path(config.config_file_path).resolve() if config.config_file_path else None
        docs_dir = Path(config.docs_dir).resolve()
        project = project_folder(config_file.parent if config_file else Path.cwd(), docs_dir)
        options: dict[str, Any] = {k: v for k, v in self.config.items() if k != "enabled"}
        try:
            engine = from_options(
                options, project_dir=project, docs_dir=docs_dir, config_file=config_file
            )
        except AdrError as exc:
            raise PluginError(f"adr: {exc.format()}") from exc
        loops = endless_walk(engine.docs_dir, self.memory)
        if loops:
            raise PluginError(
                f"adr: {', '.join(loops)}: symlinks that point back into a folder holding "
                "them; MkDocs would follow them for ever. Remove them (ADR015)."
            )
        if STYLESHEET not in config.extra_css:
            config.extra_css.append(STYLESHEET)
        # MkDocs' own search stores plain text (its page escapes results); Material's
        # stores HTML. read_guard's rewritten entries must match.
        search_html = any(
            type(p).__module__.startswith("material.")
            for name, p in config.plugins.items()
            if name.endswith("search")
        )
        self.site = SiteBuild(
            engine,
            serve=self.command == "serve",
            search_html=search_html,
            site_name=config.site_name,
            site_url=config.site_url,
            memory=self.memory if self.command == "serve" or self.dirty else None,
            keep=True,
        )
        self.site.use_theme(config.extra, config.theme)
        return config

    def _site(self) -> SiteBuild:
        assert self.site is not None, "on_config runs first"
        return self.site

    # After other plugins have added or removed files, so the log we read is
    # the one the site will show and our pages land among the final files.
    @event_priority(-50)
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        site = self._site()
        report = site.read_log(self.cache)
        for level, message in report.messages:
            log.log(level, message)
        if report.failure:
            raise PluginError(report.failure)
        for note in site.add_pages(_Files(files, config)):
            log.info(terminal(note))
        for found in map(files.src_uris.get, site.out_of_nav):
            if found is not None and found.inclusion in _LISTED:
                found.inclusion = InclusionLevel.NOT_IN_NAV
        for src in site.stale_pages() if site.memory is not None else ():
            if (found := files.src_uris.get(src)) is not None:
                found.is_modified = lambda: True  # type: ignore[method-assign]
        return files

    # After nav plugins (awesome-pages, literate-nav) have shaped the navigation, so
    # the records we take out and the views we put first are in their final places.
    @event_priority(-50)
    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation | None:
        nav.items, nav.pages = self._site().arrange_nav(nav.items, generated=config.nav is None)
        return nav

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        site, src = self._site(), page.file.src_uri
        for warning in site.theme_meta(src, page.meta, lambda: config.theme):
            log.warning(terminal(warning))
        return site.page_markdown(src, markdown, page.meta, get_markdown_title)

    def on_page_content(
        self, html: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        return self._site().page_content(html, page.file, page)

    # After the search plugins (MkDocs' and Material's index page.content here, at the
    # default priority): what names other records would make this page match them.
    @event_priority(-100)
    def on_page_context(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext | None:
        filled = self._site().page_context(page.content, page.file) if page.content else None
        page.content = filled if filled is not None else page.content
        return None

    # After the search plugins (MkDocs' or Material's, default priority) have written
    # search/search_index.json, which read_guard then rewrites.
    @event_priority(-100)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        for warning in self._site().finish(Path(config.site_dir)):
            log.warning(terminal(warning))

    def on_shutdown(self) -> None:
        if self.command != "serve":  # freed now, not walked by the exit's collection (ADR-0063)
            self.site, self.cache = None, ParseCache()

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer | None:
        if self.site is not None:
            for folder in watched_folders(self.site.engine):
                server.watch(str(folder))
        return server
