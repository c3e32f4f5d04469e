"""Relocation plans: file moves plus every change they imply, as reviewed data.

Archive and restore are the same operation in opposite directions: move some
records (and their mirror copies), then rewrite every relative link that the
moves would break, regenerate the INDEX where mkdocs-adr owns it, and update
the CURRENT manifest's paths and hashes mechanically. :func:`relocate` works
all of that out from the tree as it is, without writing anything; the caller
saves the result as a plan that only the journal applies.
"""

from __future__ import annotations

import difflib
import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import freshness, whatif
from .. import links as mdlinks
from .. import manifest as mf
from ..config import Config, RootConfig, read_mkdocs_yml
from ..errors import AdrError, RefusedError
from ..fsops import sha256_bytes
from ..log import Log
from ..model import Record
from ..paths import docs_relative, inside_project, site_url
from ..plans import Step
from ..views import index as index_view

ARCHIVE = "archive"


@dataclass(frozen=True)
class FileMove:
    source: str  # project-relative
    target: str
    kind: str  # record | mirror
    id: str  # the record the file belongs to

    def to_json(self) -> dict[str, str]:
        return {"from": self.source, "to": self.target, "kind": self.kind, "id": self.id}


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


@dataclass
class Draft:
    """Everything a relocation changes, before it is saved as a plan."""

    moves: list[FileMove] = field(default_factory=list)
    edits: list[LinkEdit] = field(default_factory=list)
    contents: dict[str, bytes] = field(default_factory=dict)  # by path after the plan
    steps: list[Step] = field(default_factory=list)
    inputs: dict[str, str | None] = field(default_factory=dict)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    risks: list[dict[str, Any]] = field(default_factory=list)
    index: list[dict[str, Any]] = field(default_factory=list)
    manifest: list[dict[str, Any]] = field(default_factory=list)
    redirects: list[dict[str, Any]] = field(default_factory=list)
    staged: dict[str, bytes] = field(default_factory=dict)


# --------------------------------------------------------------------- paths


def root_of(config: Config, rec: Record) -> RootConfig:
    for root in config.roots:
        if root.path == rec.root:
            return root
    raise AdrError(f"{rec.path}: record of an unknown root {rec.root!r}")  # pragma: no cover


def root_rel(config: Config, root: RootConfig) -> str:
    return config.rel(config.root_dir(root))


def inner_path(config: Config, rec: Record) -> str:
    """The record's path relative to its root (``platform/0001-x.md``)."""
    base = root_rel(config, root_of(config, rec))
    return rec.path[len(base) + 1 :] if base else rec.path


def archive_target(config: Config, rec: Record) -> str:
    """``<root>/archive/`` mirroring the active layout (SPEC 1)."""
    base = root_rel(config, root_of(config, rec))
    return posixpath.join(base, ARCHIVE, inner_path(config, rec))


def restore_target(config: Config, rec: Record) -> str | None:
    """Where an archived record lived before: ``<root>/archive/x`` -> ``<root>/x``."""
    inner = inner_path(config, rec)
    if not inner.startswith(ARCHIVE + "/"):
        return None
    base = root_rel(config, root_of(config, rec))
    return posixpath.join(base, inner[len(ARCHIVE) + 1 :])


def mirror_pairs(
    config: Config, root: RootConfig, old_inner: str, new_inner: str
) -> list[tuple[str, str]]:
    """Mirror copies that move with a record: ``zh/<inner>`` and ``<inner-stem>.zh.md``.

    Mirrors mirror the original's place in the root, so ``zh/0003-x.md``
    follows ``0003-x.md`` to ``zh/archive/0003-x.md``.
    """
    base = config.root_dir(root)
    out: list[tuple[str, str]] = []
    old_stem, _, ext = old_inner.rpartition(".")
    new_stem = new_inner.rpartition(".")[0]
    for lang in config.mirrors:
        candidates = [
            (base / lang / old_inner, base / lang / new_inner),
            (base / f"{old_stem}.{lang}.{ext}", base / f"{new_stem}.{lang}.{ext}"),
        ]
        for src, dst in candidates:
            if src.is_file() or src.is_symlink():
                out.append((config.rel(src), config.rel(dst)))
    return out


# --------------------------------------------------------------------- pages


@dataclass(frozen=True)
class Page:
    path: str
    abspath: Path
    symlink: bool


def scan_pages(config: Config) -> list[Page]:
    """Every Markdown page under ``docs_dir`` as MkDocs would see it, sorted.

    Hidden files and folders are left out (MkDocs leaves them out too), and
    so is the work dir; symlinked folders are not followed. With ``--root`` the
    docs folder may be a whole repository: installed packages (``node_modules``,
    a virtualenv) are not pages of it.
    """
    work = config.work_path.resolve()
    out: list[Page] = []
    for folder, dirs, files in os.walk(config.docs_dir):
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
            out.append(Page(config.rel(path), path, path.is_symlink()))
    return sorted(out, key=lambda p: p.path)


def page_url(config: Config, path: str, directory_urls: bool) -> str | None:
    """The site URL (relative to the site root) MkDocs gives the page at ``path``."""
    return site_url(path, config.rel(config.docs_dir), directory_urls)


def directory_urls(config: Config) -> bool:
    if config.config_file is None:
        return True
    try:
        value = read_mkdocs_yml(config.config_file).get("use_directory_urls", True)
    except AdrError:
        return True
    return value is not False


# --------------------------------------------------------------------- the plan


def relocate(
    config: Config,
    log: Log,
    record_moves: list[tuple[Record, str]],
    *,
    moves: list[FileMove] | None = None,
    prefer: dict[str, list[tuple[str, str]]] | None = None,
    originals: dict[str, bytes] | None = None,
) -> Draft:
    """Work out every change that moving ``record_moves`` implies.

    Each record's mirror copies move with it. ``moves`` adds explicit file
    moves (a restore replays a receipt's moves one for one).

    ``prefer`` (restore only) maps a page's current path to ``(written now,
    written before)`` destination pairs, so that a restore puts back the exact
    spelling an archive replaced. ``originals`` maps a page's current path to
    the bytes it had before the archive, used when the page is unchanged since.
    """
    docs_rel = config.rel(config.docs_dir)
    if mdlinks.escapes(docs_rel):
        raise RefusedError(
            f"the docs folder {config.docs_dir} is outside the project folder "
            f"{config.project_dir}; archive moves only happen inside the project",
            fix="run from the project folder (with --root, from a folder that contains the root)",
        )
    draft = Draft()
    for rec, target in record_moves:
        draft.moves.append(FileMove(rec.path, target, "record", rec.id))
        root = root_of(config, rec)
        base = root_rel(config, root)
        new_inner = target[len(base) + 1 :] if base else target
        for src, dst in mirror_pairs(config, root, inner_path(config, rec), new_inner):
            draft.moves.append(FileMove(src, dst, "mirror", rec.id))
    draft.moves.extend(moves or [])
    _check_moves(config, draft)
    mapping = {m.source: m.target for m in draft.moves}
    owner = {m.source: m.id for m in draft.moves}
    owner.update({m.target: m.id for m in draft.moves})
    dir_urls = directory_urls(config)
    generated = _generated_indexes(config)
    pages = [p for p in scan_pages(config) if p.path not in generated]
    scanned = {p.path for p in pages}
    for path in mapping:  # a moved file outside docs_dir is still read
        if path not in scanned:
            abspath = config.project_dir / path
            pages.append(Page(path, abspath, abspath.is_symlink()))
    current: dict[str, bytes] = {}
    for page in pages:
        try:
            data = page.abspath.read_bytes()
        except OSError as exc:
            draft.conflicts.append(
                _conflict(page.path, None, owner.get(page.path), f"cannot be read: {exc.strerror}")
            )
            continue
        current[page.path] = data
        draft.inputs[page.path] = sha256_bytes(data)
        _page_edits(config, draft, page, data, mapping, owner, docs_rel, prefer, dir_urls)
        if originals and page.path in originals and originals[page.path] != data:
            draft.contents[mapping.get(page.path, page.path)] = originals[page.path]
    _nav_edits(config, draft, mapping, owner, docs_rel)
    for move in draft.moves:
        draft.inputs[move.target] = None
        draft.steps.append(
            Step(
                "move",
                move.source,
                draft.inputs.get(move.source),
                draft.inputs.get(move.source),
                to=move.target,
                part="archive",
            )
        )
    by_after = {mapping.get(p, p): p for p in current}
    for path_after, data in sorted(draft.contents.items()):
        before_path = by_after.get(path_after, path_after)
        before = current.get(before_path)
        if before is None:
            before = (config.project_dir / before_path).read_bytes()
        draft.steps.append(
            Step("write", path_after, sha256_bytes(before), sha256_bytes(data), part="links")
        )
        draft.staged[sha256_bytes(data)] = data
    moved_ids = {m.id for m in draft.moves if m.kind == "record"}
    affected_roots = {root_of(config, r).path for r in log.records if r.id in moved_ids}
    if draft.moves:
        after = _log_after(log, draft.moves, draft.contents)
        _index_changes(config, draft, after, affected_roots)
        _manifest_changes(config, draft, log, after, mapping)
    for move in draft.moves:
        old_url = page_url(config, move.source, dir_urls)
        new_url = page_url(config, move.target, dir_urls)
        if old_url and new_url:
            draft.redirects.append(
                {
                    "id": move.id,
                    "kind": move.kind,
                    "from": move.source,
                    "to": move.target,
                    "from_url": old_url,
                    "to_url": new_url,
                    # the site publishes redirect pages for records (from receipts);
                    # a mirror's old URL is not kept alive
                    "redirect_page": config.redirects and move.kind == "record",
                }
            )
            if move.kind == "mirror":
                draft.risks.append(
                    {
                        "kind": "external-links",
                        "id": move.id,
                        "message": f"mirror {move.source}: its published URL changes from "
                        f"{old_url} to {new_url} and gets no redirect page; links to it from "
                        "outside this site break",
                    }
                )
    return draft


def _conflict(
    path: str | None, line: int | None, rid: str | None, reason: str, fix: str = ""
) -> dict[str, Any]:
    where = f"{path}:{line}" if path and line else (path or "")
    return {
        "path": path,
        "line": line,
        "id": rid,
        "reason": reason,
        "fix": fix,
        "message": f"{where}: {reason}" if where else reason,
    }


def _check_moves(config: Config, draft: Draft) -> None:
    targets: dict[str, str] = {}
    for move in draft.moves:
        try:
            src = inside_project(config.project_dir, move.source)
        except RefusedError as exc:
            draft.conflicts.append(_conflict(move.source, None, move.id, exc.message))
            continue
        try:
            dst = inside_project(config.project_dir, move.target)
        except RefusedError:
            draft.conflicts.append(
                _conflict(
                    move.target,
                    None,
                    move.id,
                    "the target would leave the project (a folder on the way is a symlink "
                    "to somewhere outside); refused",
                    fix="make the archive folder a real folder inside the project",
                )
            )
            continue
        if src.is_symlink():
            draft.conflicts.append(
                _conflict(
                    move.source,
                    None,
                    move.id,
                    "is a symlink; moving the link would break it",
                    fix="replace the link with the file it points to, then plan again",
                )
            )
        elif not src.is_file():
            draft.conflicts.append(_conflict(move.source, None, move.id, "does not exist"))
        if dst.exists() or dst.is_symlink():
            draft.conflicts.append(
                _conflict(
                    move.target,
                    None,
                    move.id,
                    f"already exists; moving {move.source} there would overwrite it",
                    fix="rename or remove the file that is in the way, then plan again",
                )
            )
        if move.target in targets:
            draft.conflicts.append(
                _conflict(
                    move.target,
                    None,
                    move.id,
                    f"is the target of two moves ({targets[move.target]} and {move.source})",
                )
            )
        targets[move.target] = move.source


def _generated_indexes(config: Config) -> set[str]:
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


def _page_edits(
    config: Config,
    draft: Draft,
    page: Page,
    data: bytes,
    mapping: dict[str, str],
    owner: dict[str, str],
    docs_rel: str,
    prefer: dict[str, list[tuple[str, str]]] | None,
    dir_urls: bool,
) -> None:
    path_after = mapping.get(page.path, page.path)
    moves = path_after != page.path
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        names = {posixpath.basename(s).encode() for s in mapping}
        if moves or any(n in data for n in names):
            draft.conflicts.append(
                _conflict(
                    page.path,
                    None,
                    owner.get(page.path),
                    "is not UTF-8 text, so its links cannot be checked or rewritten",
                    fix="convert the file to UTF-8, then plan again",
                )
            )
        return
    wanted = list((prefer or {}).get(page.path, []))
    edits: list[tuple[int, int, str]] = []
    for link in mdlinks.find_links(text):
        if not mdlinks.is_local(link.path):
            continue
        target = mdlinks.resolve(page.path, link.path, docs_rel)
        if mdlinks.escapes(target):
            if moves:
                draft.conflicts.append(
                    _conflict(
                        page.path,
                        link.line,
                        owner.get(page.path),
                        f"link {link.raw!r} leaves the project; it cannot be rewritten safely",
                        fix="point the link at a file inside the docs folder, or use a URL",
                    )
                )
            continue
        target_after = mapping.get(target, target)
        if not moves and target_after == target:
            _url_form(config, draft, page, link, target, mapping, owner, dir_urls)
            continue
        new = None
        for n, (now, before) in enumerate(wanted):
            if (
                now == link.raw
                and mdlinks.resolve(path_after, mdlinks.split_target(before)[0], docs_rel)
                == target_after
            ):
                new = before
                del wanted[n]
                break
        if new is None:
            new = mdlinks.rewrite_destination(link, target_after, path_after, docs_rel)
        if new == link.raw:
            continue
        rid = owner.get(target) if target_after != target else owner.get(page.path)
        if page.symlink:
            draft.conflicts.append(
                _conflict(
                    page.path,
                    link.line,
                    rid,
                    f"link {link.raw!r} must change to {new!r}, but the page is a symlink; "
                    "it cannot be rewritten",
                    fix="edit the file the symlink points to, or replace the link with a file",
                )
            )
            continue
        direction = (
            "both" if moves and target_after != target else ("outbound" if moves else "inbound")
        )
        draft.edits.append(
            LinkEdit(
                page=page.path,
                page_after=path_after,
                line=link.line,
                old=link.raw,
                new=new,
                form=link.form,
                direction=direction,
                id=rid or "",
                target=target_after,
                target_exists=(config.project_dir / target).exists() or target in mapping,
            )
        )
        edits.append((link.start, link.end, new))
    if edits:
        draft.contents[path_after] = mdlinks.apply_edits(text, edits).encode("utf-8")


def _url_form(
    config: Config,
    draft: Draft,
    page: Page,
    link: mdlinks.Link,
    target: str,
    mapping: dict[str, str],
    owner: dict[str, str],
    dir_urls: bool,
) -> None:
    """A link to a moved page's published URL (``../0003-x/``) rather than its file."""
    base = target[: -len(".html")] if target.endswith(".html") else target
    for ext in (".md", ".markdown"):
        source = base + ext
        if source not in mapping:
            continue
        old_url = page_url(config, source, dir_urls)
        message = (
            f"link {link.raw!r} points at the published URL of {source}, not at the file; "
            "it is not rewritten"
        )
        if config.redirects:
            draft.risks.append(
                {
                    "kind": "url-link",
                    "path": page.path,
                    "line": link.line,
                    "id": owner.get(source),
                    "message": f"{page.path}:{link.line}: {message}; it will reach the redirect "
                    f"page at {old_url}",
                }
            )
        else:
            draft.conflicts.append(
                _conflict(
                    page.path,
                    link.line,
                    owner.get(source),
                    f"{message}, and redirects are off, so it would break",
                    fix=f"link to the file ({posixpath.basename(source)}) instead of its URL",
                )
            )


_YAML_PATH_EDGE = r"[\w./-]"


def _nav_edits(
    config: Config,
    draft: Draft,
    mapping: dict[str, str],
    owner: dict[str, str],
    docs_rel: str,
) -> None:
    """Paths of moved pages named in mkdocs.yml (``nav``), relative to docs_dir."""
    cfg = config.config_file
    if cfg is None or not cfg.is_file():
        return
    try:
        rel = inside_project(config.project_dir, config.rel(cfg))
    except RefusedError:
        return
    try:
        text = rel.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    edits: list[tuple[int, int, str]] = []
    for source, target in sorted(mapping.items()):
        old, new = docs_relative(source, docs_rel), docs_relative(target, docs_rel)
        if not old or not new:
            continue
        pattern = re.compile(f"(?<!{_YAML_PATH_EDGE}){re.escape(old)}(?!{_YAML_PATH_EDGE})")
        for m in pattern.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            before = text[line_start : m.start()]
            if re.search(r"(^|\s)#", before):
                continue  # in a YAML comment
            line = text.count("\n", 0, m.start()) + 1
            edits.append((m.start(), m.end(), new))
            draft.edits.append(
                LinkEdit(
                    page=config.rel(cfg),
                    page_after=config.rel(cfg),
                    line=line,
                    old=old,
                    new=new,
                    form="nav",
                    direction="inbound",
                    id=owner.get(source, ""),
                    target=target,
                    target_exists=True,
                )
            )
    if edits:
        data = text.encode("utf-8")
        draft.inputs[config.rel(cfg)] = sha256_bytes(data)
        draft.contents[config.rel(cfg)] = mdlinks.apply_edits(text, edits).encode("utf-8")


def _log_after(log: Log, moves: list[FileMove], contents: dict[str, bytes]) -> Log:
    """The log as it will be after the plan: the moves, then the rewritten files."""
    edits: list[whatif.Edit] = [whatif.Move(m.source, m.target) for m in moves]
    edits.extend(whatif.Write(path, data) for path, data in sorted(contents.items()))
    return whatif.after(log, edits)


def _index_changes(config: Config, draft: Draft, after: Log, roots: set[str]) -> None:
    for root in config.roots:
        if root.path not in roots:
            continue
        disk = config.root_dir(root) / config.index_page
        path = config.rel(disk)
        if not disk.exists():
            draft.index.append(
                {"path": path, "state": "absent", "change": "none; the site renders the INDEX"}
            )
            continue
        try:
            data = disk.read_bytes()
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            draft.index.append(
                {"path": path, "state": "user-owned", "change": "left as it is (unreadable)"}
            )
            continue
        if not index_view.is_generated(text):
            draft.index.append(
                {
                    "path": path,
                    "state": "user-owned",
                    "change": "left as it is; its links are rewritten like any page's",
                }
            )
            continue
        info = next((r for r in after.roots if r.path == root_rel(config, root)), None)
        if info is None:  # pragma: no cover - every configured root has info
            continue
        new = index_view.render(after, info).encode("utf-8")
        draft.inputs[path] = sha256_bytes(data)
        if new == data:
            draft.index.append({"path": path, "state": "generated", "change": "unchanged"})
            continue
        diff = [
            line
            for line in difflib.unified_diff(
                text.splitlines(), new.decode("utf-8").splitlines(), lineterm="", n=0
            )
            if line[:1] in "+-" and not line.startswith(("+++", "---"))
        ]
        draft.index.append(
            {"path": path, "state": "generated", "change": "regenerated", "diff": diff}
        )
        draft.steps.append(Step("write", path, sha256_bytes(data), sha256_bytes(new), part="index"))
        draft.staged[sha256_bytes(new)] = new


def _manifest_changes(
    config: Config, draft: Draft, log: Log, after: Log, mapping: dict[str, str]
) -> None:
    """Each root's mechanical CURRENT manifest update, as the manifest defines it
    (:func:`mkdocs_adr.manifest.mechanical_update`): moved paths, and the hashes of
    sources and of CURRENT.md whose only change is a listed link rewrite."""
    changed_ids = {rec.id for rec in after.records if rec.path in draft.contents}
    for root in config.roots:
        before_sha = _entry_hashes(log, root, changed_ids)
        after_sha = _entry_hashes(after, root, changed_ids)
        rehashed = {k: (before_sha[k], after_sha[k]) for k in before_sha if k in after_sha}
        try:
            update = mf.mechanical_update(config, root, mapping, draft.contents, rehashed)
        except ValueError as exc:
            rel = config.rel(config.root_dir(root) / mf.FILENAME)
            draft.conflicts.append(_conflict(rel, None, None, f"cannot be updated: {exc}"))
            continue
        if update is None:
            continue
        changes = [c.to_json() for c in update.changes]
        draft.manifest.append({"path": update.path, "state": update.state, "changes": changes})
        if update.state == "not-updated":
            draft.risks.append(
                {
                    "kind": "manifest",
                    "path": update.path,
                    "message": f"{update.path}: {update.problem}; it is left as it is (its "
                    "CURRENT view is unverifiable until it is published again)",
                }
            )
        elif update.state == "updated":
            draft.inputs[update.path] = update.before
            draft.steps.append(
                Step(
                    "write",
                    update.path,
                    update.before,
                    sha256_bytes(update.data),
                    part="manifest",
                )
            )
            draft.staged[sha256_bytes(update.data)] = update.data


def _entry_hashes(log: Log, root: RootConfig, ids: set[str]) -> dict[str, str]:
    """Manifest keys (``id`` / ``id#D2``) -> hash, for the records in ``ids``, as freshness
    computes them."""
    info = next((r for r in log.roots if r.path == root_rel(log.config, root)), None)
    out: dict[str, str] = {}
    if info is None:
        return out
    for rec in log.records:
        if rec.id in ids and rec.root == root.path:
            for entry in freshness.record_entries(rec, info, "member"):
                out[entry.key] = entry.sha256
    return out


def relations_snapshot(log: Log) -> list[str]:
    """Every resolved relation of the log, for checking that a move kept them all.

    Plain-link ``mentions`` are left out: whether one resolves depends on the
    parser's reading of link text, not on the files; rewritten links are checked
    one by one instead (:func:`~mkdocs_adr.archive.verify.verify_applied`).
    """
    out = set()
    for rec in log.records:
        rels = [*rec.relations, *(r for u in rec.units for r in u.relations)]
        for rel in rels:
            if rel.target_id is None or rel.kind == "mentions":
                continue
            unit = f"#{rel.target_unit}" if rel.target_unit else ""
            out.add(f"{rec.id} {rel.kind} {rel.target_id}{unit}")
    return sorted(out)
