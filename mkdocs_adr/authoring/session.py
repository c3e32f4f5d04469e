"""The records one command touches, edited in memory: a :class:`Work` over a log.

A command first finds every record it names (:func:`mkdocs_adr.identity.lookup`),
checks each can be written, and reads each file once into an :class:`Editable`
side; every reason to refuse is collected in :attr:`Work.reasons` before saying
no. The edits themselves are :mod:`.relate`'s and :mod:`.new`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..config import Config
from ..fsops import sha256_bytes
from ..identity import AmbiguousReference, BadReference, UnknownReference, lookup, parse_id
from ..log import Log
from ..model import Record
from ..parsing.editable import Editable, UnsafeEdit
from .outcome import Change
from .refusal import AuthoringRefused, Reason
from .writers import KEEPS_WORDING, WRITABLE, Ref


@dataclass
class Expect:
    """What a record must read back as after the change."""

    path: str
    id: str
    status: str | None
    relations: set[tuple[str, str]] = field(default_factory=set)
    title: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "id": self.id,
            "status": self.status,
            "title": self.title,
            "relations": sorted([k, t] for k, t in self.relations),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Expect:
        return cls(
            path=str(data["path"]),
            id=str(data["id"]),
            status=data.get("status"),
            title=data.get("title"),
            relations={(str(k), str(t)) for k, t in data.get("relations") or []},
        )


def wording(verb: str) -> str:
    """A verb as compared: lower case, single spaces."""
    return " ".join(verb.lower().split())


@dataclass
class Side:
    """One record taking part in a change: its text, its style and what it says."""

    ref: Ref
    style: str
    ed: Editable
    status: str
    relations: set[tuple[str, str]]
    expect: Expect
    change: Change
    #: (verb, target) as written: "Clarifies" and "Governs" both relate, but in
    #: styles that keep the wording they are different lines.
    verbs: set[tuple[str, str]] = field(default_factory=set)

    def states(self, kind: str, verb: str, target: str) -> bool:
        if kind == "relates-to" and self.style in KEEPS_WORDING:
            return (wording(verb), target) in self.verbs
        return (kind, target) in self.relations

    def record(self, kind: str, verb: str, target: str) -> None:
        self.relations.add((kind, target))
        self.verbs.add((wording(verb), target))


class Work:
    """The records one command touches, edited in memory."""

    def __init__(self, config: Config, log: Log, what: str) -> None:
        self.config = config
        self.log = log
        self.what = what
        self.reasons: list[Reason] = []
        self.notes: list[str] = []
        self.sides: dict[str, Side] = {}
        self.order: list[str] = []
        self.inputs: dict[str, str | None] = {}
        self.headings = frozenset(h.lower() for h in config.status_headings)

    def refuse_if_any(self) -> None:
        if self.reasons:
            raise AuthoringRefused(self.what, self.reasons)

    # ------------------------------------------------------------- references

    def find(self, ref: str, role: str) -> Record | None:
        """The one record ``ref`` names, or None with a reason recorded."""
        try:
            rec = lookup(self.log, ref, partial=True).record
        except UnknownReference as exc:
            if exc.excluded is not None:
                self.reasons.append(Reason(f"{role} {exc.message}", usage=True))
                return None
            near = exc.hint("nearest")
            hint = f" ({near})" if near else ""
            self.reasons.append(Reason(f"{role} {ref!r}: no such record{hint}", usage=True))
            return None
        except AmbiguousReference as exc:
            self.reasons.append(Reason(f"{role} {exc.message}; pass a file path", usage=True))
            return None
        except BadReference as exc:
            self.reasons.append(Reason(f"{role} {exc.message}", usage=True))
            return None
        claimed = self.log.by_id.get(rec.id.upper(), [])
        if len(claimed) > 1:
            listed = ", ".join(r.path for r in claimed)
            self.reasons.append(
                Reason(
                    f"{role} {rec.id} is claimed by {len(claimed)} records ({listed}); "
                    "references to it cannot resolve, so no relation is written until one of "
                    "them gets a new number (ADR002)"
                )
            )
            return None
        return rec

    def writable(self, rec: Record, role: str) -> bool:
        """Whether ``rec`` can take a new relation; records every reason it cannot."""
        found = unwritable(rec, role)
        self.reasons.extend(found)
        return not found

    # ------------------------------------------------------------- sides

    def side(self, rec: Record) -> Side | None:
        """The editable side of an existing record (read once, edited in place)."""
        if rec.path in self.sides:
            return self.sides[rec.path]
        path = self.config.project_dir / rec.path
        try:
            data = path.read_bytes()
            ed = Editable.from_bytes(rec.path, data, self.headings)
        except OSError as exc:
            self.reasons.append(Reason(f"cannot read {rec.path}: {exc.strerror}"))
            return None
        except UnsafeEdit as exc:
            self.reasons.append(Reason(str(exc)))
            return None
        self.inputs[rec.path] = sha256_bytes(data)
        side = side_of(rec, ed)
        self.sides[rec.path] = side
        self.order.append(rec.path)
        return side

    def add_new(self, side: Side) -> None:
        self.sides[side.ref.path] = side
        self.order.insert(0, side.ref.path)

    def edit(self, side: Side, action: Callable[[], None]) -> None:
        """Run one writer edit of ``side``; a refusal of the writer becomes a reason."""
        try:
            action()
        except UnsafeEdit as exc:
            self.reasons.append(Reason(f"{side.ref.id}: {exc}"))

    # ------------------------------------------------------------- result

    def contents(self) -> dict[str, bytes]:
        return {
            path: self.sides[path].ed.to_bytes()
            for path in self.order
            if self.sides[path].ed.changed
        }

    def expectations(self) -> list[Expect]:
        return [self.sides[p].expect for p in self.order]


def unwritable(rec: Record, role: str) -> list[Reason]:
    """Every reason ``rec`` cannot take a new relation (none: it can)."""
    out: list[Reason] = []
    if rec.archived:
        out.append(
            Reason(
                f"{role} {rec.id} is archived ({rec.path}); an archived record is history "
                "and takes no new relation (restore it first if it must)"
            )
        )
    if rec.units:
        out.append(
            Reason(
                f"{role} {rec.id} is a container record (units "
                f"{', '.join(u.key for u in rec.units)}); each unit has its own status, so "
                "edit it by hand"
            )
        )
    elif rec.style not in WRITABLE:
        out.append(
            Reason(
                f"{role} {rec.id} is written in style '{rec.style}' ({rec.path}), which "
                f"mkdocs-adr cannot change safely (it writes: {', '.join(WRITABLE)}); "
                "edit it by hand"
            )
        )
    if rec.symlink:
        out.append(
            Reason(
                f"{role} {rec.id} is a symlink ({rec.path}); writing would replace the link, "
                "so edit the file it points to"
            )
        )
    return out


def side_of(rec: Record, ed: Editable) -> Side:
    """The side of an existing record whose text ``ed`` holds: what it states now."""
    rels = {(r.kind, r.target_id) for r in rec.relations if r.authoritative and r.target_id}
    return Side(
        ref=ref_for(rec, ed),
        style=rec.style,
        ed=ed,
        status=rec.parsed.status,  # what the file says (a retired record's word is stale)
        relations={(k, t) for k, t in rels if t is not None},
        expect=Expect(rec.path, rec.id, rec.status),
        change=Change(rec.path, rec.id, "updated"),
        verbs={
            (wording(r.verb), r.target_id) for r in rec.relations if r.authoritative and r.target_id
        },
    )


def ref_for(rec: Record, ed: Editable) -> Ref:
    """How other records name ``rec`` in a link: id, path, title and its H1."""
    index = ed.first_h1()
    heading = ed.lines[index][2:].strip() if index is not None else ""
    if not heading:
        heading = f"{rec.number}. {rec.title}" if rec.number is not None else rec.title
    return Ref(
        id=rec.id,
        path=rec.path,
        title=rec.title,
        heading=heading,
        numbered=parse_id(rec.id) is not None,
    )
