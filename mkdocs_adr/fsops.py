"""Crash-safe file primitives: atomic writes, directory fsync, the project lock.

Every write mkdocs-adr makes to a user's tree goes through :func:`atomic_write`
(temp file beside the target, flush, fsync, ``os.replace``, fsync the folder),
so a reader sees the old bytes or the new bytes, never half of either.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import rx
from .errors import LockHeld, Refused


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


#: Errors that mean "no file can be at this path": a missing file or folder, a folder
#: on the way that is a file, a name longer than the file system takes.
_ABSENT = (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG)


def sha256_file(path: Path) -> str | None:
    """Exact-bytes hash of a file, or None when it does not (or cannot) exist.

    A folder hashes to ``"directory"``; a path that exists but cannot be read
    (a symlink loop, no permission) to ``"unreadable"``: neither equals any
    hash a plan records, so a step over them is refused, never carried out.
    """
    try:
        return sha256_bytes(path.read_bytes())
    except IsADirectoryError:
        return "directory"
    except OSError as exc:
        if exc.errno in _ABSENT:
            return None
        return "unreadable"


# --------------------------------------------------------------------- probes
#
# Paths built from record text (a link's target, a file name from a title) may
# name what no file system can hold: a name over 255 bytes (ENAMETOOLONG), a
# folder that is a file (ENOTDIR), a symlink loop (ELOOP), a folder without
# permission (EACCES). ``Path.exists`` raises for some of them; these answer
# "no" instead, so no such link crashes a command.


def exists(path: Path) -> bool:
    """``path.exists()``, but False for any path the OS cannot look at."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def is_file(path: Path) -> bool:
    """``path.is_file()``, but False for any path the OS cannot look at."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def is_symlink(path: Path) -> bool:
    """``path.is_symlink()``, but False for any path the OS cannot look at."""
    try:
        return path.is_symlink()
    except (OSError, ValueError):
        return False


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


#: The name of :func:`atomic_write`'s temp file: ``.<name>.tmp-<pid>-<ns>``.
_TEMP_NAME = rx.compile(r"\.(?P<name>.+)\.tmp-(?P<pid>[0-9]{1,10})-[0-9]{1,25}")


def temp_name(path: Path) -> str:
    """The name of a fresh temp file for writing ``path`` (beside it)."""
    return f".{path.name}.tmp-{os.getpid()}-{time.monotonic_ns()}"


def is_leftover_temp(name: str, target: str | None = None) -> bool:
    """Whether ``name`` is an :func:`atomic_write` temp file (of ``target``, when given)
    whose writer no longer runs: what a killed write leaves behind."""
    found = _TEMP_NAME.fullmatch(name)
    if found is None or (target is not None and found["name"] != target):
        return False
    pid = int(found["pid"])
    return pid != os.getpid() and not _pid_alive(pid)


def leftover_temps(target: Path) -> list[Path]:
    """The temp files a killed :func:`atomic_write` of ``target`` left beside it."""
    try:
        with os.scandir(target.parent) as it:
            names = sorted(e.name for e in it if e.is_file(follow_symlinks=False))
    except OSError:
        return []
    return [target.parent / n for n in names if is_leftover_temp(n, target.name)]


def temps_under(folders: list[Path], *, skip: Path | None = None) -> list[Path]:
    """Every leftover temp file (see :func:`is_leftover_temp`) in ``folders`` and the
    folders below them (``skip`` and ``.git``-like dot folders left out), sorted."""
    found: set[Path] = set()
    for top in folders:
        for here, dirs, names in os.walk(top):
            dirs[:] = [
                d
                for d in dirs
                if not d.startswith(".") and (skip is None or Path(here) / d != skip)
            ]
            found.update(Path(here) / n for n in names if is_leftover_temp(n))
    return sorted(found)


def remove_leftover_temps(targets: list[Path]) -> list[Path]:
    """Remove what killed writes of ``targets`` left; return the files removed."""
    removed: list[Path] = []
    for target in targets:
        for tmp in leftover_temps(target):
            try:
                tmp.unlink()
            except OSError:
                continue
            removed.append(tmp)
            fsync_dir(tmp.parent)
    return removed


def atomic_write(
    path: Path, data: bytes | tuple[bytes, ...], *, make_parents: bool = False
) -> None:
    """Replace ``path`` with ``data`` (bytes, or parts written one after the other, which
    spares joining a large file in memory first) atomically, keeping an existing file's
    mode.

    The bytes go to :func:`temp_name` beside ``path`` first; a process killed
    before the rename leaves that file, which :func:`remove_leftover_temps`
    (run by a resume and a rollback) removes.
    """
    folder = path.parent
    if make_parents:
        folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / temp_name(path)
    mode = None
    with contextlib.suppress(FileNotFoundError):
        mode = path.stat().st_mode & 0o7777
    try:
        with open(tmp, "xb") as fh:
            if isinstance(data, tuple):
                fh.writelines(data)
            else:
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
    if exists(dst) or is_symlink(dst):
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


#: The file beside ``lock`` that serializes taking the lock (never removed).
GUARD_NAME = "lock.guard"


@contextlib.contextmanager
def _guard(work_dir: Path) -> Iterator[None]:
    """Hold ``work_dir/lock.guard`` exclusively for the few calls of a take or release.

    An advisory ``flock``: the kernel lets go of it when its holder dies, so the
    guard itself can never go stale. Every process that creates, takes over or
    removes ``lock`` does so inside the guard, so checking that a holder is dead
    and replacing its lock is one step for every other process (ADR-0032).
    Where ``fcntl`` does not exist (Windows) the guard serializes nothing and
    only the exclusive create of ``lock`` protects it.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - platforms without flock
        yield
        return
    try:
        fd = os.open(work_dir / GUARD_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:  # the work dir vanished or is read-only: the lock file decides alone
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the last descriptor releases the flock


@contextlib.contextmanager
def project_lock(work_dir: Path, purpose: str, *, timeout: float = 0.0) -> Iterator[Path]:
    """Hold ``work_dir/lock`` (exclusive create); a dead holder's lock is taken over.

    While another live process holds it, wait up to ``timeout`` seconds (by
    default not at all), then raise :class:`~mkdocs_adr.errors.LockHeld`.
    Taking and releasing happen inside :func:`_guard`, so two processes that
    both find a stale lock cannot both take it over.
    """
    import socket  # (only a lock asks for the host: a cold run's pack write does not)

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
            with _guard(work_dir):
                _take(lock, me)
            break
        except LockHeld:
            if time.monotonic() >= deadline:
                raise
            time.sleep(LOCK_POLL)
    try:
        yield lock
    finally:
        with _guard(work_dir):
            if _read_lock(lock) == me:
                with contextlib.suppress(FileNotFoundError):
                    lock.unlink()


def _take(lock: Path, me: dict[str, object]) -> None:
    """One try at the lock, inside the guard: create it, or take over a dead holder's.

    :class:`~mkdocs_adr.errors.LockHeld` while a live holder has it. The new
    lock is written under a fresh name and linked into place (``os.link`` fails
    when ``lock`` exists), so ``lock`` never exists without its holder's record:
    a reader sees no lock, the stale holder's or the new holder's, never an
    empty file.
    """
    payload = json.dumps(me, sort_keys=True).encode()
    _remove_dead_fresh(lock.parent)
    fresh = lock.with_name(f"{_FRESH}{os.getpid()}-{time.monotonic_ns()}")
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        try:
            os.write(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
        for _attempt in range(2):
            try:
                os.link(fresh, lock)
            except FileExistsError:
                holder = _read_lock(lock)
                if _stale(lock, holder, me):
                    with contextlib.suppress(FileNotFoundError):
                        lock.unlink()
                    continue
                raise LockHeld(
                    f"the project lock is held by {_who(holder)}",
                    path=str(lock),
                    fix="wait for it to finish; if no mkdocs-adr process runs, "
                    "delete the lock file",
                ) from None
            except OSError:  # no hard links here (some network or FAT file systems)
                _create_in_place(lock, payload, me)
            fsync_dir(lock.parent)
            return
    finally:
        with contextlib.suppress(OSError):
            fresh.unlink()
    raise LockHeld("could not take the project lock", path=str(lock))  # pragma: no cover


#: The name of a lock record before it is linked into place: ``.lock.new-<pid>-<ns>``.
_FRESH = ".lock.new-"


def _remove_dead_fresh(folder: Path) -> None:
    """Remove the unlinked lock records of takers killed mid-take (inside the guard)."""
    try:
        with os.scandir(folder) as it:
            names = [e.name for e in it if e.name.startswith(_FRESH)]
    except OSError:
        return
    for name in names:
        pid = name[len(_FRESH) :].partition("-")[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _pid_alive(int(pid)):
            with contextlib.suppress(OSError):
                (folder / name).unlink()


def _create_in_place(lock: Path, payload: bytes, me: dict[str, object]) -> None:
    """Exclusive create of ``lock`` itself, for file systems without hard links."""
    for _attempt in range(2):
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            holder = _read_lock(lock)
            if _stale(lock, holder, me):
                with contextlib.suppress(FileNotFoundError):
                    lock.unlink()
                continue
            raise LockHeld(f"the project lock is held by {_who(holder)}", path=str(lock)) from None
        try:
            os.write(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
        return
    raise LockHeld("could not take the project lock", path=str(lock))  # pragma: no cover


def _stale(lock: Path, holder: dict[str, object] | None, me: dict[str, object]) -> bool:
    """A lock whose holder is dead on this host, or an unreadable one over a minute old."""
    if holder is None:
        return _older_than(lock, 60)
    pid = holder.get("pid")
    return holder.get("host") == me["host"] and isinstance(pid, int) and not _pid_alive(pid)


def _who(holder: dict[str, object] | None) -> str:
    if not holder:
        return "another process"
    return f"pid {holder.get('pid')} ({holder.get('purpose')}) since {holder.get('since')}"


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
