"""An inline ``Status: accepted`` line before the first second-level heading.

Also ``- **Status** deprecated`` (a bold key without a colon), ``**Status**
accepted`` and ``Status - Accepted``.

Read only, and the detector of last resort: it is tried after every other.
Its ``Key: value`` pattern is the one the reader uses for the fields of every
record (:data:`~mkdocs_adr.parsing.common.INLINE_FIELD`, through
:func:`~mkdocs_adr.parsing.common.field_match`).
"""

from __future__ import annotations

from ..common import field_match, first_h2, may_hold_fields
from ..markdown import heading_key
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
    return None


FORMAT = Format(
    "inline",
    "a 'Status: x' line under the title (read only)",
    detect=detect,
)
