"""Every language (issue 13 item 6, ADR-0041): banners, badges, record headers, the
INDEX, timeline and graph pages and CURRENT's freshness banner follow the site's
``theme.language`` (Material) or ``theme.locale`` (MkDocs' own themes), with the
plugin's ``language`` option to override it; message catalogues are package data.

The builds are real ``mkdocs build --strict`` runs of one small log, in each of the
seven languages in Material and in English and Chinese in the ``mkdocs`` theme. What
each language must show is written out below by hand (not read from the catalogues),
so a catalogue that is not used, or a key that falls back to English, fails here.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import string
import textwrap
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pytest

from mkdocs_adr.config import from_options
from mkdocs_adr.errors import ConfigError
from mkdocs_adr.locales import LANGUAGES
from mkdocs_adr.views import i18n

from .conftest import run_cli, run_mkdocs
from .test_summary_support import publish

pytestmark = pytest.mark.slow

# --------------------------------------------------------------------------- the log


def write_log(folder: Path) -> None:
    """A payments team's log: a superseded record, the accepted record that replaced it
    and a proposal that would replace that one in turn."""
    root = folder / "docs" / "adr"
    root.mkdir(parents=True)
    (folder / "docs" / "index.md").write_text("# Payments\n\nHow we decide.\n", "utf-8")
    records = {
        "0001-settle-payments-nightly.md": (
            "Settle payments nightly",
            "status: superseded\ndate: 2025-03-04\ndeciders: [Ana, Bo]\n"
            "superseded-by: [ADR-0002]\n",
        ),
        "0002-settle-payments-hourly.md": (
            "Settle payments hourly",
            "status: accepted\ndate: 2025-09-12\ndeciders: [Ana]\nsupersedes: [ADR-0001]\n",
        ),
        "0003-settle-payments-as-they-arrive.md": (
            "Settle payments as they arrive",
            "status: proposed\ndate: 2026-02-20\nsupersedes: [ADR-0002]\n",
        ),
    }
    for name, (title, front) in records.items():
        (root / name).write_text(
            f"---\n{front}---\n\n# {title}\n\n## Context\n\nBanks batch their files.\n\n"
            "## Decision\n\nWe settle on this schedule.\n\n## Consequences\n\nFewer retries.\n",
            "utf-8",
        )


def configure(folder: Path, theme: str, language: str | None, option: str | None = None) -> None:
    if theme == "material":
        theme_yaml = "theme:\n  name: material\n  font: false\n" + (
            f"  language: {language}\n" if language else ""
        )
    else:
        theme_yaml = "theme:\n  name: mkdocs\n  highlightjs: false\n" + (
            f"  locale: {language}\n" if language else ""
        )
    plugin = "  - adr" + (f":\n      language: {option}\n" if option else "\n")
    (folder / "mkdocs.yml").write_text(
        "site_name: Payments decisions\n"
        + theme_yaml
        + "markdown_extensions: [admonition, toc]\n"
        + "plugins:\n  - search\n"
        + plugin,
        "utf-8",
    )


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The log with a published, fresh CURRENT view (mkdocs-adr plan --mode summary and
    --confirm), copied for each build."""
    folder = tmp_path_factory.mktemp("payments")
    write_log(folder)
    configure(folder, "material", None)
    publish(folder)
    assert (folder / "docs" / "adr" / "CURRENT.md").is_file()
    return folder


@dataclass
class Site:
    folder: Path
    stderr: str

    def page(self, path: str) -> str:
        return (self.folder / "site" / path / "index.html").read_text("utf-8")


def build(
    published: Path,
    tmp_path: Path,
    theme: str,
    language: str | None,
    option: str | None = None,
    *,
    strict: bool = True,
) -> Site:
    folder = tmp_path / "site-src"
    shutil.copytree(published, folder)
    configure(folder, theme, language, option)
    proc = run_mkdocs("build", *(("--strict",) if strict else ()), cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return Site(folder, proc.stderr)


def text(fragment: str) -> str:
    """The visible text of an HTML fragment, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def html_lang(page: str) -> str:
    m = re.search(r'<html lang="([^"]+)"', page)
    assert m is not None
    return m.group(1)


# --------------------------------------------------------------------------- expected

#: What each language shows, written by hand: superseded banner (title, sentence start),
#: the proposed-replacement banner's title, the header's date label and a badge word,
#: the INDEX heading, a column, CURRENT's fresh banner title, the timeline heading.
EXPECTED: dict[str, dict[str, str]] = {
    "en": {
        "graph": "Decision graph",
        "superseded": "Superseded",
        "sentence": "This decision is no longer in effect. It was superseded by",
        "proposed": "A replacement is proposed",
        "date": "Date: 2025-03-04",
        "badge": "superseded",
        "pending": "(proposed)",
        "index": "Decision index",
        "column": "Successor",
        "fresh": "Current: this view matches its sources",
        "timeline": "Decision timeline",
        "filter": "Filter",
    },
    "zh": {
        "graph": "决策关系图",
        "superseded": "已被取代",
        "sentence": "本决策已不再有效。它已被",
        "proposed": "已有替代提议",
        "date": "日期: 2025-03-04",
        "badge": "已被取代",
        "pending": "(提议中)",
        "index": "决策索引",
        "column": "继任者",
        "fresh": "最新：此视图与其来源一致",
        "timeline": "决策时间线",
        "filter": "筛选",
    },
    "ja": {
        "graph": "決定のグラフ",
        "superseded": "置き換え済み",
        "sentence": "この決定はもう有効ではありません。",
        "proposed": "置き換えが提案されています",
        "date": "日付: 2025-03-04",
        "badge": "置き換え済み",
        "pending": "(提案中)",
        "index": "決定の索引",
        "column": "後継",
        "fresh": "最新：このビューは情報源と一致しています",
        "timeline": "決定のタイムライン",
        "filter": "絞り込み",
    },
    "de": {
        "graph": "Entscheidungsgraph",
        "superseded": "Abgelöst",
        "sentence": "Diese Entscheidung ist nicht mehr in Kraft. Sie wurde abgelöst durch",
        "proposed": "Eine Ablösung ist vorgeschlagen",
        "date": "Datum: 2025-03-04",
        "badge": "abgelöst",
        "pending": "(vorgeschlagen)",
        "index": "Entscheidungsindex",
        "column": "Nachfolger",
        "fresh": "Aktuell: diese Ansicht entspricht ihren Quellen",
        "timeline": "Zeitleiste der Entscheidungen",
        "filter": "Filter",
    },
    "fr": {
        "graph": "Graphe des décisions",
        "superseded": "Remplacée",
        "sentence": "Cette décision n'est plus en vigueur. Elle a été remplacée par",
        "proposed": "Un remplacement est proposé",
        "date": "Date: 2025-03-04",
        "badge": "remplacée",
        "pending": "(proposée)",
        "index": "Index des décisions",
        "column": "Successeur",
        "fresh": "À jour : cette vue correspond à ses sources",
        "timeline": "Chronologie des décisions",
        "filter": "Filtrer",
    },
    "es": {
        "graph": "Grafo de decisiones",
        "superseded": "Reemplazada",
        "sentence": "Esta decisión ya no está en vigor. La reemplazó",
        "proposed": "Se propone un reemplazo",
        "date": "Fecha: 2025-03-04",
        "badge": "reemplazada",
        "pending": "(propuesta)",
        "index": "Índice de decisiones",
        "column": "Sucesora",
        "fresh": "Al día: esta vista coincide con sus fuentes",
        "timeline": "Cronología de decisiones",
        "filter": "Filtrar",
    },
    "pt": {
        "graph": "Grafo de decisões",
        "superseded": "Substituída",
        "sentence": "Esta decisão já não está em vigor. Foi substituída por",
        "proposed": "Uma substituição foi proposta",
        "date": "Data: 2025-03-04",
        "badge": "substituída",
        "pending": "(proposta)",
        "index": "Índice de decisões",
        "column": "Sucessora",
        "fresh": "Atual: esta vista corresponde às suas fontes",
        "timeline": "Linha do tempo das decisões",
        "filter": "Filtrar",
    },
}

#: Sentences of the English banners that no other language's page may show.
ENGLISH_ONLY = (
    "This decision is no longer in effect",
    "A replacement is proposed",
    "Current: this view matches its sources",
    "Decision index",
    "For agents and tools",
)


def assert_language(site: Site, lang: str) -> None:
    want = EXPECTED[lang]
    old = site.page("adr/0001-settle-payments-nightly")
    m = re.search(
        r'<div class="admonition warning adr-banner adr-banner--superseded">.*?</div>', old
    )
    assert m is not None, "no superseded banner"
    banner = text(m.group(0))
    assert banner.startswith(want["superseded"] + " " + want["sentence"]), banner
    assert "ADR-0002 Settle payments hourly" in banner  # the record's own title, as written
    header = re.search(r'<div class="adr-header".*?</p>', old, re.S)
    assert header is not None
    assert want["date"] in text(header.group(0))
    assert f">{want['badge']}</span>" in header.group(0)
    assert f'title="{html.escape(want["badge"])}' not in header.group(0)  # the tip says more

    accepted = site.page("adr/0002-settle-payments-hourly")
    m = re.search(
        r'<div class="admonition info adr-banner adr-banner--replacement-proposed">.*?</div>',
        accepted,
    )
    assert m is not None, "no proposed-replacement banner"
    assert text(m.group(0)).startswith(want["proposed"])
    assert want["pending"] in text(m.group(0))

    index = site.page("adr/INDEX")
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", index, re.S)
    assert h1 is not None and text(h1.group(1)).startswith(want["index"])
    assert f'data-key="successor" aria-sort="none">{want["column"]}</th>' in index
    labels = re.search(r'data-adr-labels="([^"]+)"', index)
    assert labels is not None
    assert json.loads(html.unescape(labels.group(1)))["filter"] == want["filter"]

    current = site.page("adr/CURRENT")
    m = re.search(r'data-adr-current="fresh">\s*<p class="admonition-title">(.*?)</p>', current)
    assert m is not None, "no fresh CURRENT banner"
    assert text(m.group(1)) == want["fresh"]

    timeline = site.page("adr/TIMELINE")
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", timeline, re.S)
    assert h1 is not None and text(h1.group(1)).startswith(want["timeline"])

    graph = site.page("adr/GRAPH")
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", graph, re.S)
    assert h1 is not None and text(h1.group(1)).startswith(want["graph"])
    # each node's tooltip names its status in the site's language
    assert f"<title>ADR-0001 Settle payments nightly ({want['badge']})</title>" in graph

    if lang != "en":
        for page in (old, accepted, index, current):
            for sentence in ENGLISH_ONLY:
                assert sentence not in page, (lang, sentence)
    # the page says it is in the language its banners are in
    for page in (old, index, current, timeline):
        assert re.split(r"[-_]", html_lang(page))[0] == lang


# --------------------------------------------------------------------------- builds


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_material_builds_in_each_language(published: Path, tmp_path: Path, lang: str) -> None:
    site = build(published, tmp_path, "material", lang)
    assert_language(site, lang)


@pytest.mark.parametrize(("locale", "lang"), [("en", "en"), ("zh_CN", "zh")])
def test_mkdocs_theme_follows_its_locale(
    published: Path, tmp_path: Path, locale: str, lang: str
) -> None:
    site = build(published, tmp_path, "mkdocs", locale)
    assert_language(site, lang)


def test_without_a_theme_language_the_site_is_english(published: Path, tmp_path: Path) -> None:
    site = build(published, tmp_path, "mkdocs", None)
    assert_language(site, "en")


def test_the_option_overrides_the_theme(published: Path, tmp_path: Path) -> None:
    # a Material site in English whose decisions are published in German
    site = build(published, tmp_path, "material", "en", option="de")
    old = site.page("adr/0001-settle-payments-nightly")
    assert "Diese Entscheidung ist nicht mehr in Kraft." in old
    assert "This decision is no longer in effect" not in old
    assert html_lang(old) == "en"  # the theme's own words stay the theme's
    # and `auto` is the theme's language
    site = build(published, tmp_path / "auto", "material", "fr", option="auto")
    assert "Cette décision n'est plus en vigueur." in site.page("adr/0001-settle-payments-nightly")


def test_an_unknown_language_falls_back_to_english_with_a_note(
    published: Path, tmp_path: Path
) -> None:
    site = build(published, tmp_path, "material", "ko", strict=True)
    assert_english_banners(site)
    assert re.search(
        r"INFO .*theme language 'ko' has no mkdocs-adr messages \(known: en, de, es, fr, ja, "
        r"pt, zh\); the record banners and generated pages are in English",
        site.stderr,
    ), site.stderr
    site = build(published, tmp_path / "option", "material", "en", option="eo")
    assert "option 'language' 'eo' has no mkdocs-adr messages" in site.stderr
    assert_english_banners(site)


def assert_english_banners(site: Site) -> None:
    old = site.page("adr/0001-settle-payments-nightly")
    assert "This decision is no longer in effect. It was superseded by" in text(old)


def test_an_adr_only_site_has_its_home_page_and_section_in_the_language(
    published: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "adr-only"
    shutil.copytree(published, folder)
    (folder / "docs" / "index.md").unlink()
    configure(folder, "material", "zh")
    proc = run_mkdocs("build", "--strict", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    home = (folder / "site" / "index.html").read_text("utf-8")
    assert re.search(r"<h1[^>]*>概览</h1>", home)
    assert "本站发布 3 条架构决策记录（决策）。" in text(home)
    assert "决策索引</a>: 所有记录及其状态和继任者" in home
    assert "Overview" not in home and "This site publishes" not in home
    index = (folder / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    assert '<p class="adr-agent-files">供智能体和工具使用: <a href=' in index
    graph = (folder / "site" / "adr" / "GRAPH" / "index.html").read_text("utf-8")
    assert 'aria-label="图例：方框颜色表示状态，线条样式表示关系"' in graph
    assert ">取代 (提议中)</text>" in graph  # the proposed supersession's key
    assert (
        "<title>ADR-0003 取代 ADR-0002（提议中：在 ADR-0003 被接受之前，ADR-0002 仍然有效）</title>"
        in graph
    )


def test_the_committed_index_stays_english(published: Path, tmp_path: Path) -> None:
    folder = tmp_path / "zh"
    shutil.copytree(published, folder)
    configure(folder, "material", "zh")
    proc = run_cli("index", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    committed = (folder / "docs" / "adr" / "INDEX.md").read_text("utf-8")
    assert "\n# Decision index\n" in committed
    assert "| ID | Title | Status | Date | Current successor |" in committed
    assert "已被取代" not in committed
    # the site's INDEX page of that file is Chinese, and the build stays clean
    proc = run_mkdocs("build", "--strict", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    page = (folder / "site" / "adr" / "INDEX" / "index.html").read_text("utf-8")
    assert "决策索引" in page


# --------------------------------------------------------------------------- catalogues


def _catalogue(lang: str) -> dict[str, str]:
    raw = resources.files("mkdocs_adr").joinpath("locales", f"{lang}.json").read_text("utf-8")
    table = json.loads(raw)
    assert isinstance(table, dict)
    return table


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalogue_has_exactly_the_english_keys_and_placeholders(lang: str) -> None:
    english, table = _catalogue("en"), _catalogue(lang)
    assert sorted(table) == sorted(english)
    for key, words in english.items():
        assert _placeholders(table[key]) == _placeholders(words), (lang, key)
        assert table[key].strip() or not words.strip(), (lang, key)
    if lang != "en":
        # translated, not copied: the status words and banner titles differ from English
        differ = [
            k
            for k in english
            if k.startswith(("status.", "banner."))
            and k.endswith(("title", "accepted", "superseded", "proposed"))
            and table[k] != english[k]
        ]
        assert len(differ) >= 25, (lang, len(differ))


def test_the_package_ships_every_catalogue() -> None:
    shipped = {
        p.name
        for p in resources.files("mkdocs_adr").joinpath("locales").iterdir()
        if p.name.endswith(".json")
    }
    assert shipped == {f"{lang}.json" for lang in LANGUAGES}
    assert len(LANGUAGES) >= 7 and {"en", "zh", "ja", "de", "fr", "es", "pt"} <= set(LANGUAGES)


@pytest.mark.parametrize(
    ("option", "theme", "want"),
    [
        ("auto", "zh", "zh"),
        ("auto", "zh_CN", "zh"),
        ("auto", "zh-Hant", "zh"),
        ("auto", "pt-BR", "pt"),
        ("auto", "JA", "ja"),
        ("", None, "en"),
        ("de", "fr", "de"),
        ("es-MX", "en", "es"),
    ],
)
def test_choose_names_a_catalogue(option: str, theme: str | None, want: str) -> None:
    assert i18n.choose(option, theme) == (want, None)


def test_choose_falls_back_to_english_and_says_why() -> None:
    lang, note = i18n.choose("auto", "ko")
    assert lang == "en"
    assert note == (
        "theme language 'ko' has no mkdocs-adr messages (known: en, de, es, fr, ja, pt, zh); "
        "the record banners and generated pages are in English"
    )


def test_plural_and_list_rules() -> None:
    en, fr, zh = i18n.messages("en"), i18n.messages("fr"), i18n.messages("zh")
    assert en.n("timeline.summary", 1) == "1 record, newest first."
    assert en.n("timeline.summary", 0) == "0 records, newest first."
    assert fr.n("timeline.summary", 0) == "0 enregistrement, le plus récent d'abord."
    assert en.join(["a", "b", "c"]) == "a, b and c"
    assert zh.join(["甲", "乙", "丙"]) == "甲、乙和丙"
    assert en.status("missing") == "not recorded" and zh.status("missing") == "未注明"
    assert en.status("retired-ish") == "retired-ish"


@pytest.mark.parametrize("value", [12, "zh CN", "", "../en"])
def test_the_option_rejects_what_is_not_a_language_tag(tmp_path: Path, value: object) -> None:
    with pytest.raises(ConfigError, match="option 'language'"):
        from_options(
            {"language": value}, project_dir=tmp_path, docs_dir=tmp_path / "docs", config_file=None
        )


def test_the_option_takes_a_tag(tmp_path: Path) -> None:
    config = from_options(
        {"language": "pt-BR"}, project_dir=tmp_path, docs_dir=tmp_path / "docs", config_file=None
    )
    assert config.language == "pt-BR"
    default = from_options({}, project_dir=tmp_path, docs_dir=tmp_path / "docs", config_file=None)
    assert default.language == "auto"


def test_docs_name_the_languages() -> None:
    guide = (Path(__file__).resolve().parent.parent / "docs" / "guide" / "site.md").read_text(
        "utf-8"
    )
    section = guide.split("## Languages", 1)[1].split("\n## ", 1)[0]
    for lang in LANGUAGES:
        assert f"`{lang}`" in section
    assert textwrap.dedent(section).strip()


def test_legend_labels_in_wide_scripts_get_their_width() -> None:
    from mkdocs_adr.views import svg

    assert svg.label_width("ab") == 15
    assert svg.label_width("已被取代") == 50  # four wide characters, not four narrow ones
    drawn = svg.legend_html(uid="k", statuses=["superseded"], kinds=[], words=i18n.messages("ja"))
    assert (
        'width="100" height="20"' in drawn
    )  # 19 + 6 x 12.5 + 6 and ">置き換え済み</text>" in drawn


# --------------------------------------------------------------------------- every banner


@pytest.fixture(scope="module")
def situations(tmp_path_factory: pytest.TempPathFactory) -> object:
    from .test_views_banners import SITUATION_RECORDS, STATUS_LINE, make_log

    records = list(SITUATION_RECORDS) + [
        (f"{n:04d}-status-{status}.md", line, "")
        for n, (status, line) in enumerate(sorted(STATUS_LINE.items()), start=900)
    ]
    return make_log(tmp_path_factory.mktemp("situations"), records)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_banner_situation_renders_in_each_language(situations: object, lang: str) -> None:
    """Every banner, header, relation list and pager of the banner tests' log, in each
    language: nothing raises, and no English banner title or sentence is left."""
    from mkdocs_adr.log import Log
    from mkdocs_adr.views import current as current_view
    from mkdocs_adr.views import page as page_view

    from .test_views_banners import href

    assert isinstance(situations, Log)
    english = i18n.messages("en")
    words = i18n.messages(lang)
    ctx = page_view.PageContext.build(situations, words)
    shown = []
    for rec in situations.records:
        shown += page_view.banners(ctx, rec, href)
        shown.append(page_view.header(ctx, rec))
        shown.append(page_view.relations(ctx, rec, href))
        shown.append(page_view.pager(ctx, rec, href, index_href="i", graph_href="g"))
    kinds = {m for b in shown for m in re.findall(r"adr-banner--([a-z-]+)", b)}
    assert len(kinds) >= 15, kinds  # the log shows most banner kinds
    page = "\n".join(shown)
    for key in english.table:
        title = english.table[key]
        if key.startswith("banner.") and key.endswith(".title") and title != words.table[key]:
            assert f'<p class="admonition-title">{html.escape(title)}</p>' not in page, key
    for sentence in ("is no longer in effect", "stays in effect", "Superseded by", "Date:"):
        assert sentence not in page, (lang, sentence)
    draft = current_view.draft_banner("p-1", 2, "staged", ["ADR-0001 changed"], words)
    assert english.t("current.draft.title", plan_id="p-1") not in draft
    assert words.t("current.draft.title", plan_id="p-1") in html.unescape(draft)
