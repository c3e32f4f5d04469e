"""Crash-safe file primitives: atomic writes, directory fsync, the project lock.

Every write mkdocs-adr makes to a user's tree goes through :func:`atomic_write`
(temp file beside the target, flush, fsync, ``os.replace``, fsync the folder),
so a reader sees the old bytes or the new bytes, never half of either.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .errors import LockHeld, Refused


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str | None:
    """Exact-bytes hash of a file, or None when it does not exist."""
    try:
        return sha256_bytes(path.read_bytes())
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        return "directory"


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes, *, make_parents: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically, keeping an existing file's mode."""
    folder = path.parent
    if make_parents:
        folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{path.name}.tmp-{os.getpid()}-{time.monotonic_ns()}"
    mode = None
    with contextlib.suppress(FileNotFoundError):
        mode = path.stat().st_mode & 0o7777
    try:
        with open(tmp, "xb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(folder)


def atomic_move(src: Path, dst: Path) -> None:
    """Rename ``src`` to ``dst`` (same file system), creating ``dst``'s folder.

    Refuses to replace an existing ``dst``: a move never overwrites.
    """
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists() or dst.is_symlink():
        raise Refused(f"{dst} already exists; a move never overwrites", path=str(dst))
    os.rename(src, dst)
    fsync_dir(dst.parent)
    if src.parent != dst.parent:
        fsync_dir(src.parent)


# --------------------------------------------------------------------- the project lock


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


#: Seconds between two tries while waiting for the project lock.
LOCK_POLL = 0.05


@contextlib.contextmanager
def project_lock(work_dir: Path, purpose: str, *, timeout: float = 0.0) -> Iterator[Path]:
    """Hold ``work_dir/lock`` (exclusive create); a dead holder's lock is taken over.

    While another live process holds it, wait up to ``timeout`` seconds (by
    default not at all), then raise :class:`~mkdocs_adr.errors.LockHeld`.
    """
    work_dir.mkdir(parents=True, exist_ok=True)
    lock = work_dir / "lock"
    me = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "purpose": purpose,
        "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    deadline = time.monotonic() + timeout
    while True:
        try:
            _take(lock, me)
            break
        except LockHeld:
            if time.monotonic() >= deadline:
                raise
            time.sleep(LOCK_POLL)
    try:
        yield lock
    finally:
        if _read_lock(lock) == me:
            with contextlib.suppress(FileNotFoundError):
                lock.unlink()


def _take(lock: Path, me: dict[str, object]) -> None:
    """One try at the lock: create it, or take over a dead holder's; LockHeld otherwise."""
    payload = json.dumps(me, sort_keys=True).encode()
    for _attempt in range(2):
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            holder = _read_lock(lock)
            pid = holder.get("pid") if holder is not None else None
            stale = (
                holder is not None
                and holder.get("host") == me["host"]
                and isinstance(pid, int)
                and not _pid_alive(pid)
            )
            if stale or (holder is None and _older_than(lock, 60)):
                with contextlib.suppress(FileNotFoundError):
                    lock.unlink()
                continue
            who = (
                f"pid {holder.get('pid')} ({holder.get('purpose')}) since {holder.get('since')}"
                if holder
                else "another process"
            )
            raise LockHeld(
                f"the project lock is held by {who}",
                path=str(lock),
                fix="wait for it to finish; if no mkdocs-adr process runs, delete the lock file",
            ) from None
        try:
            os.write(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
        return
    raise LockHeld("could not take the project lock", path=str(lock))  # pragma: no cover


@dataclass(frozen=True)
class LockHolder:
    """Who holds ``work_dir/lock``, as far as its file tells (for ``mkdocs-adr status``)."""

    path: Path
    holder: dict[str, object]  # pid, host, purpose, since; empty when unreadable
    alive: bool | None  # whether that pid runs here; None when the file names none


def lock_holder(work_dir: Path) -> LockHolder | None:
    """The project lock's holder, or None when the lock is free."""
    lock = work_dir / "lock"
    if not lock.exists():
        return None
    holder = _read_lock(lock) or {}
    pid = holder.get("pid")
    return LockHolder(lock, holder, _pid_alive(pid) if isinstance(pid, int) else None)


def _read_lock(lock: Path) -> dict[str, object] | None:
    try:
        data = json.loads(lock.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _older_than(path: Path, seconds: float) -> bool:
    try:
        return time.time() - path.stat().st_mtime > seconds
    except OSError:
        return True
