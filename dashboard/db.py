"""The dashboard's database: one cached connection per process, cached query results, and the
demo sample loaded on a fresh machine.

Pages never open the database themselves: they call :func:`query` with a query function from
:mod:`dashboard.queries` (first parameter ``con``) and its arguments, and get the cached result.

The demo sample's bookkeeping is in :mod:`dashboard.demo` (re-exported here).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import streamlit as st

from dashboard.demo import demo_import_ids, load_demo, remove_demo
from ingest import api

__all__ = ["connection", "query", "clear_cache", "db_path", "open_database",
           "demo_import_ids", "load_demo", "remove_demo"]


CACHE_TTL_SECONDS = 600
CACHE_MAX_ENTRIES = 512


def db_path(argv: list[str] | None = None) -> Path:
    """The database the app runs on: ``--db PATH`` after ``--`` on the streamlit command line,
    else ``$OFC_DB``, else ``data/ofc.duckdb`` (:func:`ingest.api.default_db_path`)."""
    args = sys.argv[1:] if argv is None else argv
    for i, arg in enumerate(args):
        if arg == "--db" and i + 1 < len(args):
            return Path(args[i + 1])
        if arg.startswith("--db="):
            return Path(arg.split("=", 1)[1])
    return api.default_db_path()


def open_database(path: Path, *, load_demo_if_new: bool = True) -> duckdb.DuckDBPyConnection:
    """Open (creating) the store at ``path``, upgrading an older one; a database created here
    gets the demo sample."""
    fresh = not path.exists()
    con = api.connect(path)
    try:
        api.upgrade(con, path)
    except BaseException:
        con.close()
        raise
    if fresh and load_demo_if_new:
        load_demo(con)
    return con


@st.cache_resource(show_spinner="Opening the database...")
def _connection(path: str) -> duckdb.DuckDBPyConnection:
    return open_database(Path(path))


def connection() -> duckdb.DuckDBPyConnection:
    """The process's one connection to the app's database (use ``con.cursor()`` per query)."""
    return _connection(str(db_path().resolve()))


@st.cache_data(ttl=CACHE_TTL_SECONDS, max_entries=CACHE_MAX_ENTRIES, show_spinner=False)
def _cached(_con: Any, db: str, module: str, name: str, args: tuple, kwargs: tuple) -> Any:
    fn = getattr(importlib.import_module(module), name)
    return fn(_con, *args, **dict(kwargs))


def query(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(con, *args, **kwargs)`` on the app's connection, cached by its arguments.

    ``fn`` must be a module-level function (e.g. ``queries.overview.summary``); arguments must
    be hashable values (a :class:`~dashboard.queries.common.Filters`, ints, strings).
    """
    return _cached(connection(), str(db_path().resolve()), fn.__module__, fn.__qualname__,
                   args, tuple(sorted(kwargs.items())))


def clear_cache() -> None:
    """Forget every cached query result (after an import or a demo removal)."""
    _cached.clear()
