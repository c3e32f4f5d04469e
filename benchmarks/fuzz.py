"""``nox -s fuzz``: hostile records through the engine and real builds, with a hang guard.

Every record is one of the shapes the formats read (frontmatter, MADR 3/4, Nygard,
MADR 2, log4brains, a metadata table, a container, an inline status line) with one
to three of its fields replaced by a pathological piece: a run of spaces, tabs,
``[``, ``(``, ``*``, ``|``, backticks, ``#``, ``>``, ``-``, NUL, CR, a lone
surrogate (invalid UTF-8 once encoded), a deep list or quote, a YAML anchor chain
or tag, a huge integer, a 1 MB line. Record ``i`` of seed ``s`` is always the same
bytes (:func:`record`), so a failure is reproduced by its index alone.

Everything runs in a worker subprocess (:class:`Worker`) under a wall-clock guard
per job: a job that does not answer within the guard is a hang, the worker is
killed and a fresh one goes on with the next job. The stages:

- ``parse``: :func:`mkdocs_adr.parsing.parse_bytes` on each record;
- ``log``: every ``--log-size`` records written to a temporary log, then
  :func:`mkdocs_adr.log.load` (which runs the checks), :func:`mkdocs_adr.report.build`
  and the text report;
- ``build``: ``--builds`` of those logs, sampled evenly, through a real
  ``mkdocs build`` (a subprocess under the same guard).

A crash (an exception out of the engine, a dead worker, a failed build) or a hang
is reported with its signature, and the first record of each signature is shrunk
(:func:`minimize`: poisoned fields put back to their ordinary value, pieces halved,
while the same failure persists) and written to ``--out`` with its traceback. Peak
memory is the largest ``ru_maxrss`` of any child. The exit status is 1 when
anything crashed or hung, else 0. Nothing here asserts a time.

    python benchmarks/fuzz.py --records 100000 --out fuzz-out
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import json
import os
import pickle
import random
import re
import resource
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

# ----------------------------------------------------------------------- pieces

#: Sizes a piece is drawn at, and how often (the large ones, which find super-linear
#: reading, are rarer so that 100,000 records take minutes, not hours); :data:`HUGE` is
#: the 1 MB line (a piece cut at 1,000,000 characters), drawn for 0.4% of the fields.
SIZES = (1, 3, 20, 200, 1000, 5000, 30000)
SIZE_WEIGHTS = (3, 3, 3, 3, 2, 1, 1)
HUGE = 1_000_000


def _run(unit: str) -> Callable[[int], str]:
    return lambda n: unit * n


def _deep_list(n: int) -> str:
    n = min(n, 2000)
    return "\n".join("  " * i + "- x" for i in range(n))


def _alias_chain(n: int) -> str:
    """A flow sequence of ``n`` (at most 9) anchors, each a list of nine aliases of the
    one before: tiny text, up to 9**9 items once expanded."""
    depth = max(1, min(n, 9))
    parts = ["&a0 [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, depth):
        parts.append(f"&a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "[" + ", ".join(parts) + f", *a{depth - 1}]"


#: name -> builder(size) -> text. Lone surrogates are kept as str and become invalid
#: UTF-8 when the record is encoded (``surrogatepass``).
PIECES: dict[str, Callable[[int], str]] = {
    "spaces": lambda n: " " * n + "x",
    "spaces-dot": lambda n: "Accepted" + " " * n + ".",
    "tabs": lambda n: "\t" * n + "x",
    "open-brackets": _run("["),
    "close-brackets": _run("]"),
    "bracket-tail": lambda n: "[" * n + "a" * n,
    "link-heads": _run("[a]("),
    "parens": _run("("),
    "stars": _run("*"),
    "underscores": _run("_"),
    "pipes": _run("|"),
    "backticks": _run("`"),
    "hashes": _run("#"),
    "quotes-gt": lambda n: ">" * n + " x",
    "dashes": _run("-"),
    "setext": _run("a\n-\n"),
    "setext-eq": _run("a\n===\n"),
    "nul": _run("\x00"),
    "cr": _run("\r"),
    "crlf-mix": _run("a\r\n\r"),
    "surrogate": _run("\ud800"),
    "bad-utf8-mix": lambda n: "Accepted \udcff" * n,
    "deep-list": _deep_list,
    "deep-quote": lambda n: "\n".join(">" * i + " x" for i in range(1, min(n, 2000) + 1)),
    "indented-links": lambda n: "\n" + " " * n + "- Supersedes [x](0001-x.md)\n" + " " * n + "y",
    "superseded-by-run": _run("Superseded by ["),
    "adr-refs": _run("ADR-0001 "),
    "unit-refs": _run("ADR-0001#D1 "),
    "yaml-aliases": _alias_chain,
    "yaml-anchor-map": lambda n: "&m {a: &n [" + ", ".join(["*m"] * 0 + ["x"] * min(n, 50)) + "]}",
    "yaml-tag-timestamp": lambda n: "!!timestamp bad" + "x" * (n % 7),
    "yaml-tag-binary": lambda n: "!!binary " + "=" * n,
    "yaml-tag-python": lambda n: "!!python/object/apply:os.getcwd []",
    "yaml-tag-set": lambda n: "!!set {" + ", ".join(f"k{i}" for i in range(min(n, 500))) + "}",
    "yaml-tag-custom": lambda n: "!custom " + "x" * n,
    "yaml-tag-int": lambda n: "!!int " + "9" * n,
    "yaml-tag-float": lambda n: "!!float " + "9" * n + ".5e9999",
    "yaml-flow-deep": lambda n: "[" * min(n, 5000) + "]" * min(n, 5000),
    "yaml-map-deep": lambda n: "{a: " * min(n, 5000) + "b" + "}" * min(n, 5000),
    "huge-int": lambda n: "9" * max(n, 4400),
    "huge-negative": lambda n: "-" + "1" * max(n, 4400),
    "huge-version": lambda n: "1." + "0" * max(n, 5000),
    "date-like": lambda n: "2024-" + "1" * n + "-01",
    "bidi": _run("\u202e\u2066"),
    "osc": _run("\x1b]0;pwned\x07"),
    "html": _run("<svg onload=alert(1)>"),
    "js-link": _run("[x](javascript:alert(1)) "),
    "mixed": lambda n: ("[ *_`|#>-(" * (n // 10 + 1))[:n],
}

#: Pieces that only mean something inside YAML; they go in frontmatter fields.
YAML_ONLY = frozenset(k for k in PIECES if k.startswith("yaml-"))


# ---------------------------------------------------------------------- formats

_BODY = (
    "We keep a queue between the gateway and the ledger so a slow ledger never "
    "blocks a payment. See ADR-0002 for the broker."
)


@dataclass(frozen=True)
class Shape:
    """One record format: its text with ``{field}`` slots, their ordinary values, the
    file name pattern, and which slots are YAML."""

    name: str
    template: str
    defaults: dict[str, str]
    yaml: frozenset[str] = frozenset()
    file_name: str = "{n:04d}-use-a-queue.md"

    def render(self, values: dict[str, str]) -> str:
        return self.template.format(**{**self.defaults, **values})


_FM_DEFAULTS = {
    "id": "ADR-0001",
    "fm_title": "Use a queue",
    "fm_status": "accepted",
    "fm_date": "2024-01-15",
    "review_by": "2025-01-15",
    "domain": "payments",
    "iteration": "3",
    "tags": "[infra, payments]",
    "affected_paths": "[src/queue]",
    "affected_components": "[ledger]",
    "supersedes": "[ADR-0002]",
    "superseded_by": "[]",
    "amends": "[]",
    "relates_to": "[ADR-0003]",
    "redirect_from": "[]",
    "title": "Use a queue",
    "body": _BODY,
    "links": "Relates to [ADR-0003](0003-use-a-broker.md)",
}

SHAPES: tuple[Shape, ...] = (
    Shape(
        "frontmatter",
        "---\nid: {id}\ntitle: {fm_title}\nstatus: {fm_status}\ndate: {fm_date}\n"
        "review-by: {review_by}\ndomain: {domain}\niteration: {iteration}\ntags: {tags}\n"
        "affected-paths: {affected_paths}\naffected-components: {affected_components}\n"
        "supersedes: {supersedes}\nsuperseded-by: {superseded_by}\namends: {amends}\n"
        "relates-to: {relates_to}\nredirect-from: {redirect_from}\n---\n# {title}\n\n"
        "## Context\n\n{body}\n\n## Decision\n\nWe will use a queue.\n\n## Links\n\n- {links}\n",
        _FM_DEFAULTS,
        yaml=frozenset(k for k in _FM_DEFAULTS if k not in {"title", "body", "links"}),
    ),
    Shape(
        "madr",
        "---\nstatus: {fm_status}\ndate: {fm_date}\ndecision-makers: {deciders}\n"
        "consulted: {consulted}\ninformed: {informed}\ntags: {tags}\n---\n# {title}\n\n"
        "## Context and Problem Statement\n\n{body}\n\n## Decision Outcome\n\n"
        'Chosen option: "{option}", because it is simple.\n',
        {
            "fm_status": "accepted",
            "fm_date": "2024-01-15",
            "deciders": "[alice, bob]",
            "consulted": "[carol]",
            "informed": "[dave]",
            "tags": "[infra]",
            "title": "Use a queue",
            "body": _BODY,
            "option": "a queue",
        },
        yaml=frozenset({"fm_status", "fm_date", "deciders", "consulted", "informed", "tags"}),
    ),
    Shape(
        "nygard",
        "# {number}. {title}\n\nDate: {date}\n\n## {status_heading}\n\n{status}\n\n"
        "{status_link}\n\n## Context\n\n{body}\n\n## Decision\n\nWe will use a queue.\n\n"
        "## Consequences\n\n{body}\n",
        {
            "number": "4",
            "title": "Use a queue",
            "date": "2024-01-15",
            "status_heading": "Status",
            "status": "Accepted",
            "status_link": "Supersedes [2. Use a broker](0002-use-a-broker.md)",
            "body": _BODY,
        },
    ),
    Shape(
        "madr2",
        "# {title}\n\n* Status: {status}\n* Deciders: {deciders}\n* Date: {date}\n\n"
        "Technical Story: {story}\n\n## Context and Problem Statement\n\n{body}\n\n"
        '## Decision Outcome\n\nChosen option: "{option}", because it is simple.\n\n'
        "## Links\n\n* {links}\n* {links2}\n",
        {
            "title": "Use a queue",
            "status": "superseded by [ADR-0005](0005-use-a-log.md)",
            "deciders": "alice, bob",
            "date": "2024-01-15",
            "story": "#42",
            "body": _BODY,
            "option": "a queue",
            "links": "Refines [ADR-0002](0002-use-a-broker.md)",
            "links2": "Relates to ADR-0003",
        },
    ),
    Shape(
        "log4brains",
        "# {title}\n\n- Status: {status}\n- Deciders: {deciders}\n- Date: {date}\n"
        "- Tags: {tags}\n\n## Context and Problem Statement\n\n{body}\n\n## Links\n\n"
        "- {links}\n",
        {
            "title": "Use a queue",
            "status": "accepted",
            "deciders": "alice",
            "date": "2024-01-15",
            "tags": "infra, payments",
            "body": _BODY,
            "links": "Supersedes [20230101-use-a-broker](20230101-use-a-broker.md)",
        },
        file_name="2024{n:04d}-use-a-queue.md",
    ),
    Shape(
        "table",
        "# {title}\n\n| Field | Value |\n|-------|-------|\n| **Status** | {status} |\n"
        "| **Date** | {date} |\n| **Deciders** | {deciders} |\n"
        "| **Superseded by** | {superseded_by} |\n\n## Context\n\n{body}\n",
        {
            "title": "ADR-0004: Use a queue",
            "status": "Accepted",
            "date": "2024-01-15",
            "deciders": "alice",
            "superseded_by": "-",
            "body": _BODY,
        },
    ),
    Shape(
        "container",
        "---\nstyle: container\nunits:\n  - id: D1\n    status: {unit_status}\n"
        "    title: {unit_fm_title}\n---\n# {title}\n\n## D1. {unit_title}\n\n"
        "Status: {status}\n\n{body}\n\n## D2. {unit2_title}\n\nStatus: {status2}\n"
        "{unit_link}\n",
        {
            "unit_status": "accepted",
            "unit_fm_title": "Queue",
            "title": "Payments decisions",
            "unit_title": "Use a queue",
            "status": "Accepted",
            "body": _BODY,
            "unit2_title": "Drop the broker",
            "status2": "Superseded by ADR-0005#D1",
            "unit_link": "Supersedes ADR-0002#D3",
        },
        yaml=frozenset({"unit_status", "unit_fm_title"}),
    ),
    Shape(
        "inline",
        "# {title}\n\n{status_key}: {status}\n{field_key}: {field}\n\n## Context\n\n{body}\n",
        {
            "title": "4. Use a queue",
            "status_key": "Status",
            "status": "proposed",
            "field_key": "Date",
            "field": "2024-01-15",
            "body": _BODY,
        },
    ),
)
SHAPE = {s.name: s for s in SHAPES}


@dataclass(frozen=True)
class Spec:
    """What a record is made of: a shape, the fields replaced, and how it is encoded."""

    shape: str
    poison: tuple[tuple[str, str, int], ...]  # (field, piece, size)
    crlf: bool = False
    bom: bool = False

    def describe(self) -> str:
        fields = ", ".join(f"{f}={p}({n})" for f, p, n in self.poison)
        extra = "".join([" crlf" if self.crlf else "", " bom" if self.bom else ""])
        return f"{self.shape}: {fields or 'ordinary'}{extra}"

    def render(self) -> bytes:
        shape = SHAPE[self.shape]
        text = shape.render({f: PIECES[p](n)[:HUGE] for f, p, n in self.poison})
        if self.crlf:
            text = text.replace("\n", "\r\n")
        data = text.encode("utf-8", "surrogatepass")
        return (b"\xef\xbb\xbf" + data) if self.bom else data


def fields_of(shape: Shape) -> list[str]:
    return sorted(shape.defaults)


def pieces_for(shape: Shape, field_name: str) -> list[str]:
    """YAML pieces only in YAML fields; every other piece anywhere."""
    if field_name in shape.yaml:
        return sorted(PIECES)
    return sorted(p for p in PIECES if p not in YAML_ONLY)


def spec(seed: int, index: int) -> Spec:
    """Record ``index`` of ``seed``: the same spec on every run and machine."""
    rng = random.Random(f"{seed}:{index}")
    shape = rng.choice(SHAPES)
    names = fields_of(shape)
    poison = []
    for name in rng.sample(names, rng.randint(1, min(3, len(names)))):
        piece = rng.choice(pieces_for(shape, name))
        size = HUGE if rng.random() < 0.004 else rng.choices(SIZES, SIZE_WEIGHTS)[0]
        poison.append((name, piece, size))
    return Spec(shape.name, tuple(poison), crlf=rng.random() < 0.1, bom=rng.random() < 0.05)


def record(seed: int, index: int) -> tuple[str, bytes]:
    """File name and bytes of record ``index`` of ``seed``."""
    s = spec(seed, index)
    return SHAPE[s.shape].file_name.format(n=index % 10000), s.render()


# ----------------------------------------------------------------------- worker
#
# The parent sends length-prefixed pickles on the worker's stdin and reads answers on
# its stdout; the worker's own prints go to stderr. Answers carry the worker's
# ru_maxrss so the parent knows which job raised the peak.


def _send(fh: Any, obj: object) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    fh.write(struct.pack("<Q", len(data)) + data)
    fh.flush()


def _recv_exact(fh: Any, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = fh.read(n - got)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _recv(fh: Any) -> Any:
    (n,) = struct.unpack("<Q", _recv_exact(fh, 8))
    return pickle.loads(_recv_exact(fh, n))


def signature(exc: BaseException) -> str:
    """``Type at file:line in function`` of the innermost frame of the package (or the
    innermost frame at all): one signature per distinct bug, whatever the message."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "mkdocs_adr" in f.filename] or frames
    if not ours:
        return type(exc).__name__
    f = ours[-1]
    where = (
        f.filename.split("mkdocs_adr" + os.sep, 1)[-1] if "mkdocs_adr" in f.filename else f.filename
    )
    return f"{type(exc).__name__} at mkdocs_adr/{where}:{f.lineno} in {f.name}"


_FRAME = re.compile(r'File "(?P<file>[^"]*)", line (?P<line>\d+) in (?P<func>\S+)')


def hang_site(stack: str) -> str:
    """``in mkdocs_adr/<file>:<line> <function>``: the innermost frame of the package in a
    faulthandler dump (most recent call first), the hang's signature; preceded by the
    innermost frame of all when that is elsewhere (PyYAML, Markdown, MkDocs)."""
    frames = [
        (m["file"].replace(os.sep, "/"), m["line"], m["func"]) for m in _FRAME.finditer(stack)
    ]
    if not frames:
        return "(no stack)"
    ours = next((f for f in frames if "/mkdocs_adr/" in f[0]), None)

    def show(frame: tuple[str, str, str]) -> str:
        path, line, func = frame
        if "/mkdocs_adr/" in path:
            path = "mkdocs_adr/" + path.split("/mkdocs_adr/", 1)[1]
        elif "site-packages/" in path:
            path = path.split("site-packages/", 1)[1]
        else:
            path = Path(path).name
        return f"{path}:{line} {func}"

    if ours is None:
        return f"in {show(frames[0])}"
    if frames[0] is ours:
        return f"in {show(ours)}"
    return f"in {show(frames[0])} (from {show(ours)})"


def _options() -> Any:
    from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS
    from mkdocs_adr.parsing import ParseOptions

    return ParseOptions(
        aliases=tuple(sorted(DEFAULT_ALIASES.items())),
        status_headings=frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS),
    )


#: The Markdown extensions a record page is rendered with in ``render`` jobs: MkDocs'
#: defaults and what Material sites commonly add (block processors that rescan nests).
RENDER_EXTENSIONS = (
    "toc",
    "tables",
    "fenced_code",
    "admonition",
    "attr_list",
    "md_in_html",
    "footnotes",
    "def_list",
    "pymdownx.superfences",
    "pymdownx.details",
)


def _job_parse(data: bytes, path: str, render: bool = False) -> None:
    from mkdocs_adr.model import STATUSES
    from mkdocs_adr.parsing import parse_bytes

    parsed = parse_bytes(data, path=path, options=_OPTIONS)
    if parsed.status not in STATUSES:
        raise AssertionError(f"status {parsed.status!r} is not a status")
    for p in parsed.problems:
        if not p.code.startswith("ADR"):
            raise AssertionError(f"problem code {p.code!r}")
    if render and not any(p.code == "ADR013" for p in parsed.problems):
        _render(data, parsed.body_start)


def _render(data: bytes, body_start: int) -> None:
    """The record's body through Python-Markdown as its site page renders it: after
    :func:`mkdocs_adr.parsing.bounds.render_safe`, with :data:`RENDER_EXTENSIONS`."""
    import markdown

    from mkdocs_adr.parsing import bounds

    text = data.decode("utf-8").lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    body = text.split("\n", body_start - 1)[-1] if body_start > 1 else text
    markdown.markdown(bounds.render_safe(body) or body, extensions=list(RENDER_EXTENSIONS))


def _job_log(files: Sequence[tuple[str, bytes]]) -> None:
    from mkdocs_adr import report
    from mkdocs_adr.config import Config
    from mkdocs_adr.log import load

    with tempfile.TemporaryDirectory(prefix="adr-fuzz-") as tmp:
        root = Path(tmp) / "docs" / "adr"
        root.mkdir(parents=True)
        for name, data in files:
            (root / name).write_bytes(data)
        log = load(Config(project_dir=Path(tmp), docs_dir=Path(tmp) / "docs"))
        data = report.build(log)
        json.dumps(data)
        report.render_text(data, verbose=True)


def _job_sleep(seconds: float) -> None:
    time.sleep(seconds)


_OPTIONS: Any = None


def serve(memory_mb: int) -> None:
    """The worker's loop: answer each job with ``(outcome, detail, maxrss_kb)``."""
    global _OPTIONS
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.path.insert(0, str(REPO))
    out = os.fdopen(os.dup(1), "wb")
    inp = os.fdopen(os.dup(0), "rb")
    os.dup2(2, 1)  # prints from the engine go to stderr, never into the protocol
    _OPTIONS = _options()
    faulthandler.enable()  # a segfault or abort leaves its stack on stderr
    faulthandler.register(signal.SIGUSR1, all_threads=False)  # the parent asks on a hang
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    while True:
        try:
            job = _recv(inp)
        except EOFError:
            return
        kind, args = job
        try:
            if kind == "parse":
                _job_parse(*args)
            elif kind == "log":
                _job_log(*args)
            elif kind == "sleep":  # the detector's own test: a job that hangs
                _job_sleep(*args)
            elif kind == "raise":  # ... and one that crashes
                raise RuntimeError("asked to")
            else:
                raise ValueError(f"unknown job {kind!r}")
            answer: tuple[str, str, str] = ("ok", "", "")
        except MemoryError as exc:
            answer = ("crash", signature(exc), "MemoryError (over the worker's memory limit)")
        except BaseException as exc:
            answer = ("crash", signature(exc), "".join(traceback.format_exception(exc)))
        _send(out, (*answer, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


class Worker:
    """A worker subprocess answering jobs under a wall-clock guard; restarted after a
    hang or a death. ``peak_kb`` is the largest ru_maxrss any of its processes had."""

    def __init__(self, guard: float, memory_mb: int = 1024) -> None:
        self.guard = guard
        self.memory_mb = memory_mb
        self.proc: subprocess.Popen[bytes] | None = None
        self.peak_kb = 0
        self.peak_job = ""
        # the worker's stderr, where faulthandler dumps its stack on a hang
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        path = [str(REPO), env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(p for p in path if p)
        return subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import benchmarks.fuzz as f, sys; f.serve(int(sys.argv[1]))",
                str(self.memory_mb),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=env,
            start_new_session=True,  # a Ctrl-C stops the fuzzer, which then stops this
        )

    def run(self, kind: str, args: tuple[Any, ...], label: str = "") -> tuple[str, str, str]:
        """``("ok", "", "")``, ``("crash", signature, traceback)`` or ``("hang", ...)``."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        mark = self.stderr.seek(0, os.SEEK_END)
        try:
            _send(proc.stdin, (kind, args))
        except BrokenPipeError:
            return self._died(kind, mark)
        ready, _, _ = select.select([proc.stdout], [], [], self.guard)
        if not ready:
            stack = self._stack(proc, mark)
            self.stop()
            return ("hang", f"{kind} over the {self.guard:g} s guard {hang_site(stack)}", stack)
        try:
            outcome, sig, detail, rss = _recv(proc.stdout)
        except (EOFError, pickle.UnpicklingError, struct.error):
            return self._died(kind, mark)
        if rss > self.peak_kb:
            self.peak_kb, self.peak_job = rss, label
        return outcome, sig, detail

    def _stack(self, proc: subprocess.Popen[bytes], mark: int) -> str:
        """The hung worker's Python stack, dumped by faulthandler on SIGUSR1."""
        with contextlib.suppress(OSError):
            proc.send_signal(signal.SIGUSR1)
        text = ""
        for _ in range(20):  # the dump is written from the signal handler, at once
            time.sleep(0.1)
            self.stderr.seek(mark)
            text = self.stderr.read().decode("utf-8", "replace")
            if "File " in text:
                break
        return text[-6000:]

    def _died(self, kind: str, mark: int) -> tuple[str, str, str]:
        code = self.stop()
        how = f"signal {signal.Signals(-code).name}" if code and code < 0 else f"exit {code}"
        self.stderr.seek(mark)
        stack = self.stderr.read().decode("utf-8", "replace")[-6000:]
        return ("crash", f"worker died ({how}) in {kind} {hang_site(stack)}", stack)

    def stop(self) -> int | None:
        proc, self.proc = self.proc, None
        if proc is None:
            return None
        with contextlib.suppress(OSError):
            proc.kill()
        code = proc.wait()
        for fh in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError):
                if fh is not None:
                    fh.close()
        return code

    def __enter__(self) -> Worker:
        return self

    def close(self) -> None:
        self.stop()
        self.stderr.close()

    def __exit__(self, *exc: object) -> None:
        self.close()


# -------------------------------------------------------------------- minimize


def minimize(s: Spec, fails: Callable[[Spec], bool], budget: int) -> Spec:
    """The smallest spec that still ``fails``: each poisoned field put back to its
    ordinary value, CRLF and BOM dropped, then each piece's size halved, while the
    failure persists and ``budget`` trials remain."""
    trials = 0

    def attempt(candidate: Spec) -> bool:
        nonlocal trials
        if trials >= budget:
            return False
        trials += 1
        return fails(candidate)

    for i in range(len(s.poison) - 1, -1, -1):
        if len(s.poison) > 1:
            fewer = Spec(s.shape, s.poison[:i] + s.poison[i + 1 :], s.crlf, s.bom)
            if attempt(fewer):
                s = fewer
    for flag in ("crlf", "bom"):
        if getattr(s, flag):
            plain = Spec(s.shape, s.poison, **{"crlf": s.crlf, "bom": s.bom, flag: False})
            if attempt(plain):
                s = plain
    changed = True
    while changed and trials < budget:
        changed = False
        for i, (f, p, n) in enumerate(s.poison):
            if n <= 1:
                continue
            smaller = Spec(
                s.shape, (*s.poison[:i], (f, p, n // 2), *s.poison[i + 1 :]), s.crlf, s.bom
            )
            if attempt(smaller):
                s, changed = smaller, True
    return s


# ------------------------------------------------------------------------- run


@dataclass
class Failure:
    kind: str  # "crash" or "hang"
    stage: str
    signature: str
    detail: str
    first: str  # what failed first (a record index and spec, or a build)
    count: int = 1
    reproducer: str = ""


@dataclass
class Report:
    records: int = 0
    logs: int = 0
    builds: int = 0
    skipped: int = 0
    stopped_at: int | None = None
    failures: dict[tuple[str, str, str], Failure] = field(default_factory=dict)
    seconds: float = 0.0
    peak_kb: int = 0
    peak_job: str = ""

    def add(self, kind: str, stage: str, sig: str, detail: str, first: str) -> Failure | None:
        key = (kind, stage, sig)
        if key in self.failures:
            self.failures[key].count += 1
            return None
        self.failures[key] = f = Failure(kind, stage, sig, detail, first)
        return f

    @property
    def crashes(self) -> int:
        return sum(f.count for f in self.failures.values() if f.kind == "crash")

    @property
    def hangs(self) -> int:
        return sum(f.count for f in self.failures.values() if f.kind == "hang")

    def to_json(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "logs": self.logs,
            "builds": self.builds,
            "skipped_known_hangs": self.skipped,
            "stopped_at": self.stopped_at,
            "crashes": self.crashes,
            "hangs": self.hangs,
            "seconds": round(self.seconds, 1),
            "peak_memory_mb": round(self.peak_kb / 1024, 1),
            "peak_job": self.peak_job,
            "failures": [vars(f) | {"detail": f.detail[-2000:]} for f in self.failures.values()],
        }


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:60] or "x"


class Fuzzer:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Path(args.out)
        self.report = Report()
        self.worker = Worker(args.guard, args.memory_mb)
        self.hang_pieces: dict[tuple[str, str], int] = {}
        self.started = time.monotonic()

    def log(self, msg: str) -> None:
        if not self.args.quiet:
            print(msg, file=sys.stderr, flush=True)

    # -- records
    def _known_hang(self, s: Spec) -> bool:
        return any(
            self.hang_pieces.get((f, p), 0) >= self.args.hang_repeats for f, p, _ in s.poison
        )

    def parse_record(self, index: int) -> tuple[str, bytes] | None:
        seed = self.args.seed
        s = spec(seed, index)
        name = SHAPE[s.shape].file_name.format(n=index % 10000)
        if self._known_hang(s):
            self.report.skipped += 1
            return None
        data = s.render()
        label = f"record {index} ({s.describe()})"
        render = bool(self.args.render_every) and index % self.args.render_every == 0
        outcome, sig, detail = self.worker.run("parse", (data, f"docs/adr/{name}", render), label)
        self.report.records += 1
        if outcome == "ok":
            return name, data
        if outcome == "hang":
            for f, p, _ in s.poison:
                self.hang_pieces[(f, p)] = self.hang_pieces.get((f, p), 0) + 1
        new = self.report.add(outcome, "parse", sig, detail, label)
        self.log(f"{outcome}: {label}: {sig}")
        if new is not None:
            self._reproduce(new, s, name, outcome, sig, render)
        return None

    def _reproduce(
        self, failure: Failure, s: Spec, name: str, outcome: str, sig: str, render: bool
    ) -> None:
        def fails(candidate: Spec) -> bool:
            data = candidate.render()
            args = (data, f"docs/adr/{name}", render)
            got, got_sig, _ = self.worker.run("parse", args, "minimize")
            return got == outcome and got_sig == sig

        budget = self.args.minimize_hangs if outcome == "hang" else self.args.minimize
        small = minimize(s, fails, budget)
        self.out.mkdir(parents=True, exist_ok=True)
        n = len(self.report.failures)
        stem = f"{n:03d}-{outcome}-{_slug(sig)}"
        (self.out / f"{stem}.md").write_bytes(small.render())
        (self.out / f"{stem}.txt").write_text(
            f"{outcome}: {sig}\nstage: parse\nfirst: {failure.first}\n"
            f"minimized: {small.describe()}\nfile name: {name}\n"
            f"reproduce: parse_bytes(open({stem + '.md'!r}, 'rb').read(), ...)\n\n{failure.detail}",
            encoding="utf-8",
        )
        failure.reproducer = str(self.out / f"{stem}.md")

    # -- logs and builds
    def run_log(self, number: int, files: list[tuple[str, bytes]], first: int) -> None:
        files = _unique_names(files)
        label = f"log {number} (records {first}..{first + self.args.log_size - 1})"
        outcome, sig, detail = self.worker.run("log", (files,), label)
        self.report.logs += 1
        if outcome != "ok":
            new = self.report.add(outcome, "log", sig, detail, label)
            self.log(f"{outcome}: {label}: {sig}")
            if new is not None:
                new.reproducer = str(self._save_log(f"log-{number}", files))

    def _save_log(self, name: str, files: list[tuple[str, bytes]]) -> Path:
        folder = self.out / name / "docs" / "adr"
        folder.mkdir(parents=True, exist_ok=True)
        for fname, data in files:
            (folder / fname).write_bytes(data)
        return folder.parent.parent

    def run_build(self, number: int, files: list[tuple[str, bytes]]) -> None:
        files = _unique_names(files)
        label = f"build of log {number}"
        with tempfile.TemporaryDirectory(prefix="adr-fuzz-site-") as tmp:
            proj = Path(tmp)
            root = proj / "docs" / "adr"
            root.mkdir(parents=True)
            (proj / "docs" / "index.md").write_text("# Fuzz\n", encoding="utf-8")
            for name, data in files:
                (root / name).write_bytes(data)
            (proj / "mkdocs.yml").write_text(
                "site_name: Fuzz\nplugins:\n  - adr:\n      fail_on: never\n", encoding="utf-8"
            )
            env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
            limit = self.args.memory_mb * 1024 * 1024

            def cap() -> None:  # pragma: no cover - runs in the child
                if limit:
                    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

            self.report.builds += 1
            command = [sys.executable, "-X", "faulthandler", "-m", "mkdocs", "build", "-q"]
            proc = subprocess.Popen(
                [*command, "--site-dir", str(proj / "site")],
                cwd=proj,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                preexec_fn=cap,
            )
            try:
                _out, err = proc.communicate(timeout=self.args.build_guard)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGABRT)  # faulthandler prints the stack, then it dies
                try:
                    _out, err = proc.communicate(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    _out, err = proc.communicate()
                sig = f"mkdocs build over the {self.args.build_guard:g} s guard {hang_site(err)}"
                new = self.report.add("hang", "build", sig, err[-6000:], label)
                self.log(f"hang: {label}: {sig}")
                if new is not None:
                    new.reproducer = str(self._save_site(number, files, proj))
                return
            finally:
                rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                if rss > self.report.peak_kb:
                    self.report.peak_kb, self.report.peak_job = rss, label
            if proc.returncode != 0 or "Traceback" in err:
                lines = [ln for ln in err.splitlines() if ln.strip()]
                sig = f"mkdocs build exit {proc.returncode}: " + (lines[-1][:200] if lines else "")
                new = self.report.add("crash", "build", sig, err[-4000:], label)
                self.log(f"crash: {label}: {sig}")
                if new is not None:
                    new.reproducer = str(self._save_site(number, files, proj))

    def _save_site(self, number: int, files: list[tuple[str, bytes]], proj: Path) -> Path:
        saved = self._save_log(f"build-{number}", files)
        shutil.copy(proj / "mkdocs.yml", saved / "mkdocs.yml")
        (saved / "docs" / "index.md").write_text("# Fuzz\n", encoding="utf-8")
        return saved

    def run(self) -> Report:
        a = self.args
        logs_total = max(1, a.records // a.log_size)
        build_every = max(1, logs_total // a.builds) if a.builds else 0
        batch: list[tuple[str, bytes]] = []
        first = 0
        number = 0
        with self.worker, contextlib.suppress(KeyboardInterrupt):
            for index in range(a.records):
                self.report.stopped_at = index  # until the loop ends
                if a.max_failures and self.report.crashes + self.report.hangs >= a.max_failures:
                    self.log(f"stopped at record {index}: --max-failures {a.max_failures}")
                    break
                got = self.parse_record(index)
                if got is not None:
                    batch.append(got)
                if (index + 1) % a.log_size == 0 or index + 1 == a.records:
                    if batch:
                        self.run_log(number, batch, first)
                        if (
                            build_every
                            and number % build_every == build_every // 2
                            and (self.report.builds < a.builds)
                        ):
                            self.run_build(number, batch)
                    number += 1
                    batch, first = [], index + 1
                if (index + 1) % 5000 == 0:
                    self.log(
                        f"{index + 1} records, {self.report.crashes} crashes, "
                        f"{self.report.hangs} hangs, {time.monotonic() - self.started:.0f} s"
                    )
            else:
                self.report.stopped_at = None
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # killed ones too
        if children > max(self.worker.peak_kb, self.report.peak_kb):
            self.report.peak_kb, self.report.peak_job = children, "a worker killed on a hang"
        if self.worker.peak_kb > self.report.peak_kb:
            self.report.peak_kb, self.report.peak_job = self.worker.peak_kb, self.worker.peak_job
        self.report.seconds = time.monotonic() - self.started
        return self.report


def _unique_names(files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    seen: set[str] = set()
    out = []
    for name, data in files:
        while name in seen:
            name = name.replace(".md", "-b.md")
        seen.add(name)
        out.append((name, data))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--guard", type=float, default=20.0, help="seconds a job may take")
    parser.add_argument(
        "--build-guard", type=float, default=180.0, help="seconds a mkdocs build may take"
    )
    parser.add_argument("--log-size", type=int, default=50, help="records per loaded log")
    parser.add_argument("--builds", type=int, default=4, help="real mkdocs builds of sampled logs")
    parser.add_argument(
        "--render-every",
        type=int,
        default=10,
        help="render every N-th record's page through Python-Markdown (0: none)",
    )
    parser.add_argument("--memory-mb", type=int, default=1024, help="address-space cap per child")
    parser.add_argument("--minimize", type=int, default=40, help="trials to shrink a crash")
    parser.add_argument("--minimize-hangs", type=int, default=2, help="trials to shrink a hang")
    parser.add_argument(
        "--hang-repeats",
        type=int,
        default=3,
        help="after this many hangs of one (field, piece), skip records that have it",
    )
    parser.add_argument(
        "--max-failures", type=int, default=0, help="stop after this many (0: never stop)"
    )
    parser.add_argument("--out", default="fuzz-out", help="folder for reproducers")
    parser.add_argument("--json", help="write the report here as JSON")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # the run ends, its worker killed, its report written

    signal.signal(signal.SIGTERM, stop)
    report = Fuzzer(args).run()
    data = report.to_json()
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=2), encoding="utf-8")
    print(
        f"{data['records']:,} records ({data['skipped_known_hangs']:,} skipped as known hangs), "
        f"{data['logs']:,} logs, {data['builds']} builds in {data['seconds']} s: "
        f"{data['crashes']} crashes, {data['hangs']} hangs, "
        f"peak memory {data['peak_memory_mb']} MB ({data['peak_job']})"
    )
    for f in report.failures.values():
        print(f"  {f.kind} x{f.count} [{f.stage}] {f.signature}")
        print(f"      first: {f.first}")
        if f.reproducer:
            print(f"      reproducer: {f.reproducer}")
    return 1 if report.crashes or report.hangs else 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    raise SystemExit(main())
