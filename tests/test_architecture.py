"""The module map of docs/guide/architecture.md, checked from the source.

Every import statement of the package is read with :mod:`ast`, function-level
("lazy") imports included; only imports under ``if TYPE_CHECKING:`` are left
out, since they never run. From that graph: no import cycle, only ``plugin.py``
imports MkDocs, ``model.py`` imports nothing of the package but ``errors``, the
renderers in ``views/`` import none of the change machinery, and no module is
imported through a string.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mkdocs_adr"
NAME = "mkdocs_adr"


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import node that can run: all of them but those under TYPE_CHECKING."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """Absolute names of the modules an import statement loads."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
        return
    if node.level:
        is_package = MODULES[module].name == "__init__.py"
        base = module.split(".")
        drop = node.level - 1 if is_package else node.level
        base = base[: len(base) - drop] if drop else base
        prefix = ".".join([*base, node.module] if node.module else base)
    else:
        prefix = node.module or ""
    subs = [f"{prefix}.{a.name}" for a in node.names]
    # ``from . import cursor`` loads the submodule; the package itself runs as any
    # parent package does, which is not an import of ours
    if not all(s in MODULES for s in subs):
        yield prefix
    yield from (s for s in subs if s in MODULES)


def _lazy_modules(tree: ast.AST) -> Iterator[tuple[ast.Call, str | None]]:
    """Every ``lazy.module(...)`` call (docs/adr/0060) and the module it names, when that
    is a string literal."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        func = node.func
        if func.attr == "module" and isinstance(func.value, ast.Name) and func.value.id == "lazy":
            arg = node.args[0] if len(node.args) == 1 and not node.keywords else None
            named = arg.value if isinstance(arg, ast.Constant) else None
            yield node, named if isinstance(named, str) else None


def _graph() -> nx.DiGraph:
    graph: nx.DiGraph = nx.DiGraph()
    for module, path in MODULES.items():
        graph.add_node(module)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _runtime_imports(tree):
            for target in _targets(module, node):
                graph.add_edge(module, target, line=node.lineno)
        # a module loaded on first use is imported all the same
        for call, target in _lazy_modules(tree):
            if target is not None:
                graph.add_edge(module, target, line=call.lineno)
    return graph


GRAPH = _graph()


def _internal(module: str) -> set[str]:
    return {t for t in GRAPH.successors(module) if t == NAME or t.startswith(NAME + ".")}


def test_the_package_is_read() -> None:
    assert len(MODULES) > 50
    assert "mkdocs_adr.plugin" in MODULES
    assert GRAPH.number_of_edges() > 200


def test_no_import_cycle_lazy_imports_included() -> None:
    internal = GRAPH.subgraph(m for m in GRAPH if m in MODULES).copy()
    # importing a package's submodule runs the package first; that is not a cycle of ours
    cycles = [
        c
        for c in nx.simple_cycles(internal)
        if not (len(c) == 2 and (c[0].startswith(c[1] + ".") or c[1].startswith(c[0] + ".")))
    ]
    shown = sorted(" -> ".join([*c, c[0]]) for c in cycles)[:20]
    assert not cycles, f"{len(cycles)} import cycles, e.g.:\n" + "\n".join(shown)


def test_only_the_plugin_imports_mkdocs() -> None:
    offenders = sorted(
        f"{m} imports {t}"
        for m in MODULES
        for t in GRAPH.successors(m)
        if (t == "mkdocs" or t.startswith("mkdocs.")) and m != "mkdocs_adr.plugin"
    )
    assert not offenders, offenders


def test_model_imports_nothing_of_the_package_but_errors() -> None:
    assert _internal("mkdocs_adr.model") <= {"mkdocs_adr.errors"}


@pytest.mark.parametrize("view", sorted(m for m in MODULES if m.startswith("mkdocs_adr.views.")))
def test_views_never_reach_the_change_machinery(view: str) -> None:
    forbidden = {"plans", "journal", "fsops", "apply", "change"}
    bad = {t for t in _internal(view) if set(t.split(".")[1:2]) & forbidden}
    assert not bad, f"{view} imports {sorted(bad)}"


def test_no_module_is_imported_through_a_string() -> None:
    offenders = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in ("import_module", "__import__"):
                    offenders.append(f"{module}:{node.lineno}")
        # lazy.module takes the absolute name of one of the package's modules, written out
        for call, target in _lazy_modules(tree):
            if target not in MODULES:
                offenders.append(f"{module}:{call.lineno} lazy.module({target!r})")
    assert not offenders, offenders


def test_the_plugin_is_a_thin_adapter() -> None:
    lines = (PACKAGE / "plugin.py").read_text(encoding="utf-8").count("\n")
    assert lines <= 260, f"plugin.py has {lines} lines; its work belongs in site.py"


def test_every_command_module_is_registered() -> None:
    from mkdocs_adr.commands import all_commands

    families = sorted(
        m.rsplit(".", 1)[1]
        for m in MODULES
        if m.startswith("mkdocs_adr.commands.") and not m.rsplit(".", 1)[1].startswith("_")
    )
    registered = {c.callback.__module__.rsplit(".", 1)[1] for c in all_commands() if c.callback}
    assert families and set(families) == registered


def test_the_command_table_lists_every_command_of_every_module() -> None:
    """``commands.TABLE`` (what the CLI lists and loads lazily) is each module's
    ``COMMANDS``, by name, module and one-line help."""
    import importlib

    from mkdocs_adr.commands import TABLE

    defined: dict[str, tuple[str, str]] = {}
    for m in MODULES:
        family = m.rsplit(".", 1)[-1]
        if not m.startswith("mkdocs_adr.commands.") or family.startswith("_"):
            continue
        for command in importlib.import_module(m).COMMANDS:
            assert command.name is not None
            defined[command.name] = (family, command.get_short_help_str(limit=200))
    assert defined == TABLE


def test_a_command_imports_only_its_own_module() -> None:
    """``mkdocs-adr --help`` and ``guard`` (run on every tool call of an agent) import no
    other command's module."""
    code = (
        "import sys\n"
        "from mkdocs_adr.cli import main\n"
        "main(sys.argv[1:])\n"
        "print(sorted(m for m in sys.modules if m.startswith('mkdocs_adr.commands.')))\n"
    )
    for args, own in ((["--help"], []), (["guard", "--help"], ["guard"])):
        proc = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
        )
        loaded = proc.stdout.strip().splitlines()[-1]
        assert loaded == repr([f"mkdocs_adr.commands.{m}" for m in ["_common", *own]]), args


def test_importing_the_plugin_compiles_no_pattern_and_skips_cold_modules() -> None:
    """A replayed build (ADR-0051) imports the plugin and uses few of the parsing modules'
    patterns: importing it compiles none of them (``rx``) and leaves out the Markdown
    scanner, the section reader and the record reader (docs/adr/0058), and runs none of
    the modules that make views, read links or read statuses, or resolve and check
    records (docs/adr/0060)."""
    code = (
        "import sys\n"
        "import mkdocs_adr.plugin\n"
        "from mkdocs_adr import lazy, rx\n"
        "ran = sorted(m for m in list(sys.modules)\n"
        "             if m.startswith('mkdocs_adr') and lazy.loaded(m))\n"
        "patterns = [v for m in ran for v in vars(sys.modules[m]).values()\n"
        "            if isinstance(v, rx._Pattern)]\n"
        "print(len(patterns), sum('match' in vars(p) for p in patterns))\n"
        "print(ran)\n"
        "print('difflib' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    counts, loaded, difflib_loaded = proc.stdout.strip().splitlines()
    made, compiled = map(int, counts.split())
    assert made > 20, "the plugin's modules keep their patterns in rx"
    assert compiled == 0
    for cold in ("markdown", "sections", "reader", "batch", "bounds", "status", "titles"):
        assert f"'mkdocs_adr.parsing.{cold}'" not in loaded, cold
    for cold in ("svg", "graphdata", "graphpage", "index", "timeline", "current"):
        assert f"'mkdocs_adr.views.{cold}'" not in loaded, cold
    for cold in ("links", "identity", "checks"):  # a replayed log resolves nothing
        assert f"'mkdocs_adr.{cold}'" not in loaded, cold
    assert difflib_loaded == "False", "difflib is for 'did you mean', on a miss"


def test_a_lazy_module_is_the_real_one_once_read() -> None:
    """``lazy.module`` defers the import to the first attribute read, then is the module;
    an imported module is given as it is."""
    code = (
        "import sys\n"
        "from mkdocs_adr import lazy\n"
        "m = lazy.module('mkdocs_adr.views.timeline')\n"
        "print(lazy.loaded('mkdocs_adr.views.timeline'), 'mkdocs_adr.views.index' in sys.modules)\n"
        "months = m.months\n"
        "print(lazy.loaded('mkdocs_adr.views.timeline'), lazy.loaded('mkdocs_adr.views.index'))\n"
        "import mkdocs_adr.views.timeline as real\n"
        "print(real is m, lazy.module('mkdocs_adr.views.timeline') is m, real.months is months)\n"
        "try:\n"
        "    lazy.module('mkdocs_adr.no_such_module')\n"
        "except ModuleNotFoundError as exc:\n"
        "    print(exc.name)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.split("\n")[:4] == [
        "False False",
        "True True",
        "True True True",
        "mkdocs_adr.no_such_module",
    ]


def test_a_load_with_nothing_to_parse_imports_no_reader() -> None:
    """A warm ``context`` or ``find`` parses nothing: it never imports the reader."""
    code = (
        "import sys\n"
        "from mkdocs_adr import log\n"
        "assert log.parse_many([], None) == []\n"
        "print('mkdocs_adr.parsing.reader' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "False"
