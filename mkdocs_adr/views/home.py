"""The home page of a site whose ``docs_dir`` has none (``index.md`` or ``README.md``).

An ADR-only site (``docs_dir`` holding only the log) would otherwise have no page at
``/``: ``mkdocs serve`` answers 404 there and the ``mkdocs`` theme's site name links
nowhere. The page names each root and links its views; it is generated, never written
into ``docs_dir`` (ADR-0039).
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote

from ..model import STATUSES, status_label
from .index import md_text

#: The generated home page's source path.
HOME_SRC = "index.md"
#: Its heading, and so its navigation title (the records' section has the root's title).
HEADING = "Overview"


@dataclass(frozen=True)
class RootEntry:
    """One root as the home page lists it: its section title and its views' src paths."""

    title: str
    statuses: Sequence[str]
    index_src: str | None = None
    current_src: str | None = None
    graph_src: str | None = None


def _link(src: str) -> str:
    return quote(posixpath.normpath(src), safe="/")


def render(heading: str, roots: Sequence[RootEntry]) -> str:
    """Markdown of the home page: ``heading`` (text), then per root its counts and view
    links."""
    lines = [f"# {md_text(heading) or 'Decisions'}", ""]
    total = sum(len(r.statuses) for r in roots)
    lines.append(
        f"This site publishes {total} architecture decision record{'s' if total != 1 else ''}"
        + (f" ({md_text(roots[0].title)})." if len(roots) == 1 else ".")
    )
    lines.append("")
    for root in roots:
        if len(roots) > 1:
            lines.extend([f"## {md_text(root.title)}", ""])
        counts = Counter(root.statuses)
        summary = ", ".join(f"{counts[s]} {status_label(s)}" for s in STATUSES if counts[s])
        if summary:
            lines.extend([f"{len(root.statuses)} records: {summary}.", ""])
        views = [
            (root.index_src, "Decision index", "every record, its status and successor"),
            (root.current_src, "Current decisions", "what is in effect now, reviewed"),
            (root.graph_src, "Decision graph", "how the records supersede and amend each other"),
        ]
        for src, name, what in views:
            if src:
                lines.append(f"- [{name}]({_link(src)}): {what}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
