"""Engine configuration, independent of any documentation host.

The plugin builds a :class:`Config` from its validated MkDocs options; the CLI
builds the same from ``mkdocs.yml`` (read as plain YAML, so no MkDocs import is
needed) or from a bare ``--root``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import ConfigError
from .parsing.formats import FORCED
from .paths import normalize

DEFAULT_MIRRORS: tuple[str, ...] = ("zh", "ja", "ko", "es", "pt", "fr", "de")
DEFAULT_STATUS_HEADINGS: tuple[str, ...] = (
    "Status",
    "状态",
    "狀態",
    "Estado",
    "Statut",
    "Stand",
    "ステータス",
    "상태",
)
LAYOUTS = ("auto", "flat", "layered")
NAV_MODES = ("auto", "full", "index")
READ_GUARDS = ("off", "warn", "guard")
FAIL_ON = ("error", "warning", "info", "never")
#: ``auto`` and the formats the ``style`` option can force (the format registry's order).
STYLES = ("auto", *FORCED)

#: Built-in status aliases. Matches are reported at info level (SPEC 3.2).
DEFAULT_ALIASES: dict[str, str] = {
    "approved": "accepted",
    "agreed": "accepted",
    "adopted": "accepted",
    "decided": "accepted",
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
    "wip": "draft",
    "work in progress": "draft",
    "草稿": "draft",
    "borrador": "draft",
    "rascunho": "draft",
    "brouillon": "draft",
    "entwurf": "draft",
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
    "obsolete": "deprecated",
    "retired": "deprecated",
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
}


@dataclass(frozen=True)
class RootConfig:
    """One ADR root, relative to ``docs_dir`` (POSIX separators)."""

    path: str
    prefix: str = "ADR"
    title: str = ""

    @property
    def display_title(self) -> str:
        return self.title or f"Decisions ({self.path})"


@dataclass(frozen=True)
class Config:
    """Everything the engine needs to read a log. Paths are absolute."""

    project_dir: Path
    docs_dir: Path
    roots: tuple[RootConfig, ...] = (RootConfig("adr"),)
    layout: str = "auto"
    style: str = "auto"
    mirrors: tuple[str, ...] = DEFAULT_MIRRORS
    index_page: str = "INDEX.md"
    current_page: str = "CURRENT.md"
    graph: bool = True
    graph_hops: int = 3
    nav: str = "auto"
    nav_limit: int = 50
    read_guard: str = "off"
    fail_on: str = "error"
    preview: str = "auto"
    redirects: bool = True
    work_dir: Path | None = None
    status_headings: tuple[str, ...] = DEFAULT_STATUS_HEADINGS
    status_aliases: Mapping[str, str] = field(default_factory=dict)
    max_file_bytes: int = 1024 * 1024
    config_file: Path | None = None

    @property
    def work_path(self) -> Path:
        return self.work_dir if self.work_dir is not None else self.project_dir / ".mkdocs-adr"

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
        return self.docs_dir / root.path

    def replace(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **changes)


# --------------------------------------------------------------------------- options


def _choice(options: Mapping[str, Any], key: str, choices: Sequence[str], default: str) -> str:
    value = options.get(key, default)
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(
            f"option '{key}' is {value!r}; expected one of: {', '.join(choices)}",
            fix=f"set plugins.adr.{key} to one of {', '.join(choices)}",
        )
    return value


def _typed(options: Mapping[str, Any], key: str, kind: type, default: Any) -> Any:
    value = options.get(key, default)
    if kind is int and isinstance(value, bool):
        value = "bool"
    if not isinstance(value, kind):
        raise ConfigError(
            f"option '{key}' is {value!r}; expected {kind.__name__}",
            fix=f"set plugins.adr.{key} to a {kind.__name__}",
        )
    return value


def _roots(value: Any) -> tuple[RootConfig, ...]:
    if value is None:
        return (RootConfig("adr"),)
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
        unknown = set(item) - {"path", "prefix", "title"}
        if unknown:
            raise ConfigError(
                f"roots entry {item['path']!r} has unknown keys: {', '.join(sorted(unknown))}",
                fix="a root takes only path, prefix and title",
            )
        path = normalize_rel(str(item["path"]))
        if path is None:
            raise ConfigError(
                f"root {item['path']!r} leaves docs_dir",
                fix="roots are folders inside docs_dir, without '..' or absolute paths",
            )
        prefix = str(item.get("prefix") or "ADR")
        if not prefix.replace("_", "").isalnum():
            raise ConfigError(
                f"root {path!r} has prefix {prefix!r}; a prefix is letters and digits",
                fix="use a prefix such as ADR or PAY",
            )
        roots.append(RootConfig(path=path, prefix=prefix, title=str(item.get("title") or "")))
    paths = [r.path for r in roots]
    if len(set(paths)) != len(paths):
        raise ConfigError("option 'roots' lists the same folder twice", fix="list each root once")
    return tuple(roots)


def normalize_rel(path: str) -> str | None:
    """A path typed in an option, stripped, in :func:`mkdocs_adr.paths.normalize` form."""
    return normalize(path.strip())


KNOWN_OPTIONS = frozenset(
    {
        "roots",
        "layout",
        "style",
        "mirrors",
        "index_page",
        "current_page",
        "graph",
        "graph_hops",
        "nav",
        "nav_limit",
        "read_guard",
        "fail_on",
        "preview",
        "redirects",
        "work_dir",
        "status_headings",
        "status_aliases",
        "enabled",
    }
)


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
    mirrors = options.get("mirrors", list(DEFAULT_MIRRORS))
    if not isinstance(mirrors, list) or not all(isinstance(m, str) for m in mirrors):
        raise ConfigError(
            "option 'mirrors' must be a list of folder names", fix="mirrors: [zh, ja]"
        )
    headings = options.get("status_headings", list(DEFAULT_STATUS_HEADINGS))
    if not isinstance(headings, list) or not all(isinstance(h, str) for h in headings):
        raise ConfigError("option 'status_headings' must be a list of headings")
    aliases = options.get("status_aliases", {}) or {}
    if not isinstance(aliases, Mapping):
        raise ConfigError("option 'status_aliases' must map words to statuses")
    from .model import STATUSES

    for word, target in aliases.items():
        if target not in STATUSES[:6]:
            raise ConfigError(
                f"status alias {word!r} maps to {target!r}, which is not a status",
                fix=f"map it to one of: {', '.join(STATUSES[:6])}",
            )
    work_dir_opt = options.get("work_dir", ".mkdocs-adr")
    if not isinstance(work_dir_opt, str) or normalize_rel(work_dir_opt) in (None, ""):
        raise ConfigError(
            f"option 'work_dir' is {work_dir_opt!r}; it must be a folder inside the project",
            fix="work_dir: .mkdocs-adr",
        )
    for page_key in ("index_page", "current_page"):
        page = options.get(page_key)
        if page is not None and (
            not isinstance(page, str) or "/" in page or not page.endswith(".md")
        ):
            raise ConfigError(
                f"option '{page_key}' is {page!r}; expected a file name such as INDEX.md"
            )
    graph_hops = _typed(options, "graph_hops", int, 3)
    nav_limit = _typed(options, "nav_limit", int, 50)
    if graph_hops < 0 or nav_limit < 0:
        raise ConfigError("options 'graph_hops' and 'nav_limit' must not be negative")
    return Config(
        project_dir=project_dir,
        docs_dir=docs_dir,
        roots=_roots(options.get("roots")),
        layout=_choice(options, "layout", LAYOUTS, "auto"),
        style=_choice(options, "style", STYLES, "auto"),
        mirrors=tuple(mirrors),
        index_page=options.get("index_page") or "INDEX.md",
        current_page=options.get("current_page") or "CURRENT.md",
        graph=_typed(options, "graph", bool, True),
        graph_hops=graph_hops,
        nav=_choice(options, "nav", NAV_MODES, "auto"),
        nav_limit=nav_limit,
        read_guard=_choice(options, "read_guard", READ_GUARDS, "off"),
        fail_on=_choice(options, "fail_on", FAIL_ON, "error"),
        preview=str(options.get("preview", "auto")),
        redirects=_typed(options, "redirects", bool, True),
        work_dir=project_dir / str(normalize_rel(work_dir_opt)),
        status_headings=tuple(headings),
        status_aliases=dict(aliases),
        config_file=config_file,
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
    project_dir = path.parent
    docs_dir = project_dir / str(data.get("docs_dir") or "docs")
    return from_options(options, project_dir=project_dir, docs_dir=docs_dir, config_file=path)


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
