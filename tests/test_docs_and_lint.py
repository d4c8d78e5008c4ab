"""The generated rules document is current, and the code passes the linter."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ofc_core.describe import rules_markdown

ROOT = Path(__file__).resolve().parent.parent


def test_rules_doc_is_generated_from_the_ruleset_data() -> None:
    on_disk = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert on_disk.strip() == rules_markdown().strip(), (
        "docs/rules.md is stale: run `python -m ofc_core.describe > docs/rules.md`")


def test_ruff_passes() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.fail("ruff is not installed: it is part of the test extra (pip install -e .[test])")
    out = subprocess.run([ruff, "check", "--no-cache", str(ROOT)], capture_output=True,
                         text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
