"""The INDEX view: deterministic Markdown navigation over one root's whole log."""

from __future__ import annotations

import html
import posixpath
from collections.abc import Iterable

from ..log import Log
from ..model import Record, RootInfo

#: First line of every generated INDEX; its presence marks the file as ours.
MARKER = "<!-- mkdocs-adr:generated index. Do not edit: run `mkdocs-adr index` to update. -->"


def md_text(text: str) -> str:
    """Escape text for a Markdown table cell: no HTML, no links, no cell breaks."""
    out = html.escape(text, quote=True)
    for ch in "\\`*_[]|#":
        out = out.replace(ch, "\\" + ch)
    return out.replace("\n", " ")


def _link(from_dir: str, rec: Record) -> str:
    rel = posixpath.relpath(rec.path, from_dir or ".")
    return rel.replace(" ", "%20").replace("(", "%28").replace(")", "%29")


def root_records(log: Log, root: RootInfo) -> list[Record]:
    return [r for r in log.records if _root_path(log, r) == root.path]


def _root_path(log: Log, rec: Record) -> str:
    for cfg in log.config.roots:
        if cfg.path == rec.root:
            return log.config.rel(log.config.root_dir(cfg))
    return rec.root


def _row(log: Log, rec: Record, from_dir: str) -> str:
    succ = ""
    if rec.status == "superseded" or rec.units:
        s = log.successor(rec.id)
        target = log.get(s.current) if s.current else None
        if target is not None:
            succ = f"[{md_text(target.id)}]({_link(from_dir, target)})"
        elif s.state in ("ambiguous", "not-accepted") and s.candidates:
            succ = md_text(", ".join(s.candidates)) + f" ({s.state})"
    status = rec.status + (" (archived)" if rec.archived else "")
    return (
        f"| [{md_text(rec.id)}]({_link(from_dir, rec)}) | {md_text(rec.title)} | {status} | "
        f"{md_text(rec.date or '')} | {md_text(rec.domain or '')} | {succ} |"
    )


def _sort_key(rec: Record) -> tuple[object, ...]:
    return (rec.number is None, rec.number or 0, rec.id, rec.path)


def render(log: Log, root: RootInfo) -> str:
    """The INDEX.md text for ``root``: the same tree always gives the same bytes."""
    from_dir = root.path
    records = sorted(root_records(log, root), key=_sort_key)
    lines = [MARKER, "", f"# {md_text(root.title)}: index", ""]
    counts: dict[str, int] = {}
    for rec in records:
        counts[rec.status] = counts.get(rec.status, 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    archived = sum(1 for r in records if r.archived)
    lines.append(
        f"{len(records)} records ({summary or 'none'}); {archived} archived."
        if records
        else "No records yet."
    )
    lines.append("")
    header = [
        "| ID | Title | Status | Date | Domain | Current successor |",
        "|---|---|---|---|---|---|",
    ]
    if root.layout in ("layered", "mixed"):
        groups: dict[str, list[Record]] = {}
        for rec in records:
            groups.setdefault(rec.domain or "", []).append(rec)
        for domain in sorted(groups):
            lines.extend([f"## {md_text(domain) if domain else '(no domain)'}", ""])
            lines.extend(_table(log, groups[domain], from_dir, header))
            lines.append("")
    else:
        lines.extend(_table(log, records, from_dir, header))
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _table(log: Log, records: Iterable[Record], from_dir: str, header: list[str]) -> list[str]:
    return [*header, *(_row(log, r, from_dir) for r in records)]


def is_generated(text: str) -> bool:
    return text.lstrip("\ufeff").startswith(MARKER)
