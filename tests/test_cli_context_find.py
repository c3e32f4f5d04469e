"""``mkdocs-adr context`` and ``find`` as users and agents run them.

In-process through click's CliRunner (and ``main`` for exit codes), and as the
real console script in a subprocess.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mkdocs_adr.cli import cli, main
from mkdocs_adr.errors import UsageError

from .conftest import run_cli
from .retrieval_logs import Spec, write_log


@pytest.fixture
def site(tmp_path: Path) -> Path:
    specs = [
        Spec(1, "Base", affected_paths=["src/**"], sections={"Decision": "Base rule."}),
        Spec(
            2,
            "Old",
            "superseded",
            relations={"superseded-by": ["ADR-0003"]},
            affected_paths=["src/old/**"],
        ),
        Spec(3, "New", relations={"supersedes": ["ADR-0002"], "depends-on": ["ADR-0001"]}),
    ]
    specs += [
        Spec(
            n,
            f"Rule {n}",
            domain="many",
            affected_paths=["src/many/**"],
            relations={"depends-on": ["ADR-0001"]},
            sections={"Decision": "x " * 400},
        )
        for n in range(4, 16)
    ]
    write_log(tmp_path, specs)
    return tmp_path


def invoke(*args: str) -> tuple[int, str, str]:
    """``main`` in-process, with its real exit-code mapping."""
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        code = main(list(args))
    return code, out.getvalue().decode(), err.getvalue().decode()


def as_json(stdout: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(stdout)
    assert data["budget"]["codepoints"] == len(stdout.rstrip("\n"))
    return data


class TestCliRunner:
    def test_context_json(self, site: Path) -> None:
        result = CliRunner().invoke(
            cli, ["-f", str(site / "mkdocs.yml"), "context", "ADR-0002", "--json"]
        )
        assert result.exit_code == 0, result.output
        data = as_json(result.stdout)
        assert data["schema"] == "mkdocs-adr/context"
        assert data["units"][0]["id"] == "ADR-0003"
        assert data["succession"]["current"] == "ADR-0003"
        assert data["navigation"]["hints"][0].startswith("mkdocs-adr -f ")

    def test_location_option_after_the_command(self, site: Path) -> None:
        result = CliRunner().invoke(
            cli, ["find", "--path", "src/old/a.py", "--json", "-f", str(site / "mkdocs.yml")]
        )
        assert result.exit_code == 0, result.output
        data = as_json(result.stdout)
        # ADR-0001 covers src/** directly; superseded ADR-0002 answers with ADR-0003
        assert [(u["id"], u["layer"]) for u in data["units"]] == [
            ("ADR-0001", "affected-paths"),
            ("ADR-0003", "relations"),
        ]
        assert data["layers"]["project-graph"]["state"] == "absent"

    def test_text_output_for_people(self, site: Path) -> None:
        result = CliRunner().invoke(cli, ["-f", str(site / "mkdocs.yml"), "context", "ADR-0002"])
        assert result.exit_code == 0
        out = result.stdout
        assert out.startswith("mkdocs-adr context ADR-0002 (intent current)")
        assert "Succession: ADR-0002 is superseded; current successor ADR-0003" in out
        assert "[1] ADR-0003  accepted  New" in out
        assert "Coverage: complete" in out and "CURRENT: adr/CURRENT.md absent" in out
        assert "tokens (estimate" in out

    def test_overview_with_root(self, site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(site)
        result = CliRunner().invoke(cli, ["--root", "adr", "context"])
        assert result.exit_code == 0, result.output
        assert "Roots" in result.stdout and "Domains: many (12)" in result.stdout

    def test_help_documents_both_commands(self) -> None:
        for name, words in (
            ("context", ["--intent", "--cursor", "12,000"]),
            ("find", ["--path", "--component", "--topic", "--status"]),
        ):
            result = CliRunner().invoke(cli, [name, "--help"])
            assert result.exit_code == 0
            for word in words:
                assert word in result.stdout

    def test_domain_errors_become_exit_codes_and_messages(self, site: Path) -> None:
        result = CliRunner().invoke(cli, ["-f", str(site / "mkdocs.yml"), "find", "--path", "../x"])
        assert result.exit_code == 2
        assert "leaves the project folder" in result.stderr and result.stdout == ""
        assert not isinstance(result.exception, UsageError)


class TestExitCodes:
    def test_unknown_option_is_a_usage_error(self, site: Path) -> None:
        code, _, err = invoke("-f", str(site / "mkdocs.yml"), "context", "--nope")
        assert code == 2 and "No such option" in err

    @pytest.mark.parametrize(
        ("args", "message"),
        [
            (["context", "ADR-0999"], "no record has the id or path"),
            (["context", "ADR-0001", "--domain", "x"], "exclude each other"),
            (["context", "--cursor", "bogus"], "not a cursor"),
            (["find"], "at least one of"),
            (["find", "--path", "/etc/passwd"], "outside the project folder"),
            (["find", "--path", "..\\..\\x"], "leaves the project folder"),
        ],
    )
    def test_usage_errors_exit_2_with_a_message(
        self, site: Path, args: list[str], message: str
    ) -> None:
        code, out, err = invoke("-f", str(site / "mkdocs.yml"), *args)
        assert code == 2, err
        assert message in err and "Traceback" not in err and out == ""

    def test_stale_cursor_exits_3_with_the_command_to_start_again(self, site: Path) -> None:
        cfg = str(site / "mkdocs.yml")
        code, out, _ = invoke("-f", cfg, "context", "--domain", "many", "--json")
        cursor = json.loads(out)["next_cursor"]
        assert code == 0 and cursor
        (site / "adr" / "0001-record.md").write_text(Spec(1, "Edited").text())
        code, out, err = invoke("-f", cfg, "context", "--domain", "many", "--cursor", cursor)
        assert code == 3 and out == ""
        assert "changed since" in err
        assert f"start again: mkdocs-adr -f {cfg} context --domain many" in err


class TestSubprocess:
    def pages(self, site: Path, *args: str) -> Iterator[dict[str, Any]]:
        proc = run_cli(*args, "--json", cwd=site, check=True)
        data = as_json(proc.stdout)
        yield data
        while data["navigation"]["next"]:
            # the printed command runs as it is
            argv = shlex.split(data["navigation"]["next"])
            assert argv[0] == "mkdocs-adr"
            proc = run_cli(*argv[1:], "--json", cwd=site, check=True)
            data = as_json(proc.stdout)
            yield data

    def test_following_next_returns_every_unit_once(self, site: Path) -> None:
        seen = [
            u["id"]
            for page in self.pages(site, "context", "--domain", "many")
            for u in page["units"]
        ]
        assert sorted(seen) == [f"ADR-{n:04d}" for n in range(1, 16) if n not in (2, 3)]

    def test_find_pages_through_the_console_script(self, site: Path) -> None:
        pages = list(self.pages(site, "find", "--path", "src/many/a.py"))
        assert len(pages) > 1
        ids = [u["id"] for p in pages for u in p["units"]]
        assert len(ids) == len(set(ids)) == 13  # 12 matches and the relation to ADR-0001

    def test_stale_cursor_refused_by_the_real_command(self, site: Path) -> None:
        first = json.loads(run_cli("find", "--path", "src/", "--json", cwd=site).stdout)
        (site / "adr" / "0099-new.md").write_text(Spec(99, affected_paths=["src/**"]).text())
        proc = run_cli("find", "--path", "src/", "--cursor", first["next_cursor"], cwd=site)
        assert proc.returncode == 3
        assert "start again: mkdocs-adr find --path src/" in proc.stderr
        assert "Traceback" not in proc.stderr

    def test_hostile_paths_never_crash(self, site: Path) -> None:
        for raw in ("../../etc/passwd", "/", "C:\\Windows\\x", "a\x01b", "src/" + "x" * 2000):
            proc = run_cli("find", "--path", raw, cwd=site)
            assert proc.returncode in (0, 2), proc.stderr
            assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr

    def test_unreadable_project_graph_still_answers(self, site: Path) -> None:
        (site / "graphify-out").mkdir()
        (site / "graphify-out" / "graph.json").write_text("{broken")
        proc = run_cli("find", "--path", "src/a.py", "--json", cwd=site)
        assert proc.returncode == 0
        data = as_json(proc.stdout)
        assert data["layers"]["project-graph"]["state"] == "unreadable"
        assert [u["id"] for u in data["units"]] == ["ADR-0001"]

    def test_without_config_it_says_what_to_do(self, tmp_path: Path) -> None:
        proc = run_cli("context", cwd=tmp_path)
        assert proc.returncode == 2
        assert "no mkdocs.yml" in proc.stderr and "--root" in proc.stderr

    @pytest.mark.parametrize(
        ("asked", "first", "state"),
        [
            ("ADR-0020", ["ADR-0022"], "current"),  # a chain of two
            ("ADR-0023", ["ADR-0024", "ADR-0025"], "ambiguous"),  # none chosen
            ("ADR-0026", ["ADR-0026"], "not-accepted"),  # proposed successor
        ],
    )
    def test_successor_resolution_through_the_console_script(
        self, site: Path, asked: str, first: list[str], state: str
    ) -> None:
        by, sup = "superseded-by", "supersedes"
        extra = [
            Spec(20, "Old", "superseded", relations={by: ["ADR-0021"]}),
            Spec(21, "Mid", "superseded", relations={by: ["ADR-0022"], sup: ["ADR-0020"]}),
            Spec(22, "Now", relations={sup: ["ADR-0021"]}),
            Spec(23, "Split", "superseded", relations={by: ["ADR-0024", "ADR-0025"]}),
            Spec(24, "Left", relations={sup: ["ADR-0023"]}),
            Spec(25, "Right", relations={sup: ["ADR-0023"]}),
            Spec(26, "Kept", relations={by: ["ADR-0027"]}),
            Spec(27, "Idea", "proposed", relations={sup: ["ADR-0026"]}),
        ]
        for spec in extra:
            (site / spec.relpath()).write_text(spec.text(), encoding="utf-8")
        proc = run_cli("context", asked, "--json", cwd=site, check=True)
        data = as_json(proc.stdout)
        assert [u["id"] for u in data["units"][: len(first)]] == first
        assert data["succession"]["state"] == state
        if state == "ambiguous":
            assert data["succession"]["current"] is None
        text = run_cli("context", asked, cwd=site, check=True).stdout
        assert f"Succession: {asked}" in text
