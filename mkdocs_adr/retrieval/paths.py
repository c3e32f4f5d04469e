"""Query paths and ``affected-paths`` globs: normalization and matching.

Query paths are project-relative (the folder of ``mkdocs.yml``, or the current
folder with ``--root``), use ``/``, never leave the project, and take the case
the file system gives them. ``affected-paths`` patterns are project-relative
globs: ``*`` and ``?`` stay inside one folder, ``**`` spans folders, ``[abc]``
is a class, and a pattern that names a folder covers everything below it.
"""

from __future__ import annotations

import functools
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from .. import rx
from ..paths import UnsafePath, disk_case, from_project

_GLOB_CHARS = rx.compile(r"[*?\[]")


class PathRefused(ValueError):
    """A query path that cannot be used, with the reason and what to do."""

    def __init__(self, raw: str, reason: str, fix: str) -> None:
        super().__init__(f"--path {raw!r}: {reason}")
        self.raw = raw
        self.reason = reason
        self.fix = fix


@dataclass(frozen=True)
class QueryPath:
    """A normalized query path. ``folder`` when it names a folder (or ends with /)."""

    path: str
    folder: bool


def normalize_query_path(raw: str, project_dir: Path) -> QueryPath:
    """Make ``raw`` a project-relative POSIX path, or refuse it with a reason.

    The path rule is :func:`mkdocs_adr.paths.from_project`; this adds what a
    typed path needs: surrounding blanks dropped, the case the file system
    gives it, and whether it names a folder.
    """
    text = raw.strip()
    if not text:
        raise PathRefused(raw, "is empty", "pass a file or folder path inside the project")
    try:
        rel_path = from_project(text, project_dir)
    except UnsafePath as exc:
        if exc.kind == "nul":
            raise PathRefused(raw, exc.reason, "pass a plain file path") from None
        if exc.kind == "escapes":
            raise PathRefused(
                raw,
                "leaves the project folder ('..' above it)",
                f"pass a path relative to the project folder {project_dir.resolve().as_posix()}",
            ) from None
        raise PathRefused(
            raw, exc.reason, "pass a path inside the project, relative to that folder or absolute"
        ) from None
    rel_path = disk_case(project_dir, rel_path)
    trailing = text.replace("\\", "/").endswith("/")
    return QueryPath(rel_path, trailing or rel_path == "" or _is_dir(project_dir / rel_path))


def _is_dir(path: Path) -> bool:
    """``Path.is_dir``, but no rather than an error for a name the OS cannot take."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


# --------------------------------------------------------------------- patterns


@dataclass(frozen=True)
class Pattern:
    raw: str
    norm: str
    regex: re.Pattern[str]
    #: The folders before the first wildcard: how specific the pattern is.
    static: str


def _segment_regex(segment: str) -> str:
    out: list[str] = []
    i, n = 0, len(segment)
    while i < n:
        ch = segment[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            j = i + 1
            if j < n and segment[j] in "!^":
                j += 1
            if j < n and segment[j] == "]":
                j += 1
            while j < n and segment[j] != "]":
                j += 1
            if j >= n:
                out.append(re.escape(ch))
            else:
                body = segment[i + 1 : j]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def compile_pattern(raw: str) -> Pattern | None:
    """A project-relative glob; ``None`` when it leaves the project or is empty."""
    text = raw.strip().replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    text = text.lstrip("/")
    if text.endswith("/"):
        text += "**"
    segments = [s for s in text.split("/") if s not in ("", ".")]
    if not segments or ".." in segments:
        return None
    parts: list[str] = []
    static: list[str] = []
    literal = True
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == "**":
            literal = False
            parts.append(".*" if last else "(?:[^/]+/)*")
            continue
        if _GLOB_CHARS.search(seg):
            literal = False
        elif literal:
            static.append(seg)
        parts.append(_segment_regex(seg) + ("" if last else "/"))
    body = "".join(parts)
    # a pattern that names a folder covers what is inside it
    regex = re.compile(f"(?:{body})(?:/.*)?", re.DOTALL)
    return Pattern(raw, "/".join(segments), regex, "/".join(static))


def match(pattern: Pattern, query: QueryPath) -> bool:
    """Whether a query path falls under the pattern, or holds part of what it covers.

    ``src/payments`` holds ``src/payments/ledger/**``: asking about a folder
    finds the decisions about what is inside it, whether or not it exists yet.
    """
    q = query.path
    if not q or pattern.regex.fullmatch(q):
        return True
    return pattern.static == q or pattern.static.startswith(q + "/")


def is_record_path(text: str) -> bool:
    return posixpath.splitext(text)[1].lower() in (".md", ".markdown")
