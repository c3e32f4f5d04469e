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

from ..model import STATUSES
from ..safetext import md_text
from .i18n import ENGLISH, Messages

#: The generated home page's source path.
HOME_SRC = "index.md"
#: Its heading, and so its navigation title (the records' section has the root's title).
HEADING = ENGLISH.t("home.heading")


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


def render(heading: str, roots: Sequence[RootEntry], words: Messages = ENGLISH) -> str:
    """Markdown of the home page: ``heading`` (text), then per root its counts and view
    links, in the language of ``words``."""
    lines = [f"# {md_text(heading) or md_text(words.t('home.section'))}", ""]
    total = sum(len(r.statuses) for r in roots)
    titled = words.t("home.titled", title=md_text(roots[0].title)) if len(roots) == 1 else ""
    lines.append(words.n("home.lead", total, titled=titled))
    lines.append("")
    for root in roots:
        if len(roots) > 1:
            lines.extend([f"## {md_text(root.title)}", ""])
        counts = Counter(root.statuses)
        summary = words.t("list.sep").join(
            words.t("index.count", n=counts[s], status=words.status(s))
            for s in STATUSES
            if counts[s]
        )
        if summary:
            lines.extend([words.t("home.count", n=len(root.statuses), summary=summary), ""])
        views = [
            (root.index_src, "index"),
            (root.current_src, "current"),
            (root.graph_src, "graph"),
        ]
        for src, key in views:
            if src:
                name, what = words.t(f"home.{key}"), words.t(f"home.{key}-what")
                lines.append(f"- [{md_text(name)}]({_link(src)}): {md_text(what)}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
