"""Record text made fit to sit inside CURRENT.md, and the markers around each source.

Pure string work. Which section is a record's Decision is
:func:`~mkdocs_adr.parsing.sections.decision_of`'s rule.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from urllib.parse import quote

from ..config import Config
from ..freshness import root_relative
from ..model import Record, RootInfo, Unit
from ..parsing.sections import decision_of
from ..safetext import md_text, plain, relative_href, unsafe_href

#: How many characters of a decision (and of a proposal) CURRENT.md quotes.
MAX_DECISION = 1200
MAX_PROPOSAL = 600

#: A link's ``](`` and its target: the target (rebased) up to a space, then the rest
#: up to ``)`` (read with it when judging the scheme). Only the ``](`` is looked
#: for, not the label before it, so the pattern is linear in the text.
_LINK_TARGET = re.compile(r"(\]\(\s*<?)([^)\s>]+)([^)\n>]*)")
#: A reference definition ``[label]: target``.
_LINK_DEF = re.compile(r"^( {0,3})(\[[^\[\]\n]*\]:[ \t]*<?)([^\s>]+)", re.MULTILINE)
_URLISH = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|#|/)", re.IGNORECASE)
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BLOCK = re.compile(
    r"^<!-- mkdocs-adr:source (\S+) -->\n(.*?)\n<!-- mkdocs-adr:end \1 -->$",
    re.MULTILINE | re.DOTALL,
)


def rebase_links(text: str, from_dir: str) -> str:
    """Link targets of record text made fit for CURRENT.md at the root.

    Relative targets written in ``from_dir`` (root-relative) are rewritten for the
    root. A target that would run code or carry a document
    (:func:`~mkdocs_adr.safetext.unsafe_href`: ``javascript:``, ``vbscript:``,
    ``data:``) is left as text: the ``]`` before it (the ``[`` of a reference
    definition) is escaped, so Markdown sees no link and the reader sees what the
    record wrote.
    """

    def rebased(target: str) -> str:
        if not from_dir or _URLISH.match(target):
            return target
        path, sep, anchor = target.partition("#")
        new = posixpath.normpath(posixpath.join(from_dir, path)) if path else path
        return new + sep + anchor

    def escaped(at: int) -> bool:
        """Whether the character at ``at`` is escaped (an odd run of ``\\`` before it)."""
        n = at
        while n > 0 and text[n - 1] == "\\":
            n -= 1
        return (at - n) % 2 == 1

    def fix(m: re.Match[str]) -> str:
        if escaped(m.start()):
            return m.group(0)
        if unsafe_href(m.group(2) + m.group(3)):
            return "\\" + m.group(0)
        return m.group(1) + rebased(m.group(2)) + m.group(3)

    def fix_def(m: re.Match[str]) -> str:
        if unsafe_href(m.group(3)):
            return m.group(1) + "\\" + m.group(2) + m.group(3)
        return m.group(1) + m.group(2) + rebased(m.group(3))

    return _LINK_DEF.sub(fix_def, _LINK_TARGET.sub(fix, text))


def _escape_html(line: str) -> str:
    """``<`` outside code spans becomes ``&lt;`` and ``{`` is escaped: record text never
    injects markup here, nor attributes (``{: onclick=...}`` of attr_list)."""
    parts = re.split(r"(`+[^`]*`+)", line)
    return "".join(
        p if p.startswith("`") else p.replace("<", "&lt;").replace("{", "\\{") for p in parts
    )


def tame(text: str) -> str:
    """Record text made safe to sit inside CURRENT.md: no headings, no raw HTML."""
    out: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        if fenced:
            out.append(line)
            continue
        m = _HEADING.match(line)
        if m:
            line = f"**{m.group(1)}**"
        out.append(_escape_html(line))
    if fenced:
        out.append("```")
    return "\n".join(out)


def bound(text: str, limit: int) -> tuple[str, bool]:
    """At most ``limit`` characters, cut at a paragraph, line or word boundary."""
    text = text.strip()
    if len(text) <= limit:
        return text, False
    head = text[:limit]
    cut = head.rfind("\n\n")
    if cut < limit // 3:
        cut = head.rfind("\n")
    if cut < limit // 3:
        cut = head.rfind(" ")
    if cut <= 0:
        cut = limit
    kept = text[:cut].rstrip()
    if len(_FENCE.findall(kept)) % 2 or sum(1 for ln in kept.split("\n") if _FENCE.match(ln)) % 2:
        kept += "\n```"
    return kept + " …", True


def strip_status_line(text: str, headings: Iterable[str]) -> str:
    """A unit's text without its leading ``Status: ...`` line (one of ``headings``)."""
    names = {h.lower() for h in headings}
    lines = text.split("\n")
    for n, line in enumerate(lines[:6]):
        head = line.strip().lstrip("*_").split(":", 1)[0].strip("*_ ").lower()
        if ":" in line and head in names:
            del lines[n]
            break
    return "\n".join(lines).strip("\n")


def decision_text(
    config: Config, rec: Record, unit: Unit | None, root: RootInfo, limit: int
) -> tuple[str, bool]:
    """The decision text of a record or unit, bounded, made safe and with rebased links."""
    if unit is not None:
        raw = strip_status_line(unit.text, config.status_headings)
    else:
        raw = decision_of(rec.parsed) or ""
    if not raw.strip():
        return "", False
    from_dir = posixpath.dirname(root_relative(root, rec.path))
    text, cut = bound(tame(rebase_links(plain(raw), from_dir)), limit)
    return text, cut


def href(rel: str) -> str:
    """A relative link target as CURRENT.md writes it (spaces and parentheses escaped,
    never read as a scheme: :func:`~mkdocs_adr.safetext.relative_href`)."""
    return relative_href(rel.replace(" ", "%20").replace("(", "%28").replace(")", "%29"))


def marker_key(key: str) -> str:
    """A source key as it appears in its block markers (no ``--`` inside a comment)."""
    return quote(key, safe="#").replace("--", "-%2D")


def start_marker(key: str) -> str:
    return f"<!-- mkdocs-adr:source {marker_key(key)} -->"


def end_marker(key: str) -> str:
    return f"<!-- mkdocs-adr:end {marker_key(key)} -->"


def extract_blocks(text: str) -> dict[str, str]:
    """The body of every marked source block of a CURRENT.md, by marker key."""
    text = text.replace("\r\n", "\n")
    return {m.group(1): m.group(2).strip("\n") for m in _BLOCK.finditer(text)}


def domain_title(domain: str | None) -> str:
    """The heading of a domain's group of decisions (``General`` without a domain)."""
    if not domain:
        return "General"
    return md_text(domain.replace("-", " ").replace("_", " ").strip().capitalize() or domain)
