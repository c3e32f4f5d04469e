"""The text of a replacement record, in the log's own style.

:func:`mkdocs_adr.authoring.compose.compose` fills the style's skeleton (or the
root's template) with title, status, date and id; this module writes the three
sections a replacement needs into it: Context (why, and the sources it cites),
Decision (every carried constraint as a list item ending with its source) and
Consequences (what the old records become). Sections the skeleton lacks are
added at the end. Pure: no disk, no log.
"""

from __future__ import annotations

from ..authoring.compose import Fields, compose
from ..parsing.editable import Editable
from ..parsing.markdown import heading_key
from ..parsing.sections import is_decision_heading
from .coverage import Row
from .units import Constraint, render_item

CONTEXT = frozenset({"context", "context and problem statement"})
CONSEQUENCES = frozenset({"consequences"})
OPTIONS = frozenset({"considered options"})


def _section(ed: Editable, wanted: str) -> tuple[int, int] | None:
    """(heading index, end) of the first section of kind ``wanted``; ends at any heading."""
    heads = ed.headings()
    for n, (index, level, text) in enumerate(heads):
        key = heading_key(text)
        hit = (
            (wanted == "decision" and level == 2 and is_decision_heading(text))
            or (wanted == "context" and level == 2 and key in CONTEXT)
            or (wanted == "consequences" and key in CONSEQUENCES)
            or (wanted == "options" and level == 2 and key in OPTIONS)
        )
        if hit:
            end = heads[n + 1][0] if n + 1 < len(heads) else len(ed.lines)
            return index, end
    return None


def _fill(ed: Editable, wanted: str, title: str, body: list[str]) -> None:
    bounds = _section(ed, wanted)
    if bounds is None:
        ed.append_block([f"## {title}", "", *body])
        return
    head, end = bounds
    tail = [""] if end < len(ed.lines) else []
    ed.lines[head + 1 : end] = ["", *body, *tail]


def decision_lines(rows: list[Row], by_key: dict[str, Constraint]) -> list[str]:
    out: list[str] = []
    for r in rows:
        if not r.carried:
            continue
        text = r.new_text if r.state == "changed" and r.new_text is not None else r.text
        out.extend(render_item(text, by_key[r.key]))
    return out or ["No constraint of the sources is carried over (see the coverage map)."]


def _listed(ids: list[str]) -> str:
    return f"{ids[0]} is" if len(ids) == 1 else f"{', '.join(ids)} are"


def replacement(
    style: str,
    path: str,
    fields: Fields,
    *,
    template: str | None,
    headings: frozenset[str],
    subject: str,
    sources: list[tuple[str, str, str, str]],  # (id, title, disposition, href)
    rows: list[Row],
    by_key: dict[str, Constraint],
    notes: list[str],
) -> Editable:
    """The replacement record for ``subject`` over ``sources`` (UnsafeEdit if unfillable)."""
    ed = compose(style, path, fields, source=template, headings=headings)
    cited = [
        f"- [{rid}]({href}): {title}"
        + ("" if disp == "superseded" else f" ({disp.replace('-', ' ')})")
        for rid, title, disp, href in sources
    ]
    context = [
        f"The decisions in effect on {subject} were spread over {len(sources)} records that "
        "amend, extend or partly replace one another, so a reader had to walk all of them "
        "to know the rule. This record states them whole, in one place. It restates:",
        "",
        *cited,
        "",
        "Their history, and the reasons given at the time, stay in those records.",
    ]
    whole = [rid for rid, _t, disp, _h in sources if disp == "superseded"]
    part = [rid for rid, _t, disp, _h in sources if disp == "partially-superseded"]
    consequences = [
        f"Readers find the current {subject} decisions here instead of in {len(sources)} "
        "records. "
        + (f"{_listed(whole)} superseded by this record. " if whole else "")
        + (
            f"{_listed(part)} superseded only in part: what this record does not "
            "carry stays in effect there. "
            if part
            else ""
        )
        + "Each item above names the record it comes from.",
    ]
    if notes:
        consequences += ["", *notes]
    _fill(ed, "context", "Context", context)
    if _section(ed, "options") is not None:
        _fill(
            ed,
            "options",
            "Considered Options",
            [
                "* Restate the decisions in effect in one record",
                f"* Keep reading the {len(sources)} records together",
            ],
        )
    _fill(ed, "decision", "Decision", decision_lines(rows, by_key))
    _fill(ed, "consequences", "Consequences", consequences)
    return ed
