"""The log after proposed edits, worked out in memory: nothing is written.

Authoring checks that edited records read back as intended, and archive works
out the INDEX and manifest after its moves, on :func:`after`'s answer. Files
are placed by discovery's own rule (:func:`mkdocs_adr.discovery.locate`: a file
moved under ``archive/`` is archived, a template is no record), identified and
analysed by :mod:`mkdocs_adr.log` and checked by :mod:`mkdocs_adr.checks`, so
the answer is the one a real reload would give once the edits are made.

Records no edit touches are reused as they are (no re-reading, no
re-parsing); a moved file that no edit rewrites is read from where it is now.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from . import checks
from .config import Config
from .discovery import Found, layouts_of, locate
from .log import Log, analyse, identify, text_hash
from .model import Excluded, Problem, Record
from .parsing import ParseOptions, parse_bytes


@dataclass(frozen=True)
class Write:
    """The file at ``path`` (new or not) holds ``data``."""

    path: str  # project-relative, POSIX
    data: bytes


@dataclass(frozen=True)
class Move:
    """The file at ``source`` moves to ``target``, its content unchanged."""

    source: str
    target: str


@dataclass(frozen=True)
class Remove:
    """The file at ``path`` is gone."""

    path: str


Edit = Write | Move | Remove


@dataclass(frozen=True)
class _OnDisk:
    """A file's content is the bytes now on disk at ``path`` (read when needed)."""

    path: str
    symlink: bool = False


#: Where a file's content comes from after the edits.
_Origin = Record | bytes | _OnDisk


def after(log: Log, edits: Iterable[Edit], *, today: dt.date | None = None) -> Log:
    """``log`` as it would read once ``edits`` are made, in order.

    Review-by dates are judged against ``today``, by default the day ``log``
    was checked against.
    """
    config = log.config
    files, excluded, touched = _apply(log, edits)
    intake: list[Problem] = [
        p for p in log.intake if not (p.code == "ADR013" and p.path in touched)
    ]
    options = ParseOptions.from_config(config)
    prefixes = {r.path: r.prefix for r in config.roots}
    bases = {r.path: _base(config, r.path) for r in config.roots}
    order = {r.path: i for i, r in reversed(list(enumerate(config.roots)))}
    placed: list[tuple[int, str, Record]] = []  # (root order, root-relative path, record)
    for path, origin in files.items():
        if isinstance(origin, Record) and origin.path == path:
            # untouched: reused as it is, in the place discovery found it
            placed.append((order[origin.root], path[len(bases[origin.root]) :], origin))
            continue
        data = _content(config, origin, path, intake)
        where = locate(config, path, data or b"")
        if isinstance(where, Excluded):
            excluded[path] = where
        if not isinstance(where, Found) or data is None:
            continue
        if not isinstance(origin, bytes) and origin.symlink:
            where = Found(
                where.root, where.file, path, where.rel, where.domain, where.archived, True
            )
        parsed = parse_bytes(data, path=path, options=options)
        rec = identify(where, parsed, text_hash(data), prefixes[where.root.path])
        placed.append((order[rec.root], where.rel, rec))
    placed.sort(key=lambda item: item[:2])
    return analyse(
        config,
        [rec for _order, _rel, rec in placed],
        excluded=sorted(excluded.values(), key=lambda e: e.path),
        layouts=layouts_of(config, [(rec.root, rel) for _order, rel, rec in placed]),
        intake=intake,
        today=today or log.today,
    )


def _base(config: Config, root_path: str) -> str:
    """The project-relative prefix of a root's files ("" for the project folder)."""
    root = next(r for r in config.roots if r.path == root_path)
    base = config.rel(config.root_dir(root))
    return "" if base == "." else base + "/"


def _apply(
    log: Log, edits: Iterable[Edit]
) -> tuple[dict[str, _Origin], dict[str, Excluded], set[str]]:
    """The files after ``edits``: path -> origin; excluded files; every path touched."""
    files: dict[str, _Origin] = {rec.path: rec for rec in log.records}
    excluded = {e.path: e for e in log.excluded}
    touched: set[str] = set()
    for edit in edits:
        if isinstance(edit, Write):
            files[edit.path] = edit.data
            excluded.pop(edit.path, None)
            touched.add(edit.path)
        elif isinstance(edit, Move):
            origin = files.pop(edit.source, None)
            files[edit.target] = _OnDisk(edit.source) if origin is None else origin
            excluded.pop(edit.source, None)
            excluded.pop(edit.target, None)
            touched.update((edit.source, edit.target))
        else:
            files.pop(edit.path, None)
            excluded.pop(edit.path, None)
            touched.add(edit.path)
    return files, excluded, touched


def _content(config: Config, origin: _Origin, path: str, intake: list[Problem]) -> bytes | None:
    """The bytes a file at ``path`` holds after the edits, or None (unreadable, reported)."""
    if isinstance(origin, bytes):
        return origin
    source = origin.path
    try:
        with open(config.project_dir / source, "rb") as fh:
            return fh.read()
    except OSError as exc:
        if isinstance(locate(config, path, b""), Found):
            intake.append(checks.unreadable(path, exc))
        return None
