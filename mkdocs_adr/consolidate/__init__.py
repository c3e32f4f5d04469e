"""Consolidating N records into M reviewed replacements: ``plan --mode consolidate``.

Deterministic, no model service (seeds/000 sections 4-6, SPEC 7). One module per job:

- :mod:`.scope`: the groups (``--domain``, ``--sources``, ``--group-by``), their
  sources, and every record left alone with its reason;
- :mod:`.units`: a source's constraints, item by item, and reading them back;
- :mod:`.coverage`: the coverage map (retained, changed, retired, unresolved) and
  what it makes of each source (superseded, partially superseded, left in effect);
- :mod:`.text`: a replacement's text in the log's own style;
- :mod:`.draft`: the whole plan in memory: numbers, relations, CURRENT, INDEX;
- :mod:`.save`: storing it with its review copies, and restaging reviewer edits
  as the next plan version;
- :mod:`.kind`: the checks inside the lock and after applying (:data:`PLAN_KINDS`).

The review card is the CLI's (:mod:`mkdocs_adr.commands._review`).
"""

from __future__ import annotations

from .coverage import Override, Row
from .draft import DRAFT_KIND, KIND, KINDS, Built, Scope, build
from .kind import PLAN_KINDS
from .save import (
    coverage_file,
    refuse_if_interrupted,
    restage_if_edited,
    save,
    save_draft_only,
)
from .scope import GROUP_BY

__all__ = [
    "DRAFT_KIND",
    "GROUP_BY",
    "KIND",
    "KINDS",
    "PLAN_KINDS",
    "Built",
    "Override",
    "Row",
    "Scope",
    "build",
    "coverage_file",
    "refuse_if_interrupted",
    "restage_if_edited",
    "save",
    "save_draft_only",
]
