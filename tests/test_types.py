"""Types as a gate: ``mypy --strict`` on the code that is typed, run from the test suite.

What is checked, strictly (``--strict``: every function annotated, no implicit ``Any`` returns,
generic types with their arguments):

- all of ``ofc_core`` (rules and scoring, and the play wing ``ofc_core/play``);
- the ``ingest`` modules listed in ``INGEST_TYPED`` (the package's ``__init__``, the store, the
  format registry, the CSV reader, the text decoding, the user's names), each on its own with
  imported modules' errors silenced (``--follow-imports=silent``), so that a module not yet
  typed does not fail them.

What is not checked yet: the other ``ingest`` modules (the ofc-hh reader and its fast path, the
live notation reader, the hand tables and the importer, about 50 strict errors on 2026-12-01),
``dashboard`` and ``ofc_cli``. A module moves into ``INGEST_TYPED`` once it passes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api", reason="mypy is part of the test extra")

ROOT = Path(__file__).resolve().parents[1]

INGEST_TYPED = (
    "ingest/__init__.py",
    "ingest/store.py",
    "ingest/formats/__init__.py",
    "ingest/formats/csv_boards.py",
    "ingest/formats/encoding.py",
    "ingest/identity.py",
    "ingest/watch.py",
)


def _mypy(*args: str) -> tuple[str, int]:
    out, err, status = api.run(["--strict", "--no-error-summary", "--cache-dir",
                                str(ROOT / ".mypy_cache"), *args])
    return out + err, status


def test_ofc_core_passes_mypy_strict() -> None:
    out, status = _mypy(str(ROOT / "ofc_core"))
    assert status == 0, out


def test_typed_ingest_modules_pass_mypy_strict() -> None:
    out, status = _mypy("--follow-imports=silent", *(str(ROOT / p) for p in INGEST_TYPED))
    assert status == 0, out


def test_the_gate_fails_on_an_untyped_function(tmp_path: Path) -> None:
    """The check is real: a module with an unannotated function fails it."""
    bad = tmp_path / "untyped.py"
    bad.write_text("def twice(x):\n    return 2 * x\n", encoding="utf-8")
    out, status = _mypy(str(bad))
    assert status != 0 and "missing a type annotation" in out
