"""Find the record files of each root; read no record content.

Discovery walks every configured root, applies the exclusion rules of SPEC 2
and returns sorted :class:`Found` entries, the excluded files with their
reasons, and the problems met on the way (symlinks leaving the project,
symlink loops). The same tree always gives the same answer in the same order.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .config import Config, RootConfig
from .model import Excluded, Problem, Severity

MARKDOWN_SUFFIXES = (".md", ".markdown")
ARCHIVE = "archive"
_TEMPLATE_HINT = re.compile(
    r"\{(short title|title|problem statement|status|date|name)|\[short title|"
    r"\{proposed \|",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Found:
    """A record file: where it is and what its place says about it."""

    root: RootConfig
    abspath: Path
    path: str  # project-relative, POSIX
    rel: str  # root-relative, POSIX
    domain: str | None
    archived: bool
    symlink: bool = False


@dataclass
class Discovery:
    found: list[Found] = field(default_factory=list)
    excluded: list[Excluded] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    layouts: dict[str, str] = field(default_factory=dict)


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def exclusion_reason(rel: str, config: Config) -> str | None:
    """Why a root-relative Markdown path is not a record, from its name alone."""
    parts = rel.split("/")
    name = parts[-1]
    lower = name.lower()
    folders = parts[:-1]
    if any(f in config.mirrors for f in folders):
        return "mirror"
    if any(f.startswith((".", "_")) for f in folders):
        return "draft"
    stem = name.rsplit(".", 1)[0]
    if lower in ("readme.md", "readme.markdown"):
        return "readme"
    views = (config.index_page, config.current_page)
    if (name in views or lower in (v.lower() for v in views)) and (
        lower != "index.md" or name == config.index_page
    ):
        return "generated-view"
    if lower in ("index.md", "index.markdown"):
        return "index"
    if name.startswith((".", "_")) or lower.endswith((".draft.md", ".draft.markdown")):
        return "draft"
    if lower in ("template.md", "template.markdown") or stem.lower().endswith("-template"):
        return "template"
    lang = stem.rsplit(".", 1)[-1] if "." in stem else None
    if lang and lang in config.mirrors:
        return "mirror"
    return None


def _looks_like_template(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            head = fh.read(8192)
    except OSError:
        return False
    return bool(_TEMPLATE_HINT.search(head.decode("utf-8", "replace")))


def discover(config: Config) -> Discovery:
    result = Discovery()
    root_dirs = {r.path: config.root_dir(r) for r in config.roots}
    project = config.project_dir.resolve()
    work = config.work_path.resolve()
    for root in config.roots:
        base = root_dirs[root.path]
        if not base.is_dir():
            result.problems.append(
                Problem(
                    "ADR013",
                    Severity.WARNING,
                    f"ADR root '{root.path}' does not exist",
                    path=config.rel(base),
                    fix="create the folder or remove it from the plugin's roots",
                )
            )
            result.layouts[root.path] = config.layout if config.layout != "auto" else "flat"
            continue
        others = [
            d for p, d in root_dirs.items() if p != root.path and _inside(d, base) and d != base
        ]
        _walk_root(config, root, base, others, project, work, result)
    result.found.sort(key=lambda f: ([r.path for r in config.roots].index(f.root.path), f.rel))
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
    has_flat = False
    has_layered = False

    def visit(folder: Path, rel_parts: tuple[str, ...]) -> None:
        nonlocal has_flat, has_layered
        real = folder.resolve()
        if real in seen_dirs:
            result.problems.append(
                Problem(
                    "ADR015",
                    Severity.WARNING,
                    "symlink loop: this folder was already visited",
                    path=config.rel(folder),
                    fix="remove the symlink that points back into the ADR root",
                )
            )
            return
        seen_dirs.add(real)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            result.problems.append(
                Problem(
                    "ADR013",
                    Severity.WARNING,
                    f"cannot list folder: {exc.strerror}",
                    path=config.rel(folder),
                    fix="check the folder's permissions",
                )
            )
            return
        for entry in entries:
            path = folder / entry.name
            rel_path = "/".join((*rel_parts, entry.name))
            shown = config.rel(path)
            is_link = entry.is_symlink()
            if is_link:
                try:
                    target = path.resolve(strict=True)
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
                if not _inside(target, project):
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
                if any(path == n or _inside(path, n) for n in nested):
                    result.excluded.append(Excluded(shown + "/", "nested-root"))
                    continue
                if path.resolve() == work or _inside(path.resolve(), work):
                    result.excluded.append(Excluded(shown + "/", "work-dir"))
                    continue
                visit(path, (*rel_parts, entry.name))
                continue
            if not entry.name.lower().endswith(MARKDOWN_SUFFIXES):
                continue
            reason = exclusion_reason(rel_path, config)
            if reason is None and re.match(r"0+[-_]", entry.name) and _looks_like_template(path):
                reason = "template"
            if reason is not None:
                result.excluded.append(Excluded(shown, reason))
                continue
            parts = rel_path.split("/")
            archived = parts[0] == ARCHIVE and len(parts) > 1
            inner = parts[1:] if archived else parts
            domain = inner[0] if len(inner) > 1 and config.layout != "flat" else None
            if len(inner) > 1:
                has_layered = True
            else:
                has_flat = True
            result.found.append(
                Found(
                    root=root,
                    abspath=path,
                    path=shown,
                    rel=rel_path,
                    domain=domain,
                    archived=archived,
                    symlink=is_link,
                )
            )

    visit(base, ())
    if config.layout != "auto":
        result.layouts[root.path] = config.layout
    elif has_layered and has_flat:
        result.layouts[root.path] = "mixed"
    elif has_layered:
        result.layouts[root.path] = "layered"
    else:
        result.layouts[root.path] = "flat"
