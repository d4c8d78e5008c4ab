"""Review: where the points went in the player's decisions, from what ``ofc review`` stored.

Each reviewed decision has the expected points of what was played and of the best placement
found by rollouts; the difference is the EV lost (docs/review.md).
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

from dashboard import db, filters, widgets
from dashboard.cards import board_html, md_text
from dashboard.queries import review as q
from ofc_core.board import Board, parse_compact_row

DRAWN = 5  # costliest decisions drawn as cards (the table lists more); no docstring: a bare
# string at the top level of a page is drawn by Streamlit's magic

COSTLY_COLUMNS = {
    "hand_key": None,
    "played_at": widgets.when("Played"),
    "hand_id": widgets.text("Hand"),
    "street": widgets.count("Street"),
    "kind": widgets.text("Kind"),
    "board": widgets.text("Board before"),
    "dealt": widgets.text("Dealt"),
    "chosen": widgets.text("Played"),
    "chosen_ev": widgets.signed("EV played"),
    "best": widgets.text("Best"),
    "best_ev": widgets.signed("EV best"),
    "ev_lost": widgets.signed("EV lost"),
    "fl_chase": widgets.flag("FL chase"),
    "variant": widgets.text("Variant"),
}

DEFINITION = (
    "**EV** is the expected points of a placement against everyone at the table, Fantasyland "
    "value included, estimated by playing the rest of the hand out many times with the "
    "unseen cards dealt at random (the same deals for every placement). **EV lost** is the EV "
    "of the best placement found minus the EV of the one played: what the decision cost, "
    "whatever the cards did next. A Fantasyland set is compared with the best set the setter "
    "finds (royalties plus the value of staying). A **Fantasyland chase** is a decision whose "
    "best placement puts a queen or better on top.")


def rows_after(board: str, placement: str) -> tuple[list[tuple[str, list[str], str]], set[str]]:
    """The rows after a placement (compact ``board`` before it, ``placement`` as stored), and
    the cards it placed.

    >>> rows, new = rows_after("Ks-2c5d-", "Qh--Kd/2c")
    >>> [r[1] for r in rows], sorted(new)
    ([['Ks', 'Qh'], ['2c', '5d'], ['Kd']], ['Kd', 'Qh'])
    """
    before = Board.parse_compact(board)
    placed = Board.parse_compact(placement.split("/")[0])
    rows = []
    for name in ("top", "middle", "bottom"):
        cards = getattr(before, name) + getattr(placed, name)
        rows.append((name, [str(c) for c in cards], ""))
    discard = placement.split("/")[1] if "/" in placement else ""
    note = f"discard {' '.join(str(c) for c in parse_compact_row(discard))}" if discard else ""
    rows[-1] = (rows[-1][0], rows[-1][1], note)
    return rows, {str(c) for c in placed.cards}


def drawn(frame: Any, four: bool) -> None:
    """The costliest decisions as cards: played and best side by side, a button to the
    replayer at that street."""
    for k, d in enumerate(frame.head(DRAWN).itertuples(index=False)):
        with st.container(border=True):
            st.markdown(f"**{d.ev_lost:.2f} points lost** · hand {md_text(d.hand_id)} · street "
                        f"{int(d.street)} ({md_text(d.kind)}) · dealt {md_text(d.dealt)}")
            left, right, button = st.columns([3, 3, 1], vertical_alignment="center")
            for col, label, placement, ev in ((left, "Played", d.chosen, d.chosen_ev),
                                              (right, "Best", d.best, d.best_ev)):
                rows, new = rows_after(d.board, placement)
                col.markdown(f"{label}: EV {ev:+.2f}")
                col.markdown(f'<div class="ofc-board">{board_html(rows, four, new=new)}</div>',
                             unsafe_allow_html=True)
            if button.button("Replay", key=f"review_open_{k}", icon=":material/play_arrow:"):
                filters.open_hand(int(d.hand_key), int(d.street))


def bars(frame: Any, x: str, title: str, key: str) -> None:
    fig = go.Figure(go.Bar(x=frame[x].astype(str), y=frame["per_hand"],
                           text=widgets.plot_text(frame["per_hand"]),
                           hovertemplate="%{x}<br>%{y:.2f} points per hand<extra></extra>"))
    widgets.layout(fig, height=300, title=title, yaxis_title="EV lost per hand")
    st.plotly_chart(fig, key=key)


def over_time(frame: Any) -> None:
    fig = go.Figure(go.Scatter(x=frame["day"], y=frame["per_hand"], mode="lines+markers",
                               customdata=frame["hands"],
                               hovertemplate="%{x}<br>%{y:.2f} per hand (%{customdata} hands)"
                                             "<extra></extra>"))
    widgets.layout(fig, height=300, title="EV lost per hand, by day", yaxis_title="points per hand")
    st.plotly_chart(fig, key="review_time")


def main() -> None:
    current = widgets.start("Decision review")
    if current is None:
        return
    s = db.query(q.summary, current)
    if s.decisions == 0:
        st.info("No reviewed decisions for these filters. Review a player's hands with "
                "`ofc review --player NAME` (docs/review.md).")
        return
    widgets.metric_row(("Reviewed hands", f"{s.hands:,}"), ("Decisions", f"{s.decisions:,}"),
                       ("EV lost", widgets.num(s.ev_lost, 1),
                        f"{s.costly:,} decisions over 1 point"),
                       ("EV lost per hand", widgets.num(s.per_hand)))
    st.caption(DEFINITION)
    st.subheader("Costliest decisions")
    costly = db.query(q.costliest, current)
    drawn(costly, filters.four_colour())
    table = st.dataframe(costly, key="review_costliest", on_select="rerun",
                         selection_mode="single-row", hide_index=True, width="stretch",
                         column_config=COSTLY_COLUMNS)
    row = widgets.selected_row(table)
    if row is not None and row < len(costly):
        filters.open_hand(int(costly.iloc[row]["hand_key"]), int(costly.iloc[row]["street"]))
    st.caption("Select a decision to replay its hand at that street.")
    left, right = st.columns(2)
    with left:
        bars(db.query(q.by_street, current), "street", "By street", "review_street")
    with right:
        bars(db.query(q.by_kind, current), "kind", "By kind of decision", "review_kind")
    left, right = st.columns(2)
    with left:
        over_time(db.query(q.over_time, current))
    with right:
        bars(db.query(q.by_variant, current), "variant", "By variant", "review_variant")


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
