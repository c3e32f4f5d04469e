"""The ADR domain as frozen data: no I/O, no MkDocs.

Everything the engine knows about a log is expressed with these types; the
adapters (plugin, CLI) only ever read them.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any, TypeVar

_C = TypeVar("_C", bound=type)


def slot_init(cls: _C) -> _C:
    """Give a frozen, slotted dataclass an ``__init__`` that sets each slot through its
    member descriptor: the same signature and defaults as the generated one, half its cost.

    The dataclass's own ``__init__`` sets each field with ``object.__setattr__`` (the
    class's ``__setattr__`` refuses), which parses its arguments and looks the name up
    in the type on every call; the descriptor's ``__set__`` is what that lookup finds.
    A 10,000-record cold ``plan`` makes about 100,000 objects of the classes that use
    it (docs/adr/0064). Only for fields that ``__init__`` takes positionally with a plain
    default or none (no factory, no ``InitVar``, no ``kw_only``) and no
    ``__post_init__``: any other class is refused, not half-served.
    """
    params = getattr(cls, "__dataclass_params__", None)
    fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ()
    if (
        params is None
        or not fields
        or not params.frozen
        or "__slots__" not in cls.__dict__
        or hasattr(cls, "__post_init__")
        or len(fields) != len(cls.__dataclass_fields__)  # type: ignore[attr-defined]
        or any(
            not f.init or f.kw_only is True or f.default_factory is not dataclasses.MISSING
            for f in fields
        )
        or any(f.name == "self" for f in fields)
    ):
        raise TypeError(f"slot_init: {cls.__name__} is not a plain frozen slotted dataclass")
    scope: dict[str, Any] = {}
    args, body = [], []
    for i, f in enumerate(fields):
        scope[f"_set{i}"] = cls.__dict__[f.name].__set__
        if f.default is dataclasses.MISSING:
            args.append(f.name)
        else:
            scope[f"_default{i}"] = f.default
            args.append(f"{f.name}=_default{i}")
        body.append(f"    _set{i}(self, {f.name})\n")
    source = f"def __init__(self, {', '.join(args)}):\n{''.join(body)}"
    exec(source, scope)  # our own text: the field names and their indexes
    init = scope["__init__"]
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]
    return cls


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
#: The ``verb`` of a ``mentions`` of a bare id that a ``Related ADRs`` label or list names
#: (``- Related: ADR-0070 (...)``): resolved to a record, it relates to it as a links list
#: does; naming none, it is dropped as any mention is. (A log whose ids are file stems
#: writes "ADR 0006" there too, which no id names: no false ADR003.)
RELATED_MENTION = "related"
#: How the reader's refusal of frontmatter nested past its bound begins (an ADR014
#: message): the site leaves such a page out, as the host's own YAML reader would crash
#: on it (:func:`mkdocs_adr.site.refused_files`).
TOO_DEEP = "collections nested deeper than"


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


@slot_init
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


@slot_init
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


@slot_init
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


@slot_init
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
    #: Read as superseded though its status word is not: a ``Superseded by`` line later
    #: in its adr-tools status section names a successor that took effect (the analysis'
    #: rule, ``mkdocs_adr.log``); :attr:`parsed` keeps what the file says.
    retired: bool = False

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
            self.retired,
        )

    # Convenience pass-throughs keep call sites short.
    @property
    def title(self) -> str:
        return self.parsed.title

    @property
    def status(self) -> str:
        return "superseded" if self.retired else self.parsed.status

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
