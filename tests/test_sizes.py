"""Rooms with one job: no product function longer than 60 lines and no product module longer
than 500, unless its docstring says why (a sentence starting "Why"). A module that does
several jobs is split by job; one that does one long job says so where a reader looks first.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ofc_core", "ingest", "dashboard", "ofc_cli", "ofc_spark")
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 500


def _says_why(node: ast.AST) -> bool:
    doc = ast.get_docstring(node) if isinstance(
        node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) else None
    return doc is not None and "Why" in doc


def oversized(source: str, name: str) -> list[str]:
    """What in ``source`` is too long without a reason: the module, and each function.

    >>> oversized("def f():\\n" + "    x = 1\\n" * 60, "m.py")
    ['m.py:1 f: 61 lines']
    >>> oversized('def f():\\n    "Why: one job."\\n' + "    x = 1\\n" * 60, "m.py")
    []
    """
    tree = ast.parse(source)
    found = []
    lines = source.count("\n")
    if lines > MAX_MODULE_LINES and not _says_why(tree):
        found.append(f"{name}: {lines} lines")
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES and not _says_why(node):
                found.append(f"{name}:{node.lineno} {node.name}: {length} lines")
    return found


def test_no_product_function_or_module_is_too_long_without_a_reason() -> None:
    found = [problem for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             for problem in oversized(path.read_text(encoding="utf-8"),
                                      str(path.relative_to(ROOT)))]
    assert not found, "split by job, or say why in the docstring: " + "; ".join(found)
