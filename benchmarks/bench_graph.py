"""Graph layout benchmark (issue 13): edge crossings before and after ordering the layers.

Two logs of 1,000 records each:

- ``generated``: the site benchmark's log (``generate.py``: supersession chains, domains),
  read by the real loader; its graph is chains, so it has few crossings to remove;
- ``woven``: a synthetic graph shaped like a busy real log, in which newer records
  supersede, amend, extend, depend on and relate to older ones a few numbers back
  (seeded, so the same figures every run).

For each: how many crossings the drawing has with every layer in id order (the naive
order) and after the ordering sweeps (``svg.layout``), and the layout time.
``python benchmarks/bench_graph.py [WORKDIR]`` prints them.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generate import generate

from mkdocs_adr.config import from_options
from mkdocs_adr.log import load
from mkdocs_adr.views import graphdata, svg
from mkdocs_adr.views.graphdata import DrawnEdge, GraphData, Node

RECORDS = 1000
KINDS = ("supersedes", "partially-supersedes", "amends", "extends", "depends-on", "relates-to")


def woven(n: int = RECORDS, *, seed: int = 13) -> GraphData:
    """``n`` records; each newer one names one to three records up to 12 numbers older."""
    rng = random.Random(seed)
    nodes = {
        f"ADR-{i:04d}": Node(
            f"ADR-{i:04d}", f"Decision {i}", "accepted", False, None, "adr", f"adr/{i}.md"
        )
        for i in range(1, n + 1)
    }
    edges: set[DrawnEdge] = set()
    for i in range(2, n + 1):
        if rng.random() < 0.35:
            continue  # a record that names nothing
        for _ in range(rng.choice((1, 1, 2, 3))):
            j = rng.randint(max(1, i - 12), i - 1)
            kind = rng.choice(KINDS)
            edges.add(DrawnEdge(f"ADR-{i:04d}", f"ADR-{j:04d}", kind))
    return GraphData(nodes=nodes, edges=sorted(edges, key=lambda e: (e.source, e.target, e.kind)))


def measure(name: str, data: GraphData) -> dict[str, Any]:
    start = time.perf_counter()
    placed = svg.layout(data, isolated=False)
    seconds = time.perf_counter() - start
    linked = [c for c in graphdata.components(data) if len(c) > 1]
    return {
        "name": f"graph {name}",
        "records": len(data.nodes),
        "edges": len(data.edges),
        "components": len(linked),
        "largest": max((len(c) for c in linked), default=0),
        "crossings_naive": placed.crossings_naive,
        "crossings": placed.crossings,
        "removed": (
            f"{1 - placed.crossings / placed.crossings_naive:.0%}"
            if placed.crossings_naive
            else "-"
        ),
        "seconds": round(seconds, 2),
        "width_px": round(placed.width),
    }


def run(workdir: Path) -> list[dict[str, Any]]:
    project = workdir / "graph-generated"
    if not (project / "docs").is_dir():
        generate(project, RECORDS)
    config = from_options(
        {}, project_dir=project, docs_dir=project / "docs", config_file=project / "mkdocs.yml"
    )
    data = graphdata.build(load(config))
    return [measure("generated", data), measure("woven", woven())]


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tmp)
        for row in run(folder):
            print(row)
