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

from .. import checks
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

    The date is read and judged by the ADR017 rule itself
    (:func:`mkdocs_adr.checks.review_by`), so the banner and ``check`` always
    agree; a date that is not a date gets no banner (ADR017 reports it).
    """
    review = checks.review_by(log, record, today)
    if review is None or review.when is None or not review.overdue:
        return None
    return ReviewDue(record.id, record.path, review.when.isoformat(), review.days)


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
