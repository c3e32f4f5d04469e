"""What is published in a root now: CURRENT.md and its manifest, and who owns them.

mkdocs-adr replaces a CURRENT.md only when it published it (the generated
marker, or a manifest recording its hash) or when the user asked it to adopt
the page; a user-owned file is never overwritten.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .. import manifest as mf
from ..config import Config
from ..errors import RefusedError
from ..fsops import sha256_bytes
from ..model import RootInfo
from .page import is_generated


@dataclass(frozen=True)
class Published:
    """CURRENT.md and its manifest as they are on disk in one root, and who owns them."""

    current_rel: str
    manifest_rel: str
    raw: bytes | None
    manifest_raw: bytes | None
    manifest: mf.Manifest | None
    owned: bool
    why: str  # absent | marker | manifest | user-owned

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8", "replace") if self.raw is not None else ""

    @property
    def exact(self) -> str | None:
        return sha256_bytes(self.raw) if self.raw is not None else None

    @property
    def manifest_exact(self) -> str | None:
        return sha256_bytes(self.manifest_raw) if self.manifest_raw is not None else None


def _read(path: Path, rel: str, fix: str) -> bytes | None:
    """The bytes of ``path``, ``None`` when absent; unreadable is a refusal."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RefusedError(f"{rel} cannot be read: {exc.strerror}", path=rel, fix=fix) from None


def _owner(raw: bytes | None, manifest: mf.Manifest | None) -> tuple[bool, str]:
    """(owned by mkdocs-adr, why) for the bytes of a CURRENT.md."""
    if raw is None:
        return True, "absent"
    if is_generated(raw.decode("utf-8", "replace")):
        return True, "marker"
    if manifest is not None and mf.text_sha256(raw) == manifest.summary_sha256:
        return True, "manifest"
    return False, "user-owned"


def published(config: Config, root: RootInfo) -> Published:
    """Read CURRENT.md and its manifest in ``root``; an invalid manifest counts as none."""
    folder = config.project_dir / root.path
    current_rel = f"{root.path}/{config.current_page}"
    manifest_rel = f"{root.path}/{mf.FILENAME}"
    raw = _read(folder / config.current_page, current_rel, "check its permissions")
    manifest_raw = _read(
        folder / mf.FILENAME,
        manifest_rel,
        "check its permissions, or remove it to publish anew",
    )
    manifest = None
    if manifest_raw is not None:
        try:
            manifest = mf.parse(manifest_raw, where=manifest_rel)
        except mf.ManifestError:
            manifest = None
    owned, why = _owner(raw, manifest)
    return Published(current_rel, manifest_rel, raw, manifest_raw, manifest, owned, why)


def refuse_user_owned(pubs: Iterable[Published]) -> None:
    """Refuse (exit 3) when any of ``pubs`` is a CURRENT.md mkdocs-adr did not publish."""
    theirs = [p for p in pubs if not p.owned]
    if not theirs:
        return
    also = f" (and {', '.join(p.current_rel for p in theirs[1:])})" if len(theirs) > 1 else ""
    raise RefusedError(
        f"not published by mkdocs-adr{also}: it has no generated marker and no "
        f"{mf.FILENAME} records its hash, and a user-owned file is never overwritten",
        path=theirs[0].current_rel,
        line=1,
        fix="to let mkdocs-adr take it over, plan again with --adopt: the draft replaces it "
        "only after you review and confirm, and its current text is kept in the plan folder; "
        "or set the plugin's current_page option to another file name",
    )
