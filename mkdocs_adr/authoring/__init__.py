"""Authoring that keeps the log consistent: ``new``, ``supersede``, ``link``.

Both sides of a relation are written in each record's own style, checked by
reading the edited log back, and applied together through the write-ahead
journal, or nothing is written and every reason is named. Review-by dates
(:mod:`.review`) live here too: they are part of what an author writes.
"""

from __future__ import annotations

from .core import PLAN_KINDS, AuthoringRefused, Outcome, Reason, verify_applied
from .ops import LinkSpec, NewOptions, link, new, parse_link_spec, supersede
from .review import ReviewDue, overdue, review_banner, review_due
from .writers import WRITABLE

__all__ = [
    "PLAN_KINDS",
    "WRITABLE",
    "AuthoringRefused",
    "LinkSpec",
    "NewOptions",
    "Outcome",
    "Reason",
    "ReviewDue",
    "link",
    "new",
    "overdue",
    "parse_link_spec",
    "review_banner",
    "review_due",
    "supersede",
    "verify_applied",
]
