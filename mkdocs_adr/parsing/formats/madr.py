"""MADR 3 and 4: status and date in YAML frontmatter, the title in the heading.

A variant of :mod:`.frontmatter`: a frontmatter record with none of the
generic keys is MADR when it has a MADR key (``deciders``,
``decision-makers``, ``consulted``, ``informed``) or no ``title``. The writer
writes ``status: "superseded by [ADR-0005](0005-x.md)"``, and other relations
as frontmatter lists, since MADR has no field for them and the engine reads
those keys in any frontmatter.
"""

from __future__ import annotations

from ..editable import Editable
from .base import Context, Format, Hit, Ref, Writer
from .frontmatter import GENERIC_KEYS, FrontmatterWriter, status_key

MADR_KEYS = frozenset({"deciders", "decision-makers", "consulted", "informed"})


def claims(ctx: Context, hit: Hit) -> bool:
    keys = (ctx.doc.frontmatter or {}).keys()
    return not (GENERIC_KEYS & keys) and bool(MADR_KEYS & keys or "title" not in keys)


class MadrWriter(FrontmatterWriter):
    """As the frontmatter writer, but no id, and the successor written into the status."""

    style = "madr"

    def set_title(self, ed: Editable, title: str, number: int | None, rid: str) -> None:
        Writer.set_title(self, ed, title, number, rid)
        if ed.fm_key("title") is not None:
            ed.fm_set("title", title)

    def set_id(self, ed: Editable, rid: str) -> None:
        """MADR keeps no id inside the file."""

    def mark_superseded(self, ed: Editable, ref: Ref, *, linked: bool) -> None:
        ed.fm_set(status_key(ed), f"superseded by {ref.link(ed.path, ref.id)}")

    def mark_deprecated(self, ed: Editable, ref: Ref, word: str) -> None:
        ed.fm_set(status_key(ed), f"{word} by {ref.link(ed.path, ref.id)}")


TEMPLATE = """\
---
status: STATUS
date: DATE
---
# TITLE

## Context and Problem Statement

What is the problem, and why does it need a decision now?

## Considered Options

* Option 1
* Option 2

## Decision Outcome

Chosen option: "Option 1", because ...

### Consequences

* Good, because ...
* Bad, because ...
"""

FORMAT = Format(
    "madr",
    "MADR 3/4: YAML frontmatter with status, date and decision-makers",
    variant_of="frontmatter",
    claims=claims,
    forced=("frontmatter",),
    writer=MadrWriter(),
    template=TEMPLATE,
)
