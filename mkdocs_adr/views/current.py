"""The CURRENT page as the site shows it: a freshness banner, or a DRAFT preview.

Pure rendering over the engine; the plugin calls :func:`page_banner` for the
CURRENT page of each root and, under ``mkdocs serve`` only,
:func:`mkdocs_adr.preview.preview_pages` to show the newest unpublished summary
draft in its place, with its DRAFT banner (:func:`draft_banner`). Banners are raw
HTML admonitions (``admonition`` classes), so they look right in Material and
in the built-in ``mkdocs`` theme without any Markdown extension; every piece of
text in them is escaped.
"""

from __future__ import annotations

import html
import posixpath
import time

from ..config import Config
from ..freshness import Freshness, check, root_pairs
from ..log import Log
from ..model import RootInfo
from ..paths import docs_relative
from . import state as view_state
from .hrefs import SourceHref

#: Maps a docs-relative source path to an href relative to the page, or None.


def current_root(log: Log, src_uri: str) -> RootInfo | None:
    """The root whose CURRENT page ``src_uri`` is, if any."""
    for cfg, info in root_pairs(log):
        if src_uri == posixpath.join(cfg.path, log.config.current_page):
            return info
    return None


def _link(href: SourceHref, config: Config, project_rel: str | None, text: str) -> str:
    label = html.escape(text)
    if project_rel is None:
        return label
    src = docs_relative(project_rel, config.rel(config.docs_dir))
    target = href(src) if src is not None else None
    return f'<a href="{html.escape(target, quote=True)}">{label}</a>' if target else label


def _admonition(kind: str, state: str, title: str, body: list[str]) -> str:
    inner = "\n".join(body)
    return (
        f'<div class="admonition {kind} adr-banner adr-banner--current-{state} '
        f'adr-current-banner" data-adr-current="{state}">\n'
        f'<p class="admonition-title">{html.escape(title)}</p>\n{inner}\n</div>\n'
    )


def banner(log: Log, result: Freshness, *, href: SourceHref, checked_at: str | None = None) -> str:
    """The freshness banner for a published CURRENT page (HTML, escaped)."""
    config = log.config
    checked = checked_at or time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    _, index_target, _ = view_state.index_state(log, result.root)
    index = _link(href, config, index_target, "index")
    manifest = result.manifest
    if result.state == "fresh" and manifest is not None:
        return _admonition(
            "success",
            "fresh",
            "Current: this view matches its sources",
            [
                f"<p>Verified against {len(manifest.sources)} sources when this site was built "
                f"({html.escape(checked)}); published {html.escape(manifest.created)}. "
                "It is a derived view: the records decide, and it proves nothing about the "
                f"code. Every record is in the {index}.</p>",
            ],
        )
    if result.state == "stale" and manifest is not None:
        items = []
        for reason in result.reasons:
            ids = [i for i in reason.ids if i]
            text = reason.text
            if ids and text.startswith(ids[0]):
                rec = log.get(ids[0].split("#")[0])
                lead = _link(href, config, rec.path if rec else None, ids[0])
                items.append(f"<li>{lead}{html.escape(text[len(ids[0]) :])}</li>")
            else:
                items.append(f"<li>{html.escape(text)}</li>")
        semantic = any(r.semantic for r in result.reasons)
        advice = (
            "Read the changed records themselves until a new draft is reviewed and "
            "published (<code>mkdocs-adr plan --mode summary</code>)."
            if semantic
            else "Only paths changed, with identical content; the manifest needs the "
            "mechanical update that <code>mkdocs-adr archive</code> makes."
        )
        return _admonition(
            "warning",
            "stale",
            "Stale: the records changed since this view was published",
            [
                f"<p>Published {html.escape(manifest.created)}; checked when this site was built "
                f"({html.escape(checked)}). What changed:</p>",
                "<ul>\n" + "\n".join(items) + "\n</ul>",
                f"<p>{advice} Every record is in the {index}.</p>",
            ],
        )
    why = result.reasons[0].text if result.reasons else result.detail
    return _admonition(
        "danger",
        "unverifiable",
        "Unverifiable: this view cannot be checked against its sources",
        [
            f"<p>{html.escape(why)}.</p>",
            "<p>It may be out of date, and it is not claimed to be current. Read the decisions "
            f"through the {index}, or publish a reviewed view with "
            "<code>mkdocs-adr plan --mode summary</code>.</p>",
        ],
    )


def page_banner(log: Log, src_uri: str, *, href: SourceHref) -> str | None:
    """The banner of the CURRENT page at ``src_uri``; None for other pages or when absent."""
    root = current_root(log, src_uri)
    if root is None:
        return None
    result = check(log, root)
    if result.state == "absent":
        return None
    return banner(log, result, href=href)


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
    title = f"DRAFT: unpublished summary plan {plan_id}"
    return _admonition("info", "draft", title, body)
