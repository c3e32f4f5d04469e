"""Shared fixtures: real files in temporary folders, the real CLI."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
LOGS = FIXTURES / "logs"
SITES = REPO / "site_src"


def fixture_logs(declaring: str | None = None) -> list[str]:
    """The fixture logs with an ``expected.json``; with ``declaring``, only those whose
    expected.json has a non-empty value under that key (a test over the others would
    check nothing)."""
    names = sorted(p.name for p in LOGS.iterdir() if (p / "expected.json").exists())
    if declaring is not None:
        names = [
            n
            for n in names
            if json.loads((LOGS / n / "expected.json").read_text(encoding="utf-8")).get(declaring)
        ]
    assert names, f"no fixture log declares {declaring!r}" if declaring else "no fixture logs"
    return names


@pytest.fixture(autouse=True)
def _own_cache_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test gets its own parse cache folder (docs/adr/0044), never ~/.cache:
    ``XDG_CACHE_HOME`` points into a fresh temporary folder, and subprocesses inherit it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    monkeypatch.delenv("MKDOCS_ADR_NO_CACHE", raising=False)


@pytest.fixture
def copy_log(tmp_path: Path) -> Callable[[str], Path]:
    """Copy a fixture log into a fresh temporary folder (symlinks kept)."""

    def copy(name: str) -> Path:
        dest = tmp_path / name
        shutil.copytree(LOGS / name, dest, symlinks=True)
        return dest

    return copy


def copy_project_site(dest: Path) -> Path:
    """The project's own site in ``dest``: mkdocs.yml, docs/ and the showcase roots and
    hook under site_src/showcase/ that mkdocs.yml names (docs/showcase.md)."""
    dest.mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copytree(REPO / "docs", dest / "docs")
    shutil.copytree(
        SITES / "showcase",
        dest / "site_src" / "showcase",
        ignore=shutil.ignore_patterns(".mkdocs-adr", "site", "__pycache__"),
    )
    return dest


def tree_digest(folder: Path) -> dict[str, str]:
    """Every file and folder under ``folder`` with a hash: byte-identity checks."""
    out: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = "link:" + os.readlink(path)
        elif path.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    # two digests of a missing or empty folder are equal and would prove nothing
    assert out, f"{folder} is missing or empty: its digest would check nothing"
    return out


def run_cli(*args: str, cwd: Path, check: bool = False) -> subprocess.CompletedProcess[str]:
    """The real console script as a subprocess."""
    exe = shutil.which("mkdocs-adr")
    cmd = [exe] if exe else [sys.executable, "-m", "mkdocs_adr"]
    proc = subprocess.run(
        [*cmd, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def load_json(text: str) -> Any:
    return json.loads(text)


def playwright_sync_api() -> Any:
    """Playwright's sync API, imported when a browser test runs.

    Never imported at module level: without Playwright, collection still works and each
    browser test fails with this message instead of the whole run aborting.
    """
    try:
        from playwright import sync_api
    except ImportError as exc:
        why = str(exc)
    else:
        return sync_api
    pytest.fail(
        f"Playwright is not importable ({why}): the browser tests need it. Install the "
        "test extra with `pip install -e '.[test]'` (scripts/test.sh does).",
        pytrace=False,
    )


@contextmanager
def new_plugin_instances() -> Iterator[None]:
    """Builds in here get plugins that never built before.

    MkDocs keeps a plugin that defines ``on_startup`` for the whole process, by its name
    (``mkdocs serve`` rebuilds with it): without this, a "fresh" in-process build after
    a serve session is done by the serve session's instance, its parse cache and memory.
    The kept instances come back afterwards."""
    from mkdocs.config.defaults import MkDocsConfig

    option = next(o for n, o in MkDocsConfig._schema if n == "plugins")
    cache = option.plugin_cache  # type: ignore[attr-defined]
    kept = dict(cache)
    cache.clear()
    try:
        yield
    finally:
        cache.clear()
        cache.update(kept)


def run_mkdocs(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """MkDocs itself (``python -m mkdocs build ...``) as a subprocess, its output kept."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def start_serve(folder: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    """``mkdocs serve`` of ``folder`` on 127.0.0.1:``port`` in its own session (stop it
    with :func:`stop_serve`); its output, stderr included, on ``stdout``."""
    return subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}", *extra],
        cwd=folder,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def stop_serve(proc: subprocess.Popen[str]) -> str:
    """Stop a ``mkdocs serve`` started in its own session (``start_new_session=True``):
    SIGTERM to its process group, SIGKILL if it is still there after 20 s; its output."""
    import signal

    os.killpg(proc.pid, signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
    return out or ""
