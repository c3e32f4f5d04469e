"""What every command shares: where the log is, how to print, exit codes."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..config import Config, for_root, load_from_mkdocs_yml
from ..errors import ConfigError, UsageError
from ..jsontext import dumps as json_dumps
from ..safetext import json_text, terminal

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_REFUSED = 0, 1, 2, 3

#: The site configuration found without ``-f``: MkDocs' name, then ProperDocs' own
#: (ProperDocs reads either; docs/adr/0042).
CONFIG_NAMES = ("mkdocs.yml", "properdocs.yml")


def site_config(folder: Path) -> Path:
    """The site configuration in ``folder``: the first of :data:`CONFIG_NAMES` there, or
    ``mkdocs.yml`` (which may not exist) when there is none."""
    return next(
        (folder / n for n in CONFIG_NAMES if (folder / n).is_file()), folder / CONFIG_NAMES[0]
    )


def location_options(func: F) -> F:
    """``-f`` and ``--root``, accepted before and after the command name."""
    func = click.option(
        "-f",
        "--config-file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="The site's mkdocs.yml (default: ./mkdocs.yml, else ./properdocs.yml).",
    )(func)
    func = click.option(
        "--root",
        "root",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Work on one ADR folder, without any MkDocs configuration.",
    )(func)
    return func


def resolve_config(config_file: Path | None, root: Path | None) -> Config:
    return config_for(*location(config_file, root))


def location(config_file: Path | None, root: Path | None) -> tuple[Path | None, Path | None]:
    """``-f`` and ``--root`` as given after the command name, or else before it."""
    parent = click.get_current_context().find_root().params
    return config_file or parent.get("config_file"), root or parent.get("root")


def config_for(config_file: Path | None, root: Path | None) -> Config:
    """The configuration ``-f FILE`` or ``--root PATH`` names (without either the first of
    :data:`CONFIG_NAMES` in the current folder), read afresh; for callers outside a click
    command (the MCP server)."""
    if config_file is not None and root is not None:
        raise UsageError(
            "-f/--config-file and --root exclude each other",
            fix="use -f for a site, or --root for a bare ADR folder",
        )
    if root is not None:
        return for_root(root)
    path = config_file or site_config(Path())
    if not path.exists():
        if config_file is None:
            raise ConfigError(
                "no mkdocs.yml in the current folder",
                fix="run inside a site, pass -f path/to/mkdocs.yml, or --root path/to/adr",
            )
        raise ConfigError(f"config file {path} does not exist", fix="check the -f path")
    return load_from_mkdocs_yml(path)


def today_option(func: F) -> F:
    return click.option(
        "--today",
        type=click.DateTime(formats=["%Y-%m-%d"]),
        default=None,
        help="Date to judge review-by dates against (default: today).",
    )(func)


def as_date(value: dt.datetime | None) -> dt.date | None:
    return value.date() if value is not None else None


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """The one way a command prints text: made :func:`~mkdocs_adr.safetext.terminal`
    safe, since record text (titles, statuses, paths) reaches every output."""
    click.echo(terminal(text), err=err, nl=nl)


def echo_json_text(text: str, *, nl: bool = True) -> None:
    """JSON text printed as the same data, with nothing raw a terminal acts on."""
    click.echo(json_text(text), nl=nl)


def emit_json(data: Any) -> None:
    echo_json_text(json_dumps(data))  # json.dumps(indent=2, sort_keys=True, ensure_ascii=False)


def echo_err(message: str) -> None:
    echo(message, err=True)


def is_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()
