"""Types as a gate: ``mypy --strict`` over every package, run from the test suite.

``--strict``: every function annotated, no implicit ``Any`` returns, generic types with their
arguments, no unused ``type: ignore``. The configuration is pyproject's ``[tool.mypy]``:
pandas' stubs come with the test extra; plotly and pyarrow have no type information that fits
the versions we use, and their modules alone are taken as untyped (module overrides, each with
its reason beside it).

A ``# type: ignore`` is allowed only with its error code and a reason after it
(``# type: ignore[arg-type]  # why``), so that each one says what it silences and why.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api", reason="mypy is part of the test extra")

ROOT = Path(__file__).resolve().parents[1]

PACKAGES = ("ofc_core", "ingest", "dashboard", "ofc_cli", "ofc_spark")
"""Every package of the product."""

IGNORE = re.compile(r"#\s*type:\s*ignore(?P<rest>.*)$")
REASONED = re.compile(r"\[[a-z][a-z-]*(?:,\s*[a-z][a-z-]*)*\]\s*#\s*\S")


def _mypy(*args: str) -> tuple[str, int]:
    out, err, status = api.run(["--strict", "--no-error-summary", "--config-file",
                                str(ROOT / "pyproject.toml"), "--cache-dir",
                                str(ROOT / ".mypy_cache"), *args])
    return out + err, status


def test_every_package_passes_mypy_strict() -> None:
    out, status = _mypy(*(str(ROOT / p) for p in PACKAGES))
    assert status == 0, out


def test_the_gate_fails_on_an_untyped_function(tmp_path: Path) -> None:
    """The check is real: a module with an unannotated function fails it."""
    bad = tmp_path / "untyped.py"
    bad.write_text("def twice(x):\n    return 2 * x\n", encoding="utf-8")
    out, status = _mypy(str(bad))
    assert status != 0 and "missing a type annotation" in out


def unreasoned_ignores(text: str) -> list[int]:
    """Line numbers of ``type: ignore`` comments without an error code and a reason.

    >>> unreasoned_ignores("a = 1  # type: ignore\\nb = 2  # type: ignore[misc]\\n"
    ...                    "c = 3  # type: ignore[misc]  # a reason\\n")
    [1, 2]
    """
    return [n for n, line in enumerate(text.splitlines(), start=1)
            if (m := IGNORE.search(line)) and not REASONED.match(m.group("rest").strip())]


def test_every_type_ignore_names_its_code_and_reason() -> None:
    found = {str(path.relative_to(ROOT)): lines for p in PACKAGES
             for path in sorted((ROOT / p).rglob("*.py"))
             if (lines := unreasoned_ignores(path.read_text(encoding="utf-8")))}
    assert not found, f"type: ignore without [code] and '# reason': {found}"
