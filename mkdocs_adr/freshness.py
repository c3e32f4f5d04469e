"""Freshness of CURRENT.md against its source manifest (SPEC 5).

Only the states that can be known without a manifest reader are decided
here: ``absent`` and ``unverifiable``. Reading, validating and comparing the
manifest arrives with the CURRENT work (issue 4); until then a present
CURRENT.md is never claimed to be fresh.
"""

from __future__ import annotations

from .log import Log
from .model import Problem, RootInfo, Severity, ViewState

MANIFEST = "CURRENT.sources.json"


def current_state(log: Log, root: RootInfo) -> tuple[ViewState, list[Problem]]:
    config = log.config
    folder = config.project_dir / root.path
    path = f"{root.path}/{config.current_page}"
    if not (folder / config.current_page).exists():
        return ViewState(path, "absent", detail="no CURRENT view has been published"), []
    manifest = folder / MANIFEST
    reason = (
        "manifest missing"
        if not manifest.exists()
        else "manifest comparison is not available in this version"
    )
    problem = Problem(
        "ADR012",
        Severity.WARNING,
        f"{config.current_page} cannot be verified: {reason}",
        path=path,
        fix="publish CURRENT with `mkdocs-adr plan --mode summary` so it has a manifest",
    )
    return ViewState(path, "unverifiable", ({"reason": reason, "ids": []},)), [problem]
