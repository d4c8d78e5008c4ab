"""Hand review: find a hand, replay it street by street, read its settlement, note and tag it.

The hand shown is in the URL: ``?hand=<hand_key>``, or ``?source=<source>&id=<hand id>``. The
list of hands and its pages are :mod:`dashboard.hand_list`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import (
    db,
    filters,
    hand_list,
    key_moments,
    names,
    notes_editor,
    room_result,
    timefmt,
)
from dashboard.cards import board_html, cards_html, md_text, pretty, stood_for
from dashboard.queries import hands as q
from dashboard.queries import notes as notes_q
from dashboard.replay import SeatView, step_count, step_label, view_at, whole_number
from ingest import api
from ofc_core.rules import discards, resolve

RESULT = {1: "won", 0: "tie", -1: "lost"}


def selected_hand() -> int | None:
    params = st.query_params
    raw = params.get("hand")
    if raw:
        try:
            return int(raw)
        except ValueError:
            st.warning(f"No hand {md_text(raw)}: the hand parameter is a number.")
            return None
    if params.get("source") and params.get("id"):
        key: int | None = db.query(q.key_of, params["source"], params["id"])
        return key
    return None


def discards_rule(hand: dict[str, Any], seats: pd.DataFrame) -> Callable[[int, int], int]:
    """How many cards each street discards, from the hand's ruleset (for hidden discards)."""
    try:
        settings = json.loads(hand.get("ruleset") or "{}")
        ruleset = resolve(hand["variant"], settings.get("overrides") or {})
    except (ValueError, TypeError, AttributeError):
        return lambda seat, street: 0
    fl_cards = {int(s["seat"]): None if pd.isna(s["fl_cards"]) else int(s["fl_cards"])
                for s in seats.to_dict("records") if s["fantasyland"]}

    def thrown(seat: int, street: int) -> int:
        return discards(ruleset, street, seat in fl_cards, fl_cards.get(seat))

    return thrown


def hand_notes(hand: dict[str, Any]) -> None:
    """The hand's note and tags, kept by its (source, hand id)."""
    source, hand_id = str(hand["source"]), str(hand["hand_id"])

    def write(con: Any, note: str, tags: Any) -> api.Annotation:
        api.set_hand_annotation(con, source, hand_id, note, tags)
        return notes_q.of_hand(con, source, hand_id)

    notes_editor.editor(f"hand_{hand['hand_key']}", db.query(notes_q.of_hand, source, hand_id),
                        db.query(notes_q.hand_tags), write)


def header(hand: dict[str, Any]) -> None:
    """The hand's title and one line in words: room, ruleset, time, session, button, stake
    (said where it was taken from the table's other hands)."""
    st.subheader(f"Hand {md_text(hand['hand_id'])}")
    st.caption(md_text(" · ".join(header_bits(hand))))


def header_bits(hand: dict[str, Any]) -> list[str]:
    bits = [names.room(hand["source"]), names.ruleset(hand["ruleset_label"])]
    if present(hand["played_at"]):
        bits.append(timefmt.one(hand["played_at"], hand.get("utc_offset"), fmt=timefmt.SECOND))
    if present(hand["session_id"]):
        bits.append(f"session {session_name(str(hand['session_id']))}")
    if present(hand["button"]):
        bits.append(f"button {names.player(hand['button'])}")
    if present(hand["stake"]):
        inferred = " (from the table's other hands)" if hand.get("stake_inferred") is True \
            else ""
        bits.append(f"stake {hand['stake']:g} {names.currency(hand['currency'])} a point"
                    f"{inferred}")
    return bits


def present(value: Any) -> bool:
    return value is not None and not (not isinstance(value, str) and pd.isna(value)) \
        and value != ""


def session_name(session_id: str) -> str:
    """The session's one name, as the Overview and the Sessions page write it."""
    span = db.query(q.session_span, session_id)
    zone = timefmt.chosen_zone()
    started = timefmt.shown(span["started"], span["utc_offset"], zone)
    ended = timefmt.shown(span["ended"], span["utc_offset"], zone)
    return names.session(session_id, names.span_label(started.iloc[0], ended.iloc[0]))


def step_controls(hand_key: int, steps: int) -> int:
    key = f"replay_step_{hand_key}"
    wanted = st.query_params.get("street")
    if wanted and wanted.isdigit():  # opened at a street (the Review page): once, then it moves
        st.session_state[key] = min(steps, max(1, int(wanted)))
        del st.query_params["street"]
    st.session_state.setdefault(key, 1)

    def move(delta: int) -> None:
        st.session_state[key] = min(steps, max(1, st.session_state[key] + delta))

    c = st.columns([1, 1, 1.3, 4.7], vertical_alignment="center")  # "Showdown" whole at 1,280 px
    c[0].button("◀ Previous", key="replay_prev", on_click=move, args=(-1,),
                disabled=st.session_state[key] <= 1)
    c[1].button("Next ▶", key="replay_next", on_click=move, args=(1,),
                disabled=st.session_state[key] >= steps)
    c[2].button("Showdown", key="replay_end", on_click=move, args=(steps,))
    step: int = st.session_state[key]
    streets = f"{steps - 1} street{'s' * (steps != 2)}"
    c[3].markdown(f"**{step_label(step, steps)}** ({streets}, then the showdown; "
                  "cards placed this street are outlined)"
                  if steps > 1 else "**Showdown** (this log gives only the final boards)")
    return step


def seat_street(view: SeatView, four: bool, surrendered: bool = False) -> str:
    rows = [("top", view.top, ""), ("middle", view.middle, ""), ("bottom", view.bottom, "")]
    parts = [board_html(rows, four, new=view.placed_now)]
    if not view.recorded:
        parts.append('<div class="ofc-row-note">Surrendered</div>' if surrendered else
                     '<div class="ofc-row-note">This log gives only the final board: shown at '
                     'the showdown</div>')
    elif view.face_down:
        parts.append('<div class="ofc-row-note">Fantasyland: set face down, shown at the '
                     'showdown</div>')
    else:
        dealt = (cards_html(view.dealt, four) if view.dealt is not None
                 else '<span class="ofc-row-note">hidden</span>')
        parts.append(f'<div class="ofc-row"><span class="ofc-row-label">dealt</span>{dealt}'
                     f'</div>')
        if view.discard:
            parts.append(f'<div class="ofc-row"><span class="ofc-row-label">discard</span>'
                         f'{cards_html(view.discard, four)}</div>')
    return f'<div class="ofc-board">{"".join(parts)}</div>'


def text_of(value: Any, missing: str = "–") -> str:
    """A stored value as table text: a dash, never "None" or "nan", when there is none."""
    return missing if value is None or (not isinstance(value, str) and pd.isna(value)) \
        else str(value)


def seat_final(seat: Any, final: pd.DataFrame, four: bool) -> str:
    mine = final[final["seat"] == seat.seat]
    rows = []
    jokers: dict[str, str] = {}
    for r in mine.itertuples(index=False):
        note = text_of(r.hand_name, "")
        if r.royalty and not pd.isna(r.royalty):
            note += f" · royalty {int(r.royalty)}"
        rows.append((str(r.row_name), text_of(r.cards, "").split(), note))
        jokers.update(stood_for(r.jokers))
    return f'<div class="ofc-board">{board_html(rows, four, jokers=jokers)}</div>'


def seat_title(seat: Any) -> str:
    tags = []
    if seat.fantasyland:
        tags.append("Fantasyland")
    if seat.surrendered:
        tags.append("surrendered")
    if seat.fouled:
        tags.append("FOULED")
    extra = f" — {', '.join(tags)}" if tags else ""
    where = "" if pd.isna(getattr(seat, "log_seat", None)) else f" · seat {int(seat.log_seat)}"
    return f"**{md_text(names.player(seat.player))}**{md_text(extra)}{where} · " \
        f"{seat.points:+g} points"


def replayer(hand: dict[str, Any], seats: pd.DataFrame, final: pd.DataFrame,
             streets: pd.DataFrame) -> None:
    st.markdown("#### Replayer")
    steps = step_count(streets)
    key_moments.key_moments(int(hand["hand_key"]), f"replay_step_{hand['hand_key']}", steps)
    step = step_controls(int(hand["hand_key"]), steps)
    four = filters.four_colour()
    if step < steps:
        key_moments.reviewed_street(int(hand["hand_key"]), step, four)
    views = {v.seat: v for v in view_at(streets, seats, step, discards_rule(hand, seats))}
    per_row = 2 if len(seats) > 2 else len(seats)  # 3-4 players: two boards a row, readable
    cols = [c for _ in range(-(-len(seats) // per_row)) for c in st.columns(per_row)]
    for col, seat in zip(cols, seats.itertuples(index=False), strict=False):
        with col:
            st.markdown(seat_title(seat))
            if step >= steps:
                st.markdown(seat_final(seat, final, four), unsafe_allow_html=True)
            else:
                st.markdown(seat_street(views[whole_number(seat.seat)], four,
                                        bool(seat.surrendered)),
                            unsafe_allow_html=True)


# The final rows' table: a row of the table per row of a board (narrow enough for 1,280 px
# however many seats). Comments, not docstrings: Streamlit draws a page's bare strings.
FINAL_COLUMNS = {
    "Player": st.column_config.TextColumn("Player", width=110),
    "Row": st.column_config.TextColumn("Row", width=70),
    "Cards": st.column_config.TextColumn("Cards", width=170),
    "Hand": st.column_config.TextColumn("Hand", width=200),
    "Royalty": st.column_config.NumberColumn("Royalty", width=70),
    "Jokers": st.column_config.TextColumn("Jokers", width=150),
}


def final_table(seats: pd.DataFrame, final: pd.DataFrame) -> None:
    st.markdown("#### Final rows")
    player_of = dict(zip(seats["seat"], seats["player"], strict=True))
    table = []
    for seat, mine in final.groupby("seat", sort=True):
        for r in mine.to_dict("records"):
            jokers = " ".join(f"{joker} = {pretty(card)}"
                              for joker, card in stood_for(r["jokers"]).items())
            table.append({
                "Player": names.player(player_of.get(seat, str(seat))),
                "Row": str(r["row_name"]),
                "Cards": pretty(r["cards"]) if text_of(r["cards"], "") else "–",
                "Hand": text_of(r["hand_name"]),
                "Royalty": None if pd.isna(r["royalty"]) else int(r["royalty"]),
                "Jokers": jokers})
    frame = pd.DataFrame(table)
    if not frame.empty and not frame["Jokers"].any():
        frame = frame.drop(columns=["Jokers"])
    st.dataframe(frame, hide_index=True, width="stretch", key="final_rows",
                 column_config=FINAL_COLUMNS, placeholder="–")


# The pairwise settlement's columns, in order (745 px: readable at 1,280 px).
PAIR_COLUMNS = {
    "player": st.column_config.TextColumn("Player", width=85),
    "opponent": st.column_config.TextColumn("Opponent", width=85),
    "top": st.column_config.TextColumn("Top", width=55),
    "middle": st.column_config.TextColumn("Middle", width=55),
    "bottom": st.column_config.TextColumn("Bottom", width=55),
    "row_points": st.column_config.NumberColumn("Rows", width=50),
    "bonus": st.column_config.NumberColumn("Bonus", width=50),
    "scoop": st.column_config.NumberColumn("Scoop", width=50),
    "royalties": st.column_config.NumberColumn("Royalties", width=65),
    "surrender": st.column_config.NumberColumn("Surrender", width=70),
    "total": st.column_config.NumberColumn("Before caps", width=80, help="The pair's points "
                                           "before the caps"),
    "points": st.column_config.NumberColumn("Points", width=55),
}


def results(seats: pd.DataFrame, pair_rows: pd.DataFrame) -> None:
    st.markdown("#### Result: ours and the room's")
    room_result.show(seats)
    st.markdown("#### Pairwise")
    shown = pair_rows.assign(
        player=names.players(pair_rows["player"]), opponent=names.players(pair_rows["opponent"]),
        **{r: pair_rows[f"{r}_result"].map(RESULT) for r in ("top", "middle", "bottom")})
    st.dataframe(shown[list(PAIR_COLUMNS)], hide_index=True, width="stretch", key="hand_pairs",
                 column_config=PAIR_COLUMNS, placeholder="–")


FOCUS = "_ofc_replay_focus"  # the hand opened at a street (Review's Replay): drawn first


def focused() -> int | None:
    """The hand opened at a street from the Review page (``?hand=K&street=S``): shown first,
    in view, for as long as it stays the hand shown."""
    wanted = selected_hand()
    if st.query_params.get("street") and wanted is not None:
        st.session_state[FOCUS] = wanted
    return wanted if wanted is not None and st.session_state.get(FOCUS) == wanted else None


def main() -> None:
    st.title("Hand review")
    scope = (filters.current(), hand_list.search_form())
    first = focused()
    if first is not None:  # opened at a street: the replayer in view, the list below
        shown(first)
        with st.expander("The hands in these filters"):
            hand_list.draw(scope, first)
        return
    hand_key, where, found = hand_list.draw(scope, selected_hand())
    if hand_key is None:
        st.info("No hand to show. Import logs on the Import page, or widen the filters.")
        return
    shown(hand_key, lambda: hand_list.neighbours(scope, found, where))


def shown(hand_key: int, after_header: Callable[[], None] | None = None) -> None:
    """The hand: its header, notes, the replayer, its final rows and results."""
    hand = db.query(q.hand, hand_key)
    if hand is None:
        st.warning(f"Hand {hand_key} is not in the database.")
        return
    header(hand)
    if after_header is not None:
        after_header()
    hand_notes(hand)
    seats = db.query(q.players, hand_key)
    final = db.query(q.rows, hand_key)
    replayer(hand, seats, final, db.query(q.placements, hand_key))
    final_table(seats, final)
    results(seats, db.query(q.pairs, hand_key))


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
