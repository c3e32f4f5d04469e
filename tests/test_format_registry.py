"""The format registry: every registered format reads what it writes, in registry order.

For each writable format the record ``mkdocs-adr new`` would start from (its
template, filled as authoring fills it) must be detected as that format, and
the format's writer must change its status, add a relation and mark it
superseded so that the parser reads each change back. The order in which the
reader tries the detectors is the registry's, and the ``style`` option offers
exactly the registry's forceable formats.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_adr import config
from mkdocs_adr.authoring import templates
from mkdocs_adr.authoring.compose import Fields, compose
from mkdocs_adr.authoring.writers import WRITABLE as AUTHORING_WRITABLE
from mkdocs_adr.authoring.writers import WRITERS
from mkdocs_adr.authoring.writers import writer_for as authoring_writer_for
from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS, ConfigError
from mkdocs_adr.model import Parsed
from mkdocs_adr.parsing import ParseOptions, parse_bytes
from mkdocs_adr.parsing import reader as reader_module
from mkdocs_adr.parsing.editable import Editable
from mkdocs_adr.parsing.formats import (
    BY_NAME,
    DETECTORS,
    FORMATS,
    WRITABLE,
    Format,
    Ref,
    Writer,
    writer_for,
)
from mkdocs_adr.parsing.formats import madr2 as madr2_module

HEADINGS = frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS)
WRITABLE_FORMATS = [f for f in FORMATS if f.writer is not None]
TITLE = "Use the queue"
DATE = "2024-01-01"
TARGET = Ref("ADR-0003", "adr/0003-use-the-cache.md", "Use the cache", "3. Use the cache", True)


def _options(style: str = "auto") -> ParseOptions:
    return ParseOptions(
        aliases=tuple(sorted(DEFAULT_ALIASES.items())), status_headings=HEADINGS, style=style
    )


def _new_record(fmt: Format) -> Editable:
    """The record ``mkdocs-adr new`` writes from ``fmt``'s skeleton (authoring's compose)."""
    assert fmt.writer is not None and fmt.template is not None
    if fmt.numbered:
        number: int | None = 7
        rid, name = "ADR-0007", "0007-use-the-queue.md"
    else:
        number, rid, name = None, "20240101-use-the-queue", "20240101-use-the-queue.md"
    fields = Fields(TITLE, number, 4, rid, DATE, "proposed")
    return compose(fmt.name, f"adr/{name}", fields, source=fmt.template, headings=HEADINGS)


def _read(ed: Editable, style: str = "auto") -> Parsed:
    return parse_bytes(ed.to_bytes(), path=ed.path, options=_options(style))


def _targets(parsed: Parsed, kind: str) -> set[str]:
    return {r.target for r in parsed.relations if r.kind == kind and r.authoritative}


def test_the_registry_is_not_empty() -> None:
    assert len(FORMATS) >= 8
    assert len(WRITABLE_FORMATS) >= 5
    assert len(DETECTORS) >= 5


@pytest.mark.parametrize("fmt", WRITABLE_FORMATS, ids=lambda f: f.name)
def test_a_format_detects_its_own_template(fmt: Format) -> None:
    parsed = _read(_new_record(fmt))
    assert parsed.style == fmt.name
    assert parsed.status == "proposed"
    assert parsed.title == TITLE
    assert str(parsed.date) == DATE
    assert not [p for p in parsed.problems if p.code == "ADR001"]


@pytest.mark.parametrize("fmt", WRITABLE_FORMATS, ids=lambda f: f.name)
def test_a_format_forced_by_the_style_option_still_reads_its_template(fmt: Format) -> None:
    assert fmt.forced, f"{fmt.name} is writable but the style option cannot force it"
    parsed = _read(_new_record(fmt), style=fmt.name)
    assert parsed.style == fmt.name
    assert parsed.status == "proposed"


@pytest.mark.parametrize("fmt", WRITABLE_FORMATS, ids=lambda f: f.name)
def test_a_writer_changes_the_status_and_the_parser_reads_it(fmt: Format) -> None:
    writer = fmt.writer
    assert writer is not None
    ed = _new_record(fmt)
    before = ed.text
    writer.set_status(ed, writer.status_word("accepted"))
    assert ed.text != before
    parsed = _read(ed)
    assert (parsed.style, parsed.status) == (fmt.name, "accepted")


@pytest.mark.parametrize("fmt", WRITABLE_FORMATS, ids=lambda f: f.name)
def test_a_writer_adds_a_relation_and_the_parser_reads_it(fmt: Format) -> None:
    writer = fmt.writer
    assert writer is not None
    ed = _new_record(fmt)
    assert not _targets(_read(ed), "amends")
    writer.add_relation(ed, "amends", "Amends", TARGET)
    parsed = _read(ed)
    assert parsed.style == fmt.name
    assert parsed.status == "proposed"
    found = _targets(parsed, "amends")
    assert found and found <= {"ADR-0003", "0003-use-the-cache.md"}, parsed.relations


@pytest.mark.parametrize("fmt", WRITABLE_FORMATS, ids=lambda f: f.name)
def test_a_writer_marks_superseded_and_the_parser_reads_the_successor(fmt: Format) -> None:
    writer = fmt.writer
    assert writer is not None
    ed = _new_record(fmt)
    writer.set_status(ed, writer.status_word("accepted"))
    writer.mark_superseded(ed, TARGET, linked=False)
    parsed = _read(ed)
    assert (parsed.style, parsed.status) == (fmt.name, "superseded")
    found = _targets(parsed, "superseded-by")
    assert found and found <= {"ADR-0003", "0003-use-the-cache.md"}, parsed.relations


def test_writable_formats_are_what_authoring_writes_and_fills_in() -> None:
    assert tuple(f.name for f in WRITABLE_FORMATS) == WRITABLE
    assert AUTHORING_WRITABLE == WRITABLE
    assert set(templates.SKELETONS) == set(WRITABLE)
    for fmt in WRITABLE_FORMATS:
        assert writer_for(fmt.name) is fmt.writer
        assert WRITERS[fmt.name] is fmt.writer
        assert authoring_writer_for(fmt.name) is fmt.writer
        assert templates.SKELETONS[fmt.name] == fmt.template
    for name in ("table", "inline", "container", "unknown"):
        assert writer_for(name) is None


# --------------------------------------------------------------------- detection order

#: Each format's status signal, written so that each can be removed on its own.
SIGNALS: dict[str, str] = {
    "frontmatter": "---\nid: ADR-0001\ntitle: Mixed\nstatus: accepted\n---\n",
    "table": "| **Status** | proposed |\n|---|---|\n\n",
    "madr2": "* Status: rejected\n\n",
    "inline": "Status: draft\n\n",
    "nygard": "## Status\n\nDeprecated\n\n",
}


def _mixed(names: list[str]) -> bytes:
    head = SIGNALS["frontmatter"] if "frontmatter" in names else ""
    body = "# Mixed\n\n" + "".join(SIGNALS[n] for n in ("inline", "table", "madr2") if n in names)
    body += SIGNALS["nygard"] if "nygard" in names else ""
    return (head + body + "## Context\n\nWhy.\n").encode()


def test_detection_order_is_the_registry_order() -> None:
    order = [f.name for f in FORMATS if f.detect is not None]
    assert list(DETECTORS) == order
    assert tuple(order) == reader_module._ALL
    assert set(order) == set(SIGNALS)
    # a record carrying every signal is read as the first format in the order;
    # without that signal, as the next one
    seen = []
    left = list(order)
    while left:
        parsed = parse_bytes(_mixed(left), path="adr/0001-mixed.md", options=_options())
        seen.append(parsed.style)
        left.remove(parsed.style)
    assert seen == order


def test_the_detection_order_is_the_one_parsing_was_tuned_with() -> None:
    # ADR-0009: changing the order changes which style a mixed record gets
    assert list(DETECTORS) == ["frontmatter", "table", "madr2", "nygard", "inline"]


def test_a_variant_follows_its_parent_and_claims_only_its_own() -> None:
    for i, fmt in enumerate(FORMATS):
        if fmt.variant_of is None:
            continue
        parent = [f.name for f in FORMATS].index(fmt.variant_of)
        assert parent < i, f"{fmt.name} is listed before its parent {fmt.variant_of}"
    madr2 = _new_record(BY_NAME["madr2"])
    assert _read(madr2).style == "madr2"
    as_dashes = Editable.new(
        "adr/20240101-use-the-queue.md", madr2.text.replace("* ", "- "), HEADINGS
    )
    assert _read(as_dashes).style == "log4brains"
    numbered = Editable.new("adr/0007-use-the-queue.md", as_dashes.text, HEADINGS)
    assert _read(numbered).style == "madr2"  # no date slug and no tags: MADR 2


def test_a_format_is_checked_when_it_is_defined() -> None:
    with pytest.raises(ValueError, match="variant"):
        Format("odd", "a variant with its own detector", detect=madr2_module.detect, variant_of="x")
    with pytest.raises(ValueError, match="template"):
        Format("odd", "a writer without a template", writer=Writer())
    with pytest.raises(ValueError, match="writer is for"):
        Format("odd", "another format's writer", writer=madr2_module.BulletWriter(), template="")


# --------------------------------------------------------------------- the style option


def test_config_styles_are_the_registry_names() -> None:
    forceable = [f.name for f in FORMATS if f.forced]
    assert ("auto", *forceable) == config.STYLES
    # the choices the option has always had
    assert set(forceable) == {"nygard", "madr2", "madr", "log4brains", "frontmatter", "container"}


@pytest.mark.parametrize("style", config.STYLES)
def test_the_style_option_takes_every_registry_choice(tmp_path: Path, style: str) -> None:
    cfg = config.from_options(
        {"roots": ["docs/adr"], "style": style},
        project_dir=tmp_path,
        docs_dir=tmp_path,
        config_file=None,
    )
    assert cfg.style == style


@pytest.mark.parametrize("style", ["table", "inline", "madr4"])
def test_the_style_option_refuses_what_the_registry_does_not_force(
    tmp_path: Path, style: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(", ".join(config.STYLES))):
        config.from_options(
            {"roots": ["docs/adr"], "style": style},
            project_dir=tmp_path,
            docs_dir=tmp_path,
            config_file=None,
        )


def test_the_style_option_lists_the_registrys_forced_formats_in_its_order() -> None:
    from mkdocs_adr.config import STYLES
    from mkdocs_adr.parsing.formats import FORCED

    assert ("auto", *FORCED) == STYLES


def test_reading_the_options_imports_no_format() -> None:
    code = (
        "import sys, mkdocs_adr.config; "
        "print(sorted(m for m in sys.modules if m.startswith('mkdocs_adr.parsing.formats')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
