"""Every project-relative path rule, and the URLs MkDocs gives pages.

A *project-relative* path is the only form a path takes inside mkdocs-adr: in
the log, in plans, journals, receipts and manifests, in output. It is POSIX
(``/``), relative to the project folder (the folder of ``mkdocs.yml``, or
``--root``), and never leaves it. One rule decides what such a path is:

- a backslash is a separator (``a\\b`` is ``a/b``); ``.`` and empty segments
  drop out; ``..`` goes up one folder and is refused when nothing is left to
  go up from;
- a path that is absolute (``/x``, ``//server/share``, ``\\\\server``), names
  a Windows drive (``C:/x``, ``C:x``), starts at a home folder (``~``,
  ``~user``), holds a NUL character, or is longer than :data:`MAX_CHARS` is
  refused;
- nothing else is: spaces, ``#``, ``%``, non-ASCII letters and long
  components are plain names. Whitespace is part of a name; callers that take
  typed text strip it first.

:func:`normalize` applies the rule (``None`` when it refuses), :func:`relative`
does the same and says why, :func:`is_normalized` checks a path that must
already be in normal form (a manifest's, a plan's), :func:`from_project` also
takes an absolute path that lies inside the project, and :func:`inside_project`
gives the file to open, refusing a path that escapes through a symlink.

The docs folder is a project-relative path too (``docs``, or ``""`` when it is
the project folder): :func:`docs_relative` and :func:`project_relative`
convert between project-relative paths and MkDocs' ``src_uri``.

A root may lie outside the docs folder but never outside the project
(``roots: [../doc/adr]``): :func:`climbing` is the rule for a path typed
relative to the docs folder (leading ``..`` kept, refused when it leaves the
project, :func:`from_docs`); such a root is *mounted* in the site under a URL
prefix (:func:`default_mount` by default), and :func:`site_src` gives the
``src_uri`` of any project-relative file, inside the docs folder or in a mount;
:func:`page_url` is MkDocs' URL scheme for a page, with and without
``use_directory_urls``.

A path an agent's tool is given (the read guard's input) is neither: :func:`typed`
takes it as a program running in a folder would (``~`` expanded, relative to that
folder) and :func:`real` resolves ``..`` and symlinks, so two spellings of one file
compare equal.

This module sits below everything else: it imports nothing of the package
but :mod:`errors`, and nothing of MkDocs.
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal
from urllib.parse import quote

from .errors import RefusedError

#: The longest normalized path accepted (the manifest schema's ``maxLength``).
MAX_CHARS = 1024
#: The suffixes MkDocs reads as Markdown pages (``mkdocs.utils.markdown_extensions``).
MARKDOWN_SUFFIXES = (".markdown", ".mdown", ".mkdn", ".mkd", ".md")

_DRIVE = re.compile(r"[A-Za-z]:")

Reason = Literal["nul", "absolute", "drive", "home", "escapes", "too-long", "outside"]

_TEXT: dict[str, str] = {
    "nul": "contains a NUL character",
    "absolute": "is absolute",
    "drive": "names a drive (a Windows absolute path)",
    "home": "starts with '~' (a home folder)",
    "escapes": "leaves its folder ('..' above it)",
    "too-long": f"is longer than {MAX_CHARS} characters",
    "outside": "is outside the project folder",
}


class UnsafePath(ValueError):
    """A path the rule refuses; ``kind`` says which part of the rule, ``reason`` in words."""

    def __init__(self, path: str, kind: Reason, reason: str = "") -> None:
        self.path = path
        self.kind: Reason = kind
        self.reason = reason or _TEXT[kind]
        super().__init__(f"path {path!r} {self.reason}")


# --------------------------------------------------------------------- the rule


#: A path already in normal form that the rule accepts (:func:`relative` at once): names
#: between single slashes, none of them ``.`` or ``..``, the first not a drive or ``~``.
_PLAIN = re.compile(r"(?![A-Za-z]:|~)(?!\.\.?(?:/|$))[^/\\\x00]+(?:/(?!\.\.?(?:/|$))[^/\\\x00]+)*")


def relative(path: str) -> str:
    """``path`` in normal form (``""`` for the folder itself), or :class:`UnsafePath`."""
    if len(path) <= MAX_CHARS and _PLAIN.fullmatch(path):
        return path  # (most paths a program asks about; the same answer as _relative)
    return _relative(path)


def _relative(path: str) -> str:
    if "\x00" in path:
        raise UnsafePath(path, "nul")
    text = path.replace("\\", "/")
    if text.startswith("/"):
        raise UnsafePath(path, "absolute")
    if _DRIVE.match(text):
        raise UnsafePath(path, "drive")
    if text.startswith("~"):
        raise UnsafePath(path, "home")
    parts: list[str] = []
    for part in text.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise UnsafePath(path, "escapes")
            parts.pop()
            continue
        parts.append(part)
    # ``a/../C:/x`` and ``a/../~/x`` must not normalize to what the rule refuses
    if parts and _DRIVE.match(parts[0]):
        raise UnsafePath(path, "drive")
    if parts and parts[0].startswith("~"):
        raise UnsafePath(path, "home")
    out = "/".join(parts)
    if len(out) > MAX_CHARS:
        raise UnsafePath(path, "too-long")
    return out


def receipts_dir(work_dir: Path) -> Path:
    """Where apply and archive leave their receipts, in the work dir (one JSON file each)."""
    return work_dir / "receipts"


def normalize(path: str) -> str | None:
    """``path`` in normal form (``""`` for the folder itself); ``None`` when refused."""
    try:
        return relative(path)
    except UnsafePath:
        return None


def is_normalized(value: object) -> bool:
    """Whether ``value`` is a non-empty path already in normal form.

    For paths a program wrote (manifests, plans, receipts): ``./a``, ``a//b``,
    ``a/`` or ``a\\b`` are not rewritten into something else, they are wrong.
    """
    return isinstance(value, str) and value != "" and normalize(value) == value


def is_absolute(path: str) -> bool:
    """Whether ``path`` is absolute on POSIX or Windows (``/x``, ``\\\\srv``, ``C:/x``, ``C:x``)."""
    text = path.replace("\\", "/")
    return text.startswith("/") or _DRIVE.match(text) is not None


def within(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or below it, compared as written (resolve first
    where symlinks count)."""
    return path == folder or path.is_relative_to(folder)


def _under(path: Path, folder: Path) -> str | None:
    try:
        rel = path.relative_to(folder)
    except ValueError:
        return None
    return rel.as_posix() if str(rel) != "." else ""


def from_project(path: str, project_dir: Path) -> str:
    """A path given relative to the project, or absolute inside it, in normal form.

    An absolute path counts as inside when it lies under ``project_dir`` as
    given or as resolved (through symlinks). Raises :class:`UnsafePath`.
    """
    if "\x00" in path:
        raise UnsafePath(path, "nul")
    if is_absolute(path):
        absolute = Path(os.path.normpath(path.replace("\\", "/")))
        rel = _under(absolute, project_dir)
        if rel is None:
            rel = _under(absolute, project_dir.resolve())
        if rel is None:
            where = project_dir.resolve().as_posix()
            raise UnsafePath(path, "outside", f"is outside the project folder {where}")
        path = rel
    return relative(path)


def typed(text: str, cwd: Path) -> Path:
    """The path ``text`` names for a program running in ``cwd``: ``~`` and ``~user``
    expanded, a relative path joined to ``cwd``; nothing resolved yet (see :func:`real`)."""
    expanded = os.path.expanduser(text)
    return Path(expanded) if os.path.isabs(expanded) else cwd / expanded


def real(path: Path) -> Path:
    """``path`` absolute, with ``.``, ``..`` and every symlink resolved as far as they
    exist (never raising for a loop; a missing tail is kept as written)."""
    return Path(os.path.realpath(path))


def inside_project(project_dir: Path, rel: str) -> Path:
    """The file ``rel`` names, after refusing anything that could leave the project.

    Refuses (:class:`~mkdocs_adr.errors.RefusedError`) what :func:`relative`
    refuses, the project folder itself, and a path whose folder resolves
    outside the project through a symlink.
    """
    norm = normalize(rel)
    if not norm:
        raise RefusedError(
            f"path {rel!r} is absolute or leaves the project; refused",
            fix="paths in plans and manifests are relative to the project folder",
        )
    path = project_dir / norm
    try:
        path.parent.resolve().relative_to(project_dir.resolve())
    except ValueError:
        raise RefusedError(
            f"path {rel!r} resolves outside the project (through a symlink); refused"
        ) from None
    except (OSError, RuntimeError) as exc:  # a symlink loop, a name too long
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise RefusedError(f"path {rel!r} cannot be resolved ({reason}); refused") from None
    return path


# --------------------------------------------------------------------- case on disk


@functools.lru_cache(maxsize=32)
def case_insensitive(folder: Path) -> bool:
    """Whether the file system under ``folder`` ignores case (macOS, Windows)."""
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                swapped = entry.name.swapcase()
                if swapped != entry.name:
                    other = folder / swapped
                    return other.exists() and os.path.samefile(other, entry.path)
    except OSError:
        return False
    return False


def disk_case(project_dir: Path, rel: str) -> str:
    """``rel`` with each existing component spelled as the file system has it.

    Only on a case-insensitive file system: there ``SRC/Payments`` *is*
    ``src/payments``; on a case-sensitive one they are different paths.
    """
    if not rel or not case_insensitive(project_dir):
        return rel
    current = project_dir
    out: list[str] = []
    parts = rel.split("/")
    for i, part in enumerate(parts):
        try:
            names = os.listdir(current)
        except OSError:
            return "/".join(out + parts[i:])
        if part not in names:
            folded = [n for n in names if n.casefold() == part.casefold()]
            if len(folded) == 1:
                part = folded[0]
            else:
                return "/".join([*out, *parts[i:]])
        out.append(part)
        current = current / part
    return "/".join(out)


# --------------------------------------------------------------------- docs_dir and URLs


def docs_relative(project_rel: str, docs: str) -> str | None:
    """A project-relative path as one below the docs folder (MkDocs' ``src_uri``).

    ``docs`` is the docs folder, project-relative (``""`` or ``"."`` when it is
    the project folder). ``None`` when the path is refused or not below it.
    """
    norm, folder = normalize(project_rel), normalize(docs)
    if norm is None or folder is None:
        return None
    if not folder:
        return norm
    prefix = folder + "/"
    return norm[len(prefix) :] if norm.startswith(prefix) else None


def climbing(path: str) -> str:
    """``path`` in normal form, where leading ``..`` segments are kept (``../doc/adr``).

    The rule of :func:`relative` otherwise: absolute paths, drives, ``~``, NUL and
    over-long paths are refused (:class:`UnsafePath`). A ``..`` after a name goes
    back up (``a/../../b`` is ``../b``).
    """
    if "\x00" in path:
        raise UnsafePath(path, "nul")
    if is_absolute(path):
        relative(path)  # raises, saying how it is absolute
    ups = 0
    parts: list[str] = []
    for part in path.replace("\\", "/").split("/"):
        if part == "..":
            if parts:
                parts.pop()
            else:
                ups += 1
        elif part not in ("", "."):
            parts.append(part)
    try:
        below = relative("/".join(parts))
    except UnsafePath as exc:
        raise UnsafePath(path, exc.kind) from None
    return "/".join([".."] * ups + ([below] if below else []))


def from_docs(path: str, docs: str) -> str:
    """The project-relative form of ``path``, typed relative to the docs folder ``docs``
    (project-relative); :class:`UnsafePath` (``outside``) when it leaves the project."""
    norm = climbing(path)
    try:
        return relative(posixpath.join(docs, norm) if docs else norm)
    except UnsafePath:
        raise UnsafePath(path, "outside", "leaves the project folder") from None


def to_docs(project_rel: str, docs: str) -> str:
    """A project-relative path relative to the docs folder (``../doc/adr``)."""
    rel = posixpath.relpath(project_rel or ".", docs or ".")
    return "" if rel == "." else rel


def default_mount(path: str) -> str:
    """Where a root outside the docs folder is published: its path typed relative to
    the docs folder without the leading ``..`` segments (``../doc/adr`` -> ``doc/adr``)."""
    parts = climbing(path).split("/")
    while parts and parts[0] == "..":
        parts.pop(0)
    return "/".join(parts)


def site_src(project_rel: str, docs: str, mounts: Sequence[tuple[str, str]]) -> str | None:
    """The ``src_uri`` a project-relative file has in the site: below the docs folder
    as :func:`docs_relative` says, or in a mounted root ``(folder, url)`` as
    ``<url>/<path in the folder>``; ``None`` when the site does not publish it."""
    pairs = tuple((folder, url) for folder, url in mounts) if mounts else ()
    return _site_src(project_rel, docs, pairs)


@functools.lru_cache(maxsize=1 << 16)  # asked for every record on every build
def _site_src(project_rel: str, docs: str, mounts: tuple[tuple[str, str], ...]) -> str | None:
    inside = docs_relative(project_rel, docs)
    if inside is not None:
        return inside
    norm = normalize(project_rel)
    if norm is None:
        return None
    # the innermost mount: a root nested in another is published where its own url says
    for folder, url in sorted(mounts, key=lambda m: -len(m[0])):
        if norm == folder or norm.startswith(folder + "/"):
            rest = norm[len(folder) :].lstrip("/")
            return f"{url}/{rest}" if url and rest else url or rest
    return None


def mounted_file(src_uri: str, mounts: Sequence[tuple[str, str]]) -> str | None:
    """The project-relative file a mounted ``src_uri`` names (the inverse of
    :func:`site_src` for mounts: ``doc/adr/0001-x.md`` -> ``doc/adr/0001-x.md`` with
    the mount ``("doc/adr", "doc/adr")``); ``None`` when no mount holds it."""
    norm = normalize(src_uri)
    if not norm:
        return None
    for folder, url in sorted(mounts, key=lambda m: -len(m[1])):
        if url and norm.startswith(url + "/"):
            return f"{folder}/{norm[len(url) + 1 :]}" if folder else norm[len(url) + 1 :]
    return None


def project_relative(src_uri: str, docs: str) -> str | None:
    """A path below the docs folder (``src_uri``) as a project-relative one; ``None`` if refused."""
    norm, folder = normalize(src_uri), normalize(docs)
    if norm is None or folder is None:
        return None
    return f"{folder}/{norm}" if folder and norm else folder or norm


def is_markdown(src_uri: str) -> bool:
    """Whether MkDocs reads the file as a page."""
    return src_uri.endswith(MARKDOWN_SUFFIXES)


def page_dest(src_uri: str, use_directory_urls: bool) -> str:
    """The file MkDocs writes for ``src_uri``, relative to ``site_dir`` (``File.dest_uri``).

    ``a/b.md`` becomes ``a/b/index.html`` (``a/b.html`` without directory
    URLs); ``index.md`` and ``README.md`` become their folder's ``index.html``.
    Files that are not pages are copied as they are.
    """
    if not is_markdown(src_uri):
        return src_uri
    parent, filename = posixpath.split(src_uri)
    stem = posixpath.splitext(filename)[0]
    name = "index" if stem == "README" else stem
    if not use_directory_urls or name == "index":
        return posixpath.join(parent, name + ".html")
    return posixpath.join(parent, name, "index.html")


def page_url(src_uri: str, use_directory_urls: bool) -> str:
    """The URL MkDocs gives ``src_uri``, relative to the site root (``File.url``).

    With directory URLs a page is a folder (``a/b/``, ``a/`` for
    ``a/index.md``, ``./`` for the home page); without, a file (``a/b.html``,
    ``a/index.html``). Percent-encoded as MkDocs does.
    """
    url = page_dest(src_uri, use_directory_urls)
    folder, filename = posixpath.split(url)
    if use_directory_urls and filename == "index.html":
        url = (folder or ".") + "/"
    return quote(url)


def site_url(project_rel: str, docs: str, use_directory_urls: bool) -> str | None:
    """:func:`page_url` of a project-relative file; ``None`` outside the docs folder."""
    src = docs_relative(project_rel, docs)
    return None if src is None else page_url(src, use_directory_urls)


def relative_url(from_src: str, to_src: str, use_directory_urls: bool) -> str:
    """The href on page ``from_src`` that reaches page ``to_src`` (both ``src_uri``)."""
    here, there = page_url(from_src, use_directory_urls), page_url(to_src, use_directory_urls)
    base = here if here.endswith("/") else posixpath.dirname(here)
    rel = posixpath.relpath(there, base.rstrip("/") or ".")
    return rel + ("/" if there.endswith("/") and not rel.endswith("/") else "")


def source_link(from_src: str, to_src: str) -> str:
    """The link written in the source of ``from_src`` that reaches the file ``to_src``
    (both ``src_uri``), as a Markdown author writes it (``../b/c.md``); a host that turns
    such links into page URLs (Zensical, for raw HTML too) is handed these."""
    return quote(posixpath.relpath(to_src, posixpath.dirname(from_src) or "."))
