"""``plan`` on generated logs against reading and hashing the same files.

Both are measured in the same run, on the same files, after a warm-up read so
the page cache treats them alike; the figure that matters is the ratio.

The ``process`` rows (issue 15) time whole processes at 10,000 records: a
``python -m mkdocs_adr plan`` subprocess against a Python subprocess that reads
and hashes the same files, with the parse cache (docs/adr/0044) empty ("cold")
and filled by earlier runs with nothing changed since ("warm"). CPU is the
children's user+system time (``resource.getrusage``, any child process
included); wall time is printed beside it. The cache lives in a temporary
``XDG_CACHE_HOME``. Bytecode is compiled once before timing, as an installed
package has it (this machine sets ``PYTHONDONTWRITEBYTECODE``, which the
subprocesses do not inherit).
"""

from __future__ import annotations

import gc
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from benchmarks.generate import generate
from mkdocs_adr import report
from mkdocs_adr.cache import disabled
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import load

SIZES = (10, 100, 1000, 10000)
REPEAT = 3
#: Records of the whole-process rows, and how many runs each figure is the median of.
PROCESS_RECORDS = 10_000
PROCESS_REPEAT = 3
ROOT = Path(__file__).resolve().parent.parent

#: The baseline process: read and hash every Markdown file under a folder.
READ_AND_HASH = (
    "import hashlib, sys\n"
    "from pathlib import Path\n"
    "for p in sorted(Path(sys.argv[1]).rglob('*.md')):\n"
    "    hashlib.sha256(p.read_bytes()).hexdigest()\n"
)


def read_and_hash(folder: Path) -> int:
    n = 0
    for path in sorted(folder.rglob("*.md")):
        hashlib.sha256(path.read_bytes()).hexdigest()
        n += 1
    return n


def plan_once(mkdocs_yml: Path) -> dict[str, Any]:
    """``plan`` in this process, parsing every file (the disk cache off)."""
    config = load_from_mkdocs_yml(mkdocs_yml)
    with disabled():
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
    rows = process_rows(workdir)
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
                # no parse cache: SPEC 11's cold target (5 was the first milestone's guess)
                "target": "ratio <= 6 at 10,000 records",
            }
        )
    return rows


def process_env(cache_home: Path) -> dict[str, str]:
    """The subprocesses' environment: this package first on the path, its own cache."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE",)}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["XDG_CACHE_HOME"] = str(cache_home)
    env.pop("MKDOCS_ADR_NO_CACHE", None)
    return env


def timed_process(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one subprocess, its own children included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{cmd} exited {proc.returncode}: {proc.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def median_process(
    cmd: list[str], cwd: Path, env: dict[str, str], *, fresh_cache: bool = False
) -> tuple[float, float]:
    """Median CPU and median wall of :data:`PROCESS_REPEAT` runs (each with an empty
    cache folder when ``fresh_cache``)."""
    cpus, walls = [], []
    for _ in range(PROCESS_REPEAT):
        if fresh_cache:
            with tempfile.TemporaryDirectory(prefix="mkdocs-adr-cold-") as empty:
                cpu, wall = timed_process(cmd, cwd, {**env, "XDG_CACHE_HOME": empty})
        else:
            cpu, wall = timed_process(cmd, cwd, env)
        cpus.append(cpu)
        walls.append(wall)
    return statistics.median(cpus), statistics.median(walls)


def mkdocs_adr(*args: str) -> list[str]:
    return [sys.executable, "-m", "mkdocs_adr", *args]


def process_row(
    name: str, figure: tuple[float, float], base: tuple[float, float], target: str
) -> dict[str, Any]:
    cpu, wall = figure
    return {
        "bench": "process",
        "name": name,
        "cpu_s": round(cpu, 3),
        "wall_s": round(wall, 3),
        "cpu_ratio": round(cpu / base[0], 2) if base[0] else None,
        "wall_ratio": round(wall / base[1], 2) if base[1] else None,
        "target": target,
    }


def process_rows(workdir: Path, records: int = PROCESS_RECORDS) -> list[dict[str, Any]]:
    """Whole processes at ``records`` records: ``plan`` cold and warm against the
    read+hash process (issue 15's CLI rows)."""
    folder = log_for(workdir, records)
    with tempfile.TemporaryDirectory(prefix="mkdocs-adr-xdg-") as home:
        env = process_env(Path(home))
        # compile bytecode, warm the page cache, fill the parse cache
        timed_process([*mkdocs_adr("plan")], folder, env)
        base_cmd = [sys.executable, "-c", READ_AND_HASH, "docs"]
        timed_process(base_cmd, folder, env)
        base = median_process(base_cmd, folder, env)
        rows = [process_row(f"read+sha256 process ({records} records, baseline)", base, base, "")]
        for args in (("plan",), ("plan", "--json")):
            shown = " ".join(args)
            cold = median_process(mkdocs_adr(*args), folder, env, fresh_cache=True)
            rows.append(process_row(f"{shown} cold (empty cache)", cold, base, "cpu_ratio <= 6"))
            timed_process(mkdocs_adr(*args), folder, env)  # the cache as this run leaves it
            warm = median_process(mkdocs_adr(*args), folder, env)
            row = process_row(f"{shown} warm (nothing changed)", warm, base, "cpu_ratio <= 3")
            rows.append(row)
        off = median_process(mkdocs_adr("--no-cache", "plan"), folder, env)
        rows.append(process_row("plan --no-cache", off, base, ""))
    return rows
