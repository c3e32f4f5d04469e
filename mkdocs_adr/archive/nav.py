"""mkdocs.yml edits: the paths of moved pages that the config names (``nav``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..config import Config
from ..errors import RefusedError
from ..links import apply_edits
from ..paths import docs_relative, inside_project
from .rewrite import LinkEdit, MoveMap

_YAML_PATH_EDGE = r"[\w./-]"


def nav_edits(
    text: str,
    cfg_rel: str,
    moves: MoveMap,
    docs_rel: str,
    src_uri: Callable[[str], str | None] | None = None,
) -> tuple[list[LinkEdit], str]:
    """Each whole docs-relative path of a moved page in ``text`` (the mkdocs.yml at
    ``cfg_rel``), outside YAML comments, as an edit to its new path; and the edited text.

    ``src_uri`` gives a page's path as the config names it (default: relative to
    ``docs_rel``; :meth:`Config.src_uri` also knows the roots outside docs_dir)."""
    edits: list[LinkEdit] = []
    spans: list[tuple[int, int, str]] = []
    for source, target in sorted(moves.mapping.items()):
        to_src = src_uri or (lambda path: docs_relative(path, docs_rel))
        old, new = to_src(source), to_src(target)
        if not old or not new:
            continue
        pattern = re.compile(f"(?<!{_YAML_PATH_EDGE}){re.escape(old)}(?!{_YAML_PATH_EDGE})")
        for m in pattern.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if re.search(r"(^|\s)#", text[line_start : m.start()]):
                continue  # in a YAML comment
            spans.append((m.start(), m.end(), new))
            edits.append(
                LinkEdit(
                    page=cfg_rel,
                    page_after=cfg_rel,
                    line=text.count("\n", 0, m.start()) + 1,
                    old=old,
                    new=new,
                    form="nav",
                    direction="inbound",
                    id=moves.owner.get(source, ""),
                    target=target,
                    target_exists=True,
                )
            )
    return edits, apply_edits(text, spans) if spans else text


def read_config(config: Config) -> tuple[str, str] | None:
    """The project's mkdocs.yml (project-relative path, text), when there is one inside the
    project to edit."""
    cfg = config.config_file
    if cfg is None or not cfg.is_file():
        return None
    rel = config.rel(cfg)
    try:
        path = inside_project(config.project_dir, rel)
    except RefusedError:
        return None
    try:
        return rel, path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
