"""Knockout: run a club's OFC Double knockout (seed 004) from the dashboard. Create it from a
list of players (at least 16; byes when not a power of two, said where they fall), the first
round drawn at random with a seed that is shown; record each series as it ends (from the
imported Double matches between the pair, or typed: 2-0, 2-1, forfeit); draw the next round;
until a winner. The bracket is drawn as a picture; every change is kept in the store with who
made it and when (the log below), and the latest can be undone. The bracket shown is in the
URL (``?ko=NAME``, with who is making the changes: ``&who=``): a reload shows the same
bracket, as the store keeps it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import db
from dashboard.cards import md_text
from dashboard.queries import knockout
from ingest import api
from ofc_core.knockout import MIN_PLAYERS, Bracket, Pair

PARAM = "ko"
WHO_PARAM = "who"
WHO = "ko_who"
NEW = "New knockout…"
IMPORTED = "from imported matches"
RESULTS = (IMPORTED, "2-0", "2-1", "forfeit")
MESSAGE = "_ofc_ko_message"


def _write(name: str, action: Callable[[Any], Bracket], done: str, failed_at: str = "") -> None:
    """A change of knockout ``name`` through ingest's API. Its outcome is kept, and shown on
    that knockout's view (``failed_at``'s, when it is given and the change failed) until the
    next change: not only on the next run, which a rerun of the page can take first."""
    try:
        with db.writing() as con:
            action(con)
    except (api.KnockoutError, api.StoreError) as exc:
        st.session_state[MESSAGE] = ("error", str(exc), failed_at or name)
        return
    st.session_state[MESSAGE] = ("ok", done, name)


def _who() -> str:
    return str(st.session_state.get(WHO) or "dashboard").strip() or "dashboard"


def _create() -> None:
    """The create form's callback (it runs before the page: one run shows the new bracket)."""
    name = str(st.session_state.get("ko_name") or "").strip()
    players = str(st.session_state.get("ko_players") or "")
    listed = [p.strip() for p in players.splitlines() if p.strip()]
    seed = int(st.session_state.get("ko_seed") or 0)
    _write(name, lambda con: api.create_knockout(con, name, listed, seed, _who()),
           f"created {name}: round 1 drawn", failed_at=NEW)
    if st.session_state.get(MESSAGE, ("",))[0] == "ok":
        st.query_params[PARAM] = name


def create_form() -> None:
    if "ko_seed" not in st.session_state:
        st.session_state["ko_seed"] = random.SystemRandom().randrange(10**6)
    with st.form("ko_create"):
        st.markdown(f"**New knockout** (at least {MIN_PLAYERS} players)")
        st.text_input("Name", key="ko_name")
        st.text_area("Players, one a line", key="ko_players", height=200)
        st.number_input("Seed of the draw", min_value=0, step=1, key="ko_seed")
        st.form_submit_button("Create and draw round 1", on_click=_create)


def picture(b: Bracket) -> None:
    """The bracket as a picture: a column per round, a box per pair (decided, to play)."""
    rows = knockout.picture_rows(b)
    rounds = [f"round {n}" for n in range(1, b.total_rounds + 1)] + ["winner"]
    spec = {
        "height": max(240, 26 * len(b.rounds[0])), "data": {"values": rows},
        "encoding": {"x": {"field": "round", "type": "ordinal", "sort": rounds,
                           "scale": {"domain": rounds}, "axis": {"orient": "top",
                                                                 "title": None}},
                     "y": {"field": "y", "type": "quantitative", "axis": None,
                           "scale": {"domain": [len(b.rounds[0]), 0]}}},
        "layer": [{"mark": {"type": "point", "shape": "square", "size": 80, "filled": True},
                   "encoding": {"color": {"field": "state", "type": "nominal",
                                          "scale": {"domain": ["to play", "decided",
                                                               "winner"],
                                                    "range": ["#999", "#2a7", "#d90"]}}}},
                  {"mark": {"type": "text", "align": "left", "dx": 8, "fontSize": 11},
                   "encoding": {"text": {"field": "label", "type": "nominal"}}}]}
    st.vega_lite_chart(spec, width="stretch")


def _label(p: Pair) -> str:
    """A pair as the radio shows it (its labels are markdown: names escaped)."""
    return f"{md_text(p.a)} – {md_text(p.b)}"


def _record(name: str, pairs: list[Pair], key: str) -> None:
    """The record form's callback: the chosen pair's series, typed or from the imported
    matches."""
    players = pairs[int(st.session_state.get(key) or 0)].players
    chosen = f"{players[0]} – {players[1]}"
    result = str(st.session_state.get("ko_result") or RESULTS[1])
    if result == IMPORTED:
        _write(name, lambda con: api.record_knockout_from_matches(con, name, players, _who()),
               f"recorded {chosen} from the imported matches")
        return
    second = st.session_state.get("ko_winner") == "second player"
    winner = players[1] if second else players[0]
    _write(name, lambda con: api.record_knockout_series(con, name, players, winner, result, _who()),
           f"recorded {chosen}: {winner} {result}")


def record_form(b: Bracket, name: str) -> None:
    pairs = b.open_pairs()
    key = f"ko_pair_{len(b.rounds)}_{len(pairs)}"
    with st.form("ko_record"):
        st.markdown(f"**Record a series of round {len(b.rounds)}** ({len(pairs)} to play)")
        st.radio("Pair", range(len(pairs)), key=key, format_func=lambda k: _label(pairs[k]))
        st.radio("Result", RESULTS, key="ko_result", horizontal=True,
                 help="From imported matches: the first matches between the pair since the "
                      "round was drawn, until one has won two. Forfeit: the loser did not "
                      "open the table within 15 minutes.")
        st.radio("Winner", ["first player", "second player"], key="ko_winner",
                 horizontal=True, help="Typed results only; imported matches say who won.")
        st.form_submit_button("Record", on_click=_record, args=(name, pairs, key))


def bracket_page(name: str) -> None:
    b = db.query(knockout.bracket, name)
    if b is None:
        st.info("No knockout of that name in this store.")
        return
    st.markdown(f"**{len(b.players)} players**, a draw of {b.size}, seed **{b.seed}** "
                f"(the same seed draws the same pairs)")
    if b.byes:
        st.markdown("Byes in round 1 (straight to round 2): "
                    + ", ".join(md_text(n) for n in b.byes))
    picture(b)
    if b.champion is not None:
        st.success(f"Winner: {md_text(b.champion)}")
    elif b.round_over:
        st.button(f"Draw round {len(b.rounds) + 1}", key="ko_draw", on_click=_write,
                  args=(name, lambda con: api.draw_knockout_round(con, name, _who()),
                        f"round {len(b.rounds) + 1} drawn"))
    else:
        record_form(b, name)
    st.button("Undo the last change", key="ko_undo", on_click=_write,
              args=(name, lambda con: api.undo_knockout(con, name, _who()), "undone"))
    with st.expander("Changes (who and when)"):
        st.dataframe(pd.DataFrame(db.query(knockout.log, name)), hide_index=True,
                     width="stretch", placeholder="–", column_config={
                         "seq": st.column_config.NumberColumn("#", width=40),
                         "when": st.column_config.TextColumn("When", width=140),
                         "who": st.column_config.TextColumn("Who", width=110),
                         "action": st.column_config.TextColumn("Change", width=80),
                         "details": st.column_config.TextColumn("Details", width=400)})


def main() -> None:
    st.title("Knockout")
    who = st.text_input("Your name (kept with every change)", key=WHO,
                        value=st.query_params.get(WHO_PARAM, "dashboard"))
    if who.strip() and st.query_params.get(WHO_PARAM) != who.strip():
        st.query_params[WHO_PARAM] = who.strip()  # a reload keeps it
    names = db.query(knockout.names)
    wanted = st.query_params.get(PARAM)
    options = [NEW, *names]
    index = options.index(wanted) if wanted in options else 0
    chosen = st.selectbox("Knockout", options, index=index, key=f"ko_pick_{wanted}")
    kind, text, about = st.session_state.get(MESSAGE, ("", "", None))
    if about == chosen:  # the last change made here, until the next
        (st.error if kind == "error" else st.caption)(md_text(text))
    if chosen == NEW:
        if PARAM in st.query_params:
            del st.query_params[PARAM]
        if db.read_only():
            st.info("This store is read-only: knockouts are created on a writable store.")
            return
        create_form()
        return
    if st.query_params.get(PARAM) != chosen:
        st.query_params[PARAM] = chosen
    bracket_page(str(chosen))


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
