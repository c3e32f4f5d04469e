"""Dates as ADRs write them: ISO, day-first, month names, or free text."""

from __future__ import annotations

import datetime as dt
import re

_ISO = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_DMY = re.compile(r"(\d{1,2})([/.\-])(\d{1,2})\2(\d{4})")
_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ]
    )
    for m in names
}
_NAMED_DMY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b")
_NAMED_MDY = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")


def _make(year: int, month: int, day: int) -> str | None:
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def parse_date(value: object) -> str | None:
    """ISO ``YYYY-MM-DD`` when the text names one day unambiguously, else None."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if value is None:
        return None
    text = str(value).strip()
    m = _ISO.search(text)
    if m:
        return _make(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = _DMY.search(text)
    if m:
        first, sep, second, year = int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))
        if sep == "." or first > 12:
            return _make(year, second, first)
        if second > 12:  # month-first, unambiguous
            return _make(year, first, second)
        return None  # 03/04/2023: which is the month? Keep the raw text.
    m = _NAMED_DMY.search(text)
    if m and m.group(2).lower() in _MONTHS:
        return _make(int(m.group(3)), _MONTHS[m.group(2).lower()], int(m.group(1)))
    m = _NAMED_MDY.search(text)
    if m and m.group(1).lower() in _MONTHS:
        return _make(int(m.group(3)), _MONTHS[m.group(1).lower()], int(m.group(2)))
    return None
