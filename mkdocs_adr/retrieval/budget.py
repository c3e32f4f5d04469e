"""Budgets: serialization, measuring, segmenting over-long units, packing pages.

The budget is measured on the exact text ``--json`` prints (:func:`serialize`),
so what an agent receives is what was counted: every key, id, path, warning and
navigation hint included (SPEC 9).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import rx
from ..safetext import JSON_ESCAPED, json_text

#: At most this many decision units (or segments of one) per response.
MAX_UNITS = 8
#: At most this many Unicode code points for the whole serialized response.
MAX_CODEPOINTS = 12_000
#: A unit whose text, JSON-escaped, is longer than this is split into segments.
#: Fixed, so a segment address (``ADR-0042#D2@2``) means the same text in every answer.
SEGMENT_CODEPOINTS = 4_000
#: What the envelope (everything but the units) may take before it is shortened.
ENVELOPE_CODEPOINTS = 3_500
#: Longest title shown; titles are not identifiers, so they are shortened visibly.
TITLE_CODEPOINTS = 200
#: Bytes per token for the estimate (a rough rule for English with BPE tokenizers).
BYTES_PER_TOKEN = 4
TOKENS_METHOD = (
    f"estimate: UTF-8 bytes / {BYTES_PER_TOKEN}, rounded up; "
    "real counts depend on the model's tokenizer"
)

_COSTLY = rx.compile('["\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]')


def serialize(data: Any) -> str:
    """The one serialization of a response: compact, sorted, UTF-8 text.

    Lone surrogates (file names that are not valid UTF-8), C1 controls and bidi
    overrides are written as JSON ``\\uXXXX`` escapes
    (:func:`~mkdocs_adr.safetext.json_text`), so the text always encodes, nothing
    raw reaches a terminal and an identifier is never altered: a JSON reader gets
    the same string back.
    """
    return json_text(json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")))


def _char_cost(ch: str) -> int:
    """Code points ``ch`` takes inside a JSON string written by :func:`serialize`."""
    if ch in '"\\\n\r\t\b\f':
        return 2
    if ord(ch) < 0x20 or JSON_ESCAPED.match(ch):
        return 6
    return 1


def escaped_len(text: str) -> int:
    """Length of ``text`` once escaped inside a JSON string (quotes not counted)."""
    if not _COSTLY.search(text):
        return len(text)
    return sum(_char_cost(ch) for ch in text)


def segment_text(text: str, limit: int = SEGMENT_CODEPOINTS) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` escaped code points.

    Cuts prefer a paragraph break, then a line break, then any whitespace in
    the second half of the window, so words, ids and paths stay whole; only a
    single run longer than half a segment without whitespace is cut inside.
    Joining the pieces gives ``text`` back exactly.
    """
    if escaped_len(text) <= limit:
        return [text]
    pieces: list[str] = []
    start, n = 0, len(text)
    while start < n:
        cost = 0
        end = start
        para = line = space = -1
        while end < n:
            step = _char_cost(text[end])
            if cost + step > limit:
                break
            cost += step
            ch = text[end]
            end += 1
            if ch == "\n":
                if end - 2 >= start and text[end - 2] == "\n":
                    para = end
                line = end
            elif ch.isspace():
                space = end
        if end >= n:
            pieces.append(text[start:])
            break
        floor = start + (end - start) // 2
        cut = next((p for p in (para, line, space) if p > floor), end)
        pieces.append(text[start:cut])
        start = cut
    return pieces


def shorten_title(title: str) -> tuple[str, bool]:
    if len(title) <= TITLE_CODEPOINTS:
        return title, False
    return title[: TITLE_CODEPOINTS - 1] + "…", True


@dataclass(frozen=True)
class Position:
    """Where a page starts: an item, and a segment of it."""

    item: int = 0
    segment: int = 0


@dataclass
class AnswerPage:
    """One page of a ``context`` or ``find`` answer: the units that fit, and where next."""

    units: list[dict[str, Any]]
    start: Position
    next: Position | None
    skipped: int  # units whose identifiers alone did not fit (never cut, counted)


#: Builds the whole response for a tentative page: (units, next position, skipped).
Compose = Callable[[list[dict[str, Any]], "Position | None", int], dict[str, Any]]


def pack(
    count: int,
    unit_at: Callable[[Position], tuple[dict[str, Any], Position | None]],
    start: Position,
    compose: Compose,
    *,
    stop: int | None = None,
) -> AnswerPage:
    """Fill one page from ``start`` with as many units as the budgets allow.

    ``unit_at(pos)`` gives the unit JSON at ``pos`` and the position after it.
    ``compose`` must build the full response; it is measured with worst-case
    placeholders for the cursor and the budget figures, so the final response
    is never longer than what was measured. ``stop``: the page ends before
    that item even when more would fit (the rest is behind the cursor).
    """
    end = count if stop is None else min(count, stop)
    units: list[dict[str, Any]] = []
    pos: Position | None = start
    skipped = 0
    while pos is not None and pos.item < end and len(units) < MAX_UNITS:
        unit, after = unit_at(pos)
        trial = [*units, unit]
        if measure(compose(trial, after, skipped)) <= MAX_CODEPOINTS:
            units, pos = trial, after
            continue
        if units:
            break
        # Not even alone: only identifiers this long can do that. Never cut
        # them; count the unit as skipped and move on so paging progresses.
        skipped += 1
        pos = after
    return AnswerPage(units, start, pos if pos is not None and pos.item < count else None, skipped)


def measure(data: dict[str, Any]) -> int:
    return len(serialize(data))


PLACEHOLDER_FIGURE = 10**6 - 1


def finish(data: dict[str, Any]) -> str:
    """Fill ``data['budget']`` with the response's own size and serialize it.

    The figures are part of what they measure, so settle them by iteration
    (the digits stabilise within a few rounds).
    """
    budget = data["budget"]
    budget.update(codepoints=0, bytes=0, tokens_estimate=0)
    text = serialize(data)
    for _ in range(8):
        raw = text.encode("utf-8", "surrogatepass")
        figures = {
            "codepoints": len(text),
            "bytes": len(raw),
            "tokens_estimate": math.ceil(len(raw) / BYTES_PER_TOKEN),
        }
        if all(budget[k] == v for k, v in figures.items()):
            return text
        budget.update(figures)
        text = serialize(data)
    raise AssertionError("budget figures did not settle")  # pragma: no cover


def budget_block(units: int) -> dict[str, Any]:
    """The ``budget`` key with worst-case placeholders, filled by :func:`finish`."""
    return {
        "units": units,
        "units_max": MAX_UNITS,
        "codepoints": PLACEHOLDER_FIGURE,
        "codepoints_max": MAX_CODEPOINTS,
        "bytes": PLACEHOLDER_FIGURE,
        "tokens_estimate": PLACEHOLDER_FIGURE,  # how: TOKENS_METHOD, in the agents guide
    }


def capped(values: Sequence[Any], limit: int) -> tuple[list[Any], int]:
    """The first ``limit`` values and how many were left out."""
    return list(values[:limit]), max(0, len(values) - limit)
