"""Read one ADR file in any supported style into :class:`~mkdocs_adr.model.Parsed`.

Parsing is lenient and total: any bytes give a ``Parsed`` value, and every
oddity becomes a :class:`~mkdocs_adr.model.Problem` with a line and a fix.
The format is detected per file by the detectors of the format registry
(:mod:`.formats`), tried in its order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .options import ParseOptions

if TYPE_CHECKING:
    from .decoding import decode
    from .reader import parse, parse_bytes


def __getattr__(name: str) -> Any:
    """The reader's functions, imported on first use: a call answered from the parse
    cache (docs/adr/0044) reads no record, and the reader with every format it
    detects is a good part of a warm call's start-up."""
    if name == "decode":
        from . import decoding

        return decoding.decode
    if name in ("parse", "parse_bytes"):
        from . import reader

        return getattr(reader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ParseOptions", "decode", "parse", "parse_bytes"]
