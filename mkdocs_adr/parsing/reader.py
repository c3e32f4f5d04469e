"""The parse pipeline: bytes -> text -> scan -> format detectors -> :class:`Parsed`.

What a format reads beyond what every record has is in its module in
:mod:`.formats`; what every record has (frontmatter relation keys, ``Key:
value`` fields, a ``## Links`` list) is in :mod:`.common`.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
import re
from collections.abc import Iterator
from typing import Any

from .. import rx
from ..identity import record_name
from ..model import STATUSES, TOO_DEEP, Parsed, Problem, Relation, Severity
from . import bounds, titles
from .common import (
    declarations,
    field_relations,
    first_h2,
    fm_line,
    frontmatter_relations,
    inline_fields,
    links_section,
    related_labels,
)
from .dates import DATE_HEADINGS, parse_date, pick_date
from .decoding import decode
from .formats import DATE_FROM_STATUS, DETECTORS, FORCED, VARIANTS, Context, Hit, container
from .markdown import (
    Document,
    Heading,
    links,
    matches_except,
    scan,
    unbraced,
    without_comments,
)
from .options import ParseOptions
from .status import FRONTMATTER_KEYS, relation_line

#: The detectors tried when the ``style`` option is ``auto``.
_ALL = tuple(DETECTORS)
#: Frontmatter statuses that stand as they are written (no alias, nothing to weigh).
_AS_IS = frozenset(STATUSES[:6])


def parse_bytes(data: bytes, *, path: str, options: ParseOptions) -> Parsed:
    text, problems = decode(data, path, options.max_bytes)
    name = record_name(path)
    if text is None:
        return Parsed(
            style="unreadable",
            title=titles.from_file_name(name, options.prefixes),
            status="unknown",
            raw_status="",
            problems=tuple(problems),
        )
    parsed, doc = _parse(text, path, options)
    # a line over the render bound has more characters than the bound, and only the
    # body's lines count: most records have no body line that long (no split of the text)
    long_line = len(text) > bounds.RENDER_INLINE and max(map(len, doc.lines)) > bounds.RENDER_INLINE
    for line in bounds.over_render_bound(text) if long_line else ():
        if line >= parsed.body_start:  # frontmatter is never rendered
            count = bounds.inline_marks(text.split("\n", line)[line - 1])
            problems.append(bounds.render_bound_problem(path, line, count))
    cut = bounds.over_blank_bound(text)
    if cut is not None and cut >= parsed.body_start:
        problems.append(bounds.blank_bound_problem(path, cut))
    deep = [n for n in bounds.over_depth_bound(text) if n >= parsed.body_start]
    if deep:
        problems.append(bounds.depth_bound_problem(path, deep))
    if problems:
        parsed = _with_problems(parsed, problems)
    return parsed


def _with_problems(parsed: Parsed, extra: list[Problem]) -> Parsed:
    return dataclasses.replace(parsed, problems=(*extra, *parsed.problems))


#: A frontmatter value (or list item) is cut to the field bound of :mod:`.bounds` (ADR023).
FIELD_BOUND = bounds.FIELD

#: The frontmatter keys whose values are bounded: one value each, or lists of them.
_BOUNDED = (
    "title",
    "status",
    "domain",
    "iteration",
    "id",
    "tags",
    "decision-makers",
    "deciders",
    "affected-paths",
    "affected_paths",
    "affected-components",
    "affected_components",
    "redirect-from",
    "redirect_from",
    "date",
    "review-by",
    "review_by",
    *FRONTMATTER_KEYS,  # the relation keys: one reference or a list of them
)


def _cut_value(value: object) -> tuple[object, bool]:
    """``value`` with every string in it (itself, or a list's items) cut to FIELD_BOUND."""
    if isinstance(value, str):
        return (value[:FIELD_BOUND], True) if len(value) > FIELD_BOUND else (value, False)
    if isinstance(value, list):
        cut = [_cut_value(v) for v in value]
        return [v for v, _ in cut], any(c for _, c in cut)
    return value, False


def _bound_frontmatter(doc: Document, path: str) -> list[Problem]:
    """Cut the bounded frontmatter values in place, with an ADR023 for each key cut."""
    fm = doc.frontmatter
    out: list[Problem] = []
    if not fm:
        return out
    if len(doc.text) - len(doc.body_text or "") <= FIELD_BOUND:
        # no YAML string is longer than the text it is written with (escapes, folding
        # and aliases never lengthen one), so frontmatter this short holds none to cut
        return out
    for key in _BOUNDED:
        if key not in fm:
            continue
        value, cut = _cut_value(fm[key])
        if cut:
            fm[key] = value
            out.append(bounds.field_cut(key, path, fm_line(doc, key)))
    return out


#: A template's unfilled date: ``[YYYY-MM-DD when the decision was last updated]``,
#: ``{YYYY-MM-DD}``, ``yyyy-mm-dd``.
_DATE_SLOT = rx.compile(r"(?i)yyyy[-/.]mm(?:[-/.]dd)?|dd[-/.]mm[-/.]yyyy|mm[-/.]dd[-/.]yyyy")


def _date_of_the_body(doc: Document, head: Heading | None) -> tuple[str | None, str | None]:
    """(raw, ISO) of a date written alone where no field holds one: the first line of a
    ``## Date`` section (``2022-11-1``; any one-word date key, ``## 日付``), or the first
    line under the title when it is a date and nothing else (``27 July 2022``)."""
    for sec, _key in doc.keyed_sections(DATE_HEADINGS):
        for _lineno, text in doc.body(sec):
            if text.strip():
                value = text.strip()
                found = parse_date(value) if len(value) <= 40 else None
                return (value, found) if found else (None, None)
    if head is not None:
        index = head.after  # (the line after the title, counted from the body's start)
        lines = doc.lines
        while index < len(lines) and not lines[index].strip():
            index += 1
        if index < len(lines) and not doc.fenced[index]:
            value = lines[index].strip()
            if len(value) <= 24 and _ALONE_DATE.fullmatch(value):
                found = parse_date(value)
                if found:
                    return value, found
    return None, None


#: A line that is a date and nothing else: ``27 July 2022``, ``2022-07-27``, ``July 27, 2022``.
_ALONE_DATE = rx.compile(
    r"(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}\.? [A-Za-z]{3,9}\.? \d{4}|[A-Za-z]{3,9}\.? \d{1,2},? \d{4})"
)


#: The detectors whose hit far into the body gives way to a status line under the title.
_LATE_GIVES_WAY = frozenset({"nygard", "table"})


def _late(doc: Document, hit: Hit) -> bool:
    """Whether ``hit`` lies far into the body: in a section other than the record's first,
    or under a heading deeper than the second level (``### Status`` of one phase)."""
    first = first_h2(doc)
    if first is None or hit.line is None or hit.line < first:
        return False
    heading = None
    for h in doc.headings:
        if h.line > hit.line:
            break
        heading = h
    return heading is not None and (heading.line != first or heading.level > 2)


#: A file name that starts with an ISO day (``2021-06-07-use-x.md``, ``2021-06-05_001-x``).
_DATE_NAME = rx.compile(r"((?:19|20)\d\d-\d\d-\d\d)[-_.]")


def _has_subtitle(fm: dict[str, Any]) -> bool:
    """Whether the frontmatter has a ``subtitle:``: its ``title:`` then names the kind of
    document or the series (``title: Décision (MADR)``, the same in every record), and
    the record's heading names the record."""
    subtitle = fm.get("subtitle")
    return isinstance(subtitle, str) and bool(subtitle.strip())


def _yaml_fix(message: str) -> str:
    """The fix for frontmatter that does not parse, by why it does not."""
    if message.startswith(("aliases expand", "alias ")):
        return "write the values out instead of repeating anchors through aliases"
    if message.startswith(TOO_DEEP):
        return "flatten the frontmatter: keys hold values or short lists"
    if message.endswith("has no space after its colon"):
        key = message.rsplit(": ", 1)[-1].split("'")[1]
        return f"write a space after the colon ('{key}: value'), as YAML needs"
    if "cannot start any token" in message:
        return "quote the value on that line: YAML reserves '@' and '`' at a value's start"
    return "fix the YAML between the '---' lines (quote values that contain ': ')"


#: What :func:`_frontmatter_lists` gives for a record without frontmatter.
_NO_LISTS: tuple[tuple[str, ...], ...] = ((), (), (), (), ())


def _frontmatter_lists(fm: dict[str, Any]) -> tuple[tuple[str, ...], ...]:
    """The frontmatter's deciders, tags, affected paths, affected components and old
    locations (``redirect-from``), each as a list of strings."""
    return (
        _as_list(fm.get("decision-makers") or fm.get("deciders")),
        _as_list(fm.get("tags")),
        _as_list(fm.get("affected-paths") or fm.get("affected_paths")),
        _as_list(fm.get("affected-components") or fm.get("affected_components")),
        _as_list(fm.get("redirect-from") or fm.get("redirect_from")),
    )


def _as_list(value: object) -> tuple[str, ...]:
    if value is None or isinstance(value, bool):
        return ()
    if isinstance(value, dict):
        value = unbraced(value)  # ``deciders: { Ana, Ben }``, the template's braces kept
    if isinstance(value, (set, frozenset)):  # YAML's !!set: its order is the hash seed's
        value = sorted(value, key=str)
    if isinstance(value, (list, tuple)):
        return tuple(str(v).strip() for v in value if v is not None and str(v).strip())
    text = str(value).strip()
    if not text:
        return ()
    return tuple(t.strip() for t in text.split(",") if t.strip())


def parse(text: str, *, path: str, options: ParseOptions) -> Parsed:
    """Parse normalized text. Never raises for any input text."""
    return _parse(text, path, options)[0]


def _parse(text: str, path: str, options: ParseOptions) -> tuple[Parsed, Document]:
    """:func:`parse`, and the scanned document it read."""
    name = record_name(path)
    doc = scan(text)
    problems: list[Problem] = []
    problems.extend(_bound_frontmatter(doc, path))
    fm = doc.frontmatter or {}
    if doc.frontmatter_error:
        message, line = doc.frontmatter_error
        problems.append(
            Problem(
                "ADR014",
                Severity.WARNING,
                f"frontmatter does not parse: {message}",
                path=path,
                line=line,
                fix=_yaml_fix(message),
            )
        )
    ctx = Context(doc, name, options.status_headings)

    # title and heading number
    head = doc.title = titles.title_heading(doc, name, options.prefixes, options.status_headings)
    title = ""
    heading_number: int | None = None
    if head is not None:
        title, heading_number = titles.heading(head.text, name, options.prefixes)
        title = bounds.field(title, "title", path, head.line, problems)
    if (
        isinstance(fm.get("title"), (str, int, float))
        and str(fm["title"]).strip()
        and not (title and titles.is_slug(str(fm["title"])))
        and not (title and _has_subtitle(fm))
    ):
        # (a template's slot kept there gives none: the heading's, else the file name's;
        # a file's slug, ``title: 0003-use-x``, gives way to the heading's title, and so
        # does a series' or document type's name beside a ``subtitle:``)
        title = titles.frontmatter_title(str(fm["title"]), name, options.prefixes) or title
    from_name = not title
    if from_name:
        title = titles.from_file_name(name, options.prefixes)

    # status: the first detector that finds a signal decides the style
    order = FORCED.get(options.style, _ALL)
    hit: Hit | None = None
    for key in order:
        hit = _detect(key, ctx)
        if hit is not None:
            break
    if hit is not None and key in _LATE_GIVES_WAY and order is _ALL and _late(doc, hit):
        # a status section or table far into the body (a phase's progress, a legend of
        # the status words) gives way to the status line under the title
        above = _detect("inline", ctx)
        if above is not None:
            hit, key = above, "inline"
    given_way: tuple[str, Hit] | None = None
    if hit is not None and key == "frontmatter" and order is _ALL and hit.raw not in _AS_IS:
        given_way = _body_over_alias(ctx, hit, options)  # (a status word as is stands)

    relations: list[Relation] = []
    relations.extend(frontmatter_relations(doc))
    alias: str | None = None
    placeholder = False
    if hit is None:
        style = "frontmatter" if doc.frontmatter else "unknown"
        status, raw_status, status_line = "missing", "", None
    else:
        style = hit.style
        if style not in _FRONTMATTER_STYLES:  # frontmatter values have their own bound
            hit.raw = bounds.field(hit.raw, "status text", path, hit.line, problems)
            if "<!--" in hit.raw:  # ``ACCEPTED <!-- [DRAFT|ACCEPTED|...] -->``: the page
                hit.raw = without_comments(hit.raw)  # shows no comment, nor do we
        raw_status, status_line = hit.raw, hit.line
        status, alias = _status_of(hit, options)
        placeholder = options.read_status(raw_status).placeholder
        # a template's "superseded by ADR-0005" is an example, not a relation
        relations.extend(r for r in hit.relations if not (placeholder and r.line == status_line))
        problems.extend(_halves_disagree(hit, status, options, path))
    relations.extend(links_section(doc))
    relations.extend(declarations(doc, options.status_headings))

    # fields from wherever the style keeps them
    fields: dict[str, tuple[str, int]] = {}
    if hit is not None:
        fields.update(hit.fields)
    inline = inline_fields(doc)
    for key, found in inline.items():
        fields.setdefault(key, found)
    if from_name and "title" in inline and inline["title"][0].strip():
        # ``title: X`` under no heading (a frontmatter whose closing ``---`` was mistyped
        # ``--`` is fields): the writers' title, not the file name's slug
        written, title_line = inline["title"]
        named = titles.frontmatter_title(written, name, options.prefixes)
        title = bounds.field(named, "title", path, title_line, problems) or title
    relations.extend(field_relations(doc, inline))
    relations.extend(related_labels(doc))  # (after the fields: one under the title is theirs)
    for key, (text_value, lineno) in fields.items():
        if len(text_value) > bounds.FIELD:
            cut = bounds.field(text_value, f"field {key!r}", path, lineno, problems)
            fields[key] = (cut, lineno)

    raw_date, date = pick_date(fm, fields)
    if raw_date is None and style in DATE_FROM_STATUS and raw_status:
        date = parse_date(raw_status)
        raw_date = raw_status if date else None
    if raw_date is None:
        raw_date, date = _date_of_the_body(doc, head)
    if raw_date is None and name[:8].isdigit() and name[8:9] in ("-", "_"):
        # log4brains names a record by the day it was made (``20210607-use-x.md``)
        date = parse_date(name[:8])
        raw_date = name[:8] if date else None
    elif raw_date is None and name[:1] in "12" and (dashed := _DATE_NAME.match(name)):
        # and others by the same day written out (``2021-06-07-use-x.md``, ``..._001-x``)
        date = parse_date(dashed.group(1))
        raw_date = dashed.group(1) if date else None
    raw_date_text = None if raw_date is None else str(raw_date)
    if date is None and raw_date_text is not None and _DATE_SLOT.search(raw_date_text):
        raw_date_text = None  # the template's "[YYYY-MM-DD when ...]": no date was written

    listed = _frontmatter_lists(fm) if fm else _NO_LISTS
    deciders = listed[0]
    if not deciders and "deciders" in fields:
        deciders = _as_list(fields["deciders"][0])
    tags = listed[1] or (_as_list(fields["tags"][0]) if "tags" in fields else ())
    review = (fm.get("review-by") or fm.get("review_by")) if fm else None
    if review is None:
        for key in ("review by", "review-by"):
            if key in fields:
                review = fields[key][0]
    if review is None:
        review = _status_section_review(doc, options)
    explicit_id = fm.get("id")
    explicit_id = str(explicit_id).strip() if explicit_id not in (None, "") else None
    domain = fm.get("domain")

    # units of a container record
    units = container.read_units(doc, fm, options, path, problems)
    if units and hit is None:
        status, raw_status, style = container.status_of(units), "", "container"
    elif units:
        style = "container"

    if hit is not None and status == "unknown" and placeholder:
        problems.append(
            Problem(
                "ADR001",
                Severity.WARNING,
                f"status {raw_status!r} is the template's unfilled placeholder, not a status",
                path=path,
                line=status_line,
                fix="replace the template's text with the status, for example 'Accepted'",
            )
        )
    elif hit is not None and status == "unknown":
        problems.append(
            Problem(
                "ADR001",
                Severity.WARNING,
                f"status {raw_status!r} is not a known status "
                "(known: proposed, accepted, rejected, deprecated, superseded, draft)",
                path=path,
                line=status_line,
                fix="write one of the known statuses, or add a status_aliases entry",
            )
        )
    elif status == "missing" and not units:
        problems.append(
            Problem(
                "ADR020",
                Severity.INFO,
                "status not recorded",
                path=path,
                line=status_line or (head.line if head is not None else doc.offset + 1),
                fix="add a '## Status' section with a word such as 'Accepted', a "
                "'Status: accepted' line under the title or 'status: accepted' frontmatter; "
                "the missing_status option says how such records count meanwhile",
            )
        )
    if given_way is not None:
        written, body = given_way
        problems.append(
            Problem(
                "ADR018",
                Severity.INFO,
                f"frontmatter status {written!r} is a word of another vocabulary; the "
                f"body's status {body.raw!r} (line {body.line}) is read instead",
                path=path,
                line=body.line,
                fix="write the status in one place, or the same status in both",
            )
        )
    elif alias is not None:
        problems.append(
            Problem(
                "ADR018",
                Severity.INFO,
                f"status {raw_status!r} read as '{status}' (alias '{alias}')",
                path=path,
                line=status_line,
                fix=f"write '{status}' to make this explicit",
            )
        )

    # (no mention on the title's line: a reStructuredText title is no heading of the scan)
    taken = {r.line for r in relations}
    if head is not None:
        taken.add(head.line)
    relations.extend(_mentions(doc, options, hit, taken))
    parsed = _reading(
        style=style,
        title=title,
        status=status,
        raw_status=raw_status,
        status_line=status_line,
        date=date,
        raw_date=raw_date_text,
        number=heading_number,
        explicit_id=explicit_id,
        domain=str(domain) if isinstance(domain, (str, int)) and str(domain) else None,
        deciders=deciders,
        tags=tags,
        affected_paths=listed[2],
        affected_components=listed[3],
        iteration=str(fm["iteration"]) if fm.get("iteration") not in (None, "") else None,
        review_by=(parse_date(review) or str(review)) if review else None,
        redirect_from=listed[4],
        relations=tuple(_dedupe(_bounded(relations, path, problems))),
        units=tuple(units),
        body_start=doc.offset + 1,
        problems=tuple(problems),
        alias=alias,
        text=text,
    )
    return parsed, doc


#: How many fields a :class:`Parsed` has: :func:`_reading` is given all of them.
_PARSED_FIELDS = len(dataclasses.fields(Parsed))
_new_object = object.__new__


def _reading(**fields: Any) -> Parsed:
    """``Parsed(**fields)`` given every field: the object and its ``__dict__`` made in C,
    as unpickling one makes it. The frozen class's own ``__init__`` sets each of its two
    dozen fields through ``object.__setattr__``, a tenth of a reading's bytecode."""
    if len(fields) != _PARSED_FIELDS:  # pragma: no cover - a field left out: its default
        return Parsed(**fields)
    parsed: Parsed = _new_object(Parsed)
    parsed.__dict__.update(fields)
    return parsed


def _status_of(hit: Hit, options: ParseOptions) -> tuple[str, str | None]:
    """The status a hit's text reads as, and the alias it was read through."""
    reading = options.read_status(hit.raw)
    status = reading.status
    if reading.alias is not None and status == "superseded":
        # de "Ersetzt ADR-3" says what this record replaces ("ersetzt" alone is
        # "replaced"): a line of relations that names no successor states no status
        rels = relation_line(hit.raw, "", None)
        if rels and not any(r.kind == "superseded-by" for r in rels):
            return "missing", None
    if status in ("unknown", "missing") and (
        hit.links_only or (status == "unknown" and relation_line(hit.raw, "", None))
    ):
        # only relations where the status was: adr-tools `new -s` leaves link
        # lines, "被 ADR-045 取代" says "superseded by ADR-045"
        kinds = {r.kind for r in hit.relations if r.line == hit.line or hit.links_only}
        status = "superseded" if "superseded-by" in kinds else "missing"
    return status, reading.alias


def _detect(key: str, ctx: Context) -> Hit | None:
    """What detector ``key`` finds, its style a variant's when one claims it (log4brains
    of madr2, madr of frontmatter); None when it finds nothing."""
    try:
        hit = DETECTORS[key](ctx)
        if hit is not None:
            for variant, claims in VARIANTS[key]:
                if claims(ctx, hit):
                    hit.style = variant
                    break
    except (ValueError, TypeError, IndexError):  # pragma: no cover - defensive
        return None
    return hit


def _body_over_alias(ctx: Context, hit: Hit, options: ParseOptions) -> tuple[str, Hit] | None:
    """A frontmatter status read only through an alias or not at all (``status: active``
    beside ``lifecycle: active``, a document's state) gives way to a status the body
    states in a known word (``**Status:** Superseded by ADR-0164``): ``hit`` takes the
    body's status text, line and relations, keeping its style (the frontmatter stays
    what the writers edit). Returns what the frontmatter said and the body's hit, or
    None when the frontmatter's status stands."""
    written = options.read_status(hit.raw)
    if written.alias is None and written.status != "unknown":
        return None
    for key in _ALL[1:]:  # the body's detectors, in their order
        body = _detect(key, ctx)
        if body is None or not body.raw:
            continue
        reading = options.read_status(body.raw)
        if reading.alias is not None or reading.placeholder:
            return None  # an alias against an alias: the frontmatter's stands
        if reading.status in ("unknown", "missing") or reading.status == written.status:
            return None
        raw = hit.raw
        hit.raw, hit.line, hit.links_only = body.raw, body.line, body.links_only
        hit.relations.extend(body.relations)
        return raw, body
    return None


def _halves_disagree(hit: Hit, status: str, options: ParseOptions, path: str) -> list[Problem]:
    """ADR021 for each further half of a bilingual record whose status reads otherwise."""
    out: list[Problem] = []
    for half in hit.halves:
        other, _alias = _status_of(half, options)
        if other == status or {other, status} & {"unknown", "missing"}:
            continue  # an unreadable or empty status is its own problem
        out.append(
            Problem(
                "ADR021",
                Severity.WARNING,
                f"the record's status sections disagree: line {hit.line} says "
                f"{hit.raw!r} ({status}), line {half.line} says {half.raw!r} ({other})",
                path=path,
                line=half.line,
                fix="make every half of the record state the same status",
            )
        )
    return out


_REVIEW_LINE = rx.compile(r"^\s*(?:[-*+]\s+)?\**review[ -]by\**\s*[:：]\s*\**\s*(.+?)\**\s*$", re.I)


def _status_section_review(doc: Document, options: ParseOptions) -> str | None:
    """A ``Review by:`` line inside the status section (adr-tools users put it there)."""
    for sec, _key in doc.keyed_sections(options.status_headings):
        for _lineno, text in doc.body(sec):
            if text.lstrip().startswith("#"):
                break
            if "v" not in text and "V" not in text:
                continue  # no "review" in it (one look in C, not the pattern)
            m = _REVIEW_LINE.match(bounds.line(text))
            if m:
                return m.group(1)
        break
    return None


#: The styles whose status is a frontmatter value (bounded where YAML is read).
_FRONTMATTER_STYLES = frozenset({"frontmatter", "madr"})


def _bounded(relations: list[Relation], path: str, problems: list[Problem]) -> list[Relation]:
    """Relation targets read from the text, each cut at :data:`.bounds.FIELD`.

    (``dataclasses.replace`` through the module: a ``from dataclasses import replace``
    here, run on every call, raised and cleared two AttributeErrors for ``__path__``.)"""
    out: list[Relation] = []
    for rel in relations:
        if len(rel.target) > bounds.FIELD and rel.origin != "frontmatter":
            cut = bounds.field(rel.target, "relation target", path, rel.line, problems)
            rel = dataclasses.replace(rel, target=cut, label=rel.label[: bounds.FIELD])
        out.append(rel)
    return out


def _dedupe(relations: list[Relation]) -> list[Relation]:
    seen: set[tuple[str, str]] = set()
    out: list[Relation] = []
    for rel in relations:
        key = (rel.kind, rel.target)
        if key in seen:
            continue
        seen.add(key)
        out.append(rel)
    return out


_LINK_HREF = rx.compile(
    # a relative link to a Markdown file, or a forge's page of one (``.../blob/main/x.md``:
    # resolution says whether it is a file of this project)
    r"^(?:(?![a-z][a-z0-9+.-]*:|#|/)[^?#]*|https?://[^\s?#]+/blob/[^\s?#]+)\.md(?:#[^)]*)?$",
    re.IGNORECASE,
)


def _mentions(
    doc: Document, options: ParseOptions, hit: Hit | None, taken: set[int | None]
) -> list[Relation]:
    """Plain links and prose references: annotation-level ``mentions``.

    A prose reference inside a link (``[ADR-0003](0003-x.md)``) is the link's,
    not a second mention.
    """
    text = doc.unfenced_text()
    has_link = "]" in text and "](" in text  # (one character first: a fraction of the cost)
    prefixes = options.prefixes
    if not has_link and not (
        prefixes[0] in text if len(prefixes) == 1 else any(p in text for p in prefixes)
    ):
        return []  # a prose reference starts with a prefix
    out: list[Relation] = []
    base = doc.offset + 1
    # (line numbers counted on from the last match, in C: no LineCounter call per match)
    pos = line = 0
    count = text.count
    skip: set[int | None] | None = None  # made at the first match: most records have one
    # inline code is not prose: `ADR-0003` or `[x](0003-x.md)` there is an example
    spans: list[tuple[int, int]] = inline_code_spans(text) if "`" in text else []
    code_spans = _Spans(spans) if spans else _NO_SPANS
    if has_link:
        for m in links(text):
            start = m.start()
            if code_spans.covers(start):
                continue
            spans.append(m.span())
            href = m.group(2)
            if _LINK_HREF.match(href):
                if start < pos:  # (a text of many brackets gives its links from the end)
                    line = pos = 0
                line += count("\n", pos, start)
                pos = start
                if skip is None:
                    skip = taken | {h.line for h in doc.headings}
                if line + base not in skip:
                    out.append(Relation("mentions", href, "link", line + base, label=m.group(1)))
    line = pos = 0  # the prose references are counted from the start again
    found: Iterator[re.Match[str]] = (
        _prose_refs(text, options.prefixes, _Spans(spans))
        if spans
        else _prose_pattern(options.prefixes).finditer(text)  # nothing to pass over
    )
    for m in found:
        start = m.start()
        line += count("\n", pos, start)
        pos = start
        if skip is None:
            skip = taken | {h.line for h in doc.headings}
        n = line + base
        if n in skip:
            continue
        if _FORMER.search(text, max(0, start - 32), start) is not None:
            continue  # "Was previously ADR 0008": the record's own old number, no reference
        prefix, spaced, joined, lettered, decision = m.groups()
        ident = f"{prefix}-{int(spaced or joined):04d}{lettered or ''}{decision or ''}"
        out.append(Relation("mentions", ident, "prose", n))
    return out


#: Words before a prose reference that make it the record's own former number.
_FORMER = rx.compile(
    r"(?i)\b(?:previously|formerly|renumbered from|renamed from|was once)"
    r"(?:\s+(?:numbered|known as|called))?\s*$"
)


class _Spans:
    """Whether a position is inside one of some spans, by bisection (not one look per span)."""

    __slots__ = ("ends", "starts")

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [a for a, _b in ordered]
        # the furthest end of the spans that start at or before each one
        self.ends = list(itertools.accumulate((b for _a, b in ordered), max))

    def covers(self, pos: int) -> bool:
        i = bisect.bisect_right(self.starts, pos)
        return i > 0 and pos < self.ends[i - 1]


#: No spans: covers nothing (the usual record has no code span and no link).
_NO_SPANS = _Spans([])

_BACKTICKS = rx.compile(r"`+")


def inline_code_spans(text: str) -> list[tuple[int, int]]:
    """The spans of ``(`+)[^`\\n](?:[^\\n]*?[^`\\n])?\\1(?!`)`` in ``text``, found
    from the runs of backticks in one pass.

    A span opens at a run of backticks (or further into one) and closes at the
    next run of the same length on its line at least two characters on (the
    pattern tries a longer content first), else at one right after a
    one-character content. That pattern, tried at every backtick, read each
    line to its end from each: quadratic on a line of them.
    """
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text)]
    out: list[tuple[int, int]] = []
    # per run, the next run of each length on its line: filled from the end
    closer: list[dict[int, tuple[int, int]]] = [{} for _ in runs]
    ahead: dict[int, tuple[int, int]] = {}
    for k in range(len(runs) - 1, -1, -1):
        start, end = runs[k]
        if k + 1 < len(runs) and "\n" in text[end : runs[k + 1][0]]:
            ahead = {}  # the next run is on a later line
        closer[k] = ahead
        ahead = {**ahead, end - start: runs[k]}
    pos = 0
    for k, (start, end) in enumerate(runs):
        if end <= pos or text[end : end + 1] in ("", "\n"):
            continue
        # the runs two or more characters on: the next run, unless it is right after
        # a one-character content
        near = k + 1 < len(runs) and runs[k + 1][0] == end + 1
        far = closer[k + 1] if near else closer[k]
        for at in range(max(start, pos), end):
            size = end - at
            found = far.get(size)
            if found is None and near and runs[k + 1][1] - runs[k + 1][0] == size:
                found = runs[k + 1]
            if found is not None:
                out.append((at, found[1]))
                pos = found[1]
                break
    return out


def _prose_refs(text: str, prefixes: tuple[str, ...], spans: _Spans) -> Iterator[re.Match[str]]:
    """``\\b(PREFIX)[- ]?0*(\\d{1,6})(#D\\d+)?\\b`` matches outside ``spans``.

    A match never reaches into a link (a prefix is letters and digits), so
    rejecting the starts inside ``spans``, and resuming one character later as
    ``finditer`` would, is the same as blanking the links first.
    """
    if spans is _NO_SPANS:  # nothing to pass over: the plain scan
        yield from _prose_pattern(prefixes).finditer(text)
        return
    yield from matches_except(_prose_pattern(prefixes), text, spans.covers)


@functools.lru_cache(maxsize=32)
def _prose_pattern(prefixes: tuple[str, ...]) -> re.Pattern[str]:
    """``\\b(PREFIX)...`` with the ``\\b`` written as a look-behind after the prefix.

    A pattern that starts with ``\\b`` is tried at every character; one that
    starts with the prefix lets the engine jump from one occurrence to the
    next. A prefix starts with a word character, so ``\\b`` before it means
    "not after a word character".
    """
    alternatives = "|".join(
        rf"{re.escape(p)}(?<!\w{re.escape(p)})(?<!\w-{re.escape(p)})"
        if p[:1].isalnum() or p[:1] == "_"
        else rf"\b{re.escape(p)}"
        for p in prefixes
    )
    # "ADR-12", "ADR 12" or "ADR0012"; not "ADR006" (a problem code) nor "ADR1", nor the
    # "ADR-7" of another series' "KIT-ADR-7" (a word and a hyphen before the prefix)
    # "ADR-007-A": the record written beside ADR-007 (its file's capital letter keeps it)
    return re.compile(
        rf"({alternatives})(?:[- ]0*(\d{{1,6}})|0*(\d{{4,6}}))(-[A-Z](?![\w-]))?(#D\d+)?\b"
    )
