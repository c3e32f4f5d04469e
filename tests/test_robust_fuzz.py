"""The hang detector: hostile records in every field each format reads, parsed in a
worker subprocess under a generous wall-clock guard.

Records are built by :mod:`benchmarks.fuzz` (the generator ``nox -s fuzz`` runs at
100,000 records): a shape of each format (frontmatter, MADR 3/4, Nygard, MADR 2,
log4brains, a metadata table, a container, an inline status line) with up to three
of its fields replaced by a pathological piece. The guard is a hang detector, not a
speed assertion: a record that should take milliseconds gets 20 s.

The default profile is small and derandomized, so CI runs the same examples on
every submission; ``ADR_FUZZ_PROFILE=deep`` runs many more, with shrinking.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from benchmarks import fuzz

# On a failure Hypothesis imports libcst to suggest a patch; under this project's
# warnings-as-errors that import's DeprecationWarning would replace the failure report
# with an INTERNALERROR. Imported here once, its warning ignored.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    with contextlib.suppress(ImportError):
        import hypothesis.extra._patching  # noqa: F401

REPO = Path(__file__).resolve().parent.parent
GUARD = 20.0

settings.register_profile(
    "fuzz-ci",
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=None,
    # no shrinking: a hang costs the guard on every shrink step; the failing example
    # is printed as generated, and derandomize makes it the same on every run
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz-deep",
    max_examples=3000,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = settings.get_profile("fuzz-" + os.environ.get("ADR_FUZZ_PROFILE", "ci"))


@st.composite
def specs(draw: st.DrawFn) -> fuzz.Spec:
    """A record spec: a shape and 1-3 of its fields, each with a piece at a size."""
    shape = draw(st.sampled_from(fuzz.SHAPES))
    names = draw(
        st.lists(st.sampled_from(fuzz.fields_of(shape)), min_size=1, max_size=3, unique=True)
    )
    poison = tuple(
        (
            name,
            draw(st.sampled_from(fuzz.pieces_for(shape, name))),
            draw(st.sampled_from((*fuzz.SIZES, fuzz.HUGE))),
        )
        for name in names
    )
    return fuzz.Spec(shape.name, poison, crlf=draw(st.booleans()), bom=draw(st.booleans()))


@pytest.fixture(scope="module")
def worker() -> Iterator[fuzz.Worker]:
    with fuzz.Worker(guard=GUARD) as w:
        yield w


def _verdict(outcome: str, sig: str, detail: str, what: str) -> str:
    return f"{outcome} on {what}: {sig}\n{detail[-3000:]}"


def test_every_shape_reads_its_ordinary_record(worker: fuzz.Worker) -> None:
    """The pieces are the only thing hostile: each shape unpoisoned parses as a record of
    its own format, so a poisoned field lands where that format reads it."""
    from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS
    from mkdocs_adr.parsing import ParseOptions, parse_bytes

    options = ParseOptions(
        aliases=tuple(sorted(DEFAULT_ALIASES.items())),
        status_headings=frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS),
    )
    styles = {}
    for shape in fuzz.SHAPES:
        name = shape.file_name.format(n=4)
        parsed = parse_bytes(
            fuzz.Spec(shape.name, ()).render(), path=f"adr/{name}", options=options
        )
        styles[shape.name] = (parsed.style, parsed.status, parsed.problems)
    assert {k: v[0] for k, v in styles.items()} == {
        "frontmatter": "frontmatter",
        "madr": "madr",
        "nygard": "nygard",
        "madr2": "madr2",
        "log4brains": "log4brains",
        "table": "table",
        "container": "container",
        "inline": "inline",
    }
    assert {k: v[1] for k, v in styles.items()} == {
        "frontmatter": "accepted",
        "madr": "accepted",
        "nygard": "accepted",
        "madr2": "superseded",
        "log4brains": "accepted",
        "table": "accepted",
        "container": "accepted",
        "inline": "proposed",
    }
    outcome, sig, detail = worker.run("parse", (fuzz.Spec("nygard", ()).render(), "adr/0004-x.md"))
    assert (outcome, sig) == ("ok", ""), detail


@PROFILE
@given(specs())
def test_hostile_record_parses_in_the_guard(worker: fuzz.Worker, spec: fuzz.Spec) -> None:
    name = fuzz.SHAPE[spec.shape].file_name.format(n=7)
    outcome, sig, detail = worker.run("parse", (spec.render(), f"docs/adr/{name}"))
    assert outcome == "ok", _verdict(outcome, sig, detail, spec.describe())


@settings(PROFILE, max_examples=max(1, PROFILE.max_examples // 6))
@given(st.lists(specs(), min_size=1, max_size=6))
def test_hostile_log_loads_and_reports_in_the_guard(
    worker: fuzz.Worker, batch: list[fuzz.Spec]
) -> None:
    """A log of hostile records: load (checks included), the plan report, its text."""
    files = [(f"{i:04d}-{s.shape}.md", s.render()) for i, s in enumerate(batch, start=1)]
    outcome, sig, detail = worker.run("log", (files,))
    assert outcome == "ok", _verdict(outcome, sig, detail, "; ".join(s.describe() for s in batch))


def test_the_guard_reports_a_hang_with_its_stack() -> None:
    """The detector itself: a job that never ends is a hang whose signature names the
    frame it was stuck in, and the next job runs in a fresh worker."""
    with fuzz.Worker(guard=2.0) as w:
        outcome, sig, detail = w.run("sleep", (30.0,))
        assert outcome == "hang"
        assert "fuzz.py" in sig and "_job_sleep" in detail, (sig, detail)
        assert w.run("parse", (b"# 1. A\n\n## Status\n\nAccepted\n", "adr/0001-a.md"))[0] == "ok"
        outcome, sig, _ = w.run("raise", ())
        assert outcome == "crash"
        assert sig.startswith("RuntimeError at ")


@pytest.mark.slow
def test_fuzz_slice_finds_no_crash_or_hang(tmp_path: Path) -> None:
    """The CI slice of ``nox -s fuzz``: 1,000 seeded records through parse, 20 logs
    through load and the report, one real ``mkdocs build``."""
    out = tmp_path / "out"
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "fuzz.py"),
            "--records=1000",
            "--builds=1",
            "--quiet",
            "--max-failures=5",  # a broken engine fails this test in minutes, not hours
            "--build-guard=120",
            f"--out={out}",
            f"--json={report}",
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    data = json.loads(report.read_text(encoding="utf-8"))
    assert (data["crashes"], data["hangs"]) == (0, 0), proc.stdout
    assert data["records"] == 1000 and data["logs"] == 20 and data["builds"] == 1
    assert proc.returncode == 0, proc.stdout + proc.stderr
