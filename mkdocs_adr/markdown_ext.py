"""A Python-Markdown extension for hosts that render pages with Python-Markdown but run no
MkDocs plugin: Zensical (docs/adr/0042).

``markdown_extensions: [mkdocs_adr.markdown_ext]`` in the site's ``mkdocs.yml``. Each page
is handed to the same :class:`~mkdocs_adr.site.SiteBuild` the MkDocs plugin drives, so a
record page gets its header, banners, relations, local graph and pager, the committed
INDEX its filterable tables (rendered fresh) and the committed CURRENT its freshness
banner. The host renders exactly the files in ``docs_dir``: the pages the plugin would
generate (graph, timeline, llms.txt, redirects) do not exist here and nothing links to
them. Relations and pager are in the page the host's search indexes (the plugin adds them
after indexing).

What the extension needs from the host, duck-typed: the page being rendered, found as
Zensical registers it (a preprocessor named ``rendering_context`` whose ``page`` has
``path``, docs-relative, and ``meta``). Without it (plain Python-Markdown, or MkDocs,
which has the plugin) pages are left as they are.

The log is read once and read again when a file under ``docs_dir`` or the configuration
changes (checked at most once a second), so ``zensical serve`` follows edits. Problems of
the log go to the ``mkdocs_adr`` logger; a configuration it cannot read is reported there
once and leaves every page unchanged (no traceback in the host's build).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from .config import Config, load_from_mkdocs_yml
from .errors import AdrError
from .log import ParseCache
from .paths import page_dest, page_url, source_link
from .safetext import terminal
from .site import SiteBuild
from .views import assets
from .views import page as page_view

log = logging.getLogger("mkdocs_adr")

#: How often (seconds) the docs folder is checked for changes between two pages.
RECHECK = 1.0


class _File:
    """A file of ``docs_dir`` as a :class:`mkdocs_adr.site.SiteFile`. Its links are
    written as links between source files: the host rewrites every relative link of the
    page's HTML as one (an href relative to the page's URL would be rewritten wrongly)."""

    def __init__(self, src: str) -> None:
        self.src_uri = src
        self.dest_uri = page_dest(src, True)
        self.url = page_url(src, True)
        self.page: Any = None

    def url_relative_to(self, other: Any) -> str:
        return source_link(other.src_uri, self.src_uri)


class _DocsFiles:
    """The files of ``docs_dir`` as the :class:`mkdocs_adr.site.FileHost` of a host that
    renders exactly those: what the build would add, mount or remove does not exist here
    (so nothing links to it)."""

    def __init__(self, docs_dir: Path) -> None:
        self.by_src = {src: _File(src) for src in _walk(docs_dir)}

    def get(self, src: str) -> _File | None:
        return self.by_src.get(src)

    def __iter__(self) -> Iterator[_File]:
        return iter(list(self.by_src.values()))

    def add(self, src: str, content: str) -> None:
        pass  # a committed file keeps its page; a generated one has none here

    def remove(self, src: str) -> None:
        pass

    def mount(self, src: str, path: Path, edit: str) -> None:
        pass

    def probe(self, src: str) -> _File:
        return _File(src)


def _walk(docs_dir: Path) -> Iterator[str]:
    """Docs-relative paths of the files under ``docs_dir``, dot-folders and files left out
    as hosts do; symlinks are not followed (the log judges them)."""
    for folder, subdirs, names in os.walk(docs_dir):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        rel = Path(folder).relative_to(docs_dir).as_posix()
        for name in sorted(names):
            if not name.startswith("."):
                yield name if rel == "." else f"{rel}/{name}"


def _fingerprint(config_file: Path, docs_dir: Path) -> tuple[Any, ...]:
    out: list[Any] = []
    for path in (config_file, *(docs_dir / src for src in _walk(docs_dir))):
        try:
            st = path.stat()
        except OSError:
            continue
        out.append((str(path), st.st_mtime_ns, st.st_size))
    return tuple(out)


class _State:
    """The one build of this process, per configuration file."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.cache = ParseCache()
        self.site: SiteBuild | None = None
        self.key: tuple[Any, ...] = ()
        self.checked = 0.0
        self.failed: str | None = None
        self.config_file: Path | None = None

    def build(self, config_file: Path) -> SiteBuild | None:
        now = time.monotonic()
        if self.config_file == config_file and now - self.checked < RECHECK:
            return self.site
        self.checked = now
        try:
            engine: Config = load_from_mkdocs_yml(config_file)
        except AdrError as exc:
            said = exc.format()
            where = "" if str(config_file) in said else f"{config_file}: "
            message = f"mkdocs_adr.markdown_ext: {where}{said}"
            if message != self.failed:
                log.error(terminal(message))
            self.failed, self.site, self.config_file = message, None, config_file
            return None
        key = _fingerprint(config_file, engine.docs_dir)
        if self.site is not None and self.config_file == config_file and key == self.key:
            return self.site
        site = SiteBuild(engine, site_name="")
        report = site.read_log(self.cache)
        for level, message in report.messages:
            log.log(level, terminal(message))
        if report.failure:
            log.error(terminal(report.failure))
        for note in site.add_pages(_DocsFiles(engine.docs_dir)):
            log.info(terminal(note))
        self.site, self.key, self.config_file, self.failed = site, key, config_file, None
        return site


_STATE = _State()


def _page(md: Markdown) -> Any:
    """The page the host is rendering (Zensical's rendering context), or None."""
    if "rendering_context" not in md.preprocessors:
        return None
    return getattr(md.preprocessors["rendering_context"], "page", None)


class _Before(Preprocessor):  # type: ignore[misc]  # Python-Markdown is untyped
    def __init__(self, md: Markdown, ext: AdrExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, lines: list[str]) -> list[str]:
        self.ext.at, self.ext.tree_done = None, False
        page = _page(self.md)
        src = str(getattr(page, "path", "") or "")
        if not src:
            return lines
        with _STATE.lock:
            site = _STATE.build(self.ext.config_file)
            if site is None or site.files is None:
                return lines
            at = site.files.get(src)
            if not isinstance(at, _File):
                return lines
            self.ext.at, self.ext.site = at, site
            meta = getattr(page, "meta", None)
            if not isinstance(meta, dict):
                meta = {}
            out = site.page_markdown(src, "\n".join(lines), meta, page_view.first_heading_text)
        return lines if out is None else out.split("\n")


class _TreeDone(Treeprocessor):  # type: ignore[misc]
    """Marks the end of tree processing: before it, postprocessors also run on the inner
    HTML of each heading (the table of contents' labels), which must stay as they are."""

    def __init__(self, md: Markdown, ext: AdrExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, root: Any) -> None:
        self.ext.tree_done = True


class _After(Postprocessor):  # type: ignore[misc]
    def __init__(self, md: Markdown, ext: AdrExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, text: str) -> str:
        at, site = self.ext.at, self.ext.site
        if at is None or site is None or not self.ext.tree_done:
            return text
        with _STATE.lock:
            html = site.page_content(text, at, at)
            filled = site.page_context(html if html is not None else text, at)
        if html is None and filled is None:
            return text
        # the plugin's stylesheet is a file of the MkDocs build; here it comes with the page
        return f"<style>{assets.stylesheet()}</style>\n" + (filled or html or text)


class AdrExtension(Extension):  # type: ignore[misc]
    """``mkdocs_adr.markdown_ext``; its option ``config_file`` is the site's ``mkdocs.yml``
    (default: ``mkdocs.yml`` in the folder the host runs in)."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "config_file": ["mkdocs.yml", "the site's mkdocs.yml (its adr plugin options)"],
        }
        super().__init__(**kwargs)
        self.config_file = Path(str(self.getConfig("config_file"))).resolve()
        self.at: _File | None = None
        self.site: SiteBuild | None = None
        self.tree_done = False

    def extendMarkdown(self, md: Markdown) -> None:
        # after whitespace is normalized (30), before HTML blocks are stashed (20); the
        # host's context preprocessor holds its page from construction on
        md.preprocessors.register(_Before(md, self), "mkdocs_adr", 25)
        # last of the tree processors (the table of contents is 5, unescaping 0)
        md.treeprocessors.register(_TreeDone(md, self), "mkdocs_adr_done", -100)
        # after raw HTML is put back (30) and ampersands (20): the page's final HTML
        md.postprocessors.register(_After(md, self), "mkdocs_adr", 5)


def makeExtension(**kwargs: Any) -> AdrExtension:
    return AdrExtension(**kwargs)
