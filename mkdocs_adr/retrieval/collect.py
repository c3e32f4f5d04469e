"""The shared collector of ``context`` and ``find``: one item per record or unit, best wins.

Both commands gather evidence from several places (the asked record, its
relations, path patterns, the project graph) and the same record or unit can
be reached more than once. A :class:`Collector` keeps, for each ``(id, unit)``,
the item with the smallest sort key, and hands them back in that order; each
command decides what its sort key is (answer class for ``context``, layer for
``find``). It also carries the warnings and hints gathered on the way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..graph import Succession
from ..log import Log
from ..model import Record, Unit
from .evidence import EvidenceItem, chain_text, unit_id

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


@dataclass(frozen=True)
class Replacement:
    """Who answers for a record or unit: its successor as the log decides it, as records.

    The decision is :meth:`mkdocs_adr.log.Log.successor` (graph.py); this only
    resolves the ids, so ``context`` and ``find`` answer a superseded match alike.
    """

    #: The record or unit asked about (``ADR-0005#D2``).
    name: str
    succession: Succession
    #: The one current successor, when there is one.
    current: Record | None
    #: The successors named but not chosen (contested, or not accepted), that exist.
    candidates: tuple[Record, ...]

    @property
    def ambiguous(self) -> bool:
        return self.succession.state == "ambiguous"

    @property
    def chain(self) -> str:
        """``ADR-0002 → ADR-0003 → ADR-0004``: from the asked record to its current successor."""
        return chain_text([self.name, *self.succession.chain])

    @property
    def contested(self) -> str:
        """The candidate ids as the answer lists them."""
        return ", ".join(self.succession.candidates)


def replacement(log: Log, rec: Record, unit: Unit | None) -> Replacement:
    succ = log.successor(rec.id, unit.key if unit else None)
    current = log.get(succ.current) if succ.state == "current" and succ.current else None
    candidates = tuple(r for r in map(log.get, succ.candidates) if r is not None)
    return Replacement(unit_id(rec, unit), succ, current, candidates)


def system_roots(log: Log) -> set[str]:
    """Roots at the shallowest depth: the project's system-level log."""
    if not log.config.roots:
        return set()
    depth = min(r.path.count("/") for r in log.config.roots)
    return {r.path for r in log.config.roots if r.path.count("/") == depth}
