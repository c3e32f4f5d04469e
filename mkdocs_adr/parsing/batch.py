"""Parse many files at once, in this process.

ADR-0009 parsed the second half of a large log in a forked child; ADR-0056 withdrew
that: a run is judged by the CPU it spends (issue 15's process rows), and the fork,
its copy-on-write pages and the pickled transfer back cost more CPU than the half
they saved, and saved wall time only while the second core had nothing else to do.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Parsed
from .options import ParseOptions
from .reader import parse_bytes


def parse_many(jobs: Sequence[tuple[bytes, str]], options: ParseOptions) -> list[Parsed]:
    """``[parse_bytes(data, path=path, options=options) for data, path in jobs]``."""
    return [parse_bytes(data, path=path, options=options) for data, path in jobs]
