"""Layering contract, read from the source: every import of every module of the project
(``ast``, so imports inside functions and ``importlib.import_module`` with a literal name count
too; relative imports resolved) follows the allowed arrows, and the modules import each other
without cycles.

The arrows (docs/architecture.md):

- ``ofc_cli`` (the ``ofc`` command) may import everything; nothing imports it;
- ``dashboard`` imports ``ofc_core`` and, of ingest, only its public API ``ingest.api``;
- ``ingest`` imports ``ofc_core``;
- ``ofc_spark`` (Spark jobs, when the package is there) imports ``ingest`` and ``ofc_core``;
- ``ofc_core.play`` (engine, bots) imports the rest of ``ofc_core``;
- ``ofc_core``'s rules and scoring wing imports nothing of the project outside itself.

``tests/`` and ``benchmarks/`` are free. The checker is also run on the project with a
forbidden module planted (its source read beside the real files: nothing is copied or
written), to show it catches each kind of violation. Separately, a fresh interpreter checks
that loading the core loads no UI or database library.
"""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ofc_core", "ingest", "dashboard", "ofc_cli", "ofc_spark")
"""The project's packages (``ofc_spark`` is checked when it exists)."""
FORBIDDEN_IN_CORE = {"streamlit", "duckdb", "pandas", "plotly"}


# --------------------------------------------------------------------------------------------
# Reading the imports


def project_modules(root: Path) -> dict[str, Path]:
    """``{module name: file}`` of every module of the project's packages under ``root`` (a
    package is named by its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            found[module_name(path.relative_to(root))] = path
    return found


def module_name(relative: Path) -> str:
    """``ingest/formats/live.py`` -> ``ingest.formats.live``; a package is its ``__init__``."""
    parts = relative.with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of ``from <level dots><name> import ...`` written in ``module``."""
    if level == 0:
        return name or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _dynamic_name(node: ast.Call) -> str | None:
    """The module named by ``importlib.import_module("x.y")`` (or, for an f-string, the
    package its literal start names: ``f"ingest.formats.{name}"`` -> ``ingest.formats``)."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called != "import_module" or not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        prefix = str(arg.values[0].value)
        return prefix.rsplit(".", 1)[0] if "." in prefix else prefix
    return None


def imported_names(module: str, path: Path, source: str | None = None) -> set[str]:
    """Every dotted name ``module`` imports anywhere in its source (``from a import b`` gives
    ``a.b``: the module ``a.b`` if there is one, else a name of ``a``); ``source`` is the
    file's text when given, else read from ``path``."""
    if source is None:
        return set(_names_in_file(module, path))
    return _names(module, _is_package(path), ast.parse(source, str(path)))


@functools.cache
def _names_in_file(module: str, path: Path) -> frozenset[str]:
    """:func:`imported_names` of a file of the tree (parsed once a session)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return frozenset(_names(module, _is_package(path), tree))


def _names(module: str, is_package: bool, tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node.level, node.module)
            names.update(base if alias.name == "*" else f"{base}.{alias.name}"
                         for alias in node.names)
        elif isinstance(node, ast.Call):
            name = _dynamic_name(node)
            if name:
                names.add(name)
    return names


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module a dotted name lands in (its longest prefix that is one)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def import_graph(root: Path, planted: Mapping[str, str] | None = None) -> dict[str, set[str]]:
    """``{module: project modules it imports}`` (itself left out), of the tree at ``root``
    with the ``planted`` files added (``{relative path: source}``, and an empty
    ``__init__.py`` beside each where the tree has none), read without touching the tree."""
    modules = project_modules(root)
    sources: dict[str, str] = {}
    for relative, source in (planted or {}).items():
        path = root / relative
        init = path.parent / "__init__.py"
        if init not in modules.values() and str(init.relative_to(root)) not in (planted or {}):
            modules.setdefault(module_name(init.relative_to(root)), init)
            sources.setdefault(module_name(init.relative_to(root)), "")
        modules[module_name(Path(relative))] = path
        sources[module_name(Path(relative))] = textwrap.dedent(source)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        names = imported_names(module, path, sources.get(module))
        targets = {_resolve(n, modules) for n in names}
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


# --------------------------------------------------------------------------------------------
# The arrows


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _part(module: str) -> str:
    """The part of the house a module belongs to."""
    if _within(module, "ofc_core.play"):
        return "play"
    if _within(module, "ofc_core"):
        return "core"
    return module.split(".")[0]


ALLOWED: dict[str, tuple[str, ...]] = {
    "ofc_cli": ("ofc_cli", "dashboard", "ofc_spark", "ingest", "play", "core"),
    "dashboard": ("dashboard", "ingest-api", "play", "core"),
    "ofc_spark": ("ofc_spark", "ingest", "play", "core"),
    "ingest": ("ingest", "play", "core"),
    "play": ("play", "core"),
    "core": ("core",),
}
"""For each part, the parts it may import (``ingest-api``: ``ingest`` and ``ingest.api``
only)."""


def _allowed(source: str, target: str) -> bool:
    kinds = ALLOWED[_part(source)]
    part = _part(target)
    if part == "ingest" and "ingest" not in kinds:
        return "ingest-api" in kinds and target in ("ingest", "ingest.api")
    return part in kinds


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import against the arrows, as ``'source -> target'``."""
    return sorted(f"{source} -> {target}" for source, targets in graph.items()
                  for target in targets if not _allowed(source, target))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or not (Tarjan's strongly
    connected components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


# --------------------------------------------------------------------------------------------
# The project as it is


def test_every_import_follows_the_arrows() -> None:
    graph = import_graph(ROOT)
    assert {m.split(".")[0] for m in graph} >= {"ofc_core", "ingest", "dashboard", "ofc_cli"}
    assert "ofc_core.play.engine" in graph and "ingest.api" in graph
    assert violations(graph) == []


def test_no_cycles_between_modules() -> None:
    assert cycles(import_graph(ROOT)) == []


def test_the_reader_sees_imports_inside_functions_relative_and_dynamic() -> None:
    """The real project's hidden arrows are seen (so a clean result means something)."""
    graph = import_graph(ROOT)
    assert "ingest.store" in graph["ingest.pipeline"]  # from . import fast_path, store
    assert "ingest.formats.ofc_hh" in graph["ingest.formats.ofc_hh_fast"]
    assert "ofc_cli" in graph["ofc_cli.cli"]  # importlib.import_module(f"ofc_cli.cmd_{name}")
    assert "ingest.api" in graph["dashboard.demo"]


# --------------------------------------------------------------------------------------------
# Planted violations: the checker catches each kind


PLANTED = [
    ("ingest/planted.py", "def f():\n    from dashboard import demo\n",
     "ingest.planted -> dashboard.demo"),
    ("ingest/formats/planted.py", "import importlib\nimportlib.import_module('dashboard.db')\n",
     "ingest.formats.planted -> dashboard.db"),
    ("ingest/planted.py", "def f():\n    import ofc_cli.cli\n", "ingest.planted -> ofc_cli.cli"),
    ("dashboard/planted.py", "from ingest import store\n", "dashboard.planted -> ingest.store"),
    ("dashboard/views/planted.py", "def f():\n    from ingest.pipeline import import_files\n",
     "dashboard.views.planted -> ingest.pipeline"),
    ("ofc_core/planted.py", "from .play import policies\n",
     "ofc_core.planted -> ofc_core.play.policies"),
    ("ofc_core/planted.py", "import ingest.hand_tables\n",
     "ofc_core.planted -> ingest.hand_tables"),
    ("ofc_core/play/planted.py", "def f():\n    from ...ingest import store\n",
     "ofc_core.play.planted -> ingest.store"),
    ("ofc_core/play/planted.py", "from dashboard import cards\n",
     "ofc_core.play.planted -> dashboard.cards"),
    ("ofc_spark/planted.py", "from dashboard import db\n", "ofc_spark.planted -> dashboard.db"),
    ("ingest/planted.py", "from ofc_spark import planted_job\n",
     "ingest.planted -> ofc_spark.planted_job"),
]


@pytest.mark.parametrize(("where", "source", "caught"), PLANTED,
                         ids=[p[2] for p in PLANTED])
def test_a_planted_forbidden_import_is_caught(where: str, source: str, caught: str) -> None:
    assert violations(import_graph(ROOT)) == []  # the tree is clean before the plant
    planted = {where: source}
    if "ofc_spark.planted_job" in caught:
        planted["ofc_spark/planted_job.py"] = "from ingest import api\n"
    assert violations(import_graph(ROOT, planted)) == [caught]


def test_allowed_imports_are_not_caught() -> None:
    graph = import_graph(ROOT, {
        "ofc_spark/jobs.py": "from ingest import api, pipeline\nimport ofc_core.batch\n",
        "dashboard/planted.py": "import ingest\nfrom ingest.api import connect\n",
        "ofc_core/play/planted.py": "from ofc_core import rules\n",
        "ofc_cli/cmd_planted.py": "import dashboard.db, ingest.store, ofc_spark.jobs\n"})
    assert graph["ofc_spark.jobs"] >= {"ingest.api", "ingest.pipeline", "ofc_core.batch"}
    assert violations(graph) == []


def test_a_planted_cycle_is_caught() -> None:
    assert cycles(import_graph(ROOT, {
        "ingest/planted_a.py": "from . import planted_b\n",
        "ingest/planted_b.py": "def later():\n    from ingest import planted_c\n",
        "ingest/planted_c.py": "import ingest.planted_a\n"})) == [
        ["ingest.planted_a", "ingest.planted_b", "ingest.planted_c"]]


# --------------------------------------------------------------------------------------------
# Loading the core loads no UI or database library (a fresh interpreter: other tests cannot
# mask it)


def modules_loaded_by(statement: str) -> set[str]:
    code = f"import sys, json\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return {m.split(".")[0] for m in json.loads(out.stdout)}


@pytest.mark.parametrize("module", [
    "ofc_core.cards", "ofc_core.evaluate", "ofc_core.board", "ofc_core.rules",
    "ofc_core.scoring", "ofc_core.hand", "ofc_core",
])
def test_core_imports_no_ui_or_database(module: str) -> None:
    loaded = modules_loaded_by(f"import {module}")
    assert module.split(".")[0] in loaded
    assert not loaded & FORBIDDEN_IN_CORE


def test_core_package_imports_nothing_forbidden_in_any_module() -> None:
    names = [m for m in project_modules(ROOT) if _within(m, "ofc_core")]
    assert "ofc_core.play.engine" in names
    loaded = modules_loaded_by("\n".join(f"import {n}" for n in names))
    assert not loaded & FORBIDDEN_IN_CORE, loaded & FORBIDDEN_IN_CORE


# --------------------------------------------------------------------------------------------
# Tests share helpers through tests/helpers and fixtures through conftest, never by importing
# another test module (a fixture imported so is a second copy: another browser, another server)


def test_no_test_module_imports_another() -> None:
    tests = ROOT / "tests"
    found = []
    for path in sorted(tests.rglob("*.py")):
        module = module_name(path.relative_to(ROOT))
        for name in imported_names(module, path):
            last = name.split(".")
            if any(part.startswith("test_") for part in last[:3]) and name != module:
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert found == []
