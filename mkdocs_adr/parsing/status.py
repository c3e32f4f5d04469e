"""Status words and relation phrases, as real logs write them."""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from .. import rx
from ..model import Relation
from . import bounds

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

#: Relation verbs as written -> kind. Longest phrases are tried first. A verb
#: in this table is followed by its references: ``Supersedes [2. Old](0002-old.md)``.
VERBS: dict[str, str] = {
    "supersedes": "supersedes",
    "supercedes": "supersedes",
    "replaces": "supersedes",
    "superseded by": "superseded-by",
    "superceded by": "superseded-by",
    "replaced by": "superseded-by",
    # the status word straight before its successor: ``⌛️ Superseded [0019](0019-x.md)``
    "superseded": "superseded-by",
    "superceded": "superseded-by",
    # a partial supersession never retires the record it names
    "partially supersedes": "partially-supersedes",
    "partly supersedes": "partially-supersedes",
    "supersedes parts of": "partially-supersedes",
    "supersedes part of": "partially-supersedes",
    "partially replaces": "partially-supersedes",
    "partially superseded by": "partially-superseded-by",
    "partly superseded by": "partially-superseded-by",
    "parts superseded by": "partially-superseded-by",
    "partially replaced by": "partially-superseded-by",
    "in part superseded by": "partially-superseded-by",
    "superseded in part by": "partially-superseded-by",
    "in part supersedes": "partially-supersedes",
    "supersedes in part": "partially-supersedes",
    "supersedes some parts of": "partially-supersedes",
    "supersedes some aspects of": "partially-supersedes",
    "supersedes aspects of": "partially-supersedes",
    # a deprecation that names its successor (``mkdocs-adr deprecate ID --by ID``): a
    # succession, so the successor is found; the status stays ``deprecated`` (ADR-0037)
    "deprecated by": "superseded-by",
    "deprecates": "supersedes",
    "amends": "amends",
    "amended by": "amended-by",
    "extends": "extends",
    "extended by": "extended-by",
    "augments": "extends",  # (a MADR log's ``Status: augmented by [ADR-0004](..)``)
    "augmented by": "extended-by",
    "depends on": "depends-on",
    "depended on by": "depended-on-by",
    "relates to": "relates-to",
    "related to": "relates-to",
    "clarifies": "relates-to",
    "clarified by": "relates-to",
    "refines": "relates-to",
    "refined by": "relates-to",
}

#: Localized verbs followed by their references, beside the localized status
#: headings (``config.DEFAULT_STATUS_HEADINGS``): ``Ersetzt durch ADR-7``.
LOCALIZED_VERBS: dict[str, str] = {
    # zh: 取代 / 替代 / 代替 "replace(s)"; the passive form is in WRAPPED_VERBS
    "取代": "supersedes",
    "替代": "supersedes",
    "代替": "supersedes",
    "部分取代": "partially-supersedes",
    "部分替代": "partially-supersedes",
    "修订": "amends",
    # es
    "reemplazado por": "superseded-by",
    "reemplazada por": "superseded-by",
    "sustituido por": "superseded-by",
    "sustituida por": "superseded-by",
    "reemplaza a": "supersedes",
    "reemplaza": "supersedes",
    "sustituye a": "supersedes",
    "sustituye": "supersedes",
    # pt
    "substituído por": "superseded-by",
    "substituída por": "superseded-by",
    "substituido por": "superseded-by",
    "substituida por": "superseded-by",
    "substitui a": "supersedes",
    "substitui o": "supersedes",
    "substitui": "supersedes",
    # fr
    "remplacé par": "superseded-by",
    "remplacée par": "superseded-by",
    "remplace": "supersedes",
    # de
    "ersetzt durch": "superseded-by",
    "abgelöst durch": "superseded-by",
    "ersetzt": "supersedes",
    # a part replaced (docs/adr/0075): de, fr, es, pt
    "teilweise ersetzt durch": "partially-superseded-by",
    "teilweise abgelöst durch": "partially-superseded-by",
    "ersetzt teilweise": "partially-supersedes",
    "partiellement remplacé par": "partially-superseded-by",
    "partiellement remplacée par": "partially-superseded-by",
    "remplace partiellement": "partially-supersedes",
    "parcialmente reemplazado por": "partially-superseded-by",
    "parcialmente reemplazada por": "partially-superseded-by",
    "reemplaza parcialmente": "partially-supersedes",
    "parcialmente substituído por": "partially-superseded-by",
    "parcialmente substituída por": "partially-superseded-by",
    "substitui parcialmente": "partially-supersedes",
}
VERBS.update(LOCALIZED_VERBS)

#: Localized phrases whose references sit inside them or before them, as
#: (words before, words after) -> kind: zh ``被 ADR-045 取代`` ("superseded
#: by ADR-045"), ja ``ADR-3 に置き換えられた`` ("replaced by ADR-3") and
#: ``ADR-3 を置き換える`` ("replaces ADR-3"). A phrase after the references
#: may go on (``置き換えられました``).
WRAPPED_VERBS: dict[tuple[str, str], str] = {
    ("被", "取代"): "superseded-by",
    ("被", "替代"): "superseded-by",
    ("被", "代替"): "superseded-by",
    ("由", "取代"): "superseded-by",
    ("由", "替代"): "superseded-by",
    ("由", "代替"): "superseded-by",
    ("被", "部分取代"): "partially-superseded-by",
    ("被", "部分替代"): "partially-superseded-by",
    ("由", "修订"): "amended-by",
    ("被", "修订"): "amended-by",
    ("", "に置き換えられ"): "superseded-by",
    ("", "により置き換え"): "superseded-by",
    ("", "によって置き換え"): "superseded-by",
    ("", "に置き換え済み"): "superseded-by",
    # 置換 "replacement", the Sino-Japanese word: ``廃止（ADR-0010 により置換）``
    # ("deprecated, replaced by ADR-0010") and ``ADR-0004 を置換`` ("replaces ADR-0004")
    ("", "により置換"): "superseded-by",
    ("", "によって置換"): "superseded-by",
    ("", "で置換"): "superseded-by",
    ("", "により部分的に置き換え"): "partially-superseded-by",
    ("", "を部分的に置き換え"): "partially-supersedes",
    ("", "を置き換え"): "supersedes",
    ("", "を置換"): "supersedes",
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
    # spellings read, never written (the writer inserts the first key of a kind)
    "partially_supersedes": "partially-supersedes",
    "partially_superseded_by": "partially-superseded-by",
    # a deprecation that names its successor (ADR-0037)
    "deprecated-by": "superseded-by",
    "deprecates": "supersedes",
    # "refines" relates, as the verb does in a link line (VERBS)
    "refines": "relates-to",
    "refined-by": "relates-to",
    "refined_by": "relates-to",
}

#: The succession kinds a prose declaration can state (``This ADR is superseded by``).
DECLARED_KINDS = frozenset(
    {"supersedes", "superseded-by", "partially-supersedes", "partially-superseded-by"}
)

# Every pattern here is written so that it cannot backtrack over a run: possessive
# runs (``*+``) where what follows cannot start inside the run (a reference never
# starts with a space), so they read what the plain runs read (tests/test_robust_patterns.py
# compares them with the patterns they replace).
_LINK = r"\[(?:[^\[\]]++|\[[^\]]*+\])*+\]\([^)\s]*+(?:\s++\"[^\"]*+\")?+\)"
_URL = r"https?://[^\s)\]>,;]+"
# ASCII look-arounds, not \b: ``被ADR-045取代`` has no word boundary around the id
# (``ADR-007-B``: a lettered record's id keeps its capital letter)
# (not a verb's own last word and a number: ``by 2024`` is no id of prefix "by")
_ID = (
    r"(?<![A-Za-z0-9_])(?!(?i:by|par|por|durch|door|with|von)[- ]?\d)"
    r"[A-Za-z][A-Za-z0-9_]*[- ]?\d{1,6}(?:-[A-Z](?![A-Za-z0-9_-]))?"
    r"(?:#[Dd]\d+)?(?![A-Za-z0-9_])"
)
REF = rx.compile(rf"({_LINK})|({_URL})|({_ID})")
#: After a relation's verb, a record named by its number alone (``superseded by 0009``,
#: ``reemplazado por `0007` ``) or by its file name alone (``Superseded by 028-x.md``),
#: where the reference ends the phrase or a list goes on (not ``by 2 records``); not a
#: year (``Deprecated by 2025``). Without it ``by 0009`` read as an id of prefix "by".
_BARE_BEFORE = r"(?<![\w.-])`?+(?!(?:19|20)\d\d(?![\d-]))"
_BARE_NAME = r"\d{1,6}(?:-[\w-]++(?:\.(?!md\b)[\w-]++)*+\.md)?"
_BARE_AFTER = r"`?+(?![\w-])(?=\s*+(?:$|[,.;:)、，]|(?:and|&)\b))"
_BARE = rf"{_BARE_BEFORE}({_BARE_NAME}){_BARE_AFTER}"
_BARE_ALT = rf"{_BARE_BEFORE}(?:{_BARE_NAME}){_BARE_AFTER}"  # (the same, in a list)
#: :data:`REF` and, last, :data:`_BARE` (group 4): what follows a verb.
VERB_REF = rx.compile(rf"({_LINK})|({_URL})|({_ID})|{_BARE}")
#: What every reference :data:`REF` finds holds: a link's ``](``, a URL's ``://`` or an
#: id's digit (``\d``, any script's, as in the id pattern). A text without any of them
#: names no reference, so no phrase of references either: a cheap test first.
_MAY_REF = rx.compile(r"\d|\]\(|://")
_REF_LIST = rf"(?:{_LINK}|{_URL}|{_ID})(?:\s*+(?:,|、|，|&|and|;)?\s*+(?:{_LINK}|{_URL}|{_ID}))*"
#: A run of references, one after another (what opens a links list item).
REFS_AT = rx.compile(_REF_LIST)
#: A wrapped phrase (below) names at most 16 references: it may start at any
#: reference, and each start reads its list to the end.
_WRAPPED_LIST = (
    rf"(?:{_LINK}|{_URL}|{_ID})(?:\s*+(?:,|、|，|&|and|;)?\s*+(?:{_LINK}|{_URL}|{_ID})){{0,15}}"
)


def _verb_alternatives(verbs: list[str]) -> str:
    return "|".join(sorted((re.escape(v) for v in verbs), key=len, reverse=True))


_LATIN_VERBS = [v for v in VERBS if v[:1].isascii()]
_ANY_REF = rf"(?:{_LINK}|{_URL}|{_ID}|{_BARE_ALT})"
#: The references after a verb: :data:`_REF_LIST`'s, and bare numbers and file names.
_VERB_REF_LIST = rf"{_ANY_REF}(?:\s*+(?:,|、|，|&|and|;)?\s*+{_ANY_REF})*"
#: ``Supersedes (in part) [ADR 29](..)``: a part named between the verb and its
#: references makes a supersession partial (:func:`_verb_kind`).
#: The words that say a part (:data:`_IN_PART`, :data:`_IN_PART_SUPERSEDED`).
_PART_WORDS = ("in part", "partly", "partially")
_IN_PART = rf"(?:\s*+\((?:{'|'.join(_PART_WORDS)}|teilweise|en partie|en parte|em parte)\))?+"
VERB_PHRASE = rx.compile(
    rf"(?i)\b({_verb_alternatives(_LATIN_VERBS)})\b{_IN_PART}\s*+[:：]?\s*+({_VERB_REF_LIST})"
)
_PARTIAL_KINDS = {
    "supersedes": "partially-supersedes",
    "superseded-by": "partially-superseded-by",
}
#: A part word anywhere in a text (``Partially superseded``, ``in part``, ``partly``).
_SAYS_PART = rx.compile(rf"(?i)\b(?:partial|{'|'.join(_PART_WORDS)})\b")


def in_part(rel: Relation, text: str) -> Relation:
    """``rel`` made partial when ``text``, the words written beside it, say a part was
    replaced (``- [ADR-10](..) - partially superseded``); ``rel`` itself otherwise."""
    kind = _PARTIAL_KINDS.get(rel.kind)
    if kind is None or _SAYS_PART.search(text) is None:
        return rel
    return dataclasses.replace(rel, kind=kind)


def _verb_kind(m: re.Match[str]) -> str:
    """The kind a :data:`VERB_PHRASE` match states: its verb's, partial when the words
    between the verb and the references say "(in part)", or the reference is followed
    by a possessive (``ADR-051's stance``)."""
    kind = VERBS[m.group(1).lower()]
    if m.end(1) != m.start(2) and "(" in m.string[m.end(1) : m.start(2)]:
        return _PARTIAL_KINDS.get(kind, kind)
    if m.string.startswith(("'s ", "’s "), m.end()):
        # ``Supersedes ADR-051's stance on X``: a part of the record, not all of it
        return _PARTIAL_KINDS.get(kind, kind)
    if _PART_AFTER.match(m.string, m.end()) is not None:
        # ``Supersedes AD010 partially``: the part words after the reference
        return _PARTIAL_KINDS.get(kind, kind)
    return kind


#: The part words after a relation's references (``.. ADR-10 partially``, ``.. in part``).
_PART_AFTER = rx.compile(rf"(?i)\s*+,?\s*+(?:{'|'.join(_PART_WORDS)})\b")


#: A CJK verb may touch its neighbours (``取代ADR-3``): no word boundaries. Tried
#: only on text that is not ASCII (a pattern without a boundary is tried everywhere).
_CJK_VERBS = [v for v in VERBS if not v[:1].isascii()]
_CJK_VERB_PHRASE = rx.compile(
    rf"({_verb_alternatives(_CJK_VERBS)})\s*+[:：]?\s*+({_VERB_REF_LIST})"
)
#: ``被 <refs> 取代`` and ``<refs> に置き換えられた``: group 1 the words before,
#: 2 the references, 3 the words after. Without words before, a match starts where
#: spaces start (``(?<!\s)``): one that starts further into them would start earlier.
_WRAPPED_BEFORE = "|".join(sorted({re.escape(b) for b, _ in WRAPPED_VERBS if b}, key=len))
_WRAPPED_AFTER = "|".join(sorted({re.escape(a) for _, a in WRAPPED_VERBS}, key=len, reverse=True))
WRAPPED_PHRASE = rx.compile(
    rf"({_WRAPPED_BEFORE}|(?<!\s))\s*+({_WRAPPED_LIST})\s*+({_WRAPPED_AFTER})"
)
_WRAPPED_HINT = tuple(sorted({a[:2] for _, a in WRAPPED_VERBS}))
_LINK_PARTS = rx.compile(r"\[((?:[^\[\]]++|\[[^\]]*+\])*+)\]\(([^)\s]*+)(?:\s++\"[^\"]*+\")?+\)")
#: adr-tools reads a link line as ``^(.+) \[.*\]\(0*([1-9][0-9]*).*\)``; mkdocs-adr reads
#: ``^\s*(?:[-*+]\s+)?(?P<verb>[^\[\]]+?)\s*:?\s+(?P<refs>\[.*\]\(.*\).*)$``, matched
#: by :func:`link_line_parts` in one pass (that pattern backtracks polynomially on a
#: line of spaces).
_LINE_BRACKET = rx.compile(r"[\[\]]")
#: What may stand before a relation phrase that opens a line: a bullet, emphasis.
_LINE_LEAD = rx.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*|__|\*|_)?")

#: A declared succession: "This ADR is superseded by", "**This document is
#: superseded by:**", "This supersedes", "This decision replaces", "This decision has
#: been superseded by decision:", optionally
#: after a ``>`` quote, a bullet or a "Note:" label. Its references follow on
#: the line, or as a list on the next lines (:func:`declaration`).
_DECLARED_VERBS = [v for v, k in VERBS.items() if k in DECLARED_KINDS and v not in LOCALIZED_VERBS]
#: Every verb of a declaration holds one of these (a cheap test before any pattern;
#: tests/test_fidelity_relparse.py checks it against the verbs).
DECLARATION_HINTS = (
    "upersed",
    "uperced",
    "eplace",
    "eprecat",
    "UPERSED",
    "UPERCED",
    "EPLACE",
    "EPRECAT",
)
DECLARATION = rx.compile(
    r"(?i)^[^\S\n]*(?:>[^\S\n]*)*(?:[-*+][^\S\n]+)?(?:\*\*|__)?"
    r"(?:(?:note|notice|warning|important|update|info)(?:\*\*|__)?+\s*+[:：]?+\s*+(?:\*\*|__)?+\s*+)?"
    r"this(?:\s++(?:adr|document|decision|record))?"
    r"(?:\s++(?:is\s++now|is|was|has\s++been|have\s++been))?\s++"
    rf"(?P<verb>{_verb_alternatives(_DECLARED_VERBS)})\b"
    # "superseded by decision: [0022 ...](..)", "supersedes decisions ADR-3": a noun
    # naming what follows, before a colon, a link or an id (not "ADR" of "ADR-0005",
    # which is the reference itself)
    r"(?:\s++(?:the\s++)?(?:decision|adr|record|document)s?"
    r"(?=\s*+[:：]|\s++\[|\s++[A-Za-z][A-Za-z0-9_]*+[- ]?\d))?+"
    r"(?:\*\*|__)?+\s*+[:：]?+\s*+(?:\*\*|__)?+\s*+"
)
#: What may end a line whose reference list goes on on the next line.
_CONTINUES = rx.compile(r"^\s*+(?:,|、|，|&|and|;)?\s*+$")
_LIST_ITEM = rx.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\*\*|__)?")


@dataclass(frozen=True)
class StatusReading:
    status: str
    alias: str | None = None
    #: The text is template guidance or a placeholder, not a status (status ``unknown``).
    placeholder: bool = False


#: Canonical words a template's guidance lists (``proposed | accepted | ...``).
_GUIDANCE_WORDS = rx.compile(r"(?i)\b(proposed|accepted|rejected|deprecated|superseded)\b")
_CHOICE_WORD = "|".join(sorted(CANONICAL, key=len, reverse=True))
#: ``{status}``, ``{proposed | accepted}``, ``[proposed | rejected | ...]``: a slot to fill;
#: and the template's choice left as it was, status words joined by "or" (``Accepted or
#: Rejected``, ``Proposed or Accepted or Rejected``): no record is both.
_PLACEHOLDER = rx.compile(
    rf"^(?:\{{|\[[^\]]*\||[\w ]+\||(?i:{_CHOICE_WORD})\s+or\s+(?i:{_CHOICE_WORD})\b)"
)
#: Text struck through (GitHub's ``~~...~~``).
_STRUCK = rx.compile(r"~~[^~\n]*+~~")
#: One word or phrase in braces, no choice (``{Active}``, ``{ accepted }``).
_BRACED_WORD = rx.compile(r"\{\s*+([^{}|\n]+?)\s*+\}")
#: ``[text]`` or ``[text](target)`` starting a status: its text is the status (no ``|``:
#: ``[proposed | rejected]`` is a slot to fill, :data:`_PLACEHOLDER`).
_WRAPPED_WORD = rx.compile(r"\[([^\[\]|]+)\](?:\([^()\s]*(?:\s+\"[^\"]*\")?\))?")
#: A status that starts with the canonical word and says a part was replaced.
_IN_PART_SUPERSEDED = tuple(
    f"{verb} {part}"
    for verb in ("superseded", "superceded", "replaced")
    for words in _PART_WORDS
    for part in (words, f"({words})")
)
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
    if "~~" in text:  # ``~~Accepted~~ **Replaced by [ADR-9](..)**``: the struck word is past
        kept = _STRUCK.sub("", text)
        text = kept if kept.strip(" \t*_") else text
    text = text.replace("**", "").replace("__", "").replace("`", "")
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isalnum() or ch in "{[":
            break
        i += 1
    return text[i:].strip()


#: The statuses a later sentence naming a successor turns into ``superseded``: a rejected
#: record stays rejected, and a deprecated one deprecated (its successor is a relation,
#: as ``deprecate --by`` writes it, ADR-0037).
_SUCCEEDABLE = frozenset({"accepted", "proposed", "draft"})
#: A later sentence of a status that starts by naming the record's successor.
_LATER_SUCCESSION = rx.compile(r"[.;,]\s+(?:superseded|superceded|replaced)\s+by\b", re.I)
#: One step of a status history: a word and the ISO date it took effect on.
_STEP = rx.compile(r"^([^\W\d_][^\d,;]*?)\s+(?:on\s+|in\s+)?(\d{4}-\d{2}-\d{2})$")
_STEP_SPLIT = rx.compile(r"\s*[,;]\s*|\.\s+")


def _history(text: str) -> list[str]:
    """The words of a status history's steps, the latest first, when every step of
    ``text`` is a word and its date: ``Proposed on 2021-07-12, Accepted on 2021-08-04``
    gives ``["Accepted", "Proposed"]`` (by date; on a tie, the step written last
    first). Empty for any other text."""
    if text.count("-") < 4:
        return []  # fewer than two dates
    steps = []
    for k, part in enumerate(_STEP_SPLIT.split(text.strip().rstrip("."))):
        m = _STEP.match(part)
        if m is None:
            return []
        steps.append((m.group(2), k, m.group(1)))
    return [word for _date, _k, word in sorted(steps, reverse=True)] if len(steps) >= 2 else []


#: What may stand before the pipe of a joined status line: words, no slot's brackets.
_JOINED_HEAD = rx.compile(r"[^\W\d_][\w -]*")


def _joined(text: str) -> str:
    """A status and a relation joined by one pipe, ``proposed | partially superseded by
    [008 X](008-x.md)``, as the two sentences it joins (``proposed; partially ...``); any
    other text as it is. A template's slot lists choices (``proposed | accepted``, ``[proposed
    | rejected | ... | superseded by [ADR-0005](..)]``): two pipes or more, brackets, or a
    second part that is no relation phrase naming a reference."""
    head, _bar, tail = text.partition("|")
    head, tail = head.rstrip(), tail.strip()
    if "|" in tail or not _JOINED_HEAD.fullmatch(head) or not relation_line(tail, "", None):
        return text
    return f"{head}; {tail}"


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
    if "|" in text:
        text = _joined(text)
    if text[0] == "{" and (braced := _BRACED_WORD.fullmatch(text)) is not None:
        # ``{Active}``: the template's slot filled in with its braces kept, as
        # ``status: { accepted }`` is in frontmatter (``{status}`` stays a slot)
        inner = normalize_status(braced.group(1), aliases, alias_lengths=alias_lengths)
        if inner.status not in ("unknown", "missing"):
            return inner
    if _PLACEHOLDER.match(text):
        return StatusReading("unknown", placeholder=True)
    if text[0] == "[":
        # the status word as a link to the review that decided it, or in brackets:
        # "[Accepted](https://.../pull/541)", "[Approved]" read as the word
        wrapped = _WRAPPED_WORD.match(text)
        if wrapped is not None:
            text = (wrapped.group(1) + text[wrapped.end() :]).strip()
    for step in _history(text):
        # the latest dated step that is a status ("Revisited on ..." is none)
        reading = normalize_status(step, aliases, alias_lengths=alias_lengths)
        if reading.status not in ("unknown", "missing"):
            return reading
    lower = text.lower()
    if lower.startswith(_NOT_A_STATUS):
        return StatusReading("unknown")
    if lower.startswith(_IN_PART_SUPERSEDED):
        # ``Superseded in part by [ADR-9](..)``: in effect for the rest, as ``Partially
        # superseded by`` is (the canonical word that starts it would retire the record)
        return StatusReading("accepted", lower[: len(lower.split(" by", 1)[0])].strip())
    if not text.isascii() and (wrapped := WRAPPED_PHRASE.match(text.lstrip("已"))) is not None:
        # ``已被 ADR-0020 取代`` ("has been superseded by ADR-0020"), ``ADR-3 に置き換えられた``:
        # the phrase is the status, as ``Superseded by ADR-3`` is
        kind = WRAPPED_VERBS.get((wrapped.group(1), wrapped.group(3)))
        if kind == "superseded-by":
            return StatusReading("superseded")
        if kind == "partially-superseded-by":  # ``被 ADR-3 部分取代``: in effect for the rest
            return StatusReading("accepted", "partially superseded")
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
            if status in _SUCCEEDABLE and _LATER_SUCCESSION.search(text, size):
                # "Implemented. Superseded by [ADR-013](..)": the log's own later step
                return StatusReading("superseded")
            return StatusReading(status, word if is_alias else None)
    return StatusReading("unknown", placeholder=is_guidance(text))


def spelled_like(status: str, samples: Iterable[str]) -> str | None:
    """``status`` spelled the way ``samples`` (raw status texts of one log) spell status
    words: ``Accepted``, ``accepted`` or ``ACCEPTED``, whichever most of the samples that
    start with a canonical word use; None when none does."""
    counts = {"title": 0, "lower": 0, "upper": 0}
    for raw in samples:
        m = _FIRST_WORD.match(_strip_decoration(raw))
        if m is None or m.group(0).lower() not in CANONICAL:
            continue
        word = m.group(0)
        if word.isupper() and len(word) > 1:
            counts["upper"] += 1
        elif word[:1].isupper() and word[1:].islower():
            counts["title"] += 1
        elif word.islower():
            counts["lower"] += 1
    best = max(counts, key=lambda k: (counts[k], k == "lower"))
    if not counts[best]:
        return None
    if best == "upper":
        return status.upper()
    return status[:1].upper() + status[1:] if best == "title" else status.lower()


_FIRST_WORD = rx.compile(r"[A-Za-z]+")


def word_lengths(table: Mapping[str, str]) -> list[int]:
    """The distinct lengths of a table's words, longest first."""
    return sorted({len(word) for word in table}, reverse=True)


_CANONICAL_LENGTHS = word_lengths(CANONICAL)


def relations_in_text(text: str, origin: str, line: int | None) -> Iterator[Relation]:
    """Every ``<verb> <refs>`` phrase in a piece of text (a status value, a cell).

    The localized phrases whose references are inside them (``被 ADR-045 取代``)
    are read first; their words are not read again as a verb of their own. Only
    the first :data:`.bounds.LINE` characters are read.
    """
    text = bounds.line(text)
    if _MAY_REF.search(text) is None:
        return  # every phrase below ends in a reference
    if text.isascii():
        for m in VERB_PHRASE.finditer(text):
            yield from _refs(m.group(2), _verb_kind(m), origin, line, m.group(1), bare=True)
        return
    taken: list[tuple[int, int]] = []
    if any(h in text for h in _WRAPPED_HINT):
        for m in WRAPPED_PHRASE.finditer(text):
            kind = WRAPPED_VERBS.get((m.group(1), m.group(3)))
            if kind is None:
                continue  # "被" with a phrase of the reference-first kind
            taken.append(m.span())
            verb = f"{m.group(1)} … {m.group(3)}".strip()
            yield from _refs(m.group(2), kind, origin, line, verb)
    for pattern in (VERB_PHRASE, _CJK_VERB_PHRASE):
        for m in pattern.finditer(text):
            if taken and any(a <= m.start() < b for a, b in taken):
                continue
            kind = _verb_kind(m) if pattern is VERB_PHRASE else VERBS[m.group(1).lower()]
            yield from _refs(m.group(2), kind, origin, line, m.group(1), bare=True)


def _refs(
    text: str,
    kind: str,
    origin: str,
    line: int | None,
    verb: str,
    *,
    ids: bool = True,
    bare: bool = False,
) -> Iterator[Relation]:
    """The links, URLs and (with ``ids``) bare ids of ``text`` as relations of ``kind``;
    with ``bare`` (the references after a verb) bare numbers and file names too."""
    for ref in (VERB_REF if bare else REF).finditer(text):
        link, url, ident, *alone = ref.groups()
        if link:
            parts = _LINK_PARTS.match(link)
            label, href = (parts.group(1), parts.group(2)) if parts else ("", link)
            yield Relation(kind, href or label, origin, line, verb=verb, label=label.strip())
        elif url:
            yield Relation(kind, url, origin, line, verb=verb)
        elif ident and ids:
            yield Relation(kind, ident, origin, line, verb=verb)
        elif alone and alone[0] and ids:
            yield Relation(kind, alone[0], origin, line, verb=verb)


def link_line_parts(text: str) -> tuple[str, str] | None:
    """(verb, refs) of an adr-tools link line ``Verb [label](href)``, else None.

    Exactly what ``^\\s*(?:[-*+]\\s+)?(?P<verb>[^\\[\\]]+?)\\s*:?\\s+(?P<refs>\\[.*\\]\\(.*\\).*)$``
    matches, found without backtracking: the references start at the first bracket,
    which must be ``[`` with ``](`` and then ``)`` after it; the words before it end in
    whitespace, and the verb is what the lazy group takes of them.
    """
    if "](" not in text:
        return None  # the references hold a "](" (a cheap test first)
    found = _LINE_BRACKET.search(text)
    if found is None or found.group() != "[":
        return None
    at = found.start()
    refs = text[at:]
    if refs.endswith("\n"):
        refs = refs[:-1]  # ``$`` matches before a final newline
    if "\n" in refs:
        return None  # ``.`` stops at a newline
    close = refs.find("](", 1)
    if close == -1 or refs.find(")", close + 2) == -1:
        return None
    words = text[:at]
    size = len(words)
    if size < 2 or not words[-1].isspace():
        return None  # a verb and at least one space before the references
    # where the trailing ``\s*:?\s+`` may start: the trailing spaces, with a colon
    # and the spaces before it
    tail = len(words.rstrip())
    if tail and words[tail - 1] == ":":
        tail = len(words[: tail - 1].rstrip())
    limit = size - 2  # the verb starts here at the latest
    lead = len(words) - len(words.lstrip())
    start = min(lead, limit)
    if lead < size and words[lead] in "-*+":
        spaces = len(words[lead + 1 :]) - len(words[lead + 1 :].lstrip())
        if spaces and lead + 2 <= limit:
            start = min(lead + 1 + spaces, limit)
    return words[start : max(tail, start + 1)], refs


_BULLETS = frozenset("-+*")


def link_line(text: str, origin: str, line: int | None) -> Iterator[Relation]:
    """An adr-tools style ``Verb [label](href)`` line; unknown verbs relate.

    A localized phrase with the link inside (``被 [ADR-045](adr-045.md) 取代``)
    is read as that phrase, not as the verb ``被``.
    """
    text = bounds.line(text)
    parts = link_line_parts(text)
    if parts is None:
        return
    verb, refs = parts
    verb = verb.strip()
    if verb in _BULLETS:
        # ``- [ADR-0041](0041-x.md)``, ``* [...](...)``: a list item of links relates, and
        # its bullet is no verb. Its bare ids count in the references that open it: the
        # words after them describe the link, and in ``- [Gartner](https://...) report,
        # Published 9 October 2019`` neither "Published 9" nor "October 2019" is an id
        found = _opening_refs(refs, "relates-to", origin, line, "")
        yield from _off_the_web(found) if origin == "links-section" else found
        return
    verb = verb.strip("*_").strip()  # ``**Superseded by** [...](...)``
    if not verb or len(verb) > 40:
        return
    kind = VERBS.get(verb.lower())
    if kind is None:
        wrapped = list(relations_in_text(text, origin, line))
        if wrapped:
            yield from wrapped
            return
    named = _opening_refs(refs, kind or "relates-to", origin, line, verb)
    yield from _off_the_web(named) if kind is None and origin == "links-section" else named


def _opening_refs(
    refs: str, kind: str, origin: str, line: int | None, verb: str
) -> Iterator[Relation]:
    """:func:`_refs` of a link line's references: its links and URLs anywhere, its bare
    ids only in the run of references that opens it. The words after that run are prose
    ("Published 9 October 2019", "the portion option 2 named", "renumbered to 0039")."""
    lead = REFS_AT.match(refs)
    end = lead.end() if lead else len(refs)
    yield from _refs(refs[:end], kind, origin, line, verb)
    yield from _refs(refs[end:], kind, origin, line, verb, ids=False)


def _off_the_web(relations: Iterable[Relation]) -> Iterator[Relation]:
    """A links list's references without the web pages: an item that names no relation
    (``- [Pollen CSS](https://www.pollen.style)``, ``* GADR: [..](https://..)``) points
    at a tool, a discussion or a paper, not at a decision (docs/adr/0070); a record
    is a file of the log or its id."""
    for rel in relations:
        target = rel.target
        if "://" not in target and not target.lower().startswith("mailto:") and target[:1] != "#":
            yield rel  # (``#impact``: a place on this page)


def relation_line(text: str, origin: str, line: int | None) -> list[Relation]:
    """The relations of a line that states only relations, else ``[]``.

    Such a line is an adr-tools link line (``Amended by [3. X](0003-x.md)``,
    any verb), or opens with a relation phrase: ``Partially supersedes ADR-18``,
    ``Ersetzt durch ADR-7``, ``被 ADR-045 取代``, ``ADR-3 に置き換えられた``.
    A status paragraph is split into its status and such lines.
    """
    text = bounds.line(text)
    if _MAY_REF.search(text) is None:
        return []  # a link line and every phrase below hold a reference
    found = list(link_line(text, origin, line)) if "](" in text else []
    if found:
        return found
    lead = _LINE_LEAD.match(text)
    rest = text[lead.end() :] if lead else text
    m = VERB_PHRASE.match(rest)
    if m is None and not rest.isascii():
        m = _CJK_VERB_PHRASE.match(rest) or WRAPPED_PHRASE.match(rest)
    if m is None:
        return []
    return list(relations_in_text(rest, origin, line))


def declaration(lines: Sequence[tuple[int, str]], start: int) -> tuple[list[Relation], int]:
    """A declared succession opening ``lines[start]``: its relations and the lines it takes.

    ``This ADR is superseded by [ADR-12](0012-x.md).`` takes its line;
    ``**This document is superseded by**`` followed by a list takes the list
    too, one relation per item (each item's leading references, with its line).
    ``([], 0)`` when the line is not a declaration, or names no reference.
    """
    lineno, text = lines[start]
    text = bounds.line(text)
    m = DECLARATION.match(text)
    if m is None:
        return [], 0
    verb = m.group("verb")
    kind = VERBS[verb.lower()]
    rest = text[m.end() :]
    out: list[Relation] = []
    refs = REFS_AT.match(rest)
    if refs is not None:
        out.extend(_refs(refs.group(0), kind, "declaration", lineno, verb))
        # a sentence wrapped inside its list: "... [ADR-1](..) and\n[ADR-2](..)."
        i, tail = start + 1, rest[refs.end() :]
        while i < len(lines) and _CONTINUES.match(tail):
            more = REFS_AT.match(bounds.line(lines[i][1]).lstrip())
            if more is None:
                break
            out.extend(_refs(more.group(0), kind, "declaration", lines[i][0], verb))
            tail = bounds.line(lines[i][1]).lstrip()[more.end() :]
            i += 1
        return out, i - start
    if rest.strip(" *_:：.") or start + 1 >= len(lines):
        return [], 0  # "This ADR replaces the nightly job": no reference
    i = start + 1
    if not lines[i][1].strip():
        i += 1  # one blank line between the sentence and its list
    while i < len(lines):
        item_line, item = lines[i][0], bounds.line(lines[i][1])
        bullet = _LIST_ITEM.match(item)
        if bullet is None:
            break
        item_refs = REFS_AT.match(item, bullet.end())
        if item_refs is not None:
            out.extend(_refs(item_refs.group(0), kind, "declaration", item_line, verb))
        i += 1
    return (out, i - start) if out else ([], 0)


def frontmatter_refs(value: object) -> list[str]:
    """A frontmatter relation value as a list of reference strings."""
    if value is None:
        return []
    if isinstance(value, (set, frozenset)):  # YAML's !!set: its order is the hash seed's
        value = sorted(value, key=str)
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
