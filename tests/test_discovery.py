"""Discovery: every exclusion reason, layouts, symlinks, determinism."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from mkdocs_adr.config import Config, RootConfig, from_options
from mkdocs_adr.discovery import discover
from mkdocs_adr.log import load
from mkdocs_adr.model import Severity

RECORD = "# {n}. Title\n\n## Status\n\nAccepted\n"


def write(root: Path, rel: str, text: str | None = None) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text is not None else RECORD.format(n=1), encoding="utf-8")
    return path


def config(tmp: Path, **options: object) -> Config:
    return from_options(options, project_dir=tmp, docs_dir=tmp / "docs", config_file=None)


def test_every_exclusion_reason(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    for rel in [
        "adr/0001-a.md",
        "adr/README.md",
        "adr/index.md",
        "adr/INDEX.md",
        "adr/CURRENT.md",
        "adr/template.md",
        "adr/adr-template.md",
        "adr/adr.template.md",
        "adr/adr_template.md",
        # MADR 4's variants of its template, and a record whose title names a template
        "adr/adr-template-minimal.md",
        "adr/adr-template-bare-minimal.md",
        "adr/use-a-template-engine.md",
        "adr/template-engine.md",
        "adr/template-nygard.md",
        # a record about a template, named by its date
        "adr/20260515-remove-the-item-template.md",
        "adr/AGENTS.md",
        "adr/0002-b.draft.md",
        "adr/_idea.md",
        "adr/.hidden.md",
        "adr/zh/0001-a.md",
        "adr/0001-a.ja.md",
        "adr/services/adr/0001-s.md",
        "adr/archive/INDEX.md",
        "adr/notes.txt",
    ]:
        write(docs, rel)
    write(docs, "adr/0000-template.md", "# {short title of solved problem}\n\n## Status\n\n{x}\n")
    write(docs, "adr/0000-use-madr.md", "# Use MADR\n\n## Status\n\nAccepted\n")
    # MADR's own first record quoting the template in a fence is still a record
    write(
        docs,
        "adr/0000-use-madr-4.md",
        "# Use MADR 4\n\n## Status\n\nAccepted\n\n## More Information\n\n"
        "```markdown\n# {short title of solved problem}\n\n{proposed | accepted}\n```\n",
    )
    # a log's own index page numbered first, its template in a code block
    write(
        docs,
        "adr/000-index.md",
        "Our decisions live here.\n\n```markdown\n| Status | Date |\n|---|---|\n"
        "| Proposed, Accepted | yyyy-mm-dd |\n```\n",
    )
    write(docs, "adr/0000-README.md", "How to write one.\n")
    cfg = config(
        tmp_path,
        roots=["adr", {"path": "adr/services/adr", "prefix": "SVC"}],
        work_dir="docs/adr/.mkdocs-adr",
    )
    (docs / "adr/.mkdocs-adr").mkdir()
    write(docs, "adr/.mkdocs-adr/plans/x.md")
    found = discover(cfg)
    reasons = {e.path: e.reason for e in found.excluded}
    assert reasons == {
        "docs/adr/README.md": "readme",
        "docs/adr/index.md": "index",
        "docs/adr/000-index.md": "index",
        "docs/adr/0000-README.md": "readme",
        "docs/adr/INDEX.md": "generated-view",
        "docs/adr/CURRENT.md": "generated-view",
        "docs/adr/archive/INDEX.md": "generated-view",
        "docs/adr/template.md": "template",
        "docs/adr/adr-template.md": "template",
        "docs/adr/adr.template.md": "template",
        "docs/adr/adr-template-minimal.md": "template",
        "docs/adr/adr-template-bare-minimal.md": "template",
        "docs/adr/template-nygard.md": "template",
        "docs/adr/AGENTS.md": "agent-instructions",
        "docs/adr/adr_template.md": "template",
        "docs/adr/0000-template.md": "template",
        "docs/adr/0002-b.draft.md": "draft",
        "docs/adr/_idea.md": "draft",
        "docs/adr/.hidden.md": "draft",
        "docs/adr/zh/0001-a.md": "mirror",
        "docs/adr/0001-a.ja.md": "mirror",
        "docs/adr/services/adr/": "nested-root",
        "docs/adr/.mkdocs-adr/": "work-dir",
    }
    paths = [f.path for f in found.found]
    assert paths == [
        "docs/adr/0000-use-madr-4.md",
        "docs/adr/0000-use-madr.md",
        "docs/adr/0001-a.md",
        "docs/adr/20260515-remove-the-item-template.md",
        "docs/adr/template-engine.md",
        "docs/adr/use-a-template-engine.md",
        "docs/adr/services/adr/0001-s.md",
    ]


def test_a_numbered_index_or_template_is_no_record_whatever_its_number(tmp_path: Path) -> None:
    """``01_adr_index.md`` and ``02_adr_template.md``, numbered to sort before the records:
    the name after the number is only the page's word. A record's name goes on after it."""
    docs = tmp_path / "docs"
    pages = {
        "adr/01_adr_index.md": "index",
        "adr/02_adr_template.md": "template",
        "adr/03-adr-index.md": "index",
        "adr/04-template.md": "template",
        "adr/05_index.markdown": "index",
    }
    for rel in pages:
        write(docs, rel, "# ADR-XXXX: Title\n\nStatus: Proposed | Accepted\n")
    for rel in ("adr/0006-template-engine.md", "adr/0007-index-the-logs.md", "adr/0008-a.md"):
        write(docs, rel)
    found = discover(config(tmp_path))
    assert {e.path: e.reason for e in found.excluded} == {f"docs/{r}": w for r, w in pages.items()}
    assert [f.path for f in found.found] == [
        "docs/adr/0006-template-engine.md",
        "docs/adr/0007-index-the-logs.md",
        "docs/adr/0008-a.md",
    ]


def test_layouts_domains_and_archive(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write(docs, "adr/payments/0003-x.md")
    write(docs, "adr/archive/payments/0002-y.md")
    write(docs, "flat/0001-a.md")
    write(docs, "flat/archive/0002-b.md")
    write(docs, "mixed/0001-a.md")
    write(docs, "mixed/data/0002-b.md")
    cfg = config(tmp_path, roots=["adr", "flat", {"path": "mixed", "prefix": "MIX"}])
    found = discover(cfg)
    assert found.layouts == {"adr": "layered", "flat": "flat", "mixed": "mixed"}
    by_path = {f.path: f for f in found.found}
    assert by_path["docs/adr/payments/0003-x.md"].domain == "payments"
    arch = by_path["docs/adr/archive/payments/0002-y.md"]
    assert arch.archived and arch.domain == "payments"
    assert by_path["docs/flat/archive/0002-b.md"].archived
    assert by_path["docs/flat/archive/0002-b.md"].domain is None


def test_archive_folder_outside_a_root_means_nothing(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write(docs, "adr/0001-a.md")
    write(docs, "archive/0002-b.md")  # not under a root: not discovered at all
    assert [f.path for f in discover(config(tmp_path)).found] == ["docs/adr/0001-a.md"]


def test_discovery_is_deterministic(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    for n in (5, 1, 3, 10, 2):
        write(docs, f"adr/{n:04d}-r.md")
    first = [f.path for f in discover(config(tmp_path)).found]
    assert first == sorted(first)
    assert first == [f.path for f in discover(config(tmp_path)).found]


def test_symlinks_inside_followed_outside_refused(tmp_path: Path) -> None:
    project = tmp_path / "project"
    docs = project / "docs"
    write(docs, "adr/0001-a.md")
    write(project, "shared/0002-shared.md", RECORD.format(n=2))
    outside = write(tmp_path, "elsewhere/0003-out.md", RECORD.format(n=3))
    os.symlink(project / "shared/0002-shared.md", docs / "adr/0002-shared.md")
    os.symlink(outside, docs / "adr/0003-out.md")
    os.symlink(docs / "adr", docs / "adr/loop")  # a folder pointing at its parent
    os.symlink(docs / "adr/missing.md", docs / "adr/0004-broken.md")
    log = load(config(project))
    assert sorted(r.path for r in log.records) == [
        "docs/adr/0001-a.md",
        "docs/adr/0002-shared.md",
    ]
    assert log.by_path["docs/adr/0002-shared.md"].symlink
    excluded = {e.path: e.reason for e in log.excluded}
    assert excluded["docs/adr/0003-out.md"] == "symlink-outside-project"
    assert excluded["docs/adr/0004-broken.md"] == "symlink-broken"
    adr015 = sorted(p.path or "" for p in log.problems if p.code == "ADR015")
    assert adr015 == ["docs/adr/0003-out.md", "docs/adr/0004-broken.md", "docs/adr/loop"]


def test_missing_root_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    log = load(config(tmp_path))
    assert log.records == ()
    assert [p.code for p in log.problems] == ["ADR013"]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("/etc", "root '/etc' is absolute"),
        ("../../outside", "root '../../outside' leaves the project folder"),
        ("a/../../../b", "root '../../b' leaves the project folder"),
    ],
)
def test_roots_that_leave_the_project_are_refused(tmp_path: Path, bad: str, message: str) -> None:
    # issue 11 item 8: a root may leave docs_dir (../doc/adr), never the project
    from mkdocs_adr.errors import ConfigError

    with pytest.raises(ConfigError, match=re.escape(message)):
        config(tmp_path, roots=[bad])


@pytest.mark.parametrize(("typed", "path"), [("../outside", "../outside"), ("a/../../b", "../b")])
def test_roots_beside_docs_dir_are_read_where_they_are(
    tmp_path: Path, typed: str, path: str
) -> None:
    write(tmp_path, f"{path[3:]}/0001-a.md")
    cfg = config(tmp_path, roots=[typed])
    assert [r.path for r in cfg.roots] == [path]
    assert [r.path for r in load(cfg).records] == [f"{path[3:]}/0001-a.md"]


def test_prefix_per_root_and_explicit_ids(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write(docs, "adr/0001-a.md")
    write(docs, "services/payments/adr/0001-p.md")
    write(docs, "adr/0002-b.md", "---\nid: ADR-0042\nstatus: accepted\n---\n# B\n")
    cfg = Config(
        project_dir=tmp_path,
        docs_dir=docs,
        roots=(RootConfig("adr"), RootConfig("services/payments/adr", prefix="PAY")),
    )
    ids = {r.path: r.id for r in load(cfg).records}
    assert ids == {
        "docs/adr/0001-a.md": "ADR-0001",
        "docs/adr/0002-b.md": "ADR-0042",
        "docs/services/payments/adr/0001-p.md": "PAY-0001",
    }


def test_a_record_saved_without_its_extension_is_a_note(tmp_path: Path) -> None:
    """``0016-handle-concurrent-writes`` (the ``.md`` left out, seen in three real logs) is
    read by neither the log nor the site: a note names it and the rename; a file of the
    same shape that holds no record (a script) is passed over in silence."""
    docs = tmp_path / "docs"
    write(docs, "adr/0001-a.md")
    write(docs, "adr/0016-handle-concurrent-writes", RECORD.format(n=16))
    write(docs, "adr/0017-migrate", "#!/bin/sh\necho migrate\n")
    found = discover(config(tmp_path))
    assert [f.path for f in found.found] == ["docs/adr/0001-a.md"]
    assert [(p.code, p.severity, p.path, p.fix) for p in found.problems] == [
        (
            "ADR013",
            Severity.INFO,
            "docs/adr/0016-handle-concurrent-writes",
            "rename it to 0016-handle-concurrent-writes.md",
        )
    ]
