"""The colours and the one breakpoint that every drawing of the log shares: the SVG
graphs (:mod:`.svg`), the stylesheet's badges and nav icons (:mod:`.assets`), and the
DOT and Mermaid exports. Kept apart from the SVG layout so a build that draws nothing
(a replayed one, docs/adr/0060) can write the stylesheet without importing it."""

from __future__ import annotations

#: Below this width (px) the graph page shows the drawing packed to a phone's column
#: instead of the wide one (assets.GRAPH_CSS, :data:`mkdocs_adr.views.svg.NARROW`).
NARROW_SCREEN = 600

#: Node fill per status; every fill carries white text at a contrast of 4.5:1 or more.
STATUS_FILL: dict[str, str] = {
    "accepted": "#2e7d32",
    "proposed": "#1565c0",
    "draft": "#5f6368",
    "superseded": "#a04a00",
    "deprecated": "#6d4c41",
    "rejected": "#c62828",
    "unknown": "#6a1b9a",
    "missing": "#455a64",
}
