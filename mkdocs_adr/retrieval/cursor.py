"""Cursors: opaque continuation tokens bound to the corpus and to the query.

A cursor carries a short digest of the corpus (record paths and hashes, the
configuration that shapes parsing, and for ``find`` the project graph), a digest
of the query, and the position of the next page. Anything else is refused: a
cursor from a changed corpus would silently skip or repeat units.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .. import rx
from ..errors import RefusedError, UsageError
from .budget import Position

VERSION = "c1"
_BODY = rx.compile(r"^([0-9a-f]{16})\.([0-9a-f]{12})\.(\d{1,9})-(\d{1,9})\.([0-9a-f]{6})$")


def digest(value: Any, length: int) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:length]


def corpus_key(fingerprint: str, config_bits: Mapping[str, Any], extra: str = "") -> str:
    return digest([fingerprint, dict(config_bits), extra], 16)


def query_key(query: Mapping[str, Any]) -> str:
    return digest(dict(query), 12)


def encode(corpus: str, query: str, pos: Position) -> str:
    body = f"{corpus}.{query}.{pos.item}-{pos.segment}"
    check = hashlib.sha256(body.encode()).hexdigest()[:6]
    token = base64.urlsafe_b64encode(f"{body}.{check}".encode()).decode().rstrip("=")
    return f"{VERSION}.{token}"


#: A cursor at the largest position a page can name: used to measure worst cases.
def placeholder(corpus: str, query: str) -> str:
    return encode(corpus, query, Position(10**9 - 1, 10**9 - 1))


def decode(cursor: str, *, corpus: str, query: str, restart: str) -> Position:
    """The position a cursor names, or a clear refusal.

    ``restart`` is the command that starts the same query from the beginning.
    """
    text = cursor.strip()
    version, _, token = text.partition(".")
    body = ""
    if version == VERSION and token:
        try:
            body = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        except (ValueError, UnicodeDecodeError):
            body = ""
    m = _BODY.match(body)
    if m is None or hashlib.sha256(body.rsplit(".", 1)[0].encode()).hexdigest()[:6] != m[5]:
        raise UsageError(
            f"--cursor {_show(text)} is not a cursor this version of mkdocs-adr wrote",
            fix=f"pass the next_cursor of an earlier answer unchanged, or start again: {restart}",
        )
    if m[1] != corpus:
        raise RefusedError(
            "this cursor was made for an earlier state of the ADR log (records or their "
            "configuration changed since), so its pages would no longer line up",
            fix=f"start again: {restart}",
        )
    if m[2] != query:
        raise RefusedError(
            "this cursor belongs to a different query; a cursor only continues the query "
            "that returned it",
            fix=f"repeat that query with the cursor, or start this one again: {restart}",
        )
    return Position(int(m[3]), int(m[4]))


def _show(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")
