"""Bytes to the text a record is read from, and the problems of bytes that are no text.

Apart from the reader so that the parse cache (:mod:`mkdocs_adr.cache`) can give a
kept reading back its text from the file's bytes without importing the reader: a
pack keeps no record's text (docs/adr/0061).
"""

from __future__ import annotations

from ..model import Problem, Severity

_BOM = b"\xef\xbb\xbf"


def _utf8_sig(data: bytes) -> str:
    """``data.decode("utf-8-sig")``, without that codec's Python layer (most of a small
    file's decode) unless the bytes do not decode: then the codec raises its own error."""
    try:
        return data[3:].decode() if data.startswith(_BOM) else data.decode()
    except UnicodeDecodeError:
        return data.decode("utf-8-sig")


def decode(data: bytes, path: str, max_bytes: int) -> tuple[str | None, list[Problem]]:
    """Bytes to LF text; ``None`` when the file cannot be read as text at all."""
    if len(data) > max_bytes:
        return None, [
            Problem(
                "ADR013",
                Severity.WARNING,
                f"file is {len(data):,} bytes, over the {max_bytes:,}-byte limit; not parsed",
                path=path,
                fix="split the record, or move large attachments out of the ADR folder",
            )
        ]
    if data.find(b"\x00", 0, 8192) != -1:  # a NUL in the first 8 KiB, without copying them
        return None, [
            Problem(
                "ADR013",
                Severity.WARNING,
                "file is binary (it contains NUL bytes); not parsed",
                path=path,
                fix="an ADR must be a UTF-8 Markdown text file",
            )
        ]
    problems: list[Problem] = []
    try:
        text = _utf8_sig(data)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problems.append(
            Problem(
                "ADR013",
                Severity.WARNING,
                f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x}); "
                "undecodable bytes were replaced for reading",
                path=path,
                line=line,
                fix="re-save the file as UTF-8",
            )
        )
        text = data.decode("utf-8", "replace").lstrip("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, problems


def text_of(data: bytes, max_bytes: int) -> str:
    """The text a reading of ``data`` holds (:attr:`~mkdocs_adr.model.Parsed.text`):
    :func:`decode`'s, or ``""`` for bytes that are not read as text."""
    return decode(data, "", max_bytes)[0] or ""
