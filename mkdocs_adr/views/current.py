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

#: Admonition type and title of the banner of each state of the CURRENT page.
BANNERS: dict[str, tuple[str, str]] = {
    "fresh": ("success", "Current: this view matches its sources"),
    "stale": ("warning", "Stale: the records changed since this view was published"),
    "unverifiable": ("danger", "Unverifiable: this view cannot be checked against its sources"),
    "draft": ("info", "DRAFT: unpublished summary plan {plan_id}"),
}


def _link(href: SourceHref, config: Config, project_rel: str | None, text: str) -> str:
    label = html.escape(text)
    if project_rel is None:
        return label
    src = config.src_uri(project_rel)
    target = href(src) if src is not None else None
    return f'<a href="{html.escape(target, quote=True)}">{label}</a>' if target else label


def _admonition(state: str, body: list[str], **title: str) -> str:
    kind, heading = BANNERS[state]
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
) -> str:
    """The freshness banner for a published CURRENT page (HTML, escaped).

    ``index_target`` is the project-relative path the root's INDEX is published at
    (:attr:`mkdocs_adr.viewstate.RootViews.index_target`).
    """
    checked = checked_at or time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    index = _link(href, log.config, index_target, "index")
    if result.state == "fresh" and result.manifest is not None:
        return _fresh(result, checked, index)
    if result.state == "stale" and result.manifest is not None:
        return _stale(log, result, href, checked, index)
    return _unverifiable(result, index)


def _fresh(result: Freshness, checked: str, index: str) -> str:
    assert result.manifest is not None
    manifest = result.manifest
    return _admonition(
        "fresh",
        [
            f"<p>Verified against {len(manifest.sources)} sources when this site was built "
            f"({html.escape(checked)}); published {html.escape(manifest.created)}. "
            "It is a derived view: the records decide, and it proves nothing about the "
            f"code. Every record is in the {index}.</p>",
        ],
    )


def _stale(log: Log, result: Freshness, href: SourceHref, checked: str, index: str) -> str:
    assert result.manifest is not None
    semantic = any(r.semantic for r in result.reasons)
    advice = (
        "Read the changed records themselves until a new draft is reviewed and "
        "published (<code>mkdocs-adr plan --mode summary</code>)."
        if semantic
        else "Only paths changed, with identical content; the manifest needs the "
        "mechanical update that <code>mkdocs-adr archive</code> makes."
    )
    return _admonition(
        "stale",
        [
            f"<p>Published {html.escape(result.manifest.created)}; checked when this site was "
            f"built ({html.escape(checked)}). What changed:</p>",
            "<ul>\n" + "\n".join(_reasons(log, result, href)) + "\n</ul>",
            f"<p>{advice} Every record is in the {index}.</p>",
        ],
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


def _unverifiable(result: Freshness, index: str) -> str:
    why = result.reasons[0].text if result.reasons else result.detail
    return _admonition(
        "unverifiable",
        [
            f"<p>{html.escape(why)}.</p>",
            "<p>It may be out of date, and it is not claimed to be current. Read the decisions "
            f"through the {index}, or publish a reviewed view with "
            "<code>mkdocs-adr plan --mode summary</code>.</p>",
        ],
    )


# --------------------------------------------------------------------------- preview


def draft_banner(plan_id: str, version: int, state: str, differences: list[str]) -> str:
    """The DRAFT banner over a previewed summary draft (HTML, escaped).

    The data comes from :func:`mkdocs_adr.preview.preview_pages`; this only
    renders it.
    """
    body = [
        f"<p>This page previews the unpublished draft of plan "
        f"<code>{html.escape(plan_id)}</code> (version {version}, "
        f"{html.escape(state)}), not the published view. Differences:</p>",
        "<ul>\n" + "\n".join(f"<li>{html.escape(d)}</li>" for d in differences) + "\n</ul>",
        f"<p>Publish it with <code>mkdocs-adr plan --confirm {html.escape(plan_id)}"
        "</code>; <code>mkdocs build</code> never publishes a draft.</p>",
    ]
    return _admonition("draft", body, plan_id=plan_id)
