"""Dates as ADRs write them: ISO, day-first, month names, or free text.

Which key holds a record's date is :func:`pick_date`'s rule; what a date text
means is :func:`parse_date`'s. Both are stated, with examples, in
docs/guide/formats.md ("Dates").
"""

from __future__ import annotations

import datetime as dt
import functools
import html
from collections.abc import Mapping
from typing import Any

from .. import rx
from .markdown import unbraced

#: Keys that hold a record's date, the first found wins: the decision date, then the
#: creation date, then, only when neither is written, the last update.
DATE_KEYS: tuple[str, ...] = (
    "date",
    "日期",
    "日付",
    "fecha",
    "datum",
    "data",  # pt; a date only when its value is one (:data:`_DATE_ONLY_KEYS`)
    "decision date",
    "date of decision",
    "decision-date",
    "decision_date",
    "decided",
    "created",
    "created on",
    "created at",
    "date created",
    "introduced",  # ``Introduced: 2022-03-30`` under the title
    # the same in the languages of the logs read (docs/adr/0075): decided, then created
    "date de décision",
    "fecha de decisión",
    "data da decisão",
    "entschieden am",
    "決定日",
    "决策日期",
    "création",
    "date de création",
    "créé le",
    "fecha de creación",
    "creado",
    "data de criação",
    "criado em",
    "erstellt",
    "erstellt am",
    "作成日",
    "创建日期",
    "updated",
    "last updated",
    "last-updated",
    "last_updated",
    "last update",
    "last_update",
    "last modified",
    "mise à jour",
    "dernière mise à jour",
    "actualizado",
    "atualizado em",
    "aktualisiert",
    "更新日",
    "更新日期",
)

_DATE_KEY_SET = frozenset(DATE_KEYS)
#: Keys that are a date only when their value reads as one: Portuguese ``Data: 2019-02-22``
#: is the date, but English records write ``Data:`` labels too (``Data: kept in S3``),
#: whose text is no raw date.
_DATE_ONLY_KEYS = frozenset({"data"})
#: The date keys that are one word, as section headings: a ``## Date`` / ``## 日付`` section
#: holds the date on its first line. (A phrase, ``decision date``, is a field's key, and
#: ``## Data`` heads an English section about data.)
DATE_HEADINGS = frozenset(k for k in DATE_KEYS if k.isalpha() and k not in _DATE_ONLY_KEYS)
#: (a letter right after the day is no date's: ``2023-07-2i`` is a typo, not the 2nd;
#: ``2021-03-04T10:00`` is one)
_ISO = rx.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![^\W\dT_])")
_DMY = rx.compile(r"(\d{1,2})([/.\-])(\d{1,2})\2(\d{4})")
#: The same with a two-digit year, only as a whole value (``Accepted in 1.2.10`` names a
#: release, not a day).
_DMY_SHORT = rx.compile(r"(\d{1,2})([/.])(\d{1,2})\2(\d{2})")
#: Month names and their short forms in English, French, Spanish, Portuguese, German and
#: Italian (lower case; with and without accents, as logs write them). Not the short
#: forms that are words of English text too (``ago``, ``set``, ``out``).
_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        (
            "jan january janv janvier ene enero janeiro januar jänner gennaio",
            "feb february fév févr fev fevr février fevrier febrero fevereiro februar febbraio",
            "mar march mars marzo março marco mär märz maerz",
            "apr april avr avril abr abril aprile",
            "may mai mayo maio maggio",
            "jun june juin junio junho juni giugno",
            "jul july juil juillet julio julho juli luglio",
            "aug august août aout agosto",
            "sep sept september septembre septiembre setiembre setembro settembre",
            "oct october octobre octubre outubro okt oktober ottobre",
            "nov november novembre noviembre novembro",
            "dec december déc décembre decembre dic diciembre dez dezembro dezember dicembre",
        )
    )
    for m in names.split()
}
#: A month's name: letters of any script (``février``, ``März``).
_NAME = r"[^\W\d_]{3,10}"
#: ``4 Sept 2019``, ``11-April-2023``, ``1er mai 2021``, ``14. Januar 2026``,
#: ``12 de febrero de 2026``.
_NAMED_DMY = rx.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th|er|º|\.)?(?:\s+de|\s+del)?(?:\s+|[-/])({_NAME})\.?,?"
    r"(?:\s+de|\s+del)?(?:\s+|[-/])(\d{4})\b"
)
_NAMED_MDY = rx.compile(rf"\b({_NAME})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b")
#: ``2021-Jan-20``, ``2021-January-5``: the year first, a month's name, the day.
_NAMED_YMD = rx.compile(rf"\b(\d{{4}})[-/ ]({_NAME})\.?[-/ ](\d{{1,2}})\b")
#: ``January 2026``, ``January, 2026``, ``janvier 2026``: a month, read as its first day.
_NAMED_MY = rx.compile(rf"\b({_NAME})\.?,?(?:\s+de)?\s+(\d{{4}})\b")
#: ``2018-11``: ISO 8601's year and month, read as the month's first day, like a named
#: month; not a part of a longer number or date (``12-2018-11``, ``2018-11-5``).
_ISO_MONTH = rx.compile(r"(?<![\d\-/.])(\d{4})-(\d{1,2})(?!\d|[-/.]\d)")


def _make(year: int, month: int, day: int) -> str | None:
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def pick_date(
    frontmatter: Mapping[str, Any], fields: Mapping[str, tuple[str, int]]
) -> tuple[Any, str | None]:
    """A record's raw date and its ISO reading: the first of :data:`DATE_KEYS` it has.

    For each key, frontmatter (``date:``, ``created:``) before a field under
    the title (``Date: ...``, ``- **Created**: ...``, a ``| Date |`` row). A
    key whose value reads as no date is passed over for the next one; when
    none reads, the first value found is the raw date. ``(None, None)`` when
    the record writes no date key.
    """
    first: Any = None
    if frontmatter.keys().isdisjoint(_DATE_KEY_SET) and fields.keys().isdisjoint(_DATE_KEY_SET):
        return None, None
    for key in DATE_KEYS:
        fm_value = frontmatter.get(key)
        if isinstance(fm_value, dict):
            fm_value = unbraced(fm_value)  # ``date: { 2024-05-02 }``, the template's braces kept
        found = fields.get(key)
        if fm_value is None and found is None:
            continue
        for value in (fm_value, None if found is None else found[0]):
            if value is None or value == "":
                continue
            iso = parse_date(value)
            if iso is not None:
                return value, iso
            if first is None and key not in _DATE_ONLY_KEYS:
                first = value
    return first, None


def parse_date(value: object) -> str | None:
    """ISO ``YYYY-MM-DD`` for the day a text names, else None.

    ISO (``2021-03-04``, ``2021/03/04``) wins wherever it is in the text; its basic
    form (``20210304``) is read when it is the whole text.
    Numeric day, month and year (``02/09/2020``, ``02.09.2020``) are day-first:
    2 September 2020; month-first only when the second number cannot be a
    month (``09/25/2020``); with a two-digit year only as the whole text
    (``10/04/18``: 10 April 2018). Month names in English (``11-April-2023``,
    ``4 Sept 2019``, ``April 11, 2023``); a month and year alone
    (``January, 2026``, ISO's ``2026-01``) is the first of that month.
    """
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if value is None:
        return None
    return _text_date(str(value).strip())


@functools.lru_cache(maxsize=4096)
def _text_date(text: str) -> str | None:
    """:func:`parse_date` of a stripped text (remembered: a log repeats its dates)."""
    if "&" in text and "&#" in text:  # ``&#x31;2/16/2024``, a wiki export's digit
        text = html.unescape(text)
    m = _ISO.search(text)
    if m:
        return _make(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if len(text) == 8 and text.isdigit() and text[:2] in ("19", "20"):
        # ISO's basic form, ``20220513``, as the whole value (a date-named slug in a
        # status, ``[20201016-use-x](...)``, is no date of the record)
        return _make(int(text[:4]), int(text[4:6]), int(text[6:]))
    m = _DMY.search(text)
    if m:
        first, sep, second, year = int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))
        if sep == "." or first > 12:
            return _make(year, second, first)
        if second > 12:  # month-first, unambiguous
            return _make(year, first, second)
        return _make(year, second, first)  # 02/09/2020: day-first
    m = _DMY_SHORT.fullmatch(text)
    if m:
        # ``10/04/18`` as the whole value: day-first, this century (no ADR is older)
        first, second, year = int(m.group(1)), int(m.group(3)), 2000 + int(m.group(4))
        if second > 12 and first <= 12:
            return _make(year, first, second)
        return _make(year, second, first)
    m = _NAMED_DMY.search(text)
    if m and m.group(2).lower() in _MONTHS:
        return _make(int(m.group(3)), _MONTHS[m.group(2).lower()], int(m.group(1)))
    m = _NAMED_MDY.search(text)
    if m and m.group(1).lower() in _MONTHS:
        return _make(int(m.group(3)), _MONTHS[m.group(1).lower()], int(m.group(2)))
    m = _NAMED_YMD.search(text)
    if m and m.group(2).lower() in _MONTHS:
        return _make(int(m.group(1)), _MONTHS[m.group(2).lower()], int(m.group(3)))
    m = _ISO_MONTH.search(text)
    if m and 1 <= int(m.group(2)) <= 12:
        return _make(int(m.group(1)), int(m.group(2)), 1)
    m = _NAMED_MY.search(text)
    if m and m.group(1).lower() in _MONTHS:
        return _make(int(m.group(2)), _MONTHS[m.group(1).lower()], 1)
    return None
