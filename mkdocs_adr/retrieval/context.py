"""``context``: evidence about one decision, a domain or an iteration, never a dump.

Answer order (SPEC 9, seeds/000 5.3 and 8):

1. the focus: the asked record or unit, or for an old id under ``current``
   its accepted successor, found through metadata without the ancestors' bodies;
2. required evidence: what the focus builds on (``depends-on``, ``extends``,
   ``amends``, up to 3 hops, a superseded constraint replaced by its current
   successor) and what amends it; from the system root first when a module
   root is asked about; under ``history``, the supersession lineage;
3. incidental relations (``relates-to``, dependents) up to 3 hops;
4. metadata-only entries: ancestors under ``current``, archived records more
   than 1 hop away.

Coverage is ``complete`` once every required unit has been returned.

This module validates the query and assembles the answer; the target and the
focus come from :mod:`.focus`, the ranked evidence from :mod:`.walk` (over the
shared :mod:`.collect`), paging and the budget from :mod:`.respond`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..log import Log
from ..model import STATUSES, Severity
from .budget import Position
from .collect import system_roots
from .evidence import EvidenceItem, Relations, unit_id
from .focus import (
    MAX_LISTED,
    SuccessionInfo,
    Target,
    by_domain,
    by_iteration,
    focus_on_group,
    focus_on_target,
    resolve_target,
)
from .respond import Answer
from .walk import Evidence

INTENTS = ("current", "rationale", "history")


@dataclass(frozen=True)
class ContextQuery:
    target: str | None = None
    domain: str | None = None
    iteration: str | None = None
    intent: str = "current"
    unit: str | None = None
    cursor: str | None = None

    def validate(self) -> None:
        chosen = [
            name
            for name, value in (
                ("ID", self.target),
                ("--domain", self.domain),
                ("--iteration", self.iteration),
            )
            if value is not None
        ]
        if len(chosen) > 1:
            raise UsageError(
                f"{' and '.join(chosen)} exclude each other",
                fix="ask about one record, one domain or one iteration at a time",
            )
        if self.intent not in INTENTS:
            raise UsageError(
                f"--intent {self.intent!r} is not known", fix=f"use one of: {', '.join(INTENTS)}"
            )
        if self.unit is not None and self.target is None:
            raise UsageError("--unit needs a record id", fix="write `context ADR-0042 --unit D2`")
        for name, value in (
            ("ID", self.target),
            ("--domain", self.domain),
            ("--iteration", self.iteration),
        ):
            if value is not None and (not value.strip() or len(value) > 1024):
                raise UsageError(f"{name} is empty or too long", fix="give a short value")


def _problem_warnings(log: Log, ids: list[str]) -> list[str]:
    wanted = set(ids)
    out = []
    for p in log.problems:
        if p.severity >= Severity.WARNING and wanted.intersection(p.ids) and p.code != "ADR017":
            out.append(f"{p.code} {p.message}")
    return out


@dataclass
class _Question:
    """How a query is echoed and repeated: ``query`` in the response, the cursor's arguments."""

    echo: dict[str, Any]
    args: list[str]
    succession: SuccessionInfo | None = None
    target: Target | None = None


def build(
    log: Log, query: ContextQuery, *, prefix: str = "mkdocs-adr", flags: tuple[str, ...] = ()
) -> Answer:
    """The whole answer to ``query`` before paging (see :meth:`Answer.respond`).

    ``flags`` (``--json``) are repeated by ``navigation.next`` and the cursor's restart.
    """
    query.validate()
    if query.target is None and query.domain is None and query.iteration is None:
        return _overview(log, query, prefix)
    ev = Evidence(log, query.intent, Relations.of(log), system_roots(log))
    if query.target is not None:
        question = _about_one(ev, log, query, query.target)
    else:
        question = _about_group(ev, log, query)
    if query.intent != "current":
        question.args += ["--intent", query.intent]
    items = ev.ordered()
    hints = [
        f"{prefix} {h}"
        for h in dict.fromkeys(ev.hints)
        if not h.endswith(f"--intent {query.intent}")
    ]
    extra: dict[str, Any] = {}
    if question.succession is not None:
        extra["succession"] = question.succession.to_json()
    return Answer(
        "context",
        log,
        items,
        question.echo,
        question.args,
        prefix,
        extra=extra,
        warnings=ev.warnings,
        hints=hints,
        start_default=_segment_start(log, query, question.target, items),
        flags=flags,
    )


def _about_one(ev: Evidence, log: Log, query: ContextQuery, text: str) -> _Question:
    """One record or unit: its focus, constraints, relations and problems."""
    target = resolve_target(log, text, query.unit)
    rec = target.rec
    if target.segment is not None and rec.units and target.unit is None:
        keys = ", ".join(u.key for u in rec.units)
        raise UsageError(
            f"{rec.id} is a container; a segment belongs to one of its units ({keys})",
            fix=f"write {rec.id}#{rec.units[0].key}@{target.segment}",
        )
    echo: dict[str, Any] = {"intent": query.intent, "id": text}
    if query.unit is not None:
        echo["unit"] = query.unit
    args = [text, *(["--unit", query.unit] if query.unit else [])]
    ev.module_query = rec.root not in ev.system_roots
    focus, info = focus_on_target(ev, log, target)
    if target.segment is None:
        ev.constraints(focus)
        ev.related(focus)
    ev.warnings.extend(_problem_warnings(log, [rec.id]))
    ev.hints += [f"context {rec.id} --intent rationale", f"context {rec.id} --intent history"]
    return _Question(echo, args, info, target)


def _about_group(ev: Evidence, log: Log, query: ContextQuery) -> _Question:
    """A domain or an iteration: its live records and what they build on."""
    echo: dict[str, Any] = {"intent": query.intent}
    if query.domain is not None:
        recs, label = by_domain(log, query.domain), f"in domain {query.domain}"
        echo["domain"] = query.domain
        args = ["--domain", query.domain]
    else:
        assert query.iteration is not None
        recs, label = by_iteration(log, query.iteration), f"in iteration {query.iteration}"
        echo["iteration"] = query.iteration
        args = ["--iteration", query.iteration]
    ev.module_query = bool(recs) and all(r.root not in ev.system_roots for r in recs)
    focus = focus_on_group(ev, log, recs, label)
    ev.constraints(focus)
    if not focus:
        ev.warnings.append(f"nothing {label} matches intent {query.intent}")
    return _Question(echo, args)


def _segment_start(
    log: Log, query: ContextQuery, target: Target | None, items: list[EvidenceItem]
) -> Position | None:
    """Where a ``ID@N`` question starts paging, or ``None`` for the first item."""
    if target is None or target.segment is None:
        return None
    count = len(items[0].segments(log)) if items else 0
    if target.segment > count:
        raise UsageError(
            f"{unit_id(target.rec, target.unit)} has {count} segment(s) "
            f"under intent {query.intent}",
            fix=f"ask for @1 to @{count}, or for the unit without @",
        )
    return Position(0, target.segment - 1)


def _overview(log: Log, query: ContextQuery, prefix: str) -> Answer:
    """No selector: roots, counts, CURRENT's state and how to ask next."""
    statuses = Counter(r.status for r in log.records)
    domains = Counter(r.domain for r in log.records if r.domain and not r.archived)
    iterations = Counter(r.parsed.iteration for r in log.records if r.parsed.iteration)
    problems = Counter(p.severity.label for p in log.problems)
    dom_list, dom_more, dom_long = _listed(domains)
    it_list, it_more, it_long = _listed(iterations)
    overview: dict[str, Any] = {
        "roots": [r.to_json() for r in log.roots[:MAX_LISTED]],
        "statuses": {s: statuses[s] for s in STATUSES if statuses[s]},
        "in_effect": sum(1 for r in log.active if log.in_effect(r)),
        "domains": {name: n for name, n in dom_list},
        "iterations": {name: n for name, n in it_list},
        "problems": {k: problems[k] for k in ("error", "warning", "info") if problems[k]},
    }
    if dom_more:
        overview["domains_omitted"] = dom_more
    if it_more:
        overview["iterations_omitted"] = it_more
    if len(log.roots) > MAX_LISTED:
        overview["roots_omitted"] = len(log.roots) - MAX_LISTED
    example = next((r.id for r in log.active if log.in_effect(r)), None)
    hints = []
    if example:
        hints.append(f"{prefix} context {example}")
    if dom_list:
        hints.append(f"{prefix} context --domain {dom_list[0][0]}")
    hints.append(f"{prefix} find --path src/some/file.py --topic 'what you are changing'")
    warnings = [
        f"{n} {what} name(s) longer than {LISTED_NAME} characters are counted, not listed"
        for n, what in ((dom_long, "domain"), (it_long, "iteration"))
        if n
    ]
    return Answer(
        "context",
        log,
        [],
        {"intent": query.intent},
        [],
        prefix,
        extra={"overview": overview, "succession": None},
        warnings=warnings,
        hints=hints,
    )


#: A domain or iteration name longer than this is counted in the overview, not listed
#: (``--domain`` takes at most 1,024 characters; a record's value is cut at 1,000).
LISTED_NAME = 120
#: The names one overview list shows take at most this many code points together.
LISTED_CODEPOINTS = 2_000


def _listed(counts: Counter[str]) -> tuple[list[tuple[str, int]], int, int]:
    """(name, count) pairs that fit an overview list, how many were left out, and how
    many of those for being longer than ``LISTED_NAME``: the overview stays inside the
    response budget whatever the records' values are."""
    shown: list[tuple[str, int]] = []
    size = too_long = 0
    for name, n in sorted(counts.items()):
        if len(name) > LISTED_NAME:
            too_long += 1
            continue
        if len(shown) >= MAX_LISTED or size + len(name) > LISTED_CODEPOINTS:
            break
        shown.append((name, n))
        size += len(name)
    return shown, len(counts) - len(shown), too_long


def context(
    log: Log, query: ContextQuery, *, prefix: str = "mkdocs-adr", flags: tuple[str, ...] = ()
) -> tuple[dict[str, Any], str]:
    """Answer a context query: the response data and its exact JSON text."""
    answer = build(log, query, prefix=prefix, flags=flags)
    return answer.respond(answer.start(query.cursor))
