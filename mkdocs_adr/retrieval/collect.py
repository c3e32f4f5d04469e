"""The shared collector of ``context`` and ``find``: one item per record or unit, best wins.

Both commands gather evidence from several places (the asked record, its
relations, path patterns, the project graph) and the same record or unit can
be reached more than once. A :class:`Collector` keeps, for each ``(id, unit)``,
the item with the smallest sort key, and hands them back in that order; each
command decides what its sort key is (answer class for ``context``, layer for
``find``). It also carries the warnings and hints gathered on the way.
"""

from __future__ import annotations

from typing import Any

from ..log import Log
from .evidence import EvidenceItem

#: What decides an item's place: compared as a tuple, smallest first.
SortKey = tuple[Any, ...]
#: An item's identity in an answer: record id and unit key (``None`` for a whole record).
ItemKey = tuple[str, str | None]


def item_key(item: EvidenceItem) -> ItemKey:
    return (item.rec.id, item.unit.key if item.unit else None)


class Collector:
    """Items by record and unit; the one with the smallest sort key wins."""

    def __init__(self) -> None:
        self.items: dict[ItemKey, tuple[SortKey, EvidenceItem]] = {}
        self.warnings: list[str] = []
        self.hints: list[str] = []

    def offer(self, sort: SortKey, item: EvidenceItem) -> bool:
        """Keep ``item`` if nothing better is held for its key; ``True`` if the key is new."""
        key = item_key(item)
        held = self.items.get(key)
        if held is None or sort < held[0]:
            self.items[key] = (sort, item)
        return held is None

    def ids(self) -> list[str]:
        """The record ids held, sorted, each once."""
        return sorted({key[0] for key in self.items})

    def ordered(self) -> list[EvidenceItem]:
        return [item for _, item in sorted(self.items.values(), key=lambda p: p[0])]


def system_roots(log: Log) -> set[str]:
    """Roots at the shallowest depth: the project's system-level log."""
    if not log.config.roots:
        return set()
    depth = min(r.path.count("/") for r in log.config.roots)
    return {r.path for r in log.config.roots if r.path.count("/") == depth}
