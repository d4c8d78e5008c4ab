"""Running one query: each on its own cursor, since the page runs of the dashboard share one
DuckDB connection between threads (:mod:`dashboard.db`). Values are always bound parameters.

>>> import duckdb
>>> con = duckdb.connect()
>>> fetch_all(con, "SELECT ? + 1", [41])
[(42,)]
>>> fetch_df(con, "SELECT 1 AS x")["x"].tolist()
[1]
>>> fetch_all_numpy(con, "SELECT 2 AS y")["y"].tolist()
[2]
"""

from __future__ import annotations

from typing import Any, TypeAlias

import duckdb
import pandas as pd

Connection: TypeAlias = duckdb.DuckDBPyConnection
"""A DuckDB connection to the store (the dashboard's is read-only)."""

Params: TypeAlias = list[Any] | tuple[Any, ...]
"""A query's bound parameters, in the order of its ``?`` marks."""


def fetch_df(con: Connection, sql: str, params: Params = ()) -> pd.DataFrame:
    """Run one query on its own cursor and return a DataFrame."""
    cur = con.cursor()
    try:
        return cur.execute(sql, list(params)).df()
    finally:
        cur.close()


def fetch_all(con: Connection, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
    """Run one query on its own cursor and return its rows as tuples."""
    cur = con.cursor()
    try:
        rows: list[tuple[Any, ...]] = cur.execute(sql, list(params)).fetchall()
        return rows
    finally:
        cur.close()


def fetch_all_numpy(con: Connection, sql: str, params: Params = ()) -> dict[str, Any]:
    """Run one query on its own cursor and return its columns as numpy arrays."""
    cur = con.cursor()
    try:
        columns: dict[str, Any] = cur.execute(sql, list(params)).fetchnumpy()
        return columns
    finally:
        cur.close()
