"""The words of the site's generated text in the site's language (ADR-0041).

Host-neutral: the host says which language the site is in (MkDocs: the theme's
``language``, or its ``locale``; the ``language`` option overrides both) and
:func:`choose` names the catalogue to use, English for a language mkdocs-adr has no
catalogue for. Catalogues are package data, ``mkdocs_adr/locales/<lang>.json``: one
flat object, key to text, with the same keys and the same ``{placeholders}`` as
``en.json`` (tests/test_site_i18n.py checks both). The views take a :class:`Messages`
and ask it for every word they show; what stays English on purpose (the committed
INDEX.md, index.json, llms.txt, problem messages, a record's own text) never comes
through here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from .. import rx
from ..locales import LANGUAGES, catalogue

DEFAULT = LANGUAGES[0]

_CODE = rx.compile(r"[A-Za-z]{2,3}")


def language_of(code: str | None) -> str | None:
    """The catalogue for a language tag (``zh_CN``, ``pt-BR``, ``DE`` ...): its primary
    subtag when mkdocs-adr has that language, else None."""
    if not code:
        return None
    primary = re.split(r"[-_]", str(code).strip(), maxsplit=1)[0].lower()
    return primary if _CODE.fullmatch(primary) and primary in LANGUAGES else None


def choose(option: str, theme_language: str | None) -> tuple[str, str | None]:
    """The language of the generated text: the ``language`` option unless ``auto``, else the
    theme's; English (with a note for the log) when there is no catalogue for it."""
    chosen = option if option and option != "auto" else ""
    requested = (chosen or theme_language or DEFAULT).strip()
    found = language_of(requested)
    if found is not None:
        return found, None
    source = "option 'language'" if chosen else "theme language"
    return DEFAULT, (
        f"{source} {requested!r} has no mkdocs-adr messages (known: {', '.join(LANGUAGES)}); "
        "the record banners and generated pages are in English"
    )


#: Languages whose singular covers 0 as well as 1 (CLDR: French, Portuguese).
_ZERO_IS_ONE = frozenset({"fr", "pt"})


@dataclass(frozen=True)
class Messages:
    """One language's words, as the views ask for them."""

    lang: str
    table: Mapping[str, str]

    def t(self, key: str, **args: object) -> str:
        """The text of ``key`` with its ``{placeholders}`` filled in (values as given:
        a view escapes record text before it passes it)."""
        return self.table[key].format_map(args)

    def n(self, key: str, count: int, **args: object) -> str:
        """``key-one`` or ``key-other`` by ``count`` (filled in as ``{n}``)."""
        one = count == 1 or (count == 0 and self.lang in _ZERO_IS_ONE)
        return self.t(f"{key}-{'one' if one else 'other'}", n=count, **args)

    def status(self, status: str) -> str:
        """A status word as the site shows it (``status.<status>``); an unknown word as is."""
        return self.table.get(f"status.{status}", status)

    def join(self, items: Sequence[str]) -> str:
        """``a, b and c`` in this language."""
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        return self.t("list.and", first=self.t("list.sep").join(items[:-1]), last=items[-1])


@cache
def messages(lang: str = DEFAULT) -> Messages:
    return Messages(lang, catalogue(lang))


#: The English words: what a view says when no language is given (the CLI, tests).
ENGLISH = messages(DEFAULT)
