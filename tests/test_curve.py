"""The cumulative graph drawn per group of hands (``dashboard/queries/curve.py``, from
``agg_curve``) on random stores: every group's first, last, lowest and highest hand of the
running points, at the values the per-hand running sums give when the hands are laid out
group after group (computed here in numpy from the rows); and below ``grouped_from`` hands
the page draws hand by hand as before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from dashboard.queries import overview, review
from dashboard.queries.common import Filters, effective_names, shared_seats
from ingest import api
from tests.helpers.random_store import random_files

GROUP = ["player", "source", "session_id", "hour", "variant", "ruleset_label", "scoring",
         "stake", "currency"]


def _per_hand(con: duckdb.DuckDBPyConnection, players: list[str]) -> pd.DataFrame:
    """The players' hands with the graph's per-hand values, in group order then play order,
    and the running lines; race groups left out when mixed with other scoring."""
    hands = con.execute(f"""
        SELECT hp.player, h.source, hp.session_id, epoch_us(hp.played_at) // {api.HOUR_US}
               AS hour, hp.variant, hp.ruleset_label, hp.scoring, hp.stake, hp.currency,
               hp.hand_key, coalesce(epoch_us(hp.played_at), -(2::BIGINT ** 62)::BIGINT) AS t,
               hp.points, CASE WHEN hp.fantasyland THEN 0 ELSE hp.points END AS plain,
               coalesce(p.roy, 0) AS roy, coalesce(p.rows, 0) AS rows
        FROM hand_players hp JOIN hands h USING (hand_key)
        LEFT JOIN (SELECT hand_key, seat, sum(royalties) AS roy, sum(row_points + bonus) AS rows
                   FROM pairs GROUP BY ALL) p ON p.hand_key = hp.hand_key AND p.seat = hp.seat
        WHERE list_contains(?, hp.player)""", [players]).df()
    if hands["scoring"].eq("race").any() and not hands["scoring"].eq("race").all():
        hands = hands[hands["scoring"] != "race"]
    hands = hands.sort_values(["t", "hand_key"]).reset_index(drop=True)
    group = hands.groupby(GROUP, dropna=False, sort=False).ngroup()
    hands["g"] = group.map({g: i for i, g in enumerate(pd.unique(group))})  # by first hand
    hands = hands.sort_values(["g", "t", "hand_key"], kind="stable").reset_index(drop=True)
    for line in ("points", "plain", "roy", "rows"):
        hands[f"{line}_run"] = np.cumsum(hands[line].to_numpy(dtype=float))
    hands["n"] = np.arange(1, len(hands) + 1)
    return hands


def _expected_points(hands: pd.DataFrame) -> pd.DataFrame:
    """Each group's first and last hand and its first lowest and highest running points."""
    before = hands["points_run"] - hands["points"]  # the running points before each hand
    within = hands["points_run"] - before.groupby(hands["g"]).transform("first")
    picked = set(hands.groupby("g")["n"].first()) | set(hands.groupby("g")["n"].last())
    picked |= set(hands.loc[within.groupby(hands["g"]).idxmin(), "n"])
    picked |= set(hands.loc[within.groupby(hands["g"]).idxmax(), "n"])
    return hands[hands["n"].isin(picked)].reset_index(drop=True)


@pytest.fixture(scope="module")
def stores(demo_db_path: Path, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[dict[str, duckdb.DuckDBPyConnection]]:
    """The demo (sessions of tens of hands an hour, OFC Double matches beside other scoring)
    and a random store (many rooms, stakes, rulesets: groups of a few hands)."""
    con = api.connect(tmp_path_factory.mktemp("curve") / "curve.duckdb")
    files = random_files(seed=25, count=330, minutes=240)
    api.import_files([(f"{i}.jsonl", data) for i, data in enumerate(files)], con)
    demo = duckdb.connect(str(demo_db_path), read_only=True)
    yield {"demo": demo, "random": con}
    con.close()
    demo.close()


@pytest.mark.parametrize(("kind", "who"), [
    ("demo", ["Hero"]), ("demo", ["Anna"]), ("random", ["Hero"]), ("random", ["Zoë"]),
    ("random", ["Hero", "Hero2"])])
def test_grouped_curve_equals_per_hand_sums(stores: dict[str, duckdb.DuckDBPyConnection],
                                            kind: str, who: list[str]) -> None:
    store = stores[kind]
    if len(who) == 1:
        filters = Filters(player=who[0])
    else:
        me = effective_names(store, tuple(api.MyName(n) for n in who))
        filters = Filters(me=me, me_skip=shared_seats(store, me))
    grouped = overview.cumulative(store, filters, max_points=10**9, grouped_from=0)
    assert grouped.attrs.get("per_group") is True
    want = _expected_points(_per_hand(store, who))
    assert want["g"].nunique() > 20
    if kind == "demo":  # groups of many hands: their lowest and highest hands are drawn
        assert len(want) < 0.2 * want["n"].iloc[-1] and len(want) > 3 * want["g"].nunique()
    assert grouped["n"].tolist() == want["n"].tolist()
    assert grouped["hand_key"].tolist() == want["hand_key"].tolist()
    for got, line in (("points", "points"), ("total", "points_run"), ("without_fl", "plain_run"),
                      ("royalties", "roy_run"), ("row_points", "rows_run")):
        np.testing.assert_allclose(grouped[got].to_numpy(dtype=float),
                                   want[line].to_numpy(dtype=float), err_msg=got)
    assert grouped["expected"].isna().all()  # nothing reviewed


def test_below_the_threshold_hand_by_hand(stores: dict[str, duckdb.DuckDBPyConnection]
                                          ) -> None:
    """The same last point both ways; under ``grouped_from`` every hand is drawn."""
    store = stores["demo"]
    filters = Filters(player="Hero")
    hands = overview.cumulative(store, filters, max_points=10**9)
    grouped = overview.cumulative(store, filters, max_points=10**9, grouped_from=0)
    assert "per_group" not in hands.attrs and len(hands) > len(grouped)
    assert hands["n"].tolist() == list(range(1, len(hands) + 1))
    last = ["n", "total", "without_fl", "royalties", "row_points"]
    np.testing.assert_allclose(hands[last].iloc[-1].to_numpy(dtype=float),
                               grouped[last].iloc[-1].to_numpy(dtype=float))
    thin = overview.cumulative(store, filters, max_points=40, grouped_from=0)
    assert len(thin) <= 40 and thin["n"].iloc[-1] == len(hands)


def test_luck_line_per_group(stores: dict[str, duckdb.DuckDBPyConnection],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Reviewed hands (their expected points as ``review.expected_first`` gives them) move
    the luck line from their place in the group order on, as hand by hand."""
    hands = _per_hand(stores["demo"], ["Hero"])
    rng = np.random.default_rng(5)
    picked = hands.iloc[rng.choice(len(hands), 25, replace=False)]
    reviewed = pd.DataFrame({"hand_key": picked["hand_key"].to_numpy(),
                             "expected": rng.normal(0, 10, len(picked))})
    monkeypatch.setattr(review, "expected_first", lambda con, filters: reviewed)
    grouped = overview.cumulative(stores["demo"], Filters(player="Hero"), max_points=10**9,
                                  grouped_from=0)
    values = hands.set_index("hand_key")["points"].astype(float)
    values[reviewed["hand_key"].to_numpy()] = reviewed["expected"].to_numpy()
    want = pd.Series(np.cumsum(values.to_numpy()), index=hands["n"])
    np.testing.assert_allclose(grouped["expected"].to_numpy(),
                               want[grouped["n"].to_numpy()].to_numpy())
    assert not np.allclose(grouped["expected"], grouped["total"])
