"""What the reader takes from every record, whatever its format.

Frontmatter relation keys are read in any frontmatter, ``Key: value`` lines
before the first second-level heading in any record, and a ``## Links``
section wherever it is. The format modules (:mod:`.formats`) use the helpers
here; the reader calls the three readers for every record.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .. import rx
from ..model import RELATED_MENTION, Relation
from . import bounds
from .markdown import Document, heading_key
from .status import (
    DECLARATION,
    DECLARATION_HINTS,
    FRONTMATTER_KEYS,
    REF,
    REFS_AT,
    VERB_PHRASE,
    VERBS,
    declaration,
    frontmatter_refs,
    in_part,
    link_line,
    relations_in_text,
)

#: A ``Key: value`` line (``Date: 2024-01-01``, ``**Status:** accepted``, ``状态：接受``),
#: also with a bold key (``__Status__: accepted``, Markdown's other strong emphasis too)
#: and no colon (``- **Status** deprecated``) or a dash
#: (``Status - Accepted``): group 1 is the key, group 2 the value. A key is a name:
#: at most 64 characters (a longer one is no field anyone reads), so finding where
#: it ends costs at most 64 looks; the value, ``(.+?)\s*$`` as first written, is
#: read as ``(.*\S|.)\s*$``, which takes the same text without a look per character.
INLINE_FIELD = rx.compile(
    # (in a quote too, ``> Status · Accepted``: a block of fields quoted under the title,
    # and a middle dot between the key and its value)
    r"^\s*(?:>[ \t]*+)*+(?:[-*+]\s+)?(?:\**|__)([^\W\d_][\w \-]{0,63}?)"
    r"(?:(?:\**+|__)(?:\s*+[:：]|\s++[-–—·]\s)|(?<=[^\s*])\*\*(?=\s)|(?<=[^\s_])__(?=\s))"
    r"\s*(?:__|\**)\s*(.*\S|.)\s*$"
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
        or " · " in text
    )


def field_match(text: str) -> re.Match[str] | None:
    """:data:`INLINE_FIELD` on (the first :data:`.bounds.LINE` characters of) one line,
    skipping the lines that cannot match."""
    text = bounds.line(text)
    return INLINE_FIELD.match(text) if may_hold_fields(text) else None


_VERB_KEYS = frozenset(VERBS)


def field_relations(doc: Document, fields: dict[str, tuple[str, int]]) -> list[Relation]:
    """The relations of the :func:`inline_fields` whose key is a relation verb:
    ``Replaces: [ADR-0002](0002-x.md)``, ``Superseded by: ADR-7``, ``* Amends: ADR-3``.

    A field under the title is metadata like the ``Status:`` line beside it (origin
    ``status-section``); the first field of each verb counts, as for every field.
    """
    out: list[Relation] = []
    if _VERB_KEYS.isdisjoint(fields):
        return out  # the usual record: no relation written as a field (a look per field)
    for key, (value, lineno) in fields.items():
        if key not in VERBS:
            continue
        m = field_match(doc.lines[lineno - doc.offset - 1])
        verb = m.group(1).strip() if m else key
        out.extend(relations_in_text(f"{verb} {value}", "status-section", lineno))
    return out


LINKS_HEADINGS = (
    "links",
    "related",
    "related decisions",
    "relations",
    "related adrs",
    "related adr",
    "related adr(s)",
    "related records",
    "related decision records",
)
#: A line that opens with a label naming the records a record relates to, wherever it
#: is (``- Related ADRs: [ADR 0049](0049-x.md)``, ``**Related ADR**: [..](..)``, ``Related:``
#: in a References list): group 1 is its indent, group 2 its bullet, group 3 what follows
#: the label (empty when a list of them follows on the next lines).
_RELATED_LABEL = rx.compile(
    r"\n([^\S\n]*+)([-*+][^\S\n]++)?(?:\*\*|__)?"
    r"[Rr]elated(?:[^\S\n]++(?:ADRs?|ADR\(s\)|[Dd]ecisions?|[Rr]ecords?))?"
    r"(?:\*\*|__)?[^\S\n]*+[:：](?:\*\*|__)?[^\S\n]*+([^\n]*)"
)
_ITEM = rx.compile(r"([^\S\n]*+)[-*+][^\S\n]++(\S[^\n]*)")
#: A bold relation label opening a line, and a link after it, wherever it is:
#: ``**Extends**: [ADR 0053 - Box migrations](0053-box-migrations.md)``. Group 1 is the
#: label, group 2 the references.
_VERB_LABEL = rx.compile(
    r"\n[^\S\n]*+(?:[-*+][^\S\n]++)?(?:\*\*|__)([^\W\d_][^\W\d_ ]*(?: [^\W\d_]+){0,4}?)"
    r"(?:\*\*|__)?[^\S\n]*+[:：](?:\*\*|__)?[^\S\n]*+(\[[^\n]*\]\([^\n]*)"
)
#: The same label alone on its line, its references in the list under it
#: (``**Depends On**:`` and ``- [ADR-0005](..)`` items); also a label that gives the verb
#: in parentheses after a word of another language (``**依赖（Depends On）**：``). Group 1
#: is the label.
_VERB_LABEL_ALONE = rx.compile(
    r"\n[^\S\n]*+(?:\*\*|__)([^\W\d_][^*_\n]{0,40}?)(?:\*\*|__)?[^\S\n]*+[:：]"
    r"(?:\*\*|__)?[^\S\n]*+(?=\n|\Z)"
)
_LABEL_GLOSS = rx.compile(r"[（(]([^()（）]+)[)）]\s*$")
#: Lines that may open a declared succession (see :data:`.status.DECLARATION`).
_DECLARATION_LINE = rx.compile(
    r"\n[^\S\n]*+(?:>[^\S\n]*+)*+(?:[-*+][^\S\n]+)?[*_]*+(?:[A-Za-z]{4,9}[*_]*[:：][*_]*[^\S\n]+)?"
    r"[*_]*+[Tt]his[^\S\n]"
)
#: A line a declaration may follow and still open the record: a field
#: (``Date: 2024-01-01``, ``* Status: superseded``) or a table row.
_FIELD_LIKE = rx.compile(r"^\s*(?:[-*+]\s+)?\**[^\W\d_][\w \-]*+\**+\s*+[:：]|^\s*\|")


def fm_line(doc: Document, key: str) -> int | None:
    """The line number of frontmatter key ``key``, if the record has it."""
    if doc.frontmatter is None:
        return None
    if ":" not in key:  # the first line that starts "key:" is the first whose text
        size = len(key)  # before its first colon is it
        for n, line in enumerate(doc.frontmatter_lines(), 1):
            if line.isascii():  # (lower case keeps an ASCII text's length: one slice)
                if line[size : size + 1] == ":" and line[:size].lower() == key:
                    return n
                continue
            head, colon, _rest = line.lower().partition(":")
            if colon and head == key:
                return n
        return None
    for i, line in enumerate(doc.frontmatter_lines()):
        if line.lower().startswith(key + ":"):
            return i + 1
    return None


def frontmatter_relations(doc: Document) -> list[Relation]:
    """Relations under the frontmatter relation keys (``supersedes:``, ``amends:``), and
    in a ``relations:`` list of ``{type, target}`` entries (:func:`_relation_entries`)."""
    fm = doc.frontmatter
    out: list[Relation] = []
    if fm and isinstance(fm.get("relations"), list):
        out.extend(_relation_entries(doc, fm["relations"]))
    if not fm or not FRONTMATTER_KEYS.keys() & fm.keys():
        return out
    for key, kind in FRONTMATTER_KEYS.items():
        if key not in fm:
            continue
        line = fm_line(doc, key)
        phrase = kind.replace("-", " ")
        for ref in frontmatter_refs(fm[key]):
            if _ID_SLUG.fullmatch(ref):  # a record's slug id (``ADR-0164-teardown``), whole
                out.append(Relation(kind, ref, "frontmatter", line, verb=key))
                continue
            found = list(relations_in_text(f"{phrase} {ref}", "frontmatter", line))
            # a verb that is only the start of the phrase took the phrase's last word
            # into an id: "superseded by 0036" read as "superseded" + "by 0036". The
            # value is then the reference itself, a bare number (``"0036"``, YAML's
            # ``0036``) or a file name (``0036-x.md``), resolved as such.
            if found and all(
                r.kind == kind and (r.verb == phrase or not phrase.startswith(r.verb))
                for r in found
            ):
                out.extend(found)
            else:
                out.append(Relation(kind, ref, "frontmatter", line, verb=key))
    return out


#: An id that goes on with its file's slug, ``ADR-0164-teardown-v3`` (a log whose ``id:``
#: names the file): resolved whole first, then by its id (:class:`~mkdocs_adr.identity.Resolver`).
_ID_SLUG = rx.compile(r"[A-Za-z][A-Za-z0-9_]*-\d+-[A-Za-z0-9][A-Za-z0-9_-]*")

#: Kinds of a ``relations:`` entry beside the frontmatter keys' (:data:`FRONTMATTER_KEYS`).
_ENTRY_KINDS = {"see-also": "relates-to", "see_also": "relates-to", "related": "relates-to"}


def _relation_entries(doc: Document, entries: list[object]) -> list[Relation]:
    """``relations: [{type: supersedes, target: ADR-0021}, ...]``, one entry a mapping
    with a ``type`` (or ``kind``) that names a relation and a ``target`` (or ``id``); a
    ``scope`` note beside them is not read. Entries of any other shape are passed over.
    A real MADR log of 86 records writes every relation so."""
    line = fm_line(doc, "relations")
    out: list[Relation] = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        kind_text = entry.get("type", entry.get("kind"))
        target = entry.get("target", entry.get("id"))
        if not isinstance(kind_text, str) or not isinstance(target, (str, int)):
            continue
        key = kind_text.strip().lower().replace(" ", "-")
        kind = FRONTMATTER_KEYS.get(key) or _ENTRY_KINDS.get(key)
        ref = str(target).strip()
        if kind is None or not ref or len(ref) > bounds.FIELD:
            continue  # (a target longer than any field read names no record)
        out.append(Relation(kind, ref, "frontmatter", line, verb=kind_text.strip()))
    return out


def first_h2(doc: Document) -> int | None:
    """The line of the record's first second-level heading, if it has one: where the
    lines under its title end (:func:`first_h2_at`)."""
    at = first_h2_at(doc)
    return None if at is None else doc.headings[at].line


def first_h2_at(doc: Document) -> int | None:
    """The index in :attr:`Document.headings` of the record's first second-level
    heading, if it has one. A title written as an H2 (:attr:`Document.title`) is none:
    its sections start at the next heading of level 2 or 3."""
    title = doc.title
    if title is not None and title.level == 2:
        for i, h in enumerate(doc.headings):
            if h.line > title.line and h.level <= 3:
                return i
        return None
    for i, h in enumerate(doc.headings):
        if h.level == 2:
            return i
    return None


#: A first section that holds the record's fields (``## Metadata`` above ``- Date: ..``):
#: its lines are read as the lines under the title are.
METADATA_HEADINGS = frozenset(
    {
        "metadata",
        "meta data",
        "metadaten",
        "métadonnées",
        "metadatos",
        "metadados",
        "メタデータ",
        "元数据",
    }
)


def _fields_end(doc: Document) -> int | None:
    """Where the lines that hold a record's fields end: its first second-level heading,
    or the heading after it when that section is the record's metadata."""
    at = first_h2_at(doc)
    if at is None:
        return None
    heads = doc.headings
    h = heads[at]
    if heading_key(h.text) in METADATA_HEADINGS:
        return next((x.line for x in heads[at + 1 :] if x.level <= h.level), None)
    return h.line


def inline_fields(doc: Document) -> dict[str, tuple[str, int]]:
    """``Key: value`` lines before the first second-level heading (Date, Deciders), or
    in a first ``## Metadata`` section."""
    out: dict[str, tuple[str, int]] = {}
    if not may_hold_fields(doc.text):
        return out
    limit = _fields_end(doc)
    base, lines, fenced = doc.offset + 1, doc.lines, doc.fenced
    stop = len(lines) if limit is None else max(0, min(len(lines), limit - base))
    # (the lines above the first H2 by index: no list of pairs made first)
    for i in range(stop):
        text = lines[i]
        if not text or fenced[i] or not may_hold_fields(text):  # (most of them are blank)
            continue  # (a line without those marks has no first LINE characters with them)
        if text.lstrip().startswith("#"):
            continue
        m = field_match(text)
        if m:
            out.setdefault(heading_key(m.group(1)), (m.group(2).strip("* "), i + base))
    return out


def links_section(doc: Document) -> list[Relation]:
    """The relations listed under a ``## Links`` (or ``Related``) heading; a record titled
    ``# Links`` (:attr:`Document.title`) has no such section for that."""
    out: list[Relation] = []
    for sec, _key in doc.keyed_sections(LINKS_HEADINGS):
        if sec.heading == doc.title:
            continue  # the title: the record's whole body is under it
        verb: str | None = None  # the relation a sub-heading names (``### Supersedes``)
        for lineno, text in _uncommented(doc.body(sec)):
            if not text.strip():
                continue
            if text.lstrip().startswith("#"):
                verb = _heading_verb(text)
                continue
            if verb is not None and "](" in text and (item := _ITEM.match(text)):
                # ``- **[ADR-41: X](0041-x.md)** - why``: a link under the verb's heading
                refs = _BOLD_LINK.sub(_link_of, item.group(2))
                rels = [
                    in_part(r, refs) for r in link_line(f"{verb} {refs}", "links-section", lineno)
                ]
                if rels:
                    out.extend(rels)
                    continue
            declared, _taken = declaration([(lineno, text)], 0)
            if declared:
                out.extend(declared)  # "- This ADR is superseded by [..](..)"
                continue
            rels = list(link_line(text, "links-section", lineno))
            if rels:
                out.extend(rels)
                continue
            rels = list(relations_in_text(text, "links-section", lineno))
            if rels:
                out.extend(rels)
                continue
            item = _ITEM.match(text)
            lead = REFS_AT.match(item.group(2)) if item else None
            if lead is not None:  # ``- ADR-0070: Hybrid orchestration``
                out.extend(related_ids(lead.group(), lineno))
    return out


#: A sub-heading of a Links section: group 1 its text, without emphasis or a colon.
_SUB_HEADING = rx.compile(r"\s*+#{2,6}\s++[*_]*+(.*?)[*_]*+\s*+:?\s*+#*+\s*+")
#: A link wrapped in emphasis (``**[ADR-41](0041-x.md)**``); group 2 the link.
_BOLD_LINK = rx.compile(r"(\*\*|__|\*|_)(\[[^\[\]\n]*+\]\([^()\s]*+\))\1")


def _link_of(m: re.Match[str]) -> str:
    return m.group(2)


def _heading_verb(line: str) -> str | None:
    """The relation verb a Links section's sub-heading is (``### Supersedes``,
    ``### Superseded by``), as written; None for any other heading (``### Related``)."""
    m = _SUB_HEADING.fullmatch(line)
    if m is None:
        return None
    kind = VERBS.get(m.group(1).lower())
    return m.group(1) if kind is not None and kind != "relates-to" else None


def _uncommented(lines: list[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """``lines`` with their HTML comments taken out, across lines too: MADR's template
    writes its examples there (``- [Link type](link to adr) <!-- example: Refined by
    [xxx](yyyymmdd-xxx.md) -->``), and a record that kept them names no such record."""
    inside = False
    for lineno, text in lines:
        if not inside and "<!--" not in text:
            yield lineno, text
            continue
        kept: list[str] = []
        pos = 0
        while pos <= len(text):
            if inside:
                end = text.find("-->", pos)
                if end < 0:
                    break
                inside, pos = False, end + 3
            else:
                start = text.find("<!--", pos)
                if start < 0:
                    kept.append(text[pos:])
                    break
                kept.append(text[pos:start])
                inside, pos = True, start + 4
        yield lineno, "".join(kept)


def related_labels(doc: Document) -> list[Relation]:
    """The records a ``Related ADRs:`` label names, on its line or in the list under it.

    Such a label states a relation wherever it stands: in the body after a section
    heading (``**Related ADRs**:`` and a list), or as an item of a References list (``-
    Related: [ADR-0002](..), [ADR-0003](..)``). Each reference relates as a Links list
    item's does (:func:`~.status.link_line`), through its links; a line without one
    (``- ADR-0006: Outbox sweeps``) relates to the records its bare ids name
    (:func:`related_ids`). A bold label that is a
    relation verb (``**Extends**: [..](..)``) states that relation the same way.
    """
    out: list[Relation] = []
    text = doc.body_text if doc.body_text is not None else "\n".join(doc.lines)
    # (each two-character test behind a one-character one, which costs a fraction of it)
    if (("*" in text and "**" in text) or ("_" in text and "__" in text)) and "](" in text:
        out.extend(_verb_labels(doc))
    if "elated" not in text:
        return out  # (one look: most records name no related records)
    base, lines, fenced = doc.offset + 1, doc.lines, doc.fenced
    for lineno, line in doc.lines_matching(_RELATED_LABEL):
        m = _RELATED_LABEL.match("\n" + line)
        assert m is not None  # (the line lines_matching found)
        value = m.group(3).strip()
        if value:
            out.extend(_related_refs(value, lineno))
            continue
        indent, nested = len(m.group(1)), m.group(2) is not None
        for i in range(lineno - base + 1, len(lines)):
            item = _ITEM.fullmatch(lines[i])
            if item is None or fenced[i] or (nested and len(item.group(1)) <= indent):
                break  # the list under the label ends (a blank line, the next item)
            out.extend(_related_refs(item.group(2), i + base))
    return out


def _verb_labels(doc: Document) -> list[Relation]:
    """The relations of bold labels that are relation verbs (``**Extends**: [..](..)``),
    wherever they open a line: metadata set apart, not a sentence."""
    out: list[Relation] = []
    for lineno, line in doc.lines_matching(_VERB_LABEL):
        m = _VERB_LABEL.match("\n" + line)
        assert m is not None  # (the line lines_matching found)
        verb = m.group(1)
        if VERBS.get(verb.lower()) is not None:
            out.extend(link_line(f"{verb} {m.group(2)}", "links-section", lineno))
    base, lines, fenced = doc.offset + 1, doc.lines, doc.fenced
    for lineno, line in doc.lines_matching(_VERB_LABEL_ALONE):
        m = _VERB_LABEL_ALONE.match("\n" + line)
        assert m is not None  # (the line lines_matching found)
        verb = m.group(1).strip()
        gloss = _LABEL_GLOSS.search(verb)
        if VERBS.get(verb.lower()) is None and gloss is not None:
            verb = gloss.group(1).strip()  # "依赖（Depends On）": the verb in parentheses
        kind = VERBS.get(verb.lower())
        if kind is None or kind in _SUCCESSION:
            # a succession needs more than a label over a list: a page that maps other
            # records' relations (one such list per record) would retire them all
            continue
        i = lineno - base + 1
        if i < len(lines) and not lines[i].strip():
            i += 1  # one blank line between the label and its list
        for k in range(i, len(lines)):
            item = _ITEM.fullmatch(lines[k])
            if item is None or fenced[k]:
                break  # the list under the label ends
            if "](" in item.group(2):  # (an item that links nothing names no record)
                out.extend(link_line(f"{verb} {item.group(2)}", "links-section", k + base))
    return out


def _related_refs(refs: str, line: int) -> list[Relation]:
    if "](" in refs:
        return list(link_line(f"- {refs}", "links-section", line))
    return related_ids(refs, line)


def related_ids(refs: str, line: int | None) -> list[Relation]:
    """The bare ids a ``Related`` label or list names (``ADR-0070 (hybrid), ADR-0087``),
    as :data:`~mkdocs_adr.model.RELATED_MENTION` mentions: relations to the records that
    have those ids, nothing where no record has one (``Q4 2018``, a file-stem log's
    ``ADR 0006``)."""
    return [
        Relation("mentions", m.group(3), "prose", line, verb=RELATED_MENTION)
        for m in REF.finditer(refs)
        if m.group(3)
    ]


def declarations(doc: Document, status_headings: frozenset[str]) -> list[Relation]:
    """Declared successions: "This ADR is superseded by ..." where it opens a block.

    A declaration counts where it starts the record's body (after the title and
    any ``Key: value`` fields), starts a section, is quoted (``>``) or sits in an
    admonition, or anywhere in the status section. Elsewhere such a sentence is
    prose, and its links are mentions.
    """
    out: list[Relation] = []
    text = doc.body_text if doc.body_text is not None else doc.text
    if "upersede" in text or "eplace" in text or "uperced" in text:
        out.extend(_verb_first(doc, text, status_headings))
    if "his" not in text and "HIS" not in text:
        return out  # "This", "THIS", and "this" after a label ("Note: this ADR ...")
    if not any(h in text for h in DECLARATION_HINTS):
        return out  # a declaration starts "This" and names a succession verb
    # "This page ...", "This is ..." start lines too: only a declaration's verb counts
    candidates = [(n, t) for n, t in doc.lines_matching(_DECLARATION_LINE) if DECLARATION.match(t)]
    if not candidates:
        return out
    base = doc.offset + 1
    lines, fenced = doc.lines, doc.fenced
    status = [(sec.start, sec.end) for sec, _key in doc.keyed_sections(status_headings)]
    for lineno, text in candidates:
        index = lineno - base
        if not (
            text.lstrip().startswith(">")
            or any(a <= index < b for a, b in status)
            or _opens_block(lines, fenced, index)
        ):
            continue
        window = [
            (k + base, lines[k]) for k in range(index, min(len(lines), index + 64)) if not fenced[k]
        ]
        found, _taken = declaration(window, 0)
        out.extend(found)
    return out


#: A line that opens with a succession verb, the subject left out, at the body's start or
#: right under a heading: ``Supersedes [ADR-0034](0034-x.md).``, ``Replaced by ADR-0009``
#: (survey 6); :func:`_verb_first` says whether it states only relations.
_VERB_LINE = (
    r"([^\S\n]*+(?:>[^\S\n]*+)*+[*_]*+"
    r"(?i:supersedes|supercedes|replaces|superseded by|superceded by|replaced by)\b[^\n]*)"
)
#: (A newline first, as a literal: the engine jumps from one to the next in C.)
_VERB_FIRST_LINE = rx.compile(
    r"\n {0,3}#{1,6}[ \t]([^\n]*)\n(?:[ \t]*\n)*" + _VERB_LINE  # a heading, blank lines
)
_VERB_FIRST_AT_START = rx.compile(r"(?:[ \t]*\n)*" + _VERB_LINE)  # the body's first line
#: The kinds a verb-first line may state.
_SUCCESSION = frozenset({"supersedes", "superseded-by"})

_SETEXT_UNDERLINE = rx.compile(r"^(?:=+|-+)$")


def _verb_first(doc: Document, body: str, status_headings: frozenset[str]) -> list[Relation]:
    """Successions declared with the subject left out: ``Supersedes [ADR-0034](0034-x.md).``
    as a paragraph of its own that opens the body or comes right under a heading, with
    nothing but the relation on its line (:data:`_VERB_FIRST_LINE`). A status section's
    lines are its own reader's, and a ``Status:`` line or any text above the line makes
    it prose or a decision unit's."""
    out: list[Relation] = []
    base = doc.offset + 1
    padded = "\n" + body  # line i of the body starts right after the i-th newline here
    first = _VERB_FIRST_AT_START.match(body)
    found_lines = [(first, body.count("\n", 0, first.start(1)))] if first is not None else []
    index = pos = 0
    for m in _VERB_FIRST_LINE.finditer(padded):
        if heading_key(m.group(1).rstrip(" \t#")) in status_headings:
            continue  # the status section's own reader reads its lines
        start = m.start(2)
        index += padded.count("\n", pos, start)
        pos = start
        found_lines.append((m, index - 1))
    for m, index in found_lines:
        if doc.fenced[index]:
            continue
        line = m.group(m.lastindex or 1)
        rest = bounds.line(line).lstrip(" \t>").replace("**", "")  # (a bold verb too)
        found = VERB_PHRASE.match(rest)
        if found is None or rest[found.end() :].strip(" \t.;*_"):
            continue  # the line says more than the relation: prose
        between = rest[found.end(1) : found.start(2)]
        if ":" in between or "：" in between:
            continue  # "Supersedes: ADR-3" is a field (under the title, the fields' reader's)
        stated = relations_in_text(rest[: found.end()], "declaration", index + base)
        out.extend(r for r in stated if r.kind in _SUCCESSION)
    return out


def _opens_block(lines: list[str], fenced: list[bool], index: int) -> bool:
    """Whether the paragraph at ``index`` starts the body, a section or an admonition."""
    j = index - 1
    if j >= 0 and lines[j].strip():
        stripped = lines[j].lstrip()
        # the line right above: an admonition opener or a heading, else mid-paragraph
        return stripped.startswith(("!!!", "???", "#")) and not fenced[j]
    while j >= 0:
        stripped = lines[j].strip()
        if fenced[j]:
            return False  # a code block before it
        if not stripped:
            j -= 1
            continue
        if stripped.startswith(("#", "!!!", "???")) or _SETEXT_UNDERLINE.match(stripped):
            return True
        if _FIELD_LIKE.match(lines[j]):
            j -= 1
            continue
        return False
    return True
