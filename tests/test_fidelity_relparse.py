"""Relations as real logs write them (issue 11, items 2-4 and free-text table targets).

Partial supersession is its own kind; a status paragraph is split per line;
localized relation phrases (zh, ja, es, pt, fr, de) map to their kinds; a
bilingual record is one record whose halves' statuses are compared (ADR021);
a declared prose succession ("This ADR is superseded by ...") is a relation
with origin ``declaration``, never also a mention; a metadata-table relation
whose value names no record keeps its text. Every link keeps its href as
target and its text as label.

The fixtures are in tests/fixtures/logs/relparse/<shape>/adr/.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS, from_options
from mkdocs_adr.log import Log, load
from mkdocs_adr.model import Parsed, Record
from mkdocs_adr.parsing import ParseOptions, parse_bytes
from mkdocs_adr.parsing.status import VERBS, relation_line, relations_in_text

from .conftest import LOGS, run_cli, run_mkdocs

FIXTURES = LOGS / "relparse"
OPTIONS = ParseOptions(
    aliases=tuple(sorted(DEFAULT_ALIASES.items())),
    status_headings=frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS),
    prefixes=("ADR",),
)

Rel = tuple[str, str, str, str, int | None]


def parse(text: str, name: str = "adr/0009-x.md") -> Parsed:
    return parse_bytes(text.encode("utf-8"), path=name, options=OPTIONS)


def rels(parsed: Parsed) -> list[Rel]:
    """(kind, target, label, origin, line) of every relation, mentions included."""
    return sorted((r.kind, r.target, r.label, r.origin, r.line) for r in parsed.relations)


def problems(parsed: Parsed) -> list[tuple[str, int | None]]:
    return [(p.code, p.line) for p in parsed.problems]


# ------------------------------------------------------------- the fixture files

#: file, status, status line, every relation, every problem (code, line)
EXPECTED: list[tuple[str, str, int | None, list[Rel], list[tuple[str, int | None]]]] = [
    # Nygard / adr-tools
    (
        "nygard/0001-keep-orders-in-one-ledger.md",
        "superseded",
        7,
        [
            (
                "partially-superseded-by",
                "0004-archive-closed-orders.md",
                "4. Archive closed orders",
                "status-section",
                9,
            ),
            (
                "superseded-by",
                "0003-split-the-ledger-by-region.md",
                "3. Split the ledger by region",
                "status-section",
                7,
            ),
        ],
        [],
    ),
    ("nygard/0002-record-refunds-as-orders.md", "accepted", 7, [], []),
    (
        # "Accepted" / "Supersedes [..](..)" / "Amended by [..](..)" on three lines
        "nygard/0003-split-the-ledger-by-region.md",
        "accepted",
        7,
        [
            (
                "amended-by",
                "0005-route-refunds-with-their-order.md",
                "5. Route refunds with their order",
                "status-section",
                9,
            ),
            (
                "supersedes",
                "0001-keep-orders-in-one-ledger.md",
                "1. Keep orders in one ledger",
                "status-section",
                8,
            ),
        ],
        [],
    ),
    (
        # "Accepted" then "Partially supersedes [ADR 1](..)" on the next line
        "nygard/0004-archive-closed-orders.md",
        "accepted",
        7,
        [
            ("mentions", "ADR-0001", "", "prose", 16),
            (
                "partially-supersedes",
                "0001-keep-orders-in-one-ledger.md",
                "ADR 1",
                "status-section",
                8,
            ),
        ],
        [],
    ),
    (
        "nygard/0005-route-refunds-with-their-order.md",
        "accepted",
        7,
        [
            (
                "amends",
                "0003-split-the-ledger-by-region.md",
                "3. Split the ledger by region",
                "status-section",
                9,
            )
        ],
        [],
    ),
    (
        # "**This document is superseded by**" and a list of two misspelled links,
        # one whose text names 0008 and whose href names 0007: both kept as written
        "nygard/0006-use-a-message-queue.md",
        "superseded",
        7,
        [
            (
                "superseded-by",
                "0007-bill-from-the-stream.md",
                "0008 - Bill from the event stream",
                "declaration",
                14,
            ),
            (
                "superseded-by",
                "0007-stream-order-event.md",
                "0007 - Stream order events",
                "declaration",
                13,
            ),
        ],
        [],
    ),
    (
        # "This supersedes [0006 - ...](..)." as the first sentence
        "nygard/0007-stream-order-events.md",
        "accepted",
        9,
        [
            (
                "supersedes",
                "0006-use-a-message-queue.md",
                "0006 - Use a message queue",
                "declaration",
                5,
            )
        ],
        [],
    ),
    (
        # "This decision replaces [ADR-0006](..)" opening the Context section
        "nygard/0008-bill-from-the-event-stream.md",
        "accepted",
        7,
        [
            ("mentions", "ADR-0006", "", "prose", 14),
            ("mentions", "ADR-0007", "", "prose", 18),
            ("supersedes", "0006-use-a-message-queue.md", "ADR-0006", "declaration", 11),
        ],
        [],
    ),
    # localized status sections
    (
        "localized/0001-使用单一数据库.md",
        "superseded",
        7,
        [("superseded-by", "ADR-0002", "", "status-section", 7)],
        [],
    ),
    (
        "localized/0002-按服务拆分数据库.md",
        "accepted",
        7,
        [("supersedes", "0001-使用单一数据库.md", "ADR-0001", "status-section", 9)],
        [("ADR018", 7)],
    ),
    (
        # bilingual: "被ADR-0004替代" and "SUPERSEDED by ADR-0004" agree
        "localized/0003-check-delivery.md",
        "superseded",
        5,
        [("superseded-by", "ADR-0004", "", "status-section", 5)],
        [],
    ),
    (
        # bilingual: 已接受 (accepted) against Proposed
        "localized/0004-track-delivery-receipts.md",
        "accepted",
        5,
        [("partially-supersedes", "0003-check-delivery.md", "ADR-0003", "status-section", 7)],
        [("ADR021", 17), ("ADR018", 5)],
    ),
    (
        "localized/0005-alte-warteschlange.md",
        "superseded",
        7,
        [
            (
                "superseded-by",
                "0006-neue-warteschlange.md",
                "6. Neue Warteschlange",
                "status-section",
                7,
            )
        ],
        [("ADR018", 7)],
    ),
    (
        "localized/0006-neue-warteschlange.md",
        "accepted",
        7,
        [
            (
                "supersedes",
                "0005-alte-warteschlange.md",
                "5. Alte Warteschlange",
                "status-section",
                9,
            )
        ],
        [("ADR018", 7)],
    ),
    (
        "localized/0007-cache-local.md",
        "superseded",
        5,
        [("superseded-by", "0008-cache-partage.md", "8. Cache partagé", "status-section", 5)],
        [("ADR018", 5)],
    ),
    (
        "localized/0008-cache-partage.md",
        "accepted",
        5,
        [("supersedes", "0007-cache-local.md", "7. Cache local", "status-section", 7)],
        [("ADR018", 5)],
    ),
    (
        "localized/0009-colas-en-memoria.md",
        "superseded",
        5,
        [
            (
                "superseded-by",
                "0010-colas-persistentes.md",
                "10. Colas persistentes",
                "status-section",
                5,
            )
        ],
        [("ADR018", 5)],
    ),
    (
        "localized/0010-colas-persistentes.md",
        "accepted",
        5,
        [("supersedes", "0009-colas-en-memoria.md", "9. Colas en memoria", "status-section", 7)],
        [("ADR018", 5)],
    ),
    (
        "localized/0011-sessao-em-memoria.md",
        "superseded",
        5,
        [
            (
                "superseded-by",
                "0012-sessao-no-redis.md",
                "12. Sessão no Redis",
                "status-section",
                5,
            )
        ],
        [("ADR018", 5)],
    ),
    (
        "localized/0012-sessao-no-redis.md",
        "accepted",
        5,
        [
            (
                "supersedes",
                "0011-sessao-em-memoria.md",
                "11. Sessão em memória",
                "status-section",
                7,
            )
        ],
        [("ADR018", 5)],
    ),
    (
        "localized/0013-ログをファイルに出力.md",
        "superseded",
        5,
        [("superseded-by", "ADR-0014", "", "status-section", 5)],
        [],
    ),
    (
        "localized/0014-ログを集約する.md",
        "accepted",
        5,
        [("supersedes", "ADR-0013", "", "status-section", 7)],
        [("ADR018", 5)],
    ),
    # MADR (frontmatter keys, MADR 2 bullets with declarations)
    (
        "madr/0001-use-rest-for-internal-calls.md",
        "superseded",
        2,
        [
            ("partially-superseded-by", "ADR-0002", "", "frontmatter", 4),
            ("superseded-by", "ADR-0003", "", "frontmatter", 5),
        ],
        [],
    ),
    (
        "madr/0002-use-grpc-for-streaming.md",
        "superseded",
        2,
        [
            ("mentions", "ADR-0001", "", "prose", 16),
            ("partially-supersedes", "ADR-0001", "", "frontmatter", 4),
            ("superseded-by", "ADR-0003", "", "frontmatter", 5),
        ],
        [],
    ),
    (
        # a declaration whose second link is on the next line of the sentence
        "madr/0003-use-grpc-everywhere.md",
        "accepted",
        3,
        [
            (
                "supersedes",
                "0001-use-rest-for-internal-calls.md",
                "ADR-0001",
                "declaration",
                6,
            ),
            ("supersedes", "0002-use-grpc-for-streaming.md", "ADR-0002", "declaration", 7),
        ],
        [],
    ),
    (
        # "> **Note:** This decision is superseded by [..](..)."
        "madr/0004-keep-openapi-docs.md",
        "deprecated",
        3,
        [("superseded-by", "0003-use-grpc-everywhere.md", "ADR-0003", "declaration", 6)],
        [],
    ),
    (
        # the same words mid-paragraph, or with no reference right after the verb: prose
        "madr/0005-log-request-bodies.md",
        "accepted",
        3,
        [
            ("mentions", "0004-keep-openapi-docs.md", "ADR-0004", "link", 11),
            ("mentions", "ADR-0004", "", "prose", 9),
        ],
        [],
    ),
    # metadata tables
    (
        "table/0001-nightly-batch-export.md",
        "superseded",
        5,
        [("superseded-by", "the new pipeline decision", "", "metadata-table", 7)],
        [],
    ),
    (
        # "| Replaced by | n/a |" states nothing
        "table/0002-partner-api.md",
        "accepted",
        5,
        [
            ("partially-supersedes", "ADR-0003", "", "metadata-table", 8),
            (
                "supersedes",
                "0001-nightly-batch-export.md",
                "Nightly batch export",
                "metadata-table",
                7,
            ),
        ],
        [],
    ),
    (
        "table/0003-partner-sftp.md",
        "superseded",
        3,
        [("superseded-by", "the partner portal project", "", "metadata-table", 3)],
        [],
    ),
    # a "Related ADRs" label in the body: its list, an item of a References list, a
    # Related: item; a bare id under it is a mention that relates once resolved, fenced
    # text and prose are not read. A bold relation verb as a label (**Amends**:) relates
    # by its verb
    (
        "nygard/0009-retry-failed-invoices.md",
        "accepted",
        7,
        [
            (
                "amends",
                "0003-split-the-ledger-by-region.md",
                "3. Split the ledger by region",
                "links-section",
                21,
            ),
            ("mentions", "../runbooks/retries.md", "retries", "link", 31),
            ("mentions", "../teams/billing.md", "the billing team", "link", 22),
            ("mentions", "ADR 0006", "", "prose", 15),  # (relates where a record has the id)
            (
                "relates-to",
                "0002-record-refunds-as-orders.md",
                "2. Record refunds as orders",
                "links-section",
                34,
            ),
            (
                "relates-to",
                "0005-route-refunds-with-their-order.md",
                "5. Route refunds with their order",
                "links-section",
                34,
            ),
            (
                "relates-to",
                "0007-stream-order-events.md",
                "ADR 0007: Stream order events",
                "links-section",
                33,
            ),
            (
                "relates-to",
                "0008-bill-from-the-event-stream.md",
                "ADR 0008: Bill from the event stream",
                "links-section",
                14,
            ),
        ],
        [],
    ),
]


def test_every_fixture_file_is_expected() -> None:
    on_disk = {f"{p.parent.parent.name}/{p.name}" for p in FIXTURES.glob("*/adr/*.md")}
    assert on_disk == {e[0] for e in EXPECTED}


@pytest.mark.parametrize(
    ("name", "status", "line", "relations", "found"), EXPECTED, ids=[e[0] for e in EXPECTED]
)
def test_fixture_reads_as_written(
    name: str,
    status: str,
    line: int | None,
    relations: list[Rel],
    found: list[tuple[str, int | None]],
) -> None:
    shape, file = name.split("/")
    data = (FIXTURES / shape / "adr" / file).read_bytes()
    p = parse_bytes(data, path=f"adr/{file}", options=OPTIONS)
    assert (p.status, p.status_line) == (status, line)
    assert rels(p) == relations
    assert problems(p) == found


# ------------------------------------------------------------- item 2: partial supersession


def test_issue_shape_accepted_then_partially_supersedes() -> None:
    p = parse(
        "# 19. Split the ledger\n\n## Status\n\nAccepted\n"
        "Partially supersedes [ADR 18](adr-18.md)\n\n## Context\n\nx\n"
    )
    assert (p.status, p.raw_status, p.status_line) == ("accepted", "Accepted", 5)
    assert rels(p) == [("partially-supersedes", "adr-18.md", "ADR 18", "status-section", 6)]
    assert [r.verb for r in p.relations] == ["Partially supersedes"]
    assert problems(p) == []


PARTIAL = [
    ("Partially supersedes", "partially-supersedes"),
    ("Partly supersedes", "partially-supersedes"),
    ("Supersedes parts of", "partially-supersedes"),
    ("Supersedes some aspects of", "partially-supersedes"),
    ("Supersedes some parts of", "partially-supersedes"),
    ("Partially superseded by", "partially-superseded-by"),
    ("Partly superseded by", "partially-superseded-by"),
    ("Parts superseded by", "partially-superseded-by"),
]


@pytest.mark.parametrize(("verb", "kind"), PARTIAL)
def test_partial_phrases_never_read_as_plain_supersession(verb: str, kind: str) -> None:
    for target in ("[ADR 3](0003-x.md)", "ADR-0003"):
        p = parse(f"# 9. X\n\n## Status\n\nAccepted\n\n{verb} {target}\n")
        assert p.status == "accepted"
        assert [(r.kind, r.origin, r.line) for r in p.relations] == [(kind, "status-section", 7)], (
            target
        )
    # on the status line itself, and in a table cell
    inline = list(relations_in_text(f"accepted; {verb.lower()} ADR-0003", "status-section", 1))
    assert [(r.kind, r.target) for r in inline] == [(kind, "ADR-0003")]


def test_a_note_that_supersedes_some_aspects_is_a_partial_declaration() -> None:
    # a note opening the body (a log of the Nygard shape): both records stay in effect
    p = parse(
        "# Simplify the cache model\n\nNote: this ADR supersedes some aspects of "
        "[ADR-15](adr-015-cache.md) and [ADR-16](adr-016-keys.md).\n\n## Context\n\nx\n"
        "\n## Status\n\nProposed\n",
        name="adr/adr-017-simplify.md",
    )
    assert [(r.kind, r.target, r.origin) for r in p.relations] == [
        ("partially-supersedes", "adr-015-cache.md", "declaration"),
        ("partially-supersedes", "adr-016-keys.md", "declaration"),
    ]


@pytest.mark.parametrize(
    "key", ["partially-supersedes", "partially_supersedes", "partially-superseded-by"]
)
def test_partial_frontmatter_keys(key: str) -> None:
    p = parse(f"---\nstatus: accepted\n{key}: [ADR-0003, ADR-0004]\n---\n# X\n")
    kind = "partially-superseded-by" if key.endswith("by") else "partially-supersedes"
    assert rels(p) == [
        (kind, "ADR-0003", "", "frontmatter", 3),
        (kind, "ADR-0004", "", "frontmatter", 3),
    ]


@pytest.mark.parametrize(
    ("line", "target"),
    [
        ('superseded_by: "0002"', "0002"),
        ('superseded-by: "0002"', "0002"),
        ("superseded_by: 0002", "2"),  # a YAML integer: its zeros are gone, not its number
        ("superseded_by: 0002-pick-the-queue.md", "0002-pick-the-queue.md"),
        ("deprecated-by: [0002]", "2"),
    ],
)
def test_a_frontmatter_successor_named_by_number_or_file(
    tmp_path: Path, line: str, target: str
) -> None:
    """``superseded_by: "0036"`` (a real log of 69 records, 28 of them so): the value is the
    reference, not "by 0036" cut out of the phrase "superseded by 0036" (a false ADR003 on
    each); a bare number names the record of that number in the root, a file name its file."""
    folder = tmp_path / "adr"
    folder.mkdir()
    (folder / "0001-poll-the-api.md").write_text(
        f'---\nid: "0001"\nstatus: superseded\n{line}\ndate: 2024-01-02\n---\n# Poll the API\n',
        encoding="utf-8",
    )
    (folder / "0002-pick-the-queue.md").write_text(
        '---\nid: "0002"\nstatus: accepted\nsupersedes: "0001"\ndate: 2024-03-04\n---\n'
        "# Pick the queue\n",
        encoding="utf-8",
    )
    config = from_options(
        {"roots": ["adr"]}, project_dir=tmp_path, docs_dir=tmp_path, config_file=None
    )
    log = load(config)
    old = next(r for r in log.records if r.path.endswith("0001-poll-the-api.md"))
    assert [(r.kind, r.target, r.target_id) for r in old.relations] == [
        ("superseded-by", target, "0002")
    ]
    assert [p.code for p in log.problems] == []


def test_partially_superseded_alone_does_not_retire_the_status() -> None:
    # "partially superseded by" as the whole status: the record stays in effect (the
    # built-in alias reads it as accepted) and the relation is the partial one
    p = parse("# 9. X\n\n## Status\n\nPartially superseded by [10. Y](0010-y.md)\n")
    assert (p.status, p.alias) == ("accepted", "partially superseded")
    assert rels(p) == [("partially-superseded-by", "0010-y.md", "10. Y", "status-section", 5)]


@pytest.mark.parametrize(
    ("value", "status", "kinds", "codes"),
    [
        # a status and a relation joined by a pipe, as with a comma (a real MADR 2 log)
        ("proposed | partially superseded by [8 Lifecycle](0008-lifecycle.md)", "proposed",
         ["partially-superseded-by"], []),
        ("proposed, partially superseded by [8 Lifecycle](0008-lifecycle.md)", "proposed",
         ["partially-superseded-by"], []),
        ("accepted | superseded by [8 Lifecycle](0008-lifecycle.md)", "superseded",
         ["superseded-by"], []),
        # a template's choices stay the unfilled placeholder
        ("proposed | accepted", "unknown", [], ["ADR001"]),
        ("proposed | the platform team", "unknown", [], ["ADR001"]),
        ("[proposed | superseded by [ADR-0005](0005-example.md)]", "unknown", ["mentions"],
         ["ADR001"]),
    ],
)  # fmt: skip
def test_a_status_joined_to_a_relation_by_a_pipe(
    value: str, status: str, kinds: list[str], codes: list[str]
) -> None:
    p = parse(
        f"# 4 Resource states\n\n- Status: {value}\n- Deciders: Ana, Ben\n- Date: 2023-12-18\n\n"
        "## Context and Problem Statement\n\nEvery resource reports its state.\n",
        name="adr/0004-resource-states.md",
    )
    assert (p.status, p.raw_status) == (status, value)
    assert [r.kind for r in p.relations] == kinds
    assert [c for c, _line in problems(p)] == codes


def test_a_line_that_states_no_relation_continues_the_status() -> None:
    p = parse("# 9. X\n\n## Status\n\nAccepted\n2024-03-01 by the platform team\n")
    assert (p.raw_status, p.status, p.relations) == (
        "Accepted 2024-03-01 by the platform team",
        "accepted",
        (),
    )


# ------------------------------------------------------------- item 3: localized phrases

LOCALIZED = [
    # zh: the target sits inside the phrase, spaces or none
    ("被 ADR-0045 取代", "superseded-by"),
    ("被ADR-0045取代", "superseded-by"),
    ("被 ADR-0045 替代", "superseded-by"),
    ("被 ADR-0045 代替", "superseded-by"),
    ("被 ADR-0045 部分取代", "partially-superseded-by"),
    ("由 ADR-0045 取代", "superseded-by"),
    ("由 ADR-0045 修订", "amended-by"),
    ("修订 ADR-0045", "amends"),
    ("取代 ADR-0045", "supersedes"),
    ("替代 ADR-0045", "supersedes"),
    ("部分取代 ADR-0045", "partially-supersedes"),
    # ja: the target comes first
    ("ADR-0045 に置き換えられた", "superseded-by"),
    ("ADR-0045 により置き換えられました", "superseded-by"),
    ("ADR-0045 を置き換える", "supersedes"),
    # ja with 置換, the Sino-Japanese word for "replacement" (survey 7)
    ("ADR-0045 により置換", "superseded-by"),
    ("ADR-0045 によって置換", "superseded-by"),
    ("ADR-0045 で置換", "superseded-by"),
    ("ADR-0045 を置換", "supersedes"),
    # es, pt, fr, de
    ("Reemplazado por ADR-0045", "superseded-by"),
    ("Sustituido por ADR-0045", "superseded-by"),
    ("Reemplaza a ADR-0045", "supersedes"),
    ("Substituído por ADR-0045", "superseded-by"),
    ("Substitui ADR-0045", "supersedes"),
    ("Remplacé par ADR-0045", "superseded-by"),
    ("Remplace ADR-0045", "supersedes"),
    ("Ersetzt durch ADR-0045", "superseded-by"),
    ("Ersetzt ADR-0045", "supersedes"),
]


@pytest.mark.parametrize(("phrase", "kind"), LOCALIZED)
def test_localized_phrase_maps_to_its_kind(phrase: str, kind: str) -> None:
    found = relation_line(phrase, "status-section", 3)
    assert [(r.kind, r.target, r.line) for r in found] == [(kind, "ADR-0045", 3)]
    with_link = phrase.replace("ADR-0045", "[ADR-0045](0045-x.md)")
    found = list(relations_in_text(with_link, "status-section", 3))
    assert [(r.kind, r.target, r.label) for r in found] == [(kind, "0045-x.md", "ADR-0045")]


def test_localized_verbs_are_relation_verbs() -> None:
    # authoring reads a verb through the same table (mkdocs-adr link X 'Ersetzt' Y)
    assert VERBS["ersetzt durch"] == "superseded-by"
    assert VERBS["remplacé par"] == "superseded-by"


def test_zh_status_that_is_only_a_relation_reads_superseded() -> None:
    # as a status section, a MADR 2 bullet, and an inline Status line
    for text, line in (
        ("# 46. 检查\n\n## 状态\n\n被 ADR-045 取代\n", 5),
        ("# 检查\n\n* Status: 被 ADR-045 取代\n* Date: 2024-01-02\n", 3),
        ("# 检查\n\nStatus: 被 ADR-045 取代\n\n## Context\n", 3),
    ):
        p = parse(text)
        assert (p.status, p.status_line) == ("superseded", line), text
        assert [(r.kind, r.target, r.line) for r in p.relations] == [
            ("superseded-by", "ADR-045", line)
        ]
        assert problems(p) == []


def test_ja_deprecated_replaced_by_keeps_its_status_and_names_the_successor() -> None:
    # "廃止（X により置換）": deprecated, replaced by X. The status stays deprecated, as
    # English "Deprecated, replaced by X" does; the successor is a superseded-by relation
    for ref, target, label in (
        ("[ADR-0012](0012-y.md)", "0012-y.md", "ADR-0012"),
        ("ADR-0012", "ADR-0012", ""),
    ):
        p = parse(
            f"# ADR-0009: 同期\n\n- ステータス: 廃止（{ref} により置換）\n- 日付: 2025-04-02\n"
        )
        assert (p.status, p.status_line) == ("deprecated", 3)
        assert [(r.kind, r.target, r.label) for r in p.relations] == [
            ("superseded-by", target, label)
        ]


def test_bilingual_relations_of_both_halves_are_collected() -> None:
    p = parse(
        "# 9. 日志\n\n## 状态\n\n已取代\n\n## 背景\n\n说明。\n\n"
        "# 9. Logging\n\n## Status\n\nSuperseded by [ADR-0010](0010-y.md)\n\n## Context\n\nx\n"
    )
    assert (p.status, p.status_line, p.title) == ("superseded", 5, "日志")
    assert rels(p) == [("superseded-by", "0010-y.md", "ADR-0010", "status-section", 15)]
    assert problems(p) == [("ADR018", 5)]


def test_bilingual_disagreement_names_both_lines() -> None:
    p = parse(
        "# 9. 日志\n\n## 状态\n\n已接受\n\n# 9. Logging\n\n## Status\n\nDeprecated\n",
        name="adr/0009-logging.md",
    )
    assert p.status == "accepted"
    (problem,) = [x for x in p.problems if x.code == "ADR021"]
    assert (problem.severity.label, problem.path, problem.line) == (
        "warning",
        "adr/0009-logging.md",
        11,
    )
    assert problem.message == (
        "the record's status sections disagree: line 5 says '已接受' (accepted), "
        "line 11 says 'Deprecated' (deprecated)"
    )


def test_one_h1_with_a_second_status_heading_is_not_bilingual() -> None:
    p = parse("# 9. X\n\n## Status\n\nAccepted\n\n## Status\n\nRejected\n")
    assert p.status == "accepted"
    assert problems(p) == []


# ------------------------------------------------------------- item 4: declarations


@pytest.mark.parametrize(
    "sentence",
    [
        "This ADR is superseded by [ADR-0012](0012-x.md).",
        "This document is superseded by: [ADR-0012](0012-x.md)",
        "**This document is superseded by** [ADR-0012](0012-x.md)",
        "This decision has been replaced by [ADR-0012](0012-x.md).",
        "This record is replaced by [ADR-0012](0012-x.md).",
        "> This ADR is superseded by [ADR-0012](0012-x.md).",
        # a noun naming what follows, before a colon or the link
        "This decision has been superseded by decision: [ADR-0012](0012-x.md)",
        "This ADR is superseded by ADR [ADR-0012](0012-x.md).",
        "This record is replaced by the decision: [ADR-0012](0012-x.md)",
    ],
)
def test_declared_superseded_by_opening_the_body(sentence: str) -> None:
    p = parse(f"# 9. X\n\n{sentence}\n\n## Status\n\nSuperseded\n")
    assert rels(p) == [("superseded-by", "0012-x.md", "ADR-0012", "declaration", 3)]
    assert p.status == "superseded"


@pytest.mark.parametrize("colon", ["", ":"])
def test_declared_list_keeps_every_target(colon: str) -> None:
    p = parse(
        f"# 9. X\n\n## Status\n\nsuperseded\n\n## Context\n\n"
        f"**This document is superseded by{colon}**\n\n"
        "- [0010 - A](0010-a.md)\n- ADR-0011, split out of A\n* [0012 - C](0012-c.md)\n\nMore.\n"
    )
    assert rels(p) == [
        ("superseded-by", "0010-a.md", "0010 - A", "declaration", 11),
        ("superseded-by", "0012-c.md", "0012 - C", "declaration", 13),
        ("superseded-by", "ADR-0011", "", "declaration", 12),
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "This supersedes ADR-0003.",
        "This ADR supersedes ADR-0003.",
        "This decision supersedes decision: ADR-0003.",
        "This decision supersedes decisions ADR-0003",
    ],
)
def test_a_noun_before_the_reference_is_not_the_reference(sentence: str) -> None:
    # "ADR" of "ADR-0003" is the reference itself, not a noun to pass over
    p = parse(f"# 9. X\n\n{sentence}\n\n## Status\n\nAccepted\n")
    assert rels(p) == [("supersedes", "ADR-0003", "", "declaration", 3)]


def test_a_noun_and_no_reference_declares_nothing() -> None:
    p = parse("# 9. X\n\nThis ADR supersedes decisions made in 2019.\n\n## Status\n\nAccepted\n")
    assert [r for r in p.relations if r.kind != "mentions"] == []


def test_declaration_with_ids_and_this_supersedes() -> None:
    p = parse("# 9. X\n\nThis supersedes ADR-0003 and ADR-0004.\n\n## Status\n\nAccepted\n")
    assert rels(p) == [
        ("supersedes", "ADR-0003", "", "declaration", 3),
        ("supersedes", "ADR-0004", "", "declaration", 3),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "Supersedes [ADR-0003](0003-x.md).",
        "Supersedes ADR-0003.",
        "**Replaces** [ADR-0003](0003-x.md)",
        "> Supersedes [ADR-0003](0003-x.md)",
    ],
)
def test_a_verb_first_line_opening_a_section_declares(line: str) -> None:
    """The subject left out: ``Supersedes [ADR-0003](..).`` as a paragraph of its own right
    under a heading (27 records of one real log, read as mentions before; survey 6)."""
    p = parse(f"# 9. X\n\n## Status\n\nAccepted\n\n## Context\n\n{line}\n\nWhy we moved.\n")
    assert [(r.kind, r.target, r.origin, r.line) for r in p.relations if r.kind != "mentions"] == [
        ("supersedes", "0003-x.md" if "](" in line else "ADR-0003", "declaration", 9)
    ]


@pytest.mark.parametrize(
    "text",
    [
        # in the middle of a paragraph: prose, its link a mention
        "We looked at the old queue.\nSupersedes [ADR-0003](0003-x.md) in part, as we said.",
        # the line says more than the relation
        "Supersedes [ADR-0003](0003-x.md) because the queue was slow.",
        # a partial supersession is no succession of the whole record
        "Partially supersedes [ADR-0003](0003-x.md).",
    ],
)
def test_a_verb_first_line_that_is_prose_declares_nothing(text: str) -> None:
    p = parse(f"# 9. X\n\n## Status\n\nAccepted\n\n## Context\n\n{text}\n")
    assert [r for r in p.relations if r.kind in ("supersedes", "superseded-by")] == []


def test_declaration_in_the_status_section() -> None:
    p = parse(
        "# 9. X\n\n## Status\n\nDeprecated\n\nThis ADR is superseded by [ADR-0012](0012-x.md)\n"
    )
    assert (p.status, rels(p)) == (
        "deprecated",
        [("superseded-by", "0012-x.md", "ADR-0012", "declaration", 7)],
    )
    # as the whole status paragraph, it is also what the status says
    p = parse("# 9. X\n\n## Status\n\nThis ADR is superseded by [ADR-0012](0012-x.md)\n")
    assert (p.status, rels(p)) == (
        "superseded",
        [("superseded-by", "0012-x.md", "ADR-0012", "declaration", 5)],
    )


@pytest.mark.parametrize(
    "body",
    [
        # mid-paragraph
        "We looked at the queue.\nThis ADR supersedes [ADR-0003](0003-x.md).",
        # no reference right after the verb
        "This decision replaces the nightly job of [ADR-0003](0003-x.md).",
        # a later paragraph of a section
        "The queue is slow.\n\nThis ADR supersedes [ADR-0003](0003-x.md).",
    ],
)
def test_not_a_declaration_stays_a_mention(body: str) -> None:
    p = parse(f"# 9. X\n\n## Status\n\nAccepted\n\n## Context\n\n{body}\n")
    assert [(r.kind, r.target, r.origin) for r in p.relations] == [
        ("mentions", "0003-x.md", "link")
    ]


# ------------------------------------------------------------- the log: resolution


Loaded = Callable[[str], tuple[dict[str, Record], Log]]


@pytest.fixture
def loaded(tmp_path: Path) -> Loaded:
    """Load a fixture log from a temporary copy: its records by path, and the log."""

    def go(shape: str) -> tuple[dict[str, Record], Log]:
        folder = tmp_path / shape
        shutil.copytree(FIXTURES / shape, folder)
        config = from_options({}, project_dir=folder, docs_dir=folder, config_file=None)
        log = load(config)
        return {rec.path: rec for rec in log.records}, log

    return go


def resolved(rec: Record) -> set[tuple[str, str | None, str]]:
    return {(r.kind, r.target_id, r.origin) for r in rec.relations if r.kind != "mentions"}


def test_log_resolves_nygard_relations(loaded: Loaded) -> None:
    recs, _log = loaded("nygard")
    assert resolved(recs["adr/0001-keep-orders-in-one-ledger.md"]) == {
        ("superseded-by", "ADR-0003", "status-section"),
        ("partially-superseded-by", "ADR-0004", "status-section"),
    }
    assert resolved(recs["adr/0003-split-the-ledger-by-region.md"]) == {
        ("supersedes", "ADR-0001", "status-section"),
        ("amended-by", "ADR-0005", "status-section"),
    }
    assert resolved(recs["adr/0004-archive-closed-orders.md"]) == {
        ("partially-supersedes", "ADR-0001", "status-section")
    }
    assert resolved(recs["adr/0007-stream-order-events.md"]) == {
        ("supersedes", "ADR-0006", "declaration")
    }
    assert resolved(recs["adr/0008-bill-from-the-event-stream.md"]) == {
        ("supersedes", "ADR-0006", "declaration")
    }
    # a declared link is not also a mention of the same record
    mentioned = [r.target_id for r in recs["adr/0007-stream-order-events.md"].relations]
    assert mentioned == ["ADR-0006"]
    # a Related ADRs label relates through its links, and through the bare ids a record
    # has (ADR 0006 here); its Amends label by its verb
    assert resolved(recs["adr/0009-retry-failed-invoices.md"]) == {
        ("amends", "ADR-0003", "links-section"),
        ("relates-to", "ADR-0002", "links-section"),
        ("relates-to", "ADR-0005", "links-section"),
        ("relates-to", "ADR-0006", "links-section"),
        ("relates-to", "ADR-0007", "links-section"),
        ("relates-to", "ADR-0008", "links-section"),
    }


def test_log_resolves_localized_relations(loaded: Loaded) -> None:
    recs, log = loaded("localized")
    by_number = {rec.id: resolved(rec) for rec in recs.values()}
    assert by_number == {
        "ADR-0001": {("superseded-by", "ADR-0002", "status-section")},
        "ADR-0002": {("supersedes", "ADR-0001", "status-section")},
        "ADR-0003": {("superseded-by", "ADR-0004", "status-section")},
        "ADR-0004": {("partially-supersedes", "ADR-0003", "status-section")},
        "ADR-0005": {("superseded-by", "ADR-0006", "status-section")},
        "ADR-0006": {("supersedes", "ADR-0005", "status-section")},
        "ADR-0007": {("superseded-by", "ADR-0008", "status-section")},
        "ADR-0008": {("supersedes", "ADR-0007", "status-section")},
        "ADR-0009": {("superseded-by", "ADR-0010", "status-section")},
        "ADR-0010": {("supersedes", "ADR-0009", "status-section")},
        "ADR-0011": {("superseded-by", "ADR-0012", "status-section")},
        "ADR-0012": {("supersedes", "ADR-0011", "status-section")},
        "ADR-0013": {("superseded-by", "ADR-0014", "status-section")},
        "ADR-0014": {("supersedes", "ADR-0013", "status-section")},
    }
    assert ("ADR021", "adr/0004-track-delivery-receipts.md") in {
        (p.code, p.path) for p in log.problems
    }


def test_log_resolves_madr_relations(loaded: Loaded) -> None:
    recs, _log = loaded("madr")
    assert resolved(recs["adr/0003-use-grpc-everywhere.md"]) == {
        ("supersedes", "ADR-0001", "declaration"),
        ("supersedes", "ADR-0002", "declaration"),
    }
    assert resolved(recs["adr/0004-keep-openapi-docs.md"]) == {
        ("superseded-by", "ADR-0003", "declaration")
    }
    assert resolved(recs["adr/0002-use-grpc-for-streaming.md"]) == {
        ("partially-supersedes", "ADR-0001", "frontmatter"),
        ("superseded-by", "ADR-0003", "frontmatter"),
    }


# ------------------------------------------------------------- end to end


def test_check_reports_a_free_text_table_target(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "table", tmp_path / "table")
    proc = run_cli("--root", "adr", "check", "--json", cwd=tmp_path / "table")
    report = json.loads(proc.stdout)
    found = {(p["code"], p["path"], p["line"]) for p in report["problems"]}
    assert ("ADR003", "adr/0001-nightly-batch-export.md", 7) in found
    assert ("ADR003", "adr/0003-partner-sftp.md", 3) in found
    texts = " ".join(p["message"] for p in report["problems"] if p["code"] == "ADR003")
    assert "the new pipeline decision" in texts and "the partner portal project" in texts


def test_mkdocs_build_of_the_localized_log(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "localized" / "adr", docs / "adr")
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\ntheme: mkdocs\nplugins:\n  - adr\n", encoding="utf-8"
    )
    proc = run_mkdocs("build", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "ADR021" in proc.stderr  # the bilingual record whose halves disagree
    assert "ADR016" not in proc.stderr and "ADR001" not in proc.stderr
    page = (tmp_path / "site/adr/0001-使用单一数据库/index.html").read_text(encoding="utf-8")
    # the superseded banner links the successor the zh phrase names
    assert 'adr-banner--superseded"' in page
    assert "ADR-0002 按服务拆分数据库</a>" in page


def test_partial_supersession_round_trips_through_link(tmp_path: Path) -> None:
    folder = tmp_path / "log"
    shutil.copytree(FIXTURES / "nygard", folder)
    proc = run_cli(
        "--root", "adr", "link", "5", "Partly supersedes", "2", "Partly superseded by", cwd=folder
    )
    assert proc.returncode == 0, proc.stderr
    new = (folder / "adr" / "0005-route-refunds-with-their-order.md").read_text(encoding="utf-8")
    old = (folder / "adr" / "0002-record-refunds-as-orders.md").read_text(encoding="utf-8")
    assert "Partly supersedes [2. Record refunds as negative orders](0002-record-" in new
    assert "Partly superseded by [5. Route refunds with their order](0005-route-" in old
    config = from_options({}, project_dir=folder, docs_dir=folder, config_file=None)
    log = load(config)
    recs = {rec.id: rec for rec in log.records}
    assert ("partially-supersedes", "ADR-0002", "status-section") in resolved(recs["ADR-0005"])
    assert resolved(recs["ADR-0002"]) == {("partially-superseded-by", "ADR-0005", "status-section")}
    # a partial supersession retires nothing: both stay accepted, and nothing contradicts
    assert (recs["ADR-0002"].status, recs["ADR-0005"].status) == ("accepted", "accepted")
    assert "ADR016" not in {p.code for p in log.problems}


def test_a_frontmatter_relations_list_of_typed_entries() -> None:
    """``relations: [{type: supersedes, target: ADR-0021}, ...]`` (every relation of a real
    log of 86 records; false ADR005 warnings on the records it superseded)."""
    p = parse(
        "---\nstatus: accepted\nrelations:\n  - type: supersedes\n    target: ADR-0021\n"
        '  - type: partially-supersedes\n    target: ADR-0029\n    scope: "the URI value"\n'
        "  - type: see-also\n    target: ADR-0030\n  - type: invents\n    target: ADR-0031\n"
        "  - just text\n---\n# Use acquired domains\n"
    )
    assert [(r.kind, r.target, r.origin, r.line) for r in p.relations] == [
        ("supersedes", "ADR-0021", "frontmatter", 3),
        ("partially-supersedes", "ADR-0029", "frontmatter", 3),
        ("relates-to", "ADR-0030", "frontmatter", 3),
    ]


def test_madr_template_comments_neither_hide_a_links_section_nor_name_records() -> None:
    """``## Links <!-- optional -->``, MADR's template heading kept as written, is a
    Links section; the template's example inside a comment names no record."""
    p = parse(
        "# Make the revision required\n\n- Status: accepted\n\n## Links <!-- optional -->\n\n"
        "- [Link type](link to adr) <!-- example: Refined by [xxx](yyyymmdd-xxx.md) -->\n"
        "- Supersedes [20230125-versioning](20230125-versioning.md)\n"
        "<!-- more:\n- Refines [zzz](zzz.md)\n-->\n"
        "- [Discussion](#why-now)\n"
    )
    assert [(r.kind, r.target) for r in p.relations if r.kind != "mentions"] == [
        ("supersedes", "20230125-versioning.md")
    ]


def test_a_related_decision_records_section_reads_its_sentences() -> None:
    p = parse(
        "# 8. Controller lifecycle\n\n## Status\n\nAccepted\n\n"
        "## Related Decision Records\n\nPartially supersedes [004 Resource states](004-x.md)\n"
    )
    assert [(r.kind, r.target) for r in p.relations if r.kind != "mentions"] == [
        ("partially-supersedes", "004-x.md")
    ]


def test_a_link_line_reads_no_ids_from_the_prose_after_its_references() -> None:
    """``Supersedes the "option 3" portion of [ADR 0016](..) ... option 2 ...`` and
    ``... (renumbered to 0039)``: 'option 2' and 'to 0039' are words, not ids (they were
    ADR003 warnings on a real log of 44); the link still counts."""
    p = parse(
        "# 33. Scope-based access\n\n## Status\n\nAccepted\n\n"
        'Supersedes the "option 3" portion of [ADR 0016](0016-mvp.md) for maintainers. '
        "ADR 0016 named option 2 as the way on.\n\n"
        "Amends the stance of [ADR-0028](./0028-due-rules.md) (renumbered to 0039; see below)\n"
    )
    targets = sorted(r.target for r in p.relations if r.kind != "mentions")
    assert targets == ["./0028-due-rules.md", "0016-mvp.md"]


def test_augmented_by_in_a_status_line_is_an_extension() -> None:
    p = parse("# Use MADR\n\n* Status: augmented by [ADR-0004](0004-decide.md)]\n")
    assert [(r.kind, r.target) for r in p.relations] == [("extended-by", "0004-decide.md")]


def test_a_links_list_item_that_names_a_web_page_states_no_relation() -> None:
    """MADR's Links list names tools, papers and discussions as well as records: a web
    page there relates to nothing, unless a verb says it does (a supersession by a pull
    request is kept as text and reported, as everywhere)."""
    p = parse(
        "# Use a search index\n\n* Status: accepted\n\n## Links\n\n"
        "* [Lunr](https://lunrjs.com) - the index we picked\n"
        "* Survey: [brokers](https://example.org/survey.pdf)\n"
        "* [Mail the team](mailto:team@example.org)\n"
        "* Superseded by [the rewrite](https://example.org/pull/12)\n"
        "* [ADR-0004](0004-use-a-queue.md)\n"
        "* [Notes](https://example.org/notes) go with [ADR-0005](0005-x.md)\n"
    )
    assert [(r.kind, r.target) for r in p.relations if r.kind != "mentions"] == [
        ("superseded-by", "https://example.org/pull/12"),
        ("relates-to", "0004-use-a-queue.md"),
        ("relates-to", "0005-x.md"),
    ]


@pytest.mark.parametrize("heading", ["Related ADR(s)", "Related ADRs", "Related records"])
def test_a_related_records_section_is_a_links_section(heading: str) -> None:
    p = parse(f"# 9. X\n\n## Status\n\nAccepted\n\n## {heading}\n\n- [0005-y](0005-y.md)\n")
    assert rels(p) == [("relates-to", "0005-y.md", "0005-y", "links-section", 9)]


@pytest.mark.parametrize("label", ["**Depends On**:", "**依赖（Depends On）**：", "__Extends__:"])
def test_a_bold_relation_label_over_a_list_relates_its_links(label: str) -> None:
    """The label alone on its line and the links in the list under it (a real log wrote
    its dependencies so in 40 records, the verb in parentheses after a Chinese word;
    survey 7). A list item that links nothing names no record."""
    p = parse(
        f"# 9. X\n\n## Status\n\nAccepted\n\n## Relationships\n\n{label}\n\n"
        "- [ADR-0005: Queues](0005-queues.md)\n- [ADR-0006](0006-ledger.md)\n- none yet\n"
    )
    kind = "extends" if "Extends" in label else "depends-on"
    assert [(r.kind, r.target, r.line) for r in p.relations] == [
        (kind, "0005-queues.md", 11),
        (kind, "0006-ledger.md", 12),
    ]


def test_a_succession_label_over_a_list_states_no_succession() -> None:
    """A page that maps each record's relations under one heading a record (``**Supersedes**:``
    and a list under each) would retire them all: a succession needs more than a label over
    a list, and its links stay mentions."""
    p = parse(
        "# 9. X\n\n## Status\n\nAccepted\n\n## Map\n\n**Supersedes**:\n\n"
        "- [ADR-0005](0005-queues.md)\n"
    )
    assert [(r.kind, r.target) for r in p.relations] == [("mentions", "0005-queues.md")]


def test_a_record_titled_links_has_no_links_section_for_that() -> None:
    # log4brains' own test record: its list labels are no relation verbs, its broken link
    # no ADR003; its links are plain mentions
    p = parse(
        "# Links\n\n- Date: 2020-10-28\n\n## Tests\n\n- Plain link: [first](20200101-first.md)\n"
        "- Broken link: [first](20200101-first-GONE.md)\n"
    )
    assert {(r.kind, r.target) for r in p.relations} == {
        ("mentions", "20200101-first.md"),
        ("mentions", "20200101-first-GONE.md"),
    }
    # a Links section at level 1 after the title is one
    p = parse("# 9. X\n\n# Status\n\nAccepted\n\n# Links\n\n- Refines [ADR-0002](0002-x.md)\n")
    assert rels(p) == [("relates-to", "0002-x.md", "ADR-0002", "links-section", 9)]


def test_declaration_in_a_links_list_is_a_declaration_not_a_relates_to() -> None:
    p = parse(
        "# 9. X\n\n## Status\n\nAccepted\n\n## Links\n\n- Refines [ADR-0002](0002-x.md)\n"
        "- This ADR supersedes [ADR-0003](0003-x.md)\n"
    )
    assert rels(p) == [
        ("relates-to", "0002-x.md", "ADR-0002", "links-section", 9),
        ("supersedes", "0003-x.md", "ADR-0003", "declaration", 10),
    ]


def test_bilingual_record_whose_first_half_states_no_status() -> None:
    p = parse(
        "# 9. 日志\n\n## 状态\n\n## 背景\n\n说明。\n\n"
        "# 9. Logging\n\n## Status\n\nAccepted\n\nSupersedes ADR-0004\n"
    )
    assert (p.status, p.raw_status, p.status_line) == ("accepted", "Accepted", 13)
    assert rels(p) == [("supersedes", "ADR-0004", "", "status-section", 15)]
    assert problems(p) == []


def test_every_declared_verb_holds_a_hint() -> None:
    # declarations() skips a record without any hint before running a pattern
    from mkdocs_adr.parsing import status

    declared = [
        v
        for v, kind in VERBS.items()
        if kind in status.DECLARED_KINDS and v not in status.LOCALIZED_VERBS
    ]
    assert declared
    for verb in declared:
        assert any(h in verb for h in status.DECLARATION_HINTS), verb
        assert any(h in verb.upper() for h in status.DECLARATION_HINTS), verb
