"""The coverage map: where every constraint of every source ends, and what that retires.

Every constraint of a source (:mod:`.units`) has one row: ``retained`` (carried
into the replacement as its source said it), ``changed`` (carried, in the
reviewer's new wording), ``retired`` (dropped, with the reviewer's reason) or
``unresolved`` (not settled: the replacement does not carry it). A source is
superseded as a whole only when none of its rows is unresolved; with some
unresolved rows it is partially superseded and stays in effect; with nothing
covered it keeps no relation at all. Changed and retired rows are substantive
changes: the card lists them apart, and they need explicit acceptance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .units import Constraint

STATES = ("retained", "changed", "retired", "unresolved")
NO_REASON = "(no reason given)"


@dataclass(frozen=True)
class Override:
    """What the reviewer said about one constraint."""

    state: str  # changed | retired | unresolved
    text: str = ""  # changed: the new wording; retired: the reason

    def to_json(self) -> dict[str, str]:
        return {"state": self.state, "text": self.text}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Override:
        state = str(data.get("state") or "")
        if state not in STATES[1:]:
            raise ValueError(f"bad coverage override {data!r}")
        return cls(state, str(data.get("text") or ""))


@dataclass(frozen=True)
class Row:
    key: str
    record: str
    item: int
    path: str
    text: str
    state: str
    where: str | None  # the replacement that carries it (retained, changed)
    new_text: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "record": self.record,
            "item": self.item,
            "path": self.path,
            "text": self.text,
            "state": self.state,
            "where": self.where,
            "new_text": self.new_text,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Row:
        return cls(
            key=str(data["key"]),
            record=str(data["record"]),
            item=int(data["item"]),
            path=str(data.get("path") or ""),
            text=str(data.get("text") or ""),
            state=str(data["state"]),
            where=data.get("where"),
            new_text=data.get("new_text"),
            reason=data.get("reason"),
        )

    @property
    def carried(self) -> bool:
        return self.state in ("retained", "changed")


def row(c: Constraint, where: str, override: Override | None) -> Row:
    if override is None:
        return Row(c.key, c.record, c.item, c.path, c.text, "retained", where)
    if override.state == "changed":
        return Row(
            c.key, c.record, c.item, c.path, c.text, "changed", where, new_text=override.text
        )
    if override.state == "retired":
        return Row(
            c.key,
            c.record,
            c.item,
            c.path,
            c.text,
            "retired",
            None,
            reason=override.text or NO_REASON,
        )
    return Row(c.key, c.record, c.item, c.path, c.text, "unresolved", None)


def unresolved_body(rec_id: str, path: str, override: Override | None = None) -> Row:
    """The one row of a source whose decision states no item: nothing can carry it, so it
    is unresolved unless the reviewer retires it (``KEY#0: retired: REASON``)."""
    text = "(the record has no decision section)"
    if override is not None and override.state == "retired":
        reason = override.text or NO_REASON
        return Row(f"{rec_id}#0", rec_id, 0, path, text, "retired", None, reason=reason)
    return Row(f"{rec_id}#0", rec_id, 0, path, text, "unresolved", None)


def disposition(rows: list[Row]) -> str:
    """superseded | partially-superseded | left-in-effect, from one source's rows."""
    if not rows or all(r.state == "unresolved" for r in rows):
        return "left-in-effect"
    if any(r.state == "unresolved" for r in rows):
        return "partially-superseded"
    return "superseded"
