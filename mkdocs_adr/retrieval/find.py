"""``find``: deterministic-first retrieval for the files or topic at hand (SPEC 9, seeds/004).

Layers, in order, each result naming the layer that selected it:

1. ``affected-paths`` / ``affected-components``: ``--path`` against each record's
   ``affected-paths`` globs, ``--component`` against ``affected-components``;
2. status: unless ``--status`` says otherwise, decisions in effect, then records
   whose status is not recorded or not understood (labelled ``status-unverified``,
   ranked after them); what the filter left out is counted by status with the
   command that widens it, and a superseded match is answered with its current
   successor. A decision *against* the topic (rejected, deprecated, a proposal
   replacing an accepted record) that matches it better than any accepted record
   comes first, in its own ``against`` group;
3. ``project-graph``: files near the queried ones in ``graphify-out/graph.json``
   when it exists, and ``relations``: what the selected decisions build on,
   through the log's own relations;
4. ``topic``: ``--topic`` ranks the narrowed set only (lunr), or, with no path
   or component, the decisions the status filter admits. Order: topic score (in
   bands of :data:`BAND_SHARE` of the best), then in effect before unverified
   before the rest, then recency (the record's date, newest first). Matches weaker than
   :data:`STRONG_SHARE` of the best are not required evidence and wait behind
   the cursor, so the first page holds the strong ones.
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..log import Log
from ..model import STATUSES, Record, Unit
from . import project_graph
from .collect import Collector, replacement, system_roots
from .evidence import (
    EvidenceItem,
    Relations,
    search_text,
    status_of,
    unit_id,
)
from .paths import PathRefused, Pattern, QueryPath, compile_pattern, normalize_query_path
from .respond import Answer, quote_args
from .walk import Evidence

if TYPE_CHECKING:
    from . import topic

LAYERS = ("affected-paths", "affected-components", "project-graph", "relations", "topic", "status")
MAX_QUERY_VALUES = 32
MAX_VALUE = 1024
MAX_TOPIC = 500
#: Everything a query echoes (paths, components, topic) together, so the answer has room.
MAX_QUERY_TEXT = 2_000
#: Record-supplied text (a pattern, a component, a graph label) quoted in ``why`` up to this.
MAX_QUOTED = 200


def shown(text: str, *, quote: bool = True) -> str:
    """``text`` for a ``why``: whole when short, else described, never cut."""
    if len(text) > MAX_QUOTED:
        return f"<{len(text)} characters>"
    return repr(text) if quote else text


DEFAULT_STATUS = "in-effect"
#: Statuses the default admits after those in effect, labelled :data:`UNVERIFIED`.
UNVERIFIED_STATUSES = frozenset({"missing", "unknown"})
UNVERIFIED = "status-unverified"
#: A topic match scoring under half the best one is a weak match.
STRONG_SHARE = 0.5
#: Scores within this share of the best count as one band, ordered by status then date.
BAND_SHARE = 0.25
#: Statuses whose record decides against what it describes.
AGAINST_STATUSES = ("rejected", "deprecated")


@dataclass(frozen=True)
class FindQuery:
    paths: tuple[str, ...] = ()
    components: tuple[str, ...] = ()
    topic: str | None = None
    statuses: tuple[str, ...] = ()
    cursor: str | None = None

    def validate(self) -> None:
        if not (self.paths or self.components or self.topic or self.statuses):
            raise UsageError(
                "find needs at least one of --path, --component, --topic or --status",
                fix="e.g. `mkdocs-adr find --path src/payments/ledger.py --topic rounding`",
            )
        for name, values in (("--path", self.paths), ("--component", self.components)):
            if len(values) > MAX_QUERY_VALUES:
                raise UsageError(
                    f"{len(values)} {name} values; at most {MAX_QUERY_VALUES} per query",
                    fix="ask about fewer files at a time, or about their folder",
                )
            for value in values:
                if len(value) > MAX_VALUE:
                    raise UsageError(f"a {name} value is longer than {MAX_VALUE} characters")
        for comp in self.components:
            if not comp.strip():
                raise UsageError("--component is empty", fix="give a component name")
        if self.topic is not None:
            if not self.topic.strip():
                raise UsageError("--topic is empty", fix="describe what you are working on")
            if len(self.topic) > MAX_TOPIC:
                raise UsageError(
                    f"--topic is {len(self.topic)} characters; at most {MAX_TOPIC}",
                    fix="give a few keywords, not a document",
                )
        size = sum(map(len, (*self.paths, *self.components, self.topic or "")))
        if size > MAX_QUERY_TEXT:
            raise UsageError(
                f"the query is {size} characters long; at most {MAX_QUERY_TEXT} fit an answer",
                fix="ask about fewer or shorter paths (a folder covers what is inside it)",
            )
        known = (*STATUSES, "all")
        bad = [s for s in self.statuses if s not in known]
        if bad:
            raise UsageError(
                f"--status {', '.join(bad)} is not a status",
                fix=f"use one of: {', '.join(known)}",
            )
        if "all" in self.statuses and len(set(self.statuses)) > 1:
            raise UsageError("--status all cannot be combined with other statuses")


class _PatternIndex:
    """Every record's ``affected-paths`` pattern, by its literal folder prefix."""

    def __init__(self, log: Log) -> None:
        self.by_static: dict[str, list[tuple[Pattern, Record]]] = {}
        self.invalid: list[str] = []
        for rec in log.records:
            for raw in rec.parsed.affected_paths:
                pat = compile_pattern(raw)
                if pat is None:
                    self.invalid.append(f"{rec.id}: affected-paths {raw!r}")
                    continue
                self.by_static.setdefault(pat.static, []).append((pat, rec))

    def warning(self) -> str:
        """What the answer says about the patterns it could not use."""
        shown = ", ".join(self.invalid[:3])
        more = len(self.invalid) - 3
        return (
            f"{len(self.invalid)} affected-paths pattern(s) leave the project or are empty and "
            f"were ignored: {shown}" + (f" (+{more} more)" if more > 0 else "")
        )

    def hits(self, query: QueryPath) -> list[tuple[Pattern, Record, bool]]:
        """Patterns the path falls under, or (third value ``True``) that lie inside it."""
        out: list[tuple[Pattern, Record, bool]] = []
        q = query.path
        for static, pairs in self.by_static.items():
            if not q or static == q or static.startswith(q + "/"):
                out.extend((pat, rec, not pat.regex.fullmatch(q)) for pat, rec in pairs)
            elif not static or q.startswith(static + "/"):
                out.extend((pat, rec, False) for pat, rec in pairs if pat.regex.fullmatch(q))
        return out


class _Finder(Collector):
    """The layers of ``find`` over the shared collector: the earliest layer of an item wins."""

    def __init__(self, log: Log, query: FindQuery, paths: list[QueryPath]) -> None:
        super().__init__()
        self.log = log
        self.query = query
        self.paths = paths
        self.rels = Relations.of(log)
        self.statuses = set(query.statuses)
        self.filtered_out: Counter[str] = Counter()
        self.counts: Counter[str] = Counter()

    # ------------------------------------------------------------ status (layer 2)

    def admit(self, rec: Record, unit: Unit | None) -> bool:
        if not self.statuses:
            return self.tier(rec, unit) < 2
        if "all" in self.statuses:
            return True
        return self.log.status_of(rec, unit) in self.statuses

    def tier(self, rec: Record, unit: Unit | None) -> int:
        """0 in effect, 1 status not recorded or not understood, 2 anything else."""
        if self.log.in_effect(rec, unit):
            return 0
        return 1 if status_of(rec, unit) in UNVERIFIED_STATUSES else 2

    def item(
        self, rec: Record, unit: Unit | None, why: str, layer: str | None, hops: int = 0
    ) -> EvidenceItem:
        """An admitted unit as evidence: labelled when its status is unverified, and
        naming its current successor when it is superseded (``--status``)."""
        item = EvidenceItem(rec, unit, why, "decision", hops=hops, required=True, layer=layer)
        tier = self.tier(rec, unit)
        if tier == 1:
            item.label = UNVERIFIED
        elif tier == 2 and status_of(rec, unit) == "superseded":
            r = replacement(self.log, rec, unit)
            if r.current is not None:
                item.successor = r.current.id
                item.why += f"; superseded, current successor {r.current.id} ({r.chain})"
        return item

    def widen(self, args: list[str], flags: tuple[str, ...], prefix: str) -> str:
        return f"{prefix} {quote_args(['find', *args, '--status', 'all', *flags])}"

    def warn_filtered(self) -> None:
        """Say how many matches the default status filter left out, by status (the
        widening command itself is ``coverage_detail.widen``)."""
        if self.filtered_out and not self.statuses:
            left = sum(self.filtered_out.values())
            by = ", ".join(f"{k} {v}" for k, v in sorted(self.filtered_out.items()))
            self.warnings.append(
                f"{left} matching unit(s) not in effect were left out by the status filter "
                f"({by}); add --status all to see them (coverage_detail.widen)"
            )

    def units(self, rec: Record) -> list[Unit | None]:
        return list(rec.units) if rec.units else [None]

    def take(
        self,
        rec: Record,
        layer: str,
        why: str,
        order: tuple[int, str],
        hops: int = 0,
        only: Unit | None = None,
    ) -> None:
        """Select a record's units that pass the status filter; answer the rest's successors."""
        for unit in [only] if only is not None else self.units(rec):
            if not self.admit(rec, unit):
                self.filtered_out[status_of(rec, unit)] += 1
                if status_of(rec, unit) == "superseded" and not self.statuses:
                    self._successor_of(rec, unit, why, order)
                continue
            item = self.item(rec, unit, why, layer, hops)
            tier = self.tier(rec, unit)
            sort = (LAYERS.index(layer), tier, *order, rec.id, unit.key if unit else "")
            if self.offer(sort, item):
                self.counts[layer] += 1

    def _successor_of(
        self, rec: Record, unit: Unit | None, why: str, order: tuple[int, str]
    ) -> None:
        r = replacement(self.log, rec, unit)
        if r.current is not None:
            self.take(
                r.current,
                "relations",
                f"current successor of {r.name} ({r.chain}), which was selected by {why}",
                (0, r.name),
                hops=len(r.succession.chain),
            )
        elif r.ambiguous:
            self.warnings.append(
                f"{r.name} matched but is superseded, and its current successor is ambiguous "
                f"({r.contested}); none is chosen"
            )
            for other in r.candidates:
                self.take(
                    other,
                    "relations",
                    f"candidate successor of {r.name} (ambiguous: {r.contested}; none chosen)",
                    (0, r.name),
                    hops=1,
                )

    # ------------------------------------------------------------ layer 1

    def by_paths(self, index: _PatternIndex) -> None:
        for qp in self.paths:
            for pat, rec, inside in index.hits(qp):
                verb = "lies inside" if inside else "matches"
                self.take(
                    rec,
                    "affected-paths",
                    f"affected-paths {shown(pat.raw)} {verb} {qp.path or '.'}",
                    (-len(pat.static), qp.path),
                )

    def by_components(self) -> None:
        wanted = [c.strip() for c in self.query.components]
        for rec in self.log.records:
            for comp in rec.parsed.affected_components:
                for want in wanted:
                    if comp.casefold() == want.casefold() or fnmatch.fnmatchcase(
                        comp.casefold(), want.casefold()
                    ):
                        self.take(
                            rec,
                            "affected-components",
                            f"affected-components {shown(comp)} matches {shown(want)}",
                            (0, want),
                        )

    # ------------------------------------------------------------ layer 3

    def by_project_graph(
        self, graph: project_graph.ProjectGraph, index: _PatternIndex
    ) -> dict[str, Any]:
        seeds: list[str] = []
        for qp in self.paths:
            prefix = qp.path + "/" if qp.path else ""
            for file, nodes in graph.by_file.items():
                if file == qp.path or file.startswith(prefix):
                    seeds.extend(nodes)
            if qp.path in graph.adjacency:
                seeds.append(qp.path)
        wanted = {c.strip().casefold() for c in self.query.components}
        if wanted:
            seeds.extend(n for n, name in graph.names.items() if name.casefold() in wanted)
        if not seeds:
            return {"seeds": 0, "reached": 0}
        reached, capped_walk = graph.walk(seeds)
        if capped_walk:
            self.warnings.append(
                f"the project graph walk stopped at {project_graph.MAX_VISITED} nodes; "
                "ask about fewer or more specific paths"
            )
        seed_files = {graph.files.get(s) for s in seeds}
        files: dict[str, tuple[int, str]] = {}
        for node, (hops, origin) in sorted(reached.items(), key=lambda kv: (kv[1][0], kv[0])):
            if hops == 0:
                continue
            node_file = graph.files.get(node)
            rec = self.log.get(node) or self.log.get(graph.names.get(node, ""))
            if rec is None and node_file is not None:
                rec = self.log.by_path.get(node_file)
            if rec is not None:
                self.take(
                    rec,
                    "project-graph",
                    f"project graph: {rec.id} is {hops} hop(s) from {shown(origin, quote=False)}",
                    (hops, ""),
                    hops,
                )
                continue
            if node_file and node_file not in seed_files and node_file not in files:
                files[node_file] = (hops, origin)
        for file, (hops, origin) in sorted(files.items()):
            for pat, rec, _ in index.hits(QueryPath(file, False)):
                self.take(
                    rec,
                    "project-graph",
                    f"project graph: {file} is {hops} hop(s) from {shown(origin, quote=False)}; "
                    f"affected-paths {shown(pat.raw)} matches it",
                    (hops, file),
                    hops,
                )
        return {"seeds": len(set(seeds)), "reached": len(reached) - len(set(seeds))}

    # ------------------------------------------------------------ layer 3b

    def by_relations(self) -> None:
        focus = self.ids()
        if not focus:
            return
        system = system_roots(self.log)
        b = Evidence(self.log, "current", self.rels, system)
        # asked from a module root: the system root's constraints come first (SPEC 9)
        roots = {rec.root for rec in map(self.log.get, focus) if rec is not None}
        module = bool(roots) and not roots & system
        b.constraints(focus)
        for item in b.ordered():
            if not item.required or (item.rec.id in focus and item.unit is None):
                continue
            front = 0 if not module or item.rec.root in system else 1
            self.take(
                item.rec,
                "relations",
                item.why,
                (front * 1000 + item.hops, ""),
                item.hops,
                only=item.unit,
            )


def _normalize_paths(log: Log, raw: tuple[str, ...]) -> list[QueryPath]:
    out: list[QueryPath] = []
    problems: list[PathRefused] = []
    for value in raw:
        try:
            out.append(normalize_query_path(value, log.config.project_dir))
        except PathRefused as exc:
            problems.append(exc)
    if problems:
        raise UsageError(
            "; ".join(str(p) for p in problems),
            fix=problems[0].fix,
        )
    return list(dict.fromkeys(out))


#: Where a record's body terms are kept on its ``Parsed`` value (by unit key; "" for
#: the whole record): its text does not change while the log is loaded.
_TERMS_MEMO = "_topic_body_terms"


def _body_terms(log: Log, rec: Record, unit: Unit | None) -> tuple[str, ...]:
    memo: dict[str, tuple[str, ...]] = vars(rec.parsed).setdefault(_TERMS_MEMO, {})
    key = unit.key if unit is not None else ""
    found = memo.get(key)
    if found is None:
        from . import topic  # lunr is imported only when a question has a topic

        body = unit.text if unit is not None else search_text(log, rec)
        found = memo[key] = tuple(topic.terms(body))
    return found


def _topic_docs(log: Log, items: list[EvidenceItem]) -> list[topic.Doc]:
    from . import topic

    docs = []
    for item in items:
        rec, unit = item.rec, item.unit
        keywords = " ".join(
            [rec.id, rec.domain or "", *rec.parsed.tags, *rec.parsed.affected_components]
        )
        title = f"{rec.title} {unit.title}" if unit is not None else rec.title
        docs.append(topic.Doc(item.id, title, keywords, "", _body_terms(log, rec, unit)))
    return docs


def build(
    log: Log, query: FindQuery, *, prefix: str = "mkdocs-adr", flags: tuple[str, ...] = ()
) -> Answer:
    """Every result of ``query`` in answer order, before paging.

    ``flags`` are the caller's output flags (``--json``): every command the
    answer prints (``navigation.next``, the widening command) repeats them.
    """
    query.validate()
    paths = _normalize_paths(log, query.paths)
    finder = _Finder(log, query, paths)
    index = _PatternIndex(log)
    if index.invalid and paths:
        finder.warnings.append(index.warning())
    direct = bool(paths or query.components)
    finder.by_paths(index)
    if query.components:
        finder.by_components()
    graph_info, graph_extra = _graph_layers(log, finder, index, direct)
    if not direct and not query.topic:
        for rec in log.records:
            finder.take(rec, "status", f"status {status_of(rec, None)}", (0, ""))
    items = finder.ordered()
    topic_info: dict[str, Any] = {"used": False}
    if query.topic:
        items, topic_info = _rank_topic(log, finder, items, query.topic, direct)
    args = _query_args(query, paths)
    widen = finder.widen(args, flags, prefix)
    status_label: Any = list(query.statuses) if query.statuses else DEFAULT_STATUS
    status_block: dict[str, Any] = {
        "admitted": status_label,
        "filtered_out": dict(sorted(finder.filtered_out.items())),
    }
    if not query.statuses:
        status_block["then"] = UNVERIFIED
        status_block["unverified"] = sum(1 for it in items if it.label == UNVERIFIED)
    layers = {
        "affected-paths": {"used": bool(paths), "matched": finder.counts["affected-paths"]},
        "affected-components": {
            "used": bool(query.components),
            "matched": finder.counts["affected-components"],
        },
        "status": status_block,
        "project-graph": graph_info,
        "relations": {"used": direct, "matched": finder.counts["relations"]},
        "topic": topic_info,
    }
    # a layer the query did not use and that matched nothing says nothing: left out, so
    # every answer spends its budget on evidence (status and project-graph always stay)
    layers = {
        name: info
        for name, info in layers.items()
        if name in ("status", "project-graph") or info.get("used") or info.get("matched")
    }
    finder.warn_filtered()
    echo = {
        "paths": [qp.path or "." for qp in paths],
        "components": list(query.components),
        "topic": query.topic,
        "status": status_label,
    }
    first = next((it for it in items if it.group is None), items[0] if items else None)
    hints = [f"{prefix} context {first.id} --intent rationale"] if first is not None else []
    left_out = sum(finder.filtered_out.values()) if not query.statuses else 0
    return Answer(
        "find",
        log,
        items,
        echo,
        args,
        prefix,
        extra={"layers": layers},
        warnings=finder.warnings,
        hints=hints,
        corpus_extra=graph_extra,
        flags=flags,
        filtered_out=left_out,
        widen=widen if left_out else None,
        first_page=_first_page(items),
    )


def _first_page(items: list[EvidenceItem]) -> int | None:
    """How many items the first page may hold: up to the last required one."""
    last = max((i for i, it in enumerate(items) if it.required), default=-1)
    return last + 1 if 0 <= last < len(items) - 1 else None


def _graph_layers(
    log: Log, finder: _Finder, index: _PatternIndex, direct: bool
) -> tuple[dict[str, Any], str]:
    """Layer 3 (project graph, relations): the response's ``project-graph`` block, and what
    of the graph file the cursor is bound to."""
    if not direct:
        info: dict[str, Any] = {
            "state": "not-used",
            "path": project_graph.GRAPH_PATH,
            "reason": "no --path or --component to start from",
        }
        return info, ""
    graph, state = project_graph.load(log.config.project_dir)
    info = state.to_json()
    if graph is not None:
        info.update(finder.by_project_graph(graph, index))
        info["matched"] = finder.counts["project-graph"]
        if graph.skipped:
            info["skipped_entries"] = graph.skipped
    elif state.state == "unreadable":
        finder.warnings.append(
            f"project graph {state.path} is unreadable ({state.reason}); "
            "results come from the log's metadata and relations only"
        )
    finder.by_relations()
    return info, state.sha256 or state.state


def _rank_topic(
    log: Log, finder: _Finder, items: list[EvidenceItem], text: str, direct: bool
) -> tuple[list[EvidenceItem], dict[str, Any]]:
    """Layer 4: ``--topic`` orders the narrowed set, or selects from the whole log."""
    from . import topic

    if direct:
        scores = topic.rank(_topic_docs(log, items), text)
        info: dict[str, Any] = {
            "used": True,
            "engine": "lunr",
            "ranked_over": len(items),
            "matched": len(scores),
        }
        for item in items:
            item.score = scores.get(item.id, 0.0)
        place = {id(item): i for i, item in enumerate(items)}
        top = max((it.score or 0.0 for it in items), default=0.0)
        items.sort(key=lambda it: (*_rank_key(finder, it, top), place[id(it)]))
        return items, info
    # every record is scored (idf over the whole log), then the status filter applies
    pool = [
        EvidenceItem(rec, unit, "", "decision", required=True)
        for rec in log.records
        for unit in finder.units(rec)
    ]
    scores = topic.rank(_topic_docs(log, pool), text)
    info = {"used": True, "engine": "lunr", "ranked_over": len(pool), "matched": len(scores)}
    matched = [it for it in pool if it.id in scores]
    admitted: dict[str, EvidenceItem] = {}
    rest: list[EvidenceItem] = []
    for it in matched:
        if finder.admit(it.rec, it.unit):
            admitted[it.id] = finder.item(
                it.rec, it.unit, f"--topic matches (lunr score {scores[it.id]:.3f})", "topic"
            )
            admitted[it.id].score = scores[it.id]
        else:
            rest.append(it)
    best_accepted = max(
        (scores[i] for i, it in admitted.items() if finder.tier(it.rec, it.unit) == 0),
        default=0.0,
    )
    against: list[EvidenceItem] = []
    for it in rest:
        score = scores[it.id]
        verdict = _verdict(log, finder, it) if not finder.statuses else None
        if verdict is not None and score > best_accepted:
            why = (
                f"--topic matches (lunr score {score:.3f}) better than any accepted record; "
                f"{verdict[1]}"
            )
            item = EvidenceItem(it.rec, it.unit, why, "decision", required=True, layer="topic")
            item.score, item.group, item.verdict = score, "against", verdict[0]
            against.append(item)
            continue
        finder.filtered_out[status_of(it.rec, it.unit)] += 1
        if status_of(it.rec, it.unit) != "superseded" or finder.statuses:
            continue
        r = replacement(log, it.rec, it.unit)
        if r.current is None:
            continue
        for unit in finder.units(r.current):
            key = unit_id(r.current, unit)
            if not finder.admit(r.current, unit):
                continue
            held = admitted.get(key)
            why = (
                f"current successor of {r.name} ({r.chain}), which matches --topic "
                f"(lunr score {score:.3f})"
            )
            if held is None or (held.score or 0.0) < score:
                new = finder.item(r.current, unit, why, "topic", hops=len(r.succession.chain))
                new.score = score
                admitted[key] = new
    best = max((it.score or 0.0 for it in admitted.values()), default=0.0)
    for item in admitted.values():
        if (item.score or 0.0) < STRONG_SHARE * best:
            item.required = False
            item.why += f" (weak: under {STRONG_SHARE:.0%} of the best match)"
    order = {it.id: i for i, it in enumerate(pool)}
    ranked = sorted(
        admitted.values(),
        key=lambda it: (not it.required, *_rank_key(finder, it, best), order.get(it.id, 0)),
    )
    against.sort(key=lambda it: (-(it.score or 0.0), _recency(it.rec), order.get(it.id, 0)))
    if against:
        info["against"] = [it.id for it in against[:MAX_QUERY_VALUES]]
    return [*against, *ranked], info


def _rank_key(finder: _Finder, item: EvidenceItem, best: float) -> tuple[Any, ...]:
    """Score band (a quarter of the best score wide), then status tier, then recency."""
    score = item.score or 0.0
    band = int((best - score) / (BAND_SHARE * best)) if best > 0 else 0
    return (band, finder.tier(item.rec, item.unit), _recency(item.rec))


def _recency(rec: Record) -> tuple[int, str]:
    """Sorts newer records first; records without a date after dated ones."""
    date = rec.date or ""
    return (0, "".join(chr(0x10FFFF - ord(c)) for c in date)) if date else (1, "")


def _verdict(log: Log, finder: _Finder, item: EvidenceItem) -> tuple[str, str] | None:
    """Whether a record not admitted decides *against* something: (verdict, why)."""
    status = status_of(item.rec, item.unit)
    if status in AGAINST_STATUSES:
        return status, f"{item.id} is {status}: the log decided against this"
    if status == "proposed":
        for link in finder.rels.out.get(item.rec.id, []):
            if link.kind != "supersedes":
                continue
            old = log.get(link.target)
            if old is not None and log.in_effect(old):
                return (
                    "proposed-replacement",
                    f"{item.id} is proposed to supersede {old.id}, which is in effect",
                )
    return None


def _query_args(query: FindQuery, paths: list[QueryPath]) -> list[str]:
    """The query as command-line arguments (cursors and hints repeat it)."""
    args: list[str] = []
    for qp in paths:
        args += ["--path", qp.path + ("/" if qp.folder and qp.path else "") or "."]
    for comp in query.components:
        args += ["--component", comp]
    if query.topic:
        args += ["--topic", query.topic]
    for status in query.statuses:
        args += ["--status", status]
    return args


def find(
    log: Log, query: FindQuery, *, prefix: str = "mkdocs-adr", flags: tuple[str, ...] = ()
) -> tuple[dict[str, Any], str]:
    """Answer a find query: the response data and its exact JSON text."""
    answer = build(log, query, prefix=prefix, flags=flags)
    return answer.respond(answer.start(query.cursor))
