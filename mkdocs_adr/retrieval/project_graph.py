"""The optional project graph: ``graphify-out/graph.json`` (node-link JSON).

A code graph (files, classes, functions and their imports and calls) lets
``find`` reach decisions about the code *around* the files an agent edits. It
is optional: absent or unreadable, ``find`` says so and works without it.

Only what node-link JSON guarantees is read: ``nodes`` (each with ``id``) and
``links`` or ``edges`` (``source``/``target``, or ``from``/``to``). A node's
file comes from ``source_file`` (Graphify), ``file``, ``path``, ``file_path``
or ``filepath``; its name from ``label`` or ``name``. Anything else is ignored.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import rx
from ..paths import UnsafePath, from_project

GRAPH_PATH = "graphify-out/graph.json"
#: Larger files are not read: the layer reports itself unavailable.
MAX_BYTES = 64 * 1024 * 1024
#: Hops walked from the nodes of the queried files.
HOPS = 2
#: Nodes visited at most per query; more is reported, never silently dropped.
MAX_VISITED = 2_000

_FILE_KEYS = ("source_file", "file", "path", "file_path", "filepath")
_NAME_KEYS = ("label", "name")
_LOCATION = rx.compile(r":\d+(?::\d+)?$")


@dataclass
class ProjectGraph:
    path: str
    sha256: str
    files: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    adjacency: dict[str, dict[str, str]] = field(default_factory=dict)
    by_file: dict[str, list[str]] = field(default_factory=dict)
    skipped: int = 0

    def walk(self, seeds: list[str], hops: int = HOPS) -> tuple[dict[str, tuple[int, str]], bool]:
        """Nodes within ``hops`` of ``seeds``: node -> (hops, seed file or name it came from).

        The second value says whether :data:`MAX_VISITED` stopped the walk.
        """
        reached: dict[str, tuple[int, str]] = {}
        queue: deque[tuple[str, int, str]] = deque()
        for seed in sorted(set(seeds)):
            origin = self.files.get(seed) or self.names.get(seed) or seed
            reached[seed] = (0, origin)
            queue.append((seed, 0, origin))
        capped = False
        while queue:
            node, depth, origin = queue.popleft()
            if depth >= hops:
                continue
            for other in sorted(self.adjacency.get(node, {})):
                if other in reached:
                    continue
                if len(reached) >= MAX_VISITED:
                    capped = True
                    break
                reached[other] = (depth + 1, origin)
                queue.append((other, depth + 1, origin))
        return reached, capped


@dataclass(frozen=True)
class GraphState:
    """What the layer could do: ``available``, ``absent`` or ``unreadable``."""

    state: str
    path: str
    reason: str = ""
    sha256: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state, "path": self.path}
        if self.reason:
            out["reason"] = self.reason
        return out


def _node_key(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    return value if isinstance(value, str) else f"#{value!r}"


def _file_of(data: dict[str, Any], project_dir: Path) -> str | None:
    for key in _FILE_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return normalize_graph_path(value, project_dir)
    return None


def normalize_graph_path(value: str, project_dir: Path) -> str | None:
    """A project-relative path for a graph node's file, or ``None`` outside it.

    A trailing ``:line`` or ``:line:col`` is dropped; the rest is
    :func:`mkdocs_adr.paths.from_project`.
    """
    text = _LOCATION.sub("", value.strip())
    try:
        return from_project(text, project_dir) or None
    except UnsafePath:
        return None


def load(project_dir: Path) -> tuple[ProjectGraph | None, GraphState]:
    """Read the project graph if there is one; never raises for bad content."""
    file = project_dir / GRAPH_PATH
    if not file.exists():
        return None, GraphState("absent", GRAPH_PATH, "no project graph; run Graphify to add one")
    try:
        size = file.stat().st_size
        if size > MAX_BYTES:
            return None, GraphState(
                "unreadable", GRAPH_PATH, f"{size} bytes is over the {MAX_BYTES} byte limit"
            )
        raw = file.read_bytes()
    except OSError as exc:
        return None, GraphState("unreadable", GRAPH_PATH, f"cannot read it: {exc.strerror}")
    sha = hashlib.sha256(raw).hexdigest()
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return None, GraphState("unreadable", GRAPH_PATH, "not UTF-8", sha)
    except json.JSONDecodeError as exc:
        return None, GraphState(
            "unreadable", GRAPH_PATH, f"not JSON (line {exc.lineno}: {exc.msg})", sha
        )
    except RecursionError:
        return None, GraphState("unreadable", GRAPH_PATH, "JSON nested too deeply", sha)
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
        return None, GraphState(
            "unreadable", GRAPH_PATH, "not node-link JSON: no 'nodes' list", sha
        )
    edges = data.get("links", data.get("edges", []))
    if not isinstance(edges, list):
        return None, GraphState(
            "unreadable", GRAPH_PATH, "not node-link JSON: 'links' is not a list", sha
        )
    graph = ProjectGraph(GRAPH_PATH, sha)
    _add_nodes(graph, data["nodes"], project_dir)
    _add_edges(graph, edges)
    return graph, GraphState("available", GRAPH_PATH, sha256=sha)


def _add_nodes(graph: ProjectGraph, nodes: list[Any], project_dir: Path) -> None:
    """Each node with a usable id, its file and name; the others are counted as skipped."""
    for node in nodes:
        key = _node_key(node.get("id")) if isinstance(node, dict) else None
        if key is None or not isinstance(node, dict):
            graph.skipped += 1
            continue
        graph.adjacency.setdefault(key, {})
        file_path = _file_of(node, project_dir)
        if file_path:
            graph.files[key] = file_path
            graph.by_file.setdefault(file_path, []).append(key)
        for name_key in _NAME_KEYS:
            name = node.get(name_key)
            if isinstance(name, str) and name.strip():
                graph.names[key] = name.strip()
                break


def _add_edges(graph: ProjectGraph, edges: list[Any]) -> None:
    """Each edge between two known nodes, both ways; the others are counted as skipped."""
    for edge in edges:
        if not isinstance(edge, dict):
            graph.skipped += 1
            continue
        src = _node_key(edge.get("source", edge.get("from")))
        dst = _node_key(edge.get("target", edge.get("to")))
        if src is None or dst is None or src not in graph.adjacency or dst not in graph.adjacency:
            graph.skipped += 1
            continue
        relation = edge.get("relation", edge.get("type", edge.get("label", "")))
        label = relation if isinstance(relation, str) else ""
        graph.adjacency[src].setdefault(dst, label)
        graph.adjacency[dst].setdefault(src, label)
