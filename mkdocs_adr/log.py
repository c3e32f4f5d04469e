"""Load a whole ADR log: discover, read, parse, identify, resolve; a frozen :class:`Log`.

:func:`load` is the engine's front door. It is read-only: it opens files for
reading and nothing else. Parse results may be kept in a :class:`ParseCache`
keyed by content hash, which is how ``mkdocs serve`` avoids re-parsing
unchanged records. The problem rules live in :mod:`mkdocs_adr.checks`, and
the log after planned edits comes from :func:`mkdocs_adr.whatif.after`,
through the same :func:`identify` and :func:`analyse`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import operator
import os
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import compress, repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import cache as disk_cache
from . import lazy
from .config import Config
from .graph import RelationGraph, Succession
from .model import (
    RELATED_MENTION,
    Excluded,
    Parsed,
    Problem,
    Record,
    Relation,
    RootInfo,
    Severity,
    Unit,
)
from .parsing import ParseOptions

if TYPE_CHECKING:
    from . import checks, identity
    from .discovery import Discovery, Found
    from .identity import Resolution, Resolver
else:  # a build that replays its kept log resolves nothing (docs/adr/0060)
    checks = lazy.module("mkdocs_adr.checks")
    identity = lazy.module("mkdocs_adr.identity")


class ParseCache:
    """Parsed records by (content hash, path, options); survives serve rebuilds.

    Kept by options, then by (content hash, path): the options of one load are one
    object, whose hash (every alias) is then worked out once a load, not once a file."""

    def __init__(self) -> None:
        self._by_options: dict[ParseOptions, dict[tuple[str, str], Parsed]] = {}
        self._last: tuple[ParseOptions, dict[tuple[str, str], Parsed]] | None = None
        self.hits = 0
        self.misses = 0
        #: The last analysis (:func:`load`): the shape of its inputs and the log. A load
        #: whose inputs have the same shape (only records' prose changed) reuses it.
        self.analysed: tuple[tuple[Any, ...], Log] | None = None
        #: Each file read by the last load (absolute path) -> its stat row (device,
        #: inode, size, modification and change times) and text hash: a file whose row is
        #: the same is not read again (:func:`_read_all`, ADR-0055)
        self.stats: dict[str, tuple[tuple[int, int, int, int, int], str]] = {}
        #: What the last analysis resolved, replayed when nothing resolution reads changed
        self.resolved = Resolved()
        #: The last walk (:func:`_discover`): the configuration's ``repr``, discovery's
        #: answer and the stat rows of the paths it depends on; the same rows give the
        #: same answer without a walk (ADR-0059)
        self.walk: tuple[str, Discovery, tuple[tuple[int, ...], ...]] | None = None
        #: Each record the last load identified, by file: what it was made from and the
        #: record; the same inputs give the same record (:func:`_identify_all`)
        self.identified: dict[str, tuple[Found, Parsed, str, str, Record]] = {}

    def _table(self, options: ParseOptions, make: bool) -> dict[tuple[str, str], Parsed] | None:
        last = self._last
        if last is not None and last[0] is options:
            return last[1]
        table = self._by_options.get(options)
        if table is None and make:
            table = self._by_options[options] = {}
        if table is not None:
            self._last = (options, table)
        return table

    def get(self, key: tuple[str, str, ParseOptions]) -> Parsed | None:
        table = self._table(key[2], make=False)
        found = table.get((key[0], key[1])) if table is not None else None
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: tuple[str, str, ParseOptions], value: Parsed) -> None:
        table = self._table(key[2], make=True)
        assert table is not None
        table[(key[0], key[1])] = value

    def retain(self, options: ParseOptions, pairs: set[tuple[str, str]]) -> None:
        """Drop every entry but those of one load, the keys ``(digest, path, options)``
        of ``pairs`` (a load's files share its options), so the cache never outgrows the
        log. In place: a serve rebuild after one edit drops one entry of a thousand, and
        making the tables again cost a rebuild more than the rest of this."""
        for other in [o for o in self._by_options if o != options]:
            del self._by_options[other]
        table = self._by_options.get(options)
        if not table:
            self._by_options.pop(options, None)
        elif table.keys() != pairs:  # (compared in C: the usual rebuild drops nothing)
            for gone in table.keys() - pairs:
                del table[gone]
        self._last = None

    def __len__(self) -> int:
        return sum(len(table) for table in self._by_options.values())


@dataclass(frozen=True)
class Log:
    """Everything known about a log, read-only once built."""

    config: Config
    records: tuple[Record, ...]
    excluded: tuple[Excluded, ...]
    problems: tuple[Problem, ...]
    roots: tuple[RootInfo, ...]
    fingerprint: str
    graph: RelationGraph
    by_id: dict[str, list[Record]] = field(default_factory=dict)
    by_path: dict[str, Record] = field(default_factory=dict)
    #: Problems met before any record was parsed (discovery, unreadable files),
    #: which :func:`mkdocs_adr.whatif.after` carries over to the log after an edit.
    intake: tuple[Problem, ...] = ()
    #: The day the review-by dates were checked against (ADR017).
    today: dt.date = field(default_factory=dt.date.today)

    def get(self, rid: str) -> Record | None:
        """The one record with this id, or None when absent or ambiguous."""
        found = self.by_id.get(rid.upper())
        return found[0] if found and len(found) == 1 else None

    @property
    def active(self) -> tuple[Record, ...]:
        return tuple(r for r in self.records if not r.archived)

    def successor(self, rid: str, unit: str | None = None) -> Succession:
        """What replaced ``rid`` (or its unit): :meth:`RelationGraph.successor`."""
        return self.graph.successor(rid, unit)

    def status_of(self, rec: Record, unit: Unit | None = None) -> str:
        """The status ``rec`` (or its unit) counts as in views and retrieval: its own, or
        for a record without one what ``missing_status`` says
        (:meth:`RelationGraph.counted_status`)."""
        status = unit.status if unit is not None else rec.status
        return self.graph.counted_status(status) or status

    def in_effect(self, rec: Record, unit: Unit | None = None) -> bool:
        """Whether ``rec`` (or its unit) binds now: :meth:`RelationGraph.in_effect`."""
        return self.graph.in_effect(
            rec.id,
            unit.key if unit is not None else None,
            status=rec.status,
            unit_statuses={u.key: u.status for u in rec.units} if rec.units else {},
        )

    def problems_for(self, rid: str) -> list[Problem]:
        return [p for p in self.problems if rid in p.ids]


def _read(path: str | Path) -> bytes:
    """A file's bytes; unbuffered, which saves a copy on every small file."""
    with open(path, "rb", buffering=0) as fh:
        return fh.readall()


def text_hash(data: bytes) -> str:
    """Hash of the normalized text (UTF-8, LF) so line endings never count as edits."""
    if data.find(b"\r") != -1:  # (``in`` tries the bytes as an int first: a TypeError)
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return hashlib.sha256(data).hexdigest()


def load(
    config: Config,
    *,
    cache: ParseCache | None = None,
    today: dt.date | None = None,
) -> Log:
    """Read, parse (through ``cache`` when given) and analyse the whole log."""
    with disk_cache.gc_paused():
        return _load(config, cache, today)


def _load(config: Config, cache: ParseCache | None, today: dt.date | None) -> Log:
    options = ParseOptions.from_config(config)
    today = today or dt.date.today()
    pack = None
    if (cache is None or not len(cache)) and disk_cache.enabled():
        pack = disk_cache.Pack(config.project_dir, options)
        pack.load()
        # the stat rows of the last walk vouch for the kept log: no walk, no file read
        vouched = cache is None and pack.stat_key and pack.walked
        if vouched and walk_key(config, pack.walked, today) == pack.stat_key:
            kept = pack.log
            if isinstance(kept, Log):
                return dataclasses.replace(kept, config=config)
    found = discover(config) if cache is None else _discover(config, cache)
    prefixes = {r.path: r.prefix for r in config.roots}
    intake: list[Problem] = list(found.problems)
    stats = ""
    # an empty pack (a cold run) keeps no log, so there is nothing to vouch for
    if pack is not None and cache is None and pack.filled and not found.linked:
        stats = walk_key(config, found.walked, today)
    kept_parses: dict[tuple[str, str], Parsed] = {}
    read = _read_all(found, intake, cache, options, skip=pack is None, parses=kept_parses)
    disk_keys = {
        (digest, item.path): (disk_cache.file_key(digest, data), item.path)
        for item, digest, data in read
        if pack is not None  # (only the disk cache asks)
    }
    inputs = ""
    if pack is not None and cache is None and pack.filled:
        inputs = _inputs_key(config, found, read, disk_keys, intake, today)
        kept = pack.log
        if pack.log_key == inputs and isinstance(kept, Log):
            if stats and stats != pack.stat_key:  # touched, not changed: vouch again
                pack.save(
                    pack.entries, log_key=inputs, stat_key=stats, walked=found.walked, log=kept
                )
            return dataclasses.replace(kept, config=config)
    parsed_by_key, parsed_any = _parse_all(read, options, cache, pack, disk_keys, kept_parses)
    if cache is None:
        records = [
            identify(item, parsed_by_key[(digest, item.path)], digest, prefixes[item.root.path])
            for item, digest, _data in read
        ]
    else:
        records = _identify_all(read, parsed_by_key, prefixes, cache)
    shape: tuple[Any, ...] = ()
    if cache is not None:
        cache.retain(options, {(digest, item.path) for item, digest, _data in read})
        shape = _shape(config, records, found, intake, today)
    if cache is not None and cache.analysed is not None and cache.analysed[0] == shape:
        log = _with_prose(cache.analysed[1], records, config, cache.resolved)
    else:
        log = analyse(
            config,
            records,
            excluded=found.excluded,
            layouts=found.layouts,
            intake=intake,
            today=today,
            resolved=cache.resolved if cache is not None else None,
        )
    if cache is not None:
        cache.analysed = (shape, log)
    if pack is not None:
        entries = {disk_keys[key]: parsed_by_key[key] for key in disk_keys}
        if parsed_any or len(pack.entries) != len(entries):
            pack.save(entries)  # the analysis is kept once a run finds every reading
        elif inputs:
            pack.save(entries, log_key=inputs, stat_key=stats, walked=found.walked, log=log)
    return log


def _discover(config: Config, cache: ParseCache) -> Discovery:
    """:func:`discover` through ``cache`` (serve, ADR-0059): the last walk's answer when
    the configuration is the same and so is the stat row of every path that answer
    depends on (:attr:`~mkdocs_adr.discovery.Discovery.depends`: each folder listed,
    each file whose bytes it read). A folder's times move when an entry is added,
    removed or renamed in it, so a new, removed or renamed file is seen; a record file
    edited in place changes no listing. An answer is kept only when no symlink was met
    and every row is older than :data:`RACY_NS` (:func:`walk_rows`)."""
    shown = repr(config)
    kept = cache.walk
    if kept is not None and kept[0] == shown and walk_rows(kept[1].depends, racy=False) == kept[2]:
        return kept[1]
    found = discover(config)
    rows = None if found.linked else walk_rows(found.depends, racy=True)
    cache.walk = (shown, found, rows) if rows is not None else None
    return found


def walk_rows(paths: list[str], *, racy: bool) -> tuple[tuple[int, ...], ...] | None:
    """The stat row (device, inode, size, modification and change times, mode) of each
    path, or None when one cannot be read or, with ``racy``, when one changed within
    :data:`RACY_NS` of now (a write in the same tick of the clock might not move it)."""
    if sys.platform == "win32":  # pragma: no cover - st_ctime is the creation time there
        return None
    rows = []
    stat = os.stat
    recent = time.time_ns() - RACY_NS
    for path in paths:
        try:
            st = stat(path)
        except OSError:
            return None
        if racy and (st.st_mtime_ns >= recent or st.st_ctime_ns >= recent):
            return None
        rows.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode))
    return tuple(rows)


def _identify_all(
    read: list[tuple[Found, str, bytes]],
    parsed_by_key: dict[tuple[str, str], Parsed],
    prefixes: dict[str, str],
    cache: ParseCache,
) -> list[Record]:
    """:func:`identify` of each file read, through ``cache``: a file found, parsed and
    hashed as by the last load (the same :class:`Found`, the same parse object) is the
    record the last load made of it, the same object."""
    before, now = cache.identified, {}
    records = []
    for item, digest, _data in read:
        parsed, prefix = parsed_by_key[(digest, item.path)], prefixes[item.root.path]
        kept = before.get(item.file)
        if (
            kept is not None
            and kept[1] is parsed
            and kept[2] == digest
            and kept[3] == prefix
            and (kept[0] is item or kept[0] == item)
        ):
            rec = kept[4]
        else:
            rec = identify(item, parsed, digest, prefix)
        now[item.file] = (item, parsed, digest, prefix, rec)
        records.append(rec)
    cache.identified = now
    return records


def _read_all(
    found: Discovery,
    intake: list[Problem],
    cache: ParseCache | None,
    options: ParseOptions,
    *,
    skip: bool,
    parses: dict[tuple[str, str], Parsed] | None = None,
) -> list[tuple[Found, str, bytes]]:
    """Each file found, with its text hash and bytes. With ``cache`` (a serve rebuild), a
    file whose stat row is the one the last load read it with, and whose parse the cache
    holds, is not read again (``skip``: no disk cache asks for the bytes): its hash is
    the last one, its bytes are left empty (nothing reads them) and its parse goes in
    ``parses`` by (hash, path), so that :func:`_parse_all` need not look it up. A row
    is kept only when the file's times are older than :data:`RACY_NS` before the read,
    so that a write in the same tick of the clock as the read (which may leave the row
    as it was) is never missed."""
    read: list[tuple[Found, str, bytes]] = []
    known = cache.stats if cache is not None and skip else None
    table = cache._table(options, make=False) if cache is not None else None
    rows: dict[str, tuple[tuple[int, int, int, int, int], str]] = {}
    racy = time.time_ns() - RACY_NS
    stat = os.stat
    # (what every file's row and parse are looked up in, chosen once: a thousand files)
    kept_rows, kept_parses = (known, table) if known and table else ({}, {})
    for item in found.found:
        file = item.file
        row: tuple[int, int, int, int, int] | None = None
        if cache is not None:
            try:
                st = stat(file)
            except OSError:
                pass  # (reading it says why)
            else:
                row = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            kept = kept_rows.get(file)
            if kept is not None and kept[0] == row:  # (a row, never None, was kept)
                key = (kept[1], item.path)
                parsed = kept_parses.get(key)
                if parsed is not None:
                    rows[file] = kept
                    read.append((item, kept[1], b""))
                    if parses is not None:
                        parses[key] = parsed
                    continue
        try:
            data = _read(file)
        except OSError as exc:
            intake.append(checks.unreadable(item.path, exc))
            continue
        digest = text_hash(data)
        if row is not None and row[3] < racy and row[4] < racy:
            rows[file] = (row, digest)
        read.append((item, digest, data))
    if cache is not None:
        cache.stats = rows
    return read


def _shape(
    config: Config, records: list[Record], found: Discovery, intake: list[Problem], today: dt.date
) -> tuple[Any, ...]:
    """Everything :func:`analyse` reads, but the records' prose and hashes: each record's
    place and reading (:class:`~mkdocs_adr.model.Parsed` compares without its text; the
    problem rules never read it), the configuration, what discovery found beside them,
    the problems met on the way and the day."""
    return (
        repr(config),
        found.excluded,
        tuple(sorted(found.layouts.items())),
        tuple(intake),
        today,
        tuple(
            (r.id, r.path, r.root, r.domain, r.archived, r.number, r.symlink, r.parsed)
            for r in records
        ),
    )


def _with_prose(
    log: Log, records: list[Record], config: Config, kept: Resolved | None = None
) -> Log:
    """``log`` (analysed from records of the same :func:`_shape`) with the prose and hashes
    of ``records``: the relations, graph and problems stay those the analysis found."""
    new = [
        old
        if old.sha256 == now.sha256 and old.parsed is now.parsed
        else dataclasses.replace(old, sha256=now.sha256, parsed=now.parsed)
        for old, now in zip(log.records, records, strict=True)
    ]
    return dataclasses.replace(
        log,
        config=config,
        records=tuple(new),
        fingerprint=_fingerprint(config, new, kept),
        by_id=_index_by_id(new),
        by_path={r.path: r for r in new},
    )


#: How far back from the start of a run a file's change time makes its stat row unable
#: to vouch for its content (file systems keep times as coarsely as 2 s).
RACY_NS = 3 * 10**9


def walk_key(config: Config, walked: list[str], today: dt.date) -> str:
    """The key of the configuration, the day and the stat row (device, inode, size,
    modification and change times, mode) of every path discovery's answer depends on
    (:attr:`~mkdocs_adr.discovery.Discovery.walked`: each folder listed, each Markdown
    file met), or "" when they cannot vouch for the content.

    With the same key as the run that kept the analysed log, no file was written,
    replaced or renamed since and no folder gained or lost an entry, so discovery
    would find the same files and that log is used without walking the folders or
    reading a file (git's index and untracked cache work the same way). They cannot
    vouch where the change time is the creation time (Windows), when a symlink was
    met (:attr:`~mkdocs_adr.discovery.Discovery.linked`: the walk does not record
    what it points to), or when a path changed within :data:`RACY_NS` of now: a
    write in the same tick of the clock might not move its times.
    """
    if sys.platform == "win32":  # pragma: no cover - st_ctime is the creation time there
        return ""
    started = time.time_ns()
    digest = hashlib.sha256()
    digest.update(f"{config!r}\n{today}\n".encode())
    rows: list[str] = []
    stat = os.stat
    racy = started - RACY_NS
    for path in walked:
        try:
            st = stat(path)
        except OSError:
            return ""
        if st.st_mtime_ns >= racy or st.st_ctime_ns >= racy:
            return ""
        rows.append(
            f"{path}\0{st.st_dev}\0{st.st_ino}\0{st.st_size}\0"
            f"{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_mode}"
        )
    digest.update("\n".join(rows).encode())
    return digest.hexdigest()


def _inputs_key(
    config: Config,
    found: Discovery,
    read: list[tuple[Found, str, bytes]],
    disk_keys: dict[tuple[str, str], tuple[str, str]],
    intake: list[Problem],
    today: dt.date,
) -> str:
    """Everything :func:`analyse` depends on beside the code (the pack's header has the
    code stamp): the configuration, what discovery found, each file's content key, the
    problems met on the way, and the day review-by dates are judged against."""
    digest = hashlib.sha256()
    for part in (repr(config), repr(found.excluded), repr(found.layouts), repr(intake), today):
        digest.update(f"{part}\n".encode())
    rows = [
        f"{item.file}\0{item.path}\0{item.rel}\0{item.root.path}\0{item.domain!r}\0"
        f"{item.archived:d}{item.symlink:d}\0{disk_keys[(text_digest, item.path)][0]}"
        for item, text_digest, _data in read
    ]
    digest.update("\n".join(rows).encode())
    return digest.hexdigest()


def _parse_all(
    read: list[tuple[Found, str, bytes]],
    options: ParseOptions,
    cache: ParseCache | None,
    pack: disk_cache.Pack | None,
    disk_keys: dict[tuple[str, str], tuple[str, str]],
    kept: dict[tuple[str, str], Parsed] | None = None,
) -> tuple[dict[tuple[str, str], Parsed], bool]:
    """Each file parsed once, by (content hash, path): ``kept`` (what :func:`_read_all`
    found in ``cache``), through ``cache`` when given, then through ``pack``, the disk
    cache (:mod:`mkdocs_adr.cache`), when given; and whether anything had to be parsed."""
    # keyed without the options, which are the same for every file here
    parsed_by_key: dict[tuple[str, str], Parsed] = kept if kept is not None else {}
    if cache is not None and kept:
        cache.hits += len(kept)
    misses: dict[tuple[str, str], bytes] = {}
    for item, digest, data in read:
        key = (digest, item.path)
        if key in parsed_by_key or key in misses:
            continue
        hit = cache.get((digest, item.path, options)) if cache is not None else None
        if hit is None and pack is not None:
            hit = pack.get(disk_keys[key], data)
            if hit is not None and cache is not None:
                cache.put((*key, options), hit)
        if hit is None:
            misses[key] = data
        else:
            parsed_by_key[key] = hit
    jobs = [(data, path) for (_digest, path), data in misses.items()]
    for key, parsed in zip(misses, parse_many(jobs, options), strict=True):
        parsed_by_key[key] = parsed
        if cache is not None:
            cache.put((*key, options), parsed)
    return parsed_by_key, bool(misses)


def discover(config: Config) -> Discovery:
    """:func:`mkdocs_adr.discovery.discover`, imported on first use: a load whose kept
    log is vouched for by its stat rows walks no folder."""
    from . import discovery

    return discovery.discover(config)


def parse_many(jobs: list[tuple[bytes, str]], options: ParseOptions) -> list[Parsed]:
    """:func:`mkdocs_adr.parsing.batch.parse_many`, imported on first use: a load answered
    from the parse cache parses nothing (nor imports the reader: a good part of the
    start-up of a warm ``context`` or ``find``)."""
    if not jobs:
        return []
    from .parsing import batch

    return batch.parse_many(jobs, options)


def identify(item: Found, parsed: Parsed, digest: str, prefix: str) -> Record:
    """The record a parsed file is: its id from an explicit id, else the id its file name
    gives (:func:`mkdocs_adr.identity.file_id`), else the file stem.

    A heading whose number disagrees with the file's is reported by
    :func:`mkdocs_adr.checks.number_mismatches` (ADR019).
    """
    name = identity.record_name(item.rel)
    named = identity.file_id(name, prefix)
    number = named[1] if named else None
    named_id = identity.file_record_id(name, prefix)
    rid: str
    fault = identity.explicit_id_fault(parsed.explicit_id) if parsed.explicit_id else None
    if fault is not None:
        parsed = _without_explicit_id(parsed, item.path, fault)
    if parsed.explicit_id:
        pid = identity.parse_id(parsed.explicit_id)
        rid = identity.canonical(*pid) if pid else parsed.explicit_id
        if pid:
            number = pid[1]
    elif named_id is not None:
        rid = named_id
    else:
        rid = name.rsplit(".", 1)[0]
    domain = item.domain or parsed.domain
    return Record(
        id=rid,
        path=item.path,
        root=item.root.path,
        domain=domain,
        archived=item.archived,
        sha256=digest,
        parsed=parsed,
        number=number,
        symlink=item.symlink,
    )


def _without_explicit_id(parsed: Parsed, path: str, fault: str) -> Parsed:
    """``parsed`` read as if it had no ``id:``, with the ADR014 that says why."""
    assert parsed.explicit_id is not None
    head = parsed.text.split("\n", 500)[:500]
    line = next((i + 1 for i, text in enumerate(head) if text.lower().startswith("id:")), None)
    shown = parsed.explicit_id if len(parsed.explicit_id) <= 80 else parsed.explicit_id[:77] + "..."
    problem = Problem(
        "ADR014",
        Severity.WARNING,
        f"frontmatter does not parse: 'id' {shown!r} is not an id: {fault}; "
        "the record takes the id its file name gives",
        path=path,
        line=line,
        fix="write an id such as ADR-0007 or payments-decision, or remove the 'id' key",
    )
    return dataclasses.replace(parsed, explicit_id=None, problems=(*parsed.problems, problem))


def _fingerprint(config: Config, records: list[Record], kept: Resolved | None = None) -> str:
    """The hash of the JSON of the roots and of each record's (path, hash), sorted:
    ``json.dumps(..., sort_keys=True, separators=(",", ":"))``'s
    text, made one pair at a time so that, with ``kept`` (a host that loads again and
    again), only the pairs of records that are not the last fingerprint's objects are
    made again (a status edit: one of a thousand)."""
    roots = [[r.path, r.prefix] for r in config.roots]
    last = kept.printed if kept is not None else None
    rows: list[str] | None = None
    if last is not None and last[0] == roots and len(last[1]) == len(records) == len(last[3]):
        rows = last[2]
        for rec, old in zip(records, last[1], strict=True):
            if rec is old or (rec.sha256 == old.sha256 and rec.path == old.path):
                continue
            if rec.path != old.path:  # (moved: the order may change, made again)
                rows = None
                break
            if rows is last[2]:
                rows = list(rows)
            rows[last[3][rec.path]] = _pair_json(rec)
    at = last[3] if rows is not None and last is not None else {}
    if rows is None:
        ordered = sorted(records, key=_PATH_SHA)
        rows = [_pair_json(r) for r in ordered]
        at = {r.path: n for n, r in enumerate(ordered)}
    if kept is not None:
        kept.printed = (roots, tuple(records), rows, at)
    shown = json.dumps(roots, separators=(",", ":"))
    text = f'{{"records":[{",".join(rows)}],"roots":{shown}}}'
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


#: json.dumps' own string encoder (C), so that a pair reads as json.dumps writes it
_JSON_STR = json.encoder.encode_basestring_ascii


_PATH_SHA = operator.attrgetter("path", "sha256")


def _pair_json(rec: Record) -> str:
    return f"[{_JSON_STR(rec.path)},{_JSON_STR(rec.sha256)}]"


@dataclass
class Resolved:
    """What one analysis resolved (:func:`analyse`): what resolution read beside the
    records (:func:`resolution_frame`), the records it was given and those it resolved,
    each relation it added to the graph (the arguments of :meth:`RelationGraph.add`, in
    order) and the problems it noted, in order."""

    key: tuple[Any, ...] = ()
    #: the records it was given (identified), whose :func:`resolution_row` it read
    inputs: tuple[Record, ...] = ()
    records: tuple[Record, ...] = ()
    adds: list[tuple[tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    #: the graph the analysis built (:meth:`RelationGraph.restated` from it, ADR-0065)
    graph: RelationGraph | None = None
    #: what the problem rules found (:func:`mkdocs_adr.checks.check` reuses it, ADR-0065)
    checked: checks.Found | None = None
    #: the last :func:`_fingerprint`: the roots, the records, each one's JSON pair in
    #: the order of their paths, and each path's place in that order
    printed: tuple[list[list[Any]], tuple[Record, ...], list[str], dict[str, int]] | None = None


def resolution_frame(
    config: Config, folders: tuple[str, ...], pages: tuple[str, ...]
) -> tuple[Any, ...]:
    """What resolving the records' relations reads beside the records
    (:class:`_Resolution`): the roots' prefixes and folders and the files discovery left
    out (a link to one is to no record); each record's part is its
    :func:`resolution_row`."""
    return (tuple((r.path, r.prefix) for r in config.roots), folders, pages)


def resolution_row(r: Record) -> tuple[Any, ...]:
    """What resolution reads of one record: its id, path, root and number, its relations
    and its units' keys and relations; not its status, title or prose."""
    return (
        r.id,
        r.path,
        r.root,
        r.number,
        r.parsed.relations,
        tuple((u.key, u.relations) for u in r.parsed.units) if r.parsed.units else (),
    )


def _resolves_as(resolved: Resolved, frame: tuple[Any, ...], records: list[Record]) -> bool:
    """Whether resolution reads of ``records`` what it read last time (``resolved``):
    the same frame and, record by record, the same rows. A record the load kept as it
    was (the same object, ADR-0055) is not asked: only the edited ones make rows."""
    before = resolved.inputs
    if resolved.key != frame or len(before) != len(records) or len(resolved.records) != len(before):
        return False
    return all(
        rec is was or resolution_row(rec) == resolution_row(was)
        for rec, was in zip(records, before, strict=True)
    )


class _Recording:
    """A graph whose :meth:`add` calls are noted, to be replayed on a later one."""

    def __init__(self, graph: RelationGraph, adds: list[tuple[tuple[Any, ...], dict[str, Any]]]):
        self.graph, self.adds = graph, adds

    def add(self, *args: Any, **kwargs: Any) -> Any:
        self.adds.append((args, kwargs))
        return self.graph.add(*args, **kwargs)


def _replay(rec: Record, old: Record) -> Record:
    """``rec`` (identified) with the relations ``old`` was resolved to (a record that
    resolution read the same): ``old`` itself when nothing else of it changed either."""
    # (field by field, no tuples made: a thousand records each status rebuild)
    if (
        rec.parsed is old.parsed
        and rec.id == old.id
        and rec.path == old.path
        and rec.root == old.root
        and rec.domain == old.domain
        and rec.archived == old.archived
        and rec.sha256 == old.sha256
        and rec.number == old.number
        and rec.symlink == old.symlink
    ):
        return old
    units = tuple(
        u.with_relations(o.relations) for u, o in zip(rec.parsed.units, old.units, strict=True)
    )
    return rec.resolved(old.relations, units)


def analyse(
    config: Config,
    records: list[Record],
    *,
    excluded: Iterable[Excluded],
    layouts: dict[str, str],
    intake: Iterable[Problem] = (),
    today: dt.date | None = None,
    resolved: Resolved | None = None,
) -> Log:
    """Resolve relations, build the graph, then find every problem of SPEC 3.6.

    ``records`` are identified (:func:`identify`), in discovery order; their
    resolved relations, if any, are replaced. ``excluded`` and ``layouts`` are
    what discovery found beside them; ``intake`` the problems met on the way.
    The problem rules are :mod:`mkdocs_adr.checks`'.

    ``resolved``: what the last analysis of this host resolved; when nothing resolution
    reads changed (:func:`resolution_frame`, :func:`resolution_row`; a status or title
    edit), its relations, graph edges and problems are replayed instead of resolved
    again, and each record nothing else of changed is the last analysis' object
    (ADR-0055). It is updated in place.
    """
    intake = tuple(intake)
    problems: list[Problem] = list(intake)
    for rec in records:
        if rec.parsed.problems:
            problems.extend(p if p.ids else p.with_ids((rec.id,)) for p in rec.parsed.problems)
    excluded = tuple(excluded)
    folders = tuple(config.rel(config.root_dir(root)) for root in config.roots)
    pages = tuple(e.path for e in excluded)
    frame = resolution_frame(config, folders, pages) if resolved is not None else ()
    given = tuple(records)
    by_id: dict[str, list[Record]] | None = None
    by_path: dict[str, Record] | None = None
    # a record a later status line may retire is read afresh (its successor's status decides)
    retiring = any(map(_may_retire, records))
    if resolved is not None and not retiring and _resolves_as(resolved, frame, records):
        # a record given as last time (the same object) resolves to last time's record
        records = [
            old if rec is was else _replay(rec, old)
            for rec, was, old in zip(records, resolved.inputs, resolved.records, strict=True)
        ]
        found = _restated(config, records, resolved)
        if found is not None:  # the same relations: their edges and indexes shared
            graph, by_id, by_path = found
        else:
            graph = _graph(config, records, _index_by_id(records))
            for args, kwargs in resolved.adds:
                graph.add(*args, **kwargs)
        problems.extend(resolved.problems)
    else:
        identified = _index_by_id(records)
        graph = _graph(config, records, identified)
        prefixes = {r.path: r.prefix for r in config.roots}
        adds: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        noted: list[Problem] = []
        target: Any = _Recording(graph, adds) if resolved is not None else graph
        resolver = identity.Resolver(records, prefixes, folders=folders, pages=pages)
        resolving = _Resolution(resolver, identified, target, noted)
        records = [resolving.record(rec) for rec in records]
        problems.extend(noted)
        if resolved is not None:
            resolved.key, resolved.adds, resolved.problems = frame, adds, noted
    if resolved is not None:
        resolved.inputs, resolved.records, resolved.graph = given, tuple(records), graph
    if retiring:  # (the graph is not read yet: its statuses may still change)
        records = _retired(records, graph, problems)
    draft = Log(
        config=config,
        records=tuple(records),
        excluded=tuple(excluded),
        problems=(),
        roots=tuple(_root_info(config, records, layouts)),
        fingerprint=_fingerprint(config, records, resolved),
        graph=graph,
        by_id=by_id if by_id is not None else _index_by_id(records),
        by_path=by_path if by_path is not None else {r.path: r for r in records},
        intake=intake,
        today=today or dt.date.today(),
    )
    checked = checks.check(draft, draft.today, resolved.checked if resolved is not None else None)
    if resolved is not None:
        resolved.checked = checked
    problems.extend(checked.problems)
    return dataclasses.replace(draft, problems=tuple(sorted(_unique(problems), key=_problem_key)))


#: The written statuses that a ``Superseded by`` line later in an adr-tools status section
#: retires once its successor took effect, and the successors' statuses that took effect.
_RETIRABLE = frozenset({"accepted", "proposed", "draft"})
_TOOK_EFFECT = frozenset({"accepted", "superseded", "deprecated"})


def _may_retire(rec: Record) -> bool:
    """Whether ``rec``'s own status block names a successor on a line of its own beside
    its status word: an adr-tools status section's ``Superseded by [..](..)`` line
    (``Accepted`` above it: ``adr link`` appends the line and leaves the word; ADR-0025's
    pending successor is written so too), a ``superseded by:`` field or bullet beside
    ``status: accepted``, a metadata table's ``Superseded by`` row (ADR-0075)."""
    parsed = rec.parsed
    if parsed.status not in _RETIRABLE:
        return False
    return any(_later_successors(parsed.relations, parsed.status_line))


#: Where a record's own status block is read: its status section, the fields beside its
#: status line, its metadata table (not its frontmatter, nor a ``## Links`` entry).
_STATUS_BLOCK = frozenset({"status-section", "metadata-table"})


def _later_successors(relations: Iterable[Relation], line: int | None) -> Iterator[Relation]:
    """The ``Superseded by`` lines of a status block other than its status word's (``line``)."""
    return (
        r
        for r in relations
        if r.kind == "superseded-by" and r.origin in _STATUS_BLOCK and r.line != line
    )


def _retired(records: list[Record], graph: RelationGraph, problems: list[Problem]) -> list[Record]:
    """``records`` with each one that :func:`_may_retire` read as superseded once a
    successor its status section names took effect, with a note (ADR016, info); while
    every such successor is a proposal or a draft the record stays as written and in
    effect (ADR-0025). ``graph`` (resolved, not read yet) counts them superseded too."""
    out = []
    for rec in records:
        if _may_retire(rec):
            took = [
                r.target_id
                for r in _later_successors(rec.relations, rec.parsed.status_line)
                if r.target_id is not None and graph.statuses.get(r.target_id) in _TOOK_EFFECT
            ]
            if took:
                rec = dataclasses.replace(rec, retired=True)
                graph.retire(rec.id)
                problems.append(checks.retired_by_status_line(rec, took[0]))
        out.append(rec)
    return out


def _graph(config: Config, records: list[Record], by_id: dict[str, list[Record]]) -> RelationGraph:
    """The graph of ``records``' statuses (of each id that names one record), without
    relations yet."""
    unique = [r for r in records if len(by_id[r.id.upper()]) == 1]
    return RelationGraph(
        {r.id: r.status for r in unique},
        {r.id: {u.key: u.status for u in r.parsed.units} for r in unique if r.parsed.units},
        missing_as=config.missing_status,
    )


def _restated(
    config: Config, records: list[Record], resolved: Resolved
) -> tuple[RelationGraph, dict[str, list[Record]], dict[str, Record]] | None:
    """For records that resolution read as the last analysis did (``records``, replayed):
    the last graph restated with their statuses, and the last log's indexes by id and
    path, each patched where a record is not the last one's object (ADR-0065); None when
    the graph cannot be restated or the last analysis did not run to its end."""
    last, found = resolved.graph, resolved.checked
    if last is None or found is None or last.missing_as != config.missing_status:
        return None
    before = found.log.records
    if len(before) != len(records) or not all(map(operator.is_, before, resolved.records)):
        return None
    changed = [rec for rec, old in zip(records, before, strict=True) if rec is not old]
    by_id, by_path = dict(found.log.by_id), dict(found.log.by_path)
    statuses, unit_statuses = dict(last.statuses), dict(last.unit_statuses)
    for rec in changed:  # (the same ids and paths, in the same order: only objects differ)
        rid = rec.id.upper()
        by_id[rid] = [rec if r.path == rec.path else r for r in by_id[rid]]
        by_path[rec.path] = rec
    for rec in changed:
        if len(by_id[rec.id.upper()]) == 1:
            statuses[rec.id] = rec.status
            if rec.parsed.units:
                unit_statuses[rec.id] = {u.key: u.status for u in rec.parsed.units}
    graph = last.restated(statuses, unit_statuses)
    return (graph, by_id, by_path) if graph is not None else None


def _index_by_id(records: list[Record]) -> dict[str, list[Record]]:
    out: dict[str, list[Record]] = {}
    for rec in records:
        out.setdefault(rec.id.upper(), []).append(rec)
    return out


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[object, ...]] = set()
    out = []
    for p in problems:
        key = (p.code, p.path, p.line, p.message)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _problem_key(p: Problem) -> tuple[object, ...]:
    return (-p.severity, p.path or "", p.line or 0, p.code, p.message)


def _root_info(
    config: Config, records: list[Record], layouts: dict[str, str]
) -> Iterable[RootInfo]:
    for root in config.roots:
        # (picked and counted in C: every status rebuild counts every record)
        mine = list(compress(records, map(operator.eq, repeat(root.path), map(_ROOT, records))))
        archived = sum(map(_ARCHIVED, mine))
        yield RootInfo(
            path=config.rel(config.root_dir(root)),
            prefix=root.prefix,
            title=root.display_title,
            layout=layouts.get(root.path, "flat"),
            records=len(mine) - archived,
            archived=archived,
            units=sum(map(len, map(_UNITS, mine))),
        )


_PATH, _SHA256, _ROOT = (
    operator.attrgetter("path"),
    operator.attrgetter("sha256"),
    operator.attrgetter("root"),
)
_ARCHIVED, _UNITS = operator.attrgetter("archived"), operator.attrgetter("units")


class _Resolution:
    """Resolves each record's relations, adds them to the graph, notes what fails.

    Resolution problems (ADR002 ambiguous, ADR003, ADR008, ADR015, ADR022) are noted
    here, where the answer is known, in :mod:`mkdocs_adr.checks`' words:
    finding them again afterwards would mean resolving every reference twice.
    """

    def __init__(
        self,
        resolver: Resolver,
        by_id: dict[str, list[Record]],
        graph: RelationGraph,
        problems: list[Problem],
    ) -> None:
        self.resolver = resolver
        self.by_id = by_id
        self.graph = graph
        self.problems = problems

    def record(self, rec: Record) -> Record:
        """``rec`` with its relations and its units' relations resolved.

        Authoritative relations go first, so a plain link to a record that a
        relation already names adds no ``mentions`` edge.
        """
        # a record whose id is claimed twice adds no edges: it is no node of the graph
        shared = len(self.by_id[rec.id.upper()]) > 1
        named: set[str] = set()
        out: list[Relation] = []
        for rel in rec.parsed.relations:
            if rel.kind != "mentions":
                done = self._authoritative(rec, rel, None, named, shared)
                if done is not None:
                    out.append(done)
            elif rel.verb == RELATED_MENTION:  # (a relation where it names a record)
                done = self._mention(rec, rel, named, shared)
                if done is not None and done not in out:
                    out.append(done)
        units: list[Unit] = []
        for unit in rec.parsed.units:
            unit_rels = []
            for rel in unit.relations:
                done = self._relation(rec, rel, unit.key, named, shared)
                if done is not None:
                    unit_rels.append(done)
            units.append(unit.with_relations(tuple(unit_rels)))
        for rel in rec.parsed.relations:
            if rel.kind == "mentions" and rel.verb != RELATED_MENTION:
                done = self._mention(rec, rel, named, shared)
                if done is not None and not any(
                    o.kind == "mentions" and o.target_id == done.target_id for o in out
                ):
                    out.append(done)
        return rec.resolved(tuple(out), tuple(units))

    def _relation(
        self, rec: Record, rel: Relation, unit: str | None, named: set[str], shared: bool
    ) -> Relation | None:
        if rel.kind == "mentions":
            return self._mention(rec, rel, named, shared)
        return self._authoritative(rec, rel, unit, named, shared)

    def _mention(
        self, rec: Record, rel: Relation, named: set[str], shared: bool
    ) -> Relation | None:
        """A plain link or prose mention: kept only when it names another record."""
        res = self.resolver.resolve(rel.target, source=rec, label=rel.label)
        if res.escapes:
            self.problems.append(checks.link_escapes(rec, rel))
            return None
        rid = res.id
        if rid is None or rid == rec.id or rid in named or res.elsewhere:
            return None
        if rel.verb == RELATED_MENTION:  # an id a Related label names: it relates
            named.add(rid)
            if not shared:
                self.graph.add(rec.id, "relates-to", rid, "links-section")
            return Relation(
                "relates-to", rel.target, "links-section", rel.line, "", rel.label, rid, res.unit
            )
        if not shared:
            self.graph.add(rec.id, "mentions", rid, rel.origin)
        return _resolved(rel, rid, res.unit)

    def _authoritative(
        self, rec: Record, rel: Relation, unit: str | None, named: set[str], shared: bool
    ) -> Relation | None:
        """A relation stated as metadata (of the record, or of its unit ``unit``), or
        declared in a sentence (origin ``declaration``: the graph judges whether it binds).

        Unresolved, it is kept as written; a record naming itself is dropped.
        """
        res = self.resolver.resolve(rel.target, source=rec, label=rel.label)
        if res.escapes:
            self.problems.append(checks.link_escapes(rec, rel))
            return None
        if res.page and not rel.verb and rel.origin == "links-section":
            return None  # a links list's page of the docs, no verb: no decision (ADR-0070)
        if res.elsewhere:  # a missing file whose number another decision now has
            self.problems.append(checks.target_not_found(rec, rel))
            return rel
        target_id = self._target(rec, rel, res)
        if target_id is None:
            return rel
        if res.by_file and rel.label:
            text_id = self.resolver.text_id(target_id, rel.label)
            if text_id is not None:
                self.problems.append(checks.link_text_conflict(rec, rel, target_id, text_id))
        target_unit = self._target_unit(rec, rel, target_id, res.unit)
        if target_id == rec.id and unit is None:
            return None
        named.add(target_id)
        if not shared:
            self.graph.add(
                rec.id, rel.kind, target_id, rel.origin, from_unit=unit, to_unit=target_unit
            )
        return _resolved(rel, target_id, target_unit)

    def _target(self, rec: Record, rel: Relation, res: Resolution) -> str | None:
        """The one record ``rel`` names, or None (noting why, unless its id is shared).
        A relates-to that names no record and is not written as one of this log's
        (:meth:`~mkdocs_adr.identity.Resolver.in_series`) is a note: it relates the record
        to a document of another kind."""
        if res.external:
            # (a URL of another scheme than the web's, ``javascript:..``, stays a warning)
            aside = ":" not in rel.target and self._aside(rel)
            self.problems.append(checks.not_an_adr(rec, rel, page=res.page, aside=aside))
            return None
        if len(res.ids) > 1:
            self.problems.append(checks.ambiguous_target(rec, rel, res.ids))
            return None
        if not res.ids:
            self.problems.append(checks.target_not_found(rec, rel, aside=self._aside(rel)))
            return None
        rid = res.id
        if rid is None or len(self.by_id.get(rid.upper(), [])) > 1:
            return None  # ADR002 names the records that claim the id
        return rid

    def _aside(self, rel: Relation) -> bool:
        """Whether ``rel``, naming no record, only relates its record to a document of
        another kind: a relates-to not written as a record of this log is."""
        return rel.kind == "relates-to" and not self.resolver.in_series(rel.target)

    def _target_unit(
        self, rec: Record, rel: Relation, target_id: str, unit: str | None
    ) -> str | None:
        """``unit`` when it is a decision unit of the target, else None (ADR008)."""
        if unit is None:
            return None
        target = self.by_id[target_id.upper()][0]
        if unit in {u.key for u in target.parsed.units}:
            return unit
        self.problems.append(checks.not_a_unit(rec, rel, target, unit))
        return None


def _resolved(rel: Relation, target_id: str, unit: str | None) -> Relation:
    # dataclasses.replace is slow enough to show on 10,000-record logs
    return Relation(
        rel.kind, rel.target, rel.origin, rel.line, rel.verb, rel.label, target_id, unit
    )
