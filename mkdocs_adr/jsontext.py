"""``json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)``, quicker.

With an ``indent``, :mod:`json` (before Python 3.13) encodes through its Python
generators, one nested generator per container, which took most of the time a
``plan --json`` of a 10,000-record log spent beyond a plain ``plan``. Here the
same text is made by one recursive function that appends to a list, with the
C string encoder for every string; a string or null inside a container is
written in the container's loop, without a call (most values are strings).
Anything but the JSON types themselves (``str``, ``int``, ``float``, ``bool``,
``None``, ``list``, ``tuple``, ``dict`` with string keys) goes to
:func:`json.dumps`, so the text never differs (tests/test_jsontext.py compares
the two).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # the C encoder where the build has one
from typing import Any

_int_repr = int.__repr__
_float_repr = float.__repr__
_INFINITY = float("inf")


class _Other(Exception):
    """A value the fast path does not encode: :func:`dumps` hands the whole to json."""


def dumps(data: Any) -> str:
    """``json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)``."""
    out: list[str] = []
    try:
        _encode(data, out, "\n")
    except (_Other, RecursionError):
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
    return "".join(out)


def _float(value: float) -> str:
    # json's floatstr with allow_nan (its default)
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return _float_repr(value)


def _encode(value: Any, out: list[str], indent: str) -> None:
    """Append the text of ``value`` at nesting ``indent`` (a newline and its spaces)."""
    kind = type(value)
    if kind is str:
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(_int_repr(value))
    elif kind is float:
        out.append(_float(value))
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = indent + "  "
        out.append("[" + inner)
        between = "," + inner
        first = True
        for item in value:
            if first:
                first = False
            else:
                out.append(between)
            if type(item) is str:
                out.append(encode_basestring(item))
            else:
                _encode(item, out, inner)
        out.append(indent + "]")
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        for key in value:
            if type(key) is not str:
                raise _Other  # json converts and sorts such keys its own way
        inner = indent + "  "
        out.append("{" + inner)
        between = "," + inner
        first = True
        for key in sorted(value):
            if first:
                first = False
            else:
                out.append(between)
            out.append(encode_basestring(key))
            out.append(": ")
            item = value[key]
            if type(item) is str:
                out.append(encode_basestring(item))
            elif item is None:
                out.append("null")
            else:
                _encode(item, out, inner)
        out.append(indent + "}")
    else:
        raise _Other
