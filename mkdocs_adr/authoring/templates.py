"""Skeletons for new records, and filling a root's own ``template.md``.

A template is filled in two passes. First the placeholders that ADR tools
use are replaced as text: adr-tools' ``NUMBER``, ``TITLE``, ``DATE`` and
``STATUS``, and ``ADR-NNNN``/``NNNN``/``YYYY-MM-DD`` as this project's own
template writes them. Then the format's writer sets the title, status, date
and id where that style keeps them, so a template whose placeholders are
prose (MADR's ``[short title of solved problem and solution]``) still gives a
record that reads back with the intended values.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..parsing.formats import FORMATS

#: Built-in skeletons, one per writable format, in the placeholders above; each
#: is its format's ``template`` (:mod:`mkdocs_adr.parsing.formats`).
SKELETONS: dict[str, str] = {f.name: f.template for f in FORMATS if f.template is not None}

#: Where a root keeps its template, in the order tools look (adr-tools uses
#: ``templates/template.md``; MADR and this project ``template.md``).
TEMPLATE_NAMES = ("template.md", "templates/template.md", "adr-template.md")


def find_template(folders: list[Path]) -> Path | None:
    """The first template in ``folders`` (a domain folder before its root)."""
    for folder in folders:
        for name in TEMPLATE_NAMES:
            path = folder / name
            if path.is_file():
                return path
    return None


_PLACEHOLDER = re.compile(r"\b(?:[A-Z][A-Z0-9_]*-NNNN|NNNN|YYYY-MM-DD|NUMBER|TITLE|DATE|STATUS)\b")


def substitute(
    text: str, *, number: int | None, width: int, rid: str, title: str, date: str, status: str
) -> str:
    """Replace the placeholders ADR tools put in templates, in one pass.

    One pass, so a title that happens to contain ``DATE`` stays as written.
    """
    padded = f"{number:0{width}d}" if number is not None else rid
    values = {
        "NNNN": padded,
        "YYYY-MM-DD": date,
        "NUMBER": str(number) if number is not None else rid,
        "TITLE": title,
        "DATE": date,
        "STATUS": status,
    }

    def fill(m: re.Match[str]) -> str:
        word = m.group(0)
        return rid if word.endswith("-NNNN") else values[word]

    return _PLACEHOLDER.sub(fill, text)


def slug(title: str) -> str:
    """adr-tools' file-name slug: runs of non-alphanumerics become one ``-``."""
    text = re.sub(r"[\W_]+", "-", title.lower()).strip("-")
    if len(text) > 80:
        text = text[:80].rsplit("-", 1)[0]
    return text or "decision"
