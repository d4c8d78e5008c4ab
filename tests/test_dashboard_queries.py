"""Dashboard queries, replay model, upload checks and demo removal, without Streamlit.

The expected values are computed a second way from the stored rows (plain pandas over the
raw tables), so a wrong join, filter or window in a query fails here.
"""

from __future__ import annotations

import json
import math
import shutil
from datetime import date
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from dashboard.demo import demo_import_ids, remove_demo
from dashboard.queries import common, hands, imports, overview
from dashboard.queries.common import Filters, where
from dashboard.replay import step_count, view_at
from dashboard.uploads import Limits, unpack
from ingest.api import DEMO_KEY
from ingest.hand_tables import HAND_TABLES

HERO, EVIL, FIXTURE_HANDS = "hero", "<img src=x onerror=alert(1)>", 40


@pytest.fixture(autouse=True)
def _facts_agree(fixture_facts) -> None:
    assert (fixture_facts.hero, fixture_facts.evil, fixture_facts.hands) == (
        HERO, EVIL, FIXTURE_HANDS)


@pytest.fixture
def con(fixture_db_path: Path):
    c = duckdb.connect(str(fixture_db_path), read_only=True)
    yield c
    c.close()


def table(con, name: str) -> pd.DataFrame:
    return con.execute(f"SELECT * FROM {name}").df()


def hero_rows(con, **where_hands) -> pd.DataFrame:
    hp = table(con, "hand_players")
    h = table(con, "hands")
    rows = hp[hp.player == HERO].merge(h, on="hand_key", suffixes=("", "_hand"))
    for column, value in where_hands.items():
        rows = rows[rows[column] == value]
    return rows


# --- filters ---------------------------------------------------------------------------------

def test_where_binds_every_value_and_a_hostile_name_matches_nothing(con) -> None:
    hostile = "x' OR 1=1 --"
    sql, params = where(Filters(player=hostile, opponent=EVIL))
    assert hostile not in sql and EVIL not in sql
    assert params == [hostile, EVIL]
    assert overview.summary(con, Filters(player=hostile)).hands == 0


def test_filters_round_trip_through_url_params() -> None:
    f = Filters(player=EVIL, date_from=date(2026, 1, 2), date_to=date(2026, 1, 3),
                variant="pineapple", ruleset="pineapple", opponent="bob", session="s2")
    assert Filters.from_params(f.to_params()) == f


def test_default_player_is_the_logs_hero(con) -> None:
    assert common.default_player(con) == HERO


def test_default_player_without_hero_is_the_most_frequent_player(fixture_db: Path) -> None:
    c = duckdb.connect(str(fixture_db))
    c.execute("UPDATE hands SET hero = NULL")
    c.execute("UPDATE hand_players SET player = 'zed' WHERE player = 'bob'")
    counts = c.execute("SELECT player, count(*) FROM hand_players GROUP BY 1").fetchall()
    top = max(counts, key=lambda r: (r[1], -ord(r[0][0])))[0]
    assert common.default_player(c) == top
    c.close()


def test_filter_options_list_what_the_player_met(con) -> None:
    opts = common.filter_options(con, HERO)
    assert set(opts.players) == {HERO, EVIL, "bob"}
    assert set(opts.opponents) == {EVIL, "bob"}
    assert opts.sessions == ("s2", "s1")  # newest first
    assert opts.first_date <= opts.last_date


def test_each_filter_narrows_the_hands(con) -> None:
    mine = hero_rows(con)
    assert overview.summary(con, Filters(player=HERO)).hands == len(mine)
    assert overview.summary(con, Filters(player=HERO, session="s2")).hands == (
        (mine.session_id == "s2").sum())
    three = set(table(con, "hand_players").query("player == 'bob'").hand_key)
    assert overview.summary(con, Filters(player=HERO, opponent="bob")).hands == len(three)
    day = date(2026, 1, 2)
    on_day = (pd.to_datetime(mine.played_at).dt.date == day).sum()
    assert on_day > 0
    got = overview.summary(con, Filters(player=HERO, date_from=day, date_to=day)).hands
    assert got == on_day
    assert overview.summary(con, Filters(player=HERO, variant="regular")).hands == 0


# --- overview --------------------------------------------------------------------------------

def test_summary_matches_the_stored_rows(con) -> None:
    mine = hero_rows(con)
    s = overview.summary(con, Filters(player=HERO))
    assert s.hands == len(mine) == FIXTURE_HANDS
    assert s.net_points == pytest.approx(mine.points.sum())
    assert s.per_hand == pytest.approx(mine.points.mean())
    assert s.ci95 == pytest.approx(1.959964 * mine.points.std(ddof=1) / math.sqrt(len(mine)))
    assert s.foul_rate == pytest.approx(mine.fouled.mean())
    assert s.fl_hands == mine.fantasyland.sum() == 1
    assert s.fl_entry == pytest.approx((mine[~mine.fantasyland].fantasyland_next > 0).mean())
    assert s.avg_royalties == pytest.approx(mine.royalties.mean())
    staked = mine[mine.stake.notna()]
    assert s.money == (("EUR", pytest.approx((staked.points * staked.stake).sum()),
                        len(staked)),)


def test_summary_of_an_empty_database(empty_db_path: Path) -> None:
    c = duckdb.connect(str(empty_db_path), read_only=True)
    s = overview.summary(c, Filters())
    assert (s.hands, s.net_points, s.per_hand, s.ci95, s.money) == (0, 0.0, None, None, ())
    assert overview.cumulative(c, Filters()).empty
    assert common.default_player(c) is None
    c.close()


def test_cumulative_lines_add_up(con) -> None:
    frame = overview.cumulative(con, Filters(player=HERO))
    mine = hero_rows(con).sort_values(["played_at", "hand_key"])
    assert list(frame.hand_key) == list(mine.hand_key)
    assert np.allclose(frame.total, mine.points.cumsum())
    assert np.allclose(frame.without_fl, mine.points.where(~mine.fantasyland, 0).cumsum())
    # no caps and no surrender in the fixture: points are exactly rows + bonuses + royalties
    assert np.allclose(frame.total, frame.row_points + frame.royalties)


def test_cumulative_thins_long_histories_but_keeps_the_last_hand(con) -> None:
    full = overview.cumulative(con, Filters(player=HERO))
    thin = overview.cumulative(con, Filters(player=HERO), max_points=7)
    assert len(thin) < len(full)
    assert thin.iloc[-1].n == full.iloc[-1].n
    assert thin.iloc[-1].total == pytest.approx(full.iloc[-1].total)


def test_sessions_table(con) -> None:
    frame = overview.sessions(con, Filters(player=HERO))
    mine = hero_rows(con)
    assert set(frame.session) == {"s1", "s2"}
    assert frame.hands.sum() == len(mine)
    for row in frame.itertuples():
        part = mine[mine.session_id == row.session].sort_values(["played_at", "hand_key"])
        assert row.points == pytest.approx(part.points.sum())
        assert row.first_hand == part.hand_key.iloc[0]


# --- hand review -----------------------------------------------------------------------------

def test_find_hands_by_search(con) -> None:
    f = Filters(player=HERO)
    every = hands.find_hands(con, f)
    assert len(every) == FIXTURE_HANDS
    fouled = hands.find_hands(con, f, hands.HandSearch(fouled=True))
    assert len(fouled) == hero_rows(con).fouled.sum() and fouled.fouled.all()
    differs = hands.find_hands(con, f, hands.HandSearch(differs=True))
    assert list(differs.hand_id) == ["h011"]
    assert list(hands.find_hands(con, f, hands.HandSearch(hand_id="h01")).hand_id) == [
        f"h01{k}" for k in range(9, -1, -1)]
    fl = hands.find_hands(con, f, hands.HandSearch(fantasyland=True))
    assert list(fl.hand_id) == ["h007"]
    some = hands.find_hands(con, f, hands.HandSearch(royalties_min=1))
    assert (some.royalties >= 1).all() and len(some) == (hero_rows(con).royalties >= 1).sum()
    row = every[every.hand_id == "h000"].iloc[0]
    assert row.opponents == f"{EVIL}, bob"


def test_one_hand_in_detail(con) -> None:
    key = hands.key_of(con, "fixture", "h003")
    assert hands.hand(con, key)["hand_id"] == "h003"
    seats = hands.players(con, key)
    assert list(seats.player) == [HERO, EVIL, "bob"]
    assert seats.points.sum() == pytest.approx(0)
    final = hands.rows(con, key)
    assert list(final.row_name[:3]) == ["top", "middle", "bottom"] and len(final) == 9
    pairs = hands.pairs(con, key)
    assert len(pairs) == 6
    for seat in seats.itertuples():
        assert pairs[pairs.seat == seat.seat].points.sum() == pytest.approx(seat.points)
    assert hands.key_of(con, "fixture", "nope") is None
    assert hands.hand(con, 10**9) is None


def test_replay_steps_hide_what_the_log_hides(con) -> None:
    key = hands.key_of(con, "fixture", "h007")  # the hero plays it in Fantasyland
    streets = hands.placements(con, key)
    seats = hands.players(con, key)
    steps = step_count(streets)
    assert steps == 6  # 5 pineapple streets, then the showdown
    first = {v.player: v for v in view_at(streets, seats, 1, lambda s, k: 1)}
    assert first[HERO].face_down and set(first[HERO].top) == {None}
    assert len(first[HERO].top + first[HERO].middle + first[HERO].bottom) == 13
    evil = first[EVIL]
    assert evil.dealt is None and len(evil.placed_now) == 5
    third = {v.player: v for v in view_at(streets, seats, 3, lambda s, k: 1)}[EVIL]
    assert len(third.top + third.middle + third.bottom) == 9 and third.discard == (None,)
    end = {v.player: v for v in view_at(streets, seats, steps)}
    assert not end[HERO].face_down and None not in end[HERO].top
    final = hands.rows(con, key)
    hero_top = final[(final.seat == 0) & (final.row_name == "top")].cards.iloc[0].split()
    assert sorted(end[HERO].top) == sorted(hero_top)


# --- import ledger, uploads, demo ------------------------------------------------------------

def test_ledger_queries(con) -> None:
    ledger = imports.ledger(con)
    assert list(ledger.file) == ["fixture.jsonl"] and ledger.stored.iloc[0] == FIXTURE_HANDS
    assert list(imports.ledger(con, [1]).file) == ["fixture.jsonl"]
    assert imports.ledger(con, [2]).empty and imports.ledger(con, []).empty
    assert imports.problems(con).empty and imports.problems(con, [1]).empty


def test_a_zip_bomb_is_refused_with_a_message(zip_of) -> None:
    bomb = zip_of({"logs.jsonl": b"\0" * (20 * 1024 * 1024)})  # 20 MB of zeros, ~20 KB packed
    assert len(bomb) < 100_000
    out = unpack([("bomb.zip", bomb), ("ok.jsonl", b"{}")])
    assert [n for n, _ in out.files] == ["ok.jsonl"]
    assert out.refused[0].file == "bomb.zip" and "zip bomb" in out.refused[0].reason


def test_zip_caps_on_members_size_and_nesting(zip_of) -> None:
    many = zip_of({f"f{i}.jsonl": b"{}" for i in range(30)})
    assert "over the limit of 20" in unpack([("m.zip", many)], Limits(max_members=20)
                                            ).refused[0].reason
    big = zip_of({"a.jsonl": bytes(range(256)) * 40})
    assert "unpacks to" in unpack([("b.zip", big)], Limits(max_unpacked_bytes=5000)
                                  ).refused[0].reason
    nested = unpack([("n.zip", zip_of({"inner.zip": zip_of({"x": b"1"}), "y.jsonl": b"1"}))])
    assert [n for n, _ in nested.files] == ["n.zip/y.jsonl"]
    assert nested.refused[0].file == "n.zip/inner.zip"
    assert unpack([("bad.zip", b"PK\x03\x04garbage")]).refused[0].reason == (
        "not a readable zip file")
    assert "upload limit" in unpack([("x.txt", b"12345")], Limits(max_file_bytes=4)
                                    ).refused[0].reason


def test_remove_demo_deletes_exactly_the_demo_imports(fixture_db: Path) -> None:
    c = duckdb.connect(str(fixture_db))
    c.execute("INSERT INTO imports SELECT 2, 'mine.jsonl', sha256, size_bytes, format, "
              "parser_version, imported_at, 10, 10, 0, 0, 0, 0 FROM imports WHERE import_id = 1")
    c.execute("UPDATE hands SET import_id = 2 WHERE hand_key > 30")
    c.execute("INSERT INTO rejected VALUES (1, 'fixture.jsonl', 3, 'x', 'bad', FALSE, '')")
    c.execute("INSERT INTO meta VALUES (?, ?)", [DEMO_KEY, json.dumps([1])])
    assert demo_import_ids(c) == [1]
    assert remove_demo(c) == 30
    assert demo_import_ids(c) == []
    assert c.execute("SELECT min(hand_key), count(*) FROM hands").fetchone() == (31, 10)
    for name in HAND_TABLES:
        orphans = c.execute(f"SELECT count(*) FROM {name} WHERE hand_key <= 30").fetchone()[0]
        assert orphans == 0, name
    assert c.execute("SELECT count(*) FROM hand_players").fetchone()[0] > 0
    assert c.execute("SELECT list(import_id) FROM imports").fetchone()[0] == [2]
    assert c.execute("SELECT count(*) FROM rejected").fetchone()[0] == 0
    assert remove_demo(c) == 0
    c.close()


@pytest.mark.parametrize("module", [
    "dashboard.cards", "dashboard.replay", "dashboard.filters",  # (uploads: ingest.archives)
    "dashboard.queries.common", "dashboard.queries.hands", "dashboard.queries.overview",
])
def test_docstring_examples(module: str) -> None:
    """The dashboard is outside pytest's doctest paths: run its examples here."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def _copies_differing(con: duckdb.DuckDBPyConnection) -> int:
    """hand_players rows whose copy of a hand column differs from ``hands`` (or no hand)."""
    from ingest.hand_tables import HAND_COLUMNS_ON_PLAYERS

    differs = " OR ".join(f"hp.{c} IS DISTINCT FROM h.{c}" for c in HAND_COLUMNS_ON_PLAYERS)
    rows = " OR ".join(f"hp.{r}_hand IS DISTINCT FROM (SELECT hand_name FROM hand_rows x WHERE "
                       f"x.hand_key = hp.hand_key AND x.seat = hp.seat AND x.row_name = '{r}')"
                       for r in ("top", "middle", "bottom"))
    return con.execute(f"SELECT count(*) FROM hand_players hp LEFT JOIN hands h "
                       f"USING (hand_key) WHERE h.hand_key IS NULL OR {differs} OR {rows}"
                       ).fetchone()[0]


def test_hand_columns_on_hand_players_follow_import_and_rescore(demo_db_path: Path,
                                                               tmp_path: Path) -> None:
    """The filter columns copied onto hand_players equal the hand's own, and the row hand
    names those of hand_rows, after the importer and after a rescore (which rewrites
    hand_players), with dates, sessions, matches, stakes."""
    from ingest.api import rescore

    path = tmp_path / "demo.duckdb"
    shutil.copy(demo_db_path, path)
    con = duckdb.connect(str(path))
    try:
        filled = con.execute("SELECT count(played_at), count(session_id), count(match_id), "
                             "count(stake), count(DISTINCT variant) FROM hand_players").fetchone()
        assert all(filled), filled  # the demo has every kind, so the check below means something
        assert _copies_differing(con) == 0
        con.execute("UPDATE hand_players SET variant = 'stale', played_at = NULL, "
                    "top_hand = 'stale'")
        assert _copies_differing(con) > 0
        rescore(con)
        assert _copies_differing(con) == 0
    finally:
        con.close()
