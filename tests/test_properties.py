"""Property tests: no bytes, however hostile, raise out of the engine."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mkdocs_adr.config import DEFAULT_ALIASES, DEFAULT_STATUS_HEADINGS, Config
from mkdocs_adr.log import load
from mkdocs_adr.model import STATUSES
from mkdocs_adr.parsing import ParseOptions, parse_bytes

OPTIONS = ParseOptions(
    aliases=tuple(sorted(DEFAULT_ALIASES.items())),
    status_headings=frozenset(h.lower() for h in DEFAULT_STATUS_HEADINGS),
)

# Fragments real records are made of, so generated text reaches deep paths.
FRAGMENTS = st.sampled_from(
    [
        "---\n",
        "status: accepted\n",
        "status: [\n",
        "id: ADR-0001\n",
        "supersedes: ADR-0002\n",
        "# 1. Title\n",
        "## Status\n",
        "\n",
        "Accepted\n",
        "Superseded by [2. X](0002-x.md)\n",
        "* Status: superseded by [ADR-0005](0005-x.md)\n",
        "| **Status** | Accepted |\n",
        "```\n",
        "~~~\n",
        "## D1. Unit\n",
        "Status: proposed\n",
        "## Links\n",
        "- Supersedes [a](../../../etc/passwd)\n",
        "ADR-0003#D9 ",
        "\r\n",
        "\x00",
        "\ufeff",
        "{Proposed|Accepted}\n",
        "Date: 31/02/2020\n",
        "===\n",
        "---\n",
        "<script>x</script>",
        '[x](0001-a.md "title")',
        "extends ADR 12 ",
        "#",
        "|",
        "Review by: soon\n",
    ]
)
TEXTS = st.lists(FRAGMENTS | st.text(max_size=40), max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_parse_without_raising(data: bytes) -> None:
    parsed = parse_bytes(data, path="adr/0001-x.md", options=OPTIONS)
    assert parsed.status in STATUSES
    assert all(p.code.startswith("ADR") for p in parsed.problems)


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_record_shaped_text_parses_without_raising(text: str) -> None:
    for encoding in ("utf-8", "utf-16"):
        parsed = parse_bytes(
            text.encode(encoding, "surrogatepass"), path="adr/0002-y.md", options=OPTIONS
        )
        assert parsed.status in STATUSES


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(1, 6), TEXTS | st.binary(max_size=300)), max_size=8))
def test_whole_logs_of_hostile_files_load_without_raising(files: list[tuple[int, object]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "docs" / "adr"
        root.mkdir(parents=True)
        for i, (number, content) in enumerate(files):
            data = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
            assert isinstance(data, bytes)
            (root / f"{number:04d}-f{i}.md").write_bytes(data)
        log = load(Config(project_dir=Path(tmp), docs_dir=Path(tmp) / "docs"))
        assert len(log.records) == len(files)
        for problem in log.problems:
            assert problem.code.startswith("ADR") and problem.message
