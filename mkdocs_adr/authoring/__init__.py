"""Authoring that keeps the log consistent: ``new``, ``supersede``, ``link``.

Both sides of a relation are written in each record's own style, checked by
reading the edited log back, and applied together through the write-ahead
journal, or nothing is written and every reason is named. One module per job:

- :mod:`.session`: the records one command touches (:class:`~.session.Work`),
  found with :func:`mkdocs_adr.identity.lookup` and edited in memory;
- :mod:`.placement`: the root, domain folder, next number and file name of a new record;
- :mod:`.style`: which style and template a new record is written from;
- :mod:`.compose`: the text of a new record (template + format writer; pure);
- :mod:`.relate`: supersede and link edits on both sides, and what may not be written;
- :mod:`.readback`: the edited log read back through :func:`mkdocs_adr.whatif.after`;
- :mod:`.plan`: the change as a plan, its scope, and :data:`PLAN_KINDS` (checked on disk);
- :mod:`.running`: dry run, or plan and apply at once under the locks, resume, retry;
- :mod:`.create` (``new``) and :mod:`.ops` (``supersede``, ``link``): the commands as calls;
- :mod:`.status_change`: ``accept``, ``reject``, ``deprecate`` as reviewed plans (ADR-0037);
- :mod:`.outcome`, :mod:`.refusal`: what a command reports, and why it refused;
- :mod:`.templates`, :mod:`.writers`: skeletons and writers from the format registry;
- :mod:`.review`: review-by dates, part of what an author writes.

The text and JSON of the commands are the CLI's (:mod:`mkdocs_adr.commands.authoring`).
"""

from __future__ import annotations

from .create import NewOptions, new
from .ops import link, supersede
from .outcome import SCHEMA, Change, Outcome, Subject
from .plan import PLAN_KINDS, verify_applied
from .refusal import AuthoringRefused, Reason
from .relate import LinkSpec, parse_link_spec
from .review import ReviewDue, overdue, review_banner, review_due
from .status_change import PLAN_KINDS as STATUS_PLAN_KINDS
from .writers import WRITABLE

#: Statuses ``new --status`` accepts.
NEW_STATUSES = ("proposed", "accepted", "draft", "rejected", "deprecated")

__all__ = [
    "NEW_STATUSES",
    "PLAN_KINDS",
    "SCHEMA",
    "STATUS_PLAN_KINDS",
    "WRITABLE",
    "AuthoringRefused",
    "Change",
    "LinkSpec",
    "NewOptions",
    "Outcome",
    "Reason",
    "ReviewDue",
    "Subject",
    "link",
    "new",
    "overdue",
    "parse_link_spec",
    "review_banner",
    "review_due",
    "supersede",
    "verify_applied",
]
