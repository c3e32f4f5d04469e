"""Reviewer edits of a drafted CURRENT.md, staged as the next plan version (ADR-0019).

The reviewer may edit the copy of the draft in ``plans/<id>/review/`` before
confirming. :func:`restage_if_edited` then stages the edited text as the next
version of the plan, with the manifest recording the hash of the edited text,
so that what gets published is exactly what was reviewed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import manifest as mf
from ..config import Config
from ..errors import RefusedError
from ..fsops import atomic_write, sha256_bytes
from ..plans import Plan, Step, plan_dir, save_plan
from .planning import review_file, staged_text, write_step
from .review import RootReview, review_of


@dataclass(frozen=True)
class EditedCopy:
    """A root whose review copy differs from the staged draft, and the copy's bytes."""

    root: RootReview
    data: bytes


def edited_roots(config: Config, plan: Plan) -> list[EditedCopy]:
    """Roots whose review copy of CURRENT.md differs from the staged draft."""
    out = []
    for root in review_of(plan).roots:
        step = write_step(plan, root.current)
        path = review_file(config, plan, root)
        if step is None:
            continue
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise RefusedError(
                f"the review copy {path} cannot be read: {exc.strerror}", path=str(path)
            ) from None
        if sha256_bytes(data) != step.after:
            out.append(EditedCopy(root, data))
    return out


def _staged_contents(config: Config, plan: Plan) -> dict[str, bytes]:
    """Every staged write of ``plan`` by hash; a missing or altered one is a refusal."""
    staged: dict[str, bytes] = {}
    for s in plan.steps:
        if s.op == "write" and s.after is not None:
            data = staged_text(config, plan, s.path)
            if data is None or sha256_bytes(data) != s.after:
                raise RefusedError(
                    f"plan {plan.plan_id}: the staged content of {s.path} is missing or altered",
                    fix="plan again",
                )
            staged[s.after] = data
    return staged


def _restage(
    config: Config, plan: Plan, edit: EditedCopy, steps: list[Step], staged: dict[str, bytes]
) -> list[Step]:
    """``steps`` writing the edited text of one root, and a manifest recording its hash."""
    root, data = edit.root, edit.data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RefusedError(
            f"the edited draft is not UTF-8 (byte {exc.start})",
            path=str(review_file(config, plan, root)),
            fix="save it as UTF-8 and confirm again",
        ) from None
    mstep = write_step(plan, root.manifest)
    assert write_step(plan, root.current) is not None
    assert mstep is not None and mstep.after is not None
    old_manifest = mf.parse(staged[mstep.after], where=root.manifest)
    mdata = replace(old_manifest, summary_sha256=mf.text_sha256(data)).to_bytes()
    cdigest, mdigest = sha256_bytes(data), sha256_bytes(mdata)
    staged[cdigest], staged[mdigest] = data, mdata
    new = {root.current: cdigest, root.manifest: mdigest}
    return [
        replace(s, after=new[s.path]) if s.op == "write" and s.path in new else s for s in steps
    ]


def restage_if_edited(config: Config, plan: Plan) -> Plan:
    """If the reviewer edited the draft, stage the edited text as the next plan version.

    The published page is then exactly the reviewed text, and the manifest
    records its hash. An unedited plan is returned as it is.
    """
    edits = edited_roots(config, plan)
    if not edits:
        return plan
    staged = _staged_contents(config, plan)
    steps = list(plan.steps)
    for edit in edits:
        steps = _restage(config, plan, edit, steps, staged)
    review = replace(
        review_of(plan),
        restaged_from=plan.plan_id,
        edited=tuple(e.root.current for e in edits),
    )
    new = Plan(
        kind=plan.kind,
        scope=plan.scope,
        fingerprint=plan.fingerprint,
        steps=steps,
        inputs=plan.inputs,
        review=review.to_json(),
        blocking=plan.blocking,
    )
    used = {s.after for s in steps if s.after is not None}
    saved = save_plan(config.work_path, new, {k: v for k, v in staged.items() if k in used})
    folder = plan_dir(config.work_path, saved.plan_id)
    for edit in edits:
        target = folder / edit.root.review_file
        if not target.exists():
            atomic_write(target, edit.data, make_parents=True)
    return saved
