"""Link rewriting in one page: which local links a relocation breaks, and their new spelling.

A page that moves gets its outbound links re-relativised; a page that stays
gets its links to moved files pointed at their new place. Links to a moved
page's published URL (``../0003-x/``) are not rewritten: they reach the
redirect page, or are a conflict when redirects are off. Nothing here writes.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import links as mdlinks
from ..fsops import exists
from ..paths import docs_relative, mounted_file, site_src, site_url
from .findings import Conflict, Risk
from .moves import FileMove
from .pages import Page


@dataclass(frozen=True)
class LinkEdit:
    """One link destination that changes. ``page`` is where the page is now."""

    page: str
    page_after: str
    line: int
    old: str
    new: str
    form: str  # inline | reference | html | nav
    direction: str  # inbound | outbound | both
    id: str
    target: str  # project-relative target after the plan
    target_exists: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "page": self.page,
            "page_after": self.page_after,
            "line": self.line,
            "old": self.old,
            "new": self.new,
            "form": self.form,
            "direction": self.direction,
            "id": self.id,
            "target": self.target,
            "target_exists": self.target_exists,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LinkEdit:
        return cls(
            page=data["page"],
            page_after=data["page_after"],
            line=data["line"],
            old=data["old"],
            new=data["new"],
            form=data["form"],
            direction=data["direction"],
            id=data["id"],
            target=data["target"],
            target_exists=bool(data["target_exists"]),
        )


@dataclass(frozen=True)
class MoveMap:
    """A plan's moves as path lookups: where each file goes, and whose file it is."""

    mapping: Mapping[str, str]  # source -> target
    owner: Mapping[str, str]  # source and target -> record id

    @classmethod
    def of(cls, moves: Sequence[FileMove]) -> MoveMap:
        owner = {m.source: m.id for m in moves}
        owner.update({m.target: m.id for m in moves})
        return cls({m.source: m.target for m in moves}, owner)

    def after(self, path: str) -> str:
        return self.mapping.get(path, path)


@dataclass(frozen=True)
class Rewriter:
    """What rewriting a page needs to know besides the page itself."""

    moves: MoveMap
    docs_rel: str  # the docs folder, project-relative
    project_dir: Path  # to tell whether a link's target exists
    directory_urls: bool
    redirects: bool  # whether old URLs of moved records get a redirect page
    #: roots outside the docs folder and their URL prefixes (:attr:`Config.mounts`)
    mounts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class PageRewrite:
    """The outcome for one page: its link edits, its new bytes (``None``: unchanged)."""

    edits: tuple[LinkEdit, ...] = ()
    content: bytes | None = None
    conflicts: tuple[Conflict, ...] = ()
    risks: tuple[Risk, ...] = ()


@dataclass
class _Found:
    edits: list[LinkEdit] = field(default_factory=list)
    spans: list[tuple[int, int, str]] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    risks: list[Risk] = field(default_factory=list)


def rewrite_page(
    rw: Rewriter, page: Page, data: bytes, prefer: Sequence[tuple[str, str]] = ()
) -> PageRewrite:
    """Every link of ``page`` (bytes ``data``) that the moves break, rewritten.

    ``prefer`` (restore only) lists ``(written now, written before)`` destination
    pairs, so that a restore puts back the exact spelling an archive replaced.
    """
    path_after = rw.moves.after(page.path)
    moving = path_after != page.path
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return PageRewrite(conflicts=_undecodable(rw, page, data, moving))
    found = _Found()
    wanted = list(prefer)
    for link in mdlinks.find_links(text):
        if not mdlinks.is_local(link.path):
            continue
        target = mdlinks.resolve(page.path, link.path, rw.docs_rel)
        if mdlinks.escapes(target):
            if moving:
                found.conflicts.append(_escaping(rw, page, link))
            continue
        target_after = rw.moves.after(target)
        site_form = _site_form(rw, target, target_after)
        if site_form is not None:
            target, target_after, new = site_form[0], site_form[1], ""
            src_after = docs_relative(path_after, rw.docs_rel)
            if src_after is not None:
                new = mdlinks.rewrite_destination(link, site_form[2], src_after, "")
        elif not moving and target_after == target:
            _url_form(rw, found, page, link, target)
            continue
        else:
            new = _preferred(rw, link, path_after, target_after, wanted) or ""
        if not new:
            new = mdlinks.rewrite_destination(link, target_after, path_after, rw.docs_rel)
        if new == link.raw:
            continue
        owner = rw.moves.owner
        rid = owner.get(target) if target_after != target else owner.get(page.path)
        if page.symlink:
            found.conflicts.append(_symlinked(page, link, rid, new))
            continue
        found.edits.append(
            LinkEdit(
                page=page.path,
                page_after=path_after,
                line=link.line,
                old=link.raw,
                new=new,
                form=link.form,
                direction=_direction(moving, target_after != target),
                id=rid or "",
                target=target_after,
                target_exists=exists(rw.project_dir / target) or target in rw.moves.mapping,
            )
        )
        found.spans.append((link.start, link.end, new))
    content = mdlinks.apply_edits(text, found.spans).encode("utf-8") if found.spans else None
    return PageRewrite(tuple(found.edits), content, tuple(found.conflicts), tuple(found.risks))


def _site_form(rw: Rewriter, target: str, target_after: str) -> tuple[str, str, str] | None:
    """A link from a docs page to a record of a root outside the docs folder written by
    its path in the site (``doc/adr/0001-x.md``, under the root's URL prefix) rather
    than on disk: the moved file it names, where it goes, and that place in the site."""
    if target_after != target or not rw.mounts or exists(rw.project_dir / target):
        return None
    src = docs_relative(target, rw.docs_rel)
    named = mounted_file(src, rw.mounts) if src is not None else None
    if named is None or rw.moves.after(named) == named:
        return None
    after = rw.moves.after(named)
    after_src = site_src(after, rw.docs_rel, rw.mounts)
    return (named, after, after_src) if after_src else None


def _direction(page_moves: bool, target_moves: bool) -> str:
    if page_moves and target_moves:
        return "both"
    return "outbound" if page_moves else "inbound"


def _preferred(
    rw: Rewriter,
    link: mdlinks.Link,
    path_after: str,
    target_after: str,
    wanted: list[tuple[str, str]],
) -> str | None:
    """The spelling an archive replaced, if it still reaches the target; used up once."""
    for n, (now, before) in enumerate(wanted):
        if (
            now == link.raw
            and mdlinks.resolve(path_after, mdlinks.split_target(before)[0], rw.docs_rel)
            == target_after
        ):
            del wanted[n]
            return before
    return None


def _undecodable(rw: Rewriter, page: Page, data: bytes, moving: bool) -> tuple[Conflict, ...]:
    names = {posixpath.basename(s).encode() for s in rw.moves.mapping}
    if not (moving or any(n in data for n in names)):
        return ()
    return (
        Conflict(
            page.path,
            None,
            rw.moves.owner.get(page.path),
            "is not UTF-8 text, so its links cannot be checked or rewritten",
            fix="convert the file to UTF-8, then plan again",
        ),
    )


def _escaping(rw: Rewriter, page: Page, link: mdlinks.Link) -> Conflict:
    return Conflict(
        page.path,
        link.line,
        rw.moves.owner.get(page.path),
        f"link {link.raw!r} leaves the project; it cannot be rewritten safely",
        fix="point the link at a file inside the docs folder, or use a URL",
    )


def _symlinked(page: Page, link: mdlinks.Link, rid: str | None, new: str) -> Conflict:
    return Conflict(
        page.path,
        link.line,
        rid,
        f"link {link.raw!r} must change to {new!r}, but the page is a symlink; "
        "it cannot be rewritten",
        fix="edit the file the symlink points to, or replace the link with a file",
    )


def _url_form(rw: Rewriter, found: _Found, page: Page, link: mdlinks.Link, target: str) -> None:
    """A link to a moved page's published URL (``../0003-x/``) rather than its file."""
    base = target[: -len(".html")] if target.endswith(".html") else target
    for ext in (".md", ".markdown"):
        source = base + ext
        if source not in rw.moves.mapping:
            continue
        old_url = site_url(source, rw.docs_rel, rw.directory_urls)
        message = (
            f"link {link.raw!r} points at the published URL of {source}, not at the file; "
            "it is not rewritten"
        )
        rid = rw.moves.owner.get(source)
        if rw.redirects:
            found.risks.append(
                Risk(
                    "url-link",
                    f"{page.path}:{link.line}: {message}; it will reach the redirect "
                    f"page at {old_url}",
                    id=rid,
                    path=page.path,
                    line=link.line,
                )
            )
        else:
            found.conflicts.append(
                Conflict(
                    page.path,
                    link.line,
                    rid,
                    f"{message}, and redirects are off, so it would break",
                    fix=f"link to the file ({posixpath.basename(source)}) instead of its URL",
                )
            )
