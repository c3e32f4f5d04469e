"""Where the records probably are, when a configured ADR root does not exist.

A new user who adds ``plugins: [adr]`` to a project that keeps its records in
``doc/adr`` beside ``docs`` (adr-tools') or ``docs/architecture/decisions`` gets the
default root, ``docs/adr``, and no record (MADR's own ``docs/decisions`` the default
finds: :data:`mkdocs_adr.config.DECISIONS_ROOT`). The ADR013 warning for the
missing root then names the folder that holds the most files named like records
(``0012-x.md``, ``adr-045-x.md``, ``20210907-x.md``), as a ``roots:`` entry.

The walk runs only for a missing root, stays within the project, skips hidden,
built and installed folders, and looks at a bounded number of folders.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .identity import read_file_name

#: How deep below the project folder, and how many folders in all, the walk looks.
MAX_DEPTH = 4
MAX_FOLDERS = 2000
#: How many record-like files make a folder worth naming.
MIN_RECORDS = 2
#: Folders no ADR log lives in.
_SKIP = frozenset({"node_modules", "site", "venv", "__pycache__", "build", "dist", "target"})
#: A log4brains or dated name: ``20210907-x.md``, ``2021-09-07-x.md``.
_DATED = re.compile(r"^(?:\d{8}|\d{4}-\d{2}-\d{2})[-_]")


def looks_like_record(name: str) -> bool:
    """Whether a file name is shaped like an ADR file's: Markdown, numbered or dated."""
    if not name.lower().endswith((".md", ".markdown")):
        return False
    return read_file_name(name).number is not None or _DATED.match(name) is not None


def record_folder(project: Path, docs_dir: Path, *, skip: tuple[Path, ...] = ()) -> str | None:
    """The folder under ``project`` holding the most record-like files (at least
    :data:`MIN_RECORDS`; the shallower one on a tie), as a root path relative to
    ``docs_dir`` (``decisions``, ``../doc/adr``); None when no folder qualifies."""
    best: tuple[int, int, str] | None = None  # (-count, depth, path)
    skipped = {os.path.normpath(p) for p in skip}
    top = os.path.normpath(project)
    for seen, (folder, dirs, files) in enumerate(os.walk(top), 1):
        depth = 0 if folder == top else os.path.relpath(folder, top).count(os.sep) + 1
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".")
            and d not in _SKIP
            and os.path.join(folder, d) not in skipped
            and depth < MAX_DEPTH
        )
        count = sum(1 for name in files if looks_like_record(name))
        if count >= MIN_RECORDS:
            key = (-count, depth, folder)
            if best is None or key < best:
                best = key
        if seen >= MAX_FOLDERS:
            break
    if best is None:
        return None
    return Path(os.path.relpath(best[2], os.path.normpath(docs_dir))).as_posix()
