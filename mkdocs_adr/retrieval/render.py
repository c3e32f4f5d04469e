"""Plain-text rendering of a ``context`` or ``find`` response, for people.

It shows the same page as the JSON (same units, same cursor); hashes are left
to ``--json`` rather than shortened, because identifiers are never cut.
"""

from __future__ import annotations

from typing import Any

from .budget import MAX_CODEPOINTS

#: Said where a unit's text was shortened so the printed page keeps the budget.
CUT = "    [... cut to keep this page within the budget; --json shows the whole text]"


def _indent(text: str, pad: str = "    ") -> str:
    return "\n".join(pad + line if line.strip() else "" for line in text.splitlines())


def render(data: dict[str, Any]) -> str:
    """The page as text, never longer than the JSON's budget of code points.

    Indenting a unit's text adds to every line, so a page whose JSON fills its
    budget could print longer than it; the last texts are then shortened, each
    with a note saying so, and every header, id and path is kept whole.
    """
    texts: list[str] = [_indent(u["text"]) if u["text"] else "" for u in data["units"]]
    page = _render(data, texts)
    excess = len(page) - MAX_CODEPOINTS
    for n in range(len(texts) - 1, -1, -1):
        if excess <= 0:
            break
        if not texts[n]:
            continue
        keep = max(0, len(texts[n]) - excess - len(CUT) - 1)
        cut = texts[n][:keep].rstrip()
        shortened = f"{cut}\n{CUT}" if cut else CUT
        excess -= len(texts[n]) - len(shortened)
        texts[n] = shortened
    return _render(data, texts)


def _render(data: dict[str, Any], texts: list[str]) -> str:
    out = [_title(data)]
    overview = data.get("overview")
    if overview is not None:
        out += _overview(overview)
    out += _succession(data.get("succession"))
    out += _layers(data.get("layers"), data.get("coverage_detail"))
    out += _units(data, texts)
    if not data["units"] and overview is None:
        out.append("")
        out.append("Nothing matched.")
    out.append("")
    out += _footer(data)
    return "\n".join(out) + "\n"


def _title(data: dict[str, Any]) -> str:
    """The question, as a command line."""
    kind = data["schema"].rsplit("/", 1)[-1]
    query = data["query"]
    if kind == "context":
        what = query.get("id") or (
            f"--domain {query['domain']}"
            if "domain" in query
            else f"--iteration {query['iteration']}"
            if "iteration" in query
            else "overview"
        )
        return f"mkdocs-adr context {what} (intent {query['intent']})"
    parts = [f"--path {p}" for p in query["paths"]]
    parts += [f"--component {c}" for c in query["components"]]
    if query.get("topic"):
        parts.append(f"--topic {query['topic']!r}")
    status = query["status"]
    parts.append(f"status {status if isinstance(status, str) else ', '.join(status)}")
    return "mkdocs-adr find " + " ".join(parts)


def _succession(succ: dict[str, Any] | None) -> list[str]:
    if not succ:
        return []
    line = f"Succession: {succ['asked']} is {succ['status']}"
    if succ.get("current"):
        line += f"; current successor {succ['current']} (via {' → '.join(succ['chain'])})"
    elif succ.get("state") == "ambiguous":
        line += f"; ambiguous successors: {', '.join(succ['candidates'])} (none chosen)"
    elif succ.get("state") not in (None, "none", "current"):
        line += f"; successor state {succ['state']}"
    return [line]


def _layers(layers: dict[str, Any] | None, detail: dict[str, Any] | None) -> list[str]:
    if layers is None:
        return []
    graph = layers["project-graph"]

    def matched(name: str) -> int:
        return int(layers.get(name, {}).get("matched", 0))  # a layer left out matched none

    topic = layers.get("topic", {})
    out = [
        "Layers: "
        f"paths {matched('affected-paths')}, "
        f"components {matched('affected-components')}, "
        f"project graph {graph['state']}"
        + (f" ({graph['matched']})" if "matched" in graph else "")
        + f", relations {matched('relations')}"
        + (f", topic over {topic['ranked_over']}" if topic.get("used") else "")
    ]
    left = layers["status"]["filtered_out"]
    if left:
        line = "Left out by status: " + ", ".join(f"{n} {s}" for s, n in left.items())
        widen = (detail or {}).get("widen")
        if widen:
            line += f"; widen: {widen}"
        out.append(line)
    return out


def _units(data: dict[str, Any], texts: list[str]) -> list[str]:
    out: list[str] = []
    first = data["total"] - data["omitted"] - len(data["units"]) + 1
    for n, (unit, text) in enumerate(zip(data["units"], texts, strict=True), start=max(first, 1)):
        out.append("")
        head = f"[{n}] {unit['id']}"
        if "segment" in unit:
            head += f" (segment {unit['segment']} of {unit['segments']})"
        head += f"  {unit['status']}"
        if unit.get("label"):
            head += f" ({unit['label']})"
        if unit.get("group"):
            head += f", AGAINST: {unit['verdict']}"
        if unit.get("archived"):
            head += ", archived"
        out.append(f"{head}  {unit['title']}")
        out.append(f"    {unit['path']}")
        extra = f"  [{unit['layer']}]" if "layer" in unit else ""
        out.append(f"    why: {unit['why']}{extra}")
        if text:
            out.append("")
            out.append(text)
    return out


def _footer(data: dict[str, Any]) -> list[str]:
    """Coverage, budget, CURRENT's state, warnings and where to go next."""
    detail = data["coverage_detail"]
    line = f"Coverage: {data['coverage']}"
    if detail["missing"]:
        line += f"; required not yet shown: {', '.join(detail['missing'])}"
        if detail.get("missing_omitted"):
            line += f" (+{detail['missing_omitted']} more)"
    budget = data["budget"]
    out = [
        line,
        f"Shown {len(data['units'])} of {data['total']} unit(s), {data['omitted']} left; "
        f"{budget['codepoints']} of {budget['codepoints_max']} code points (JSON), "
        f"{budget['bytes']} bytes, ~{budget['tokens_estimate']} tokens "
        "(estimate: bytes/4)",
    ]
    states = "; ".join(f"{r['path']} {r['state']}" for r in data["freshness"]["roots"])
    out.append(f"CURRENT: {states or 'no roots'}")
    out += [f"Warning: {warning}" for warning in data["warnings"]]
    if data.get("warnings_omitted"):
        out.append(f"Warning: {data['warnings_omitted']} more not shown (see --json or plan)")
    nav = data["navigation"]
    if nav["next"]:
        out.append(f"Next page: {nav['next']}")
    out += [f"Also: {hint}" for hint in nav["hints"]]
    return out


def _overview(ov: dict[str, Any]) -> list[str]:
    out = ["", "Roots"]
    for root in ov["roots"]:
        out.append(
            f"  {root['path']}  [{root['layout']}, prefix {root['prefix']}]  "
            f"{root['records']} records, {root['archived']} archived, {root['units']} units"
        )
    statuses = ", ".join(f"{n} {s}" for s, n in ov["statuses"].items()) or "no records"
    out.append(f"Statuses: {statuses}; {ov['in_effect']} in effect")
    if ov["domains"]:
        more = f" (+{ov['domains_omitted']} more)" if ov.get("domains_omitted") else ""
        out.append("Domains: " + ", ".join(f"{d} ({n})" for d, n in ov["domains"].items()) + more)
    if ov["iterations"]:
        more = f" (+{ov['iterations_omitted']} more)" if ov.get("iterations_omitted") else ""
        out.append(
            "Iterations: " + ", ".join(f"{i} ({n})" for i, n in ov["iterations"].items()) + more
        )
    if ov["problems"]:
        out.append(
            "Problems: "
            + ", ".join(f"{n} {s}" for s, n in ov["problems"].items())
            + " (run mkdocs-adr plan)"
        )
    return out
