"""Enter: a hand from a live table or a home game, entered street by street for every seat,
in the order it is played (:mod:`ofc_core.live_entry`).

The table (where, the variant and its rules, the players in seat order, the stake, who you
are) is chosen once per session. Each seat's street is typed: the cards alone (then placed on
the placement board by clicks), or placed at once in the notation's street form
(``t:Ah m:Kd b:2c x:7h``); an opponent's discard may be left unseen. A card seen twice, a
wrong number of cards or a row overfull is refused at once, in words. A complete hand is
written in the live notation and imported through the importer's path, so it is stored
exactly as ``ofc import`` stores the same text; the session's hands can be downloaded as that
text.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import datetime, timezone

import streamlit as st

from dashboard import db, filters
from dashboard.board_moves import Street
from dashboard.cards import md_text
from dashboard.placement_board import opponents_html, placement_board
from dashboard.practice_game import LiveTable
from ingest.api import (
    NotStored,
    StoreError,
    live_text,
    name_problem,
    parse_rules,
    parse_street,
    store_text,
)
from ofc_core.cards import BoardCard, card_of_index, parse_cards
from ofc_core.hand import StreetPlay
from ofc_core.live_entry import LiveHand, Turn
from ofc_core.play.engine import IllegalMove, Placement, Rows, View, check_placement
from ofc_core.play.practice import entry_cards
from ofc_core.rules import PRESETS, Ruleset, resolve

TABLE = "enter.table"
CARDS = "enter.cards"


def setup() -> None:
    """The table, once per session."""
    with st.form("enter-setup", border=True):
        source = st.text_input("Room or game", value="home-game", key="enter-source",
                               help="where the hands are played: the room filter's name")
        variant = st.selectbox("Variant", tuple(PRESETS), index=tuple(PRESETS).index("pineapple"),
                               key="enter-variant")
        rules = st.text_input("Rules (optional)", key="enter-rules", placeholder="scoring=2-4, "
                              "cap=30", help="the table's rules beside the variant's, as in "
                              "the live notation's [rules: ...]")
        names = st.text_area("Players, in seat order", key="enter-names", height=110,
                             placeholder="Anna\nBoris\nHero", help="one name a line, clockwise")
        left, right = st.columns(2)
        stake = left.number_input("Stake per point", min_value=0.0, value=None, key="enter-stake")
        currency = right.text_input("Currency", key="enter-currency", max_chars=3)
        hero = st.text_input("You are (optional)", key="enter-hero")
        started = st.form_submit_button("Start", type="primary")
    if started:
        _start(source.strip(), str(variant), rules, names, stake, currency.strip().upper(),
               hero.strip())


def _start(source: str, variant: str, rules_text: str, names_text: str, stake: float | None,
           currency: str, hero: str) -> None:
    names = tuple(n.strip() for n in names_text.splitlines() if n.strip())
    try:
        rules = parse_rules(rules_text)
        ruleset = resolve(variant, rules)
    except ValueError as exc:
        st.error(md_text(str(exc)))
        return
    problems = [p for p in (name_problem(source),) if p]
    problems += [f"{n}: {p}" for n in names if (p := name_problem(n))]
    if len(set(names)) != len(names):
        problems.append("every player needs a name of their own")
    if not ruleset.min_players <= len(names) <= ruleset.max_players:
        problems.append(f"{variant} is played by {ruleset.player_range} players: "
                        f"{len(names)} given")
    if hero and hero not in names:
        problems.append(f"{hero} is not among the players")
    if problems:
        st.error(md_text("; ".join(problems)))
        return
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M") + f"-{secrets.token_hex(2)}"
    st.session_state[TABLE] = LiveTable(source, variant, tuple(rules.items()), names, stamp,
                                        stake, currency or None, hero or None,
                                        button=len(names) - 1)
    st.rerun()


def ruleset_of(table: LiveTable) -> Ruleset:
    return resolve(table.variant, dict(table.rules))


def new_hand(table: LiveTable) -> None:
    """The hand's button and Fantasyland seats; then its entry starts."""
    st.subheader(f"Hand {table.number}")
    with st.form("enter-hand"):
        button = st.selectbox("Button", table.names, index=table.button, key="enter-button")
        in_fl = st.multiselect("In Fantasyland", table.names, key="enter-fl")
        started = st.form_submit_button("Deal", type="primary")
    if started:
        cards = entry_cards(ruleset_of(table))
        fl = tuple(cards if n in in_fl else 0 for n in table.names)
        hand = LiveHand(ruleset_of(table), table.names, table.names.index(str(button)), fl)
        st.session_state[TABLE] = replace(table, hand=hand)
        st.rerun()


def _index(card: BoardCard) -> int:
    return card.index


def _rows(streets: tuple[StreetPlay, ...]) -> Rows:
    def row(name: str) -> tuple[int, ...]:
        return tuple(_index(c) for s in streets for c in getattr(s, name))

    return (row("top"), row("middle"), row("bottom"))


def enter_turn(table: LiveTable, hand: LiveHand, turn: Turn) -> None:
    """One seat's street: cards typed, then placed (typed rows, or the board)."""
    name = hand.names[turn.seat]
    others = [(hand.names[i], _rows(hand.streets[i])) for i in hand.order if i != turn.seat]
    st.markdown(opponents_html(others, filters.four_colour()), unsafe_allow_html=True)
    what = (f"Fantasyland: {turn.dealt} cards, 13 placed" if turn.fantasyland else
            f"street {turn.street + 1}: {turn.dealt} dealt, {turn.place} placed")
    st.markdown(f"**{md_text(name)}**, {what}")
    key = f"enter-{table.hand_id}-{sum(len(s) for s in hand.streets)}"
    chosen = st.session_state.get(CARDS)
    if chosen is None or chosen[0] != key:
        _type_cards(table, hand, turn, key)
        return
    _, cards, known = chosen
    street = Street(_rows(hand.streets[turn.seat]), tuple(_index(c) for c in cards),
                    turn.place)
    placement = placement_board(key, street, four_colour=filters.four_colour(),
                                confirm=f"Enter {name}'s street")
    if placement is not None:
        _enter(table, hand, _street_play(placement, known))


def _type_cards(table: LiveTable, hand: LiveHand, turn: Turn, key: str) -> None:
    hidden = turn.dealt > turn.place
    with st.form(f"{key}-form", clear_on_submit=True):
        text = st.text_input("Cards", key=f"{key}-text", placeholder="Ah Kd 2c, or t:Ah m:Kd "
                             "b:2c x:7h", help="the seat's cards (then place them by clicks), "
                             "or placed at once: t: top, m: middle, b: bottom, x: discard")
        unseen = st.checkbox("Discard not seen", key=f"{key}-unseen", disabled=not hidden,
                             help="an opponent's discard is face down: give only the cards "
                             "placed")
        go = st.form_submit_button("Next", type="primary")
    if go:
        said = _take(table, hand, turn, key, text.strip(), not (hidden and unseen))
        if said:
            st.warning(md_text(said), icon=":material/block:")


def _take(table: LiveTable, hand: LiveHand, turn: Turn, key: str, text: str,
          known: bool) -> str:
    """Take the typed text; why not, in words ('' when taken)."""
    if ":" in text:
        try:
            street = parse_street(text)
        except ValueError as exc:
            return str(exc)
        known = street.discard is not None or turn.dealt == turn.place
        said = hand.refuse(turn, street.placed + (street.discard or ()), known)
        return said or _enter(table, hand, street, turn)
    try:
        cards = parse_cards(text.replace(",", " "))
    except ValueError as exc:
        return str(exc)
    said = hand.refuse(turn, cards, known)
    if not said:
        st.session_state[CARDS] = (key, cards, known and turn.dealt > turn.place)
        st.rerun()
    return said


def _street_play(placement: Placement, known_discard: bool) -> StreetPlay:
    top, middle, bottom, discard = (tuple(card_of_index(c) for c in part) for part in placement)
    thrown = discard if known_discard and discard else None
    dealt = top + middle + bottom + (thrown or ())
    return StreetPlay(top, middle, bottom, dealt if thrown else None, thrown)


def _enter(table: LiveTable, hand: LiveHand, street: StreetPlay, turn: Turn | None = None,
           ) -> str:
    """Enter the street after the core's check of its rows; why not ('' when entered)."""
    if turn is not None:
        rows = _rows(hand.streets[turn.seat])
        placed = tuple(tuple(_index(c) for c in part)
                       for part in (street.top, street.middle, street.bottom, street.discard or ()))
        view = View(hand.ruleset, turn.street, 0, sum(placed, ()), turn.place, rows, ())
        try:
            check_placement(view, Placement(*placed))
        except IllegalMove as exc:
            return str(exc).split(": ", 1)[-1]
    st.session_state[TABLE] = replace(table, hand=hand.add(street))
    st.session_state.pop(CARDS, None)
    st.rerun()
    return ""


def complete(table: LiveTable, hand: LiveHand) -> None:
    """The hand is entered: store it (imported as its live-notation text)."""
    everyone = [(n, _rows(s)) for n, s in zip(hand.names, hand.streets, strict=True)]
    st.markdown(opponents_html(everyone, filters.four_colour()), unsafe_allow_html=True)
    played_at = datetime.now(timezone.utc).astimezone().isoformat(timespec="minutes")
    record = hand.record(table.source, table.hand_id, session_id=table.session_id,
                         played_at=played_at, stake=table.stake, currency=table.currency,
                         hero=table.hero, rules=dict(table.rules))
    left, right = st.columns(2)
    if left.button("Store the hand", type="primary", key="enter-store",
                   icon=":material/save:"):
        try:
            with db.writing() as con:
                store_text(con, f"{table.source}.txt", live_text([record]))
        except (NotStored, StoreError) as exc:
            st.error(md_text(f"The hand was not stored: {exc}"))
            return
        nxt = (hand.button + 1) % len(table.names)
        st.session_state[TABLE] = replace(table, hand=None, number=table.number + 1,
                                          button=nxt, stored=table.stored + (record,))
        st.session_state["enter.last"] = table.hand_id
        st.rerun()
    if right.button("Undo the last street", key="enter-undo-street", icon=":material/undo:"):
        st.session_state[TABLE] = replace(table, hand=hand.undo())
        st.rerun()


def stored_hands(table: LiveTable) -> None:
    """The hands stored this session: the last one's link, and the export."""
    last = st.session_state.get("enter.last")
    if last:
        st.success(md_text(f"Hand {last} stored."), icon=":material/check:")
        st.page_link(filters.HAND_PAGE, label="Open it in the replayer",
                     icon=":material/replay:",
                     query_params={"source": table.source, "id": last, "room": table.source})
    if table.stored:
        text = live_text(list(table.stored))
        st.download_button("Download the session in the live notation", text,
                           file_name=f"{table.source}-{table.session_id}.txt",
                           mime="text/plain", key="enter-export", icon=":material/download:")
        with st.expander("The session in the live notation"):
            st.code(text, language=None)


def main() -> None:
    st.title("Enter")
    st.caption("A live or home-game hand, entered street by street for every seat in the "
               "order it is played; stored as the live notation imports it.")
    if db.read_only():
        st.info(md_text(db.read_only_line() or ""), icon=":material/lock:")
        return
    table = st.session_state.get(TABLE)
    if not isinstance(table, LiveTable):
        setup()
        return
    st.caption(md_text(f"{table.source} · {table.variant} · {', '.join(table.names)}"))
    stored_hands(table)
    hand = table.hand
    if hand is None:
        new_hand(table)
    elif (turn := hand.next_turn()) is not None:
        enter_turn(table, hand, turn)
        if sum(len(s) for s in hand.streets) and st.button("Undo the last street",
                                                           key="enter-undo"):
            st.session_state.pop(CARDS, None)
            st.session_state[TABLE] = replace(table, hand=hand.undo())
            st.rerun()
    else:
        complete(table, hand)
    if st.button("Leave the table", key="enter-leave", icon=":material/logout:"):
        del st.session_state[TABLE]
        st.rerun()


if __name__ == "__main__":
    main()
