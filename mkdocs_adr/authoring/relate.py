"""Supersede and link edits on both sides, each record in its own style.

Which lines to add is the format writers' job (:mod:`.writers`); this module
decides which edits a relation needs on each side, what each side must read
back as, and which relations may not be written at all (a supersession that
would make a cycle or a second successor, a verb that cannot be a link line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Record
from ..parsing.status import VERBS
from .refusal import AuthoringRefused, Reason
from .session import Side, Work, wording
from .writers import KEEPS_WORDING, WRITABLE, writer_for

#: Default inverse wording, as adr-tools users write it.
INVERSE_VERBS: dict[str, str] = {
    "amends": "Amended by",
    "amended by": "Amends",
    "extends": "Extended by",
    "extended by": "Extends",
    "depends on": "Depended on by",
    "depended on by": "Depends on",
    "relates to": "Relates to",
    "related to": "Related to",
    "clarifies": "Clarified by",
    "clarified by": "Clarifies",
    "refines": "Refined by",
    "refined by": "Refines",
    "partially supersedes": "Partially superseded by",
    "partially superseded by": "Partially supersedes",
    "partly supersedes": "Partly superseded by",
    "partly superseded by": "Partly supersedes",
}
SUCCESSION = ("supersedes", "superseded-by")
_VERB_OK = re.compile(r"^[^\[\]()\x00-\x1f\x7f-\x9f:]{1,40}$")


def verb_kind(verb: str) -> str:
    """The relation kind a verb means, as the parser reads it (unknown verbs relate)."""
    return VERBS.get(wording(verb), "relates-to")


# --------------------------------------------------------------------- link specs


@dataclass(frozen=True)
class LinkSpec:
    verb: str
    target: str
    inverse: str | None = None


def parse_link_spec(text: str) -> LinkSpec:
    """``VERB:ID`` or ``VERB:ID:INVERSE``; adr-tools' ``ID:VERB:INVERSE`` also reads."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) == 2 and all(parts):
        return LinkSpec(parts[0], parts[1])
    if len(parts) == 3 and all(parts):
        first_is_ref = bool(re.search(r"\d", parts[0])) and " " not in parts[0]
        second_is_ref = bool(re.search(r"\d", parts[1])) and " " not in parts[1]
        if first_is_ref and not second_is_ref:
            return LinkSpec(parts[1], parts[0], parts[2])
        return LinkSpec(parts[0], parts[1], parts[2])
    raise AuthoringRefused(
        "new",
        [
            Reason(
                f"--link {text!r} is not VERB:ID (e.g. 'Amends:ADR-0003') or "
                "VERB:ID:INVERSE (e.g. 'Clarifies:3:Clarified by')",
                usage=True,
            )
        ],
    )


# --------------------------------------------------------------------- what may be written


def check_verbs(work: Work, verb: str, inverse: str | None, example: str) -> str | None:
    """The inverse verb to write, or None with reasons recorded."""
    ok = True
    for label, value in (("verb", verb), ("inverse verb", inverse)):
        if value is None:
            continue
        if not _VERB_OK.match(value.strip()):
            work.reasons.append(
                Reason(
                    f"{label} {value!r} cannot be written as a link line: use words only "
                    "(no brackets, parentheses, colons or control characters, "
                    "at most 40 characters)",
                    usage=True,
                )
            )
            ok = False
        elif verb_kind(value) in SUCCESSION:
            work.reasons.append(
                Reason(
                    f"{label} {value!r} is a supersession, which also changes a status; "
                    "use `mkdocs-adr supersede OLD --by NEW` (or `new --supersedes`)",
                    usage=True,
                )
            )
            ok = False
    if inverse is None:
        inverse = INVERSE_VERBS.get(wording(verb))
        if inverse is None and ok:
            work.reasons.append(
                Reason(
                    f"verb {verb!r} has no default inverse; give the other record's wording "
                    f"(as in adr-tools' `adr link 12 Amends 10 'Amended by'`): {example}",
                    usage=True,
                )
            )
            return None
    return inverse.strip() if ok and inverse else None


def supersede_checks(work: Work, old: Record, new_id: str, new_status: str) -> None:
    """Record every reason ``new_id`` (of ``new_status``) may not supersede ``old``."""
    log = work.log
    if new_status in ("rejected", "superseded", "deprecated"):
        work.reasons.append(
            Reason(
                f"NEW {new_id} is {new_status}; only an accepted or proposed record can "
                "supersede another"
            )
        )
    if old.status == "rejected":
        work.reasons.append(
            Reason(
                f"OLD {old.id} is rejected: it never took effect, so nothing supersedes it "
                f"(relate them instead: mkdocs-adr link {new_id} 'Relates to' {old.id})"
            )
        )
    others = [s for s in log.graph.effective_successors(old.id) if s != new_id]
    if others:
        work.reasons.append(
            Reason(
                f"OLD {old.id} is already superseded by {', '.join(others)}; supersede "
                f"{others[0]} instead, so the log keeps one current successor (ADR007)"
            )
        )
    if log.graph.supersedes(old.id, new_id):
        work.reasons.append(
            Reason(
                f"{old.id} already (directly or through others) supersedes {new_id}; "
                "the reverse would be a cycle (ADR004)"
            )
        )


# --------------------------------------------------------------------- the edits


def supersede(work: Work, old: Side, new: Side) -> None:
    """``new`` supersedes ``old``, each side in its own style."""
    new_writer = writer_for(new.style)
    assert new_writer is not None
    if ("supersedes", old.ref.id) not in new.relations:
        work.edit(new, lambda: new_writer.add_relation(new.ed, "supersedes", "Supersedes", old.ref))
        new.change.what.append(f"supersedes {old.ref.id}")
        new.relations.add(("supersedes", old.ref.id))
    new.expect.relations.add(("supersedes", old.ref.id))
    linked = ("superseded-by", new.ref.id) in old.relations
    old.expect.relations.add(("superseded-by", new.ref.id))
    if new.status == "accepted":
        _mark_superseded(work, old, new, linked)
    else:
        _record_proposed_successor(work, old, new, linked)
    old.relations.add(("superseded-by", new.ref.id))


def _mark_superseded(work: Work, old: Side, new: Side, linked: bool) -> None:
    """An accepted successor: ``old`` becomes superseded and names it."""
    old_writer = writer_for(old.style)
    assert old_writer is not None
    if old.status != "superseded" or not linked:
        work.edit(old, lambda: old_writer.mark_superseded(old.ed, new.ref, linked=linked))
        old.change.what.append(f"superseded by {new.ref.id} (status: superseded)")
    old.expect.status = "superseded"
    old.status = "superseded"


def _record_proposed_successor(work: Work, old: Side, new: Side, linked: bool) -> None:
    """A successor not yet accepted: ``old`` names it and keeps its status."""
    old_writer = writer_for(old.style)
    assert old_writer is not None
    if not linked:
        work.edit(
            old,
            lambda: old_writer.add_relation(old.ed, "superseded-by", "Superseded by", new.ref),
        )
        old.change.what.append(f"superseded by {new.ref.id} (recorded; status stays {old.status})")
    work.notes.append(
        f"{new.ref.id} is {new.status}, not accepted: {old.ref.id} stays in effect and "
        f"keeps its status ({old.status}). Once {new.ref.id} is accepted, run "
        f"`mkdocs-adr supersede {old.ref.id} --by {new.ref.id}` to mark {old.ref.id} "
        "superseded."
    )


def link(work: Work, source: Side, verb: str, target: Side, inverse: str) -> None:
    """``verb`` in ``source``, its ``inverse`` in ``target`` where that style can say it."""
    kind, inverse_kind = verb_kind(verb), verb_kind(inverse)
    src_writer, tgt_writer = writer_for(source.style), writer_for(target.style)
    assert src_writer is not None and tgt_writer is not None
    if not source.states(kind, verb, target.ref.id):
        work.edit(source, lambda: src_writer.add_relation(source.ed, kind, verb, target.ref))
        source.change.what.append(f"{verb} {target.ref.id}")
        source.record(kind, verb, target.ref.id)
    source.expect.relations.add((kind, target.ref.id))
    if not tgt_writer.states_kind(inverse_kind):
        work.notes.append(
            f"{target.ref.id} keeps its relations in frontmatter, which has no key for "
            f"'{inverse}'; the relation is stated in {source.ref.id} and the graph reads it "
            "from there"
        )
        return
    if not target.states(inverse_kind, inverse, source.ref.id):
        work.edit(
            target,
            lambda: tgt_writer.add_relation(target.ed, inverse_kind, inverse, source.ref),
        )
        target.change.what.append(f"{inverse} {source.ref.id}")
        target.record(inverse_kind, inverse, source.ref.id)
    target.expect.relations.add((inverse_kind, source.ref.id))


def frontmatter_wording(work: Work, sides: list[Side], verbs: list[str]) -> None:
    """Note each side whose frontmatter keeps only the kind, not the wording, of a verb."""
    for side, verb in zip(sides, verbs, strict=True):
        kind = verb_kind(verb)
        if (
            side.style in WRITABLE
            and side.style not in KEEPS_WORDING
            and kind == "relates-to"
            and wording(verb) not in ("relates to", "related to")
        ):
            work.notes.append(
                f"{side.ref.id} keeps relations in frontmatter: '{verb}' is written as relates-to"
            )
