"""CLI commands, one module per command family.

Every module here exports ``COMMANDS``, a list of click commands; ``cli.py``
registers them all, so adding a command never means editing the group.
"""

from __future__ import annotations

import importlib
import pkgutil

import click


def all_commands() -> list[click.Command]:
    found: list[click.Command] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(getattr(module, "COMMANDS", []))
    return found
