"""The text of a new record: a template or skeleton, filled in by its format's writer.

Pure: no disk, no log. :mod:`.templates` replaces the placeholders ADR tools
use; the writer then sets title, status, date, id and review-by date where the
style keeps them, so the text reads back with the intended values.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..parsing.editable import Editable
from . import templates
from .writers import writer_for


@dataclass(frozen=True)
class Fields:
    """What a new record says about itself."""

    title: str
    number: int | None  # None: a dated style, named by its id
    width: int
    id: str
    date: str  # ISO
    status: str  # normalized: proposed, accepted, ...
    review_by: str | None = None  # ISO


def compose(
    style: str, path: str, fields: Fields, *, source: str | None, headings: frozenset[str]
) -> Editable:
    """The new record at ``path`` in ``style``, from ``source`` (None: the skeleton).

    Raises:
        UnsafeEdit: the template cannot be filled in where the writer must edit it.
    """
    writer = writer_for(style)
    assert writer is not None
    status_word = writer.status_word(fields.status)
    text = templates.substitute(
        templates.SKELETONS[style] if source is None else source,
        number=fields.number,
        width=fields.width,
        rid=fields.id,
        title=fields.title,
        date=fields.date,
        status=status_word,
    )
    ed = Editable.new(path, text, headings)
    writer.set_title(ed, fields.title, fields.number, fields.id)
    writer.set_status(ed, status_word)
    writer.set_date(ed, fields.date)
    writer.set_id(ed, fields.id)
    if fields.review_by is not None:
        writer.set_review_by(ed, fields.review_by)
    return ed


def heading(ed: Editable, default: str) -> str:
    """The text of the record's H1, or ``default`` if it has none."""
    h1 = ed.first_h1()
    return ed.lines[h1][2:].strip() if h1 is not None else default
