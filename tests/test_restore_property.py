"""Property: archive then restore gives back every file with the same sha256, apart from
files the user changed in between, which keep the user's change.

Logs are generated: flat or layered, records of every status with supersessions, mirror
copies, ordinary pages linking to records with anchors, titles, reference definitions
and links inside code, and sometimes a generated INDEX.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from .archive_lab import docs_digest, invoke, json_of, write_index, write_tree

STATUSES = ("accepted", "rejected", "deprecated", "superseded", "proposed")
LINK_FORMS = (
    "[{t}]({p})",
    '[{t}]({p} "Title of {t}")',
    "[{t}]({p}#decision)",
    "![{t}]({p})",
    "`[{t}]({p})`",
    "[{t}][ref-{t}]\n\n[ref-{t}]: {p}",
    '<a href="{p}">{t}</a>',
)


@st.composite
def projects(draw: st.DrawFn) -> dict[str, str | bytes]:
    layered = draw(st.booleans())
    count = draw(st.integers(min_value=2, max_value=6))
    statuses = [draw(st.sampled_from(STATUSES)) for _ in range(count)]
    statuses[-1] = "accepted"  # something for superseded records to point at
    domains = ["core", "data"]
    records: list[tuple[str, str]] = []  # (docs-relative path, status)
    for n, status in enumerate(statuses, start=1):
        folder = f"adr/{draw(st.sampled_from(domains))}" if layered else "adr"
        records.append((f"{folder}/{n:04d}-record-{n}.md", status))
    files: dict[str, str | bytes] = {"mkdocs.yml": "site_name: p\nplugins:\n  - adr\n"}

    def rel(src: str, dst: str) -> str:
        import posixpath

        return posixpath.relpath(dst, posixpath.dirname(src))

    accepted = [p for p, s in records if s == "accepted"]
    for n, (path, status) in enumerate(records, start=1):
        lines = [f"# {n}. Record {n}", "", "## Status", ""]
        if status == "superseded":
            succ = draw(st.sampled_from(accepted))
            lines.append(f"Superseded by [{succ}]({rel(path, succ)})")
        else:
            lines.append(status.capitalize())
        lines += ["", "## Context", ""]
        for _ in range(draw(st.integers(min_value=0, max_value=3))):
            target = draw(st.sampled_from([p for p, _ in records] + ["img/x.png", "index.md"]))
            form = draw(st.sampled_from(LINK_FORMS))
            lines += [form.format(t=f"t{n}{len(lines)}", p=rel(path, target)), ""]
        files[f"docs/{path}"] = "\n".join(lines) + "\n"
        if draw(st.booleans()):
            inner = path[len("adr/") :]
            original = rel(f"adr/zh/{inner}", path)
            files[f"docs/adr/zh/{inner}"] = f"# 译文 {n}\n\n[原文]({original})\n"
    files["docs/img/x.png"] = b"\x89PNG fake"
    page_lines = ["# Home", ""]
    for k in range(draw(st.integers(min_value=0, max_value=4))):
        target = draw(st.sampled_from([p for p, _ in records]))
        page_lines += [draw(st.sampled_from(LINK_FORMS)).format(t=f"h{k}", p=target), ""]
    files["docs/index.md"] = "\n".join(page_lines) + "\n"
    files["docs/guide/notes.md"] = f"See [the first](../{records[0][0]}).\n"
    return files


# 25 generated projects, each archived, restored and compared: 1.5 s on a quiet machine,
# 6 s and more on a shared one
@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(files=projects(), with_index=st.booleans(), edits=st.sets(st.integers(0, 50), max_size=3))
def test_archive_then_restore_is_the_identity(
    files: dict[str, str | bytes], with_index: bool, edits: set[int]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        write_tree(project, files)
        if with_index:
            write_index(project)
        before = docs_digest(project)
        code, out, err = invoke("archive", "--json", cwd=project)
        assert code == 0, err
        data = json_of(out)
        moved = len(data["records"])
        event(f"records archived: {moved if moved < 3 else '3+'}")
        if data["plan_id"] is None:
            return
        assert invoke("plan", "--confirm", data["plan_id"], cwd=project)[0] == 0
        # the user edits some Markdown files (never the generated INDEX) while archived
        candidates = sorted(
            p
            for p in project.rglob("*.md")
            if ".mkdocs-adr" not in p.parts and p.name != "INDEX.md"
        )
        edited: dict[str, bytes] = {}
        for k in sorted(edits):
            path = candidates[k % len(candidates)]
            note = f"\nUser note {k}.\n".encode()
            with open(path, "ab") as fh:
                fh.write(note)
            key = path.relative_to(project).as_posix()
            edited[key] = edited.get(key, b"") + note
        event(f"files edited in between: {len(edited)}")
        code, out, err = invoke("archive", "restore", data["plan_id"], "--json", cwd=project)
        assert code == 0, err
        restore = json_of(out)
        assert restore["blocking"] == []
        code, out, err = invoke("plan", "--confirm", restore["plan_id"], cwd=project)
        assert code == 0, out + err
        after = docs_digest(project)
        assert set(after) == set(before)
        home = {m["from"]: m["to"] for m in restore["moves"]}  # archived path -> original
        user = {home.get(p, p): note for p, note in edited.items()}
        assert before
        for rel_path, digest in before.items():
            if rel_path not in user:
                assert after[rel_path] == digest, rel_path
                continue
            # the user's change is kept; the rest is what it was before the archive
            data = (project / rel_path).read_bytes()
            note = user[rel_path]
            assert data.endswith(note), rel_path
            assert hashlib.sha256(data[: -len(note)]).hexdigest() == digest, rel_path
