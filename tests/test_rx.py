"""``rx.compile``: the same answers as ``re.compile``, compiled on first use."""

from __future__ import annotations

import re

from mkdocs_adr import rx


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    source, text = r"(?P<id>ADR)-(\d+)", "see ADR-12, adr-7 and ADR-0003"
    for flags in (0, re.IGNORECASE):
        lazy, real = rx.compile(source, flags), re.compile(source, flags)
        assert lazy.pattern == real.pattern
        assert "match" not in vars(lazy), "nothing compiled before the first use"
        assert lazy.search(text).group(0) == real.search(text).group(0)  # type: ignore[union-attr]
        assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
        assert lazy.findall(text) == real.findall(text)
        assert lazy.sub("X", text) == real.sub("X", text)
        assert lazy.subn("X", text) == real.subn("X", text)
        assert lazy.split(text) == real.split(text)
        assert lazy.match(text) is None and real.match(text) is None
        assert lazy.fullmatch("ADR-1") is not None
        assert (lazy.flags, lazy.groups, lazy.groupindex) == (
            real.flags,
            real.groups,
            real.groupindex,
        )


def test_an_unknown_attribute_is_still_an_error() -> None:
    lazy = rx.compile("a")
    try:
        lazy.nonsense  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError:
        return
    raise AssertionError("no AttributeError")
