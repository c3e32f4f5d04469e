"""Terminal text for archive and restore previews, review cards and receipts."""

from __future__ import annotations

from typing import Any

from .service import CONFIRM

MAX_LISTED = 50


def render_preview(data: dict[str, Any]) -> str:
    """The whole preview: every record, move, link, view change, conflict and risk."""
    sections = [
        _head(data),
        _records(data),
        _links(data["links"]),
        _views(data),
        _redirects(data["redirects"]),
        _conflicts(data["conflicts"]),
        _risks(data["risks"]),
        _ineligible(data) if data["kind"] == "archive" else [],
        _notes(data.get("notes", [])),
        _tail(data),
    ]
    return "\n".join(line for section in sections for line in section) + "\n"


def _head(data: dict[str, Any]) -> list[str]:
    plan_id = data["plan_id"]
    head = f"mkdocs-adr archive{' restore' if data['kind'] == 'restore' else ''}"
    return [
        f"{head}: plan {plan_id} (version {data['plan_version']})"
        if plan_id
        else f"{head}: nothing to move",
        f"corpus {data['fingerprint'][:19]}…",
        "",
    ]


def _records(data: dict[str, Any]) -> list[str]:
    records = data["records"]
    verb = "Archive" if data["kind"] == "archive" else "Restore"
    out = [f"{verb} ({len(records)} record{'s' if len(records) != 1 else ''})"]
    if not records:
        out.append("  none")
    for rec in records:
        succ = f", successor {rec['successor']}" if rec.get("successor") else ""
        out.append(f"  {rec['id']}  {rec['title']}  [{rec['status']}{succ}]")
        out.append(f"    {rec['from']}")
        out.append(f"      -> {rec['to']}")
        for mirror in rec["mirrors"]:
            out.append(f"    mirror {mirror['from']}")
            out.append(f"      -> {mirror['to']}")
        if rec.get("url"):
            out.append(f"    URL {rec['url']['from']} -> {rec['url']['to']}")
    out.append("")
    return out


def _links(links: list[dict[str, Any]]) -> list[str]:
    out = [f"Links to rewrite ({len(links)})"]
    if not links:
        out.append("  none")
    for edit in links[:MAX_LISTED]:
        where = f"{edit['page']}:{edit['line']}"
        out.append(f"  {where}  {edit['direction']:<8} {edit['old']} -> {edit['new']}")
    if len(links) > MAX_LISTED:
        out.append(f"  … {len(links) - MAX_LISTED} more (use --json for all)")
    out.append("")
    return out


def _views(data: dict[str, Any]) -> list[str]:
    out = ["Views"]
    for item in data["index"]:
        out.append(f"  INDEX    {item['path']}: {item['state']}, {item['change']}")
        for line in item.get("diff", [])[:MAX_LISTED]:
            out.append(f"           {line}")
    for item in data["manifest"]:
        out.append(
            f"  manifest {item['path']}: {item['state']}"
            + (f" ({len(item['changes'])} value(s))" if item["changes"] else "")
        )
        for change in item["changes"]:
            out.append(
                f"           {change['id']} {change['field']}: "
                f"{_short(change['from'])} -> {_short(change['to'])}"
            )
    if not data["index"] and not data["manifest"]:
        out.append("  no change")
    out.append("")
    return out


def _redirects(redirects: list[dict[str, Any]]) -> list[str]:
    if not redirects:
        return []
    out = ["Old URLs"]
    for item in redirects:
        how = "redirect page" if item["redirect_page"] else "no redirect (redirects: false)"
        out.append(f"  {item['from_url']} -> {item['to_url']} ({how})")
    out.append("")
    return out


def _conflicts(conflicts: list[dict[str, Any]]) -> list[str]:
    out = [f"Conflicts ({len(conflicts)})"]
    if not conflicts:
        out.append("  none")
    for item in conflicts:
        out.append(f"  {item['message']}")
        if item.get("fix"):
            out.append(f"    fix: {item['fix']}")
    out.append("")
    return out


def _risks(risks: list[dict[str, Any]]) -> list[str]:
    if not risks:
        return []
    return ["Risks", *(f"  {item['message']}" for item in risks), ""]


def _ineligible(data: dict[str, Any]) -> list[str]:
    ineligible = data["ineligible"]
    out = [f"Not eligible ({len(ineligible)})"]
    if not ineligible:
        out.append("  none")
    for cand in ineligible:
        out.append(f"  {cand['id']}  {cand['path']}")
        for reason in cand["reasons"]:
            out.append(f"    - {reason}")
    out.append("")
    return out


def _notes(notes: list[str]) -> list[str]:
    return [*notes, ""] if notes else []


def _tail(data: dict[str, Any]) -> list[str]:
    """The reverse operation, and how to apply (or why applying is blocked)."""
    plan_id = data["plan_id"]
    if not plan_id:
        return []
    out: list[str] = []
    reverse = data.get("reverse") or {}
    if reverse.get("command"):
        out.append(f"Reverse: {reverse['command']}")
        out.append(f"  {reverse['note']}")
    if data["blocking"]:
        out.append("Applying is blocked by the conflicts above; fix them and plan again.")
    else:
        out.append(f"Apply: {CONFIRM.format(plan_id=plan_id)}")
    return out


def review_card(data: dict[str, Any]) -> str:
    """The short card shown before the prompt (SPEC 7)."""
    kind = data["kind"]
    ids = ", ".join(r["id"] for r in data["records"])
    redirected = any(r["redirect_page"] for r in data["redirects"])
    lines = [
        f"Review {kind} plan {data['plan_id']} (version {data['plan_version']})",
        f"  records: {ids}",
        f"  moves: {len(data['moves'])} file(s); links rewritten: {len(data['links'])} in "
        f"{len({e['page'] for e in data['links']})} file(s)",
        "  views: "
        + (
            ", ".join(
                f"{i['path']} {i['change']}"
                for i in data["index"] + data["manifest"]
                if i.get("change") or i.get("state") == "updated"
            )
            or "no change"
        ),
        f"  old URLs get a redirect page: {'yes' if redirected else 'no'}",
        f"  conflicts: {len(data['conflicts'])}; risks: {len(data['risks'])}",
    ]
    if kind == "archive":
        lines.append("  statuses do not change; the archive keeps every id and number")
    else:
        lines.append("  statuses do not change: restoring a location never restores a decision")
    return "\n".join(lines)


def render_receipt(receipt: dict[str, Any]) -> str:
    out = [
        f"{receipt['kind']} plan {receipt['plan_id']}: {receipt['outcome']} "
        f"(receipt {receipt.get('receipt')})"
    ]
    for name, part in sorted(receipt.get("parts", {}).items()):
        out.append(f"  {name}: {part['state']} ({len(part['steps'])} step(s))")
    for move in receipt.get("moves", []):
        out.append(f"  moved {move['from']} -> {move['to']}")
    for problem in receipt.get("problems", []):
        out.append(f"  problem: {problem}")
    for line in receipt.get("undone", []):
        out.append(f"  {line}")
    return "\n".join(out) + "\n"


def _short(value: Any) -> str:
    text = str(value)
    return text[:12] + "…" if len(text) == 64 else text
