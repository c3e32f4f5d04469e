"""Where a new record goes and what it is called: root, domain folder, next number.

The next number follows every number in use under a root (active and archived
records, drafts and other numbered files) and in other roots with the same id
prefix, zero-padded and named like most files already are (``0012-x.md``,
``adr-012-x.md``, ``API-012-x.md``). Dated styles (log4brains) are
named by date instead. Refusals are recorded on the :class:`~.session.Work`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..config import Config, RootConfig
from ..discovery import is_archive
from ..identity import FileName, canonical, file_id, read_file_name
from ..log import Log
from ..model import Record
from . import templates
from .refusal import Reason
from .session import Work
from .writers import UNNUMBERED

# --------------------------------------------------------------------- roots and folders


def choose_root(
    config: Config, wanted: str | None, work: Work, hint: list[Record]
) -> RootConfig | None:
    """The root named by ``--adr-root``, else the one home of ``hint``, else the first."""
    roots = config.roots
    if wanted:
        norm = wanted.strip().strip("/")
        for root in roots:
            names = {root.path, config.rel(config.root_dir(root)), root.prefix.upper()}
            if norm in names or norm.upper() == root.prefix.upper():
                return root
        listed = ", ".join(f"{r.path} ({r.prefix})" for r in roots)
        work.reasons.append(
            Reason(f"--adr-root {wanted!r} is not a configured root (roots: {listed})", True)
        )
        return None
    homes = {r.root for r in hint}
    if len(homes) == 1:
        home = homes.pop()
        return next(r for r in roots if r.path == home)
    return roots[0]


def root_layout(log: Log, config: Config, root: RootConfig) -> str:
    rel = config.rel(config.root_dir(root))
    return next((r.layout for r in log.roots if r.path == rel), "flat")


def domains(config: Config, root: RootConfig) -> list[str]:
    """The domain folders of ``root``: not the archive, a mirror, templates or hidden."""
    base = config.root_dir(root)
    if not base.is_dir():
        return []
    return sorted(
        p.name
        for p in base.iterdir()
        if p.is_dir()
        and not is_archive(p.name)
        and p.name not in config.mirrors
        and not p.name.startswith((".", "_"))
        and p.name != "templates"
    )


def bad_domain_name(config: Config, name: str) -> bool:
    """Whether ``name`` (stripped) cannot be a domain folder of a root."""
    return (
        not name
        or "/" in name
        or "\\" in name
        or name in (".", "..", "templates")
        or is_archive(name)
        or name in config.mirrors
        or name.startswith((".", "_"))
    )


def folder(
    config: Config, log: Log, root: RootConfig, domain: str | None, work: Work
) -> Path | None:
    """The folder a new record goes to, or None with a reason recorded."""
    base = config.root_dir(root)
    if not base.is_dir():
        work.reasons.append(
            Reason(
                f"ADR root {config.rel(base)} does not exist; create the folder first "
                f"(mkdir -p {config.rel(base)})"
            )
        )
        return None
    known = domains(config, root)
    if domain is None:
        if root_layout(log, config, root) == "layered":
            work.reasons.append(
                Reason(
                    f"{config.rel(base)} keeps its records in domain folders; pass --domain "
                    f"(one of: {', '.join(known) or 'none yet'})",
                    usage=True,
                )
            )
            return None
        return base
    name = domain.strip().strip("/")
    if bad_domain_name(config, name):
        work.reasons.append(
            Reason(
                f"--domain {domain!r} is not a domain folder name (one folder below the root; "
                "not archive, a mirror, or a name starting with '.' or '_')",
                usage=True,
            )
        )
        return None
    if name not in known:
        work.reasons.append(
            Reason(
                f"domain {name!r} does not exist in {config.rel(base)} (domains: "
                f"{', '.join(known) or 'none'}); check the spelling, or create the folder "
                f"{config.rel(base / name)} first",
                usage=True,
            )
        )
        return None
    return base / name


# --------------------------------------------------------------------- numbering


def _numbered_files(config: Config, root: RootConfig) -> list[FileName]:
    """The numbered Markdown files under ``root`` (records, archived ones, drafts),
    read by the file-name rule; not those of nested roots or the work dir."""
    found: list[FileName] = []
    nested = [config.root_dir(r) for r in config.roots if r.path != root.path]
    base = config.root_dir(root)
    work = config.work_path.resolve()
    for here_name, dirs, files in os.walk(base):
        here = Path(here_name)
        dirs[:] = sorted(
            d for d in dirs if (here / d) not in nested and (here / d).resolve() != work
        )
        for name in sorted(files):
            if name.lower().endswith((".md", ".markdown")):
                named = read_file_name(name, (root.prefix,))
                if named.number is not None:
                    found.append(named)
    return found


def numbering(config: Config, log: Log, root: RootConfig) -> tuple[int, int]:
    """(next number, zero-padding width) for ``root``.

    The next number follows every number in use: active and archived
    records, drafts and other numbered files under the root, and records of
    other roots with the same id prefix (their ids would collide).
    """
    number, width, _lead = _numbering(config, log, root)
    return number, width


def _numbering(config: Config, log: Log, root: RootConfig) -> tuple[int, int, str]:
    """(next number, width, lead): the lead is how the root's file names start
    (``adr-``, ``ADR-``, ``API-``; empty for ``0012-x.md``), the most common one."""
    same = {r.path for r in config.roots if r.prefix.upper() == root.prefix.upper()}
    numbers = [r.number for r in log.records if r.root in same and r.number is not None]
    files = sorted(_numbered_files(config, root), key=lambda f: f.number or 0)
    numbers += [f.number for f in files if f.number is not None]
    leads: dict[str, tuple[int, int]] = {}  # lead -> (files, highest number)
    for f in files:
        count, _top = leads.get(f.lead, (0, 0))
        leads[f.lead] = (count + 1, f.number or 0)  # files are in number order
    # most files first; on a tie, the shape of the latest numbered file
    lead = max(leads.items(), key=lambda kv: kv[1])[0] if leads else ""
    widths: dict[int, int] = {}  # padded like most files of that shape
    for f in files:
        if f.lead == lead:
            widths[f.width] = widths.get(f.width, 0) + 1
    width = max(widths.items(), key=lambda kv: (kv[1], kv[0]))[0] if widths else 4
    return max(numbers, default=0) + 1, width, lead


@dataclass(frozen=True)
class Name:
    """A new record's number (None: named by date), padding, file name and id."""

    number: int | None
    width: int
    file: str
    id: str


def name(config: Config, log: Log, root: RootConfig, style: str, title: str, date: str) -> Name:
    """The file name and id of a new ``style`` record titled ``title`` in ``root``.

    A numbered name follows the shape most files of the root have (``0012-x.md``,
    ``adr-012-x.md``, ``ADR-0012-x.md``, ``API-012-x.md``); its id is what the
    file-name rule reads from it (:func:`mkdocs_adr.identity.file_id`).
    """
    if style in UNNUMBERED:
        file = f"{date.replace('-', '')}-{templates.slug(title)}.md"
        return Name(None, 4, file, file[:-3])
    number, width, lead = _numbering(config, log, root)
    file = f"{lead}{number:0{width}d}-{templates.slug(title)}.md"
    named = file_id(file, root.prefix)
    rid = canonical(*named) if named else canonical(root.prefix, number)
    return Name(number, width, file, rid)
