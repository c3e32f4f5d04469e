"""The CURRENT page as the site shows it: a freshness banner, or a DRAFT preview.

Pure rendering over data: the host checks the published view
(:func:`mkdocs_adr.freshness.check`) and hands the result to :func:`banner`, with
where the root's INDEX is published; under ``mkdocs serve`` only,
:func:`mkdocs_adr.preview.preview_pages` shows the newest unpublished summary draft in
its place, with its DRAFT banner (:func:`draft_banner`). Banners are raw HTML
admonitions (``admonition`` classes), so they look right in Material and in the
built-in ``mkdocs`` theme without any Markdown extension; every piece of text in them
is escaped. Which admonition and title each state shows is :data:`BANNERS`.
"""

from __future__ import annotations

import html
import time

from ..config import Config
from ..freshness import Freshness
from ..log import Log
from .hrefs import SourceHref
from .i18n import ENGLISH, Messages

#: Admonition type and title of the banner of each state of the CURRENT page.
#: (the English titles; another language's are its catalogue's ``current.<state>.title``)
BANNERS: dict[str, tuple[str, str]] = {
    state: (kind, ENGLISH.t(f"current.{state}.title", plan_id="{plan_id}"))
    for state, kind in (
        ("fresh", "success"),
        ("stale", "warning"),
        ("unverifiable", "danger"),
        ("draft", "info"),
    )
}


def _link(href: SourceHref, config: Config, project_rel: str | None, text: str) -> str:
    label = html.escape(text)
    if project_rel is None:
        return label
    src = config.src_uri(project_rel)
    target = href(src) if src is not None else None
    return f'<a href="{html.escape(target, quote=True)}">{label}</a>' if target else label


def _admonition(state: str, body: list[str], words: Messages = ENGLISH, **title: str) -> str:
    kind, heading = BANNERS[state]
    if words is not ENGLISH:
        heading = words.table[f"current.{state}.title"]
    inner = "\n".join(body)
    return (
        f'<div class="admonition {kind} adr-banner adr-banner--current-{state} '
        f'adr-current-banner" data-adr-current="{state}">\n'
        f'<p class="admonition-title">{html.escape(heading.format_map(title))}</p>\n'
        f"{inner}\n</div>\n"
    )


def banner(
    log: Log,
    result: Freshness,
    *,
    href: SourceHref,
    index_target: str,
    checked_at: str | None = None,
    words: Messages = ENGLISH,
) -> str:
    """The freshness banner for a published CURRENT page (HTML, escaped).

    ``index_target`` is the project-relative path the root's INDEX is published at
    (:attr:`mkdocs_adr.viewstate.RootViews.index_target`).
    """
    checked = checked_at or time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    index = _link(href, log.config, index_target, words.t("current.index"))
    if result.state == "fresh" and result.manifest is not None:
        return _fresh(result, checked, index, words)
    if result.state == "stale" and result.manifest is not None:
        return _stale(log, result, href, checked, index, words)
    return _unverifiable(result, index, words)


def _fresh(result: Freshness, checked: str, index: str, words: Messages) -> str:
    assert result.manifest is not None
    manifest = result.manifest
    text = words.t(
        "current.fresh.text",
        n=len(manifest.sources),
        checked=html.escape(checked),
        created=html.escape(manifest.created),
        index=index,
    )
    return _admonition("fresh", [f"<p>{text}</p>"], words)


def _stale(
    log: Log, result: Freshness, href: SourceHref, checked: str, index: str, words: Messages
) -> str:
    assert result.manifest is not None
    semantic = any(r.semantic for r in result.reasons)
    advice = (
        words.t("current.stale.semantic", command="<code>mkdocs-adr plan --mode summary</code>")
        if semantic
        else words.t("current.stale.paths", command="<code>mkdocs-adr archive</code>")
    )
    lead = words.t(
        "current.stale.text",
        created=html.escape(result.manifest.created),
        checked=html.escape(checked),
    )
    return _admonition(
        "stale",
        [
            f"<p>{lead}</p>",
            "<ul>\n" + "\n".join(_reasons(log, result, href)) + "\n</ul>",
            f"<p>{words.t('current.stale.end', advice=advice, index=index)}</p>",
        ],
        words,
    )


def _reasons(log: Log, result: Freshness, href: SourceHref) -> list[str]:
    """One list item per stale reason, its leading record id linked to the record."""
    items = []
    for reason in result.reasons:
        ids = [i for i in reason.ids if i]
        text = reason.text
        if ids and text.startswith(ids[0]):
            rec = log.get(ids[0].split("#")[0])
            lead = _link(href, log.config, rec.path if rec else None, ids[0])
            items.append(f"<li>{lead}{html.escape(text[len(ids[0]) :])}</li>")
        else:
            items.append(f"<li>{html.escape(text)}</li>")
    return items


def _unverifiable(result: Freshness, index: str, words: Messages) -> str:
    """Why it cannot be checked is the engine's English (:mod:`mkdocs_adr.freshness`)."""
    why = result.reasons[0].text if result.reasons else result.detail
    text = words.t(
        "current.unverifiable.text",
        index=index,
        command="<code>mkdocs-adr plan --mode summary</code>",
    )
    return _admonition("unverifiable", [f"<p>{html.escape(why)}.</p>", f"<p>{text}</p>"], words)


# --------------------------------------------------------------------------- preview


def draft_banner(
    plan_id: str, version: int, state: str, differences: list[str], words: Messages = ENGLISH
) -> str:
    """The DRAFT banner over a previewed summary draft (HTML, escaped).

    The data comes from :func:`mkdocs_adr.preview.preview_pages`; this only
    renders it.
    """
    lead = words.t(
        "current.draft.text",
        plan=f"<code>{html.escape(plan_id)}</code>",
        version=version,
        state=html.escape(state),
    )
    end = words.t(
        "current.draft.end",
        command=f"<code>mkdocs-adr plan --confirm {html.escape(plan_id)}</code>",
        build="<code>mkdocs build</code>",
    )
    body = [
        f"<p>{lead}</p>",
        "<ul>\n" + "\n".join(f"<li>{html.escape(d)}</li>" for d in differences) + "\n</ul>",
        f"<p>{end}</p>",
    ]
    return _admonition("draft", body, words, plan_id=plan_id)
