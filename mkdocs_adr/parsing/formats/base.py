"""What a format module provides: a :class:`Format`, its detector's :class:`Hit`, its writer.

A format is read in two steps. Its *detector* looks for the format's status
signal in a scanned record and returns a :class:`Hit` (the status as written,
its line, the relations and fields it found next to it) or None. A format
that is a variant of another (log4brains of MADR 2, MADR 3/4 of frontmatter)
has no detector of its own: it *claims* the hits of its parent's detector
that look like it. Everything the reader takes from every record, whatever
its format, is in :mod:`mkdocs_adr.parsing.common`.

A format is written by its :class:`Writer`, which edits the lines of an
:class:`~mkdocs_adr.parsing.editable.Editable` the way the format's own tools
would. Which edits to make, and whether the result reads back as intended, is
decided by :mod:`mkdocs_adr.authoring`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass

from ...model import Relation, slot_init
from ..editable import Editable
from ..markdown import Document


class Hit:
    """What a detector found. ``raw`` is the status text as written.

    A plain class with slots: every record read makes one, and a dataclass's
    ``__init__`` with its three default factories cost several times as much."""

    __slots__ = ("fields", "halves", "line", "links_only", "marker", "raw", "relations", "style")

    def __init__(
        self,
        style: str,
        raw: str,
        line: int | None,
        relations: list[Relation] | None = None,
        fields: dict[str, tuple[str, int]] | None = None,
        links_only: bool = False,
        marker: str = "",
        halves: list[Hit] | None = None,
    ) -> None:
        self.style = style
        self.raw = raw
        self.line = line
        self.relations: list[Relation] = [] if relations is None else relations
        self.fields: dict[str, tuple[str, int]] = {} if fields is None else fields
        #: A status section that holds only link lines (adr-tools after ``new -s``).
        self.links_only = links_only
        #: The list marker of a status bullet (``*`` or ``-``), for the variants that
        #: tell by it.
        self.marker = marker
        #: The status sections of a bilingual record's further halves, each read on its
        #: own (their relations are in ``relations`` too); the reader compares statuses.
        self.halves: list[Hit] = [] if halves is None else halves

    def __repr__(self) -> str:
        return f"Hit({self.style!r}, {self.raw!r}, {self.line!r}, relations={self.relations!r})"


@slot_init
@dataclass(frozen=True, slots=True)
class Context:
    """What a detector reads: the scanned record, its file name, the status headings."""

    doc: Document
    name: str
    status_headings: frozenset[str]


Detector = Callable[[Context], "Hit | None"]
#: Whether a variant takes a hit of its parent's detector as its own.
Claim = Callable[[Context, Hit], bool]


@dataclass(frozen=True)
class Ref:
    """A record as other records point at it."""

    id: str
    path: str  # project-relative, POSIX
    title: str
    heading: str  # adr-tools' label: the record's first heading, e.g. "8. Use X"
    numbered: bool  # False for log4brains-style records, whose id is the file stem

    def href(self, source: str) -> str:
        return posixpath.relpath(self.path, posixpath.dirname(source) or ".")

    def key(self, source: str) -> str:
        """What a frontmatter list holds: the id, or a relative link when unnumbered."""
        return self.id if self.numbered else self.href(source)

    def link(self, source: str, label: str) -> str:
        label = label.replace("[", "(").replace("]", ")")
        return f"[{label}]({self.href(source)})"


def capitalized(verb: str) -> str:
    verb = verb.strip()
    return verb[:1].upper() + verb[1:]


class Writer:
    """Edits one format's records; each method changes lines of ``ed`` in place.

    A method that cannot make its edit without guessing raises
    :class:`~mkdocs_adr.parsing.editable.UnsafeEdit`.
    """

    style = ""

    def status_word(self, status: str) -> str:
        """A status as this format writes it (adr-tools capitalizes it)."""
        return status

    def states_kind(self, kind: str) -> bool:
        """Whether this format has a place for a relation of ``kind``."""
        return True

    def set_title(self, ed: Editable, title: str, number: int | None, rid: str) -> None:
        line = f"# {title}"
        index = ed.first_h1()
        if index is None:
            start = ed.frontmatter_bounds()
            at = start[1] + 1 if start else 0
            ed.lines[at:at] = [line, ""]
        else:
            ed.lines[index] = line

    def set_status(self, ed: Editable, status: str) -> None:
        raise NotImplementedError

    def set_date(self, ed: Editable, date: str) -> None:
        raise NotImplementedError

    def set_review_by(self, ed: Editable, date: str) -> None:
        raise NotImplementedError

    def set_id(self, ed: Editable, rid: str) -> None:
        """Only frontmatter styles keep an id inside the file."""

    def add_relation(self, ed: Editable, kind: str, verb: str, ref: Ref) -> None:
        raise NotImplementedError

    def change_status(self, ed: Editable, word: str) -> None:
        """Replace an existing record's status with ``word`` (spelled as the log spells
        it), leaving every other line as it is (``accept``, ``reject``, ``deprecate``)."""
        self.set_status(ed, word)

    def mark_deprecated(self, ed: Editable, ref: Ref, word: str) -> None:
        """Make the status say "deprecated by ``ref``" (``word`` is "deprecated" as the
        log spells it); the successor link is read as a succession (ADR-0037)."""
        raise NotImplementedError

    def mark_superseded(self, ed: Editable, ref: Ref, *, linked: bool) -> None:
        """Make the status say "superseded by ``ref``".

        ``linked`` says the record already states the relation (from an earlier
        supersession by a then-proposed record), so only the status changes.
        """
        raise NotImplementedError


@dataclass(frozen=True)
class Format:
    """One ADR format: how it is found, read, written and started.

    ``name`` is the style a record of this format carries (``Parsed.style``).
    """

    name: str
    #: One line for contributors: what records of this format look like.
    summary: str
    #: This format's own detector, tried in registry order; None for a variant, and
    #: for ``container``, which the reader decides from a record's units afterwards.
    detect: Detector | None = None
    #: A variant: the format whose detector finds it, and the test that tells it apart.
    variant_of: str | None = None
    claims: Claim | None = None
    #: The detectors tried when the ``style`` option forces this format; ``()``
    #: when the option does not offer it.
    forced: tuple[str, ...] = ()
    #: How mkdocs-adr changes such a record; None: it refuses to.
    writer: Writer | None = None
    #: The built-in skeleton ``mkdocs-adr new`` fills in (see authoring.templates).
    template: str | None = None
    #: Whether a relation keeps its wording ("Clarifies", "Governs"), not only its kind.
    keeps_wording: bool = False
    #: Whether new records get a number (log4brains names them by date and slug).
    numbered: bool = True
    #: Whether a status that is a date ("2024-01-01") is also the record's date.
    date_from_status: bool = False

    def __post_init__(self) -> None:
        if self.variant_of is not None and (self.detect is not None or self.claims is None):
            raise ValueError(f"format {self.name}: a variant claims hits and has no detector")
        if (self.writer is None) != (self.template is None):
            raise ValueError(f"format {self.name}: a writable format needs a template and back")
        if self.writer is not None and self.writer.style != self.name:
            raise ValueError(f"format {self.name}: its writer is for {self.writer.style!r}")
