"""lazy: modules loaded on the first use of one of their names (issue 15, docs/adr/0060).

A build that replays its snapshot (ADR-0051) fills every page from what the last build
kept and makes no view: the modules that draw graphs, lay out INDEX, the timeline,
CURRENT and ``index.json``, or read links and bounds, are imported by the plugin but never
run, and importing them (their dataclasses' generated methods above all) was a quarter
of what importing the plugin cost. ``module(name)`` stands for ``import name`` in a
module that needs ``name`` only in some of its functions: it gives the module when it is
already imported, else a module object whose first attribute read imports it
(:class:`importlib.util.LazyLoader`), after which it is the real module.

Type checkers are shown the real import (``if TYPE_CHECKING:``); a name imported from a
lazy module with ``from x import y`` at module level would load it at once, so the user
of a lazy module reads ``module.y`` where it needs it.

Before Python 3.12, ``LazyLoader`` takes no lock: two threads reading a lazy module for
the first time at once could see it half run. Every front end here reads them on one
thread (the plugin's hooks, the CLI, the MCP server's handlers on its event loop, the
Zensical extension under its lock); a new threaded caller imports what it needs first.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def module(name: str) -> ModuleType:
    """The module ``name`` (absolute), loaded when one of its attributes is first read."""
    found = sys.modules.get(name)
    if found is not None:
        return found
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    made = importlib.util.module_from_spec(spec)
    sys.modules[name] = made
    spec.loader.exec_module(made)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, made)
    return made


def loaded(name: str) -> bool:
    """Whether the module ``name`` has run (one that :func:`module` gave and nothing has
    read yet has not); for tests and benchmarks. Reads nothing of the module itself."""
    found = sys.modules.get(name)
    return found is not None and type(found) is ModuleType
