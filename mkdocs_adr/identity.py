"""Canonical ids and reference resolution (SPEC 3.3).

Two resolvers live here, and nowhere else:

- :class:`Resolver` reads the references one record writes to others (links,
  relation lines), relative to that record's file and root;
- :func:`lookup` (and :class:`References`, for many look-ups on one log) reads
  what a person or an agent types: a command-line argument, a ``--sources``
  token, a tool call. It accepts canonical ids in any case and spacing
  (``ADR-0012``, ``adr-12``, ``ADR 12``, ``ADR0012``), bare numbers in every
  root, other prefixes (``PAY-3``), file paths (relative to the current folder,
  the project, ``docs_dir`` or a root), file stems and, when the caller allows
  it, unit locators (``ADR-0005#D2``, ``ADR-0005@2``). A miss raises
  :class:`UnknownReference` with the hint of :func:`nearest`, the one rule for
  "did you mean"; several matches raise :class:`AmbiguousReference`.
"""

from __future__ import annotations

import contextlib
import functools
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from . import paths, rx
from .errors import UsageError
from .model import Excluded, Record, slot_init

if TYPE_CHECKING:  # parsing reads file names through this module; config imports parsing
    from .config import Config

#: A file name's id: an optional prefix word, then the number (``0012-x``, ``adr-045-x``,
#: ``ADR-0001-x``, ``adr-18``, ``API-001-x``), then a separator or the end of the stem.
_FILE_ID = rx.compile(
    r"^(?:(?P<prefix>[A-Za-z]{2,10})(?P<sep>[-_ ]?))?(?P<num>\d{1,6})(?=[-_ .]|$)"
)
#: A capital letter after a file name's number (``ADR-007-A-x``, ``0007-B-x``): a record
#: written beside the one of that number, whose id keeps the letter (``ADR-0007-A``).
_SUFFIX = rx.compile(r"[-_]([A-Z])(?=[-_ .]|$)")
#: A reference to such a record (``ADR-007-A``, ``ADR 7-A``).
_SUFFIXED_ID = rx.compile(r"([A-Za-z][A-Za-z_]*)[- ]?0*(\d{1,6})-([A-Z])")
#: A date that starts a file name (``2021-09-07-x``): a date, not a number. Eight digits
#: (``20210907-x``, log4brains) are too long for a number already. A year and a
#: two-digit month alone (``2026-01-x``, beside ``2026-02-03-y``) are a date too: read as
#: the number 2026, every record of a month would claim ADR-2026 (docs/adr/0075); so are a
#: year and two numbers that make no day (``2022-21-11-x``, the day before the month).
_DATE_STEM = rx.compile(
    r"^(?:19|20)\d\d[-_.](?:"
    # (any two numbers: ``2022-21-11-x`` writes the day before the month, still a date)
    r"\d{1,2}[-_.]\d{1,2}(?=[-_ .]|$)"
    r"|(?:0[1-9]|1[0-2])(?=[-_ .](?!\d)|$))"
)
#: The prefix word a file name may always carry for the root's own prefix.
GENERIC_PREFIX = "ADR"
_ID = rx.compile(r"^([A-Za-z][A-Za-z0-9_]*)[- ]?0*(\d{1,6})$")
_UNIT = rx.compile(r"^(.*?)#([Dd]\d{1,3})$")
_URL = rx.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
#: A forge's page of one file at a branch or commit (GitHub's, GitLab's ``/-/blob/``):
#: group 1 is the file's path in the repository.
_BLOB = rx.compile(r"https?://[^/\s]+/[^/\s]+/[^/\s]+/(?:-/)?blob/[^/\s]+/([^?#\s]+\.md)$")
#: The number a link's text gives: "3. Use X" (adr-tools), "0003 - Use X" or "0003: Use X";
#: "ADR-0003: Use X" is read by :func:`_label_number` with the root's prefix.
_LINK_TEXT_NUMBER = rx.compile(r"^\s*0*(\d{1,6})(?:[.:]|\s+[-\u2013\u2014]\s|\s*$)")


@slot_init
@dataclass(frozen=True, slots=True)
class FileName:
    """What a record's file name says about its id: THE file-name rule.

    ``prefix`` is the id prefix the name carries (upper-cased), ``None`` when the
    name starts with its number (``0012-x.md``) or names no number at all; ``rest``
    is the stem after the id (``check-thing``), the whole stem when there is none.
    """

    prefix: str | None
    number: int | None
    rest: str
    #: the name's text before the number, as written (``adr-``, ``API-``; empty for ``0012-x``)
    lead: str = ""
    #: how many digits the number is written with (``045`` -> 3)
    width: int = 0
    #: the capital letter after the number (``ADR-007-A-x`` -> ``A``), else empty
    suffix: str = ""


#: A folder named as a record is (``2022-02-03-tracing``, ``0007-use-x``): a number or a
#: day, then a name with a letter in it (a year's folder, ``2024``, is no record's).
_RECORD_FOLDER = rx.compile(r"(?:[A-Za-z]{2,10}[-_ ]?)?\d{1,8}[-_ .][^/]*[^\W\d_][^/]*")
#: The page a folder of its own is published as (MkDocs makes either the folder's index).
FOLDER_PAGES = frozenset({"readme.md", "readme.markdown", "index.md", "index.markdown"})


def is_record_folder(name: str) -> bool:
    """Whether a folder's name is a record's: its ``README.md`` is then that record
    (a log of one folder per record, images and notes beside each)."""
    return _RECORD_FOLDER.fullmatch(name) is not None


def record_name(path: str) -> str:
    """The file name a record at ``path`` is known by: its own, or, for the
    ``README.md`` (or ``index.md``) of a folder named as a record is, the folder's
    (``2022-02-03-tracing/README.md`` is ``2022-02-03-tracing.md``)."""
    folder, _, name = path.rpartition("/")
    if name.lower() in FOLDER_PAGES:
        parent = folder.rpartition("/")[2]
        if parent and is_record_folder(parent):
            return parent + ".md"
    return name


def read_file_name(name: str, known: Iterable[str] = ()) -> FileName:
    """The id shape of the file name ``name`` (a base name, with or without ``.md``).

    A number of one to six digits that starts the name, or follows a prefix word of
    two to ten letters, is the record's number: ``0012-x``, ``12.md``, ``adr-045-x``,
    ``ADR-0001-x``, ``adr-18``, ``API-001-x``. The prefix word counts when it is
    ``ADR`` or one of ``known`` (the roots' prefixes) in any case and spacing, or
    another word joined by ``-`` or ``_`` and written in capitals (``API-001``) or
    followed by a zero-padded number (``api-001``); other words that end in a number
    (``use-2-databases``, ``oauth2-login``) name none. A date (``2021-09-07-x``,
    ``20210907-x``) is not a number: such names are slugs.
    """
    return _read_file_name(name, tuple(known))


@functools.lru_cache(maxsize=32768)
def _read_file_name(name: str, known: tuple[str, ...]) -> FileName:
    # discovery, the title reader, identify and the resolver each ask about one name
    stem = name.rsplit(".", 1)[0] if name.lower().endswith((".md", ".markdown")) else name
    m = _FILE_ID.match(stem)
    if m is None or _DATE_STEM.match(stem):
        return FileName(None, None, stem)
    end, suffix = m.end(), ""
    lettered = _SUFFIX.match(stem, end)
    if lettered is not None:
        end, suffix = lettered.end(), lettered[1]
    rest = stem[end:].lstrip("-_ .")
    lead, width = stem[: m.start("num")], m.end("num") - m.start("num")
    word = m["prefix"]
    if word is None:
        return FileName(None, int(m["num"]), rest, lead, width, suffix)
    own = {GENERIC_PREFIX, *(k.upper() for k in known)}
    if word.upper() in own or (
        m["sep"] in ("-", "_")
        and (word.isupper() or (m["num"].startswith("0") and len(m["num"]) >= 3))
    ):
        return FileName(word.upper(), int(m["num"]), rest, lead, width, suffix)
    return FileName(None, None, stem)


def file_id(name: str, prefix: str) -> tuple[str, int] | None:
    """(id prefix, number) of a record file named ``name`` in a root whose prefix is ``prefix``.

    The prefix is the file name's own (``API-001-x.md`` -> API) or, for a name that
    starts with its number (``0012-x.md``), the root's. ``None``: no number (a slug).
    """
    found = read_file_name(name, (prefix,))
    if found.number is None:
        return None
    return (found.prefix or prefix.upper(), found.number)


def file_record_id(name: str, prefix: str) -> str | None:
    """The id a record file named ``name`` takes in a root whose prefix is ``prefix``:
    the canonical id of :func:`file_id`, with the capital letter written after the number
    (``ADR-007-A-x.md`` -> ``ADR-0007-A``, beside ``ADR-0007``); ``None`` for a slug."""
    found = read_file_name(name, (prefix,))
    if found.number is None:
        return None
    rid = canonical(found.prefix or prefix, found.number)
    return f"{rid}-{found.suffix}" if found.suffix else rid


def file_number(name: str) -> int | None:
    """The number a record's file name gives (``0012-x.md``, ``adr-045-x.md`` -> 12, 45)."""
    return read_file_name(name).number


def canonical(prefix: str, number: int) -> str:
    return f"{prefix.upper()}-{number:04d}"


#: An explicit id that is not a prefixed number: what the source manifest's schema takes
#: for an id (``$defs/id`` in ``schemas/current-sources.schema.json``): 1 to 200
#: characters, none of them whitespace, ``#``, ``/`` or ``\\``.
_EXPLICIT_ID = rx.compile(r"[^#\s/\\]{1,200}")


def explicit_id_fault(text: str) -> str | None:
    """Why a record's explicit ``id:`` cannot be its id, or None when it can be.

    ``ADR 12`` reads as ADR-0012 (:func:`parse_id`); any other id is kept as written
    and must be one the source manifest can hold, or publishing would write a
    manifest its own schema rejects.
    """
    if parse_id(text) is not None or _EXPLICIT_ID.fullmatch(text):
        return None
    if len(text) > 200:
        return f"it is {len(text):,} characters long (at most 200)"
    bad = next((c for c in text if c in "#/\\" or c.isspace()), "")
    return f"it contains {bad!r} (an id has no whitespace, '#', '/' or '\\')"


def parse_id(text: str) -> tuple[str, int] | None:
    m = _ID.match(text.strip())
    return (m.group(1).upper(), int(m.group(2))) if m else None


def id_keys(text: str) -> list[str]:
    """The canonical ids typed or written text may be: ``ADR 45``, ``ADR-045``,
    ``adr-45`` and ``ADR045`` all give ``ADR-0045`` (``PAY2-3`` keeps its digit);
    ``ADR-7-A`` gives ``ADR-0007-A``, a lettered record's id."""
    keys = {canonical(*p) for p in (parse_id(text), _letter_id(text)) if p is not None}
    lettered = _lettered_id(text.strip().upper())  # ``adr-7-a`` typed for ADR-0007-A
    if lettered is not None:
        keys.add(lettered)
    return sorted(keys)


def _lettered_id(text: str) -> str | None:
    """The id of a lettered record ``text`` is written as (``ADR-007-A`` -> ``ADR-0007-A``),
    else None."""
    m = _SUFFIXED_ID.fullmatch(text) if text[-2:-1] == "-" else None
    return f"{canonical(m[1], int(m[2]))}-{m[3]}" if m is not None else None


#: Words a file name's subject shares with any other (``use``, ``the``) and one-letter
#: placeholders (``0003-x.md``): they say nothing of which record a name means.
_FILLER = frozenset(
    {"a", "an", "and", "as", "at", "be", "by", "for", "from", "in", "into", "is", "of"}
    | {"on", "or", "the", "to", "use", "using", "with", "adr", "old", "new"}
)
_WORD_SPLIT = rx.compile(r"[^0-9a-z]+")


def _subject_words(stem: str) -> set[str]:
    """The words of a file name's subject: its stem lower-cased, without numbers, fillers
    and one-letter words."""
    return {
        w
        for w in _WORD_SPLIT.split(stem.lower())
        if len(w) > 1 and not w.isdigit() and w not in _FILLER
    }


@slot_init
@dataclass(frozen=True, slots=True)
class Resolution:
    """Where a reference points. ``ids`` has one entry when unambiguous."""

    ids: tuple[str, ...] = ()
    unit: str | None = None
    external: bool = False  # a URL or free text: not an ADR
    escapes: bool = False  # a relative link that leaves the project
    #: Resolved from the name of a file that exists: the file name won over the link's
    #: text, which :meth:`Resolver.text_id` reads when the caller asks (ADR022).
    by_file: bool = False
    #: A link to a page that is no record by where it is (outside every root) or by what
    #: discovery found (a file it left out): ``external`` too, and no mistake.
    page: bool = False
    #: Named by the number of a file that does not exist, whose name and link text share no
    #: word with the file and title of the record that has the number (a log numbered
    #: again since): no record is named then, and a stated relation is not found.
    elsewhere: bool = False

    @property
    def id(self) -> str | None:
        return self.ids[0] if len(self.ids) == 1 else None


class Resolver:
    """Resolves references written in one record to record ids."""

    def __init__(
        self,
        records: Iterable[Record],
        prefixes: dict[str, str],
        *,
        folders: Iterable[str] = ("",),
        pages: Iterable[str] = (),
    ) -> None:
        """``prefixes`` maps each root (as configured) to its prefix; ``folders`` are the
        roots' project-relative folders and ``pages`` the project-relative paths of the
        Markdown files under them that are not records (discovery's excluded)."""
        self.prefixes = prefixes
        self.pages = frozenset(pages)
        # (a root at the project's top holds every path)
        self._folders = tuple("" if f in ("", ".") else f.rstrip("/") + "/" for f in folders)
        self._outside = tuple(f for f in self._folders if f.startswith("../"))
        self.by_path: dict[str, Record] = {}
        self.by_id: dict[str, list[Record]] = {}
        self.by_stem: dict[str, list[Record]] = {}
        self.by_number: dict[tuple[str, int], list[Record]] = {}
        for rec in records:
            self.by_path[rec.path] = rec
            self.by_id.setdefault(rec.id.upper(), []).append(rec)
            stem = posixpath.basename(rec.path).rsplit(".", 1)[0].lower()
            self.by_stem.setdefault(stem, []).append(rec)
            if rec.number is not None:
                self.by_number.setdefault((rec.root, rec.number), []).append(rec)
        self._ids_memo: dict[str, tuple[str, ...]] = {}
        self._memo: dict[tuple[str, str], Resolution] = {}

    def _ids(self, key: str) -> tuple[str, ...]:
        key = key.upper()
        found = self._ids_memo.get(key)
        if found is None:
            recs = self.by_id.get(key, [])
            found = self._ids_memo[key] = tuple(sorted({r.id for r in recs})) if recs else ()
        return found

    def _slugged(self, key: str, root: str) -> tuple[str, ...]:
        """The one record of ``root`` whose id is canonical id ``key`` followed by a slug
        (``ADR-0048-teardown`` for ``ADR-0048``: an ``id:`` that names its file); none when
        no record, or more than one, has such an id (a number two files share stays
        unresolved, as it was: only the whole id tells them apart)."""
        parsed = parse_id(key)
        if parsed is None:
            return ()
        head = key.upper() + "-"
        found = {
            r.id for r in self.by_number.get((root, parsed[1]), ()) if r.id.upper().startswith(head)
        }
        return tuple(found) if len(found) == 1 else ()

    def _number(self, number: int, prefix: str, root: str) -> tuple[str, ...]:
        """What a bare number names from a record of ``root``: the id of the root's
        prefix, else every record of the root with that number (``API-001`` and
        ``ARC-002`` side by side); several ids when it is ambiguous."""
        return self._ids(canonical(prefix, number)) or tuple(
            sorted({r.id for r in self.by_number.get((root, number), [])})
        )

    def resolve(self, ref: str, *, source: Record, label: str = "") -> Resolution:
        # An id, a number or a URL reads the same from every record of a root:
        # remembered, since a log mentions the same few ids over and over.
        prefix = self.prefixes.get(source.root, "ADR")
        found = self._memo.get((ref, source.root))
        if found is not None:
            return found
        resolution, relative = self._resolve(ref, source, label, prefix)
        if not relative:
            self._memo[(ref, source.root)] = resolution
        return resolution

    def _resolve(
        self, ref: str, source: Record, label: str, prefix: str
    ) -> tuple[Resolution, bool]:
        """The resolution, and whether it depends on the referring file and link text."""
        text = ref.strip().strip("<>")
        lettered = _lettered_id(text)
        if lettered is not None:  # ``ADR-007-A``: the record of that letter, if there is one
            found = self._ids(lettered)
            if found:
                return Resolution(found), False
            text = text[:-2]  # no such record: the letter names a part of ADR-007, as before
        if _CANONICAL_ID.fullmatch(text):
            # a canonical id (``ADR-0012``, as every prose mention is written down): the
            # one key id_keys gives it is itself; or the record of that number whose id
            # goes on with its slug (``id: ADR-0012-use-x``), as its own log writes it
            return Resolution(self._ids(text) or self._slugged(text, source.root)), False
        unit: str | None = None
        m = _UNIT.match(text) if "#" in text else None
        if m and not text.startswith("#"):
            text, unit = m.group(1), m.group(2).upper()
        elif "#" in text:
            # an anchor in the target page (``0004-x.md#context``) is not part of its path
            text = text.split("#", 1)[0]
        if not text:
            return Resolution(external=True), False
        if ":" in text and _URL.match(text):
            # a forge's page of a file of this project: the record, when the path is one
            blob = _BLOB.match(text) if "/blob/" in text else None
            rec = self.by_path.get(blob.group(1)) if blob is not None else None
            if rec is not None:
                return Resolution((rec.id,), unit, by_file=True), False
            return Resolution(external=True), False
        # a link to a file
        if text.lower().endswith((".md", ".markdown")) or "/" in text:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(source.path), text))
            if (target.startswith("../") or target == "..") and not target.startswith(
                self._outside
            ):  # (a root outside the project, `--root` run elsewhere, holds its files)
                return Resolution(escapes=True), True
            # the file name first; then, for a file that does not exist, the number in
            # its name; then the number the link's text names
            rec = self.by_path.get(target)
            name = posixpath.basename(target)
            stem = name.rsplit(".", 1)[0].lower()
            if rec is None and len(self.by_stem.get(stem, ())) == 1:
                rec = self.by_stem[stem][0]
            if rec is not None:
                return Resolution((rec.id,), unit, by_file=True), True
            if stem in self.by_stem:
                return Resolution(tuple(sorted({r.id for r in self.by_stem[stem]})), unit), True
            # adr-tools reads the target as the number in the file name; a
            # misspelled name still names its number, and so may the link text
            named = file_id(name, prefix)
            if named is not None:
                found = self._ids(canonical(*named))
                if found:
                    # a misspelled name still names its record by number: compared
                    # with the link text like an exact one (ADR022)
                    elsewhere = len(found) == 1 and self._other_subject(stem, label, found[0])
                    return Resolution(found, unit, by_file=True, elsewhere=elsewhere), True
            number = _label_number(label, prefix) if label else None
            if number is not None:
                return Resolution(self._number(number, prefix, source.root), unit), True
            if self._is_page(target):
                return Resolution(external=True, page=True), True
            return Resolution(()), True
        # an id: ADR-0012, ADR 12, ADR045, PAY-3, a bare number, or a stem
        if text.upper() in self.by_id:  # a record's own id, written whole (a slug id too)
            return Resolution(self._ids(text), unit), False
        keys = id_keys(text)
        if keys:
            ids = tuple(sorted({i for key in keys for i in self._ids(key)}))
            if not ids:
                ids = tuple(sorted({i for key in keys for i in self._slugged(key, source.root)}))
            if not ids:
                # ``AD041`` in a log of ADR-0041: the root's prefix cut short, a number
                # of the root (no record has the id the letters spell)
                numbers = {n for key in keys if (n := _short_form(key, prefix)) is not None}
                if len(numbers) == 1:
                    ids = self._number(numbers.pop(), prefix, source.root)
            return Resolution(ids, unit), False
        if text.isdigit() and len(text) <= 6:
            return Resolution(self._number(int(text), prefix, source.root), unit), False
        if text.lower() in self.by_stem:
            return Resolution(
                tuple(sorted({r.id for r in self.by_stem[text.lower()]})), unit
            ), False
        if text.upper() in self.by_id:
            return Resolution(self._ids(text), unit), False
        # free text ("the payments feature"): not an ADR reference
        return Resolution(external=" " in text or not re.search(r"\d", text)), False

    def _other_subject(self, stem: str, label: str, rid: str) -> bool:
        """Whether a missing file's name ``stem`` and the link's text ``label`` share no
        word of their subject with the file and title of record ``rid``
        (``0005-wallet-balance`` and ``0005-build-with-tsc``); a renamed record keeps one
        (``0002-old-name`` and ``0002-new-name``)."""
        recs = self.by_id.get(rid.upper(), [])
        if len(recs) != 1:
            return False
        linked = _subject_words(stem)
        rec = recs[0]
        found = _subject_words(posixpath.basename(rec.path).rsplit(".", 1)[0])
        if not linked or not found or not linked.isdisjoint(found):
            return False
        return _subject_words(label).isdisjoint(found | _subject_words(rec.title))

    def _is_page(self, target: str) -> bool:
        """Whether a linked file that is no record is a page of the docs, not a record
        misnamed: it lies outside every root, or discovery left it out. (A missing page
        outside the roots is the host's broken link to report, not a relation's.)"""
        return target in self.pages or not target.startswith(self._folders)

    def in_series(self, ref: str) -> bool:
        """Whether ``ref`` is written as a record of this log is: an id of a root's prefix
        or of ``ADR`` (``ADR-0099``, ``adr 99``, ``ADR-0099-slug``, ``AD099``), a bare
        number, or a Markdown file's path. A relation to anything else that names no
        record (``RB-0012-runbook``, ``12_GITOPS_GUIDE``, ``notes/2026-01-21-dns``) points
        at another kind of document."""
        text = ref.strip().strip("<>").split("#", 1)[0]
        if text.isdigit() or text.lower().endswith((".md", ".markdown")):
            return True
        m = _SERIES_HEAD.match(text.rpartition("/")[2])
        if m is None:
            return False
        word = m.group(1).upper()
        return any(
            word == own or _cut_short(word, own)
            for own in {GENERIC_PREFIX, *(p.upper() for p in self.prefixes.values())}
        )

    def text_id(self, rid: str, label: str) -> str | None:
        """Another record that a link's text ``label`` names by number, when the link's file
        name named record ``rid`` (``[ADR-0012](0011-x.md)``); None when they agree."""
        recs = self.by_id.get(rid.upper(), [])
        if not label or len(recs) != 1 or recs[0].number is None:
            return None
        rec = recs[0]
        prefix = self.prefixes.get(rec.root, "ADR")
        pid = parse_id(rec.id)
        if pid is not None and pid[1] == rec.number:
            prefix = pid[0]
        number = _label_number(label, prefix)
        if number is None or number == rec.number:
            return None
        other = self._ids(canonical(prefix, number))
        return other[0] if len(other) == 1 and other[0] != rec.id else None


def _short_form(key: str, prefix: str) -> int | None:
    """The number canonical id ``key`` names when its prefix is ``prefix`` cut short
    to two letters or more (``AD-0041`` for a root of ``ADR``), else None."""
    parsed = parse_id(key)
    if parsed is None:
        return None
    short, number = parsed
    return number if _cut_short(short, prefix.upper()) else None


def _cut_short(word: str, prefix: str) -> bool:
    """Whether capitals ``word`` are ``prefix`` cut short to two letters or more
    (``AD`` of ``ADR``)."""
    return 2 <= len(word) < len(prefix) and prefix.startswith(word)


def _label_number(label: str, prefix: str) -> int | None:
    """The record number a link's text names: for a link to a misspelled file, and to
    compare with the file a link names (:meth:`Resolver.text_id`).

    Only the root's own prefix (``ADR-0004``, ``ADR 4``) or a leading
    ``4.`` counts: words that merely end in digits (``t112``) are not ids.
    """
    m = _LINK_TEXT_NUMBER.match(label)
    if m:
        return int(m.group(1))
    m = re.search(rf"(?<![\w-]){re.escape(prefix)}[- ]?0*(\d{{1,6}})\b", label, re.IGNORECASE)
    return int(m.group(1)) if m else None


# --------------------------------------------------------------------- typed references

#: How many ids a "nearest ids" hint names.
NEAREST = 3
#: How many records an ambiguity lists before "and N more".
LISTED = 30
#: Typed text longer than this is shortened in messages (and ignored past it for hints).
MAX_SHOWN = 120

#: An id written as :func:`canonical` writes it: capitals, a dash, four digits or more
#: without a leading zero. :func:`id_keys` reads it as itself and nothing else.
_CANONICAL_ID = rx.compile(r"[A-Z]{1,10}-(?:\d{4}|[1-9]\d{4,5})")
#: The prefix word an id opens with, before its number (``ADR-0099``, ``adr 9``, ``AD099``).
_SERIES_HEAD = rx.compile(r"([A-Za-z]{1,10})[-_ ]?\d")
_LETTER_ID = rx.compile(r"^([A-Za-z][A-Za-z_]*)[- ]?0*(\d{1,6})$")  # ADR0012: no digits in prefix
_NUMBER = rx.compile(r"^[0-9]{1,6}$")
_LOCATOR = rx.compile(r"^(?P<ref>.+?)(?:#(?P<unit>[Dd]\d{1,3}))?(?:@(?P<seg>[0-9]{1,6}))?$")
_MARKDOWN = (".md", ".markdown")


class Catalog(Protocol):
    """What the typed-reference resolver reads from a log (a ``Log`` is one)."""

    @property
    def config(self) -> Config: ...

    @property
    def records(self) -> Sequence[Record]: ...

    @property
    def excluded(self) -> Sequence[Excluded]: ...

    @property
    def by_id(self) -> Mapping[str, Sequence[Record]]: ...

    @property
    def by_path(self) -> Mapping[str, Record]: ...


def shown(text: str) -> str:
    """``text`` safe to print unquoted: control characters escaped, long text shortened."""
    text = text.strip()
    if len(text) > MAX_SHOWN:
        text = text[:MAX_SHOWN] + "…"
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def quoted(text: str) -> str:
    """``text`` quoted for a message, as :func:`repr` does, shortened like :func:`shown`."""
    text = text.strip()
    return repr(text[:MAX_SHOWN] + "…" if len(text) > MAX_SHOWN else text)


def hint(near: Sequence[str], label: str = "nearest ids") -> str:
    """The one wording of a "did you mean": ``nearest ids: A, B`` (empty when none)."""
    return f"{label}: {', '.join(near)}" if near else ""


class BadReference(UsageError):
    """Typed text that names no usable record (exit 2). ``text`` is what was typed."""

    def __init__(self, text: str, message: str, *, fix: str = "") -> None:
        self.text = text
        super().__init__(message, fix=fix)


class UnknownReference(BadReference):
    """Typed text that names no record; ``nearest`` are ids the user may have meant."""

    def __init__(
        self,
        text: str,
        nearest: Sequence[str] = (),
        *,
        excluded: Excluded | None = None,
    ) -> None:
        self.nearest = tuple(nearest)
        self.excluded = excluded
        if excluded is not None:
            super().__init__(
                text,
                f"{excluded.path} is not a record ({excluded.reason})",
                fix="ask about a record id or file; `mkdocs-adr plan` lists what is excluded",
            )
            return
        near = hint(self.nearest)
        super().__init__(
            text,
            f"no record has the id or path {quoted(text)}" + (f"; {near}" if near else ""),
            fix="give an id (ADR-0012), a number (12) or a record's file path",
        )

    def hint(self, label: str = "nearest ids") -> str:
        return hint(self.nearest, label)


class AmbiguousReference(BadReference):
    """Typed text that names more than one record: a number in two roots, an id claimed
    twice, a stem used in two folders. ``records`` are all of them, by path."""

    def __init__(self, text: str, records: Sequence[Record]) -> None:
        self.records = tuple(sorted(records, key=lambda r: r.path))
        listed = ", ".join(f"{r.id} ({r.path})" for r in self.records[:LISTED])
        more = len(self.records) - LISTED
        super().__init__(
            text,
            f"{quoted(text)} is ambiguous: it names {listed}"
            + (f" and {more} more" if more > 0 else ""),
            fix=f"give the file path instead, e.g. {self.records[0].path}",
        )

    @property
    def ids(self) -> tuple[str, ...]:
        """The distinct ids among the records (one when a single id is claimed twice)."""
        return tuple(sorted({r.id for r in self.records}))


@dataclass(frozen=True)
class Found:
    """The record typed text names, and the unit (``D2``) or segment (``@2``) it points at."""

    record: Record
    unit: str | None = None
    segment: int | None = None


class References:
    """Resolves typed references against one log; build once for many look-ups."""

    def __init__(self, log: Catalog) -> None:
        self.log = log
        self._stems: dict[str, list[Record]] | None = None
        self._numbers: dict[tuple[str, int], list[Record]] | None = None

    @property
    def stems(self) -> dict[str, list[Record]]:
        """Records by lower-cased file stem (``0012-use-x``)."""
        if self._stems is None:
            self._stems = {}
            for rec in self.log.records:
                self._stems.setdefault(_stem(rec.path), []).append(rec)
        return self._stems

    def lookup(
        self,
        text: str,
        *,
        unit_ok: bool = False,
        partial: bool = False,
        among: Callable[[Record], bool] | None = None,
    ) -> Found:
        """The one record ``text`` names, or :class:`BadReference` saying why not.

        Archived records resolve like any other; callers that refuse them say so.

        Args:
            text: what was typed.
            unit_ok: accept a unit or segment locator (``ADR-0005#D2``, ``ADR-0005@2``).
            partial: accept part of a file name when nothing else matches (adr-tools does).
            among: the records a miss's nearest-id hint may name (default: all).
        """
        raw = text.strip()
        if not raw:
            raise BadReference(text, "an empty reference names no record", fix="give an id")
        ref, unit, segment = raw, None, None
        found = self._matches(raw, partial)
        if not found:
            m = _LOCATOR.match(raw)
            if m is not None and (m["unit"] or m["seg"]):
                ref = m["ref"].strip()
                if not unit_ok:
                    raise BadReference(
                        text,
                        f"{quoted(raw)} names a part of a record; give the whole record",
                        fix=f"give {shown(ref)} instead",
                    )
                unit = f"D{int(m['unit'][1:])}" if m["unit"] else None
                segment = int(m["seg"]) if m["seg"] else None
                found = self._matches(ref, partial)
        if not found:
            excluded = self._excluded(ref)
            near = self.nearest(ref, among=among) if excluded is None else []
            raise UnknownReference(ref, near, excluded=excluded)
        if len(found) > 1:
            raise AmbiguousReference(ref, found)
        return Found(found[0], unit, segment)

    def _matches(self, text: str, partial: bool) -> list[Record]:
        """Every record ``text`` names by its first kind of match that finds any."""
        log = self.log
        lower = text.lower()
        if "/" in text or "\\" in text or lower.endswith(_MARKDOWN):
            rec = self._by_path(text)
            if rec is not None:
                return [rec]
            if "/" in text or "\\" in text:
                return []
        exact = log.by_id.get(text.upper())
        if exact:
            return _unique(exact)
        for step in (self._by_parsed_id, self._by_number):
            hits = step(text)
            if hits:
                return hits
        stem = lower.rsplit(".", 1)[0] if lower.endswith(_MARKDOWN) else lower
        if stem in self.stems:
            return _unique(self.stems[stem])
        if partial:
            return [r for r in log.records if lower in posixpath.basename(r.path).lower()]
        return []

    def _by_parsed_id(self, text: str) -> list[Record]:
        return _unique([r for k in id_keys(text) for r in self.log.by_id.get(k, [])])

    def _by_number(self, text: str) -> list[Record]:
        """A bare number, in every root: the id of the root's prefix with that number,
        else every record of the root with that number (a root whose file names carry
        their own prefixes, ``API-001`` beside ``ARC-002``)."""
        if not _NUMBER.match(text):
            return []
        number = int(text)
        if self._numbers is None:
            self._numbers = {}
            for rec in self.log.records:
                if rec.number is not None:
                    self._numbers.setdefault((rec.root, rec.number), []).append(rec)
        found: list[Record] = []
        for root in self.log.config.roots:
            here = self._numbers.get((root.path, number), [])
            own = [r for r in here if r.id.upper() == canonical(root.prefix, number)]
            found += own or here
        return _unique(found)

    def _candidates(self, text: str) -> list[str]:
        """The project-relative paths ``text`` may mean, most likely first.

        Relative to the current folder, the project, ``docs_dir`` and each root, or
        absolute inside the project. The path rule is :mod:`mkdocs_adr.paths`: a
        path it refuses (``..`` above the typed path, outside the project, a NUL)
        raises :class:`BadReference`. A record's own path is always accepted.
        """
        posix = text.replace("\\", "/")
        if posix in self.log.by_path:
            return [posix]
        config = self.log.config
        project = config.project_dir
        try:
            if paths.is_absolute(posix):
                found = [paths.from_project(posix, project)]
            else:
                own = paths.relative(posix)
                bases = [project, config.docs_dir, *(config.root_dir(r) for r in config.roots)]
                with contextlib.suppress(OSError):  # the current folder may have been removed
                    bases.insert(0, Path.cwd())
                found = []
                for base in bases:
                    with contextlib.suppress(paths.UnsafePath):  # a base outside the project
                        prefix = paths.from_project(str(base), project)
                        found.append(paths.relative(posixpath.join(prefix, own)))
        except paths.UnsafePath as exc:
            reason = (
                "leaves the project folder ('..' above it)" if exc.kind == "escapes" else exc.reason
            )
            raise BadReference(
                text,
                f"{quoted(text)} {reason}",
                fix=f"give a path inside the project folder {project.as_posix()}, "
                "relative to it or absolute",
            ) from None
        return list(dict.fromkeys(paths.disk_case(project, rel) for rel in found))

    def _by_path(self, text: str) -> Record | None:
        by_path = self.log.by_path
        return next((by_path[c] for c in self._candidates(text) if c in by_path), None)

    def _excluded(self, text: str) -> Excluded | None:
        """The excluded file a path names, so a miss can say why it is not a record."""
        if not ("/" in text or "\\" in text or text.lower().endswith(_MARKDOWN)):
            return None
        try:
            wanted = set(self._candidates(text))
        except BadReference:
            return None
        return next((e for e in self.log.excluded if e.path.rstrip("/") in wanted), None)

    def nearest(
        self,
        text: str,
        *,
        among: Callable[[Record], bool] | None = None,
        n: int = NEAREST,
    ) -> list[str]:
        """Ids the user may have meant by ``text``: THE "did you mean" rule.

        For an id or a number: the closest numbers first (same prefix when one was
        typed), then ids and file stems spelled alike (:mod:`difflib`, ignoring
        case); for anything else spelling first, then the number its file name
        starts with. ``among`` limits the ids named (unarchived ones, say).
        """
        import difflib  # only a miss asks: a build that resolves every link never does

        key = text.strip()[:MAX_SHOWN].replace("\\", "/")
        pool = [r for r in self.log.records if among is None or among(r)]
        ids = sorted({r.id for r in pool})
        numbered: list[tuple[int, str]] = []
        target = parse_id(key) or _letter_id(key)
        prefix: str | None = target[0] if target else None
        number = target[1] if target else (int(key) if _NUMBER.match(key) else None)
        id_like = number is not None
        if number is None:
            number = file_number(posixpath.basename(key))
        if number is not None:
            for rid in ids:
                p = parse_id(rid)
                if p is not None and (prefix is None or p[0] == prefix):
                    numbered.append((abs(p[1] - number), rid))
            numbered.sort()
        by_number = [rid for _, rid in numbered[:n]]
        lower_ids = {rid.lower(): rid for rid in ids}
        spelled = [
            lower_ids[m]
            for m in difflib.get_close_matches(key.lower(), list(lower_ids), n=n, cutoff=0.6)
        ]
        stems: dict[str, str] = {}
        for rec in pool:
            stems.setdefault(_stem(rec.path), rec.id)
        stem_key = _stem(key) if key.lower().endswith(_MARKDOWN) else key.lower()
        spelled += [
            stems[m] for m in difflib.get_close_matches(stem_key, list(stems), n=n, cutoff=0.6)
        ]
        ordered = by_number + spelled if id_like else spelled + by_number
        return list(dict.fromkeys(ordered))[:n]


def lookup(
    log: Catalog,
    text: str,
    *,
    unit_ok: bool = False,
    partial: bool = False,
    among: Callable[[Record], bool] | None = None,
) -> Found:
    """The one record ``text`` names (see :meth:`References.lookup`)."""
    return References(log).lookup(text, unit_ok=unit_ok, partial=partial, among=among)


def nearest(
    log: Catalog,
    text: str,
    *,
    among: Callable[[Record], bool] | None = None,
    n: int = NEAREST,
) -> list[str]:
    """Ids near ``text`` (see :meth:`References.nearest`)."""
    return References(log).nearest(text, among=among, n=n)


def _letter_id(text: str) -> tuple[str, int] | None:
    """``ADR0012`` read as ADR and 12 (:func:`parse_id` reads a digit-bearing prefix)."""
    m = _LETTER_ID.match(text.strip())
    return (m.group(1).upper(), int(m.group(2))) if m else None


def _stem(path: str) -> str:
    return posixpath.basename(path).rsplit(".", 1)[0].lower()


def _unique(records: Iterable[Record]) -> list[Record]:
    return list({r.path: r for r in records}.values())
