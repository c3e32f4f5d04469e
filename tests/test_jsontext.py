"""The quick indented JSON text is json.dumps' text, for every kind of value."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from mkdocs_adr.jsontext import dumps


def expected(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        False,
        0,
        -5,
        10**30,
        1.5,
        float("nan"),
        float("inf"),
        -float("inf"),
        "",
        'a"\\\n\u2028é\x00\x1f',
        [],
        {},
        (),
        [[]],
        {"b": {}, "a": []},
        {"z": [1, {"y": None, "x": (1, 2.0)}], "é": "ü", "A": "B"},
        {1: "a", 2: "b"},  # non-string keys: json's own conversion
        {True: 1, False: 2},
    ],
)
def test_same_text(value: Any) -> None:
    assert dumps(value) == expected(value)


def test_random_values() -> None:
    rnd = random.Random(7)

    def gen(depth: int) -> Any:
        r = rnd.random()
        if depth > 4 or r < 0.4:
            text = "".join(chr(rnd.randint(0, 0x2FFF)) for _ in range(rnd.randint(0, 8)))
            return rnd.choice([None, True, False, rnd.randint(-(10**6), 10**6), rnd.random(), text])
        if r < 0.7:
            return [gen(depth + 1) for _ in range(rnd.randint(0, 4))]
        return {
            "".join(chr(rnd.randint(32, 0x3000)) for _ in range(rnd.randint(0, 4))): gen(depth + 1)
            for _ in range(rnd.randint(0, 5))
        }

    for _ in range(3000):
        value = gen(0)
        assert dumps(value) == expected(value)


def test_other_types_raise_as_json_does() -> None:
    with pytest.raises(TypeError):
        dumps({"a": object()})
