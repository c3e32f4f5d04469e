"""Agent questions over real ADR logs: our first answer against grep and BM25 (issue 12).

The questions (``benchmarks/agent_questions.json``) were written, with the record
ids that answer them, by reading the records before anything ran. For each one:

- **ours**: the first response of the real CLI as JSON, in the log's folder:
  ``mkdocs-adr context ID --json`` when the question starts from an id an agent
  saw, else ``mkdocs-adr find --topic WORDS [--path P] --json``; it hits when an
  expected id is among its units (any group);
- **grep**: ``grep -ril`` over the ADR roots for each topic word; the files that
  hold every word are read (the files holding any word when none holds all); it
  hits when an expected record's file is among them;
- **bm25**: plain BM25 (k1 1.2, b 0.75) over whole files, top 3; it hits when an
  expected record's file is among them.

Sizes are code points read (the response's JSON text; the files' text) as a share
of the whole log's code points (every Markdown file under the roots). Usage::

    python benchmarks/eval_agents.py [--logs /work/reallogs] [--json OUT] [--only q01,q02]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
QUESTIONS = HERE / "agent_questions.json"
_WORD = re.compile(r"[^\W_]+")


@dataclass
class LogFiles:
    """A real log's ADR files: their text, and which record id each one is."""

    folder: Path
    texts: dict[str, str] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)  # path -> record id

    @property
    def codepoints(self) -> int:
        return sum(len(t) for t in self.texts.values())


def _cli(folder: Path, *args: str) -> tuple[dict[str, Any] | None, str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs_adr", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    try:
        return json.loads(proc.stdout), proc.stdout, proc.stderr
    except ValueError:
        return None, proc.stdout, proc.stderr


def load_files(folder: Path) -> LogFiles:
    """Every record file of the log (from the CLI's own listing) and its text."""
    files = LogFiles(folder)
    data, _, err = _cli(folder, "find", "--status", "all", "--json")
    if data is None:
        raise SystemExit(f"{folder}: find --status all failed: {err.strip()}")
    while True:
        for unit in data["units"]:
            files.ids.setdefault(unit["path"], unit["id"].split("#")[0])
        nxt = data.get("next_cursor")
        if not nxt:
            break
        data, _, err = _cli(folder, "find", "--status", "all", "--cursor", nxt, "--json")
        if data is None:
            raise SystemExit(f"{folder}: paging failed: {err.strip()}")
    for path in sorted(files.ids):
        files.texts[path] = (folder / path).read_text(encoding="utf-8", errors="replace")
    return files


def words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if len(w) > 1]


def grep_files(files: LogFiles, topic: str) -> list[str]:
    """What reading every file ``grep -ril WORD`` finds gives: files with all words, or any."""
    found: dict[str, set[str]] = {}
    folders = sorted({str(Path(p).parent) for p in files.texts})
    for word in dict.fromkeys(words(topic)):
        proc = subprocess.run(
            ["grep", "-ril", "--include=*.md", "--", word, *folders],
            cwd=files.folder,
            capture_output=True,
            text=True,
        )
        found[word] = {line for line in proc.stdout.splitlines() if line in files.texts}
    if not found:
        return []
    every = set.intersection(*found.values())
    return sorted(every or set.union(*found.values()))


class BM25:
    """Plain BM25 over whole files, lower-cased words, no stemming or stop words."""

    def __init__(self, docs: dict[str, str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.tf = {path: Counter(words(text)) for path, text in docs.items()}
        self.len = {path: sum(c.values()) for path, c in self.tf.items()}
        self.avg = sum(self.len.values()) / max(1, len(self.len))
        self.df: Counter[str] = Counter()
        for c in self.tf.values():
            self.df.update(c.keys())

    def top(self, query: str, n: int) -> list[str]:
        total = len(self.tf)
        scores: dict[str, float] = {}
        for path, c in self.tf.items():
            s = 0.0
            for w in dict.fromkeys(words(query)):
                f = c.get(w, 0)
                if not f:
                    continue
                idf = math.log(1 + (total - self.df[w] + 0.5) / (self.df[w] + 0.5))
                norm = f + self.k1 * (1 - self.b + self.b * self.len[path] / self.avg)
                s += idf * f * (self.k1 + 1) / norm
            if s > 0:
                scores[path] = s
        return sorted(scores, key=lambda p: (-scores[p], p))[:n]


def ours(folder: Path, q: dict[str, Any]) -> tuple[list[str], int, dict[str, Any] | None, str]:
    if q.get("ask_id"):
        args = ["context", q["ask_id"], "--json"]
    else:
        args = ["find", "--topic", q["topic"]]
        for p in q.get("paths", []):
            args += ["--path", p]
        args.append("--json")
    data, text, err = _cli(folder, *args)
    if data is None:
        return [], len(text), None, err.strip()
    ids = [u["id"].split("#")[0] for u in data.get("units", [])]
    return ids, len(text.rstrip("\n")), data, ""


def evaluate(logs: Path, only: set[str] | None = None) -> dict[str, Any]:
    questions = json.loads(QUESTIONS.read_text(encoding="utf-8"))["questions"]
    if only:
        questions = [q for q in questions if q["id"] in only]
    cache: dict[str, tuple[LogFiles, BM25]] = {}
    rows: list[dict[str, Any]] = []
    for q in questions:
        if q["log"] not in cache:
            lf = load_files(logs / q["log"])
            cache[q["log"]] = (lf, BM25(lf.texts))
        lf, bm = cache[q["log"]]
        whole = lf.codepoints
        expected = set(q["expected"])
        got, size, data, err = ours(lf.folder, q)
        g = grep_files(lf, q["topic"])
        b = bm.top(q["topic"], 3)
        row = {
            "id": q["id"],
            "log": q["log"],
            "shape": q["shape"],
            "expected": sorted(expected),
            "ours": {
                "hit": bool(expected & set(got)),
                "ids": got,
                "share": size / whole,
                "error": err or None,
                "coverage": data.get("coverage") if data else None,
            },
            "grep": {
                "hit": bool(expected & {lf.ids[p] for p in g}),
                "files": len(g),
                "share": sum(len(lf.texts[p]) for p in g) / whole,
            },
            "bm25": {
                "hit": bool(expected & {lf.ids[p] for p in b}),
                "ids": [lf.ids[p] for p in b],
                "share": sum(len(lf.texts[p]) for p in b) / whole,
            },
        }
        rows.append(row)
    summary = {}
    for arm in ("ours", "grep", "bm25"):
        hits = sum(r[arm]["hit"] for r in rows)
        summary[arm] = {
            "hit_at_first": hits / len(rows) if rows else 0.0,
            "hits": hits,
            "median_share": statistics.median(r[arm]["share"] for r in rows) if rows else 0.0,
        }
    return {
        "questions": len(rows),
        "logs": len({r["log"] for r in rows}),
        "summary": summary,
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--logs", type=Path, default=Path("/work/reallogs"))
    ap.add_argument("--json", type=Path, default=None, help="write every row here")
    ap.add_argument("--only", default="", help="comma-separated question ids")
    opts = ap.parse_args(argv)
    result = evaluate(opts.logs, {s for s in opts.only.split(",") if s} or None)
    for r in result["rows"]:
        mark = "".join("+" if r[a]["hit"] else "-" for a in ("ours", "grep", "bm25"))
        print(
            f"{r['id']} {r['log']:9} {mark} ours={r['ours']['ids'][:4]} "
            f"{100 * r['ours']['share']:.1f}% want={r['expected']}"
            + (f" ERROR {r['ours']['error']}" if r["ours"]["error"] else "")
        )
    print(f"{result['questions']} questions over {result['logs']} logs")
    for arm, s in result["summary"].items():
        print(
            f"{arm:5} hit@first {100 * s['hit_at_first']:.0f}% ({s['hits']}) "
            f"median size {100 * s['median_share']:.1f}% of the log"
        )
    if opts.json:
        opts.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
