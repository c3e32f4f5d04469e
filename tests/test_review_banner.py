"""A record whose review-by date has passed shows a banner in a real build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_overdue_review_banner_in_built_page(tmp_path: Path) -> None:
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("# Home\n")
    (adr / "0001-old-enough.md").write_text(
        "---\nstatus: accepted\nreview-by: 2020-01-01\n---\n# Keep the monolith\n\nText.\n"
    )
    (adr / "0002-not-yet.md").write_text(
        "---\nstatus: accepted\nreview-by: 2999-01-01\n---\n# Later\n\nText.\n"
    )
    (tmp_path / "mkdocs.yml").write_text("site_name: t\ntheme: mkdocs\nplugins:\n  - adr\n")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "ADR017" in proc.stderr  # logged as a warning, like every problem
    due = (tmp_path / "site/adr/0001-old-enough/index.html").read_text()
    assert 'adr-banner--review"' in due
    assert "Review overdue" in due and "2020-01-01" in due
    later = (tmp_path / "site/adr/0002-not-yet/index.html").read_text()
    assert "adr-banner--review" not in later
