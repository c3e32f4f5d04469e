"""The read guard for agents: one tool call in, one :class:`Decision` out (seeds/000 section 8).

An agent that reads archived record bodies, or greps the whole ADR log, gets history
as if it were current and misses what the log's statuses say. The guard looks at one
tool call before it runs and says whether it does either, and which bounded call
(``mkdocs-adr context ID --json``, ``mkdocs-adr find --topic ... --json``) answers the
same question. It is host-neutral: :func:`decide` takes a :class:`ToolCall` (the tool's
name and input, as Claude Code's ``PreToolUse`` hook hands them over) and a
:class:`Project` (the roots of one config), and returns a :class:`Decision`;
``commands/guard.py`` speaks the hook's JSON. :func:`decide` prints and writes nothing;
it reads the file system only to resolve paths, expand globs and tell records apart.

What counts, for a Read/Grep/Glob tool call or a shell command:

- **a direct read of an archived record body** (the Read tool; in a shell command the
  readers of :data:`_READERS`, ``< file``, or a search given the file): the record is
  what :func:`mkdocs_adr.discovery.locate` calls archived; the better call is
  ``context`` of its id;
- **an unscoped content search over an ADR root**: a search (the Grep tool; ``grep``,
  ``rg``, ``ag``, ``ack``, ``git grep``; ``find -exec``, ``fd -x`` or ``xargs`` after a
  listing, running a reader or a search) whose folders hold a root, or that searches
  an archive folder, and whose include/exclude filters leave its Markdown files in; or
  a search of files one glob or listing names, two or more of them records of one root.
  The better call is ``find --topic`` with words from the search pattern.

Everything else passes: file-name discovery (the Glob tool, ``ls``, ``find -name``,
``rg --files``), reads of active records and views, searches inside one domain folder
of a root, searches that exclude the roots or keep to other folders or file types.
Paths are taken as the tool would: relative to the call's working folder (``cd`` in a
shell command moves it), ``~`` and ``$PWD`` expanded, ``..`` and symlinks resolved.
A folder named ``archive`` outside every root is an ordinary folder.

The limits are deliberate and documented: a shell command is read with :mod:`shlex`
(pipes, ``&&``, ``;``, quotes, ``$(...)``, ``bash -c``, ``for`` loops over words);
scripts, interpreters, git history and other channels are not looked into, and an
unparseable command passes with a note. This is guidance for cooperative agents, not
isolation.
"""

from __future__ import annotations

import glob as globbing
import itertools
import os
import posixpath
import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .config import READ_GUARDS, Config, RootConfig
from .discovery import ARCHIVE, TEMPLATE_HEAD, Found, is_archive, locate
from .identity import canonical, file_id
from .paths import real, typed, within

#: The modes, shared with the search index's ``read_guard`` (config.READ_GUARDS).
MODES = READ_GUARDS
Action = Literal["allow", "warn", "deny"]
Kind = Literal["archived-read", "archived-search", "unscoped-search"]

#: Stand-in files a search would meet in a root: an active record, an archived one, one
#: in a domain folder; a filter that lets any of them through searches the records.
_SAMPLES = ("0001-decision.md", f"{ARCHIVE}/0001-decision.md", "domain/0001-decision.md")
#: The most names one glob operand of a shell command is expanded to.
_MAX_GLOB = 10_000
_ARCHIVE_SAMPLES = ("0001-decision.md", "domain/0001-decision.md")
#: ripgrep's type names that hold Markdown files.
_MARKDOWN_TYPES = frozenset({"md", "markdown", "all"})


class GuardInputError(ValueError):
    """The hook's input is not one tool call; the message says what is wrong."""


@dataclass(frozen=True)
class ToolCall:
    """One tool call: the tool's name and input, and the folder it runs in."""

    tool_name: str
    tool_input: Mapping[str, Any]
    cwd: Path

    @classmethod
    def from_hook(cls, data: object, default_cwd: Path) -> ToolCall:
        """A call from the ``PreToolUse`` hook's JSON object (``tool_name``,
        ``tool_input``, ``cwd``); :class:`GuardInputError` when it is not one."""
        if not isinstance(data, Mapping):
            raise GuardInputError("expected a JSON object with tool_name and tool_input")
        name = data.get("tool_name")
        if not isinstance(name, str) or not name:
            raise GuardInputError("the JSON object has no tool_name string")
        tool_input = data.get("tool_input", {})
        if not isinstance(tool_input, Mapping):
            raise GuardInputError(f"tool_input of {name} is not a JSON object")
        cwd = data.get("cwd")
        folder = Path(cwd) if isinstance(cwd, str) and cwd else default_cwd
        return cls(name, tool_input, folder)


@dataclass(frozen=True)
class Finding:
    """One thing the call does that the guard steers away from, and the call to make."""

    kind: Kind
    #: The file or folder concerned, project-relative.
    path: str
    #: The better call, a complete command line.
    instead: str
    #: The root searched (project-relative), for a search.
    root: str = ""

    @property
    def text(self) -> str:
        if self.kind == "archived-read":
            what = f"{self.path} is an archived ADR body"
        elif self.kind == "archived-search":
            what = f"this searches the archived ADR bodies in {self.path}"
        else:
            what = f"this searches the ADR bodies under {self.path} without a scope"
        return f"{what}; ask instead: {self.instead}"


@dataclass(frozen=True)
class Decision:
    """What to do with one call: ``allow`` (nothing to say), ``warn`` (run it, with the
    findings as a note), ``deny`` (do not run it; the findings say what to call)."""

    action: Action
    findings: tuple[Finding, ...] = ()
    #: Something the guard could not look into (an unparseable command); never a finding.
    note: str = ""

    @property
    def reason(self) -> str:
        """The findings in one text, for the agent (empty when there are none)."""
        if not self.findings:
            return ""
        head = "mkdocs-adr read guard: "
        body = "; ".join(f.text for f in self.findings)
        roots = [f.root for f in self.findings if f.root]
        if self.action == "warn":
            tail = " (allowed: the read guard is in warn mode)"
        elif roots:
            root = roots[0]
            tail = (
                ". To search code only, give the search a folder outside the ADR roots or "
                f"exclude them (rg -g {shlex.quote('!' + root + '/**')}, "
                f"grep --exclude-dir={shlex.quote(posixpath.basename(root) or root)})."
            )
        else:
            tail = ""
        return head + body + tail


@dataclass(frozen=True)
class _Root:
    root: RootConfig
    #: The folder as configured (absolute) and as resolved through symlinks.
    folder: Path
    real: Path
    shown: str


@dataclass(frozen=True)
class Project:
    """The roots one config names, resolved once; what :func:`decide` checks paths against."""

    config: Config
    #: ``mkdocs-adr`` with the location options the better calls need (``-f x``).
    prefix: str = "mkdocs-adr"
    roots: tuple[_Root, ...] = field(default=(), repr=False)

    @classmethod
    def of(cls, config: Config, prefix: str = "mkdocs-adr") -> Project:
        found: list[_Root] = []
        for root in config.roots:
            folder = config.root_dir(root)
            found.append(_Root(root, folder, real(folder), config.rel(folder)))
        # innermost first: a root nested in another answers for its own files
        found.sort(key=lambda r: -len(r.real.parts))
        return cls(config, prefix, tuple(found))

    def record_at(self, real: Path) -> Found | None:
        """The record a resolved path is, as discovery would say (None: not a record)."""
        for r in self.roots:
            if within(real, r.real):
                rel = real.relative_to(r.real).as_posix()
                path = posixpath.join(r.shown, rel) if r.shown not in ("", ".") else rel
                found = locate(self.config, path, _head(real))
                return found if isinstance(found, Found) else None
        return None

    def target(self, found: Found) -> str:
        """What ``context`` takes for a record: its id from the file name, else its path."""
        got = file_id(found.rel.rsplit("/", 1)[-1], found.root.prefix)
        return canonical(*got) if got is not None else found.path


def _head(path: Path) -> bytes:
    """The first bytes of a regular file (a FIFO or a device is never opened: it could
    block the hook), b"" otherwise."""
    try:
        if not path.is_file():
            return b""
        with open(path, "rb") as fh:
            return fh.read(TEMPLATE_HEAD)
    except OSError:
        return b""


# --------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Filters:
    """What a search's own options keep in or leave out, relative to its folder.

    ``include``/``exclude``: path globs (ripgrep and gitignore style; a glob without
    ``/`` matches a name at any depth); ``names``/``skip_names``: base-name globs of
    files (``grep --include``, ``find -name``); ``skip_dirs``: base-name globs of
    folders (``grep --exclude-dir``); ``types``: ripgrep type names searched (None: all),
    ``skip_types``: type names left out; ``git``: pathspecs (``*`` crosses ``/``).
    """

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    skip_names: tuple[str, ...] = ()
    skip_dirs: tuple[str, ...] = ()
    types: tuple[str, ...] | None = None
    skip_types: tuple[str, ...] = ()
    git: tuple[str, ...] = ()
    git_skip: tuple[str, ...] = ()

    def admits(self, rel: str) -> bool:
        """Whether a Markdown file at ``rel`` (below the search's folder) is searched."""
        name = rel.rsplit("/", 1)[-1]
        folders = rel.split("/")[:-1]
        if self.types is not None and not _MARKDOWN_TYPES & set(self.types):
            return False
        if _MARKDOWN_TYPES & set(self.skip_types):
            return False
        if self.include and not any(_glob_hits(g, rel, dirs=False) for g in self.include):
            return False
        if any(_glob_hits(g, rel, dirs=True) for g in self.exclude):
            return False
        if self.names and not any(_name_hits(g, name) for g in self.names):
            return False
        if any(_name_hits(g, name) for g in self.skip_names):
            return False
        if any(_name_hits(g, d) for g in self.skip_dirs for d in folders):
            return False
        if self.git and not any(_spec_hits(s, rel) for s in self.git):
            return False
        return not any(_spec_hits(s, rel) for s in self.git_skip)


@dataclass(frozen=True)
class _Read:
    path: Path


@dataclass(frozen=True)
class _Search:
    scope: Path
    filters: Filters
    pattern: str


@dataclass(frozen=True)
class _Many:
    """A search over files one glob (or one listing) named: more than one record of a
    root is the root searched, however it is spelled."""

    paths: tuple[Path, ...]
    pattern: str


_Act = _Read | _Search | _Many


# --------------------------------------------------------------------- the decision


def decide(call: ToolCall, project: Project, mode: str) -> Decision:
    """The guard's answer to ``call`` in ``mode`` (``off``, ``warn``, ``guard``)."""
    if mode not in MODES:
        raise ValueError(f"unknown read_guard mode {mode!r}")
    if mode == "off":
        return Decision("allow")
    acts, note = actions(call, project.config.project_dir)
    findings = _findings(acts, project)
    if not findings:
        return Decision("allow", note=note)
    return Decision("warn" if mode == "warn" else "deny", findings, note)


def actions(call: ToolCall, project_dir: Path | None = None) -> tuple[list[_Act], str]:
    """The reads and searches a tool call makes, and a note for what was not looked into.
    Shell globs are expanded only inside ``project_dir`` (when given): nothing outside it
    can be a record, and a glob over the whole disk would stall the agent."""
    data, cwd = call.tool_input, call.cwd
    name = call.tool_name
    if name == "Read":
        path = data.get("file_path")
        return ([_Read(typed(path, cwd))] if isinstance(path, str) and path else []), ""
    if name == "Grep":
        return [_grep_tool(data, cwd)], ""
    if name == "Bash":
        command = data.get("command")
        if not isinstance(command, str):
            return [], ""
        try:
            return Shell(cwd, inside=project_dir).run(command), ""
        except ValueError as exc:
            return [], f"cannot read the shell command ({exc}); the read guard let it pass"
    return [], ""  # Glob, LS, edits, web, MCP...: nothing the guard reads into


def _grep_tool(data: Mapping[str, Any], cwd: Path) -> _Search:
    path = data.get("path")
    scope = typed(path, cwd) if isinstance(path, str) and path else cwd
    glob = data.get("glob")
    kind = data.get("type")
    globs = _brace_split(glob) if isinstance(glob, str) else []
    filters = Filters(
        include=tuple(g for g in globs if not g.startswith("!")),
        exclude=tuple(g[1:] for g in globs if g.startswith("!")),
        types=(kind,) if isinstance(kind, str) and kind else None,
    )
    pattern = data.get("pattern")
    return _Search(scope, filters, pattern if isinstance(pattern, str) else "")


def _brace_split(glob: str | None) -> list[str]:
    """The Grep tool's ``glob`` may list several globs separated by spaces or commas
    outside braces (``*.py *.ts``); each, brace groups kept whole."""
    if not glob:
        return []
    out, depth, cur = [], 0, ""
    for ch in glob:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        if ch in " ," and depth == 0:
            if cur:
                out.append(cur)
            cur = ""
            continue
        cur += ch
    if cur:
        out.append(cur)
    return out


def _findings(acts: Iterable[_Act], project: Project) -> tuple[Finding, ...]:
    out: dict[tuple[str, str], Finding] = {}
    for act in acts:
        try:
            for finding in _check(act, project):
                out.setdefault((finding.kind, finding.path), finding)
        except (OSError, ValueError, RuntimeError):
            continue  # a path no file system takes (NUL, too long, a loop): nothing read
    return tuple(out.values())


def _check(act: _Act, project: Project) -> Iterator[Finding]:
    if isinstance(act, _Many):
        yield from _check_many(act, project)
        return
    target = act.path if isinstance(act, _Read) else act.scope
    where = real(target)
    if isinstance(act, _Read) or not where.is_dir():
        found = project.record_at(where)
        if found is not None and found.archived:
            command = f"{project.prefix} context {shlex.quote(project.target(found))} --json"
            yield Finding("archived-read", found.path, command)
        return
    topic = topic_words(act.pattern)
    for r in project.roots:
        if not r.real.is_dir():
            continue
        if within(r.real, where):
            below = r.real.relative_to(where).as_posix()
            below = "" if below == "." else below
            samples = [posixpath.join(below, s) if below else s for s in _SAMPLES]
            if any(act.filters.admits(s) for s in samples):
                yield Finding(
                    "unscoped-search", r.shown, _find(project, topic, archived=False), r.shown
                )
        elif within(where, r.real):
            rel = where.relative_to(r.real).parts
            if rel and is_archive(rel[0]) and any(act.filters.admits(s) for s in _ARCHIVE_SAMPLES):
                shown = project.config.rel(r.folder.joinpath(*rel))
                yield Finding(
                    "archived-search", shown, _find(project, topic, archived=True), r.shown
                )
            return  # a search inside one root is scoped to it


def _check_many(act: _Many, project: Project) -> Iterator[Finding]:
    counts: dict[str, int] = {}
    for path in act.paths:
        found = project.record_at(real(path))
        if found is not None and not found.archived:  # archived ones: their own finding
            shown = project.config.rel(project.config.root_dir(found.root))
            counts[shown] = counts.get(shown, 0) + 1
    for shown, count in counts.items():
        if count > 1:
            instead = _find(project, topic_words(act.pattern), archived=False)
            yield Finding("unscoped-search", shown, instead, shown)


def _find(project: Project, topic: str, *, archived: bool) -> str:
    status = " --status all" if archived else ""
    if not topic:
        return f"{project.prefix} context --json"  # no words to ask with: the overview
    return f"{project.prefix} find --topic {shlex.quote(topic)}{status} --json"


_REGEX_ESCAPES = re.compile(r"\\[bBdDsSwWAzZntr]|\\[pP]\{\w+\}|\(\?[a-zA-Z:=!<]*|\{\d*,?\d*\}")


def topic_words(pattern: str) -> str:
    """Words for ``find --topic`` from a search pattern: regex syntax and one-letter
    fragments dropped (``\\bcach(e|ing)\\b|invalidat`` -> ``cach ing invalidat``)."""
    text = _REGEX_ESCAPES.sub(" ", pattern)
    words = re.findall(r"[^\W_]+(?:[-_][^\W_]+)*", text)
    kept = [w for w in words if len(w) > 1 or not w.isascii()]
    return " ".join(kept)[:120].strip()


# --------------------------------------------------------------------- globs


#: The most alternatives ``{a,b}`` groups of one glob expand to; the rest are dropped.
_MAX_ALTERNATIVES = 64
_Token = tuple[str, str]


def _braces(pattern: str) -> list[str]:
    """``pattern`` with its first ``{a,b}`` group (and so, recursively, every group)
    expanded; at most :data:`_MAX_ALTERNATIVES` results."""
    start = pattern.find("{")
    if start == -1:
        return [pattern]
    depth, parts, mark = 0, [], start + 1
    for k in range(start, len(pattern)):
        ch = pattern[k]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                parts.append(pattern[mark:k])
                head, tail = pattern[:start], pattern[k + 1 :]
                out: list[str] = []
                for part in parts:
                    for rest in _braces(part + tail):
                        out.append(head + rest)
                        if len(out) >= _MAX_ALTERNATIVES:
                            return out
                return out
        elif ch == "," and depth == 1:
            parts.append(pattern[mark:k])
            mark = k + 1
    return [pattern]  # an unclosed brace is a letter


def _tokens(pattern: str) -> list[_Token]:
    """A glob (no braces) as tokens: ``dirs`` (``**/``), ``all`` (``**``), ``star``,
    ``one`` (``?``), ``set`` (``[...]``, its body) and ``lit``."""
    out: list[_Token] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern.startswith("**/", i):
            out.append(("dirs", ""))
            i += 3
        elif pattern.startswith("**", i):
            out.append(("all", ""))
            i += 2
        elif pattern[i] == "*":
            if not out or out[-1][0] != "star":  # ``**`` handled; ``*a**``-like runs once
                out.append(("star", ""))
            i += 1
        elif pattern[i] == "?":
            out.append(("one", ""))
            i += 1
        elif pattern[i] == "[" and (end := pattern.find("]", i + 2)) != -1:
            out.append(("set", pattern[i + 1 : end]))
            i = end + 1
        else:
            out.append(("lit", pattern[i]))
            i += 1
    return out


def _in_set(body: str, ch: str) -> bool:
    negate = body[:1] in ("!", "^")
    body = body[1:] if negate else body
    hit, k = False, 0
    while k < len(body):
        if k + 2 < len(body) and body[k + 1] == "-":
            hit = hit or body[k] <= ch <= body[k + 2]
            k += 3
        else:
            hit = hit or body[k] == ch
            k += 1
    return hit != negate


def _glob_match(pattern: str, text: str, *, cross: bool = False) -> bool:
    """Whether the glob matches all of ``text``: ``**`` any folders, ``*`` and ``?``
    within a name (across ``/`` when ``cross``, as in git pathspecs and ``find -path``),
    ``[...]`` and ``{a,b}``. A table over (token, position): no backtracking blow-up."""
    return any(_match_tokens(tuple(_tokens(p)), text, cross) for p in _braces(pattern))


def _match_tokens(tokens: tuple[_Token, ...], text: str, cross: bool) -> bool:
    n = len(text)
    # ok[j]: the tokens so far can end at position j of text
    ok = [True] + [False] * n
    for kind, body in tokens:
        new = [False] * (n + 1)
        for j in range(n + 1):
            if not ok[j]:
                continue
            if kind in ("star", "all", "dirs"):
                new[j] = True
                for k in range(j, n):
                    ch = text[k]
                    if kind == "star" and ch == "/" and not cross:
                        break
                    if kind != "dirs" or ch == "/":
                        new[k + 1] = True
            elif j < n:
                ch = text[j]
                if kind == "lit":
                    new[j + 1] = new[j + 1] or ch == body
                elif kind == "one":
                    new[j + 1] = new[j + 1] or cross or ch != "/"
                else:
                    new[j + 1] = new[j + 1] or _in_set(body, ch)
        ok = new
    return ok[n]


def _glob_hits(pattern: str, rel: str, *, dirs: bool) -> bool:
    """Whether a ripgrep/gitignore glob matches the file ``rel`` or (``dirs``) one of its
    folders: without a ``/`` it matches a name at any depth, with one the path."""
    pattern = pattern.removeprefix("./")
    anchored = "/" in pattern.rstrip("/")
    pattern = pattern.strip("/")
    if not pattern:
        return False
    parts = rel.split("/")
    if not anchored:
        names = parts if dirs else parts[-1:]
        return any(_glob_match(pattern, p) for p in names)
    paths = ["/".join(parts[: k + 1]) for k in range(len(parts))] if dirs else [rel]
    return any(_glob_match(pattern, p) for p in paths)


def _name_hits(pattern: str, name: str) -> bool:
    return _glob_match(pattern, name, cross=True)


def _spec_hits(spec: str, rel: str) -> bool:
    """A git pathspec (relative to the search folder): a folder prefix or a glob."""
    spec = spec.removeprefix("./").rstrip("/")
    if not spec or spec == ".":
        return True
    if rel == spec or rel.startswith(spec + "/"):
        return True
    return _glob_match(spec, rel, cross=True)


# --------------------------------------------------------------------- shell commands

_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "|&", ";;", "(", ")", "((", "))"})
_REDIRECTS = frozenset({">", ">>", ">&", "&>", "&>>", ">|", "<", "<<", "<<<", "<>", "<&"})
_KEYWORDS = frozenset({"then", "do", "else", "elif", "if", "while", "until", "{", "}", "!"})
#: Commands that run the command after them, with their options that take a value.
_WRAPPERS: dict[str, str] = {
    "sudo": "ugpChDrtTU",
    "command": "",
    "builtin": "",
    "exec": "a",
    "nice": "n",
    "nohup": "",
    "time": "fo",
    "env": "uCS",
    "timeout": "sk",
    "stdbuf": "ioe",
    "ionice": "cnp",
}
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
_SUB = re.compile(r"__MKADR_SUB(\d+)__")
_VAR = re.compile(r"^\$(?:\{(\w+)\}|(\w+))$")


def _scan(command: str) -> tuple[str, list[str]]:
    """``command`` with unquoted newlines made ``;``, here-document bodies dropped and
    each ``$(...)``, ``<(...)`` or backtick command replaced by a placeholder word; the
    replaced commands. ValueError when a quote or a parenthesis does not close."""
    out: list[str] = []
    subs: list[str] = []
    heredocs: list[str] = []
    i, n = 0, len(command)
    quote = ""
    while i < n:
        ch = command[i]
        if quote == "'":
            out.append(ch)
            quote = "" if ch == "'" else quote
            i += 1
            continue
        if ch == "\\" and i + 1 < n:
            out.append(command[i : i + 2])
            i += 2
            continue
        if ch in "$<>" and command.startswith("(", i + 1) and not command.startswith("((", i + 1):
            end = _closing(command, i + 2)
            subs.append(command[i + 2 : end])
            out.append(f"__MKADR_SUB{len(subs) - 1}__")
            i = end + 1
            continue
        if ch == "`":
            end = command.find("`", i + 1)
            if end == -1:
                raise ValueError("a backtick does not close")
            subs.append(command[i + 1 : end])
            out.append(f"__MKADR_SUB{len(subs) - 1}__")
            i = end + 1
            continue
        if ch == '"':
            quote = "" if quote == '"' else '"'
        elif ch == "'" and not quote:
            quote = "'"
        elif not quote and command.startswith("<<", i) and not command.startswith("<<<", i):
            m = re.match(r"<<-?\s*(['\"]?)([\w.-]+)\1", command[i:])
            if m:
                heredocs.append(m.group(2))
                out.append("<< " + m.group(2))
                i += m.end()
                continue
        elif ch == "#" and not quote and (not out or out[-1][-1:] in " \t;&|()\n"):
            end = command.find("\n", i)
            i = n if end == -1 else end
            continue
        elif ch == "\n" and not quote:
            out.append(" ; ")
            i += 1
            while heredocs:  # the bodies follow this line
                word = heredocs.pop(0)
                closing = re.compile(rf"^[ \t]*{re.escape(word)}[ \t]*$", re.MULTILINE)
                found = closing.search(command, i)
                i = n if found is None else found.end()
            continue
        out.append(ch)
        i += 1
    if quote:
        raise ValueError("a quote does not close")
    return "".join(out), subs


def _closing(text: str, start: int) -> int:
    depth, quote = 1, ""
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("a '$(' does not close")


_OPERATORS = sorted(_SEPARATORS | _REDIRECTS, key=len, reverse=True)


def _words(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = ""  # comments are gone already (_scan): '#' inside a word is a letter
    out: list[str] = []
    for token in lexer:
        # shlex joins a run of operator characters into one token: ``)&&(`` is three
        if token and set(token) <= set(";&|()<>") and token not in _OPERATORS:
            out.extend(_split_operators(token))
        else:
            out.append(token)
    return out


def _split_operators(run: str) -> list[str]:
    out: list[str] = []
    while run:
        op = next((o for o in _OPERATORS if run.startswith(o)), run[0])
        out.append(op)
        run = run[len(op) :]
    return out


@dataclass
class _Simple:
    words: list[str]
    piped: bool  # reads the previous command's output
    before: _Simple | None  # the previous command in the pipeline


class Shell:
    """The reads and searches of one shell command, as far as :mod:`shlex` can tell."""

    def __init__(self, cwd: Path, depth: int = 0, inside: Path | None = None) -> None:
        self.cwd = cwd
        self.depth = depth
        self.inside = real(inside) if inside is not None else None
        self.vars: dict[str, list[str]] = {}
        self.folders: list[Path] = []  # the working folders outside the open subshells
        self.subs: list[str] = []
        self.acts: list[_Act] = []

    def run(self, command: str) -> list[_Act]:
        if self.depth > 4:
            return self.acts
        text, subs = _scan(command)
        self.subs = subs
        for sub in subs:  # every substituted command runs too
            self.acts.extend(Shell(self.cwd, self.depth + 1, self.inside).run(sub))
        for simple in _simples(_words(text)):
            self._command(simple)
        return self.acts

    # ---- words

    def _expand(self, word: str) -> list[str]:
        m = _VAR.match(word)
        if m and (m.group(1) or m.group(2)) in self.vars:
            return [x for w in self.vars[m.group(1) or m.group(2)] for x in self._expand(w)]
        word = re.sub(r"\$\{PWD\}|\$PWD\b", lambda _m: str(self.cwd), word)
        word = os.path.expandvars(word)
        return [word]

    def _operands(self, words: Iterable[str]) -> list[Path]:
        """Paths named by operands, globs expanded against the disk as the shell would."""
        out: list[Path] = []
        for raw in words:
            for word in self._expand(raw):
                sub = _SUB.fullmatch(word)
                if sub:
                    continue  # the substituted command's output: see _produced
                path = typed(word, self.cwd)
                if any(ch in word for ch in "*?[") and self._expandable(path):
                    # as bash without globstar: ``**`` is ``*``; a bounded number of names
                    hits = sorted(itertools.islice(globbing.iglob(str(path)), _MAX_GLOB))
                    out.extend(Path(h) for h in hits)
                    if not hits:
                        out.append(path)
                else:
                    out.append(path)
        return out

    def _expandable(self, path: Path) -> bool:
        """Whether a glob's fixed folder lies in the project (always, with no project)."""
        if self.inside is None:
            return True
        fixed = itertools.takewhile(lambda part: not set(part) & set("*?["), path.parts)
        return within(real(Path(*fixed)), self.inside)

    def _produced(self, words: Iterable[str]) -> list[tuple[list[Path], Filters]]:
        """Folders whose files a ``$(find ...)`` / ``$(ls ...)`` operand lists."""
        out = []
        for word in words:
            sub = _SUB.fullmatch(word)
            if sub and int(sub.group(1)) < len(self.subs):  # not a look-alike word
                made = self._producer(_words(_scan(self.subs[int(sub.group(1))])[0]))
                if made is not None:
                    out.append(made)
        return out

    def _producer(self, words: list[str]) -> tuple[list[Path], Filters] | None:
        """What a file-listing command (find, ls, fd, git ls-files, rg --files) lists."""
        words = _strip_wrappers(words)
        if not words:
            return None
        name = posixpath.basename(words[0])
        if name == "find":
            paths, filters, _exec = _find_parts(words[1:])
            return [typed(p, self.cwd) for p in paths or ["."]], filters
        if name in ("fd", "fdfind"):
            folders, filters, _command = _fd_parts(words[1:])
            return self._operands(folders or ["."]), filters
        if name == "ls" or (name == "rg" and "--files" in words):
            ops = [w for w in words[1:] if not w.startswith("-")]
            return self._operands(ops or ["."]), Filters()
        if name == "git" and "ls-files" in words:
            ops = [w for w in words[words.index("ls-files") + 1 :] if not w.startswith("-")]
            return [self.cwd], Filters(git=tuple(ops))
        return None

    # ---- commands

    def _command(self, simple: _Simple) -> None:
        if simple.words == ["("]:
            self.folders.append(self.cwd)
            return
        if simple.words == [")"]:
            self.cwd = self.folders.pop() if self.folders else self.cwd
            return
        words = self._redirects(simple.words)
        if words and words[0] == "for":
            if len(words) >= 3 and words[2] == "in":
                self.vars[words[1]] = words[3:]
            return
        words = _strip_wrappers(words)
        if not words:
            return
        name = posixpath.basename(words[0])
        args = words[1:]
        if name == "cd":
            target = args[0] if args and args[0] != "-" else "~"
            self.cwd = Path(os.path.normpath(typed(self._expand(target)[0], self.cwd)))
            return
        if name in _SHELLS and "-c" in args:
            at = args.index("-c")
            if at + 1 < len(args):
                self.acts.extend(Shell(self.cwd, self.depth + 1, self.inside).run(args[at + 1]))
            return
        if name == "git":
            self._git(args)
            return
        if name == "xargs":
            self._xargs(args, simple)
            return
        if name == "find":
            paths, filters, execs = _find_parts(args)
            for command in execs:
                self._bulk(command, [typed(p, self.cwd) for p in paths or ["."]], filters)
            return
        if name in ("fd", "fdfind"):
            folders, filters, command = _fd_parts(args)
            if command:
                self._bulk(command, self._operands(folders or ["."]), filters)
            return
        self._tool(name, args, simple.piped)

    def _redirects(self, words: list[str]) -> list[str]:
        kept: list[str] = []
        i = 0
        while i < len(words):
            if words[i] in _REDIRECTS:
                if words[i] == "<" and i + 1 < len(words):
                    target = words[i + 1]
                    if not _SUB.fullmatch(target):
                        self.acts.extend(_Read(p) for p in self._operands([target]))
                i += 2
                continue
            kept.append(words[i])
            i += 1
        return kept

    def _tool(self, name: str, args: list[str], piped: bool) -> None:
        if name in _READERS:
            files = _reader_operands(name, args)
            self.acts.extend(_Read(p) for p in self._operands(files))
            for folders, filters in self._produced(files):
                self.acts.extend(_Search(f, filters, "") for f in folders)
            return
        parse = _SEARCHERS.get(name)
        if parse is None:
            return
        got = parse(args)
        if got is None:  # not a content search (rg --files)
            return
        pattern, paths, filters, recursive = got
        if not paths and (not recursive if name in _GREPS else piped):
            return  # reads its standard input (grep without -r, rg at the end of a pipe)
        scopes = self._operands(paths) if paths else [self.cwd]
        for word in paths:
            if any(ch in word for ch in "*?["):
                self.acts.append(_Many(tuple(self._operands([word])), pattern))
        for folders, made in self._produced(paths):
            scopes.extend(folders)
            filters = _merge(filters, made)
            self.acts.append(_Many(tuple(folders), pattern))
        for scope in scopes:
            self.acts.append(_Search(scope, filters, pattern))

    def _git(self, args: list[str]) -> None:
        cwd = self.cwd
        while args and args[0].startswith("-"):
            if args[0] == "-C" and len(args) > 1:
                cwd = typed(args[1], cwd)
                args = args[2:]
            elif args[0] in ("-c", "--git-dir", "--work-tree") and len(args) > 1:
                args = args[2:]
            else:
                args = args[1:]
        if not args or args[0] != "grep":
            return  # git show / log / cat-file: history, not looked into
        pattern, specs = _git_grep(args[1:])
        if any(_tree_ish(s) for s in specs):
            return  # a search of a commit: git history
        skip = tuple(_unmagic(s) for s in specs if _excluding(s))
        keep = [s for s in specs if not _excluding(s)]
        scopes = [typed(s, cwd) for s in keep if not any(ch in s for ch in "*?[")] or [cwd]
        globs = tuple(s for s in keep if any(ch in s for ch in "*?["))
        for scope in scopes:
            self.acts.append(_Search(scope, Filters(git=globs, git_skip=skip), pattern))

    def _xargs(self, args: list[str], simple: _Simple) -> None:
        i = 0
        while i < len(args) and args[i].startswith("-"):
            i += 2 if args[i] in ("-I", "-n", "-P", "-L", "-d", "-E", "-s") else 1
        command = args[i:]
        made = self._producer(simple.before.words) if simple.before else None
        if command and made is not None:
            self._bulk(command, *made)

    def _bulk(self, command: list[str], folders: list[Path], filters: Filters) -> None:
        """``command`` run over every file a listing of ``folders`` gives (find -exec, xargs)."""
        command = _strip_wrappers(command)
        if not command:
            return
        name = posixpath.basename(command[0])
        pattern = ""
        if name in _SEARCHERS:
            got = _SEARCHERS[name](command[1:])
            if got is None:
                return
            pattern = got[0]
        elif name not in _READERS:
            return
        for folder in folders:
            self.acts.append(_Search(folder, filters, pattern))


def _simples(words: list[str]) -> Iterator[_Simple]:
    current: list[str] = []
    piped = False
    before: _Simple | None = None
    for word in [*words, ";"]:
        if word in _SEPARATORS:
            simple = _Simple(current, piped, before if piped else None)
            if current:
                yield simple
            piped = word in ("|", "|&")
            before = simple if current else before
            current = []
            if word in ("(", ")"):  # a subshell: its cd ends with it
                yield _Simple([word], False, None)
            continue
        current.append(word)


def _strip_wrappers(words: list[str]) -> list[str]:
    words = list(words)
    while words:
        first = words[0]
        if first in _KEYWORDS or re.fullmatch(r"[A-Za-z_]\w*=.*", first):
            words.pop(0)
        elif posixpath.basename(first) in _WRAPPERS:
            name = posixpath.basename(words.pop(0))
            valued = _WRAPPERS[name]
            while words and words[0].startswith("-") and words[0] != "-":
                option = words.pop(0)
                if option == "--":
                    break
                if len(option) == 2 and option[1] in valued and words:
                    words.pop(0)
            if name == "timeout" and words:
                words.pop(0)  # the duration
        else:
            break
    return words


def _options(
    args: Sequence[str], with_value: str, long_value: Iterable[str] = ()
) -> Iterator[tuple[str, str | None]]:
    """``(option, value)`` for options and ``("", operand)`` for operands, getopt style:
    ``with_value`` are the short letters that take a value (``-n 5``, ``-n5``), and
    ``long_value`` the long options that take one (``--glob x``, ``--glob=x``)."""
    longs = frozenset(long_value)
    i = 0
    rest = False
    while i < len(args):
        arg = args[i]
        i += 1
        if rest or arg == "-" or not arg.startswith("-"):
            yield "", arg
            continue
        if arg == "--":
            rest = True
            continue
        if arg.startswith("--"):
            key, eq, value = arg.partition("=")
            if eq:
                yield key, value
            elif key in longs and i < len(args):
                yield key, args[i]
                i += 1
            else:
                yield key, None
            continue
        for k, letter in enumerate(arg[1:], start=1):
            if letter in with_value:
                value = arg[k + 1 :]
                if not value and i < len(args):
                    value = args[i]
                    i += 1
                yield "-" + letter, value
                break
            if letter.isdigit() and k == 1:  # head -5
                yield "-" + arg[1:], None
                break
            yield "-" + letter, None


# ---- readers: the operands that are files


def _reader_operands(name: str, args: list[str]) -> list[str]:
    if name in ("sed", "gsed"):
        pairs = list(_options(args, "efl", ("--expression", "--file", "--line-length")))
        scripted = any(k in ("-e", "-f", "--expression", "--file") for k, _ in pairs)
        files = [v for k, v in pairs if not k and v is not None]
        return files if scripted else files[1:]
    if name in ("awk", "gawk", "mawk", "nawk"):
        pairs = list(_options(args, "fvF", ("--file", "--assign", "--field-separator")))
        scripted = any(k in ("-f", "--file") for k, _ in pairs)
        files = [v for k, v in pairs if not k and v is not None and "=" not in v]
        return files if scripted else files[1:]
    letters, longs = _READERS[name]
    return [v for k, v in _options(args, letters, longs) if not k and v is not None]


_READERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "cat": ("", ()),
    "tac": ("s", ("--separator",)),
    "nl": ("bdfhilnsvw", ()),
    "less": ("bhjkoOpPtTxyz", ("--pattern", "--tag", "--log-file")),
    "more": ("n", ()),
    "head": ("nc", ("--lines", "--bytes")),
    "tail": ("ncs", ("--lines", "--bytes", "--pid", "--sleep-interval")),
    "bat": ("lHrmp", ("--language", "--line-range", "--highlight-line", "--theme", "--style")),
    "batcat": ("lHrm", ("--language", "--line-range", "--highlight-line", "--theme")),
    "sed": ("", ()),
    "gsed": ("", ()),
    "awk": ("", ()),
    "gawk": ("", ()),
    "mawk": ("", ()),
    "nawk": ("", ()),
    "strings": ("nt", ()),
}


# ---- searchers: (pattern, paths, filters, recursive) or None when not a content search

_Parsed = tuple[str, list[str], Filters, bool] | None


def _grep(args: list[str]) -> _Parsed:
    pairs = _options(
        args,
        "efmABCdD",
        (
            "--regexp",
            "--file",
            "--max-count",
            "--after-context",
            "--before-context",
            "--context",
            "--include",
            "--exclude",
            "--exclude-dir",
            "--directories",
            "--devices",
            "--label",
            "--binary-files",
        ),
    )
    patterns: list[str] = []
    operands: list[str] = []
    names: list[str] = []
    skip: list[str] = []
    skip_dirs: list[str] = []
    recursive = False
    for key, value in pairs:
        if not key:
            operands.append(value or "")
        elif key in ("-e", "--regexp"):
            patterns.append(value or "")
        elif key in ("-r", "-R", "--recursive", "--dereference-recursive"):
            recursive = True
        elif key in ("-d", "--directories"):
            recursive = recursive or value == "recurse"
        elif key == "--include":
            names.append(value or "")
        elif key == "--exclude":
            skip.append(value or "")
        elif key == "--exclude-dir":
            skip_dirs.append(value or "")
        elif key in ("-f", "--file"):
            patterns.append("")
    if not patterns and operands:
        patterns.append(operands.pop(0))
    filters = Filters(names=tuple(names), skip_names=tuple(skip), skip_dirs=tuple(skip_dirs))
    return " ".join(patterns), operands, filters, recursive


def _rg(args: list[str]) -> _Parsed:
    pairs = _options(
        args,
        "efgtTmABCMjEdr",
        (
            "--regexp",
            "--file",
            "--glob",
            "--iglob",
            "--type",
            "--type-not",
            "--max-count",
            "--after-context",
            "--before-context",
            "--context",
            "--max-columns",
            "--threads",
            "--encoding",
            "--max-depth",
            "--replace",
            "--type-add",
            "--sort",
            "--sortr",
            "--color",
            "--colors",
            "--pre",
            "--pre-glob",
            "--ignore-file",
            "--max-filesize",
            "--path-separator",
        ),
    )
    patterns: list[str] = []
    operands: list[str] = []
    include: list[str] = []
    exclude: list[str] = []
    types: list[str] = []
    skip_types: list[str] = []
    for key, value in pairs:
        value = value or ""
        if not key:
            operands.append(value)
        elif key in ("-e", "--regexp"):
            patterns.append(value)
        elif key in ("-f", "--file"):
            patterns.append("")
        elif key in ("-g", "--glob", "--iglob"):
            (exclude.append(value[1:]) if value.startswith("!") else include.append(value))
        elif key in ("-t", "--type"):
            types.append(value)
        elif key in ("-T", "--type-not"):
            skip_types.append(value)
        elif key in ("--files", "--type-list"):
            return None
    if not patterns and operands:
        patterns.append(operands.pop(0))
    filters = Filters(
        include=tuple(include),
        exclude=tuple(exclude),
        types=tuple(types) if types else None,
        skip_types=tuple(skip_types),
    )
    return " ".join(patterns), operands, filters, True


def _ag(args: list[str]) -> _Parsed:
    pairs = _options(
        args, "GgABCmp", ("--ignore", "--ignore-dir", "--file-search-regex", "--depth")
    )
    operands: list[str] = []
    skip_dirs: list[str] = []
    for key, value in pairs:
        if not key:
            operands.append(value or "")
        elif key in ("-g", "--file-search-regex"):
            return None  # file names, not contents
        elif key in ("--ignore", "--ignore-dir"):
            skip_dirs.append(value or "")
    pattern = operands.pop(0) if operands else ""
    return pattern, operands, Filters(skip_dirs=tuple(skip_dirs)), True


def _git_grep(args: list[str]) -> tuple[str, list[str]]:
    pairs = list(
        _options(
            args,
            "efmABCO",
            ("--max-depth", "--threads", "--open-files-in-pager", "--max-count", "--context"),
        )
    )
    patterns = [v or "" for k, v in pairs if k in ("-e", "--regexp")]
    operands = [v or "" for k, v in pairs if not k]
    if not patterns and operands:
        patterns.append(operands.pop(0))
    return " ".join(patterns), operands


def _excluding(spec: str) -> bool:
    magic = spec.startswith(":(") and "exclude" in spec.split(")", 1)[0]
    return spec.startswith((":!", ":^")) or magic


def _unmagic(spec: str) -> str:
    if spec.startswith((":!", ":^")):
        return spec[2:]
    return spec.split(")", 1)[1] if spec.startswith(":(") else spec


def _tree_ish(spec: str) -> bool:
    """A ``git grep`` operand that names a commit (``HEAD``, ``HEAD~2``, ``main``)."""
    return bool(re.fullmatch(r"HEAD(?:[~^]\d*)*|[0-9a-f]{7,40}|@\{.*\}", spec))


def _merge(a: Filters, b: Filters) -> Filters:
    return Filters(
        include=a.include + b.include,
        exclude=a.exclude + b.exclude,
        names=a.names + b.names,
        skip_names=a.skip_names + b.skip_names,
        skip_dirs=a.skip_dirs + b.skip_dirs,
        types=a.types if b.types is None else b.types,
        skip_types=a.skip_types + b.skip_types,
        git=a.git + b.git,
        git_skip=a.git_skip + b.git_skip,
    )


_GREPS = frozenset({"grep", "egrep", "fgrep"})
_SEARCHERS: dict[str, Callable[[list[str]], _Parsed]] = {
    "grep": _grep,
    "egrep": _grep,
    "fgrep": _grep,
    "rg": _rg,
    "ag": _ag,
    "ack": _ag,
}


def _find_parts(args: list[str]) -> tuple[list[str], Filters, list[list[str]]]:
    """``find``'s start folders, the name filters of its expression, and the commands
    its ``-exec``/``-execdir``/``-ok`` actions run."""
    paths: list[str] = []
    i = 0
    while i < len(args) and not args[i].startswith(("-", "(", "!", ")")):
        paths.append(args[i])
        i += 1
    names: list[str] = []
    skip: list[str] = []
    paths_in: list[str] = []
    paths_out: list[str] = []
    execs: list[list[str]] = []
    negate = False
    while i < len(args):
        arg = args[i]
        if arg in ("!", "-not"):
            negate = True
            i += 1
            continue
        if arg in ("-name", "-iname") and i + 1 < len(args):
            (skip if negate else names).append(args[i + 1])
            i += 2
        elif arg in ("-path", "-ipath", "-wholename") and i + 1 < len(args):
            (paths_out if negate else paths_in).append(args[i + 1])
            i += 2
        elif arg in ("-exec", "-execdir", "-ok", "-okdir"):
            end = i + 1
            while end < len(args) and args[end] not in (";", "+", "\\;"):
                end += 1
            execs.append([a for a in args[i + 1 : end] if a != "{}"])
            i = end + 1
        else:
            i += 1
        negate = False
    start = paths[0] if paths else "."
    filters = Filters(
        names=tuple(names),
        skip_names=tuple(skip),
        git=tuple(_find_path_spec(p, start) for p in paths_in),
        git_skip=tuple(_find_path_spec(p, start) for p in paths_out),
    )
    return paths, filters, execs


def _fd_parts(args: list[str]) -> tuple[list[str], Filters, list[str]]:
    """``fd``'s folders, its extension and exclude filters, and its ``-x``/``-X`` command."""
    command: list[str] = []
    for flag in ("-x", "--exec", "-X", "--exec-batch"):
        if flag in args:
            at = args.index(flag)
            args, command = args[:at], [a for a in args[at + 1 :] if a not in ("{}", ";")]
            break
    operands: list[str] = []
    names: list[str] = []
    skip: list[str] = []
    pairs = _options(args, "etEdcSjg", ("--extension", "--type", "--exclude", "--max-depth"))
    for key, value in pairs:
        if not key:
            operands.append(value or "")
        elif key in ("-e", "--extension"):
            names.append("*." + (value or "").lstrip("."))
        elif key in ("-E", "--exclude"):
            skip.append(value or "")
    folders = operands[1:]  # the first operand is fd's pattern
    return folders, Filters(names=tuple(names), exclude=tuple(skip)), command


def _find_path_spec(pattern: str, start: str) -> str:
    """A ``find -path`` glob (matched against ``<start>/...``) as a pathspec below start."""
    prefix = start.rstrip("/") + "/"
    if pattern.startswith(prefix):
        return pattern[len(prefix) :]
    return "*" + pattern.lstrip("*") if not pattern.startswith("*") else pattern
