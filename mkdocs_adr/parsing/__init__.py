"""Read one ADR file in any supported style into :class:`~mkdocs_adr.model.Parsed`.

Parsing is lenient and total: any bytes give a ``Parsed`` value, and every
oddity becomes a :class:`~mkdocs_adr.model.Problem` with a line and a fix.
The format is detected per file by the detectors of the format registry
(:mod:`.formats`), tried in its order.
"""

from __future__ import annotations

from .options import ParseOptions
from .reader import decode, parse, parse_bytes

__all__ = ["ParseOptions", "decode", "parse", "parse_bytes"]
