"""Where each source ends in a CURRENT view: its disposition and the part of the page.

A disposition says what the view did with a source (``summarized``, ``open``,
``retained``, ``archive-candidate``); the part names where it shows, as the
manifest and the page's Coverage table name it. Whether a record is in effect
is :meth:`mkdocs_adr.log.Log.in_effect`'s answer, never worked out here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..freshness import Entry
from ..identity import parse_id
from ..log import Log
from ..model import OUT_OF_EFFECT, Record
from .page import (
    PART_HISTORY,
    PART_PROBLEMS,
    PART_RELATED,
    SECTION_DECISIONS,
    SECTION_PROPOSALS,
)
from .text import domain_title


@dataclass(frozen=True)
class CoverageRow:
    """Where one source ended in the view (the page's Coverage table, the review card)."""

    source: str  # the source key, ``ADR-0004`` or ``ADR-0004#D2``
    status: str
    disposition: str
    part: str
    role: str
    kept: bool  # kept from the published view, not re-checked
    path: str  # project-relative

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "status": self.status,
            "disposition": self.disposition,
            "part": self.part,
            "role": self.role,
            "kept": self.kept,
            "path": self.path,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CoverageRow:
        return cls(
            source=str(data["source"]),
            status=str(data["status"]),
            disposition=str(data["disposition"]),
            part=str(data["part"]),
            role=str(data["role"]),
            kept=bool(data["kept"]),
            path=str(data["path"]),
        )


def disposition(log: Log, entry: Entry, candidates: set[str]) -> tuple[str, str]:
    """(disposition, section) of a freshly checked entry; section "" is not shown."""
    rec = entry.record
    if entry.role == "related":
        return "retained", ""
    if entry.unit is not None:
        status = entry.status
        unit = next(u for u in rec.units if u.key == entry.unit)  # entries come from rec.units
        if log.in_effect(rec, unit):
            return "summarized", SECTION_DECISIONS
        if log.graph.counted_status(status) in ("proposed", "draft"):
            return "open", SECTION_PROPOSALS
        if status in OUT_OF_EFFECT:
            return "retained", ""
        return "open", ""
    if rec.units:
        if log.in_effect(rec):
            return "summarized", ""  # its units carry the text
        if rec.path in candidates:
            return "archive-candidate", ""
        if all(u.status in OUT_OF_EFFECT for u in rec.units):
            return "retained", ""
        return "open", ""
    if log.in_effect(rec):
        return "summarized", SECTION_DECISIONS
    if log.status_of(rec) in ("proposed", "draft"):
        return "open", SECTION_PROPOSALS
    if rec.status in OUT_OF_EFFECT:
        return ("archive-candidate" if rec.path in candidates else "retained"), ""
    return "open", ""


def part_of(entry: Entry, disposition: str, section: str, layered: bool) -> str:
    """The part of the view an entry ends in, as the manifest and Coverage name it."""
    if entry.role == "related":
        return PART_RELATED
    if section == SECTION_DECISIONS:
        return (
            f"{SECTION_DECISIONS} / {domain_title(entry.record.domain)}"
            if layered
            else (SECTION_DECISIONS)
        )
    if section == SECTION_PROPOSALS:
        return SECTION_PROPOSALS
    if disposition == "summarized":
        return f"{SECTION_DECISIONS} (by decision unit)"
    if disposition == "open":
        return PART_PROBLEMS
    return PART_HISTORY


def order(rec: Record | None, key: str) -> tuple[Any, ...]:
    """Sort key of a source: by number, then id, then unit (the container first)."""
    number = rec.number if rec is not None else None
    if number is None:
        parsed = parse_id(key.split("#")[0])
        number = parsed[1] if parsed else None
    unit = key.split("#")[1] if "#" in key else ""
    return (number is None, number or 0, key.split("#")[0], int(unit[1:] or 0) if unit else -1)
