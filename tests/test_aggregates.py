"""The pre-aggregated tables (``ingest/aggregates.py``) give every page the numbers the rows
give, on a random store (several players, rooms, sessions, variants, rulesets, stakes and
days, hands without a session or a date, OFC Double matches) and after each kind of write:
import, merge, rescore, removal of an import, upgrade of an older store. Each check also
holds the maintained tables equal to a rebuild from the rows, and shows that the pages did
read the aggregates (``agg_where`` answered)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

from dashboard.queries import (
    fouls,
    hands,
    matches,
    opponents,
    options,
    overview,
    sessions,
    variants,
)
from dashboard.queries.aggregated import agg_where, rows_only, tagged_rows
from dashboard.queries.common import Filters, Stake, effective_names, shared_seats
from ingest import api
from ingest.aggregates import AGGREGATES, TAG_AGGREGATES
from tests.helpers.random_store import random_files
from tests.helpers.store import PERSPECTIVE_A, PERSPECTIVE_B


def _filters(con: duckdb.DuckDBPyConnection) -> list[Filters]:
    """The filter sets the check runs: one player, me (two names, one kept to a room), and
    the player narrowed by each sidebar filter the aggregates answer."""
    me = effective_names(con, (api.MyName("Hero"), api.MyName("Hero2", "swc")))
    return [
        Filters(player="Hero"),
        Filters(me=me, me_skip=shared_seats(con, me)),
        Filters(player="Anna", ruleset="pineapple (scoring 2-4)", room="swc"),
        Filters(player="Zoë", stake=Stake(1.0, "EUR"), session="s2", variant="pineapple"),
        DATED,
    ]


DATED = Filters(player="Hero", date_from=date(2026, 3, 11), date_to=date(2026, 3, 13))


PAGES: list[tuple[str, Callable[[Any, Filters], Any]]] = [
    ("overview summary", lambda con, f: pd.DataFrame([overview.summary(con, f)])),
    ("overview sessions", overview.sessions),
    ("sessions", sessions.session_table),
    ("fouls breakdowns", fouls.breakdowns),
    ("fouls rolling", fouls.rolling),
    ("fouls relations", fouls.relations),
    ("matches", matches.table),
    ("match offers", matches.offers),
    ("fouls rolling, window 7", lambda con, f: fouls.rolling(con, f, 7)),
    ("variants", variants.table),
    ("opponents", opponents.table),
    ("sidebar", lambda con, f: pd.DataFrame([options.filter_options(con, f.player, f.me,
                                                                     f.me_skip)])),
    ("default player", lambda con, f: options.default_player(con)),
    ("players", lambda con, f: options.players(con)),
]
"""Every query that reads the aggregates, as a page calls it."""


def _same(a: Any, b: Any, what: str) -> None:
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True),
                                      rtol=1e-9, obj=what)
    else:
        assert a == b, what


def check_pages(con: duckdb.DuckDBPyConnection, only: list[Filters] | None = None) -> int:
    """Every page's numbers with the aggregates equal those from the rows, for every filter
    set (or ``only`` these); the maintained aggregates equal a rebuild. Returns how many
    filter sets the aggregates answered."""
    answered = 0
    for filters in only or _filters(con):
        answered += agg_where(con, filters) is not None
        for name, page in PAGES:
            with rows_only():
                expected = page(con, filters)
            _same(page(con, filters), expected, f"{name} with {filters}")
    if api.aggregates_present(con):
        _same_as_rebuilt(con)
    return answered


def _dump(con: duckdb.DuckDBPyConnection, table: str) -> pd.DataFrame:
    return con.execute(f"SELECT * FROM {table} ORDER BY ALL").df()


def _same_as_rebuilt(con: duckdb.DuckDBPyConnection) -> None:
    kept = {t: _dump(con, t) for t in AGGREGATES}
    con.execute("BEGIN TRANSACTION")
    try:
        api.rebuild_aggregates(con)
        for table, before in kept.items():
            _same(before, _dump(con, table), f"{table} as maintained")
    finally:
        con.execute("ROLLBACK")


@pytest.fixture(scope="module")
def files() -> list[bytes]:
    return random_files(seed=25, count=330)


@pytest.fixture
def store(tmp_path: Path, files: list[bytes]) -> Iterator[duckdb.DuckDBPyConnection]:
    """A new store holding the first file and ``PERSPECTIVE_A`` (one hand of the merge)."""
    con = api.connect(tmp_path / "agg.duckdb")
    con.execute("SET GLOBAL TimeZone = 'UTC'")  # days are whole hours (test_dates_off_the_hour)
    api.import_files([("a.jsonl", files[0]), ("pa.jsonl", PERSPECTIVE_A.encode())], con)
    yield con
    con.close()


def test_import_merge_rescore_removal(store: duckdb.DuckDBPyConnection,
                                      files: list[bytes]) -> None:
    """Every filter set on the first import; after each later write the maintained tables
    equal a rebuild (so every page's numbers still equal the rows') and the pages agree on
    one filter set more."""
    every = _filters(store)
    assert check_pages(store) == len(every)
    report = api.import_files([("b.jsonl", files[1]), ("pb.jsonl", PERSPECTIVE_B.encode()),
                               ("c.jsonl", files[2])], store)
    assert report.merged == 1 and report.stored > 200
    assert check_pages(store, every[:1]) == 1
    api.rescore(store, chunk_hands=150)  # several chunks, partitions across them
    assert check_pages(store, every[1:2]) == 1
    api.remove_imports(store, [report.files[0].import_id])
    assert check_pages(store, every[2:4]) == 2


def test_one_write_old_and_new_partitions(store: duckdb.DuckDBPyConnection,
                                          files: list[bytes]) -> None:
    """One transaction that marks a partition of the first hands stored (lowest keys) and
    new ones far past them (a later session, a time before 1970, no date: a merged hand):
    the refresh, bounded by the marked hours and keys, rebuilds all of them; a removal of
    the oldest import and the newest together too."""
    api.import_files([("b.jsonl", files[1])], store)  # keys between the old and the new
    old = next(h for h in map(json.loads, files[0].splitlines())
               if h.get("session_id") and h.get("played_at") and not h.get("match_id"))
    lines = [PERSPECTIVE_B, json.dumps({**old, "hand_id": "mix-1"}),  # the old partition
             json.dumps({**old, "hand_id": "mix-2", "session_id": "later",
                         "played_at": "2026-05-01T10:00:00+00:00"}),
             json.dumps({**old, "hand_id": "mix-3", "session_id": "later",
                         "played_at": "1969-12-31T23:30:00+00:00"})]
    report = api.import_files([("mix.jsonl", "\n".join(lines).encode())], store)
    assert (report.stored, report.merged) == (3, 1)
    hours = store.execute("SELECT count(DISTINCT (session_id, hour)) FROM agg_hands WHERE "
                          "session_id = ? OR session_id = 'later'", [old["session_id"]])
    assert hours.fetchone() > (2,)
    assert check_pages(store, _filters(store)[:1]) == 1
    first = store.execute("SELECT min(import_id) FROM imports").fetchone()
    assert first is not None
    api.remove_imports(store, [first[0], report.files[0].import_id])
    assert check_pages(store, _filters(store)[:1]) == 1


def test_upgrade_builds_them(store: duckdb.DuckDBPyConnection) -> None:
    """A store of version 7 (no aggregates) gets them on upgrade; one of this version that
    lacks them (an earlier build) too, without a rescore, and one that lacks only those added
    later gets those alone (the others are kept as they are). Without them the rows answer."""
    for table in AGGREGATES:
        store.execute(f"DROP TABLE {table}")
    assert not api.aggregates_present(store)
    assert agg_where(store, Filters(player="Hero")) is None
    assert api.upgrade(store, notify=lambda _: None) is None
    assert api.aggregates_present(store)
    _same_as_rebuilt(store)
    store.execute("DROP TABLE agg_matches")  # added after the others: built alone
    store.execute("CREATE TABLE kept AS SELECT * FROM agg_players")
    store.execute("INSERT INTO agg_players SELECT * FROM agg_players LIMIT 1")
    assert api.upgrade(store, notify=lambda _: None) is None
    assert api.aggregates_present(store)
    assert len(_dump(store, "agg_players")) == len(_dump(store, "kept")) + 1  # not rebuilt
    store.execute("DELETE FROM agg_players")
    store.execute("INSERT INTO agg_players SELECT * FROM kept")
    _same_as_rebuilt(store)
    for table in AGGREGATES:
        store.execute(f"DROP TABLE {table}")
    store.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
    result = api.upgrade(store, notify=lambda _: None)
    assert result is not None and result.hands > 100
    assert check_pages(store, _filters(store)[3:]) == 2


def test_dates_off_the_hour(store: duckdb.DuckDBPyConnection) -> None:
    """In a time zone half an hour off UTC a day is not a range of UTC hours: a date filter
    reads the rows (the same numbers), the other filters still the aggregates."""
    store.execute("SET GLOBAL TimeZone = 'Asia/Kolkata'")
    assert agg_where(store, DATED) is None
    assert agg_where(store, Filters(player="Hero")) is not None
    assert check_pages(store, [DATED]) == 0


TAG_PAGES: list[tuple[str, Callable[[Any, Filters], Any]]] = [
    ("overview summary", lambda con, f: pd.DataFrame([overview.summary(con, f)])),
    ("overview graph", overview.cumulative),
    ("hand list", hands.find_hands),
    ("hand list, older from the 5th", lambda con, f: hands.find_hands(
        con, f, page=hands.Page(_fifth(con, f)))),
    ("place of the 5th", lambda con, f: pd.DataFrame([hands.place(
        con, f, hands.HandSearch(), _fifth(con, f))])),
    ("search: fouled", lambda con, f: hands.find_hands(con, f, hands.HandSearch(fouled=True))),
    ("search: hand id", lambda con, f: hands.find_hands(con, f, hands.HandSearch(hand_id="1"))),
]
"""The tag filter's queries (the tagged hands' keys from ``agg_tags``, or from the rows)."""


def _fifth(con: duckdb.DuckDBPyConnection, filters: Filters) -> int:
    """The 5th hand of the list (the last when fewer; a key no hand has when none)."""
    with rows_only():
        keys = hands.find_hands(con, filters, limit=5)["hand_key"]
    return int(keys.iloc[-1]) if len(keys) else -1


def _check_tags(con: duckdb.DuckDBPyConnection) -> None:
    """``agg_tags`` and ``agg_tagged`` as maintained equal a rebuild, and the tag filter's
    pages read from them (not from ``hand_players``) equal those from the rows (for a tag on
    many hands and one on a few)."""
    kept = {table: _dump(con, table) for table in TAG_AGGREGATES}
    for table, rebuilt in _rebuilt(con, TAG_AGGREGATES).items():
        _same(kept[table], rebuilt, f"{table} as maintained")
    for tag in ("Many", "few"):
        assert tagged_rows(con, Filters(player="Hero", tag=tag)) == "FROM agg_tagged hp"
        for name, page in TAG_PAGES:
            filters = Filters(player="Hero", tag=tag)
            with rows_only():
                expected = page(con, filters)
            _same(page(con, filters), expected, f"{name} with {filters}")


def _rebuilt(con: duckdb.DuckDBPyConnection, tables: tuple[str, ...]) -> dict[str, pd.DataFrame]:
    con.execute("BEGIN TRANSACTION")
    try:
        api.rebuild_aggregates(con)
        return {table: _dump(con, table) for table in tables}
    finally:
        con.execute("ROLLBACK")


def test_tags_kept_by_every_write(store: duckdb.DuckDBPyConnection,
                                  files: list[bytes]) -> None:
    """``agg_tags`` (the tagged hands' keys) follows every tag written or cleared and every
    write of hands: a tag on a hand not stored yet counts once its hand is imported, a
    removal drops its hands' tags from it (the tag itself is kept), a new import of them
    brings them back."""
    ids = [json.loads(line)["hand_id"] for f in files for line in f.splitlines()]
    sources = {json.loads(line)["hand_id"]: json.loads(line)["source"]
               for f in files for line in f.splitlines()}
    for hand_id in ids[::3]:  # of every file: most not stored yet
        api.set_hand_tags(store, sources[hand_id], hand_id, ["many", "Extra"])
    for hand_id in ids[1:40:7]:
        api.set_hand_tags(store, sources[hand_id], hand_id, ["Few"])
    api.set_hand_tags(store, sources[ids[3]], ids[3], [])  # cleared
    stored = store.execute("SELECT count(*) FROM agg_tags WHERE tag_key = 'many'").fetchone()
    assert stored is not None and 0 < stored[0] < len(ids[::3])
    _check_tags(store)
    report = api.import_files([("b.jsonl", files[1]), ("c.jsonl", files[2])], store)
    _check_tags(store)
    api.rescore(store, chunk_hands=150)
    _check_tags(store)
    api.remove_imports(store, [report.files[0].import_id])
    _check_tags(store)
    api.import_files([("b.jsonl", files[1])], store)
    _check_tags(store)
    tagged = [f"{sources[i]}/{i}" for i in ids[::3] if i not in (ids[3], *ids[1:40:7])]
    assert store.execute("SELECT count(*) FROM agg_tags WHERE tag_key = 'many'").fetchone() \
        == store.execute("SELECT count(*) FROM hands WHERE list_contains(?, source || '/' || "
                         "hand_id)", [tagged]).fetchone() > (len(tagged) * 9 // 10,)
