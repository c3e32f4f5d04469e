"""Write small ADR logs for the retrieval tests: real files, generic frontmatter style."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mkdocs_adr.config import Config, from_options
from mkdocs_adr.log import Log, load

MODULE_ROOT = {"path": "services/pay/adr", "prefix": "PAY"}


@dataclass
class Spec:
    """One record to write. Relations name ids (``ADR-0002``, ``ADR-0005#D2``)."""

    number: int
    title: str = "A decision"
    status: str = "accepted"
    domain: str | None = None
    root: str = "adr"
    prefix: str = "ADR"
    archived: bool = False
    relations: dict[str, list[str]] = field(default_factory=dict)
    affected_paths: list[str] = field(default_factory=list)
    affected_components: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    iteration: str | None = None
    sections: dict[str, str] = field(
        default_factory=lambda: {
            "Context": "Why we had to decide.",
            "Decision": "What we decided.",
            "Consequences": "What follows.",
        }
    )
    #: (title, status, text) per unit: a container record when given.
    units: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.prefix}-{self.number:04d}"

    def relpath(self) -> str:
        parts = [self.root]
        if self.archived:
            parts.append("archive")
        if self.domain:
            parts.append(self.domain)
        parts.append(f"{self.number:04d}-record.md")
        return "/".join(parts)

    def text(self) -> str:
        front: dict[str, Any] = {"id": self.id, "title": self.title, "status": self.status}
        front["date"] = "2025-01-01"
        if self.domain and self.root != "adr":
            front["domain"] = self.domain
        for kind, targets in self.relations.items():
            if targets:
                front[kind] = list(targets)
        if self.affected_paths:
            front["affected-paths"] = list(self.affected_paths)
        if self.affected_components:
            front["affected-components"] = list(self.affected_components)
        if self.tags:
            front["tags"] = list(self.tags)
        if self.iteration:
            front["iteration"] = self.iteration
        if self.units:
            front["style"] = "container"
        head = "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=True) + "---\n"
        body = f"\n# {self.id}: {self.title.splitlines()[0] if self.title else ''}\n\n"
        if self.units:
            for i, (title, status, text) in enumerate(self.units, start=1):
                body += f"## D{i}. {title}\n\nStatus: {status}\n\n{text}\n\n"
        else:
            for heading, text in self.sections.items():
                body += f"## {heading}\n\n{text}\n\n"
        return head + body


def write_log(
    folder: Path, specs: list[Spec], *, module: bool = False, options: dict[str, Any] | None = None
) -> Config:
    """Write ``specs`` under ``folder`` (project = docs dir) and return its config."""
    for spec in specs:
        path = folder / spec.relpath()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(spec.text(), encoding="utf-8")
    roots: list[Any] = ["adr", MODULE_ROOT] if module else ["adr"]
    (folder / "adr").mkdir(parents=True, exist_ok=True)
    if module:
        (folder / MODULE_ROOT["path"]).mkdir(parents=True, exist_ok=True)
    opts = {"roots": roots, **(options or {})}
    (folder / "mkdocs.yml").write_text(
        "site_name: t\ndocs_dir: .\nplugins:\n  - adr:\n"
        + "".join(f"      {k}: {json.dumps(v)}\n" for k, v in opts.items()),
        encoding="utf-8",
    )
    return from_options(opts, project_dir=folder, docs_dir=folder, config_file=None)


def load_log(folder: Path, specs: list[Spec], **kwargs: Any) -> Log:
    return load(write_log(folder, specs, **kwargs))
