"""Container records: several decisions in one file, each with its own status.

Any record is a container when its frontmatter says ``style: container`` or
lists ``units:``, or when its body has ``## D<n>. Title`` headings each with a
``Status:`` line. The record's style is then ``container`` whatever its status
signal; its own status comes from its units. Read only: the change commands
refuse a container (each unit has its own status).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ... import rx
from ...model import OUT_OF_EFFECT, Problem, Relation, Severity, Unit
from .. import bounds
from ..markdown import Document
from ..options import ParseOptions
from ..status import link_line, relations_in_text
from .base import Format

UNIT_HEADING = rx.compile(r"^D(\d{1,3})\s*[.:)\-–—]?\s+(.+)$")
_D_DIGIT = rx.compile(r"D\d")
#: ``- **Status**: accepted``; the key is a name of at most 64 characters, and the value
#: is read as ``(.*\S|.)`` (the same text as ``(.+?)\s*$``, without backtracking).
UNIT_STATUS = rx.compile(
    r"^\s*+[-*+]?\s*+\**([^\W\d_][\w ]{0,63}?)\**+\s*+[:：]\s*\**\s*(.*\S|.)\s*$"
)


def status_of(units: list[Unit]) -> str:
    statuses = {u.status for u in units}
    if "accepted" in statuses:
        return "accepted"
    if statuses and statuses <= OUT_OF_EFFECT:
        return "superseded" if "superseded" in statuses else sorted(statuses)[0]
    if statuses & {"proposed", "draft"}:
        return "proposed"
    return "unknown"


def read_units(
    doc: Document,
    fm: Mapping[str, Any],
    options: ParseOptions,
    path: str,
    problems: list[Problem],
) -> list[Unit]:
    declared = fm.get("style") == "container" or "units" in fm
    body = doc.body_text if doc.body_text is not None else doc.text
    # a unit heading's text starts "D<digit>", and every heading's text is in the body
    if not declared and _D_DIGIT.search(body) is None:
        return []
    if not declared and not any(
        h.level == 2 and h.text[:1] == "D" and UNIT_HEADING.match(h.text) for h in doc.headings
    ):
        return []  # only a unit heading makes an undeclared record a container
    fm_units: dict[str, Mapping[str, Any]] = {}
    if isinstance(fm.get("units"), list):
        for item in fm["units"]:
            if isinstance(item, Mapping):
                key = str(item.get("id") or item.get("key") or "").split("#")[-1].upper()
                if re.fullmatch(r"D\d{1,3}", key):
                    fm_units[key] = item
    units: list[Unit] = []
    any_status = False
    for sec in doc.sections(level=2):
        m = UNIT_HEADING.match(sec.name)
        if not m:
            continue
        key = f"D{int(m.group(1))}"
        raw, line = "", sec.heading.line
        rels: list[Relation] = []
        for lineno, text in doc.body(sec):
            sm = UNIT_STATUS.match(bounds.line(text)) if (":" in text or "：" in text) else None
            if sm and sm.group(1).strip().lower() in options.status_headings and not raw:
                raw, line = sm.group(2), lineno
                rels.extend(relations_in_text(raw, "status-section", lineno))
                continue
            if raw and "](" in text and text.strip():  # (a link line holds a "](")
                rels.extend(
                    r
                    for r in link_line(text, "status-section", lineno)
                    if r.kind != "relates-to"
                    or r.verb.lower() in {"relates to", "related to", "clarifies", "clarified by"}
                )
        meta = fm_units.pop(key, None)
        if not raw and meta is not None and meta.get("status"):
            raw = str(meta["status"])
        if raw:
            any_status = True
        reading = options.read_status(raw) if raw else None
        status = reading.status if reading else "missing"
        units.append(
            Unit(
                key=key,
                title=m.group(2).strip(),
                status=status,
                raw_status=raw,
                line=line,
                text=doc.section_text(sec, stop_at_subheading=False),
                relations=tuple(rels),
            )
        )
        if status in ("unknown", "missing"):
            problems.append(
                Problem(
                    "ADR001",
                    Severity.WARNING,
                    f"decision unit {key} has "
                    + (f"status {raw!r}, which is not a known status" if raw else "no status"),
                    path=path,
                    line=line,
                    fix=f"add a 'Status: accepted' (or another status) line under '## {key}.'",
                )
            )
    for key, meta in sorted(fm_units.items()):
        raw = str(meta.get("status") or "")
        reading = options.read_status(raw) if raw else None
        any_status = any_status or bool(raw)
        units.append(
            Unit(
                key=key,
                title=str(meta.get("title") or key),
                status=reading.status if reading else "missing",
                raw_status=raw,
                line=1,
            )
        )
    if not (declared or any_status):
        return []
    return sorted(units, key=lambda u: int(u.key[1:]))


FORMAT = Format(
    "container",
    "decision units '## D<n>. Title', each with a 'Status:' line, in any format",
    forced=("frontmatter", "nygard", "inline"),
)
