"""Opponents: the player's results against each opponent, the running net against the most
frequent ones, and a head-to-head that splits the net into rows, bonuses, royalties and fouls."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from dashboard import db, filters
from dashboard.cards import md_text
from dashboard.queries import opponents, sessions
from dashboard.views.sessions import (
    PCT,
    layout,
    no_hands,
    percent_columns,
    plot_text,
    selected_point,
    selected_row,
    start,
)

COLUMNS = {
    "opponent": st.column_config.TextColumn("Opponent"),
    "hands": st.column_config.NumberColumn("Hands together"),
    "net_points": st.column_config.NumberColumn("Net points", format="%+.0f"),
    "points_per_hand": st.column_config.NumberColumn("Per hand", format="%+.2f"),
    "ci_low": st.column_config.NumberColumn("95% CI from", format="%+.2f"),
    "ci_high": st.column_config.NumberColumn("95% CI to", format="%+.2f"),
    "money": st.column_config.NumberColumn("Money", format="%+.2f",
                                           help="points x stake, hands with a stake"),
    "currency": st.column_config.TextColumn("Currency"),
    "rows_won_pct": st.column_config.NumberColumn("Rows won", **PCT),
    "scoops_for": st.column_config.NumberColumn("Scoops for"),
    "scoops_against": st.column_config.NumberColumn("Scoops against"),
    "royalties_for": st.column_config.NumberColumn("Royalties for"),
    "royalties_against": st.column_config.NumberColumn("Royalties against"),
    "their_foul_rate": st.column_config.NumberColumn("Their foul %", **PCT),
    "our_foul_rate": st.column_config.NumberColumn("Our foul %", **PCT),
}


def table(current, frame):  # type: ignore[no-untyped-def]
    event = st.dataframe(
        percent_columns(frame, "rows_won_pct", "their_foul_rate", "our_foul_rate"),
        key="opponents_table", on_select="rerun", selection_mode="single-row",
        hide_index=True, width="stretch", column_config=COLUMNS)
    row = selected_row(event)
    if row is not None:
        opponent = str(frame.iloc[row]["opponent"])
        hands = db.query(opponents.versus_hands, current, opponent)
        versus_table(hands, "opponents_hands", f"against {opponent}")
    else:
        st.caption("Select an opponent to list the hands played together.")


def versus_table(frame, key: str, what: str) -> None:  # type: ignore[no-untyped-def]
    if frame.empty:
        st.info(f"No hands {what}.")
        return
    more = " (the first ones)" if len(frame) >= sessions.HAND_LIMIT else ""
    st.markdown(f"**{len(frame):,} hands{more}** {md_text(what)}")
    event = st.dataframe(
        frame, key=key, on_select="rerun", selection_mode="single-row", hide_index=True,
        width="stretch",
        column_config={
            "hand_key": None,
            "played_at": st.column_config.DatetimeColumn("Played", format="YYYY-MM-DD HH:mm"),
            "source": st.column_config.TextColumn("Source"),
            "hand_id": st.column_config.TextColumn("Hand"),
            "variant": st.column_config.TextColumn("Variant"),
            "player": st.column_config.TextColumn("Player"),
            "opponent": st.column_config.TextColumn("Opponent"),
            "rows_won": st.column_config.NumberColumn("Rows won"),
            "rows_lost": st.column_config.NumberColumn("Rows lost"),
            "row_points": st.column_config.NumberColumn("Row points"),
            "bonus": st.column_config.NumberColumn("Bonus"),
            "royalties": st.column_config.NumberColumn("Royalties (net)"),
            "fouled": st.column_config.CheckboxColumn("We fouled"),
            "opponent_fouled": st.column_config.CheckboxColumn("They fouled"),
            "points": st.column_config.NumberColumn("Points", format="%+.1f"),
        })
    hand = filters.hand_from_table(event, frame)
    if hand is not None:
        filters.open_hand(hand)
    st.caption("Select a hand to open it in Hand review.")


def cumulative(current, names: list[str]) -> None:  # type: ignore[no-untyped-def]
    frame = db.query(opponents.cumulative, current,
                     tuple(names[:opponents.TOP_OPPONENTS]))
    fig = go.Figure()
    for opponent, line in frame.groupby("opponent", sort=False):
        fig.add_trace(go.Scattergl(
            x=line["hand_no"], y=line["cumulative_points"], name=plot_text([opponent])[0],
            mode="lines+markers", marker={"size": 3},
            customdata=line[["hand_key"]].to_numpy(),
            hovertemplate="hand %{x}: %{y:+,.0f}<extra>%{fullData.name}</extra>"))
    layout(fig, height=380, xaxis_title="hands together", yaxis_title="net points (running)")
    hand = filters.hand_from_chart(st.plotly_chart(fig, key="opponents_cumulative",
                                                   on_select="rerun",
                                                   selection_mode="points"))
    if hand is not None:
        filters.open_hand(hand)
    st.caption("The most frequent opponents. Click a point to open that hand.")


def head_to_head(current, names: list[str]) -> None:  # type: ignore[no-untyped-def]
    default = names.index(current.opponent) if current.opponent in names else 0
    opponent = st.selectbox("Opponent", names, index=default, key="opponents_h2h")
    split = db.query(opponents.head_to_head, current, opponent)
    fig = go.Figure(go.Waterfall(
        x=split["component"], y=split["points"], measure=["relative"] * len(split),
        customdata=split[["component"]].to_numpy(),
        text=[f"{p:+,.0f} ({n:,} hands)" for p, n in zip(split["points"], split["hands"],
                                                         strict=True)],
        hovertemplate="%{x}: %{text}<extra></extra>"))
    fig.add_trace(go.Bar(x=["net"], y=[split["points"].sum()], name="net",
                         marker_color="#1f77b4", customdata=[[None]],
                         hovertemplate="net %{y:+,.0f}<extra></extra>"))
    layout(fig, height=340, showlegend=False, yaxis_title="points",
           title="Net against this opponent, part by part")
    point = selected_point(st.plotly_chart(fig, key="opponents_split", on_select="rerun",
                                           selection_mode="points"))
    st.caption("Without a foul: row points, bonuses and the royalty exchange; hands where "
               "either player fouled are counted whole under fouls. Click a bar to list "
               "its hands.")
    component = point[0] if point and point[0] else None
    hands = db.query(opponents.versus_hands, current, opponent, component)
    versus_table(hands, "opponents_split_hands",
                 f"against {opponent}" + (f" carrying {component}" if component else ""))


def main() -> None:
    current = start("Opponents")
    if current is None:
        return
    frame = db.query(opponents.table, current)
    if frame.empty:
        no_hands()
        return
    table(current, frame)
    st.subheader("Running net per opponent")
    names = [str(o) for o in frame["opponent"]]
    cumulative(current, names)
    st.subheader("Head to head")
    head_to_head(current, names)


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
