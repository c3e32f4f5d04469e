"""The review of a relocation draft: what the plan file records and the preview shows.

The review is made from the draft's dataclasses here and becomes JSON once,
as the plan's ``review`` (the plan file is the edge); :mod:`.verify` and
:mod:`.restore` read it back from there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..log import Log
from ..model import Candidate, Record
from ..plans import Plan
from .findings import Risk
from .moves import FileMove
from .planner import Draft
from .rewrite import LinkEdit


@dataclass(frozen=True)
class ReviewRecord:
    """One record the plan moves, as the reviewer sees it."""

    id: str
    title: str
    status: str
    number: int | None
    successor: str | None
    source: str
    target: str
    mirrors: tuple[tuple[str, str], ...]  # (from, to)
    url: tuple[str, str] | None  # (old URL, new URL)
    links: int  # link rewrites that concern it

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "status": self.status,
            "number": self.number,
            "successor": self.successor,
            "from": self.source,
            "to": self.target,
            "mirrors": [{"from": a, "to": b} for a, b in self.mirrors],
            "url": {"from": self.url[0], "to": self.url[1]} if self.url else None,
            "links": self.links,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReviewRecord:
        url = data["url"]
        return cls(
            id=data["id"],
            title=data["title"],
            status=data["status"],
            number=data["number"],
            successor=data["successor"],
            source=data["from"],
            target=data["to"],
            mirrors=tuple((m["from"], m["to"]) for m in data["mirrors"]),
            url=(url["from"], url["to"]) if url else None,
            links=data["links"],
        )


@dataclass(frozen=True)
class SavedReview:
    """The parts of a saved plan's review that verifying and restoring read back."""

    records: tuple[ReviewRecord, ...]
    moves: tuple[FileMove, ...]  # entries that are not a move are left out
    links: tuple[LinkEdit, ...]
    relations: tuple[str, ...]

    @classmethod
    def of(cls, plan: Plan) -> SavedReview:
        review = plan.review
        moves = (FileMove.from_json(m) for m in review.get("moves", []))
        return cls(
            records=tuple(ReviewRecord.from_json(r) for r in review.get("records", [])),
            moves=tuple(m for m in moves if m is not None),
            links=tuple(
                LinkEdit.from_json(e) for e in review.get("links", []) if isinstance(e, dict)
            ),
            relations=tuple(review.get("relations", [])),
        )


def relations_snapshot(log: Log) -> list[str]:
    """Every resolved relation of the log, for checking that a move kept them all.

    Plain-link ``mentions`` are left out: whether one resolves depends on the
    parser's reading of link text, not on the files; rewritten links are checked
    one by one instead (:func:`~mkdocs_adr.archive.verify.verify_applied`).
    """
    out = set()
    for rec in log.records:
        rels = [*rec.relations, *(r for u in rec.units for r in u.relations)]
        for rel in rels:
            if rel.target_id is None or rel.kind == "mentions":
                continue
            unit = f"#{rel.target_unit}" if rel.target_unit else ""
            out.add(f"{rec.id} {rel.kind} {rel.target_id}{unit}")
    return sorted(out)


def review_records(log: Log, chosen: Sequence[Record], draft: Draft) -> list[ReviewRecord]:
    out: list[ReviewRecord] = []
    for rec in chosen:
        move = next(m for m in draft.moves if m.kind == "record" and m.source == rec.path)
        redirect = next((r for r in draft.redirects if r.source == rec.path), None)
        out.append(
            ReviewRecord(
                id=rec.id,
                title=rec.title,
                status=rec.status,
                number=rec.number,
                successor=log.successor(rec.id).current,
                source=move.source,
                target=move.target,
                mirrors=tuple(
                    (m.source, m.target)
                    for m in draft.moves
                    if m.kind == "mirror" and m.id == rec.id
                ),
                url=(redirect.from_url, redirect.to_url) if redirect else None,
                links=sum(1 for e in draft.edits if e.id == rec.id),
            )
        )
    return out


def review_risks(log: Log, records: Sequence[ReviewRecord], draft: Draft) -> list[Risk]:
    """The draft's risks, then each moved record's changed URL, then the unscanned rest."""
    risks = list(draft.risks)
    for item in records:
        if not item.url:
            continue
        old, new = item.url
        tail = (
            f"a redirect page at {old} sends readers on"
            if log.config.redirects
            else "redirects are off, so those links break"
        )
        risks.append(
            Risk(
                "external-links",
                f"{item.id}: its published URL changes from {old} to "
                f"{new}; links from outside this site (other sites, bookmarks, search "
                f"engines, issue trackers) cannot be rewritten: {tail}",
                id=item.id,
            )
        )
    if draft.moves:
        risks.append(
            Risk(
                "outside-docs",
                "Markdown outside the docs folder (a repository README, code "
                "comments) is not scanned; links there to the moved files are not rewritten",
            )
        )
    return risks


def reverse_of(kind: str, draft: Draft) -> dict[str, Any]:
    note = (
        "moves each file back and undoes each listed link rewrite; restoring a location never "
        "restores a decision's effect"
        if kind == "archive"
        else "moves the files to the archive again (plan it with `mkdocs-adr archive --sources`)"
    )
    return {"moves": [{"from": m.target, "to": m.source} for m in draft.moves], "note": note}


def build_review(
    kind: str,
    log: Log,
    chosen: list[Record],
    draft: Draft,
    ineligible: list[Candidate],
    *,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The plan's review as JSON: every part of the draft, the relations to keep, the
    reverse operation."""
    records = review_records(log, chosen, draft)
    return {
        "kind": kind,
        "records": [r.to_json() for r in records],
        "moves": [m.to_json() for m in draft.moves],
        "links": [e.to_json() for e in draft.edits],
        "index": [i.to_json() for i in draft.index],
        "manifest": [m.to_json() for m in draft.manifest],
        "redirects": [r.to_json() for r in draft.redirects],
        "conflicts": [c.to_json() for c in draft.conflicts],
        "risks": [r.to_json() for r in review_risks(log, records, draft)],
        "ineligible": [c.to_json() for c in ineligible],
        "relations": relations_snapshot(log),
        "reverse": reverse_of(kind, draft),
        **(extra or {}),
    }
