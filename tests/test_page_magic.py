"""Streamlit runs ``dashboard/app.py`` and each page of ``dashboard/views/`` as ``__main__``
with its "magic" on: a bare string at a module's top level (a docstring after an assignment,
say) is drawn on the page, above everything. Only the module docstring is allowed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

DASHBOARD = Path(__file__).resolve().parents[1] / "dashboard"
SCRIPTS = [DASHBOARD / "app.py", *sorted((DASHBOARD / "views").glob("*.py"))]


def drawn_strings(source: str) -> list[int]:
    """Lines of the top-level bare strings Streamlit's magic would draw (the module docstring
    is not drawn).

    >>> drawn_strings('"doc"\\nX = 1\\n"about X"\\n')
    [3]
    """
    body = ast.parse(source).body
    return [node.lineno for n, node in enumerate(body)
            if n > 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_no_page_script_draws_a_stray_string(script: Path) -> None:
    found = drawn_strings(script.read_text(encoding="utf-8"))
    assert not found, f"{script.name}: bare strings at lines {found} (make them comments)"
