"""The ``ofc`` command line as a whole: its help, options written between a command's words,
the message for a file that is not there, and an output file that exists (refused without
``--force``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ofc_cli.cli import build_parser, main


def _ofc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ofc_cli.cli", *args], capture_output=True,
                          text=True, timeout=300)


def test_help_says_score_reads_every_format() -> None:
    text = build_parser().format_help()
    assert "ofc-hh/1 files" not in text
    assert "every supported format" in text


def test_import_of_a_missing_file_names_it_once(tmp_path: Path) -> None:
    missing = tmp_path / "nothing-here.jsonl"
    out = _ofc("import", str(missing), "--db", str(tmp_path / "x.duckdb"))
    line = next(x for x in out.stdout.splitlines() if "not imported" in x)
    assert line.count("nothing-here.jsonl") == 1, line
    assert line == f"{missing}: not imported: no such file"


def test_simulate_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "hands.jsonl"
    out.write_text("precious\n", encoding="utf-8")
    args = ("simulate", "--variant", "regular", "--hands", "2", "--out", str(out))
    refused = _ofc(*args)
    assert refused.returncode == 2
    assert "already exists" in refused.stderr and "--force" in refused.stderr
    assert out.read_text(encoding="utf-8") == "precious\n"
    forced = _ofc(*args, "--force")
    assert forced.returncode == 0, forced.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2


def test_options_between_a_commands_words(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """``ofc me add --db x.duckdb ann`` as typed: argparse alone refused the name after the
    option ("unrecognized arguments: ann"); a real unknown option is still refused."""
    db = str(tmp_path / "x.duckdb")
    assert main(["me", "add", "--db", db, "ann", "--source", "swc"]) == 0
    assert main(["me", "--db", db]) == 0
    assert "ann  (only in Seals with Clubs: --source swc)" in capsys.readouterr().out
    assert main(["me", "add", "--db", db, "ann", "bo"]) == 2
    assert "one NAME at a time" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["me", "add", "--db", db, "--bogus", "ann"])
    assert exit_.value.code == 2
