"""The read-only plan report: data for ``--json`` and text for a terminal."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .archive.eligibility import candidates as archive_candidates
from .archive.eligibility import dispositions
from .log import Log
from .model import STATUSES, Candidate, Problem, Record, Severity
from .viewstate import RootViews, root_views

SCHEMA = "mkdocs-adr/plan"
SCHEMA_VERSION = 1


def record_json(rec: Record, disposition: str | None) -> dict[str, Any]:
    parsed = rec.parsed
    return {
        "id": rec.id,
        "path": rec.path,
        "title": parsed.title,
        "status": rec.status,
        "raw_status": parsed.raw_status,
        "date": parsed.date,
        "raw_date": parsed.raw_date,
        "domain": rec.domain,
        "archived": rec.archived,
        "style": parsed.style,
        "sha256": rec.sha256,
        "units": [u.to_json() for u in rec.units],
        "relations": [r.to_json() for r in rec.relations],
        "disposition": disposition,
    }


def plan_id(mode: str, scope: dict[str, Any], fingerprint: str) -> str:
    """Content-derived: the same corpus, mode and scope give the same id."""
    payload = json.dumps({"mode": mode, "scope": scope, "fingerprint": fingerprint}, sort_keys=True)
    return "p-" + hashlib.sha256(payload.encode()).hexdigest()[:12]


def problems_with_views(log: Log, views: Sequence[RootViews]) -> list[Problem]:
    extra = [p for v in views for p in v.problems]
    return sorted(
        [*log.problems, *extra],
        key=lambda p: (-p.severity, p.path or "", p.line or 0, p.code),
    )


#: The scope of a read-only analysis, as the plan id and the envelope record it.
ANALYSIS_SCOPE: dict[str, Any] = {"kind": "all-unarchived"}


@dataclass(frozen=True)
class PlanReport:
    """What the read-only ``plan`` found: typed data; :meth:`to_json` is its envelope."""

    log: Log
    mode: str
    scope: dict[str, Any]
    candidates: tuple[Candidate, ...]
    #: Archive disposition by record path (records without one are left out).
    dispositions: dict[str, str]
    views: tuple[RootViews, ...]
    #: The log's problems and the views', most severe first.
    problems: tuple[Problem, ...]

    @property
    def plan_id(self) -> str:
        return plan_id(self.mode, self.scope, self.log.fingerprint)

    def exit_code(self, fail_on: str) -> int:
        return exit_code(self.problems, fail_on)

    def to_json(self, *, records: bool = True) -> dict[str, Any]:
        """The ``plan --json`` envelope; without ``records``, no ``records`` list (what
        :func:`render_text` reads has none of it: 10,000 records' JSON is a good part
        of a text ``plan``'s output time)."""
        log = self.log
        counts = Counter(r.status for r in log.records)
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "plan_id": self.plan_id,
            "mode": self.mode,
            "scope": self.scope,
            "writes": [],
            "corpus": {
                "fingerprint": log.fingerprint,
                "roots": [r.to_json() for r in log.roots],
                "excluded": [e.to_json() for e in log.excluded],
                "statuses": {s: counts[s] for s in STATUSES if counts[s]},
            },
            **(
                {"records": [record_json(r, self.dispositions.get(r.path)) for r in log.records]}
                if records
                else {}
            ),
            "problems": [p.to_json() for p in self.problems],
            "views": views_json(self.views),
            "archive_candidates": [c.to_json() for c in self.candidates],
        }


def analyse(log: Log, *, mode: str = "analysis", scope: dict[str, Any] | None = None) -> PlanReport:
    """The read-only analysis of ``log``: problems, views, archive candidates."""
    candidates = archive_candidates(log)
    views = root_views(log)
    return PlanReport(
        log,
        mode,
        scope or dict(ANALYSIS_SCOPE),
        tuple(candidates),
        dispositions(log, candidates),
        tuple(views),
        tuple(problems_with_views(log, views)),
    )


def build(
    log: Log, *, mode: str = "analysis", scope: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The ``plan --json`` envelope of :func:`analyse`."""
    return analyse(log, mode=mode, scope=scope).to_json()


def views_json(views: Sequence[RootViews]) -> dict[str, Any]:
    """``views.index`` / ``views.current`` for the first root, all roots under ``roots``."""
    per_root = [
        {
            "root": v.root.path,
            "index": {**v.index.to_json(), "target": v.index_target},
            "current": v.current.to_json(),
        }
        for v in views
    ]
    first = per_root[0] if per_root else {"index": None, "current": None}
    return {"index": first["index"], "current": first["current"], "roots": per_root}


def worst(problems: Iterable[Problem]) -> Severity | None:
    return max((p.severity for p in problems), default=None)


def exit_code(problems: Iterable[Problem], fail_on: str) -> int:
    """1 when a problem reaches ``fail_on`` (``never``: always 0)."""
    if fail_on == "never":
        return 0
    level = worst(problems)
    return 1 if level is not None and level >= Severity.parse(fail_on) else 0


# --------------------------------------------------------------------- text


def render_text(data: dict[str, Any], *, verbose: bool = False) -> str:
    out: list[str] = []
    corpus = data["corpus"]
    out.append(f"mkdocs-adr plan ({data['mode']}, read-only)  plan {data['plan_id']}")
    out.append(f"corpus {corpus['fingerprint'][:19]}…")
    out.append("")
    out.append("Roots")
    for root in corpus["roots"]:
        out.append(
            f"  {root['path']}  [{root['layout']}, prefix {root['prefix']}]  "
            f"{root['records']} records, {root['archived']} archived, {root['units']} units"
        )
    statuses = ", ".join(f"{n} {s}" for s, n in corpus["statuses"].items()) or "no records"
    out.append(f"  statuses: {statuses}")
    out.append("")
    out += _excluded(corpus["excluded"])
    out += _problems(data["problems"], verbose=verbose)
    cands = data["archive_candidates"]
    eligible = [c for c in cands if c["eligible"]]
    out.append(f"Archive candidates ({len(eligible)} eligible, {len(cands) - len(eligible)} not)")
    for c in cands:
        mark = "eligible" if c["eligible"] else "not eligible: " + "; ".join(c["reasons"])
        out.append(f"  {c['id']}  {c['path']}  {mark}")
    if not cands:
        out.append("  none")
    out.append("")
    out.append("Views")
    for v in data["views"]["roots"]:
        idx, cur = v["index"], v["current"]
        extra = f" (generated index at {idx['target']})" if idx["target"] != idx["path"] else ""
        out.append(f"  INDEX    {idx['path']}: {idx['state']}{extra}")
        why = "; ".join(r.get("reason", "") for r in cur["reasons"])
        out.append(f"  CURRENT  {cur['path']}: {cur['state']}" + (f" ({why})" if why else ""))
    out.append("")
    out.append("Nothing was written.")
    return "\n".join(out) + "\n"


def _excluded(excluded: list[dict[str, Any]]) -> list[str]:
    out = [f"Excluded ({len(excluded)})"]
    reasons = Counter(e["reason"] for e in excluded)
    if not excluded:
        out.append("  none")
    for reason, n in sorted(reasons.items()):
        paths = [e["path"] for e in excluded if e["reason"] == reason]
        shown = ", ".join(paths[:5]) + (f", … (+{len(paths) - 5})" if len(paths) > 5 else "")
        out.append(f"  {reason} ({n}): {shown}")
    out.append("")
    return out


def _problems(problems: list[dict[str, Any]], *, verbose: bool) -> list[str]:
    out = [f"Problems ({len(problems)})"]
    if not problems:
        out.append("  none")
    for sev in ("error", "warning", "info"):
        group = [p for p in problems if p["severity"] == sev]
        if not group:
            continue
        out.append(f"  {sev} ({len(group)})")
        for p in group if (verbose or sev != "info") else group[:10]:
            where = p["path"] or ""
            if where and p["line"]:
                where += f":{p['line']}"
            out.append(f"    {where}: {p['code']} {p['message']}")
            if p["fix"]:
                out.append(f"      fix: {p['fix']}")
        if sev == "info" and not verbose and len(group) > 10:
            out.append(f"    … {len(group) - 10} more (use --verbose)")
    out.append("")
    return out
