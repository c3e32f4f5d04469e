"""The Model Context Protocol server behind ``mkdocs-adr mcp`` (stdio, official SDK).

Four tools answer with exactly what the commands print with ``--json``, computed by the
same engine functions: ``adr_context`` (:func:`mkdocs_adr.retrieval.context`),
``adr_find`` (:func:`mkdocs_adr.retrieval.find`), ``adr_check``
(:func:`mkdocs_adr.commands.check.check_data`) and ``adr_graph``
(:func:`mkdocs_adr.commands.graph.graph_around`). So budgets, cursors, nearest-id hints
and freshness are the CLI's, and a cursor from one works in the other. Each reviewed
CURRENT view is a resource: its text with its freshness state.

Every request sees the files as they are: ``mkdocs.yml`` is read again when its bytes
changed, the log is loaded again (through one :class:`~mkdocs_adr.log.ParseCache`, so only
changed records are parsed) when discovery finds other files, sizes or file times than for
the last answer, or when a record file changed too recently for its times to prove anything.
A domain error comes back as a tool error (``isError``) carrying the CLI's message; no
request stops the server.

Host-neutral engine code: no MkDocs import. The SDK (PyPI ``mcp``, the optional extra
``mkdocs-adr[mcp]``) is imported only inside :func:`serve`, so everything else works
without it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from jsonschema import Draft202012Validator

from . import __version__
from .commands._common import config_for, site_config
from .commands.check import check_data
from .commands.graph import graph_around
from .config import Config
from .discovery import discover
from .errors import AdrError, ConfigError, UsageError
from .freshness import current_state
from .identity import shown
from .log import Log, ParseCache, load
from .model import STATUSES, RootInfo
from .retrieval import INTENTS, MAX_CODEPOINTS, MAX_UNITS, ContextQuery, FindQuery, context, find
from .safetext import json_text, terminal
from .views import graphdata

if TYPE_CHECKING:
    import mcp_types

SERVER_NAME = "mkdocs-adr"
INSTALL_HINT = "pip install 'mkdocs-adr[mcp]'"
#: Scheme of the CURRENT resources: ``mkdocs-adr://current/<root path>``.
CURRENT_URI = "mkdocs-adr://current/"
CURRENT_SCHEMA = "mkdocs-adr/current"

INSTRUCTIONS = (
    "Architecture Decision Records of this project. Before changing code, call adr_find "
    "with the paths you are about to edit (and a topic); call adr_context with an id for "
    "what binds now, or intent 'rationale' / 'history'. Answers are bounded "
    f"({MAX_UNITS} units, {MAX_CODEPOINTS} code points): when next_cursor is set, call the "
    "same tool with the same arguments and that cursor. adr_check lists the log's "
    "problems; adr_graph shows the relations around an id. The CURRENT resources are the "
    "reviewed summary of what is in effect, with its freshness: trust it only when fresh."
)

_BOUNDED = (
    f" Bounded like the CLI: at most {MAX_UNITS} decision units and {MAX_CODEPOINTS} code "
    "points per answer (the answer's `budget` says what it used); `omitted` counts what "
    "is left and `next_cursor` continues it: pass it as `cursor` with the same other "
    "arguments."
)
_TEXT = {"type": "string", "minLength": 1, "maxLength": 1000}
_CURSOR = {
    "type": "string",
    "maxLength": 4000,
    "description": "The next_cursor of an earlier answer to the same arguments.",
}

# --------------------------------------------------------------------------- tool inputs

CONTEXT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {
            **_TEXT,
            "description": "A record: ADR-0042, ADR-0042#D2, ADR-0042#D2@2, a number (42) or "
            "a record's path. Without id, domain or iteration: an overview of the log.",
        },
        "domain": {**_TEXT, "description": "Every decision in effect in one domain."},
        "iteration": {**_TEXT, "description": "Every decision in effect of one iteration."},
        "intent": {
            "enum": list(INTENTS),
            "default": "current",
            "description": "current: what binds now (an old id answers with its successor); "
            "rationale: full text with context and consequences; history: the lineage.",
        },
        "unit": {**_TEXT, "description": "One decision unit of a container record (D2)."},
        "cursor": _CURSOR,
    },
    "additionalProperties": False,
}

FIND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "paths": {
            "type": "array",
            "items": _TEXT,
            "description": "Files or folders being worked on, project-relative.",
        },
        "components": {"type": "array", "items": _TEXT, "description": "Components."},
        "topic": {**_TEXT, "description": "Words describing the work; ranks the narrowed set."},
        "status": {
            "type": "array",
            "items": {"enum": [*STATUSES, "all"]},
            "description": "Statuses to admit; default: the decisions in effect.",
        },
        "cursor": _CURSOR,
    },
    "additionalProperties": False,
}

CHECK_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "fail_on": {
            "enum": ["error", "warning", "info", "never"],
            "description": "Severity that makes `ok` false (default: the fail_on option).",
        },
        "allow_stale": {
            "type": "boolean",
            "default": False,
            "description": "A stale CURRENT or drifting INDEX does not make `ok` false.",
        },
    },
    "additionalProperties": False,
}

GRAPH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {**_TEXT, "description": "The record in the middle: an id, number or path."},
        "hops": {
            "type": "integer",
            "minimum": 0,
            "maximum": 100,
            "description": "Relation hops around it (default: the graph_hops option).",
        },
    },
    "required": ["id"],
    "additionalProperties": False,
}

# --------------------------------------------------------------------------- the project


class Project:
    """The log at ``-f FILE`` / ``--root PATH`` (./mkdocs.yml without either), read again
    for every request: unchanged records come from the parse cache."""

    def __init__(
        self, config_file: Path | None, root: Path | None, *, prefix: str = "mkdocs-adr"
    ) -> None:
        self.config_file = config_file
        self.root = root
        self.prefix = prefix
        self._cache = ParseCache()
        self._config: Config | None = None
        self._config_bytes: bytes | None = None
        self._log: Log | None = None
        self._stamp: tuple[Config, tuple[object, ...] | None] | None = None

    def config(self) -> Config:
        if self.root is not None:
            if self._config is None:
                self._config = config_for(None, self.root)
            return self._config
        path = self.config_file or site_config(Path())
        try:
            data = path.read_bytes()
        except OSError:
            data = None  # config_for says what is wrong
        if self._config is None or data is None or data != self._config_bytes:
            self._config = config_for(self.config_file, None)
            self._config_bytes = data
        return self._config

    def log(self) -> Log:
        """The log as the files are now: the last one when no record file changed (same
        files, sizes, modification and change times, same day), else read again."""
        config = self.config()
        stamp = _stamp(config)
        if stamp is None or self._log is None or (config, stamp) != self._stamp:
            self._log = load(config, cache=self._cache)
            self._stamp = (config, stamp)
        return self._log


#: A file modified this recently may be modified again within the clock's resolution
#: without its times changing ("racy" in git's words): such a stamp is never trusted.
RACY_NS = 2_000_000_000


def _stamp(config: Config) -> tuple[object, ...] | None:
    """What the log depends on, cheaply: the record files discovery finds (names, sizes,
    inodes, modification and change times) and the day (review-by dates). None when a
    file changed so recently that its times cannot vouch for its content."""
    found = discover(config)
    now = time.time_ns()
    entries: list[tuple[object, ...]] = []
    for item in found.found:
        try:
            st = os.stat(item.abspath)
        except OSError:
            return None
        if now - max(st.st_mtime_ns, st.st_ctime_ns) < RACY_NS:
            return None
        entries.append((item.path, st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns))
    excluded = tuple((e.path, e.reason) for e in found.excluded)
    return (dt.date.today(), tuple(entries), excluded, len(found.problems))


def _json(data: Any) -> str:
    """Compact, sorted JSON; characters a terminal acts on escaped (the same data)."""
    return json_text(json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")))


# --------------------------------------------------------------------------- the tools


#: The flags the commands an answer names (``navigation.next``, ``widen``) carry: the
#: answer is the CLI's ``--json`` output, so those commands give JSON too.
CLI_FLAGS = ("--json",)


def _context(project: Project, args: dict[str, Any]) -> str:
    query = ContextQuery(
        args.get("id"),
        args.get("domain"),
        args.get("iteration"),
        args.get("intent", "current"),
        args.get("unit"),
        args.get("cursor"),
    )
    _data, text = context(project.log(), query, prefix=project.prefix, flags=CLI_FLAGS)
    return text


def _find(project: Project, args: dict[str, Any]) -> str:
    query = FindQuery(
        tuple(args.get("paths", ())),
        tuple(args.get("components", ())),
        args.get("topic"),
        tuple(args.get("status", ())),
        args.get("cursor"),
    )
    _data, text = find(project.log(), query, prefix=project.prefix, flags=CLI_FLAGS)
    return text


def _check(project: Project, args: dict[str, Any]) -> str:
    data, _code = check_data(
        project.log(), fail_on=args.get("fail_on"), allow_stale=args.get("allow_stale", False)
    )
    return _json(data)


def _graph(project: Project, args: dict[str, Any]) -> str:
    data, _title = graph_around(project.log(), args["id"], args.get("hops"))
    return _json(graphdata.to_json(data))


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    schema: dict[str, Any]
    run: Callable[[Project, dict[str, Any]], str]


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "adr_context",
        "Decision context",
        "Evidence about one decision (what binds now, its rationale or its history), a "
        "domain, an iteration, or without arguments an overview of the log. The same JSON "
        "as `mkdocs-adr context --json`." + _BOUNDED,
        CONTEXT_SCHEMA,
        _context,
    ),
    ToolSpec(
        "adr_find",
        "Find governing decisions",
        "The decisions that govern the files or topic at hand: affected paths and "
        "components first, then status (in effect unless `status`), relations, then "
        "`topic` ranking. The same JSON as `mkdocs-adr find --json`." + _BOUNDED,
        FIND_SCHEMA,
        _find,
    ),
    ToolSpec(
        "adr_check",
        "Check the log",
        "Every problem of the records (code, severity, path, line, message, fix), the "
        "freshness of each CURRENT view and INDEX drift, and `ok`: the same JSON as "
        "`mkdocs-adr check --json`. Read-only.",
        CHECK_SCHEMA,
        _check,
    ),
    ToolSpec(
        "adr_graph",
        "Relations around a decision",
        "The neighbourhood of a record: the records within `hops` relations of it and the "
        "edges between them, in and out (supersedes, amends, extends, depends-on, "
        "relates-to). The same JSON as `mkdocs-adr graph ID --format json`.",
        GRAPH_SCHEMA,
        _graph,
    ),
)
TOOLS_BY_NAME = {t.name: t for t in TOOLS}
_VALIDATORS = {t.name: Draft202012Validator(t.schema) for t in TOOLS}


def call(project: Project, name: str, arguments: dict[str, Any] | None) -> tuple[str, bool]:
    """The text of tool ``name``'s answer and whether it is an error; never raises for
    a bad request, a bad log or a bug (the server keeps answering)."""
    try:
        return _call(project, name, arguments)
    except AdrError as exc:  # the line the CLI prints on stderr
        return terminal(f"mkdocs-adr: {exc.format()}"), True
    except Exception as exc:  # a bug must not end the session
        return terminal(f"mkdocs-adr: internal error: {type(exc).__name__}: {exc}"), True


def _call(project: Project, name: str, arguments: dict[str, Any] | None) -> tuple[str, bool]:
    spec = TOOLS_BY_NAME.get(name)
    if spec is None:
        raise UsageError(
            f"no tool named {shown(name)}", fix=f"use one of: {', '.join(TOOLS_BY_NAME)}"
        )
    args = dict(arguments or {})
    errors = sorted(_VALIDATORS[name].iter_errors(args), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "the arguments"
        message = first.message if len(first.message) <= 300 else first.message[:297] + "..."
        raise UsageError(
            f"invalid {name} input: {where}: {message}",
            fix="see the tool's inputSchema (tools/list)",
        )
    return spec.run(project, args), False


# --------------------------------------------------------------------------- CURRENT


def current_uri(root: RootInfo) -> str:
    return CURRENT_URI + quote(root.path, safe="/")


def current_document(log: Log, root: RootInfo) -> dict[str, Any]:
    """A root's reviewed CURRENT view: its text (None when absent) and its freshness
    (``state`` fresh, stale, unverifiable or absent, with the reasons)."""
    view, _problems = current_state(log, root)
    text: str | None = None
    disk = log.config.project_dir / root.path / log.config.current_page
    try:
        text = disk.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        text = None
    return {
        "schema": CURRENT_SCHEMA,
        "version": 1,
        "root": root.path,
        "path": view.path,
        "freshness": view.to_json(),
        "text": text,
    }


def find_root(log: Log, uri: str) -> RootInfo | None:
    if not uri.startswith(CURRENT_URI):
        return None
    wanted = unquote(uri[len(CURRENT_URI) :])
    return next((r for r in log.roots if r.path == wanted), None)


# --------------------------------------------------------------------------- serving


def require_sdk() -> None:
    """Stop with the install command when the SDK is missing (a one-line error)."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise ConfigError(
            "the MCP server needs the Model Context Protocol SDK (the `mcp` package), "
            "which is not installed",
            fix=INSTALL_HINT,
        ) from None


def serve(project: Project) -> None:
    """Answer MCP requests on stdin/stdout until the client closes them."""
    require_sdk()
    import anyio

    server = build_server(project)

    async def main() -> None:
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


def build_server(project: Project) -> Any:
    """The SDK's low-level server with our handlers (tools and CURRENT resources)."""
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    async def list_tools(
        _ctx: Any, _params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=t.name,
                    title=t.title,
                    description=t.description,
                    input_schema=t.schema,
                    annotations=types.ToolAnnotations(
                        read_only_hint=True, idempotent_hint=True, open_world_hint=False
                    ),
                )
                for t in TOOLS
            ]
        )

    async def call_tool(
        _ctx: Any, params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        text, is_error = call(project, params.name, params.arguments)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], is_error=is_error
        )

    def resource_log() -> Log:
        try:
            return project.log()
        except AdrError as exc:
            raise MCPError(types.INTERNAL_ERROR, f"mkdocs-adr: {exc.format()}") from None

    async def list_resources(
        _ctx: Any, _params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListResourcesResult:
        log = resource_log()
        resources = []
        for root in log.roots:
            view, _ = current_state(log, root)
            resources.append(
                types.Resource(
                    uri=current_uri(root),
                    name=f"CURRENT {root.path}",
                    title=f"{root.title}: CURRENT ({view.state})",
                    description=(
                        f"The reviewed summary {view.path} of the decisions in effect, with "
                        f"its freshness (now: {view.state}). Trust it only when fresh; "
                        "adr_context and adr_find read the records themselves."
                    ),
                    mime_type="application/json",
                )
            )
        return types.ListResourcesResult(resources=resources)

    async def read_resource(
        _ctx: Any, params: mcp_types.ReadResourceRequestParams
    ) -> mcp_types.ReadResourceResult:
        log = resource_log()
        uri = str(params.uri)
        root = find_root(log, uri)
        if root is None:
            known = ", ".join(current_uri(r) for r in log.roots) or "none"
            raise MCPError(
                types.INVALID_PARAMS, f"mkdocs-adr: no resource {uri!r}; resources: {known}"
            )
        text = _json(current_document(log, root))
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type="application/json", text=text)]
        )

    return Server(
        SERVER_NAME,
        version=__version__,
        title="Architecture Decision Records (mkdocs-adr)",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )
