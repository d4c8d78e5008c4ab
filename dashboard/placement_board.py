"""The placement board: the player's rows, the opponents' visible rows and the cards dealt;
click (or tap) a card, then a row or the discard; undo; confirm. Used by the Play, Enter and
Train pages.

Built from Streamlit's own widgets: each dealt card is a button (its label the rank and the
suit in the suit's colour, Streamlit's coloured markdown, so the four-colour deck setting is
honoured without HTML), each row and the discard is a button followed by its cards drawn as
cards (:mod:`dashboard.cards`, parsed cards only), in horizontal containers that wrap, so the
board works at 1,280 px and on a phone's 390 px. No custom component is needed: a click on a
button is all the board takes.

Every move goes through :mod:`dashboard.board_moves`, whose rules are the core's (free slots,
cards to place, the placement's check); a refused move leaves the board as it was and says
why in a line under it. Nothing a click does raises.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from dashboard import board_moves
from dashboard.board_moves import DISCARD, TARGETS, Moves, Street
from dashboard.cards import board_html, cards_html, md_text
from ofc_core.cards import Card, Suit, card_of_index
from ofc_core.play.engine import Cards, Placement, Rows

_TWO = {Suit.CLUBS: "gray", Suit.DIAMONDS: "red", Suit.HEARTS: "red", Suit.SPADES: "gray"}
_FOUR = {Suit.CLUBS: "green", Suit.DIAMONDS: "blue", Suit.HEARTS: "red", Suit.SPADES: "gray"}
_SIZES = (3, 5, 5)


def card_label(card: int, four_colour: bool) -> str:
    """A card as a button's label: ``:red[**A♥**]``; a joker ``:violet[**🃏 X1**]``.

    >>> card_label(50, False), card_label(0, True), card_label(52, False)
    (':red[**A♥**]', ':green[**2♣**]', ':violet[**🃏 X1**]')
    """
    value = card_of_index(card)
    if not isinstance(value, Card):
        return f":violet[**🃏 {value}**]"
    colour = (_FOUR if four_colour else _TWO)[value.suit]
    return f":{colour}[**{value.rank.char}{value.suit.symbol}**]"


def tokens(cards: Cards) -> list[str]:
    """Card indexes as the card text :mod:`dashboard.cards` draws."""
    return [str(card_of_index(c)) for c in cards]


def opponents_html(opponents: Sequence[tuple[str, Rows]], four_colour: bool) -> str:
    """The opponents' visible rows, one board each (names escaped by :func:`board_html`)."""
    boards = []
    for name, rows in opponents:
        parts = [(label, tokens(cards), "") for label, cards in zip(TARGETS, rows, strict=False)]
        boards.append(f'<div class="ofc-board">{board_html([(name, [], "")], four_colour, (0,))}'
                      f'{board_html(parts, four_colour)}</div>')
    return f'<div class="ofc-pair">{"".join(boards)}</div>'


def _state(key: str, street: Street) -> Moves:
    """This board's moves, started afresh when the street changes."""
    if st.session_state.get(f"{key}.street") != street:
        st.session_state[f"{key}.street"] = street
        st.session_state[f"{key}.moves"] = Moves()
        st.session_state[f"{key}.said"] = ""
    moves: Moves = st.session_state[f"{key}.moves"]
    return moves


def _choose(key: str, card: int) -> None:
    street = st.session_state[f"{key}.street"]
    moves, said = board_moves.choose(street, st.session_state[f"{key}.moves"], card)
    st.session_state[f"{key}.moves"], st.session_state[f"{key}.said"] = moves, said


def _put(key: str, target: int) -> None:
    street = st.session_state[f"{key}.street"]
    moves, said = board_moves.put(street, st.session_state[f"{key}.moves"], target)
    st.session_state[f"{key}.moves"], st.session_state[f"{key}.said"] = moves, said


def _undo(key: str) -> None:
    st.session_state[f"{key}.moves"] = board_moves.undo(st.session_state[f"{key}.moves"])
    st.session_state[f"{key}.said"] = ""


def _confirm(key: str) -> None:
    street = st.session_state[f"{key}.street"]
    placement = board_moves.finished(street, st.session_state[f"{key}.moves"])
    st.session_state[f"{key}.done"] = placement
    if placement is None:
        st.session_state[f"{key}.said"] = "place every card dealt first"


def placement_board(key: str, street: Street, *, four_colour: bool = False,
                    opponents: Sequence[tuple[str, Rows]] = (), confirm: str = "Confirm",
                    discard_note: str = "") -> Placement | None:
    """Draw the board; the placement on the run after the player confirms a complete one
    (``None`` otherwise). ``key`` names this board's state; a new ``street`` starts afresh."""
    moves = _state(key, street)
    if opponents:
        st.markdown(opponents_html(opponents, four_colour), unsafe_allow_html=True)
    _dealt(key, street, moves, four_colour)
    rows = board_moves.rows_after(street, moves)
    new = set(tokens(tuple(c for c, t in moves.made if t != DISCARD)))
    for target in range(3):
        _target(key, street, moves, target, tokens(rows[target]), new, four_colour)
    if len(street.dealt) > street.place:
        _target(key, street, moves, DISCARD, tokens(moves.at(DISCARD)), set(), four_colour,
                note=discard_note)
    said = st.session_state.get(f"{key}.said", "")
    with st.container(horizontal=True, key=f"{key}-actions"):
        st.button("Undo", key=f"{key}-undo", icon=":material/undo:", on_click=_undo,
                  args=(key,), disabled=not moves.made and moves.chosen is None)
        st.button(confirm, key=f"{key}-confirm", type="primary", on_click=_confirm,
                  args=(key,), disabled=board_moves.finished(street, moves) is None)
    if said:
        st.warning(md_text(said), icon=":material/block:")
    done: Placement | None = st.session_state.pop(f"{key}.done", None)
    return done


def answered(key: str) -> Placement | None:
    """The placement the player just confirmed on the board ``key`` (taken: ``None`` on the
    next run), for a page that acts on it before it would draw the board again: it shows
    what follows in the same run, without a second run to take the board away. The board
    starts afresh when it is drawn again (a puzzle that comes back)."""
    done: Placement | None = st.session_state.pop(f"{key}.done", None)
    if done is not None:
        st.session_state.pop(f"{key}.street", None)
    return done


def _dealt(key: str, street: Street, moves: Moves, four_colour: bool) -> None:
    left = [c for c in street.dealt if c not in moves.placed]
    thrown = len(street.dealt) - street.place
    st.caption(f"Cards dealt: place {street.place}"
               + (f", discard {thrown}" if thrown else "")
               + (". Click a card, then a row." if left else ". Confirm, or undo."))
    with st.container(horizontal=True, key=f"{key}-dealt"):
        for card in left:
            chosen = moves.chosen == card  # white on the primary colour: no suit colour
            label = f"**{board_moves.name(card)}**" if chosen else card_label(card, four_colour)
            st.button(label, key=f"{key}-card-{card}",
                      type="primary" if chosen else "secondary",
                      on_click=_choose, args=(key, card))


def _target(key: str, street: Street, moves: Moves, target: int, cards: list[str],
            new: set[str], four_colour: bool, note: str = "") -> None:
    free = board_moves.room_left(street, moves, target)
    size = len(street.dealt) - street.place if target == DISCARD else _SIZES[target]
    with st.container(horizontal=True, vertical_alignment="center", key=f"{key}-{TARGETS[target]}"):
        st.button(f"{TARGETS[target].capitalize()} · {free} free", key=f"{key}-to-{target}",
                  on_click=_put, args=(key, target), width=120)
        st.markdown(cards_html(cards, four_colour, slots=size, new=new), unsafe_allow_html=True)
        if note:
            st.caption(md_text(note))
