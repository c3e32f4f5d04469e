"""What the reader takes from every record, whatever its format.

Frontmatter relation keys are read in any frontmatter, ``Key: value`` lines
before the first second-level heading in any record, and a ``## Links``
section wherever it is. The format modules (:mod:`.formats`) use the helpers
here; the reader calls the three readers for every record.
"""

from __future__ import annotations

import re

from ..model import Relation
from .markdown import Document, heading_key
from .status import FRONTMATTER_KEYS, frontmatter_refs, link_line, relations_in_text

#: A ``Key: value`` line (``Date: 2024-01-01``, ``**Status:** accepted``, ``状态：接受``),
#: also with a bold key and no colon (``- **Status** deprecated``) or a dash
#: (``Status - Accepted``): group 1 is the key, group 2 the value.
INLINE_FIELD = re.compile(
    r"^\s*(?:[-*+]\s+)?\**([^\W\d_][\w \-]*?)"
    r"(?:\**\s*(?:[:：]|\s[-–—]\s)|(?<=[^\s*])\*\*(?=\s))\s*\**\s*(.+?)\s*$"
)


def may_hold_fields(text: str) -> bool:
    """Whether ``text`` (a line or a whole record) holds what :data:`INLINE_FIELD`
    needs: a colon, a bold key or a spaced dash. Cheaper than the pattern."""
    return (
        ":" in text
        or "**" in text
        or "：" in text
        or " - " in text
        or " – " in text
        or " — " in text
    )


def field_match(text: str) -> re.Match[str] | None:
    """:data:`INLINE_FIELD` on one line, skipping the lines that cannot match."""
    return INLINE_FIELD.match(text) if may_hold_fields(text) else None


LINKS_HEADINGS = ("links", "related", "related decisions", "relations")


def fm_line(doc: Document, key: str) -> int | None:
    """The line number of frontmatter key ``key``, if the record has it."""
    if doc.frontmatter is None:
        return None
    for i, line in enumerate(doc.frontmatter_lines()):
        if line.lower().startswith(key + ":"):
            return i + 1
    return None


def frontmatter_relations(doc: Document) -> list[Relation]:
    """Relations under the frontmatter relation keys (``supersedes:``, ``amends:``)."""
    fm = doc.frontmatter
    out: list[Relation] = []
    if not fm or not FRONTMATTER_KEYS.keys() & fm.keys():
        return out
    for key, kind in FRONTMATTER_KEYS.items():
        if key not in fm:
            continue
        line = fm_line(doc, key)
        for ref in frontmatter_refs(fm[key]):
            found = list(relations_in_text(f"{kind.replace('-', ' ')} {ref}", "frontmatter", line))
            if found and all(r.kind == kind for r in found):
                out.extend(found)
            else:
                out.append(Relation(kind, ref, "frontmatter", line, verb=key))
    return out


def inline_fields(doc: Document) -> dict[str, tuple[str, int]]:
    """``Key: value`` lines before the first second-level heading (Date, Deciders)."""
    out: dict[str, tuple[str, int]] = {}
    if not may_hold_fields(doc.text):
        return out
    limit = next((h.line for h in doc.headings if h.level == 2), None)
    for lineno, text in doc.unfenced_before(limit):
        if text.lstrip().startswith("#"):
            continue
        m = field_match(text)
        if m:
            out.setdefault(heading_key(m.group(1)), (m.group(2).strip("* "), lineno))
    return out


def links_section(doc: Document) -> list[Relation]:
    """The relations listed under a ``## Links`` (or ``Related``) heading."""
    out: list[Relation] = []
    for sec, _key in doc.keyed_sections(LINKS_HEADINGS):
        for lineno, text in doc.body(sec):
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            rels = list(link_line(text, "links-section", lineno))
            if rels:
                out.extend(rels)
            else:
                for rel in relations_in_text(text, "links-section", lineno):
                    out.append(rel)
    return out
