""""Me": the user's names in the store (``ingest.identity``), the shared filter that shows
them as one player (``dashboard.queries.common.where``), every page's queries on it, and
``ofc me``.

Expected counts come from the stored rows read here with pandas, not from the SQL under test.
"""

from __future__ import annotations

import math
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

from dashboard.queries import common, hands, matches, opponents, overview, sessions, variants
from dashboard.queries.common import Filters, where
from ingest import store
from ingest.api import (
    BadName,
    MyName,
    add_my_name,
    import_paths,
    load_demo,
    my_names,
    remove_demo,
    remove_my_name,
    rescore,
    set_my_names,
    suggested_names,
    upgrade,
)
from ofc_cli.cli import main as ofc

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
HERO, EVIL, BOB = "hero", "<img src=x onerror=alert(1)>", "bob"


# --------------------------------------------------------------------------------------------
# the names in the store


def test_names_are_added_removed_and_replaced(empty_db_path: Path) -> None:
    con = store.connect(empty_db_path)
    assert my_names(con) == ()
    assert add_my_name(con, "ann") and add_my_name(con, "ann", "swc")
    assert not add_my_name(con, "ann")  # once per (name, source)
    assert add_my_name(con, "ann_pa", "")  # an empty source is every source
    assert my_names(con) == (MyName("ann"), MyName("ann", "swc"), MyName("ann_pa"))
    assert not remove_my_name(con, "ann", "other")
    assert remove_my_name(con, "ann", "swc")
    assert my_names(con) == (MyName("ann"), MyName("ann_pa"))
    assert set_my_names(con, [MyName("x"), MyName("x"), MyName(EVIL, "r")]) == 2
    assert my_names(con) == (MyName("x"), MyName(EVIL, "r"))
    for bad in ("", "   ", "a" * 201):
        with pytest.raises(BadName):
            add_my_name(con, bad)
    assert my_names(con) == (MyName("x"), MyName(EVIL, "r"))  # a refused name changes nothing
    con.close()


def test_names_survive_rescore_reimport_demo_removal_and_upgrade(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    import_paths([SAMPLES / "regular.jsonl"], db)
    con = store.connect(db)
    load_demo(con, [("demo/x.jsonl", (SAMPLES / "pineapple.jsonl").read_bytes())])
    set_my_names(con, [MyName("ann"), MyName("bo", "room")])
    kept = my_names(con)
    rescore(con)
    assert my_names(con) == kept
    assert remove_demo(con) > 0
    assert my_names(con) == kept
    con.close()
    import_paths([SAMPLES / "regular.jsonl", SAMPLES / "pineapple.jsonl"], db)  # again, merged
    con = store.connect(db)
    assert my_names(con) == kept
    # a store of schema 5 (no my_names table) gets the table on upgrade, empty
    con.execute("DROP TABLE my_names")
    con.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
    con.close()
    con = store.connect(db)
    assert upgrade(con, db, notify=lambda _: None) is not None
    assert my_names(con) == ()
    add_my_name(con, "ann")
    assert my_names(con) == (MyName("ann"),)
    con.close()


def test_suggestions_are_the_heroes_most_hands_first_without_the_demo_or_mine(
        fixture_db: Path) -> None:
    con = duckdb.connect(str(fixture_db))
    con.execute("UPDATE hands SET hero = ? WHERE hand_key <= 3", [BOB])
    got = suggested_names(con)
    assert [(s.name, s.source, s.hands) for s in got] == [(HERO, "fixture", 37),
                                                          (BOB, "fixture", 3)]
    add_my_name(con, HERO, "elsewhere")  # mine in another source only: still suggested
    assert [s.name for s in suggested_names(con)] == [HERO, BOB]
    add_my_name(con, HERO)
    assert [s.name for s in suggested_names(con)] == [BOB]
    con.execute("INSERT INTO meta VALUES ('demo_import_ids', '[1]')")  # the fixture as demo
    assert suggested_names(con) == ()
    con.close()


# --------------------------------------------------------------------------------------------
# where() and the pages on "me"


@pytest.fixture
def con(fixture_db: Path):  # type: ignore[no-untyped-def]
    c = duckdb.connect(str(fixture_db), read_only=True)
    yield c
    c.close()


def rows_of(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    return con.execute("SELECT p.hand_key, p.seat, p.player, p.points, h.source "
                       "FROM hand_players p JOIN hands h USING (hand_key)").df()


def counted(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    cond, params = where(filters)
    return con.execute(f"SELECT hp.hand_key, hp.seat, hp.player {common.PLAYER_ROWS} "
                       f"WHERE {cond} ORDER BY 1", params).df()


def test_where_me_is_one_condition_with_bound_names() -> None:
    me = (MyName(EVIL), MyName("x'; DROP TABLE hands; --", "swc"))
    sql, params = where(Filters(me=me, variant="pineapple"))
    assert EVIL not in sql and "DROP" not in sql and "swc" not in sql
    assert params.count(EVIL) == 3 and params[-1] == "pineapple"
    assert sql.count("?") == len(params)


def test_several_names_are_one_player_counted_once_per_hand(con) -> None:  # type: ignore[no-untyped-def]
    every = rows_of(con)
    assert (every.groupby("hand_key").player.apply(set) >= {HERO, EVIL}).all()
    bobs = tuple(sorted(every[every.player == BOB].hand_key * 8 + 2))  # bob sits third
    assert common.shared_seats(con, (MyName(BOB), MyName(HERO))) == bobs
    assert common.shared_seats(con, (MyName(BOB), MyName(HERO, "elsewhere"))) == ()
    for skip in (None, bobs):  # found by where() itself, or given: the same rows
        assert counted(con, Filters(me=(MyName(BOB), MyName(HERO)), me_skip=skip)).equals(
            counted(con, Filters(me=(MyName(HERO),))))
    # one name: exactly that name's rows
    assert list(counted(con, Filters(me=(MyName(BOB),))).hand_key) == \
        sorted(every[every.player == BOB].hand_key)
    # two names in every hand: each hand once, on the first seat of mine (hero sits first)
    both = counted(con, Filters(me=(MyName(BOB), MyName(HERO))))
    assert list(both.hand_key) == sorted(every.hand_key.unique())
    first = every[every.player.isin([BOB, HERO])].sort_values("seat").groupby("hand_key").first()
    assert list(both.player) == list(first.player) and set(both.player) == {HERO}
    # my names where they sit apart: every hand of either, once
    me = (MyName(EVIL), MyName(BOB))
    apart = counted(con, Filters(me=me))
    assert list(apart.player) == [EVIL] * every.hand_key.nunique()


def test_a_name_kept_to_a_source_counts_only_there(con) -> None:  # type: ignore[no-untyped-def]
    every = rows_of(con)
    assert set(every.source) == {"fixture"}
    assert counted(con, Filters(me=(MyName(BOB, "elsewhere"),))).empty
    assert len(counted(con, Filters(me=(MyName(BOB, "fixture"),)))) == (every.player == BOB).sum()
    got = counted(con, Filters(me=(MyName(HERO, "elsewhere"), MyName(BOB))))
    assert set(got.player) == {BOB} and len(got) == (every.player == BOB).sum()
    # the same name in two sources, and a second name: the dedupe path with sources
    got = counted(con, Filters(me=(MyName(HERO, "elsewhere"), MyName(HERO, "fixture"),
                                   MyName(BOB, "elsewhere"))))
    assert set(got.player) == {HERO} and len(got) == every.hand_key.nunique()


def test_names_kept_to_a_source_are_simplified_as_the_hands_allow(con) -> None:  # type: ignore[no-untyped-def]
    fixture = "fixture"
    eff = common.effective_names
    assert eff(con, (MyName(HERO), MyName(BOB))) == (MyName(HERO), MyName(BOB))
    # seen in that source only: no restriction; never seen there: left out
    assert eff(con, (MyName(HERO, fixture), MyName(BOB, "elsewhere"))) == (MyName(HERO),)
    assert eff(con, (MyName(BOB, "elsewhere"),)) == (MyName(BOB, "elsewhere"),)
    assert eff(con, (MyName(HERO), MyName(HERO, fixture))) == (MyName(HERO),)
    # seen in two sources: kept to the one
    con2 = duckdb.connect(":memory:")
    con2.execute(f"ATTACH '{con.execute('PRAGMA database_list').fetchall()[0][2]}' AS f "
                 "(READ_ONLY)")
    con2.execute("CREATE TABLE hands AS SELECT * FROM f.hands")
    con2.execute("CREATE TABLE hand_players AS SELECT * FROM f.hand_players")
    con2.execute("UPDATE hands SET source = 'other' WHERE hand_key <= 5")
    assert eff(con2, (MyName(HERO, fixture),)) == (MyName(HERO, fixture),)
    for names in [(MyName(HERO, fixture),), (MyName(BOB, "other"), MyName(HERO))]:
        got, want = counted(con2, Filters(me=names)), counted(con2, Filters(me=eff(con2, names)))
        assert got.equals(want)
    con2.close()


@pytest.mark.parametrize("given", [False, True], ids=["seats found by where()", "seats given"])
def test_my_other_name_at_the_table_is_never_my_opponent(con, given) -> None:  # type: ignore[no-untyped-def]
    me = (MyName(HERO), MyName(BOB))
    f = Filters(me=me, me_skip=common.shared_seats(con, me) if given else None)
    assert f.me_skip if given else f.me_skip is None
    assert set(opponents.table(con, f).opponent) == {EVIL}
    assert set(opponents.table(con, Filters(player=HERO)).opponent) == {EVIL, BOB}
    assert common.filter_options(con, None, f.me, f.me_skip).opponents == (EVIL,)
    found = hands.find_hands(con, f)
    assert len(found) == rows_of(con).hand_key.nunique()
    assert set(found.opponents) == {EVIL}
    # against EVIL, me is hero's seat in every hand: the same row as hero's own
    pd.testing.assert_frame_equal(
        opponents.table(con, f), opponents.table(con, Filters(player=HERO)).query(
            "opponent == @EVIL").reset_index(drop=True))


def _same(a: Any, b: Any) -> None:
    """Two query results are equal (frames, dataclasses, dicts, tuples; NaN equals NaN)."""
    if isinstance(a, pd.DataFrame):
        try:
            pd.testing.assert_frame_equal(a, b)
        except AssertionError:  # some queries leave the order of their groups to DuckDB
            columns = list(a.columns)
            pd.testing.assert_frame_equal(a.sort_values(columns).reset_index(drop=True),
                                          b.sort_values(columns).reset_index(drop=True))
    elif isinstance(a, list | tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    elif hasattr(a, "__dataclass_fields__"):
        for k in a.__dataclass_fields__:
            _same(getattr(a, k), getattr(b, k))
    elif isinstance(a, float) and math.isnan(a):
        assert isinstance(b, float) and math.isnan(b)
    else:
        assert a == b


def _every_page_query() -> list[tuple[str, Any]]:
    import importlib
    import pkgutil

    import dashboard.queries as package

    found = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"dashboard.queries.{info.name}")
        found += [(f"{info.name}.{n}", fn) for n, fn in getattr(module, "BENCHMARK_QUERIES", [])]
    found += [("overview.summary", overview.summary), ("overview.cumulative", overview.cumulative),
              ("overview.sessions", overview.sessions), ("hands.find_hands", hands.find_hands)]
    return found


@pytest.fixture(scope="module")
def demo_con(demo_db_path: Path, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    copy = tmp_path_factory.mktemp("me-demo") / "demo.duckdb"
    shutil.copy(demo_db_path, copy)
    c = duckdb.connect(str(copy), read_only=True)
    yield c
    c.close()


@pytest.mark.parametrize(("me", "skip"), [
    ((MyName("Hero"),), None),
    ((MyName("Hero"), MyName("Hero", "elsewhere"), MyName("nobody_here")), None),
    ((MyName("Hero"), MyName("Hero", "elsewhere"), MyName("nobody_here")), ()),
], ids=["one name", "three names, one kept to a source", "the same, known apart"])
def test_every_page_on_me_equals_the_player_on_the_demo(demo_con, me, skip) -> None:  # type: ignore[no-untyped-def]
    """Every page's queries (Overview, Sessions, Opponents, Matches with Double's money,
    Fouls, Fantasyland, Variants, Review, Hand review) give the same on "me" as on the one
    player when my other names sit in none of the hands."""
    pages = _every_page_query()
    assert {"matches.table", "opponents.page", "review.summary", "fouls.breakdowns",
            "fantasyland.cells", "variants.table", "sessions.sessions"} <= {n for n, _ in pages}
    for variant in (None, "double"):
        mine = Filters(me=me, me_skip=skip, variant=variant)
        theirs = Filters(player="Hero", variant=variant)
        for name, fn in pages:
            _same(fn(demo_con, mine), fn(demo_con, theirs)), name
    assert common.shared_seats(demo_con, me) == ()
    money = Filters(me=me, me_skip=skip, variant="double")
    assert matches.summary(demo_con, money)["money"] == pytest.approx(-26.0)  # test_money's pin
    assert opponents.table(demo_con, money)["money"].sum() == pytest.approx(-26.0)
    assert sessions.period_table(demo_con, money)["money"].sum() == pytest.approx(-26.0)
    assert variants.table(demo_con, money)["money"].sum() == pytest.approx(-26.0)


def test_filters_go_to_and_come_from_the_url() -> None:
    me = (MyName("ann"), MyName("ann_swc", "swc"))
    f = Filters(me=me, variant="double")
    assert f.to_params() == {"variant": "double", "me": "1"}
    assert Filters.from_params(f.to_params(), me) == f
    assert Filters.from_params({"me": "1"}) == Filters()  # no names set: nothing to show
    assert Filters.from_params({"player": "bo"}, me) == Filters(player="bo")
    assert common.shown_players(f) == "me (ann, ann_swc (swc))"


# --------------------------------------------------------------------------------------------
# ofc me


def test_ofc_me_lists_adds_and_removes(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    db = tmp_path / "me.duckdb"
    assert ofc(["me", "--db", str(db)]) == 2  # no database yet
    assert "does not exist" in capsys.readouterr().err
    import_paths([SAMPLES / "regular.jsonl"], db)
    con = duckdb.connect(str(db), read_only=True)
    hero, source = con.execute("SELECT hero, source FROM hands WHERE hero IS NOT NULL "
                               "GROUP BY ALL ORDER BY count(*) DESC LIMIT 1").fetchone()
    con.close()
    assert ofc(["me", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "no names set yet" in out and f"not yet yours? {hero}" in out
    assert ofc(["me", "add", hero, "--db", str(db)]) == 0
    assert ofc(["me", "add", "\x1b[31mred", "--source", source, "--db", str(db)]) == 0
    assert ofc(["me", "add", hero, "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"added {hero}" in out and "already" in out and "\x1b" not in out
    assert ofc(["me", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"{hero}  (every source)" in out and f"(only in {source})" in out  # a home game
    assert ofc(["me", "add", "ann", "--source", "swc", "--db", str(db)]) == 0
    assert ofc(["me", "--db", str(db)]) == 0
    out = capsys.readouterr().out  # a room by its name, the code --source takes beside it
    assert "added ann (only in Seals with Clubs)" in out
    assert "ann  (only in Seals with Clubs: --source swc)" in out
    assert "not yet yours" not in out
    assert ofc(["me", "remove", "ann", "--source", "swc", "--db", str(db)]) == 0
    assert ofc(["me", "remove", hero, "--source", "nowhere", "--db", str(db)]) == 1
    assert "not one of your names" in capsys.readouterr().err
    assert ofc(["me", "remove", hero, "--db", str(db)]) == 0
    assert ofc(["me", "add", " ", "--db", str(db)]) == 1
    assert ofc(["me", "add", "--db", str(db)]) == 2
    con = store.connect(db, read_only=True)
    assert my_names(con) == (MyName("\x1b[31mred", source),)
    con.close()


def test_ofc_me_waits_for_the_dashboard_reader(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The dashboard holds a read-only connection while a page runs: ``ofc me add`` waits its
    turn (as ``ofc import`` does) and then writes."""
    db = tmp_path / "me.duckdb"
    import_paths([SAMPLES / "regular.jsonl"], db)
    reader = store.connect(db, read_only=True)
    released = threading.Event()

    def let_go() -> None:
        time.sleep(0.5)
        reader.close()
        released.set()

    threading.Thread(target=let_go).start()
    started = time.monotonic()
    assert ofc(["me", "add", "ann", "--db", str(db), "--wait", "20"]) == 0
    assert released.is_set() and time.monotonic() - started >= 0.4
    assert "added ann" in capsys.readouterr().out
    assert ofc(["me", "add", "bo", "--db", str(db), "--wait", "0"]) == 0
    held = store.connect(db, read_only=True)
    try:
        assert ofc(["me", "add", "cy", "--db", str(db), "--wait", "0.3"]) == 2
        assert "held by another process" in capsys.readouterr().err
    finally:
        held.close()


def test_a_store_of_this_version_without_the_names_table_gets_it(tmp_path: Path) -> None:
    """Another build of the same schema version (without ``my_names``) is completed by the
    entry points' upgrade, with nothing rescored."""
    db = tmp_path / "s.duckdb"
    import_paths([SAMPLES / "regular.jsonl"], db)
    con = store.connect(db)
    con.execute("DROP TABLE my_names")
    assert upgrade(con, db, notify=lambda _: None) is None
    assert my_names(con) == ()
    con.close()
    con = store.connect(db)
    con.execute("DROP TABLE my_names")
    con.close()
    assert ofc(["me", "add", "ann", "--db", str(db)]) == 0
