"""What a console run holds until its process ends, so that it is never freed.

Freeing a loaded log object by object when the command that loaded it returns costs a
cold 10,000-record ``plan`` about 27 ms (1.5% of its CPU) for a process that ends a
moment later; the system takes the memory back at the exit at no cost (docs/adr/0064).
Only the console entry point (:func:`mkdocs_adr.cli.run`) holds anything: in-process
callers (the tests, the MCP server) free what they load as usual.
"""

from __future__ import annotations

#: What is held (the list itself first: a cycle), or None while nothing is held.
_held: list[object] | None = None


def hold_until_exit() -> None:
    """From now on, :func:`keep_until_exit` holds what it is given until the process ends.

    The list holds itself, so neither the clearing of the modules at the exit nor the
    exit's last collection frees it or anything in it once ``gc.freeze()`` has moved it
    out of the collector's reach (:func:`mkdocs_adr.cli.run` freezes before exiting)."""
    global _held
    if _held is None:
        _held = []
        _held.append(_held)


def keep_until_exit(value: object) -> None:
    """Hold ``value`` until the process ends, after :func:`hold_until_exit`; else nothing."""
    if _held is not None:
        _held.append(value)
