"""CLI commands, one module per command family.

Every module here exports ``COMMANDS``, a list of click commands; ``cli.py``
registers what :func:`all_commands` returns. A new command family is one module
and one line below: plain imports that grep and mypy follow.
"""

from __future__ import annotations

import click


def all_commands() -> list[click.Command]:
    from . import (
        archive,
        authoring,
        check,
        context,
        find,
        graph,
        index,
        plan,
        status,
        status_change,
    )

    found: list[click.Command] = []
    for module in (
        archive,
        authoring,
        check,
        context,
        find,
        graph,
        index,
        plan,
        status,
        status_change,
    ):
        found.extend(module.COMMANDS)
    return found
