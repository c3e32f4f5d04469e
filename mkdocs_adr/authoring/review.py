"""Review-by dates: which decisions are overdue, and the record page's banner.

A record names its review date as ``review-by:`` frontmatter or a
``Review by:`` line (or bullet). Once the date has passed, ``plan`` and
``check`` list the record (``ADR017``, warning) and its page carries a banner.
Both are judged against ``today``, which tests and ``--today`` pass in.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model import Record

if TYPE_CHECKING:
    from ..log import Log


@dataclass(frozen=True)
class ReviewDue:
    """A decision whose review date has passed."""

    id: str
    path: str
    due: str  # ISO date
    days: int  # days since the date passed (at least 1)

    @property
    def message(self) -> str:
        ago = "yesterday" if self.days == 1 else f"{self.days} days ago"
        return (
            f"This decision was due for review on {self.due} ({ago}). Review it, then move "
            "its review-by date forward, or supersede it."
        )


def review_due(record: Record, today: dt.date, *, log: Log) -> ReviewDue | None:
    """The overdue review of ``record``, or None (no date, not passed, not in effect).

    Only decisions in effect are reviewed: an archived, superseded or rejected
    record has nothing left to review. The engine's succession rules decide
    what is in effect (:meth:`~mkdocs_adr.log.Log.in_effect`: a record
    superseded only by a proposal still is).
    """
    due = record.parsed.review_by
    if not due or record.archived or not log.in_effect(record):
        return None
    try:
        when = dt.date.fromisoformat(due)
    except ValueError:
        return None  # reported as ADR017 "not a date"; no banner guesses a date
    if when >= today:
        return None
    return ReviewDue(record.id, record.path, when.isoformat(), (today - when).days)


def review_banner(record: Record, today: dt.date, *, log: Log) -> str | None:
    """One sentence for the record page once its review date has passed, else None.

    Plain text (no markup), so the page code chooses how a banner looks.
    """
    due = review_due(record, today, log=log)
    return due.message if due else None


def overdue(log: Log, today: dt.date) -> list[ReviewDue]:
    """Every overdue review in the log, oldest date first."""
    found = [d for d in (review_due(r, today, log=log) for r in log.records) if d]
    return sorted(found, key=lambda d: (d.due, d.id))
