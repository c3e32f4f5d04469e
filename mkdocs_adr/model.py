"""The ADR domain as frozen data: no I/O, no MkDocs.

Everything the engine knows about a log is expressed with these types; the
adapters (plugin, CLI) only ever read them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

#: Normalized statuses, in the order reports list them.
STATUSES: tuple[str, ...] = (
    "accepted",
    "proposed",
    "draft",
    "superseded",
    "deprecated",
    "rejected",
    "unknown",
    "missing",
)

#: How views show a status whose own word would mislead: a record without a
#: status has status ``missing`` in data, and views say it is not recorded.
STATUS_LABELS: dict[str, str] = {"missing": "not recorded"}


def status_label(status: str) -> str:
    """A status as the INDEX and record pages show it."""
    return STATUS_LABELS.get(status, status)


#: Statuses that take a decision out of effect for good. Whether a record is in
#: effect also depends on its successors: :meth:`mkdocs_adr.graph.RelationGraph.in_effect`.
OUT_OF_EFFECT = frozenset({"superseded", "deprecated", "rejected"})

#: Relation kinds and their inverses. ``mentions`` has no inverse.
INVERSE: dict[str, str] = {
    "supersedes": "superseded-by",
    "superseded-by": "supersedes",
    # a successor that replaces parts of a record: it never retires the record
    "partially-supersedes": "partially-superseded-by",
    "partially-superseded-by": "partially-supersedes",
    "amends": "amended-by",
    "amended-by": "amends",
    "extends": "extended-by",
    "extended-by": "extends",
    "depends-on": "depended-on-by",
    "depended-on-by": "depends-on",
    "relates-to": "relates-to",
}
RELATION_KINDS: tuple[str, ...] = (*INVERSE, "mentions")

#: Origins that are authoritative for succession (SPEC 3.4).
AUTHORITATIVE_ORIGINS = frozenset(
    {"frontmatter", "status-section", "links-section", "metadata-table"}
)
#: ``declaration``: a sentence such as "This ADR supersedes [..](..)". It binds only
#: when the other record agrees (:meth:`mkdocs_adr.graph.RelationGraph.add`), else it is
#: reported (ADR005) and shown as declared in prose.
ORIGINS: tuple[str, ...] = (*sorted(AUTHORITATIVE_ORIGINS), "declaration", "link", "prose")


class Severity(enum.IntEnum):
    """Problem severity; comparable, so thresholds are ``>=`` checks."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.upper()]
        except KeyError:
            known = ", ".join(s.label for s in cls)
            raise ValueError(f"unknown severity {text!r} (known: {known})") from None


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding about the log. ``path`` is project-relative with ``/``."""

    code: str
    severity: Severity
    message: str
    path: str | None = None
    line: int | None = None
    ids: tuple[str, ...] = ()
    fix: str = ""

    @property
    def where(self) -> str:
        if self.path is None:
            return ""
        return f"{self.path}:{self.line}" if self.line else self.path

    def format(self) -> str:
        """``path:line: CODE message (fix)`` as MkDocs-style log lines read."""
        head = f"{self.where}: " if self.where else ""
        tail = f" Fix: {self.fix}" if self.fix else ""
        return f"{head}{self.code} {self.message}{tail}"

    def with_ids(self, ids: tuple[str, ...]) -> Problem:
        """This problem about ``ids`` (``dataclasses.replace`` costs several times more)."""
        return Problem(self.code, self.severity, self.message, self.path, self.line, ids, self.fix)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.label,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "ids": list(self.ids),
            "fix": self.fix,
        }


@dataclass(frozen=True, slots=True)
class Relation:
    """A relation as written in a record.

    ``target`` is the reference as written (a link, ``ADR-0012``, ``ADR 12``,
    a URL, free text); ``target_id`` is filled by resolution. ``verb`` keeps the
    original wording (``Superceded by``, ``Clarifies``).
    """

    kind: str
    target: str
    origin: str
    line: int | None = None
    verb: str = ""
    label: str = ""
    target_id: str | None = None
    target_unit: str | None = None

    @property
    def authoritative(self) -> bool:
        return self.origin in AUTHORITATIVE_ORIGINS and self.kind != "mentions"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "target": self.target_id or self.target,
            "target_unit": self.target_unit,
            "raw": self.target,
            "origin": self.origin,
            "line": self.line,
            "verb": self.verb,
            "resolved": self.target_id is not None,
        }


@dataclass(frozen=True, slots=True)
class Unit:
    """A decision unit inside a container record (``## D2. Title``)."""

    key: str
    title: str
    status: str
    raw_status: str
    line: int
    text: str = ""
    relations: tuple[Relation, ...] = ()

    def with_relations(self, relations: tuple[Relation, ...]) -> Unit:
        """This unit with ``relations`` (``dataclasses.replace`` costs several times more)."""
        return Unit(
            self.key, self.title, self.status, self.raw_status, self.line, self.text, relations
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "status": self.status,
            "raw_status": self.raw_status,
            "line": self.line,
            "relations": [r.to_json() for r in self.relations],
        }


@dataclass(frozen=True)
class Parsed:
    """What a parser reads out of one file, before identity is assigned."""

    style: str
    title: str
    status: str
    raw_status: str
    status_line: int | None = None
    date: str | None = None
    raw_date: str | None = None
    number: int | None = None
    explicit_id: str | None = None
    domain: str | None = None
    deciders: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    affected_paths: tuple[str, ...] = ()
    affected_components: tuple[str, ...] = ()
    iteration: str | None = None
    review_by: str | None = None
    redirect_from: tuple[str, ...] = ()
    relations: tuple[Relation, ...] = ()
    units: tuple[Unit, ...] = ()
    body_start: int = 1
    problems: tuple[Problem, ...] = ()
    alias: str | None = None
    #: The normalized (LF) text the record was parsed from; its sections are read
    #: on demand by :func:`mkdocs_adr.parsing.sections.sections_of`.
    text: str = field(default="", repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Record:
    """One authoritative ADR file with its identity."""

    id: str
    path: str
    root: str
    domain: str | None
    archived: bool
    sha256: str
    parsed: Parsed
    number: int | None = None
    relations: tuple[Relation, ...] = ()
    units: tuple[Unit, ...] = ()
    symlink: bool = False

    def resolved(self, relations: tuple[Relation, ...], units: tuple[Unit, ...]) -> Record:
        """This record with its resolved relations and units.

        A plain constructor call: ``dataclasses.replace`` introspects the fields
        on every call, which shows on a 10,000-record log. Keep it in step with
        the fields above.
        """
        return Record(
            self.id,
            self.path,
            self.root,
            self.domain,
            self.archived,
            self.sha256,
            self.parsed,
            self.number,
            relations,
            units,
            self.symlink,
        )

    # Convenience pass-throughs keep call sites short.
    @property
    def title(self) -> str:
        return self.parsed.title

    @property
    def status(self) -> str:
        return self.parsed.status

    @property
    def raw_status(self) -> str:
        return self.parsed.raw_status

    @property
    def date(self) -> str | None:
        return self.parsed.date

    @property
    def style(self) -> str:
        return self.parsed.style

    @property
    def is_container(self) -> bool:
        return bool(self.units)


@dataclass(frozen=True)
class Excluded:
    path: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


@dataclass(frozen=True)
class RootInfo:
    path: str
    prefix: str
    title: str
    layout: str
    records: int = 0
    archived: int = 0
    units: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "prefix": self.prefix,
            "title": self.title,
            "layout": self.layout,
            "records": self.records,
            "archived": self.archived,
            "units": self.units,
        }


@dataclass(frozen=True)
class StaleReason:
    """One reason a published view is not fresh (:mod:`mkdocs_adr.freshness` decides them).

    ``kind`` is one of :data:`mkdocs_adr.freshness.REASON_KINDS` or ``manifest-<error kind>``;
    ``ids`` are the record or unit keys it names (``ADR-0004``, ``ADR-0004#2``); ``text`` is
    the sentence shown to people; ``path`` the project-relative file it points at; a change
    that is not ``semantic`` only moved paths.
    """

    kind: str
    ids: tuple[str, ...]
    text: str
    path: str | None = None
    semantic: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "ids": list(self.ids),
            "reason": self.text,
            "path": self.path,
            "semantic": self.semantic,
        }


@dataclass(frozen=True)
class ViewState:
    """State of a generated view: INDEX or CURRENT."""

    path: str
    state: str
    reasons: tuple[StaleReason, ...] = ()
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "state": self.state,
            "reasons": [r.to_json() for r in self.reasons],
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Candidate:
    """An archive candidate, or a record a user might expect to be one."""

    id: str
    path: str
    eligible: bool
    reasons: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": self.path,
            "eligible": self.eligible,
            "reasons": list(self.reasons),
        }
