"""Pathological records against an ordinary record of the same size (issue 16).

Each hostile record is a shape that once stalled the reader (runs of spaces
after a status, a deep list under ``## Links``, thousands of ``[``, setext
underlines, backticks, ``Key: value`` lines of spaces); the ordinary record is
a Nygard record padded with prose paragraphs to the same number of bytes. The
figure is the ratio of the best parse times (target: at most 20).
"""

from __future__ import annotations

import gc
import time
from pathlib import Path
from typing import Any

from mkdocs_adr.parsing import ParseOptions, parse_bytes

REPEAT = 3
#: Bytes of each record: large, but under the 1 MiB file bound.
SIZE = 512 * 1024
OPTIONS = ParseOptions(
    aliases=(),
    status_headings=frozenset({"status", "状态", "estado", "statut"}),
)
HEAD = "# 7. Keep the ledger in Postgres\n\nDate: 2024-03-05\n\n"


def _fill(head: str, piece: str, tail: str = "") -> bytes:
    room = SIZE - len(head.encode()) - len(tail.encode())
    reps = max(1, room // len(piece.encode()))
    return (head + piece * reps + tail).encode()


def ordinary() -> bytes:
    """A Nygard record of prose paragraphs with a link and an id now and then."""
    para = (
        "We keep one ledger table per tenant and write it through the outbox, as\n"
        "[ADR-0003](0003-use-an-outbox.md) describes; reads go to a replica. See\n"
        "ADR-0005 for the retention rules and `ledger_entries` for the schema.\n\n"
    )
    return _fill(HEAD + "## Status\n\nAccepted\n\n## Context\n\n", para)


def hostile() -> dict[str, bytes]:
    status = HEAD + "## Status\n\n"
    return {
        "status-spaces": _fill(status, " ", "x\n"),
        "accepted-spaces": _fill(status + "Accepted", " ", ".\n"),
        "links-indent": _fill(status + "Accepted\n\n## Links\n\n- a\n", " ", "- b\n"),
        "brackets": _fill(status + "Accepted\n\n", "[", "](x\n"),
        "empty-links": _fill(status + "Accepted\n\n", "[]("),
        "setext": _fill("", "a\n-\n"),
        "backticks": _fill(status + "Accepted\n\n", "` "),
        "field-spaces": _fill("# 7. X\n\nStatus:", " ", "x:\n"),
        "status-lines": _fill(status, "Accepted" + " " * 4000 + ".\n"),
        "ref-lists": _fill(status + "Accepted\n\n## Links\n\n", "被 " + "ADR-1 " * 600 + "\n"),
        "status-paragraph": _fill(status, "[\n"),
    }


def _best(data: bytes) -> float:
    times = []
    for _ in range(REPEAT):
        gc.collect()
        start = time.perf_counter()
        parse_bytes(data, path="docs/adr/0007-keep-the-ledger-in-postgres.md", options=OPTIONS)
        times.append(time.perf_counter() - start)
    return min(times)


def run(workdir: Path) -> list[dict[str, Any]]:
    base_data = ordinary()
    base = _best(base_data)
    rows = []
    for name, data in hostile().items():
        took = _best(data)
        rows.append(
            {
                "bench": "hostile",
                "record": name,
                "bytes": len(data),
                "ordinary_s": round(base, 4),
                "hostile_s": round(took, 4),
                "ratio": round(took / base, 2) if base else None,
                "target": "ratio <= 20",
            }
        )
    return rows
