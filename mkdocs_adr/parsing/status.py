"""Status words and relation phrases, as real logs write them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..model import Relation

#: Canonical spellings (and the adr-tools misspelling), no alias report.
CANONICAL: dict[str, str] = {
    "accepted": "accepted",
    "proposed": "proposed",
    "rejected": "rejected",
    "deprecated": "deprecated",
    "superseded": "superseded",
    "superceded": "superseded",
    "draft": "draft",
}

#: Relation verbs as written -> kind. Longest phrases are tried first.
VERBS: dict[str, str] = {
    "supersedes": "supersedes",
    "supercedes": "supersedes",
    "replaces": "supersedes",
    "superseded by": "superseded-by",
    "superceded by": "superseded-by",
    "replaced by": "superseded-by",
    "amends": "amends",
    "amended by": "amended-by",
    "extends": "extends",
    "extended by": "extended-by",
    "depends on": "depends-on",
    "depended on by": "depended-on-by",
    "relates to": "relates-to",
    "related to": "relates-to",
    "clarifies": "relates-to",
    "clarified by": "relates-to",
    "refines": "relates-to",
    "refined by": "relates-to",
}

#: Frontmatter keys -> kind.
FRONTMATTER_KEYS: dict[str, str] = {
    "supersedes": "supersedes",
    "superseded-by": "superseded-by",
    "superseded_by": "superseded-by",
    "supersededby": "superseded-by",
    "partially-supersedes": "partially-supersedes",
    "partially-superseded-by": "partially-superseded-by",
    "amends": "amends",
    "amended-by": "amended-by",
    "amended_by": "amended-by",
    "extends": "extends",
    "extended-by": "extended-by",
    "depends-on": "depends-on",
    "depends_on": "depends-on",
    "relates-to": "relates-to",
    "relates_to": "relates-to",
    "related": "relates-to",
}

_LINK = r"\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)\s]*(?:\s+\"[^\"]*\")?\)"
_URL = r"https?://[^\s)\]>,;]+"
_ID = r"\b[A-Za-z][A-Za-z0-9_]*[- ]?\d{1,6}(?:#[Dd]\d+)?\b"
_NUM = r"\b\d{1,6}(?:#[Dd]\d+)?\b"
REF = re.compile(rf"({_LINK})|({_URL})|({_ID})")
_REF_LIST = rf"(?:{_LINK}|{_URL}|{_ID})(?:\s*(?:,|&|and|;)?\s*(?:{_LINK}|{_URL}|{_ID}))*"
_VERB_ALT = "|".join(sorted((re.escape(v) for v in VERBS), key=len, reverse=True))
VERB_PHRASE = re.compile(rf"(?i)\b({_VERB_ALT})\b\s*:?\s*({_REF_LIST})")
_LINK_PARTS = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]*)(?:\s+\"[^\"]*\")?\)")
#: adr-tools reads a link line as ``^(.+) \[.*\]\(0*([1-9][0-9]*).*\)``.
LINK_LINE = re.compile(r"^\s*(?:[-*+]\s+)?(?P<verb>[^\[\]]+?)\s*:?\s+(?P<refs>\[.*\]\(.*\).*)$")


@dataclass(frozen=True)
class StatusReading:
    status: str
    alias: str | None = None
    #: The text is template guidance or a placeholder, not a status (status ``unknown``).
    placeholder: bool = False


#: Canonical words a template's guidance lists (``proposed | accepted | ...``).
_GUIDANCE_WORDS = re.compile(r"(?i)\b(proposed|accepted|rejected|deprecated|superseded)\b")
#: ``{status}``, ``{proposed | accepted}``, ``[proposed | rejected | ...]``: a slot to fill.
_PLACEHOLDER = re.compile(r"^(?:\{|\[[^\]]*\||[\w ]+\|)")
#: Field names that start with a status word but are no status (``Review by: 2026-01-01``).
_NOT_A_STATUS = ("review by", "review-by")


def is_guidance(text: str) -> bool:
    """Whether a status text is a template's placeholder or guidance, not a status.

    A slot (``{status}``, ``[proposed | rejected | accepted | ...]``,
    ``proposed | accepted``), or a sentence that does not start with a status
    word and names two or more statuses (``What is the status, such as
    proposed, accepted, ...?``), or a quote that names one (``> A decision may
    be "proposed" if ...``).
    """
    body = _strip_decoration(text)
    if _PLACEHOLDER.match(body):
        return True
    named = {w.lower() for w in _GUIDANCE_WORDS.findall(body)}
    if not named or _GUIDANCE_WORDS.match(body):
        return False
    return len(named) >= 2 or text.lstrip().startswith(">")


def _strip_decoration(text: str) -> str:
    text = text.replace("**", "").replace("__", "").replace("`", "")
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isalnum() or ch in "{[":
            break
        i += 1
    return text[i:].strip()


def _is_cjk(word: str) -> bool:
    return any(unicodedata.east_asian_width(c) in ("W", "F") for c in word)


def normalize_status(
    raw: str, aliases: Mapping[str, str], *, alias_lengths: Sequence[int] | None = None
) -> StatusReading:
    """Map a status text to a normalized status; never guess.

    The word that starts the text decides, so trailing punctuation and an
    attribution never count: ``Approved.``, ``Accepted!``, ``Approved by @x``,
    ``Accepted (2021-03-04)``, ``Accepted on 2021-03-04``, ``⌛️ Superseded by
    [..](..)`` and ``accepted; supersedes ADR-0045`` all read. A template
    placeholder or guidance (:func:`is_guidance`) is ``unknown`` with
    ``placeholder`` set, never a status word picked out of it; any other text
    is ``unknown``. ``alias_lengths`` is :func:`word_lengths` of ``aliases``
    when the caller keeps it.
    """
    text = _strip_decoration(raw)
    if not text:
        return StatusReading("missing")
    if _PLACEHOLDER.match(text):
        return StatusReading("unknown", placeholder=True)
    lower = text.lower()
    if lower.startswith(_NOT_A_STATUS):
        return StatusReading("unknown")
    for table, is_alias in ((CANONICAL, False), (aliases, True)):
        # the longest word that starts the text and ends at a word boundary; a
        # word that starts it is the prefix of its length, so look those up
        if table is CANONICAL:
            lengths: Sequence[int] = _CANONICAL_LENGTHS
        else:
            lengths = alias_lengths if alias_lengths is not None else word_lengths(table)
        for size in lengths:
            word = lower[:size]
            if len(word) < size or word not in table:
                continue
            nxt = lower[size : size + 1]
            if nxt and (nxt.isalnum() and not _is_cjk(word)):
                continue
            status = table[word]
            return StatusReading(status, word if is_alias else None)
    return StatusReading("unknown", placeholder=is_guidance(text))


def word_lengths(table: Mapping[str, str]) -> list[int]:
    """The distinct lengths of a table's words, longest first."""
    return sorted({len(word) for word in table}, reverse=True)


_CANONICAL_LENGTHS = word_lengths(CANONICAL)


def relations_in_text(text: str, origin: str, line: int | None) -> Iterator[Relation]:
    """Every ``<verb> <refs>`` phrase in a piece of text (a status value, a cell)."""
    for m in VERB_PHRASE.finditer(text):
        verb = m.group(1)
        kind = VERBS[verb.lower()]
        yield from _refs(m.group(2), kind, origin, line, verb)


def _refs(text: str, kind: str, origin: str, line: int | None, verb: str) -> Iterator[Relation]:
    for ref in REF.finditer(text):
        link, url, ident = ref.groups()
        if link:
            parts = _LINK_PARTS.match(link)
            label, href = (parts.group(1), parts.group(2)) if parts else ("", link)
            yield Relation(kind, href or label, origin, line, verb=verb, label=label.strip())
        elif url:
            yield Relation(kind, url, origin, line, verb=verb)
        elif ident:
            yield Relation(kind, ident, origin, line, verb=verb)


def link_line(text: str, origin: str, line: int | None) -> Iterator[Relation]:
    """An adr-tools style ``Verb [label](href)`` line; unknown verbs relate."""
    m = LINK_LINE.match(text)
    if not m:
        return
    verb = m.group("verb").strip().strip("*_").strip()
    if not verb or len(verb) > 40:
        return
    kind = VERBS.get(verb.lower(), "relates-to")
    yield from _refs(m.group("refs"), kind, origin, line, verb)


def frontmatter_refs(value: object) -> list[str]:
    """A frontmatter relation value as a list of reference strings."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        out: list[str] = []
        for item in value:
            out.extend(frontmatter_refs(item))
        return out
    if isinstance(value, bool):
        return []
    text = str(value).strip()
    if not text:
        return []
    if "," in text and "[" not in text:
        return [t.strip() for t in text.split(",") if t.strip()]
    return [text]
