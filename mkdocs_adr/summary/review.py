"""What a summary plan records for its reviewer: its scope and one entry per root.

A :class:`~mkdocs_adr.plans.Plan` stores these as JSON (``plan.scope`` and
``plan.review``, which every plan kind shapes its own way); this module is the
one place that shape is written and read back, so the rest of the package and
the CLI handle dataclasses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import manifest as mf
from ..model import Problem, Severity
from ..plans import Plan
from .dispositions import CoverageRow
from .draft import RootDraft

KIND = "summary"


def review_rel(current_rel: str) -> str:
    """Where the editable copy of a drafted CURRENT.md sits in the plan folder."""
    return f"review/{current_rel}"


@dataclass(frozen=True)
class PlanScope:
    """The scope of a summary plan: its kind, domains, ids, and the roots it touches."""

    kind: str
    domains: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()

    @classmethod
    def of(cls, scopes: Mapping[str, mf.Scope], roots: Iterable[str]) -> PlanScope:
        """One plan's scope from its scope in each root (they share kind and domains)."""
        first = next(iter(scopes.values()))
        return cls(
            kind=first.kind,
            domains=tuple(first.domains),
            ids=tuple(sorted({i for s in scopes.values() for i in s.ids})),
            roots=tuple(roots),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": KIND,
            "kind": self.kind,
            "domains": list(self.domains),
            "ids": list(self.ids),
            "roots": list(self.roots),
        }


def _problem(data: Mapping[str, Any]) -> Problem:
    """A problem read back from its JSON (:meth:`mkdocs_adr.model.Problem.to_json`)."""
    return Problem(
        code=str(data["code"]),
        severity=Severity.parse(str(data["severity"])),
        message=str(data["message"]),
        path=data.get("path"),
        line=data.get("line"),
        ids=tuple(data.get("ids") or ()),
        fix=str(data.get("fix") or ""),
    )


@dataclass(frozen=True)
class RootReview:
    """What the review card and ``plan --json`` say about one root of a summary plan."""

    root: str
    current: str  # project-relative path of CURRENT.md
    manifest: str  # project-relative path of its manifest
    index: str | None  # INDEX.md, when the plan writes it
    index_note: str
    review_file: str  # the editable copy, relative to the plan folder
    action: str  # create | replace | adopt
    published_state: str
    published_reasons: tuple[str, ...]
    plan_scope: mf.Scope
    view_scope: mf.Scope
    members: int
    sources: int
    dispositions: Mapping[str, int] = field(hash=False)
    coverage: tuple[CoverageRow, ...] = ()
    kept: tuple[str, ...] = ()
    kept_changed: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()

    @classmethod
    def of(cls, d: RootDraft) -> RootReview:
        dispositions: dict[str, int] = {}
        for s in d.manifest.sources:
            dispositions[s.disposition] = dispositions.get(s.disposition, 0) + 1
        return cls(
            root=d.root.path,
            current=d.pub.current_rel,
            manifest=d.pub.manifest_rel,
            index=d.index.rel if d.index.text is not None else None,
            index_note=d.index.note,
            review_file=review_rel(d.pub.current_rel),
            action="create" if d.pub.raw is None else ("adopt" if not d.pub.owned else "replace"),
            published_state=d.published_state,
            published_reasons=d.published_reasons,
            plan_scope=d.plan_scope,
            view_scope=d.view_scope,
            members=len(d.manifest.members),
            sources=len(d.manifest.sources),
            dispositions=dispositions,
            coverage=d.coverage,
            kept=d.kept,
            kept_changed=d.kept_changed,
            problems=d.problems,
            notes=d.notes,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "current": self.current,
            "manifest": self.manifest,
            "index": self.index,
            "index_note": self.index_note,
            "review_file": self.review_file,
            "action": self.action,
            "published_state": self.published_state,
            "published_reasons": list(self.published_reasons),
            "plan_scope": self.plan_scope.to_json(),
            "view_scope": self.view_scope.to_json(),
            "members": self.members,
            "sources": self.sources,
            "dispositions": dict(self.dispositions),
            "coverage": [c.to_json() for c in self.coverage],
            "kept": list(self.kept),
            "kept_changed": list(self.kept_changed),
            "problems": [p.to_json() for p in self.problems],
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RootReview:
        return cls(
            root=str(data["root"]),
            current=str(data["current"]),
            manifest=str(data["manifest"]),
            index=data.get("index"),
            index_note=str(data.get("index_note") or ""),
            review_file=str(data["review_file"]),
            action=str(data["action"]),
            published_state=str(data["published_state"]),
            published_reasons=tuple(data.get("published_reasons") or ()),
            plan_scope=mf.Scope.from_json(data["plan_scope"]),
            view_scope=mf.Scope.from_json(data["view_scope"]),
            members=int(data["members"]),
            sources=int(data["sources"]),
            dispositions={str(k): int(n) for k, n in dict(data["dispositions"]).items()},
            coverage=tuple(CoverageRow.from_json(c) for c in data.get("coverage") or ()),
            kept=tuple(data.get("kept") or ()),
            kept_changed=tuple(data.get("kept_changed") or ()),
            problems=tuple(_problem(p) for p in data.get("problems") or ()),
            notes=tuple(data.get("notes") or ()),
        )


@dataclass(frozen=True)
class SummaryReview:
    """``plan.review`` of a summary plan. ``restaged_from``: the plan whose edited copy this is."""

    roots: tuple[RootReview, ...]
    adopt: bool = False
    restaged_from: str | None = None
    edited: tuple[str, ...] = ()  # CURRENT paths whose reviewed text was edited

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": KIND,
            "adopt": self.adopt,
            "roots": [r.to_json() for r in self.roots],
        }
        if self.restaged_from is not None:
            out["restaged_from"] = self.restaged_from
            out["edited"] = list(self.edited)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SummaryReview:
        restaged = data.get("restaged_from")
        return cls(
            roots=tuple(RootReview.from_json(r) for r in data.get("roots") or ()),
            adopt=bool(data.get("adopt")),
            restaged_from=str(restaged) if restaged is not None else None,
            edited=tuple(data.get("edited") or ()),
        )


def review_of(plan: Plan) -> SummaryReview:
    """The review record of a summary plan."""
    return SummaryReview.from_json(plan.review)
