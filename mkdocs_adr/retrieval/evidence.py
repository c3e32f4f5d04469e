"""Evidence items: which text of a record or unit is shown, relations, successors."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..graph import FORWARD
from ..log import Log
from ..model import Parsed, Record, Relation, Unit
from ..parsing.markdown import scan
from ..parsing.sections import is_decision_heading
from .budget import SEGMENT_CODEPOINTS, segment_text, shorten_title

#: Kinds that make the target a constraint on the source: it builds on them.
CONSTRAINT_KINDS = ("depends-on", "extends", "amends")


@dataclass(frozen=True)
class RelationLink:
    """One authoritative relation in its forward direction (``source kind target``)."""

    source: str
    source_unit: str | None
    kind: str
    target: str
    target_unit: str | None


@dataclass
class Relations:
    """Every authoritative relation of the log, by source and by target."""

    out: dict[str, list[RelationLink]] = field(default_factory=dict)
    into: dict[str, list[RelationLink]] = field(default_factory=dict)

    @classmethod
    def of(cls, log: Log) -> Relations:
        seen: set[RelationLink] = set()
        rels = cls()
        out, into = rels.out, rels.into
        forward = FORWARD
        for rec in log.records:
            # the relations that make links: resolved, of a kind with a direction
            declared: list[tuple[str | None, Relation]] = [
                (None, r)
                for r in rec.relations
                if r.target_id is not None and r.kind != "mentions" and r.kind in forward
            ]
            for u in rec.units:
                declared += [
                    (u.key, r)
                    for r in u.relations
                    if r.target_id is not None and r.kind != "mentions" and r.kind in forward
                ]
            if not declared or log.get(rec.id) is None:
                continue  # an ambiguous id: its relations resolve to nothing
            for unit, rel in declared:
                target_id = rel.target_id or ""  # never None: filtered above
                kind, backwards = forward[rel.kind]
                link = (
                    RelationLink(target_id, rel.target_unit, kind, rec.id, unit)
                    if backwards
                    else RelationLink(rec.id, unit, kind, target_id, rel.target_unit)
                )
                if link.source == link.target and link.source_unit == link.target_unit:
                    continue
                if link not in seen:
                    seen.add(link)
                    out.setdefault(link.source, []).append(link)
                    into.setdefault(link.target, []).append(link)
        for table in (out, into):
            for links in table.values():
                if len(links) > 1:
                    links.sort(key=_link_order)
        return rels


def _link_order(k: RelationLink) -> tuple[str, str, str, str, str]:
    return (k.source, k.target, k.kind, k.source_unit or "", k.target_unit or "")


def status_of(rec: Record, unit: Unit | None) -> str:
    return unit.status if unit is not None else rec.status


def unit_id(rec: Record, unit: Unit | None) -> str:
    return f"{rec.id}#{unit.key}" if unit is not None else rec.id


#: Where the whole sections are kept in a ``Parsed`` value's instance dict.
_WHOLE_MEMO = "_h2_whole_sections"


def whole_sections(parsed: Parsed) -> tuple[tuple[str, str], ...]:
    """(name, text) of each second-level section, ``###`` and deeper subsections included.

    A section runs to the next heading of level 2 or above, so nothing under a
    subheading is lost (issue 12: 30% of real records lost half their text when a
    section stopped at its first ``###``). Kept with the ``Parsed`` value, as
    :func:`mkdocs_adr.parsing.sections.sections_of` keeps its split.
    """
    memo = vars(parsed)
    found: tuple[tuple[str, str], ...] | None = memo.get(_WHOLE_MEMO)
    if found is None:
        doc = scan(parsed.text)
        found = memo[_WHOLE_MEMO] = tuple(
            (sec.name, doc.section_text(sec, stop_at_subheading=False))
            for sec in doc.sections(level=2)
        )
    return found


def record_text(log: Log, rec: Record, scope: str) -> tuple[str, str]:
    """The text shown for a whole record: ``(text, scope)``.

    ``scope`` ``decision`` keeps the decision section(s) and falls back to
    ``full`` when a record has none; status sections are left out (the status
    is reported on its own). Each section is whole, its subsections included;
    a long text is split into segments later, never cut.
    """
    headings = {h.casefold() for h in log.config.status_headings}
    sections = [
        (h, t) for h, t in whole_sections(rec.parsed) if h.strip().casefold() not in headings
    ]
    used = "full"
    if scope == "decision":
        chosen = [(h, t) for h, t in sections if is_decision_heading(h)]
        if chosen:
            sections, used = chosen, "decision"
    if not sections:
        return _file_body(log, rec), "full"
    return "\n\n".join(f"## {h}\n\n{t.strip()}".rstrip() for h, t in sections), used


def search_text(log: Log, rec: Record) -> str:
    """The record's body as written (after frontmatter), for topic ranking.

    Cheaper than :func:`record_text`: no section split, which a topic query
    over a whole log would otherwise pay for every record.
    """
    text = getattr(rec.parsed, "text", "")
    if not text:
        return record_text(log, rec, "full")[0]
    if rec.parsed.body_start > 1:
        return "\n".join(text.split("\n")[rec.parsed.body_start - 1 :])
    return text


def _file_body(log: Log, rec: Record) -> str:
    """A record without ``##`` sections: its body as written, after any frontmatter."""
    text = getattr(rec.parsed, "text", "")
    if not text:
        text = _read_unchanged(log, rec)
    elif rec.parsed.body_start > 1:
        text = "\n".join(text.split("\n")[rec.parsed.body_start - 1 :])
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            text = text[end + 4 :].partition("\n")[2]
    lines = text.strip().split("\n")
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join(lines).strip()


def _read_unchanged(log: Log, rec: Record) -> str:
    """The file's text if it still has the hash it was loaded with, else nothing."""
    try:
        data = (log.config.project_dir / rec.path).read_bytes()
    except OSError:
        return ""
    norm = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in data else data
    if hashlib.sha256(norm).hexdigest() != rec.sha256:
        return ""
    return norm.decode("utf-8", "replace")


@dataclass
class EvidenceItem:
    """One unit of evidence in answer order, before paging."""

    rec: Record
    unit: Unit | None
    why: str
    scope: str  # decision | full | unit | none (metadata only)
    hops: int = 0
    required: bool = False
    layer: str | None = None
    score: float | None = None
    successor: str | None = None
    #: ``status-unverified`` (status not recorded or not understood), or ``None``.
    label: str | None = None
    #: ``against`` for a decision against the topic (rejected, deprecated, a proposal
    #: replacing an accepted record), with ``verdict`` its kind; ``None`` otherwise.
    group: str | None = None
    verdict: str | None = None
    _segments: list[str] | None = None
    _text: str | None = None

    @property
    def id(self) -> str:
        return unit_id(self.rec, self.unit)

    def text(self, log: Log) -> tuple[str | None, str]:
        if self.scope == "none":
            return None, "none"
        if self._text is None:
            if self.unit is not None:
                self._text, self.scope = self.unit.text.strip(), "unit"
            else:
                self._text, self.scope = record_text(log, self.rec, self.scope)
        return self._text, self.scope

    def segments(self, log: Log) -> list[str | None]:
        text, _ = self.text(log)
        if text is None:
            return [None]
        if self._segments is None:
            self._segments = segment_text(text, SEGMENT_CODEPOINTS)
        return list(self._segments)

    def to_json(self, log: Log, segment: int) -> dict[str, Any]:
        pieces = self.segments(log)
        _, scope = self.text(log)
        title, cut = shorten_title(self.unit.title if self.unit else self.rec.title)
        out: dict[str, Any] = {
            "id": self.id,
            "title": title,
            "status": status_of(self.rec, self.unit),
            "path": self.rec.path,
            "sha256": self.rec.sha256,
            "date": self.rec.date,
            "domain": self.rec.domain,
            "archived": self.rec.archived,
            "why": self.why,
            "hops": self.hops,
            "scope": scope,
            "text": pieces[segment],
        }
        if cut:
            out["title_shortened"] = True
        if len(pieces) > 1:
            out["segment"] = f"{self.id}@{segment + 1}"
            out["segments"] = len(pieces)
        if self.layer is not None:
            out["layer"] = self.layer
        if self.score is not None:
            out["score"] = round(self.score, 4)
        if self.successor is not None:
            out["successor"] = self.successor
        if self.label is not None:
            out["label"] = self.label
        if self.group is not None:
            out["group"] = self.group
            out["verdict"] = self.verdict
        return out


def expand_units(log: Log, rec: Record, which: str) -> list[Unit | None]:
    """The units of a record to show: ``[None]`` for a plain record."""
    if not rec.units:
        return [None]
    if which == "all":
        return list(rec.units)
    return [u for u in rec.units if log.in_effect(rec, u)]


def chain_text(ids: Iterable[str], limit: int = 6) -> str:
    """``A → B → C``, eliding the middle of long chains (ids themselves stay whole)."""
    seq = list(ids)
    if len(seq) > limit:
        seq = [*seq[: limit // 2], f"… {len(seq) - limit + 1} more …", *seq[-(limit // 2 - 1) :]]
    return " → ".join(seq)
