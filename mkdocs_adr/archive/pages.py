"""The pages a relocation reads: every Markdown page MkDocs would see, and their URLs."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..config import Config, read_mkdocs_yml
from ..errors import AdrError
from ..paths import page_url as site_page_url
from ..views import index as index_view


@dataclass(frozen=True)
class Page:
    path: str
    abspath: Path
    symlink: bool


def scan_pages(config: Config) -> list[Page]:
    """Every Markdown page under ``docs_dir`` and under the roots outside it (which the
    site publishes too, :attr:`Config.mounts`) as MkDocs would see it, sorted.

    Hidden files and folders are left out (MkDocs leaves them out too), and
    so is the work dir; symlinked folders are not followed. With ``--root`` the
    docs folder may be a whole repository: installed packages (``node_modules``,
    a virtualenv) are not pages of it.
    """
    work = config.work_path.resolve()
    out: dict[str, Page] = {}
    folders = [config.docs_dir, *(config.project_dir / f for f, _url in config.mounts)]
    for folder, dirs, files in (step for top in folders for step in os.walk(top)):
        here = Path(folder)
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".")
            and d not in ("node_modules", "site-packages", "__pycache__")
            and not (here / d).is_symlink()
            and not (here / d / "pyvenv.cfg").exists()
            and (here / d).resolve() != work
        )
        for name in sorted(files):
            if name.startswith(".") or not name.lower().endswith((".md", ".markdown")):
                continue
            path = here / name
            out[config.rel(path)] = Page(config.rel(path), path, path.is_symlink())
    return sorted(out.values(), key=lambda p: p.path)


def pages_to_read(config: Config, moved: list[str]) -> list[Page]:
    """The pages whose links a relocation checks: every page of the docs folder but the
    generated INDEX files (regenerated instead), and every moved file even outside it."""
    generated = generated_indexes(config)
    pages = [p for p in scan_pages(config) if p.path not in generated]
    scanned = {p.path for p in pages}
    for path in moved:
        if path not in scanned:
            abspath = config.project_dir / path
            pages.append(Page(path, abspath, abspath.is_symlink()))
    return pages


def generated_indexes(config: Config) -> set[str]:
    """The roots' INDEX files that mkdocs-adr owns: regenerated, not link-edited."""
    out = set()
    for root in config.roots:
        path = config.root_dir(root) / config.index_page
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if index_view.is_generated(text):
            out.add(config.rel(path))
    return out


def page_url(config: Config, path: str, directory_urls: bool) -> str | None:
    """The site URL (relative to the site root) MkDocs gives the page at ``path``
    (in a root outside ``docs_dir``: under its URL prefix)."""
    src = config.src_uri(path)
    return None if src is None else site_page_url(src, directory_urls)


def directory_urls(config: Config) -> bool:
    if config.config_file is None:
        return True
    try:
        value = read_mkdocs_yml(config.config_file).get("use_directory_urls", True)
    except AdrError:
        return True
    return value is not False
