"""Domain errors. Each carries where it happened and what to do about it.

The engine raises these; the plugin turns them into ``PluginError`` and the
CLI into exit codes (2 usage, 3 refused), so users never see a traceback for
their own mistakes.
"""

from __future__ import annotations


class AdrError(Exception):
    """Base class: ``path:line: message (fix)``."""

    exit_code = 1

    def __init__(
        self, message: str, *, path: str | None = None, line: int | None = None, fix: str = ""
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.fix = fix
        super().__init__(self.format())

    def format(self) -> str:
        where = ""
        if self.path:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        tail = f" Fix: {self.fix}" if self.fix else ""
        return f"{where}{self.message}{tail}"


class ConfigError(AdrError):
    """The configuration (mkdocs.yml or options) is not usable."""

    exit_code = 2


class UsageError(AdrError):
    """The command line asks for something contradictory or unknown."""

    exit_code = 2


class RefusedError(AdrError):
    """A precondition failed: stale plan, lock held, user-owned file."""

    exit_code = 3


class NotBuiltError(AdrError):
    """A documented option whose feature does not exist yet: fail loudly."""

    exit_code = 2


# The three kinds of refusal, matched by type. Each is a ``RefusedError``, so exit
# code 3 and every ``except RefusedError`` keep working.


class LockHeld(RefusedError):
    """Another process holds the project lock (and did not let go in time)."""


class StalePlan(RefusedError):
    """The tree, or the plan itself, changed since the plan was made: plan again."""


class Refused(RefusedError):
    """Any other failed precondition: an applied plan, a user-owned file, a bad path."""
