"""Fantasyland: how often a player gets there, stays, and what it is worth.

The store already says, per player and hand, whether the hand was played in Fantasyland
(``fantasyland``), the cards dealt there (``fl_cards``) and the Fantasyland cards earned for the
next hand (``fantasyland_next``, 0 if none), judged by the scorer under the hand's ruleset. So:

- an *entry* is a normal hand (not played in Fantasyland) with ``fantasyland_next > 0``; the
  entry rate is entries over normal hands (as on the Overview page);
- a *stay* is a Fantasyland hand with ``fantasyland_next > 0``; the stay rate is stays over
  Fantasyland hands.

Points per hand never add OFC Double's race points to other points: when the hands mix race
scoring with another system, the race hands are left out of the point figures (and counted in
``race_left_out``, which the page says), as on the Overview page.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from dashboard.queries.common import RACE, Filters, fetch_df
from dashboard.queries.sessions import (
    hand_list,
    scope_cte,
    session_table,
)

TOP_CLASS = """CASE WHEN s.top_hand LIKE 'Three of a kind%' THEN 'trips'
     WHEN s.top_hand LIKE 'Pair of Aces%' THEN 'AA'
     WHEN s.top_hand LIKE 'Pair of Kings%' THEN 'KK'
     WHEN s.top_hand LIKE 'Pair of Queens%' THEN 'QQ'
     ELSE 'below QQ' END"""
"""The top row as a Fantasyland qualifier, from its stored hand name (``hand_players.top_hand``,
as ``hand_rows.hand_name``, which a joker suffixes with `` (joker)``; a surrendered hand, with
no complete top, counts as below QQ)."""

TOP_CLASSES = ("below QQ", "QQ", "KK", "AA", "trips")

TOP_JOIN = ""
"""What :data:`TOP_CLASS` needs besides ``scope s``: nothing (the top's hand name is stored on
``hand_players``); kept for callers that pass it as a join."""

_CELLS = """
SELECT s.fantasyland, {top_class} AS top_class, s.scoring = '{race}' AS race,
       count(*) AS hands,
       count_if(NOT s.surrendered) AS hands_set,
       count_if(s.fouled AND NOT s.surrendered) AS fouled,
       count_if(s.fantasyland_next > 0) AS earned,
       sum(s.points) AS points
FROM scope s {top_join}
GROUP BY ALL
"""


def cells(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """The counts every Fantasyland number is made of, per (``fantasyland``, ``top_class``):
    ``hands``, ``hands_set`` (not surrendered), ``fouled``, ``earned`` (hands with
    ``fantasyland_next > 0``: an entry from a normal hand, a stay from a Fantasyland hand) and
    ``points``, apart for race-scored hands (``race``). One pass over the player's rows (the
    top's hand name is stored with them); :func:`summary_of` and :func:`by_top_of` add them
    up."""
    head, params = scope_cte(filters)
    return fetch_df(con, head + _CELLS.format(top_class=TOP_CLASS, top_join=TOP_JOIN,
                                              race=RACE), params)


def points_counted(counts: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``counts`` (with a ``race`` column) whose points are added up: all of them,
    or, when race scoring is mixed with another system, those not race-scored.

    >>> frame = pd.DataFrame({"race": [True, False], "hands": [3, 4]})
    >>> points_counted(frame)["hands"].tolist(), points_counted(frame[:1])["hands"].tolist()
    ([4], [3])
    """
    race = counts["race"].astype(bool)
    return counts[~race] if race.any() and not race.all() else counts


def race_left_out(counts: pd.DataFrame) -> int:
    """How many race-scored hands :func:`points_counted` leaves out."""
    return int(counts["hands"].sum() - points_counted(counts)["hands"].sum())


def _ratio(a: float, b: float) -> float | None:
    return float(a) / float(b) if b else None


def summary_of(counts: pd.DataFrame) -> dict[str, float | int | None]:
    """The headline numbers from :func:`cells`: ``hands``, ``fl_hands``, ``normal_hands``,
    ``entries``, ``entry_rate``, ``stays``, ``stay_rate``, ``fl_per_100`` (Fantasyland hands
    per 100 hands), ``points_per_fl_hand``, ``points_per_normal_hand``, ``foul_rate``. Rates
    are ``None`` when there is nothing to divide by; ``race_left_out`` counts the race hands
    left out of the point figures (:func:`points_counted`)."""
    fl = counts[counts["fantasyland"].astype(bool)]
    normal = counts[~counts["fantasyland"].astype(bool)]
    counted = points_counted(counts)
    fl_points = counted[counted["fantasyland"].astype(bool)]
    normal_points = counted[~counted["fantasyland"].astype(bool)]
    hands, fl_hands, normal_hands = (int(counts["hands"].sum()), int(fl["hands"].sum()),
                                     int(normal["hands"].sum()))
    entries, stays = int(normal["earned"].sum()), int(fl["earned"].sum())
    return {
        "hands": hands, "fl_hands": fl_hands, "normal_hands": normal_hands,
        "entries": entries, "entry_rate": _ratio(entries, normal_hands),
        "stays": stays, "stay_rate": _ratio(stays, fl_hands),
        "fl_per_100": 100 * (fl_hands / hands) if hands else None,
        "points_per_fl_hand": _ratio(fl_points["points"].sum(), fl_points["hands"].sum()),
        "points_per_normal_hand": _ratio(normal_points["points"].sum(),
                                         normal_points["hands"].sum()),
        "race_left_out": race_left_out(counts),
        "foul_rate": _ratio(counts["fouled"].sum(), counts["hands_set"].sum()),
    }


def summary(con: duckdb.DuckDBPyConnection, filters: Filters) -> dict[str, float | int | None]:
    """:func:`summary_of` the filtered hands."""
    return summary_of(cells(con, filters))


def by_top_of(counts: pd.DataFrame) -> pd.DataFrame:
    """Normal hands by the top they ended with (below QQ, QQ, KK, AA, trips), from
    :func:`cells`: ``hands``, ``fouled`` (a qualifying top over a foul earns nothing),
    ``entries``, ``entry_rate_with_top`` (entries / hands with that top),
    ``share_of_normal_hands`` (entries with that top / all normal hands; they add up to the
    overall entry rate) and ``points_per_hand`` (race hands left out when mixed)."""
    normal = counts[~counts["fantasyland"].astype(bool)]
    out = normal.groupby("top_class", sort=False)[["hands", "fouled", "earned"]].sum()
    counted = points_counted(counts)
    counted = counted[~counted["fantasyland"].astype(bool)].groupby("top_class")[
        ["hands", "points"]].sum()
    out = out.join(counted["points"]).join(counted["hands"].rename("points_hands"))
    out = out.rename(columns={"earned": "entries"}).reset_index()
    out["entry_rate_with_top"] = out["entries"] / out["hands"]
    out["share_of_normal_hands"] = out["entries"] / out["hands"].sum()
    out["points_per_hand"] = out["points"] / out["points_hands"]
    order = {c: i for i, c in enumerate(TOP_CLASSES)}
    out = out.drop(columns=["points", "points_hands"]).sort_values(
        "top_class", key=lambda c: c.map(order))
    return out.reset_index(drop=True)


def by_top(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """:func:`by_top_of` the filtered hands."""
    return by_top_of(cells(con, filters))


def top_hands(con: duckdb.DuckDBPyConnection, filters: Filters, top_class: str) -> pd.DataFrame:
    """The normal hands behind one row of :func:`by_top`."""
    return hand_list(con, filters, TOP_CLASS, top_class, join=TOP_JOIN,
                     extra="AND NOT s.fantasyland")


_CARDS = """
SELECT coalesce(s.fl_cards::VARCHAR, 'unknown') AS fl_cards, s.scoring = '{race}' AS race,
       count(*) AS hands,
       count_if(s.fantasyland_next > 0) AS stays,
       count_if(NOT s.surrendered) AS hands_set,
       count_if(s.fouled AND NOT s.surrendered) AS fouled,
       sum(s.points) AS points
FROM scope s WHERE s.fantasyland
GROUP BY 1, 2
"""

CARDS_EXPR = "coalesce(s.fl_cards::VARCHAR, 'unknown')"


def by_cards(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """Fantasyland hands by cards dealt (``unknown`` when the log does not say): ``hands``,
    ``stays``, ``stay_rate``, ``foul_rate``, ``points_per_hand`` (race hands left out when
    mixed with another scoring system)."""
    head, params = scope_cte(filters)
    parts = fetch_df(con, head + _CARDS.format(race=RACE), params)
    out = parts.groupby("fl_cards")[["hands", "stays", "hands_set", "fouled"]].sum()
    counted = points_counted(parts).groupby("fl_cards")[["points", "hands"]].sum()
    out["stay_rate"] = out["stays"] / out["hands"]
    out["foul_rate"] = (out["fouled"] / out["hands_set"]).where(out["hands_set"] > 0)
    out["points_per_hand"] = counted["points"] / counted["hands"]
    return out.drop(columns=["hands_set", "fouled"]).reset_index().sort_values(
        "fl_cards").reset_index(drop=True)


def cards_hands(con: duckdb.DuckDBPyConnection, filters: Filters, fl_cards: str) -> pd.DataFrame:
    """The Fantasyland hands behind one row of :func:`by_cards`."""
    return hand_list(con, filters, CARDS_EXPR, fl_cards, extra="AND s.fantasyland")


KIND_EXPR = "CASE WHEN s.fantasyland THEN 'Fantasyland' ELSE 'normal' END"
"""Fantasyland hand or normal hand, for :func:`kind_hands`."""


def kind_hands(con: duckdb.DuckDBPyConnection, filters: Filters, kind: str) -> pd.DataFrame:
    """The hands behind 'points per FL hand' (``kind='Fantasyland'``) or per normal hand."""
    return hand_list(con, filters, KIND_EXPR, kind)


BENCHMARK_QUERIES = [
    ("cells", cells),
    ("by_cards", by_cards),
    ("chasing_per_session", session_table),
]
"""What the Fantasyland page runs on first load (``benchmarks/bench_dashboard.py``)."""
