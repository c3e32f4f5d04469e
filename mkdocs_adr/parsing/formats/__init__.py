"""The format registry: every ADR format mkdocs-adr reads, in detection order.

One module per format holds all that format knows: its detector (or, for a
variant, the test by which it claims its parent's hits), its patterns, its
writer and the skeleton ``mkdocs-adr new`` fills in (see
:class:`~.base.Format`). The reader tries the detectors of :data:`FORMATS` in
this order and the first hit names the record's format; the ``style`` option
offers the formats that have ``forced`` detectors; authoring writes the
formats that have a writer.

Adding a format: write ``formats/<name>.py`` with a ``FORMAT``, add it to
:data:`FORMATS` at the place its detector must be tried, and add its tests
(tests/test_format_registry.py checks every registered format).
"""

from __future__ import annotations

from . import container, frontmatter, inline, log4brains, madr, madr2, nygard, table
from .base import Claim, Context, Detector, Format, Hit, Ref, Writer, capitalized

#: Every format, in detection order: a variant right after its parent.
FORMATS: tuple[Format, ...] = (
    frontmatter.FORMAT,
    madr.FORMAT,
    table.FORMAT,
    madr2.FORMAT,
    log4brains.FORMAT,
    nygard.FORMAT,
    inline.FORMAT,
    container.FORMAT,
)

BY_NAME: dict[str, Format] = {f.name: f for f in FORMATS}
#: The detectors, tried in this order; the first hit decides the format.
DETECTORS: dict[str, Detector] = {f.name: f.detect for f in FORMATS if f.detect is not None}
#: Per detector, the variants that may claim its hit, in registry order.
VARIANTS: dict[str, tuple[tuple[str, Claim], ...]] = {
    name: tuple(
        (f.name, f.claims) for f in FORMATS if f.variant_of == name and f.claims is not None
    )
    for name in DETECTORS
}
#: The ``style`` option's choices besides ``auto``, and the detectors each narrows to.
FORCED: dict[str, tuple[str, ...]] = {f.name: f.forced for f in FORMATS if f.forced}
#: The formats mkdocs-adr can write; every other one is refused with its name.
WRITABLE: tuple[str, ...] = tuple(f.name for f in FORMATS if f.writer is not None)
#: The writer of each writable format, by name.
WRITERS: dict[str, Writer] = {f.name: f.writer for f in FORMATS if f.writer is not None}
#: Writable formats whose relations keep their wording ("Clarifies", "Governs").
KEEPS_WORDING: tuple[str, ...] = tuple(f.name for f in FORMATS if f.keeps_wording)
#: Formats whose new records are named by date and slug, not numbered.
UNNUMBERED: frozenset[str] = frozenset(f.name for f in FORMATS if not f.numbered)
#: Formats whose status may be a date that is also the record's date.
DATE_FROM_STATUS: frozenset[str] = frozenset(f.name for f in FORMATS if f.date_from_status)


def writer_for(style: str) -> Writer | None:
    """The writer of format ``style``; None when mkdocs-adr does not write it."""
    return WRITERS.get(style)


def _check() -> None:
    for f in FORMATS:
        if f.variant_of is not None and f.variant_of not in DETECTORS:
            raise ValueError(
                f"format {f.name} is a variant of {f.variant_of}, which detects nothing"
            )
        for name in f.forced:
            if name not in DETECTORS:
                raise ValueError(f"format {f.name} forces detector {name}, which is not registered")
    if len(BY_NAME) != len(FORMATS):
        raise ValueError("two formats share a name")


_check()

__all__ = [
    "BY_NAME",
    "DATE_FROM_STATUS",
    "DETECTORS",
    "FORCED",
    "FORMATS",
    "KEEPS_WORDING",
    "UNNUMBERED",
    "VARIANTS",
    "WRITABLE",
    "WRITERS",
    "Claim",
    "Context",
    "Detector",
    "Format",
    "Hit",
    "Ref",
    "Writer",
    "capitalized",
    "writer_for",
]
