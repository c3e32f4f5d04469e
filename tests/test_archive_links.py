"""Finding and rewriting relative links: what MkDocs would render as a link, nothing else."""

from __future__ import annotations

import pytest

from mkdocs_adr import links


def raws(text: str) -> list[str]:
    return [link.raw for link in links.find_links(text)]


def test_inline_links_images_anchors_and_titles() -> None:
    text = (
        'See [a](0003-x.md "The title") and ![img](../img/a.png).\n'
        "Also [b](0003-x.md#decision) and [c](<my file.md#sec> 'T').\n"
        "[d](a(b).md) [e]( 0004-y.md ) [f](0005-z.md (paren title))\n"
    )
    assert raws(text) == [
        "0003-x.md",
        "../img/a.png",
        "0003-x.md#decision",
        "my file.md#sec",
        "a(b).md",
        "0004-y.md",
        "0005-z.md",
    ]
    found = links.find_links(text)
    assert [lk.line for lk in found] == [1, 1, 2, 2, 3, 3, 3]
    assert found[3].angle


def test_reference_definitions_and_html_but_not_footnotes() -> None:
    text = (
        "Read [the old one][old].\n\n"
        '[old]: 0003-x.md#context "Old"\n'
        "[^1]: a footnote, not a link\n"
        '<a href="0003-x.md">x</a> <img src=\'pic.png\' alt="p">\n'
    )
    found = links.find_links(text)
    assert [(lk.raw, lk.form) for lk in found] == [
        ("0003-x.md#context", "reference"),
        ("0003-x.md", "html"),
        ("pic.png", "html"),
    ]


def test_code_is_left_alone() -> None:
    text = (
        "Inline `[a](0003-x.md)` and ``[b](x.md)`` code.\n\n"
        "```markdown\n[c](0003-x.md)\n```\n\n"
        "~~~~\n[d](0003-x.md)\n~~~~\n\n"
        "    [e](indented-code.md)\n\n"
        "- a list item\n\n"
        "    [f](list-continuation.md)\n\n"
        "Back at the top [g](0003-x.md).\n"
    )
    assert raws(text) == ["list-continuation.md", "0003-x.md"]


def test_an_unclosed_fence_is_text_as_python_markdown_renders_it() -> None:
    text = "```\nnot closed [a](a.md)\n"
    assert raws(text) == ["a.md"]


def test_unmatched_backticks_are_literal() -> None:
    assert raws("a ` tick then [a](a.md)\n") == ["a.md"]


def test_brackets_without_a_link_are_not_links() -> None:
    assert raws("x](y.md) has no opening bracket\n\n[t] (a.md) has a space\n") == []


@pytest.mark.parametrize(
    ("raw", "target", "page", "expected"),
    [
        ("0003-x.md", "docs/adr/archive/0003-x.md", "docs/adr/0006-y.md", "archive/0003-x.md"),
        ("0003-x.md#d", "docs/adr/archive/0003-x.md", "docs/adr/0006-y.md", "archive/0003-x.md#d"),
        ("0006-y.md", "docs/adr/0006-y.md", "docs/adr/archive/0003-x.md", "../0006-y.md"),
        ("../img/", "docs/img", "docs/adr/archive/0003-x.md", "../../img/"),
        ("/adr/0003-x.md", "docs/adr/archive/0003-x.md", "docs/index.md", "/adr/archive/0003-x.md"),
        ("my%20file.md", "docs/adr/archive/my file.md", "docs/adr/a.md", "archive/my%20file.md"),
    ],
)
def test_rewrite_destination_keeps_the_style(
    raw: str, target: str, page: str, expected: str
) -> None:
    link = links.Link(0, len(raw), raw, 1, "inline")
    assert links.rewrite_destination(link, target, page, "docs") == expected


def test_a_new_path_that_needs_escaping_is_encoded_unless_in_angle_brackets() -> None:
    plain = links.Link(0, 1, "x.md", 1, "inline")
    angled = links.Link(0, 1, "x.md", 1, "inline", angle=True)
    assert links.rewrite_destination(plain, "docs/a b.md", "docs/p.md", "docs") == "a%20b.md"
    assert links.rewrite_destination(angled, "docs/a b.md", "docs/p.md", "docs") == "a b.md"


def test_resolve_and_escape() -> None:
    assert links.resolve("docs/adr/a.md", "../index.md", "docs") == "docs/index.md"
    assert links.resolve("docs/adr/a.md", "/adr/b.md", "docs") == "docs/adr/b.md"
    assert links.resolve("docs/adr/a.md", "my%20b.md", "docs") == "docs/adr/my b.md"
    assert links.escapes(links.resolve("docs/a.md", "../../x.md", "docs"))
    assert not links.is_local("https://example.org/a.md")
    assert not links.is_local("mailto:a@b")
    assert not links.is_local("//cdn/x.js")
    assert not links.is_local("")


def test_apply_edits_only_touches_destinations() -> None:
    text = '[a](0003-x.md "T") and [b](0003-x.md#s)\r\n'
    edits = [(lk.start, lk.end, "archive/" + lk.raw) for lk in links.find_links(text)]
    assert links.apply_edits(text, edits) == (
        '[a](archive/0003-x.md "T") and [b](archive/0003-x.md#s)\r\n'
    )
