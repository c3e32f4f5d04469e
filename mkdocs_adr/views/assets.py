"""The one stylesheet the site views need: badges, header, pager, graph containers.

Banners need none of it (they are the themes' own admonitions) and graphs carry their
own presentation attributes, so pages stay readable even if this file is dropped.
Colours that sit on the page background follow it: ``currentColor`` and translucent
greys work in Material's light (``default``) and dark (``slate``) schemes and in the
``mkdocs`` theme's light and dark modes.
"""

from __future__ import annotations

from .svg import NARROW_SCREEN, STATUS_FILL

CSS_PATH = "assets/mkdocs-adr/adr.css"


def stylesheet() -> str:
    badges = "\n".join(
        f".adr-badge--{status} {{ background-color: {color}; }}"
        for status, color in STATUS_FILL.items()
    )
    return (
        f"""/* mkdocs-adr: record header, badges, pager and graph containers. */
.adr-header {{ margin: 0.4em 0 1em; font-size: 0.92em; }}
.adr-meta {{ display: flex; flex-wrap: wrap; align-items: center; gap: 0.35em 1em;
  margin: 0 0 0.4em; }}
.adr-id {{ font-weight: 700; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas,
  monospace; }}
.adr-badge {{ display: inline-block; padding: 0.05em 0.6em; border-radius: 1em;
  color: #fff; font-weight: 600; font-size: 0.9em; line-height: 1.6;
  background-color: {STATUS_FILL["unknown"]}; }}
{badges}
.adr-tag {{ display: inline-block; padding: 0 0.5em; border-radius: 1em;
  border: 1px dashed currentColor; font-size: 0.85em; line-height: 1.6; }}
.adr-label {{ opacity: 0.75; }}
.adr-relations {{ margin: 0.3em 0 0.5em; }}
.adr-relations li {{ margin-bottom: 0.1em; }}
.adr-units {{ font-size: 0.95em; }}
.adr-ref--text {{ font-style: italic; }}
.adr-translations {{ font-size: 0.92em; }}
.adr-graph {{ overflow-x: auto; margin: 0.6em 0 1.2em; }}
.adr-graph svg, .md-typeset .adr-graph svg {{ display: block; max-width: none;
  height: auto; }}
.adr-graph a, .adr-graph a text {{ text-decoration: none; }}
.adr-graph a:focus rect, .adr-graph a:hover rect {{ stroke: currentColor;
  stroke-width: 3px; }}
.adr-graph-legend {{ display: block; margin: 0.4em 0 0.8em; max-width: 100%;
  height: auto; }}
.adr-local-graph {{ margin-top: 2em; }}
.adr-local-graph .adr-graph svg, .md-typeset .adr-local-graph .adr-graph svg {{
  max-width: 100%; }}
.adr-pager {{ display: flex; justify-content: space-between; align-items: baseline;
  gap: 1em; margin-top: 2em; padding-top: 0.6em;
  border-top: 1px solid rgba(127, 127, 127, 0.35); font-size: 0.92em; }}
.adr-pager .adr-prev, .adr-pager .adr-next {{ flex: 1 1 0; }}
.adr-pager .adr-next {{ text-align: right; }}
.adr-pager-views {{ white-space: nowrap; }}
.adr-index td:first-child, .adr-index td:nth-child(4) {{ white-space: nowrap; }}
.adr-isolated {{ columns: 16em auto; font-size: 0.92em; }}
@media print {{
  .adr-graph {{ overflow: visible; }}
  .adr-graph svg, .md-typeset .adr-graph svg {{ max-width: 100%; }}
  .adr-pager {{ display: none; }}
}}
"""
        + GRAPH_CSS
    )


#: The graph drawings and their key (ADR-0039): a drawing takes the column's width and
#: never more than its own (its inline ``max-width``), so nothing scrolls sideways; on a
#: narrow screen the graph page shows its drawings packed to a phone's column instead
#: (``adr-graph-narrow``); the key is a wrapping list of small drawings.
GRAPH_CSS = """/* mkdocs-adr: graphs. */
.adr-graph svg.adr-graph-svg, .md-typeset .adr-graph svg.adr-graph-svg {
  display: block; width: 100%; height: auto; }
ul.adr-graph-legend, .md-typeset ul.adr-graph-legend { display: flex; flex-wrap: wrap;
  gap: 0.2em 1.1em; list-style: none; margin: 0.4em 0 0.8em; padding: 0; max-width: 100%; }
.adr-graph svg.adr-graph-narrow, .md-typeset .adr-graph svg.adr-graph-narrow {
  display: none; width: 100%; height: auto; }
@media screen and (max-width: NARROW_MAXpx) {
  .adr-graph svg.adr-graph-narrow ~ svg.adr-graph-svg,
  .md-typeset .adr-graph svg.adr-graph-narrow ~ svg.adr-graph-svg { display: none; }
  .adr-graph svg.adr-graph-narrow, .md-typeset .adr-graph svg.adr-graph-narrow {
    display: block; }
}
ul.adr-graph-legend li, .md-typeset ul.adr-graph-legend li { margin: 0; padding: 0; }
ul.adr-graph-legend svg, .md-typeset ul.adr-graph-legend svg { display: block;
  max-width: 100%; height: auto; }
""".replace("NARROW_MAX", str(NARROW_SCREEN - 1))
