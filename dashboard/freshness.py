"""Pages that update themselves when the store changes: an import by a watched folder (this
server's watcher or ``ofc import --watch``), by ``ofc import``, or by an upload in another tab.

Every run notes the store's stamp (:func:`dashboard.db.data_version`: the size and time of
the database file and its write-ahead log, which any process's write changes) before its
queries (:func:`note`). A small fragment (:func:`follow`) reads the stamp again every
:data:`POLL_SECONDS`: two ``stat`` calls, no query, no lock on the store. When it changed, the
page runs again (the whole app, so the sidebar's options too); the user's filters, graph
choice and selections are widget state and stay as they were. When nothing changed, nothing
else runs. The cached query results are keyed by the stamp (:func:`dashboard.db.query`), so
the new run reads the new hands (the results of older stamps are never asked for again and age
out of the cache). While writers wait in line for the store (an import in progress, more
queued) the run is put off: it would only wait for them, and the stamp moves with every write
(a run per change would add reader turns between the writers); it runs at the first poll after
the line is empty.
"""

from __future__ import annotations

import streamlit as st

from dashboard import db
from ingest.api import writer_waiting

POLL_SECONDS = 2.0
"""How often an open page checks the store (a new import shows within about this)."""
_SEEN = "_ofc_store_stamp"


def stamp() -> tuple[int, ...]:
    """The store's current stamp."""
    return db.data_version(db.source())


def note() -> None:
    """Remember the stamp this run reads the store at (call before the page's queries: a
    write during the run then brings one more run)."""
    st.session_state[_SEEN] = stamp()


def changed() -> bool:
    """Whether the store was written since this session's last run noted its stamp."""
    seen = st.session_state.get(_SEEN)
    return bool(seen is not None and seen != stamp())


def due() -> bool:
    """Whether the page should run again now: the store changed since its last run, and no
    writer waits in line for it (:func:`ingest.api.writer_waiting`)."""
    return changed() and not writer_waiting(db.source())


@st.fragment(run_every=POLL_SECONDS)
def follow() -> None:
    """The poll: runs the app again when the store changed since this session's last run."""
    if due():
        st.rerun(scope="app")
