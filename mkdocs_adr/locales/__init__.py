"""The message catalogues, one JSON file per language (package data, ADR-0041).

``<lang>.json`` is one flat object, key to text; every catalogue has the keys and the
``{placeholders}`` of ``en.json``. Only this module reads them (the views read no
file): :mod:`mkdocs_adr.views.i18n` asks :func:`catalogue`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources

#: The languages with a catalogue; the first is the fallback.
LANGUAGES = ("en", "de", "es", "fr", "ja", "pt", "zh")


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """The catalogue of ``lang`` (one of :data:`LANGUAGES`), read once."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    text = resources.files(__name__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    table = json.loads(text)
    if not isinstance(table, dict):
        raise TypeError(f"{lang}.json is not an object")
    return table
