"""``mkdocs-adr mcp``: the Model Context Protocol server over stdio, for coding agents."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..mcp_server import Project, require_sdk, serve
from ._common import config_for, echo, location, location_options
from .find import command_prefix


@click.command("mcp")
@location_options
def mcp_command(config_file: Path | None, root: Path | None) -> None:
    """Serve the log to an MCP client (Claude Code, Cursor, VS Code...) on stdin/stdout.

    Tools adr_context, adr_find, adr_check and adr_graph answer with the JSON of
    `context`, `find`, `check` and `graph --format json`, with the same budgets and
    cursors; each root's reviewed CURRENT view is a resource, with its freshness.
    The log is read again when files change between calls. Needs the optional
    SDK: pip install 'mkdocs-adr[mcp]'.
    """
    require_sdk()
    config_file, root = location(config_file, root)
    config_for(config_file, root)  # a missing or broken configuration stops here, exit 2
    if sys.stdin.isatty():
        echo(
            "mkdocs-adr mcp: serving MCP on stdin/stdout; an MCP client starts this command "
            "(see docs/guide/agents.md). Ctrl-D or Ctrl-C stops it.",
            err=True,
        )
    serve(Project(config_file, root, prefix=command_prefix(config_file, root)))


COMMANDS = [mcp_command]
