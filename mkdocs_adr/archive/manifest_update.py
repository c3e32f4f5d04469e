"""Each root's CURRENT manifest after a relocation, as the manifest defines its update.

The rule itself lives in :func:`mkdocs_adr.manifest.mechanical_update` (moved
paths, and the hashes of sources and of CURRENT.md whose only change is a
listed link rewrite); this module feeds it the plan and reports the outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import freshness
from .. import manifest as mf
from ..config import Config, RootConfig
from ..log import Log
from .findings import Conflict, Risk
from .moves import root_rel


@dataclass(frozen=True)
class ManifestEntry:
    """One root's manifest in the review; ``update`` carries the new bytes."""

    update: mf.ManifestUpdate

    @property
    def risk(self) -> Risk | None:
        if self.update.state != "not-updated":
            return None
        path = self.update.path
        return Risk(
            "manifest",
            f"{path}: {self.update.problem}; it is left as it is (its "
            "CURRENT view is unverifiable until it is published again)",
            path=path,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.update.path,
            "state": self.update.state,
            "changes": [c.to_json() for c in self.update.changes],
        }


def manifest_changes(
    config: Config,
    log: Log,
    after: Log,
    mapping: Mapping[str, str],
    contents: Mapping[str, bytes],
) -> tuple[list[ManifestEntry], list[Conflict]]:
    """Every root's manifest update for moves ``mapping`` and rewritten ``contents``."""
    changed_ids = {rec.id for rec in after.records if rec.path in contents}
    entries: list[ManifestEntry] = []
    conflicts: list[Conflict] = []
    for root in config.roots:
        before_sha = entry_hashes(log, root, changed_ids)
        after_sha = entry_hashes(after, root, changed_ids)
        rehashed = {k: (before_sha[k], after_sha[k]) for k in before_sha if k in after_sha}
        try:
            update = mf.mechanical_update(config, root, mapping, contents, rehashed)
        except ValueError as exc:
            rel = config.rel(config.root_dir(root) / mf.FILENAME)
            conflicts.append(Conflict(rel, None, None, f"cannot be updated: {exc}"))
            continue
        if update is not None:
            entries.append(ManifestEntry(update))
    return entries, conflicts


def entry_hashes(log: Log, root: RootConfig, ids: set[str]) -> dict[str, str]:
    """Manifest keys (``id`` / ``id#D2``) -> hash, for the records in ``ids``, as freshness
    computes them."""
    info = next((r for r in log.roots if r.path == root_rel(log.config, root)), None)
    out: dict[str, str] = {}
    if info is None:
        return out
    for rec in log.records:
        if rec.id in ids and rec.root == root.path:
            for entry in freshness.record_entries(rec, info, "member"):
                out[entry.key] = entry.sha256
    return out
