"""What a command did (or, with ``--dry-run``, would do): changes, notes, the diff.

The CLI turns an :class:`Outcome` into text or its JSON envelope
(:mod:`mkdocs_adr.commands.authoring`); the ``to_json``/``from_json`` here are
how a plan stores its changes and subject for a later resume.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from ..model import Problem

#: Schema name of the CLI's JSON answers for ``new``, ``supersede`` and ``link``.
SCHEMA = "mkdocs-adr/authoring"


@dataclass
class Change:
    """One file a command creates or updates, and what it writes there."""

    path: str
    id: str
    action: str  # created | updated
    what: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "id": self.id, "action": self.action, "what": self.what}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Change:
        return cls(
            str(data["path"]), str(data["id"]), str(data["action"]), list(data.get("what") or [])
        )


@dataclass(frozen=True)
class Subject:
    """The record a command is about: the new one, NEW of a supersede, SOURCE of a link."""

    id: str
    path: str
    status: str
    style: str | None = None  # new only
    title: str | None = None  # new only
    supersedes: str | None = None  # supersede only

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "path": self.path, "status": self.status}
        for key in ("style", "title", "supersedes"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Subject:
        def opt(key: str) -> str | None:
            return None if data.get(key) is None else str(data[key])

        return cls(
            id=str(data["id"]),
            path=str(data["path"]),
            status=str(data["status"]),
            style=opt("style"),
            title=opt("title"),
            supersedes=opt("supersedes"),
        )


@dataclass
class Outcome:
    """What a command did (or, with ``--dry-run``, would do)."""

    command: str
    dry_run: bool
    changes: list[Change] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    diff: str = ""
    plan_id: str | None = None
    receipt: str | None = None
    record: Subject | None = None
    problems_added: list[Problem] = field(default_factory=list)
    problems_resolved: list[Problem] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    resumed: bool = False

    @property
    def written(self) -> bool:
        return not self.dry_run and bool(self.changes)


def unified_diff(path: str, before: bytes | None, after: bytes) -> str:
    """``git diff``-like text of one file; a missing newline at the end is said."""
    old = [] if before is None else _lines(before)
    new = _lines(after)
    out = difflib.unified_diff(
        old, new, fromfile="/dev/null" if before is None else f"a/{path}", tofile=f"b/{path}"
    )
    text = ""
    for line in out:
        text += line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
    return text


def _lines(data: bytes) -> list[str]:
    text = data.decode("utf-8-sig", "replace").replace("\r\n", "\n")
    return text.splitlines(keepends=True)
