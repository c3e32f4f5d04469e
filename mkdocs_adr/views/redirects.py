"""Old locations of records that moved, and the redirect pages that keep them alive.

Two sources say where a record used to live:

- the moves archive receipts record, read by the journal
  (:func:`mkdocs_adr.journal.receipt_moves`) and handed in as data: a receipt is
  evidence, never an instruction, and this module reads no file;
- ``redirect-from`` frontmatter on the record: paths relative to the record's ADR root
  (``0002-old-name.md``, ``payments/0002-x.md``), or relative to ``docs_dir`` when they
  start with ``/``.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..log import Log
from ..model import Record
from ..paths import normalize


class Move(Protocol):
    """A recorded move (:class:`mkdocs_adr.journal.RecordedMove` is one): normalized
    project-relative paths and the receipt that records it."""

    @property
    def source(self) -> str: ...
    @property
    def target(self) -> str: ...
    @property
    def receipt(self) -> str: ...


@dataclass(frozen=True)
class OldLocation:
    src: str  # docs_dir-relative Markdown path the record used to have
    record: Record
    source: str  # "receipt:<file name>" or "frontmatter"


def docs_rel(log: Log, project_rel: str) -> str | None:
    """A project-relative path as the site's ``src_uri`` (below ``docs_dir``, or in a
    root outside it, :meth:`Config.src_uri`), or None when the site does not publish it."""
    return log.config.src_uri(project_rel)


def old_locations(log: Log, moves: Sequence[Move]) -> list[OldLocation]:
    """Every earlier path of a current record, from recorded ``moves`` and frontmatter,
    sorted."""
    found: dict[str, OldLocation] = {}
    for old in _moved(log, moves):
        found.setdefault(old.src, old)
    for old in _redirected_from(log):
        found.setdefault(old.src, old)
    return [found[k] for k in sorted(found)]


def _moved(log: Log, moves: Sequence[Move]) -> list[OldLocation]:
    forward: dict[str, str] = {}
    for m in moves:
        forward.setdefault(m.source, m.target)
    out = []
    for m in moves:
        # follow a chain of moves (a -> b -> c) to where the record is now
        seen = {m.source}
        here = forward[m.source]
        while here not in log.by_path and here in forward and here not in seen:
            seen.add(here)
            here = forward[here]
        rec = log.by_path.get(here)
        src = docs_rel(log, m.source)
        if rec is not None and src and src.endswith((".md", ".markdown")):
            out.append(OldLocation(src, rec, f"receipt:{m.receipt}"))
    return out


def _redirected_from(log: Log) -> list[OldLocation]:
    roots = {r.path: r for r in log.config.roots}
    out = []
    for rec in log.records:
        for value in rec.parsed.redirect_from:
            text = value.strip()
            if text.startswith("/"):
                src = normalize(text.lstrip("/"))
            else:
                root = roots.get(rec.root)
                base = root.path if root else rec.root
                src = normalize(f"{base}/{text}")
            if src and src.endswith((".md", ".markdown")):
                out.append(OldLocation(src, rec, "frontmatter"))
    return out


def page(target_url: str, title: str) -> str:
    """A redirect page: works without JavaScript (meta refresh) and tells search engines
    where the page went (canonical link)."""
    url = html.escape(target_url, quote=True)
    text = html.escape(title, quote=True)
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>Moved: {text}</title>\n"
        f'<link rel="canonical" href="{url}">\n'
        '<meta name="robots" content="noindex">\n'
        f'<meta http-equiv="refresh" content="0; url={url}">\n'
        "</head>\n<body>\n"
        f'<p>This decision record moved to <a href="{url}">{text}</a>.</p>\n'
        "</body>\n</html>\n"
    )
