"""The constraints of a source record, one by one: what a replacement must carry over.

A record's constraints are the items of its decision section
(:func:`mkdocs_adr.parsing.sections.decision_of`): each top-level list item, and
each paragraph outside a list, in order; headings and comments only organise them, and
sub-sections such as MADR's "### Consequences" state no constraint.
Each has a key, ``ADR-0012#2`` (the second item of ADR-0012), that the coverage
map and the replacement's text use (the replacement writes it as
``(from ADR-0012, item 2)`` after the item, which :func:`parse_items` reads back).
A record without a decision section has one constraint, its whole body, which
no item can carry: it is ``unresolved`` until the reviewer says otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Record
from ..parsing.markdown import heading_key
from ..parsing.sections import decision_of

_BULLET = re.compile(r"^(?:[-*+]|\d{1,3}[.)])[ \t]+")
_MARKER = re.compile(r"\s*\(from ([^\s,()]+), item (\d+)\)\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
#: Sub-sections of a decision section that state no constraint (MADR writes its
#: consequences and confirmation under "## Decision Outcome").
NOT_CONSTRAINTS = frozenset(
    {
        "consequences",
        "positive consequences",
        "negative consequences",
        "confirmation",
        "pros and cons",
    }
)


@dataclass(frozen=True)
class Constraint:
    """One item of a source's decision."""

    record: str  # the source's id
    item: int  # 1-based, in the order the record states them
    text: str  # the item's text, its list marker taken off
    path: str = ""

    @property
    def key(self) -> str:
        return f"{self.record}#{self.item}"


def _blocks(text: str) -> list[str]:
    """Top-level list items and paragraphs of ``text``; fenced code stays whole."""
    out: list[str] = []
    current: list[str] = []
    fence = False
    skipping = False  # inside a sub-section that states no constraint (MADR's Consequences)

    def flush() -> None:
        if current and any(line.strip() for line in current):
            out.append("\n".join(current).strip("\n"))
        current.clear()

    for line in _COMMENT.sub("", text).split("\n"):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fence = not fence
            current.append(line)
            continue
        if fence:
            current.append(line)
            continue
        if stripped.startswith("#"):
            flush()
            skipping = heading_key(stripped.lstrip("#")) in NOT_CONSTRAINTS
            continue
        if skipping:
            continue
        if not stripped:
            if current and _BULLET.match(current[0]):
                current.append(line)  # a blank inside a list item; the next line decides
                continue
            flush()
            continue
        if _BULLET.match(line):
            flush()
            current.append(line)
            continue
        after_list = current and _BULLET.match(current[0]) and not current[-1].strip()
        if after_list and not line.startswith((" ", "\t")):
            flush()  # a paragraph after the list
        current.append(line)
    flush()
    return out


def _item_text(block: str) -> str:
    lines = block.split("\n")
    lines[0] = _BULLET.sub("", lines[0], count=1)
    out = [lines[0].strip()]
    for line in lines[1:]:
        out.append(line[2:] if line.startswith("  ") else line.strip())
    return "\n".join(out).strip()


def constraints(rec: Record) -> list[Constraint]:
    """The constraints of ``rec``'s decision, in order (empty: it states none)."""
    text = decision_of(rec.parsed) or ""
    return [
        Constraint(rec.id, n, _item_text(block), rec.path)
        for n, block in enumerate(_blocks(text), start=1)
    ]


def marker(c: Constraint) -> str:
    return f"(from {c.record}, item {c.item})"


def render_item(text: str, c: Constraint) -> list[str]:
    """The list item a replacement writes for ``c`` (with ``text``, its wording)."""
    lines = text.strip().split("\n")
    out = [f"- {lines[0]}"] + [f"  {line}" if line.strip() else "" for line in lines[1:]]
    out[-1] = f"{out[-1]} {marker(c)}"
    return out


def parse_items(decision: str) -> dict[str, str]:
    """Key -> wording of every item of a replacement's decision that names its source."""
    found: dict[str, str] = {}
    for block in _blocks(decision):
        text = _item_text(block)
        m = _MARKER.search(text)
        if m is None:
            continue
        found[f"{m.group(1)}#{m.group(2)}"] = text[: m.start()].rstrip()
    return found
