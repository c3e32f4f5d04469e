"""Drafting and publishing the CURRENT view: ``mkdocs-adr plan --mode summary`` (SPEC 5, 7).

Drafting is deterministic and calls no model. For every root the scope
touches, it selects the sources and writes, into a summary plan in the work
dir, CURRENT.md (the decisions in effect, open proposals, problems, coverage,
the sources, and the statement that the page is a derived view that decides
nothing), its manifest CURRENT.sources.json (:mod:`mkdocs_adr.manifest`), and
INDEX.md unless a user owns it. One module per job:

- :mod:`.scope`: the scope a plan covers in each root (``--domain``, ``--sources``);
- :mod:`.published`: what is published in a root now, and who owns it;
- :mod:`.text`: record text made fit for the page, and the source block markers;
- :mod:`.page`: the text of CURRENT.md from its parts (pure);
- :mod:`.draft`: one root's draft: sources, dispositions, kept parts, page, manifest;
- :mod:`.review`: what a plan records for its reviewer (typed, JSON in and out);
- :mod:`.planning`: the plan from the drafts: steps, staged bytes, review copies;
- :mod:`.edits`: reviewer edits restaged as the next plan version (ADR-0019);
- :mod:`.kind`: the checks before and after confirming (:data:`PLAN_KIND`).

The review card and the JSON of ``plan --mode summary`` are the CLI's
(:mod:`mkdocs_adr.commands._review`).
"""

from __future__ import annotations

from .edits import restage_if_edited
from .kind import PLAN_KIND
from .planning import Draft, discard, draft, review_file, save
from .review import KIND, RootReview, SummaryReview, review_of
from .text import bound, extract_blocks, rebase_links, tame

__all__ = [
    "KIND",
    "PLAN_KIND",
    "Draft",
    "RootReview",
    "SummaryReview",
    "bound",
    "discard",
    "draft",
    "extract_blocks",
    "rebase_links",
    "restage_if_edited",
    "review_file",
    "review_of",
    "save",
    "tame",
]
