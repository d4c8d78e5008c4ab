"""A group's currency and scoring labels on Sessions and Opponents: named from counts when the
store holds one currency and at most one scoring system besides race (the fast path), by the
least and greatest value otherwise. Both paths must name every group alike, whatever the store
holds: the demo as it is (one currency, 1-6 and race), with a second currency and a second
point system mixed in, and with race hands only."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from dashboard.queries import labels, opponents, sessions
from dashboard.queries.common import Filters
from ingest import aggregates

HERO = "Hero"

CHANGES = {
    "demo": [],
    "two currencies, 1-6, 2-4 and race": [
        # every seventh hand in USD, every fifth non-race hand scored 2-4
        "UPDATE {t} SET currency = 'USD' WHERE hand_key % 7 = 0",
        "UPDATE {t} SET scoring = '2-4' WHERE scoring <> 'race' AND hand_key % 5 = 0",
    ],
    "race only": [
        "DELETE FROM pairs WHERE hand_key IN (SELECT hand_key FROM hands WHERE scoring <> 'race')",
        "DELETE FROM hand_players WHERE scoring <> 'race'",
        "DELETE FROM hands WHERE scoring <> 'race'",
    ],
}


@pytest.fixture(scope="module", params=list(CHANGES))
def con(request: pytest.FixtureRequest, demo_db_path: Path,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    path = tmp_path_factory.mktemp("labels") / "store.duckdb"
    shutil.copy(demo_db_path, path)
    c = duckdb.connect(str(path))
    for sql in CHANGES[request.param]:
        for table in ("hands", "hand_players"):
            if "{t}" in sql:
                c.execute(sql.format(t=table))
        if "{t}" not in sql:
            c.execute(sql)
    aggregates.rebuild(c)  # the rows were changed behind the API: its tables follow them
    yield c
    c.close()


def _span_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every label by the least and greatest value (the path for any store)."""
    monkeypatch.setattr(labels, "store_values", lambda *a, **k: None)


def _labels(frame: pd.DataFrame, key: list[str]) -> list[tuple]:
    return sorted(frame[[*key, "currency", "scoring"]].itertuples(index=False, name=None),
                  key=repr)


@pytest.mark.parametrize("period", ["session", "week"])
def test_period_labels_agree_with_the_general_path(
        con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch, period: str) -> None:
    fast = sessions.period_table(con, Filters(player=HERO), period)
    _span_only(monkeypatch)
    general = sessions.period_table(con, Filters(player=HERO), period)
    assert len(fast) >= 2
    assert _labels(fast, ["period"]) == _labels(general, ["period"])


def test_opponent_labels_agree_with_the_general_path(
        con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = opponents.table(con, Filters(player=HERO))
    _span_only(monkeypatch)
    general = opponents.table(con, Filters(player=HERO))
    assert len(fast) > 1
    assert _labels(fast, ["opponent"]) == _labels(general, ["opponent"])
    pd.testing.assert_series_equal(fast["money"], general["money"])


def test_the_stores_values_decide_the_path(con: duckdb.DuckDBPyConnection) -> None:
    currencies = {r[0] for r in con.execute("SELECT DISTINCT currency FROM hands").fetchall()}
    systems = {r[0] for r in con.execute("SELECT DISTINCT scoring FROM hands").fetchall()}
    one = labels.store_values(con, "currency")
    assert (one is None) == (len(currencies - {None}) > 1)
    table = sessions.period_table(con, Filters(player=HERO))
    assert all(set(label.split(", ")) <= systems for label in table["scoring"])
    if systems == {"race"}:
        assert set(table["scoring"]) == {"race"}
    if len(currencies) > 1:
        assert any(", " in str(c) for c in table["currency"]), "a session mixing USD and EUR"
