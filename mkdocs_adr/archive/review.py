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
from .findings import Risk
from .planner import Draft
from .verify import relations_snapshot


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
