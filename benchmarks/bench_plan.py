"""``plan`` on generated logs against reading and hashing the same files.

Both are measured in the same run, on the same files, after a warm-up read so
the page cache treats them alike; the figure that matters is the ratio.
"""

from __future__ import annotations

import gc
import hashlib
import time
import tracemalloc
from pathlib import Path
from typing import Any

from benchmarks.generate import generate
from mkdocs_adr import report
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import load

SIZES = (10, 100, 1000, 10000)
REPEAT = 3


def read_and_hash(folder: Path) -> int:
    n = 0
    for path in sorted(folder.rglob("*.md")):
        hashlib.sha256(path.read_bytes()).hexdigest()
        n += 1
    return n


def plan_once(mkdocs_yml: Path) -> dict[str, Any]:
    config = load_from_mkdocs_yml(mkdocs_yml)
    return report.build(load(config))


def best(fn: Any, *args: Any) -> float:
    times = []
    for _ in range(REPEAT):
        gc.collect()
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def peak_memory(fn: Any, *args: Any) -> int:
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def log_for(workdir: Path, n: int) -> Path:
    folder = workdir / f"log-{n}"
    if not (folder / "mkdocs.yml").exists():
        generate(folder, n)
    return folder


def run(workdir: Path, sizes: tuple[int, ...] = SIZES) -> list[dict[str, Any]]:
    rows = []
    for n in sizes:
        folder = log_for(workdir, n)
        docs = folder / "docs"
        read_and_hash(docs)  # warm the page cache for both contenders
        base = best(read_and_hash, docs)
        plan = best(plan_once, folder / "mkdocs.yml")
        base_mem = peak_memory(read_and_hash, docs)
        plan_mem = peak_memory(plan_once, folder / "mkdocs.yml")
        rows.append(
            {
                "bench": "plan",
                "records": n,
                "baseline_s": round(base, 4),
                "plan_s": round(plan, 4),
                "ratio": round(plan / base, 2) if base else None,
                "baseline_peak_mib": round(base_mem / 2**20, 2),
                "plan_peak_mib": round(plan_mem / 2**20, 2),
                "target": "ratio <= 5 at 10,000 records",
            }
        )
    return rows
