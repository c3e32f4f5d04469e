"""``index.json``: every record of one ADR root as data, published at the root's URL.

One object per record (id, title, status, whether it is in effect, its current
successor, its page URL, its source path, domain, tags, dates, archived, the decision
units of a container), in INDEX order, under a header that names the format
(``schema``, ``version``), the JSON Schema it validates against (shipped in the package
as ``schemas/index.schema.json``) and the generator. Keys are sorted and nothing in it
depends on the time of the build: the same log gives the same bytes.

Text is the records' own with control sequences removed
(:func:`~mkdocs_adr.safetext.plain`); the JSON text escapes what a terminal could act
on (:func:`~mkdocs_adr.safetext.json_text`). Pure data from the log: the host hands in
each record's page URL (relative to the ``index.json`` file, or absolute).
"""

from __future__ import annotations

import json
from typing import Any

from .. import __version__
from ..graph import Succession
from ..log import Log
from ..model import Record, RootInfo
from ..safetext import json_text, plain, unsafe_href
from . import llms, piece_key
from .kept import Kept

#: The file name at each root's URL.
NAME = "index.json"
SCHEMA = "mkdocs-adr/index"
VERSION = 1
#: The package resource holding the JSON Schema.
SCHEMA_FILE = "schemas/index.schema.json"
#: Its ``$id`` (a test checks it against the file).
SCHEMA_ID = "https://github.com/mkdocs-adr/mkdocs-adr/schemas/index.schema.json"


def _text(value: str | None) -> str | None:
    return None if value is None else plain(value)


def _url(value: str | None) -> str | None:
    return None if not value or unsafe_href(value) else value


def record(log: Log, rec: Record, url: llms.Href) -> dict[str, Any]:
    """One record's entry."""
    return _record(log, rec, url(rec))


def _record(log: Log, rec: Record, url: str | None, s: Succession | None = None) -> dict[str, Any]:
    s = s or log.successor(rec.id)
    units = [
        {
            "key": u.key,
            "id": f"{rec.id}#{u.key}",
            "title": plain(u.title),
            "status": u.status,
            "in_effect": log.in_effect(rec, u),
            "successor": log.successor(rec.id, u.key).current,
        }
        for u in rec.units
    ]
    return {
        "id": rec.id,
        "title": plain(rec.title),
        "summary": llms.summary(log, rec),
        "status": rec.status,
        "counted_as": log.status_of(rec),
        "in_effect": log.in_effect(rec),
        "successor": s.current,
        "succession": s.state,
        "successor_candidates": list(s.candidates) if not s.current else [],
        "url": _url(url),
        "path": rec.path,
        "domain": _text(rec.domain),
        "tags": [plain(t) for t in rec.parsed.tags],
        "date": rec.date,
        "review_by": _text(rec.parsed.review_by),
        "archived": rec.archived,
        "units": units,
    }


def _head(log: Log, root: RootInfo) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "json_schema": SCHEMA_ID,
        "generator": {"name": "mkdocs-adr", "version": __version__},
        "root": {
            "path": root.path,
            "prefix": root.prefix,
            "title": plain(root.title),
            "layout": root.layout,
        },
    }


def document(log: Log, root: RootInfo, url: llms.Href) -> dict[str, Any]:
    """The ``index.json`` object of ``root``."""
    records = llms.by_root(log).get(root.path, [])
    return {**_head(log, root), "records": [record(log, r, url) for r in records]}


#: A record's line of ``index.json`` by :func:`line_key` (see :func:`render`).
Lines = dict[tuple[Any, ...], str]


def line_key(
    log: Log, rec: Record, url: str | None, s: Succession | None = None
) -> tuple[Any, ...]:
    """Everything :func:`record` reads, as a small hashable key (ADR-0050): the file's
    content hash (title, status, tags, dates, units and the summary's sentence come from
    it), the record's identity and place, its page URL, and what the analysis says of it
    and of each unit (counted status, in effect, successor). ``s``: its succession, when
    the caller has it."""
    return (
        *piece_key(rec, url),
        log.status_of(rec),
        log.in_effect(rec),
        s or log.successor(rec.id),
        tuple((log.in_effect(rec, u), log.successor(rec.id, u.key).current) for u in rec.units),
    )


def _line(data: dict[str, Any]) -> str:
    """One record's line: what :func:`~mkdocs_adr.safetext.json_text` makes of its JSON
    (the escaping is per character: a line escaped alone reads as it does in the file)."""
    return json_text(json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")))


def render(
    log: Log,
    root: RootInfo,
    url: llms.Href,
    lines: Lines | None = None,
    *,
    kept: Kept | None = None,
) -> str:
    """The text of ``index.json``: the header's keys sorted, then ``records``, one record
    per line with its keys sorted (readable and diffable, and written by the C encoder
    where ``indent`` would take the slow one), one final newline.

    ``lines``: the lines of an earlier render, by :func:`line_key`, which a long-lived
    host (``mkdocs serve``) keeps for the same options: a record whose key is there is
    not made again, and the lines made are added (ADR-0050). ``kept``: the lines of
    the last render by record, for a record that is the same object and reads nothing
    that changed since (ADR-0062)."""

    def made(rec: Record) -> str:
        target = url(rec)
        if lines is None:
            return _line(_record(log, rec, target))
        s = log.successor(rec.id)
        key = line_key(log, rec, target, s)
        found = lines.get(key)
        if found is None:
            found = lines[key] = _line(_record(log, rec, target, s))
        return found

    records = llms.by_root(log).get(root.path, [])
    out = list(map(made, records)) if kept is None else kept.each(None, records, made)
    head = _line(_head(log, root))
    body = "[\n" + ",\n".join(out) + "\n]" if out else "[]"
    return head[:-1] + ',"records":' + body + "}\n"
