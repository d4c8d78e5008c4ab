"""The review job (ingest.review_job): one review per store, started as a process of its own,
followed by its status file, cancelled keeping what is stored, seen by ``ofc review --status``
and refused to a second ``ofc review``; the auto-review setting after an import."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import duckdb
import pytest

from ingest import api, review_job
from ofc_cli.cli import main

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "pineapple.Hero.jsonl"
HANDS = 8
QUICK = ["--rollouts", "16", "--policy", "best-of-24"]


@pytest.fixture()
def small_db(tmp_path: Path) -> Path:
    log = tmp_path / "small.jsonl"
    log.write_text("".join(DEMO.read_text().splitlines(keepends=True)[:HANDS]))
    db = tmp_path / "s.duckdb"
    assert main(["import", str(log), "--db", str(db)]) == 0
    return db


def stored(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute("SELECT count(*) FROM decisions").fetchone()
    finally:
        con.close()
    return int(row[0]) if row else 0


def wait_for(test, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def command(db: Path) -> list[str]:
    return [sys.executable, "-m", "ofc_cli.cli", "review", "--db", str(db), "--origin",
            "dashboard", *QUICK]


def seats(db: Path) -> list[tuple[str, str, str]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT source, hand_id, 'Hero' FROM hands ORDER BY hand_key"
                           ).fetchall()
    finally:
        con.close()
    return [(str(s), str(h), str(p)) for s, h, p in rows]


def test_status_says_none_ran_then_what_the_last_did(small_db: Path, capsys):
    assert main(["review", "--db", str(small_db), "--status"]) == 1
    assert "no review has run" in capsys.readouterr().out
    assert main(["review", "--db", str(small_db), "--player", "Hero", *QUICK]) == 0
    capsys.readouterr()
    assert main(["review", "--db", str(small_db), "--status"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("the last review is done: Hero's hands, 8 of 8 reviewed")
    assert f"{stored(small_db)} decisions stored" in line and "policy best-of-24" in line


def test_a_second_review_of_the_store_is_refused_with_whose_job_it_is(small_db: Path, capsys):
    with review_job.claim(small_db, api.JobStatus(player="Hero", origin="dashboard")) as job:
        job.begin(37, "learned", "0.5 points")
        job.progress(12, 70)
        assert main(["review", "--db", str(small_db), "--player", "Hero", *QUICK]) == 3
        said = capsys.readouterr().err
        assert main(["review", "--db", str(small_db), "--status"]) == 0
        status = capsys.readouterr().out
    assert "a review is already running on s.duckdb" in said
    assert "12 of 37 done" in said and "started by the dashboard" in said
    assert status.startswith("reviewing Hero's hands: 12 of 37 done")
    assert stored(small_db) == 0


def test_a_started_job_cancels_keeping_what_is_stored_and_starts_again(small_db: Path,
                                                                     capsys):
    todo = seats(small_db)
    first = api.start_review(small_db, command(small_db), todo,
                             api.JobStatus(player="Hero", origin="dashboard"))
    assert first.running and first.total == HANDS and first.pid
    with pytest.raises(api.ReviewBusy):  # the lock went with the process: no second job
        api.start_review(small_db, command(small_db), todo, api.JobStatus(player="Hero"))
    wait_for(lambda: (s := api.review_status(small_db)) is not None and s.done >= 1)
    assert api.cancel_review(small_db)
    wait_for(lambda: not api.review_status(small_db).running)
    ended = api.review_status(small_db)
    assert ended.state == "cancelled" and 1 <= ended.done < HANDS
    assert ended.decisions == stored(small_db) > 0
    assert not api.cancel_review(small_db)  # nothing runs
    left = [s for s in todo if s[1] not in _reviewed(small_db)]
    assert len(left) == HANDS - ended.done
    again = api.start_review(small_db, command(small_db), left,
                             api.JobStatus(player="Hero", origin="dashboard"))
    assert again.total == len(left)
    wait_for(lambda: not api.review_status(small_db).running)
    assert api.review_status(small_db).state == "done"
    assert main(["review", "--db", str(small_db), "--player", "Hero", *QUICK]) == 0
    assert f"{HANDS} already reviewed" in capsys.readouterr().out


def _reviewed(db: Path) -> set[str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {str(h) for (h,) in con.execute("SELECT DISTINCT hand_id FROM decisions")
                .fetchall()}
    finally:
        con.close()


def test_the_auto_review_is_off_by_default_and_reviews_my_new_hands_after_an_import(
        tmp_path: Path, monkeypatch, capsys):
    lines = DEMO.read_text().splitlines(keepends=True)
    (tmp_path / "a.jsonl").write_text("".join(lines[:3]))
    (tmp_path / "b.jsonl").write_text("".join(lines[3:6]))
    db = tmp_path / "auto.duckdb"
    assert main(["import", str(tmp_path / "a.jsonl"), "--db", str(db)]) == 0
    assert review_job.read_status(db) is None  # off by default: nothing started
    con = api.connect(db)
    assert api.auto_review(con) is None
    api.set_my_names(con, [api.MyName("Hero")])
    api.set_auto_review(con, True)
    con.close()
    monkeypatch.setattr("ofc_cli.cmd_import.cmd_review_command", review_job_command)
    assert main(["import", str(tmp_path / "b.jsonl"), "--db", str(db)]) == 0
    assert "reviewing my names' new hands in the background" in capsys.readouterr().err
    wait_for(lambda: (s := review_job.read_status(db)) is not None and not s.running)
    done = review_job.read_status(db)
    assert done.state == "done" and done.origin == "auto" and done.done == 3
    assert _reviewed(db) == {line_id(x) for x in lines[3:6]}  # the new hands only


def review_job_command(path: Path) -> list[str]:
    return [sys.executable, "-m", "ofc_cli.cli", "review", "--db", str(path), "--origin",
            "auto", *QUICK]


def line_id(line: str) -> str:
    return str(json.loads(line)["hand_id"])


def test_the_dashboards_watcher_thread_starts_the_auto_review(tmp_path: Path, monkeypatch):
    """``dashboard.reviewing.after_import`` from a thread that is no page run (the folder
    watcher's): the setting read without Streamlit's cache, the job started."""
    import threading

    from dashboard import reviewing

    lines = DEMO.read_text().splitlines(keepends=True)
    (tmp_path / "a.jsonl").write_text("".join(lines[:1]))
    (tmp_path / "b.jsonl").write_text("".join(lines[1:3]))
    db = tmp_path / "w.duckdb"
    monkeypatch.setenv("OFC_DB", str(db))
    monkeypatch.setattr("ofc_cli.cmd_import.cmd_review_command", review_job_command)
    assert main(["import", str(tmp_path / "a.jsonl"), "--db", str(db)]) == 0
    con = api.connect(db)
    api.set_my_names(con, [api.MyName("Hero")])
    api.set_auto_review(con, True)
    con.close()
    assert main(["import", str(tmp_path / "b.jsonl"), "--db", str(db)]) == 0  # starts one
    wait_for(lambda: (s := review_job.read_status(db)) is not None and not s.running, 120)
    first = review_job.read_status(db)
    assert first.origin == "auto" and first.state == "done" and first.done == 2
    monkeypatch.setattr(reviewing, "command", lambda path, precision="standard",
                        origin="dashboard": review_job_command(path))
    (tmp_path / "c.jsonl").write_text("".join(lines[3:4]))
    assert main(["import", str(tmp_path / "c.jsonl"), "--db", str(db)]) == 0
    wait_for(lambda: not review_job.read_status(db).running, 120)
    con = api.connect(db)
    api.set_auto_review(con, False)  # the thread's call below starts nothing when off
    con.close()
    before = review_job.read_status(db)
    thread = threading.Thread(target=reviewing.after_import, args=(db, [3]))
    thread.start()
    thread.join(60)
    assert review_job.read_status(db) == before
    con = api.connect(db)
    api.set_auto_review(con, True)
    con.close()
    (tmp_path / "d.jsonl").write_text("".join(lines[4:5]))
    con = api.connect(db)
    api.import_files([("d.jsonl", (tmp_path / "d.jsonl").read_bytes())], con)
    con.close()
    thread = threading.Thread(target=reviewing.after_import, args=(db, [4]))
    thread.start()
    thread.join(60)
    wait_for(lambda: (s := review_job.read_status(db)) is not None and s.pid != before.pid
             and not s.running, 120)
    assert review_job.read_status(db).state == "done"
    assert _reviewed(db) >= {line_id(x) for x in lines[4:5]}
