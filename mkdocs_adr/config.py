"""Engine configuration, independent of any documentation host.

The plugin builds a :class:`Config` from its validated MkDocs options; the CLI
builds the same from ``mkdocs.yml`` (read as plain YAML, so no MkDocs import is
needed) or from a bare ``--root``.
"""

from __future__ import annotations

import builtins
import dataclasses
import functools
import os
import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from .errors import ConfigError
from .model import STATUSES
from .paths import (
    UnsafePath,
    climbing,
    default_mount,
    docs_relative,
    from_docs,
    normalize,
    site_src,
    to_docs,
    within,
)

DEFAULT_MIRRORS: tuple[str, ...] = ("zh", "ja", "ko", "es", "pt", "fr", "de")
DEFAULT_STATUS_HEADINGS: tuple[str, ...] = (
    "Status",
    "状态",
    "狀態",
    "Estado",
    "Statut",
    "État",
    "Stand",
    "ステータス",
    "상태",
)
LAYOUTS = ("auto", "flat", "layered")
NAV_MODES = ("auto", "full", "index")
READ_GUARDS = ("off", "warn", "guard")
FAIL_ON = ("error", "warning", "info", "never")
#: How views and retrieval count a record that states no status (status ``missing``).
MISSING_STATUS = ("missing", "accepted", "proposed")
#: The source manifest beside each root's CURRENT view (:mod:`mkdocs_adr.manifest`).
MANIFEST_FILE = "CURRENT.sources.json"
#: ``auto`` and the formats the ``style`` option can force, in the format registry's order
#: (``parsing.formats.FORCED``; tests/test_format_registry.py holds them equal). Written
#: out so that reading the options does not import every format: a warm command that
#: parses nothing never needs them.
STYLES = ("auto", "frontmatter", "madr", "madr2", "log4brains", "nygard", "container")

#: Built-in status aliases. Matches are reported at info level (SPEC 3.2).
DEFAULT_ALIASES: dict[str, str] = {
    "approved": "accepted",
    "agreed": "accepted",
    "adopted": "accepted",
    "decided": "accepted",
    "implemented": "accepted",
    "valid": "accepted",
    "done": "accepted",
    # in effect: logs whose lifecycle is "proposed | active | superseded | retired"
    "active": "accepted",
    # in force after accepted: logs whose template says "Draft | Accepted | Final | Superseded"
    # (as a Python PEP's Final)
    "final": "accepted",
    # still in effect: a part was replaced (the relation, when named, is partially-superseded-by)
    "partially superseded": "accepted",
    "partly superseded": "accepted",
    "teilweise ersetzt": "accepted",
    "partiellement remplacé": "accepted",
    "partiellement remplacée": "accepted",
    "parcialmente reemplazado": "accepted",
    "parcialmente reemplazada": "accepted",
    "parcialmente substituído": "accepted",
    "parcialmente substituída": "accepted",
    # in effect for the part that was accepted, as a partly replaced record is for the rest
    "partially accepted": "accepted",
    "partially implemented": "accepted",
    "partly implemented": "accepted",
    # an EIP-style lifecycle (Draft, Review, Last Call, Final, Living, Stagnant, Withdrawn):
    # a living record is in force and kept up to date; a stagnant one an idle draft; a
    # withdrawn one its authors took back
    "living": "accepted",
    "last call": "proposed",
    "stagnant": "draft",
    "withdrawn": "rejected",
    "partly accepted": "accepted",
    "已实施": "accepted",
    "已实现": "accepted",
    "已通过": "accepted",
    "已實施": "accepted",
    "採用": "accepted",
    "採択": "accepted",
    "aprobado": "accepted",
    "aprobada": "accepted",
    "implementado": "accepted",
    "aprovado": "accepted",
    "aprovada": "accepted",
    "approuvé": "accepted",
    "approuvée": "accepted",
    "genehmigt": "accepted",
    "umgesetzt": "accepted",
    "已接受": "accepted",
    "已采纳": "accepted",
    "接受": "accepted",
    "已批准": "accepted",
    "已接納": "accepted",
    "承認": "accepted",
    "承認済み": "accepted",
    "aceptado": "accepted",
    "aceptada": "accepted",
    "aceito": "accepted",
    "aceita": "accepted",
    "accepté": "accepted",
    "acceptée": "accepted",
    "akzeptiert": "accepted",
    "angenommen": "accepted",
    "proposal": "proposed",
    "pending": "proposed",
    "in review": "proposed",
    "under review": "proposed",
    "open": "proposed",
    "review": "proposed",
    "under discussion": "proposed",
    "on hold": "proposed",
    "提議": "proposed",
    "审核中": "proposed",
    "评审中": "proposed",
    "en revisión": "proposed",
    "em revisão": "proposed",
    "proposta": "proposed",
    "en revue": "proposed",
    "in prüfung": "proposed",
    "提议": "proposed",
    "提案": "proposed",
    "已提议": "proposed",
    "建议": "proposed",
    "propuesto": "proposed",
    "propuesta": "proposed",
    "proposto": "proposed",
    "proposé": "proposed",
    "proposée": "proposed",
    "vorgeschlagen": "proposed",
    "proposition": "proposed",  # a French template's "approuvée|rejetée|...|proposition"
    "en discussion": "proposed",
    "en cours de discussion": "proposed",
    "à valider": "proposed",
    "in diskussion": "proposed",
    "en discusión": "proposed",
    "em discussão": "proposed",
    "wip": "draft",
    "new": "draft",  # .NET adr-cli's first status: the record as the tool wrote it
    "work in progress": "draft",
    "incomplete": "draft",  # "🤔 Incomplete": written down, not finished
    "草稿": "draft",
    "borrador": "draft",
    "rascunho": "draft",
    "brouillon": "draft",
    "entwurf": "draft",
    "草案": "draft",
    "下書き": "draft",
    "declined": "rejected",
    "refused": "rejected",
    "已拒绝": "rejected",
    "拒绝": "rejected",
    "却下": "rejected",
    "rechazado": "rejected",
    "rechazada": "rejected",
    "rejeitado": "rejected",
    "rejeté": "rejected",
    "rejetée": "rejected",
    "abgelehnt": "rejected",
    "已否决": "rejected",
    "已拒絕": "rejected",
    "rejeitada": "rejected",
    "refusé": "rejected",
    "refusée": "rejected",
    "verworfen": "rejected",
    "obsolete": "deprecated",
    "depreciated": "deprecated",  # the misspelling real logs write
    "retired": "deprecated",
    "reverted": "deprecated",
    "invalidated": "deprecated",  # "Invalidated on 2021-08-04" (by a later decision)
    "已废弃": "deprecated",
    "废弃": "deprecated",
    "已弃用": "deprecated",
    "弃用": "deprecated",
    "廃止": "deprecated",
    "obsoleto": "deprecated",
    "obsoleta": "deprecated",
    "obsolète": "deprecated",
    "déprécié": "deprecated",
    "veraltet": "deprecated",
    "非推奨": "deprecated",
    "已过时": "deprecated",
    "已廢棄": "deprecated",
    "deprecado": "deprecated",
    "descontinuado": "deprecated",
    "dépréciée": "deprecated",
    "replaced": "superseded",
    "已取代": "superseded",
    "已替代": "superseded",
    "被取代": "superseded",
    "被替代": "superseded",
    "已被取代": "superseded",
    "置き換え": "superseded",
    "reemplazado": "superseded",
    "reemplazada": "superseded",
    "sustituido": "superseded",
    "substituído": "superseded",
    "substituido": "superseded",
    "remplacé": "superseded",
    "remplacée": "superseded",
    "ersetzt": "superseded",
    "substituída": "superseded",
}


@dataclass(frozen=True)
class RootConfig:
    """One ADR root, relative to ``docs_dir`` (POSIX separators; ``../doc/adr`` for a
    root outside it, still inside the project). ``url``: where the site publishes a
    root outside ``docs_dir`` (``""``: :func:`mkdocs_adr.paths.default_mount`)."""

    path: str
    prefix: str = "ADR"
    title: str = ""
    #: This root's own ``exclude`` globs, beside the global option's.
    exclude: tuple[str, ...] = ()
    url: str = ""

    @property
    def display_title(self) -> str:
        return self.title or f"Decisions ({self.url or default_mount(self.path)})"


def _default(name: str) -> Callable[[], Any]:
    """The engine's default for option ``name``: the option read from an empty config."""
    return lambda: OPTION[name].read({})


@dataclass(frozen=True)
class Config:
    """Everything the engine needs to read a log. Paths are absolute.

    One field per option of :data:`OPTIONS` (same name; the default is that option's),
    plus where the project is and ``max_file_bytes``. ``work_dir`` is ``None`` until
    read: :attr:`work_path` then uses the option's default folder.
    """

    project_dir: Path
    docs_dir: Path
    roots: tuple[RootConfig, ...] = field(default_factory=_default("roots"))
    layout: str = field(default_factory=_default("layout"))
    style: str = field(default_factory=_default("style"))
    mirrors: tuple[str, ...] = field(default_factory=_default("mirrors"))
    exclude: tuple[str, ...] = field(default_factory=_default("exclude"))
    index_page: str = field(default_factory=_default("index_page"))
    current_page: str = field(default_factory=_default("current_page"))
    graph: bool = field(default_factory=_default("graph"))
    graph_hops: int = field(default_factory=_default("graph_hops"))
    nav: str = field(default_factory=_default("nav"))
    nav_limit: int = field(default_factory=_default("nav_limit"))
    read_guard: str = field(default_factory=_default("read_guard"))
    fail_on: str = field(default_factory=_default("fail_on"))
    preview: str = field(default_factory=_default("preview"))
    redirects: bool = field(default_factory=_default("redirects"))
    agent_files: bool = field(default_factory=_default("agent_files"))
    work_dir: Path | None = None
    status_headings: tuple[str, ...] = field(default_factory=_default("status_headings"))
    status_aliases: Mapping[str, str] = field(default_factory=_default("status_aliases"))
    language: str = field(default_factory=_default("language"))
    missing_status: str = field(default_factory=_default("missing_status"))
    max_file_bytes: int = 1024 * 1024
    config_file: Path | None = None

    @property
    def work_path(self) -> Path:
        if self.work_dir is not None:
            return self.work_dir
        return self.project_dir / str(OPTION["work_dir"].default)

    @property
    def aliases(self) -> dict[str, str]:
        merged = dict(DEFAULT_ALIASES)
        merged.update({k.lower(): v for k, v in self.status_aliases.items()})
        return merged

    def rel(self, path: Path) -> str:
        """Project-relative POSIX path, the only form paths take in output."""
        try:
            return path.relative_to(self.project_dir).as_posix()
        except ValueError:
            return Path(os.path.relpath(path, self.project_dir)).as_posix()

    def root_dir(self, root: RootConfig) -> Path:
        return Path(os.path.normpath(self.docs_dir / root.path)) if root.path else self.docs_dir

    @functools.cached_property
    def mounts(self) -> tuple[tuple[str, str], ...]:
        """``(project-relative folder, URL prefix)`` of each root outside ``docs_dir``:
        the site publishes its files as ``<url>/<path in the root>``."""
        docs = Path(os.path.normpath(self.docs_dir))
        out = []
        for root in self.roots:
            folder = self.root_dir(root)
            rel = normalize(self.rel(folder))
            if rel and not within(folder, docs):
                out.append((rel, root.url or default_mount(root.path)))
        return tuple(out)

    def src_uri(self, project_rel: str) -> str | None:
        """The site's ``src_uri`` of a project-relative file (:func:`paths.site_src`);
        ``None`` when the site does not publish that file."""
        return site_src(project_rel, self.docs_rel, self.mounts)

    @functools.cached_property
    def docs_rel(self) -> str:
        """``docs_dir``, project-relative (:meth:`rel`)."""
        return self.rel(self.docs_dir)

    def replace(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **changes)


# --------------------------------------------------------------------------- options

#: How the CLI reads one option's YAML value into the engine's value (raises ConfigError).
Reader = Callable[["Option", Any], Any]


@dataclass(frozen=True)
class Option:
    """One plugin option, declared once.

    The MkDocs plugin builds its config class from these (``plugin.py`` picks the
    MkDocs option type from ``type``, ``items`` and ``choices``, so MkDocs validates
    and words its errors as for any plugin); the CLI reads ``mkdocs.yml`` with
    :meth:`read`; the engine's :class:`Config` takes its defaults from :meth:`read`
    of an absent value; docs/guide/configuration.md lists the same names and defaults
    (tests/test_config_table.py checks all four).
    """

    name: str
    #: The YAML value's type: str, int, bool, list or dict.
    type: type
    #: Immutable: a tuple for a list, a read-only mapping for a dict.
    default: Any
    doc: str
    #: A string option limited to these values.
    choices: tuple[str, ...] = ()
    #: A list's item type, when MkDocs checks every item.
    items: builtins.type | None = None
    #: The CLI's rule for this value beyond its type (None: type and choices only).
    reader: Reader | None = None
    #: The option takes the word ``off``, which YAML 1.1 reads as ``false`` unless it
    #: is quoted: ``false`` then means ``off`` rather than a type error.
    takes_off: bool = False

    def unyaml(self, value: Any) -> Any:
        """``value`` with an unquoted ``off`` (read by YAML as ``false``) put back."""
        return "off" if self.takes_off and value is False else value

    def fresh_default(self) -> Any:
        """The default as YAML would give it (a new list or dict each time)."""
        if self.type is list:
            return list(self.default)
        if self.type is dict:
            return dict(self.default)
        return self.default

    def read(self, options: Mapping[str, Any]) -> Any:
        """This option's engine value from ``options``; its default when absent."""
        value = options[self.name] if self.name in options else self.fresh_default()
        return (self.reader or _plain)(self, self.unyaml(value))


def _plain(opt: Option, value: Any) -> Any:
    if opt.choices:
        if not isinstance(value, str) or value not in opt.choices:
            raise ConfigError(
                f"option '{opt.name}' is {value!r}; expected one of: {', '.join(opt.choices)}",
                fix=f"set plugins.adr.{opt.name} to one of {', '.join(opt.choices)}",
            )
        return value
    if opt.type in (bool, int):
        return _typed(opt.name, value, opt.type)
    if opt.type is str:
        return str(value)
    return value


def _typed(key: str, value: Any, kind: type) -> Any:
    if kind is int and isinstance(value, bool):
        value = "bool"
    if not isinstance(value, kind):
        raise ConfigError(
            f"option '{key}' is {value!r}; expected {kind.__name__}",
            fix=f"set plugins.adr.{key} to a {kind.__name__}",
        )
    return value


def _roots(opt: Option, value: Any) -> tuple[RootConfig, ...]:
    if value is None:
        value = opt.fresh_default()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise ConfigError(
            f"option 'roots' is {value!r}; expected a list of folders or {{path, prefix, title}}",
            fix="write roots: [adr] or roots: [{path: adr, prefix: ADR}]",
        )
    roots: list[RootConfig] = []
    for item in value:
        if isinstance(item, str):
            item = {"path": item}
        if not isinstance(item, Mapping) or not isinstance(item.get("path"), str):
            raise ConfigError(
                f"roots entry {item!r} has no 'path'",
                fix="give each root as a folder name or {path: ..., prefix: ..., title: ...}",
            )
        unknown = set(item) - {"path", "prefix", "title", "exclude", "url"}
        if unknown:
            raise ConfigError(
                f"roots entry {item['path']!r} has unknown keys: {', '.join(sorted(unknown))}",
                fix="a root takes only path, prefix, title, exclude and url",
            )
        try:
            path = climbing(item["path"].strip())
        except UnsafePath as exc:
            raise ConfigError(
                f"root {item['path']!r} {exc.reason}",
                fix="roots are folders relative to docs_dir (../doc/adr for one beside it), "
                "inside the project folder",
            ) from None
        url = _root_url(path, item.get("url"))
        prefix = str(item.get("prefix") or "ADR")
        if not prefix.replace("_", "").isalnum():
            raise ConfigError(
                f"root {path!r} has prefix {prefix!r}; a prefix is letters and digits",
                fix="use a prefix such as ADR or PAY",
            )
        excluded = _read_exclude(OPTION["exclude"], item.get("exclude") or [])
        title = str(item.get("title") or "")
        roots.append(RootConfig(path=path, prefix=prefix, title=title, exclude=excluded, url=url))
    _once(roots)
    return tuple(roots)


def _once(roots: list[RootConfig]) -> None:
    paths = [r.path for r in roots]
    if len(set(paths)) != len(paths):
        raise ConfigError("option 'roots' lists the same folder twice", fix="list each root once")


def _root_url(path: str, value: Any) -> str:
    """A root's ``url`` key, normalized (``""`` when absent)."""
    if value is None:
        return ""
    url = normalize(value.strip()) if isinstance(value, str) else None
    if not url:
        raise ConfigError(
            f"root {path!r} has url {value!r}; expected a folder path of the site",
            fix="write url: adr (no '..', not absolute)",
        )
    if is_glob(path):
        raise ConfigError(
            f"root {path!r} is a pattern and has a url; each folder it matches is "
            "published at its own path",
            fix="drop url, or list each folder as its own root",
        )
    return url


def is_glob(path: str) -> bool:
    """Whether a root's path is a pattern (``../packages/*/docs/adr``)."""
    return any(ch in path for ch in "*?[")


def _no_link_out(typed: str, folder: Path, project: Path) -> None:
    """Refuse a root folder that a symlink takes outside the (resolved) project."""
    if folder.exists() and not within(folder.resolve(), project):
        raise ConfigError(
            f"root {typed!r} resolves outside the project folder {project} (through a symlink)",
            fix="roots are folders inside the project (the folder of mkdocs.yml)",
        )


def _check_urls(roots: list[RootConfig], docs: str, docs_dir: Path) -> None:
    """Each root outside docs_dir gets a site path of its own: not one docs_dir has, not
    another root's (a root nested in another may sit at the same place below it)."""
    urls: dict[str, tuple[str, str]] = {}  # url -> (root as typed, project-relative folder)
    for root in roots:
        folder = from_docs(root.path, docs)
        if docs_relative(folder, docs) is not None:
            if root.url:
                raise ConfigError(
                    f"root {root.path!r} is inside docs_dir and has a url",
                    fix="url is for roots outside docs_dir; the site publishes this one "
                    "at its own path",
                )
            continue
        if docs_relative(docs, folder) is not None:
            raise ConfigError(
                f"root {root.path!r} holds docs_dir; a root outside docs_dir sits beside it",
                fix="point the root at the folder of the records, such as ../doc/adr",
            )
        url = root.url or default_mount(root.path)
        if not url:
            raise ConfigError(
                f"root {root.path!r} has no path of its own in the site",
                fix="give it a url: {path: ..., url: decisions}",
            )
        if (docs_dir / url).exists():
            raise ConfigError(
                f"root {root.path!r} would be published at {url!r}, which docs_dir already has",
                fix="give the root another url: {path: ..., url: decisions}",
            )
        for other, (other_root, other_folder) in urls.items():
            if url == other or not (url.startswith(other + "/") or other.startswith(url + "/")):
                clash = url == other
            else:  # nested: the same place below the other root on disk and in the site
                clash = posixpath.relpath(url, other) != posixpath.relpath(folder, other_folder)
            if clash:
                raise ConfigError(
                    f"roots {other_root!r} and {root.path!r} would share the site path {url!r}",
                    fix="give one of them another url",
                )
        urls[url] = (root.path, folder)


def place_roots(
    roots: tuple[RootConfig, ...], *, project_dir: Path, docs_dir: Path
) -> tuple[RootConfig, ...]:
    """The roots with each pattern replaced by the folders it matches (sorted), every
    root checked to stay inside the project, and each published URL checked.

    A root outside ``docs_dir`` is published under its ``url``; that URL must not be a
    folder or file of ``docs_dir`` already, nor another root's.
    """
    project = project_dir.resolve()
    docs = Path(os.path.relpath(docs_dir.resolve(), project)).as_posix()
    docs = "" if docs == "." else docs
    placed: list[RootConfig] = []
    if not any(r.path.startswith("..") or is_glob(r.path) or r.url for r in roots):
        return roots
    for root in roots:
        try:
            inside = from_docs(root.path, docs)
        except UnsafePath:
            raise ConfigError(
                f"root {root.path!r} leaves the project folder {project}",
                fix="roots are folders inside the project (the folder of mkdocs.yml)",
            ) from None
        if not is_glob(root.path):
            _no_link_out(root.path, project / inside, project)
            placed.append(root)
            continue
        found = sorted(p for p in project.glob(inside) if p.is_dir())
        if not found:
            raise ConfigError(
                f"root pattern {root.path!r} matches no folder",
                fix=f"create a folder it matches, or change the pattern ({inside} from the "
                "project folder)",
            )
        for match in found:
            _no_link_out(root.path, match, project)
            rel = match.relative_to(project).as_posix()
            placed.append(dataclasses.replace(root, path=to_docs(rel, docs)))
    _once(placed)
    _check_urls(placed, docs, docs_dir)
    return tuple(placed)


def normalize_rel(path: str) -> str | None:
    """A path typed in an option, stripped, in :func:`mkdocs_adr.paths.normalize` form."""
    return normalize(path.strip())


def _strings(message: str, fix: str = "") -> Reader:
    """A reader for a list of strings, failing with ``message``."""

    def read(opt: Option, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(message, fix=fix)
        return tuple(value)

    return read


_read_exclude = _strings(
    "option 'exclude' must be a list of globs, relative to each root",
    'exclude: ["PROCESS.md", "guides/**"]',
)


def _page_name(opt: Option, value: Any) -> str:
    if value is None:
        return str(opt.default)
    if not isinstance(value, str) or "/" in value or not value.endswith(".md"):
        raise ConfigError(
            f"option '{opt.name}' is {value!r}; expected a file name such as INDEX.md"
        )
    return value


def _language(opt: Option, value: Any) -> str:
    """A language tag (``zh``, ``pt-BR``) or ``auto``; one without a catalogue is taken
    and falls back to English at build time, with a note (views/i18n.choose)."""
    if value is None:
        return str(opt.default)
    if not isinstance(value, str) or not re.fullmatch(
        r"[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*", value
    ):
        raise ConfigError(
            f"option 'language' is {value!r}; expected a language tag such as zh or pt-BR, or auto",
            fix="language: auto",
        )
    return value


def _count(opt: Option, value: Any) -> int:
    number: int = _typed(opt.name, value, int)
    if number < 0:
        raise ConfigError("options 'graph_hops' and 'nav_limit' must not be negative")
    return number


def _work_dir(opt: Option, value: Any) -> str:
    """The folder, normalized and relative to the project (from_options anchors it)."""
    norm = normalize_rel(value) if isinstance(value, str) else None
    if norm in (None, ""):
        raise ConfigError(
            f"option 'work_dir' is {value!r}; it must be a folder inside the project",
            fix=f"work_dir: {opt.default}",
        )
    return str(norm)


def _aliases(opt: Option, value: Any) -> dict[str, str]:
    aliases = value or {}
    if not isinstance(aliases, Mapping):
        raise ConfigError("option 'status_aliases' must map words to statuses")
    for word, target in aliases.items():
        if target not in STATUSES[:6]:
            raise ConfigError(
                f"status alias {word!r} maps to {target!r}, which is not a status",
                fix=f"map it to one of: {', '.join(STATUSES[:6])}",
            )
    return dict(aliases)


#: The root used when ``roots`` is not set and ``docs_dir`` has no ``adr`` folder but this
#: one (MADR's own folder).
DECISIONS_ROOT = "decisions"

#: Every plugin option, in the order MkDocs validates them. The one declaration.
OPTIONS: tuple[Option, ...] = (
    Option(
        "roots",
        list,
        ("adr",),
        "ADR roots relative to docs_dir; items are folder names or {path, prefix, title} "
        "(title also names the root's navigation section; Decisions by default). Left at "
        "[adr] where docs_dir has no adr folder but a decisions one, the root is decisions.",
        reader=_roots,
    ),
    Option(
        "layout",
        str,
        "auto",
        "flat, layered, or auto (detected per root).",
        choices=LAYOUTS,
    ),
    Option(
        "style",
        str,
        "auto",
        "Force one record style instead of detecting it per file.",
        choices=STYLES,
    ),
    Option(
        "mirrors",
        list,
        DEFAULT_MIRRORS,
        "Folder names (and *.<lang>.md suffixes) that hold translations, never records.",
        items=str,
        reader=_strings("option 'mirrors' must be a list of folder names", "mirrors: [zh, ja]"),
    ),
    Option(
        "exclude",
        list,
        (),
        "Globs of files that are not records, relative to each root (also per root item).",
        items=str,
        reader=_read_exclude,
    ),
    Option(
        "index_page",
        str,
        "INDEX.md",
        "File name of the INDEX view in each root.",
        reader=_page_name,
    ),
    Option(
        "current_page",
        str,
        "CURRENT.md",
        "File name of the CURRENT view in each root.",
        reader=_page_name,
    ),
    Option("graph", bool, True, "A graph page per root and a local graph on each record page."),
    Option("graph_hops", int, 3, "Hops shown in local graphs.", reader=_count),
    Option(
        "nav",
        str,
        "auto",
        "full lists every record; index leaves them to the views; auto switches above nav_limit.",
        choices=NAV_MODES,
    ),
    Option(
        "nav_limit",
        int,
        50,
        "Above this many records, nav: auto behaves like nav: index.",
        reader=_count,
    ),
    Option(
        "read_guard",
        str,
        "off",
        "What archived bodies contribute to search, and what `mkdocs-adr guard` (the "
        "agents' read hook) does with direct reads and unscoped searches: off, warn, guard.",
        choices=READ_GUARDS,
        takes_off=True,
    ),
    Option(
        "fail_on",
        str,
        "error",
        "Problems at or above this severity fail the build (never: only log).",
        choices=FAIL_ON,
    ),
    Option(
        "preview",
        str,
        "auto",
        "Under serve: auto previews the newest CURRENT draft; off; or a plan id.",
        takes_off=True,
    ),
    Option(
        "redirects",
        bool,
        True,
        "Archived records keep their old URL alive through a redirect page.",
    ),
    Option(
        "agent_files",
        bool,
        True,
        "The site publishes llms.txt at its root and index.json at each root's URL.",
    ),
    Option(
        "work_dir",
        str,
        ".mkdocs-adr",
        "Plans, drafts, receipts and journals, relative to the config file.",
        reader=_work_dir,
    ),
    Option(
        "status_headings",
        list,
        DEFAULT_STATUS_HEADINGS,
        "Headings that open a status section (localized).",
        items=str,
        reader=_strings("option 'status_headings' must be a list of headings"),
    ),
    Option(
        "status_aliases",
        dict,
        MappingProxyType({}),
        "Extra words that mean a status, e.g. {approved: accepted}.",
        reader=_aliases,
    ),
    Option(
        "language",
        str,
        "auto",
        "Language of the banners, badges and generated pages (en, de, es, fr, ja, pt, zh); "
        "auto: the theme's language.",
        reader=_language,
    ),
    Option(
        "missing_status",
        str,
        "missing",
        "How a record without a status counts: missing (not in effect), accepted, proposed.",
        choices=MISSING_STATUS,
    ),
)

OPTION: Mapping[str, Option] = MappingProxyType({o.name: o for o in OPTIONS})

#: Option names a config may carry: ours, and ``enabled``, which MkDocs adds to every plugin.
KNOWN_OPTIONS = frozenset({o.name for o in OPTIONS} | {"enabled"})


def from_options(
    options: Mapping[str, Any], *, project_dir: Path, docs_dir: Path, config_file: Path | None
) -> Config:
    """Validate plugin options (from MkDocs or plain YAML) into a :class:`Config`."""
    unknown = set(options) - KNOWN_OPTIONS
    if unknown:
        raise ConfigError(
            f"unknown option(s) for plugin 'adr': {', '.join(sorted(unknown))}",
            path=str(config_file) if config_file else None,
            fix=f"known options: {', '.join(sorted(KNOWN_OPTIONS - {'enabled'}))}",
        )
    values = {opt.name: opt.read(options) for opt in OPTIONS}
    # the default root (a host passes it as if written): MADR keeps its records in
    # docs/decisions, and the default finds them there
    if (
        values["roots"] == OPTION["roots"].read({})
        and not (docs_dir / "adr").is_dir()
        and (docs_dir / DECISIONS_ROOT).is_dir()
    ):
        values["roots"] = OPTION["roots"].read({"roots": [DECISIONS_ROOT]})
    values["roots"] = place_roots(values["roots"], project_dir=project_dir, docs_dir=docs_dir)
    # (relative to the config file, which is inside the project: SPEC 7)
    work_dir = (config_file.parent if config_file else project_dir) / values.pop("work_dir")
    return Config(
        project_dir=project_dir,
        docs_dir=docs_dir,
        work_dir=work_dir,
        config_file=config_file,
        **values,
    )


# --------------------------------------------------------------------------- mkdocs.yml


class _LenientLoader(yaml.SafeLoader):
    """Reads mkdocs.yml without importing anything its tags name."""


def _ignore_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node)
    return None


_LenientLoader.add_multi_constructor("!", _ignore_tag)
_LenientLoader.add_multi_constructor("tag:yaml.org,2002:python/", _ignore_tag)


def read_mkdocs_yml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ConfigError(
            f"cannot read {path.name}: {exc.strerror}",
            path=str(path),
            fix="pass the site's config with -f, or an ADR folder with --root",
        ) from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path.name} is not UTF-8", path=str(path)) from None
    try:
        data = yaml.load(text, Loader=_LenientLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(
            f"{path.name} is not valid YAML: {getattr(exc, 'problem', exc)}",
            path=str(path),
            line=(mark.line + 1) if mark else None,
            fix="fix the YAML syntax at that line",
        ) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path.name} must be a mapping of settings", path=str(path))
    inherit = data.pop("INHERIT", None)
    if isinstance(inherit, str):
        parent = read_mkdocs_yml((path.parent / inherit).resolve())
        parent.update(data)
        data = parent
    return dict(data)


def plugin_options(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``adr`` plugin's options in a loaded mkdocs.yml, or ``None`` if absent."""
    plugins = data.get("plugins")
    items: list[Any]
    if isinstance(plugins, Mapping):
        items = [{k: v} for k, v in plugins.items()]
    elif isinstance(plugins, list):
        items = plugins
    else:
        return None
    for item in items:
        if item == "adr":
            return {}
        if isinstance(item, Mapping) and "adr" in item:
            value = item["adr"]
            return dict(value) if isinstance(value, Mapping) else {}
    return None


def load_from_mkdocs_yml(path: Path) -> Config:
    path = path.resolve()
    data = read_mkdocs_yml(path)
    options = plugin_options(data)
    if options is None:
        options = {}
    docs_dir = (path.parent / str(data.get("docs_dir") or "docs")).resolve()
    project_dir = project_folder(path.parent, docs_dir)
    return from_options(options, project_dir=project_dir, docs_dir=docs_dir, config_file=path)


#: How far above the folder of ``mkdocs.yml`` the project may start, to hold its docs.
_PROJECT_REACH = 2


def project_folder(config_folder: Path, docs_dir: Path) -> Path:
    """The project of a ``mkdocs.yml`` in ``config_folder`` whose docs are ``docs_dir``:
    that folder, or, when the docs lie beside it (``mkdocs/mkdocs.yml`` with ``docs_dir:
    ../docs``), the nearest folder that holds both, at most :data:`_PROJECT_REACH` levels
    up. Every path mkdocs-adr reads, writes or shows lies inside the project, and a page's
    link to another page of the docs never leaves it."""
    config_folder = config_folder.resolve()
    if within(docs_dir, config_folder):
        return config_folder
    for up, parent in enumerate(config_folder.parents, start=1):
        if up > _PROJECT_REACH or parent == parent.parent:
            break
        if within(docs_dir, parent):
            return parent
    return config_folder


def for_root(root: Path, *, cwd: Path | None = None) -> Config:
    """A config for one ADR folder without any MkDocs configuration.

    Output paths are relative to the current folder (SPEC 6), so the project
    folder is ``cwd`` and the root's parent plays the part of ``docs_dir``.
    """
    cwd = (cwd or Path.cwd()).resolve()
    folder = (cwd / root).resolve()
    if not folder.is_dir():
        raise ConfigError(
            f"--root {root} is not a folder", fix="pass the folder that holds the ADR files"
        )
    return Config(project_dir=cwd, docs_dir=folder.parent, roots=(RootConfig(folder.name),))
