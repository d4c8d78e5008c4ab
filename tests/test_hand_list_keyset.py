"""Hand review's list and a hand's place, read by constant time bounds (``hands._beyond``),
give what the query before them gave (one scan comparing every row with the anchor hand's
place, kept here as the reference) on a random store with ties and hands without a date: every
page direction, anchors at the newest, the oldest, a tie, an undated hand and a hand not in
the list, with and without a search and a tag."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

from dashboard.queries import hands
from dashboard.queries.common import Filters, fetch_all, fetch_df, not_me, where
from ingest import api
from tests.helpers.random_store import random_files

ORDER = "coalesce(hp.played_at, '-infinity'::TIMESTAMPTZ)"
ANCHOR = """anchor AS (
    SELECT coalesce(played_at, '-infinity'::TIMESTAMPTZ) AS t, hand_key AS k
    FROM hands WHERE hand_key = ?
)"""


def _beyond(older: bool, inclusive: bool) -> str:
    side = "<" if older else ">"
    same = f"hp.hand_key {side}{'=' if inclusive else ''} a.k"
    return f"({ORDER} {side} a.t OR ({ORDER} = a.t AND {same}))"


def old_page(con: Any, filters: Filters, search: hands.HandSearch,
             page: hands.Page | None, limit: int = 500) -> list[int]:
    """The keys of the page as the code before listed them (the anchor in a CTE, every row
    compared with it)."""
    cond, params = where(filters)
    extra, more = hands.search_where(search)
    keyset, anchor, head = "TRUE", [], ""
    older = page is None or page.older
    if page is not None:
        keyset = _beyond(older, page.inclusive)
        head, anchor = f"{ANCHOR},", [int(page.key)]
    direction = "DESC" if older else "ASC"
    frame = fetch_df(con, f"""
        WITH {head} found AS (
            SELECT hp.hand_key, hp.played_at AS sort_at
            {hands.scanned(search)} {"CROSS JOIN anchor a" if page is not None else ""}
            WHERE {cond} AND {extra} AND {keyset}
            ORDER BY sort_at {direction} NULLS {"LAST" if older else "FIRST"},
                     hp.hand_key {direction} LIMIT ?)
        SELECT hand_key FROM found ORDER BY sort_at DESC NULLS LAST, hand_key DESC""",
        [*anchor, *params, *more, limit])
    return [int(k) for k in frame["hand_key"]]


def old_place(con: Any, filters: Filters, search: hands.HandSearch,
              hand_key: int) -> hands.Place | None:
    cond, params = where(filters)
    extra, more = hands.search_where(search)
    at = f"({ORDER}, hp.hand_key)"
    row = fetch_all(con, f"""
        WITH {ANCHOR}
        SELECT arg_min(hp.hand_key, {at}) FILTER (WHERE {_beyond(False, False)}),
               arg_max(hp.hand_key, {at}) FILTER (WHERE {_beyond(True, False)}),
               count(*) FILTER (WHERE {_beyond(False, False)}),
               count(*) FILTER (WHERE hp.hand_key = a.k), count(*)
        {hands.scanned(search)} CROSS JOIN anchor a
        WHERE {cond} AND {extra}""", [int(hand_key), *params, *more])
    if not row or not row[0][3]:
        return None
    newer, older, position, _, total = row[0]
    return hands.Place(None if newer is None else int(newer),
                       None if older is None else int(older), int(position), int(total))


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    """A random store (most of its 1,170 hands Hero's, so that pages of 500
    run out), one in 20 tagged; 40 hands at one time, 30 without a date."""
    files = random_files(seed=31, count=1170)
    db = Path(tmp_path_factory.mktemp("keyset")) / "k.duckdb"
    store = api.connect(db)
    api.import_files([(f"{i}.jsonl", data) for i, data in enumerate(files)], store)
    for source, hand_id in store.execute(
            "SELECT source, hand_id FROM hands WHERE hand_key % 20 = 3").fetchall():
        api.set_hand_tags(store, source, hand_id, ["Tilt"])
    for table in ("hands", "hand_players"):
        store.execute(f"UPDATE {table} SET played_at = TIMESTAMPTZ '2026-01-05 12:00:00+00' "
                      "WHERE hand_key % 31 = 0")
        store.execute(f"UPDATE {table} SET played_at = NULL WHERE hand_key % 41 = 1")
    api.rebuild_aggregates(store)  # the UPDATEs went around the writers that keep them
    yield store
    store.close()


SEARCHES = [hands.HandSearch(), hands.HandSearch(fouled=False, royalties_min=2),
            hands.HandSearch(hand_id="1")]


CASES = [(Filters(player="Hero"), search) for search in SEARCHES] + [
    (Filters(player="Hero", tag="tilt"), SEARCHES[0]), (Filters(player="Anna"), SEARCHES[0])]


@pytest.mark.parametrize(("filters", "search"), CASES,
                         ids=["hero", "hero-search", "hero-id", "tag", "anna"])
def test_pages_and_places_equal_the_scan(con: duckdb.DuckDBPyConnection, filters: Filters,
                                         search: hands.HandSearch) -> None:
    listed = old_place_list(con, filters, search)
    assert len(listed) > (40 if search == SEARCHES[0] else 5)
    undated = [k for k, t in listed if t is None]
    tied = [k for k, t in listed if t is not None and (t % 86_400_000_000 == 43_200_000_000)]
    keys = [k for k, _ in listed]
    anchors = {keys[0], keys[len(keys) // 2], keys[-1], *undated[:1], *tied[:1],
               *(keys[-500:-499] if len(keys) > 500 else []), -5}
    anchors.add(next(int(k) for (k,) in con.execute(  # a stored hand not in the list
        "SELECT hand_key FROM hands ORDER BY hand_key").fetchall() if int(k) not in keys))
    assert undated and tied or search != SEARCHES[0]
    for key in sorted(anchors):
        for older in (True, False):
            for inclusive in (True, False):
                page = hands.Page(key, older, inclusive)
                new = hands.find_hands(con, filters, search, page)
                assert [int(k) for k in new["hand_key"]] == \
                    old_page(con, filters, search, page), (key, older, inclusive)
        assert hands.place(con, filters, search, key) == old_place(con, filters, search, key)
    for limit in (3, 20, 60, 500):  # the newest page, found in the newest hours or in all
        new = hands.find_hands(con, filters, search, limit=limit)
        assert [int(k) for k in new["hand_key"]] == old_page(con, filters, search, None, limit)


def old_place_list(con: Any, filters: Filters, search: hands.HandSearch
                   ) -> list[tuple[int, int | None]]:
    """Every listed hand, newest first, with its time in microseconds."""
    cond, params = where(filters)
    extra, more = hands.search_where(search)
    return [(int(k), t) for k, t in fetch_all(con, f"""
        SELECT hp.hand_key, epoch_us(hp.played_at) {hands.scanned(search)}
        WHERE {cond} AND {extra}
        ORDER BY hp.played_at DESC NULLS LAST, hp.hand_key DESC""", [*params, *more])]


def test_the_page_shows_the_same_rows(con: duckdb.DuckDBPyConnection) -> None:
    """The whole frame (opponents, tags, note) of a page far back is the rows' own."""
    filters = Filters(player="Hero")
    keys = [k for k, _ in old_place_list(con, filters, hands.HandSearch())]
    frame = hands.find_hands(con, filters, page=hands.Page(keys[-20]))
    assert [int(k) for k in frame["hand_key"]] == keys[-20:]
    others, last = not_me(filters, "o.player", "o.hand_key")
    for row in frame.itertuples():
        assert row.opponents == fetch_all(con, f"""
            SELECT string_agg(o.player, ', ' ORDER BY o.seat) FROM hand_players o
            WHERE o.hand_key = ? AND o.player <> 'Hero' {others}""", [row.hand_key, *last])[0][0]
    assert set(frame["tags"].dropna()) <= {"Tilt"}
    assert isinstance(frame, pd.DataFrame) and not frame["note"].any()
