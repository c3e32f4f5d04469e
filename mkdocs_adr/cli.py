"""The ``mkdocs-adr`` command line: a click group over the library.

Each command lives in :mod:`mkdocs_adr.commands`; this module only wires them
and turns domain errors into exit codes (0 ok, 1 problems, 2 usage, 3 refused).
"""

from __future__ import annotations

import gc
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from . import __version__, kept
from .commands import TABLE, load
from .commands._common import echo, location_options
from .errors import AdrError


class AdrGroup(click.Group):
    """Turns domain errors into their exit codes wherever the group is invoked.

    Doing it here rather than only in :func:`main` means click's test runner
    and any other caller of ``cli`` see the same message and exit code as a user.
    """

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Click's own main, except that its usage messages are printed through
        :func:`show` (they quote the user's arguments, which may hold escapes)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:
            show(exc)
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(TABLE)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return load(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from :data:`~mkdocs_adr.commands.TABLE`: no module imported."""
        rows = [(name, TABLE[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> object:
        try:
            if ctx.params.get("no_cache"):
                from .cache import disabled

                with disabled():
                    return super().invoke(ctx)
            return super().invoke(ctx)
        except AdrError as exc:
            echo(f"mkdocs-adr: {exc.format()}", err=True)
            ctx.exit(exc.exit_code)


@click.group(
    cls=AdrGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="mkdocs-adr")
@location_options
@click.option(
    "--no-cache",
    is_flag=True,
    help="Parse every record afresh; neither read nor write the parse cache.",
)
@click.pass_context
def cli(ctx: click.Context, config_file: Path | None, root: Path | None, no_cache: bool) -> None:
    """Publish Architecture Decision Records with MkDocs and keep their views honest.

    Reads the `adr` plugin's settings from ./mkdocs.yml (or -f FILE), or works on
    one ADR folder with --root PATH. Without a command, runs `plan`.

    Parsed records are cached outside the project ($XDG_CACHE_HOME/mkdocs-adr, else
    ~/.cache/mkdocs-adr); --no-cache or MKDOCS_ADR_NO_CACHE=1 turns that off.

    Exit codes: 0 ok, 1 problems at or above the threshold, 2 usage error,
    3 refused (plan stale or invalid, lock held, precondition failed).
    """
    if ctx.invoked_subcommand is None:
        plan = load("plan")
        assert plan is not None
        ctx.invoke(plan)


def show(exc: click.ClickException) -> None:
    """A click error as click words it, made terminal-safe like all our output."""
    buffer = io.StringIO()
    exc.show(file=buffer)
    echo(buffer.getvalue(), err=True, nl=False)


def main(argv: list[str] | None = None) -> int:
    try:
        # without standalone mode, click returns the code of ``ctx.exit`` (AdrGroup)
        code = cli.main(args=argv, prog_name="mkdocs-adr", standalone_mode=False)
        if isinstance(code, int):
            return code
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except click.exceptions.Abort:
        echo("mkdocs-adr: aborted; nothing was applied.", err=True)
        return 3
    except click.ClickException as exc:
        show(exc)
        return 2 if isinstance(exc, click.UsageError) else exc.exit_code
    except AdrError as exc:
        echo(f"mkdocs-adr: {exc.format()}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        echo("mkdocs-adr: interrupted; nothing was applied.", err=True)
        return 3
    except Exception as exc:
        if os.environ.get("MKDOCS_ADR_DEBUG"):
            raise
        echo(
            f"mkdocs-adr: internal error: {type(exc).__name__}: {exc}\n"
            "Please report this; set MKDOCS_ADR_DEBUG=1 to see the traceback.",
            err=True,
        )
        return 70
    return 0


def run() -> None:  # pragma: no cover - console entry point
    kept.hold_until_exit()  # what a command loads is left to the exit (docs/adr/0064)
    code = main()
    # the process ends now: its last collection need not walk the log it loaded
    gc.freeze()
    sys.exit(code)
