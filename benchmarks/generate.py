"""Generate synthetic ADR logs of any size for benchmarks (never committed).

A log mixes every style (adr-tools/Nygard, MADR 2, MADR 4 frontmatter, generic
frontmatter, containers), supersession chains written on both sides, amends
and mentions, domains (layered) and an ``archive/`` holding part of the
superseded records. The same (n, seed) always gives the same bytes.
"""

from __future__ import annotations

import random
from pathlib import Path

DOMAINS = ("platform", "data", "security", "payments", "frontend", "ops")
WORDS = [
    "cache",
    "queue",
    "database",
    "gateway",
    "token",
    "schema",
    "index",
    "replica",
    "broker",
    "service",
    "contract",
    "event",
    "stream",
    "ledger",
    "search",
    "storage",
    "policy",
    "secret",
    "deploy",
    "build",
]


def _title(rng: random.Random) -> str:
    return "Use " + " ".join(rng.choice(WORDS) for _ in range(3))


def _body(rng: random.Random, n: int) -> str:
    para = " ".join(rng.choice(WORDS) for _ in range(60))
    mention = f"See ADR-{rng.randint(1, max(1, n)):04d} for background." if n > 1 else ""
    return (
        f"## Context\n\n{para}\n\n{mention}\n\n## Decision\n\nWe will {para[:200]}.\n\n"
        f"## Consequences\n\n{para[:300]}\n"
    )


def _nygard(i: int, title: str, status: str, links: list[str], body: str) -> str:
    lines = [f"# {i}. {title}", "", "Date: 2024-01-15", "", "## Status", "", status, ""]
    for link in links:
        lines += [link, ""]
    return "\n".join(lines) + "\n" + body


def _madr2(i: int, title: str, status: str, links: list[str], body: str) -> str:
    head = [f"# {title}", "", f"* Status: {status}", "* Deciders: alice, bob", "* Date: 2023-05-01"]
    tail = ["", "## Links", "", *(f"* {link}" for link in links)] if links else []
    return "\n".join(head) + "\n\n" + body + "\n".join(tail) + "\n"


def _madr4(i: int, title: str, status: str, links: list[str], body: str) -> str:
    fm = f'---\nstatus: "{status}"\ndate: 2024-02-01\ndecision-makers: [carol]\n---\n'
    extra = "\n".join(f"* {link}" for link in links)
    return (
        fm + f"# {title}\n\n" + body + ("\n## More Information\n\n" + extra + "\n" if links else "")
    )


def _generic(
    i: int, title: str, status: str, domain: str, supersedes: list[int], superseded_by: list[int]
) -> str:
    fm = [
        "---",
        f"id: ADR-{i:04d}",
        f"title: {title}",
        f"status: {status}",
        "date: 2025-03-01",
        f"domain: {domain}",
        f"affected-paths: ['src/{domain}/**']",
        f"affected-components: [{domain}-service]",
    ]
    if supersedes:
        fm.append("supersedes: [" + ", ".join(f"ADR-{s:04d}" for s in supersedes) + "]")
    if superseded_by:
        fm.append("superseded-by: [" + ", ".join(f"ADR-{s:04d}" for s in superseded_by) + "]")
    fm.append("---")
    return "\n".join(fm) + f"\n# ADR-{i:04d}: {title}\n\n"


def generate(folder: Path, n: int, *, seed: int = 7, layered: bool = True) -> Path:
    """Write ``n`` records under ``folder/docs/adr`` and an mkdocs.yml; return folder."""
    rng = random.Random(seed)
    root = folder / "docs" / "adr"
    root.mkdir(parents=True, exist_ok=True)
    # decide succession first so both sides can be written: i superseded by i+1
    superseded_by: dict[int, int] = {}
    for i in range(1, n):
        if rng.random() < 0.2 and i not in superseded_by:
            superseded_by[i] = i + 1
    supersedes = {v: k for k, v in superseded_by.items()}
    for i in range(1, n + 1):
        title = _title(rng)
        domain = DOMAINS[i % len(DOMAINS)] if layered else ""
        slug = title.lower().replace(" ", "-")
        archived = i in superseded_by and rng.random() < 0.5 and n >= 10
        base = root / "archive" if archived else root
        folder_for = base / domain if domain else base
        folder_for.mkdir(parents=True, exist_ok=True)
        path = folder_for / f"{i:04d}-{slug}.md"
        body = _body(rng, n)
        style = i % 5
        if i in superseded_by:
            succ = superseded_by[i]
            status = f"Superseded by [ADR-{succ:04d}]({succ:04d}-x.md)"
        else:
            status = "Accepted" if rng.random() < 0.85 else "Proposed"
        links = []
        if i in supersedes:
            links.append(f"Supersedes [{supersedes[i]}. Old](x/{supersedes[i]:04d}-old.md)")
        if style == 0:
            # links by number: the adr-tools reading of a link line
            if i in superseded_by:
                status = "Superseded"
                links.insert(
                    0, f"Superseded by [{superseded_by[i]}. New]({superseded_by[i]:04d}-new.md)"
                )
            text = _nygard(i, title, status if i not in superseded_by else "", links, body)
        elif style == 1:
            text = _madr2(i, title, status.lower(), links, body)
        elif style == 2:
            text = _madr4(i, title, status.lower(), links, body)
        elif style == 3:
            text = (
                _generic(
                    i,
                    title,
                    "superseded" if i in superseded_by else status.lower(),
                    domain or "core",
                    [supersedes[i]] if i in supersedes else [],
                    [superseded_by[i]] if i in superseded_by else [],
                )
                + body
            )
        else:
            units = "\n".join(
                f"## D{k}. {_title(rng)}\n\nStatus: accepted\n\n{body[:300]}\n" for k in (1, 2, 3)
            )
            extra = "\n".join(f"{link}\n" for link in links)
            text = (
                f"---\nstyle: container\nid: ADR-{i:04d}\nstatus: accepted\n---\n"
                f"# ADR-{i:04d}: {title}\n\n{extra}\n{units}"
                if i not in superseded_by
                else _nygard(i, title, status, links, body)
            )
        path.write_text(text, encoding="utf-8")
    (root / "README.md").write_text("# Decisions\n\nThe log.\n", encoding="utf-8")
    (folder / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (folder / "mkdocs.yml").write_text(
        "site_name: bench\nplugins:\n  - search\n  - adr\n", encoding="utf-8"
    )
    return folder
