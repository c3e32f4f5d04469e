"""Without Playwright, the browser tests fail one by one with a message, and the rest runs.

A module-level ``import playwright`` would abort collection of the whole suite instead.
Here an inner pytest runs with a plugin that makes ``import playwright`` fail, as on a
machine where it is not installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO

pytestmark = pytest.mark.slow

HIDE = "import sys\n\nsys.modules['playwright'] = None  # import playwright now fails\n"


def test_a_missing_playwright_fails_each_browser_test_and_collection_survives(
    tmp_path: Path,
) -> None:
    (tmp_path / "hide_playwright.py").write_text(HIDE, encoding="utf-8")
    path = [str(REPO), str(tmp_path), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}
    tests = [
        "tests/test_browser_site.py::test_click_a_graph_node[mkdocs]",
        "tests/test_preview.py::test_browser_shows_draft_then_stale_banner",
        "tests/test_archive_links.py",  # a module without a browser still runs
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "hide_playwright", "-p", "no:cacheprovider",
         "--basetemp", str(tmp_path / "inner"), "-q", "-rf", *tests],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )  # fmt: skip
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "error during collection" not in out and "ERROR" not in out, out
    assert "2 failed" in out and " passed" in out, out
    assert out.count("Playwright is not importable") >= 2, out
    assert "skipped" not in out, out
