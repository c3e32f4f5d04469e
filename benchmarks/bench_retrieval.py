"""Retrieval benchmarks (SPEC 11): ``context`` and ``find`` against ``plan``, one run.

A 10,000-record log is generated in the work folder (or reused when it is
already there). Every figure loads the log from disk, as a CLI call does, and
then answers: ``plan`` is ``report.build(load(config))``, the baseline;
``context`` and ``find`` are ``load(config)`` plus the bounded answer. The
engine-only rows time the answer on a log already loaded, which is what a
long-lived host (the plugin under ``mkdocs serve``, an agent tool server) pays.

The ``process`` rows (issue 15) run ``python -m mkdocs_adr context ID`` and
``find --path`` as whole processes with the parse cache warm (docs/adr/0044),
beside the read+sha256 process of the same files (:mod:`benchmarks.bench_plan`);
the target is under 0.5 s, CPU and wall both shown. The in-process rows load
with the disk cache off, so they keep measuring a full read.

``run(workdir)`` returns rows ``{name, seconds, ratio_to_plan}``;
``python benchmarks/bench_retrieval.py [WORKDIR]`` prints them. Each figure is
the best of ``repeat`` runs, so one cold cache does not decide a ratio.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_plan import (
    READ_AND_HASH,
    median_process,
    mkdocs_adr,
    process_env,
    timed_process,
)
from benchmarks.generate import generate
from mkdocs_adr import report
from mkdocs_adr.cache import disabled
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import Log, load
from mkdocs_adr.retrieval import ContextQuery, FindQuery, context, find

RECORDS = 10_000
TOPIC = "ledger cache"
PATH = "src/payments/ledger/entries.py"


def _best(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _pick_ids(log: Log) -> tuple[str, str]:
    """A record in effect with relations, and a superseded one with a current successor."""
    live = next(r.id for r in log.active if log.in_effect(r) and r.relations and log.get(r.id))
    old = next(
        r.id
        for r in log.records
        if r.status == "superseded" and log.get(r.id) and log.successor(r.id).state == "current"
    )
    return live, old


def process_rows(folder: Path, ids: tuple[str, str]) -> list[dict[str, Any]]:
    """``context`` and ``find --path`` as whole processes, the cache warm."""
    live, old = ids
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="mkdocs-adr-xdg-") as home:
        env = process_env(Path(home))
        base_cmd = [sys.executable, "-c", READ_AND_HASH, "docs"]
        timed_process(mkdocs_adr("plan"), folder, env)  # bytecode, page cache, parse cache
        timed_process(base_cmd, folder, env)
        base = median_process(base_cmd, folder, env)
        cases = [
            ("read+sha256 process (baseline)", base_cmd),
            (f"context {live} (warm)", mkdocs_adr("context", live)),
            (f"context {old} (warm)", mkdocs_adr("context", old)),
            (f"find --path {PATH} (warm)", mkdocs_adr("find", "--path", PATH)),
            (f"context {live} --no-cache", mkdocs_adr("--no-cache", "context", live)),
        ]
        for name, cmd in cases:
            timed_process(cmd, folder, env)
            cpu, wall = base if cmd is base_cmd else median_process(cmd, folder, env)
            rows.append(
                {
                    "name": f"process: {name}",
                    "seconds": round(cpu, 3),
                    "wall_s": round(wall, 3),
                    "ratio_to_read_hash": round(cpu / base[0], 2) if base[0] else None,
                    "target": "< 0.5 s (cpu and wall)" if "(warm)" in name else "",
                }
            )
    return rows


def run(workdir: Path, *, records: int = RECORDS, repeat: int = 2) -> list[dict[str, Any]]:
    folder = workdir / f"log-{records}"
    if not (folder / "mkdocs.yml").exists():
        generate(folder, records)
    config = load_from_mkdocs_yml(folder / "mkdocs.yml")
    with disabled():
        return _run(folder, config, records, repeat)


def _run(folder: Path, config: Any, records: int, repeat: int) -> list[dict[str, Any]]:
    loaded = load(config)
    live, old = _pick_ids(loaded)

    cases: list[tuple[str, Callable[[Log], Any]]] = [
        (f"context {live}", lambda log: context(log, ContextQuery(live))),
        (f"context {old} (successor first)", lambda log: context(log, ContextQuery(old))),
        (
            f"context {live} --intent history",
            lambda log: context(log, ContextQuery(live, intent="history")),
        ),
        ("context --domain payments", lambda log: context(log, ContextQuery(domain="payments"))),
        ("context (overview)", lambda log: context(log, ContextQuery())),
        (f"find --path {PATH}", lambda log: find(log, FindQuery(paths=(PATH,)))),
        (
            f"find --path {PATH} --topic '{TOPIC}'",
            lambda log: find(log, FindQuery(paths=(PATH,), topic=TOPIC)),
        ),
        (
            f"find --topic '{TOPIC}' (whole accepted log)",
            lambda log: find(log, FindQuery(topic=TOPIC)),
        ),
    ]

    plan = _best(lambda: report.build(load(config)), repeat)
    rows: list[dict[str, Any]] = [
        {
            "name": f"plan ({records} records, baseline)",
            "seconds": round(plan, 3),
            "ratio_to_plan": 1.0,
        }
    ]

    def cold(answer: Callable[[Log], Any]) -> Callable[[], Any]:
        return lambda: answer(load(config))

    def warm(answer: Callable[[Log], Any]) -> Callable[[], Any]:
        return lambda: answer(loaded)

    for name, answer in cases:
        seconds = _best(cold(answer), repeat)
        rows.append(
            {"name": name, "seconds": round(seconds, 3), "ratio_to_plan": round(seconds / plan, 2)}
        )
    for name, answer in cases:
        seconds = _best(warm(answer), repeat)
        rows.append(
            {
                "name": f"{name} [engine only, log loaded]",
                "seconds": round(seconds, 3),
                "ratio_to_plan": round(seconds / plan, 3),
            }
        )
    return process_rows(folder, (live, old)) + rows


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    for row in run(target):
        print(f"{row['name']:<70} {row['seconds']:>8.3f}s  x{row.get('ratio_to_plan')}")
