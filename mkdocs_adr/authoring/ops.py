"""``supersede`` and ``link`` as library calls (``new`` is :mod:`.create`'s).

Each finds and checks both records (:mod:`.session`, :mod:`.relate`), edits
both sides (:mod:`.relate`), reads the result back (:mod:`.readback`) and
shows or applies it (:mod:`.running`).
"""

from __future__ import annotations

import datetime as dt

from ..config import Config
from ..identity import BadReference, lookup
from ..log import Log
from ..model import Record
from . import relate
from .outcome import Outcome, Subject
from .plan import LinkScope, SupersedeScope
from .readback import Prepared, prepare
from .refusal import Reason
from .running import run
from .session import Side, Work
from .writers import capitalized


def supersede(
    config: Config,
    old_ref: str,
    new_ref: str,
    *,
    dry_run: bool = False,
    today: dt.date | None = None,
) -> Outcome:
    """Record that ``new_ref`` supersedes ``old_ref``, in both records at once."""

    def build(log: Log) -> Prepared:
        work = Work(config, log, f"supersede {old_ref} --by {new_ref}")
        pair = _pair(work, old_ref, new_ref, ("OLD", "NEW"), "supersede itself")
        if pair is not None:
            relate.supersede_checks(work, pair[0], pair[1].id, pair[1].status)
        old, new = _records(pair, work)
        old_side, new_side = _sides(work, old, new)
        relate.supersede(work, old_side, new_side)
        return prepare(
            work,
            "supersede",
            SupersedeScope(f"supersede {old.id} --by {new.id}", old.id, new.id),
            Subject(new.id, new.path, new.status, supersedes=old.id),
            today,
        )

    def key(log: Log) -> str:
        return f"supersede {_key_id(log, old_ref)} {_key_id(log, new_ref)}"

    return run(config, build, command="supersede", dry_run=dry_run, today=today, resume_key=key)


def link(
    config: Config,
    source_ref: str,
    verb: str,
    target_ref: str,
    inverse: str | None = None,
    *,
    dry_run: bool = False,
    today: dt.date | None = None,
) -> Outcome:
    """Relate two records, the verb in the source and its inverse in the target."""

    def build(log: Log) -> Prepared:
        work = Work(config, log, f"link {source_ref} {verb!r} {target_ref}")
        inverse_verb = relate.check_verbs(
            work, verb, inverse, f"mkdocs-adr link {source_ref} '{verb}' {target_ref} 'INVERSE'"
        )
        pair = _pair(work, source_ref, target_ref, ("SOURCE", "TARGET"), "be linked to itself")
        source, target = _records(pair, work)
        assert inverse_verb is not None
        src_side, tgt_side = _sides(work, source, target)
        relate.link(work, src_side, capitalized(verb), tgt_side, capitalized(inverse_verb))
        relate.frontmatter_wording(work, [src_side, tgt_side], [verb, inverse_verb])
        return prepare(
            work,
            "link",
            LinkScope(
                f"link {source.id} '{verb}' {target.id} '{inverse_verb}'",
                source.id,
                verb,
                target.id,
                inverse_verb,
            ),
            Subject(source.id, source.path, source.status),
            today,
        )

    def key(log: Log) -> str:
        return (
            f"link {_key_id(log, source_ref)} {verb.lower()} "
            f"{_key_id(log, target_ref)} {(inverse or '').lower()}"
        )

    return run(config, build, command="link", dry_run=dry_run, today=today, resume_key=key)


def _pair(
    work: Work, first_ref: str, second_ref: str, roles: tuple[str, str], itself: str
) -> tuple[Record, Record] | None:
    """Two distinct records, both checked writable; None with the reasons recorded."""
    first = work.find(first_ref, roles[0])
    second = work.find(second_ref, roles[1])
    if first is None or second is None:
        return None
    if first.path == second.path:
        work.reasons.append(Reason(f"{first.id} cannot {itself}", usage=True))
        return None
    work.writable(first, roles[0])
    work.writable(second, roles[1])
    return first, second


def _records(pair: tuple[Record, Record] | None, work: Work) -> tuple[Record, Record]:
    """The pair, once no reason to refuse was recorded."""
    work.refuse_if_any()
    assert pair is not None
    return pair


def _sides(work: Work, first: Record, second: Record) -> tuple[Side, Side]:
    """Both records read as editable sides; refuses if either cannot be read."""
    first_side, second_side = work.side(first), work.side(second)
    work.refuse_if_any()
    assert first_side is not None and second_side is not None
    return first_side, second_side


def _key_id(log: Log, ref: str) -> str:
    try:
        return lookup(log, ref, partial=True).record.id
    except BadReference:
        return ref
