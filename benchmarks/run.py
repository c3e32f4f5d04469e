"""``nox -s bench``: every benchmark of SPEC 11 and issue 15, ratios against same-run baselines.

Logs are generated under a temporary folder (or ``--workdir``), never in the
repository. Each ``benchmarks/bench_*.py`` module exposes ``run(workdir)``
returning rows; this script runs each module in a process of its own (so each
module's peak memory is its own), prints each module's rows, and ends with ONE
summary table: each figure of issue 15's table (and issue 13's graph crossings)
as the measured value, its same-run baseline, the target, pass or FAIL, and
peak memory. The row contract is in ``benchmarks/README.md``; :data:`SUMMARY`
and :func:`legacy_rows` are its code.

``--quick`` runs smaller sizes (a smoke run: the figures are not the issue's);
``--log4brains`` also measures log4brains (installed from npm when needed);
``--check`` exits 1 when a summary row fails its target; ``--from-json FILE``
prints the summary of rows saved by ``--json`` without running anything.
Nothing here asserts a time in a test: the figures go in the closing notes.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import math
import os
import pkgutil
import re
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

Row = dict[str, Any]

#: The summary's rows, in issue 15's order: (id, what is measured, target). A module's
#: row answers one of them by carrying ``"summary": id``; the target here is used when
#: the row brings none.
SUMMARY: tuple[tuple[str, str, str], ...] = (
    ("plugin-overhead", "plugin overhead: nav: auto vs same pages, no plugin (1,000)", "<= 1.10"),
    ("site-vs-naive", "nav: auto site vs naive build (all in nav, no plugin)", "<= 0.12"),
    ("plan-cold", "plan, 10,000, cold vs read + sha256 (processes)", "<= 6"),
    ("plan-warm", "plan, 10,000, warm vs read + sha256 (processes)", "<= 3"),
    ("context-warm", "context ID, 10,000 records, warm (seconds)", "< 0.5"),
    ("find-warm", "find --path, 10,000 records, warm (seconds)", "< 0.5"),
    ("serve-rebuild", "serve rebuild after one edit vs full build (plugin work)", "<= 0.10"),
    ("log4brains", "site build vs log4brains, same 1,000 records (x faster)", ">= 20"),
    ("graph-crossings", "graph crossings after ordering vs id order (issue 13)", "< 1"),
)
SUMMARY_IDS = tuple(s[0] for s in SUMMARY)

#: ``--quick`` keyword arguments for modules that have no ``QUICK`` of their own;
#: only the names a module's ``run`` accepts are passed.
QUICK_FALLBACK: dict[str, dict[str, Any]] = {
    "bench_site": {"records": 200, "repeat": 1, "repeat_full": 1},
    "bench_plan": {"sizes": (100, 1000)},
    "bench_retrieval": {"records": 1000, "repeat": 1},
    "bench_serve": {"records": 200},
}

TARGET = re.compile(r"(<=|>=|<|>|≤|≥)\s*([0-9][0-9_,]*(?:\.[0-9]+)?)")
OPS: dict[str, Callable[[float, float], bool]] = {
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
}


def modules(only: list[str]) -> list[str]:
    names = sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if m.name.startswith("bench_"))
    if only:
        names = [n for n in names if any(o in n for o in only)]
    return names


def table(rows: list[Row]) -> str:
    if not rows:
        return "(no rows)"
    keys: list[str] = []
    for row in rows:
        keys.extend(k for k in row if k not in keys)
    widths = {k: max(len(k), *(len(str(r.get(k, ""))) for r in rows)) for k in keys}
    lines = ["  ".join(k.ljust(widths[k]) for k in keys).rstrip()]
    lines.append("  ".join("-" * widths[k] for k in keys))
    for row in rows:
        lines.append("  ".join(str(row.get(k, "")).ljust(widths[k]) for k in keys).rstrip())
    return "\n".join(lines)


# ------------------------------------------------------------------ judging


def parse_target(target: Any) -> tuple[str, float] | None:
    """``"<= 1.10"`` -> ``("<=", 1.1)``; the first comparison in prose such as
    ``"ratio <= 5 at 10,000 records"`` counts; a bare number means ``<=``."""
    if isinstance(target, bool):
        return None
    if isinstance(target, (int, float)):
        return "<=", float(target)
    if not isinstance(target, str):
        return None
    match = TARGET.search(target)
    if not match:
        return None
    op = {"≤": "<=", "≥": ">="}.get(match.group(1), match.group(1))
    return op, float(match.group(2).replace(",", "").replace("_", ""))


def target_text(target: Any) -> str:
    """A target as the summary prints it: ``"<= 1.10"`` (prose around it left out)."""
    if isinstance(target, str):
        match = TARGET.search(target)
        return f"{match.group(1)} {match.group(2)}" if match else target
    parsed = parse_target(target)
    return f"{parsed[0]} {parsed[1]:g}" if parsed else str(target)


def figure(row: Row) -> float | None:
    """The measured number of a row: ``row[row["metric"]]`` or ``row["ratio"]``."""
    value = row.get(row["metric"]) if "metric" in row else row.get("ratio")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def judge(value: float | None, target: Any) -> str:
    """``pass``, ``FAIL``, or ``no target``/``no figure`` when one cannot be read."""
    parsed = parse_target(target)
    if parsed is None:
        return "no target"
    if value is None or math.isnan(value):
        return "no figure"
    op, limit = parsed
    return "pass" if OPS[op](value, limit) else "FAIL"


# ------------------------------------------------------------------ rows of today's modules


def _name(row: Row) -> str:
    """A row's label: ``name``, ``benchmark`` or ``bench`` (with its ``record`` or ``records``)."""
    if row.get("name") or row.get("benchmark"):
        return str(row.get("name") or row.get("benchmark"))
    label = str(row.get("bench") or "")
    if row.get("record"):
        return f"{label} {row['record']}"
    return f"{label}, {row['records']} records" if row.get("records") else label


def _details(row: Row) -> dict[str, Any]:
    details = row.get("details")
    return details if isinstance(details, dict) else {}


def _retrieval(rows: list[Row], add: Callable[..., None]) -> None:
    """``context ID`` and ``find --path`` rows of bench_retrieval: its whole-process
    rows (``process: ... (warm)``) when it has them, else its in-process ones."""
    procs = [r for r in rows if _name(r).startswith("process: ")]
    base = next((r for r in procs if "baseline" in _name(r)), None)
    for summary, pattern in (
        ("context-warm", r"process: context \S+ \(warm\)"),
        ("find-warm", r"process: find --path \S+ \(warm\)"),
    ):
        for hit in (r for r in procs if re.fullmatch(pattern, _name(r)) and "seconds" in r):
            add(
                summary,
                hit,
                metric="seconds",
                seconds=hit["seconds"],
                unit="s",
                measured=f"CPU; {hit.get('wall_s')} s wall",
                baseline=f"read + sha256 {base['seconds']} s CPU" if base else "",
                note="bench_retrieval: whole process, parse cache warm",
            )
    if procs:
        return
    plan_base = next(
        (r for r in rows if _name(r).startswith("plan (") and "baseline" in _name(r)), None
    )
    base_text = f"plan {plan_base['seconds']} s (load + report)" if plan_base else ""
    for summary, pattern in (
        ("context-warm", r"context \S+"),
        ("find-warm", r"find --path \S+"),
    ):
        found = next((r for r in rows if re.fullmatch(pattern, _name(r)) and "seconds" in r), None)
        if found:
            add(
                summary,
                found,
                metric="seconds",
                seconds=found["seconds"],
                unit="s",
                baseline=base_text,
                note="bench_retrieval: in-process load + answer, no parse cache (a cold call)",
            )


def legacy_rows(rows: list[Row]) -> list[Row]:
    """Summary rows read from the rows today's modules return (their names and keys),
    for every summary id that no row names with ``summary`` yet. The mapping steps
    aside by itself once a module returns contract rows for that id."""
    named = {row.get("summary") for row in rows}
    out: list[Row] = []

    def add(summary: str, row: Row, **fields: Any) -> None:
        if summary not in named:
            fields.setdefault("source", id(row))
            out.append(
                {"name": _name(row), "summary": summary, "module": row.get("module"), **fields}
            )

    site = {_name(r): r for r in rows if _name(r).startswith("site: ")}
    auto = site.get("site: plugin overhead, nav auto vs same pages without plugin (ratio)")
    full = site.get("site: plugin overhead, nav full vs same pages without plugin (ratio)")
    auto_full = site.get("site: nav auto vs full, build time (ratio)")
    if auto:
        d = _details(auto)
        add(
            "plugin-overhead",
            auto,
            ratio=auto.get("value"),
            measured=f"plugin {d.get('plugin_cpu_s')} s CPU",
            baseline=f"same pages, no plugin {d.get('bare_cpu_s')} s CPU",
            note=f"bench_site, {d.get('records')} records"
            + (
                f", fastest runs' ratio (median of the pairs' ratios {d['paired_median']})"
                if "paired_median" in d
                else ""
            )
            + f"; its own target {auto.get('target')}",
        )
    if auto and full and _details(full).get("bare_cpu_s"):
        mine, naive = _details(auto)["plugin_cpu_s"], _details(full)["bare_cpu_s"]
        add(
            "site-vs-naive",
            auto,
            name="site: nav auto vs naive build (nav full, no plugin)",
            ratio=round(mine / naive, 3),
            measured=f"nav: auto {mine} s CPU",
            baseline=f"naive build {naive} s CPU",
            note="bench_site: nav auto row's CPU / nav full row's no-plugin CPU",
        )
    elif auto_full:
        d = _details(auto_full)
        add(
            "site-vs-naive",
            auto_full,
            ratio=auto_full.get("value"),
            measured=f"nav: auto {d.get('auto_cpu_s')} s CPU",
            baseline=f"nav: full with the plugin {d.get('full_cpu_s')} s CPU",
            note="naive build not measured (bench_site full=False): baseline has the plugin",
        )
    plans = [r for r in rows if r.get("bench") == "plan" and isinstance(r.get("records"), int)]
    # whole-process rows (bench_plan's "process" rows, as in the cache work of issue 15)
    procs = {_name(r): r for r in rows if r.get("bench") == "process"}
    proc_base = next((r for n, r in procs.items() if n.startswith("read+sha256 process")), None)
    for summary, wanted in (
        ("plan-cold", "plan cold (empty cache)"),
        ("plan-warm", "plan warm (nothing changed)"),
    ):
        hit = procs.get(wanted)
        if hit and proc_base:
            add(
                summary,
                hit,
                name=f"process: {wanted}",
                metric="cpu_ratio",
                cpu_ratio=hit.get("cpu_ratio"),
                unit="x",
                measured=f"plan {hit.get('cpu_s')} s CPU, {hit.get('wall_s')} s wall",
                baseline=f"read + sha256 {proc_base.get('cpu_s')} s CPU",
                note=f"bench_plan: whole processes, CPU ratio; wall ratio {hit.get('wall_ratio')}",
                sources=[id(r) for r in plans if r["records"] < 10_000],
            )
    if plans and "plan cold (empty cache)" not in procs:
        biggest = max(plans, key=lambda r: r["records"])
        add(
            "plan-cold",
            biggest,
            name=f"plan, {biggest['records']} records",
            ratio=biggest.get("ratio"),
            measured=f"plan {biggest.get('plan_s')} s",
            baseline=f"read + sha256 {biggest.get('baseline_s')} s",
            peak_mib=biggest.get("plan_peak_mib"),
            baseline_peak_mib=biggest.get("baseline_peak_mib"),
            peak_how="tracemalloc",
            note="bench_plan: in-process, best of 3, no parse cache (not whole processes)",
            sources=[id(r) for r in plans],  # the smaller sizes are not the target's
        )
    _retrieval(rows, add)
    for serve in (r for r in rows if str(r.get("bench", "")).startswith("serve-rebuild")):
        how = "hooks" if "rebuild_plugin_cpu_s" in serve else "log load"
        rebuild = serve.get("rebuild_plugin_cpu_s", serve.get("rebuild_load_cpu_s"))
        full_build = serve.get("full_plugin_cpu_s", serve.get("full_load_cpu_s"))
        add(
            "serve-rebuild",
            serve,
            name=f"{serve['bench']}, {serve.get('records')} records",
            ratio=serve.get("ratio"),
            measured=f"rebuild {rebuild} s CPU",
            baseline=f"full build {full_build} s CPU",
            note=f"bench_serve: the plugin's {how} only, in-process",
        )
    for graph in (r for r in rows if _name(r).startswith("graph ") and "crossings" in r):
        naive, now = graph.get("crossings_naive"), graph.get("crossings")
        if isinstance(naive, int) and isinstance(now, int):
            ratio = now / naive if naive else (0.0 if now == 0 else math.inf)
            add(
                "graph-crossings",
                graph,
                ratio=round(ratio, 3),
                measured=f"{now} crossings",
                baseline=f"{naive} in id order",
                note=f"{graph.get('records')} records, {graph.get('edges')} edges",
            )
    return out


# ------------------------------------------------------------------ the summary


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if math.isinf(value):
        return "inf"
    return f"{value:.4g} s" if unit == "s" else f"{value:.4g}{unit}"


def _peak(row: Row, peaks: dict[str, dict[str, float]]) -> str:
    if isinstance(row.get("peak_mib"), (int, float)):
        text = f"{row['peak_mib']:.0f}"
        if isinstance(row.get("baseline_peak_mib"), (int, float)):
            text += f" (baseline {row['baseline_peak_mib']:.0f})"
        return text + f" [{row.get('peak_how', 'row')}]"
    module = peaks.get(str(row.get("module")))
    if module:
        child, own = module.get("children_mib", 0.0), module.get("self_mib", 0.0)
        return f"{child:.0f} [max child, module]" if child else f"{own:.0f} [process, module]"
    return "-"


def _normalise(row: Row) -> Row:
    """A row of an older shape as a contract row: the figure is ``value`` (bench_site's
    rows), or the key a prose target starts with (``"cpu_ratio <= 6"``)."""
    if "metric" in row or figure(row) is not None:
        return row
    value = row.get("value")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {**row, "ratio": value}
    named = re.match(r"\s*([A-Za-z_]\w*)\s*(?:<=|>=|<|>)", str(row.get("target", "")))
    if named and isinstance(row.get(named.group(1)), (int, float)):
        return {**row, "metric": named.group(1), "unit": "x" if "ratio" in named.group(1) else ""}
    return row


def _line(row: Row, default: str | None, peaks: dict[str, dict[str, float]], what: str) -> Row:
    target = row.get("target", default)
    out: Row = {
        "id": row.get("summary") or row.get("module") or "-",
        "row": _name(row) or what,
        "measured": "",
        "same-run baseline": str(row.get("baseline") or "-"),
        "target": target_text(target) if target is not None else "-",
        "result": "",
        "peak MiB": _peak(row, peaks),
        "note": str(row.get("note") or ""),
    }
    if row.get("not_measured"):
        out.update(measured=f"not measured: {row['not_measured']}", result="not measured")
        out.update({"same-run baseline": "-", "peak MiB": "-"})
        return out
    value = figure(row)
    unit = str(row.get("unit") or ("s" if row.get("metric") else "x"))
    measured = _fmt(value, unit)
    if row.get("measured"):
        measured += f" ({row['measured']})"
    out.update(measured=measured, result=judge(value, target))
    return out


def summary_rows(rows: list[Row], peaks: dict[str, dict[str, float]] | None = None) -> list[Row]:
    """One line per summary id (in :data:`SUMMARY` order; several when several rows answer
    it; ``not measured`` when none does), then every other row that carries a target."""
    peaks = peaks or {}
    legacy = legacy_rows(rows)
    answers = [r for r in rows if r.get("summary") in SUMMARY_IDS] + legacy
    consumed = {r["source"] for r in legacy} | {s for r in legacy for s in r.get("sources", ())}
    out: list[Row] = []
    for summary, what, default in SUMMARY:
        mine = [r for r in answers if r.get("summary") == summary]
        if not mine:
            missing = "no row from the modules that ran"
            mine = [{"name": what, "summary": summary, "not_measured": missing}]
        out.extend(_line(r, default, peaks, what) for r in mine)
    for row in rows:
        if row.get("target") and row.get("summary") not in SUMMARY_IDS and id(row) not in consumed:
            out.append(_line(_normalise(row), None, peaks, _name(row)))
    return out


def render_summary(rows: list[Row], peaks: dict[str, dict[str, float]], *, quick: bool) -> str:
    """The summary table, its notes below it (numbered), and the count of verdicts."""
    lines = summary_rows(rows, peaks)
    notes: list[str] = []
    shown = []
    for line in lines:
        line = dict(line)
        note = line.pop("note")
        if note:
            if note not in notes:
                notes.append(note)
            line["row"] = f"{line['row']} [{notes.index(note) + 1}]"
        shown.append(line)
    counts = {v: sum(1 for r in lines if r["result"] == v) for v in ("pass", "FAIL")}
    missing = sum(1 for r in lines if r["result"] == "not measured")
    head = "== summary" + (" (--quick: reduced sizes, not the issue's figures)" if quick else "")
    body = [head, table(shown)]
    body += [f"[{i}] {note}" for i, note in enumerate(notes, 1)]
    body.append(f"{counts['pass']} pass, {counts['FAIL']} FAIL, {missing} not measured")
    return "\n".join(body)


# ------------------------------------------------------------------ running the modules


def _quick_kwargs(name: str, module: Any) -> dict[str, Any]:
    wanted = getattr(module, "QUICK", None)
    if not isinstance(wanted, dict):
        wanted = QUICK_FALLBACK.get(name, {})
    accepted = inspect.signature(module.run).parameters
    return {k: v for k, v in wanted.items() if k in accepted}


def _mib(kib: float) -> float:
    return round(kib / 1024, 1)  # Linux reports ru_maxrss in KiB


def worker(name: str, workdir: Path, out: Path, *, quick: bool) -> int:
    """Run one module in this process; write its rows and this process' peaks to ``out``."""
    module = importlib.import_module(f"benchmarks.{name}")
    kwargs = _quick_kwargs(name, module) if quick else {}
    rows = module.run(workdir, **kwargs)
    print(table(rows), flush=True)
    peaks = {
        "self_mib": _mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss),
        "children_mib": _mib(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss),
    }
    payload = {"rows": rows, "peaks": peaks}
    out.write_text(json.dumps(payload, default=str) + "\n", encoding="utf-8")
    return 0


def run_module(name: str, workdir: Path, *, quick: bool) -> tuple[list[Row], dict[str, float]]:
    """``name`` in a child process; its rows (each tagged with ``module``) and peaks.
    A module that fails gives one row saying so."""
    with tempfile.TemporaryDirectory(prefix="mkdocs-adr-bench-rows-") as tmp:
        out = Path(tmp) / "rows.json"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", name]
        cmd += ["--workdir", str(workdir), "--worker-out", str(out)]
        if quick:
            cmd.append("--quick")
        proc = subprocess.run(cmd, check=False)
        if proc.returncode != 0 or not out.exists():
            row = {
                "name": name,
                "target": "-",
                "not_measured": f"{name} failed ({proc.returncode})",
            }
            return [{**row, "module": name}], {}
        payload = json.loads(out.read_text(encoding="utf-8"))
    rows = [{**row, "module": name} for row in payload["rows"]]
    return rows, payload["peaks"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("only", nargs="*", help="run only benchmarks whose name contains this")
    parser.add_argument("--workdir", type=Path, default=None, help="reuse generated logs here")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    parser.add_argument("--quick", action="store_true", help="smaller sizes: a smoke run")
    parser.add_argument(
        "--log4brains", action="store_true", help="also build with log4brains (npm install)"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when a summary row fails")
    parser.add_argument("--from-json", type=Path, default=None, help="summarise saved rows")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--worker-out", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.worker, args.workdir, args.worker_out, quick=args.quick)
    all_rows: list[Row] = []
    peaks: dict[str, dict[str, float]] = {}
    quick = args.quick
    if args.from_json:
        saved = json.loads(args.from_json.read_text(encoding="utf-8"))
        if isinstance(saved, list):  # rows alone, as --json wrote them before
            saved = {"rows": saved}
        all_rows, peaks = saved["rows"], saved.get("peaks", {})
        quick = bool(saved.get("quick", False))
    else:
        names = modules(args.only)
        if not names:
            print("no benchmark matches", args.only, file=sys.stderr)
            return 2
        if args.log4brains:
            os.environ["MKDOCS_ADR_BENCH_LOG4BRAINS"] = "1"
        with tempfile.TemporaryDirectory(prefix="mkdocs-adr-bench-") as tmp:
            workdir = (args.workdir or Path(tmp)).resolve()
            workdir.mkdir(parents=True, exist_ok=True)
            for name in names:
                print(f"== {name}", flush=True)
                rows, peaks[name] = run_module(name, workdir, quick=args.quick)
                all_rows.extend(rows)
    print(render_summary(all_rows, peaks, quick=quick), flush=True)
    if args.json:
        payload = {"rows": all_rows, "peaks": peaks, "quick": quick}
        args.json.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
    failed = any(r["result"] == "FAIL" for r in summary_rows(all_rows, peaks))
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
