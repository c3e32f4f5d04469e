"""Hostile text made harmless where it leaves the product: terminals, XML, JSON, links.

Record text (titles, statuses, domains, tags, relation targets, bodies) is the
author's, and so is anything an attacker commits to a log. This module is the one
owner of what such text may carry out of the product:

* :func:`terminal` -- text for a terminal: every control sequence removed (CSI
  ``ESC [ ... final``, OSC ``ESC ] ... BEL`` or ``ESC \\``, DCS/SOS/PM/APC ``ESC P``,
  ``ESC X``, ``ESC ^``, ``ESC _`` up to ``ESC \\``, their one-byte C1 forms, and
  single ``ESC x`` sequences), then every other C0/C1 control except newline and
  tab, and bidi overrides shown as ``<U+202E>`` instead of reordering the line.
* :func:`xml_text` -- the same, minus everything XML 1.0 forbids (SVG exports).
* :func:`json_text` -- JSON text with C1 controls, bidi overrides and lone
  surrogates written as ``\\uXXXX`` escapes: the same data once parsed, but nothing
  raw for a terminal to act on (JSON already escapes C0 controls).
* :func:`unsafe_href` / :func:`relative_href` -- link targets: ``javascript:``,
  ``data:`` and ``vbscript:`` in any case or disguise are refused; a relative path
  whose first segment holds a colon is written ``./...`` so it never reads as a scheme.

Every pattern here is linear in its input: the character classes that repeat are
disjoint from what follows them, and a string sequence's body stops at the next
``ESC`` or C1 introducer, so no position is scanned twice.
"""

from __future__ import annotations

import functools
import html

from . import rx

#: Escape sequences, in the order a terminal tells them apart. A string sequence
#: (OSC, DCS, SOS, PM, APC) is removed whole when it ends (BEL, ST, or a line end);
#: without an end only its introducer goes, and what follows prints as plain text.
_SEQUENCE = rx.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"  # CSI
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])"  # OSC, DCS, SOS, PM, APC
    r"(?:[^\x07\x1b\x90\x98\x9b-\x9f\n]*(?:\x07|\x1b\\|\x9c))?"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"  # any other escape sequence
)
#: C0 and C1 controls and DEL, except tab and newline.
_CONTROL = rx.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: Bidi embeddings, overrides and isolates: they reorder what a reader sees.
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_BIDI = rx.compile("[\u202a-\u202e\u2066-\u2069]")
_SURROGATE = rx.compile("[\ud800-\udfff]")
#: What XML 1.0 forbids beyond the C0 controls :func:`plain` already removes.
_NOT_XML = rx.compile("[\ud800-\udfff\ufffe\uffff]")
#: Characters JSON text keeps raw that a terminal could act on or reorder, or that no
#: encoding can write: :func:`json_text` writes each as a ``\\uXXXX`` escape.
JSON_ESCAPED = rx.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

#: Link schemes that run code or smuggle a document; never written as a link.
UNSAFE_SCHEMES = ("javascript", "vbscript", "data")
_SCHEME = rx.compile(r"[a-z][a-z0-9+.\-]*:")
#: What a browser drops from a URL before reading its scheme: C0 controls and
#: space at the ends, tab and line breaks anywhere; Markdown also drops the
#: backslash before punctuation.
_URL_NOISE = rx.compile(r"[\x00-\x20\x7f-\x9f]|\\(?=[!-/:-@\[-`{-~])")


def plain(text: str) -> str:
    """``text`` without control sequences and C0/C1 controls (newline and tab kept)."""
    if text.isprintable():
        return text
    return _CONTROL.sub("", _SEQUENCE.sub("", text))


@functools.lru_cache(maxsize=1 << 16)
def md_text(text: str) -> str:
    """Escape text for a Markdown table cell: no HTML, no links, no cell breaks, no
    control characters (:func:`plain`). Kept per text: the same
    ids and titles are escaped again on every build of a long-lived host."""
    out = html.escape(plain(text), quote=False)
    for ch in "\\`*_[]|#":
        out = out.replace(ch, "\\" + ch)
    return out.replace("\n", " ")


def controls(text: str) -> list[str]:
    """The control characters in ``text`` other than newline and tab, as ``U+001B``
    (each once, in order): what a writer refuses to put into a record file."""
    if text.isprintable():
        return []
    return list(dict.fromkeys(f"U+{ord(c):04X}" for c in _CONTROL.findall(text)))


def visible(text: str) -> str:
    """Bidi overrides written as ``<U+202E>``, so they show instead of reordering."""
    return _BIDI.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def terminal(text: str) -> str:
    """``text`` safe to print: :func:`plain`, bidi overrides :func:`visible`, and no
    lone surrogate (which no terminal encoding can write)."""
    if text.isascii() and text.isprintable():
        return text
    return _SURROGATE.sub("\ufffd", visible(plain(text)))


def xml_text(text: str) -> str:
    """``text`` as :func:`terminal` prints it, minus what XML 1.0 forbids; not escaped."""
    return _NOT_XML.sub("", terminal(text))


def json_text(text: str) -> str:
    """JSON text (from :func:`json.dumps`) with C1 controls, line separators, bidi
    overrides and lone surrogates written as ``\\uXXXX``: the same data once parsed.

    Outside strings JSON text is ASCII, so every such character sits in a string,
    where an escape means exactly the character. Of them only DEL is ASCII, so text
    that is ASCII without a DEL (most JSON, and both tests run in C) has none.
    """
    if text.isascii() and "\x7f" not in text:
        return text
    return JSON_ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def unsafe_href(target: str) -> bool:
    """Whether a link target would run code or carry a document (``javascript:``,
    ``vbscript:``, ``data:``), read as a browser reads it after Markdown: entities
    decoded (``java&#x73;cript:``), backslash escapes, controls and spaces dropped,
    any case."""
    seen = _URL_NOISE.sub("", html.unescape(target)).lower()
    m = _SCHEME.match(seen)
    return m is not None and m.group()[:-1] in UNSAFE_SCHEMES


def relative_href(rel: str) -> str:
    """A relative path as a link target that never reads as a scheme: a colon in its
    first segment (a file named ``javascript:x.md``) gets a leading ``./``."""
    first = rel.split("/", 1)[0]
    return "./" + rel if ":" in first else rel
