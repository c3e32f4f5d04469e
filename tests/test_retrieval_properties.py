"""Properties over generated logs: budgets hold, cursors return everything once,
identifiers are never cut, and a cursor from a changed corpus is refused."""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mkdocs_adr.errors import RefusedError, UsageError
from mkdocs_adr.log import Log, load
from mkdocs_adr.retrieval import (
    MAX_CODEPOINTS,
    MAX_UNITS,
    SEGMENT_CODEPOINTS,
    ContextQuery,
    FindQuery,
    context,
    find,
    render,
)

from .retrieval_logs import Spec, write_log

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

STATUSES = [
    "accepted",
    "accepted",
    "accepted",
    "proposed",
    "superseded",
    "rejected",
    "deprecated",
    "draft",
]
KINDS = ["supersedes", "superseded-by", "depends-on", "amends", "extends", "relates-to"]
PATTERNS = [
    "src/a/**",
    "src/*/x.py",
    "src/b/",
    "docs/**/*.md",
    "**/*.sql",
    "lib/c.py",
    "../evil/**",
    "/src/a/deep/**",
]
QUERY_PATHS = [
    "src/a/x.py",
    "src/b/x.py",
    "src",
    "docs/g/h/i.md",
    "db/m.sql",
    "lib/c.py",
    "./src\\a\\deep\\k.py",
    "other.txt",
]
CHARS = list('abcdefgh xyz\n"\\\x01缓存😀é<>&`$/#@-.')
WORDS = ["ledger", "cache", "rounding", "redis", "缓存", "queue"]


@st.composite
def texts(draw: st.DrawFn) -> str:
    words = draw(
        st.lists(st.text(alphabet=CHARS, min_size=1, max_size=12), min_size=1, max_size=12)
    )
    words += draw(st.lists(st.sampled_from(WORDS), max_size=3))
    repeat = draw(st.sampled_from([1, 1, 1, 5, 40, 400]))
    return " ".join(words * repeat)


@st.composite
def logs(draw: st.DrawFn) -> list[Spec]:
    n = draw(st.integers(min_value=1, max_value=14))
    specs: list[Spec] = []
    for i in range(1, n + 1):
        module = draw(st.booleans()) and draw(st.booleans())
        root, prefix = ("services/pay/adr", "PAY") if module else ("adr", "ADR")
        status = draw(st.sampled_from(STATUSES))
        others = [f"ADR-{k:04d}" for k in range(1, n + 1) if k != i]
        relations: dict[str, list[str]] = {}
        if others:
            for kind in draw(st.lists(st.sampled_from(KINDS), max_size=3)):
                relations.setdefault(kind, []).append(draw(st.sampled_from(others)))
        container = draw(st.integers(min_value=0, max_value=6)) == 0
        units = []
        if container:
            for _ in range(draw(st.integers(min_value=1, max_value=3))):
                units.append(
                    (
                        draw(st.text(alphabet=CHARS, max_size=30)) or "u",
                        draw(st.sampled_from(STATUSES)),
                        draw(texts()),
                    )
                )
        specs.append(
            Spec(
                i,
                title=draw(st.text(alphabet=CHARS, max_size=300)).replace("\n", " ") or "t",
                status=status,
                domain=draw(st.sampled_from([None, "alpha", "beta"])),
                root=root,
                prefix=prefix,
                archived=status == "superseded" and draw(st.booleans()) and not module,
                relations=relations,
                affected_paths=draw(st.lists(st.sampled_from(PATTERNS), max_size=2)),
                affected_components=draw(
                    st.lists(st.sampled_from(["Redis", "ledger"]), max_size=1)
                ),
                iteration=draw(st.sampled_from([None, "it-1"])),
                sections={"Context": draw(texts()), "Decision": draw(texts())},
                units=units,
            )
        )
    return specs


def follow(log: Log, run: Any, **query: Any) -> list[dict[str, Any]]:
    """Every page of one answer; checks the invariants of each page on the way."""
    pages: list[dict[str, Any]] = []
    cursor = None
    for _ in range(500):
        data, text = run(log, cursor=cursor, **query)
        check_page(log, data, text)
        pages.append(data)
        cursor = data["next_cursor"]
        if cursor is None:
            return pages
    raise AssertionError("paging did not end")


def check_page(log: Log, data: dict[str, Any], text: str) -> None:
    assert len(text) <= MAX_CODEPOINTS
    assert len(data["units"]) <= MAX_UNITS
    budget = data["budget"]
    assert budget["codepoints"] == len(text)
    assert budget["bytes"] == len(text.encode("utf-8", "surrogatepass"))
    assert budget["units"] == len(data["units"])
    assert json.loads(text) == data
    assert len(render(data)) <= MAX_CODEPOINTS
    assert data["freshness"]["roots"], "freshness of CURRENT is in every answer"
    for unit in data["units"]:
        # identifiers are whole: they name a real record, byte for byte
        rec = log.by_path[unit["path"]]
        assert unit["sha256"] == rec.sha256 and len(unit["sha256"]) == 64
        keys = [f"{rec.id}#{u.key}" for u in rec.units]
        assert unit["id"] in [rec.id, *keys]
        if "segment" in unit:
            assert re.fullmatch(re.escape(unit["id"]) + r"@\d+", unit["segment"])
        if unit["text"] is not None:
            assert len(json.dumps(unit["text"], ensure_ascii=False)) - 2 <= SEGMENT_CODEPOINTS


def check_all_once(pages: list[dict[str, Any]]) -> Counter[str]:
    total = pages[0]["total"]
    seen: dict[str, list[dict[str, Any]]] = {}
    for page in pages:
        assert page["total"] == total
        for unit in page["units"]:
            seen.setdefault(unit["id"], []).append(unit)
    for uid, parts in seen.items():
        count = parts[0].get("segments", 1)
        assert len(parts) == count, f"{uid} delivered {len(parts)} times for {count} segment(s)"
        if count > 1:
            assert [p["segment"] for p in parts] == [f"{uid}@{i}" for i in range(1, count + 1)]
    skipped = sum(1 for p in pages for w in p["warnings"] if "could not be shown" in w)
    assert len(seen) + skipped == total
    last = pages[-1]
    # issue 12: matches the default status filter left out keep coverage incomplete,
    # and the answer says how many and how to widen it
    left_out = last["coverage_detail"].get("filtered_out", 0)
    assert last["omitted"] == 0
    assert last["coverage"] == ("incomplete" if left_out else "complete")
    if left_out:
        assert "--status all" in last["coverage_detail"]["widen"]
    return Counter(seen)


def run_context(log: Log, cursor: str | None, **q: Any) -> tuple[dict[str, Any], str]:
    return context(log, ContextQuery(cursor=cursor, **q))


def run_find(log: Log, cursor: str | None, **q: Any) -> tuple[dict[str, Any], str]:
    return find(log, FindQuery(cursor=cursor, **q))


def glob_regex(pattern: str) -> str:
    """An independent reading of the documented glob rules, for the limited test patterns."""
    p = pattern.replace("\\", "/").lstrip("/")
    if p.endswith("/"):
        p += "**"
    out = re.escape(p).replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*")
    out = out.replace(r"\*", "[^/]*")
    return out + "(?:/.*)?"


@pytest.mark.slow  # 40 generated logs, each paged to the end
@SETTINGS
@given(specs=logs(), data=st.data())
def test_context_pages_hold_every_promise(specs: list[Spec], data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        log = load(write_log(Path(tmp), specs, module=True))
        choice = data.draw(st.sampled_from(["id", "unit", "domain", "iteration", "overview"]))
        intent = data.draw(st.sampled_from(["current", "rationale", "history"]))
        query: dict[str, Any] = {"intent": intent}
        target = data.draw(st.sampled_from(specs))
        if choice == "id":
            query["target"] = target.id
        elif choice == "unit":
            query["target"] = target.id + f"#D{data.draw(st.integers(1, 3))}"
        elif choice == "domain":
            query["domain"] = data.draw(st.sampled_from(["alpha", "beta"]))
        elif choice == "iteration":
            query["iteration"] = "it-1"
        try:
            pages = follow(log, run_context, **query)
        except UsageError as exc:  # an id claimed twice or a domain nobody has
            assert "ambiguous" in exc.message or "no record" in exc.message
            return
        check_all_once(pages)
        if choice in ("id", "unit") and log.get(target.id) is not None:
            first = pages[0]["units"]
            assert first, "an asked record always yields evidence"


@pytest.mark.slow  # 40 generated logs, each paged to the end
@SETTINGS
@given(specs=logs(), data=st.data())
def test_find_pages_hold_every_promise(specs: list[Spec], data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        log = load(write_log(Path(tmp), specs, module=True))
        paths = tuple(data.draw(st.lists(st.sampled_from(QUERY_PATHS), max_size=2)))
        topic = data.draw(st.sampled_from([None, "ledger", "rounding cache", "缓存"]))
        status = data.draw(st.sampled_from([(), ("all",), ("proposed", "accepted")]))
        if not (paths or topic or status):
            paths = ("src",)
        pages = follow(log, run_find, paths=paths, topic=topic, statuses=status)
        seen = check_all_once(pages)
        units = [u for p in pages for u in p["units"]]
        assert all(
            u["layer"]
            in (
                "affected-paths",
                "affected-components",
                "project-graph",
                "relations",
                "topic",
                "status",
            )
            for u in units
        )
        if paths and status == ("all",):
            # layer 1 finds exactly what the documented glob rules select
            wanted = {p.replace("\\", "/").lstrip("./") for p in paths}
            expected = set()
            for rec in log.records:
                if log.get(rec.id) is None:
                    continue
                for pat in rec.parsed.affected_paths:
                    if ".." in pat:
                        continue
                    rx = glob_regex(pat)
                    static = pat.lstrip("/").split("*")[0].rstrip("/")
                    for q in wanted:
                        q = re.sub(r"^\./", "", q)
                        if re.fullmatch(rx, q) or static == q or static.startswith(q + "/"):
                            expected.update(
                                [rec.id]
                                if not rec.units
                                else [f"{rec.id}#{u.key}" for u in rec.units]
                            )
            direct = {u["id"] for u in units if u["layer"] == "affected-paths"}
            assert direct == expected & set(seen)
            assert expected <= set(seen)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    change=st.sampled_from(["edit", "add", "delete", "rename", "config"]),
    kind=st.sampled_from(["context", "find"]),
)
def test_a_cursor_from_a_changed_corpus_is_refused(change: str, kind: str) -> None:
    specs = [
        Spec(
            1,
            relations={"relates-to": [f"ADR-{n:04d}" for n in range(2, 14)]},
            affected_paths=["src/**"],
        )
    ]
    specs += [
        Spec(n, affected_paths=["src/**"], sections={"Decision": "d " * 300}) for n in range(2, 14)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = write_log(folder, specs)

        def run(log: Log, cursor: str | None) -> dict[str, Any]:
            if kind == "context":
                return context(log, ContextQuery("ADR-0001", cursor=cursor))[0]
            return find(log, FindQuery(paths=("src/x",), cursor=cursor))[0]

        first = run(load(config), None)
        assert first["next_cursor"]
        target = folder / specs[3].relpath()
        if change == "edit":
            target.write_text(specs[3].text() + "\nchanged\n", encoding="utf-8")
        elif change == "add":
            (folder / "adr" / "0099-new.md").write_text(Spec(99).text(), encoding="utf-8")
        elif change == "delete":
            target.unlink()
        elif change == "rename":
            target.rename(target.with_name("0004-renamed.md"))
        else:
            config = config.replace(status_headings=(*config.status_headings, "Estado final"))
        with pytest.raises(RefusedError) as err:
            run(load(config), first["next_cursor"])
        assert "start again" in err.value.fix
    # a cursor works on an unchanged corpus, even one written again elsewhere
    with tempfile.TemporaryDirectory() as unchanged:
        log = load(write_log(Path(unchanged), specs))
        assert run(log, run(log, None)["next_cursor"])["units"]
