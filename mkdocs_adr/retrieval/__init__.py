"""Bounded retrieval for people and coding agents: ``context`` and ``find`` (SPEC 9).

Every answer is evidence, never a dump: at most :data:`MAX_UNITS` decision units
and :data:`MAX_CODEPOINTS` code points for the whole serialized response, over-long
units split into addressable segments, omissions counted, continuation through
cursors bound to the corpus and the query, and the freshness of CURRENT included.
This package is engine code: it never imports MkDocs.
"""

from __future__ import annotations

from .budget import MAX_CODEPOINTS, MAX_UNITS, SEGMENT_CODEPOINTS, serialize
from .context import INTENTS, ContextQuery, context
from .find import FindQuery, find
from .render import render

__all__ = [
    "INTENTS",
    "MAX_CODEPOINTS",
    "MAX_UNITS",
    "SEGMENT_CODEPOINTS",
    "ContextQuery",
    "FindQuery",
    "context",
    "find",
    "render",
    "serialize",
]
