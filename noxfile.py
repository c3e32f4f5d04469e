"""Developer sessions: ``nox`` runs lint, types, tests and docs; ``nox -s bench`` and
``nox -s fuzz`` on demand.

Each session installs the checkout into its own virtualenv under ``.nox/``, so a
session passes or fails on what ``pyproject.toml`` declares, not on what happens to
be installed on the machine. Sessions use the interpreter that runs nox (Python 3.11
here); ``--python`` is not needed.
"""

from __future__ import annotations

import os

import nox

nox.needs_version = ">=2024.4"
nox.options.default_venv_backend = "venv"
nox.options.sessions = ["lint", "types", "tests", "docs"]

# Browser tests drive Debian's /usr/bin/chromium (docs/adr/0006); Playwright must
# never download a browser of its own, and there is no network for it anyway.
BROWSER_ENV = {"PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}


@nox.session
def tests(session: nox.Session) -> None:
    """Run the test suite in parallel, one pytest-xdist worker per core.

    ``nox -s tests -- -k plan`` passes arguments to pytest (``-- -n 0`` runs the tests
    in one process, ``-- -m "not slow"`` leaves out those over ~3 s); the environment
    variable ``PYTEST_WORKERS`` sets the number of workers, as for ``scripts/test.sh``.
    """
    session.install("-e", ".[test]", env=BROWSER_ENV)
    workers = os.environ.get("PYTEST_WORKERS", "auto")
    session.run("python", "-m", "pytest", "-n", workers, *session.posargs, env=BROWSER_ENV)


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff lint and format check (``ruff format .`` fixes the latter)."""
    session.install("ruff>=0.6")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def types(session: nox.Session) -> None:
    """Strict mypy over the package (configured in pyproject.toml)."""
    # The package itself is installed so mypy sees mkdocs, click and friends.
    session.install("-e", ".[dev]", env=BROWSER_ENV)
    session.run("mypy", *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the project's own site the way users must be able to: ``--strict``."""
    session.install("-e", ".[material]")
    site_dir = os.path.join(session.create_tmp(), "site")
    # Material 9.7+ prints an end-of-life banner on every build; it is noise here.
    env = {"NO_MKDOCS_2_WARNING": "1"}
    session.run("mkdocs", "build", "--strict", "--site-dir", site_dir, *session.posargs, env=env)


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks against same-run baselines (SPEC 11, issue 15); not part of the default run.

    Ends with one summary table (benchmarks/README.md). ``-- --quick`` for a smoke run
    with smaller sizes, ``-- --log4brains`` to also build with log4brains (installed from
    npm into the work folder), ``-- --check`` to exit 1 when a row fails its target.
    """
    session.install("-e", ".[material]")
    session.run("python", "benchmarks/run.py", *session.posargs)


@nox.session
def fuzz(session: nox.Session) -> None:
    """Hostile generated records through the engine and real builds under a hang guard.

    ``benchmarks/fuzz.py``: 100,000 seeded records by default (``-- --records 1000`` for
    a slice, ``-- --seed 7`` for other records, ``-- --help`` for the rest); crashes and
    hangs are listed with a shrunk reproducer in ``fuzz-out/``, and any of them makes the
    session fail. Not part of the default run; CI runs a 1,000-record slice as a test.
    """
    session.install("-e", ".[test]", env=BROWSER_ENV)
    out = os.path.join(session.create_tmp(), "fuzz-out")
    session.run("python", "benchmarks/fuzz.py", f"--out={out}", *session.posargs)
