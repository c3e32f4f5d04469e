"""Serve rebuilds: the plugin's log work after touching one record vs a full load.

Under ``mkdocs serve`` the plugin keeps its :class:`~mkdocs_adr.log.ParseCache`
across rebuilds (ADR-0007). This measures, on the same 1,000-record log in one
run, the engine work the plugin does in ``on_files``: a full load with an empty
cache (the first build) against a load after one record was edited (a rebuild).
SPEC 11's target: at most 10% of the full-build work. Page rendering, which
MkDocs redoes for every page on every rebuild, is not part of this figure.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from benchmarks.generate import generate
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import ParseCache, load

RECORDS = 1000
REPEAT = 5


def run(workdir: Path, records: int = RECORDS) -> list[dict[str, Any]]:
    folder = workdir / f"serve-{records}"
    if not (folder / "mkdocs.yml").exists():
        generate(folder, records)
    config = load_from_mkdocs_yml(folder / "mkdocs.yml")
    target = sorted((folder / "docs" / "adr").rglob("0001-*.md"))[0]
    original = target.read_bytes()
    full: list[float] = []
    rebuild: list[float] = []
    try:
        for i in range(REPEAT):
            cache = ParseCache()
            start = time.process_time()
            load(config, cache=cache)
            full.append(time.process_time() - start)
            target.write_bytes(original + f"\nEdit {i}.\n".encode())
            start = time.process_time()
            load(config, cache=cache)
            rebuild.append(time.process_time() - start)
            assert cache.misses >= 1
    finally:
        target.write_bytes(original)
    best_full, best_rebuild = min(full), min(rebuild)
    return [
        {
            "bench": "serve-rebuild",
            "records": records,
            "full_load_cpu_s": round(best_full, 4),
            "rebuild_load_cpu_s": round(best_rebuild, 4),
            "ratio": round(best_rebuild / best_full, 3),
            "target": "ratio <= 0.10 (plugin log work, one record touched)",
        }
    ]
