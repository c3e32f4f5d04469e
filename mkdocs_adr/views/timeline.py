"""The timeline view: one root's records grouped by month, newest first.

The page is virtual (never committed). Its Markdown holds the title, one ``## YYYY-MM``
heading per month (so the theme's table of contents lists the months) and a slot under
each (:data:`MONTH_SLOT`); the host draws the entries as HTML after search indexing
(:func:`month_html`), as it does the INDEX tables, so that the timeline does not match
every record's id in search. Records without a date come last, under "Undated".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..log import Log
from ..model import Record
from . import index as index_view
from . import page as page_view
from . import piece_key
from .i18n import ENGLISH, Messages
from .kept import Kept

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


def months(records: Sequence[Record], kept: Kept | None = None) -> list[Month]:
    """``records`` by month (``YYYY-MM`` of the ISO date), newest month first; in a
    month, newest first, then the higher number first; the undated last, by number.
    ``kept``: the last call's arrangement, for records that read the same (ADR-0067)."""
    if kept is None:
        groups = [[records[i] for i in places] for places in _arrange(records)]
    else:
        groups = kept.arranged("months", records, _reads, _arrange)
    return [Month((group[0].date or "")[:7], tuple(group)) for group in groups]


def _reads(rec: Record) -> tuple[object, ...]:
    """What :func:`_arrange` reads of a record."""
    return (rec.date, rec.number, rec.id, rec.path)


def _arrange(records: Sequence[Record]) -> list[list[int]]:
    """Each month's places in ``records``, as :func:`months` orders them."""
    groups: dict[str, list[int]] = {}
    for i, rec in enumerate(records):
        groups.setdefault((rec.date or "")[:7], []).append(i)
    out = []
    for key in sorted((k for k in groups if k), reverse=True):
        out.append(
            sorted(
                groups[key],
                key=lambda i: (records[i].date or "", records[i].number or 0, records[i].id),
                reverse=True,
            )
        )
    if "" in groups:
        out.append(sorted(groups[""], key=lambda i: page_view.sort_key(records[i])))
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


#: An entry of the timeline by its key (see :func:`month_html`).
Entries = dict[tuple[object, ...], str]


def month_html(
    log: Log,
    month: Month,
    href: Callable[[Record], str | None],
    words: Messages = ENGLISH,
    entries: Entries | None = None,
    kept: Kept | None = None,
) -> str:
    """A month's entries: date, linked id and title, status badge, successor.

    ``entries``: the entries of an earlier render by their key (the file's content hash,
    the record's identity, its URL, the language and what its successor shows), which a
    long-lived host keeps for the same options: an entry whose key is there is not drawn
    again, and the entries drawn are added (ADR-0050). ``kept``: each record's entry of
    the last render, for a record that is the same object and reads nothing that
    changed since (ADR-0062); the host begins it with the page's URL and the language."""

    def entry(rec: Record) -> str:
        url = href(rec)
        successors = index_view.site_successors(log, rec)
        if entries is None:
            return _entry(rec, url, successors, href, words)
        key = (
            *piece_key(rec, url),
            words.lang,
            index_view.successors_key(successors, href),
        )
        found = entries.get(key)
        if found is None:
            found = entries[key] = _entry(rec, url, successors, href, words)
        return found

    if kept is None:
        out = list(map(entry, month.records))
    else:
        out = kept.each(month.key, month.records, entry)
    return f'<div class="adr-timeline-month">{"".join(out)}</div>'


def _entry(
    rec: Record,
    url: str | None,
    successors: list[tuple[str, index_view.Successor]],
    href: Callable[[Record], str | None],
    words: Messages,
) -> str:
    esc = page_view.esc
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
    if successors:
        parts.append(
            '<span class="adr-timeline-successor"><span class="adr-label">'
            f"{esc(words.t('timeline.successor'))}:</span> "
            f"{index_view.successor_html(successors, href, words)}</span>"
        )
    return (
        f'<div class="adr-timeline-entry" data-adr-id="{esc(rec.id)}" '
        f'data-status="{esc(rec.status)}">{" ".join(p for p in parts if p)}</div>'
    )
