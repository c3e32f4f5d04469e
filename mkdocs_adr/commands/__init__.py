"""CLI commands, one module per command family.

Every module here exports ``COMMANDS``, a list of click commands. ``cli.py`` lists the
commands from :data:`TABLE` (name, module, one-line help) and imports a command's module
only when that command runs, so ``mkdocs-adr guard`` (called on every tool call of an
agent) and ``--help`` do not pay for every other command's imports. A new command is one
row below; a test checks the table against every module's ``COMMANDS``.
"""

from __future__ import annotations

from types import ModuleType

import click

#: Every command: its name, the module that defines it, and its one-line help (as
#: ``--help`` lists it without importing the module).
TABLE: dict[str, tuple[str, str]] = {
    "accept": (
        "status_change",
        "Accept a proposal; what it supersedes is marked superseded in the same change.",
    ),
    "archive": ("archive", "Plan moving out-of-effect records to <root>/archive/, and review it."),
    "check": ("check", "Check the log and its views in one read-only pass, for CI."),
    "context": (
        "context",
        "Evidence about ID (ADR-0042, ADR-0042#D2, ADR-0042#D2@2 or a record's path).",
    ),
    "deprecate": (
        "status_change",
        "Deprecate an accepted record, optionally naming what replaces it (--by).",
    ),
    "find": (
        "find",
        "Find the decisions for --path/--component/--topic, deterministic layers first.",
    ),
    "graph": (
        "graph",
        "Print the relation graph of the whole log, or of the records around ID.",
    ),
    "guard": (
        "guard",
        "Judge one agent tool call read from stdin (Claude Code's PreToolUse hook JSON).",
    ),
    "index": ("index", "Write INDEX.md (with its generated-file marker) in every ADR root."),
    "link": ("authoring", "Relate SOURCE to TARGET: VERB in SOURCE, INVERSE in TARGET."),
    "mcp": (
        "mcp",
        "Serve the log to an MCP client (Claude Code, Cursor, VS Code...) on stdin/stdout.",
    ),
    "new": ("authoring", "Write the next record (TITLE words are joined) and print its path."),
    "plan": (
        "plan",
        "Analyse the log (read-only), draft the CURRENT view, or apply a reviewed plan.",
    ),
    "reject": (
        "status_change",
        "Reject a proposal (an accepted record is deprecated or superseded instead).",
    ),
    "status": (
        "status",
        "Plans in the work dir with their version and validity, receipts, and recovery.",
    ),
    "supersede": (
        "authoring",
        "Record that NEW supersedes OLD, in both records, each in its own style.",
    ),
}


def load(name: str) -> click.Command | None:
    """The command called ``name``, its module imported now (None: no such command)."""
    row = TABLE.get(name)
    if row is None:
        return None
    commands: list[click.Command] = _module(row[0]).COMMANDS
    return next((c for c in commands if c.name == name), None)


def _module(family: str) -> ModuleType:
    """The module of a command family, imported by a plain import (grep and mypy follow)."""
    if family == "archive":
        from . import archive

        return archive
    if family == "authoring":
        from . import authoring

        return authoring
    if family == "check":
        from . import check

        return check
    if family == "context":
        from . import context

        return context
    if family == "find":
        from . import find

        return find
    if family == "graph":
        from . import graph

        return graph
    if family == "guard":
        from . import guard

        return guard
    if family == "index":
        from . import index

        return index
    if family == "mcp":
        from . import mcp

        return mcp
    if family == "plan":
        from . import plan

        return plan
    if family == "status":
        from . import status

        return status
    if family == "status_change":
        from . import status_change

        return status_change
    raise KeyError(family)


def all_commands() -> list[click.Command]:
    """Every command, every module imported (for tests and documentation)."""
    found = [load(name) for name in TABLE]
    return [c for c in found if c is not None]
