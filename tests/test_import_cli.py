"""``ofc import``, ``ofc rescore``, ``ofc export`` and ``ofc score --db`` as a user runs them,
in subprocesses: exit codes, JSON, messages, a killed import, two imports at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from benchmarks.bench_import import generate
from ingest.api import import_paths
from tests.helpers.store import query

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
GOLDEN = ROOT / "tests" / "golden" / "import"


def ofc(*args: str, env: dict[str, str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ofc_cli.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def test_import_json_and_exit_status(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    good = ofc("import", str(GOLDEN / "session.jsonl"), "--db", str(db), "--json")
    assert good.returncode == 0, good.stderr
    obj = json.loads(good.stdout)
    assert (obj["stored"], obj["duplicate"], obj["partial"], obj["rejected"]) == (3, 0, 0, 0)
    assert obj["files"][0]["path"] == str(GOLDEN / "session.jsonl")
    assert obj["files"][0]["format"] == "ofc-hh/1" and obj["files"][0]["errors"] == []
    again = json.loads(ofc("import", str(GOLDEN / "session.jsonl"), "--db", str(db),
                           "--json").stdout)
    assert (again["stored"], again["duplicate"]) == (0, 3)
    bad = ofc("import", str(SAMPLES / "bad-hands.jsonl"), "--db", str(db), "--json")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    errors = json.loads(bad.stdout)["files"][0]["errors"]
    assert errors and all(set(e) == {"line", "hand_id", "message"} for e in errors)
    line4 = next(e for e in errors if e["line"] == 4)
    assert line4["hand_id"] == "b04-card-twice" and "Qh" in line4["message"]


def test_import_uses_ofc_db_and_prints_a_readable_summary(tmp_path: Path) -> None:
    db = tmp_path / "env.duckdb"
    out = ofc("import", str(SAMPLES), env={"OFC_DB": str(db)})
    assert out.returncode == 1  # the samples include bad hands
    assert db.exists()
    text = out.stdout
    assert "bad-hands.jsonl [ofc-hh/1]:" in text and "rejected" in text
    assert "line 4: hand 'b04-card-twice': card Qh appear" in text
    assert "partial (last hand still being written" in text
    assert text.strip().splitlines()[-1].startswith("total: ")
    assert out.stderr == ""  # no progress bar when stderr is not a terminal


def test_import_while_another_process_holds_the_database(tmp_path: Path) -> None:
    db = tmp_path / "busy.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time, duckdb; c = duckdb.connect(sys.argv[1]); "
         "print('ready', flush=True); time.sleep(60)", str(db)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        out = ofc("import", str(GOLDEN / "session.jsonl"), "--db", str(db), "--wait", "0.5")
    finally:
        holder.kill()
        holder.wait()
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert "is held by another process (an import or a rescore still running, or an older " \
           "dashboard?). Retry when it is done." in out.stderr
    assert "waiting" in out.stderr


def test_score_db_prints_what_score_file_prints(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    files = [str(GOLDEN / "session.jsonl")] + [str(SAMPLES / n) for n in (
        "regular.jsonl", "pineapple.jsonl", "rules-overrides.jsonl", "double-match.jsonl",
        "nasty-names.jsonl", "turbo-streets.jsonl")]
    assert import_paths(files, db).exit_code == 0  # the store the command reads (set up here)
    from_files = ofc("score", *files, "--json")
    from_db = ofc("score", "--db", str(db), "--json")
    assert from_files.returncode == from_db.returncode == 0
    lines = from_db.stdout.splitlines()
    assert len(lines) == len(from_files.stdout.splitlines()) > 20
    assert [json.loads(x) for x in lines] == [json.loads(x) for x in from_files.stdout.splitlines()]
    tables = ofc("score", "--db", str(db))
    assert tables.returncode == 0 and "Pair of Sixes" in tables.stdout


def test_score_db_errors(tmp_path: Path) -> None:
    missing = ofc("score", "--db", str(tmp_path / "none.duckdb"), "--json")
    assert missing.returncode == 2 and "import some logs first" in missing.stderr
    both = ofc("score", str(GOLDEN / "session.jsonl"), "--db", str(tmp_path / "x.duckdb"))
    assert both.returncode == 2 and "not both" in both.stderr


def test_rescore_command(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([GOLDEN / "session.jsonl"], db)  # the store the command rescores
    before = query(db, "SELECT * EXCLUDE (played_at) FROM hand_players ORDER BY ALL")
    con = duckdb.connect(str(db))
    con.execute("UPDATE hand_players SET points = 0")
    con.close()
    out = ofc("rescore", "--db", str(db))
    assert out.returncode == 0 and "rescored 3 hands" in out.stdout
    assert query(db, "SELECT * EXCLUDE (played_at) FROM hand_players ORDER BY ALL") == before


def test_export_writes_readable_parquet(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([GOLDEN / "session.jsonl", SAMPLES / "double-match.jsonl"], db)
    out_dir = tmp_path / "export"
    out = ofc("export", "--db", str(db), "--parquet", str(out_dir))
    assert out.returncode == 0, out.stderr
    hands = pq.read_table(out_dir / "hands", partitioning="hive")
    assert hands.num_rows == 6
    parts = sorted(p.relative_to(out_dir / "hands").parts[:2]
                   for p in (out_dir / "hands").rglob("*.parquet"))
    assert parts == [("variant=double", "month=2026-11"), ("variant=pineapple", "month=2026-03"),
                     ("variant=regular", "month=2026-03")]
    players = pq.read_table(out_dir / "hand_players", partitioning="hive")
    assert players.num_rows == query(db, "SELECT count(*) FROM hand_players")[0][0]
    assert set(players.column_names) >= {"hand_key", "seat", "points", "variant", "month"}
    for name in ("imports", "rejected", "meta"):
        assert pq.read_table(out_dir / f"{name}.parquet").num_rows == \
            query(db, f"SELECT count(*) FROM {name}")[0][0]
    # Exporting again replaces the previous export.
    assert ofc("export", "--db", str(db), "--parquet", str(out_dir)).returncode == 0
    assert pq.read_table(out_dir / "hands", partitioning="hive").num_rows == 6


KILLED_HANDS = 10_000
"""Hands of the file the killed import reads (see the test)."""


@pytest.mark.slow
def test_a_killed_import_leaves_all_or_none_of_the_file(tmp_path: Path) -> None:
    """The import is killed once DuckDB has started writing the file's hands. The file is big
    enough for DuckDB to write before the commit: its :data:`KILLED_HANDS` hands make
    15 placements each, more rows than a DuckDB row group holds (122,880), and DuckDB writes a
    full row group of a transaction into the database file before it commits; a kill then
    must leave none of the file visible. A bigger file proves nothing more (it was 40,000)."""
    db = tmp_path / "t.duckdb"
    assert ofc("import", str(GOLDEN / "session.jsonl"), "--db", str(db)).returncode == 0
    big = generate(tmp_path / "big", KILLED_HANDS, per_file=KILLED_HANDS, seed=3)[0]
    proc = subprocess.Popen([sys.executable, "-m", "ofc_cli.cli", "import", str(big), "--db",
                             str(db)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    # Kill it once DuckDB has started writing the file's hands (or after 20 s).
    before = db.stat().st_size
    wal = db.with_name(db.name + ".wal")
    deadline = time.monotonic() + 20
    while proc.poll() is None and time.monotonic() < deadline:
        if db.stat().st_size > before or (wal.exists() and wal.stat().st_size > 0):
            break
        time.sleep(0.05)
    killed = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    hands = query(db, "SELECT count(*) FROM hands WHERE source = 'bench'")[0][0]
    ledger = query(db, "SELECT count(*), sum(stored) FROM imports WHERE path = ?", [str(big)])[0]
    assert killed or hands == KILLED_HANDS
    assert hands in (0, KILLED_HANDS)
    assert ledger == ((0, None) if hands == 0 else (1, KILLED_HANDS))
    assert query(db, "SELECT count(*) FROM hands WHERE source = 'golden'")[0][0] == 3
    for table in ("hand_players", "hand_rows", "placements", "pairs"):
        orphans = query(db, f"SELECT count(*) FROM {table} WHERE hand_key NOT IN "
                            "(SELECT hand_key FROM hands)")[0][0]
        assert orphans == 0, table
    # The same file imported again completes it.
    again = ofc("import", str(big), "--db", str(db), "--json")
    result = json.loads(again.stdout)
    assert (result["stored"] + result["duplicate"], result["rejected"]) == (KILLED_HANDS, 0)
    assert query(db, "SELECT count(*) FROM hands WHERE source = 'bench'")[0][0] == KILLED_HANDS


@pytest.mark.slow
def test_two_processes_importing_at_once(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    logs = generate(tmp_path / "logs", 6_000, per_file=2_000, seed=5)
    first = subprocess.Popen([sys.executable, "-m", "ofc_cli.cli", "import", str(logs[0]),
                              str(logs[1]), "--db", str(db), "--json"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen([sys.executable, "-m", "ofc_cli.cli", "import", str(logs[1]),
                               str(logs[2]), "--db", str(db), "--json"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out1, err1 = first.communicate(timeout=300)
    out2, err2 = second.communicate(timeout=300)
    assert first.returncode == 0 and second.returncode == 0, (err1, err2)
    r1, r2 = json.loads(out1), json.loads(out2)
    assert r1["stored"] + r2["stored"] == 6_000
    assert r1["duplicate"] + r2["duplicate"] == 2_000
    assert query(db, "SELECT count(*), count(DISTINCT hand_id) FROM hands")[0] == (6_000, 6_000)
    assert query(db, "SELECT count(*) FROM hand_players")[0][0] == 18_000


def test_progress_bar_draws_only_on_a_terminal() -> None:
    import io

    from ofc_cli.terminal import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen, pipe = Terminal(), io.StringIO()
    for stream in (screen, pipe):
        with Progress("importing", "B", stream=stream) as bar:
            bar(50, 100, "s1.jsonl: 5 hands")
            bar(100, 100, "\x1b[2Js2.jsonl: 9 hands")
    assert pipe.getvalue() == ""
    drawn = screen.getvalue()
    assert drawn.startswith("\rimporting") and "100/100 [" in drawn
    assert "s2.jsonl: 9 hands" in drawn and "\x1b[2J" not in drawn  # a file's name is data
    assert "\\x1b[2J" in drawn
