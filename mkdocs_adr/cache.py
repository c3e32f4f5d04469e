"""The parse cache on disk: parsed records kept outside the project, by content hash.

Every front end reads a log through :func:`mkdocs_adr.log.load`, which asks this
module for the parsed records of an earlier run before parsing anything, so a
warm ``plan``, ``check``, ``context``, ``find``, MCP call or site build reads and
hashes the files and parses only those that changed (docs/adr/0044). A pack also
keeps the analysed log of the last run that parsed nothing, with the key of its
inputs and of the stat rows of the folders and files its walk met
(:func:`mkdocs_adr.log.walk_key`, over the paths :attr:`Pack.walked`): when those
still match, that log is the answer, and no folder is listed and no file read.

Where: ``$XDG_CACHE_HOME/mkdocs-adr`` when that is set (an absolute path), else the
platform's user cache folder (:func:`directory`). Nothing is ever written inside
the project.

What: one *pack* file per project and parse options, holding ``{(key, path):
Parsed}`` for the files of the last run (and that log). A pack is only used when its header
names the same format, package version, code stamp and parse options as this
run, and its checksum matches; anything else about it (missing, truncated,
foreign, corrupt, unreadable, another process writing it meanwhile) makes it an
empty pack: the files are parsed again and the result is the same. Writes are
atomic (:func:`mkdocs_adr.fsops.atomic_write`), the folder is pruned to
:data:`MAX_BYTES`, oldest first, and a write that fails is skipped silently.

Trust: packs are pickles, and unpickling runs code named in the file. A pack is
only read from the user's own cache folder, when the file belongs to the user
and nobody else may write it; whoever can write there can already run code as
the user.

Off: ``mkdocs-adr --no-cache`` (:func:`disabled`) or ``MKDOCS_ADR_NO_CACHE=1``.
"""

from __future__ import annotations

import contextlib
import copyreg
import dataclasses
import functools
import gc
import hashlib
import io
import json
import mmap
import os
import pickle
import sys
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .graph import Edge
from .model import Parsed, Problem, Record, Relation, Unit
from .parsing import ParseOptions
from .parsing.decoding import text_of
from .parsing.lean import lean as _lean
from .parsing.lean import unlean as _unlean

#: The environment variable that turns the cache off (any value but ``""``/``0``).
ENV_OFF = "MKDOCS_ADR_NO_CACHE"
#: The folder's size bound: beyond it the packs used longest ago are removed.
MAX_BYTES = 512 * 2**20
#: The first line of every pack; a change of layout changes it.
MAGIC = b"mkdocs-adr parse cache 5\n"
#: The first line of every site snapshot (:class:`Snapshot`).
SNAPSHOT_MAGIC = b"mkdocs-adr site snapshot 1\n"
#: The package folder, whose files' names, sizes and times make the code stamp.
_PACKAGE = Path(__file__).resolve().parent

Key = tuple[str, str]

_off = False


def directory(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """The cache folder: ``$XDG_CACHE_HOME/mkdocs-adr`` when that is an absolute path
    (the XDG rule: a relative one is ignored), else the platform's user cache folder:
    ``~/Library/Caches/mkdocs-adr`` on macOS, ``%LOCALAPPDATA%\\mkdocs-adr\\Cache`` on
    Windows, ``~/.cache/mkdocs-adr`` elsewhere."""
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    xdg = env.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "mkdocs-adr"
    if platform == "win32":
        local = env.get("LOCALAPPDATA", "")
        base = Path(local) if local else Path.home() / "AppData" / "Local"
        return base / "mkdocs-adr" / "Cache"
    if platform == "darwin":
        return Path.home() / "Library" / "Caches" / "mkdocs-adr"
    return Path.home() / ".cache" / "mkdocs-adr"


def enabled() -> bool:
    """Whether loads use the disk cache: not under :func:`disabled`, nor with
    :data:`ENV_OFF` set."""
    return not _off and os.environ.get(ENV_OFF, "") in ("", "0")


@contextlib.contextmanager
def disabled(off: bool = True) -> Iterator[None]:
    """The disk cache turned off (when ``off``) for the loads made inside."""
    global _off
    before = _off
    _off = before or off
    try:
        yield
    finally:
        _off = before


def options_key(options: ParseOptions) -> list[object]:
    """The parse options as JSON data, in a stable order (sets sorted)."""
    out: list[object] = []
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if isinstance(value, frozenset | set):
            value = sorted(value)
        out.append([f.name, value])
    return out


@functools.cache
def code_stamp() -> str:
    """The version plus the name, size and time of every module of the package: any
    change of the code (an upgrade, an edit in a checkout) makes every pack stale."""
    # the package is imported before any of its modules (importing it here would be a cycle)
    version = str(getattr(sys.modules.get(__package__ or ""), "__version__", ""))
    rows: list[str] = [version, sys.version]
    for here, dirs, names in os.walk(_PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".json")):
                with contextlib.suppress(OSError):
                    st = os.stat(os.path.join(here, name))
                    rows.append(f"{here}/{name}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


def file_key(digest: str, data: bytes) -> str:
    """The content key of a file: its LF-normalized text hash (``digest``, which the
    log records), or, when the file has a CR, the hash of its raw bytes too (the
    normalization hides the CRs that a reading may count)."""
    if data.find(b"\r") != -1:  # (not ``in``, which raises and clears a TypeError)
        return digest + ":" + hashlib.sha256(data).hexdigest()
    return digest


class Pack:
    """The parsed records of one project and parse options, as a run found them on
    disk, and the analysed log of the last run that parsed nothing (with the key of
    its inputs); :meth:`save` writes back exactly the entries this run used.

    The log and the entries are two pickles, each with its checksum, and each is
    unpickled only when asked for (:attr:`log`, :attr:`entries`): a run whose stat
    rows vouch for the kept log reads the keys from the meta line and unpickles the
    log alone. The entries name the readings the log holds by the index of their
    record, so no reading is stored twice, and hold any other reading in its lean
    form (:func:`mkdocs_adr.parsing.lean.lean`: plain tuples, which pickle in C)
    without its text: :meth:`get` gives it back from the file's bytes, which the run
    has read to hash them (docs/adr/0061). The text is most of a reading's bytes, and
    a cold run pickled and wrote it only for the next run to read it again.
    """

    def __init__(self, project_dir: Path, options: ParseOptions) -> None:
        ident = json.dumps([str(project_dir), options_key(options)], sort_keys=True)
        self.header = json.dumps({"code": code_stamp(), "ident": ident}, sort_keys=True).encode()
        name = hashlib.sha256(ident.encode()).hexdigest()[:32]
        self.path = directory() / f"parse-{name}.pack"
        self._max_bytes = options.max_bytes
        #: The key of the inputs :attr:`log` was analysed from ("" when none).
        self.log_key = ""
        #: The key of the files' places and stat rows when the log was kept ("" when
        #: they could not vouch for the content: see :func:`mkdocs_adr.log.walk_key`).
        self.stat_key = ""
        #: Whether the pack held anything (readings or a log) when it was loaded.
        self.filled = False
        #: Each part of the body with its checksum, until it is first read.
        self._log_part: tuple[memoryview, object] | None = None
        self._entries_part: tuple[memoryview, object] | None = None
        self._walked_part: tuple[memoryview, object] | None = None
        self._walked: list[str] | None = None
        self._log: object = None
        self._entries: dict[Key, Parsed] | None = None
        #: The keys of the entries read back without their text (:meth:`get` fills it).
        self._textless: set[Key] = set()

    def load(self) -> None:
        """Read the pack's header and keys, or leave it empty when it cannot be trusted
        or used; the pickles wait until :attr:`log` or :attr:`entries` is read."""
        with contextlib.suppress(Exception):
            self._read()

    def _read(self) -> None:
        found = _read_file(self.path, MAGIC, self.header)
        if found is None:
            return
        meta, body = found
        crcs, lengths, log_key, stat_key, count = meta
        log_len, entries_len, walked_len = lengths
        if len(body) != log_len + entries_len + walked_len or type(log_key) is not str:
            return
        if type(stat_key) is not str or type(count) is not int:
            return
        # each part's checksum is checked when the part is first read: a replayed build
        # reads the kept log and the walked paths, never the readings
        self._log_part = (body[:log_len], crcs[0])
        self._entries_part = (body[log_len : log_len + entries_len], crcs[1])
        self._walked_part = (body[log_len + entries_len :], crcs[2])
        if log_len:
            self.log_key, self.stat_key = log_key, stat_key
        self.filled = bool(log_len) or bool(count and entries_len)
        _used(self.path)

    @property
    def log(self) -> object:
        """The kept analysed log (None when there is none or it cannot be read)."""
        if self._log_part is not None:
            pair, self._log_part = self._log_part, None
            self._log = _read_part(pair)
            if self._log is None:
                self.log_key = self.stat_key = ""
        return self._log

    @property
    def walked(self) -> list[str]:
        """The paths whose stat rows made :attr:`stat_key` (empty when none or unreadable)."""
        if self._walked is None:
            pair, self._walked_part = self._walked_part, None
            found = _read_part(pair)
            ok = isinstance(found, list) and all(type(p) is str for p in found)
            self._walked = found if isinstance(found, list) and ok else []
        return self._walked

    @property
    def entries(self) -> dict[Key, Parsed]:
        """The kept readings by (content key, path); empty when they cannot be read."""
        if self._entries is None:
            pair, self._entries_part = self._entries_part, None
            found = _read_part(pair)
            self._entries = {}
            if type(found) is dict:
                records = getattr(self.log, "records", ())
                with contextlib.suppress(Exception):
                    self._entries = {
                        key: records[value].parsed
                        if type(value) is int
                        else _unlean(value)
                        if type(value) is tuple
                        else value
                        for key, value in found.items()
                    }
                    self._textless = {k for k, v in found.items() if type(v) is tuple}
        return self._entries

    def get(self, key: Key, data: bytes) -> Parsed | None:
        """The kept reading of the file whose content key and path are ``key`` and whose
        bytes are ``data``, with its text (:func:`~mkdocs_adr.parsing.decoding.text_of`
        of those bytes: the same content key, the same text)."""
        found = self.entries.get(key)
        if type(found) is not Parsed:
            return None
        if key in self._textless:
            self._textless.discard(key)
            # a reading made here by unlean, shared with nothing yet: its text is set
            # as unpickling would set it (the class is frozen)
            found.__dict__["text"] = text_of(data, self._max_bytes)
        return found

    def save(
        self,
        entries: dict[Key, Parsed],
        *,
        log_key: str = "",
        stat_key: str = "",
        walked: list[str] | None = None,
        log: object = None,
    ) -> None:
        """Write ``entries`` (and the log analysed from inputs ``log_key``, whose walk
        over the paths ``walked`` had stat rows ``stat_key``) as the pack, atomically;
        on any failure, do nothing."""
        with contextlib.suppress(Exception):
            log_part = _pickled(log) if log is not None else b""
            held = {id(r.parsed): i for i, r in enumerate(getattr(log, "records", ()))}
            refs = {
                key: held.get(id(value)) if id(value) in held else _lean(value, text=False)
                for key, value in entries.items()
            }
            entries_part = _pickled(refs)
            kept = log is not None and stat_key and walked
            walked_part = _pickled(list(walked)) if kept and walked else b""
            parts = (log_part, entries_part, walked_part)
            meta = [
                [checksum(p) for p in parts],
                [len(p) for p in parts],
                log_key if log is not None else "",
                stat_key if kept else "",
                len(entries),
            ]
            _write_file(self.path, MAGIC, self.header, meta, parts)


class Snapshot:
    """What a site build made from one log, kept for the next build of the same site
    (docs/adr/0051): one file per project and configuration file, holding the key of
    everything those outputs were made from and one pickle. :meth:`load` gives it back
    only under the same key, code stamp and identity, with its checksum intact; a miss
    of any kind is None and the outputs are made again."""

    def __init__(self, project_dir: Path, ident: str) -> None:
        full = json.dumps([str(project_dir), ident], sort_keys=True)
        self.header = json.dumps({"code": code_stamp(), "ident": full}, sort_keys=True).encode()
        self.path = directory() / f"site-{hashlib.sha256(full.encode()).hexdigest()[:32]}.pack"

    def load(self, key: str) -> object:
        """The kept value when it was kept under ``key``, else None."""
        try:
            found = _read_file(self.path, SNAPSHOT_MAGIC, self.header)
            if found is None:
                return None
            (kept_key, crc), body = found
            if kept_key != key:
                return None
            part = _checked(body, crc)
            with gc_paused():  # a site's snapshot is as many objects as its log
                value = _unpickled(part) if part is not None else None
        except Exception:
            return None
        _used(self.path)
        return value

    def save(self, key: str, value: object) -> None:
        """Keep ``value`` under ``key``, atomically; on any failure, do nothing."""
        with contextlib.suppress(Exception):
            body = _pickled(value)
            _write_file(self.path, SNAPSHOT_MAGIC, self.header, [key, checksum(body)], (body,))


def _read_file(path: Path, magic: bytes, header: bytes) -> tuple[Any, memoryview] | None:
    """The meta line and the body of a cache file this user wrote (:func:`_trusted`) with
    this first line and header, or None; reading errors propagate to the caller."""
    with open(path, "rb", buffering=0) as fh:
        if not _trusted(os.fstat(fh.fileno())):
            return None
        # mapped, not read: the pickles are read once, in place, and a replayed build's
        # snapshot (megabytes) is not copied first. Files are replaced by renaming
        # (fsops.atomic_write), never rewritten in place, so a map stays whole.
        data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    head_end = data.find(b"\n", len(magic))
    if data[: len(magic)] != magic or head_end < 0 or data[len(magic) : head_end] != header:
        return None
    meta_end = data.find(b"\n", head_end + 1)
    return json.loads(data[head_end + 1 : meta_end]), memoryview(data)[meta_end + 1 :]


def _write_file(
    path: Path, magic: bytes, header: bytes, meta: Any, parts: tuple[bytes, ...]
) -> None:
    """Write a cache file (first line, header, meta line, body) atomically, then prune the
    folder; errors propagate to the caller, which skips the write."""
    from .fsops import atomic_write  # (a warm read writes nothing: not imported)

    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    head = b"".join((magic, header, b"\n", json.dumps(meta).encode(), b"\n"))
    atomic_write(path, (head, *parts))  # a cold run's pack is megabytes: not joined
    prune(path.parent, keep=path)


def _used(path: Path) -> None:
    """Mark a cache file used now: the folder is pruned by last use."""
    with contextlib.suppress(OSError):
        os.utime(path)


def checksum(data: bytes | memoryview) -> int:
    """The checksum a cache file keeps of each part (CRC-32; the writes are atomic, so it
    guards against damage, not against torn files; Adler-32 was measured no cheaper)."""
    return zlib.crc32(data)


def _checked(part: memoryview, crc: object) -> memoryview | None:
    """``part`` when it is not empty and its checksum is ``crc``."""
    return part if part and crc == checksum(part) else None


def _read_part(pair: tuple[memoryview, object] | None) -> object:
    """What a pack part holds, checked against its checksum first; None when there is
    no such part, it is empty, damaged, or cannot be unpickled."""
    part = _checked(*pair) if pair is not None else None
    return _unpickled(part) if part is not None else None


def _pickled(value: object) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _reducers()
    pickler.dump(value)
    return buffer.getvalue()


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a log or a snapshot is loaded.

    Loading allocates a few hundred thousand long-lived, acyclic objects; the
    collector kept re-scanning them and took about a third of the analysis
    time on 10,000 records. Reference counting still frees everything as
    usual; a cycle made meanwhile waits for the next collection.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        # Everything allocated meanwhile is in the youngest generation: the first
        # allocation after ``gc.enable`` would scan it all (60 ms for a 10,000-record
        # log just unpickled), and the next generation would again. Moved to the
        # oldest generation, it waits for a full collection like any long-lived data.
        gc.freeze()
        gc.unfreeze()
        if enabled:
            gc.enable()


def _unpickled(part: memoryview) -> object:
    """What ``part`` holds, or None when it cannot be unpickled."""
    try:
        return pickle.loads(part)
    except Exception:
        return None


@functools.cache
def _reducers() -> dict[type, Any]:
    """Pickle the slotted model classes as constructor calls: their own pickling calls
    ``dataclasses.fields`` once per object, which was most of a warm load's time. A
    :class:`Parsed` keeps its own pickling (a new object and its ``__dict__``, both
    rebuilt in C), without the fields that hold their default: the class attribute
    that the dataclass leaves for each default answers for them, and a 10,000-record
    log unpickles about a quarter fewer values."""

    def reducer(cls: type) -> Any:
        names = tuple(f.name for f in dataclasses.fields(cls))
        return lambda obj: (cls, tuple([getattr(obj, n) for n in names]))

    defaults = {
        f.name: f.default
        for f in dataclasses.fields(Parsed)
        if f.default is not dataclasses.MISSING and getattr(Parsed, f.name, None) is f.default
    }

    def parsed(obj: Parsed) -> Any:
        state = {
            k: v
            for k, v in obj.__dict__.items()
            if k not in defaults or type(v) is not type(defaults[k]) or v != defaults[k]
        }
        return (copyreg.__newobj__, (Parsed,), state)  # type: ignore[attr-defined]

    table: dict[type, Any] = {cls: reducer(cls) for cls in (Problem, Relation, Unit, Record, Edge)}
    table[Parsed] = parsed
    return table


def _trusted(st: os.stat_result) -> bool:
    """A pack this user wrote: owned by them, writable by nobody else (POSIX)."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # pragma: no cover - Windows: the folder's own ACL decides
        return True
    return bool(st.st_uid == getuid() and not st.st_mode & 0o022)


def prune(folder: Path, *, keep: Path | None = None, limit: int = MAX_BYTES) -> list[Path]:
    """Remove the packs used longest ago until the folder holds at most ``limit`` bytes
    (``keep`` stays); return what was removed."""
    packs: list[tuple[float, int, Path]] = []
    with contextlib.suppress(OSError), os.scandir(folder) as it:
        for entry in it:
            if entry.name.endswith(".pack") and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    st = entry.stat(follow_symlinks=False)
                    packs.append((st.st_mtime, st.st_size, Path(entry.path)))
    total = sum(size for _, size, _ in packs)
    removed: list[Path] = []
    for _, size, path in sorted(packs):
        if total <= limit:
            break
        if path == keep:
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
            total -= size
    return removed


def clear(folder: Path | None = None) -> int:
    """Remove every pack (``mkdocs-adr``'s whole cache); return how many."""
    return len(prune(folder or directory(), limit=-1))
