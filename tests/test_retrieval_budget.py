"""Budgets, segments and cursors: the pieces every bounded answer is made of."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_adr.errors import RefusedError, UsageError
from mkdocs_adr.retrieval import cursor as cursors
from mkdocs_adr.retrieval.budget import (
    MAX_CODEPOINTS,
    Position,
    budget_block,
    escaped_len,
    finish,
    segment_text,
    serialize,
    shorten_title,
)

HOSTILE = st.text(
    alphabet=st.sampled_from(list('ab c\n\n"\\\t\x01\x7f\u2028缓存é😀/-.#')), max_size=3000
)


@given(HOSTILE)
@settings(max_examples=50, deadline=None)
def test_escaped_len_is_what_serialize_writes(text: str) -> None:
    assert escaped_len(text) == len(serialize(text)) - 2


@given(HOSTILE, st.integers(min_value=20, max_value=400))
@settings(max_examples=50, deadline=None)
def test_segments_join_back_and_fit(text: str, limit: int) -> None:
    pieces = segment_text(text, limit)
    assert "".join(pieces) == text
    assert all(escaped_len(p) <= limit for p in pieces)
    if escaped_len(text) <= limit:
        assert pieces == [text]
    else:
        assert all(pieces)


def test_segments_cut_at_paragraphs_and_never_inside_words() -> None:
    words = [f"ADR-{i:04d}/path/to/file-{i}.md" for i in range(400)]
    text = "\n\n".join(" ".join(words[i : i + 10]) for i in range(0, 400, 10))
    pieces = segment_text(text, 1000)
    assert len(pieces) > 5
    assert "".join(pieces) == text
    for piece in pieces[:-1]:
        assert piece.endswith("\n\n")  # a paragraph boundary was available every time
    for word in words:  # every id/path survives whole in exactly one piece
        assert sum(word in p for p in pieces) == 1


def test_a_run_without_whitespace_is_cut_only_when_it_must_be() -> None:
    text = "x" * 2500
    pieces = segment_text(text, 1000)
    assert [len(p) for p in pieces] == [1000, 1000, 500]


def test_serialize_escapes_lone_surrogates_so_output_encodes() -> None:
    path = "adr/caf\udce9.md"  # a file name that is not valid UTF-8
    text = serialize({"path": path})
    text.encode("utf-8")
    assert json.loads(text)["path"] == path


def test_finish_reports_the_exact_size_of_the_response() -> None:
    data = {"text": "é" * 3000 + "x" * 6, "budget": budget_block(1)}
    text = finish(data)
    assert data["budget"]["codepoints"] == len(text)
    assert data["budget"]["bytes"] == len(text.encode("utf-8"))
    assert data["budget"]["tokens_estimate"] == -(-len(text.encode("utf-8")) // 4)
    assert "tokens_method" not in data["budget"]  # a constant: stated in the agents guide
    assert json.loads(text) == data


def test_long_titles_are_shortened_visibly() -> None:
    title, cut = shorten_title("t" * 500)
    assert cut and title.endswith("…") and len(title) == 200
    assert shorten_title("short") == ("short", False)
    assert MAX_CODEPOINTS == 12_000


class TestCursor:
    corpus = "0" * 16
    query = "a" * 12

    def test_round_trip(self) -> None:
        token = cursors.encode(self.corpus, self.query, Position(7, 2))
        assert token.startswith("c1.")
        got = cursors.decode(token, corpus=self.corpus, query=self.query, restart="again")
        assert got == Position(7, 2)

    def test_placeholder_is_at_least_as_long_as_any_real_cursor(self) -> None:
        real = cursors.encode(self.corpus, self.query, Position(123456, 99))
        assert len(cursors.placeholder(self.corpus, self.query)) >= len(real)

    def test_changed_corpus_is_refused_with_the_restart_command(self) -> None:
        token = cursors.encode(self.corpus, self.query, Position(1, 0))
        with pytest.raises(RefusedError) as err:
            cursors.decode(token, corpus="1" * 16, query=self.query, restart="mkdocs-adr context X")
        assert "changed" in err.value.message
        assert "mkdocs-adr context X" in err.value.fix
        assert err.value.exit_code == 3

    def test_other_query_is_refused(self) -> None:
        token = cursors.encode(self.corpus, self.query, Position(1, 0))
        with pytest.raises(RefusedError, match="different query"):
            cursors.decode(token, corpus=self.corpus, query="b" * 12, restart="x")

    @pytest.mark.parametrize("bad", ["", "garbage", "c1.", "c1.!!!!", "c2.abc", "c1.YWJj"])
    def test_malformed_is_a_usage_error(self, bad: str) -> None:
        with pytest.raises(UsageError):
            cursors.decode(bad, corpus=self.corpus, query=self.query, restart="x")

    def test_edited_cursor_fails_its_check(self) -> None:
        token = cursors.encode(self.corpus, self.query, Position(1, 0))
        import base64

        body = base64.urlsafe_b64decode(token[3:] + "==").decode()
        forged = body.replace(".1-0.", ".9-0.")
        forged_token = "c1." + base64.urlsafe_b64encode(forged.encode()).decode().rstrip("=")
        with pytest.raises(UsageError):
            cursors.decode(forged_token, corpus=self.corpus, query=self.query, restart="x")


def test_the_retrieval_engine_never_imports_mkdocs() -> None:
    import subprocess
    import sys

    code = (
        "import sys, mkdocs_adr.retrieval, mkdocs_adr.commands.context, "
        "mkdocs_adr.commands.find; "
        "print(sorted(m for m in sys.modules if m == 'mkdocs' or m.startswith('mkdocs.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
