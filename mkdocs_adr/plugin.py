"""The MkDocs adapter: typed options and lifecycle hooks over the engine.

This is the only module that imports MkDocs. It turns options into an engine
:class:`~mkdocs_adr.config.Config`, loads the log once per build (parse results
cached by content hash across ``mkdocs serve`` rebuilds), reports every problem
through MkDocs' logger so ``--strict`` counts warnings, and places what the pure
renderers of :mod:`mkdocs_adr.views` produce:

- ``on_files``: the INDEX and graph pages of each root as virtual files
  (``File.generated``; nothing is written into ``docs_dir``), redirect pages for
  records that moved, the stylesheet, and records kept out of the navigation when
  ``nav`` resolves to ``index``;
- ``on_nav``: views first in generated navigations; records pruned from explicit ones
  under ``nav: index``; previous/next links between records;
- ``on_page_markdown`` / ``on_page_content``: escaped titles, the record header and
  banners (indexed by search); the CURRENT page's freshness banner, or under
  ``mkdocs serve`` the newest unpublished draft with its DRAFT banner
  (:mod:`mkdocs_adr.views.current`);
- ``on_page_context``: relations, local graph, translations and pager, and the
  drawings of the graph pages, added after search indexing so other records' ids and
  titles do not make a page match;
- ``on_post_build``: ``read_guard`` applied to the written search index.
"""

from __future__ import annotations

import json
import logging
import os
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config as MkDocsConfigBase
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.nav import Section
from mkdocs.structure.pages import Page
from mkdocs.utils import get_markdown_title, get_relative_url

from . import config as engine_config
from .errors import AdrError
from .log import Log, ParseCache, load
from .model import Problem, Record, Severity
from .preview import preview_pages
from .views import assets, graphdata, graphpage, mirrors, redirects, search, svg
from .views import current as current_view
from .views import index as index_view
from .views import page as page_view
from .views.hrefs import RecordHref
from .views.state import RootViews, free_name, root_views

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.utils.templates import TemplateContext

log = get_plugin_logger(__name__)

GRAPH_PAGE = "GRAPH.md"
RELATIONS_SLOT = "<!-- mkdocs-adr:relations -->"
AFTER_SLOT = "<!-- mkdocs-adr:after -->"


# MkDocs leaves Config.__init_subclass__ untyped; nothing to check on our side.
class AdrConfig(MkDocsConfigBase):  # type: ignore[no-untyped-call]
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

#: Local graphs are capped so a hub record does not draw half the log.
LOCAL_GRAPH_LIMIT = 30


@dataclass
class RootPages:
    """The generated pages of one root in this build (docs-relative src paths)."""

    key: str  # the root's docs-relative path, as records carry it
    views: RootViews
    index_src: str | None = None
    graph_src: str | None = None
    current_src: str | None = None
    graph: graphpage.GraphPage | None = None
    index_tables: list[index_view.Table] = field(default_factory=list)
    index_slotted: str = ""


@dataclass
class BuildState:
    """Everything one build knows; replaced wholesale at the start of every build."""

    ctx: page_view.PageContext | None = None
    roots: dict[str, RootPages] = field(default_factory=dict)  # by root key
    record_at: dict[str, Record] = field(default_factory=dict)  # src_uri -> record
    file_of: dict[str, File] = field(default_factory=dict)  # unambiguous id -> file
    mirror_at: dict[str, mirrors.Mirror] = field(default_factory=dict)  # src_uri -> mirror
    translations: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    view_at: dict[str, tuple[str, str]] = field(default_factory=dict)  # src -> (kind, root)
    archived_urls: dict[str, search.ArchivedPage] = field(default_factory=dict)
    nav_mode: str = "full"
    out_of_nav: set[str] = field(default_factory=set)  # src_uris kept out of the nav
    files: Files | None = None
    files_by_src: dict[str, File] = field(default_factory=dict)
    file_at_path: dict[str, File] = field(default_factory=dict)  # record path -> file
    layouts: dict[tuple[str, ...], svg.Placed] = field(default_factory=dict)  # local graphs
    previews: dict[str, str] = field(default_factory=dict)  # src -> DRAFT banner (serve)

    def file(self, src: str | None) -> File | None:
        if not src or self.files is None:
            return None
        found = self.files_by_src.get(src)
        if found is None:
            found = self.files.get_file_from_path(src)
            if found is not None:
                self.files_by_src[src] = found
        return found


class AdrPlugin(BasePlugin[AdrConfig]):  # type: ignore[no-untyped-call]
    """``plugins: [adr]``."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self.cache = ParseCache()
        self.engine: engine_config.Config | None = None
        self.log: Log | None = None
        self.state = BuildState()
        self.search_html = True
        self.command = "build"

    # Defining on_startup keeps this instance across `mkdocs serve` rebuilds,
    # so the parse cache survives; per-build state is reset in on_config.
    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.command = command

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        self.log = None
        self.state = BuildState()
        config_file = Path(config.config_file_path).resolve() if config.config_file_path else None
        project_dir = config_file.parent if config_file else Path.cwd()
        options: dict[str, Any] = {k: v for k, v in self.config.items() if k != "enabled"}
        try:
            self.engine = engine_config.from_options(
                options,
                project_dir=project_dir,
                docs_dir=Path(config.docs_dir).resolve(),
                config_file=config_file,
            )
        except AdrError as exc:
            raise PluginError(f"adr: {exc.format()}") from exc
        if assets.CSS_PATH not in config.extra_css:
            config.extra_css.append(assets.CSS_PATH)
        # MkDocs' own search stores plain text (its page escapes results); Material's
        # stores HTML. read_guard's rewritten entries must match.
        self.search_html = any(
            type(p).__module__.startswith("material.")
            for name, p in config.plugins.items()
            if name.endswith("search")
        )
        return config

    # ------------------------------------------------------------------ files

    # After other plugins have added or removed files, so the log we read is
    # the one the site will show and our pages land among the final files.
    @event_priority(-50)
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        assert self.engine is not None
        engine = self.engine
        self.log = adr_log = load(engine, cache=self.cache)
        views = root_views(adr_log)
        self._report((*adr_log.problems, *(p for v in views for p in v.problems)))
        st = self.state
        st.ctx = page_view.PageContext.build(adr_log)
        st.files = files

        for rec in adr_log.records:
            src = redirects.docs_rel(adr_log, rec.path)
            found = files.get_file_from_path(src) if src else None
            if found is None:
                continue
            st.record_at[found.src_uri] = rec
            st.file_at_path[rec.path] = found
            if adr_log.get(rec.id) is rec:
                st.file_of[rec.id] = found
        for mirror in mirrors.match(adr_log):
            src = redirects.docs_rel(adr_log, mirror.path)
            found = files.get_file_from_path(src) if src else None
            if found is None:
                continue
            st.mirror_at[found.src_uri] = mirror
            if mirror.original is not None:
                st.translations.setdefault(mirror.original.path, []).append(
                    (mirror.lang, found.src_uri)
                )

        if self.command == "serve":  # a draft is previewed under serve, never built
            self._preview(files, config)
        for cfg, rv in zip(engine.roots, views, strict=True):
            if engine.root_dir(cfg).is_dir():
                st.roots[cfg.path] = self._root_pages(cfg.path, rv, files, config)

        if engine.redirects:
            self._redirects(files, config)
        if files.get_file_from_path(assets.CSS_PATH) is None:
            files.append(File.generated(config, assets.CSS_PATH, content=assets.stylesheet()))

        count = len(adr_log.records)
        st.nav_mode = (
            engine.nav
            if engine.nav != "auto"
            else ("index" if count > engine.nav_limit else "full")
        )
        if st.nav_mode == "index":
            for src in [*st.record_at, *st.mirror_at]:
                found = files.get_file_from_path(src)
                if found is not None and found.inclusion in (
                    InclusionLevel.INCLUDED,
                    InclusionLevel.UNDEFINED,
                ):
                    found.inclusion = InclusionLevel.NOT_IN_NAV
                st.out_of_nav.add(src)
        return files

    def _root_pages(self, key: str, rv: RootViews, files: Files, config: MkDocsConfig) -> RootPages:
        assert self.log is not None and self.engine is not None
        adr_log, engine = self.log, self.engine
        pages = RootPages(key=key, views=rv)
        index_src = redirects.docs_rel(adr_log, rv.index_target)
        if index_src:
            computed = index_view.tables(adr_log, rv.root)
            pages.index_tables = computed[1]
            pages.index_slotted = index_view.render_slotted(adr_log, rv.root, computed=computed)
            text = index_view.render(adr_log, rv.root, computed=computed)
            on_disk = files.get_file_from_path(index_src)
            if on_disk is not None:
                # our own generated file (fresh or drifted): the fresh render replaces it
                files.remove(on_disk)
            files.append(File.generated(config, index_src, content=text))
            pages.index_src = index_src
            self.state.view_at[index_src] = ("index", key)
        current = redirects.docs_rel(adr_log, f"{rv.root.path}/{engine.current_page}")
        if current and files.get_file_from_path(current) is not None:
            pages.current_src = current
            self.state.view_at[current] = ("current", key)
        if engine.graph:
            folder = key.rstrip("/")
            taken = {
                f.src_uri.rsplit("/", 1)[-1]
                for f in files
                if posixpath.dirname(f.src_uri) == folder
            }
            name = GRAPH_PAGE if GRAPH_PAGE not in taken else free_name(taken, GRAPH_PAGE)
            graph_src = f"{folder}/{name}" if folder else name
            assert self.state.ctx is not None
            pages.graph = graphpage.build(
                self.state.ctx.graph,
                rv.root,
                key,
                index_name=posixpath.basename(index_src or engine.index_page),
                title=index_view.heading(adr_log, rv.root, "graph"),
            )
            files.append(File.generated(config, graph_src, content=pages.graph.markdown))
            pages.graph_src = graph_src
            self.state.view_at[graph_src] = ("graph", key)
        return pages

    def _preview(self, files: Files, config: MkDocsConfig) -> None:
        """The newest unpublished CURRENT draft in place of the published page (SPEC 4)."""
        assert self.log is not None and self.engine is not None
        pages, notes = preview_pages(self.log, self.engine.preview)
        for note in notes:
            log.info(note)
        for preview in pages:
            published = files.get_file_from_path(preview.src_uri)
            if published is not None:
                files.remove(published)
            files.append(File.generated(config, preview.src_uri, content=preview.markdown))
            self.state.previews[preview.src_uri] = preview.banner

    def _redirects(self, files: Files, config: MkDocsConfig) -> None:
        assert self.log is not None
        dests = {f.dest_uri for f in files}
        for old in redirects.old_locations(self.log):
            target_src = redirects.docs_rel(self.log, old.record.path)
            target = files.get_file_from_path(target_src) if target_src else None
            if target is None or old.src == target.src_uri:
                continue
            probe = File(
                old.src,
                src_dir=None,
                dest_dir=config.site_dir,
                use_directory_urls=config.use_directory_urls,
            )
            if files.get_file_from_path(old.src) is not None or probe.dest_uri in dests:
                log.info(
                    f"{old.src}: a page exists at this old location of {old.record.id}; "
                    "no redirect page is written there"
                )
                continue
            url = get_relative_url(target.url, probe.url) if probe.url else target.url
            content = redirects.page(url, f"{old.record.id} {old.record.title}")
            files.append(File.generated(config, probe.dest_uri, content=content))
            dests.add(probe.dest_uri)

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

    # ------------------------------------------------------------------ nav

    # After nav plugins (awesome-pages, literate-nav) have shaped the navigation, so
    # the records we take out and the views we put first are in their final places.
    @event_priority(-50)
    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation | None:
        st = self.state
        if config.nav is None:
            _views_first(nav.items, set(st.view_at))
        if st.nav_mode == "index" and config.nav is not None:
            index_pages = {
                rp.index_src: files.get_file_from_path(rp.index_src)
                for rp in st.roots.values()
                if rp.index_src
            }
            nav.items = _prune(nav.items, st.out_of_nav, index_pages)
        pages = _pages(nav.items)
        nav.pages = pages
        for prev, page, nxt in zip([None, *pages[:-1]], pages, [*pages[1:], None], strict=True):
            page.previous_page, page.next_page = prev, nxt
        _parents(nav.items, None)
        in_nav = {p.file.src_uri for p in pages}
        # records out of the nav still step to their neighbours (INDEX order)
        if st.ctx is not None:
            for recs in st.ctx.order.values():
                chain = [
                    f.page
                    for r in recs
                    if (f := st.file_of.get(r.id)) is not None
                    and st.ctx.log.get(r.id) is r
                    and isinstance(f.page, Page)
                ]
                for i, page in enumerate(chain):
                    if page.file.src_uri in in_nav:
                        continue
                    page.previous_page = chain[i - 1] if i > 0 else None
                    page.next_page = chain[i + 1] if i + 1 < len(chain) else None
        return nav

    # ------------------------------------------------------------------ pages

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        src = page.file.src_uri
        rec = self.state.record_at.get(src)
        if rec is not None:
            current = page.meta.get("title")
            page.meta["title"] = page_view.page_title(
                rec, str(current) if current is not None else get_markdown_title(markdown)
            )
            return page_view.escape_first_heading(markdown)
        if src in self.state.mirror_at:
            current = page.meta.get("title")
            text = str(current) if current is not None else get_markdown_title(markdown)
            if text:
                page.meta["title"] = page_view.esc(text)
            return page_view.escape_first_heading(markdown)
        view = self.state.view_at.get(src)
        if (
            view is not None
            and view[0] in ("index", "graph", "current")
            and ("title" not in page.meta)
        ):
            # the generated-file marker comes before the heading, which hides it from
            # MkDocs' title detection; the heading is ours and already escaped Markdown
            heading = page_view.first_heading_text(markdown)
            if heading:
                page.meta["title"] = heading
        if view is not None and view[0] == "index" and self.log is not None:
            # The page's source is the committed INDEX bytes; its tables are drawn as
            # HTML after search indexing (on_page_context): a thousand-row Markdown
            # table costs more than the rest of the page, and the INDEX should not
            # outrank a record when its id is searched.
            return self.state.roots[view[1]].index_slotted
        return None

    def on_page_content(
        self, html: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        st = self.state
        if st.ctx is None:
            return None
        src = page.file.src_uri
        href = self._href(page.file)
        rec = st.record_at.get(src)
        if rec is not None:
            top = page_view.header(st.ctx, rec, relations_slot=RELATIONS_SLOT) + "".join(
                page_view.banners(st.ctx, rec, href)
            )
            if rec.archived:
                st.archived_urls[page.url] = search.ArchivedPage(rec.id, rec.status, rec.title)
            return _after_h1(html, top) + AFTER_SLOT
        mirror = st.mirror_at.get(src)
        if mirror is not None:
            top = page_view.mirror_banner(st.ctx, mirror.original, mirror.lang, href)
            if mirror.original is not None:
                top += "".join(page_view.banners(st.ctx, mirror.original, href))
            return _after_h1(html, top)
        view = st.view_at.get(src)
        if view is not None and view[0] == "current":
            banner = self.current_banner(view[1], page.file)
            return _after_h1(html, banner) if banner else None
        if view is not None and view[0] == "index":
            return f'<div class="adr-index">{html}</div>'
        return None

    def current_banner(self, root_key: str, at: File) -> str | None:
        """The freshness banner of a root's CURRENT page, or the DRAFT banner of a preview.

        Both come from :mod:`mkdocs_adr.views.current` (freshness from the manifest,
        each stale reason linked to its record).
        """
        if at.src_uri in self.state.previews:
            return self.state.previews[at.src_uri]
        if self.log is None or root_key not in self.state.roots:
            return None
        return current_view.page_banner(
            self.log, at.src_uri, href=lambda src: self._view_href(src, at)
        )

    # After the search plugins (MkDocs' and Material's index page.content in this event
    # at the default priority): relations, local graphs and graph drawings name other
    # records, and would make this page match their ids and titles.
    @event_priority(-100)
    def on_page_context(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext | None:
        st = self.state
        if st.ctx is None or page.content is None:
            return None
        src = page.file.src_uri
        rec = st.record_at.get(src)
        if rec is not None:
            page.content = self._fill_record(page.content, rec, page)
            return None
        view = st.view_at.get(src)
        if view is not None and view[0] == "graph":
            rp = st.roots[view[1]]
            assert rp.graph is not None
            page.content = graphpage.fill(
                page.content, rp.graph, href=self._href(page.file), root_key=view[1]
            )
        elif view is not None and view[0] == "index":
            page.content = self._fill_index(page.content, st.roots[view[1]], page.file)
        return None

    def _fill_index(self, content: str, rp: RootPages, at: File) -> str:
        by_path = self.state.file_at_path

        def href(rec: Record) -> str | None:
            found = by_path.get(rec.path)
            return found.url_relative_to(at) if found is not None else None

        for n, table in enumerate(rp.index_tables):
            slot = index_view.TABLE_SLOT.format(n=n)
            content = content.replace(slot, index_view.table_html(table, href), 1)
        return content

    def _fill_record(self, output: str, rec: Record, page: Page) -> str:
        st = self.state
        assert st.ctx is not None and self.engine is not None
        href = self._href(page.file)
        rels = page_view.relations(st.ctx, rec, href)
        rp = st.roots.get(rec.root)
        index_href = self._view_href(rp.index_src if rp else None, page.file)
        graph_href = self._view_href(rp.graph_src if rp else None, page.file)
        after = []
        langs = [
            (lang, f.url_relative_to(page.file))
            for lang, src in st.translations.get(rec.path, [])
            if (f := st.file(src)) is not None
        ]
        after.append(page_view.translations(langs))
        if self.engine.graph and st.ctx.log.get(rec.id) is rec:
            sub, more = graphdata.neighbourhood(
                st.ctx.graph,
                rec.id,
                self.engine.graph_hops,
                limit=LOCAL_GRAPH_LIMIT,
                adjacency=st.ctx.adjacency,
                edges_by_node=st.ctx.edges_by_node,
            )
            if len(sub.nodes) > 1:
                # records of one chain share a neighbourhood: lay it out once
                key = tuple(sub.nodes)
                placed = st.layouts.get(key)
                if placed is None:
                    placed = st.layouts[key] = svg.layout(sub)
                drawing = svg.render(
                    sub,
                    uid="adr-local",
                    href=href,
                    title=f"Decisions related to {rec.id}",
                    focus=rec.id,
                    root=rec.root,
                    placed=placed,
                )
                after.append(
                    page_view.local_graph(
                        drawing, hops=self.engine.graph_hops, more=more, graph_href=graph_href
                    )
                )
        after.append(
            page_view.pager(st.ctx, rec, href, index_href=index_href, graph_href=graph_href)
        )
        output = output.replace(RELATIONS_SLOT, rels, 1)
        return output.replace(AFTER_SLOT, "".join(after), 1)

    def _href(self, at: File) -> RecordHref:
        file_of = self.state.file_of

        def href(rid: str) -> str | None:
            found = file_of.get(rid)
            return found.url_relative_to(at) if found is not None else None

        return href

    def _view_href(self, src: str | None, at: File) -> str | None:
        found = self.state.file(src)
        return found.url_relative_to(at) if found is not None else None

    # ------------------------------------------------------------------ search

    # After the search plugins (MkDocs' or Material's, default priority) have written
    # search/search_index.json, which read_guard then rewrites.
    @event_priority(-100)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        assert self.engine is not None
        mode = self.engine.read_guard
        st = self.state
        if mode == "off" or not st.archived_urls:
            return
        path = Path(config.site_dir) / "search" / "search_index.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning(f"read_guard: cannot read {path}: {exc}; archived bodies stay indexed")
            return
        if not isinstance(data, dict):
            return
        new, changed = search.apply(data, st.archived_urls, mode, html_text=self.search_html)
        if not changed:
            return
        if "index" in new:
            new = _rebuild_lunr(new)
        tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
        tmp.write_text(
            json.dumps(new, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
            encoding="utf-8",
        )
        os.replace(tmp, path)

    # ------------------------------------------------------------------ serve

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


# ---------------------------------------------------------------------- helpers


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def _after_h1(html: str, block: str) -> str:
    end = html.find("</h1>")
    if end < 0:
        return block + html
    end += len("</h1>")
    return html[:end] + block + html[end:]


def _views_first(items: list[Any], views: set[str]) -> None:
    """In a generated navigation, put INDEX / CURRENT / graph right after a section's
    index page (README.md / index.md), before the records."""
    for item in items:
        children = getattr(item, "children", None)
        if isinstance(item, Section) and children:
            _views_first(children, views)
            ours = [ch for ch in children if isinstance(ch, Page) and ch.file.src_uri in views]
            if not ours:
                continue
            rest = [ch for ch in children if ch not in ours]
            head = [
                ch for ch in rest if isinstance(ch, Page) and ch.file.name in ("index", "README")
            ]
            tail = [ch for ch in rest if ch not in head]
            order = {"INDEX": 0, "CURRENT": 1, "GRAPH": 2}
            ours.sort(key=lambda p: order.get(p.file.name.split(".")[0], 3))
            item.children = [*head, *ours, *tail]


def _prune(items: list[Any], drop: set[str], index_pages: dict[str, File | None]) -> list[Any]:
    """An explicit navigation without the pages in ``drop``; where a section loses them
    and no INDEX is listed anywhere, the INDEX takes the place of the first one."""
    listed = {p.file.src_uri for p in _pages(items)}
    missing = [f for src, f in index_pages.items() if src not in listed and f is not None]

    def walk(children: list[Any]) -> list[Any]:
        out: list[Any] = []
        for ch in children:
            if isinstance(ch, Page) and ch.file.src_uri in drop:
                ch.parent = None  # out of the navigation: no section claims it
                while missing:
                    f = missing.pop(0)
                    if isinstance(f.page, Page):
                        out.append(f.page)
                continue
            if isinstance(ch, Section):
                ch.children = walk(ch.children)
                if not ch.children:
                    continue
            out.append(ch)
        return out

    return walk(items)


def _pages(items: list[Any]) -> list[Page]:
    out: list[Page] = []
    for item in items:
        if isinstance(item, Page):
            out.append(item)
        children = getattr(item, "children", None)
        if children:
            out.extend(_pages(children))
    return out


def _parents(items: list[Any], parent: Section | None) -> None:
    for item in items:
        item.parent = parent
        if isinstance(item, Section):
            _parents(item.children, item)


def _rebuild_lunr(data: dict[str, Any]) -> dict[str, Any]:
    """MkDocs' ``prebuild_index: python`` ships a serialized index; rebuild it so it
    matches the rewritten entries."""
    from lunr import lunr

    config = data.get("config") or {}
    langs = config.get("lang") or ["en"]
    try:
        idx = lunr(
            ref="location",
            fields=("title", "text"),
            documents=data.get("docs", []),
            languages=langs,
        )
    except Exception as exc:
        log.warning(f"read_guard: cannot rebuild the prebuilt search index ({exc}); dropped")
        return {k: v for k, v in data.items() if k != "index"}
    return {**data, "index": idx.serialize()}
