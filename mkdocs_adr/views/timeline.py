"""The timeline view: one root's records grouped by month, newest first.

The page is virtual (never committed). Its Markdown holds the title, one ``## YYYY-MM``
heading per month (so the theme's table of contents lists the months) and a slot under
each (:data:`MONTH_SLOT`); the host draws the entries as HTML after search indexing
(:func:`month_html`), as it does the INDEX tables, so that the timeline does not match
every record's id in search. Records without a date come last, under "Undated".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..log import Log
from ..model import Record
from . import index as index_view
from . import page as page_view
from .i18n import ENGLISH, Messages

#: A month's place in :func:`render_slotted` output.
MONTH_SLOT = "<!-- mkdocs-adr:slot timeline-{n} -->"
UNDATED = ENGLISH.t("timeline.undated")


@dataclass(frozen=True)
class Month:
    key: str  # ``2026-12``, or "" for records without a date
    records: tuple[Record, ...]

    @property
    def heading(self) -> str:
        return self.key or UNDATED


def months(records: list[Record]) -> list[Month]:
    """``records`` by month (``YYYY-MM`` of the ISO date), newest month first; in a
    month, newest first, then the higher number first; the undated last, by number."""
    groups: dict[str, list[Record]] = {}
    for rec in records:
        groups.setdefault((rec.date or "")[:7], []).append(rec)
    out = []
    for key in sorted((k for k in groups if k), reverse=True):
        recs = sorted(groups[key], key=lambda r: (r.date or "", r.number or 0, r.id), reverse=True)
        out.append(Month(key, tuple(recs)))
    if "" in groups:
        out.append(Month("", tuple(sorted(groups[""], key=page_view.sort_key))))
    return out


def render_slotted(title: str, found: list[Month], total: int, words: Messages = ENGLISH) -> str:
    """The page's Markdown: ``title`` (already Markdown-escaped), a summary line, and a
    heading and slot per month, in the site's language (``words``)."""
    lines = [f"# {title}", ""]
    if not total:
        lines.append(words.t("index.empty"))
    else:
        dated = sum(len(m.records) for m in found if m.key)
        undated = total - dated
        lines.append(
            words.t("timeline.summary-undated", n=total, undated=undated)
            if undated
            else words.n("timeline.summary", total)
        )
    lines.append("")
    for n, month in enumerate(found):
        shown = month.key or words.t("timeline.undated")
        lines.extend([f"## {shown}", "", MONTH_SLOT.format(n=n), ""])
    return "\n".join(lines).rstrip("\n") + "\n"


def month_html(
    log: Log, month: Month, href: Callable[[Record], str | None], words: Messages = ENGLISH
) -> str:
    """A month's entries: date, linked id and title, status badge, successor."""
    esc = page_view.esc
    out = []
    for rec in month.records:
        url = href(rec)
        name = f"{rec.id} {rec.title}"
        title = (
            f'<a class="adr-timeline-title" href="{esc(url)}">{esc(name)}</a>'
            if url is not None
            else f'<span class="adr-timeline-title">{esc(name)}</span>'
        )
        parts = [
            f'<span class="adr-timeline-date">{esc(rec.date or "")}</span>' if rec.date else "",
            title,
            page_view.badge(rec.status, rec.raw_status, words),
        ]
        if rec.archived:
            parts.append(page_view.archived_tag(words))
        successors = index_view.site_successors(log, rec)
        if successors:
            parts.append(
                '<span class="adr-timeline-successor"><span class="adr-label">'
                f"{page_view.esc(words.t('timeline.successor'))}:</span> "
                f"{index_view.successor_html(successors, href, words)}</span>"
            )
        out.append(
            f'<div class="adr-timeline-entry" data-adr-id="{esc(rec.id)}" '
            f'data-status="{esc(rec.status)}">{" ".join(p for p in parts if p)}</div>'
        )
    return f'<div class="adr-timeline-month">{"".join(out)}</div>'
