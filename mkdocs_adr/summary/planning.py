"""A summary plan from the drafts of its roots: steps, staged bytes, review copies.

:func:`draft` decides everything and writes nothing; :func:`save` stores the
plan in the work dir with an editable copy of each drafted CURRENT.md (the
reviewer may edit it before confirming, see :mod:`mkdocs_adr.summary.edits`)
and the text of any user-owned page it adopts.
"""

from __future__ import annotations

import posixpath
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import manifest as mf
from ..config import Config, RootConfig
from ..errors import RefusedError
from ..freshness import root_pairs
from ..fsops import atomic_write, sha256_bytes, sha256_file
from ..log import Log
from ..model import RootInfo
from ..plans import Plan, Step, plan_dir, read_staged, save_plan, staged_path
from .draft import RootDraft, draft_root
from .published import Published, published, refuse_user_owned
from .review import KIND, PlanScope, RootReview, SummaryReview
from .scope import plan_scopes

_Pair = tuple[RootConfig, RootInfo]


@dataclass
class Draft:
    """A summary plan not yet saved, with the bytes it stages and the drafts it came from."""

    plan: Plan
    staged: dict[str, bytes]
    roots: list[RootDraft]
    adopted: dict[str, bytes]  # project-relative path -> the user-owned page it replaces


def _existing_roots(config: Config, chosen: list[_Pair]) -> list[_Pair]:
    """The roots whose folder exists; none at all is a refusal (a root is never created)."""
    missing = [info.path for cfg, info in chosen if not config.root_dir(cfg).is_dir()]
    found = [(cfg, info) for cfg, info in chosen if config.root_dir(cfg).is_dir()]
    if not found:
        raise RefusedError(
            "no ADR root folder exists: " + ", ".join(missing),
            fix="create the folder and its records first (mkdocs-adr never creates a root)",
        )
    return found


def other_views(
    config: Config, pairs: list[_Pair], of: _Pair, planned: Mapping[str, mf.Scope]
) -> list[tuple[str, str]]:
    """The CURRENT views of the other roots a root's page links to (planned or on disk)."""
    cfg, info = of
    out = []
    for ocfg, oinfo in pairs:
        if ocfg.path == cfg.path:
            continue
        if ocfg.path in planned or (config.project_dir / oinfo.path / config.current_page).exists():
            rel = posixpath.relpath(f"{oinfo.path}/{config.current_page}", info.path)
            out.append((rel, f"{oinfo.title}: current decisions"))
    return out


def _write_steps(d: RootDraft, staged: dict[str, bytes]) -> list[Step]:
    """The writes of one root (CURRENT.md, its manifest, INDEX.md if it changes)."""
    steps = []
    text = d.text.encode("utf-8")
    data = d.manifest.to_bytes()
    for rel, before, after, part in (
        (d.pub.current_rel, d.pub.exact, text, "current"),
        (d.pub.manifest_rel, d.pub.manifest_exact, data, "current"),
    ):
        digest = sha256_bytes(after)
        staged[digest] = after
        steps.append(Step("write", rel, before, digest, part=part))
    if d.index.text is not None:
        idx = d.index.text.encode("utf-8")
        digest = sha256_bytes(idx)
        if digest != d.index.before:
            staged[digest] = idx
            steps.append(Step("write", d.index.rel, d.index.before, digest, part="index"))
    return steps


def draft(
    config: Config,
    log: Log,
    *,
    domain: str | None = None,
    sources: str | None = None,
    adopt: bool = False,
) -> Draft:
    """Draft a summary plan (nothing is written; see :func:`save`)."""
    scopes = plan_scopes(log, domain=domain, sources=sources)
    pairs = root_pairs(log)
    chosen = _existing_roots(config, [(c, i) for c, i in pairs if c.path in scopes])
    pubs: dict[str, Published] = {cfg.path: published(config, info) for cfg, info in chosen}
    if not adopt:
        refuse_user_owned(pubs.values())
    roots = [
        draft_root(
            config,
            log,
            cfg,
            info,
            scopes[cfg.path],
            pubs[cfg.path],
            other_views=other_views(config, pairs, (cfg, info), scopes),
        )
        for cfg, info in chosen
    ]
    staged: dict[str, bytes] = {}
    steps = [step for d in roots for step in _write_steps(d, staged)]
    adopted = {
        d.pub.current_rel: d.pub.raw for d in roots if d.pub.raw is not None and not d.pub.owned
    }
    inputs = {rec.path: sha256_file(config.project_dir / rec.path) for rec in log.records}
    review = SummaryReview(tuple(RootReview.of(d) for d in roots), adopt=bool(adopted))
    plan = Plan(
        kind=KIND,
        scope=PlanScope.of(scopes, [d.root.path for d in roots]).to_json(),
        fingerprint=log.fingerprint,
        steps=steps,
        inputs=inputs,
        review=review.to_json(),
        blocking=[b for d in roots for b in d.blocking],
    )
    plan.plan_id = f"{KIND}-{plan.content_key()}"
    return Draft(plan, staged, roots, adopted)


def write_step(plan: Plan, rel: str) -> Step | None:
    """The step of ``plan`` that writes the project-relative ``rel``."""
    return next((s for s in plan.steps if s.op == "write" and s.path == rel), None)


def review_file(config: Config, plan: Plan, root: RootReview) -> Path:
    """The editable copy of a root's drafted CURRENT.md."""
    return plan_dir(config.work_path, plan.plan_id) / root.review_file


def staged_text(config: Config, plan: Plan, rel: str) -> bytes | None:
    """The staged bytes ``plan`` writes to ``rel``, ``None`` when missing."""
    step = write_step(plan, rel)
    if step is None or step.after is None:
        return None
    try:
        return staged_path(config.work_path, plan.plan_id, step.after).read_bytes()
    except OSError:
        return None


def _copy_once(target: Path, data: bytes) -> None:
    if not target.exists():
        atomic_write(target, data, make_parents=True)


def save(config: Config, d: Draft) -> Plan:
    """Store the plan, its staged contents and the editable review copies."""
    plan = save_plan(config.work_path, d.plan, d.staged)
    folder = plan_dir(config.work_path, plan.plan_id)
    for root in SummaryReview.from_json(plan.review).roots:
        step = write_step(plan, root.current)
        target = folder / root.review_file
        if step is not None and not target.exists():
            _copy_once(target, read_staged(config.work_path, plan.plan_id, str(step.after)))
    for rel, data in d.adopted.items():
        _copy_once(folder / "adopted" / rel, data)
    return plan


def discard(config: Config, plan_id: str) -> None:
    """Remove an unapplied plan's folder (the "cancel" answer)."""
    shutil.rmtree(plan_dir(config.work_path, plan_id), ignore_errors=True)
