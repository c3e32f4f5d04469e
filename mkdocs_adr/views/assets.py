"""The one stylesheet the site views need: badges, header, pager, graph containers.

Banners need none of it (they are the themes' own admonitions) and graphs carry their
own presentation attributes, so pages stay readable even if this file is dropped.
Colours that sit on the page background follow it: ``currentColor`` and translucent
greys work in Material's light (``default``) and dark (``slate``) schemes and in the
``mkdocs`` theme's light and dark modes.
"""

from __future__ import annotations

from .page import BADGE_CLASS, NAV_STATUS, NAV_STATUS_PREFIX
from .palette import NARROW_SCREEN, STATUS_FILL

CSS_PATH = "assets/mkdocs-adr/adr.css"

#: Material's page-status icon of each ADR status (our own 24x24 shapes, drawn as a
#: mask in the status colour; :data:`mkdocs_adr.views.page.NAV_STATUS` has the tooltips).
NAV_ICONS: dict[str, str] = {
    "proposed": "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zm0 3a6 6 0 1 1 0 12 6 6 0 0 1 0-12z",
    "draft": "M4 20v-3.5L15.5 5 19 8.5 7.5 20zM17 3.5 18.5 2 22 5.5 20.5 7z",
    "superseded": "M3 11h13.2l-4.6-4.6L13 5l7 7-7 7-1.4-1.4 4.6-4.6H3z",
    "deprecated": "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zM6 11h12v2H6z",
    "rejected": (
        "M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z"
    ),
    "unknown": "M12 2 22 12 12 22 2 12zm0 3.5L5.5 12l6.5 6.5 6.5-6.5z",
    "missing": "M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z",
}


#: The INDEX table as cards, one per record, each cell labelled: where the table would be
#: wider than its column. Chosen by the width of the table's own container (a container
#: query: the content column differs by theme), and by the viewport in browsers without
#: container queries.
CARD_RULES = """
  .adr-index-table table, .md-typeset .adr-index-table table:not([class]),
  .adr-index-table table tbody, .adr-index-table table tr, .adr-index-table table td {
    display: block; width: auto; }
  .adr-index-table table thead { display: none; }
  .adr-index-table.adr-js table thead { display: block; }
  .adr-index-table.adr-js table thead tr { display: flex; flex-wrap: wrap; gap: 0.2em 0.8em; }
  .md-typeset .adr-index-table.adr-js table:not([class]) thead th,
  .md-typeset .adr-index-table.adr-js table:not([class]) thead th[data-key],
  .adr-index-table.adr-js table thead th, .adr-index-table.adr-js table thead th[data-key] {
    display: block; border: 0; padding: 0.2em 0; min-width: 0; }
  .md-typeset .adr-index-table table tr, .adr-index-table table tr {
    border-top: 1px solid rgba(127, 127, 127, 0.35); padding: 0.4em 0; }
  .md-typeset .adr-index-table table:not([class]) td, .adr-index-table table td {
    border: 0; padding: 0.1em 0.6em; }
  .adr-index-table .adr-cell-id { display: inline; max-width: none; }
  .adr-index-table table td::before { content: attr(data-label) ": "; opacity: 0.7; }
  .adr-index-table table td:empty { display: none; }
"""


def _card(condition: str) -> str:
    return f"{condition} {{{CARD_RULES}}}"


def _nav_icons() -> str:
    rules = []
    for status in NAV_STATUS:
        mask = (
            "url(\"data:image/svg+xml;charset=utf-8,<svg xmlns='http://www.w3.org/2000/svg' "
            f"viewBox='0 0 24 24'><path fill-rule='evenodd' d='{NAV_ICONS[status]}'/></svg>\")"
        )
        rules.append(
            f".md-status--{NAV_STATUS_PREFIX}{status}:after {{ -webkit-mask-image: {mask}; "
            f"mask-image: {mask}; background-color: {STATUS_FILL[status]}; }}"
        )
    return "\n".join(rules)


def stylesheet() -> str:
    badges = "\n".join(
        f".{BADGE_CLASS}--{status} {{ background-color: {color}; }}"
        for status, color in STATUS_FILL.items()
    )
    return (
        f"""/* mkdocs-adr: record header, badges, pager and graph containers. */
.adr-header {{ margin: 0.4em 0 1em; font-size: 0.92em; }}
.adr-meta {{ display: flex; flex-wrap: wrap; align-items: center; gap: 0.35em 1em;
  margin: 0 0 0.4em; }}
.adr-id {{ font-weight: 700; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas,
  monospace; }}
.{BADGE_CLASS} {{ display: inline-block; padding: 0.05em 0.6em; border-radius: 1em;
  color: #fff; font-weight: 600; font-size: 0.9em; line-height: 1.6; white-space: nowrap;
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
.adr-views {{ margin: -0.4em 0 1.2em; font-size: 0.92em; }}
.adr-views strong {{ font-weight: 600; }}
.adr-note {{ opacity: 0.8; }}
.adr-pending {{ font-style: italic; }}
.adr-index [hidden] {{ display: none !important; }}
.adr-filters {{ display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0.5em 1em;
  margin: 0.8em 0 0.6em; font-size: 0.9em; }}
.adr-filters label {{ display: flex; flex-direction: column; gap: 0.15em; min-width: 0;
  max-width: 100%; }}
.adr-filters label span {{ opacity: 0.75; font-size: 0.9em; }}
.adr-filters input, .adr-filters select {{ font: inherit; color: inherit;
  background-color: transparent; max-width: 100%; box-sizing: border-box;
  padding: 0.2em 0.4em; border: 1px solid rgba(127, 127, 127, 0.55); border-radius: 0.2em; }}
.adr-filters select option {{ color: initial; background-color: initial; }}
.adr-count {{ opacity: 0.75; padding-bottom: 0.25em; }}
.adr-index-table {{ container: adr-index / inline-size; }}
.md-typeset .adr-index-table {{ font-size: 0.64rem; }}
.adr-index-table table, .md-typeset .adr-index-table table:not([class]) {{
  display: table; width: 100%; max-width: 100%; table-layout: auto; margin: 0; }}
.md-typeset .adr-index-table .md-typeset__scrollwrap {{ margin: 0 0 1em; overflow-x: visible; }}
.md-typeset .adr-index-table .md-typeset__table {{ display: block; padding: 0; }}
.adr-index-table .adr-cell-id {{ display: inline-block; max-width: 9em; }}
.adr-index-table table th, .adr-index-table table td,
.md-typeset .adr-index-table table:not([class]) th {{ overflow-wrap: break-word;
  word-break: normal; vertical-align: top; min-width: 0; }}
.adr-index-table table td.adr-col-title, .adr-index-table table td.adr-col-id {{
  overflow-wrap: anywhere; }}
.adr-index-table .adr-tag {{ white-space: nowrap; }}
.adr-index-table .adr-cell-id--short {{ white-space: nowrap; }}
.md-typeset .adr-index-table table:not([class]) th[data-key="title"],
.adr-index-table table th[data-key="title"] {{ min-width: 8em; }}
.md-typeset .adr-index-table table:not([class]) th,
.md-typeset .adr-index-table table:not([class]) td {{ padding: 0.6em 0.7em; }}
.adr-index-table table td.adr-col-date {{ white-space: nowrap; }}
.adr-sort {{ font: inherit; font-weight: inherit; color: inherit; background: none;
  border: 0; padding: 0; margin: 0; cursor: pointer; text-align: inherit; }}
.adr-sort::after {{ content: " \\2195"; opacity: 0.45; }}
th[aria-sort="ascending"] .adr-sort::after {{ content: " \\25B2"; opacity: 0.9; }}
th[aria-sort="descending"] .adr-sort::after {{ content: " \\25BC"; opacity: 0.9; }}
.adr-index-table .adr-tag {{ margin: 0 0.2em 0.15em 0; }}
{_card("@media screen and (max-width: 37.5em)")}
{_card("@container adr-index (max-width: 46em)")}
.adr-timeline-month {{ margin: 0.4em 0 1.4em; }}
.adr-timeline-entry {{ display: flex; flex-wrap: wrap; align-items: baseline;
  gap: 0.2em 0.6em; padding: 0.35em 0 0.35em 0.8em; min-width: 0;
  border-left: 3px solid rgba(127, 127, 127, 0.45); overflow-wrap: anywhere; }}
.adr-timeline-entry > * {{ min-width: 0; max-width: 100%; }}
.adr-timeline-date {{ font-variant-numeric: tabular-nums; opacity: 0.8; white-space: nowrap; }}
.adr-timeline-title {{ font-weight: 600; }}
{_nav_icons()}
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
