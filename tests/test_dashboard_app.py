"""Every page of the dashboard run with ``streamlit.testing.v1.AppTest``: on the hand-built
fixture, on the demo data, on an empty database; the upload through the Import page; the demo
banner; names from files shown as text."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from ingest import store
from ingest.api import DEMO_KEY, import_paths
from tests.helpers.apptest import app, open_page

ROOT = Path(__file__).resolve().parent.parent
EVIL = "<img src=x onerror=alert(1)>"


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def no_raw_html_of(at: AppTest, text: str) -> None:
    """``text`` never reaches the page inside markdown that may render HTML."""
    for m in at.markdown:
        if m.proto.allow_html:
            assert text not in m.value


def test_overview_on_the_fixture(fixture_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = app(fixture_db, monkeypatch).run()
    assert not at.exception
    got = metrics(at)
    assert got["Hands"] == "40"
    assert got["Money"].endswith("EUR")
    assert at.sidebar.selectbox(key="filter_player").value == "hero"
    assert at.query_params["player"] == ["hero"] or at.query_params["player"] == "hero"
    assert len(at.dataframe) == 1
    assert {s.split(" · ")[0] for s in at.dataframe[0].value.session} == {"s1", "s2"}


def test_overview_filters_come_from_and_go_to_the_url(fixture_db: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    at = app(fixture_db, monkeypatch, session="s2").run()
    assert not at.exception
    assert metrics(at)["Hands"] == "20"
    at.sidebar.selectbox(key="filter_session").set_value("All").run()
    assert metrics(at)["Hands"] == "40"
    assert "session" not in at.query_params
    at.sidebar.selectbox(key="filter_opponent").set_value("bob").run()
    assert int(metrics(at)["Hands"]) < 40
    assert at.query_params["opponent"] in ("bob", ["bob"])


def test_a_selected_session_opens_its_first_hand(fixture_db: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    at = app(fixture_db, monkeypatch).run()
    sessions = at.dataframe[0].value
    # newest first, each named by its table and span
    assert [name.split(" · ")[0] for name in sessions.session] == ["s2", "s1"]
    at.session_state["overview_sessions"] = {"selection": {"rows": [0], "columns": [],
                                                           "cells": []}}
    at.run()
    assert not at.exception
    assert [s.value for s in at.subheader][0] == "Hand h020"  # s2 opens with hand 20
    assert at.query_params["player"] in ("hero", ["hero"])  # the filters travel along


def test_a_clicked_graph_point_opens_its_hand(fixture_db: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(fixture_db))
    key = con.execute("SELECT hand_key FROM hands WHERE hand_id = 'h005'").fetchone()[0]
    con.close()
    at = app(fixture_db, monkeypatch).run()
    at.session_state["overview_graph"] = {"selection": {
        "points": [{"x": 6, "y": 1, "customdata": key, "curve_number": 0, "point_number": 5,
                    "point_index": 5}], "point_indices": [5], "box": [], "lasso": []}}
    at.run()
    assert not at.exception
    assert [s.value for s in at.subheader][0] == "Hand h005"


def test_a_name_from_a_file_is_text_never_html(fixture_db: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    at = app(fixture_db, monkeypatch, player=EVIL).run()
    assert not at.exception
    assert at.sidebar.selectbox(key="filter_player").value == EVIL
    assert any("Results of" in m.value and "img src=x" in m.value for m in at.markdown)
    no_raw_html_of(at, EVIL)
    open_page(at, "views/hand_review.py")
    assert not at.exception
    no_raw_html_of(at, "<img")
    assert any("img src=x" in m.value for m in at.markdown)


def test_hand_review_steps_through_a_hand(fixture_db: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(fixture_db), read_only=True)
    key, when = con.execute("SELECT hand_key, strftime(played_at, '%Y-%m-%d %H:%M:%S') "
                            "FROM hands WHERE hand_id = 'h011'").fetchone()  # store's zone
    con.close()
    at = app(fixture_db, monkeypatch, hand=str(key))
    open_page(at, "views/hand_review.py")
    assert not at.exception
    text = [m.value for m in at.markdown]
    assert "Hand h011" in [s.value for s in at.subheader]
    captions = [c.value.replace("\\", "") for c in at.caption]  # markdown escapes undone
    assert any(f"· {when} " in c and "+00:00" not in c for c in captions), captions
    assert any("**Street 1** (5 streets" in t for t in text)
    assert any("The room's result differs from ours" in w.value for w in at.warning)
    at.button(key="replay_next").click().run()
    assert any("**Street 2**" in m.value for m in at.markdown)
    at.button(key="replay_end").click().run()
    assert any("**Showdown**" in m.value for m in at.markdown)
    boards = [m.value for m in at.markdown if "ofc-row-label" in m.value]
    assert boards and all("royalty" in b or "ofc-card" in b for b in boards)
    pairs = next(d.value for d in at.dataframe if "opponent" in d.value.columns)
    assert len(pairs) == 2


def test_hand_review_keeps_a_fantasyland_board_face_down(fixture_db: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    at = app(fixture_db, monkeypatch, source="fixture", id="h007")
    open_page(at, "views/hand_review.py")
    assert not at.exception
    assert any("set face down" in m.value for m in at.markdown)
    at.button(key="replay_end").click().run()
    assert not any("set face down" in m.value for m in at.markdown)


def test_hand_review_search_and_a_selected_row_open_a_hand(fixture_db: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    at = app(fixture_db, monkeypatch)
    open_page(at, "views/hand_review.py")
    every = next(d.value for d in at.dataframe if "hand_id" in d.value.columns)
    assert [s.value for s in at.subheader][0] == f"Hand {every.hand_id.iloc[0]}"
    at.session_state["find_results"] = {"selection": {"rows": [2], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    assert [s.value for s in at.subheader][0] == f"Hand {every.hand_id.iloc[2]}"
    at.button(key="hand_older").click().run()
    assert [s.value for s in at.subheader][0] == f"Hand {every.hand_id.iloc[3]}"
    at.button(key="hand_newer").click().run()
    assert [s.value for s in at.subheader][0] == f"Hand {every.hand_id.iloc[2]}"
    at.checkbox(key="find_differs").check().run()
    found = next(d.value for d in at.dataframe if "hand_id" in d.value.columns)
    assert list(found.hand_id) == ["h011"]


def test_every_page_on_an_empty_database(empty_db_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    at = app(empty_db_path, monkeypatch).run()
    assert not at.exception
    assert any("No hands yet" in i.value for i in at.info)
    for page in ("views/hand_review.py", "views/import_page.py"):
        at.switch_page(page).run()
        assert not at.exception, page
    assert at.file_uploader


def test_demo_banner_removes_the_demo(fixture_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(fixture_db))
    con.execute("INSERT INTO meta VALUES (?, '[1]')", [DEMO_KEY])
    con.close()
    at = app(fixture_db, monkeypatch).run()
    assert any("demo data" in m.value for m in at.markdown)
    at.button(key="remove_demo").click().run()
    assert not at.exception
    assert not any("You are looking at demo data" in m.value for m in at.markdown)
    assert any("No hands yet" in i.value for i in at.info)


def test_import_page_refuses_a_zip_bomb(empty_db_path: Path,
                                        monkeypatch: pytest.MonkeyPatch, zip_of) -> None:
    at = app(empty_db_path, monkeypatch)
    open_page(at, "views/import_page.py")
    bomb = zip_of({"a.jsonl": b"\0" * (8 * 1024 * 1024)})
    at.file_uploader[0].set_value([("bomb.zip", bomb, "application/zip")]).run()
    at.button(key="import_button").click().run()
    assert not at.exception
    problems = next(d.value for d in at.dataframe if "Reason" in d.value.columns)
    assert list(problems.File) == ["bomb.zip"] and "zip bomb" in problems.Reason[0]
    assert any(b.label.startswith("Download the errors") for b in at.get("download_button"))


SAMPLES = ROOT / "data" / "samples"


def test_import_page_uploads_logs_and_shows_the_ledger(
        empty_db_path: Path, monkeypatch: pytest.MonkeyPatch, zip_of) -> None:
    good = [SAMPLES / "regular.jsonl", SAMPLES / "pineapple.jsonl"]
    bad = SAMPLES / "bad-hands.jsonl"
    packed = zip_of({"turbo.jsonl": (SAMPLES / "turbo-streets.jsonl").read_bytes()})
    at = app(empty_db_path, monkeypatch)
    open_page(at, "views/import_page.py")
    upload = [(p.name, p.read_bytes(), "application/json") for p in [*good, bad]]
    at.file_uploader[0].set_value([*upload, ("more.zip", packed, "application/zip")]).run()
    at.button(key="import_button").click().run()
    assert not at.exception
    ledger = next(d.value for d in at.dataframe if "Stored" in d.value.columns)
    assert sorted(ledger.File) == sorted([p.name for p in [*good, bad]] +
                                         ["more.zip/turbo.jsonl"])
    assert ledger.Stored.sum() > 0
    assert ledger.set_index("File").loc["bad-hands.jsonl", "Rejected"] > 0
    problems = next(d.value for d in at.dataframe if "Reason" in d.value.columns)
    mine = problems[problems.File == "bad-hands.jsonl"]
    assert len(mine) == ledger.set_index("File").loc["bad-hands.jsonl", "Rejected"] + \
        ledger.set_index("File").loc["bad-hands.jsonl", "Partial"]
    assert (mine.Line > 0).all() and mine.Reason.str.len().min() > 0
    labels = [b.label for b in at.get("download_button")]
    assert any("ledger" in lb for lb in labels) and any("errors" in lb for lb in labels)
    stored = int(ledger.Stored.sum())
    at.switch_page("views/overview.py").run()
    assert not at.exception
    # the app holds the store only while pages run: a reader takes its turn like any other
    con = store.connect(empty_db_path, read_only=True, wait_seconds=10)
    assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == stored
    con.close()
    assert int(metrics(at)["Hands"].replace(",", "")) > 0


def test_overview_and_hand_review_on_the_demo_data(demo_db_path: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "demo.duckdb"
    shutil.copy(demo_db_path, db)
    at = app(db, monkeypatch).run()
    assert not at.exception
    assert int(metrics(at)["Hands"].replace(",", "")) > 0
    at.switch_page("views/hand_review.py").run()
    assert not at.exception
    assert any("**Street 1**" in m.value or "**Showdown**" in m.value for m in at.markdown)
    at.button(key="replay_end").click().run()
    assert not at.exception
    at.switch_page("views/import_page.py").run()
    assert not at.exception
    history = next(d.value for d in reversed(at.dataframe)  # "Every import so far"
                   if "Imported" in d.value.columns)
    assert len(history) == len(list((ROOT / "data" / "demo").glob("*.jsonl")))


def test_four_colour_deck_colours_clubs_and_diamonds() -> None:
    from dashboard.cards import card_html

    assert "ofc-green" in card_html("Ac", four_colour=True)
    assert "ofc-blue" in card_html("Ad", four_colour=True)
    assert "ofc-red" in card_html("Ad") and "ofc-black" in card_html("Ac")
    assert "ofc-red" in card_html("Ah", four_colour=True)


# --- ofc dashboard -----------------------------------------------------------------------------

def test_ofc_dashboard_creates_the_database_with_the_demo_once(tmp_path: Path) -> None:
    from dashboard.demo import demo_files, demo_import_ids
    from ofc_cli.cmd_dashboard import prepare, streamlit_command

    db = tmp_path / "sub" / "new.duckdb"
    prepare(db)
    con = duckdb.connect(str(db))
    ids = demo_import_ids(con)
    assert len(ids) == len(demo_files()) > 0
    hands = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in demo_files())
    assert 0 < hands <= lines
    con.close()
    prepare(db)  # an existing database is left alone
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == hands
    con.close()
    cmd = streamlit_command(db, 8999)
    assert cmd[1:4] == ["-m", "dashboard.serve", "run"] and cmd[4].endswith("dashboard/app.py")
    for flag, value in (("--server.headless", "true"), ("--server.port", "8999"),
                        ("--browser.gatherUsageStats", "false")):
        assert cmd[cmd.index(flag) + 1] == value
    assert cmd[-3:] == ["--", "--db", str(db)]


def test_the_app_reads_its_database_from_argv_or_env(monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboard.db import db_path

    assert db_path(["--db", "a.duckdb"]) == Path("a.duckdb")
    assert db_path(["--db=b.duckdb"]) == Path("b.duckdb")
    monkeypatch.setenv("OFC_DB", "/x/c.duckdb")
    assert db_path([]) == Path("/x/c.duckdb")


def test_a_database_that_cannot_be_opened_is_a_message(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "not-a-db.duckdb"
    bad.write_bytes(b"this is not a database" * 100)
    at = app(bad, monkeypatch).run()
    assert not at.exception
    assert at.error and "not an OFC Analytics database" in at.error[0].value


def test_hand_review_draws_a_joker_and_what_it_stood_for(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "jokers.duckdb"
    sample = ROOT / "data" / "samples" / "jokers-27.jsonl"
    assert import_paths([sample], db).stored == 7
    at = app(db, monkeypatch, source="jokers-27", id="h7")
    open_page(at, "views/hand_review.py")
    assert not at.exception
    boards = " ".join(m.value for m in at.markdown if "ofc-row-label" in m.value)
    assert "ofc-joker" in boards and "stood for" not in boards  # during the streets
    at.button(key="replay_end").click().run()
    boards = " ".join(m.value for m in at.markdown if "ofc-row-label" in m.value)
    assert 'title="X1: joker, stood for 2d"' in boards and "2♦" in boards
    assert "Pair of Twos (joker)" in boards
    final = next(d.value for d in at.dataframe if "Jokers" in d.value.columns)
    assert "X1 = 2♦" in final["Jokers"].tolist()


def test_the_import_history_opens_an_earlier_imports_refusals_and_audit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: the refusals and audit of any earlier import, from "Every import so far"."""
    from ingest.api import import_paths

    db = tmp_path / "ofc.duckdb"
    samples = ROOT / "data" / "samples"
    import_paths([samples / "pineapple-app" / "ofc_logs.db"], db)  # import 1: audited
    import_paths([samples / "bad-hands.jsonl"], db)  # import 2: bad hands
    at = open_page(app(db, monkeypatch), "views/import_page.py")
    assert not at.exception
    history = at.selectbox(key="import_history_open")
    assert history.value == 2  # the newest first
    assert any("Not stored from import #2" in m.value for m in at.markdown)
    reasons = next(d.value for d in at.dataframe if "Reason" in d.value.columns)
    assert len(reasons) >= 11
    history.select(1).run()
    assert not at.exception
    assert any(s.value == "Import #1 against the room" for s in at.subheader)
    differ = next(d.value for d in at.dataframe if "What" in d.value.columns)
    assert set(differ["What"]) >= {"points"} and differ["Hand"].nunique() >= 1
