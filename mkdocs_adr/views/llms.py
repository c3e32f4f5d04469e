"""``llms.txt``: the decision log as the llmstxt.org file an agent reads first.

The shape is llmstxt.org's: an H1 with the site's name, a blockquote that says what
the file holds, a paragraph of notes, then H2 sections of ``- [name](url): text``
lines. Decisions in effect come first, each with a one-line summary (the first
sentence of its decision section, else its title); proposals and records whose status
was not understood follow; the history (superseded, deprecated, rejected, archived),
each entry naming what replaced it, goes under ``## Optional``, the section an agent
may skip when its context is short.

Pure text from data: the host hands in the log and the URL of each record's page
(:data:`Href`), relative to ``llms.txt`` or absolute. The same log gives the same
bytes: no time, records in INDEX order per root, roots in configuration order.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import rx
from ..graph import Succession
from ..log import Log
from ..model import Record, status_label
from ..safetext import md_text, relative_href, terminal, unsafe_href
from . import piece_key
from .i18n import ENGLISH, Messages
from .kept import Kept

#: Where the file is published, relative to the site root.
PATH = "llms.txt"

#: The URL of a record's page as the file links it (None: the site does not publish it).
Href = Callable[[Record], "str | None"]

IN_EFFECT = "in-effect"
PROPOSED = "proposed"
UNVERIFIED = "unverified"
HISTORY = "history"

#: The sections, in file order, by group.
SECTIONS: tuple[tuple[str, str], ...] = (
    (IN_EFFECT, "Decisions in effect"),
    (PROPOSED, "Proposed"),
    (UNVERIFIED, "Status not recorded or not understood"),
    (HISTORY, "Optional"),
)

#: How long a summary may be before it is cut at a word (code points).
SUMMARY_MAX = 240
#: How much of a paragraph is read for its first sentence: record text is hostile, and
#: nothing here should scan a megabyte line.
_READ_MAX = 2000

_SENTENCE_END = rx.compile(r"[.!?](?=\s|$)")
#: A link's destination: up to one level of parentheses inside (``alert(1)``).
_DEST = r"\((?:[^()\n]|\([^()\n]{0,200}\)){0,500}\)"
_IMAGE = rx.compile(r"!\[[^\]\n]{0,500}\]" + _DEST)
_LINK = rx.compile(r"\[([^\]\n]{0,500})\]" + _DEST)
_REF_LINK = rx.compile(r"\[([^\]\n]{0,500})\]\[[^\]\n]{0,200}\]")
_CODE = rx.compile(r"(`[^`\n]{1,500}`)")
#: ``*word*`` and ``_word_`` emphasis (``**`` and ``__`` are dropped first).
_EMPHASIS = rx.compile(r"(?<![\w*])[*_](?![\s*_])([^*_\n]{1,500}?)(?<!\s)[*_](?![\w*])")
#: A first sentence this short is a lead-in (``Option 3.``): the next one is read with it.
_LEAD_IN = 12
#: A paragraph that opens with a bold phrase (``**The lock protocol.**``) leads in with it.
_BOLD_LEAD = rx.compile(r"(?:\*\*|__)([^*_\n]{1,200})(?:\*\*|__)")
_LIST_MARK = rx.compile(r"^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+")
_SPACE = rx.compile(r"\s+")
_DANGLING = rx.compile(r",?\s+because\s*:?$")


@dataclass(frozen=True)
class Link:
    """A link the notes paragraph names (a root's ``index.json``, its INDEX)."""

    label: str
    url: str


def group(log: Log, rec: Record) -> str:
    """Which section a record is listed in: archived records and those out of effect for
    good are history; proposals and records whose status was not understood have
    their own sections; the rest binds now."""
    if rec.archived:
        return HISTORY
    if log.in_effect(rec):
        return IN_EFFECT
    status = log.status_of(rec)
    if status in ("proposed", "draft"):
        return PROPOSED
    if status in ("unknown", "missing"):
        return UNVERIFIED
    return HISTORY  # superseded, deprecated, rejected, or accepted yet replaced


def first_sentence(text: str) -> str | None:
    """The first sentence of the first paragraph of prose in ``text`` (Markdown), as
    plain text on one line: headings, pictures, tables, code, comments and HTML left
    out, links read as their text. None when there is no prose."""
    in_fence = False
    paragraph: list[str] = []
    for line in [*text.split("\n"), ""]:
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            paragraph = []
            continue
        if in_fence:
            continue
        if paragraph and _LIST_MARK.match(line):
            found = _sentence(" ".join(paragraph))  # a list item starts a block of its own
            if found:
                return found
            paragraph = []
        if stripped and not stripped.startswith(("#", "|", "<!--", "[//]:")):
            paragraph.append(stripped[:_READ_MAX])
            if sum(len(p) for p in paragraph) < _READ_MAX:
                continue
        if paragraph:
            found = _sentence(" ".join(paragraph))
            if found:
                return found
        paragraph = []
    return None


def _sentence(paragraph: str) -> str | None:
    text = _LIST_MARK.sub("", paragraph[:_READ_MAX])
    if text.startswith("<"):
        return None  # an HTML block
    lead = _BOLD_LEAD.match(text)
    text = _IMAGE.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    parts = _CODE.split(text)  # odd items are code spans, kept as written
    for n in range(0, len(parts), 2):
        parts[n] = _EMPHASIS.sub(r"\1", parts[n].replace("**", "").replace("__", ""))
    text = _SPACE.sub(" ", terminal("".join(parts))).strip().lstrip(">").strip()
    if not any(ch.isalnum() for ch in text):
        return None
    # the first sentence, read past a lead-in ("**Scope.** ...", "Option 3. ...")
    shortest = max(_LEAD_IN, len(lead.group(1).strip()) + 1 if lead else 0)
    for end in _SENTENCE_END.finditer(text):
        if end.end() > shortest and not _inside_code(text, end.start()):
            text = text[: end.end()]
            break
    text = _DANGLING.sub("", text)  # MADR's 'Chosen option: "X", because' before a list
    if len(text) > SUMMARY_MAX:
        cut = text[:SUMMARY_MAX].rsplit(" ", 1)[0]
        text = (cut or text[:SUMMARY_MAX]).rstrip(",;:") + "…"
        if text.count("`") % 2:
            text = text.replace("`", "")
    return text


def _inside_code(text: str, at: int) -> bool:
    return text.count("`", 0, at) % 2 == 1


def summary(log: Log, rec: Record) -> str:
    """A record's one-line summary: the first sentence of its decision section, else
    its title; for a container, the units that bind (plain text, not yet escaped)."""
    if rec.units:
        binding = [f"{u.key}: {_one_line(u.title)}" for u in rec.units if log.in_effect(rec, u)]
        if binding:
            return "; ".join(binding)
    return _decision_sentence(rec) or _one_line(rec.title)


def summaries(log: Log, kept: dict[str, tuple[Any, ...]] | None = None) -> tuple[str, ...]:
    """Every record's :func:`summary`, in the log's order, made once per log (kept with
    the ``Log`` value, as :mod:`~mkdocs_adr.parsing.sections` keeps sections with a
    ``Parsed`` one): a host that compares them before reusing its views asks per view.

    ``kept`` (a long-lived host's, by record path: the record, what a missing status
    counts as, and its summary) gives a record that is the same object its summary
    again: the summary reads only the record, and a container's also which of its own
    units bind, which their statuses and ``missing_as`` say (ADR-0062)."""
    memo = vars(log)  # a frozen dataclass, but not slotted: it has an instance dict
    found: tuple[str, ...] | None = memo.get(_SUMMARIES)
    if found is None and kept is None:
        found = memo[_SUMMARIES] = tuple(summary(log, r) for r in log.records)
    elif found is None:
        assert kept is not None
        missing_as, made = log.graph.missing_as, []
        for rec in log.records:
            same = kept.get(rec.path)
            if same is not None and same[0] is rec and (not rec.units or same[1] == missing_as):
                made.append(same[2])
                continue
            text = summary(log, rec)
            kept[rec.path] = (rec, missing_as, text)
            made.append(text)
        found = memo[_SUMMARIES] = tuple(made)
    return found


_SUMMARIES = "_llms_summaries"


#: First sentences of decisions by (content hash, path, style, body start): a long-lived
#: host (``mkdocs serve``) asks again for records whose text did not change.
_SENTENCES: dict[tuple[str, str, str, int], str | None] = {}
_SENTENCES_MAX = 65536


def _decision_sentence(rec: Record) -> str | None:
    key = (rec.sha256, rec.path, rec.parsed.style, rec.parsed.body_start)
    if key in _SENTENCES:
        return _SENTENCES[key]
    from ..parsing.sections import decision_of  # (a cold path: a replayed build reads none)

    decision = decision_of(rec.parsed)
    found = first_sentence(decision) if decision else None
    if len(_SENTENCES) >= _SENTENCES_MAX:
        _SENTENCES.clear()
    _SENTENCES[key] = found
    return found


def _one_line(text: str) -> str:
    return _SPACE.sub(" ", terminal(text)).strip()


def text(value: str) -> str:
    """Record text as Markdown text on one line: controls removed, bidi overrides
    shown, HTML and Markdown syntax escaped (:func:`~mkdocs_adr.views.index.md_text`)."""
    return md_text(_one_line(value))


def prose(value: str) -> str:
    """A summary as Markdown: its code spans kept as code (where nothing is markup),
    the rest escaped as :func:`text`."""
    parts = _CODE.split(_one_line(value))
    return "".join(p if n % 2 else md_text(p) for n, p in enumerate(parts))


def href(url: str | None) -> str | None:
    """A URL as a Markdown link destination, or None when it must not be a link
    (``javascript:`` and the like, :func:`~mkdocs_adr.safetext.unsafe_href`)."""
    if not url or unsafe_href(url):
        return None
    for ch, code in ((" ", "%20"), ("(", "%28"), (")", "%29"), ("<", "%3C"), (">", "%3E")):
        url = url.replace(ch, code)
    return url if _absolute(url) else relative_href(url)


def _absolute(url: str) -> bool:
    return re.match(r"[a-z][a-z0-9+.\-]*://", url, re.IGNORECASE) is not None


def link(label: str, url: str | None) -> str:
    """``[label](url)``, or the label alone when there is no safe URL (``label`` is
    Markdown already)."""
    target = href(url)
    return label if target is None else f"[{label}]({target})"


def _label(rec: Record) -> str:
    return text(f"{rec.id}: {rec.title}")


def _successor(log: Log, rec: Record, url: Href, s: Succession | None = None) -> str:
    """What replaced a record, as the history entry says it."""
    s = s or log.successor(rec.id)
    if s.current:
        target = log.get(s.current)
        name = text(s.current)
        if target is not None:
            return f"replaced by {link(name, url(target))} ({text(target.title)})"
        return f"replaced by {name}"
    if s.state == "ambiguous":
        return "successor unclear: " + ", ".join(text(c) for c in s.candidates)
    if s.state == "not-accepted" and s.candidates:
        return "only proposed successors: " + ", ".join(text(c) for c in s.candidates)
    if s.state == "cycle":
        return "in a supersession cycle"
    return "no successor recorded"


def entry(log: Log, rec: Record, where: str, url: Href, s: Succession | None = None) -> str:
    """One ``- [id: title](url): text`` line of the section ``where`` (``s``: the
    record's succession, when the caller has it)."""
    head = f"- {link(_label(rec), url(rec))}"
    status = status_label(log.status_of(rec))
    if where == IN_EFFECT:
        return f"{head}: {prose(summary(log, rec))}"
    if where == PROPOSED:
        return f"{head}: {text(status)}; {prose(summary(log, rec))}"
    if where == UNVERIFIED:
        return f"{head}: status {text(status)}; {prose(summary(log, rec))}"
    state = text(status) + (", archived" if rec.archived else "")
    return f"{head}: {state}; {_successor(log, rec, url, s)}"


#: A record's line of ``llms.txt`` by :func:`entry_key` (see :func:`render`).
Entries = dict[tuple[object, ...], str]


def entry_key(
    log: Log, rec: Record, where: str, url: Href, s: Succession | None = None
) -> tuple[object, ...]:
    """Everything :func:`entry` reads, as a small hashable key (ADR-0050): the section,
    the file's content hash (title and the summary's sentence come from it), the
    record's identity and place, its page URL, its counted status, which units bind,
    and for a history entry its successor (``s``, when the caller has it) with that
    record's title and URL."""
    s = (s or log.successor(rec.id)) if where == HISTORY else None
    target = log.get(s.current) if s is not None and s.current else None
    return (
        where,
        *piece_key(rec, url(rec)),
        log.status_of(rec),
        tuple(log.in_effect(rec, u) for u in rec.units) if where != HISTORY else (),
        s,
        (target.title, url(target)) if target is not None else None,
    )


def in_index_order(records: list[Record]) -> list[Record]:
    """``records`` sorted as the INDEX lists them: by number, then id and path."""
    return sorted(records, key=lambda r: (r.number is None, r.number or 0, r.id, r.path))


def by_root(
    log: Log, order: Mapping[str, Sequence[Record]] | None = None
) -> dict[str, list[Record]]:
    """Each root's records (by the root's project-relative path, in configuration order),
    in INDEX order: what :func:`~mkdocs_adr.views.index.root_records` gives, in one pass;
    worked out once per ``Log`` value (kept with it, as :func:`summaries` are).

    ``order``: each root's records (by the configuration's root path) already in INDEX
    order, the site's page context's (:attr:`~mkdocs_adr.views.page.PageContext.order`,
    which a serve rebuild takes from the last build's places): not sorted again."""
    memo = vars(log)
    found: dict[str, list[Record]] | None = memo.get(_BY_ROOT)
    if found is None:
        found = memo[_BY_ROOT] = _by_root(log, order)
    return {path: list(records) for path, records in found.items()}


_BY_ROOT = "_llms_by_root"


def _by_root(
    log: Log, order: Mapping[str, Sequence[Record]] | None = None
) -> dict[str, list[Record]]:
    info_of = {cfg.path: info.path for cfg, info in zip(log.config.roots, log.roots, strict=True)}
    out: dict[str, list[Record]] = {info.path: [] for info in log.roots}
    # the given order is the one sort would give when each root is its own and known
    # (records of roots sharing a path, or of no root configured, are sorted here)
    if (
        order is not None
        and len(set(info_of.values())) == len(info_of)
        and all(root in info_of for root in order)
        and sum(map(len, order.values())) == len(log.records)
    ):
        for root, records in order.items():
            out[info_of[root]] = list(records)
        return out
    for rec in log.records:
        out.setdefault(info_of.get(rec.root, rec.root), []).append(rec)
    return {path: in_index_order(records) for path, records in out.items()}


def ordered(log: Log) -> list[Record]:
    """Every record of the log: roots in configuration order, each in INDEX order."""
    return [rec for records in by_root(log).values() for rec in records]


def render(
    log: Log,
    *,
    name: str,
    url: Href,
    links: Sequence[Link] = (),
    entries: Entries | None = None,
    kept: Kept | None = None,
) -> str:
    """The text of ``llms.txt`` for ``log``. ``name`` is the site's name (the H1),
    ``url`` a record's page URL, ``links`` the machine-readable views to name.
    ``entries``: the lines of an earlier render by :func:`entry_key`, which a long-lived
    host keeps for the same options: a record whose key is there is not made again, and
    the lines made are added (ADR-0050). ``kept``: each record's section and line of
    the last render, for a record that is the same object and reads nothing that
    changed since (ADR-0062)."""

    def piece(rec: Record) -> tuple[str, str]:
        where = group(log, rec)
        return where, _entry(log, rec, where, url, entries)

    records = ordered(log)
    pieces = list(map(piece, records)) if kept is None else kept.each(None, records, piece)
    groups: dict[str, list[str]] = {key: [] for key, _ in SECTIONS}  # each section's lines
    for where, line in pieces:
        groups[where].append(line)
    title = text(name) or "Architecture decisions"
    lines = [f"# {title}", ""]
    if not log.records:
        lines += ["> No architecture decision records yet.", ""]
        return "\n".join(lines)
    counted = (
        (IN_EFFECT, "in effect"),
        (PROPOSED, "proposed"),
        (UNVERIFIED, "with a status not recorded or not understood"),
        (HISTORY, "no longer in effect or archived"),
    )
    counts = [f"{len(groups[key])} {words}" for key, words in counted if groups[key]]
    lines += [
        f"> The architecture decision records (ADRs) of this site: {', '.join(counts)}.",
        "",
        "Decisions in effect bind now; each line gives the first sentence of its decision. "
        "Proposals do not bind until accepted. The records under Optional are history: "
        "never follow them as current rules; each names what replaced it.",
        "",
    ]
    if links:
        lines += [
            "Every record as data: " + ", ".join(link(text(k.label), k.url) for k in links) + ".",
            "",
        ]
    for key, heading in SECTIONS:
        if groups[key]:
            lines += [f"## {heading}", ""]
            lines.extend(groups[key])
            lines.append("")
    return "\n".join(lines)


def _entry(log: Log, rec: Record, where: str, url: Href, entries: Entries | None) -> str:
    """:func:`entry`, through the pieces of an earlier render by :func:`entry_key`."""
    if entries is None:
        return entry(log, rec, where, url)
    s = log.successor(rec.id) if where == HISTORY else None
    cached = entry_key(log, rec, where, url, s)
    found = entries.get(cached)
    if found is None:
        found = entries[cached] = entry(log, rec, where, url, s)
    return found


def index_line(links: Sequence[Link], words: Messages = ENGLISH) -> str:
    """The line under the INDEX page's heading that links the agent files (HTML), in the
    site's language (the files themselves stay English, ADR-0041)."""
    anchors = " &middot; ".join(
        f'<a href="{html.escape(k.url)}"><code>{html.escape(k.label)}</code></a>'
        for k in links
        if href(k.url) is not None
    )
    if not anchors:
        return ""
    return f'<p class="adr-agent-files">{html.escape(words.t("index.agents"))}: {anchors}</p>'
