"""Site build against log4brains on the same records (issue 15: at least 20x faster).

The generated log (``generate.py``, 1,000 records) is laid out the way log4brains
reads a log: every record in one flat ``docs/adr`` folder (log4brains does not read
sub-folders), and every link to a record written as log4brains writes it,
``[<slug>](<slug>.md)`` (log4brains takes a superseder's slug from the link text and
stops its build when it is not a record). That one folder is then built twice,
with no other change: by ``log4brains build`` (with a ``.log4brains.yml``) and by
``mkdocs build`` with Material and the plugin (``nav: auto``, the default).

Each build is one whole process tree, timed by wall clock and by the CPU time of
the tree (user + system, including children, from ``os.wait4``); its peak memory is
the largest resident set in that tree. The figure is log4brains' time divided by
ours, once for CPU and once for wall.

log4brains is measured only when asked (``run.py --log4brains`` or
``MKDOCS_ADR_BENCH_LOG4BRAINS=1``): ``npm install --prefix <workdir>/log4brains-npm
log4brains`` installs it (kept for the next run when the work folder is kept; a global
log4brains is not used, see :func:`find_log4brains`). A build that does not write one
page per record does not count. When it cannot (no npm, no node, the install
or the build fails) the rows say "not measured" and why; no figure is made up.
Git history is kept out of log4brains' way (``GIT_CEILING_DIRECTORIES``): it would
otherwise run ``git log`` for each record, so the figure is log4brains at its fastest.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate import generate

RECORDS = 1000
#: ``run.py --quick``: a smoke run of both builds.
QUICK = {"records": 50}
ENV = "MKDOCS_ADR_BENCH_LOG4BRAINS"
TARGET = ">= 20"
INSTALL_TIMEOUT = 900.0
BUILD_TIMEOUT = 1800.0
#: A link to a record of the generated log: ``[text](some/where/0012-anything.md)``.
LINK = re.compile(r"\[[^\]\n]*\]\((?:[^()\s]*/)?(\d{4})-[^()/\s]*\.md\)")
L4B_CONFIG = "---\nproject:\n  name: bench\n  tz: UTC\n  adrFolder: ./docs/adr\n"
MKDOCS_CONFIG = (
    "site_name: bench\ntheme:\n  name: material\n"
    "plugins:\n  - search\n  - adr:\n      fail_on: never\n"
)


def requested() -> bool:
    """Whether this run was asked to measure log4brains."""
    return os.environ.get(ENV, "").strip().lower() not in ("", "0", "no", "false")


def timed_process(
    cmd: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: float
) -> dict[str, Any]:
    """Run ``cmd`` to its end: exit code, wall and CPU seconds of its whole process tree
    (children included, as ``wait4`` reports them), peak RSS in MiB, and its output."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                os.killpg(proc.pid, signal.SIGKILL)  # the whole tree: node's workers too
                pid, status, usage = os.wait4(proc.pid, 0)
                status = -1
                break
            time.sleep(0.02)
        wall = time.perf_counter() - start
        proc.returncode = 0  # reaped by wait4 above; keep Popen from waiting again
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    code = os.waitstatus_to_exitcode(status) if status != -1 else -1
    return {
        "rc": code,
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_mib": usage.ru_maxrss / 1024,  # Linux reports KiB
        "output": text,
        "timed_out": status == -1,
    }


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:160] if lines else "no output"


def layout(workdir: Path, records: int) -> Path:
    """The generated log as one flat folder with log4brains' links; both configs."""
    project = workdir / f"l4b-{records}"
    done = project / ".complete"
    if done.exists():
        return project
    source = generate(workdir / f"l4b-{records}-source", records)
    if project.exists():
        shutil.rmtree(project)
    adr = project / "docs" / "adr"
    adr.mkdir(parents=True)
    files = sorted(p for p in (source / "docs" / "adr").rglob("[0-9]*.md"))
    stems = {p.name[:4]: p.stem for p in files}

    def relink(match: re.Match[str]) -> str:
        stem = stems.get(match.group(1))
        return f"[{stem}]({stem}.md)" if stem else match.group(0)

    for path in files:
        text = LINK.sub(relink, path.read_text(encoding="utf-8"))
        (adr / path.name).write_text(text, encoding="utf-8")
    (project / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (project / ".log4brains.yml").write_text(L4B_CONFIG, encoding="utf-8")
    (project / "mkdocs.yml").write_text(MKDOCS_CONFIG, encoding="utf-8")
    done.write_text(f"{len(files)} records\n", encoding="utf-8")
    return project


def find_log4brains(workdir: Path) -> tuple[list[str] | None, str]:
    """``log4brains`` installed by npm in the work folder's prefix (installed when
    missing); or None and why not. A global log4brains is not used: its build keeps a
    Next.js cache inside its own package (``.next-export``) that must be cleared before
    each build, which is this harness' business only in a prefix of its own."""
    prefix = workdir / "log4brains-npm"
    installed = prefix / "node_modules" / ".bin" / "log4brains"
    if not shutil.which("node"):
        return None, "node not found on PATH"
    if installed.exists():
        return [str(installed)], "log4brains from the work folder's npm prefix"
    npm = shutil.which("npm")
    if not npm:
        return None, "npm not found on PATH"
    prefix.mkdir(parents=True, exist_ok=True)
    got = timed_process(
        [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "log4brains"],
        cwd=prefix,
        timeout=INSTALL_TIMEOUT,
    )
    if got["rc"] != 0 or not installed.exists():
        why = "timed out" if got["timed_out"] else f"exit {got['rc']}"
        return None, f"npm install log4brains failed ({why}): {_last_line(got['output'])}"
    return [str(installed)], f"log4brains installed by npm in {got['wall']:.0f} s"


def _clear_next_cache(workdir: Path) -> None:
    """Remove the Next.js output a previous log4brains build left in its package: it
    would otherwise export the previous log's pages (seen at 20 then 1,000 records)."""
    web = workdir / "log4brains-npm" / "node_modules" / "@log4brains" / "web" / "nextjs"
    shutil.rmtree(web / ".next-export", ignore_errors=True)


def _record_pages(site: Path) -> int:
    """How many record pages a log4brains site has (``adr/<slug>/index.html``)."""
    return sum(1 for _ in (site / "adr").glob("*/index.html"))


def _not_measured(reason: str, records: int) -> list[dict[str, Any]]:
    return [
        {
            "name": f"site build vs log4brains, {records} records ({kind})",
            "summary": "log4brains",
            "target": TARGET,
            "not_measured": reason,
        }
        for kind in ("CPU", "wall")
    ]


def run(
    workdir: Path, *, records: int = RECORDS, repeat: int = 1, enabled: bool | None = None
) -> list[dict[str, Any]]:
    """Both builds, ``repeat`` times for log4brains (it takes minutes at 1,000 records)
    and at least twice for ours; each side keeps its fastest run."""
    if not (requested() if enabled is None else enabled):
        return _not_measured(f"not requested (--log4brains or {ENV}=1)", records)
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    command, how = find_log4brains(workdir)
    if command is None:
        return _not_measured(how, records)
    project = layout(workdir, records)
    l4b_env = {
        **os.environ,
        "NEXT_TELEMETRY_DISABLED": "1",
        "GIT_CEILING_DIRECTORIES": str(project.parent),
    }
    ours_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    theirs: list[dict[str, Any]] = []
    ours: list[dict[str, Any]] = []
    for i in range(max(repeat, 2)):
        if i < repeat:
            out = project / "site-log4brains"
            shutil.rmtree(out, ignore_errors=True)
            _clear_next_cache(workdir)
            got = timed_process(
                [*command, "build", "--out", str(out)],
                cwd=project,
                env=l4b_env,
                timeout=BUILD_TIMEOUT,
            )
            if got["rc"] != 0 or not (out / "index.html").exists():
                why = "timed out" if got["timed_out"] else f"exit {got['rc']}"
                return _not_measured(
                    f"log4brains build failed ({why}): {_last_line(got['output'])}", records
                )
            pages = _record_pages(out)
            if pages != records:
                return _not_measured(f"log4brains built {pages} record pages of {records}", records)
            theirs.append(got)
        got = timed_process(
            [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(project / "site-ours")],
            cwd=project,
            env=ours_env,
            timeout=BUILD_TIMEOUT,
        )
        if got["rc"] != 0:
            return _not_measured(f"mkdocs build failed: {_last_line(got['output'])}", records)
        ours.append(got)
    rows = []
    for kind, key in (("CPU", "cpu"), ("wall", "wall")):
        best_theirs = min(r[key] for r in theirs)
        best_ours = min(r[key] for r in ours)
        rows.append(
            {
                "name": f"site build vs log4brains, {records} records ({kind})",
                "summary": "log4brains",
                "ratio": round(best_theirs / best_ours, 2),
                "target": TARGET,
                "measured": f"ours {best_ours:.2f} s {kind}",
                "baseline": f"log4brains {best_theirs:.2f} s {kind}",
                "runs": {
                    "ours_s": [round(r[key], 2) for r in ours],
                    "log4brains_s": [round(r[key], 2) for r in theirs],
                },
                "peak_mib": round(max(r["peak_mib"] for r in ours), 1),
                "baseline_peak_mib": round(max(r["peak_mib"] for r in theirs), 1),
                "peak_how": "rusage",
                "note": f"{how}; ratio = log4brains / ours",
            }
        )
    return rows


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    for row in run(folder, enabled=True):
        print(row)
