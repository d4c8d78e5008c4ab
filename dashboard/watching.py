"""The dashboard's folder watcher: while the server runs, one background thread per database
checks the watched folders (the store's ``watched_folders``) every :data:`INTERVAL_SECONDS`
and imports new and grown files (:class:`ingest.api.Watcher`).

It writes through :func:`dashboard.db.writing` (the store opened only while a check has
something to import, and let go between files, so pages and the command line get in; the
result cache is cleared afterwards), and a check that finds nothing opens nothing. Every page
run gives it the store's list of folders (:func:`keep_watching`), so a folder added by ``ofc
import --watch`` is watched here too; the two never import a file twice (see
:mod:`ingest.watch`). The thread stops with the server (at the interpreter's exit, after the
file it is importing).
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import duckdb
import streamlit as st

from dashboard import db, reviewing
from ingest.api import FolderCheck, StoreError, Watcher, WatchPass

INTERVAL_SECONDS = 2.0
STOP_SECONDS = 10.0
"""How long the server's exit waits for a check in progress."""


@st.cache_resource(show_spinner=False)
def _watcher(path: str) -> Watcher:
    """The server's watcher of the database at ``path``, started once."""
    watcher = Watcher(path, writing=lambda: _writing(path), on_check=_reviewed(path))
    thread = threading.Thread(target=watcher.run, args=(INTERVAL_SECONDS,), daemon=True,
                              name="ofc-folder-watch")
    thread.start()
    atexit.register(_stop, watcher, thread)
    return watcher


@contextmanager
def _writing(path: str) -> Iterator[duckdb.DuckDBPyConnection]:
    """:func:`dashboard.db.writing`, as long as the app still runs on ``path``."""
    if str(db.db_path().resolve()) != path:
        raise StoreError(f"the dashboard no longer runs on {path}")
    with db.writing() as con:
        yield con


def _reviewed(path: str) -> Callable[[WatchPass], None]:
    """After a check that stored hands: the auto-review (:func:`dashboard.reviewing.after_import`,
    a no-op when the setting is off)."""

    def check(done: WatchPass) -> None:
        ids = [f.import_id for f in done.imports if f.import_id is not None and f.stored]
        if ids:
            reviewing.after_import(Path(path), ids)

    return check


def _stop(watcher: Watcher, thread: threading.Thread) -> None:
    watcher.stop()
    thread.join(timeout=STOP_SECONDS)


def watcher() -> Watcher:
    """The watcher of the app's database (started at the first call)."""
    return _watcher(str(db.db_path().resolve()))


def keep_watching(folders: Sequence[str]) -> Watcher:
    """Watch ``folders`` (the store's list, read by the page run) from now on."""
    found = watcher()
    found.set_folders(folders)
    return found


def last_check(folder: str) -> tuple[float, FolderCheck] | None:
    """When this server's watcher last checked ``folder`` (seconds since the epoch) and what
    it found (``None``: not checked by it yet)."""
    last = watcher().last
    found = None if last is None else next((f for f in last.folders if f.path == folder), None)
    return None if last is None or found is None else (last.checked_at, found)


def wake(folders: Sequence[str]) -> None:
    """A folder was added or removed: use the new list, and check now."""
    keep_watching(folders).wake()

