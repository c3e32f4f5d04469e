"""The CURRENT page as the site shows it: a freshness banner, or a DRAFT preview.

Pure rendering over the engine; the plugin calls :func:`page_banner` for the
CURRENT page of each root and, under ``mkdocs serve`` only, :func:`preview_pages`
to show the newest unpublished summary draft in its place, with its DRAFT banner. Banners are raw
HTML admonitions (``admonition`` classes), so they look right in Material and
in the built-in ``mkdocs`` theme without any Markdown extension; every piece of
text in them is escaped.
"""

from __future__ import annotations

import difflib
import html
import posixpath
import time
from collections.abc import Callable
from dataclasses import dataclass

from .. import manifest as mf
from ..config import Config
from ..freshness import Freshness, check, root_pairs
from ..journal import read_journal
from ..log import Log
from ..model import RootInfo
from ..paths import docs_relative
from ..plans import Plan, is_current, list_plans, plan_dir, staged_path
from . import state as view_state

#: Maps a docs-relative source path to an href relative to the page, or None.
Href = Callable[[str], "str | None"]


def current_root(log: Log, src_uri: str) -> RootInfo | None:
    """The root whose CURRENT page ``src_uri`` is, if any."""
    for cfg, info in root_pairs(log):
        if src_uri == posixpath.join(cfg.path, log.config.current_page):
            return info
    return None


def _link(href: Href, config: Config, project_rel: str | None, text: str) -> str:
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


def banner(log: Log, result: Freshness, *, href: Href, checked_at: str | None = None) -> str:
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
            ids = [i for i in reason["ids"] if i]
            text = str(reason["reason"])
            if ids and text.startswith(ids[0]):
                rec = log.get(ids[0].split("#")[0])
                lead = _link(href, config, rec.path if rec else None, ids[0])
                items.append(f"<li>{lead}{html.escape(text[len(ids[0]) :])}</li>")
            else:
                items.append(f"<li>{html.escape(text)}</li>")
        semantic = any(r.get("semantic", True) for r in result.reasons)
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
    why = str(result.reasons[0]["reason"]) if result.reasons else result.detail
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


def page_banner(log: Log, src_uri: str, *, href: Href) -> str | None:
    """The banner of the CURRENT page at ``src_uri``; None for other pages or when absent."""
    root = current_root(log, src_uri)
    if root is None:
        return None
    result = check(log, root)
    if result.state == "absent":
        return None
    return banner(log, result, href=href)


# --------------------------------------------------------------------------- preview


@dataclass(frozen=True)
class PreviewPage:
    src_uri: str  # docs-relative path of the CURRENT page it replaces
    markdown: str  # the draft, as the reviewer may have edited it
    banner: str  # the DRAFT banner (HTML)
    plan_id: str


def preview_plan(config: Config, preview: str) -> tuple[Plan | None, str]:
    """The plan a serve preview shows.

    ``auto``: the newest summary draft that is the current version of its scope,
    not applied, and made after the last published one (an older draft would
    undo what was published since). A plan id shows that plan.
    """
    if preview == "off":
        return None, ""
    plans = [p for p in list_plans(config.work_path) if p.kind == "summary"]
    if preview != "auto":
        chosen = [p for p in plans if p.plan_id == preview]
        if not chosen:
            return None, f"preview: no summary plan {preview!r} in {config.rel(config.work_path)}"
        return chosen[0], ""
    states = {p.plan_id: read_journal(config.work_path, p.plan_id).state for p in plans}
    last_publish = max((p.created for p in plans if states[p.plan_id] == "applied"), default="")
    open_plans = [
        p
        for p in plans
        if states[p.plan_id] != "applied"
        and is_current(config.work_path, p)
        and p.created >= last_publish
    ]
    if not open_plans:
        return None, ""
    return max(open_plans, key=lambda p: (p.created, p.version, p.plan_id)), ""


def _draft_text(config: Config, plan: Plan, root: dict[str, object]) -> tuple[str, bool] | None:
    review = plan_dir(config.work_path, plan.plan_id) / str(root["review_file"])
    step = next((s for s in plan.steps if s.path == root["current"]), None)
    staged = (
        staged_path(config.work_path, plan.plan_id, step.after)
        if step is not None and step.after
        else None
    )
    for path, edited in ((review, True), (staged, False)):
        if path is None:
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue
        is_edit = edited and (staged is None or not staged.exists() or data != staged.read_bytes())
        return data.decode("utf-8", "replace"), is_edit
    return None


def _differences(
    config: Config, plan: Plan, root: dict[str, object], draft: str, edited: bool, log: Log
) -> list[str]:
    out: list[str] = []
    folder = config.project_dir / str(root["root"])
    try:
        published_text = (folder / config.current_page).read_text("utf-8", "replace")
    except OSError:
        published_text = None
    if published_text is None:
        out.append("nothing is published yet: this would be the first CURRENT view")
    else:
        diff = list(
            difflib.unified_diff(published_text.splitlines(), draft.splitlines(), lineterm="", n=0)
        )
        added = sum(1 for ln in diff if ln.startswith("+") and not ln.startswith("+++"))
        removed = sum(1 for ln in diff if ln.startswith("-") and not ln.startswith("---"))
        out.append(
            "the text is the same as the published view"
            if not diff
            else f"text: {added} lines added, {removed} removed against the published view"
        )
        step = next((s for s in plan.steps if s.path == root["manifest"]), None)
        old: mf.Manifest | None = None
        new: mf.Manifest | None = None
        try:
            old = mf.read(folder / mf.FILENAME, where=str(root["manifest"]))
            if step is not None:
                new = mf.parse(
                    staged_path(config.work_path, plan.plan_id, str(step.after)).read_bytes(),
                    where="draft",
                )
        except (mf.ManifestError, OSError):
            old = new = None
        if old is not None and new is not None:
            before = {s.key: s for s in old.sources}
            after = {s.key: s for s in new.sources}
            added_keys = sorted(set(after) - set(before))
            removed_keys = sorted(set(before) - set(after))
            changed = sorted(
                k
                for k in set(after) & set(before)
                if (after[k].sha256, after[k].status) != (before[k].sha256, before[k].status)
            )
            for label, keys in (
                ("sources added", added_keys),
                ("sources removed", removed_keys),
                ("sources changed", changed),
            ):
                if keys:
                    out.append(f"{label}: {', '.join(keys)}")
    if edited:
        out.append("includes your edits to the review copy")
    if plan.fingerprint != log.fingerprint:
        out.append("the records changed since this draft was made; plan again before publishing")
    return out


def preview_pages(log: Log, preview: str) -> tuple[list[PreviewPage], list[str]]:
    """Pages to show instead of the published CURRENT pages under ``mkdocs serve``."""
    config = log.config
    plan, note = preview_plan(config, preview)
    if plan is None:
        return [], [note] if note else []
    pages = []
    for root in plan.review.get("roots", []):
        src_uri = docs_relative(str(root["current"]), config.rel(config.docs_dir))
        if src_uri is None:
            continue
        found = _draft_text(config, plan, root)
        if found is None:
            continue
        text, edited = found
        diffs = _differences(config, plan, root, text, edited, log)
        state = read_journal(config.work_path, plan.plan_id).state
        body = [
            f"<p>This page previews the unpublished draft of plan "
            f"<code>{html.escape(plan.plan_id)}</code> (version {plan.version}, "
            f"{html.escape(state)}), not the published view. Differences:</p>",
            "<ul>\n" + "\n".join(f"<li>{html.escape(d)}</li>" for d in diffs) + "\n</ul>",
            f"<p>Publish it with <code>mkdocs-adr plan --confirm {html.escape(plan.plan_id)}"
            "</code>; <code>mkdocs build</code> never publishes a draft.</p>",
        ]
        title = f"DRAFT: unpublished summary plan {plan.plan_id}"
        pages.append(
            PreviewPage(
                src_uri,
                text,
                _admonition("info", "draft", title, body),
                plan.plan_id,
            )
        )
    return pages, []
