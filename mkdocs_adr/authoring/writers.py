"""The format writers as authoring uses them, from the format registry.

Each format's writer lives in its module in :mod:`mkdocs_adr.parsing.formats`,
next to the detector and patterns that read what it writes; which edits to
make, and whether the result reads back as intended, is decided by
:mod:`.relate`, :mod:`.compose` and :mod:`.readback`. This module names what
authoring needs of them.
"""

from __future__ import annotations

from ..parsing.formats import (
    KEEPS_WORDING,
    UNNUMBERED,
    WRITABLE,
    WRITERS,
    Ref,
    Writer,
    capitalized,
    writer_for,
)

__all__ = [
    "KEEPS_WORDING",
    "UNNUMBERED",
    "WRITABLE",
    "WRITERS",
    "Ref",
    "Writer",
    "capitalized",
    "writer_for",
]
