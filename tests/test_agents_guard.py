"""``mkdocs-adr guard``: the read guard as a Claude Code ``PreToolUse`` hook (issue 12 item 3).

A table of tool calls, each run in the three modes through click's runner, with the
exact hook JSON checked; a few through the real console script with JSON on stdin;
the guard's own failures (bad JSON, a broken config) never block the call.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_adr.cli import cli
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.guard import Decision, Project, ToolCall, _glob_match, decide, topic_words
from mkdocs_adr.paths import real, typed

# As in test_robust_fuzz: Hypothesis imports libcst on a failure; its DeprecationWarning
# would replace the failure report under warnings-as-errors.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    with contextlib.suppress(ImportError):
        import hypothesis.extra._patching  # noqa: F401

ARCHIVED = "docs/adr/archive/0002-use-mysql.md"
CTX = "mkdocs-adr context ADR-0002 --json"
CTX5 = "mkdocs-adr context ADR-0005 --json"
FIND_CACHE = "mkdocs-adr find --topic cache --json"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def nygard(number: int, title: str, status: str, body: str) -> str:
    return (
        f"# {number}. {title}\n\nDate: 2026-0{number}-01\n\n## Status\n\n{status}\n\n"
        f"## Context\n\n{body}\n\n## Decision\n\n{body}\n\n## Consequences\n\nNone.\n"
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site with one root (docs/adr), an archived record, a folder named archive
    outside the root, and symlinks into the archive (a file and a folder)."""
    base = tmp_path_factory.mktemp("guarded")
    write(base / "mkdocs.yml", "site_name: Shop\nplugins:\n  - adr\n")
    write(
        base / "docs/adr/0001-use-postgres.md",
        nygard(1, "Use Postgres", "Accepted", "Orders need a cache in front of Postgres."),
    )
    write(
        base / "docs/adr/0003-cache-policy.md",
        nygard(3, "Cache policy", "Accepted", "Cache entries expire after five minutes."),
    )
    write(
        base / ARCHIVED,
        nygard(
            2,
            "Use MySQL",
            "Superseded by [ADR-0001](../0001-use-postgres.md)",
            "We cache query results in MySQL's query cache.",
        ),
    )
    write(
        base / "docs/adr/payments/0004-refund-rounding.md",
        nygard(4, "Refund rounding", "Accepted", "Refunds round half to even; no cache."),
    )
    write(
        base / "docs/adr/archive/0005-use rabbitmq.md",
        nygard(5, "Use RabbitMQ", "Deprecated", "Queues carry cache invalidations."),
    )
    write(base / "docs/adr/archive/README.md", "Records that no longer bind.\n")
    write(base / "docs/guide/intro.md", "# Intro\n\nThe cache is described in ADR-0003.\n")
    write(base / "docs/guide/setup.md", "# Setup\n\nClear the cache after an upgrade.\n")
    write(base / "src/app.py", "CACHE_SECONDS = 300\n")
    write(base / "src/archive/old.md", "# Old notes\n\nA cache we tried once.\n")
    (base / "notes").mkdir()
    os.symlink(base / ARCHIVED, base / "notes/old-db.md")
    os.symlink(base / "docs/adr/archive", base / "shortcut")
    return base


# (tool, input, better call: None when the call passes). Paths are relative to the
# project unless they start with "/" (then the project folder is put in front).
CASES: list[tuple[str, dict[str, Any], str | None]] = [
    # -- Read
    ("Read", {"file_path": f"/{ARCHIVED}"}, CTX),
    ("Read", {"file_path": ARCHIVED}, CTX),
    ("Read", {"file_path": "docs/adr/../adr/archive/0002-use-mysql.md"}, CTX),
    ("Read", {"file_path": "docs/./adr//archive/0002-use-mysql.md"}, CTX),
    ("Read", {"file_path": "notes/old-db.md"}, CTX),
    ("Read", {"file_path": "/shortcut/0002-use-mysql.md"}, CTX),
    ("Read", {"file_path": "/docs/adr/0001-use-postgres.md", "limit": 40}, None),
    ("Read", {"file_path": "docs/adr/archive/README.md"}, None),
    ("Read", {"file_path": "/src/archive/old.md"}, None),
    ("Read", {"file_path": "src/app.py"}, None),
    ("Read", {"file_path": "docs/adr/payments/0004-refund-rounding.md"}, None),
    # -- Grep
    ("Grep", {"pattern": "cache"}, FIND_CACHE),
    ("Grep", {"pattern": r"\bcache\b", "path": "/", "output_mode": "content"}, FIND_CACHE),
    ("Grep", {"pattern": "cache", "path": "docs"}, FIND_CACHE),
    ("Grep", {"pattern": "cache", "path": "/docs/adr"}, FIND_CACHE),
    (
        "Grep",
        {"pattern": "cache|ttl", "path": "docs/adr/archive"},
        "mkdocs-adr find --topic 'cache ttl' --status all --json",
    ),
    ("Grep", {"pattern": "cache", "glob": "**/*.md"}, FIND_CACHE),
    ("Grep", {"pattern": "cache", "glob": "*.py"}, None),
    ("Grep", {"pattern": "cache", "type": "py"}, None),
    ("Grep", {"pattern": "cache", "path": "/src"}, None),
    ("Grep", {"pattern": "cache", "path": "docs/adr/0003-cache-policy.md"}, None),
    ("Grep", {"pattern": "cache", "path": ARCHIVED}, CTX),
    ("Grep", {"pattern": "refund", "path": "/docs/adr/payments"}, None),
    # -- Glob: file-name discovery
    ("Glob", {"pattern": "docs/adr/**/*.md"}, None),
    ("Glob", {"pattern": "**/archive/*.md", "path": "/docs/adr"}, None),
    # -- Bash: reads
    ("Bash", {"command": f"cat {ARCHIVED}"}, CTX),
    ("Bash", {"command": f"cat '{ARCHIVED}' | head -5"}, CTX),
    ("Bash", {"command": f'less "$PWD/{ARCHIVED}"'}, CTX),
    ("Bash", {"command": f"sed -n '1,40p' {ARCHIVED}"}, CTX),
    ("Bash", {"command": "cd docs/adr/archive && tail -n 20 0002-use-mysql.md"}, CTX),
    ("Bash", {"command": 'for f in docs/adr/archive/*.md; do\n  cat "$f"\ndone'}, CTX),
    ("Bash", {"command": f'bash -c "cat {ARCHIVED}"'}, CTX),
    ("Bash", {"command": "wc -l $(ls docs/adr/*.md) && cat $(ls docs/adr/archive/0*.md)"}, CTX),
    ("Bash", {"command": f"grep -c cache {ARCHIVED}"}, CTX),
    ("Bash", {"command": f"tr a-z A-Z < {ARCHIVED}"}, CTX),
    ("Bash", {"command": f"head -50 {ARCHIVED} 2>/dev/null"}, CTX),
    ("Bash", {"command": 'cat "docs/adr/archive/0005-use rabbitmq.md"'}, CTX5),
    ("Bash", {"command": "nl docs/adr/archive/0005-use\\ rabbitmq.md"}, CTX5),
    ("Bash", {"command": f"sudo -u www-data timeout -s KILL 5 cat {ARCHIVED}"}, CTX),
    ("Bash", {"command": f"ls docs/adr # then: cat {ARCHIVED}"}, None),
    ("Bash", {"command": "head -n 20 docs/adr/0001-use-postgres.md"}, None),
    ("Bash", {"command": "cat src/archive/old.md src/app.py"}, None),
    ("Bash", {"command": "cat /*/*/*/*/*.md | head"}, None),
    ("Bash", {"command": "cat <<EOF > notes.txt\ngrep -r cache .\nEOF"}, None),
    # -- Bash: searches
    ("Bash", {"command": "cd docs && grep -r cache ."}, FIND_CACHE),
    ("Bash", {"command": "grep -rn 'cache' docs/"}, FIND_CACHE),
    ("Bash", {"command": "rg -i cache"}, FIND_CACHE),
    ("Bash", {"command": "rg -l cache | head"}, FIND_CACHE),
    ("Bash", {"command": "git grep -n cache"}, FIND_CACHE),
    ("Bash", {"command": "find . -name '*.md' | xargs grep -l cache"}, FIND_CACHE),
    ("Bash", {"command": "git ls-files docs/adr | xargs grep -n cache"}, FIND_CACHE),
    ("Bash", {"command": "git ls-files src | xargs grep -n cache"}, None),
    (
        "Bash",
        {"command": "find docs/adr -name '*.md' -exec cat {} +"},
        "mkdocs-adr context --json",
    ),
    ("Bash", {"command": "grep -l cache docs/adr/*.md"}, FIND_CACHE),
    ("Bash", {"command": "grep -c cache $(ls docs/adr/*.md)"}, FIND_CACHE),
    ("Bash", {"command": "fd -e md . docs/adr -x cat"}, "mkdocs-adr context --json"),
    ("Bash", {"command": "fd -e py . src -x grep -n cache"}, None),
    ("Bash", {"command": "git grep -n cache HEAD~3"}, None),
    ("Bash", {"command": "(cd docs/adr/payments)&&grep -r cache ."}, FIND_CACHE),
    ("Bash", {"command": "(cd src && grep -rn cache .) && echo ok"}, None),
    ("Bash", {"command": "grep -rn cache src/"}, None),
    ("Bash", {"command": "grep -n cache docs/guide/*.md"}, None),
    ("Bash", {"command": "grep -rn refund docs/adr/payments"}, None),
    ("Bash", {"command": "grep -r --exclude-dir=adr cache ."}, None),
    ("Bash", {"command": "grep -r --include='*.py' cache ."}, None),
    ("Bash", {"command": "rg -g '!docs/adr/**' cache"}, None),
    ("Bash", {"command": "rg --type py cache"}, None),
    ("Bash", {"command": "git grep cache -- ':!docs/adr'"}, None),
    ("Bash", {"command": "ps aux | grep python"}, None),
    # -- Bash: file-name discovery and the rest
    ("Bash", {"command": "ls -la docs/adr/archive"}, None),
    ("Bash", {"command": "find docs/adr -name '*.md' -newer mkdocs.yml"}, None),
    ("Bash", {"command": "rg --files docs/adr"}, None),
    ("Bash", {"command": "git log --oneline -- docs/adr && echo done"}, None),
]


def _input(data: dict[str, Any], base: Path) -> dict[str, Any]:
    out = dict(data)
    for key in ("file_path", "path"):
        value = out.get(key)
        if isinstance(value, str) and value.startswith("/"):
            out[key] = str(base) + value.rstrip("/") if value != "/" else str(base)
    return out


def hook_json(tool: str, tool_input: dict[str, Any], cwd: Path) -> str:
    return json.dumps(
        {
            "session_id": "4e1c0b8a-test",
            "transcript_path": str(cwd / "transcript.jsonl"),
            "cwd": str(cwd),
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
        }
    )


def run_guard(stdin: str | bytes, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["guard", *args], input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def check_answer(out: str, mode: str, better: str | None) -> None:
    """The exact hook protocol: nothing for a call that passes or for off; deny with
    the better call for guard; additionalContext with it for warn."""
    if mode == "off" or better is None:
        assert out == ""
        return
    answer = json.loads(out)
    assert list(answer) == ["hookSpecificOutput"]
    spec = answer["hookSpecificOutput"]
    if mode == "guard":
        assert set(spec) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
        assert spec["hookEventName"] == "PreToolUse"
        assert spec["permissionDecision"] == "deny"
        reason = spec["permissionDecisionReason"]
    else:
        assert set(spec) == {"hookEventName", "additionalContext"}
        assert spec["hookEventName"] == "PreToolUse"
        reason = spec["additionalContext"]
        assert reason.endswith("(allowed: the read guard is in warn mode)")
    assert reason.startswith("mkdocs-adr read guard: ")
    assert f"ask instead: {better}" in reason


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 30
    assert {tool for tool, _, _ in CASES} == {"Read", "Grep", "Glob", "Bash"}
    passing = sum(1 for *_, better in CASES if better is None)
    assert 15 <= passing <= len(CASES) - 15


@pytest.mark.parametrize("mode", ["off", "warn", "guard"])
@pytest.mark.parametrize(("tool", "tool_input", "better"), CASES, ids=range(len(CASES)))
def test_tool_call(
    project: Path, mode: str, tool: str, tool_input: dict[str, Any], better: str | None
) -> None:
    stdin = hook_json(tool, _input(tool_input, project), project)
    code, out, err = run_guard(stdin, "--mode", mode)
    assert code == 0, err
    check_answer(out, mode, better)
    assert err == ""


def test_archived_search_asks_for_history(project: Path) -> None:
    stdin = hook_json("Grep", {"pattern": "cache|ttl", "path": "docs/adr/archive"}, project)
    code, out, _ = run_guard(stdin, "--mode", "guard")
    assert code == 0
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason == (
        "mkdocs-adr read guard: this searches the archived ADR bodies in docs/adr/archive; "
        "ask instead: mkdocs-adr find --topic 'cache ttl' --status all --json. To search "
        "code only, give the search a folder outside the ADR roots or exclude them "
        "(rg -g '!docs/adr/**', grep --exclude-dir=adr)."
    )


def test_the_deny_reason_in_full(project: Path) -> None:
    stdin = hook_json("Read", {"file_path": str(project / ARCHIVED)}, project)
    _code, out, _ = run_guard(stdin, "--mode", "guard")
    assert json.loads(out) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": (
                "mkdocs-adr read guard: docs/adr/archive/0002-use-mysql.md is an archived "
                "ADR body; ask instead: mkdocs-adr context ADR-0002 --json"
            ),
        }
    }


def test_a_subfolder_cwd_names_the_config(project: Path) -> None:
    stdin = hook_json("Bash", {"command": "grep -r cache .."}, project / "src")
    _code, out, _ = run_guard(stdin, "--mode", "guard")
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "ask instead: mkdocs-adr -f ../mkdocs.yml find --topic cache --json" in reason


def test_the_mode_comes_from_read_guard(tmp_path: Path) -> None:
    write(tmp_path / "mkdocs.yml", "site_name: S\nplugins:\n  - adr:\n      read_guard: warn\n")
    write(tmp_path / "docs/adr/archive/0004-x.md", nygard(4, "X", "Deprecated", "Old."))
    stdin = hook_json("Read", {"file_path": "docs/adr/archive/0004-x.md"}, tmp_path)
    _code, out, _ = run_guard(stdin)
    spec = json.loads(out)["hookSpecificOutput"]
    assert "mkdocs-adr context ADR-0004 --json" in spec["additionalContext"]
    _code, out, _ = run_guard(stdin, "--mode", "guard")
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"
    # the default, off: nothing
    write(tmp_path / "mkdocs.yml", "site_name: S\nplugins:\n  - adr\n")
    assert run_guard(stdin) == (0, "", "")


def test_dash_f_from_another_folder(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    stdin = hook_json("Read", {"file_path": str(project / ARCHIVED)}, tmp_path)
    code, out, err = run_guard(stdin, "-f", str(project / "mkdocs.yml"), "--mode", "guard")
    assert code == 0, err
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    config = str(project / "mkdocs.yml")
    assert reason.endswith(f"ask instead: mkdocs-adr -f {config} context ADR-0002 --json")


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("", "stdin is empty; expected the JSON of one PreToolUse hook call"),
        ("{not json", "stdin is not JSON (line 1, column 2: Expecting property name"),
        ("[1, 2]", "expected a JSON object with tool_name and tool_input"),
        (b'{"tool_name": "Read", "cwd": "\xff"}', "stdin is not UTF-8 (byte 30)"),
        ('{"tool_input": {}}', "the JSON object has no tool_name string"),
        ('{"tool_name": "Read", "tool_input": "x"}', "tool_input of Read is not a JSON object"),
    ],
)
def test_bad_input_allows_with_a_message(stdin: str | bytes, message: str) -> None:
    code, out, err = run_guard(stdin, "--mode", "guard")
    assert code == 0
    assert err.startswith(f"mkdocs-adr guard: {message}")
    assert err.rstrip().endswith("; the tool call was allowed")
    # the user sees it; no permissionDecision: the call runs
    assert json.loads(out) == {"systemMessage": err.rstrip()}


def test_a_broken_config_allows_with_a_message(tmp_path: Path) -> None:
    write(tmp_path / "mkdocs.yml", "site_name: [unclosed\n")
    stdin = hook_json("Read", {"file_path": "docs/adr/archive/0001-x.md"}, tmp_path)
    code, out, err = run_guard(stdin, "--mode", "guard")
    assert code == 0
    assert "cannot read the project's config" in err and "mkdocs.yml" in err
    assert json.loads(out)["systemMessage"].endswith("the tool call was allowed")


def test_no_config_and_other_events_pass_silently(tmp_path: Path) -> None:
    stdin = hook_json("Read", {"file_path": "x.md"}, tmp_path)
    code, out, err = run_guard(stdin, "--mode", "guard")
    assert (code, out) == (0, "")
    assert "no mkdocs.yml in" in err and "nothing to guard" in err
    other = json.dumps({"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {}})
    code, out, err = run_guard(other, "--mode", "guard")
    assert (code, out) == (0, "")
    assert "is not PreToolUse" in err


def test_an_unparseable_command_passes_with_a_note(project: Path) -> None:
    stdin = hook_json("Bash", {"command": f"cat '{ARCHIVED}"}, project)
    code, out, err = run_guard(stdin, "--mode", "guard")
    assert (code, out) == (0, "")
    assert err.startswith("mkdocs-adr guard: cannot read the shell command (")
    assert "let it pass" in err


# --------------------------------------------------------------------- the pure function


def test_decide_is_a_pure_answer(project: Path) -> None:
    config = load_from_mkdocs_yml(project / "mkdocs.yml")
    proj = Project.of(config)
    call = ToolCall("Bash", {"command": "rg cache && cat docs/adr/archive/*.md"}, project)
    got = decide(call, proj, "guard")
    assert got.action == "deny"
    assert [(f.kind, f.path, f.instead) for f in got.findings] == [
        ("unscoped-search", "docs/adr", FIND_CACHE),
        ("archived-read", ARCHIVED, CTX),
        ("archived-read", "docs/adr/archive/0005-use rabbitmq.md", CTX5),
    ]
    assert decide(call, proj, "warn").action == "warn"
    assert decide(call, proj, "off") == Decision("allow")
    with pytest.raises(ValueError, match="unknown read_guard mode"):
        decide(call, proj, "strict")


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        ("cache", "cache"),
        (r"\bcache\b|invalidat(e|ion)", "cache invalidat ion"),
        ("(?i)rate[- ]limit", "rate limit"),
        ("retry_policy.*backoff", "retry_policy backoff"),
        (".*", ""),
    ],
)
def test_topic_words(pattern: str, words: str) -> None:
    assert topic_words(pattern) == words


# --------------------------------------------------------------------- the real hook process


def hook_process(stdin: str, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", "guard", *args],
        input=stdin,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("tool", "tool_input", "better"),
    [
        ("Read", {"file_path": "/shortcut/0002-use-mysql.md"}, CTX),
        ("Bash", {"command": "cd docs && grep -r cache ."}, FIND_CACHE),
        ("Bash", {"command": "rg -g '!docs/adr/**' cache"}, None),
        ("Glob", {"pattern": "docs/adr/**/*.md"}, None),
    ],
)
@pytest.mark.parametrize("mode", ["warn", "guard"])
def test_real_hook_process(
    project: Path, mode: str, tool: str, tool_input: dict[str, Any], better: str | None
) -> None:
    proc = hook_process(
        hook_json(tool, _input(tool_input, project), project), project, "--mode", mode
    )
    assert proc.returncode == 0, proc.stderr
    check_answer(proc.stdout.rstrip("\n"), mode, better)
    assert proc.stderr == ""


def test_real_hook_process_bad_json(project: Path) -> None:
    proc = hook_process("tool_name=Read", project)
    assert proc.returncode == 0
    assert proc.stderr.startswith("mkdocs-adr guard: stdin is not JSON (line 1, column 1")
    assert json.loads(proc.stdout)["systemMessage"] == proc.stderr.rstrip()


# --------------------------------------------------------------------- the guide's example


def test_the_guides_snippets_are_what_the_hook_does(project: Path) -> None:
    guide = Path(__file__).resolve().parent.parent / "docs/guide/agents.md"
    section = guide.read_text(encoding="utf-8").split("## Read guard (Claude Code hook)", 1)[1]
    blocks = [b.split("```", 1)[0] for b in section.split("```json\n")[1:]]
    settings, stdin, answer = (json.loads(b) for b in blocks[:3])
    (entry,) = settings["hooks"]["PreToolUse"]
    assert entry["matcher"] == "Read|Grep|Glob|Bash"
    assert entry["hooks"] == [{"type": "command", "command": "mkdocs-adr guard"}]
    stdin["cwd"] = str(project)
    code, out, _ = run_guard(json.dumps(stdin), "--mode", "guard")
    assert code == 0
    assert json.loads(out) == answer


# --------------------------------------------------------------------- properties


@st.composite
def spellings(draw: st.DrawFn, rel: str) -> str:
    """``rel`` written another way: each folder as itself, ``./folder`` or
    ``folder/../folder``, slashes doubled."""
    parts = rel.split("/")
    out = [draw(st.sampled_from([part, f"./{part}", f"{part}/../{part}"])) for part in parts[:-1]]
    text = "/".join([*out, parts[-1]])
    return text.replace("/", "/" * draw(st.integers(1, 2)))


READERS = st.sampled_from(["cat", "head -n 3", "tail -5", "less", "sed -n 1,9p", "nl", "bat"])


@settings(max_examples=60, deadline=None)
@given(
    reader=READERS,
    spelled=spellings(ARCHIVED),
    absolute=st.booleans(),
    quote=st.sampled_from(["", "'", '"']),
)
def test_any_spelling_of_an_archived_body_is_caught(
    project: Path, reader: str, spelled: str, absolute: bool, quote: str
) -> None:
    path = f"{project}/{spelled}" if absolute else spelled
    call = ToolCall("Bash", {"command": f"{reader} {quote}{path}{quote}"}, project)
    got = decide(call, Project.of(load_from_mkdocs_yml(project / "mkdocs.yml")), "guard")
    assert [(f.kind, f.path, f.instead) for f in got.findings] == [("archived-read", ARCHIVED, CTX)]
    read = decide(
        ToolCall("Read", {"file_path": path}, project),
        Project.of(load_from_mkdocs_yml(project / "mkdocs.yml")),
        "guard",
    )
    assert read.action == "deny"


@settings(max_examples=60, deadline=None)
@given(reader=READERS, spelled=spellings("docs/adr/0001-use-postgres.md"), absolute=st.booleans())
def test_any_spelling_of_an_active_record_passes(
    project: Path, reader: str, spelled: str, absolute: bool
) -> None:
    path = f"{project}/{spelled}" if absolute else spelled
    call = ToolCall("Bash", {"command": f"{reader} {path}"}, project)
    got = decide(call, Project.of(load_from_mkdocs_yml(project / "mkdocs.yml")), "guard")
    assert got == Decision("allow")


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("cat grep -r rg $()`'\"\\|&;<>#*~\n{}x/.")), max_size=80)
)
def test_any_command_text_gets_an_answer(project: Path, command: str) -> None:
    call = ToolCall("Bash", {"command": command}, project)
    got = decide(call, Project.of(load_from_mkdocs_yml(project / "mkdocs.yml")), "guard")
    assert got.action in ("allow", "deny")


def test_tool_paths_typed_then_real(tmp_path: Path) -> None:
    assert typed("~/notes.md", tmp_path) == Path.home() / "notes.md"
    assert typed("a/../b.md", tmp_path) == tmp_path / "a/../b.md"
    assert typed("/etc/hosts", tmp_path) == Path("/etc/hosts")
    write(tmp_path / "adr/archive/0001-x.md", "x")
    os.symlink(tmp_path / "adr/archive", tmp_path / "link")
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    assert real(typed("link/0001-x.md", tmp_path)) == (tmp_path / "adr/archive/0001-x.md").resolve()
    assert real(typed("adr/./archive/../archive/0001-x.md", tmp_path)) == real(
        tmp_path / "adr/archive/0001-x.md"
    )
    assert real(tmp_path / "loop/x.md").name == "x.md"  # a loop is not an error


def test_roots_outside_docs_dir_and_their_prefixes(tmp_path: Path) -> None:
    write(
        tmp_path / "mkdocs.yml",
        "site_name: S\nplugins:\n  - adr:\n      read_guard: guard\n      roots:\n"
        "        - ../decisions\n        - {path: payments/adr, prefix: PAY}\n",
    )
    write(tmp_path / "docs/index.md", "# Home\n")
    write(tmp_path / "decisions/archive/0007-old.md", nygard(7, "Old", "Deprecated", "Old."))
    write(tmp_path / "docs/payments/adr/archive/0003-fees.md", nygard(3, "Fees", "Rejected", "x"))
    write(tmp_path / "docs/payments/adr/0004-fees.md", nygard(4, "Fees", "Accepted", "y"))
    cases = {
        "cat decisions/archive/0007-old.md": "mkdocs-adr context ADR-0007 --json",
        "less docs/payments/adr/archive/0003-fees.md": "mkdocs-adr context PAY-0003 --json",
        "grep -rn fees decisions": "mkdocs-adr find --topic fees --json",
        "cd docs && rg fees": "mkdocs-adr find --topic fees --json",
    }
    for command, better in cases.items():
        _code, out, _ = run_guard(hook_json("Bash", {"command": command}, tmp_path))
        check_answer(out, "guard", better)
    for command in ("cat docs/payments/adr/0004-fees.md", "grep -rn fees docs/index.md"):
        assert run_guard(hook_json("Bash", {"command": command}, tmp_path)) == (0, "", "")


def test_hostile_names_leave_as_json_escapes(tmp_path: Path) -> None:
    write(tmp_path / "mkdocs.yml", "site_name: S\nplugins:\n  - adr\n")
    name = "0009-\x1b[31m\x07evil\u202e.md"
    write(tmp_path / "docs/adr/archive" / name, nygard(9, "Evil", "Deprecated", "x"))
    stdin = hook_json("Read", {"file_path": f"docs/adr/archive/{name}"}, tmp_path)
    _code, out, _ = run_guard(stdin, "--mode", "guard")
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    assert f"docs/adr/archive/{name} is an archived ADR body" in reason
    assert reason.endswith("ask instead: mkdocs-adr context ADR-0009 --json")


@pytest.mark.parametrize(
    ("glob", "path", "cross", "hit"),
    [
        ("**/*.md", "docs/adr/0001-x.md", False, True),
        ("*.md", "docs/x.md", False, False),
        ("docs/adr/**", "docs/adr/a/b.md", False, True),
        ("a/**/b", "a/b", False, True),
        ("a/**/b", "a/x/y/b", False, True),
        ("*.{md,markdown}", "x.markdown", False, True),
        ("src/{api,web}/**/*.py", "src/web/a/b.py", False, True),
        ("[0-9]*.md", "0001-x.md", False, True),
        ("[!0-9]*.md", "0001-x.md", False, False),
        ("*adr*", "docs/adr/x", True, True),
        ("*adr*", "docs/adr/x", False, False),
    ],
)
def test_glob_match(glob: str, path: str, cross: bool, hit: bool) -> None:
    assert _glob_match(glob, path, cross=cross) is hit


def test_glob_match_has_no_backtracking_blow_up() -> None:
    started = time.perf_counter()
    assert not _glob_match("*a" * 40 + "b", "a" * 300, cross=True)
    assert time.perf_counter() - started < 5


def test_a_fifo_in_the_archive_is_never_opened(tmp_path: Path) -> None:
    write(tmp_path / "mkdocs.yml", "site_name: S\nplugins:\n  - adr\n")
    (tmp_path / "docs/adr/archive").mkdir(parents=True)
    os.mkfifo(tmp_path / "docs/adr/archive/0006-pipe.md")
    stdin = hook_json("Bash", {"command": "cat docs/adr/archive/0006-pipe.md"}, tmp_path)
    proc = hook_process(stdin, tmp_path, "--mode", "guard")  # times out if it blocks
    assert proc.returncode == 0, proc.stderr
    check_answer(proc.stdout.rstrip("\n"), "guard", "mkdocs-adr context ADR-0006 --json")
