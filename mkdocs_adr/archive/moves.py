"""Which files move where: archive and restore targets, mirror copies, and what blocks a move.

An archived record goes to ``<root>/archive/`` mirroring its place in the root
(SPEC 1); its mirror copies (``zh/<inner>``, ``<stem>.zh.md``) follow it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..config import Config, RootConfig
from ..errors import AdrError, RefusedError
from ..fsops import exists, is_file, is_symlink
from ..model import Record
from ..paths import inside_project
from .findings import Conflict

ARCHIVE = "archive"


@dataclass(frozen=True)
class FileMove:
    source: str  # project-relative
    target: str
    kind: str  # record | mirror
    id: str  # the record the file belongs to

    def to_json(self) -> dict[str, str]:
        return {"from": self.source, "to": self.target, "kind": self.kind, "id": self.id}

    @classmethod
    def from_json(cls, data: object) -> FileMove | None:
        """A move of a saved review; a missing kind reads as a mirror, a missing id as ""
        (``None`` when ``data`` names no move at all)."""
        if not isinstance(data, dict) or not isinstance(data.get("to"), str):
            return None
        return cls(
            str(data.get("from") or ""),
            data["to"],
            str(data.get("kind") or "mirror"),
            str(data.get("id") or ""),
        )


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
            if is_file(src) or is_symlink(src):
                out.append((config.rel(src), config.rel(dst)))
    return out


def file_moves(
    config: Config, record_moves: Iterable[tuple[Record, str]], extra: Sequence[FileMove] = ()
) -> list[FileMove]:
    """Each record's move followed by its mirrors' moves, then ``extra`` as given."""
    out: list[FileMove] = []
    for rec, target in record_moves:
        out.append(FileMove(rec.path, target, "record", rec.id))
        root = root_of(config, rec)
        base = root_rel(config, root)
        new_inner = target[len(base) + 1 :] if base else target
        for src, dst in mirror_pairs(config, root, inner_path(config, rec), new_inner):
            out.append(FileMove(src, dst, "mirror", rec.id))
    out.extend(extra)
    return out


def move_conflicts(config: Config, moves: Sequence[FileMove]) -> list[Conflict]:
    """Every move that cannot happen as planned: a source that is missing or a symlink, a
    target that leaves the project, exists already or is the target of two moves."""
    out: list[Conflict] = []
    targets: dict[str, str] = {}
    for move in moves:
        try:
            src = inside_project(config.project_dir, move.source)
        except RefusedError as exc:
            out.append(Conflict(move.source, None, move.id, exc.message))
            continue
        try:
            dst = inside_project(config.project_dir, move.target)
        except RefusedError:
            out.append(
                Conflict(
                    move.target,
                    None,
                    move.id,
                    "the target would leave the project (a folder on the way is a symlink "
                    "to somewhere outside); refused",
                    fix="make the archive folder a real folder inside the project",
                )
            )
            continue
        if is_symlink(src):
            out.append(
                Conflict(
                    move.source,
                    None,
                    move.id,
                    "is a symlink; moving the link would break it",
                    fix="replace the link with the file it points to, then plan again",
                )
            )
        elif not is_file(src):
            out.append(Conflict(move.source, None, move.id, "does not exist"))
        if exists(dst) or is_symlink(dst):
            out.append(
                Conflict(
                    move.target,
                    None,
                    move.id,
                    f"already exists; moving {move.source} there would overwrite it",
                    fix="rename or remove the file that is in the way, then plan again",
                )
            )
        if move.target in targets:
            out.append(
                Conflict(
                    move.target,
                    None,
                    move.id,
                    f"is the target of two moves ({targets[move.target]} and {move.source})",
                )
            )
        targets[move.target] = move.source
    return out
