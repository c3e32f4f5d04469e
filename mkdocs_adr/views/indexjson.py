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
from ..log import Log
from ..model import Record, RootInfo
from ..safetext import json_text, plain, unsafe_href
from . import llms

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
    s = log.successor(rec.id)
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
        "url": _url(url(rec)),
        "path": rec.path,
        "domain": _text(rec.domain),
        "tags": [plain(t) for t in rec.parsed.tags],
        "date": rec.date,
        "review_by": _text(rec.parsed.review_by),
        "archived": rec.archived,
        "units": units,
    }


def document(log: Log, root: RootInfo, url: llms.Href) -> dict[str, Any]:
    """The ``index.json`` object of ``root``."""
    records = llms.by_root(log).get(root.path, [])
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
        "records": [record(log, r, url) for r in records],
    }


def render(log: Log, root: RootInfo, url: llms.Href) -> str:
    """The text of ``index.json``: the header's keys sorted, then ``records``, one record
    per line with its keys sorted (readable and diffable, and written by the C encoder
    where ``indent`` would take the slow one), one final newline."""
    doc = document(log, root, url)
    records = doc.pop("records")
    head = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    lines = [
        json.dumps(r, sort_keys=True, ensure_ascii=False, separators=(",", ":")) for r in records
    ]
    body = "[\n" + ",\n".join(lines) + "\n]" if lines else "[]"
    return json_text(head[:-1] + ',"records":' + body + "}") + "\n"
