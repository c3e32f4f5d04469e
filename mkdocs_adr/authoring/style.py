"""Which style a new record is written in, and from which template.

In order: ``--style`` (which must not contradict a configured style), the
root's or domain's template if it reads as a style mkdocs-adr can fill in,
else the style most of the root's records use, else ``frontmatter``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..config import Config, RootConfig
from ..log import Log
from ..parsing import ParseOptions, parse_bytes
from . import templates
from .refusal import Reason
from .session import Work
from .writers import WRITABLE


@dataclass(frozen=True)
class Choice:
    """The style of a new record, and the template to fill (None: the built-in skeleton)."""

    style: str
    template: Path | None


def majority_style(log: Log, root: RootConfig) -> str | None:
    """The writable style most records of ``root`` use; ties go to the newest, then name."""
    counts: dict[str, int] = {}
    latest: dict[str, int] = {}
    for rec in log.records:
        if rec.root == root.path and rec.style in WRITABLE:
            counts[rec.style] = counts.get(rec.style, 0) + 1
            latest[rec.style] = max(latest.get(rec.style, 0), rec.number or 0)
    if not counts:
        return None
    return max(counts, key=lambda s: (counts[s], latest[s], s))


def template_style(config: Config, path: Path) -> str | None:
    """The style a template reads as once its placeholders are filled (None: unreadable)."""
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    sample = templates.substitute(
        raw,
        number=1,
        width=4,
        rid="ADR-0001",
        title="Sample",
        date="2000-01-01",
        status="accepted",
    )
    parsed = parse_bytes(
        sample.encode(), path="adr/0001-sample.md", options=ParseOptions.from_config(config)
    )
    return parsed.style


def choose(
    config: Config,
    log: Log,
    root: RootConfig,
    folder: Path,
    work: Work,
    *,
    style: str | None,
    template: Path | None,
) -> Choice | None:
    """The style and template of a new record in ``folder``, or None with reasons recorded.

    ``style`` and ``template`` are what the command line asked for (``--style``,
    ``--template``).
    """
    forced = config.style if config.style in WRITABLE else None
    if style and forced and style != forced and {style, forced} != {"madr2", "log4brains"}:
        work.reasons.append(
            Reason(
                f"--style {style} conflicts with the configured style '{forced}', under "
                "which such a record would not read",
                usage=True,
            )
        )
        return None
    if template is not None and not template.is_file():
        work.reasons.append(Reason(f"--template {template} is not a file", usage=True))
        return None
    found = template or templates.find_template(
        [folder, config.root_dir(root)] if folder != config.root_dir(root) else [folder]
    )
    return _with_template(config, log, root, work, style or forced, found, given=template)


def _with_template(
    config: Config,
    log: Log,
    root: RootConfig,
    work: Work,
    wanted: str | None,
    found: Path | None,
    *,
    given: Path | None,
) -> Choice | None:
    """The choice once the template (``given`` on the command line, or ``found``) is known."""
    found_style = template_style(config, found) if found else None
    if found is not None and found_style not in WRITABLE:
        if given is not None or wanted is None:
            work.reasons.append(
                Reason(
                    f"template {config.rel(found)} reads as style '{found_style}', which "
                    "mkdocs-adr cannot fill in (it needs a status it can set: a '## Status' "
                    "section, a '* Status:' bullet or 'status:' frontmatter); fix the template, "
                    "or pass --style to use a built-in skeleton"
                )
            )
            return None
        found = None
    if wanted is not None:
        if found is not None and found_style != wanted:
            if given is not None:
                work.reasons.append(
                    Reason(
                        f"--template {given} is in style '{found_style}', not '{wanted}'",
                        usage=True,
                    )
                )
                return None
            work.notes.append(
                f"{config.rel(found)} is in style '{found_style}'; used the built-in "
                f"'{wanted}' skeleton for --style {wanted}"
            )
            found = None
        return Choice(wanted, found)
    if found is not None and found_style is not None:
        return Choice(found_style, found)
    return Choice(majority_style(log, root) or "frontmatter", None)
