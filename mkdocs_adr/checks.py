"""The problem rules of SPEC 3.6 over a resolved log: each one a small function.

:func:`run` applies every rule that looks at the log as a whole, once its
relations are resolved and its graph built: ids claimed twice (ADR002), heading
numbers (ADR019), supersession cycles (ADR004), one-sided (ADR005) and
contested (ADR016) supersession, successors that never took effect (ADR006)
or compete (ADR007), and review-by dates (ADR017). Succession is the graph's
(:class:`~mkdocs_adr.graph.RelationGraph`): no rule here works it out again.

The problems of one reference (ADR002 ambiguous target, ADR003, ADR008,
ADR015, ADR022) are found while :mod:`mkdocs_adr.log` resolves it, which calls the
constructors below, so that their wording lives here too. Pure: no I/O.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .model import Problem, Record, Relation, Severity
from .paths import docs_relative

if TYPE_CHECKING:
    from .log import Log


def run(log: Log, today: dt.date) -> list[Problem]:
    """Every whole-log problem of ``log``, with review-by dates judged on ``today``."""
    return check(log, today).problems


# --------------------------------------------------------------------- by subject
#
# Each rule judges its subjects one by one (a record, a pair of records, a cycle, a
# declaration), and a subject's problems read only the records it names and, through
# their succession, the records that supersede them and onward. So after an edit that
# kept every record's relations (a status edit, ADR-0065) only the subjects that name a
# changed record or one of its readers (:meth:`RelationGraph.readers`) are judged again.

#: A subject of a rule: a record's path (str), or the ids (as written) it names.
Subject = str | tuple[str, ...]


@dataclass(eq=False)
class Found:
    """What :func:`check` found over ``log`` on ``today``: for each rule, in
    :func:`check`'s order, each subject's problems in the order the rule judged them;
    ``problems`` all of them in that order; ``declared`` :func:`_declared`'s answer."""

    log: Log
    today: dt.date
    rules: tuple[dict[Subject, tuple[Problem, ...]], ...]
    declared: dict[tuple[str, str], set[str]]
    problems: list[Problem]


def check(log: Log, today: dt.date, last: Found | None = None) -> Found:
    """Every whole-log problem of ``log`` (:func:`run`) by rule and subject.

    ``last``: what the check of an earlier log of this host found. When that log had the
    same records (paths and ids, in the same order) with the same relations
    (:meth:`RelationGraph.same_relations`) and ``today`` is the same, each subject is
    judged again only when it names a record that is not the same object or reads one
    (:meth:`RelationGraph.readers`); the others keep what ``last`` found."""
    graph = log.graph
    cycles = graph.cycles()
    on_cycle = {rid for cycle in cycles for rid in cycle}
    if last is not None and (
        last.today != today
        or not graph.same_relations(last.log.graph)
        or tuple(last.log.by_path) != tuple(log.by_path)
    ):
        last = None
    declared = _declared(log) if last is None else last.declared
    judges = _judges(log, today, on_cycle, declared)
    if last is None:
        subjects = _subjects(log, cycles, declared)
        made = tuple(
            {key: tuple(judge(key)) for key in keys}
            for judge, keys in zip(judges, subjects, strict=True)
        )
        return Found(log, today, made, declared, [p for r in made for ps in r.values() for p in ps])
    before = last.log.by_path
    changed = {rec.id.upper() for rec in log.records if before[rec.path] is not rec}
    if not changed:
        return Found(log, today, last.rules, declared, last.problems)
    stale = graph.readers(changed)
    paths = {r.path for rid in stale for r in log.by_id.get(rid, ())}
    rules: list[dict[Subject, tuple[Problem, ...]]] = []
    for by_path, judge, found in zip(_BY_PATH, judges, last.rules, strict=True):
        if by_path:
            again: list[Subject] = [path for path in paths if path in found]
        else:
            again = [key for key in found if not stale.isdisjoint(map(str.upper, key))]
        if again:
            found = dict(found)
            for key in again:
                found[key] = tuple(judge(key))
        rules.append(found)
    kept = tuple(rules)
    return Found(log, today, kept, declared, [p for r in kept for ps in r.values() for p in ps])


def _subjects(
    log: Log, cycles: list[list[str]], declared: dict[tuple[str, str], set[str]]
) -> tuple[Iterable[Subject], ...]:
    """Each rule's subjects, in the order :func:`_judges` gives the rules."""
    paths = list(log.by_path)
    twice = [r.path for _rid, recs in sorted(log.by_id.items()) if len(recs) > 1 for r in recs]
    prose = [
        (e.source, e.target, e.declared_by, e.unit or "", e.source_unit or "")
        for e in log.graph.edges("supersedes")
        if e.one_sided_declaration
    ]
    return (
        twice,
        paths,
        [tuple(c) for c in cycles],
        sorted(declared),
        prose,
        paths,
        _claims(log),
        paths,
    )


#: Whether each rule's subjects (in :func:`_judges`' order) are records' paths.
_BY_PATH = (True, True, False, False, False, True, False, True)


def _judges(
    log: Log, today: dt.date, on_cycle: set[str], declared: dict[tuple[str, str], set[str]]
) -> tuple[Callable[[Any], Iterable[Problem]], ...]:
    """Each rule as a judge of one subject, in the order :func:`run` reports them."""
    at = log.by_path
    return (
        lambda path: duplicate_id(log, at[path]),
        lambda path: number_mismatches((at[path],)),
        lambda cycle: (supersession_cycle(log, cycle),),
        lambda pair: declared_supersession(log, on_cycle, pair, declared[pair]),
        lambda edge: declared_in_prose(log, *edge),
        lambda path: successor_problems(log, on_cycle, at[path]),
        lambda pair: contested_units(log, *pair),
        lambda path: review_problems(log, at[path], today),
    )


# --------------------------------------------------------------------- identity


def duplicate_id(log: Log, rec: Record) -> Iterator[Problem]:
    """ADR002: ``rec``'s id is claimed by other records too; references to it stay
    unresolved."""
    recs = log.by_id[rec.id.upper()]
    if len(recs) < 2:
        return
    paths = ", ".join(r.path for r in recs)
    fix = "give one of them a new number (numbers are never reused)"
    folders = sorted({r.path.rpartition("/")[0] for r in recs}, key=lambda f: (-f.count("/"), f))
    deepest = docs_relative(folders[0], log.config.docs_rel) if len(folders) > 1 else None
    if deepest:
        # a subfolder that numbers its own series from the start (a review log beside the
        # decisions): a root of its own, with a prefix of its own, reads it as one
        fix += (
            f", or, when {deepest}/ is a series of its own, make it a root of its own "
            f"with its own prefix (roots: [..., {{path: {deepest}, prefix: ...}}])"
        )
    yield Problem(
        "ADR002",
        Severity.ERROR,
        f"id {rec.id} is claimed by {len(recs)} records ({paths}); "
        "references to it are not resolved",
        path=rec.path,
        line=rec.parsed.body_start,
        ids=(rec.id,),
        fix=fix,
    )


def number_mismatches(records: Iterable[Record]) -> Iterator[Problem]:
    """ADR019: the heading's number is not the record's (from its file name or id)."""
    for rec in records:
        said = rec.parsed.number
        if said is None or rec.number is None or said == rec.number:
            continue
        yield Problem(
            "ADR019",
            Severity.INFO,
            f"heading says number {said} but the file name says {rec.number}; the id is {rec.id}",
            path=rec.path,
            line=rec.parsed.body_start,
            ids=(rec.id,),
            fix="make the heading number match the file name",
        )


def unreadable(path: str, exc: OSError) -> Problem:
    """ADR013: a record file that cannot be read."""
    return Problem(
        "ADR013",
        Severity.WARNING,
        f"cannot read file: {exc.strerror}",
        path=path,
        fix="check the file's permissions",
    )


def undecodable_page(path: str, data: bytes) -> Problem | None:
    """ADR013: a Markdown file in an ADR root that is not a record and not valid UTF-8.

    The log never reads it, but a host would: MkDocs stops the whole build on it, so the
    site leaves it out (:func:`mkdocs_adr.site.refused_files`)."""
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return Problem(
            "ADR013",
            Severity.WARNING,
            f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x}); "
            "it is not a record, and the site leaves it out",
            path=path,
            line=data[: exc.start].count(b"\n") + 1,
            fix="re-save the file as UTF-8",
        )
    return None


# --------------------------------------------------------------------- references


def _what(rel: Relation) -> str:
    return rel.verb or rel.kind


def link_escapes(rec: Record, rel: Relation) -> Problem:
    """ADR015: a link that leaves the project is not followed."""
    return Problem(
        "ADR015",
        Severity.WARNING,
        f"link {rel.target!r} leaves the project; not followed",
        path=rec.path,
        line=rel.line,
        ids=(rec.id,),
        fix="link to a file inside the documentation folder",
    )


def not_an_adr(rec: Record, rel: Relation, *, page: bool = False, aside: bool = False) -> Problem:
    """ADR003: a relation to something that is not an ADR (a URL, a ``page`` of the docs
    that is no record, or, ``aside``, another kind of document a record only relates to,
    is only worth a note)."""
    web = page or aside or rel.target.startswith(("http://", "https://"))
    return Problem(
        "ADR003",
        Severity.INFO if web else Severity.WARNING,
        f"'{_what(rel)}' target {rel.target!r} is not an ADR; kept as text, not resolved",
        path=rec.path,
        line=rel.line,
        ids=(rec.id,),
        fix="point the relation at an ADR id or file if one is meant",
    )


def target_not_found(rec: Record, rel: Relation, *, aside: bool = False) -> Problem:
    """ADR003: a relation whose target names no record; only a note when ``aside``: a
    record relates to a document of another kind (``relates_to: [RB-0012-runbook]``),
    which changes no decision's effect."""
    return Problem(
        "ADR003",
        Severity.INFO if aside else Severity.WARNING,
        f"'{_what(rel)}' target {rel.target!r} was not found",
        path=rec.path,
        line=rel.line,
        ids=(rec.id,),
        fix="check the id or file name the relation points at",
    )


def ambiguous_target(rec: Record, rel: Relation, ids: Iterable[str]) -> Problem:
    """ADR002: a relation whose target names several records."""
    ids = tuple(ids)
    return Problem(
        "ADR002",
        Severity.ERROR,
        f"'{_what(rel)}' target {rel.target!r} is ambiguous: {', '.join(ids)}",
        path=rec.path,
        line=rel.line,
        ids=(rec.id, *ids),
        fix="refer to the record by its file path",
    )


def not_a_unit(rec: Record, rel: Relation, target: Record, unit: str) -> Problem:
    """ADR008: a reference to a unit the target does not have (it means the record)."""
    keys = ", ".join(u.key for u in target.parsed.units) or "it has none"
    return Problem(
        "ADR008",
        Severity.INFO,
        f"{target.id}#{unit} is not a decision unit of {target.id}; "
        f"the reference falls back to the whole record",
        path=rec.path,
        line=rel.line,
        ids=(rec.id, target.id),
        fix=f"use one of {target.id}'s units ({keys}) or refer to the record",
    )


def link_text_conflict(rec: Record, rel: Relation, file_id: str, text_id: str) -> Problem:
    """ADR022: a link whose file name names one record and whose text another.

    The file name wins (it is what the link opens); the text is what a reader sees.
    """
    return Problem(
        "ADR022",
        Severity.WARNING,
        f"'{_what(rel)}' link {rel.target!r} names {file_id} by its file name but "
        f"{text_id} by its text {rel.label!r}; read as {file_id}",
        path=rec.path,
        line=rel.line,
        ids=(rec.id, file_id, text_id),
        fix="make the link text and the file name name the same record",
    )


# --------------------------------------------------------------------- succession


def supersession_cycle(log: Log, cycle: tuple[str, ...]) -> Problem:
    """ADR004: records that (indirectly) supersede themselves."""
    first = log.get(cycle[0])
    return Problem(
        "ADR004",
        Severity.ERROR,
        f"supersession cycle: {' -> '.join([*cycle, cycle[0]])}",
        path=first.path if first else None,
        line=first.parsed.status_line if first else None,
        ids=cycle,
        fix="a record cannot (indirectly) supersede itself; remove one of the relations",
    )


def _declared(log: Log) -> dict[tuple[str, str], set[str]]:
    """(new, old) -> who wrote it, for every authoritative whole-record supersession."""
    out: dict[tuple[str, str], set[str]] = {}
    for edge in log.graph.edges("supersedes"):
        if edge.authoritative and edge.unit is None:
            out.setdefault((edge.source, edge.target), set()).add(edge.declared_by)
    return out


def declared_supersession(
    log: Log, on_cycle: set[str], pair: tuple[str, str], who: set[str]
) -> Iterator[Problem]:
    """ADR005 and ADR016 when accepted ``new`` supersedes whole record ``old`` (``pair``),
    as ``who`` wrote it.

    A proposal may name what it would supersede; a container's units are
    checked one by one (:func:`contested_units`); a cycle is ADR004's. A
    supersession declared in prose that the other record does not agree with
    binds nothing, so it is only ever ADR005 (:func:`declared_in_prose`).
    """
    new, old = pair
    new_rec, old_rec = log.get(new), log.get(old)
    if new_rec is None or old_rec is None or new in on_cycle or old_rec.units:
        return
    if new_rec.status != "accepted":
        return
    if who == {new}:
        found = one_sided(new_rec, old_rec)
        if found is not None:
            yield found
    elif who == {old}:
        yield not_stated_back(new_rec, old_rec)
    found = contested(new_rec, old_rec, self_stated=who == {old})
    if found is not None:
        yield found


def _line(rec: Record, kinds: tuple[str, ...], target: str) -> int | None:
    return next((r.line for r in rec.relations if r.target_id == target and r.kind in kinds), None)


def one_sided(new: Record, old: Record) -> Problem | None:
    """ADR005: only ``new`` says it supersedes ``old``, which does not say so."""
    if old.status == "superseded":
        return None
    return Problem(
        "ADR005",
        Severity.WARNING,
        f"{new.id} says it supersedes {old.id}, but {old.id} does not say it is superseded "
        f"(its status is {old.status})",
        path=new.path,
        line=_line(new, ("supersedes",), old.id),
        ids=(new.id, old.id),
        fix=f"add 'Superseded by {new.id}' to {old.id} "
        f"(mkdocs-adr supersede {old.id} --by {new.id})",
    )


def not_stated_back(new: Record, old: Record) -> Problem:
    """ADR005 the other way round: only ``old`` says accepted ``new`` supersedes it.

    The relation is followed (``old`` is out of effect when its status says
    superseded), so the log reads consistently: an info, unless ``old``'s own
    status disagrees with what it says (then a warning; ADR016 when accepted).
    """
    consistent = old.status == "superseded"
    return Problem(
        "ADR005",
        Severity.INFO if consistent else Severity.WARNING,
        f"{old.id} says it is superseded by {new.id}, but {new.id} does not say it "
        f"supersedes {old.id}",
        path=old.path,
        line=_line(old, ("superseded-by",), new.id) or old.parsed.status_line,
        ids=(old.id, new.id),
        fix=f"add 'Supersedes {old.id}' to {new.id}",
    )


def declared_in_prose(
    log: Log, source: str, target: str, declarer: str, unit: str, *_: str
) -> Iterator[Problem]:
    """ADR005: ``declarer`` declared in a sentence that ``source`` supersedes ``target``
    (its ``unit``, or "" for the whole record; then the unit of ``source`` that says so),
    and the other record does not agree
    (:attr:`~mkdocs_adr.graph.Edge.one_sided_declaration`); it retires nothing.

    A proposal may declare what it would supersede: only the declarations of an
    accepted successor, or of the old record itself, are reported.
    """
    new, old, by = log.get(source), log.get(target), log.get(declarer)
    if new is None or old is None or by is None:
        return
    if by is new and new.status != "accepted":
        return
    other = old if by is new else new
    named = f"{old.id}#{unit}" if unit else old.id
    said = f"it supersedes {named}" if by is new else f"it is superseded by {new.id}"
    line = _line(by, ("supersedes", "superseded-by"), other.id)
    yield Problem(
        "ADR005",
        Severity.WARNING,
        f"{by.id} declares in prose that {said}, but {other.id} does not say so "
        f"(the status of {old.id} is {old.status}); {old.id} stays in effect",
        path=by.path,
        line=line,
        ids=(by.id, other.id),
        fix=f"mark {old.id} 'Superseded by {new.id}' "
        f"(mkdocs-adr supersede {old.id} --by {new.id}), or remove the sentence",
    )


def contested(new: Record, old: Record, *, self_stated: bool = False) -> Problem | None:
    """ADR016: accepted ``new`` supersedes ``old``, which says it is accepted still.

    ``self_stated``: only ``old`` writes the succession down (``Status: accepted`` above
    ``- Superseded by [..](..)``): the record contradicts itself, and the relation to
    remove is its own."""
    if old.status != "accepted":
        return None
    mark = f"mark {old.id} 'Superseded by {new.id}' (mkdocs-adr supersede {old.id} --by {new.id}"
    if self_stated:
        message = f"{old.id} is accepted, but says accepted {new.id} supersedes it"
        fix = f"{mark}), or remove its 'Superseded by {new.id}' if {old.id} is in effect"
    else:
        message = f"{old.id} is accepted, but accepted {new.id} supersedes it"
        fix = (
            f"{mark}; `mkdocs-adr accept` does both sides when it accepts a proposal), or "
            f"remove the relation from {new.id}"
        )
    return Problem(
        "ADR016",
        Severity.ERROR,
        message,
        path=old.path,
        line=old.parsed.status_line,
        ids=(old.id, new.id),
        fix=fix,
    )


def retired_by_status_line(old: Record, new: str) -> Problem:
    """ADR016 as a note: ``old``'s status section says ``Accepted`` above ``Superseded by``
    ``new``, which took effect; the later line is read as the status (what ``adr link``
    leaves), so the log is consistent and only the status word is stale. The same for a
    ``superseded by:`` field or table row beside another style's status (ADR-0075)."""
    if old.parsed.style == "nygard":
        where = f"above 'Superseded by {new}' in its status section"
        fix = (
            f"remove {old.raw_status!r} from the status section of {old.id}: the "
            "'Superseded by' line is its status, as `adr new -s` writes it"
        )
    else:
        where = f"beside its own 'superseded by {new}'"
        fix = (
            f"write 'superseded' as the status of {old.id}: its 'superseded by' already names {new}"
        )
    return Problem(
        "ADR016",
        Severity.INFO,
        f"{old.id} says {old.raw_status!r} {where}, and {new} took effect: read as superseded",
        path=old.path,
        line=old.parsed.status_line,
        ids=(old.id, new),
        fix=fix,
    )


def successor_problems(log: Log, on_cycle: set[str], rec: Record) -> Iterator[Problem]:
    """ADR006 and ADR007 when ``rec`` is marked superseded (a cycle is ADR004's)."""
    if rec.status != "superseded" or rec.id in on_cycle or log.get(rec.id) is None:
        return
    found = successor_problem(log, rec)
    if found is not None:
        yield found


def successor_problem(log: Log, rec: Record) -> Problem | None:
    """ADR006 when the successor never took effect, ADR007 when two compete."""
    succ = log.successor(rec.id)
    if succ.state == "not-accepted":
        statuses = log.graph.statuses
        names = ", ".join(f"{s} ({statuses.get(s)})" for s in succ.candidates)
        # a successor that records no status (ADR020) is no proposal: a log that writes
        # none is told how to count them, at the level ADR020 tells it
        unrecorded = all(statuses.get(s) == "missing" for s in succ.candidates)
        return Problem(
            "ADR006",
            Severity.INFO if unrecorded else Severity.WARNING,
            f"{rec.id} is marked superseded, but its successor is not accepted: {names}; "
            f"{rec.id} stays in effect",
            path=rec.path,
            line=rec.parsed.status_line,
            ids=(rec.id, *succ.candidates),
            fix="record the successor's status, or set missing_status: accepted when the "
            "log writes none"
            if unrecorded
            else "accept the successor, or set this record back to accepted",
        )
    if succ.state == "ambiguous":
        return Problem(
            "ADR007",
            Severity.WARNING,
            f"{rec.id} has more than one current successor: {', '.join(succ.candidates)}",
            path=rec.path,
            line=rec.parsed.status_line,
            ids=(rec.id, *succ.candidates),
            fix="supersede with one record, or mark the others as amending it",
        )
    return None


def _claims(log: Log) -> list[tuple[str, str]]:
    """Each pair of records (in order) that each supersede units of the other."""
    claims = {
        (edge.source, edge.target)
        for edge in log.graph.edges("supersedes")
        if edge.unit and edge.authoritative
    }
    return [(a, b) for a, b in sorted(claims) if a < b and (b, a) in claims]


def contested_units(log: Log, a: str, b: str) -> Iterator[Problem]:
    """ADR016: records ``a`` and ``b``, which each supersede units of the other, are both
    in effect."""
    ra, rb = log.get(a), log.get(b)
    if ra and rb and log.in_effect(ra) and log.in_effect(rb):
        yield Problem(
            "ADR016",
            Severity.ERROR,
            f"{a} and {b} each claim to supersede the other's accepted units",
            path=ra.path,
            ids=(a, b),
            fix="decide which record wins and mark the other's unit superseded",
        )


# --------------------------------------------------------------------- review-by


@dataclass(frozen=True, slots=True)
class ReviewBy:
    """A decision's review-by date as the rule reads it."""

    due: str  # as written
    when: dt.date | None  # None: not a date
    days: int  # days since it passed; 0 or less: not yet

    @property
    def overdue(self) -> bool:
        return self.when is not None and self.days > 0


def review_by(log: Log, rec: Record, today: dt.date) -> ReviewBy | None:
    """The review-by date of ``rec``, or None when there is nothing to review.

    Only decisions in effect are reviewed (:meth:`~mkdocs_adr.log.Log.in_effect`:
    a record superseded only by a proposal still is); an archived, superseded
    or rejected record has nothing left to review.
    """
    due = rec.parsed.review_by
    if not due or rec.archived or not log.in_effect(rec):
        return None
    try:
        when = dt.date.fromisoformat(due)
    except ValueError:
        return ReviewBy(due, None, 0)
    return ReviewBy(due, when, (today - when).days)


def review_problems(log: Log, rec: Record, today: dt.date) -> Iterator[Problem]:
    """ADR017: ``rec``'s review-by date is not a date, or has passed."""
    review = review_by(log, rec, today)
    if review is None:
        return
    if review.when is None:
        yield Problem(
            "ADR017",
            Severity.WARNING,
            f"review-by date {review.due!r} is not a date",
            path=rec.path,
            ids=(rec.id,),
            fix="write review-by as YYYY-MM-DD",
        )
    elif review.overdue:
        yield Problem(
            "ADR017",
            Severity.WARNING,
            f"review-by date {review.due} has passed ({review.days} days ago)",
            path=rec.path,
            ids=(rec.id,),
            fix="review the decision, then move review-by forward or supersede it",
        )
