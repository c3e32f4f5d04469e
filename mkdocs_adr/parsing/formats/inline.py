"""An inline ``Status: accepted`` line before the first second-level heading.

Also ``- **Status** deprecated`` (a bold key without a colon), ``**Status**
accepted`` and ``Status - Accepted``.

Read only, and the detector of last resort: it is tried after every other.
Its ``Key: value`` pattern is the one the reader uses for the fields of every
record (:data:`~mkdocs_adr.parsing.common.INLINE_FIELD`, through
:func:`~mkdocs_adr.parsing.common.field_match`).
"""

from __future__ import annotations

from ... import rx
from ..common import field_match, first_h2, first_h2_at, may_hold_fields
from ..markdown import Document, heading_key
from ..status import relations_in_text
from .base import Context, Format, Hit


def detect(ctx: Context) -> Hit | None:
    doc = ctx.doc
    if not may_hold_fields(doc.text):
        return None
    limit = first_h2(doc)
    for lineno, text in doc.unfenced_before(limit):
        if text.lstrip().startswith(("|", "#")):
            continue
        m = field_match(text)
        if m and heading_key(m.group(1)) in ctx.status_headings:
            hit = Hit("inline", m.group(2).strip("* "), lineno)
            hit.relations.extend(relations_in_text(m.group(2), "status-section", lineno))
            return hit
    return _successor_heading(doc)


def _successor_heading(doc: Document) -> Hit | None:
    """``## Superseded by [X](../x.md)`` as the first section's heading, above the
    record's Context: the status line of a record kept among the superseded ones, as a
    heading. Only a supersession that names its successor is one (``## Superseded
    features`` is a section)."""
    at = first_h2_at(doc)
    head = doc.headings[at] if at is not None else None
    if head is None or not _SUCCESSOR_HEADING.match(head.text):
        return None
    found = relations_in_text(head.text, "status-section", head.line)
    rels = [r for r in found if r.kind == "superseded-by"]
    if not rels:
        return None
    hit = Hit("inline", head.text, head.line)
    hit.relations.extend(rels)
    return hit


#: The heading opens with the verb and its references (``Superseded by [..](..)``).
_SUCCESSOR_HEADING = rx.compile(r"(?i)(?:superseded|superceded|replaced)\s++by\s*+:?\s*+\S")


FORMAT = Format(
    "inline",
    "a 'Status: x' line under the title (read only)",
    detect=detect,
)
