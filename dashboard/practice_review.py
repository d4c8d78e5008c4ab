"""The Play page's review of each finished practice hand: the background review job the Review
page uses, so the player deals the next hand while it runs.

When a hand is stored, its seat is sent to the store's review job (:func:`ingest.api.
start_review`: ``ofc review`` in a process of its own, the standard precision, one job per
store). A small fragment (:func:`status`) follows it every :data:`POLL_SECONDS`: the job's
progress while it runs, then the hand's review (its decisions, the EV lost) as soon as the job
has stored it; the replayer shows it from then on (above the next hand's board the same line
is drawn at each of the page's runs, not polled). A review already running (the Review
page's, another tab's) is not interrupted: the session's hands wait and are sent when it ends,
together. Each hand is sent once; one the job found nothing to value in is said so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from dashboard import db, reviewing
from dashboard.cards import md_text, placement_words
from dashboard.practice_game import Game
from dashboard.queries import practice as q
from ingest import api
from ofc_core.play.practice import PRACTICE_ROOM
from ofc_core.play.review import REVIEW_POLICY, REVIEW_VERSION

POLL_SECONDS = 1.0
"""How often the fragment looks at the job and the store while a hand waits for its review."""
_SENT = "play.review_sent"


def _sent() -> set[str]:
    sent: set[str] = st.session_state.setdefault(_SENT, set())
    return sent


def waiting(game: Game) -> list[str]:
    """This table's stored hands whose review is not stored yet (oldest first)."""
    return [h for (h,) in db.query(q.unreviewed, PRACTICE_ROOM, game.session_id, game.person,
                                   REVIEW_VERSION)]


def send(game: Game, hands: Sequence[str]) -> bool:
    """Send the hands not sent yet to the review job; ``False`` when another review runs (they
    are sent when it ends)."""
    fresh = [h for h in hands if h not in _sent()]
    if not fresh or reviewing.running():
        return not fresh
    path = db.db_path().resolve()
    try:
        api.start_review(path, reviewing.command(path),
                         [(PRACTICE_ROOM, h, game.person) for h in fresh],
                         api.JobStatus(player=game.person, origin="dashboard",
                                       policy=REVIEW_POLICY.name,
                                       precision=reviewing.precision_words("standard")))
    except api.ReviewBusy:
        return False
    _sent().update(fresh)
    return True


def status(game: Game, hand_id: str | None, then: Callable[[], None] | None = None) -> None:
    """The review's line on the Play page: ``hand_id``'s review when it is stored (the hand
    just finished), else the job's progress. Under a finished hand it is a fragment polled
    while any of the table's hands waits, drawing ``then`` (the page's buttons) after it: a
    click made while the fragment is redrawn is a click inside it, never lost. Above the next
    hand's board it is drawn at each of the page's runs (each click on the board is one)."""
    if hand_id is None:
        _status(game, None)
        return
    polling = bool(_open(game, waiting(game)))

    def part() -> None:
        with db.page_run():  # a fragment's run is not the app's: let the store go after it
            _status(game, hand_id)
            if then is not None:
                then()
    st.fragment(part, run_every=POLL_SECONDS if polling else None)()


def _open(game: Game, pending: list[str]) -> list[str]:
    """The hands still to be reviewed: not sent yet, or sent to the job that runs now (a hand
    sent to a job that has ended without its review has nothing a review can value)."""
    running = reviewing.running()
    return [h for h in pending if h not in _sent() or running]


def _status(game: Game, hand_id: str | None) -> None:
    pending = waiting(game)
    if pending:
        send(game, pending)
    still = _open(game, pending)
    if hand_id is not None and hand_id not in still:
        lines(game, hand_id)
        return
    if not still:
        return
    found = reviewing.status()
    with st.container(border=True, key="play_review"):
        if found is not None and found.running and found.player == game.person:
            fraction = found.done / found.total if found.total else 0.0
            st.progress(fraction, text=md_text(
                f"Reviewing your hand{'s' * (found.total != 1)} in the background: "
                f"{found.done} of {found.total} done"))
        elif found is not None and found.running:
            st.caption(md_text(f"Your review waits for the one running now: {found.line()}."))
        else:
            st.caption("Starting the review of your hand.")
        st.caption("Deal the next hand meanwhile: the review shows here and in the replayer "
                   "when it is done.")


def lines(game: Game, hand_id: str) -> None:
    """The hand's review: its decisions, each against the best, and the EV lost."""
    decisions = db.query(q.hand_decisions, PRACTICE_ROOM, hand_id, game.person)
    if not decisions:
        st.caption("No decision of this hand could be reviewed.")
        return
    lost = sum(d[4] for d in decisions)
    st.markdown(md_text(f"Review: {len(decisions)} decision{'s' * (len(decisions) != 1)}, "
                        f"{lost:.1f} points of EV lost."))
    for street, kind, chosen, best, ev_lost, *_ in decisions:
        verdict = ("the best" if ev_lost == 0 else
                   f"{ev_lost:.1f} points below the best: {placement_words(best)}")
        st.caption(md_text(f"Street {street} ({kind}): {placement_words(chosen)}, {verdict}"))
