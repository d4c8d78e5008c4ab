"""The Opponents page's per-hand queries narrowed to the chosen opponents by an ``IN`` list
(``opponents._one_of``, so that DuckDB builds the join's table on those pairs) and to the
scoring system by its name in the scan of the player's rows (``_versus(scoring=...)``) give
the frames the code before gave (``list_contains``, and the system's number compared on
every row), on random stores: the running net, the head-to-head split and the hands, for
one player, another and "me"."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import duckdb
import pandas as pd
import pytest

from dashboard.queries import opponents
from dashboard.queries.common import Filters, effective_names, shared_seats
from ingest import api
from tests.helpers.random_store import random_files


def _before(column: str, names: tuple[str, ...]) -> str:
    """The condition as it was: ``list_contains`` over the names (one list, here built of
    the same bound names, so the parameters stay as they are)."""
    return f"list_contains([{', '.join('?' * len(names))}], {column})"


def _old_system(scoring: str | None) -> tuple[str, list[Any]]:
    """The system's condition as it was: on ``versus``' rows, for every system."""
    return "AND system = coalesce(?, system)", [opponents._system(scoring)]


def _the_old_way(m: pytest.MonkeyPatch) -> None:
    """Make the queries run as before: ``list_contains``, and no system in the scan."""
    versus = opponents._versus

    def unpicked(*args: Any, scoring: str | None = None, **kwargs: Any) -> tuple[str, list[Any]]:
        return versus(*args, **kwargs)

    m.setattr(opponents, "_one_of", _before)
    m.setattr(opponents, "_system_cut", _old_system)
    m.setattr(opponents, "_versus", unpicked)


@pytest.fixture(scope="module", params=[7, 31])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[duckdb.DuckDBPyConnection]:
    path = tmp_path_factory.mktemp("opp") / "opp.duckdb"
    con = api.connect(path)
    files = random_files(seed=request.param, count=240)
    api.import_files([(f"{i}.jsonl", f) for i, f in enumerate(files)], con)
    yield con
    con.close()


def _filters(con: duckdb.DuckDBPyConnection) -> list[Filters]:
    me = effective_names(con, (api.MyName("Hero"), api.MyName("Anna", "swc")))
    return [Filters(player="Hero"), Filters(player="Anna"),
            Filters(me=me, me_skip=shared_seats(con, me))]


def _queries(con: duckdb.DuckDBPyConnection, filters: Filters, names: tuple[str, ...],
             scoring: str) -> list[tuple[str, Callable[[], pd.DataFrame]]]:
    """What the page runs after its table, for the opponents ``names`` (its first rows)."""
    return [
        ("running net", partial(opponents.cumulative, con, filters, names)),
        ("head to head", partial(opponents.head_to_head, con, filters, names[0], scoring)),
        ("hands", partial(opponents.versus_hands, con, filters, names[-1])),
        ("fouls", partial(opponents.versus_hands, con, filters, names[0], "fouls")),
        ("hands of the system", partial(opponents.versus_hands, con, filters, names[0],
                                        scoring=scoring)),
        ("split, any system", partial(opponents.head_to_head, con, filters, names[0])),
    ]


def test_same_frames_as_list_contains(store: duckdb.DuckDBPyConnection,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    checked = 0
    for filters in _filters(store):
        first = opponents.table(store, filters)
        names = tuple(dict.fromkeys(str(o) for o in first["opponent"]))[:opponents.TOP_OPPONENTS]
        if not names:
            continue
        for what, query in _queries(store, filters, names, str(first["scoring"].iloc[0])):
            now = query()
            with monkeypatch.context() as m:
                _the_old_way(m)
                then = query()
            pd.testing.assert_frame_equal(now, then, obj=f"{what} with {filters}")
            checked += len(now) > 0
    assert checked >= 12  # the frames compared are not empty
