"""Relocation plans: file moves plus every change they imply, as reviewed data.

Archive and restore are the same operation in opposite directions: move some
records (and their mirror copies), then rewrite every relative link that the
moves would break, regenerate the INDEX where mkdocs-adr owns it, and update
the CURRENT manifest's paths and hashes mechanically. :func:`relocate` works
all of that out from the tree as it is, without writing anything, by asking
one module per job; the caller saves the result as a plan that only the
journal applies.

========================  ================================================
:mod:`.moves`             what moves where; what blocks a move
:mod:`.pages`             which pages are read; their URLs
:mod:`.rewrite`           link rewriting in one page
:mod:`.nav`               mkdocs.yml ``nav`` edits
:mod:`.after`             the log after the plan (:mod:`mkdocs_adr.whatif`)
:mod:`.index_update`      the INDEX, regenerated where mkdocs-adr owns it
:mod:`.manifest_update`   the CURRENT manifest's mechanical update
:mod:`.redirects`         old and new URLs, redirect pages
========================  ================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .. import links as mdlinks
from ..config import Config
from ..errors import RefusedError
from ..fsops import sha256_bytes
from ..log import Log
from ..model import Record
from ..plans import Step
from .after import log_after
from .findings import Conflict, Risk
from .index_update import IndexChange, index_changes
from .manifest_update import ManifestEntry, manifest_changes
from .moves import FileMove, file_moves, move_conflicts, root_of
from .nav import nav_edits, read_config
from .pages import directory_urls, pages_to_read
from .redirects import Redirect, url_changes
from .rewrite import LinkEdit, MoveMap, Rewriter, rewrite_page


@dataclass
class Draft:
    """Everything a relocation changes, before it is saved as a plan."""

    moves: list[FileMove] = field(default_factory=list)
    edits: list[LinkEdit] = field(default_factory=list)
    contents: dict[str, bytes] = field(default_factory=dict)  # by path after the plan
    steps: list[Step] = field(default_factory=list)
    inputs: dict[str, str | None] = field(default_factory=dict)
    conflicts: list[Conflict] = field(default_factory=list)
    risks: list[Risk] = field(default_factory=list)
    index: list[IndexChange] = field(default_factory=list)
    manifest: list[ManifestEntry] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    staged: dict[str, bytes] = field(default_factory=dict)

    def write(self, path: str, before: str | None, data: bytes, part: str) -> None:
        """A write step of ``part``, its new bytes staged by hash."""
        digest = sha256_bytes(data)
        self.steps.append(Step("write", path, before, digest, part=part))
        self.staged[digest] = data


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
    docs_rel = _docs_folder(config)
    draft = Draft(moves=file_moves(config, record_moves, moves or []))
    draft.conflicts.extend(move_conflicts(config, draft.moves))
    move_map = MoveMap.of(draft.moves)
    dir_urls = directory_urls(config)
    rewriter = Rewriter(
        move_map, docs_rel, config.project_dir, dir_urls, config.redirects, config.mounts
    )
    current = _rewrite_pages(config, draft, rewriter, prefer or {}, originals or {})
    _rewrite_nav(config, draft, move_map, docs_rel)
    _move_steps(draft)
    _link_steps(config, draft, current, move_map)
    if draft.moves:
        _view_changes(config, draft, log, move_map)
    redirects, risks = url_changes(config, draft.moves, dir_urls)
    draft.redirects.extend(redirects)
    draft.risks.extend(risks)
    return draft


def _docs_folder(config: Config) -> str:
    """The docs folder, project-relative; refused when it lies outside the project."""
    docs_rel = config.docs_rel
    if mdlinks.escapes(docs_rel):
        raise RefusedError(
            f"the docs folder {config.docs_dir} is outside the project folder "
            f"{config.project_dir}; archive moves only happen inside the project",
            fix="run from the project folder (with --root, from a folder that contains the root)",
        )
    return docs_rel


def _rewrite_pages(
    config: Config,
    draft: Draft,
    rewriter: Rewriter,
    prefer: Mapping[str, Sequence[tuple[str, str]]],
    originals: Mapping[str, bytes],
) -> dict[str, bytes]:
    """Each page's link rewrites (or its original bytes back); the bytes read, by path."""
    current: dict[str, bytes] = {}
    moves = rewriter.moves
    for page in pages_to_read(config, list(moves.mapping)):
        try:
            data = page.abspath.read_bytes()
        except OSError as exc:
            draft.conflicts.append(
                Conflict(
                    page.path, None, moves.owner.get(page.path), f"cannot be read: {exc.strerror}"
                )
            )
            continue
        current[page.path] = data
        draft.inputs[page.path] = sha256_bytes(data)
        result = rewrite_page(rewriter, page, data, prefer.get(page.path, ()))
        draft.edits.extend(result.edits)
        draft.conflicts.extend(result.conflicts)
        draft.risks.extend(result.risks)
        if result.content is not None:
            draft.contents[moves.after(page.path)] = result.content
        original = originals.get(page.path)
        if original is not None and original != data:
            draft.contents[moves.after(page.path)] = original
    return current


def _rewrite_nav(config: Config, draft: Draft, moves: MoveMap, docs_rel: str) -> None:
    found = read_config(config)
    if found is None:
        return
    cfg_rel, text = found
    edits, new = nav_edits(text, cfg_rel, moves, docs_rel, config.src_uri)
    draft.edits.extend(edits)
    if edits:
        draft.inputs[cfg_rel] = sha256_bytes(text.encode("utf-8"))
        draft.contents[cfg_rel] = new.encode("utf-8")


def _move_steps(draft: Draft) -> None:
    for move in draft.moves:
        draft.inputs[move.target] = None
        before = draft.inputs.get(move.source)
        draft.steps.append(
            Step("move", move.source, before, before, to=move.target, part="archive")
        )


def _link_steps(config: Config, draft: Draft, current: dict[str, bytes], moves: MoveMap) -> None:
    """A write for every rewritten file, by its path after the plan."""
    by_after = {moves.after(p): p for p in current}
    for path_after, data in sorted(draft.contents.items()):
        before_path = by_after.get(path_after, path_after)
        before = current.get(before_path)
        if before is None:
            before = (config.project_dir / before_path).read_bytes()
        draft.write(path_after, sha256_bytes(before), data, "links")


def _view_changes(config: Config, draft: Draft, log: Log, moves: MoveMap) -> None:
    """The INDEX and manifest of the roots the moves touch, from the log after the plan."""
    moved_ids = {m.id for m in draft.moves if m.kind == "record"}
    roots = {root_of(config, r).path for r in log.records if r.id in moved_ids}
    after = log_after(log, draft.moves, draft.contents)
    for change in index_changes(config, after, roots):
        draft.index.append(change)
        if change.before is not None:
            draft.inputs[change.path] = change.before
        if change.data is not None:
            draft.write(change.path, change.before, change.data, "index")
    entries, conflicts = manifest_changes(config, log, after, moves.mapping, draft.contents)
    draft.conflicts.extend(conflicts)
    for entry in entries:
        draft.manifest.append(entry)
        update = entry.update
        if entry.risk is not None:
            draft.risks.append(entry.risk)
        elif update.state == "updated":
            draft.inputs[update.path] = update.before
            draft.write(update.path, update.before, update.data, "manifest")
