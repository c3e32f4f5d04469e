"""Every change path of seeds/000 section 7, seen in `check --json` and in the built banner.

A site is published once per layout (a real plan and confirm); each case copies it,
changes the tree the way a user would, and then reads the state twice: from
`mkdocs-adr check --json` and from the CURRENT page of a real `mkdocs build`.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from mkdocs_adr import manifest as mf

from .test_summary_support import banner, build, check, copy_site, page, publish

FLAT_ADR = "docs/adr"
LAYERED_ADR = "docs/adr"


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("published")
    out = {}
    for name in ("flat", "layered"):
        site = copy_site(base, name)
        publish(site)
        code, data = check(site)
        assert code == 0 and data["views"]["current"]["state"] == "fresh", data
        out[name] = site
    return out


def write(site: Path, rel: str, text: str) -> None:
    path = site / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def edit(site: Path, rel: str, old: str, new: str) -> None:
    path = site / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def move(site: Path, old: str, new: str) -> None:
    (site / new).parent.mkdir(parents=True, exist_ok=True)
    (site / old).rename(site / new)


# -------------------------------------------------------------------------- the cases

FLAT_0006 = f"{FLAT_ADR}/0006-use-websockets-for-sync.md"


def new_record(site: Path) -> None:
    write(
        site,
        f"{FLAT_ADR}/0010-cache-notes-on-devices.md",
        "# 10. Cache notes on devices\n\nDate: 2024-05-01\n\n## Status\n\nAccepted\n\n"
        "## Context\n\nOffline reading.\n\n## Decision\n\nDevices keep a local cache.\n",
    )


def status_change(site: Path) -> None:
    edit(site, FLAT_0006, "## Status\n\nAccepted", "## Status\n\nDeprecated")


def supersession(site: Path) -> None:
    write(
        site,
        f"{FLAT_ADR}/0010-use-server-sent-events.md",
        "# 10. Use server-sent events\n\nDate: 2024-05-01\n\n## Status\n\nAccepted\n\n"
        "Supersedes [6. Use WebSockets for sync](0006-use-websockets-for-sync.md)\n\n"
        "## Decision\n\nThe sync service pushes changes with server-sent events.\n",
    )
    text = (site / FLAT_0006).read_text(encoding="utf-8")
    start = text.index("## Status")
    end = text.index("##", start + 3)
    (site / FLAT_0006).write_text(
        text[:start] + "## Status\n\nSuperseded by [10. Use server-sent events]"
        "(0010-use-server-sent-events.md)\n\n" + text[end:],
        encoding="utf-8",
    )


def body_edit(site: Path) -> None:
    edit(
        site,
        f"{FLAT_ADR}/0004-store-notes-in-postgresql.md",
        "becomes stateless",
        "becomes stateless and keeps no session",
    )


def deletion(site: Path) -> None:
    (site / f"{FLAT_ADR}/0005-encrypt-note-bodies-at-rest.md").unlink()


def rename(site: Path) -> None:
    move(site, FLAT_0006, f"{FLAT_ADR}/0006-use-websockets.md")


def manual_current_edit(site: Path) -> None:
    edit(
        site,
        f"{FLAT_ADR}/CURRENT.md",
        "## Decisions in effect",
        "## Decisions in effect\n\nWe also decided to use Kafka.",
    )


def manifest_deleted(site: Path) -> None:
    (site / FLAT_ADR / mf.FILENAME).unlink()


def manifest_corrupt(site: Path) -> None:
    path = site / FLAT_ADR / mf.FILENAME
    path.write_bytes(path.read_bytes()[:-40])


def manifest_future(site: Path) -> None:
    path = site / FLAT_ADR / mf.FILENAME
    data = json.loads(path.read_text(encoding="utf-8"))
    data["version"] = 2
    path.write_text(json.dumps(data), encoding="utf-8")


def manifest_dotdot(site: Path) -> None:
    path = site / FLAT_ADR / mf.FILENAME
    data = json.loads(path.read_text(encoding="utf-8"))
    data["sources"][0]["path"] = "../../../etc/passwd"
    path.write_text(json.dumps(data), encoding="utf-8")


def archive_move_unrecorded(site: Path) -> None:
    move(
        site,
        f"{FLAT_ADR}/0003-use-rest-polling-for-sync.md",
        f"{FLAT_ADR}/archive/0003-use-rest-polling-for-sync.md",
    )


def archive_move_recorded(site: Path) -> None:
    archive_move_unrecorded(site)
    path = site / FLAT_ADR / mf.FILENAME
    updated = mf.rewrite_paths(
        mf.parse(path.read_bytes(), where="m"),
        {"0003-use-rest-polling-for-sync.md": "archive/0003-use-rest-polling-for-sync.md"},
    )
    path.write_bytes(updated.to_bytes())


LAYERED_0010 = f"{LAYERED_ADR}/platform/0010-use-nats-jetstream-for-durable-queues.md"
LAYERED_0002 = f"{LAYERED_ADR}/platform/0002-platform-baseline.md"


def domain_move(site: Path) -> None:
    move(site, LAYERED_0010, f"{LAYERED_ADR}/data/0010-use-nats-jetstream-for-durable-queues.md")


def unit_added(site: Path) -> None:
    edit(
        site,
        LAYERED_0002,
        "## Consequences",
        "## D4. Use OpenTelemetry for tracing\n\nStatus: accepted\n\n"
        "Every service exports traces with OpenTelemetry.\n\n## Consequences",
    )


def unit_status_change(site: Path) -> None:
    edit(
        site,
        LAYERED_0002,
        "## D3. Use Redis for caching\n\nStatus: accepted",
        "## D3. Use Redis for caching\n\nStatus: deprecated",
    )


Change = Callable[[Path], None]
# (name, site, change, state, [(reason kind, ids)], words the banner must show)
CASES: list[tuple[str, str, Change, str, list[tuple[str, list[str]]], list[str]]] = [
    ("new record", "flat", new_record, "stale", [("added", ["ADR-0010"])], ["ADR-0010", "added"]),
    (
        "status change",
        "flat",
        status_change,
        "stale",
        [("status-changed", ["ADR-0006"])],
        ["ADR-0006", "accepted to deprecated"],
    ),
    (
        "supersession",
        "flat",
        supersession,
        "stale",
        [("added", ["ADR-0010"]), ("status-changed", ["ADR-0006"])],
        ["ADR-0010", "ADR-0006", "accepted to superseded"],
    ),
    (
        "body edit",
        "flat",
        body_edit,
        "stale",
        [("modified", ["ADR-0004"])],
        ["ADR-0004", "modified"],
    ),
    ("deletion", "flat", deletion, "stale", [("removed", ["ADR-0005"])], ["ADR-0005", "removed"]),
    (
        "rename",
        "flat",
        rename,
        "stale",
        [("renamed", ["ADR-0006"])],
        ["ADR-0006", "renamed", "0006-use-websockets.md"],
    ),
    (
        "manual CURRENT edit",
        "flat",
        manual_current_edit,
        "stale",
        [("summary-edited", [])],
        ["edited after it was published"],
    ),
    (
        "manifest deleted",
        "flat",
        manifest_deleted,
        "unverifiable",
        [("manifest-missing", [])],
        ["manifest missing", "not claimed to be current"],
    ),
    (
        "manifest corrupt",
        "flat",
        manifest_corrupt,
        "unverifiable",
        [("manifest-unreadable", [])],
        ["not JSON", "not claimed to be current"],
    ),
    (
        "manifest of a future version",
        "flat",
        manifest_future,
        "unverifiable",
        [("manifest-version", [])],
        ["version 2", "not claimed to be current"],
    ),
    (
        "manifest with .. paths",
        "flat",
        manifest_dotdot,
        "unverifiable",
        [("manifest-invalid", [])],
        ["../../../etc/passwd", "never followed"],
    ),
    (
        "archive move, manifest not updated",
        "flat",
        archive_move_unrecorded,
        "stale",
        [("moved", ["ADR-0003"])],
        ["ADR-0003", "content unchanged", "mechanical"],
    ),
    (
        "archive move with the mechanical update",
        "flat",
        archive_move_recorded,
        "fresh",
        [],
        ["matches its sources"],
    ),
    (
        "domain move",
        "layered",
        domain_move,
        "stale",
        [("moved-domain", ["ADR-0010"])],
        ["ADR-0010", "from domain platform to data"],
    ),
    (
        "decision unit added",
        "layered",
        unit_added,
        "stale",
        [("added", ["ADR-0002#D4"])],
        ["ADR-0002#D4", "added"],
    ),
    (
        "decision unit status change",
        "layered",
        unit_status_change,
        "stale",
        [("status-changed", ["ADR-0002#D3"])],
        ["ADR-0002#D3", "accepted to deprecated"],
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("layout", "change", "state", "reasons", "words"),
    [pytest.param(*c[1:], id=c[0]) for c in CASES],
)
def test_change_path(
    published: dict[str, Path],
    tmp_path: Path,
    layout: str,
    change: Change,
    state: str,
    reasons: list[tuple[str, list[str]]],
    words: list[str],
) -> None:
    site = tmp_path / layout
    shutil.copytree(published[layout], site, symlinks=True)
    change(site)

    _code, data = check(site)
    current = data["views"]["current"]
    assert current["state"] == state, current
    got = [(r["kind"], r["ids"]) for r in current["reasons"]]
    assert got == reasons, got
    for r in current["reasons"]:
        assert r["reason"]
    codes = {
        p["code"]
        for p in data["problems"]
        if p["path"] and p["path"].startswith(f"{FLAT_ADR}/CURRENT")
    }
    if state == "stale":
        adr011 = [p for p in data["problems"] if p["code"] == "ADR011"]
        assert adr011 and adr011[0]["severity"] == "warning"
        assert set(adr011[0]["ids"]) >= {i.split("#")[0] for _, ids in reasons for i in ids}
    elif state == "unverifiable":
        assert any(p["code"] == "ADR012" for p in data["problems"]), data["problems"]
    else:
        assert not codes & {"ADR011", "ADR012"}
    # stale is a warning: CI fails on it with --fail-on warning
    assert check(site, "--fail-on", "warning")[0] == (
        0 if state == "fresh" and not any(p["severity"] != "info" for p in data["problems"]) else 1
    )

    out = build(site)
    shown_state, text = banner(page(out, "adr/CURRENT.md"))
    assert shown_state == state, text
    for word in words:
        assert word in text, (word, text)
    if state == "unverifiable":
        assert "index" in text.lower()
        assert "matches its sources" not in text


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["flat", "layered"])
def test_published_views_build_strict_and_fresh(
    published: dict[str, Path], tmp_path: Path, layout: str
) -> None:
    site = tmp_path / layout
    shutil.copytree(published[layout], site, symlinks=True)
    out = build(site, "--strict")
    state, text = banner(page(out, "adr/CURRENT.md"))
    assert state == "fresh" and "matches its sources" in text
    assert "Verified against" in text and "published" in text
    if layout == "layered":
        state, _ = banner(page(out, "services/payments/adr/CURRENT.md"))
        assert state == "fresh"
