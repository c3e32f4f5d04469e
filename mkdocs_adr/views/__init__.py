"""Derived views of a log: INDEX, CURRENT state, graphs. Pure renderers."""

from __future__ import annotations

from ..model import Record


def piece_key(rec: Record, url: str | None) -> tuple[object, ...]:
    """What every per-record piece of a view (ADR-0050) reads of the record itself: its
    content hash (everything parsed from the file comes from it), its identity and
    place, and its page URL. Each view adds what else its piece shows."""
    return (rec.sha256, rec.id, rec.path, rec.domain, rec.archived, url)
