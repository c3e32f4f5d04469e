"""Serve rebuilds: the plugin's work on a rebuild after one edit vs on a full build.

``mkdocs serve`` keeps the plugin instance across rebuilds, with its parse cache
(ADR-0007) and the memory of each record page's inputs and additions (ADR-0045). This
runs, in one process and on the same 1,000-record Material site, what serve runs: a
first build, then one record's text edited and the site built again, once as
``mkdocs serve`` (every page rendered again) and once as ``mkdocs serve --dirty`` (only
the pages whose files or inputs changed), after two kinds of edit: a sentence added to the
record's text (what an author does most while writing; the views stay as they were) and
its status changed (which other pages and every view show). The figure is the CPU time
spent inside the plugin's hooks (``process_time`` around each of them, so MkDocs' own work
and the theme's are not counted) on the rebuild, over the same on the first build, which
is a full one: each run has an empty cache folder of its own (``XDG_CACHE_HOME``), so the
first build reads, parses and draws everything, as the first ``mkdocs serve`` on a
machine does and as every build did when the issue measured 0.32. SPEC 11's target: at
most 0.10. Each variant keeps its fastest of ``REPEAT`` runs.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.generate import generate

RECORDS = 1000
REPEAT = 2
CONFIG = (
    "site_name: bench\ntheme:\n  name: material\n"
    "plugins:\n  - search\n  - adr:\n      fail_on: never\n      nav: auto\n"
)


class _Clock:
    """CPU seconds spent in the plugin's hooks, per build."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def wrap(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return method(*args, **kwargs)
            finally:
                self.seconds += time.process_time() - start

        return timed


def _edit(text: str, kind: str, n: int) -> str:
    """One edit of a record: a sentence added to its text, or its status changed (which
    changes what other pages and the views show of it)."""
    if kind == "status":
        word = "deprecated" if n % 2 == 0 else "rejected"
        return re.sub(r"(?m)^(\* Status: |status: ?\"?)accepted", rf"\g<1>{word}", text, count=1)
    return text + f"\nEdit {n}.\n"


def _serve(folder: Path, record: Path, *, dirty: bool, edit: int, kind: str) -> tuple[float, float]:
    """A first build and a rebuild after one edit with one plugin instance, as serve
    runs them; the plugin's CPU seconds in each."""
    # The first build is a full one: the plugin reads, parses and draws everything, as
    # the first `mkdocs serve` on a machine does (an empty cache folder of its own; with a
    # warm parse cache the first build would skip the parsing, docs/adr/0044).
    cache_home = tempfile.mkdtemp(prefix="mkdocs-adr-serve-cache-")
    before_home = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = cache_home
    try:
        return _serve_builds(folder, record, dirty=dirty, edit=edit, kind=kind)
    finally:
        if before_home is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = before_home
        shutil.rmtree(cache_home, ignore_errors=True)


def _serve_builds(
    folder: Path, record: Path, *, dirty: bool, edit: int, kind: str
) -> tuple[float, float]:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig

    # MkDocs keeps plugin instances for the process; the first build gets a new one
    for name, option in MkDocsConfig._schema:
        if name == "plugins":
            option.plugin_cache.clear()  # type: ignore[attr-defined]
    clock = _Clock()
    site = folder / f"site-serve-{'dirty' if dirty else 'clean'}"
    plugin: Any = None
    out = []
    for step in range(2):
        config = load_config(str(folder / "mkdocs.serve.yml"), site_dir=str(site))
        if step == 0:
            config.plugins.on_startup(command="serve", dirty=dirty)
            plugin = config.plugins["adr"]
            memory = getattr(plugin, "memory", None)  # (None: a version before ADR-0045)
            assert memory is None or not memory.filled, "a new plugin instance"
        for name, methods in config.plugins.events.items():
            config.plugins.events[name] = [
                clock.wrap(m) if getattr(m, "__self__", None) is plugin else m for m in methods
            ]
        clock.seconds = 0.0
        build(config, dirty=dirty and step == 1)
        out.append(clock.seconds)
        if step == 0:
            before = record.read_text("utf-8")
            after = _edit(before, kind, edit)
            assert after != before, f"{record}: no {kind} edit"
            record.write_text(after, "utf-8")
    config.plugins.on_shutdown()
    return out[0], out[1]


def run(workdir: Path, records: int = RECORDS) -> list[dict[str, Any]]:
    folder = workdir / f"serve-{records}"
    if not (folder / "mkdocs.yml").exists():
        generate(folder, records)
    (folder / "mkdocs.serve.yml").write_text(CONFIG, encoding="utf-8")
    record = sorted((folder / "docs" / "adr").rglob("0001-*.md"))[0]
    original = record.read_bytes()
    quiet = logging.getLogger("mkdocs")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    rows = []
    try:
        for kind, dirty in (("text", False), ("text", True), ("status", False), ("status", True)):
            runs = []
            for i in range(REPEAT):
                runs.append(_serve(folder, record, dirty=dirty, edit=i, kind=kind))
                record.write_bytes(original)
            full = min(r[0] for r in runs)
            rebuild = min(r[1] for r in runs)
            rows.append(
                {
                    "bench": f"serve-rebuild{' --dirty' if dirty else ''}, {kind} edit",
                    "records": records,
                    "full_plugin_cpu_s": round(full, 3),
                    "rebuild_plugin_cpu_s": round(rebuild, 3),
                    "ratio": round(rebuild / full, 3),
                    "target": "ratio <= 0.10 (plugin work, one record edited)",
                }
            )
    finally:
        record.write_bytes(original)
        quiet.setLevel(level)
    return rows
