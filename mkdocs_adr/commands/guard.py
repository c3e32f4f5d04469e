"""``mkdocs-adr guard``: the read guard as a Claude Code ``PreToolUse`` hook.

Reads one tool call as the hook's JSON on stdin (``session_id``, ``cwd``,
``hook_event_name``, ``tool_name``, ``tool_input``), asks :func:`mkdocs_adr.guard.decide`,
and answers in the hook's protocol on stdout, always with exit code 0:

- nothing to say (mode ``off``, or a call the guard lets pass): no output, and Claude
  Code's own permission rules decide as if there were no hook;
- ``warn``: ``hookSpecificOutput.additionalContext`` carries the note to the agent, the
  call runs;
- ``guard``: ``hookSpecificOutput.permissionDecision: "deny"`` with the better call in
  ``permissionDecisionReason`` (what the agent reads).

The guard never answers ``allow``: that would skip the user's permission prompt for
the call, which is not a read guard's to grant. Its own failures (no JSON, a broken
``mkdocs.yml``) never block the agent: the message goes to stderr and, as
``systemMessage``, to the user, and the call runs.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any, BinaryIO

import click

from ..config import READ_GUARDS, load_from_mkdocs_yml
from ..errors import AdrError
from ..guard import Decision, GuardInputError, Project, ToolCall, decide
from ._common import echo, echo_json_text, location_options, resolve_config, site_config

EVENT = "PreToolUse"


@click.command("guard")
@click.option(
    "--mode",
    type=click.Choice(READ_GUARDS),
    default=None,
    help="off, warn or guard (default: the read_guard option of mkdocs.yml).",
)
@location_options
def guard_command(mode: str | None, config_file: Path | None, root: Path | None) -> None:
    """Judge one agent tool call read from stdin (Claude Code's PreToolUse hook JSON).

    Denies (guard) or annotates (warn) reads of archived ADR bodies and unscoped
    content searches over the ADR roots, naming the `context`/`find` call to make
    instead. Prints the hook's JSON answer on stdout; exit code 0. See
    docs/guide/agents.md, "Read guard (Claude Code hook)".
    """
    # the bytes as sent (click's get_binary_stream is deprecated from click 8.5)
    stream: BinaryIO | None = getattr(sys.stdin, "buffer", None)
    data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8", "replace")
    try:
        call, note = _call(data)
    except GuardInputError as exc:
        _trouble(f"{exc}; the tool call was allowed")
        return
    if call is None:
        if note:
            echo(f"mkdocs-adr guard: {note}", err=True)
        return
    try:
        project = _project(call.cwd, config_file, root)
    except AdrError as exc:
        _trouble(f"cannot read the project's config: {exc.format()}; the tool call was allowed")
        return
    if project is None:
        echo(
            f"mkdocs-adr guard: no mkdocs.yml in {call.cwd} or above it; nothing to guard",
            err=True,
        )
        return
    try:
        decision = decide(call, project, mode or project.config.read_guard)
    except Exception as exc:  # never block the agent on the guard's own fault
        _trouble(f"internal error ({type(exc).__name__}: {exc}); the tool call was allowed")
        return
    if decision.note:
        echo(f"mkdocs-adr guard: {decision.note}", err=True)
    answer = hook_answer(decision)
    if answer is not None:
        echo_json_text(json.dumps(answer, ensure_ascii=False))


def hook_answer(decision: Decision) -> dict[str, Any] | None:
    """The ``PreToolUse`` hook's JSON for ``decision`` (None: print nothing)."""
    if decision.action == "deny":
        return {
            "hookSpecificOutput": {
                "hookEventName": EVENT,
                "permissionDecision": "deny",
                "permissionDecisionReason": decision.reason,
            }
        }
    if decision.action == "warn":
        return {
            "hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": decision.reason}
        }
    return None


def _call(data: bytes) -> tuple[ToolCall | None, str]:
    """The tool call on stdin; (None, why) for an event that is not one to judge."""
    try:
        raw = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GuardInputError(f"stdin is not UTF-8 (byte {exc.start})") from None
    if not raw.strip():
        raise GuardInputError(
            "stdin is empty; expected the JSON of one PreToolUse hook call "
            '({"tool_name": ..., "tool_input": {...}, "cwd": ...})'
        )
    try:
        value: object = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise GuardInputError(
            f"stdin is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    event = value.get("hook_event_name") if isinstance(value, dict) else None
    if isinstance(event, str) and event != EVENT:
        return None, f"hook event {event!r} is not {EVENT}; nothing to decide"
    return ToolCall.from_hook(value, Path.cwd()), ""


def _project(cwd: Path, config_file: Path | None, root: Path | None) -> Project | None:
    """The project the call works in: -f / --root when given, else the nearest
    mkdocs.yml at or above the call's folder (its ``cwd``, else the process's)."""
    params = click.get_current_context().find_root().params
    config_file = config_file or params.get("config_file")
    root = root or params.get("root")
    if config_file is not None or root is not None:
        config = resolve_config(config_file, root)
        if config_file is not None:
            return Project.of(config, f"mkdocs-adr -f {shlex.quote(str(config_file))}")
        return Project.of(config, f"mkdocs-adr --root {shlex.quote(str(root))}")
    found = _nearest(cwd)
    if found is None:
        return None
    return Project.of(load_from_mkdocs_yml(found), _prefix(found, cwd))


def _nearest(start: Path) -> Path | None:
    try:
        folder = Path(os.path.realpath(start))
    except (OSError, ValueError):
        return None
    for candidate in (folder, *folder.parents):
        path = site_config(candidate)
        if path.is_file():
            return path
    return None


def _prefix(config_path: Path, cwd: Path) -> str:
    """``mkdocs-adr``, with ``-f`` when the agent's folder is not the config's."""
    here = Path(os.path.realpath(cwd))
    if config_path.parent == here:
        return "mkdocs-adr"
    try:
        shown = os.path.relpath(config_path, here)
    except ValueError:  # another drive
        shown = str(config_path)
    return f"mkdocs-adr -f {shlex.quote(shown)}"


def _trouble(message: str) -> None:
    """The guard's own failure: told on stderr and to the user; the call runs."""
    text = f"mkdocs-adr guard: {message}"
    echo(text, err=True)
    echo_json_text(json.dumps({"systemMessage": text}, ensure_ascii=False))


COMMANDS = [guard_command]
