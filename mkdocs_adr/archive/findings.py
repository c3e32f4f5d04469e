"""What a relocation plan reports besides its changes: conflicts (which block it) and risks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Conflict:
    """Something that blocks applying the plan, at a file (and line) where known."""

    path: str | None
    line: int | None
    id: str | None  # the record it concerns
    reason: str
    fix: str = ""

    @property
    def message(self) -> str:
        where = f"{self.path}:{self.line}" if self.path and self.line else (self.path or "")
        return f"{where}: {self.reason}" if where else self.reason

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "id": self.id,
            "reason": self.reason,
            "fix": self.fix,
            "message": self.message,
        }


@dataclass(frozen=True)
class Risk:
    """Something the plan cannot fix but the reviewer should know; it does not block.

    ``path``, ``line`` and ``id`` are left out of the JSON where a kind has none.
    """

    kind: str  # external-links | url-link | manifest | outside-docs
    message: str
    id: str | None = None
    path: str | None = None
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.path is not None:
            out["path"] = self.path
        if self.line is not None:
            out["line"] = self.line
        if self.id is not None:
            out["id"] = self.id
        out["message"] = self.message
        return out
