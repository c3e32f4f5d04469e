"""The log as it will be after a relocation plan, worked out in memory by :mod:`whatif`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .. import whatif
from ..log import Log
from .moves import FileMove


def log_after(log: Log, moves: Sequence[FileMove], contents: Mapping[str, bytes]) -> Log:
    """The log after the plan: the moves, then the rewritten files (by their path after)."""
    edits: list[whatif.Edit] = [whatif.Move(m.source, m.target) for m in moves]
    edits.extend(whatif.Write(path, data) for path, data in sorted(contents.items()))
    return whatif.after(log, edits)
