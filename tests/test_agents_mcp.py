"""``mkdocs-adr mcp``: the MCP server over a real stdio subprocess, driven by the SDK's
own client (``mcp.client.stdio``), every answer compared with the CLI's ``--json``.

The log is tests/fixtures/logs/mcp (two roots), copied to a temporary folder and its
CURRENT views published with the real ``plan --mode summary`` / ``plan --confirm``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client

from mkdocs_adr import mcp_server
from mkdocs_adr.model import STATUSES
from mkdocs_adr.retrieval import INTENTS

from .conftest import LOGS
from .test_summary_support import checkout_env, publish, run

# a test that starts a server is slow: ~2 s of the SDK's imports alone
slow = pytest.mark.slow

TOOLS = {"adr_context", "adr_find", "adr_check", "adr_graph"}
#: An id that would clear a terminal and reverse the text after it, if printed raw.
HOSTILE = "\x1b[2Jgone\u202eexe.md"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    dest = tmp_path / "parcelway"
    shutil.copytree(LOGS / "mcp", dest)
    publish(dest)
    return dest


Scenario = Callable[[ClientSession], Awaitable[None]]


def serve(scenario: Scenario, *, cwd: Path, args: tuple[str, ...] = ()) -> None:
    """Run ``scenario`` against ``python -m mkdocs_adr mcp ARGS`` started in ``cwd``."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mkdocs_adr", "mcp", *args],
        cwd=cwd,
        env=checkout_env(),
    )

    async def main() -> None:
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
                await s.initialize()
                await scenario(s)

    anyio.run(main)


def cli(cwd: Path, *args: str) -> Any:
    """The CLI's JSON for ``args`` (a subprocess, like a user's shell)."""
    proc = run(*args, cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def cli_error(cwd: Path, *args: str) -> str:
    proc = run(*args, cwd=cwd)
    assert proc.returncode == 2 and proc.stdout == "", (proc.returncode, proc.stdout)
    return proc.stderr.strip()


async def answer(s: ClientSession, tool: str, arguments: dict[str, Any]) -> Any:
    result = await s.call_tool(tool, arguments)
    assert not result.is_error, result.content
    [content] = result.content
    assert content.type == "text"
    return json.loads(content.text)


async def error(s: ClientSession, tool: str, arguments: dict[str, Any]) -> str:
    result = await s.call_tool(tool, arguments)
    assert result.is_error
    [content] = result.content
    assert content.type == "text"
    return content.text


@slow
def test_tools_have_input_schemas(site: Path) -> None:
    async def scenario(s: ClientSession) -> None:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert set(tools) == TOOLS
        for tool in tools.values():
            schema = tool.input_schema
            Draft202012Validator.check_schema(schema)
            assert schema["type"] == "object" and schema["additionalProperties"] is False
            assert tool.description and tool.annotations and tool.annotations.read_only_hint
        props = {name: t.input_schema["properties"] for name, t in tools.items()}
        assert set(props["adr_context"]) == {
            "id",
            "domain",
            "iteration",
            "intent",
            "unit",
            "cursor",
        }
        assert props["adr_context"]["intent"]["enum"] == list(INTENTS)
        assert set(props["adr_find"]) == {"paths", "components", "topic", "status", "cursor"}
        assert props["adr_find"]["status"]["items"]["enum"] == [*STATUSES, "all"]
        assert set(props["adr_check"]) == {"fail_on", "allow_stale"}
        assert tools["adr_graph"].input_schema["required"] == ["id"]
        assert "12000 code points" in tools["adr_context"].description

    serve(scenario, cwd=site)


@slow
def test_every_tool_answers_what_the_cli_prints(site: Path) -> None:
    calls: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
        ("adr_context", {}, ("context",)),
        ("adr_context", {"id": "ADR-0003"}, ("context", "ADR-0003")),
        ("adr_context", {"id": "8", "intent": "history"}, ("context", "8", "--intent", "history")),
        (
            "adr_context",
            {"id": "docs/adr/0002-store-shipments-in-postgresql.md", "intent": "rationale"},
            ("context", "docs/adr/0002-store-shipments-in-postgresql.md", "--intent", "rationale"),
        ),
        ("adr_find", {"paths": ["services/tracking/"]}, ("find", "--path", "services/tracking/")),
        (
            "adr_find",
            {"topic": "render labels on lambda", "status": ["accepted", "rejected"]},
            (
                "find",
                "--topic",
                "render labels on lambda",
                "--status",
                "accepted",
                "--status",
                "rejected",
            ),
        ),
        ("adr_find", {"components": ["gateway"]}, ("find", "--component", "gateway")),
        ("adr_check", {}, ("check",)),
        (
            "adr_check",
            {"fail_on": "info", "allow_stale": True},
            ("check", "--fail-on", "info", "--allow-stale"),
        ),
        ("adr_graph", {"id": "ADR-0002"}, ("graph", "ADR-0002", "--format", "json")),
        (
            "adr_graph",
            {"id": "INF-1", "hops": 0},
            ("graph", "INF-1", "--hops", "0", "--format", "json"),
        ),
    ]
    got: list[Any] = []

    async def scenario(s: ClientSession) -> None:
        for tool, arguments, _args in calls:
            got.append(await answer(s, tool, arguments))

    serve(scenario, cwd=site)
    for (tool, _arguments, args), data in zip(calls, got, strict=True):
        json_args = args if tool == "adr_graph" else (*args, "--json")
        assert data == cli(site, *json_args), (tool, args)
    # the answers are the right ones, not only the same ones
    overview, superseded, history, rationale, tracking, lambda_, gateway = got[:7]
    assert overview["schema"] == "mkdocs-adr/context"
    assert tracking["units"][0]["id"] == "ADR-0006"
    assert "ADR-0004" in [u["id"] for u in lambda_["units"]]
    assert {u["id"] for u in gateway["units"]} >= {"ADR-0005", "ADR-0009"}
    assert superseded["units"][0]["id"] == "ADR-0006"  # the successor answers for it
    for data in got[:7]:
        assert data["budget"]["codepoints"] <= data["budget"]["codepoints_max"] == 12000
    check, check_info, around, alone = got[7:]
    assert check["schema"] == "mkdocs-adr/check" and check["ok"] is True
    assert [v["current"]["state"] for v in check["views"]["roots"]] == ["fresh", "fresh"]
    assert check_info["fail_on"] == "info" and check_info["allow_stale"] is True
    assert {n["id"] for n in around["nodes"]} == {"ADR-0002", "ADR-0005", "ADR-0008"}
    assert {(e["source"], e["kind"], e["target"]) for e in around["edges"]} == {
        ("ADR-0005", "depends-on", "ADR-0002"),
        ("ADR-0008", "amends", "ADR-0002"),
    }
    assert [n["id"] for n in alone["nodes"]] == ["INF-0001"] and alone["edges"] == []
    assert history["units"] and rationale["units"]


@slow
def test_cursors_continue_across_server_and_cli(site: Path) -> None:
    pages: list[Any] = []

    async def scenario(s: ClientSession) -> None:
        first = await answer(s, "adr_find", {"paths": ["services/"], "status": ["all"]})
        pages.append(first)
        assert first["next_cursor"]
        arguments = {"paths": ["services/"], "status": ["all"], "cursor": first["next_cursor"]}
        pages.append(await answer(s, "adr_find", arguments))

    serve(scenario, cwd=site)
    first, second = pages
    base = ("find", "--path", "services/", "--status", "all", "--json")
    assert first == cli(site, *base)
    assert second == cli(site, *base, "--cursor", first["next_cursor"])
    assert len(first["units"]) == 8 and first["omitted"] == 1
    assert first["navigation"]["next"] == (
        f"mkdocs-adr find --path services/ --status all --cursor {first['next_cursor']} --json"
    )
    assert len(second["units"]) == 1 and second["next_cursor"] is None
    shown = {u["id"] for u in first["units"] + second["units"]}
    assert shown == {f"ADR-{n:04d}" for n in range(2, 11)}


@slow
def test_errors_are_tool_errors_and_the_server_keeps_answering(site: Path) -> None:
    messages: list[str] = []
    after: list[Any] = []

    async def scenario(s: ClientSession) -> None:
        messages.append(await error(s, "adr_context", {"id": "ADR-0042"}))
        messages.append(await error(s, "adr_graph", {"id": "ADR-0042"}))
        messages.append(await error(s, "adr_graph", {"id": "2"}))
        messages.append(await error(s, "adr_find", {"paths": ["services/"], "cursor": "c1.bogus"}))
        messages.append(await error(s, "adr_context", {"intent": "why"}))
        messages.append(await error(s, "adr_graph", {"id": "ADR-0002", "hops": -1}))
        messages.append(await error(s, "adr_find", {"path": "services/"}))
        messages.append(await error(s, "adr_delete", {}))
        messages.append(await error(s, "adr_context", {"id": HOSTILE}))
        with pytest.raises(MCPError, match="no resource"):
            await s.read_resource("mkdocs-adr://current/docs/nowhere")
        after.append(await answer(s, "adr_context", {"id": "ADR-0006"}))

    serve(scenario, cwd=site)
    unknown, graph_unknown, ambiguous, bad_cursor, intent, hops, typo, tool, hostile = messages
    # the very line the CLI prints, nearest ids included
    assert unknown == cli_error(site, "context", "ADR-0042", "--json")
    assert "nearest ids: " in unknown
    assert graph_unknown == cli_error(site, "graph", "ADR-0042", "--format", "json")
    assert "nearest ids: " in graph_unknown
    assert ambiguous == cli_error(site, "graph", "2", "--format", "json")
    assert "ADR-0002" in ambiguous and "INF-0002" in ambiguous
    assert bad_cursor == cli_error(
        site, "find", "--path", "services/", "--cursor", "c1.bogus", "--json"
    )
    assert intent.startswith("mkdocs-adr: invalid adr_context input: intent: 'why' is not one of")
    assert hops.startswith("mkdocs-adr: invalid adr_graph input: hops: -1 is less than")
    assert "'path' was unexpected" in typo
    assert tool.startswith("mkdocs-adr: no tool named adr_delete") and "adr_find" in tool
    assert hostile == cli_error(site, "context", HOSTILE, "--json")
    assert "\x1b" not in hostile and "\u202e" not in hostile and "\\x1b[2J" in hostile
    assert [m.count("\n") for m in messages] == [0] * len(messages)
    assert after[0] == cli(site, "context", "ADR-0006", "--json")


@slow
def test_current_resources_carry_their_freshness(site: Path) -> None:
    seen: dict[str, Any] = {}

    async def read(s: ClientSession, uri: str) -> Any:
        result = await s.read_resource(uri)
        [content] = result.contents
        assert content.mime_type == "application/json" and content.uri == uri
        return json.loads(content.text)  # type: ignore[union-attr]

    async def scenario(s: ClientSession) -> None:
        listed = (await s.list_resources()).resources
        seen["uris"] = [str(r.uri) for r in listed]
        seen["titles"] = [r.title for r in listed]
        seen["fresh"] = await read(s, "mkdocs-adr://current/docs/adr")
        # an edit between two calls is seen by the next one
        record = site / "docs/adr/0007-cache-rate-quotes-in-redis.md"
        record.write_text(record.read_text().replace("\nProposed\n", "\nAccepted\n"))
        seen["stale"] = await read(s, "mkdocs-adr://current/docs/adr")
        seen["find"] = await answer(s, "adr_find", {"paths": ["services/rates/"]})
        seen["infra"] = await read(s, "mkdocs-adr://current/docs/infra")
        seen["titles_after"] = [r.title for r in (await s.list_resources()).resources]

    serve(scenario, cwd=site)
    assert seen["uris"] == ["mkdocs-adr://current/docs/adr", "mkdocs-adr://current/docs/infra"]
    assert seen["titles"] == [
        "Decisions (adr): CURRENT (fresh)",
        "Decisions (infra): CURRENT (fresh)",
    ]
    fresh = seen["fresh"]
    assert fresh["schema"] == "mkdocs-adr/current" and fresh["root"] == "docs/adr"
    assert fresh["text"] == (site / "docs/adr/CURRENT.md").read_text(encoding="utf-8")
    assert fresh["freshness"]["state"] == "fresh" and fresh["freshness"]["reasons"] == []
    stale = seen["stale"]
    assert stale["text"] == fresh["text"]
    check = cli(site, "check", "--json")
    assert stale["freshness"] == check["views"]["roots"][0]["current"]
    assert stale["freshness"]["state"] == "stale"
    assert {i for r in stale["freshness"]["reasons"] for i in r["ids"]} == {"ADR-0007"}
    assert [u["id"] for u in seen["find"]["units"]] == ["ADR-0007"]  # now accepted, in effect
    assert seen["find"] == cli(site, "find", "--path", "services/rates/", "--json")
    assert seen["infra"]["freshness"]["state"] == "fresh"
    assert seen["titles_after"][0] == "Decisions (adr): CURRENT (stale)"


@slow
def test_an_absent_current_and_a_broken_config_mid_session(site: Path) -> None:
    for name in ("CURRENT.md", "CURRENT.sources.json"):
        (site / "docs/infra" / name).unlink()
    config = site / "mkdocs.yml"
    good = config.read_text()
    seen: dict[str, Any] = {}

    async def scenario(s: ClientSession) -> None:
        result = await s.read_resource("mkdocs-adr://current/docs/infra")
        seen["absent"] = json.loads(result.contents[0].text)  # type: ignore[union-attr]
        config.write_text(good.replace("roots: [adr,", "roots: [adr"))  # a YAML error
        seen["broken"] = await error(s, "adr_check", {})
        config.write_text(good.replace(", {path: infra, prefix: INF}", ""))
        seen["one_root"] = await answer(s, "adr_check", {})

    serve(scenario, cwd=site, args=("-f", str(config)))
    absent = seen["absent"]
    assert absent["text"] is None and absent["freshness"]["state"] == "absent"
    config.write_text(good.replace("roots: [adr,", "roots: [adr"))
    assert seen["broken"] == cli_error(site, "-f", str(config), "check", "--json")
    assert "mkdocs.yml" in seen["broken"]
    config.write_text(good.replace(", {path: infra, prefix: INF}", ""))
    one_root = seen["one_root"]
    assert one_root == cli(site, "-f", str(config), "check", "--json")
    assert [r["path"] for r in one_root["corpus"]["roots"]] == ["docs/adr"]


@slow
def test_root_option_and_prefix_in_navigation(site: Path) -> None:
    got: list[Any] = []

    async def scenario(s: ClientSession) -> None:
        got.append(await answer(s, "adr_find", {"paths": ["services/"], "status": ["all"]}))

    serve(scenario, cwd=site, args=("--root", "docs/infra"))
    [data] = got
    assert data == cli(
        site, "--root", "docs/infra", "find", "--path", "services/", "--status", "all", "--json"
    )
    assert data["total"] == 0


def test_without_the_sdk_the_command_says_what_to_install(site: Path) -> None:
    code = (
        "import sys; sys.modules['mcp'] = None\n"  # what `import mcp` does when it is absent
        "from mkdocs_adr.cli import main\n"
        "raise SystemExit(main(['mcp']))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=site,
        env=checkout_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("mkdocs-adr: the MCP server needs the Model Context Protocol SDK")
    assert proc.stderr.rstrip().endswith("Fix: pip install 'mkdocs-adr[mcp]'")


def test_a_missing_project_stops_before_serving(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", "mcp"],
        cwd=tmp_path,
        env=checkout_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        "mkdocs-adr: no mkdocs.yml in the current folder Fix: run inside a site, "
        "pass -f path/to/mkdocs.yml, or --root path/to/adr\n"
    )


def test_the_log_is_reused_until_a_record_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = shutil.copytree(LOGS / "mcp", tmp_path / "parcelway")
    record = site / "docs/adr/0007-cache-rate-quotes-in-redis.md"
    project = mcp_server.Project(site / "mkdocs.yml", None)
    monkeypatch.setattr(mcp_server, "RACY_NS", 0)  # the copies are seconds old at most
    first = project.log()
    assert project.log() is first and len(first.records) == 12
    record.write_text(record.read_text().replace("ten minutes", "five minutes, then stale"))
    second = project.log()
    assert second is not first
    assert (
        "five minutes" in second.by_path["docs/adr/0007-cache-rate-quotes-in-redis.md"].parsed.text
    )
    assert project.log() is second
    (site / "docs/adr/0011-drop-the-nightly-export.md").write_text(
        "# 11. Drop the nightly export\n\nDate: 2026-03-02\n\n## Status\n\nAccepted\n"
    )
    assert len(project.log().records) == 13


def test_a_rewrite_keeping_size_and_modification_time_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `cp -p` or `touch -r` leave it: same size, same mtime; the change time differs."""
    site = shutil.copytree(LOGS / "mcp", tmp_path / "parcelway")
    record = site / "docs/adr/0007-cache-rate-quotes-in-redis.md"
    project = mcp_server.Project(site / "mkdocs.yml", None)
    monkeypatch.setattr(mcp_server, "RACY_NS", 0)
    before = project.log()
    assert project.log() is before
    old = record.stat()
    record.write_text(record.read_text().replace("\nProposed\n", "\nRejected\n"))
    os.utime(record, ns=(old.st_atime_ns, old.st_mtime_ns))
    assert (record.stat().st_size, record.stat().st_mtime_ns) == (old.st_size, old.st_mtime_ns)
    after = project.log()
    rid = "docs/adr/0007-cache-rate-quotes-in-redis.md"
    assert (before.by_path[rid].status, after.by_path[rid].status) == ("proposed", "rejected")


def test_a_record_changed_seconds_ago_is_never_trusted_to_its_times(tmp_path: Path) -> None:
    site = shutil.copytree(LOGS / "mcp", tmp_path / "parcelway")
    config = mcp_server.Project(site / "mkdocs.yml", None).config()
    assert mcp_server._stamp(config) is None  # just copied: its times are seconds old
    for path in (site / "docs").rglob("*.md"):
        os.utime(path, ns=(0, 0))  # an old mtime, but the change time is now
    assert mcp_server._stamp(config) is None


@slow
def test_the_server_ends_cleanly_when_its_input_closes(site: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", "mcp"],
        cwd=site,
        env=checkout_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
