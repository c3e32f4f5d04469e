"""``nox -s bench``: every benchmark of SPEC 11, ratios against same-run baselines.

Logs are generated under a temporary folder (or ``--workdir``), never in the
repository. Each ``benchmarks/bench_*.py`` module exposes ``run(workdir)``
returning rows; this script prints them as one table and writes JSON when
asked. Nothing here asserts a time: the figures go in the closing notes.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def modules(only: list[str]) -> list[str]:
    names = sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if m.name.startswith("bench_"))
    if only:
        names = [n for n in names if any(o in n for o in only)]
    return names


def table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "(no rows)"
    keys: list[str] = []
    for row in rows:
        keys.extend(k for k in row if k not in keys)
    widths = {k: max(len(k), *(len(str(r.get(k, ""))) for r in rows)) for k in keys}
    lines = ["  ".join(k.ljust(widths[k]) for k in keys)]
    lines.append("  ".join("-" * widths[k] for k in keys))
    for row in rows:
        lines.append("  ".join(str(row.get(k, "")).ljust(widths[k]) for k in keys))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("only", nargs="*", help="run only benchmarks whose name contains this")
    parser.add_argument("--workdir", type=Path, default=None, help="reuse generated logs here")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = parser.parse_args(argv)
    names = modules(args.only)
    if not names:
        print("no benchmark matches", args.only, file=sys.stderr)
        return 2
    all_rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="mkdocs-adr-bench-") as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for name in names:
            module = importlib.import_module(f"benchmarks.{name}")
            print(f"== {name}", flush=True)
            rows = module.run(workdir)
            print(table(rows), flush=True)
            all_rows.extend(rows)
    if args.json:
        args.json.write_text(json.dumps(all_rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
