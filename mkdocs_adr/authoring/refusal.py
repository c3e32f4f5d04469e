"""Refusing to write: every reason, never just the first, each a usage error or a refusal."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import AdrError


@dataclass(frozen=True)
class Reason:
    text: str
    usage: bool = False  # a mistake on the command line (exit 2), else a refusal (exit 3)


class AuthoringRefused(AdrError):
    """One or more reasons not to write; all of them, never just the first."""

    def __init__(self, what: str, reasons: list[Reason]) -> None:
        self.reasons = reasons
        self.exit_code = 2 if any(r.usage for r in reasons) else 3
        lines = "\n".join(f"  - {r.text}" for r in reasons)
        super().__init__(f"{what}: nothing was written, because:\n{lines}")
