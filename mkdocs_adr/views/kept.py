"""Per-record pieces of a view kept from the last render, reused by record identity.

A long-lived host (``mkdocs serve``) renders each whole-log view again after an edit.
ADR-0050 keeps each record's piece by a key of what it reads, but working the key out
(the record's succession, whether it binds, its URL) costs as much as a third of
making the piece, a thousand times per view. After one record's edit almost every
record is the object the last load gave (:func:`mkdocs_adr.log.load` keeps the records
whose files did not change), and the host knows which records' pieces may read what
changed (:func:`mkdocs_adr.viewstate.stale_paths`): a :class:`Kept` gives such an
unchanged record its last piece with one look-up and one identity check (ADR-0062).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import compress, repeat
from operator import attrgetter, is_not
from typing import Any

from ..model import Record

#: What changed between the log a view was last rendered from and this one: the paths
#: of the records whose pieces may differ (None: every piece may).
Changes = Callable[[Any], "frozenset[str] | None"]


class Kept:
    """One view's pieces by record path: the build that last drew or checked it, the
    record object it was drawn from, what else it was drawn for (``extra``: its place,
    its section) and the piece.

    :meth:`begin` starts a render: ``log`` is the log it is made from, ``context``
    everything the pieces read beside the records (the options, the language, every
    record's URL, the view's own URL...), ``changes`` what changed since a log. A piece
    is reused when the render before drew or checked it, from the same record object
    with the same ``extra``, in the same context, and its path is not among the
    changes; else the view makes it again and :meth:`put` keeps it."""

    __slots__ = ("_arranged", "_context", "_lists", "_log", "_pieces", "_stale", "_turn", "whole")

    def __init__(self) -> None:
        self._pieces: dict[str, tuple[int, Record, Hashable, Any]] = {}
        self._turn = 0
        self._log: object = None
        self._context: object = None
        self._stale: frozenset[str] | None = None
        #: each list of pieces :meth:`each` gave, by its slot: [turn, records, extra,
        #: start, pieces, each record's place by path or None until asked, whether its
        #: reused pieces are still to be stamped (:meth:`_settle`)]
        self._lists: dict[Hashable, list[Any]] = {}
        #: each arrangement :meth:`arranged` made, by its slot: (records, groups of places)
        self._arranged: dict[Hashable, tuple[tuple[Record, ...], list[list[int]]]] = {}
        #: what the view made as a whole from its last render, for a view that patches it
        #: (:func:`~mkdocs_adr.views.graphdata.build`); dropped with the pieces
        self.whole: Any = None

    def begin(self, log: object, context: object, changes: Changes) -> Kept:
        if log is self._log and context == self._context:
            return self  # the same render again (a view drawn twice in one build)
        known = self._log is not None and context == self._context
        self._stale = changes(self._log) if known else None
        self._log, self._context = log, context
        self._turn += 1
        if self._stale is None:
            self._pieces.clear()
            self._lists.clear()
            self.whole = None
        return self

    def get(self, rec: Record, extra: Hashable = None) -> Any:
        """The kept piece of ``rec``, or None to make it again."""
        found = self._pieces.get(rec.path)
        if found is None or found[1] is not rec or found[2] != extra:
            return None
        turn = self._turn
        if found[0] != turn:
            stale = self._stale
            if found[0] != turn - 1 or stale is None or rec.path in stale:
                return None
            self._pieces[rec.path] = (turn, rec, extra, found[3])
        return found[3]

    def put(self, rec: Record, piece: Any, extra: Hashable = None) -> Any:
        """Keep ``piece`` as ``rec``'s for the next render; gives ``piece`` back."""
        self._pieces[rec.path] = (self._turn, rec, extra, piece)
        return piece

    def each(
        self,
        slot: Hashable,
        records: Sequence[Record],
        make: Callable[[Record], Any],
        extra: Hashable = None,
        start: int | None = None,
    ) -> list[Any]:
        """The piece of each of ``records``, in order: :meth:`get`'s, else ``make``'s,
        kept (:meth:`put`). ``extra`` is every piece's; with ``start``, each piece's is
        its place instead, numbered from ``start``.

        ``slot`` names the list in the view (a table, a month). When the last render gave
        that slot as many records, with the same ``extra`` and ``start``, the pieces are
        that list's but where the record is not the same object or its path is among the
        changes: a status edit's render then asks about a few records, not about every
        one, and no piece differs from what :meth:`get` would give (ADR-0067)."""
        turn, stale = self._turn, self._stale
        last = self._lists.get(slot)
        if (
            last is not None
            and (last[0] == turn or (last[0] == turn - 1 and stale is not None))
            and len(last[1]) == len(records)
            and last[2] == extra
            and last[3] == start
        ):
            out = list(last[4])
            redo = set(compress(range(len(records)), map(is_not, records, last[1])))
            at = last[5]
            moved = any(records[i].path != last[1][i].path for i in redo)
            if moved:
                self._settle()  # (a record in another's place: its piece is found by path)
            if last[0] != turn and stale:
                if at is None:
                    at = dict(zip(map(_PATH, last[1]), range(len(last[1])), strict=True))
                redo.update(i for i in map(at.get, stale) if i is not None)
            for i in redo:
                out[i] = self._one(records[i], make, extra if start is None else start + i)
            if moved:
                at = None  # (the places by path are the last list's)
            # the other pieces were checked in this render; stamped only when asked by record
            pending = True
        else:
            self._settle()
            if start is None:
                out = [self._one(rec, make, extra) for rec in records]
            else:
                out = [self._one(rec, make, n) for n, rec in enumerate(records, start)]
            at, pending = None, False
        self._lists[slot] = [turn, tuple(records), extra, start, out, at, pending]
        return out

    def _settle(self) -> None:
        """Stamp each piece a list reused without asking about it as drawn in the render
        that reused it, as :meth:`get` would have (before asking :meth:`get`)."""
        for found in self._lists.values():
            if not found[6]:
                continue
            turn, records, extra, start, out = found[:5]
            extras = repeat(extra) if start is None else range(start, start + len(records))
            self._pieces.update(
                zip(map(_PATH, records), zip(repeat(turn), records, extras, out), strict=True)
            )
            found[6] = False

    def arranged(
        self,
        slot: Hashable,
        records: Sequence[Record],
        reads: Callable[[Record], Hashable],
        arrange: Callable[[Sequence[Record]], list[list[int]]],
    ) -> list[list[Record]]:
        """``records`` arranged in groups (a table's rows, a month's entries) by
        ``arrange``, which gives each group as places in ``records`` and reads of each
        record only ``reads(record)`` (its number, id, date...). When the last call under
        ``slot`` had as many records and each record that is not the same object reads
        the same, the places are the last call's (a status edit sorts nothing again);
        they hold for any context, so they are kept whatever :meth:`begin` was told
        (ADR-0067)."""
        last = self._arranged.get(slot)
        records = tuple(records)
        if last is not None and len(last[0]) == len(records):
            old = last[0]
            moved = compress(range(len(records)), map(is_not, records, old))
            if all(reads(records[i]) == reads(old[i]) for i in moved):
                groups = last[1]
            else:
                groups = arrange(records)
        else:
            groups = arrange(records)
        self._arranged[slot] = (records, groups)
        take = records.__getitem__
        return [list(map(take, places)) for places in groups]

    def _one(self, rec: Record, make: Callable[[Record], Any], extra: Hashable) -> Any:
        found = self.get(rec, extra)
        return found if found is not None else self.put(rec, make(rec), extra)

    def __len__(self) -> int:
        return len(self._pieces)


_PATH = attrgetter("path")
