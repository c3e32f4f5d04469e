"""The INDEX of each root a relocation touches: regenerated where mkdocs-adr owns it."""

from __future__ import annotations

import difflib
from collections.abc import Set
from dataclasses import dataclass
from typing import Any

from ..config import Config
from ..fsops import sha256_bytes
from ..log import Log
from ..views import index as index_view
from .moves import root_rel


@dataclass(frozen=True)
class IndexChange:
    """What happens to one root's INDEX file.

    ``before`` is the hash of a generated INDEX as it is now; ``data`` its new
    bytes when it is regenerated (``None`` when nothing is written).
    """

    path: str
    state: str  # absent | user-owned | generated
    change: str
    diff: tuple[str, ...] | None = None
    before: str | None = None
    data: bytes | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "state": self.state, "change": self.change}
        if self.diff is not None:
            out["diff"] = list(self.diff)
        return out


def index_changes(config: Config, after: Log, roots: Set[str]) -> list[IndexChange]:
    """The INDEX of every root in ``roots`` (root paths), as ``after`` renders it."""
    out: list[IndexChange] = []
    for root in config.roots:
        if root.path not in roots:
            continue
        disk = config.root_dir(root) / config.index_page
        path = config.rel(disk)
        if not disk.exists():
            out.append(IndexChange(path, "absent", "none; the site renders the INDEX"))
            continue
        try:
            data = disk.read_bytes()
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            out.append(IndexChange(path, "user-owned", "left as it is (unreadable)"))
            continue
        if not index_view.is_generated(text):
            out.append(
                IndexChange(
                    path, "user-owned", "left as it is; its links are rewritten like any page's"
                )
            )
            continue
        info = next((r for r in after.roots if r.path == root_rel(config, root)), None)
        if info is None:  # pragma: no cover - every configured root has info
            continue
        out.append(_regenerated(path, data, index_view.render(after, info).encode("utf-8")))
    return out


def _regenerated(path: str, data: bytes, new: bytes) -> IndexChange:
    before = sha256_bytes(data)
    if new == data:
        return IndexChange(path, "generated", "unchanged", before=before)
    return IndexChange(
        path, "generated", "regenerated", diff_lines(data, new), before=before, data=new
    )


def diff_lines(old: bytes, new: bytes) -> tuple[str, ...]:
    """The changed lines only (``-old`` / ``+new``), for the review."""
    return tuple(
        line
        for line in difflib.unified_diff(
            old.decode("utf-8").splitlines(), new.decode("utf-8").splitlines(), lineterm="", n=0
        )
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    )
