"""Archive and restore: move whole out-of-effect records without losing a byte of history.

``plan_archive`` and ``plan_restore`` compute a reviewed plan (moves, link
rewrites, INDEX and manifest changes, redirects, conflicts, risks, the reverse
operation) and save it in the work dir; ``mkdocs-adr plan --confirm PLAN_ID``
applies it through the write-ahead journal (:mod:`mkdocs_adr.apply`), which
then calls :func:`verify_applied`. Nothing here changes a decision's status:
an archived record keeps its id, number, status and relations, and restoring
it puts the file back without putting the decision back in effect.

One job per module:

=====================  ===================================================
``eligibility``        which records may move (SPEC 8)
``service``            choosing the records, saving the plan, interrupted plans
``restore``            the reverse of an applied archive plan
``planner``            :func:`relocate`: the draft, assembled from the parts below
``moves``              what moves where (targets, mirrors); what blocks a move
``pages``              which pages are read; their URLs
``rewrite``            the link rewrites of one page
``nav``                the mkdocs.yml ``nav`` edits
``after``              the log after the plan (through :mod:`mkdocs_adr.whatif`)
``index_update``       the INDEX, regenerated where mkdocs-adr owns it
``manifest_update``    the CURRENT manifest (:func:`mkdocs_adr.manifest.mechanical_update`)
``redirects``          old and new URLs, which get a redirect page
``findings``           conflicts and risks
``review``             the review a plan records (JSON made once, here)
``verify``             the applied plan checked against its review
``render``             terminal text of previews, cards and receipts
=====================  ===================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .eligibility import candidates, eligible_ids
    from .restore import plan_restore
    from .service import (
        PREVIEW_SCHEMA,
        Preview,
        interrupted,
        plan_archive,
        refuse_if_interrupted,
        select,
    )
    from .verify import PLAN_KINDS, verify_applied

#: Each name's module, imported on first use: ``plan`` reads
#: :mod:`.eligibility` alone, and the planner, restore and verify modules are
#: most of this package's import time.
_HOMES = {
    "candidates": "eligibility",
    "eligible_ids": "eligibility",
    "plan_restore": "restore",
    "PREVIEW_SCHEMA": "service",
    "Preview": "service",
    "interrupted": "service",
    "plan_archive": "service",
    "refuse_if_interrupted": "service",
    "select": "service",
    "PLAN_KINDS": "verify",
    "verify_applied": "verify",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_module(home), name)
    globals()[name] = value
    return value


def _module(home: str) -> Any:
    """The submodule ``home`` (written out: an import is never a string here)."""
    if home == "eligibility":
        from . import eligibility

        return eligibility
    if home == "restore":
        from . import restore

        return restore
    if home == "service":
        from . import service

        return service
    from . import verify

    return verify


__all__ = [
    "PLAN_KINDS",
    "PREVIEW_SCHEMA",
    "Preview",
    "candidates",
    "eligible_ids",
    "interrupted",
    "plan_archive",
    "plan_restore",
    "refuse_if_interrupted",
    "select",
    "verify_applied",
]
