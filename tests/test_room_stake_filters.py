"""The room (source) and stake filters narrow every page's numbers, as a recount in pandas
from the stored hand rows says.

The store (``rooms_db_path``) is the demo (room ``ofc-sim``, EUR stakes 0.5, 1 and 2) plus
its pineapple log again as another room (``home``) at 0.25 USD: two rooms, two currencies,
four stakes. For each filter the expected figures are counted here from ``hand_players``
(joined to its hand's source) with pandas, independently of the pages' SQL, and compared with
each page's query: Overview (summary, the graph by day and in money), Hand review (its list),
Sessions, Fouls, Fantasyland, Matches, Opponents and Variants.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import pytest

from dashboard.queries import (
    fantasyland,
    fouls,
    graphs,
    hands,
    matches,
    opponents,
    options,
    overview,
    sessions,
    variants,
)
from dashboard.queries.conditions import where
from dashboard.queries.filter_set import Filters, Stake

HERO = "Hero"
HOME = "home"
"""The other room of the ``rooms_db_path`` store (conftest's ``HOME_ROOM``)."""


@pytest.fixture(scope="module")
def con(rooms_db_path: Path):  # type: ignore[no-untyped-def]
    c = duckdb.connect(str(rooms_db_path), read_only=True)
    yield c
    c.close()


@pytest.fixture(scope="module")
def rows(con) -> pd.DataFrame:  # type: ignore[no-untyped-def]
    """Every player's hand rows with the hand's source: what the pandas recounts read."""
    return con.execute("SELECT hp.*, h.source FROM hand_players hp "
                       "JOIN hands h ON h.hand_key = hp.hand_key").df()


CASES = [
    Filters(player=HERO, room=HOME),
    Filters(player=HERO, room="ofc-sim"),
    Filters(player=HERO, stake=Stake(0.5, "EUR")),
    Filters(player=HERO, stake=Stake(2.0, "EUR")),
    Filters(player=HERO, room="ofc-sim", stake=Stake(1.0, "EUR")),
    Filters(player=HERO, room=HOME, stake=Stake(1.0, "EUR")),  # no such hands
]
IDS = ["home", "ofc-sim", "0.5 EUR", "2 EUR (Double)", "ofc-sim at 1 EUR", "none"]


def kept(rows: pd.DataFrame, f: Filters) -> pd.DataFrame:
    """The filtered player's rows, by pandas."""
    out = rows[rows["player"] == f.player]
    if f.room is not None:
        out = out[out["source"] == f.room]
    if f.stake is not None:
        out = out[(out["stake"] == f.stake.amount) & (out["currency"] == f.stake.currency)]
    return out


def test_the_options_offer_each_room_and_stake(con) -> None:  # type: ignore[no-untyped-def]
    found = options.filter_options(con, HERO)
    assert found.rooms == (HOME, "ofc-sim")
    assert found.stakes == (Stake(0.5, "EUR"), Stake(1.0, "EUR"), Stake(2.0, "EUR"),
                            Stake(0.25, "USD"))


def test_the_filters_live_in_the_url() -> None:
    f = Filters(player=HERO, room=HOME, stake=Stake(0.25, "USD"))
    assert f.to_params() == {"player": HERO, "room": HOME, "stake": "0.25 USD"}
    assert Filters.from_params(f.to_params()) == f
    assert Filters.from_params({"player": HERO, "stake": "a lot"}) == Filters(player=HERO)


def test_a_stake_without_a_currency_is_matched_as_none(con) -> None:  # type: ignore[no-untyped-def]
    cond, params = where(Filters(stake=Stake(1.0, None)))
    assert con.execute(f"SELECT count(*) FROM hand_players hp WHERE {cond}",
                       params).fetchone() == (0,)  # every demo hand names its currency


@pytest.mark.parametrize("f", CASES, ids=IDS)
def test_overview_and_hand_review_count_the_filtered_hands(con, rows, f) -> None:  # type: ignore[no-untyped-def]
    mine = kept(rows, f)
    s = overview.summary(con, f)
    assert s.hands == len(mine)
    listed = hands.find_hands(con, f, limit=10_000)  # Hand review's list
    assert sorted(listed["hand_key"]) == sorted(mine["hand_key"])
    by_system = mine.groupby("scoring")["points"].agg(["size", "sum"])
    assert {k: n for k, n, _ in s.by_scoring} == by_system["size"].to_dict()
    assert {k: p for k, _, p in s.by_scoring} == pytest.approx(by_system["sum"].to_dict())
    staked = mine[mine["stake"].notna()]
    assert {c: m for c, m, _ in s.money} == pytest.approx(
        staked.groupby("currency")["money"].sum().to_dict())


@pytest.mark.parametrize("f", CASES, ids=IDS)
def test_the_graph_by_day_in_money_recounts(con, rows, f) -> None:  # type: ignore[no-untyped-def]
    mine = kept(rows, f)
    mine = mine[mine["played_at"].notna() & mine["money"].notna()]
    local = (pd.to_datetime(mine["played_at"], utc=True).dt.tz_localize(None)
             + pd.to_timedelta(mine["utc_offset"].fillna(0).astype(float), unit="m"))
    expected = mine.assign(day=local.dt.normalize()).groupby(["currency", "day"])["money"].sum()
    expected = expected.groupby(level=0).cumsum()
    got = graphs.money_by_day(graphs.by_day(con, f)).set_index(["currency", "day"])["total"]
    assert got.to_dict() == pytest.approx(expected.to_dict())
    by_hand = graphs.money_by_hand(con, f)
    last = by_hand.groupby("currency")["total"].last().to_dict()
    assert last == pytest.approx(mine.groupby("currency")["money"].sum().to_dict())


@pytest.mark.parametrize("f", CASES, ids=IDS)
def test_sessions_fouls_fantasyland_and_variants_recount(con, rows, f) -> None:  # type: ignore[no-untyped-def]
    mine = kept(rows, f)
    days = sessions.period_table(con, f, "day")
    assert int(days["hands"].sum()) == len(mine)
    assert float(days["points"].sum()) == pytest.approx(float(mine["points"].sum()))
    assert float(days["money"].sum()) == pytest.approx(float(mine["money"].sum()))
    foul = fouls.breakdowns(con, f)
    by_variant = foul[foul["dimension"] == "variant"].set_index("value")
    set_ = mine[~mine["surrendered"]]
    assert by_variant["fouls"].astype(int).to_dict() == \
        set_.groupby("variant")["fouled"].sum().astype(int).to_dict()
    fl = fantasyland.summary(con, f)
    assert (fl["hands"], fl["fl_hands"]) == (len(mine), int(mine["fantasyland"].sum()))
    table = variants.table(con, f)
    assert table.groupby("variant")["hands"].sum().to_dict() == \
        mine.groupby("variant").size().to_dict()


@pytest.mark.parametrize("f", CASES, ids=IDS)
def test_matches_and_opponents_recount(con, rows, f) -> None:  # type: ignore[no-untyped-def]
    mine = kept(rows, f)
    found = matches.table(con, f)
    assert sorted(found["match_id"]) == sorted(mine["match_id"].dropna().unique())
    assert int(found["hands"].sum()) == int(mine["match_id"].notna().sum())
    theirs = rows[["hand_key", "seat", "player"]].rename(columns={"seat": "o_seat",
                                                                  "player": "opponent"})
    met = mine[["hand_key", "seat"]].merge(theirs, on="hand_key")
    met = met[met["o_seat"] != met["seat"]]
    table = opponents.table(con, f)
    assert table.groupby("opponent")["hands"].sum().to_dict() == \
        met.groupby("opponent").size().to_dict()


def test_the_cases_are_not_all_alike(rows) -> None:  # type: ignore[no-untyped-def]
    """The filters narrow: each case keeps a different number of hands, one none."""
    counts = [len(kept(rows, f)) for f in CASES]
    assert len(set(counts)) == len(counts) and counts[-1] == 0
