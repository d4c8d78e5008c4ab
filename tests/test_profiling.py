"""``OFC_PROFILE``: each page run of the app writes where its time went (dashboard/profiling.py,
read by benchmarks/bench_first_load.py); without it nothing is written."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard import profiling
from ingest import api

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "dashboard" / "app.py")


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_each_run_writes_its_queries_and_parts(fixture_db: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "profile.jsonl"
    monkeypatch.setenv("OFC_DB", str(fixture_db))
    monkeypatch.setenv(profiling.ENV, str(out))
    con = api.connect(fixture_db)  # upgraded first, as `ofc dashboard` does at its start: a
    api.upgrade(con)               # write during the run would bring one more run (freshness)
    con.close()
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    first = lines(out)
    assert len(first) == 1
    run = first[0]
    assert run["page"] == "overview"
    assert run["started"] < run["ended"]
    assert set(run["parts"]) == set(profiling.PARTS)
    # the samples stand for the run's time: they add up to (nearly all of) its wall time
    assert 0.5 * run["wall_ms"] <= sum(run["parts"].values()) <= run["wall_ms"] * 1.01
    names = {name for name, _, _ in run["queries"]}
    assert {"overview.summary", "overview.cumulative", "options.filter_options"} <= names
    assert all(computed for _, _, computed in run["queries"])  # a fresh cache: all run
    # the sidebar picks the player first, then reads the options once, for that player
    assert [q[0] for q in run["queries"]].count("options.filter_options") == 1

    at.run()  # the same page again: every query is a cache hit
    again = lines(out)[1:]
    assert len(again) == 1 and again[0]["queries"]
    assert not any(computed for _, _, computed in again[0]["queries"])


def test_a_run_samples_its_thread_and_nothing_runs_without_the_variable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "profile.jsonl"
    monkeypatch.delenv(profiling.ENV, raising=False)
    with profiling.page_run():
        assert not any(t.name == "ofc-profile" for t in threading.enumerate())
        with profiling.query_timer("x"):
            profiling.computed()
    monkeypatch.setenv(profiling.ENV, str(out))
    with profiling.page_run():
        profiling.name_page("fouls")
        with profiling.query_timer("fouls.rolling"):
            profiling.computed()
            time.sleep(0.2)  # this file is neither a query nor a library: the page's time
    (run,) = lines(out)
    assert run["page"] == "fouls" and run["wall_ms"] >= 200
    assert [q[0] for q in run["queries"]] == ["fouls.rolling"] and run["queries"][0][2]
    assert run["queries"][0][1] >= 200
    assert run["parts"]["page"] >= 150 and run["cpu_ms"] < 150
    assert not any(t.name == "ofc-profile" for t in threading.enumerate())  # joined


@pytest.mark.parametrize(("files", "part"), [
    # innermost frame first
    (["/a/pyarrow/x.py", "/a/streamlit/elements/arrow.py", "/a/dashboard/views/fouls.py",
      "/a/streamlit/runtime/scriptrunner/exec_code.py"], "widgets"),
    (["/a/pandas/core/frame.py", "/a/dashboard/timefmt.py", "/a/dashboard/views/fouls.py",
      "/a/streamlit/runtime/scriptrunner/exec_code.py"], "page"),
    (["/a/dashboard/queries/fouls.py", "/a/streamlit/runtime/caching/x.py",
      "/a/dashboard/db.py", "/a/dashboard/views/fouls.py"], "query"),
    (["/a/ingest/store.py", "/a/dashboard/db.py"], "store"),
    (["<frozen importlib._bootstrap>", "/a/dashboard/queries/fouls.py",
      "/a/dashboard/views/fouls.py"], "import"),
    (["/a/plotly/graph_objs/_figure.py", "/a/dashboard/widgets.py"], "plotly"),
    (["/usr/lib/python3/threading.py"], "page"),
])
def test_a_stack_counts_for_its_first_part(files: list[str], part: str) -> None:
    assert profiling.classify(files) == part
