"""Freshness of a published CURRENT view against its source manifest (SPEC 5).

Freshness is decided from content hashes and scope membership only, never
from modification times: the scope recorded in the manifest is selected again
from the log as it is now, and every source is compared (members added or
removed, text modified, status changed, renamed, moved to another domain), and
so is the hash of CURRENT.md itself. A path change with identical content (an
archive move or its restore) is not a semantic change; once the archive
operation has updated the manifest's paths mechanically, it is no change at
all.

States: ``fresh``, ``stale`` (with every reason, each naming the ids), ``unverifiable``
(manifest missing, unreadable, invalid or of an incompatible version) and
``absent`` (no CURRENT.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import lazy
from .config import MANIFEST_FILE, RootConfig
from .log import Log
from .model import Problem, Record, RootInfo, Severity, StaleReason, ViewState

if TYPE_CHECKING:
    from . import manifest as mf
else:  # read only where a root publishes a CURRENT view (docs/adr/0060)
    mf = lazy.module("mkdocs_adr.manifest")

MANIFEST = MANIFEST_FILE

#: Reason kinds in the order a banner lists them.
REASON_KINDS = (
    "added",
    "removed",
    "modified",
    "status-changed",
    "renamed",
    "moved-domain",
    "moved",
    "ambiguous",
    "summary-edited",
)


@dataclass(frozen=True)
class Entry:
    """A source as the log holds it now (what a manifest entry is compared with)."""

    id: str
    unit: str | None
    path: str  # relative to the root
    sha256: str
    status: str
    role: str
    record: Record

    @property
    def key(self) -> str:
        return f"{self.id}#{self.unit}" if self.unit else self.id


@dataclass(frozen=True)
class Selection:
    root_config: RootConfig
    root: RootInfo
    scope: mf.Scope
    entries: tuple[Entry, ...]
    ambiguous: tuple[str, ...] = ()

    @property
    def members(self) -> tuple[str, ...]:
        return tuple(sorted({e.id for e in self.entries if e.role == "member"}))


@dataclass(frozen=True)
class Freshness:
    """Everything the banner, ``check`` and ``plan`` need to say about one CURRENT view."""

    root: RootInfo
    path: str  # project-relative path of CURRENT.md
    state: str
    reasons: tuple[StaleReason, ...] = ()
    manifest: mf.Manifest | None = None
    error: mf.ManifestError | None = None
    detail: str = ""
    problems: tuple[Problem, ...] = field(default=())

    def view_state(self) -> ViewState:
        return ViewState(self.path, self.state, self.reasons, self.detail)


# --------------------------------------------------------------------------- selection


def root_pairs(log: Log) -> list[tuple[RootConfig, RootInfo]]:
    """Each configured root with what the log found in it (same order)."""
    infos = {info.path: info for info in log.roots}
    out = []
    for cfg in log.config.roots:
        rel = log.config.rel(log.config.root_dir(cfg))
        if rel in infos:
            out.append((cfg, infos[rel]))
    return out


def root_relative(root: RootInfo, path: str) -> str:
    prefix = root.path + "/"
    return path[len(prefix) :] if path.startswith(prefix) else path


def path_domain(rel: str) -> str | None:
    """The domain a root-relative path puts a record in (first folder, below archive/)."""
    parts = rel.split("/")
    if parts[0] == "archive" and len(parts) > 1:
        parts = parts[1:]
    return parts[0] if len(parts) > 1 else None


def _unit_sha(text: str) -> str:
    return mf.text_sha256(text.encode("utf-8"))


def record_entries(rec: Record, root: RootInfo, role: str) -> list[Entry]:
    rel = root_relative(root, rec.path)
    out = [Entry(rec.id, None, rel, rec.sha256, rec.status, role, rec)]
    if role == "member":
        for unit in rec.units:
            out.append(Entry(rec.id, unit.key, rel, _unit_sha(unit.text), unit.status, role, rec))
    return out


#: A member that depends on, extends or amends a record outside the scope builds on it.
BUILDS_ON = frozenset({"depends-on", "extends", "amends"})
#: A record outside the scope that amends, extends or supersedes a member changes it.
CHANGES = frozenset({"amends", "extends", "supersedes"})


def select(log: Log, root_config: RootConfig, root: RootInfo, scope: mf.Scope) -> Selection:
    """The sources ``scope`` selects in ``root`` now: members, their units, related records."""
    active = [r for r in log.records if r.root == root_config.path and not r.archived]
    ids = {i.upper() for i in scope.ids}
    chosen = [
        r
        for r in active
        if scope.kind == "root" or (r.domain in scope.domains) or r.id.upper() in ids
    ]
    seen: dict[str, Record] = {}
    ambiguous: set[str] = set()
    for rec in sorted(chosen, key=lambda r: r.path):
        if rec.id in seen:
            ambiguous.add(rec.id)
            continue
        seen[rec.id] = rec
    entries: list[Entry] = []
    for rec in seen.values():
        entries.extend(record_entries(rec, root, "member"))
    # records outside the scope that members build on, or that change a member
    if scope.kind != "root":
        by_id = {r.id: r for r in active if len(log.by_id.get(r.id.upper(), [])) == 1}
        related: set[str] = set()
        for edge in log.graph.edges():
            if not edge.authoritative:
                continue
            src_in, dst_in = edge.source in seen, edge.target in seen
            if src_in and not dst_in and edge.kind in BUILDS_ON and edge.target in by_id:
                related.add(edge.target)  # a constraint a member builds on
            if dst_in and not src_in and edge.kind in CHANGES and edge.source in by_id:
                related.add(edge.source)  # a record that changes a member
        for rid in sorted(related):
            entries.extend(record_entries(by_id[rid], root, "related"))
    entries.sort(key=lambda e: (e.path, e.unit or ""))
    return Selection(root_config, root, scope, tuple(entries), tuple(sorted(ambiguous)))


# --------------------------------------------------------------------------- comparison


def _reason(
    kind: str, ids: Iterable[str], text: str, *, path: str | None = None, semantic: bool = True
) -> StaleReason:
    return StaleReason(kind, tuple(ids), text, path, semantic)


def _is_archive_move(old: str, new: str) -> bool:
    def strip(p: str) -> str:
        return p[len("archive/") :] if p.startswith("archive/") else p

    return old != new and strip(old) == strip(new)


def compare(log: Log, selection: Selection, manifest: mf.Manifest) -> list[StaleReason]:
    """Every semantic (and path-only) difference between a manifest and the log now."""
    root = selection.root
    expected = {s.key: s for s in manifest.sources}
    current = {e.key: e for e in selection.entries}
    where = root.path + "/"
    reasons: list[StaleReason] = []
    for rid in selection.ambiguous:
        paths = ", ".join(r.path for r in log.by_id.get(rid.upper(), []))
        reasons.append(
            _reason("ambiguous", [rid], f"{rid} is now claimed by several records ({paths})")
        )
    for key in sorted(set(expected) | set(current)):
        old, new = expected.get(key), current.get(key)
        if old is not None and new is not None:
            reasons.extend(_changed(key, old, new, where))
        elif old is not None:
            reasons.extend(_gone(log, selection, old, current, where))
        elif new is not None:
            if new.unit is not None and new.id not in expected:
                continue  # the record itself is reported as added
            reasons.append(_added(key, new, where))
    # a container whose units changed: the unit reasons say it more precisely
    by_unit = {i.split("#")[0] for r in reasons for i in r.ids if "#" in i}
    reasons = [r for r in reasons if not (r.kind == "modified" and r.ids[0] in by_unit)]
    order = {k: n for n, k in enumerate(REASON_KINDS)}
    return sorted(reasons, key=lambda r: (order.get(r.kind, 99), r.ids))


def _changed(key: str, old: mf.Source, new: Entry, where: str) -> list[StaleReason]:
    """A source both published and present now: its path, its status, its text."""
    out: list[StaleReason] = []
    if old.unit is None and old.path != new.path:
        out.append(_path_changed(key, old.path, new.path, where))
    if old.status != new.status:
        also = " (and its text changed)" if old.sha256 != new.sha256 else ""
        out.append(
            _reason(
                "status-changed",
                [key],
                f"{key} changed status from {old.status} to {new.status}{also}",
                path=where + new.path,
            )
        )
    elif old.sha256 != new.sha256:
        what = "decision unit " if new.unit else ""
        out.append(
            _reason(
                "modified",
                [key],
                f"{what}{key} was modified ({where}{new.path})",
                path=where + new.path,
            )
        )
    return out


def _path_changed(key: str, old: str, new: str, where: str) -> StaleReason:
    """A record at another path now: an archive move (or its restore), a domain move, a rename."""
    if _is_archive_move(old, new):
        verb = "restored from" if old.startswith("archive/") else "moved to"
        target = old if verb == "restored from" else new
        return _reason(
            "moved",
            [key],
            f"{key} was {verb} {where}{target} with its content unchanged; the "
            "manifest needs the mechanical path update the archive operation makes",
            path=where + new,
            semantic=False,
        )
    if path_domain(old) != path_domain(new):
        return _reason(
            "moved-domain",
            [key],
            f"{key} moved from domain {path_domain(old) or '(none)'} to "
            f"{path_domain(new) or '(none)'} ({where}{new})",
            path=where + new,
        )
    return _reason(
        "renamed", [key], f"{key} was renamed from {where}{old} to {where}{new}", path=where + new
    )


def _added(key: str, new: Entry, where: str) -> StaleReason:
    if new.unit is not None:
        text = f"decision unit {key} was added ({new.status})"
    elif new.role == "related":
        text = f"{key} ({new.status}) now relates to a record of this view"
    else:
        text = f"{key} was added ({new.status}, {where}{new.path})"
    return _reason("added", [key], text, path=where + new.path)


def _gone(
    log: Log, selection: Selection, old: mf.Source, current: dict[str, Entry], where: str
) -> list[StaleReason]:
    key = old.key
    if old.unit is not None:
        if old.id in current:
            return [
                _reason(
                    "removed",
                    [key],
                    f"decision unit {key} was removed from {old.id}",
                    path=where + current[old.id].path,
                )
            ]
        return []  # reported with its record
    recs = [r for r in log.by_id.get(old.id.upper(), []) if r.root == selection.root_config.path]
    if len(recs) > 1:
        return [_reason("ambiguous", [key], f"{key} is now claimed by several records")]
    if not recs:
        return [
            _reason(
                "removed",
                [key],
                f"{key} was removed ({where}{old.path} is gone)",
                path=where + old.path,
            )
        ]
    rec = recs[0]
    rel = root_relative(selection.root, rec.path)
    if rec.archived:
        return _archived(key, old, rec, rel, where)
    if path_domain(rel) != path_domain(old.path):
        return [
            _reason(
                "moved-domain",
                [key],
                f"{key} moved from domain "
                f"{path_domain(old.path) or '(none)'} to {path_domain(rel) or '(none)'}, "
                f"out of this view's scope ({where}{rel})",
                path=where + rel,
            )
        ]
    what = (
        "no longer relates to a record of this view"
        if old.role == "related"
        else ("left the scope")
    )
    return [_reason("removed", [key], f"{key} {what}", path=where + rel)]


def _archived(key: str, old: mf.Source, rec: Record, rel: str, where: str) -> list[StaleReason]:
    """A published source that is archived now (at root-relative ``rel``)."""
    if rec.sha256 != old.sha256:
        return [
            _reason(
                "modified",
                [key],
                f"{key} was modified and archived ({where}{rel})",
                path=where + rel,
            )
        ]
    if rel == old.path:
        return []  # archived, and the manifest already says where
    return [
        _reason(
            "moved",
            [key],
            f"{key} was moved to {where}{rel} with its content unchanged; the manifest needs "
            "the mechanical path update the archive operation makes",
            path=where + rel,
            semantic=False,
        )
    ]


# --------------------------------------------------------------------------- the state


def check(log: Log, root: RootInfo) -> Freshness:
    """Freshness of the CURRENT view of ``root``, with its problems (ADR011, ADR012)."""
    config = log.config
    pairs = {info.path: cfg for cfg, info in root_pairs(log)}
    root_config = pairs.get(root.path)
    path = f"{root.path}/{config.current_page}"
    current_file = config.project_dir / root.path / config.current_page
    published = _published(log, root, path)
    if isinstance(published, Freshness):
        return published
    assert root_config is not None
    selection = select(log, root_config, root, published.scope)
    reasons = compare(log, selection, published)
    try:
        text_sha = mf.text_sha256(current_file.read_bytes())
    except OSError as exc:
        return _unverifiable(
            root,
            path,
            mf.ManifestError(
                "unreadable", f"{config.current_page} cannot be read: {exc.strerror}", path=path
            ),
        )
    if text_sha != published.summary_sha256:
        reasons.append(
            _reason(
                "summary-edited",
                [],
                f"{config.current_page} was edited after it was published "
                f"(its hash is not the one {MANIFEST} records)",
                path=path,
            )
        )
    if not reasons:
        detail = f"verified against {len(published.sources)} sources published {published.created}"
        return Freshness(root, path, "fresh", manifest=published, detail=detail)
    return _stale(log, root, path, reasons, published)


def _published(log: Log, root: RootInfo, path: str) -> mf.Manifest | Freshness:
    """The manifest beside CURRENT.md, or the state when there is none to compare with."""
    config = log.config
    folder = config.project_dir / root.path
    manifest_rel = f"{root.path}/{MANIFEST}"
    if not (folder / config.current_page).exists():
        detail = "no CURRENT view has been published"
        if (folder / MANIFEST).exists():
            detail += f"; {manifest_rel} has no CURRENT.md beside it"
        return Freshness(root, path, "absent", detail=detail)
    try:
        published = mf.read(folder / MANIFEST, where=manifest_rel)
        if published.summary_path != config.current_page:
            raise mf.ManifestError(
                "invalid",
                f"it describes {published.summary_path!r}, not {config.current_page!r}",
                path=manifest_rel,
                fix="publish CURRENT again with `mkdocs-adr plan --mode summary`",
            )
    except mf.ManifestError as exc:
        return _unverifiable(root, path, exc)
    return published


def _stale(
    log: Log, root: RootInfo, path: str, reasons: list[StaleReason], published: mf.Manifest
) -> Freshness:
    """A stale view with its ADR011 problem: the first reasons, and what to do."""
    page = log.config.current_page
    ids = sorted({i for r in reasons for i in r.ids})
    semantic = any(r.semantic for r in reasons)
    listed = "; ".join(r.text for r in reasons[:6])
    more = f"; and {len(reasons) - 6} more" if len(reasons) > 6 else ""
    problem = Problem(
        "ADR011",
        Severity.WARNING,
        f"{page} is stale: {listed}{more}",
        path=path,
        line=1,
        ids=tuple(i.split("#")[0] for i in ids),
        fix=(
            "re-draft it with `mkdocs-adr plan --mode summary`, review and publish it"
            if semantic
            else "only paths changed: let `mkdocs-adr archive` update the manifest, "
            "or publish again with `mkdocs-adr plan --mode summary`"
        ),
    )
    return Freshness(
        root,
        path,
        "stale",
        tuple(reasons),
        published,
        detail=f"{len(reasons)} change(s) since it was published {published.created}",
        problems=(problem,),
    )


def _unverifiable(root: RootInfo, path: str, exc: mf.ManifestError) -> Freshness:
    problem = Problem(
        "ADR012",
        Severity.WARNING,
        f"{path.rsplit('/', 1)[-1]} cannot be verified: {exc.reason}: {exc.message}",
        path=exc.path,
        line=exc.line,
        fix=exc.fix,
    )
    reason = _reason(f"manifest-{exc.kind}", [], f"{exc.reason}: {exc.message}", path=exc.path)
    return Freshness(
        root,
        path,
        "unverifiable",
        (reason,),
        error=exc,
        detail=f"cannot be verified ({exc.reason})",
        problems=(problem,),
    )


def current_state(log: Log, root: RootInfo) -> tuple[ViewState, list[Problem]]:
    """The view state and its problems, as :mod:`mkdocs_adr.viewstate` reports them."""
    result = check(log, root)
    return result.view_state(), list(result.problems)
