"""The source manifest of a published CURRENT view: ``CURRENT.sources.json`` (SPEC 5).

A manifest says what a reviewed CURRENT.md was drafted from: the scope, every
member the scope selected, every source (record or decision unit) with the
hash of its normalized text and its status, and the hash of CURRENT.md itself.
It is committed beside CURRENT.md and validated against the JSON Schema in
``schemas/current-sources.schema.json`` on every read.

Every path in a manifest is relative to the ADR root that holds it. A path
that is absolute, uses ``..``, a backslash or a drive letter makes the whole
manifest invalid (``ADR012``); such a path is never followed. In fact no path
of a manifest is ever opened: freshness compares the manifest with the log,
which discovery found on its own.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jsonschema

from . import __version__, rx
from .config import MANIFEST_FILE, Config, RootConfig
from .paths import UnsafePath, climbing, is_normalized

SCHEMA_NAME = "mkdocs-adr/current-sources"
VERSION = 1
#: The drafting protocol: how sources are selected, hashed and laid out in CURRENT.md.
PROTOCOL = "summary/1"
FILENAME = MANIFEST_FILE
DISPOSITIONS = ("retained", "summarized", "consolidated", "open", "archive-candidate")
ROLES = ("member", "related")
SCOPE_KINDS = ("root", "domain", "sources", "mixed")
#: The exclusion rules of SPEC 2 as applied when a scope selects its members.
EXCLUSIONS = (
    "archived records (archive/)",
    "mirrors (translation folders and *.<lang>.md)",
    "generated views (INDEX.md, CURRENT.md)",
    "drafts (*.draft.md, _ and . names)",
    "templates",
    "README.md and index.md",
)
#: Statuses whose decision text a view carries (accepted in effect, the others as proposals).
VIEW_STATUSES = ("accepted", "proposed", "draft")

_SHA = rx.compile(r"^[0-9a-f]{64}$")


def text_sha256(data: bytes) -> str:
    """Hash of normalized text (UTF-8, LF line endings), as records are hashed."""
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Source:
    """One record (``unit`` None) or one decision unit a view was drafted from."""

    id: str
    unit: str | None
    path: str  # relative to the root
    sha256: str
    status: str
    disposition: str
    role: str = "member"
    part: str = ""

    @property
    def key(self) -> str:
        return f"{self.id}#{self.unit}" if self.unit else self.id

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "unit": self.unit,
            "path": self.path,
            "sha256": self.sha256,
            "status": self.status,
            "disposition": self.disposition,
            "role": self.role,
            "part": self.part,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Source:
        return cls(
            id=data["id"],
            unit=data["unit"],
            path=data["path"],
            sha256=data["sha256"],
            status=data["status"],
            disposition=data["disposition"],
            role=data["role"],
            part=data["part"],
        )


@dataclass(frozen=True)
class Scope:
    """What a view covers. ``kind`` root selects every unarchived record of the root."""

    root: str  # as configured, relative to docs_dir
    kind: str = "root"
    domains: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    statuses: tuple[str, ...] = VIEW_STATUSES
    exclusions: tuple[str, ...] = EXCLUSIONS
    rechecked: tuple[str, ...] = ()

    @classmethod
    def make(cls, root: str, domains: Iterable[str] = (), ids: Iterable[str] = ()) -> Scope:
        d, i = tuple(sorted(set(domains))), tuple(sorted(set(ids)))
        kind = "root" if not (d or i) else ("mixed" if d and i else ("domain" if d else "sources"))
        return cls(root=root, kind=kind, domains=d, ids=i)

    def union(self, other: Scope) -> Scope:
        """The smallest scope covering both (a root scope covers everything)."""
        if self.kind == "root" or other.kind == "root":
            return replace(Scope.make(self.root), rechecked=self.rechecked)
        merged = Scope.make(self.root, (*self.domains, *other.domains), (*self.ids, *other.ids))
        return replace(merged, rechecked=self.rechecked)

    def describe(self) -> str:
        if self.kind == "root":
            return "every unarchived record of the root"
        parts = []
        if self.domains:
            parts.append("domain " + ", ".join(self.domains))
        if self.ids:
            parts.append("records " + ", ".join(self.ids))
        return " and ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "kind": self.kind,
            "domains": list(self.domains),
            "ids": list(self.ids),
            "statuses": list(self.statuses),
            "exclusions": list(self.exclusions),
            "rechecked": list(self.rechecked),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Scope:
        return cls(
            root=data["root"],
            kind=data["kind"],
            domains=tuple(data["domains"]),
            ids=tuple(data["ids"]),
            statuses=tuple(data["statuses"]),
            exclusions=tuple(data["exclusions"]),
            rechecked=tuple(data["rechecked"]),
        )


@dataclass(frozen=True)
class Manifest:
    scope: Scope
    members: tuple[str, ...]
    sources: tuple[Source, ...]
    summary_path: str
    summary_sha256: str
    created: str
    generator: Mapping[str, str] = field(
        default_factory=lambda: {"name": "mkdocs-adr", "version": __version__, "protocol": PROTOCOL}
    )

    def source(self, key: str) -> Source | None:
        for src in self.sources:
            if src.key == key:
                return src
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_NAME,
            "version": VERSION,
            "generator": dict(self.generator),
            "scope": self.scope.to_json(),
            "members": list(self.members),
            "sources": [s.to_json() for s in self.sources],
            "summary": {"path": self.summary_path, "sha256": self.summary_sha256},
            "created": self.created,
        }

    def to_bytes(self) -> bytes:
        """Deterministic bytes: sorted keys, two-space indent, LF, final newline."""
        text = json.dumps(self.to_json(), indent=2, sort_keys=True, ensure_ascii=False)
        return (text + "\n").encode("utf-8")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Manifest:
        return cls(
            scope=Scope.from_json(data["scope"]),
            members=tuple(data["members"]),
            sources=tuple(Source.from_json(s) for s in data["sources"]),
            summary_path=data["summary"]["path"],
            summary_sha256=data["summary"]["sha256"],
            created=data["created"],
            generator=dict(data["generator"]),
        )


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# --------------------------------------------------------------------------- reading


class ManifestError(Exception):
    """Why a manifest cannot be used. ``kind``: missing, unreadable, invalid, version."""

    def __init__(
        self, kind: str, message: str, *, path: str, line: int | None = None, fix: str = ""
    ) -> None:
        self.kind = kind
        self.message = message
        self.path = path
        self.line = line
        self.fix = fix
        super().__init__(message)

    @property
    def reason(self) -> str:
        return {
            "missing": "manifest missing",
            "unreadable": "manifest unreadable",
            "invalid": "manifest invalid",
            "version": "manifest of an incompatible version",
        }[self.kind]


@functools.lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema shipped as package data."""
    text = (
        resources.files("mkdocs_adr")
        .joinpath("schemas/current-sources.schema.json")
        .read_text(encoding="utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


@functools.lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    # imported here: most builds never read a manifest, and jsonschema costs ~50 ms
    import jsonschema.validators

    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    validator: jsonschema.protocols.Validator = cls(schema())
    return validator


def _pointer(parts: Iterable[object]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _root_form(value: str) -> bool:
    """Whether ``value`` is a root path as configured (:func:`paths.climbing` form)."""
    try:
        return value != "" and climbing(value) == value
    except UnsafePath:
        return False


def _path_errors(data: Mapping[str, Any]) -> list[str]:
    """Paths that leave the root, checked before the schema for a precise message."""
    found: list[tuple[str, object]] = []
    scope = data.get("scope")
    if isinstance(scope, Mapping) and "root" in scope:
        found.append(("scope.root", scope["root"]))
    sources = data.get("sources")
    if isinstance(sources, list):
        for n, src in enumerate(sources):
            if isinstance(src, Mapping) and "path" in src:
                found.append((f"sources[{n}].path", src["path"]))
    summary = data.get("summary")
    if isinstance(summary, Mapping) and "path" in summary:
        found.append(("summary.path", summary["path"]))
    errors = []
    for where, value in found:
        if where == "scope.root" and isinstance(value, str) and _root_form(value):
            continue  # the root as configured: '../doc/adr' for one outside docs_dir
        if isinstance(value, str) and not is_normalized(value):
            errors.append(
                f"{where} {value!r} is absolute or leaves the ADR root; it is never followed"
            )
    return errors


def validate(data: object) -> list[str]:
    """Every reason ``data`` is not a valid version-1 manifest (empty when valid)."""
    if not isinstance(data, Mapping):
        return [f"the manifest must be a JSON object, not {type(data).__name__}"]
    errors = _path_errors(data)
    for err in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.path))):
        where = _pointer(err.path)
        if err.validator == "pattern" and where.endswith(("path", "root")) and errors:
            continue  # already reported above, in plainer words
        errors.append(f"{where}: {err.message}")
    return errors


_FIX_PUBLISH = "publish CURRENT again with `mkdocs-adr plan --mode summary`"


def parse(data: bytes, *, where: str) -> Manifest:
    """Decode, check the version, validate against the schema; :class:`ManifestError`.

    Total: whatever the bytes are, a manifest or a :class:`ManifestError` (ADR012,
    unverifiable), never another exception (nesting that exhausts the recursion
    limit, integers of more digits than Python converts).
    """
    try:
        return _parse(data, where=where)
    except ManifestError:
        raise
    except (RecursionError, ValueError, TypeError, KeyError, AttributeError) as exc:
        reason = (str(exc).split(";")[0] or type(exc).__name__)[:200]
        raise ManifestError(
            "unreadable", f"not readable: {reason}", path=where, fix=_FIX_PUBLISH
        ) from None


def _parse(data: bytes, *, where: str) -> Manifest:
    fix_publish = _FIX_PUBLISH
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ManifestError(
            "unreadable", f"not UTF-8 (byte {exc.start})", path=where, fix=fix_publish
        ) from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ManifestError(
            "unreadable", f"not JSON: {exc.msg}", path=where, line=exc.lineno, fix=fix_publish
        ) from None
    except RecursionError:
        raise ManifestError(
            "unreadable", "not readable: nested too deeply", path=where, fix=fix_publish
        ) from None
    except ValueError as exc:  # an integer of more digits than Python converts
        reason = str(exc).split(";")[0] or type(exc).__name__
        raise ManifestError(
            "unreadable", f"not readable: {reason}", path=where, fix=fix_publish
        ) from None
    if isinstance(raw, dict):
        if raw.get("schema") not in (None, SCHEMA_NAME):
            raise ManifestError(
                "invalid",
                f"'schema' is {repr(raw.get('schema'))[:80]}, not {SCHEMA_NAME!r}: "
                "not a source manifest",
                path=where,
                fix=fix_publish,
            )
        version = raw.get("version")
        if isinstance(version, int) and not isinstance(version, bool) and version != VERSION:
            raise ManifestError(
                "version",
                f"version {version}; this mkdocs-adr ({__version__}) reads version {VERSION}",
                path=where,
                fix="use the mkdocs-adr version that wrote it, or " + fix_publish,
            )
    try:
        errors = validate(raw)
    except RecursionError:  # JSON nested deeply enough to exhaust the schema validator
        errors = ["nested too deeply to validate"]
    if errors:
        shown = "; ".join(errors[:5]) + (f"; and {len(errors) - 5} more" if len(errors) > 5 else "")
        raise ManifestError(
            "invalid", f"does not match its schema: {shown}", path=where, fix=fix_publish
        )
    assert isinstance(raw, dict)
    return Manifest.from_json(raw)


def read(path: Path, *, where: str) -> Manifest:
    """Read and validate the manifest at ``path`` (``where`` names it in messages)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ManifestError(
            "missing",
            f"{FILENAME} is missing",
            path=where,
            fix="publish CURRENT with `mkdocs-adr plan --mode summary` so it has a manifest",
        ) from None
    except OSError as exc:
        raise ManifestError(
            "unreadable",
            f"cannot be read: {exc.strerror}",
            path=where,
            fix="check the file's permissions",
        ) from None
    return parse(data, where=where)


# --------------------------------------------------------------------------- path updates


def rewrite_paths(
    manifest: Manifest, moves: Mapping[str, str], *, summary_sha256: str | None = None
) -> Manifest:
    """The mechanical update after a path-only move (an archive move or its restore).

    ``moves`` maps old to new paths, both relative to the manifest's root. Only
    paths change; ids, hashes, statuses and members stay, so the view stays
    fresh when the content is identical. ``summary_sha256`` is for a CURRENT.md
    whose links the same operation rewrote mechanically.
    """
    for old, new in moves.items():
        if not (is_normalized(old) and is_normalized(new)):
            raise ValueError(f"move {old!r} -> {new!r} is not a pair of paths inside the root")
    if summary_sha256 is not None and not _SHA.match(summary_sha256):
        raise ValueError(f"{summary_sha256!r} is not a sha256")
    sources = tuple(replace(s, path=moves.get(s.path, s.path)) for s in manifest.sources)
    return replace(
        manifest,
        sources=sources,
        summary_sha256=summary_sha256 or manifest.summary_sha256,
    )


@dataclass(frozen=True)
class ManifestChange:
    """One field of a manifest that a mechanical update changes (for the review)."""

    key: str  # the source's key (``id`` / ``id#D2``), or ``summary`` for CURRENT.md
    field: str  # path | sha256
    before: str
    after: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.key, "field": self.field, "from": self.before, "to": self.after}


@dataclass(frozen=True)
class ManifestUpdate:
    """What a plan that moves or rewrites files does to one root's manifest.

    ``state`` is ``updated`` (``data`` holds the new bytes, to carry as one of
    the plan's steps), ``unchanged`` (nothing it lists moves or changes), or
    ``not-updated`` (the manifest is unreadable or invalid and is left as it
    is; ``problem`` says why).
    """

    path: str  # project-relative path of CURRENT.sources.json
    before: str  # sha256 of its exact bytes now ("" when unreadable)
    data: bytes  # the new bytes (the old ones when nothing changes; b"" when unreadable)
    state: str = "updated"
    changes: tuple[ManifestChange, ...] = ()
    problem: str = ""


def mechanical_update(
    config: Config,
    root: RootConfig,
    moves: Mapping[str, str],
    rewritten: Mapping[str, bytes] | None = None,
    rehashed: Mapping[str, tuple[str, str]] | None = None,
) -> ManifestUpdate | None:
    """The mechanical update (SPEC 5) of ``root``'s manifest for a plan that moves files.

    Paths are relative to the project. ``moves`` maps old to new paths (a move
    that leaves the root is not the manifest's to follow). ``rewritten`` gives
    the new bytes of files the same plan rewrites (links in CURRENT.md), by
    their path after the plan; ``rehashed`` maps a source key to its hash
    (before, after) the plan's link rewrites. A hash follows a rewrite only
    when it matched before, so an edit made since publishing still shows the
    view as stale: nothing is laundered. None when the root has no manifest.

    Raises ``ValueError`` when the new manifest would not be valid.
    """
    rewritten = rewritten or {}
    rehashed = rehashed or {}
    folder = config.root_dir(root)
    disk = folder / FILENAME
    if not disk.is_file():
        return None
    base = config.rel(folder)
    prefix = base + "/" if base else ""
    rel = f"{prefix}{FILENAME}"
    try:
        data = disk.read_bytes()
        manifest = parse(data, where=rel)
    except (OSError, ManifestError) as exc:
        reason = exc.reason if isinstance(exc, ManifestError) else str(exc)
        return ManifestUpdate(rel, "", b"", "not-updated", problem=reason)
    local = {
        old[len(prefix) :]: new[len(prefix) :]
        for old, new in moves.items()
        if old.startswith(prefix) and new.startswith(prefix)
    }
    changes: list[ManifestChange] = []
    sources = []
    for src in manifest.sources:
        new_sha = src.sha256
        if src.key in rehashed and rehashed[src.key][0] == src.sha256:
            new_sha = rehashed[src.key][1]
        if new_sha != src.sha256:
            changes.append(ManifestChange(src.key, "sha256", src.sha256, new_sha))
        if src.path in local:
            changes.append(ManifestChange(src.key, "path", src.path, local[src.path]))
        sources.append(replace(src, sha256=new_sha))
    summary_sha = None
    current_rel = f"{prefix}{config.current_page}"
    if current_rel in rewritten:
        try:
            on_disk: str | None = text_sha256((folder / config.current_page).read_bytes())
        except OSError:
            on_disk = None
        if on_disk == manifest.summary_sha256:
            summary_sha = text_sha256(rewritten[current_rel])
            changes.append(
                ManifestChange("summary", "sha256", manifest.summary_sha256, summary_sha)
            )
    before = hashlib.sha256(data).hexdigest()
    if not changes:
        return ManifestUpdate(rel, before, data, "unchanged")
    updated = rewrite_paths(
        replace(manifest, sources=tuple(sources)), local, summary_sha256=summary_sha
    )
    return ManifestUpdate(rel, before, updated.to_bytes(), "updated", tuple(changes))
