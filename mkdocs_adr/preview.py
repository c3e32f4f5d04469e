"""The serve preview: which unpublished summary draft replaces a CURRENT page.

Under ``mkdocs serve`` only, the plugin calls :func:`preview_pages` to show the
newest unpublished summary draft in place of each published CURRENT page. This
module reads the plans and journals to choose the draft and to work out how it
differs from the published view; :func:`mkdocs_adr.views.current.draft_banner`
renders the DRAFT banner from that data. ``mkdocs build`` never shows a draft.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from . import manifest as mf
from .config import Config
from .journal import read_journal
from .log import Log
from .plans import Plan, is_current, list_plans, plan_dir, staged_path
from .views.current import draft_banner
from .views.i18n import ENGLISH, Messages


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


def preview_pages(
    log: Log, preview: str, words: Messages = ENGLISH
) -> tuple[list[PreviewPage], list[str]]:
    """Pages to show instead of the published CURRENT pages under ``mkdocs serve``."""
    config = log.config
    plan, note = preview_plan(config, preview)
    if plan is None:
        return [], [note] if note else []
    pages = []
    for root in plan.review.get("roots", []):
        src_uri = config.src_uri(str(root["current"]))
        if src_uri is None:
            continue
        found = _draft_text(config, plan, root)
        if found is None:
            continue
        text, edited = found
        diffs = _differences(config, plan, root, text, edited, log)
        state = read_journal(config.work_path, plan.plan_id).state
        pages.append(
            PreviewPage(
                src_uri,
                text,
                draft_banner(plan.plan_id, plan.version, state, diffs, words),
                plan.plan_id,
            )
        )
    return pages, []
