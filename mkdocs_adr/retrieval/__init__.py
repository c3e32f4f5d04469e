"""Bounded retrieval for people and coding agents: ``context`` and ``find`` (SPEC 9).

Every answer is evidence, never a dump: at most :data:`MAX_UNITS` decision units
and :data:`MAX_CODEPOINTS` code points for the whole serialized response, over-long
units split into addressable segments, omissions counted, continuation through
cursors bound to the corpus and the query, and the freshness of CURRENT included.
This package is engine code: it never imports MkDocs.

Where each job lives:

- :mod:`.context` and :mod:`.find`: validate a query and assemble its answer;
- :mod:`.focus`: the record, unit or group a ``context`` question names, and its focus;
- :mod:`.walk`: evidence through relations (constraints, amendments, lineage,
  incidental links), ranked by answer class;
- :mod:`.collect`: the collector both commands share (one item per record or unit,
  best sort key wins) and :func:`~.collect.replacement`, who answers for a record
  out of effect;
- :mod:`.evidence`: which text of a record or unit is shown, and the relation table;
- :mod:`.respond`, :mod:`.budget`, :mod:`.cursor`: paging, the budget, cursors and
  the JSON envelope (the edge); :mod:`.render`: the same page as text;
- :mod:`.paths`, :mod:`.project_graph`, :mod:`.topic`: ``find``'s layers.
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
