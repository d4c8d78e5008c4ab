"""The dashboard's database: opened only while a page runs, cached query results, and the demo
sample loaded on a fresh machine.

DuckDB lets one process write a file, or several read it, never both at once. So the dashboard
never keeps the store open: a page run opens a read-only connection at its first query that
misses the cache (:func:`connection`) and closes it when the run ends (:func:`page_run`, which
``app.py`` wraps around every run). Between runs the command line (``ofc import``, ``ofc
rescore``) can write; a writer waits at most for the runs in progress (see
:func:`ingest.store.connect`). Cached results are keyed by the store's file stamp
(:func:`data_version`), so a page shows the hands another process imported at its next run,
without a restart. The dashboard's own writes (the Import page, demo removal) go through
:func:`writing`.

Pages never open the database themselves: they call :func:`query` with a query function from
:mod:`dashboard.queries` (first parameter ``con``) and its arguments, and get the cached result.

The demo sample's bookkeeping is in :mod:`dashboard.demo` (re-exported here).

``ofc dashboard --parquet DIR`` (``--parquet DIR`` after ``--``, or ``$OFC_PARQUET``) runs the
same pages over the Parquet tables of ``ofc spark score`` or ``ofc export --parquet``: one
in-memory connection of views (:func:`ingest.api.open_parquet`), opened once and kept (no
writer ever waits for it); :func:`read_only` is then true, :func:`writing` refuses, and the
pages disable what writes (:func:`read_only_line` says so).
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import streamlit as st

from dashboard import profiling
from dashboard.demo import demo_import_ids, load_demo, remove_demo
from ingest import api

__all__ = ["connection", "query", "clear_cache", "db_path", "open_database", "page_run", "prepare",
           "writing", "data_version", "demo_import_ids", "load_demo", "remove_demo",
           "parquet_dir", "read_only", "read_only_line", "source"]


CACHE_TTL_SECONDS = 600
CACHE_MAX_ENTRIES = 512
WAIT_SECONDS = 300.0
"""How long a page waits for writers (imports in line) before it says the store is busy."""


def db_path(argv: list[str] | None = None) -> Path:
    """The database the app runs on: ``--db PATH`` after ``--`` on the streamlit command line,
    else ``$OFC_DB``, else ``data/ofc.duckdb`` (:func:`ingest.api.default_db_path`)."""
    given = _option(sys.argv[1:] if argv is None else argv, "--db")
    return Path(given) if given is not None else api.default_db_path()


def parquet_dir(argv: list[str] | None = None) -> Path | None:
    """The Parquet folder the app reads instead of a store: ``--parquet DIR`` after ``--`` on
    the streamlit command line, else ``$OFC_PARQUET``; ``None``: the app runs on a store.

    >>> parquet_dir(["--parquet", "tables"])
    PosixPath('tables')
    """
    given = _option(sys.argv[1:] if argv is None else argv, "--parquet")
    if given is None:
        given = os.environ.get(api.PARQUET_ENV) or None
    return Path(given) if given is not None else None


def _option(args: list[str], name: str) -> str | None:
    """The value of option ``name`` in ``args`` (``name VALUE`` or ``name=VALUE``), if given.

    >>> _option(["--", "--db=x.duckdb"], "--db")
    'x.duckdb'
    """
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def read_only() -> bool:
    """Whether the app runs over Parquet tables: every write is off."""
    return parquet_dir() is not None


def read_only_line() -> str | None:
    """The line every page shows over Parquet tables (``None`` on a store)."""
    folder = parquet_dir()
    if folder is None:
        return None
    return (f"Read-only: the Parquet tables in {folder.resolve()}. Importing, notes and tags, "
            "your names and watched folders are off here (they need a store: ofc dashboard "
            "--db PATH).")


def source() -> Path:
    """What the app reads: the Parquet folder, else the store's file."""
    folder = parquet_dir()
    return (folder if folder is not None else db_path()).resolve()


def open_database(path: Path, *, load_demo_if_new: bool = True) -> duckdb.DuckDBPyConnection:
    """Open (creating) the store at ``path``, upgrading an older one; a database created here
    gets the demo sample."""
    fresh = not path.exists()
    con = api.connect(path, wait_seconds=WAIT_SECONDS)
    try:
        api.upgrade(con, path)
    except BaseException:
        con.close()
        raise
    if fresh and load_demo_if_new:
        load_demo(con)
    return con


_prepared: set[Path] = set()
_preparing = threading.Lock()
_tables: dict[Path, duckdb.DuckDBPyConnection] = {}


def _parquet(folder: Path) -> duckdb.DuckDBPyConnection:
    """The process's connection over the Parquet tables in ``folder`` (opened once, kept:
    nothing ever writes them through the app)."""
    with _preparing:
        con = _tables.get(folder)
        if con is None:
            con = _tables[folder] = api.open_parquet(folder)
        return con


def _path() -> Path:
    """The app's database, opened for writing once per process first (created with the demo
    sample when new, brought to the current schema when older) so that pages can read it."""
    path = db_path().resolve()
    if path not in _prepared:
        with _preparing:
            if path not in _prepared:
                open_database(path).close()
                _prepared.add(path)
    return path


class _Reader:
    """The process's read-only connection, shared by the page runs in progress.

    It stays open between runs (DuckDB keeps what it read in memory, so the next page is
    warm), until a writer waits for the store (:func:`ingest.api.writer_waiting`): then new
    runs wait, and the connection is closed as soon as no run uses it (when the last run ends,
    or by a watch every :data:`WATCH_SECONDS` when the dashboard is idle).

    Each use is counted by the thread that took it. A use taken outside :func:`page_run` (a
    fragment's own run, a widget's callback before its run) is let go when that thread's next
    run ends; a thread that ended without one (Streamlit runs each script run on a thread of
    its own) cannot let go, so its uses are dropped when a writer waits: the store is never
    held by a run that is over."""

    WATCH_SECONDS = 0.05

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.con: duckdb.DuckDBPyConnection | None = None
        self.path: Path | None = None
        self.users = 0
        self.holders: dict[threading.Thread, int] = {}
        self.watch: threading.Thread | None = None

    def acquire(self, path: Path) -> duckdb.DuckDBPyConnection:
        with self.cond:
            while self.con is not None and (self.path != path or api.writer_waiting(path)):
                self._drop_ended()
                if self.users == 0:
                    self._close()
                else:
                    self.cond.wait(self.WATCH_SECONDS)
            if self.con is None:
                self.con = api.connect(path, read_only=True, wait_seconds=WAIT_SECONDS)
                self.path = path
                self._start_watch()
            self.users += 1
            me = threading.current_thread()
            self.holders[me] = self.holders.get(me, 0) + 1
            return self.con

    def release(self) -> None:
        with self.cond:
            me = threading.current_thread()
            if self.holders.get(me, 0) > 0:
                self.holders[me] -= 1
                self.users -= 1
            if not self.holders.get(me, 1):
                del self.holders[me]
            if self.users == 0 and self.path is not None and api.writer_waiting(self.path):
                self._close()
            self.cond.notify_all()

    def _drop_ended(self) -> None:
        """Let go of the uses held by threads that have ended (see the class's docstring)."""
        for thread in [t for t in self.holders if not t.is_alive()]:
            self.users -= self.holders.pop(thread)

    def _close(self) -> None:
        if self.con is not None:
            self.con.close()
        self.con = None
        self.cond.notify_all()

    def _start_watch(self) -> None:
        if self.watch is None or not self.watch.is_alive():
            self.watch = threading.Thread(target=self._watch, name="ofc-store-watch",
                                          daemon=True)
            self.watch.start()

    def _watch(self) -> None:
        while True:
            with self.cond:
                if self.con is None:
                    self.watch = None
                    return
                waiting = self.path is not None and api.writer_waiting(self.path)
                if waiting:
                    self._drop_ended()
                if self.users == 0 and waiting:
                    self._close()
                    self.watch = None
                    return
                self.cond.wait(self.WATCH_SECONDS)


_reader = _Reader()
_run = threading.local()
"""This thread's page run: whether it holds the shared reader (``holding``)."""


def prepare() -> None:
    """Get the app's store ready before a page needs it (the server's warm-up,
    :mod:`dashboard.serve`): opened for writing once (created, upgraded), then the shared
    read-only connection opened and let go, so that it is open, its catalog read, when the
    first page runs (it stays open between runs, as after any run)."""
    folder = parquet_dir()
    if folder is not None:
        _parquet(folder.resolve())
        return
    path = _path()
    _reader.acquire(path)
    _reader.release()


@contextmanager
def page_run() -> Iterator[None]:
    """One page run: its queries use the shared read-only connection, let go when the run
    ends (so a writer waits at most for the runs in progress). Nested use is a no-op."""
    if getattr(_run, "active", False):
        yield
        return
    _run.active = True
    try:
        yield
    finally:
        _run.active = False
        _let_go()


def _let_go() -> None:
    if getattr(_run, "holding", False):
        _run.holding = False
        _reader.release()


def connection() -> duckdb.DuckDBPyConnection:
    """The read-only connection to the app's database for this page run (use
    ``con.cursor()`` per query). Outside :func:`page_run` it is held until the thread's next
    run ends. Over Parquet tables: the process's one connection (:func:`read_only`)."""
    folder = parquet_dir()
    if folder is not None:
        return _parquet(folder.resolve())
    con = _reader.acquire(_path()) if not getattr(_run, "holding", False) else _reader.con
    _run.holding = True
    assert con is not None
    return con


@contextmanager
def writing() -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-write connection for the dashboard's own writes (imports, demo removal): this
    run lets go of the reader first; other runs and writers are waited for. Clears the result
    cache afterwards. Over Parquet tables (:func:`read_only`) it raises
    :class:`ingest.api.StoreError` saying so: the pages disable their writes there."""
    line = read_only_line()
    if line is not None:
        raise api.StoreError(line)
    _let_go()
    con = api.connect(_path(), wait_seconds=WAIT_SECONDS)
    try:
        yield con
    finally:
        con.close()
        clear_cache()


def data_version(path: Path) -> tuple[int, ...]:
    """A stamp that changes whenever the store is written (by any process): the size and
    modification time of the database file and its write-ahead log (of a Parquet folder:
    :func:`ingest.api.parquet_stamp`)."""
    if path.is_dir():
        return api.parquet_stamp(path)
    stamp: list[int] = []
    for file in (path, path.with_name(path.name + ".wal")):
        try:
            info = os.stat(file)
            stamp += [info.st_mtime_ns, info.st_size]
        except OSError:
            stamp += [0, 0]
    return tuple(stamp)


@st.cache_data(ttl=CACHE_TTL_SECONDS, max_entries=CACHE_MAX_ENTRIES, show_spinner=False)
def _cached(db: str, version: tuple[int, ...], module: str, name: str, args: tuple[Any, ...],
            kwargs: tuple[Any, ...]) -> Any:
    profiling.computed()
    fn = getattr(importlib.import_module(module), name)
    return fn(connection(), *args, **dict(kwargs))


def query(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(con, *args, **kwargs)`` on the app's database, cached by its arguments and the
    store's :func:`data_version` (so another process's import shows at the next run).

    ``fn`` must be a module-level function (e.g. ``queries.overview.summary``); arguments must
    be hashable values (a :class:`~dashboard.queries.common.Filters`, ints, strings).
    """
    path = source() if read_only() else _path()
    with profiling.query_timer(f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__qualname__}"):
        return _cached(str(path), data_version(path), fn.__module__, fn.__qualname__,
                       args, tuple(sorted(kwargs.items())))


def clear_cache() -> None:
    """Forget every cached query result (after an import or a demo removal)."""
    _cached.clear()
