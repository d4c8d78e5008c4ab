"""Hand review past 500 hands (pages and Older/Newer hand by keyset), notes and tags edited in
the replayer and on Opponents, and the tag filter on every page: on a simulated store of
1,100 hands and on the hand-built fixture."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.queries import hands as q
from dashboard.queries import overview
from dashboard.queries.common import Filters
from ingest import api, store
from ofc_cli.cli import main as ofc
from tests.helpers.apptest import app, open_page
from tests.helpers.store import query

HANDS = 1100
HERO = "Hero"
LOWEST = float("-inf")


@pytest.fixture(scope="module")
def big_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,100 simulated hands of two players (the simulator's default names: Hero, Anna)."""
    folder = tmp_path_factory.mktemp("big")
    log = folder / "sim.jsonl"
    assert ofc(["simulate", "--variant", "regular", "--players", "2", "--hands", str(HANDS),
                "--seed", "14", "--out", str(log)]) == 0
    db = folder / "big.duckdb"
    assert api.import_paths([log], db).stored == HANDS
    return db


def newest_first(con: duckdb.DuckDBPyConnection) -> list[int]:
    """The hero's hands in the list's order, computed here: newest first by date (hands
    without one last), then by key, sorted in Python."""
    rows = con.execute("SELECT hand_key, epoch_us(played_at) FROM hand_players "
                       "WHERE player = ?", [HERO]).fetchall()
    return [k for k, _ in sorted(rows, key=lambda r: (LOWEST if r[1] is None else r[1], r[0]),
                                 reverse=True)]


def walk_pages(con: duckdb.DuckDBPyConnection, filters: Filters) -> list[list[int]]:
    pages, page = [], None
    while True:
        keys = [int(k) for k in q.find_hands(con, filters, page=page)["hand_key"]]
        if not keys:
            return pages
        pages.append(keys)
        page = q.Page(keys[-1], older=True, inclusive=False)


def test_pages_and_places_cover_every_hand_in_order(big_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "ties.duckdb"
    shutil.copy(big_db, db)
    con = duckdb.connect(str(db))
    # ties and missing dates: 30 hands share one time, 20 have none
    for table in ("hands", "hand_players"):
        con.execute(f"UPDATE {table} SET played_at = TIMESTAMPTZ '2026-01-05 12:00:00+00' "
                    "WHERE hand_key % 37 = 0")
        con.execute(f"UPDATE {table} SET played_at = NULL WHERE hand_key % 53 = 1")
    want = newest_first(con)
    filters = Filters(player=HERO)
    pages = walk_pages(con, filters)
    assert [len(p) for p in pages] == [500, 500, 100]
    assert [k for p in pages for k in p] == want
    newer = q.find_hands(con, filters, page=q.Page(pages[1][0], older=False, inclusive=False))
    assert [int(k) for k in newer["hand_key"]] == pages[0]
    assert q.place(con, filters, q.HandSearch(), want[0]).total == HANDS  # the list's count
    for i in (0, 499, 500, 777, HANDS - 1):
        got = q.place(con, filters, q.HandSearch(), want[i])
        assert got == q.Place(want[i - 1] if i else None,
                              want[i + 1] if i + 1 < HANDS else None, i, HANDS)
    assert q.place(con, Filters(player="nobody"), q.HandSearch(), want[0]) is None
    con.close()


def hand_review(at: AppTest) -> AppTest:
    return open_page(at, "views/hand_review.py")


def shown(at: AppTest) -> str:
    """The hand's title as read (markdown escapes dropped)."""
    return [s.value for s in at.subheader][0].replace("\\", "")


def list_caption(at: AppTest) -> str:
    return next(c.value for c in at.caption if "newest first" in c.value)


def test_hand_review_pages_past_500_and_steps_across_the_boundary(
        big_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(big_db), read_only=True)
    order = newest_first(con)
    ids = dict(con.execute("SELECT hand_key, hand_id FROM hands").fetchall())
    con.close()
    at = hand_review(app(big_db, monkeypatch, player=HERO))
    assert not at.exception
    assert list_caption(at).startswith("hands 1–500 of 1,100")
    assert shown(at) == f"Hand {ids[order[0]]}"
    at.button(key="page_older").click().run()
    assert list_caption(at).startswith("hands 501–1,000 of 1,100")
    assert shown(at) == f"Hand {ids[order[500]]}"
    at.button(key="hand_newer").click().run()  # back over the boundary, one hand
    assert shown(at) == f"Hand {ids[order[499]]}"
    assert list_caption(at).startswith("hands 1–500 of 1,100")
    at.button(key="hand_older").click().run()
    assert shown(at) == f"Hand {ids[order[500]]}"
    assert list_caption(at).startswith("hands 501–1,000 of 1,100")
    at.button(key="page_older").click().run()
    assert list_caption(at).startswith("hands 1,001–1,100 of 1,100")
    assert at.button(key="page_older").disabled
    at.button(key="page_newer").click().run()
    assert list_caption(at).startswith("hands 501–1,000 of 1,100")
    at.button(key="page_newest").click().run()
    assert list_caption(at).startswith("hands 1–500 of 1,100")
    assert not at.exception
    deep = hand_review(app(big_db, monkeypatch, player=HERO, hand=str(order[1042])))
    assert shown(deep) == f"Hand {ids[order[1042]]}"  # opened from elsewhere: its page
    assert list_caption(deep).startswith("hands 1,043–1,100 of 1,100")


def note_widgets(at: AppTest, prefix: str) -> tuple:
    area = next(t for t in at.text_area if t.key.startswith(prefix))
    tags = next(m for m in at.multiselect if m.key.startswith(prefix))
    return area, tags


EVIL_NOTE = "<img src=note onerror=alert(2)> **not bold** '); DROP TABLE hands; --"


def test_a_note_and_tags_saved_in_the_replayer_and_the_tag_filter(
        fixture_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(fixture_db))
    key, hand_id = con.execute("SELECT hand_key, hand_id FROM hands WHERE hand_id = 'h013'"
                               ).fetchone()
    con.close()
    at = hand_review(app(fixture_db, monkeypatch, hand=str(key)))
    area, tags = note_widgets(at, f"hand_{key}_")
    area.set_value(EVIL_NOTE)
    tags.set_value(["Review me", "<b>tag</b>"])
    next(b for b in at.button if b.key == f"hand_{key}_save").click().run()
    assert not at.exception and not at.error
    con = duckdb.connect(str(fixture_db), read_only=True)
    assert api.hand_annotation(con, "fixture", hand_id) == api.Annotation(
        EVIL_NOTE, ("Review me", "<b>tag</b>"))
    con.close()
    area, tags = note_widgets(at, f"hand_{key}_")
    assert area.value == EVIL_NOTE and tags.value == ["Review me", "<b>tag</b>"]
    for m in at.markdown:  # the note is never markdown or HTML
        assert "src=note" not in m.value and "not bold" not in m.value
    found = next(d.value for d in at.dataframe if "hand_id" in d.value.columns)
    row = found[found.hand_id == hand_id].iloc[0]
    assert (row.tags, row.note) == ("Review me, <b>tag</b>", "✎ Review me, <b>tag</b>")

    at.sidebar.selectbox(key="filter_tag").set_value("Review me").run()
    found = next(d.value for d in at.dataframe if "hand_id" in d.value.columns)
    assert list(found.hand_id) == [hand_id]
    assert at.query_params["tag"] in ("Review me", ["Review me"])
    at.switch_page("views/overview.py").run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Hands"] == "1"

    by_url = app(fixture_db, monkeypatch, tag="  REVIEW me").run()  # any case, any spaces
    assert by_url.sidebar.selectbox(key="filter_tag").value == "Review me"
    assert {m.label: m.value for m in by_url.metric}["Hands"] == "1"


def test_a_refused_note_is_a_message_and_nothing_changes(
        fixture_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (key,), = query(fixture_db, "SELECT hand_key FROM hands WHERE hand_id = ?", ["h002"])
    at = hand_review(app(fixture_db, monkeypatch, source="fixture", id="h002"))
    area, _ = note_widgets(at, f"hand_{key}_")
    area.set_value("bell \x07")
    next(b for b in at.button if b.key == f"hand_{key}_save").click().run()
    assert not at.exception
    assert any(e.value.startswith("Not saved at") and "U+0007" in e.value for e in at.error)
    assert note_widgets(at, f"hand_{key}_")[0].value == "bell \x07"  # kept to be mended
    con = duckdb.connect(str(fixture_db), read_only=True)
    assert con.execute("SELECT count(*) FROM hand_notes").fetchone() == (0,)
    con.close()


def test_an_opponent_note_and_tags_on_opponents(fixture_db: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    at = app(fixture_db, monkeypatch).run()
    at.switch_page("views/opponents.py").run()
    assert not at.exception
    opponent = str(at.selectbox(key="opponents_h2h").format_func(
        at.selectbox(key="opponents_h2h").value))
    area, tags = note_widgets(at, f"opponent_{opponent}_")
    area.set_value("doubles light")
    tags.set_value(["Fish", "fish", "calls"])
    next(b for b in at.button if b.key == f"opponent_{opponent}_save").click().run()
    assert not at.exception and not at.error
    con = duckdb.connect(str(fixture_db), read_only=True)
    assert api.player_annotation(con, opponent) == api.Annotation("doubles light",
                                                                  ("Fish", "calls"))
    con.close()
    table = at.dataframe[0].value
    assert dict(zip(table.opponent, table.tags, strict=True))[opponent] == "Fish, calls"
    area, tags = note_widgets(at, f"opponent_{opponent}_")  # the same widgets, as stored
    assert (area.value, tags.value) == ("doubles light", ["Fish", "calls"])
    assert any(c.value.startswith(":material/check: Saved at") for c in at.caption)


def test_the_form_shows_what_the_store_keeps_and_a_later_save_replaces_it(
        fixture_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (key,), = query(fixture_db, "SELECT hand_key FROM hands WHERE hand_id = ?", ["h004"])
    at = hand_review(app(fixture_db, monkeypatch, source="fixture", id="h004"))
    area, tags = note_widgets(at, f"hand_{key}_")
    area.set_value("  river misread \n")
    tags.set_value(["Tilt", " tilt ", "River"])
    at.button(key=f"hand_{key}_save").click().run()
    area, tags = note_widgets(at, f"hand_{key}_")
    assert (area.value, tags.value) == ("river misread", ["Tilt", "River"])
    area.set_value("")  # a later save clears the note and keeps one tag
    tags.set_value(["River"])
    at.button(key=f"hand_{key}_save").click().run()
    assert not at.exception and not at.error
    con = duckdb.connect(str(fixture_db), read_only=True)
    assert api.hand_annotation(con, "fixture", "h004") == api.Annotation("", ("River",))
    con.close()
    area, tags = note_widgets(at, f"hand_{key}_")
    assert (area.value, tags.value) == ("", ["River"])


def test_every_page_honours_the_tag_filter(fixture_db: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    con = store.connect(fixture_db)
    tagged = [h for (h,) in con.execute("SELECT hand_id FROM hands ORDER BY hand_id LIMIT 3"
                                        ).fetchall()]
    for hand_id in tagged:
        api.set_hand_tags(con, "fixture", hand_id, ["Tilt"])
    summary = overview.summary(con, Filters(player="hero", tag="tilt"))
    con.close()
    assert summary.hands == 3
    at = app(fixture_db, monkeypatch, tag="tilt").run()
    for page in ("views/overview.py", "views/hand_review.py", "views/sessions.py",
                 "views/opponents.py", "views/fouls.py", "views/fantasyland.py",
                 "views/variants.py", "views/matches.py", "views/review.py"):
        at.switch_page(page).run()
        assert not at.exception, page
        assert at.query_params["tag"] in ("Tilt", ["Tilt"]), page
    found = next(d.value for d in at.switch_page("views/hand_review.py").run().dataframe
                 if "hand_id" in d.value.columns)
    assert sorted(found.hand_id) == tagged
