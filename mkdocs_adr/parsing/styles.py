"""Per-style detectors: each finds a status signal, its relations and metadata.

A detector returns a :class:`Hit` when its style's status signal is present.
:data:`DETECTORS` lists them in the order they are tried; the first hit names
the record's style. Detectors that miss leave the next one to try.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..model import Relation
from .markdown import Document, Section, heading_key
from .status import FRONTMATTER_KEYS, frontmatter_refs, link_line, relations_in_text

_BULLET_FIELD = re.compile(r"^\s*([-*+])\s+\**([A-Za-z][A-Za-z \-]*?)\**\s*:\s*\**\s*(.*?)\s*$")
_INLINE_FIELD = re.compile(r"^\s*\**([^\W\d_][\w \-]*?)\**\s*[:：]\s*\**\s*(.+?)\s*$")
_TABLE_ROW = re.compile(r"^\s*\|\s*\**\s*([^|*]+?)\s*\**\s*\|\s*(.*?)\s*\|?\s*$")
_DATE_SLUG = re.compile(r"^\d{8}-")
#: Lines that may be a table row / a ``- key: value`` bullet (see Document.lines_matching).
_TABLE_LINE = re.compile(r"\n[^\S\n]*\|")
_BULLET_LINE = re.compile(r"\n[^\S\n]*[-*+][^\n]*:")
MADR_KEYS = frozenset({"deciders", "decision-makers", "consulted", "informed"})
GENERIC_KEYS = frozenset({"id", "domain", "affected-paths", "affected-components", "iteration"})


@dataclass
class Hit:
    """What a detector found. ``raw`` is the status text as written."""

    style: str
    raw: str
    line: int | None
    relations: list[Relation] = field(default_factory=list)
    fields: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: A status section that holds only link lines (adr-tools after ``new -s``).
    links_only: bool = False
    consumed: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Context:
    doc: Document
    name: str
    status_headings: frozenset[str]


# --------------------------------------------------------------------- frontmatter


def frontmatter(ctx: Context) -> Hit | None:
    fm = ctx.doc.frontmatter
    if not fm or "status" not in fm or fm["status"] in (None, ""):
        return None
    raw = fm["status"]
    if isinstance(raw, list):
        raw = ", ".join(str(x) for x in raw)
    raw = str(raw)
    style = "frontmatter" if GENERIC_KEYS & set(fm) or not (MADR_KEYS & set(fm)) else "madr"
    if style == "frontmatter" and not (GENERIC_KEYS & set(fm)) and "title" not in fm:
        style = "madr"
    line = _fm_line(ctx.doc, "status")
    hit = Hit(style, raw, line)
    hit.relations.extend(relations_in_text(raw, "frontmatter", line))
    return hit


def _fm_line(doc: Document, key: str) -> int | None:
    if doc.frontmatter is None:
        return None
    for i, line in enumerate(doc.frontmatter_lines()):
        if line.lower().startswith(key + ":"):
            return i + 1
    return None


def frontmatter_relations(doc: Document) -> list[Relation]:
    fm = doc.frontmatter
    out: list[Relation] = []
    if not fm or not FRONTMATTER_KEYS.keys() & fm.keys():
        return out
    for key, kind in FRONTMATTER_KEYS.items():
        if key not in fm:
            continue
        line = _fm_line(doc, key)
        for ref in frontmatter_refs(fm[key]):
            found = list(relations_in_text(f"{kind.replace('-', ' ')} {ref}", "frontmatter", line))
            if found and all(r.kind == kind for r in found):
                out.extend(found)
            else:
                out.append(Relation(kind, ref, "frontmatter", line, verb=key))
    return out


# --------------------------------------------------------------------- metadata table


def table(ctx: Context) -> Hit | None:
    if "|" not in ctx.doc.text:
        return None  # no table row anywhere
    hit: Hit | None = None
    fields: dict[str, tuple[str, int]] = {}
    relations: list[Relation] = []
    for lineno, text in ctx.doc.lines_matching(_TABLE_LINE):
        m = _TABLE_ROW.match(text)
        if not m:
            continue
        key = heading_key(m.group(1).strip("* _"))
        value = m.group(2).strip()
        if key in ctx.status_headings and hit is None:
            hit = Hit("table", value.strip("* "), lineno)
            relations.extend(relations_in_text(value, "metadata-table", lineno))
        elif key:
            fields.setdefault(key, (value, lineno))
            relations.extend(relations_in_text(f"{key} {value}", "metadata-table", lineno))
    if hit is None:
        return None
    hit.fields = fields
    hit.relations = relations
    return hit


# --------------------------------------------------------------------- MADR 2 / log4brains bullets


def bullets(ctx: Context) -> Hit | None:
    if ":" not in ctx.doc.text:
        return None  # no "key: value" anywhere
    hit: Hit | None = None
    fields: dict[str, tuple[str, int]] = {}
    marker = "*"
    for lineno, text in ctx.doc.lines_matching(_BULLET_LINE):
        m = _BULLET_FIELD.match(text)
        if not m:
            continue
        key = heading_key(m.group(2))
        if key in ctx.status_headings:
            if hit is None:
                marker = m.group(1)
                hit = Hit("madr2", m.group(3), lineno)
                hit.relations.extend(relations_in_text(m.group(3), "status-section", lineno))
            continue
        fields.setdefault(key, (m.group(3), lineno))
    if hit is None:
        return None
    if marker == "-" and (_DATE_SLUG.match(ctx.name) or "tags" in fields):
        hit.style = "log4brains"
    hit.fields = fields
    return hit


# --------------------------------------------------------------------- Nygard / adr-tools


def status_section(ctx: Context) -> Hit | None:
    doc = ctx.doc
    headed = doc.keyed_sections(ctx.status_headings)
    if not headed:
        return None
    section: Section = headed[0][0]
    body = doc.body(section)
    # stop at the next heading of any level: sub-headings are not the status
    lines: list[tuple[int, str]] = []
    for lineno, text in body:
        if text.lstrip().startswith("#"):
            break
        lines.append((lineno, text))
    para: list[tuple[int, str]] = []
    rest: list[tuple[int, str]] = []
    for lineno, text in lines:
        if not text.strip():
            if para:
                rest = [(n, t) for n, t in lines if n > lineno]
                break
            continue
        para.append((lineno, text))
    hit = Hit("nygard", "", section.heading.line)
    for lineno, text in rest:
        if text.strip():
            hit.relations.extend(link_line(text, "status-section", lineno))
    if not para:
        return hit  # a Status heading with nothing under it: "missing"
    first_line = para[0][0]
    raw = " ".join(t.strip() for _, t in para)
    raw = re.sub(r"^(?:[-*+]\s+)?(?i:status)\s*[:：]\s*", "", raw.strip())
    raw = re.sub(r"^[-*+]\s+", "", raw)
    # Relations in the status value itself ("accepted; supersedes ADR-0045",
    # "Superseded by [..](..)") are authoritative; prose later in the same
    # paragraph ("It extends ADR 0065") is only a mention.
    hit.relations.extend(relations_in_text(status_clause(raw), "status-section", first_line))
    link_lines = []
    for lineno, text in para:
        found = list(link_line(text, "status-section", lineno))
        link_lines.append(found)
        if lineno != first_line:
            hit.relations.extend(found)
    hit.links_only = all(link_lines)
    if hit.links_only:
        for found in link_lines[:1]:
            hit.relations.extend(
                r for r in found if not any(o.target == r.target for o in hit.relations)
            )
    hit.raw = raw
    hit.line = first_line
    return hit


_CLAUSE_END = re.compile(r"[.。!?！？]\s|[(（]|[.。]$")
_LINK_SPAN = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)]*\)")


def status_clause(raw: str) -> str:
    """The status value up to the end of its first sentence (links kept whole)."""
    masked = _LINK_SPAN.sub(lambda m: "x" * len(m.group(0)), raw)
    m = _CLAUSE_END.search(masked)
    return raw[: m.start()] if m else raw


# --------------------------------------------------------------------- inline "Status: x"


def inline(ctx: Context) -> Hit | None:
    doc = ctx.doc
    if ":" not in doc.text and "：" not in doc.text:
        return None  # no "key: value" anywhere
    limit = next((h.line for h in doc.headings if h.level == 2), None)
    for lineno, text in doc.unfenced_before(limit):
        if text.lstrip().startswith(("-", "*", "+", "|", "#")) and not text.lstrip().startswith(
            "**"
        ):
            continue
        m = _INLINE_FIELD.match(text) if (":" in text or "：" in text) else None
        if m and heading_key(m.group(1)) in ctx.status_headings:
            hit = Hit("inline", m.group(2).strip("* "), lineno)
            hit.relations.extend(relations_in_text(m.group(2), "status-section", lineno))
            return hit
    return None


def inline_fields(doc: Document) -> dict[str, tuple[str, int]]:
    """``Key: value`` lines before the first second-level heading (Date, Deciders)."""
    out: dict[str, tuple[str, int]] = {}
    if ":" not in doc.text:
        return out  # no "key: value" anywhere
    limit = next((h.line for h in doc.headings if h.level == 2), None)
    for lineno, text in doc.unfenced_before(limit):
        if text.lstrip().startswith("#") or ":" not in text:
            continue
        m = _INLINE_FIELD.match(text.lstrip("-*+ ") if not text.startswith("**") else text)
        if m:
            out.setdefault(heading_key(m.group(1)), (m.group(2).strip("* "), lineno))
    return out


_LINKS_HEADINGS = ("links", "related", "related decisions", "relations")


def links_section(doc: Document) -> list[Relation]:
    out: list[Relation] = []
    for sec, _key in doc.keyed_sections(_LINKS_HEADINGS):
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


Detector = Callable[[Context], "Hit | None"]

#: Tried in this order; the first hit decides the style.
DETECTORS: dict[str, Detector] = {
    "frontmatter": frontmatter,
    "table": table,
    "madr2": bullets,
    "nygard": status_section,
    "inline": inline,
}
#: Forcing a style (config ``style:``) narrows the detectors to these.
FORCED: dict[str, tuple[str, ...]] = {
    "nygard": ("nygard", "inline"),
    "madr2": ("madr2",),
    "log4brains": ("madr2",),
    "madr": ("frontmatter",),
    "frontmatter": ("frontmatter",),
    "container": ("frontmatter", "nygard", "inline"),
}
