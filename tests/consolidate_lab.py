"""A generated log for consolidation tests: 60 Nygard records in three domain folders,
with amend, extend and partial-supersession chains, history, proposals and loners.

Per domain (20 records, numbered on across the domains):

- item 0: the base rule (three constraints);
- items 1-5: each amends the one before (two constraints each);
- item 6 is superseded by item 7 (history; 7 is in effect);
- items 8-10 extend the base;
- item 11 partially supersedes item 1;
- item 12 is a proposal amending the base, item 13 is rejected, item 14 stands alone;
- items 15-19 relate to item 8 (one constraint each).

So 15 records per domain are in effect and related: they are the sources; 6 (history),
7 (in effect, but related only to history), 12, 13 and 14 are left alone.
"""

from __future__ import annotations

from pathlib import Path

DOMAINS = ("payments", "identity", "search")
PER_DOMAIN = 20
SOURCES = (0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 15, 16, 17, 18, 19)
LEFT_ALONE = (6, 7, 12, 13, 14)

MKDOCS_YML = "site_name: Consolidation lab\nnav:\n  - Home: index.md\nplugins:\n  - adr\n"

_WORDS = {
    "payments": ("card payments", "the ledger", "refunds"),
    "identity": ("sign-in", "session tokens", "the user directory"),
    "search": ("the search index", "query parsing", "ranking"),
}


def number(domain: int, item: int) -> int:
    return domain * PER_DOMAIN + item + 1


def title(domain: str, item: int) -> str:
    a, b, c = _WORDS[domain]
    return {
        0: f"Base rules for {a}",
        6: f"Queue {b} writes",
        7: f"Stream {b} writes",
        12: f"Cache {c} answers",
        13: f"Shard {c} by region",
        14: f"Log every {a} error",
    }.get(item, f"Rule {item} for {a}")


def file_name(domain: str, d: int, item: int) -> str:
    slug = title(domain, item).lower().replace(" ", "-").replace("-", "-")
    return f"{number(d, item):04d}-{slug}.md"


def _link(domain: str, d: int, item: int) -> str:
    return f"[{number(d, item)}. {title(domain, item)}]({file_name(domain, d, item)})"


def _constraints(domain: str, item: int) -> list[str]:
    a, b, c = _WORDS[domain]
    if item == 0:
        return [
            f"All {a} go through one service owned by the {domain} team.",
            f"Writes to {b} are idempotent and carry a request id.",
            f"{c.capitalize()} are kept for seven years.",
        ]
    if 1 <= item <= 5:
        return [
            f"Step {item}: {a} retries at most {item + 2} times.",
            f"Step {item}: {b} alerts after {item * 5} minutes of lag.",
        ]
    return [f"Rule {item}: {c} follow the {domain} runbook, section {item}."]


def record(domain: str, d: int, item: int) -> str:
    status = "Accepted"
    links: list[str] = []
    if 1 <= item <= 5:
        links.append(f"Amends {_link(domain, d, item - 1)}")
    if 0 <= item <= 4:
        links.append(f"Amended by {_link(domain, d, item + 1)}")
    if item == 0:
        links += [f"Extended by {_link(domain, d, k)}" for k in (8, 9, 10)]
        links.append(f"Amended by {_link(domain, d, 12)}")
    if item == 1:
        links.append(f"Partially superseded by {_link(domain, d, 11)}")
    if item == 6:
        status = f"Superseded by {_link(domain, d, 7)}"
    if item == 7:
        links.append(f"Supersedes {_link(domain, d, 6)}")
    if 8 <= item <= 10:
        links.append(f"Extends {_link(domain, d, 0)}")
    if item == 8:
        links += [f"Related to {_link(domain, d, k)}" for k in range(15, 20)]
    if item == 11:
        links.append(f"Partially supersedes {_link(domain, d, 1)}")
    if item == 12:
        status = "Proposed"
        links.append(f"Amends {_link(domain, d, 0)}")
    if item == 13:
        status = "Rejected"
    if item >= 15:
        links.append(f"Relates to {_link(domain, d, 8)}")
    lines = [
        f"# {number(d, item)}. {title(domain, item)}",
        "",
        f"Date: 2025-0{d + 1}-{item + 1:02d}",
        "",
        "## Status",
        "",
        status,
        "",
    ]
    for link in links:
        lines += [link, ""]
    lines += [
        "## Context",
        "",
        f"The {domain} team needed a rule here ({title(domain, item).lower()}).",
        "",
        "## Decision",
        "",
        *[f"- {c}" for c in _constraints(domain, item)],
        "",
        "## Consequences",
        "",
        "Operations follow the rule from now on.",
        "",
    ]
    return "\n".join(lines)


def make_log(base: Path) -> Path:
    """Write the project under ``base`` (created); return it."""
    (base / "docs" / "adr").mkdir(parents=True)
    (base / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    (base / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    for d, domain in enumerate(DOMAINS):
        folder = base / "docs" / "adr" / domain
        folder.mkdir()
        for item in range(PER_DOMAIN):
            (folder / file_name(domain, d, item)).write_text(
                record(domain, d, item), encoding="utf-8"
            )
    return base


def rid(d: int, item: int) -> str:
    return f"ADR-{number(d, item):04d}"
