"""Find the record files of each root; parse no record content.

Discovery walks every configured root, applies the exclusion rules of SPEC 2
(names, ``exclude`` globs, and the guess for documents that are not records)
and returns sorted :class:`Found` entries, the excluded files with their
reasons, and the problems met on the way (symlinks leaving the project,
symlink loops). The same tree always gives the same answer in the same order.
Only the first bytes of a few files are read: a ``0000-`` name (template or
record?), a non-record name (any ADR metadata?) and an unnumbered name beside numbered
records (a table of contents?).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path

from . import checks, rx
from .config import Config, RootConfig
from .identity import FOLDER_PAGES, is_record_folder, record_name
from .model import Excluded, Problem, Severity, slot_init
from .paths import within

MARKDOWN_SUFFIXES = (".md", ".markdown")
ARCHIVE = "archive"
#: Folders right below a root where a log keeps its records that are out of effect, beside
#: the product's own ``archive/``: their records are archived, not drafts (an underscore
#: folder is a draft's otherwise), and the folder is no domain.
_OUT_OF_EFFECT = frozenset(
    {"superseded", "deprecated", "archived", "obsolete", "retired"}
    | {"_superseded", "_deprecated", "_archive", "_archived", "_obsolete", "_retired"}
)


def is_archive(folder: str) -> bool:
    """Whether a folder right below a root holds archived records (``archive/``,
    ``_superseded/``, ``deprecated/``)."""
    return folder == ARCHIVE or folder.lower() in _OUT_OF_EFFECT


_TEMPLATE_HINT = rx.compile(
    r"\{(short title|title|problem statement|status|date|name)|\[short title|"
    # a slot offering a choice in any language: {proposed | accepted}, {proposé | rejeté}
    r"\{[^{}|\n]{2,40} \|",
    re.IGNORECASE,
)
_ZERO_NAME = rx.compile(r"0+[-_]")

#: Names of documents that are usually not records (stem, lower case), with what they
#: look like; each is left out only when it carries no ADR metadata.
_NON_RECORD_NAMES: tuple[tuple[re.Pattern[str], str], ...] = (
    (rx.compile(r"process"), "a process document"),
    (rx.compile(r"contributing"), "a contributing guide"),
    (rx.compile(r"onboarding.*"), "an onboarding document"),
    (rx.compile(r"how-?to.*"), "a how-to"),
    (rx.compile(r".*guide.*"), "a guide"),
    (rx.compile(r"install(?:ation|ing)?(?:[-_].*)?"), "an installation guide"),
)
_NON_RECORD = "looks like a non-record document: "
#: A numbered name (``0007-x``, ``adr-18``, ``API-001-x``, a date slug): a record's name.
_NUMBERED_NAME = rx.compile(r"(?:[a-z]{2,10}[-_ ]?)?\d{1,8}(?:[-_ .]|$)", re.IGNORECASE)
#: An H1 that carries a record number: ``# 12. Use X``, ``# ADR-0012: Use X``, ``# ADR 12``.
_NUMBERED_H1 = rx.compile(
    r"^#[ \t]+(?:(?:[A-Z]{2,10}|[Aa]dr)[- ]?\d{1,6}\b|\d{1,6}[ \t]*[.:)\-–—])", re.MULTILINE
)


@slot_init
@dataclass(frozen=True, slots=True)
class Found:
    """A record file: where it is and what its place says about it."""

    root: RootConfig
    #: The file's absolute path as a string (a :class:`~pathlib.Path` per file costs
    #: more than the walk itself on a 10,000-record log); :attr:`abspath` is its Path.
    file: str
    path: str  # project-relative, POSIX
    rel: str  # root-relative, POSIX
    domain: str | None
    archived: bool
    symlink: bool = False

    @property
    def abspath(self) -> Path:
        return Path(self.file)


@dataclass
class Discovery:
    found: list[Found] = field(default_factory=list)
    excluded: list[Excluded] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    layouts: dict[str, str] = field(default_factory=dict)
    #: Every path the answer depends on: each folder listed (or that could not be) and
    #: each Markdown file met, found or excluded; while none of their stat rows changed
    #: (a folder's times move when an entry is added, removed or renamed), the walk
    #: gives the same answer (:func:`mkdocs_adr.log.walk_key`).
    walked: list[str] = field(default_factory=list)
    #: Whether a symlink was met: then what it points to counts too, and the stat rows
    #: of :attr:`walked` cannot vouch for the answer.
    linked: bool = False
    #: The paths the answer depends on beside the names in each listing: each folder
    #: listed (or that could not be) and each file whose bytes were read (a ``0000-``
    #: or non-record name's first bytes, an excluded file's encoding). While none of
    #: their stat rows changed, a record file edited in place leaves the answer as it
    #: was (:func:`mkdocs_adr.log.walk_rows`, ADR-0059).
    depends: list[str] = field(default_factory=list)


def exclusion_reason(rel: str, config: Config) -> str | None:
    """Why a root-relative Markdown path is not a record, from its name alone."""
    parts = rel.split("/")
    mirrors = frozenset(config.mirrors)
    reason: str | None = None
    for depth, folder in enumerate(parts[:-1]):
        reason = _folder_reason(reason, folder, mirrors, top=depth == 0)
    if reason is None and record_name(rel) != parts[-1]:
        return None  # a record folder's README.md: the record
    return reason or _name_reason(parts[-1], config, mirrors)


def _folder_reason(
    inherited: str | None, folder: str, mirrors: frozenset[str], *, top: bool
) -> str | None:
    """The reason every file below ``folder`` is excluded; a mirror wins over a draft.
    ``top``: the folder is right below the root, where ``_superseded/`` is an archive."""
    if inherited == "mirror" or folder in mirrors:
        return "mirror"
    if inherited == "draft" or (folder.startswith((".", "_")) and not (top and is_archive(folder))):
        return "draft"
    return None


def _name_reason(name: str, config: Config, mirrors: frozenset[str]) -> str | None:
    lower = name.lower()
    stem = name.rsplit(".", 1)[0]
    if lower in ("readme.md", "readme.markdown"):
        return "readme"
    if lower in _PROJECT_FILES:
        return "project-file"  # CHANGELOG.md, LICENSE.md: the log's own, never a record
    if lower in _AGENT_FILES:
        return "agent-instructions"  # AGENTS.md, CLAUDE.md: what a coding agent is told
    if lower[:1].isdigit() and lower.endswith(_INDEX_ENDS):
        numbered = _numbered_index(lower)
        if numbered is not None:
            return numbered
    index_page, current_page = config.index_page, config.current_page
    if (
        name in (index_page, current_page) or lower in (index_page.lower(), current_page.lower())
    ) and (lower != "index.md" or name == index_page):
        return "generated-view"
    if lower in ("index.md", "index.markdown"):
        return "index"
    if name.startswith((".", "_")) or lower.endswith((".draft.md", ".draft.markdown")):
        return "draft"
    if (
        lower in ("template.md", "template.markdown")
        or (
            stem.lower().endswith(("-template", "_template", ".template"))
            # a record's numbered name (``20260515-remove-the-item-template.md``), not the
            # template's own ``0000-template.md``
            and not (_NUMBERED_NAME.match(name) and not _ZERO_NAME.match(name))
        )
        or ("emplate" in lower and _TEMPLATE_VARIANT.fullmatch(stem.lower()))
    ):
        return "template"  # adr-template.md, adr_template.md, adr.template.md
    localized = _LOCALIZED_PAGE.fullmatch(stem)
    if localized is not None:  # plantilla.md, 0000-adr-template-de.md, ADR-000-索引.md
        return "index" if localized.group(1).lower() in _INDEX_WORDS else "template"
    lang = stem.rsplit(".", 1)[-1] if "." in stem else None
    if lang and lang in mirrors:
        return "mirror"
    return None


#: A log's template and its index page named in the language the log is written in
#: (docs/adr/0075): the word alone or after ``adr-``, zeros or both, and a
#: language code after it (``vorlage.md``, ``adr-plantilla.md``, ``0000-adr-template-de``,
#: ``adr000-template``,
#: ``ADR-000-template``, ``ADR-模板``, ``INDICE``, ``ADR-000-索引``). A number other than
#: zeros is a record's (``0005-template-engine.md``, ``0012-modelo.md``).
_TEMPLATE_WORDS = (
    "template",
    "vorlage",
    "plantilla",
    "gabarit",
    "modèle",
    "modele",
    "modelo",
    "sjabloon",
    "szablon",
    "模板",
    "模版",
    "テンプレート",
    "템플릿",
)
_INDEX_WORDS = frozenset(
    {"index", "indice", "índice", "sommaire", "inhaltsverzeichnis", "索引", "目录", "目次", "一覧"}
)
_LANGS = "de|en|fr|es|pt|it|nl|pl|ja|zh|ko|ru|sv|da|fi|nb|no|cs|tr|uk|ca|eu|gl"
_LOCALIZED_PAGE = rx.compile(
    r"(?i)(?:(?:adr|madr|decisions?|records?)[-_ ]?)?(?:0+[-_ ])?(?:adr[-_ ])?"
    rf"({'|'.join(sorted((*_TEMPLATE_WORDS, *_INDEX_WORDS), key=len, reverse=True))})"
    rf"(?:[-_.](?:{_LANGS}))?"
)


_INDEX_ENDS = (
    "index.md",
    "index.markdown",
    "readme.md",
    "readme.markdown",
    "template.md",
    "template.markdown",
)
#: A log's index or template numbered to sort first, whatever the number: ``01_adr_index.md``,
#: ``02_adr_template.md``, ``00-index.md`` (the name is the number and the page's word only;
#: ``0005-template-engine.md`` is a record's).
_NUMBERED_PAGE = rx.compile(r"\d{1,8}[-_](?:adr[-_])?(index|template)\.(?:md|markdown)")
#: A project's own files that a log's folder may hold too: its change log, licence and
#: code of conduct (``CONTRIBUTING.md`` is a guide, :data:`_NON_RECORD_NAMES`).
_PROJECT_FILES = frozenset(
    f"{stem}{ext}"
    for stem in ("changelog", "changes", "license", "licence", "code_of_conduct", "notice")
    for ext in (".md", ".markdown")
)
#: Instruction files for coding agents kept beside a log: never records.
_AGENT_FILES = frozenset({"agents.md", "claude.md", "gemini.md", "copilot-instructions.md"})
#: A template's variant, named from the template (MADR 4 ships ``adr-template-minimal.md``,
#: ``adr-template-bare.md`` and ``adr-template-bare-minimal.md`` beside ``adr-template.md``):
#: ``adr-template-*`` (or ``madr-``, ``decision-``, ``record-``), or ``template-`` and a
#: variant's word (``template-nygard.md``, ``template.v2``). A numbered name is a record's
#: (``0005-template-engine.md``), and so are ``template-engine.md`` and
#: ``use-a-template-engine.md``.
_TEMPLATE_VARIANT = rx.compile(
    r"(?:(?:adr|madr|decisions?|records?)[-_]templates?[-_.][a-z0-9][a-z0-9._-]*"
    r"|templates?[-_.](?:bare|minimal|short|long|full|simple|basic|lite|light|lightweight"
    r"|nygard|madr|y-statement|alexandrian|tyree|planguage|business|example|v\d+)"
    r"(?:[-_.][a-z0-9][a-z0-9._-]*)?)"
)


def _numbered_index(lower: str) -> str | None:
    """``index``, ``readme`` or ``template`` for a log's own index page or template
    numbered first, as its records are (``000-index.md``, ``0000-README.md``,
    ``01_adr_index.md``, ``02_adr_template.md``; ``lower`` is the name in lower case)."""
    page = _NUMBERED_PAGE.fullmatch(lower)
    if page is not None:
        return page.group(1)
    zero = _ZERO_NAME.match(lower)  # (a README numbered only with zeros)
    bare = lower[zero.end() :] if zero else ""
    if bare in ("readme.md", "readme.markdown"):
        return "readme"
    return None


def _head(path: str | Path) -> bytes:
    """The first bytes of a file, enough to tell a template or a non-record (b"": unreadable)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(TEMPLATE_HEAD)
    except OSError:
        return b""


def _undecodable(path: str, shown: str) -> Problem | None:
    """ADR013 for a non-record Markdown file the host could not read (None: readable,
    or not readable at all, which the host reports itself)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    return checks.undecodable_page(shown, data)


#: Bytes of a ``0000-...`` file read to tell a template from a record.
TEMPLATE_HEAD = 8192


def looks_like_template(data: bytes) -> bool:
    """Whether a file named like ``0000-x.md`` holds a template's placeholders, outside
    its fenced code: MADR's own first record may quote the template in a fence."""
    text = data[:TEMPLATE_HEAD].decode("utf-8", "replace")
    if "```" in text or "~~~" in text:
        text = _FENCED.sub("", text)
    return bool(_TEMPLATE_HINT.search(text))


#: A fenced block, to its closing fence or the end of the text read.
_FENCED = rx.compile(r"(?ms)^[ ]{0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^[ ]{0,3}\1[ \t]*$|\Z)")


def content_reason(
    root: RootConfig,
    rel: str,
    folder: str,
    config: Config,
    head: Callable[[], bytes],
    beside_records: Callable[[], bool] = lambda: False,
) -> str | None:
    """Why a file that its name does not exclude is not a record: a ``0000-`` template,
    an ``exclude`` glob, or the look of a non-record document without ADR metadata.

    ``rel`` is root-relative, ``folder`` the name of the folder that holds the file (the
    root's own name at its top); ``head`` gives the file's first bytes, read only when a
    rule needs them; ``beside_records`` says whether that folder holds numbered records,
    asked only for a file with an unnumbered name (:func:`looks_like_contents`).
    """
    name = rel.rsplit("/", 1)[-1]
    if _ZERO_NAME.match(name) and looks_like_template(head()):
        return "template"
    pattern = excluder(config.exclude + root.exclude).match(rel)
    if pattern is not None:
        return f"excluded by pattern {pattern!r} (exclude option)"
    looks = non_record_name(name, folder)
    data: bytes | None = None
    if looks is None and not _NUMBERED_NAME.match(name) and beside_records():
        # an unnumbered page among numbered records: their table of contents? (a log
        # of unnumbered records is not read for it: each would be read, and each edit
        # would then walk the log again, ADR-0059)
        data = head()
        if looks_like_contents(data):
            looks = "a table of contents"
    if looks is not None:
        if data is None:
            data = head()
        if not has_adr_metadata(data, config.status_headings):
            return _NON_RECORD + looks
    return None


#: A file's first H1, and the titles of a table of contents.
_FIRST_H1 = rx.compile(r"^ {0,3}#[ \t]+([^\n]*?)[ \t#]*$", re.MULTILINE)
_CONTENTS_TITLES = frozenset({"table of contents", "contents", "index", "toc"})
#: A list item that links a Markdown file: ``- [3. Use X](0003-use-x.md)``, ``1. [..](..)``.
_LINK_ITEM = rx.compile(r"[ \t]*(?:[-*+]|\d{1,4}[.)])[ \t]+.*\]\([^()\s]*\.(?:md|markdown)\b")


def looks_like_contents(data: bytes) -> bool:
    """Whether a file's first bytes are a table of contents: a title ``Table of Contents``,
    ``Contents`` or ``Index`` (``# Index``), or a body of only headings and at least two
    list items that link Markdown files (what ``adr generate toc`` writes). A cheap look
    at the text, not a parse."""
    text = data[:TEMPLATE_HEAD].decode("utf-8", "replace")
    title = _FIRST_H1.search(text) if "#" in text else None
    if title is not None and " ".join(title.group(1).split()).lower() in _CONTENTS_TITLES:
        return True
    if "](" not in text:
        return False  # no link at all (one look, in C)
    lines = text.split("\n")
    if len(data) >= TEMPLATE_HEAD:
        lines.pop()  # (the last line read may be cut short)
    items = 0
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "<!--")):
            continue
        if not _LINK_ITEM.match(line):
            return False
        items += 1
    return items >= 2


def non_record_name(name: str, folder: str) -> str | None:
    """What a file's name says it is when it is usually not a record (None: a record's name).

    A numbered name is always a record's (``0012-developer-guide.md``).
    """
    if _NUMBERED_NAME.match(name):
        return None
    stem = name.rsplit(".", 1)[0].lower()
    if stem == folder.lower():
        return "named after its folder"
    for pattern, looks in _NON_RECORD_NAMES:
        if pattern.fullmatch(stem):
            return looks
    return None


@lru_cache(maxsize=8)
def _metadata_pattern(headings: tuple[str, ...]) -> re.Pattern[str]:
    """Status headings, status lines and fields (plain, bold, in a list or a table) and
    the frontmatter key, in the configured languages."""
    words = "|".join(re.escape(h) for h in sorted({"status", *headings}, key=len, reverse=True))
    key = rf"(?:{words})"
    item = r"^[ \t]*(?:[-*+][ \t]+)?"
    bold = r"(?:\*\*|__)"
    forms = (
        rf"^[ \t]*#{{1,6}}[ \t\u00a0]*{key}[ \t:：]*#*[ \t]*$",
        rf"{item}{bold}?{key}{bold}?[ \t]*[:：]",
        rf"{item}{bold}{key}[:：]?{bold}",
        rf"^[ \t]*\|[ \t]*{bold}?{key}{bold}?[ \t]*\|",
    )
    return re.compile("|".join(forms), re.IGNORECASE | re.MULTILINE)


#: A record's name without its ``.md``: ``0016-handle-concurrent-git-operations``.
_BARE_RECORD_NAME = rx.compile(r"\d{3,8}-[A-Za-z0-9][\w-]*$")


def _unsuffixed(path: str, shown: str, headings: tuple[str, ...]) -> Problem | None:
    """ADR013 (a note) for a file named like a record, without ``.md``, that reads like
    one: neither the log nor the site reads it (None: it does not look like a record)."""
    if not has_adr_metadata(_head(path), headings):
        return None
    return Problem(
        "ADR013",
        Severity.INFO,
        "file is named and written like a record but has no .md extension; it is not read",
        path=shown,
        fix=f"rename it to {shown.rsplit('/', 1)[-1]}.md",
    )


def has_adr_metadata(data: bytes, headings: tuple[str, ...]) -> bool:
    """Whether a file's first bytes carry what a record carries: a status heading, a
    status line or ``status:`` key, or an H1 with a record number. A cheap look at the
    text, not a parse."""
    text = data[:TEMPLATE_HEAD].decode("utf-8", "replace")
    return bool(_metadata_pattern(headings).search(text) or _NUMBERED_H1.search(text))


class Excluder:
    """The ``exclude`` globs of one root, matched against root-relative paths.

    A glob without ``/`` matches a file or folder name at any depth (``PROCESS.md``,
    ``*-notes.md``); one with ``/`` matches from the root (``guides/**``, ``/draft.md``).
    ``*`` and ``?`` stay within one name, ``**`` spans folders; a glob that matches a
    folder leaves out everything below it.
    """

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self.patterns = tuple(p.strip() for p in patterns if p.strip())
        self._each = [re.compile(_glob(p)) for p in self.patterns]
        self._any = re.compile("|".join(f"(?:{r.pattern})" for r in self._each) or "(?!)")

    def match(self, rel: str) -> str | None:
        """The first glob that leaves out ``rel``, or None."""
        if not self._any.fullmatch(rel):
            return None
        return next(p for p, r in zip(self.patterns, self._each, strict=True) if r.fullmatch(rel))


@lru_cache(maxsize=32)
def excluder(patterns: tuple[str, ...]) -> Excluder:
    return Excluder(patterns)


def _glob(pattern: str) -> str:
    """A regular expression for one ``exclude`` glob (see :class:`Excluder`)."""
    anchored = "/" in pattern.rstrip("/")
    body = pattern.strip("/")
    out: list[str] = []
    i = 0
    while i < len(body):
        if body.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
            continue
        if body.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        char = body[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (end := body.find("]", i + 2)) != -1:
            inner = body[i + 1 : end]
            negate = inner.startswith("!")
            inner = re.escape(inner[1:] if negate else inner).replace("\\-", "-")
            out.append(f"[{'^' if negate else ''}{inner}]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return ("" if anchored else "(?:[^/]*/)*") + "".join(out) + "(?:/.*)?"


def place(folders: tuple[str, ...], layout: str) -> tuple[bool, int, str | None]:
    """What a file's root-relative folders say about it: (archived, depth, domain).

    ``depth`` counts the folders below the root, ``archive/`` left out; the
    first of them is the domain unless the layout is flat.
    """
    archived = bool(folders) and is_archive(folders[0])
    depth = len(folders) - archived
    domain = (folders[1] if archived else folders[0]) if depth >= 1 and layout != "flat" else None
    return archived, depth, domain


def layout_name(configured: str, has_flat: bool, has_layered: bool) -> str:
    """A root's layout: the configured one, or with ``auto`` what its records show."""
    if configured != "auto":
        return configured
    if has_layered and has_flat:
        return "mixed"
    return "layered" if has_layered else "flat"


def layouts_of(config: Config, files: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each root's layout from its records' (root, root-relative path), as :func:`discover`
    names it."""
    flat: set[str] = set()
    layered: set[str] = set()
    for root, rel in files:
        depth = place(tuple(rel.split("/")[:-1]), config.layout)[1]
        (layered if depth >= 1 else flat).add(root)
    return {
        r.path: layout_name(config.layout, r.path in flat, r.path in layered) for r in config.roots
    }


def locate(config: Config, path: str, data: bytes) -> Found | Excluded | None:
    """What discovery would make of a file at project-relative ``path`` holding ``data``.

    The same rules as :func:`discover` for one file that is not on disk yet (a
    planned edit): a record :class:`Found` in the innermost root that holds it,
    an :class:`Excluded` entry with its reason, or None when no root lists it
    (not Markdown, outside every root, inside the work folder). The file is
    taken to be a plain file, not a symlink.
    """
    name = path.rsplit("/", 1)[-1]
    if not name.lower().endswith(MARKDOWN_SUFFIXES):
        return None
    abspath = config.project_dir / path
    if within(abspath.resolve(), config.work_path.resolve()):
        return None
    best: tuple[RootConfig, str] | None = None
    for root in config.roots:
        base = config.rel(config.root_dir(root))
        prefix = "" if base == "." else base + "/"
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[1])):
            best = (root, prefix)
    if best is None:
        return None
    root, prefix = best
    rel = path[len(prefix) :]
    reason = exclusion_reason(rel, config)
    if reason is None:
        parent = (config.root_dir(root) / rel).parent
        reason = content_reason(
            root, rel, parent.name, config, lambda: data, lambda: _holds_records(parent)
        )
    if reason is not None:
        return Excluded(path, reason)
    archived, _depth, domain = place(tuple(rel.split("/")[:-1]), config.layout)
    return Found(root, os.fspath(abspath), path, rel, domain, archived)


def _holds_records(folder: Path) -> bool:
    """Whether ``folder`` holds a Markdown file with a record's numbered name."""
    try:
        with os.scandir(folder) as it:
            return any(_numbered_markdown(e.name) for e in it)
    except OSError:
        return False


def _numbered_markdown(name: str) -> bool:
    return bool(_NUMBERED_NAME.match(name)) and name.lower().endswith(MARKDOWN_SUFFIXES)


def _missing_root_fix(config: Config) -> str:
    """The fix for a root that does not exist: the folder that looks like the log, if any
    (not one of the other roots, nor inside one)."""
    from . import suggest  # walks the project only when a root is missing

    taken = (config.work_path, *(config.root_dir(r) for r in config.roots))
    found = suggest.record_folder(config.project_dir, config.docs_dir, skip=taken)
    if found is None:
        return "create the folder or remove it from the plugin's roots"
    shown = config.rel(Path(os.path.normpath(config.docs_dir / found)))
    return (
        f"{shown} holds files named like records: write roots: [{found}] in the adr "
        "plugin's options, or create the folder"
    )


def discover(config: Config) -> Discovery:
    result = Discovery()
    root_dirs = {r.path: config.root_dir(r) for r in config.roots}
    project = config.project_dir.resolve()
    work = config.work_path.resolve()
    for root in config.roots:
        base = root_dirs[root.path]
        result.walked.append(os.fspath(base))
        result.depends.append(os.fspath(base))
        if not base.is_dir():
            result.problems.append(
                Problem(
                    "ADR013",
                    Severity.WARNING,
                    f"ADR root '{root.path}' does not exist",
                    path=config.rel(base),
                    fix=_missing_root_fix(config),
                )
            )
            result.layouts[root.path] = layout_name(config.layout, False, False)
            continue
        others = [
            d for p, d in root_dirs.items() if p != root.path and within(d, base) and d != base
        ]
        _walk_root(config, root, base, others, project, work, result)
    order = {r.path: i for i, r in reversed(list(enumerate(config.roots)))}
    result.found.sort(key=lambda f: (order[f.root.path], f.rel))
    result.excluded.sort(key=lambda e: e.path)
    return result


def _walk_root(
    config: Config,
    root: RootConfig,
    base: Path,
    nested: list[Path],
    project: Path,
    work: Path,
    result: Discovery,
) -> None:
    seen_dirs: set[Path] = set()
    walked, depends = result.walked, result.depends

    def head_of(path: str) -> bytes:
        depends.append(path)
        return _head(path)

    has_flat = False
    has_layered = False
    mirrors = frozenset(config.mirrors)

    def visit(folder: Path, rel_parts: tuple[str, ...], folder_reason: str | None) -> None:
        # Paths are plain strings in the loop over entries: on a 10,000-record log,
        # a pathlib object per file costs more than the walk itself.
        nonlocal has_flat, has_layered
        real = folder.resolve()
        shown_dir = config.rel(folder)
        if real in seen_dirs:
            result.problems.append(
                Problem(
                    "ADR015",
                    Severity.WARNING,
                    "symlink loop: this folder was already visited",
                    path=shown_dir,
                    fix="remove the symlink that points back into the ADR root",
                )
            )
            return
        seen_dirs.add(real)
        if rel_parts:
            walked.append(os.fspath(folder))
            depends.append(os.fspath(folder))
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            result.problems.append(
                Problem(
                    "ADR013",
                    Severity.WARNING,
                    f"cannot list folder: {exc.strerror}",
                    path=shown_dir,
                    fix="check the folder's permissions",
                )
            )
            return
        shown_prefix = "" if shown_dir == "." else shown_dir + "/"
        rel_prefix = "".join(part + "/" for part in rel_parts)
        holds: list[bool] = []  # whether the folder holds numbered records, once asked

        def beside_records() -> bool:
            if not holds:  # (the names sort digits first: most often the first answers)
                holds.append(any(_numbered_markdown(e.name) for e in entries))
            return holds[0]

        # a folder of one record (``2022-02-03-tracing/README.md``, images and notes
        # beside it): its README is the record, its other pages are parts of it, and the
        # folder places the record where a file of that name would be
        record_folder = bool(rel_parts) and is_record_folder(rel_parts[-1])
        has_page = record_folder and any(e.name.lower() in FOLDER_PAGES for e in entries)
        archived, inner_depth, domain = place(
            rel_parts[:-1] if has_page else rel_parts, config.layout
        )
        for entry in entries:
            name = entry.name
            shown = shown_prefix + name
            is_link = entry.is_symlink()
            if is_link:
                result.linked = True
                try:
                    target = (folder / name).resolve(strict=True)
                except (OSError, RuntimeError):
                    result.problems.append(
                        Problem(
                            "ADR015",
                            Severity.WARNING,
                            "broken or looping symlink skipped",
                            path=shown,
                            fix="fix or remove the symlink",
                        )
                    )
                    result.excluded.append(Excluded(shown, "symlink-broken"))
                    continue
                if not within(target, project):
                    result.problems.append(
                        Problem(
                            "ADR015",
                            Severity.WARNING,
                            f"symlink points outside the project ({target}); skipped",
                            path=shown,
                            fix="copy the file into the project or remove the symlink",
                        )
                    )
                    result.excluded.append(Excluded(shown, "symlink-outside-project"))
                    continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                continue
            if is_dir:
                path = folder / name
                if any(path == n or within(path, n) for n in nested):
                    result.excluded.append(Excluded(shown + "/", "nested-root"))
                    continue
                if path.resolve() == work or within(path.resolve(), work):
                    result.excluded.append(Excluded(shown + "/", "work-dir"))
                    continue
                # (F821: visit is deleted only once the walk is over, see below)
                reason = _folder_reason(folder_reason, name, mirrors, top=not rel_parts)
                visit(path, (*rel_parts, name), reason)  # noqa: F821
                continue
            if not name.lower().endswith(MARKDOWN_SUFFIXES):
                if "." not in name and _BARE_RECORD_NAME.match(name):
                    unsuffixed = _unsuffixed(entry.path, shown, config.status_headings)
                    if unsuffixed is not None:
                        result.problems.append(unsuffixed)
                continue
            rel_path = rel_prefix + name
            walked.append(entry.path)
            if has_page and name.lower() in FOLDER_PAGES:
                reason = folder_reason  # the record itself
            elif has_page:
                reason = folder_reason or f"a part of the record {rel_parts[-1]}/"
            else:
                reason = folder_reason or _name_reason(name, config, mirrors)
            if reason is None:
                head = partial(head_of, entry.path)  # a str: no Path per file
                reason = content_reason(root, rel_path, folder.name, config, head, beside_records)
            if reason is not None:
                result.excluded.append(Excluded(shown, reason))
                depends.append(entry.path)
                undecodable = _undecodable(entry.path, shown)
                if undecodable is not None:
                    result.problems.append(undecodable)
                continue
            if inner_depth >= 1:
                has_layered = True
            else:
                has_flat = True
            result.found.append(
                Found(
                    root=root,
                    file=entry.path,
                    path=shown,
                    rel=rel_path,
                    domain=domain,
                    archived=archived,
                    symlink=is_link,
                )
            )

    visit(base, (), None)
    # visit refers to itself through its closure: without this the cycle keeps
    # every Found of the walk alive until the garbage collector runs
    del visit
    result.layouts[root.path] = layout_name(config.layout, has_flat, has_layered)
