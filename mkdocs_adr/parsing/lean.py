"""Readings as plain tuples, and back: how the parse cache carries them.

A :class:`~mkdocs_adr.model.Parsed` and the relations, units and problems in it pickle
one Python call per object through the model classes' reducers; the same values as
tuples of strings, numbers and ``None`` pickle in C (docs/adr/0053). This module
imports the model alone, so the cache can use it without importing the reader.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any

from ..model import Parsed, Problem, Relation, Unit

#: The fields of the readings, in order, as :func:`lean` writes them.
_PARSED = tuple(f.name for f in dataclasses.fields(Parsed))
_RELATION = tuple(f.name for f in dataclasses.fields(Relation))
_PROBLEM = tuple(f.name for f in dataclasses.fields(Problem))
_UNIT = tuple(f.name for f in dataclasses.fields(Unit))
_AT_RELATIONS, _AT_UNITS, _AT_PROBLEMS, _AT_TEXT = (
    _PARSED.index("relations"),
    _PARSED.index("units"),
    _PARSED.index("problems"),
    _PARSED.index("text"),
)
_parsed_values = operator.attrgetter(*_PARSED)
_relation_values = operator.attrgetter(*_RELATION)
_problem_values = operator.attrgetter(*_PROBLEM)
_unit_values = operator.attrgetter(*_UNIT)


def lean(value: object, *, text: bool = True) -> object:
    """A reading as plain tuples: its field values in order, with its relations,
    units and problems as tuples of theirs (what :func:`unlean` rebuilds). A cold
    run writes every reading: the pickler's own walk over tuples takes about a third
    of the time the model classes' reducers take. Anything but a reading stays as it
    is (and is not taken for one when read back). Without ``text``, the reading's
    text is left out (``""``): the parse cache gives it back from the file."""
    if type(value) is not Parsed:
        return value
    values = list(_parsed_values(value))
    if not text:
        values[_AT_TEXT] = ""
    if value.relations:
        values[_AT_RELATIONS] = tuple(map(_relation_values, value.relations))
    if value.units:
        values[_AT_UNITS] = tuple(
            (*_unit_values(u)[:-1], tuple(map(_relation_values, u.relations))) for u in value.units
        )
    if value.problems:
        values[_AT_PROBLEMS] = tuple(map(_problem_values, value.problems))
    return tuple(values)


def unlean(values: tuple[Any, ...]) -> Parsed:
    """The reading :func:`lean` wrote as ``values``; raises on anything else."""
    if len(values) != len(_PARSED):
        raise ValueError("not a lean reading")
    fields = list(values)
    fields[_AT_RELATIONS] = tuple([Relation(*r) for r in fields[_AT_RELATIONS]])
    fields[_AT_UNITS] = tuple(
        [
            Unit(u[0], u[1], u[2], u[3], u[4], u[5], tuple([Relation(*r) for r in u[6]]))
            for u in fields[_AT_UNITS]
        ]
    )
    fields[_AT_PROBLEMS] = tuple([Problem(*p) for p in fields[_AT_PROBLEMS]])
    parsed: Parsed = object.__new__(Parsed)
    # what unpickling a Parsed does: a new object and its __dict__ (the class is frozen)
    parsed.__dict__.update(zip(_PARSED, fields, strict=True))
    return parsed
