"""Match translation mirrors (``adr/zh/...``, ``x.zh.md``) to their original records."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import lazy
from ..log import Log
from ..model import Record

if TYPE_CHECKING:
    from .. import identity
else:  # a log without mirrors never numbers one (docs/adr/0060)
    identity = lazy.module("mkdocs_adr.identity")


@dataclass(frozen=True)
class Mirror:
    path: str  # project-relative
    lang: str
    original: Record | None


def _root_of(log: Log, path: str) -> tuple[str, str] | None:
    """(project-relative root path, root-relative rest) for the deepest root holding path."""
    best: tuple[str, str] | None = None
    for root in log.roots:
        prefix = root.path.rstrip("/") + "/"
        if path.startswith(prefix) and (best is None or len(root.path) > len(best[0])):
            best = (root.path, path[len(prefix) :])
    return best


def match(log: Log) -> list[Mirror]:
    """Every mirror the discovery excluded, with its original when one is unambiguous.

    Tried in order: ``x.<lang>.md`` beside ``x.md``; the same path without the mirror
    folder (``adr/zh/platform/0001-x.md`` -> ``adr/platform/0001-x.md``); the only
    record of the root with the same file name; the only one with the same number.
    """
    mirrors = set(log.config.mirrors)
    by_path = log.by_path
    out: list[Mirror] = []
    for ex in log.excluded:
        if ex.reason != "mirror":
            continue
        found = _root_of(log, ex.path)
        if found is None:
            continue
        root_path, rest = found
        parts = rest.split("/")
        name = parts[-1]
        stem, _, ext = name.rpartition(".")
        lang = ""
        candidates: list[str] = []
        if "." in stem and stem.rsplit(".", 1)[1] in mirrors:
            base, lang = stem.rsplit(".", 1)
            candidates.append(posixpath.join(posixpath.dirname(ex.path), f"{base}.{ext}"))
            name = f"{base}.{ext}"
        folders = [p for p in parts[:-1] if p in mirrors]
        if folders:
            lang = lang or folders[0]
            kept = [p for p in parts[:-1] if p not in mirrors]
            candidates.append("/".join([root_path, *kept, name]))
        original = next((by_path[c] for c in candidates if c in by_path), None)
        if original is None:
            in_root = [r for r in log.records if r.path.startswith(root_path + "/")]
            same_name = [r for r in in_root if posixpath.basename(r.path) == name]
            if len(same_name) == 1:
                original = same_name[0]
            else:
                number = identity.file_number(name)
                same_number = [r for r in in_root if number is not None and r.number == number]
                if len(same_number) == 1:
                    original = same_number[0]
        out.append(Mirror(ex.path, lang or "?", original))
    return out
