"""What parsing needs from the configuration, and its per-run memo of status readings."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import lazy

if TYPE_CHECKING:
    from . import status
    from .status import StatusReading
else:  # a replayed build or a warm load reads no status (docs/adr/0060)
    status = lazy.module("mkdocs_adr.parsing.status")


@dataclass(frozen=True)
class ParseOptions:
    """What parsing needs from the configuration."""

    aliases: tuple[tuple[str, str], ...]
    status_headings: frozenset[str]
    prefixes: tuple[str, ...] = ("ADR",)
    style: str = "auto"
    max_bytes: int = 1024 * 1024

    @functools.cached_property
    def alias_map(self) -> dict[str, str]:
        return dict(self.aliases)

    @functools.cached_property
    def _readings(self) -> dict[str, StatusReading]:
        return {}

    def read_status(self, raw: str) -> StatusReading:
        """``normalize_status(raw, self.alias_map)``, remembered per distinct text.

        Logs repeat a few status texts thousands of times.
        """
        readings = self._readings
        found = readings.get(raw)
        if found is None:
            if len(readings) >= 4096:
                readings.clear()
            found = status.normalize_status(raw, self.alias_map, alias_lengths=self._alias_lengths)
            readings[raw] = found
        return found

    @functools.cached_property
    def _alias_lengths(self) -> list[int]:
        return status.word_lengths(self.alias_map)

    @classmethod
    def from_config(cls, config: Any) -> ParseOptions:
        return cls(
            aliases=tuple(sorted(config.aliases.items())),
            status_headings=frozenset(h.lower() for h in config.status_headings),
            prefixes=tuple(sorted({r.prefix for r in config.roots})),
            style=config.style,
            max_bytes=config.max_file_bytes,
        )
