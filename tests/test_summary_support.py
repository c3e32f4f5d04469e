"""Helpers shared by the CURRENT-view tests (manifest, freshness, summary, publish, preview).

No tests here. Subprocesses get ``PYTHONPATH`` pointing at this checkout, so the
console script and ``python -m mkdocs`` run the code under test even when another
checkout is installed in editable mode.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from mkdocs_adr.cli import cli
from mkdocs_adr.errors import AdrError

from .conftest import SITES

REPO = Path(__file__).resolve().parent.parent


def checkout_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (
        os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else ""
    )
    env["NO_MKDOCS_2_WARNING"] = "1"
    env.pop("MKDOCS_ADR_CRASH_AT", None)
    env.update(extra or {})
    return env


def invoke(*args: str, cwd: Path | None = None, input: str | None = None) -> tuple[int, str, str]:
    """The click command in process; domain errors become exit codes as `main` maps them."""
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=True)
    finally:
        os.chdir(old)
    exc = result.exception
    if isinstance(exc, AdrError):
        return exc.exit_code, result.stdout, result.stderr + exc.format()
    if exc is not None and not isinstance(exc, SystemExit):
        raise exc
    return result.exit_code, result.stdout, result.stderr


def cli_json(*args: str, cwd: Path | None = None) -> tuple[int, Any]:
    code, out, err = invoke(*args, "--json", cwd=cwd)
    try:
        return code, json.loads(out)
    except ValueError:
        raise AssertionError(f"exit {code}, not JSON:\n{out}\n{err}") from None


def run(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """The real console entry point as a subprocess (``python -m mkdocs_adr``)."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", *args],
        cwd=cwd,
        env=env or checkout_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def copy_site(dest_parent: Path, name: str) -> Path:
    dest = dest_parent / name
    shutil.copytree(SITES / name, dest, symlinks=True)
    return dest


def draft(site: Path, *extra: str) -> str:
    code, data = cli_json("-f", str(site / "mkdocs.yml"), "plan", "--mode", "summary", *extra)
    assert code == 0, data
    plan_id: str = data["plan_id"]
    return plan_id


def confirm(site: Path, plan_id: str) -> dict[str, Any]:
    code, data = cli_json("-f", str(site / "mkdocs.yml"), "plan", "--confirm", plan_id)
    assert code == 0, data
    result: dict[str, Any] = data
    return result


def publish(site: Path, *extra: str) -> str:
    plan_id = draft(site, *extra)
    confirm(site, plan_id)
    return plan_id


def check(site: Path, *extra: str) -> tuple[int, Any]:
    return cli_json("-f", str(site / "mkdocs.yml"), "check", *extra)


def build(site: Path, *extra: str) -> Path:
    """A real `mkdocs build` of ``site`` into ``site/_site``; returns the site folder."""
    out = site / "_site"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "-f",
            str(site / "mkdocs.yml"),
            "-d",
            str(out),
            *extra,
        ],
        cwd=site,
        env=checkout_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return out


def page(site_dir: Path, src: str) -> str:
    """The built HTML of the page whose source is ``src`` (directory URLs)."""
    return (site_dir / src.removesuffix(".md") / "index.html").read_text(encoding="utf-8")


_BANNER = re.compile(
    r'<div class="admonition [^"]*adr-current-banner" data-adr-current="([a-z]+)">(.*?)</div>',
    re.DOTALL,
)


def banner(page_html: str) -> tuple[str, str]:
    """(state, visible text) of the CURRENT banner in a built page."""
    m = _BANNER.search(page_html)
    assert m is not None, "no CURRENT banner on the page"
    text = html.unescape(re.sub(r"<[^>]+>", " ", m.group(2)))
    return m.group(1), " ".join(text.split())
