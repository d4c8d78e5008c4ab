"""Layering contract: the pure core never imports UI or database libraries, and the import
layer never imports the UI. Checked in a fresh interpreter, so other tests cannot mask it."""

import json
import subprocess
import sys

import pytest

FORBIDDEN_IN_CORE = {"streamlit", "duckdb", "pandas", "plotly"}


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
    import pkgutil

    import ofc_core

    names = [f"ofc_core.{m.name}" for m in pkgutil.iter_modules(ofc_core.__path__)]
    loaded = modules_loaded_by("\n".join(f"import {n}" for n in names))
    assert not loaded & FORBIDDEN_IN_CORE, loaded & FORBIDDEN_IN_CORE
