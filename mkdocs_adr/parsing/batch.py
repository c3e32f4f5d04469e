"""Parse many files at once, on two cores when that is safe and pays.

Parsing is pure, so a log can be split: a forked child parses the second half
of the files while this process parses the first, then sends its results
back, pickled, through a pipe (one transfer of about 1.4 KB a record), each reading
as plain tuples (:mod:`.lean`: the model classes' reducers cost both halves more). On the
10,000-record benchmark log, with the second core idle, ``plan`` went from
about 1.42 s to 1.10-1.19 s of wall time (ADR-0009).

A fork is only made where it is safe and worth it: on Linux, with at least
two usable CPUs and a load average that leaves one of them idle, with no other
thread running (forking a threaded process can deadlock the child; ``mkdocs
serve`` runs threads, so it always parses here), and for at least
:data:`PARALLEL_MIN` files. Whatever goes wrong in the child
(an exception, a kill, a short read) makes this process parse that half
itself: the result is always the same list.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from collections.abc import Sequence

from ..model import Parsed
from .lean import lean, unlean
from .options import ParseOptions
from .reader import parse_bytes

#: Fewer files than this are parsed here: forking costs about 10-20 ms.
PARALLEL_MIN = 2000


def parse_many(jobs: Sequence[tuple[bytes, str]], options: ParseOptions) -> list[Parsed]:
    """``[parse_bytes(data, path=path, options=options) for data, path in jobs]``."""
    if len(jobs) >= PARALLEL_MIN and _can_fork():
        return _parse_forked(jobs, options)
    return _parse_here(jobs, options)


def _parse_here(jobs: Sequence[tuple[bytes, str]], options: ParseOptions) -> list[Parsed]:
    return [parse_bytes(data, path=path, options=options) for data, path in jobs]


def _can_fork() -> bool:
    if sys.platform != "linux" or threading.active_count() != 1:
        return False
    try:
        cpus = len(os.sched_getaffinity(0))
        busy = os.getloadavg()[0]  # this process counts as about one
    except (AttributeError, OSError):  # pragma: no cover - not on Linux
        return False
    # On a machine whose other cores are busy the two halves only take turns.
    return cpus >= 2 and busy < cpus - 0.5


def _parse_forked(jobs: Sequence[tuple[bytes, str]], options: ParseOptions) -> list[Parsed]:
    half = len(jobs) // 2
    try:
        read_end, write_end = os.pipe()
        pid = os.fork()
    except OSError:
        return _parse_here(jobs, options)
    if pid == 0:  # the child: parse the second half, send it, and leave at once
        status = 1
        try:
            os.close(read_end)
            readings = [lean(p) for p in _parse_here(jobs[half:], options)]
            data = pickle.dumps(readings, pickle.HIGHEST_PROTOCOL)
            with open(write_end, "wb") as out:
                out.write(data)
            status = 0
        finally:
            # no atexit handlers, no flushing of buffers this process inherited
            os._exit(status)
    os.close(write_end)
    theirs: list[Parsed] | None = None
    pipe = open(read_end, "rb")  # noqa: SIM115 - closed before the wait below
    try:
        mine = _parse_here(jobs[:half], options)
        data = pipe.read()
    finally:
        pipe.close()  # first: a child still writing gets EPIPE and leaves
        _, status = os.waitpid(pid, 0)
    if status == 0:
        try:
            loaded = [unlean(t) for t in pickle.loads(data)]
        except Exception:  # any bad transfer: parse that half here
            loaded = None
        if loaded is not None and len(loaded) == len(jobs) - half:
            theirs = loaded
    if theirs is None:
        theirs = _parse_here(jobs[half:], options)
    return mine + theirs
