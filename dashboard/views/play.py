"""Play: a hand, or a session of hands, against one or two bots, in the browser.

The engine deals and plays (:mod:`ofc_core.play.practice`: the hand is played again from its
seed after each of your streets, so the bots' moves and the cards to come never change); you
place your cards on the placement board. Each finished hand is stored as an ofc-hh/1 hand of
the room ``practice`` through the importer's own path (scored by the core like any imported
hand), shown at once, and sent to the background review job the Review page uses
(:mod:`dashboard.practice_review`: ``ofc review`` in a process of its own, its progress on the
page), so you deal the next hand while it runs; its review shows under the hand, and in the
replayer, when it is stored. In a session the button moves and Fantasyland is played as the
ruleset says.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import datetime, timezone

import streamlit as st

from dashboard import db, filters, practice_review
from dashboard.board_moves import Street
from dashboard.cards import board_html, md_text
from dashboard.placement_board import placement_board
from dashboard.practice_game import Game
from dashboard.queries import practice as q
from ingest.api import NotStored, StoreError, store_record
from ofc_core.play.engine import PlayedHand, Table
from ofc_core.play.practice import (
    BOTS,
    PRACTICE_ROOM,
    Seating,
    YourTurn,
    check_table,
    entry_cards,
    play_on,
    practice_record,
    practice_table,
)
from ofc_core.rules import PRESETS

GAME = "play.game"
VARIANTS = tuple(name for name, r in PRESETS.items() if r.match_target is None)
NO_BOT = "none"


def setup() -> None:
    """The table's choice: variant, one or two bots, your name, and a deal seed."""
    with st.form("play-setup", border=True):
        variant = st.selectbox("Variant", VARIANTS, index=VARIANTS.index("pineapple"),
                               key="play-variant", help="Double is played as matches with a "
                               "doubling cube, which the practice table does not deal.")
        left, right = st.columns(2)
        first = left.selectbox("First bot", BOTS, key="play-bot1")
        second = right.selectbox("Second bot", (NO_BOT, *BOTS), key="play-bot2")
        person = st.text_input("Your name", value=_default_name(), key="play-name", max_chars=40)
        with st.expander("More"):
            seed = st.number_input("Deal seed", min_value=0, max_value=2**31 - 1, value=None,
                                   key="play-seed", help="the same seed deals the same cards "
                                   "(empty: a new deal)")
            in_fl = st.checkbox("Start in Fantasyland", key="play-fl",
                                help="you are dealt the Fantasyland cards on the first hand, to "
                                "practise the set")
        started = st.form_submit_button("Deal", type="primary", icon=":material/play_arrow:")
    if started:
        _start(str(variant), (str(first),) if second == NO_BOT else (str(first), str(second)),
               person.strip() or "Hero", seed, in_fl)


def _default_name() -> str:
    chosen = filters.current().player
    return chosen if chosen else "Hero"


def _start(variant: str, bots: tuple[str, ...], person: str, seed: int | None,
           in_fl: bool) -> None:
    problem = check_table(PRESETS[variant], bots)
    if problem is not None:
        st.error(md_text(problem))
        return
    try:
        practice_table(PRESETS[variant], person, bots)
    except ValueError as exc:
        st.error(md_text(str(exc)))
        return
    fl = (entry_cards(PRESETS[variant]) if in_fl else 0,) + (0,) * len(bots)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    st.session_state[GAME] = Game(variant, bots, person, f"{stamp}-{secrets.token_hex(2)}",
                                  secrets.randbelow(2**31) if seed is None else int(seed),
                                  seating=Seating(len(bots), fl))  # you act first: button last
    st.rerun()


def play(game: Game) -> None:
    """The hand in progress: your turn on the board, or the finished hand."""
    st.caption(md_text(f"{game.variant} · you ({game.person}) against {', '.join(game.bots)}"
                       f" · hand {game.number} · seed {game.seed}"))
    table = game.table()
    turn = play_on(table, game.seating, game.seed + game.number, game.decided)
    if isinstance(turn, YourTurn):
        practice_review.status(game, None)  # the last hands' review, while it runs
        _your_turn(game, table.names, turn)
        return
    _finished(game, table, turn)


def _your_turn(game: Game, names: tuple[str, ...], turn: YourTurn) -> None:
    view = turn.view
    if view.fantasyland:
        st.info(f"Fantasyland: set 13 of your {len(view.dealt)} cards.",
                icon=":material/auto_awesome:")
    opponents = [(names[(1 + k) % len(names)], rows) for k, rows in enumerate(view.opponents)]
    placement = placement_board(f"play-{game.hand_id}", Street.of_view(view),
                                four_colour=filters.four_colour(), opponents=opponents,
                                confirm=f"Place street {view.street + 1}")
    if placement is not None:
        st.session_state[GAME] = replace(game, decided=game.decided + (placement,))
        st.rerun()


def _finished(game: Game, table: Table, played: PlayedHand) -> None:
    stored_key = f"play.stored.{game.hand_id}"
    if not st.session_state.get(stored_key):
        record = practice_record(table, played, game.session_id, game.number,
                                 datetime.now(timezone.utc).isoformat(timespec="seconds"))
        try:
            with db.writing() as con:
                store_record(con, record)
        except (NotStored, StoreError) as exc:
            st.error(md_text(f"The hand could not be stored: {exc}"))
            return
        st.session_state[stored_key] = True
        practice_review.send(game, [game.hand_id])
    _show_result(game)


def _show_result(game: Game) -> None:
    seats = db.query(q.stored_hand, PRACTICE_ROOM, game.hand_id)
    if not seats:
        st.error("The hand is not in the store.")
        return
    mine = next(s for s in seats if s[0] == game.person)
    st.subheader(f"Hand {game.number}: {mine[1]:+g} points")
    boards = []
    for player, points, fouled, royalties, fl_next, _in_fl, *_names, _key, board in seats:
        note = " · ".join(x for x in (f"{points:+g}", "fouled" if fouled else "",
                                      f"royalties {royalties}" if royalties else "",
                                      f"Fantasyland next ({fl_next})" if fl_next else "") if x)
        rows = [(label, cards.split(), "") for label, cards in
                zip(("top", "middle", "bottom"), (board or "").split(" / "), strict=False)]
        four = filters.four_colour()
        boards.append(f'<div class="ofc-board">{board_html([(player, [], note)], four, (0,))}'
                      f"{board_html(rows, four)}</div>")
    st.markdown(f'<div class="ofc-pair">{"".join(boards)}</div>', unsafe_allow_html=True)
    st.page_link(filters.HAND_PAGE, label="Open in the replayer", icon=":material/replay:",
                 query_params={"source": PRACTICE_ROOM, "id": game.hand_id,
                               "room": PRACTICE_ROOM, "player": game.person})
    practice_review.status(game, game.hand_id, then=lambda: _next(game, mine[1]))


def _next(game: Game, points: float) -> None:
    left, right = st.columns(2)
    if left.button("Next hand", type="primary", key="play-next", icon=":material/skip_next:"):
        table = game.table()
        played = play_on(table, game.seating, game.seed + game.number, game.decided)
        assert isinstance(played, PlayedHand)
        seating = game.seating.after(PRESETS[game.variant], played)
        st.session_state[GAME] = replace(game, number=game.number + 1, seating=seating,
                                         decided=(), results=game.results + ((game.hand_id,
                                                                             points),))
        st.rerun()
    if right.button("Leave the table", key="play-leave", icon=":material/logout:"):
        del st.session_state[GAME]
        st.rerun()
    total = sum(p for _, p in game.results) + points
    hands = len(game.results) + 1
    st.caption(f"This session: {hands} hand{'s' * (hands != 1)}, {total:+g} points.")


def main() -> None:
    st.title("Play")
    st.caption("A practice table against the bots. Practice hands are stored in the room "
               "\u201cpractice\u201d, left out of the other pages unless the Room filter picks it.")
    if db.read_only():
        st.info(md_text(db.read_only_line() or ""), icon=":material/lock:")
        return
    game = st.session_state.get(GAME)
    if isinstance(game, Game):
        play(game)
    else:
        setup()


if __name__ == "__main__":
    main()

