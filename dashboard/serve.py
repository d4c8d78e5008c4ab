"""``python -m dashboard.serve run APP [options] -- --db PATH``: Streamlit's command line (what
``ofc dashboard`` starts), with the dashboard warmed up while the server starts.

Streamlit imports an app's modules only when the first browser tab runs it: on this 2-core
machine pandas, DuckDB and the store's API take 0.4-0.5 s of CPU, and opening the store for
the first time (creating or upgrading it) more, all of it inside the first page's load. Here
a background thread does that work (:func:`warm_up`: the imports of :data:`MODULES`, the list
of time zones, then :func:`dashboard.db.prepare`) once Streamlit itself is imported, while
its server starts.

A page run that starts before the warm-up is over waits for it (``app.py`` calls :func:`wait`
before its imports), so two threads never import the same modules at once. Without this
launcher (``streamlit run dashboard/app.py``) nothing changes but the first load's time:
:func:`wait` returns at once.
"""

from __future__ import annotations

import importlib
import threading

MODULES = (
    "pandas", "pyarrow", "duckdb", "plotly.graph_objects",
    "dashboard.db", "dashboard.filters", "dashboard.widgets", "dashboard.timefmt",
    "dashboard.watching", "dashboard.hand_list", "dashboard.notes_editor", "dashboard.replay",
    "dashboard.me", "dashboard.uploads",
)
"""What the pages import beyond Streamlit, heaviest first (``dashboard.db`` brings
``ingest.api`` and ``ofc_core``)."""
WAIT_SECONDS = 120.0
"""The longest a page run waits for the warm-up (then it imports what it needs itself)."""

_done = threading.Event()
_started = False


def warm_up() -> None:
    """Import :data:`MODULES`, list the time zones, then open the app's store once (see
    :func:`dashboard.db.prepare`).
    A failure here is left to the page run, which meets it again and shows it."""
    try:
        for name in MODULES:
            importlib.import_module(name)
        from dashboard import db, timefmt

        timefmt.zones()  # the sidebar's zones: ~1,800 files looked at, once per process
        db.prepare()
    except Exception:  # the page run meets it again and reports it, with its own message
        pass
    finally:
        _done.set()


def start() -> None:
    """Start :func:`warm_up` in a background thread (once)."""
    global _started
    if not _started:
        _started = True
        threading.Thread(target=warm_up, name="ofc-warm-up", daemon=True).start()


def wait() -> None:
    """Wait for the warm-up, if one was started (at most :data:`WAIT_SECONDS`)."""
    if _started:
        _done.wait(WAIT_SECONDS)


def main() -> None:
    # Streamlit first, on this thread: importing it imports plotly, which looks pandas up in
    # sys.modules and would find it half imported by the warm-up
    from streamlit.web.cli import main as streamlit

    from dashboard import serve  # this file runs as __main__: app.py sees dashboard.serve

    serve.start()
    streamlit(prog_name="streamlit")  # as `python -m streamlit` does


if __name__ == "__main__":
    main()
