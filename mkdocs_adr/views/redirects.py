"""Old locations of records that moved, and the redirect pages that keep them alive.

Two sources say where a record used to live:

- archive receipts, ``<work_dir>/receipts/*.json``: a JSON object with a ``moves`` list
  of ``{"from": "<project-relative path>", "to": "<project-relative path>"}``. They are
  read defensively: anything else in a receipt, or any receipt that does not parse, is
  ignored (a receipt is evidence, never an instruction);
- ``redirect-from`` frontmatter on the record: paths relative to the record's ADR root
  (``0002-old-name.md``, ``payments/0002-x.md``), or relative to ``docs_dir`` when they
  start with ``/``.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path

from ..log import Log
from ..model import Record
from ..paths import docs_relative, normalize

MAX_RECEIPT_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class OldLocation:
    src: str  # docs_dir-relative Markdown path the record used to have
    record: Record
    source: str  # "receipt:<file name>" or "frontmatter"


def docs_rel(log: Log, project_rel: str) -> str | None:
    """A project-relative path as a ``docs_dir``-relative one, or None outside docs."""
    return docs_relative(project_rel, log.config.rel(log.config.docs_dir))


def _receipt_moves(work: Path) -> list[tuple[str, str, str]]:
    folder = work / "receipts"
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix == ".json" and p.is_file())
    except OSError:
        return []
    moves: list[tuple[str, str, str]] = []
    for path in files:
        try:
            if path.stat().st_size > MAX_RECEIPT_BYTES:
                continue
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
            continue
        for move in data["moves"]:
            if not isinstance(move, dict):
                continue
            src, dst = move.get("from"), move.get("to")
            if isinstance(src, str) and isinstance(dst, str) and src and dst:
                a, b = normalize(src), normalize(dst)
                if a and b and a != b:
                    moves.append((a, b, path.name))
    return moves


def old_locations(log: Log) -> list[OldLocation]:
    """Every earlier path of a current record, from receipts and frontmatter, sorted."""
    found: dict[str, OldLocation] = {}
    moves = _receipt_moves(log.config.work_path)
    forward: dict[str, str] = {}
    for a, b, _ in moves:
        forward.setdefault(a, b)
    for a, _b, name in moves:
        # follow a chain of moves (a -> b -> c) to where the record is now
        seen = {a}
        here = forward[a]
        while here not in log.by_path and here in forward and here not in seen:
            seen.add(here)
            here = forward[here]
        rec = log.by_path.get(here)
        src = docs_rel(log, a)
        if rec is not None and src and src.endswith((".md", ".markdown")):
            found.setdefault(src, OldLocation(src, rec, f"receipt:{name}"))
    roots = {r.path: r for r in log.config.roots}
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
                found.setdefault(src, OldLocation(src, rec, "frontmatter"))
    return [found[k] for k in sorted(found)]


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
