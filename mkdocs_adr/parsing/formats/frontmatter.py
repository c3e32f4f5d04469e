"""Generic frontmatter (this project's own style): ``status:`` and relation keys in YAML.

The detector finds any frontmatter with a ``status`` key; MADR 3/4
(:mod:`.madr`) claims the ones that look like MADR. The writer keeps
``status: superseded`` plus ``superseded-by`` ids, and the relations as lists
of ids under the keys of :data:`~mkdocs_adr.parsing.status.FRONTMATTER_KEYS`.
"""

from __future__ import annotations

from ... import rx
from ..common import fm_line
from ..editable import Editable, UnsafeEdit
from ..markdown import unbraced
from ..status import FRONTMATTER_KEYS, relations_in_text
from .base import Context, Format, Hit, Ref, Writer

#: Keys only this project's generic frontmatter uses (MADR has none of them).
GENERIC_KEYS = frozenset({"id", "domain", "affected-paths", "affected-components", "iteration"})

#: Keys that say more than their kind's own key, written when the verb is theirs
#: ("Deprecates" is ``deprecates``, not ``supersedes``: ADR-0037).
WORDED_KEYS = frozenset({"deprecates", "deprecated-by"})

#: Frontmatter keys per relation kind, the spelling we insert first.
KEYS: dict[str, tuple[str, ...]] = {}
for _key, _kind in FRONTMATTER_KEYS.items():
    if _key in WORDED_KEYS:
        continue
    KEYS.setdefault(_kind, ())
    KEYS[_kind] = (*KEYS[_kind], _key)

#: A heading that starts with an id (``# ADR-0042: Title``).
_ID_HEADING = rx.compile(r"^[A-Za-z][A-Za-z0-9_]*-\d+\b")


def detect(ctx: Context) -> Hit | None:
    fm = ctx.doc.frontmatter
    if not fm:
        return None
    if "status" in fm:
        key = "status"
    elif ctx.status_headings.isdisjoint(fm):
        return None  # (the usual record without a status key: one look)
    else:
        # a localized status heading as the key: the French MADR template's ``statut:
        # accepté``; the first such key, as the writer edits it (:func:`status_key`)
        key = next(k for k in fm if k in ctx.status_headings)
    if fm[key] in (None, ""):
        return None
    raw = fm[key]
    if isinstance(raw, dict):
        raw = _filled_in(raw)
    if isinstance(raw, list):
        raw = ", ".join(str(x) for x in raw)
    raw = str(raw)
    line = fm_line(ctx.doc, key)
    hit = Hit("frontmatter", raw, line)
    hit.relations.extend(relations_in_text(raw, "frontmatter", line))
    return hit


#: The status a template's braces hold once filled in: a word or a few (``accepted``,
#: ``in-progress``, ``on hold``), no sentence and no list of choices.
_FILLED = rx.compile(r"[^\W\d_][\w-]*(?: [\w-]+){0,2}")


def _filled_in(value: dict[object, object]) -> object:
    """``status: { accepted }`` (MADR 3's braces kept, a mapping to YAML) is ``accepted``;
    any other braced text, a slot that lists its choices (``{proposed | rejected}``) or
    guidance, stays the braced placeholder it is, written as the record writes it."""
    word = unbraced(value)
    if isinstance(word, str) and _FILLED.fullmatch(word.strip()) and word.lower() != "status":
        return word.strip()  # (``{status}`` names the slot: nothing was filled into it)
    if word is value:
        return value  # (a mapping of real values: read as before)
    return "{" + ", ".join(str(k) for k in value) + "}"


def status_key(ed: Editable) -> str:
    """The frontmatter key the record keeps its status under, as :func:`detect` reads it:
    ``status``, else the first localized status heading used as a key (``statut:``),
    edited in place rather than given a second ``status:`` beside it."""
    found = ed.fm_key("status")
    if found is None and ed.status_headings:
        found = ed.fm_key(*ed.status_headings)
    return "status" if found is None else found[0]


class FrontmatterWriter(Writer):
    """``status``, ``date``, ``review-by``, ``id`` and relation lists in the frontmatter."""

    style = "frontmatter"

    def states_kind(self, kind: str) -> bool:
        return kind in KEYS

    def set_title(self, ed: Editable, title: str, number: int | None, rid: str) -> None:
        index = ed.first_h1()
        with_id = index is not None and bool(_ID_HEADING.match(ed.lines[index][2:].strip()))
        Writer.set_title(self, ed, f"{rid}: {title}" if with_id else title, number, rid)
        ed.fm_set("title", title, after=("id",))

    def set_id(self, ed: Editable, rid: str) -> None:
        if ed.fm_key("id") is not None:
            ed.fm_set("id", rid)

    def set_status(self, ed: Editable, status: str) -> None:
        ed.fm_set(status_key(ed), status)

    def set_date(self, ed: Editable, date: str) -> None:
        ed.fm_set("date", date, after=(status_key(ed),), date=True)

    def set_review_by(self, ed: Editable, date: str) -> None:
        ed.fm_set("review-by", date, after=(status_key(ed), "date"), date=True)

    def add_relation(self, ed: Editable, kind: str, verb: str, ref: Ref) -> None:
        named = "-".join(verb.lower().split())
        keys = (named,) if named in WORDED_KEYS else KEYS.get(kind)
        if not keys:
            raise UnsafeEdit(f"{ed.path}: frontmatter has no key for '{kind}'")
        ed.fm_add_item(keys, ref.key(ed.path))

    def mark_deprecated(self, ed: Editable, ref: Ref, word: str) -> None:
        ed.fm_set(status_key(ed), word)
        ed.fm_add_item(("deprecated-by",), ref.key(ed.path))

    def mark_superseded(self, ed: Editable, ref: Ref, *, linked: bool) -> None:
        ed.fm_set(status_key(ed), "superseded")
        if not linked:
            ed.fm_add_item(KEYS["superseded-by"], ref.key(ed.path))


TEMPLATE = """\
---
id: ADR-NNNN
title: TITLE
status: STATUS
date: YYYY-MM-DD
---
# TITLE

## Context

What is the situation that calls for a decision? State the forces at play.

## Decision

What we decided, in full sentences: "We will ...".

## Consequences

What becomes easier or harder because of this decision, and what we must now watch.
"""

FORMAT = Format(
    "frontmatter",
    "YAML frontmatter with status, id, title and relation keys (this project's own)",
    detect=detect,
    forced=("frontmatter",),
    writer=FrontmatterWriter(),
    template=TEMPLATE,
)
