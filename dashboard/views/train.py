"""Train: puzzles built from the player's own reviewed decisions that lost more than the noise.

The position is the one the player faced (their board, the opponents' rows, the cards dealt);
the player places the cards on the placement board, and the answer is valued at once by the
review's own code on the same common deals as the stored decision, against its best
(:func:`ofc_core.play.puzzles.answer_puzzle`: two placements rolled out, a fraction of a second
for a first five), shown against the best and the placement played, with why it lost (foul,
Fantasyland, royalties, rows). Within the
noise of the best it is solved and comes back days later; missed, it comes back after the
puzzles not tried yet (:mod:`ingest.puzzles`, the answers kept in the store). A score by day.
Drills: a position dealt fresh for a chosen variant and street, valued by the review of that
position with the answer as the choice (:func:`~ofc_core.play.puzzles.value_answer`: there is
no stored best); not stored.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import db, filters, names, widgets
from dashboard.board_moves import Street
from dashboard.cards import md_text, placement_words
from dashboard.placement_board import answered, placement_board
from dashboard.queries import train as q
from ingest.api import PuzzleAnswer, StoreError, record_of, write_answer
from ofc_core.play.notation import parse_placement, placement_text
from ofc_core.play.practice import YourTurn
from ofc_core.play.puzzles import (
    DRILL_PLAYER,
    Stored,
    answer_puzzle,
    drill,
    position,
    value_answer,
)
from ofc_core.rules import PRESETS

RESULT = "train.result"
DRILL, DRILL_RESULT = "train.drill", "train.drill_result"
DRILL_VARIANTS = tuple(name for name, r in PRESETS.items() if r.match_target is None)


def _ask(puzzle: tuple[Any, ...]) -> None:
    source, hand_id, player, street, kind, ev_lost, se, chosen, chosen_ev, best, best_ev, \
        reason, variant, day, tries = puzzle
    line = db.query(q.record, source, hand_id)
    record = record_of(line) if line is not None else None
    found = position(record, player, street) if record is not None else None
    if record is None or found is None:
        st.error(md_text(f"Hand {hand_id}: the position of street {street} cannot be rebuilt."))
        return
    again = f" · tried {tries} time{'s' * (tries != 1)}" if tries else ""
    st.markdown(f"**{md_text(names.variant(variant))}**, " + md_text(
        f"hand {hand_id} ({day}), street {street} ({kind}): what you played here lost "
        f"{ev_lost:.1f} points{again}."))
    spot = found.spot
    n = len(spot.seats)
    opponents = [(record.players[(spot.hero + k) % n].name, spot.seats[(spot.hero + k) % n].board)
                 for k in range(1, n)]
    board = Street(found.board_before, spot.dealt, spot.place)
    key = f"train-{source}-{hand_id}-{player}-{street}"
    answer = answered(key)
    if answer is None:
        placement_board(key, board, four_colour=filters.four_colour(), opponents=opponents,
                        confirm="Answer")
        return
    stored = Stored(parse_placement(chosen), chosen_ev, parse_placement(best), best_ev, ev_lost,
                    se, reason)
    with st.spinner("Valuing your answer on the review's deals"):
        valued = answer_puzzle(record, player, street, answer, stored)
    row = PuzzleAnswer(source, hand_id, player, street, placement_text(answer),
                       round(valued.ev_lost, 4), round(valued.noise, 4), valued.solved)
    try:
        with db.writing() as con:
            write_answer(con, row, datetime.now(timezone.utc))
    except StoreError as exc:
        st.error(md_text(str(exc)))
        return
    st.session_state[RESULT] = (puzzle, row, valued)
    _result()  # in this run: no second run to take the board away


def _result() -> bool:
    """The last answer's verdict; whether one is shown."""
    found = st.session_state.get(RESULT)
    if found is None:
        return False
    puzzle, row, valued = found
    chosen, chosen_ev, reason = puzzle[7], puzzle[8], puzzle[11]
    if row.solved:
        st.success(md_text(f"Solved: your answer is within the noise of the best "
                           f"({row.ev_lost:.1f} below it, noise ± {row.noise:.1f})."),
                   icon=":material/check_circle:")
    else:
        st.error(md_text(f"Missed: {row.ev_lost:.1f} points below the best (noise "
                         f"± {row.noise:.1f}). It comes back after the new puzzles."),
                 icon=":material/replay:")
    lines = [("Your answer", row.answer, valued.ev, valued.reason),
             ("The best", placement_text(valued.best), valued.best_ev, ""),
             ("Played in the hand", chosen, chosen_ev, reason)]
    for label, placement, ev, why in lines:
        st.markdown(md_text(f"{label}: {placement_words(placement)} · EV {ev:+.1f}"
                            + (f" · {why}" if why else "")))
    if st.button("Next puzzle", type="primary", key="train-next"):
        del st.session_state[RESULT]
        st.rerun()
    return True


def drills() -> None:
    """A position dealt fresh for a chosen variant and street, valued the same way."""
    st.subheader("Drill")
    left, right, go = st.columns([2, 1, 1], vertical_alignment="bottom")
    variant = left.selectbox("Variant", DRILL_VARIANTS, key="drill-variant")
    streets = len(PRESETS[str(variant)].dealing.streets)
    street = right.number_input("Street", 1, streets, value=min(2, streets), key="drill-street")
    if go.button("Deal a position", key="drill-deal"):
        st.session_state[DRILL] = (str(variant), int(street), secrets.randbelow(2**31))
        st.session_state.pop(DRILL_RESULT, None)
    found = st.session_state.get(DRILL)
    if found is None:
        return
    variant, street, seed = found
    shown = st.session_state.get(DRILL_RESULT)
    if shown is not None:
        st.markdown(md_text(shown))
        return
    turn = drill(PRESETS[variant], street, seed)
    if not isinstance(turn, YourTurn):
        return
    view = turn.view
    answer = answered(f"drill-{seed}")
    if answer is None:
        placement_board(f"drill-{seed}", Street.of_view(view), four_colour=filters.four_colour(),
                        opponents=[("careful", rows) for rows in view.opponents],
                        confirm="Answer")
        return
    with st.spinner("Valuing your answer"):
        record = drill(PRESETS[variant], street, seed, answer)
        assert not isinstance(record, YourTurn)
        valued = value_answer(record, DRILL_PLAYER, street, answer)
    verdict = "Solved" if valued.solved else "Missed"
    why = f" Your answer {valued.reason}." if valued.reason else ""
    st.session_state[DRILL_RESULT] = (
        f"{verdict}: your answer {placement_words(placement_text(answer))} (EV "
        f"{valued.ev:+.1f}), the best {placement_words(placement_text(valued.best))} "
        f"(EV {valued.best_ev:+.1f}); {valued.ev_lost:.1f} below it, noise "
        f"± {valued.noise:.1f}.{why}")
    st.markdown(md_text(st.session_state[DRILL_RESULT]))


def _scores(player: str) -> None:
    rows = db.query(q.scores, player)
    if not rows:
        return
    frame = pd.DataFrame(rows, columns=["day", "answered", "solved"])
    frame["rate"] = frame["solved"] / frame["answered"]
    st.subheader("Score by day")
    widgets.table(frame, "train-scores", {
        "day": widgets.text("Day"), "answered": widgets.count("Answered"),
        "solved": widgets.count("Solved"), "rate": widgets.percent("Solved %")},
        rates=("rate",))


def main() -> None:
    st.title("Train")
    st.caption("Puzzles from your own reviewed decisions that lost more than the noise: "
               "place the cards as you would now.")
    chosen = filters.current()
    if chosen.player is None:
        st.info("Choose a player in the sidebar: the puzzles are their reviewed decisions.")
        drills()
        return
    if db.read_only():
        st.info(md_text(db.read_only_line() or ""), icon=":material/lock:")
        drills()
        return
    if not _result():
        puzzles = db.query(q.queue, chosen)
        if puzzles:
            st.caption(f"{len(puzzles)} puzzle{'s' * (len(puzzles) != 1)} due.")
            _ask(puzzles[0])
        else:
            st.info("No puzzle is due: review more hands (the Review page), or come back "
                    "when a solved one is due again.")
    _scores(chosen.player)
    drills()


if __name__ == "__main__":
    main()
