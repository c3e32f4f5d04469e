"""Topic ranking with lunr (BM25), over an already narrowed set only.

lunr's own tokenizer and stemmer run in pure Python one character and one token
at a time, copying metadata for every token; on a few thousand records that is
most of a query's time. So the text is split here with one regular expression,
each distinct word is stemmed once (lunr's Porter stemmer, memoized), stop words
are dropped with lunr's list, and :class:`TermBuilder` counts the prepared terms
straight into lunr's inverted index. Vectors, BM25 scoring and querying are
lunr's own. Runs of CJK characters have no spaces between words, so they become
overlapping character pairs, which lets ``缓存`` find ``使用缓存``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lunr.builder import Builder
from lunr.field_ref import FieldRef
from lunr.stemmer import stemmer
from lunr.stop_word_filter import WORDS as STOP_WORDS
from lunr.token import Token

_WORD = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
_STOP = frozenset(STOP_WORDS)

#: Field boosts: a title or keyword hit counts more than one in the body.
FIELDS = (("title", 10), ("keywords", 5), ("body", 1))


@dataclass(frozen=True)
class Doc:
    ref: str
    title: str
    keywords: str
    body: str
    #: The body's :func:`terms`, when the caller keeps them (a record's text does
    #: not change while a log is loaded); computed here otherwise.
    body_terms: tuple[str, ...] | None = None


_STEMS: dict[str, str] = {}


def _stem(word: str) -> str:
    found = _STEMS.get(word)
    if found is None:
        if len(_STEMS) > 200_000:
            _STEMS.clear()
        found = _STEMS[word] = str(stemmer(Token(word)))
    return found


def terms(text: str) -> list[str]:
    """Index terms of ``text``: lower-cased, stop words out, stemmed, CJK as bigrams."""
    words = _WORD.findall(text.lower())
    if not _CJK.search(text):
        stems = _STEMS
        return [stems.get(w) or _stem(w) for w in words if w not in _STOP]
    out: list[str] = []
    for word in words:
        if _CJK.search(word):
            for run in _CJK.split(word):
                if run and run not in _STOP:
                    out.append(_stem(run))
            for run in _CJK.findall(word):
                out.extend(run if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
            continue
        if word not in _STOP:
            out.append(_stem(word))
    return out


class TermBuilder(Builder):  # type: ignore[misc]  # lunr ships no type hints
    """lunr's builder, fed with prepared terms instead of raw text.

    A document with none of the query's terms is counted (document count, field
    lengths: idf and length normalisation) but not stored: it could never be a
    hit, and storing it made lunr build a vector for each of thousands of them.
    """

    def __init__(self) -> None:
        super().__init__()
        self._length_sum: Counter[str] = Counter()
        self._length_docs: Counter[str] = Counter()

    def _calculate_average_field_lengths(self) -> None:
        """The average over every document counted, stored or not (lunr's own formula)."""
        self.average_field_length = {
            name: self._length_sum[name] / self._length_docs[name] if self._length_docs[name] else 0
            for name in self._fields
        }

    def add_terms(self, ref: str, fields: dict[str, list[str]], lengths: dict[str, int]) -> None:
        """What ``Builder.add`` records after its pipeline, without copying per token.

        ``lengths`` are the fields' full term counts; ``fields`` may hold only
        the terms a query can match. lunr scores a document by the dot product
        of its vector with the query's, divided by the query vector's magnitude,
        so terms outside the query never change a score, while the field
        lengths (BM25's length normalisation) and the document count (idf) do.
        """
        self.document_count += 1
        for field_name in self._fields:
            self._length_sum[field_name] += lengths.get(field_name, 0)
            self._length_docs[field_name] += 1
        if not any(fields.values()):
            return
        self._documents[ref] = {}
        for field_name in self._fields:
            field_ref = str(FieldRef(ref, field_name))
            counts = Counter(fields.get(field_name, ()))
            self.field_term_frequencies[field_ref] = dict(counts)
            self.field_lengths[field_ref] = lengths.get(field_name, 0)
            for term in counts:
                posting = self.inverted_index.get(term)
                if posting is None:
                    posting = {name: {} for name in self._fields}
                    posting["_index"] = self.term_index
                    self.term_index += 1
                    self.inverted_index[term] = posting
                posting[field_name].setdefault(ref, {})


def rank(docs: Iterable[Doc], topic: str) -> dict[str, float]:
    """lunr's score of each document that matches at least one term of ``topic``.

    Every document of ``docs`` (the narrowed set) counts for idf and length
    normalisation; only the query's terms are indexed, which gives the same
    scores as indexing everything, much faster.
    """
    wanted = list(dict.fromkeys(terms(topic)))
    if not wanted:
        return {}
    wanted_set = set(wanted)
    builder = TermBuilder()
    builder.pipeline.reset()
    builder.search_pipeline.reset()
    builder.ref("ref")
    for name, boost in FIELDS:
        builder.field(name, boost=boost)
    matched = False
    for doc in docs:
        fields = {
            "title": terms(doc.title),
            "keywords": terms(doc.keywords),
            "body": list(doc.body_terms) if doc.body_terms is not None else terms(doc.body),
        }
        kept = {name: [t for t in values if t in wanted_set] for name, values in fields.items()}
        matched = matched or any(kept.values())
        builder.add_terms(doc.ref, kept, {name: len(v) for name, v in fields.items()})
    if not matched:
        return {}
    index = builder.build()
    query = index.create_query()
    query.term(wanted, use_pipeline=False)
    return {hit["ref"]: float(hit["score"]) for hit in index.query(query)}


def ordered(scores: dict[str, float], refs: Sequence[str]) -> list[str]:
    """``refs`` that scored, best first; ties keep the order of ``refs``."""
    place = {ref: i for i, ref in enumerate(refs)}
    return sorted((r for r in refs if r in scores), key=lambda r: (-scores[r], place[r]))
