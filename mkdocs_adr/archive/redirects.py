"""The published URLs a relocation changes, and which of them get a redirect page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..config import Config
from .findings import Risk
from .moves import FileMove
from .pages import page_url


@dataclass(frozen=True)
class Redirect:
    """One moved page's old and new site URL."""

    id: str
    kind: str  # record | mirror
    source: str
    target: str
    from_url: str
    to_url: str
    redirect_page: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "from": self.source,
            "to": self.target,
            "from_url": self.from_url,
            "to_url": self.to_url,
            "redirect_page": self.redirect_page,
        }


def url_changes(
    config: Config, moves: Sequence[FileMove], dir_urls: bool
) -> tuple[list[Redirect], list[Risk]]:
    """Each move of a page with a URL; a moved mirror's old URL is a risk (no redirect)."""
    redirects: list[Redirect] = []
    risks: list[Risk] = []
    for move in moves:
        old_url = page_url(config, move.source, dir_urls)
        new_url = page_url(config, move.target, dir_urls)
        if not (old_url and new_url):
            continue
        # the site publishes redirect pages for records (from receipts);
        # a mirror's old URL is not kept alive
        redirect_page = config.redirects and move.kind == "record"
        redirects.append(
            Redirect(move.id, move.kind, move.source, move.target, old_url, new_url, redirect_page)
        )
        if move.kind == "mirror":
            risks.append(
                Risk(
                    "external-links",
                    f"mirror {move.source}: its published URL changes from "
                    f"{old_url} to {new_url} and gets no redirect page; links to it from "
                    "outside this site break",
                    id=move.id,
                )
            )
    return redirects, risks
