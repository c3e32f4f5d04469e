"""rx: regular expressions compiled on first use (issue 15, docs/adr/0058).

Compiling its patterns was about half of what importing a parsing module cost, and a
build that replays its snapshot (ADR-0051) or a CLI answer from the warm cache imports
those modules but matches with few or none of them. ``rx.compile(source, flags)``
stands for ``re.compile(source, flags)`` in a module's constants: the first use of any
attribute but ``pattern`` compiles it and puts the compiled pattern's methods and
attributes on the object itself, so every later call costs what a compiled pattern's
costs. The object is not a :class:`re.Pattern`: hand ``re`` functions the real one.
"""

from __future__ import annotations

import re
from typing import Any, cast

_COPIED = (
    "match",
    "fullmatch",
    "search",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "flags",
    "groups",
    "groupindex",
)


class _Pattern:
    def __init__(self, source: str, flags: int) -> None:
        self.pattern = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(self.pattern, self._flags)
        for attr in _COPIED:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)


def compile(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, done the first time the pattern is used."""
    return cast("re.Pattern[str]", _Pattern(source, flags))
