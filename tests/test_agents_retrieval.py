"""Issue 12, retrieval that is right on real logs: the default status filter, the
``against`` group, whole sections, ranking by status and recency, old ids, flags kept.

Fixture logs under tests/fixtures/logs/agents/ (each folder stands for ``docs_dir``,
``adr/`` is the root), written in the shapes real logs take:

- ``nostatus``: a MADR log whose records never write a status, with ``###`` and
  ``####`` parts under Decision Outcome, Considered Options, Pros and Cons, and one
  decision longer than a segment;
- ``mixed``: a Nygard log writing ``Valid`` and ``Implemented``, a rejected record
  that answers "can we use a broker for webhooks?", a 2018 record superseded by its
  2026 replacement, a proposal superseding an accepted record, a status nobody's
  vocabulary knows, and two accepted records on one topic eight years apart;
- ``oldids``: cometbft-style ``adr-018-x.md``/``adr-110-x.md`` files.
"""

from __future__ import annotations

import json
import os
import string
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mkdocs_adr.cli import main
from mkdocs_adr.config import from_options
from mkdocs_adr.errors import UsageError
from mkdocs_adr.log import Log, load
from mkdocs_adr.retrieval import (
    MAX_CODEPOINTS,
    SEGMENT_CODEPOINTS,
    ContextQuery,
    FindQuery,
    context,
    find,
)
from mkdocs_adr.retrieval.evidence import whole_sections

from .conftest import LOGS

HERE = LOGS / "agents"
REPO = Path(__file__).resolve().parent.parent


def fixture_log(name: str) -> Log:
    folder = HERE / name
    return load(from_options({}, project_dir=folder, docs_dir=folder, config_file=None))


@pytest.fixture(scope="module")
def mixed() -> Log:
    return fixture_log("mixed")


@pytest.fixture(scope="module")
def nostatus() -> Log:
    return fixture_log("nostatus")


def ask(log: Log, **kw: Any) -> dict[str, Any]:
    data, text = find(log, FindQuery(**kw))
    assert len(text) <= MAX_CODEPOINTS and json.loads(text) == data
    return data


def ids(data: dict[str, Any]) -> list[str]:
    return [u["id"] for u in data["units"]]


def section(log: Log, rid: str, heading: str) -> str:
    rec = log.get(rid)
    assert rec is not None
    return next(t for h, t in whole_sections(rec.parsed) if h == heading)


# --------------------------------------------------------------------------- status filter


class TestStatusFilter:
    def test_valid_and_implemented_are_in_effect(self, mixed: Log) -> None:
        assert {r.id: r.status for r in mixed.records if r.id in ("ADR-0001", "ADR-0002")} == {
            "ADR-0001": "accepted",
            "ADR-0002": "accepted",
        }
        data = ask(mixed, topic="partner notification")
        assert ids(data) == ["ADR-0002"]
        assert "label" not in data["units"][0]

    def test_a_log_without_statuses_is_searchable_and_labelled(self, nostatus: Log) -> None:
        data = ask(nostatus, topic="mail queue retry")
        assert ids(data) == ["ADR-0002"]
        unit = data["units"][0]
        assert (unit["status"], unit["label"]) == ("missing", "status-unverified")
        status = data["layers"]["status"]
        assert status == {
            "admitted": "in-effect",
            "then": "status-unverified",
            "unverified": 1,
            "filtered_out": {},
        }
        assert data["coverage"] == "complete"

    def test_unknown_status_is_unverified_and_ranked_after_accepted(self, mixed: Log) -> None:
        rec = mixed.get("ADR-0008")
        assert rec is not None and rec.status == "unknown"
        data = ask(mixed, topic="image tagged commit")
        assert ids(data) == ["ADR-0008"]
        assert data["units"][0]["label"] == "status-unverified"
        # in one score band, the accepted record comes before the unverified one
        data = ask(mixed, topic="commit tag hash image rollback cache")
        assert ids(data)[-1] == "ADR-0008"

    def test_filtered_out_counts_by_status_with_the_widening_command(self, mixed: Log) -> None:
        data = ask(mixed, topic="session cache")
        assert ids(data) == ["ADR-0006"]
        status = data["layers"]["status"]
        assert status["filtered_out"] == {"proposed": 1, "superseded": 1}
        assert "widen" not in status  # said once, in coverage_detail
        assert data["coverage"] == "incomplete"
        assert data["coverage_detail"] == {
            "required": 1,
            "missing": [],
            "filtered_out": 2,
            "widen": "mkdocs-adr find --topic 'session cache' --status all",
        }
        assert data["warnings"] == [
            "2 matching unit(s) not in effect were left out by the status filter "
            "(proposed 1, superseded 1); add --status all to see them (coverage_detail.widen)"
        ]

    def test_superseded_match_is_replaced_by_its_successor(self, mixed: Log) -> None:
        data = ask(mixed, topic="memcached")
        assert ids(data) == ["ADR-0006"]
        assert data["units"][0]["why"] == (
            "current successor of ADR-0004 (ADR-0004 → ADR-0006), which matches --topic "
            f"(lunr score {data['units'][0]['score']:.3f})"
        )

    def test_status_all_ranks_the_successor_first_and_names_it(self, mixed: Log) -> None:
        data = ask(mixed, topic="session cache", statuses=("all",))
        assert ids(data)[:2] == ["ADR-0006", "ADR-0004"]
        old = data["units"][1]
        assert old["successor"] == "ADR-0006"
        assert old["why"].endswith("; superseded, current successor ADR-0006 (ADR-0004 → ADR-0006)")
        assert "widen" not in data["coverage_detail"]


# --------------------------------------------------------------------------- against group


class TestAgainst:
    def test_can_we_use_a_broker_gets_the_rejection_first(self, mixed: Log) -> None:
        data = ask(mixed, topic="message broker for webhooks")
        first = data["units"][0]
        assert (first["id"], first["status"], first["group"], first["verdict"]) == (
            "ADR-0003",
            "rejected",
            "against",
            "rejected",
        )
        assert first["why"].endswith("ADR-0003 is rejected: the log decided against this")
        assert data["layers"]["topic"]["against"] == ["ADR-0003"]
        # the accepted record it points to follows, outside the group
        assert ids(data)[1] == "ADR-0002" and "group" not in data["units"][1]
        assert data["layers"]["status"]["filtered_out"] == {}

    def test_a_proposal_replacing_an_accepted_record(self, mixed: Log) -> None:
        data = ask(mixed, topic="sessions in postgres")
        first = data["units"][0]
        assert (first["id"], first["group"], first["verdict"]) == (
            "ADR-0007",
            "against",
            "proposed-replacement",
        )
        assert "proposed to supersede ADR-0006, which is in effect" in first["why"]

    def test_a_rejection_weaker_than_an_accepted_match_stays_filtered(self, mixed: Log) -> None:
        data = ask(mixed, topic="webhooks partner app retries")
        assert ids(data)[0] == "ADR-0002"
        assert "ADR-0003" not in ids(data)
        assert data["layers"]["status"]["filtered_out"] == {"rejected": 1}


# --------------------------------------------------------------------------- ranking


class TestRanking:
    def test_newer_of_two_close_matches_comes_first(self, mixed: Log) -> None:
        data = ask(mixed, topic="json lines logs")
        assert ids(data) == ["ADR-0010", "ADR-0009"]
        # the 2018 record scores higher (shorter), yet the two are one band
        assert data["units"][1]["score"] > data["units"][0]["score"]
        assert data["units"][0]["date"] == "2026-03-01"

    def test_path_query_with_topic_ranks_newer_first_within_a_band(self, tmp_path: Path) -> None:
        adr = tmp_path / "adr"
        adr.mkdir()
        for n, date in ((1, "2018-02-01"), (2, "2026-02-01")):
            (adr / f"{n:04d}-retry-rule-{n}.md").write_text(
                f"---\naffected-paths: [src/jobs/**]\n---\n# {n}. Retry rule {n}\n\n"
                f"Date: {date}\n\n## Status\n\nAccepted\n\n## Decision\n\n"
                f"Jobs retry with backoff{' and jitter' if n == 2 else ''}.\n",
                encoding="utf-8",
            )
        log = load(from_options({}, project_dir=tmp_path, docs_dir=tmp_path, config_file=None))
        data = ask(log, paths=("src/jobs/run.py",), topic="retry backoff")
        assert ids(data) == ["ADR-0002", "ADR-0001"]
        assert data["units"][1]["score"] >= data["units"][0]["score"]

    def test_weak_matches_wait_behind_the_cursor(self, mixed: Log) -> None:
        data = ask(mixed, topic="sessions database")
        assert ids(data) == ["ADR-0007", "ADR-0006"]
        assert data["next_cursor"] is not None
        more = ask(mixed, topic="sessions database", cursor=data["next_cursor"])
        assert ids(more) == ["ADR-0005"]
        assert more["units"][0]["why"].endswith("(weak: under 50% of the best match)")


# --------------------------------------------------------------------------- whole sections


class TestWholeSections:
    def test_subsections_belong_to_the_decision(self, nostatus: Log) -> None:
        data = ask(nostatus, topic="mail queue retry")
        text = data["units"][0]["text"]
        assert text == "## Decision Outcome\n\n" + section(nostatus, "ADR-0002", "Decision Outcome")
        assert "### Negative Consequences" in text
        assert "#### Retry policy\n\nThe worker retries a message five times" in text
        assert "Pros and Cons" not in text  # current intent: the decision only

    def test_rationale_adds_context_and_alternatives(self, nostatus: Log) -> None:
        data, _ = context(nostatus, ContextQuery("ADR-0002", intent="rationale"))
        text = data["units"][0]["text"]
        for heading in (
            "## Context and Problem Statement",
            "## Decision Drivers",
            "## Considered Options",
            "## Decision Outcome",
            "## Pros and Cons of the Options",
            "### a mail queue drained by a worker",
        ):
            assert heading in text
        assert text.endswith("* Bad, because mail leaves a few seconds later.")

    def test_a_long_decision_is_segmented_never_cut(self, nostatus: Log) -> None:
        whole = "## Decision Outcome\n\n" + section(nostatus, "ADR-0004", "Decision Outcome")
        assert len(whole) > SEGMENT_CODEPOINTS
        data = ask(nostatus, topic="service names")
        units = data["units"]
        assert [(u["id"], u["segment"], u["segments"]) for u in units] == [
            ("ADR-0004", "ADR-0004@1", 2),
            ("ADR-0004", "ADR-0004@2", 2),
        ]
        assert "".join(u["text"] for u in units) == whole
        assert "### Rule 14" in units[1]["text"]


# --------------------------------------------------------------------------- ids, flags


class TestIdsAndFlags:
    @pytest.mark.parametrize(
        ("typed", "rid"),
        [
            ("ADR-0110", "ADR-0110"),
            ("ADR-110", "ADR-0110"),
            ("adr-110", "ADR-0110"),
            ("ADR-0018", "ADR-0018"),
            ("ADR-18", "ADR-0018"),
            ("ADR 18", "ADR-0018"),
        ],
    )
    def test_old_id_forms_resolve(self, typed: str, rid: str) -> None:
        data, _ = context(fixture_log("oldids"), ContextQuery(typed))
        assert data["units"][0]["id"] == rid

    @pytest.mark.parametrize("typed", ["ADR-0112", "ADR-112", "adr-0019"])
    def test_refusals_name_the_nearest_ids(self, typed: str) -> None:
        with pytest.raises(UsageError) as err:
            context(fixture_log("oldids"), ContextQuery(typed))
        assert "nearest ids: " in str(err.value)
        near = str(err.value).split("nearest ids: ")[1]
        assert near.split(", ")[0] in ("ADR-0111", "ADR-0018")

    def test_words_given_as_an_id_are_pointed_to_find(self, mixed: Log) -> None:
        with pytest.raises(UsageError) as err:
            context(mixed, ContextQuery("kafka for webhooks"))
        assert str(err.value) == (
            "no record has the id or path 'kafka for webhooks' Fix: give an id (ADR-0012), "
            "a number (12) or a record's file path; to search by words: "
            "mkdocs-adr find --topic 'kafka for webhooks'"
        )

    def test_navigation_next_keeps_json_and_location(self, tmp_path: Path) -> None:
        """The real CLI as a subprocess: the printed next command is runnable as is."""
        root = tmp_path / "proj"
        adr = root / "docs" / "adr"
        adr.mkdir(parents=True)
        (root / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - adr\n", encoding="utf-8")
        for n in range(1, 13):
            (adr / f"{n:04d}-cache-rule-{n}.md").write_text(
                f"# {n}. Cache rule {n}\n\nDate: 2026-01-{n:02d}\n\n## Status\n\nAccepted\n\n"
                f"## Decision\n\nThe cache keeps entry kind {n} for {n} minutes.\n",
                encoding="utf-8",
            )
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        cmd = [sys.executable, "-m", "mkdocs_adr", "--root", str(root), "find", "--topic", "cache"]
        first = subprocess.run(
            [*cmd, "--json"], capture_output=True, text=True, env=env, timeout=120, check=True
        )
        data = json.loads(first.stdout)
        assert len(data["units"]) == 8 and data["coverage"] == "incomplete"
        nxt = data["navigation"]["next"]
        assert nxt.startswith(f"mkdocs-adr --root {root} find --topic cache --cursor ")
        assert nxt.endswith(" --json")
        argv = nxt.split()[1:]
        second = subprocess.run(
            [sys.executable, "-m", "mkdocs_adr", *argv],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=True,
        )
        more = json.loads(second.stdout)  # --json kept: the answer is JSON
        assert len(more["units"]) == 4 and more["coverage"] == "complete"
        assert not set(ids(data)) & set(ids(more))
        # without --json the text answer's next command has none either
        text = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        assert "--cursor" in text.stdout and "--json" not in text.stdout


def test_text_output_shows_the_labels_and_the_widening_command() -> None:
    """The same answers for people: click's runner over the real ``main``."""
    root = str(HERE / "mixed" / "adr")
    runner = CliRunner()
    with runner.isolation() as (out, _, _):
        assert main(["--root", root, "find", "--topic", "message broker for webhooks"]) == 0
        assert main(["--root", root, "find", "--topic", "session cache"]) == 0
        assert main(["--root", root, "find", "--topic", "image tagged commit"]) == 0
    text = out.getvalue().decode()
    assert "[1] ADR-0003  rejected, AGAINST: rejected  Use a message broker for webhooks" in text
    assert (
        "Left out by status: 1 proposed, 1 superseded; widen: "
        f"mkdocs-adr --root {root} find --topic 'session cache' --status all"
    ) in text
    assert "[1] ADR-0008  unknown (status-unverified)  Tag every image with the commit" in text


# --------------------------------------------------------------------------- properties

_WORDS = st.text(alphabet=string.ascii_lowercase + " ", min_size=1, max_size=40)


@st.composite
def records(draw: st.DrawFn) -> list[tuple[str, list[tuple[int, str, str]]]]:
    """Records as (status, [(heading level, heading, text)]), long parts included."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        status = draw(st.sampled_from(["", "Accepted", "Rejected", "Valid", "Sometime"]))
        parts = [(2, "Decision", draw(_WORDS) + " cache")]
        for _ in range(draw(st.integers(0, 4))):
            level = draw(st.sampled_from([3, 4]))
            body = draw(_WORDS) * draw(st.sampled_from([1, 30, 200]))
            parts.append((level, draw(_WORDS).strip() or "part", body))
        parts.append((2, "Consequences", draw(_WORDS)))
        out.append((status, parts))
    return out


def _write(folder: Path, recs: list[tuple[str, list[tuple[int, str, str]]]]) -> None:
    adr = folder / "adr"
    adr.mkdir(parents=True, exist_ok=True)
    for n, (status, parts) in enumerate(recs, 1):
        lines = [f"# {n}. Cache record {n}", ""]
        if status:
            lines += ["## Status", "", status, ""]
        for level, heading, text in parts:
            lines += ["#" * level + " " + heading, "", text, ""]
        (adr / f"{n:04d}-cache-record-{n}.md").write_text("\n".join(lines), encoding="utf-8")


@settings(
    max_examples=25,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(records())
def test_responses_within_budget_and_units_never_shorter_than_their_section(
    tmp_path_factory: pytest.TempPathFactory,
    recs: list[tuple[str, list[tuple[int, str, str]]]],
) -> None:
    folder = tmp_path_factory.mktemp("prop")
    _write(folder, recs)
    log = load(from_options({}, project_dir=folder, docs_dir=folder, config_file=None))
    pieces: dict[str, dict[int, str]] = {}
    counts: dict[str, int] = {}
    for query in (FindQuery(topic="cache"), FindQuery(topic="cache", statuses=("all",))):
        cursor = None
        while True:
            data, text = find(log, FindQuery((), (), query.topic, query.statuses, cursor))
            assert len(text) <= MAX_CODEPOINTS
            for unit in data["units"]:
                if "segment" in unit:
                    n = int(unit["segment"].rsplit("@", 1)[1])
                    counts[unit["id"]] = unit["segments"]
                else:
                    n, counts[unit["id"]] = 1, 1
                pieces.setdefault(unit["id"], {})[n] = unit["text"]
            cursor = data["next_cursor"]
            if cursor is None:
                break
    for rec in log.records:
        _, text = context(log, ContextQuery(rec.id, intent="rationale"))
        assert len(text) <= MAX_CODEPOINTS
    # under --status all every record matches "cache" and is paged through: the text of
    # each, its segments joined, is its whole Decision section, subsections included
    assert set(pieces) == {r.id for r in log.records}
    for n, (_, parts) in enumerate(recs, 1):
        rec = log.get(f"ADR-{n:04d}")
        assert rec is not None
        # the Decision section as written: its text and every ### / #### part under it
        lines = [parts[0][2], ""]
        for level, heading, text in parts[1:-1]:
            lines += ["#" * level + " " + heading, "", text, ""]
        whole = "## Decision\n\n" + "\n".join(lines).strip()
        got = pieces[rec.id]
        assert sorted(got) == list(range(1, counts[rec.id] + 1)), rec.id
        assert "".join(got[n] for n in sorted(got)) == whole.strip(), rec.id
