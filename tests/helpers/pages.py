"""Every page's main numbers, read by the dashboard's own query functions, in a shape that
compares across stores whose hand keys differ (the embedded store numbers hands 1, 2, ...;
``ofc spark score`` keys them ``import_id << 32 | line``): a hand key is replaced by the
hand's ``source/hand_id``, floats are rounded to 9 significant digits, rows are sorted.

Used by ``tests/test_parquet_dashboard.py`` (the store against its ``ofc export --parquet``)
and ``tests/test_spark.py`` (the store against Spark's Parquet of the same logs).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import importlib
import math
import pkgutil
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from dashboard.queries import hands, imports, options, overview
from dashboard.queries.filter_set import Filters

Query = Callable[[Any, Filters], Any]

KEY_COLUMNS = frozenset({"hand_key", "first_hand", "last_hand"})
"""Columns of the pages' results that hold a hand key."""

LEFT_OUT = frozenset({"imported_at"})
"""Columns that are the clock of a run, not a number of the hands."""


def _base_queries() -> list[tuple[str, Query]]:
    return [
        ("options.filter_options", lambda con, f: options.filter_options(con, f.player)),
        ("options.players", lambda con, f: options.players(con)),
        ("options.default_player", lambda con, f: options.default_player(con)),
        ("overview.summary", overview.summary),
        ("overview.cumulative", overview.cumulative),
        ("overview.sessions", overview.sessions),
        ("hands.find_hands", hands.find_hands),
        ("imports.ledger", lambda con, f: imports.ledger(con)),
        ("imports.problems", lambda con, f: imports.problems(con)),
    ]


def page_queries() -> list[tuple[str, Query]]:
    """The Overview's, Hand review's, the sidebar's and the Import page's queries, plus every
    query module's ``BENCHMARK_QUERIES`` (what each other page runs on first load)."""
    found = _base_queries()
    import dashboard.queries as package

    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"dashboard.queries.{info.name}")
        for name, fn in getattr(module, "BENCHMARK_QUERIES", ()):
            found.append((f"{info.name}.{name}", fn))
    return found


def _value(value: Any, natural: dict[int, str], key: bool = False) -> Any:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NaT:
        return None
    if key:
        return natural.get(int(value), f"unknown key {value}")
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return float(f"{value:.9g}")
    if isinstance(value, pd.Timestamp | dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, np.ndarray):
        return [_value(v, natural) for v in value.tolist()]
    if isinstance(value, np.generic):
        return _value(value.item(), natural)
    return shaped(value, natural)


def _frame(frame: pd.DataFrame, natural: dict[int, str]) -> list[tuple[Any, ...]]:
    rows = []
    for record in frame.to_dict("records"):
        rows.append(tuple((str(c), _value(v, natural, str(c) in KEY_COLUMNS))
                          for c, v in record.items() if str(c) not in LEFT_OUT))
    return sorted(rows, key=repr)


def shaped(result: Any, natural: dict[int, str]) -> Any:
    """A query's result as plain values (see the module docstring)."""
    if isinstance(result, pd.DataFrame):
        return _frame(result, natural)
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return shaped(dataclasses.asdict(result), natural)
    if isinstance(result, dict):
        return {str(k): _value(v, natural, str(k) in KEY_COLUMNS) for k, v in result.items()}
    if isinstance(result, list | tuple):
        return [_value(v, natural) for v in result]
    return _value(result, natural)


def page_numbers(con: Any, filters: Filters) -> dict[str, Any]:
    """Every query of :func:`page_queries` on ``con`` under ``filters``, shaped."""
    natural = {int(k): f"{s}/{h}" for k, s, h in
               con.execute("SELECT hand_key, source, hand_id FROM hands").fetchall()}
    return {name: shaped(fn(con, filters), natural) for name, fn in page_queries()}


def players_to_check(con: Any, count: int = 2) -> list[str]:
    """The players with the most hands (the pages open on one of them)."""
    return [str(r[0]) for r in con.execute(
        "SELECT player FROM hand_players GROUP BY player ORDER BY count(*) DESC, player "
        "LIMIT ?", [count]).fetchall()]


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The queries whose shaped results differ (empty: the same page numbers)."""
    return [name for name in a if a[name] != b.get(name)]
