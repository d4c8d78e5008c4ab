"""Reviewing from the dashboard: the review job started, followed and cancelled from the
Review and Import pages, and the auto-review setting.

A review takes seconds a hand, so the page never runs it: it starts an ``ofc review`` process
of its own (:func:`ingest.api.start_review`: one job per store, its lock handed to the
process) and draws the job's status file at every run of a small fragment
(:func:`progress`), so the progress is there after a reload and in every tab, and a review
started by ``ofc review`` in a terminal shows the same way. The job stores decisions every
couple of seconds; the pages show them at their next run (:mod:`dashboard.freshness`).

The auto-review setting is kept in the store (:func:`ingest.api.auto_review`); after an upload
and after each watched file it starts the job for my names' new hands
(:func:`after_import`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from dashboard import db
from dashboard.queries import review as q
from dashboard.queries.common import Filters
from ingest import api
from ofc_core.play.review import DEFAULT_PRECISION, REVIEW_POLICY, REVIEW_VERSION

COMMAND = (sys.executable, "-m", "ofc_cli.cli", "review")
"""The review job's process: ``ofc review`` (by module: the dashboard may run from a checkout
without the ``ofc`` script on its path)."""
PRECISIONS = {
    "standard": (DEFAULT_PRECISION.precision, DEFAULT_PRECISION.max_rollouts),
    "quick": (1.0, 96),
}
"""The precisions the page offers: points at one standard error, most rollouts a placement
(standard: ``ofc review``'s default; quick: about eight times fewer rollouts, a first look)."""
POLL_SECONDS = 1.0
"""How often the progress is redrawn while a job runs."""
_ENDED = "_ofc_review_seen"


def precision_words(name: str) -> str:
    """A precision as the page and the status show it.

    >>> precision_words("quick")
    '1 point, at most 96 rollouts a placement'
    """
    points, rollouts = PRECISIONS[name]
    return f"{points:g} point{'s' * (points != 1)}, at most {rollouts:,} rollouts a placement"


def command(path: Path, precision: str = "standard", origin: str = "dashboard") -> list[str]:
    """The ``ofc review`` command of a job on the store at ``path``."""
    points, rollouts = PRECISIONS[precision]
    return [*COMMAND, "--db", str(path), "--origin", origin, "--policy", REVIEW_POLICY.name,
            "--precision", f"{points:g}", "--rollouts", str(rollouts)]


def start(filters: Filters, who: str, precision: str) -> None:
    """Start the job for the chosen player's hands in ``filters`` not reviewed by this version
    (a message when there are none, or when a review runs already)."""
    seats = db.query(q.to_review, filters, REVIEW_VERSION)
    if seats.empty:
        st.info("Every hand in these filters is reviewed already.")
        return
    path = db.db_path().resolve()
    try:
        api.start_review(path, command(path, precision),
                         list(seats.itertuples(index=False, name=None)),
                         api.JobStatus(player=who, origin="dashboard",
                                       policy=REVIEW_POLICY.name,
                                       precision=precision_words(precision)))
    except api.ReviewBusy as exc:
        st.warning(str(exc))
        return
    st.session_state[_ENDED] = None


def status() -> api.JobStatus | None:
    """The store's running or last review job (``None`` over Parquet tables)."""
    return None if db.read_only() else api.review_status(db.db_path().resolve())


def _progress() -> None:
    found = status()
    if found is None:
        return
    if found.running:
        with st.container(border=True, key="review_job"):
            fraction = found.done / found.total if found.total else 0.0
            st.progress(fraction, text=found.line())
            if st.button("Cancel the review", key="review_cancel",
                         icon=":material/stop_circle:",
                         help="stops after the hand being reviewed; what is stored stays"):
                api.cancel_review(db.db_path().resolve())
                st.toast("Cancelling: the review stops after the hand it is on.")
    else:
        st.caption(found.line()[0].upper() + found.line()[1:] + ".")
    seen = st.session_state.get(_ENDED)
    now = (found.pid, found.running)
    if seen is not None and seen != now and not found.running:
        st.session_state[_ENDED] = now
        st.rerun(scope="app")  # the job ended: the page with all its decisions
    st.session_state[_ENDED] = now


def progress() -> None:
    """The job's progress (hands done of the total, time left, policy and precision, a Cancel
    button), redrawn every :data:`POLL_SECONDS` while it runs, or the last job's line."""
    found = status()
    st.fragment(_progress, run_every=POLL_SECONDS if found and found.running else None)()


def running() -> bool:
    found = status()
    return bool(found and found.running)


def auto_setting() -> None:
    """The auto-review checkbox (kept in the store)."""
    if db.read_only():
        return
    on = db.query(api.auto_review) is not None
    wanted = st.checkbox("Review new hands after each import", value=on, key="review_auto",
                         help="after each upload and each watched file, my names' new hands "
                         "are reviewed in the background (standard precision); off by default")
    if wanted != on:
        with db.writing() as con:
            api.set_auto_review(con, wanted)
        st.rerun()


def after_import(path: Path | None = None, import_ids: Sequence[int] = (1,)) -> None:
    """After an import of hands (``import_ids`` not empty): start the auto-review when the
    setting is on (a no-op when it is off, or a job runs: that job's successor picks the
    hands up). Safe from the folder watcher's thread: no cached query, and a failure here is
    only said on the server's log (the watcher goes on)."""
    if not import_ids or db.read_only():
        return
    target = (path or db.db_path()).resolve()
    try:
        with db.page_run():
            on = api.auto_review(db.connection().cursor()) is not None
        if on:
            api.review_after_import(target, command(target, origin="auto"), on)
    except (api.StoreError, OSError) as exc:
        print(f"ofc dashboard: the auto-review could not start: {exc}", file=sys.stderr)


def import_section(import_ids: Sequence[int]) -> None:
    """Under an upload's ledger: a button that reviews my names' hands of this upload, the
    job's progress and the auto-review setting."""
    st.subheader("Review")
    names = tuple(dict.fromkeys(n.name for n in db.query(api.my_names)))
    seats = db.query(api.imported_seats, tuple(import_ids), names, REVIEW_VERSION)
    if not names:
        st.caption("Say which names are yours (above) to review your new hands here, or "
                   "review any player's hands on the Review page.")
    elif seats and not running() and st.button(
            f"Review my {len(seats):,} new hand{'s' * (len(seats) != 1)}",
            key="import_review", icon=":material/troubleshoot:",
            help="in the background; follow it here or on the Review page"):
        path = db.db_path().resolve()
        try:
            api.start_review(path, command(path), seats,
                             api.JobStatus(player=", ".join(names), origin="dashboard",
                                           policy=REVIEW_POLICY.name,
                                           precision=precision_words("standard")))
        except api.ReviewBusy as exc:
            st.warning(str(exc))
    progress()
    auto_setting()
