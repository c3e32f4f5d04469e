"""One bounded answer: page the items, add the envelope, measure, settle the budget.

``context`` and ``find`` both end here, so both keep the same promises: at most
:data:`~.budget.MAX_UNITS` units and :data:`~.budget.MAX_CODEPOINTS` code points
for the whole serialized response, identifiers whole, omissions counted, a cursor
bound to the corpus and the query, and the freshness of CURRENT in every answer.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import UsageError
from ..freshness import current_state
from ..log import Log
from . import cursor as cursors
from .budget import (
    ENVELOPE_CODEPOINTS,
    MAX_CODEPOINTS,
    SEGMENT_CODEPOINTS,
    AnswerPage,
    Position,
    budget_block,
    capped,
    finish,
    measure,
    pack,
)
from .evidence import EvidenceItem

SCHEMA_VERSION = 1
#: A command prefix longer than this is left out of navigation hints.
MAX_PREFIX = 200
#: Warnings longer than this are counted, not shown: cutting one could cut a path.
MAX_WARNING = 400
MAX_MISSING_SHOWN = 10
MAX_ROOTS_SHOWN = 10
MAX_REASONS_SHOWN = 3
#: Room kept for one unit's ids, path, hash, title and why besides its text.
UNIT_RESERVE = 1_500


def config_bits(log: Log) -> dict[str, Any]:
    """The configuration that shapes what is read, so cursors notice its changes."""
    c = log.config
    return {
        "roots": [[r.path, r.prefix] for r in c.roots],
        "layout": c.layout,
        "style": c.style,
        "mirrors": list(c.mirrors),
        "headings": list(c.status_headings),
        "aliases": sorted(c.aliases.items()),
    }


def freshness(log: Log) -> dict[str, Any]:
    """CURRENT's state per root, as the engine judges it (SPEC 5)."""
    roots: list[dict[str, Any]] = []
    for root in log.roots:
        view, _ = current_state(log, root)
        reasons = [r.text for r in view.reasons]
        shown = [r for r in reasons if len(r) <= MAX_WARNING][:MAX_REASONS_SHOWN]
        entry: dict[str, Any] = {"root": root.path, "path": view.path, "state": view.state}
        if shown:
            entry["reasons"] = shown
        if len(reasons) > len(shown):
            entry["reasons_omitted"] = len(reasons) - len(shown)
        roots.append(entry)
    shown_roots, more = capped(roots, MAX_ROOTS_SHOWN)
    out: dict[str, Any] = {"roots": shown_roots}
    if more:
        out["roots_omitted"] = more
    return out


def quote_args(args: Sequence[str]) -> str:
    return " ".join(shlex.quote(a) for a in args)


@dataclass
class Answer:
    """Everything one response needs besides its page of units."""

    kind: str  # context | find
    log: Log
    items: list[EvidenceItem]
    query: dict[str, Any]
    args: list[str]
    prefix: str = "mkdocs-adr"
    extra: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    corpus_extra: str = ""
    #: Where the first page starts when no cursor is given (a segment address).
    start_default: Position | None = None
    #: The caller's output flags (``--json``), repeated by every command printed.
    flags: tuple[str, ...] = ()
    #: Matches the default status filter left out, and the command that shows them:
    #: coverage is never ``complete`` while this is not 0.
    filtered_out: int = 0
    widen: str | None = None
    #: The first page ends after this many items (the strong matches), if set.
    first_page: int | None = None

    def __post_init__(self) -> None:
        if len(self.prefix) > MAX_PREFIX:
            self.prefix = "mkdocs-adr"
        self.corpus = cursors.corpus_key(
            self.log.fingerprint, config_bits(self.log), self.corpus_extra
        )
        self.qkey = cursors.query_key({"kind": self.kind, **self.query})
        self._freshness = freshness(self.log)
        self._level = 0

    # ------------------------------------------------------------ commands

    def command(self, *more: str) -> str:
        return f"{self.prefix} {quote_args([self.kind, *self.args, *more, *self.flags])}"

    def start(self, cursor: str | None) -> Position:
        if cursor is None:
            return self.start_default or Position()
        pos = cursors.decode(cursor, corpus=self.corpus, query=self.qkey, restart=self.command())
        if pos.item > len(self.items) or (
            pos.item < len(self.items)
            and pos.segment >= len(self.items[pos.item].segments(self.log))
        ):
            raise UsageError(
                "this cursor points past the end of the answer",
                fix=f"start again: {self.command()}",
            )
        return pos

    # ------------------------------------------------------------ composing

    def _coverage(self, nxt: Position | None, skipped_required: int) -> tuple[str, dict[str, Any]]:
        required = [i for i in self.items if i.required]
        rest = self.items[nxt.item :] if nxt is not None else []
        missing = [i.id for i in rest if i.required]
        shown, more = capped(missing, MAX_MISSING_SHOWN)
        detail: dict[str, Any] = {"required": len(required), "missing": shown}
        if more:
            detail["missing_omitted"] = more
        if skipped_required:
            detail["not_shown"] = skipped_required
        if self.filtered_out:
            detail["filtered_out"] = self.filtered_out
            if self.widen:
                detail["widen"] = self.widen
        complete = not missing and not skipped_required and not self.filtered_out
        return ("complete" if complete else "incomplete"), detail

    def _warnings(self, skipped: int) -> dict[str, Any]:
        notes = list(self.warnings)
        if skipped:
            notes.append(
                f"{skipped} unit(s) could not be shown: their ids and paths alone exceed the "
                "response budget (identifiers are never cut); open their files directly"
            )
        fitting = [w for w in notes if len(w) <= MAX_WARNING]
        limit = (10, 3, 0)[self._level]
        shown, more = capped(fitting, limit)
        out: dict[str, Any] = {"warnings": shown}
        hidden = more + (len(notes) - len(fitting))
        if hidden:
            out["warnings_omitted"] = hidden
        return out

    def compose(
        self, units: list[dict[str, Any]], nxt: Position | None, skipped: int, cursor: str | None
    ) -> dict[str, Any]:
        skipped_required = skipped if any(i.required for i in self.items) else 0
        coverage, detail = self._coverage(nxt, skipped_required)
        hints = self.hints[: (3, 1, 0)[self._level]]
        data: dict[str, Any] = {
            "schema": f"mkdocs-adr/{self.kind}",
            "version": SCHEMA_VERSION,
            "query": self.query,
            "corpus": {"fingerprint": self.log.fingerprint},
            "units": units,
            "total": len(self.items),
            "omitted": (len(self.items) - nxt.item) if nxt is not None else 0,
            "next_cursor": cursor,
            "coverage": coverage,
            "coverage_detail": detail,
            "freshness": self._freshness if self._level < 2 else _bare(self._freshness),
            "navigation": {
                "next": self.command("--cursor", cursor) if cursor else None,
                "hints": hints,
            },
            "budget": budget_block(len(units)),
            **self._warnings(skipped),
            **self.extra,
        }
        return data

    def respond(self, start: Position) -> tuple[dict[str, Any], str]:
        """The page from ``start``: the response data and its exact serialization."""
        placeholder = cursors.placeholder(self.corpus, self.qkey)
        for level in range(3):
            self._level = level
            envelope = measure(self.compose([], None, 0, placeholder))
            if envelope <= ENVELOPE_CODEPOINTS:
                break
        room = SEGMENT_CODEPOINTS + UNIT_RESERVE if self.items else 0
        if envelope > MAX_CODEPOINTS - room:
            raise UsageError(
                f"this question takes {envelope} of the {MAX_CODEPOINTS} code points an answer "
                "may use before any evidence, so no unit would fit",
                fix="ask with fewer or shorter values",
            )

        def unit_at(pos: Position) -> tuple[dict[str, Any], Position | None]:
            item = self.items[pos.item]
            count = len(item.segments(self.log))
            after = (
                Position(pos.item, pos.segment + 1)
                if pos.segment + 1 < count
                else Position(pos.item + 1, 0)
            )
            return item.to_json(self.log, pos.segment), after

        page: AnswerPage = pack(
            len(self.items),
            unit_at,
            start,
            lambda units, nxt, skipped: self.compose(
                units, nxt, skipped, placeholder if nxt is not None else None
            ),
            stop=self.first_page if start == Position() else None,
        )
        token = cursors.encode(self.corpus, self.qkey, page.next) if page.next else None
        data = self.compose(page.units, page.next, page.skipped, token)
        text = finish(data)
        if len(text) > MAX_CODEPOINTS:  # pragma: no cover - pack() measured a longer text
            raise UsageError(
                f"this answer takes {len(text)} of the {MAX_CODEPOINTS} code points an "
                "answer may use",
                fix="ask with fewer or shorter values",
            )
        return data, text


def _bare(fresh: dict[str, Any]) -> dict[str, Any]:
    """Freshness without reasons: the states stay, always."""
    out = dict(fresh)
    out["roots"] = [{k: v for k, v in r.items() if k not in ("reasons",)} for r in fresh["roots"]]
    return out
