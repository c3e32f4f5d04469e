"""The scope a summary plan covers in each root, from ``--domain`` or ``--sources``.

Typed ids are resolved by :class:`mkdocs_adr.identity.References`; this module
only decides which of them a CURRENT view may take as sources (unarchived,
unambiguous, whole records) and says every refusal at once.
"""

from __future__ import annotations

import difflib

from .. import manifest as mf
from ..errors import UsageError
from ..identity import (
    AmbiguousReference,
    BadReference,
    Found,
    References,
    UnknownReference,
    hint,
)
from ..log import Log
from ..model import Record


class _SourcePicker:
    """Collects the records ``--sources`` names, and every reason a token is refused."""

    def __init__(self, log: Log) -> None:
        self.log = log
        self.refs = References(log)
        self.errors: list[str] = []
        self.chosen: dict[str, list[str]] = {}

    def valid(self, rec: Record) -> bool:
        return not rec.archived and len(self.log.by_id[rec.id.upper()]) == 1

    def bad(self, text: str, near: list[str]) -> None:
        shown = hint(near, "nearest valid")
        self.errors.append(text + (f" ({shown})" if shown else ""))

    def claimed(self, rid: str) -> None:
        recs = self.log.by_id[rid.upper()]
        self.bad(
            f"{rid} is claimed by {len(recs)} records ({', '.join(r.path for r in recs)}), "
            "so it is ambiguous",
            self.refs.nearest(rid, among=self.valid),
        )

    def lookup(self, token: str) -> Found | None:
        """What ``token`` names, or ``None`` once its refusal is noted."""
        try:
            return self.refs.lookup(token, unit_ok=True, among=self.valid)
        except UnknownReference as exc:
            self.bad(
                exc.message if exc.excluded else f"{token!r} is not the id of any record",
                list(exc.nearest),
            )
        except AmbiguousReference as exc:
            if len(exc.ids) > 1:
                self.bad(f"{token!r} is ambiguous: it could be {', '.join(exc.ids)}", [])
            else:
                self.claimed(exc.ids[0])
        except BadReference as exc:
            self.bad(exc.message, [])
        return None

    def take(self, token: str) -> None:
        found = self.lookup(token)
        if found is None:
            return
        rec = found.record
        if len(self.log.by_id[rec.id.upper()]) > 1:  # named by its path
            self.claimed(rec.id)
        elif found.unit is not None or found.segment is not None:
            self.bad(
                f"{token!r} names a decision unit; a scope selects whole records",
                [rec.id] if self.valid(rec) else [],
            )
        elif rec.archived:
            self.bad(
                f"{rec.id} is archived ({rec.path}); archived records are history, not "
                "sources of the current view",
                self.refs.nearest(rec.id, among=self.valid),
            )
        else:
            ids = self.chosen.setdefault(rec.root, [])
            if rec.id not in ids:
                ids.append(rec.id)


def resolve_sources(log: Log, text: str) -> dict[str, list[str]]:
    """``--sources ID,ID``: record ids by root; every bad id in one refusal (exit 2)."""
    tokens = [t.strip() for t in text.split(",") if t.strip()]
    if not tokens:
        raise UsageError("--sources is empty", fix="give ids such as --sources ADR-0004,ADR-0007")
    picker = _SourcePicker(log)
    for token in tokens:
        picker.take(token)
    if picker.errors:
        raise UsageError(
            "--sources: " + "; ".join(picker.errors),
            fix="give unarchived, unambiguous record ids (`mkdocs-adr plan` lists them)",
        )
    return picker.chosen


def resolve_domain(log: Log, domain: str) -> list[str]:
    """``--domain D``: the roots that have active records in domain D."""
    roots = sorted({r.root for r in log.active if r.domain == domain})
    if not roots:
        known = sorted({r.domain for r in log.active if r.domain})
        near = difflib.get_close_matches(domain, known, n=3, cutoff=0.4)
        raise UsageError(
            f"--domain {domain!r}: no unarchived record is in that domain",
            fix=(f"did you mean {', '.join(near)}? " if near else "")
            + (
                f"known domains: {', '.join(known)}"
                if known
                else "this log has no domains (domains are the first folder below a layered root)"
            ),
        )
    return roots


def plan_scopes(
    log: Log, *, domain: str | None = None, sources: str | None = None
) -> dict[str, mf.Scope]:
    """The scope of this plan in each root it touches, keyed by the configured root path."""
    if domain and sources:
        raise UsageError("--domain and --sources exclude each other", fix="pick one scope")
    if domain:
        return {r: mf.Scope.make(r, domains=[domain]) for r in resolve_domain(log, domain)}
    if sources:
        return {r: mf.Scope.make(r, ids=ids) for r, ids in resolve_sources(log, sources).items()}
    return {cfg.path: mf.Scope.make(cfg.path) for cfg in log.config.roots}
