"""Issue 16, bounded YAML and value bounds: frontmatter that once froze or crashed a build.

Each reproduction of the issue runs in a child process under a generous wall-clock
guard (a hang detector, never a speed assertion) and, where it once took gigabytes, an
address-space limit of 1 GiB in the child. The fixture log
``tests/fixtures/hostile/yaml`` holds the records as a team would write them: an alias
bomb in ``tags``, a 5,000-digit integer, ``date: !!timestamp bad``, an id with a
space, a 13,000-character domain.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_adr import identity, manifest
from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS
from mkdocs_adr.parsing import ParseOptions, parse_bytes
from mkdocs_adr.parsing.markdown import load_frontmatter
from mkdocs_adr.retrieval.budget import MAX_CODEPOINTS

from .conftest import FIXTURES, run_cli, run_mkdocs

LOG = FIXTURES / "hostile" / "yaml"
#: Far above what any of these inputs needs now (milliseconds): only a hang trips it.
GUARD_SECONDS = 60
#: The child's address space: the alias bomb once took 2.8 GB.
MEMORY_GUARD = 1 << 30

OPTIONS = ParseOptions(
    aliases=tuple(sorted(DEFAULT_ALIASES.items())),
    status_headings=frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS),
    prefixes=("ADR",),
)

#: The child: a memory guard, then ``body`` with ``data`` (JSON on stdin) in scope.
_CHILD = """\
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
data = json.load(sys.stdin)
{body}
"""


def in_child(body: str, data: Any = None) -> Any:
    """Run ``body`` in a guarded child; what it prints as JSON on its last line."""
    code = _CHILD.format(limit=MEMORY_GUARD, body=textwrap.dedent(body))
    proc = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=GUARD_SECONDS,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


_PARSE = """
from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS
from mkdocs_adr.parsing import ParseOptions, parse_bytes
options = ParseOptions(
    aliases=tuple(sorted(DEFAULT_ALIASES.items())),
    status_headings=frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS),
    prefixes=("ADR",),
)
p = parse_bytes(data["text"].encode(), path=data["path"], options=options)
print(json.dumps({
    "status": p.status, "tags": list(p.tags), "paths": list(p.affected_paths),
    "components": list(p.affected_components),
    "problems": [[x.code, x.line, x.message] for x in p.problems],
    "fixes": [x.fix for x in p.problems],
}))
"""


def parse_in_child(text: str, path: str = "docs/adr/0009-x.md") -> dict[str, Any]:
    result: dict[str, Any] = in_child(_PARSE, {"text": text, "path": path})
    return result


def parse(text: str, name: str = "docs/adr/0009-x.md") -> Any:
    return parse_bytes(text.encode("utf-8"), path=name, options=OPTIONS)


def bomb(key: str) -> str:
    """Nine anchors, each a list of nine aliases of the one before: 9**9 items expanded."""
    lines = ["---", "status: accepted", "l1: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for n, (prev, cur) in enumerate(zip("abcdefgh", "bcdefghi", strict=True), start=2):
        lines.append(f"l{n}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    lines += [f"{key}: *i", "---", "# Tag services", "", "## Status", "", "Accepted", ""]
    return "\n".join(lines)


# ------------------------------------------------------------------ alias expansion


@pytest.mark.parametrize("key", ["tags", "affected-paths", "affected-components"])
def test_an_alias_bomb_in_a_list_field_is_refused_before_it_expands(key: str) -> None:
    text = bomb(key)
    assert len(text) < 500  # the record was 404 bytes
    got = parse_in_child(text)
    # l3 has expanded to 3,007 nodes; the first alias in l4 (file line 6) passes the budget
    assert got["problems"] == [
        ["ADR014", 6, "frontmatter does not parse: aliases expand beyond 10 times the text"]
    ]
    assert got["fixes"] == ["write the values out instead of repeating anchors through aliases"]
    assert got["status"] == "accepted"  # the body's status section still counts
    assert got["tags"] == got["paths"] == got["components"] == []


def test_aliases_within_the_budget_still_expand_and_merge() -> None:
    fm, error = load_frontmatter(
        "shared: &team [payments, billing]\ntags: *team\n"
        "base: &base {domain: payments}\nunit:\n  <<: *base\n  status: accepted\n"
    )
    assert error is None
    assert fm is not None
    assert fm["tags"] == ["payments", "billing"]
    assert fm["unit"] == {"domain": "payments", "status": "accepted"}


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    assert load_frontmatter("tags: &t [a, *t]\n") == (
        None,
        ("alias 't' refers to a collection that contains it", 2),
    )


def test_an_undefined_alias_and_two_documents_are_refused_with_their_line() -> None:
    # the alias costs its own key; the status line beside it still reads (ADR-0075)
    assert load_frontmatter("status: accepted\ntags: *nope\n") == (
        {"status": "accepted"},
        ("found undefined alias 'nope'", 3),
    )
    # a key written twice, once per document, is not read at all
    assert load_frontmatter("status: accepted\n---\nstatus: rejected\n") == (
        None,
        ("expected a single document in the stream", 3),
    )


def test_nesting_past_the_depth_bound_is_refused_not_a_crash_of_libyaml() -> None:
    # 100,000 '[' once overflowed the C stack of libyaml's composer (a segmentation fault)
    text = "---\nstatus: accepted\ntags: " + "[" * 100_000 + "\n---\n# Deep\n"
    got = parse_in_child(text)
    # newer libyaml builds stop at their own nesting limit before our depth bound sees it;
    # either way the value is refused at its line, and nothing crashes; the status line
    # above it is still read (ADR-0075)
    assert [p[:2] for p in got["problems"]] == [["ADR014", 3]]
    assert got["status"] == "accepted"
    assert got["problems"][0][2] in (
        "frontmatter does not parse: collections nested deeper than 64",
        "frontmatter does not parse: exceeded maximum nesting depth",
    )
    shallow, error = load_frontmatter("tags: " + "[" * 10 + "x" + "]" * 10)
    assert error is None and shallow is not None


# ------------------------------------------------------------------ integers and errors


def test_an_integer_of_5000_digits_reads_as_its_text_in_both_paths() -> None:
    digits = "7" * 5000
    fast = parse_in_child(f"---\nstatus: accepted\nretention-days: {digits}\n---\n# A\n")
    assert fast["problems"] == [] and fast["status"] == "accepted"
    # the fast path and PyYAML agree: a list item, a block list, a nested key
    for raw in (
        f"n: {digits}",
        f"n: [{digits}]",
        f"n:\n  - {digits}",
        f"n: {{days: {digits}}}",
    ):
        fm, error = load_frontmatter(raw)
        assert error is None, raw[:20]
        assert fm is not None and digits in json.dumps(fm), raw[:20]
    assert load_frontmatter("n: 12345\nm: [0x1f]") == ({"n": 12345, "m": [31]}, None)


@pytest.mark.parametrize("value", ["055", "-055", "0_55", "007"])
def test_a_zero_led_number_is_decimal_in_both_paths(value: str) -> None:
    # YAML 1.1 would read 055 as octal 45: an ``id: 055`` naming another record
    want = int(value.replace("_", ""))
    fast, _ = load_frontmatter(f"id: {value}")
    slow, _ = load_frontmatter(f"id: {value}\ntags:\n  - a")  # a block list: PyYAML's path
    assert fast is not None and slow is not None
    assert fast["id"] == slow["id"] == want
    p = parse(f"---\nid: {value}\ntags:\n  - x\n---\n# T\n\n## Status\n\nAccepted\n")
    assert p.explicit_id == str(want)


def test_long_hex_and_base_60_integers_stay_text() -> None:
    hexa = "0x" + "f" * 10_000  # int() takes it, str() of the result would not
    sixty = "1" + ":59" * 3_000  # base 60 costs quadratic time
    fm, error = load_frontmatter(f"a: {hexa}\nb: [{sixty}]\n")
    assert error is None
    assert fm == {"a": hexa, "b": [sixty]}


def test_a_bad_timestamp_is_a_problem_at_its_line() -> None:
    p = parse("---\nstatus: accepted\ndate: !!timestamp bad\n---\n# A\n\n## Status\n\nAccepted\n")
    assert [(x.code, x.line, x.message) for x in p.problems] == [
        (
            "ADR014",
            3,
            "frontmatter does not parse: 'date' cannot be read as "
            "tag:yaml.org,2002:timestamp (AttributeError: 'NoneType' object has no attribute "
            "'groupdict')",
        )
    ]
    assert p.status == "accepted" and p.date is None


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            "n: !!float abc",
            "'n' cannot be read as tag:yaml.org,2002:float "
            "(ValueError: could not convert string to float: 'abc')",
        ),
        (
            "d: !!timestamp 2024-13-45",
            "'d' cannot be read as tag:yaml.org,2002:timestamp "
            "(ValueError: month must be in 1..12)",
        ),
        ("n: !!bool maybe", "'n' cannot be read as tag:yaml.org,2002:bool (KeyError: 'maybe')"),
        (
            "n: !!int",
            "'n' cannot be read as tag:yaml.org,2002:int (IndexError: string index out of range)",
        ),
        ("? [a, b]\n: x", "found unhashable key"),
        (
            "x: !!python/object:os.system ls",
            "could not determine a constructor for the tag "
            "'tag:yaml.org,2002:python/object:os.system'",
        ),
    ],
)
def test_every_constructor_error_is_a_reason_never_an_exception(raw: str, message: str) -> None:
    assert load_frontmatter(raw) == (None, (message, 2))


def test_a_tagged_int_that_is_no_int_reads_as_its_text() -> None:
    assert load_frontmatter("n: !!int abc") == ({"n": "abc"}, None)


# ------------------------------------------------------------------ value bounds


def test_long_values_are_cut_at_1000_characters_with_adr023() -> None:
    long = "payments-" * 200
    # (the title in capitals: a lower-case slug as the title gives way to the heading)
    p = parse(
        f"---\ntitle: {long.upper()}\nstatus: accepted\ndomain: {long}\n"
        f"tags: [short, {long}]\niteration: '{long}'\n---\n# T\n"
    )
    assert [(x.code, x.line, x.message) for x in p.problems] == [
        ("ADR023", 2, "field 'title' cut at 1000 characters"),
        ("ADR023", 4, "field 'domain' cut at 1000 characters"),
        ("ADR023", 6, "field 'iteration' cut at 1000 characters"),
        ("ADR023", 5, "field 'tags' cut at 1000 characters"),
    ]
    assert p.title == long.upper()[:1000]
    assert p.domain == long[:1000] and p.iteration == long[:1000]
    assert p.tags == ("short", long[:1000])
    assert p.status == "accepted"


def test_relation_keys_and_dates_are_bounded_too() -> None:
    long = "ADR-0001 " * 300
    p = parse(f"---\nstatus: accepted\nsupersedes: [{long}]\nreview-by: '{long}'\n---\n# T\n")
    assert [(x.code, x.line, x.message) for x in p.problems if x.code == "ADR023"] == [
        ("ADR023", 4, "field 'review-by' cut at 1000 characters"),
        ("ADR023", 3, "field 'supersedes' cut at 1000 characters"),
    ]


def test_a_value_at_the_bound_is_not_cut() -> None:
    p = parse(f"---\nstatus: accepted\ndomain: {'d' * 1000}\n---\n# T\n")
    assert p.problems == () and p.domain == "d" * 1000


# ------------------------------------------------------------------ ids


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("payments decision", "it contains ' ' (an id has no whitespace, '#', '/' or '\\')"),
        ("pay/ments", "it contains '/' (an id has no whitespace, '#', '/' or '\\')"),
        ("x" * 201, "it is 201 characters long (at most 200)"),
        ("ADR-0012", None),
        ("ADR 12", None),  # a prefixed number with a space reads as ADR-0012
        ("payments-decision", None),
    ],
)
def test_explicit_ids_are_ones_the_manifest_schema_takes(text: str, fault: str | None) -> None:
    import jsonschema

    assert identity.explicit_id_fault(text) == fault
    kept = text if identity.parse_id(text) is None else identity.canonical(*identity.parse_id(text))
    takes = jsonschema.Draft202012Validator(manifest.schema()["$defs"]["id"]).is_valid(kept)
    assert takes == (fault is None)


# ------------------------------------------------------------------ the fixture log


def copy(tmp_path: Path) -> Path:
    dest = tmp_path / "log"
    shutil.copytree(LOG, dest)
    return dest


_LOAD = """
from pathlib import Path
from mkdocs_adr.config import load_from_mkdocs_yml
from mkdocs_adr.log import load
log = load(load_from_mkdocs_yml(Path(data["yml"])))
print(json.dumps({
    "records": {r.path.rsplit("/", 1)[-1]: [r.id, r.status, list(r.parsed.tags),
                 len(r.domain or ""), len(r.parsed.iteration or "")] for r in log.records},
    "problems": sorted([p.code, p.path.rsplit("/", 1)[-1], p.line, p.message]
                       for p in log.problems if p.code in ("ADR014", "ADR023")),
}))
"""


def test_the_hostile_log_reads_as_its_authors_meant_in_a_guarded_child(tmp_path: Path) -> None:
    project = copy(tmp_path)
    got = in_child(_LOAD, {"yml": str(project / "mkdocs.yml")})
    assert got["records"] == {
        "0001-store-orders-in-postgres.md": ["ADR-0001", "accepted", ["storage", "orders"], 6, 0],
        "0002-tag-services-by-team.md": ["ADR-0002", "accepted", [], 0, 0],
        "0003-keep-audit-logs-for-seven-years.md": ["ADR-0003", "accepted", [], 0, 1000],
        "0004-review-vendors-yearly.md": ["ADR-0004", "proposed", [], 0, 0],
        "0005-payments-decision.md": ["ADR-0005", "accepted", [], 8, 0],
        "0006-invoice-per-billing-period.md": ["ADR-0006", "accepted", [], 1000, 0],
    }
    assert got["problems"] == [
        [
            "ADR014",
            "0002-tag-services-by-team.md",
            7,
            "frontmatter does not parse: aliases expand beyond 10 times the text",
        ],
        [
            "ADR014",
            "0004-review-vendors-yearly.md",
            2,
            "frontmatter does not parse: 'date' cannot be read as tag:yaml.org,2002:timestamp "
            "(AttributeError: 'NoneType' object has no attribute 'groupdict')",
        ],
        [
            "ADR014",
            "0005-payments-decision.md",
            2,
            "frontmatter does not parse: 'id' 'payments decision' is not an id: it contains "
            "' ' (an id has no whitespace, '#', '/' or '\\'); the record takes the id its "
            "file name gives",
        ],
        [
            "ADR023",
            "0003-keep-audit-logs-for-seven-years.md",
            5,
            "field 'iteration' cut at 1000 characters",
        ],
        [
            "ADR023",
            "0006-invoice-per-billing-period.md",
            4,
            "field 'domain' cut at 1000 characters",
        ],
    ]


def _clean(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert "internal error" not in proc.stderr, proc.stderr[-2000:]


def test_cli_plan_check_context_and_find_on_the_hostile_log(tmp_path: Path) -> None:
    project = copy(tmp_path)
    check = run_cli("check", "--json", cwd=project)
    _clean(check)
    assert check.returncode == 0  # warnings only, and no CURRENT view to verify yet
    codes = sorted({p["code"] for p in json.loads(check.stdout)["problems"]})
    assert {"ADR014", "ADR023"} <= set(codes)

    overview = run_cli("context", "--json", cwd=project)
    _clean(overview)
    assert overview.returncode == 0 and len(overview.stdout.strip()) <= MAX_CODEPOINTS
    assert json.loads(overview.stdout)["warnings"] == [
        "1 domain name(s) longer than 120 characters are counted, not listed",
        "1 iteration name(s) longer than 120 characters are counted, not listed",
    ]
    one = run_cli("context", "ADR-0006", "--json", cwd=project)
    _clean(one)
    assert one.returncode == 0 and len(one.stdout.strip()) <= MAX_CODEPOINTS
    # the domain as read (its first 1,000 characters) is one that can be asked about
    domain = run_cli("context", "--domain", ("billing-" * 125), "--json", cwd=project)
    _clean(domain)
    assert domain.returncode == 0 and len(domain.stdout.strip()) <= MAX_CODEPOINTS
    assert [u["id"] for u in json.loads(domain.stdout)["units"]] == ["ADR-0006"]
    found = run_cli("find", "--topic", "billing period invoice", "--json", cwd=project)
    _clean(found)
    assert found.returncode == 0 and len(found.stdout.strip()) <= MAX_CODEPOINTS

    # publishing: the id with a space is ADR-0005, so the manifest passes its own schema
    plan = run_cli("plan", "--mode", "summary", "--json", cwd=project)
    _clean(plan)
    assert plan.returncode == 0, plan.stdout + plan.stderr
    confirmed = run_cli("plan", "--confirm", json.loads(plan.stdout)["plan_id"], cwd=project)
    _clean(confirmed)
    assert confirmed.returncode == 0, confirmed.stdout + confirmed.stderr
    written = json.loads((project / "docs/adr/CURRENT.sources.json").read_text("utf-8"))
    assert manifest.validate(written) == []
    assert sorted(s["id"] for s in written["sources"]) == [f"ADR-000{n}" for n in range(1, 7)]
    after = run_cli("check", "--json", cwd=project)
    _clean(after)
    assert json.loads(after.stdout)["views"]["current"]["state"] == "fresh"


def test_context_overview_of_many_long_domains_stays_in_budget(tmp_path: Path) -> None:
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - adr\n", encoding="utf-8")
    for n in range(1, 41):
        (adr / f"{n:04d}-decision-{n}.md").write_text(
            f"---\nstatus: accepted\ndate: 2024-01-01\ndomain: d{n}-{'x' * 90}\n"
            f"iteration: {'q' * 500}{n}\n---\n# Decision {n}\n\nText.\n",
            encoding="utf-8",
        )
    proc = run_cli("context", "--json", cwd=tmp_path)
    _clean(proc)
    assert proc.returncode == 0  # was: internal error, response of 19,104 code points
    data = json.loads(proc.stdout)
    assert len(proc.stdout.strip()) <= MAX_CODEPOINTS
    overview = data["overview"]
    assert len(overview["domains"]) == 21 and overview["domains_omitted"] == 19
    assert overview["iterations"] == {} and overview["iterations_omitted"] == 40
    assert data["warnings"] == [
        "40 iteration name(s) longer than 120 characters are counted, not listed"
    ]


# ------------------------------------------------------------------ manifests


def _published(tmp_path: Path) -> Path:
    project = copy(tmp_path)
    plan = run_cli("plan", "--mode", "summary", "--json", cwd=project)
    assert plan.returncode == 0, plan.stderr
    run_cli("plan", "--confirm", json.loads(plan.stdout)["plan_id"], cwd=project, check=True)
    return project


@pytest.mark.parametrize(
    ("shape", "reason"),
    [
        ("nested", "manifest unreadable: not readable: nested too deeply"),
        (
            "version",
            "manifest unreadable: not readable: Exceeds the limit (4300 digits) for integer "
            "string conversion: value has 5000 digits",
        ),
    ],
)
def test_a_hostile_manifest_reads_as_unverifiable_in_check_and_build(
    tmp_path: Path, shape: str, reason: str
) -> None:
    project = _published(tmp_path)
    path = project / "docs/adr/CURRENT.sources.json"
    if shape == "nested":
        path.write_text("[" * 100_000, encoding="utf-8")
    else:
        text = path.read_text(encoding="utf-8")
        assert '"version": 1' in text
        path.write_text(text.replace('"version": 1', '"version": ' + "9" * 5000, 1), "utf-8")
    check = run_cli("check", "--json", cwd=project)
    _clean(check)
    assert check.returncode == 1
    data = json.loads(check.stdout)
    assert [p["message"] for p in data["problems"] if p["code"] == "ADR012"] == [
        f"CURRENT.md cannot be verified: {reason}"
    ]
    assert data["views"]["current"]["state"] == "unverifiable"
    build = run_mkdocs("build", "-q", "-d", str(tmp_path / "site"), cwd=project)
    assert build.returncode == 0, build.stderr[-2000:]
    assert "Traceback" not in build.stderr


def test_manifest_parse_is_total() -> None:
    for data in (
        b"[" * 100_000,
        b"{" * 50_000,
        b'{"schema": ' + b"[" * 5_000 + b"]" * 5_000 + b"}",
        b'{"version": ' + b"1" * 5_000 + b"}",
        b'{"sources": [' + b"1" * 4_400 + b"]}",
    ):
        with pytest.raises(manifest.ManifestError):
            manifest.parse(data, where="docs/adr/CURRENT.sources.json")


# ------------------------------------------------------------------ a real build


def test_mkdocs_build_of_the_hostile_log(tmp_path: Path) -> None:
    project = copy(tmp_path)
    proc = run_mkdocs("build", "-d", str(tmp_path / "site"), cwd=project)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    for line in (
        "docs/adr/0002-tag-services-by-team.md:7: ADR014 frontmatter does not parse: "
        "aliases expand beyond 10 times the text",
        "docs/adr/0006-invoice-per-billing-period.md:4: ADR023 field 'domain' cut at 1000 "
        "characters",
    ):
        assert line in proc.stderr
    page = tmp_path / "site" / "adr" / "0005-payments-decision" / "index.html"
    assert "Take card payments through the gateway" in page.read_text(encoding="utf-8")


# ------------------------------------------------------------------ property


_PIECES = [
    "&a ",
    "*a",
    "&b ",
    "*b",
    "[",
    "]",
    "{",
    "}",
    ", ",
    ": ",
    "\n",
    "- ",
    "  ",
    "? ",
    "<<: ",
    "!!timestamp ",
    "!!int ",
    "!!float ",
    "!!str ",
    "!!binary ",
    "'",
    '"',
    "#",
    "|",
    ">",
    "tags",
    "id",
    "date",
    "2024-13-45",
    "x",
    "\t",
    "7" * 120,
    "0x" + "f" * 300,
    "1:59:59",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=60))
def test_frontmatter_of_hostile_pieces_reads_or_is_refused_within_its_bound(
    pieces: list[str],
) -> None:
    raw = "".join(pieces) + "\n"  # as split_frontmatter gives it: up to the closing line
    data, error = load_frontmatter(raw)
    assert data is not None or error is not None
    if error is not None:
        message, line = error
        assert isinstance(message, str) and message and 1 <= line <= raw.count("\n") + 2
        # beside the reason, only the keys whose own lines parse (docs/adr/0075)
        assert data is None or (isinstance(data, dict) and data)
    # what was built is bounded by the alias budget: never an expansion of the text
    assert len(repr(data)) <= 20 * max(10 * len(raw), 4096)


SET_RECORD = """---
title: Tagged with a set
status: superseded
tags: !!set {zeta, alpha, mid}
superseded_by: !!set {ADR-0009}
---
# Tagged with a set
"""


def test_a_yaml_set_reads_as_its_items_in_order_in_every_process() -> None:
    """``!!set`` loads as a Python set, whose order follows the hash seed: read as its
    items sorted, the same in every process (and never as the set's repr cut at commas)."""
    parsed = parse_bytes(SET_RECORD.encode(), path="0003-set.md", options=OPTIONS)
    assert parsed.tags == ("alpha", "mid", "zeta")
    assert [(r.kind, r.target) for r in parsed.relations] == [("superseded-by", "ADR-0009")]
    code = textwrap.dedent(
        """
        import sys
        from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS
        from mkdocs_adr.parsing import ParseOptions, parse_bytes
        options = ParseOptions(
            aliases=tuple(sorted(DEFAULT_ALIASES.items())),
            status_headings=frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS),
            prefixes=("ADR",),
        )
        p = parse_bytes(sys.stdin.buffer.read(), path="0003-set.md", options=options)
        print(repr((p.tags, [(r.kind, r.target) for r in p.relations])))
        """
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            input=SET_RECORD.encode(),
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            check=True,
        ).stdout
        for seed in range(6)
    }
    assert len(seen) == 1, seen


def test_a_key_glued_to_its_value_names_the_key_and_the_fix() -> None:
    """``tag:Web Client`` (no space after the colon, every record of a real log of 28)
    is one YAML string, not a key: the warning says which key lacks the space, and the
    fix is that space, not quoting."""
    parsed = parse_bytes(
        b"---\ntag:Web Client\n---\n\n# 5. Unit tests\n\n## Status\n\nAccepted\n",
        path="adr/0005-unit-tests.md",
        options=OPTIONS,
    )
    assert parsed.status == "accepted"
    [problem] = [p for p in parsed.problems if p.code == "ADR014"]
    assert problem.line == 2
    assert "'tag' has no space after its colon" in problem.message
    assert problem.fix == "write a space after the colon ('tag: value'), as YAML needs"
    # a URL or words are no glued key
    for raw in ("http://example.org\n", "just words\n"):
        assert load_frontmatter(raw)[1] == ("frontmatter is a str, not a mapping of keys", 2)


def test_frontmatter_nested_beyond_the_bound_keeps_the_page_out_of_the_build(
    tmp_path: Path,
) -> None:
    """``date: [[[[...`` 30,000 deep (a fuzz run's record): MkDocs' own YAML reader
    crashes the process on it (a segmentation fault, no plugin needed), so the site leaves
    the page out, as it does an unreadable file, and says why; the build goes on."""
    project = tmp_path / "p"
    adr = project / "docs" / "adr"
    adr.mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - adr\n", encoding="utf-8")
    (project / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (adr / "0001-keep-it.md").write_text(
        "# 1. Keep it\n\n## Status\n\nAccepted\n", encoding="utf-8"
    )
    deep = "---\nstatus: accepted\ndate: " + "[" * 30000 + "\n---\n# 2. Deep\n"
    (adr / "0002-deep.md").write_text(deep, encoding="utf-8")
    proc = run_mkdocs("build", "-d", str(tmp_path / "site"), cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "docs/adr/0002-deep.md" in proc.stderr and "nested deeper than 64" in proc.stderr
    assert "left out of the site" in proc.stderr
    assert (tmp_path / "site" / "adr" / "0001-keep-it" / "index.html").exists()
    assert not (tmp_path / "site" / "adr" / "0002-deep").exists()
