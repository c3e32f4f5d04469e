"""``read_guard`` applied to a built search index (SPEC 4).

MkDocs' search plugin and Material's both write ``search/search_index.json`` as
``{"config": ..., "docs": [{"location", "title", "text", ...}]}``, one entry per page
section, ``location`` being ``page-url`` or ``page-url#anchor``. This module rewrites
the entries of archived records' pages:

- ``off``: nothing changes;
- ``warn``: every entry stays searchable, its title prefixed with ``[archived]``;
- ``guard``: the body is left out; one entry per page stays, with the record's title,
  id and status, so the record is still found by id or title.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ARCHIVED_MARK = "[archived] "


@dataclass(frozen=True)
class ArchivedPage:
    id: str
    status: str
    title: str


def _page_of(location: str) -> str:
    return location.split("#", 1)[0]


def apply(
    index: dict[str, Any],
    archived: Mapping[str, ArchivedPage],
    mode: str,
    *,
    html_text: bool = True,
) -> tuple[dict[str, Any], bool]:
    """The index with ``mode`` applied to the pages in ``archived`` (keyed by page URL as
    the index writes it); and whether anything changed. ``html_text`` says whether the
    index holds HTML (Material) or plain text (MkDocs' own search, which escapes when it
    shows results)."""
    quote = (lambda s: html.escape(s, quote=False)) if html_text else (lambda s: s)
    docs = index.get("docs")
    if mode == "off" or not archived or not isinstance(docs, list):
        return index, False
    out: list[Any] = []
    changed = False
    kept_pages: set[str] = set()
    for entry in docs:
        if not isinstance(entry, dict) or not isinstance(entry.get("location"), str):
            out.append(entry)
            continue
        page = _page_of(entry["location"])
        info = archived.get(page)
        if info is None:
            out.append(entry)
            continue
        changed = True
        if mode == "warn":
            title = str(entry.get("title", ""))
            if not title.startswith(ARCHIVED_MARK):
                entry = {**entry, "title": ARCHIVED_MARK + title}
            out.append(entry)
            continue
        # guard: one entry per page, no body
        if page in kept_pages:
            continue
        kept_pages.add(page)
        text = f"{info.id} {info.status} archived"
        out.append(
            {
                **{k: v for k, v in entry.items() if k not in ("text", "title")},
                "location": page,
                "title": quote(f"{info.id}: {info.title}"),
                "text": quote(text),
            }
        )
    return {**index, "docs": out}, changed
