"""Host-neutral page assembly for one build of the documentation site.

A :class:`SiteBuild` holds what one build knows about the ADR log and decides, for any
host that renders Markdown pages (MkDocs through ``plugin.py``, the only module that
imports it):

- whether the host's own walk of docs_dir would never end (:func:`endless_walk`);
- which files the build leaves out: those the log refused to read (not UTF-8, over
  ``max_file_bytes``, binary, unreadable) and symlinks it skipped (looping, broken,
  pointing outside the project), with every file below such a folder
  (:func:`refused_files`), so that the host neither crashes reading them nor publishes
  them;
- which pages the build adds: the files of roots outside docs_dir under their URL
  prefix (:func:`mounted_files`), the INDEX and graph page of each root, the CURRENT
  page's banner (or, under serve, the draft previewed in its place), redirect pages
  for records that moved, the stylesheet, and for agents ``llms.txt`` and each root's
  ``index.json`` (:meth:`SiteBuild.add_pages`);
- where links written for the files on disk point in the site (:func:`site_links`);
- which problems fail the build (``fail_on``, :func:`failure`), returned as data for
  the host to log (:meth:`SiteBuild.read_log`);
- the navigation: ``nav: full/index/auto`` (:func:`nav_mode`), views first in a
  generated navigation (:func:`views_first`) with section titles made from folder
  names escaped (:func:`escape_sections`), records pruned from an explicit one
  (:func:`prune`), previous/next order (:meth:`SiteBuild.arrange_nav`);
- what a record page shows around its text: title (and the frontmatter values themes
  print, :func:`escape_shown_meta`), the header's text for search indexing, and after
  it the header, banners, relations, translations, local graph and pager
  (:meth:`SiteBuild.page_markdown`, :meth:`~SiteBuild.page_content`,
  :meth:`~SiteBuild.page_context`);
- under serve, what a rebuild redoes and which pages whose files did not change must be
  rebuilt (:class:`Memory`, :meth:`SiteBuild.stale_pages`; ADR-0045);
- ``read_guard`` over the search index the search plugin wrote (:func:`read_guard`).

The host's objects are duck-typed. A file is a :class:`SiteFile`; the build's files a
:class:`FileHost` (the adapter wraps its own file list). A navigation item has
``is_page`` and ``is_section`` and a settable ``parent``; a page has ``file``,
``previous_page`` and ``next_page``; a section has ``children``. MkDocs' ``Page`` and
``Section`` are such items as they are.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import logging
import os
import posixpath
from collections.abc import (
    Callable,
    Collection,
    Iterable,
    Iterator,
    Mapping,
    MutableMapping,
)
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast
from urllib.parse import unquote

from . import cache as disk_cache
from . import freshness, lazy
from .config import Config
from .log import Log, ParseCache, load, walk_rows
from .model import TOO_DEEP, Problem, Record, RootInfo, Severity
from .paths import project_relative, receipts_dir, within
from .views import assets, home, i18n, indexjson, llms, mirrors, redirects, search
from .views import page as page_view
from .views.hrefs import RecordHref
from .views.kept import Kept
from .viewstate import RootViews, free_name, root_views, stale_paths

if TYPE_CHECKING:
    from . import links
    from .parsing import bounds, titles
    from .views import current as current_view
    from .views import graphdata, graphpage, svg
    from .views import index as index_view
    from .views import timeline as timeline_view
else:  # what only some builds run is imported when first used (docs/adr/0060)
    links = lazy.module("mkdocs_adr.links")
    bounds = lazy.module("mkdocs_adr.parsing.bounds")
    titles = lazy.module("mkdocs_adr.parsing.titles")
    current_view = lazy.module("mkdocs_adr.views.current")
    graphdata = lazy.module("mkdocs_adr.views.graphdata")
    graphpage = lazy.module("mkdocs_adr.views.graphpage")
    svg = lazy.module("mkdocs_adr.views.svg")
    index_view = lazy.module("mkdocs_adr.views.index")
    timeline_view = lazy.module("mkdocs_adr.views.timeline")

_T = TypeVar("_T")
GRAPH_PAGE = "GRAPH.md"
TIMELINE_PAGE = "TIMELINE.md"
AFTER_SLOT = "<!-- mkdocs-adr:after -->"
#: Where the stylesheet is published; the host links it from every page.
STYLESHEET = assets.CSS_PATH
#: The INDEX page's script (package data, ``mkdocs_adr/static``), inlined into the page:
#: filters and sorting over tables that are complete without it (ADR-0038).
INDEX_SCRIPT = "index_table.js"
#: How many relative URLs a serve memory keeps (:meth:`SiteBuild.relative`) at most.
URLS_KEPT = 200_000
#: Local graphs are capped so a hub record does not draw half the log.
LOCAL_GRAPH_LIMIT = 30
#: The logging level each problem is reported at.
LEVELS = {
    Severity.ERROR: logging.ERROR,
    Severity.WARNING: logging.WARNING,
    Severity.INFO: logging.INFO,
}
#: A generated navigation lists a root's views in this order (by file stem).
VIEW_ORDER = {"INDEX": 0, "TIMELINE": 0.5, "CURRENT": 1, "GRAPH": 2}
#: The section title of a root without a ``title`` (ADR-0039).
DEFAULT_SECTION = i18n.ENGLISH.t("home.section")  # (in English; the site says self.words)
#: View problems a build reports at info level and never fails on: the site renders a
#: drifted INDEX fresh, so only the committed file is behind, and that is the CLI's
#: business (`mkdocs-adr check` and `index --check` fail on it; ADR-0039).
BUILD_INFO_CODES = frozenset({"ADR010"})


class SiteFile(Protocol):
    """A file of the site as the host knows it (MkDocs: ``File``)."""

    @property
    def src_uri(self) -> str: ...  # docs-relative source path, POSIX

    @property
    def dest_uri(self) -> str: ...  # site-relative output path

    @property
    def url(self) -> str: ...

    @property
    def page(self) -> Any: ...  # the navigation page of this file, or None

    def url_relative_to(self, other: Any) -> str: ...


class Addressed(Protocol):
    """A page as the host knows it, by its URL (MkDocs: ``Page``)."""

    @property
    def url(self) -> str: ...


class FileHost(Protocol):
    """The files of one build, as the host adapter exposes them."""

    def get(self, src: str) -> SiteFile | None: ...

    def __iter__(self) -> Iterator[SiteFile]: ...

    def add(self, src: str, content: str) -> None:
        """A generated file at ``src`` with ``content``, replacing any file there."""

    def probe(self, src: str) -> SiteFile:
        """Where a page at ``src`` would be published, without adding it."""

    def remove(self, src: str) -> None:
        """The file at ``src`` taken out of the build (not read, not published)."""

    def mount(self, src: str, path: Path, edit: str) -> None:
        """The file at ``path`` (outside the docs folder) published as ``src``, replacing
        any file there; ``edit`` is its path relative to the docs folder (``../doc/x.md``),
        for the host's "edit this page" link."""


@dataclass(frozen=True)
class Report:
    """What reading the log found: each problem as (logging level, message), and the
    message that fails the build under ``fail_on`` (``None``: the build goes on)."""

    messages: tuple[tuple[int, str], ...]
    failure: str | None


@dataclass
class RootPages:
    """The generated pages of one root in this build (docs-relative src paths)."""

    key: str  # the root's docs-relative path, as records carry it
    views: RootViews
    index_src: str | None = None
    graph_src: str | None = None
    current_src: str | None = None
    graph: graphpage.GraphPage | None = None
    index_tables: list[index_view.Table] | None = field(default_factory=list)
    index_slotted: str = ""
    timeline_src: str | None = None
    timeline_months: list[timeline_view.Month] | None = field(default_factory=list)
    timeline_slotted: str = ""


# ------------------------------------------------------------------------- policies


@functools.cache
def index_script() -> str:
    """The INDEX page's inline script, read once from the package."""
    return (resources.files("mkdocs_adr") / "static" / INDEX_SCRIPT).read_text("utf-8")


def index_json_schema() -> dict[str, Any]:
    """The JSON Schema an ``index.json`` validates against (package data; views read no
    files, so it is loaded here)."""
    text = resources.files("mkdocs_adr").joinpath(indexjson.SCHEMA_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def failure(problems: Iterable[Problem], threshold: str) -> str | None:
    """The message that fails the build when problems reach ``fail_on``, else None."""
    if threshold == "never":
        return None
    failing = [p for p in problems if p.severity >= Severity.parse(threshold)]
    if not failing:
        return None
    return (
        f"adr: {len(failing)} problem(s) at or above '{threshold}' in the ADR log "
        f"(first: {failing[0].format()}). Set fail_on: never to only log them."
    )


#: The problems of a file the log read no text from, or read only in part: ADR013 (not
#: UTF-8, oversized, binary, unreadable) and ADR015 (a symlink that loops, is broken
#: or leaves the project). Discovery and the reader skip such files; the site too.
REFUSING_CODES = frozenset({"ADR013", "ADR015"})


def refused_files(adr_log: Log) -> dict[str, Problem]:
    """What the site leaves out, by docs-relative ``src`` path, with the problem that
    says why: a key names a file, or a folder and everything below it.

    - a record file with an ADR013 problem (not valid UTF-8: the log reads it with
      replacement characters, the host would fail on it; over ``max_file_bytes`` or
      binary: not parsed), so that no page shows what the log did not read;
    - a record whose frontmatter nests deeper than the reader's bound (ADR014,
      :data:`~.model.TOO_DEEP`): the host reads every page's frontmatter
      itself, and MkDocs' YAML crashes the process on 30,000 brackets (a segmentation
      fault in libyaml's recursion, found by a fuzz run);
    - a file or folder that discovery skipped with ADR013 or ADR015 (a symlink that
      loops, is broken or points outside the project, a folder already visited
      through a symlink loop, a folder that cannot be listed).

    A host that follows symlinks (MkDocs walks ``docs_dir`` with ``followlinks``)
    lists such files; publishing them would show the content of a file outside the
    project, and reading them crashes the build.
    """
    out: dict[str, Problem] = {}

    def refuse(path: str | None, problem: Problem) -> None:
        src = adr_log.config.src_uri(path.rstrip("/")) if path else None
        if src:
            out.setdefault(src, problem)

    for problem in adr_log.intake:
        if problem.code in REFUSING_CODES:
            refuse(problem.path, problem)
    for rec in adr_log.records:
        for problem in rec.parsed.problems:
            if problem.code == "ADR013" or (
                problem.code == "ADR014" and TOO_DEEP in problem.message
            ):
                refuse(rec.path, problem)
                break
    return out


def names_in(files: Iterable[SiteFile], folder: str) -> set[str]:
    """The names of the site's files directly in ``folder`` (docs-relative, posix)."""
    # (one comprehension, no generator inside it: it runs over every file twice a root)
    return {parts[2] for f in files if (parts := f.src_uri.rpartition("/"))[0] == folder}


def endless_walk(docs_dir: Path, memory: Memory | None = None) -> list[str]:
    """The folder symlinks below ``docs_dir`` that point at a folder holding them
    (docs-relative, sorted), when there are two or more; else an empty list.

    MkDocs walks ``docs_dir`` following symlinks, before any plugin sees its files. One
    such symlink makes it list the folder's files again at each level until the system
    refuses the path (about 40 levels; :func:`refused_files` leaves those copies out).
    Two make the number of paths double at every level: the walk never ends, and the
    host can only refuse to start.

    With ``memory`` (a host that builds again and again), a walk that met no symlink
    (of a file or a folder, broken or not) keeps the stat rows of every folder it met;
    while they hold, no folder or symlink was added, removed or renamed below
    ``docs_dir`` (a folder's times move when its entries change), and the answer is
    again none, without a walk (ADR-0059)."""
    shown = os.fspath(docs_dir)
    kept = memory.folders if memory is not None else None
    if kept is not None and kept[0] == shown and walk_rows(kept[1], racy=False) == kept[2]:
        return []
    loops: list[str] = []
    met, linked = [shown], False
    todo = [shown]  # os.walk's order does not matter: the answer is sorted
    while todo:
        here = todo.pop()
        try:
            with os.scandir(here) as it:
                entries = list(it)
        except OSError:
            continue  # (as os.walk: a folder it cannot list is left out)
        for entry in entries:
            link = entry.is_symlink()
            linked = linked or link
            try:
                if not entry.is_dir():
                    continue
            except OSError:
                continue
            met.append(entry.path)  # (one that cannot be listed counts too)
            if not link:
                todo.append(entry.path)
                continue
            # a symlinked folder, listed, not entered
            try:
                target = Path(entry.path).resolve(strict=True)
            except (OSError, RuntimeError):
                continue
            if within(Path(here).resolve(), target):
                loops.append(Path(entry.path).relative_to(docs_dir).as_posix())
    if memory is not None:
        rows = None if linked else walk_rows(met, racy=True)
        memory.folders = (shown, met, rows) if rows is not None else None
    return sorted(loops) if len(loops) > 1 else []


def refusal(src: str, refused: Mapping[str, Problem]) -> Problem | None:
    """The problem that keeps ``src`` out of the site (itself or a folder above it)."""
    if not refused:
        return None
    path = src
    while path:
        found = refused.get(path)
        if found is not None:
            return found
        path = posixpath.dirname(path)
    return None


def nav_mode(option: str, records: int, limit: int) -> str:
    """``full`` or ``index``: what ``nav`` means for a log of ``records`` records."""
    if option != "auto":
        return option
    return "index" if records > limit else "full"


def _is_page(item: Any) -> bool:
    return bool(getattr(item, "is_page", False))


def _stem(item: Any) -> str:
    return str(posixpath.basename(item.file.src_uri).split(".")[0])


def _is_index(item: Any) -> bool:
    return _is_page(item) and _stem(item) in ("index", "README")


def views_first(items: list[Any], views: set[str]) -> None:
    """In a generated navigation, put INDEX / CURRENT / graph right after a section's
    index page (README.md / index.md), before the records (in place); at the top level
    too, where a root ``.`` puts them (ADR-0039)."""
    items[:] = _views_first_in(items, views)
    for item in items:
        children = getattr(item, "children", None)
        if getattr(item, "is_section", False) and children:
            views_first(children, views)


def _views_first_in(children: list[Any], views: set[str]) -> list[Any]:
    ours = [ch for ch in children if _is_page(ch) and ch.file.src_uri in views]
    if not ours:
        return children
    rest = [ch for ch in children if ch not in ours]
    head = [ch for ch in rest if _is_page(ch) and _stem(ch) in ("index", "README")]
    tail = [ch for ch in rest if ch not in head]
    ours.sort(key=lambda p: VIEW_ORDER.get(_stem(p), 3))
    return [*head, *ours, *tail]


def _folder(item: Any) -> str | None:
    """The folder a section stands for (docs-relative): its pages' folder, or the parent
    folder of its subsections' when it holds only subsections."""
    children = getattr(item, "children", ())
    dirs = {posixpath.dirname(ch.file.src_uri) for ch in children if _is_page(ch)}
    if dirs:
        return dirs.pop() if len(dirs) == 1 else None
    subs = {_folder(ch) for ch in children if getattr(ch, "is_section", False)}
    parents = {posixpath.dirname(f) for f in subs if f}
    return parents.pop() if len(parents) == 1 and None not in subs else None


def title_sections(items: list[Any], titles: Mapping[str, str]) -> None:
    """Each section of a generated navigation that stands for a root's folder titled
    from ``titles`` (folder -> text; escaped here), in place: ``Decisions``, not ``Adr``."""
    for item in items:
        if getattr(item, "is_section", False):
            folder = _folder(item)
            if folder is not None and folder in titles:
                item.title = page_view.esc(titles[folder])
            title_sections(item.children, titles)


def lift_views(items: list[Any], views: set[str]) -> list[Any]:
    """An ADR-only navigation (its top level one section, beside a home page at most)
    with the section's views moved up beside the home page and the records left in the
    section: the ``mkdocs`` theme shows no menu for a lone section, and every theme then
    shows INDEX, CURRENT and graph one click from anywhere (ADR-0039)."""
    sections = [it for it in items if getattr(it, "is_section", False)]
    pages = [it for it in items if _is_page(it)]
    if len(sections) != 1 or len(sections) + len(pages) != len(items):
        return items
    if any(_stem(p) not in ("index", "README") for p in pages):
        return items
    section = sections[0]
    ours = [ch for ch in section.children if _is_page(ch) and ch.file.src_uri in views]
    if not ours:
        return items
    section.children = [ch for ch in section.children if ch not in ours]
    if len(section.children) == 1 and _is_index(section.children[0]):
        # only its index page is left (the records are out of the nav): a section that
        # opens onto one link is a click for nothing, so the page takes its place
        lone = section.children[0]
        lone.title = section.title
        return [*pages, *ours, lone]
    return [*pages, *ours, *([section] if section.children else [])]


def collapse_roots(items: list[Any], views: Mapping[str, tuple[str, str]]) -> dict[str, list[Any]]:
    """In a generated navigation without the records (``nav: index``), each section
    left holding only a root's views and its README becomes one entry, in place: the
    README (else the first view) under the section's title. Every template lists every
    entry on every page, so four view entries cost four renders a page at any size;
    the views are a bar at the top of the README and of each other instead
    (:func:`mkdocs_adr.views.page.view_bar`, ADR-0054).

    ``views``: each view's src -> (kind, root key). Returns each collapsed root's key ->
    its pages, the entry first."""
    out: dict[str, list[Any]] = {}
    for n, item in enumerate(items):
        if not getattr(item, "is_section", False):
            continue
        children = item.children
        out.update(collapse_roots(children, views))
        ours = [ch for ch in children if _is_page(ch) and ch.file.src_uri in views]
        if not ours or not all(ch in ours or _is_index(ch) for ch in children):
            continue
        landing = next((ch for ch in children if ch not in ours), ours[0])
        landing.title, landing.parent = item.title, item.parent
        items[n] = landing
        for page in ours:
            if page is not landing:
                page.parent = None
        out[views[ours[0].file.src_uri][1]] = [landing, *(p for p in ours if p is not landing)]
    return out


def prune(items: list[Any], drop: set[str], index_pages: Mapping[str, Any]) -> list[Any]:
    """An explicit navigation without the pages in ``drop``; where a section loses them
    and no INDEX is listed anywhere, the INDEX takes the place of the first one.

    ``index_pages`` maps each INDEX src path to its file (or None)."""
    listed = {p.file.src_uri for p in nav_pages(items)}
    missing = [f for src, f in index_pages.items() if src not in listed and f is not None]

    def walk(children: list[Any]) -> list[Any]:
        out: list[Any] = []
        for ch in children:
            if _is_page(ch) and ch.file.src_uri in drop:
                ch.parent = None  # out of the navigation: no section claims it
                while missing:
                    f = missing.pop(0)
                    if _is_page(f.page):
                        out.append(f.page)
                continue
            if getattr(ch, "is_section", False):
                ch.children = walk(ch.children)
                if not ch.children:
                    continue
            out.append(ch)
        return out

    return walk(items)


def escape_sections(items: list[Any]) -> None:
    """Every section title of a generated navigation HTML-escaped (in place).

    The host names such sections after folders (``<svg onload=...>`` is a valid folder
    name) and themes print titles raw; record titles are escaped the same way
    (:func:`mkdocs_adr.views.page.page_title`). Titles written in an explicit ``nav:``
    are the site author's and left as written."""
    for item in items:
        if getattr(item, "is_section", False):
            title = getattr(item, "title", None)
            if isinstance(title, str):
                item.title = page_view.esc(title)
            escape_sections(item.children)


#: Frontmatter keys that themes print as HTML wherever the page is listed (Material:
#: ``status`` and ``subtitle`` in the navigation of every page, ``description`` in the
#: head, ``tags`` in search results); a record's values are text, and escaped.
SHOWN_META = ("status", "subtitle", "description", "tags")


def escape_shown_meta(meta: MutableMapping[str, Any]) -> None:
    """A record page's :data:`SHOWN_META` strings (and string list items) HTML-escaped,
    in place, as its title is (:func:`mkdocs_adr.views.page.page_title`)."""
    for key in SHOWN_META:
        value = meta.get(key)
        if isinstance(value, str):
            meta[key] = page_view.esc(value)
        elif isinstance(value, list):
            meta[key] = [page_view.esc(v) if isinstance(v, str) else v for v in value]


#: Page meta keys a theme's templates act on, whose bad value stops the host's build
#: with a traceback: a ``template`` the theme does not have (every theme), and in
#: Material an ``icon`` it cannot find and a ``hide`` that is not a list of names.
THEME_META = ("template", "icon", "hide")


def theme_meta_faults(
    meta: MutableMapping[str, Any], has_template: Callable[[str], bool], *, material: bool
) -> list[tuple[str, str, str]]:
    """Remove from a record page's ``meta`` the :data:`THEME_META` values its theme would
    fail on; ``(key, what is wrong, fix)`` for each. ``has_template`` tells whether the
    theme has a template file (``main.html``, ``.icons/material/x.svg``)."""
    faults: list[tuple[str, str, str]] = []
    template = meta.get("template")
    if template is not None and not (isinstance(template, str) and has_template(template)):
        faults.append(
            ("template", "names no template of the theme", "remove it, or add the template")
        )
    if material:
        icon = meta.get("icon")
        if icon is not None and not (
            isinstance(icon, str) and "/" in icon and has_template(f".icons/{icon}.svg")
        ):
            faults.append(
                (
                    "icon",
                    "names no icon of the theme",
                    "use a name from Material's icon search, such as material/scale-balance",
                )
            )
        hide = meta.get("hide")
        if hide is not None and not (
            isinstance(hide, list) and all(isinstance(v, str) for v in hide)
        ):
            faults.append(("hide", "is not a list of names", "write a list: [toc, navigation]"))
    for key, _what, _fix in faults:
        del meta[key]
    return faults


def frontmatter_line(path: Path, key: str) -> int | None:
    """The line of ``key:`` in the frontmatter of the file at ``path`` (None: not found)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = [fh.readline() for _ in range(200)]
    except OSError:
        return None
    if not lines or lines[0].strip() != "---":
        return None
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() in ("---", "..."):
            return None
        if line.startswith(f"{key}:") or line.startswith(f"{key} :"):
            return number
    return None


def nav_pages(items: list[Any]) -> list[Any]:
    """The pages of a navigation, depth first."""
    out: list[Any] = []
    for item in items:
        if _is_page(item):
            out.append(item)
        children = getattr(item, "children", None)
        if children:
            out.extend(nav_pages(children))
    return out


def set_parents(items: list[Any], parent: Any) -> None:
    for item in items:
        item.parent = parent
        if getattr(item, "is_section", False):
            set_parents(item.children, item)


def read_guard(
    data: dict[str, Any],
    archived: Mapping[str, search.ArchivedPage],
    mode: str,
    *,
    html_text: bool,
) -> tuple[dict[str, Any] | None, list[str]]:
    """A search index with ``read_guard`` applied (None when nothing changes), and the
    warnings for the host to log. A prebuilt lunr index is rebuilt to match."""
    new, changed = search.apply(data, archived, mode, html_text=html_text)
    if not changed:
        return None, []
    if "index" not in new:
        return new, []
    return _rebuild_lunr(new)


def _rebuild_lunr(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
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
        warning = f"read_guard: cannot rebuild the prebuilt search index ({exc}); dropped"
        return {k: v for k, v in data.items() if k != "index"}, [warning]
    return {**data, "index": idx.serialize()}, []


def _heading(markdown_title: Callable[[str], str | None], markdown: str) -> str | None:
    """The host's title of a page from its first heading, as the heading shows: the
    host gives the heading's Markdown (``Use `nop` for [ADR-3](x.md)``)."""
    found = markdown_title(markdown)
    return titles.inline_text(found) if found else found


def plain_titles(data: dict[str, Any], escaped: Collection[str]) -> bool:
    """In a plain-text search index (MkDocs' own, which escapes what it shows), the page
    titles of the pages at ``escaped`` (URLs) unescaped: they are the HTML-escaped titles
    handed to the host (:func:`mkdocs_adr.views.page.page_title`), which would otherwise
    show as ``Don&#x27;t``. Whether anything changed."""
    docs = data.get("docs")
    changed = False
    for entry in docs if isinstance(docs, list) else ():
        if isinstance(entry, dict) and entry.get("location") in escaped:
            title = entry.get("title")
            if isinstance(title, str) and html.unescape(title) != title:
                entry["title"] = html.unescape(title)
                changed = True
    return changed


def rewrite_search_index(
    path: Path,
    archived: Mapping[str, search.ArchivedPage],
    mode: str,
    *,
    html_text: bool,
    escaped: Collection[str] = (),
) -> list[str]:
    """Apply ``read_guard`` to the search index written at ``path``; the warnings. In a
    plain-text index, the titles of the pages at ``escaped`` are unescaped first
    (:func:`plain_titles`)."""
    escaped = () if html_text else escaped
    if (mode == "off" or not archived) and not escaped:
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        return [f"read_guard: cannot read {path}: {exc}; archived bodies stay indexed"]
    if not isinstance(data, dict):
        return []
    unescaped = plain_titles(data, escaped)
    new, warnings = read_guard(data, archived, mode, html_text=html_text)
    if new is None:
        if not unescaped:
            return warnings
        new, warnings = _rebuild_lunr(data) if "index" in data else (data, [])
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(
        json.dumps(new, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
        encoding="utf-8",
    )
    os.replace(tmp, path)
    return warnings


def watched_folders(engine: Config) -> list[Path]:
    """What ``serve`` must watch besides docs_dir: roots outside it, and the work dir."""
    out = [
        folder
        for root in engine.roots
        if (folder := engine.root_dir(root)).is_dir()
        and not within(folder.resolve(), engine.docs_dir.resolve())
    ]
    if engine.work_path.is_dir():
        out.append(engine.work_path)
    return out


def mounted_files(engine: Config) -> dict[str, Path]:
    """The files of every root outside docs_dir, by the ``src_uri`` the site gives them
    (:meth:`Config.src_uri`), sorted. Hidden files and folders and the work folder are
    left out."""
    out: dict[str, Path] = {}
    work = engine.work_path.resolve()
    for folder_rel, _url in engine.mounts:
        folder = engine.project_dir / folder_rel
        for here, dirs, names in os.walk(folder):
            dirs[:] = sorted(
                d for d in dirs if not d.startswith(".") and (Path(here) / d).resolve() != work
            )
            for name in sorted(names):
                if name.startswith("."):
                    continue
                path = Path(here) / name
                src = engine.src_uri(engine.rel(path))
                if src:
                    out[src] = path
    return out


def site_links(engine: Config, src: str, page: str, markdown: str) -> str | None:
    """``markdown`` of the page ``src`` (project-relative path ``page``) with each
    relative link that names a file on disk the site publishes elsewhere rewritten to
    that file's place in the site (None: nothing to rewrite).

    A root outside docs_dir is published under its URL prefix, so a link written
    relative to the file on disk (``../../docs/guide.md`` in ``doc/adr/0001-x.md``, or
    ``../doc/adr/0001-x.md`` in ``docs/index.md``) would miss in the site; it is
    pointed at the published page. Links MkDocs already resolves (``0002-x.md`` between
    records of one root) and links to files the site does not publish are left as
    written (MkDocs reports the latter, as for any page).
    """
    docs = engine.docs_rel
    edits = []
    for link in links.find_links(markdown):
        path = unquote(link.path)
        if not links.is_local(link.path) or path.startswith("/"):
            continue
        target = links.resolve(page, link.path, docs)
        new_src = engine.src_uri(target) if not links.escapes(target) else None
        as_written = posixpath.normpath(posixpath.join(posixpath.dirname(src), path))
        if not new_src or as_written == new_src:
            continue
        edits.append((link.start, link.end, links.rewrite_destination(link, new_src, src, "")))
    return links.apply_edits(markdown, edits) if edits else None


def refused_notes(left_out: Iterable[str], refused: Mapping[str, Problem]) -> list[str]:
    """One note per refused file or folder the host listed: what is left out and why
    (a looping folder stands for the copies the host's walk found below it)."""
    count: dict[str, int] = {}
    for src in left_out:
        path = src
        while path and path not in refused:
            path = posixpath.dirname(path)
        count[path or src] = count.get(path or src, 0) + 1
    notes = []
    for key in sorted(count):
        problem = refused.get(key)
        why = f"{problem.code}: {problem.message}" if problem is not None else "refused"
        below = f" ({count[key]} files at and below it)" if count[key] > 1 else ""
        notes.append(f"{key}: left out of the site{below}, {why}")
    return notes


def _filled(content: str, slot: str, drawings: list[str]) -> str:
    """``content`` with slot ``n`` (``slot`` formatted with ``n``) replaced by
    ``drawings[n]``, its first occurrence each, in one pass over the page: a thousand-row
    INDEX page is copied once, not once per table (ADR-0067)."""
    parts: list[str] = []
    done = 0
    for n, drawn in enumerate(drawings):
        marker = slot.format(n=n)
        at = content.find(marker, done)
        if at < 0:  # (not in order: each replaced in turn, as the page was before)
            for m, other in enumerate(drawings):
                content = content.replace(slot.format(n=m), other, 1)
            return content
        parts.extend((content[done:at], drawn))
        done = at + len(marker)
    parts.append(content[done:])
    return "".join(parts)


def after_h1(html: str, block: str) -> str:
    """``block`` right after the page's first ``<h1>`` (at the top without one)."""
    end = html.find("</h1>")
    if end < 0:
        return block + html
    end += len("</h1>")
    return html[:end] + block + html[end:]


# ---------------------------------------------------------------------------- build


def card(rec: Record) -> tuple[Any, ...]:
    """A record as the site's views and its page's additions show it: everything but its
    prose (:class:`~mkdocs_adr.model.Parsed` compares without its text) and hash."""
    return (
        rec.id,
        rec.path,
        rec.root,
        rec.domain,
        rec.archived,
        rec.number,
        rec.relations,
        rec.units,
        rec.symlink,
        rec.parsed,
    )


class PageMemo:
    """What a serve's last build made of one page, its three steps in one entry found with
    one look-up by src (ADR-0068): the Markdown step (``md_*``: the Markdown and meta it
    was given, what it gave, the key of what else it read and the record it read it from,
    None when not a record page), the HTML before search indexing (``html_*``: the host's
    HTML, the search line, what it gave, the record and language of the line) and after it
    (``ctx_*``: the host's HTML, header and banners, what follows the text, what it gave,
    the page's inputs they were made for). A field is None until its step has run.
    :meth:`SiteBuild.stale_pages` sets ``now`` to its build's token with the page's record
    and inputs of that build, so the hooks do not look them up again."""

    __slots__ = (
        "ctx_after",
        "ctx_in",
        "ctx_inputs",
        "ctx_out",
        "ctx_top",
        "html_in",
        "html_lang",
        "html_line",
        "html_out",
        "html_rec",
        "inputs_now",
        "md_given",
        "md_in",
        "md_meta",
        "md_out",
        "md_read",
        "md_rec",
        "now",
        "rec_now",
    )

    def __init__(self) -> None:
        self.now: object = None  # the build (its token) that set rec_now and inputs_now
        self.rec_now: Record | None = None
        self.inputs_now: tuple[Any, ...] | None = None
        self.md_in: str | None = None
        self.md_given: dict[str, Any] = {}
        self.md_out: str | None = None
        self.md_meta: dict[str, Any] = {}
        self.md_read: object = None
        self.md_rec: Record | None = None
        self.html_in: str | None = None
        self.html_line = ""
        self.html_out = ""
        self.html_rec: Record | None = None
        self.html_lang = ""
        self.ctx_in: str | None = None
        self.ctx_top = ""
        self.ctx_after = ""
        self.ctx_out = ""
        self.ctx_inputs: tuple[Any, ...] | None = None


@dataclass
class Memory:
    """What a host that builds the site again and again (``mkdocs serve``) keeps from one
    build to the next (ADR-0045): for each record page, everything the site's additions
    to it depend on (:meth:`SiteBuild.page_inputs`) and the HTML they came to. A rebuild
    redraws only the pages whose inputs changed, and names them to the host, which
    rebuilds them under ``--dirty`` although their files did not change."""

    #: record page src -> (inputs, header and banners, what follows the text); kept on
    #: disk for a one-off build (docs/adr/0051), without the inputs (None)
    pages: dict[str, tuple[tuple[Any, ...] | None, str, str]] = field(default_factory=dict)
    #: whether a build has filled it (before that, every page counts as changed)
    filled: bool = False
    #: the options it was filled under (other options: every page counts as changed)
    options: str = ""
    #: what every generated view was made from (:meth:`SiteBuild.views_key`), and the
    #: views made from it, by name: while the key holds, a view is not made again
    views_key: tuple[Any, ...] = ()
    views: dict[str, Any] = field(default_factory=dict)
    #: per-record pieces of the views (index.json and llms.txt lines, INDEX rows,
    #: timeline entries) by view, each by its key (ADR-0050), for these options
    pieces: dict[str, dict[Any, str]] = field(default_factory=dict)
    pieces_options: tuple[str, str] = ("", "")
    #: the same pieces (and the INDEX's rows as data) by record, from each view's last
    #: render, reused by the record object while nothing it reads changed (ADR-0062)
    kept: dict[str, Kept] = field(default_factory=dict)
    kept_context: tuple[Any, ...] = ()
    #: each root's graph page drawings, by slot (:func:`graphpage.fill`)
    drawings: dict[str, graphpage.Drawings] = field(default_factory=dict)
    #: each record's search line (:meth:`SiteBuild._search_line`) by what it shows
    lines: dict[tuple[Any, ...], tuple[str, str]] = field(default_factory=dict)
    #: the dependency index of the record pages (:meth:`SiteBuild.stale_pages`): for each
    #: page, the ids (upper case) of every record its inputs were worked out from; each
    #: record's :func:`card` by path; what every page's inputs share
    #: (:meth:`SiteBuild.pages_key`); the last build's page context (its log and order)
    reads: dict[str, frozenset[str]] = field(default_factory=dict)
    cards: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    pages_key: tuple[Any, ...] = ()
    context: page_view.PageContext | None = None
    #: each page's Markdown step (:meth:`SiteBuild.page_markdown`) by src: what it was
    #: given, what it gave, the key of what else it read and the record it read it
    #: from (None: not a record page); for ``markdown_options``
    markdown: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    markdown_options: tuple[Any, ...] = ()
    #: (a one-off build's snapshot keeps ``markdown``; serve keeps all three steps of a
    #: page in one :class:`PageMemo` by src, ADR-0068)
    page_of: dict[str, PageMemo] = field(default_factory=dict)
    #: each record's :func:`card` and search line by path, with the record object they
    #: were made from: a record the log kept as it was (the same object) has the same
    #: ones, found with one look-up (:meth:`SiteBuild.card`, ADR-0055)
    card_of: dict[str, tuple[Record, tuple[Any, ...]]] = field(default_factory=dict)
    line_of: dict[str, tuple[Record, str, str]] = field(default_factory=dict)
    #: each record's one-line summary by path, with the record and relation graph it
    #: was made from (:func:`llms.summaries`, ADR-0059)
    summary_of: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    #: the folders below docs_dir the last :func:`endless_walk` met, none a symlink,
    #: with their stat rows
    folders: tuple[str, list[str], tuple[tuple[int, ...], ...]] | None = None
    #: each relative URL by (the target's URL, the page's URL): the views name every
    #: record from the same few pages build after build (:meth:`SiteBuild.relative`)
    urls: dict[tuple[str, str], str] = field(default_factory=dict)
    #: each record's src by path, for (docs folder, mounts) (:meth:`SiteBuild.record_srcs`)
    srcs: tuple[tuple[Any, ...], dict[str, str | None]] = ((), {})
    #: each file's URL by what the host makes it from (:func:`_url_made_from`)
    url_of: dict[tuple[Any, ...], str] = field(default_factory=dict)

    def page_memo(self, src: str) -> PageMemo:
        """The :class:`PageMemo` of the page at ``src``, a new one for a page not seen."""
        entry = self.page_of.get(src)
        if entry is None:
            entry = self.page_of[src] = PageMemo()
        return entry


def _url_made_from(f: SiteFile) -> tuple[Any, ...] | None:
    """What the host makes ``f``'s URL from, when it makes it on first use and has not
    yet (MkDocs' ``File.url``, a cached property: its function of the file's ``dest_uri``
    and ``use_directory_urls``); None when the URL is already there (set by a plugin,
    or made) or is made otherwise."""
    return _url_maker(type(f))(f)


@functools.lru_cache(maxsize=64)
def _url_maker(kind: type) -> Callable[[SiteFile], tuple[Any, ...] | None]:
    """:func:`_url_made_from` for the files of one class: whether the class makes its
    URL on first use is asked once, not once a file (a thousand files a rebuild)."""
    made = getattr(kind, "url", None)
    if not isinstance(made, functools.cached_property):
        return lambda f: None
    func = made.func

    def made_from(f: SiteFile) -> tuple[Any, ...] | None:
        known = getattr(f, "__dict__", None)
        if known is None or "url" in known:
            return None
        return (func, f.dest_uri, getattr(f, "use_directory_urls", None))

    return made_from


class SiteBuild:
    """Everything one build knows; the host makes a new one for every build."""

    def __init__(
        self,
        engine: Config,
        *,
        serve: bool = False,
        search_html: bool = True,
        site_name: str = "",
        site_url: str | None = None,
        memory: Memory | None = None,
        keep: bool = False,
    ):
        self.engine = engine
        #: Whether this build keeps what it made for the next build of the same site on
        #: disk, and starts from what the last one kept when nothing it depends on
        #: changed (a one-off build, ``mkdocs build``; docs/adr/0051). ``replay``: it did.
        self.keep = keep and memory is None and disk_cache.enabled()
        self.replay = False
        self.snapshot: disk_cache.Snapshot | None = None
        self.snapshot_key = ""
        self.kept_changed = False
        #: What the previous build of this host left (serve), and this build's inputs
        #: of each record page (filled by :meth:`stale_pages`).
        self.memory = memory
        self.inputs: dict[str, tuple[Any, ...]] = {}
        #: the page whose Markdown step ran last under serve: (src, its entry, record)
        self.page_at: tuple[str, PageMemo, Record | None] | None = None
        self.token = object()  # this build, as a page's entry names it (PageMemo.now)
        self.views_fresh = False  # whether memory's views were made from this log
        #: what every kept piece reads beside the records (:meth:`kept`), from the views key
        self.kept_context: tuple[Any, ...] | None = None
        self.stale: dict[int, tuple[Log, frozenset[str]]] = {}  # by id of the log before
        self.neighbourhoods: dict[str, tuple[graphdata.GraphData, int]] = {}
        self.search_lines: dict[str, str] = {}  # record path -> its search line
        self.reach: dict[str, list[str]] = {}  # id -> the nodes its local graph's walk met
        #: record page src -> the ids its inputs were worked out from (page_inputs)
        self.reads: dict[str, frozenset[str]] = {}
        self.cards: dict[str, tuple[Any, ...]] = {}  # record path -> card (_touched)
        self.markdown_checked = False  # page_markdown checked the memory's options
        #: The site's name (the H1 of llms.txt) and its public URL: with one, the links
        #: of llms.txt and index.json are absolute.
        self.site_name = site_name
        self.site_url = site_url or None
        #: Under serve the newest CURRENT draft is previewed; a build never shows one.
        self.serve = serve
        #: Whether the search index holds HTML (Material) or plain text (MkDocs' own).
        self.search_html = search_html
        self.log: Log | None = None
        self.ctx: page_view.PageContext | None = None
        self.views: list[RootViews] = []
        self.files: FileHost | None = None
        self.roots: dict[str, RootPages] = {}  # by root key
        self.record_at: dict[str, Record] = {}  # src_uri -> record
        self.file_of: dict[str, SiteFile] = {}  # unambiguous id -> file
        self.mirror_at: dict[str, mirrors.Mirror] = {}  # src_uri -> mirror
        self.translations: dict[str, list[tuple[str, str]]] = {}  # record path -> (lang, src)
        self.view_at: dict[str, tuple[str, str]] = {}  # src -> (kind, root key)
        #: the pages of archived records (their URLs read once the site is written)
        self.archived_pages: list[tuple[Addressed, search.ArchivedPage]] = []
        self.nav_mode = "full"
        self.out_of_nav: set[str] = set()  # src_uris kept out of the nav
        #: pages that carry their root's view bar (its views out of the nav) -> the bar's
        #: entries: (src, name as shown, escaped)
        self.bar_at: dict[str, list[tuple[str, str]]] = {}
        self.files_by_src: dict[str, SiteFile] = {}
        self.file_at_path: dict[str, SiteFile] = {}  # record path -> file
        self._published: tuple[tuple[str, str], ...] | None = None  # (:meth:`published`)
        #: local graphs drawn once per (neighbourhood, root), filled in per page
        self.drawings: dict[tuple[tuple[str, ...], str], svg.Prepared] = {}
        self.previews: dict[str, str] = {}  # src -> DRAFT banner (serve)
        self.mounted: dict[str, str] = {}  # src -> project-relative path, roots outside docs
        self.refused: dict[str, Problem] = {}  # src (file or folder) -> why it is left out
        self.unpublished: set[str] = set()  # paths of records left out (refused_files)
        self.titled_pages: list[Addressed] = []  # pages whose title we escaped (search)
        self.llms_src: str | None = None  # llms.txt, when this build wrote it
        self.index_json: dict[str, str] = {}  # root key -> src of the index.json written
        #: Material's page status shows each record's status (use_page_status)
        self.page_status = False
        #: The words of the site's language (use_theme), and why it is English when the
        #: theme asked for a language without a catalogue (logged by add_pages).
        self.words: i18n.Messages = i18n.ENGLISH
        self.language_note: str | None = None
        self.home_src: str | None = None  # the generated home page, if docs_dir has none

    # ------------------------------------------------------------------ files

    def read_log(self, cache: ParseCache | None = None) -> Report:
        """Load the log and judge its views; the problems and whether they fail."""
        # a one-off build parses nothing a later build of this process could reuse: the
        # disk cache's kept log answers when the walk vouches for it (docs/adr/0049)
        self.log = adr_log = load(self.engine, cache=None if self.keep else cache)
        self.views = root_views(adr_log)
        views = [p for v in self.views for p in v.problems]
        problems = (*adr_log.problems, *(p for p in views if p.code not in BUILD_INFO_CODES))
        drift = [p for p in views if p.code in BUILD_INFO_CODES]
        return Report(
            (
                *((LEVELS[p.severity], p.format()) for p in problems),
                *((logging.INFO, f"{p.format()} (the site shows the fresh one)") for p in drift),
            ),
            failure(problems, self.engine.fail_on),
        )

    def add_pages(self, files: FileHost) -> list[str]:
        """Map records and mirrors to their files and add this build's generated pages;
        the notes for the host to log (at info level)."""
        assert self.log is not None
        adr_log, engine = self.log, self.engine
        self.files = files
        docs = engine.docs_dir
        self.refused = refused = refused_files(adr_log)
        # (most logs refuse nothing: no pass over every file of the site then)
        left_out = (
            [f.src_uri for f in files if refusal(f.src_uri, refused) is not None] if refused else []
        )
        for gone in left_out:
            files.remove(gone)
        for at, path in mounted_files(engine).items():
            if refusal(at, refused) is not None:
                left_out.append(at)
                continue
            files.mount(at, path, Path(os.path.relpath(path, docs)).as_posix())
            self.mounted[at] = engine.rel(path)
        get = files.get
        # (every id names one record when there are as many ids as records)
        unique = len(adr_log.by_id) == len(adr_log.records)
        for rec, src in zip(adr_log.records, self.record_srcs(adr_log), strict=True):
            if not src:
                continue
            if refused and refusal(src, refused) is not None:
                self.unpublished.add(rec.path)
                continue
            found = get(src)
            if found is None:
                continue
            self.record_at[found.src_uri] = rec
            self.file_at_path[rec.path] = found
            if unique or adr_log.get(rec.id) is rec:
                self.file_of[rec.id] = found
        for mirror in mirrors.match(adr_log):
            src = redirects.docs_rel(adr_log, mirror.path)
            found = files.get(src) if src else None
            if found is None:
                continue
            self.mirror_at[found.src_uri] = mirror
            if mirror.original is not None:
                self.translations.setdefault(mirror.original.path, []).append(
                    (mirror.lang, found.src_uri)
                )
        if self.keep:
            self._start_from_snapshot(files)
        elif self.memory is not None:
            context = self.pieces_context()
            key = self.views_key(context)
            if self.memory.kept_context != context:  # (an equal one stays the same
                self.memory.kept_context = context  # object: kept views compare it fast)
            self.kept_context = self.memory.kept_context
            self.views_fresh = self.memory.views_key == key
            if not self.views_fresh:
                self.memory.views_key, self.memory.views = key, {}
        drawn = self.memo(
            "drawn graph", lambda: page_view.drawn_graph(adr_log, self.kept("graph nodes"))
        )
        self.ctx = page_view.PageContext.build(
            adr_log, self.words, drawn, kept=self.kept("page order")
        )
        # the agent files' order by root is the page context's: not sorted twice a build
        llms.by_root(adr_log, order=self.ctx.order)
        notes = refused_notes(left_out, refused)
        if self.language_note:
            notes.append(self.language_note)
        if self.serve:
            notes += self._preview(files)
        for cfg, rv in zip(engine.roots, self.views, strict=True):
            if engine.root_dir(cfg).is_dir():
                self.roots[cfg.path] = self._root_pages(cfg.path, rv, files)
        if files.get(home.HOME_SRC) is None and files.get("README.md") is None:
            self._home(files)
        if engine.redirects:
            notes += self._redirects(files)
        if engine.agent_files:
            notes += self._agent_files(files)
        if files.get(STYLESHEET) is None:
            files.add(STYLESHEET, assets.stylesheet())
        self.nav_mode = nav_mode(engine.nav, len(adr_log.records), engine.nav_limit)
        if self.nav_mode == "index":
            self.out_of_nav.update(self.record_at)
            self.out_of_nav.update(self.mirror_at)
        return notes

    def record_srcs(self, adr_log: Log) -> list[str | None]:
        """Each record's ``src`` in the site (:func:`redirects.docs_rel`; None: not
        published), in the log's order. Under serve, kept by path for the same docs
        folder and mounts, all it is made from: a rebuild looks each one up, in C."""
        engine, memory = self.engine, self.memory
        if memory is None:
            return [redirects.docs_rel(adr_log, r.path) for r in adr_log.records]
        key = (engine.docs_rel, engine.mounts)
        if memory.srcs[0] != key or len(memory.srcs[1]) > len(adr_log.records) + 64:
            memory.srcs = (key, {})
        known = memory.srcs[1]
        paths = [r.path for r in adr_log.records]
        for path in paths:
            if path not in known:
                known[path] = redirects.docs_rel(adr_log, path)
        return list(map(known.__getitem__, paths))

    def _root_pages(self, key: str, rv: RootViews, files: FileHost) -> RootPages:
        assert self.log is not None and self.ctx is not None
        adr_log, engine = self.log, self.engine
        pages = RootPages(key=key, views=rv)
        index_src = redirects.docs_rel(adr_log, rv.index_target)
        if index_src:

            def index() -> tuple[list[index_view.Table], str, str]:
                computed = index_view.tables(adr_log, rv.root, kept=self.kept(f"index:{key}"))
                slotted = index_view.render_slotted(
                    adr_log, rv.root, computed=computed, words=self.words
                )
                text = index_view.render(
                    adr_log, rv.root, computed=computed, kept=self.kept(f"INDEX.md:{key}")
                )
                return computed[1], slotted, text

            pages.index_tables, pages.index_slotted, text = self.memo(f"index:{key}", index)
            # a committed INDEX (fresh or drifted) is ours: the fresh render replaces it
            files.add(index_src, text)
            pages.index_src = index_src
            self.view_at[index_src] = ("index", key)
        current = redirects.docs_rel(adr_log, f"{rv.root.path}/{engine.current_page}")
        if current and files.get(current) is not None:
            pages.current_src = current
            self.view_at[current] = ("current", key)
        folder = (engine.src_uri(rv.root.path) or key).rstrip("/")
        # the names beside the graph page and the timeline, listed once for both (a
        # pass over every file of the site); the graph page joins them once added
        taken = names_in(files, folder)
        if engine.graph:
            name = GRAPH_PAGE if GRAPH_PAGE not in taken else free_name(taken, GRAPH_PAGE)
            graph_src = f"{folder}/{name}" if folder else name
            graph = self.ctx.graph
            pages.graph = self.memo(
                f"graph:{key}:{graph_src}:{index_src}",
                lambda: graphpage.build(
                    graph,
                    rv.root,
                    key,
                    index_name=posixpath.basename(index_src or engine.index_page),
                    title=index_view.heading(adr_log, rv.root, "graph", self.words),
                    unpublished=self.unpublished,
                    words=self.words,
                ),
            )
            files.add(graph_src, pages.graph.markdown)
            taken.add(name)
            pages.graph_src = graph_src
            self.view_at[graph_src] = ("graph", key)
        self._timeline(pages, rv, files, folder, taken)
        return pages

    def _timeline(
        self, pages: RootPages, rv: RootViews, files: FileHost, folder: str, taken: set[str]
    ) -> None:
        """The root's timeline page (``TIMELINE.md``, or a free name beside a user's):
        ``taken`` is every name in its ``folder``."""
        assert self.log is not None
        name = TIMELINE_PAGE if TIMELINE_PAGE not in taken else free_name(taken, TIMELINE_PAGE)
        src = f"{folder}/{name}" if folder else name
        adr_log = self.log

        def timeline() -> tuple[list[timeline_view.Month], str]:
            records = index_view.root_records(adr_log, rv.root)
            months = timeline_view.months(records, self.kept(f"timeline order:{pages.key}"))
            heading = index_view.heading(adr_log, rv.root, "timeline", self.words)
            return months, timeline_view.render_slotted(heading, months, len(records), self.words)

        pages.timeline_months, pages.timeline_slotted = self.memo(f"timeline:{pages.key}", timeline)
        files.add(src, pages.timeline_slotted)
        pages.timeline_src = src
        self.view_at[src] = ("timeline", pages.key)

    def section_titles(self) -> dict[str, str]:
        """Each root's folder in the site (docs-relative) -> its navigation title: the
        root's ``title``, else ``Decisions`` (``Decisions: <folder>`` when several
        untitled roots need telling apart)."""
        engine = self.engine
        out: dict[str, str] = {}
        for cfg in engine.roots:
            folder = (engine.src_uri(cfg.path) or cfg.path).rstrip("/")
            if folder in ("", "."):
                continue  # root `.`: its pages are the top level, no section to name
            if cfg.title:
                out[folder] = cfg.title
            elif len(engine.roots) > 1:
                out[folder] = self.words.t("home.section-named", folder=folder)
            else:
                out[folder] = self.words.t("home.section")
        return out

    def _home(self, files: FileHost) -> None:
        """A home page for a ``docs_dir`` without one (ADR-0039)."""
        assert self.log is not None
        titles = self.section_titles()
        entries = []
        for cfg in self.engine.roots:
            rp = self.roots.get(cfg.path)
            if rp is None:
                continue
            folder = (self.engine.src_uri(cfg.path) or cfg.path).rstrip("/")
            entries.append(
                home.RootEntry(
                    title=titles.get(folder, cfg.title or self.words.t("home.section")),
                    statuses=[r.status for r in self.log.records if r.root == rp.key],
                    index_src=rp.index_src,
                    current_src=rp.current_src,
                    graph_src=rp.graph_src,
                )
            )
        heading = home.HEADING if self.words is i18n.ENGLISH else self.words.t("home.heading")
        files.add(home.HOME_SRC, home.render(heading, entries, self.words))
        self.home_src = home.HOME_SRC

    def _preview(self, files: FileHost) -> list[str]:
        """The newest unpublished CURRENT draft in place of the published page (SPEC 4)."""
        assert self.log is not None
        from .preview import preview_pages  # (serve only)

        pages, notes = preview_pages(self.log, self.engine.preview, self.words)
        for preview in pages:
            files.add(preview.src_uri, preview.markdown)
            self.previews[preview.src_uri] = preview.banner
        return notes

    def _redirects(self, files: FileHost) -> list[str]:
        assert self.log is not None
        notes = []
        # every file's output path, listed only when a redirect is to be written (most
        # builds have none to write: a pass over every file saved)
        dests: set[str] | None = None
        work = self.log.config.work_path
        moves = []
        if receipts_dir(work).is_dir():  # (the journal, its plans and file operations: on use)
            from .journal import receipt_moves

            moves = receipt_moves(work)
        for old in redirects.old_locations(self.log, moves):
            target_src = redirects.docs_rel(self.log, old.record.path)
            target = files.get(target_src) if target_src else None
            if target is None or old.src == target.src_uri:
                continue
            probe = files.probe(old.src)
            if dests is None:
                dests = {f.dest_uri for f in files}
            if files.get(old.src) is not None or probe.dest_uri in dests:
                notes.append(
                    f"{old.src}: a page exists at this old location of {old.record.id}; "
                    "no redirect page is written there"
                )
                continue
            url = target.url_relative_to(probe.url) if probe.url else target.url
            files.add(probe.dest_uri, redirects.page(url, f"{old.record.id} {old.record.title}"))
            dests.add(probe.dest_uri)
        return notes

    def _agent_files(self, files: FileHost) -> list[str]:
        """``index.json`` at each root's URL and ``llms.txt`` at the site root
        (:mod:`~mkdocs_adr.views.indexjson`, :mod:`~mkdocs_adr.views.llms`). A file of
        the docs already at one of those places is published as it is, with a note."""
        assert self.log is not None
        adr_log, engine = self.log, self.engine
        notes: list[str] = []

        def free(src: str) -> bool:
            if files.get(src) is None:
                return True
            notes.append(f"{src}: a file of the docs is published here; agent_files leaves it")
            return False

        links: list[llms.Link] = []
        llms_at = files.probe(llms.PATH)
        for cfg, rv in zip(engine.roots, self.views, strict=True):
            if cfg.path not in self.roots:
                continue
            folder = (engine.src_uri(rv.root.path) or cfg.path).strip("/")
            src = f"{folder}/{indexjson.NAME}" if folder not in ("", ".") else indexjson.NAME
            if not free(src):
                continue
            at = files.probe(src)
            made = functools.partial(self._index_json, rv.root, src, at)
            files.add(src, self.memo(f"json:{src}", made, True))
            self.index_json[cfg.path] = src
            added = files.get(src)
            links.append(llms.Link(src, self._agent_href(added, llms_at) if added else src))
        if free(llms.PATH):
            text = self.memo(
                f"llms:{links}",
                lambda: llms.render(
                    adr_log,
                    name=self.site_name,
                    url=self._agent_url(llms_at),
                    links=links,
                    entries=self.pieces("llms.txt"),
                    kept=self.kept("llms.txt", llms_at.url),
                ),
                True,
            )
            files.add(llms.PATH, text)
            self.llms_src = llms.PATH
        return notes

    def _index_json(self, root: RootInfo, src: str, at: SiteFile) -> str:
        assert self.log is not None
        return indexjson.render(
            self.log,
            root,
            self._agent_url(at),
            self.pieces(f"index.json:{src}"),
            kept=self.kept(f"index.json:{src}", at.url),
        )

    def _agent_href(self, target: SiteFile, at: SiteFile) -> str:
        """Where the agent files link ``target`` from the file ``at``: absolute with a
        ``site_url``, else relative."""
        if self.site_url:
            return self.site_url.rstrip("/") + "/" + target.url.lstrip("/")
        return self.relative(target, at)

    def relative(self, target: SiteFile, at: SiteFile) -> str:
        """``target.url_relative_to(at)``: a function of the two URLs, kept in the memory
        under serve (the host's files are new each build, their URLs mostly the same)."""
        memory = self.memory
        if memory is None:
            return target.url_relative_to(at)
        key = (target.url, at.url)
        found = memory.urls.get(key)
        if found is None:
            if len(memory.urls) > URLS_KEPT:
                memory.urls.clear()
            found = memory.urls[key] = target.url_relative_to(at)
        return found

    def _agent_url(self, at: SiteFile) -> llms.Href:
        by_path = self.file_at_path

        def url(rec: Record) -> str | None:
            found = by_path.get(rec.path)
            return self._agent_href(found, at) if found is not None else None

        return url

    def file(self, src: str | None) -> SiteFile | None:
        if not src or self.files is None:
            return None
        found = self.files_by_src.get(src)
        if found is None:
            found = self.files.get(src)
            if found is not None:
                self.files_by_src[src] = found
        return found

    # ------------------------------------------------------------ rebuilds

    def _start_from_snapshot(self, files: FileHost) -> None:
        """Take what the last build of this site kept when it was made from the same
        inputs (:meth:`snapshot_inputs`), else start an empty memory to keep."""
        engine = self.engine
        ident = f"{engine.config_file or ''}\0{engine.docs_dir}"
        self.snapshot = disk_cache.Snapshot(engine.project_dir, ident)
        self.snapshot_key = self.snapshot_inputs(files)
        kept = self.snapshot.load(self.snapshot_key)
        if isinstance(kept, Memory):
            self.memory, self.views_fresh, self.replay = kept, True, True
        else:
            self.memory, self.kept_changed = Memory(), True

    def snapshot_inputs(self, files: FileHost) -> str:
        """The key of everything a build's additions and generated pages are made from,
        beside the code (the snapshot's header has the code stamp): the log's records
        with their contents (:attr:`Log.fingerprint`), its configuration, day,
        excluded files and problems, the state of each root's views, the site's
        options and language, and every file of the site with the URL of each record."""
        assert self.log is not None
        adr_log = self.log
        digest = hashlib.sha256()
        parts = (
            adr_log.fingerprint,
            repr(self.engine),
            adr_log.today,
            repr(adr_log.excluded),
            repr(adr_log.problems),
            repr(adr_log.intake),
            repr(self.views),
            self.words.lang,
            self.site_url,
            self.site_name,
            self.page_status,
            self.search_html,
            sorted(self.unpublished),
            sorted(self.mirror_at),
            sorted(f.src_uri for f in files),
        )
        for part in parts:
            digest.update(f"{part}\n".encode())
        digest.update("\n".join(f"{k}\0{f.url}" for k, f in self.file_at_path.items()).encode())
        return digest.hexdigest()

    def keep_snapshot(self) -> None:
        """Write this build's memory for the next build (when it made anything new); the
        index and timeline tables are left out, as filling a page made again from the
        same inputs makes them again (:meth:`_index_tables`)."""
        if not self.keep or self.snapshot is None or self.memory is None:
            return
        if not self.kept_changed:
            return
        views: dict[str, Any] = {}
        for name, (_texts, value) in self.memory.views.items():
            if name.startswith("index:"):
                value = (None, value[1], value[2])
            elif name.startswith("timeline:"):
                value = (None, value[1])
            views[name] = ((), value)
        kept = Memory(pages=self.memory.pages, filled=True, views=views, lines=self.memory.lines)
        # a snapshot is taken only by a build of the same inputs (a replay), which never
        # compares what each page's Markdown step read: the records' cards were 40% of
        # the snapshot's unpickling
        kept.markdown = {src: (*got[:4], None, None) for src, got in self.memory.markdown.items()}
        kept.markdown_options = self.memory.markdown_options
        self.snapshot.save(self.snapshot_key, kept)

    @functools.cached_property
    def options(self) -> str:
        """The engine's options as the memory compares them (``repr``: one a build, it
        costs as much as the rest of a page's Markdown step)."""
        return repr(self.engine)

    def card(self, rec: Record) -> tuple[Any, ...]:
        """:func:`card` of ``rec``; under serve the last build's when the log kept the
        record as it was (the same object: :func:`mkdocs_adr.log.load` keeps a record
        whose file and analysis did not change), so an unchanged record costs a look-up."""
        memory = self.memory
        if memory is None:
            return card(rec)
        found = memory.card_of.get(rec.path)
        if found is not None and found[0] is rec:
            return found[1]
        made = card(rec)
        memory.card_of[rec.path] = (rec, made)
        return made

    def record_cards(self) -> dict[str, tuple[Any, ...]]:
        """Every record's :meth:`card` by path, in the log's order; once a build."""
        assert self.log is not None
        if self.cards or not self.log.records:
            return self.cards
        memory, out = self.memory, {}
        kept = memory.card_of if memory is not None else {}
        for rec in self.log.records:
            found = kept.get(rec.path)  # (:meth:`card`'s look-up, inlined)
            out[rec.path] = found[1] if found is not None and found[0] is rec else self.card(rec)
        self.cards = out
        return out

    def published(self) -> tuple[tuple[str, str], ...]:
        """Where each record is published: (path, URL), once a build. Under serve a URL
        the host has not made yet is taken from the memory by what it is made from
        (:func:`_url_made_from`): the files are new each build, their URLs the same, and
        making them (MkDocs quotes each path) cost a third of a rebuild's plugin calls."""
        if self._published is not None and len(self._published) == len(self.file_at_path):
            return self._published
        memory = self.memory
        if memory is None:
            found = tuple((path, f.url) for path, f in self.file_at_path.items())
        else:
            urls, out = memory.url_of, []
            if len(urls) > URLS_KEPT:
                urls.clear()
            kind: type | None = None
            maker: Callable[[SiteFile], tuple[Any, ...] | None] = _url_made_from
            for path, f in self.file_at_path.items():
                if type(f) is not kind:  # (the files are of one class: asked once)
                    kind = type(f)
                    maker = _url_maker(kind)
                made = maker(f)
                if made is None:
                    out.append((path, f.url))
                    continue
                url = urls.get(made)
                if url is None:
                    url = urls[made] = f.url
                out.append((path, url))
            found = tuple(out)
        self._published = found
        return found

    def pieces_context(self) -> tuple[Any, ...]:
        """What the views' pieces by record read beside the records (ADR-0062): the
        options, the language, the day, where each record is published, what is left
        out, the mirrors and the site's URL."""
        assert self.log is not None
        return (
            repr(self.engine),
            self.words.lang,
            self.log.today,
            self.published(),
            tuple(sorted(self.unpublished)),
            tuple(self.mirror_at),
            self.site_url,
        )

    def views_key(self, context: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
        """Everything the generated views (INDEX, timeline, graph pages, agent files) and
        each record page's additions are made from, as comparable data: the
        :meth:`pieces_context` (given, or worked out), every record but its prose
        (:func:`card`), the problems met reading the log and the state of each root's
        views (ADR-0045)."""
        assert self.log is not None
        adr_log = self.log
        return (
            *(context if context is not None else self.pieces_context()),
            tuple(self.record_cards().values()),
            adr_log.intake,
            tuple(self.views),
            self.site_name,
            self.page_status,
            self.search_html,
        )

    def pieces(self, name: str) -> dict[Any, str] | None:
        """The pieces of view ``name`` kept from earlier builds (ADR-0050), None
        without a memory; every piece is dropped when the options or language change,
        and a view's when it holds many more than the log has records."""
        memory = self.memory
        if memory is None or self.log is None:
            return None
        options = (self.options, self.words.lang)
        if memory.pieces_options != options:
            memory.pieces, memory.pieces_options = {}, options
        found = memory.pieces.setdefault(name, {})
        if len(found) > 4 * len(self.log.records) + 64:
            found.clear()
        return found

    def kept(self, name: str, *context: object) -> Kept | None:
        """The pieces by record that view ``name`` kept from its last render, begun for
        this build's log (ADR-0062); ``context`` is what the view's pieces read beside
        the records and :attr:`kept_context` (its own URL, its columns). None without a
        memory kept across builds (serve)."""
        memory, adr_log = self.memory, self.log
        if memory is None or adr_log is None or self.kept_context is None:
            return None
        if len(memory.kept) > 8 * len(self.engine.roots) + 64:
            memory.kept.clear()
        found = memory.kept.get(name)
        if found is None:
            found = memory.kept[name] = Kept()
        return found.begin(adr_log, (self.kept_context, context), self._stale_since)

    def _stale_since(self, before: Log) -> frozenset[str]:
        """:func:`stale_paths` from ``before`` to this build's log, once per log."""
        assert self.log is not None
        found = self.stale.get(id(before))
        if found is None or found[0] is not before:
            found = self.stale[id(before)] = (before, stale_paths(before, self.log))
        return found[1]

    def memo(self, name: str, make: Callable[[], _T], prose: bool = False) -> _T:
        """The view ``name``, made by ``make`` unless the previous build of this host made
        it from the same :meth:`views_key` (``prose``: and the same one-line summaries,
        the only prose of a record a view quotes: the agent files')."""
        memory = self.memory
        if memory is None:
            return make()
        adr_log = self.log
        texts: tuple[str, ...] = ()
        if prose and not self.keep and adr_log is not None:  # (a snapshot's key holds them)
            texts = llms.summaries(adr_log, memory.summary_of)
        found = memory.views.get(name) if self.views_fresh else None
        if found is not None and found[0] == texts:
            return cast(_T, found[1])
        value = make()
        memory.views[name], self.kept_changed = (texts, value), True
        return value

    def stale_pages(self) -> list[str]:
        """The pages (src) whose shown content this build changes although their own
        files may not have changed, compared with :attr:`memory` (ADR-0045): each record
        page whose :meth:`page_inputs` differ (every one on the first build), every
        mirror and CURRENT page (their banners follow other records). A host that
        rebuilds only changed files (``mkdocs serve --dirty``) must rebuild these too.

        A page's inputs are worked out again only when something they were worked out
        from changed (:meth:`_touched`); the others are the last build's."""
        assert self.ctx is not None
        if self.keep:
            return []  # a one-off build rebuilds every page
        memory, options = self.memory, self.options
        fresh = memory is not None and memory.filled and memory.options == options
        before = memory.pages if memory is not None and fresh else {}
        reads = memory.reads if memory is not None and fresh else {}
        key = self.pages_key()
        redo: set[str] | None = set()
        if not self.views_fresh:
            redo = self._touched(memory, key) if memory is not None and fresh else None
        stale = []
        # each record page's entry, by this build's src (the hooks' keys: the same
        # objects), told its record and inputs (ADR-0068)
        token, was = self.token, memory.page_of if memory is not None else {}
        entries: dict[str, PageMemo] = {}
        for src, rec in self.record_at.items():
            entry = was.pop(src, None)
            if entry is None:
                entry = PageMemo()
            entries[src] = entry
            entry.now, entry.rec_now = token, rec
            known = before.get(src)
            kept = known[0] if known is not None and src in reads else None
            if kept is not None and redo is not None and src not in redo:
                self.inputs[src] = entry.inputs_now = kept  # nothing a page is made from changed
                self.reads[src] = reads[src]
                continue
            inputs = self.inputs[src] = entry.inputs_now = self.page_inputs(rec, src)
            if known is None or known[0] != inputs:
                stale.append(src)
        entries.update(was)  # (the other pages' entries, as they were)
        stale.extend(self.mirror_at)
        stale.extend(rp.current_src for rp in self.roots.values() if rp.current_src)
        if memory is not None:
            memory.pages = {k: v for k, v in before.items() if k in self.inputs}
            memory.filled, memory.options = True, options
            memory.reads, memory.pages_key, memory.context = self.reads, key, self.ctx
            memory.page_of = entries
            if not self.views_fresh or not memory.cards:
                memory.cards = self.record_cards()
            paths = self.ctx.log.by_path
            by_path: list[dict[str, Any]] = [memory.card_of, memory.line_of, memory.summary_of]
            for by in by_path:
                if len(by) > len(paths) + 64:  # records removed or renamed meanwhile
                    for gone in [p for p in by if p not in paths]:
                        del by[gone]
        return stale

    def pages_key(self) -> tuple[Any, ...]:
        """What the inputs of every record page share (:meth:`page_inputs`) beside the
        records: the language, the day, where each record is published, what is left out,
        the mirrors and translations, each root's view pages."""
        assert self.log is not None
        return (
            self.words.lang,
            self.log.today,
            self.published(),
            tuple(sorted(self.unpublished)),
            tuple(self.mirror_at),
            tuple((k, tuple(v)) for k, v in self.translations.items()),
            tuple((k, rp.index_src, rp.graph_src, rp.timeline_src) for k, rp in self.roots.items()),
        )

    def _touched(self, memory: Memory, key: tuple[Any, ...]) -> set[str] | None:
        """The record pages (src) whose inputs may differ from the last build's, from the
        dependency index (None: every page's). A record changed when its :func:`card`
        did (added and removed ones too); the ids it touches are its own (before and
        after) and those at the other end of each of its relations, before and after,
        since a relation changes what both ends show. A page is touched when its inputs
        were worked out from a touched id (:meth:`page_inputs` lists what it reads), and
        so are the pages of the changed records and of their new pager neighbours."""
        assert self.ctx is not None
        before = memory.context
        if before is None or memory.pages_key != key or not memory.cards:
            return None
        adr_log = self.ctx.log
        old = memory.cards
        now = self.record_cards()
        changed = [p for p, c in now.items() if old.get(p) != c]
        changed += [p for p in old if p not in now]
        ids = {c[0].upper() for p in changed for c in (old.get(p), now.get(p)) if c is not None}
        touched = adr_log.graph.touched(before.log.graph, ids)
        redo = {src for src, seen in memory.reads.items() if not touched.isdisjoint(seen)}
        for path in changed:
            rec = adr_log.by_path.get(path)
            if rec is None:
                continue
            for one in (rec, *self.ctx.neighbours_in_order(rec)):
                at = self.file_at_path.get(one.path) if one is not None else None
                if at is not None:
                    redo.add(at.src_uri)
        return redo

    def _neighbourhood(self, rec: Record) -> tuple[graphdata.GraphData, int]:
        found = self.neighbourhoods.get(rec.id)
        if found is None:
            assert self.ctx is not None
            sub, more, self.reach[rec.id] = graphdata.neighbourhood_reach(
                self.ctx.graph,
                rec.id,
                self.engine.graph_hops,
                limit=LOCAL_GRAPH_LIMIT,
                adjacency=self.ctx.adjacency,
                edges_by_node=self.ctx.edges_by_node,
            )
            found = self.neighbourhoods[rec.id] = (sub, more)
        return found

    def page_inputs(self, rec: Record, src: str) -> tuple[Any, ...]:
        """Everything the site adds to a record's page depends on, as comparable data:
        the record itself, its URL, and each record its header, banners, relations,
        local graph and pager name (id, title, status as written and as counted, place,
        URL), with the edges between them. Two builds with equal inputs give the page
        the same additions (ADR-0045).

        Also notes in :attr:`reads` the id of every record these inputs were worked out
        from: those named, every successor the succession walk may follow, every node the
        local graph's walk reached; a page none of whose reads changed keeps its inputs
        (:meth:`stale_pages`). Something new a page reads must be read here."""
        ctx = self.ctx
        assert ctx is not None
        adr_log = ctx.log
        graph = adr_log.graph
        names: set[str] = {rec.id}
        own = ctx.edges_by_node.get(rec.id, [])
        for e in own:
            names.update((e.source, e.target))
        succ = adr_log.successor(rec.id)
        names.update(succ.chain)
        names.update(succ.candidates)
        if succ.current:
            names.add(succ.current)
        names.update(graph.direct_successors(rec.id))
        for unit in rec.units:
            names.update(graph.direct_successors(rec.id, unit.key))
        declared = tuple(ctx.declared.get(rec.id, ()))
        for edge in declared:
            names.update((edge.source, edge.target, edge.declared_by))
        sub, more = self._neighbourhood(rec) if self.engine.graph else (None, 0)
        if sub is not None:
            names.update(sub.nodes)  # the local graph links each of them
        prev, nxt = ctx.neighbours_in_order(rec)
        names.update(r.id for r in (prev, nxt) if r is not None)
        at = self.file(src)
        rp = self.roots.get(rec.root)
        views = (rp.index_src, rp.graph_src, rp.timeline_src) if rp else ()
        seen = set(names)
        seen.update(self.reach.get(rec.id, ()))
        # succession (and whether the record binds) reads the successors of the record
        # and of its units, of any status, and theirs onward: every one reached counts
        todo = [rec.id, *(s for u in rec.units for s in graph.direct_successors(rec.id, u.key))]
        walked: set[str] = set()
        while todo:
            rid = todo.pop()
            if rid not in walked:
                walked.add(rid)
                todo.extend(graph.direct_successors(rid))
        seen.update(walked)
        self.reads[src] = frozenset(r.upper() for r in seen)
        return (
            self.card(rec),
            at.url if at is not None else None,
            adr_log.get(rec.id) is rec,
            adr_log.status_of(rec),
            adr_log.in_effect(rec),
            tuple(own),
            succ,
            declared,
            ctx.reviews.get(rec.id),
            tuple(self.translations.get(rec.path, ())),
            (tuple(sub.nodes.values()), tuple(sub.edges), more) if sub is not None else None,
            views,
            self.words.lang,
            tuple(self._face(rid) for rid in sorted(names)),
        )

    def _face(self, rid: str) -> tuple[Any, ...]:
        """What a page that names record ``rid`` shows of it."""
        assert self.ctx is not None
        adr_log = self.ctx.log
        found = adr_log.get(rid)
        if found is None:
            return (rid, len(adr_log.by_id.get(rid.upper(), ())))
        at = self.file_of.get(rid)
        return (
            rid,
            found.title,
            found.status,
            found.raw_status,
            adr_log.status_of(found),
            found.archived,
            found.root,
            found.path,
            at.url if at is not None else None,
        )

    # -------------------------------------------------------------------- nav

    def arrange_nav(self, items: list[Any], *, generated: bool) -> tuple[list[Any], list[Any]]:
        """The navigation's items and pages in order, with previous/next links set.

        ``generated``: the host made the navigation from the files (no ``nav:``)."""
        if generated:
            views = set(self.view_at)
            views_first(items, views)
            escape_sections(items)
            title_sections(items, self.section_titles())
            if self.nav_mode == "index":
                self.bar_at = self._bars(collapse_roots(items, self.view_at))
            items = lift_views(items, views)
        elif self.nav_mode == "index" and self.files is not None:
            files = self.files
            index_pages = {
                rp.index_src: files.get(rp.index_src) for rp in self.roots.values() if rp.index_src
            }
            items = prune(items, self.out_of_nav, index_pages)
        pages = nav_pages(items)
        for prev, page, nxt in zip([None, *pages[:-1]], pages, [*pages[1:], None], strict=True):
            page.previous_page, page.next_page = prev, nxt
        set_parents(items, None)
        in_nav = {p.file.src_uri for p in pages}
        # records out of the nav still step to their neighbours (INDEX order)
        if self.ctx is not None:
            # (file_of holds the file of the record the log gives for each id: r is that
            # record when it is the record at that file, a look-up and no call)
            file_of, record_at = self.file_of, self.record_at
            for recs in self.ctx.order.values():
                chain = [
                    f.page
                    for r in recs
                    if (f := file_of.get(r.id)) is not None
                    and record_at.get(f.src_uri) is r
                    and getattr(f.page, "is_page", False)
                ]
                for i, page in enumerate(chain):
                    if page.file.src_uri in in_nav:
                        continue
                    page.previous_page = chain[i - 1] if i > 0 else None
                    page.next_page = chain[i + 1] if i + 1 < len(chain) else None
        return items, pages

    def _bars(self, collapsed: Mapping[str, list[Any]]) -> dict[str, list[tuple[str, str]]]:
        """Each page of a collapsed root -> the entries of its view bar: the entry page
        under its nav title (escaped already), then each view by its name."""
        names = {
            "index": "heading.index",
            "timeline": "heading.timeline",
            "current": "home.current",
            "graph": "heading.graph",
        }
        out: dict[str, list[tuple[str, str]]] = {}
        for pages in collapsed.values():
            entries = []
            for page in pages:
                src = page.file.src_uri
                kind = self.view_at.get(src, ("", ""))[0]
                name = page.title if page is pages[0] or kind not in names else None
                entries.append((src, name or page_view.esc(self.words.t(names[kind]))))
            for page in pages:
                out[page.file.src_uri] = entries
        return out

    # ------------------------------------------------------------------ pages

    def page_markdown(
        self,
        src: str,
        markdown: str,
        meta: MutableMapping[str, Any],
        markdown_title: Callable[[str], str | None],
    ) -> str | None:
        """A page's Markdown before rendering (None: unchanged); sets ``meta["title"]``.

        ``markdown_title`` is the host's own title detection. Links written relative
        to files on disk are pointed at their published pages (:func:`site_links`).
        Under serve, a page read as last time gets what it got last time (ADR-0045)."""
        memory = self.memory
        if memory is None:
            return self._page_markdown(src, markdown, meta, markdown_title)
        if not self.markdown_checked:  # the options are the same for every page
            self.markdown_checked = True
            options = (self.options, self.words.lang, self.page_status)
            if memory.markdown_options != options:
                memory.markdown, memory.markdown_options = {}, options
                for was in memory.page_of.values():
                    was.md_in = None
        if not self.keep:  # serve: the page's entry, its later steps take it from page_at
            entry = memory.page_of.get(src)  # (Memory.page_memo and the fast path, inlined)
            if entry is None:
                entry = memory.page_of[src] = PageMemo()
            rec = entry.rec_now if entry.now is self.token else self.record_at.get(src)
            self.page_at = (src, entry, rec)
            # a record page's reads are its record's card: the same record object, the
            # same card (ADR-0055), told by identity
            if (
                rec is not None
                and entry.md_rec is rec
                and entry.md_in == markdown
                and entry.md_given == meta
            ):
                meta.clear()
                meta.update(entry.md_meta)
                return entry.md_out
            return self._serve_markdown(src, markdown, meta, markdown_title, entry, rec)
        # a replayed snapshot was made from the same records and files (ADR-0051)
        replayed = self.keep and self.replay
        found = memory.markdown.get(src)
        rec = self.record_at.get(src)
        if found is not None and found[0] == markdown and found[1] == meta:
            # a record page's reads are its record's card: the same record object, the
            # same card (ADR-0055), told with one look-up
            if replayed or (rec is not None and found[5] is rec):
                read = None
            else:
                read = self._markdown_reads(src)
            if read is None or found[4] is read or found[4] == read:
                meta.clear()
                meta.update(found[3])
                kept: str | None = found[2]
                return kept
        given = dict(meta)
        out = self._page_markdown(src, markdown, meta, markdown_title)
        # (what it reads is not what _page_markdown changes: worked out after it)
        read = self._markdown_reads(src)
        memory.markdown[src] = (markdown, given, out, dict(meta), read, rec)
        self.kept_changed = True
        return out

    def _serve_markdown(
        self,
        src: str,
        markdown: str,
        meta: MutableMapping[str, Any],
        markdown_title: Callable[[str], str | None],
        entry: PageMemo,
        rec: Record | None,
    ) -> str | None:
        """:meth:`page_markdown` under serve past its fast path (which took a record
        page given as last time with the same record object): the page's
        :class:`PageMemo` ``entry`` and record ``rec`` (None: not a record page)."""
        if entry.md_in == markdown and entry.md_given == meta:
            # not the same record object (or no record): what the page reads is compared
            read = self._markdown_reads(src)
            if entry.md_read is not read and entry.md_read != read:
                return self._remember_markdown(entry, src, markdown, meta, markdown_title)
            meta.clear()
            meta.update(entry.md_meta)
            return entry.md_out
        return self._remember_markdown(entry, src, markdown, meta, markdown_title)

    def _remember_markdown(
        self,
        entry: PageMemo,
        src: str,
        markdown: str,
        meta: MutableMapping[str, Any],
        markdown_title: Callable[[str], str | None],
    ) -> str | None:
        given = dict(meta)
        out = self._page_markdown(src, markdown, meta, markdown_title)
        # (what it reads is not what _page_markdown changes: worked out after it)
        entry.md_read = self._markdown_reads(src)
        entry.md_in, entry.md_given, entry.md_out, entry.md_meta = markdown, given, out, dict(meta)
        entry.md_rec = self.record_at.get(src)
        return out

    def _markdown_reads(self, src: str) -> object:
        """What :meth:`_page_markdown` reads of the site beside the page's text, its meta
        and the options: a record's :func:`card`, a mirror's original's, a view's text."""
        rec = self.record_at.get(src)
        if rec is not None:
            return self.card(rec)
        mirror = self.mirror_at.get(src)
        if mirror is not None:
            original = mirror.original
            return ("mirror", self.card(original) if original is not None else None)
        view = self.view_at.get(src)
        if view is not None:
            rp = self.roots[view[1]]
            return (view, rp.index_slotted, rp.timeline_slotted)
        return (src in self.mounted, self.mounted.get(src))

    def _page_markdown(
        self,
        src: str,
        markdown: str,
        meta: MutableMapping[str, Any],
        markdown_title: Callable[[str], str | None],
    ) -> str | None:
        rewritten = self._site_links(src, markdown)
        if rewritten is not None:
            markdown = rewritten
        rec = self.record_at.get(src)
        if rec is not None or src in self.mirror_at:
            # a line the host's renderer would take minutes over shows as text (ADR023)
            tamed = bounds.render_safe(markdown)
            if tamed is not None:
                markdown = rewritten = tamed
        if rec is not None or src in self.mirror_at:
            escape_shown_meta(meta)
        if rec is not None and self.page_status:
            # the nav icon says the record's status, never the raw frontmatter word
            status = page_view.nav_status(rec)
            if status is None:
                meta.pop("status", None)
            else:
                meta["status"] = status
        if rec is not None:
            current = meta.get("title")
            meta["title"] = page_view.page_title(
                rec, str(current) if current is not None else _heading(markdown_title, markdown)
            )
            return page_view.escape_first_heading(markdown)
        if src in self.mirror_at:
            if self.page_status:
                original = self.mirror_at[src].original
                status = page_view.nav_status(original) if original is not None else None
                if status is None:
                    meta.pop("status", None)
                else:
                    meta["status"] = status
            current = meta.get("title")
            text = str(current) if current is not None else _heading(markdown_title, markdown)
            if text:
                meta["title"] = page_view.esc(text)
            return page_view.escape_first_heading(markdown)
        view = self.view_at.get(src)
        if view is not None and "title" not in meta:
            # the generated-file marker comes before the heading, which hides it from
            # the host's title detection; the heading is ours and already escaped Markdown
            # (an INDEX page's in the site's language: its slotted text, not the file's)
            shown = self.roots[view[1]].index_slotted if view[0] == "index" else markdown
            heading = page_view.first_heading_text(shown)
            if heading:
                meta["title"] = heading
        if view is not None and view[0] == "index":
            # The page's source is the committed INDEX bytes; its tables are drawn as
            # HTML after search indexing (page_context): a thousand-row Markdown table
            # costs more than the rest of the page, and the INDEX should not outrank a
            # record when its id is searched.
            return self.roots[view[1]].index_slotted
        if view is not None and view[0] == "timeline":
            return self.roots[view[1]].timeline_slotted
        return rewritten

    def theme_meta(
        self, src: str, meta: MutableMapping[str, Any], host_theme: Callable[[], Any]
    ) -> list[str]:
        """On a record or mirror page, :func:`theme_meta_faults` worded as warnings that
        name the file, the frontmatter line and the fix (empty for other pages).
        ``host_theme`` gives the host's theme, asked only when the page needs it."""
        if "template" not in meta and "icon" not in meta and "hide" not in meta:
            return []  # (THEME_META: most pages have none of them)
        rec: Record | mirrors.Mirror | None = self.record_at.get(src) or self.mirror_at.get(src)
        if rec is None:
            return []
        theme = host_theme()
        dirs = [Path(d) for d in theme.dirs]  # the host's theme: its template folders, name
        faults = theme_meta_faults(
            meta,
            lambda name: any((d / name).is_file() for d in dirs),
            material=theme.name == "material",
        )
        out = []
        for key, what, fix in faults:
            line = frontmatter_line(self.engine.project_dir / rec.path, key)
            where = f"{rec.path}:{line}" if line else rec.path
            out.append(f"{where}: frontmatter '{key}' {what}; the site ignores it (fix: {fix})")
        return out

    def _site_links(self, src: str, markdown: str) -> str | None:
        engine = self.engine
        page: str | None = self.mounted.get(src)
        if page is None:
            if not engine.mounts or ".." not in markdown:
                return None
            page = project_relative(src, engine.docs_rel)
        return site_links(engine, src, page, markdown) if page else None

    def page_content(self, html: str, at: SiteFile, page: Addressed) -> str | None:
        """A page's HTML before search indexing (None: unchanged): the text of a record's
        header (:func:`page_view.search_line`), a mirror's banner, the CURRENT banner.
        ``page``'s URL is the page's as the search index writes it; it is read when the
        site is written (:attr:`titled_urls`), once the host has made it for its own use."""
        if self.ctx is None:
            return None
        src = at.src_uri
        entry = None
        memory = self.memory
        if memory is not None and not self.keep:  # serve: the page's entry (ADR-0068)
            last = self.page_at
            if last is not None and last[0] is src:  # (its Markdown step was just now)
                entry, rec = last[1], last[2]
            else:
                rec = self.record_at.get(src)
                entry = memory.page_memo(src) if rec is not None else memory.page_of.get(src)
        else:
            rec = self.record_at.get(src)
        if rec is not None:
            self.titled_pages.append(page)
            if rec.archived:
                archived = search.ArchivedPage(rec.id, rec.status, rec.title)
                self.archived_pages.append((page, archived))
            # Search sees the id and status in one short line; the header and banners
            # take its place after indexing (page_context): the search plugins would
            # parse them again on every page, and banners name other records.
            lang = self.words.lang
            # the same record object in the same language: the same line (ADR-0055)
            if (
                entry is not None
                and entry.html_rec is rec
                and entry.html_lang == lang
                and entry.html_in == html
            ):
                return entry.html_out  # the page rendered as last time (serve)
            line = self._search_line(rec)
            if entry is not None and entry.html_in == html and entry.html_line == line:
                out = entry.html_out
            else:
                end = html.find("</h1>")
                end = end + len("</h1>") if end >= 0 else 0
                out = "".join((html[:end], line, html[end:], AFTER_SLOT))
            if entry is not None:
                entry.html_in, entry.html_line, entry.html_out = html, line, out
                entry.html_rec, entry.html_lang = rec, lang
            return out
        mirror = self.mirror_at.get(src)
        if mirror is not None or self._titled_entry(src):
            self.titled_pages.append(page)
        if mirror is not None:
            href = self._href(at)
            top = page_view.mirror_banner(self.ctx, mirror.original, mirror.lang, href)
            if mirror.original is not None:
                top += "".join(page_view.banners(self.ctx, mirror.original, href))
            return after_h1(html, top)
        view = self.view_at.get(src)
        if view is not None and view[0] == "current":
            banner = self.current_banner(view[1], at)
            return after_h1(html, banner) if banner else None
        if view is not None and view[0] == "index":
            return f'<div class="adr-index">{html}</div>'
        if view is not None and view[0] == "timeline":
            return f'<div class="adr-timeline">{html}</div>'
        return None

    def _search_line(self, rec: Record) -> str:
        """:func:`page_view.search_line`, made again only when what it shows changed (a
        serve rebuild keeps the lines of the last build in its memory)."""
        line = self.search_lines.get(rec.path)  # asked before and after indexing
        if line is not None:
            return line
        assert self.ctx is not None
        memory, lang = self.memory, self.words.lang
        if memory is not None:  # the same record object: the same line (ADR-0055)
            same = memory.line_of.get(rec.path)
            if same is not None and same[0] is rec and same[1] == lang:
                line = self.search_lines[rec.path] = same[2]
                return line
        lines = memory.lines if memory is not None else {}
        key = (rec.id, rec.status, rec.archived, rec.date, rec.domain, rec.parsed.deciders)
        found = lines.get(key)
        if found is None or found[0] != lang:
            found = lines[key] = (lang, page_view.search_line(self.ctx, rec))
        line = self.search_lines[rec.path] = found[1]
        if memory is not None:
            memory.line_of[rec.path] = (rec, lang, line)
        return line

    def current_banner(self, root_key: str, at: SiteFile) -> str | None:
        """The freshness banner of a root's CURRENT page, or the DRAFT banner of a preview.

        Both come from :mod:`mkdocs_adr.views.current` (freshness checked here against
        the manifest, each stale reason linked to its record).
        """
        if at.src_uri in self.previews:
            return self.previews[at.src_uri]
        if self.log is None or root_key not in self.roots:
            return None
        rv = self.roots[root_key].views
        result = freshness.check(self.log, rv.root)
        if result.state == "absent":
            return None
        return current_view.banner(
            self.log,
            result,
            href=lambda src: self._view_href(src, at),
            index_target=rv.index_target,
            words=self.words,
        )

    def page_context(self, content: str, at: SiteFile) -> str | None:
        """A page's HTML after search indexing (None: unchanged): a record's header and
        banners, and what names other records (relations, local graph, graph drawings,
        INDEX tables), so that a page does not match their ids and titles."""
        if self.ctx is None:
            return None
        src = at.src_uri
        memory = self.memory
        if memory is not None and not self.keep:
            # a record page whose additions were made for the inputs object stale_pages
            # kept, given the same HTML: the same page, found with one look-up (serve)
            found = memory.page_of.get(src)
            if found is not None and found.ctx_inputs is not None:
                now = found.inputs_now if found.now is self.token else self.inputs.get(src)
                if found.ctx_inputs is now and found.ctx_in == content:
                    return found.ctx_out
        rec = self.record_at.get(src)
        if rec is not None:
            return self._fill_record(content, rec, at)
        filled = self._fill_page(content, src, at)
        if src in self.bar_at:  # after the fill: the bar is not the view's (ADR-0054)
            return after_h1(content if filled is None else filled, self._view_bar(src, at))
        return filled

    def _titled_entry(self, src: str) -> bool:
        """Whether ``src`` is a collapsed root's nav entry, titled (escaped) from its
        section (:func:`collapse_roots`)."""
        entries = self.bar_at.get(src)
        return entries is not None and entries[0][0] == src

    def _view_bar(self, src: str, at: SiteFile) -> str:
        entries = [
            (name, None if other == src else self._view_href(other, at))
            for other, name in self.bar_at[src]
        ]
        return page_view.view_bar(entries, self.words)

    def _fill_page(self, content: str, src: str, at: SiteFile) -> str | None:
        view = self.view_at.get(src)
        if view is None or view[0] not in ("graph", "index", "timeline"):
            return None
        # a view page the host rendered as last time is filled as last time (serve)
        memory, name = self.memory, f"fill:{src}"
        found = memory.views.get(name) if memory is not None and self.views_fresh else None
        if found is not None and found[1][0] == content:
            return str(found[1][1])
        filled = self._fill_view(content, view, at)
        if memory is not None:
            memory.views[name] = ((), (content, filled))
            self.kept_changed = True
        return filled

    def _fill_view(self, content: str, view: tuple[str, str], at: SiteFile) -> str:
        if view[0] == "graph":
            rp = self.roots[view[1]]
            assert rp.graph is not None
            memory = self.memory
            kept = None if memory is None else memory.drawings.setdefault(view[1], {})
            return graphpage.fill(
                content,
                rp.graph,
                href=self._href(at),
                root_key=view[1],
                words=self.words,
                kept=kept if self.kept_context is not None else None,
                context=(self.kept_context, at.url),
            )
        if view[0] == "index":
            return self._fill_index(content, self.roots[view[1]], at)
        return self._fill_timeline(content, self.roots[view[1]], at)

    def _record_href(self, at: SiteFile) -> Callable[[Record], str | None]:
        by_path, relative = self.file_at_path, self.relative

        def href(rec: Record) -> str | None:
            found = by_path.get(rec.path)
            return relative(found, at) if found is not None else None

        return href

    def _fill_index(self, content: str, rp: RootPages, at: SiteFile) -> str:
        """The INDEX tables as the site shows them (:func:`index_view.site_table_html`),
        and the shipped script that adds filters and sorting (ADR-0038)."""
        assert self.log is not None
        href = self._record_href(at)
        tables = self._index_tables(rp)
        columns = index_view.site_columns(tables, self.words)
        kept = self.kept(f"index table:{rp.key}", at.url, columns)
        start = 0
        drawings: list[str] = []
        for n, table in enumerate(tables):
            drawn = index_view.site_table_html(
                self.log,
                table,
                href,
                columns,
                start=start,
                labels=index_view.script_labels(self.words) if n == 0 else None,
                words=self.words,
                rows=self.pieces(f"index:{rp.key}"),
                kept=kept,
            )
            start += len(table.records)
            last = n == len(tables) - 1
            if last:
                drawn += f"\n<script>{index_script()}</script>"
            drawings.append(drawn)
        content = _filled(content, index_view.TABLE_SLOT, drawings)
        agent = [
            llms.Link(posixpath.basename(src), url)
            for src in (self.llms_src, self.index_json.get(rp.key))
            if src and (url := self._view_href(src, at))
        ]
        return after_h1(content, llms.index_line(agent, self.words)) if agent else content

    def _index_tables(self, rp: RootPages) -> list[index_view.Table]:
        """The root's INDEX tables (made again when the snapshot left them out)."""
        assert self.log is not None
        if rp.index_tables is None:
            rp.index_tables = index_view.tables(self.log, rp.views.root)[1]
        return rp.index_tables

    def _fill_timeline(self, content: str, rp: RootPages, at: SiteFile) -> str:
        assert self.log is not None
        href = self._record_href(at)
        if rp.timeline_months is None:  # left out of the snapshot: made again
            records = index_view.root_records(self.log, rp.views.root)
            rp.timeline_months = timeline_view.months(records)
        kept = self.kept(f"timeline:{rp.key}", at.url)
        entries = self.pieces(f"timeline:{rp.key}")
        drawings = [
            timeline_view.month_html(self.log, month, href, self.words, entries, kept)
            for month in rp.timeline_months
        ]
        return _filled(content, timeline_view.MONTH_SLOT, drawings)

    # ---------------------------------------------------------- theme

    def use_theme(self, extra: MutableMapping[str, Any], theme: Any) -> None:
        """What the site takes from its theme: the language of the generated text
        (:func:`i18n.choose` over the ``language`` option and the theme's language:
        Material's ``theme.language``, else the ``theme.locale`` of MkDocs' own themes)
        and, in Material, the page status (:meth:`use_page_status`)."""
        given = theme.get("language") if isinstance(theme, Mapping) else None
        if not given:
            given = getattr(theme, "locale", None) or (
                theme.get("locale") if isinstance(theme, Mapping) else None
            )
        lang, self.language_note = i18n.choose(self.engine.language, str(given or "") or None)
        self.words = i18n.messages(lang)
        self.use_page_status(extra, theme=getattr(theme, "name", None))

    # ---------------------------------------------------------- page status

    def use_page_status(self, extra: MutableMapping[str, Any], *, theme: str | None) -> None:
        """Material's page status, on purpose: each record page not accepted gets an icon
        in the navigation with a tooltip (:data:`page_view.NAV_STATUS`), added to the
        site's ``extra.status`` where the site does not define the key itself. Other
        themes have no such feature: nothing changes."""
        if theme != "material":
            return
        given = extra.get("status")
        tips = dict(given) if isinstance(given, Mapping) else {}
        for key, tip in page_view.nav_status_tips(self.words).items():
            tips.setdefault(key, tip)
        extra["status"] = tips
        self.page_status = True

    def _fill_record(self, output: str, rec: Record, at: SiteFile) -> str:
        src = at.src_uri
        inputs = self.inputs.get(src)
        found = None
        if self.memory is not None and not self.keep:
            found = self.memory.page_memo(src)
        # the same host HTML with additions made for the same inputs (the very object
        # stale_pages kept: nothing the page shows changed) is the same page (serve)
        if (
            found is not None
            and inputs is not None
            and found.ctx_inputs is inputs
            and found.ctx_in == output
        ):
            return found.ctx_out
        known = self.memory.pages.get(src) if self.memory is not None else None
        if self.keep:  # a replayed snapshot was made from the same inputs (ADR-0051)
            fresh = self.replay and known is not None
        else:  # nothing it shows changed (ADR-0045)
            fresh = inputs is not None and known is not None and known[0] is inputs
            fresh = fresh or (inputs is not None and known is not None and known[0] == inputs)
        if fresh and known is not None:
            top, after = known[1], known[2]
        else:
            top, after = self._additions(rec, at)
            if self.memory is not None and (self.keep or inputs is not None):
                self.memory.pages[src], self.kept_changed = (inputs, top, after), True
        if (
            found is not None
            and found.ctx_in == output
            and found.ctx_top is top
            and found.ctx_after is after
        ):
            found.ctx_inputs = inputs
            return found.ctx_out  # the same page with the same additions (serve)
        line = self._search_line(rec)
        at_line, at_slot = output.find(line), output.find(AFTER_SLOT)
        if 0 <= at_line < at_slot:
            filled = "".join(
                (
                    output[:at_line],
                    top,
                    output[at_line + len(line) : at_slot],
                    after,
                    output[at_slot + len(AFTER_SLOT) :],
                )
            )
        else:
            filled = output.replace(line, top, 1).replace(AFTER_SLOT, after, 1)
        if found is not None:
            found.ctx_in, found.ctx_top, found.ctx_after = output, top, after
            found.ctx_out, found.ctx_inputs = filled, inputs
        return filled

    def _additions(self, rec: Record, at: SiteFile) -> tuple[str, str]:
        """A record page's header with banners, and what follows its text."""
        ctx, engine = self.ctx, self.engine
        assert ctx is not None
        href = self._href(at)
        rels = page_view.relations(ctx, rec, href)
        rp = self.roots.get(rec.root)
        index_href = self._view_href(rp.index_src if rp else None, at)
        graph_href = self._view_href(rp.graph_src if rp else None, at)
        langs = [
            (lang, f.url_relative_to(at))
            for lang, src in self.translations.get(rec.path, [])
            if (f := self.file(src)) is not None
        ]
        after = [page_view.translations(langs, self.words)]
        if engine.graph and ctx.log.get(rec.id) is rec:
            sub, more = self._neighbourhood(rec)
            if len(sub.nodes) > 1:
                # records of one chain share a neighbourhood: lay it out and draw it
                # once, each page filling in its links and its own node
                key = (tuple(sub.nodes), rec.root)
                prepared = self.drawings.get(key)
                if prepared is None:
                    prepared = self.drawings[key] = svg.prepare(
                        sub, uid="adr-local", root=rec.root, words=self.words
                    )
                drawing = svg.fill(
                    prepared,
                    title=self.words.t("local.drawing", id=rec.id),
                    href=href,
                    focus=rec.id,
                )
                after.append(
                    page_view.local_graph(
                        drawing,
                        hops=engine.graph_hops,
                        more=more,
                        graph_href=graph_href,
                        words=self.words,
                    )
                )
        timeline_href = self._view_href(rp.timeline_src if rp else None, at)
        after.append(
            page_view.pager(
                ctx,
                rec,
                href,
                index_href=index_href,
                graph_href=graph_href,
                timeline_href=timeline_href,
            )
        )
        top = page_view.header(ctx, rec, relations_slot=rels) + "".join(
            page_view.banners(ctx, rec, href)
        )
        return top, "".join(after)

    def _href(self, at: SiteFile) -> RecordHref:
        file_of = self.file_of
        seen: dict[str, str | None] = {}  # a page names a record in several places

        def href(rid: str) -> str | None:
            if rid in seen:
                return seen[rid]
            found = file_of.get(rid)
            url = seen[rid] = self.relative(found, at) if found is not None else None
            return url

        return href

    def _view_href(self, src: str | None, at: SiteFile) -> str | None:
        found = self.file(src)
        return self.relative(found, at) if found is not None else None

    # ----------------------------------------------------------------- search

    @property
    def titled_urls(self) -> set[str]:
        """The URLs of the pages whose title the search index has escaped."""
        return {page.url for page in self.titled_pages}

    @property
    def archived_urls(self) -> dict[str, search.ArchivedPage]:
        """Each archived record's page URL -> the record, as the search index shows it."""
        return {page.url: archived for page, archived in self.archived_pages}

    def finish(self, site_dir: Path) -> list[str]:
        """After the site is written: ``read_guard`` over its search index; warnings. A
        one-off build keeps what it made for the next (:meth:`keep_snapshot`)."""
        self.keep_snapshot()
        return rewrite_search_index(
            site_dir / "search" / "search_index.json",
            self.archived_urls,
            self.engine.read_guard,
            html_text=self.search_html,
            escaped=self.titled_urls,
        )
