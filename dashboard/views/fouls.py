"""Fouls: how often the player fouls, where (variant, table size, position, Fantasyland),
when (rolling, per session), which relation broke with which hands, and every fouled hand."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from dashboard import db, filters
from dashboard.queries import fouls, sessions
from dashboard.views.sessions import (
    layout,
    no_hands,
    pct,
    plot_text,
    selected_point,
    selected_row,
    show_hands,
    start,
)

TITLES = {"variant": "By variant", "players": "By number of players",
          "position": "By position (0 acts first, left of the button)",
          "hand type": "Fantasyland hands vs normal hands"}


def breakdown_chart(frame, dimension: str):  # type: ignore[no-untyped-def]
    part = frame[frame["dimension"] == dimension]
    fig = go.Figure(go.Bar(
        x=plot_text(part["value"]), y=part["foul_rate"] * 100,
        text=[f"{f} / {h}" for f, h in zip(part["fouls"], part["hands_set"], strict=True)],
        customdata=part[["dimension", "value"]].to_numpy(),
        hovertemplate="%{x}: %{y:.1f}% (%{text} hands fouled)<extra></extra>",
        marker_color="#d62728"))
    layout(fig, height=280, title=TITLES[dimension], yaxis_title="foul %",
           xaxis={"type": "category"})
    return st.plotly_chart(fig, key=f"fouls_by_{dimension}", on_select="rerun",
                           selection_mode="points")


def breakdowns(current) -> None:  # type: ignore[no-untyped-def]
    frame = db.query(fouls.breakdowns, current)
    picked = None
    grid = st.columns(2)
    for n, dimension in enumerate(TITLES):
        with grid[n % 2]:
            point = selected_point(breakdown_chart(frame, dimension))
            picked = picked or point
    st.caption("Click a bar to list the fouled hands behind it.")
    if picked:
        dimension, value = str(picked[0]), str(picked[1])
        hands = db.query(fouls.breakdown_hands, current, dimension, value, fouled_only=True)
        show_hands(hands, "fouls_breakdown_hands", f"fouled, {dimension} {value}")


def over_time(current) -> None:  # type: ignore[no-untyped-def]
    left, right = st.columns([3, 2])
    with left:
        window = st.select_slider("Rolling window (hands)", [25, 50, 100, 200, 500, 1000],
                                  value=100, key="fouls_window")
        frame = db.query(fouls.rolling, current, int(window))
        fig = go.Figure(go.Scattergl(
            x=frame["hand_no"], y=frame["rolling_foul_rate"] * 100, mode="lines+markers",
            marker={"size": 3}, customdata=frame[["hand_key"]].to_numpy(),
            hovertemplate="hand %{x}: %{y:.1f}%<extra></extra>", name="rolling foul %"))
        layout(fig, height=300, title=f"Foul % over the last {window} hands",
               xaxis_title="hands set", yaxis_title="foul %")
        hand = filters.hand_from_chart(st.plotly_chart(fig, key="fouls_rolling",
                                                       on_select="rerun",
                                                       selection_mode="points"))
        if hand is not None:
            filters.open_hand(hand)
        st.caption("Click a point to open that hand.")
    with right:
        per = db.query(sessions.period_table, current, "session",
                       float(sessions.DEFAULT_GAP_MINUTES))
        fig = go.Figure(go.Bar(
            x=per["period_no"], y=per["foul_rate"] * 100, marker_color="#d62728",
            customdata=per[["period"]].to_numpy(), hovertext=plot_text(per["period"]),
            hovertemplate="%{hovertext}: %{y:.1f}%<extra></extra>"))
        layout(fig, height=300, title="Foul % per session", xaxis_title="session",
               yaxis_title="foul %")
        point = selected_point(st.plotly_chart(fig, key="fouls_per_session",
                                               on_select="rerun", selection_mode="points"))
        st.caption("Sessions split by 30 minutes without a hand (see Sessions).")
    if point:
        hands = db.query(sessions.period_hands, current, "session", str(point[0]),
                         gap_minutes=float(sessions.DEFAULT_GAP_MINUTES), extra="AND s.fouled")
        show_hands(hands, "fouls_session_hands", f"fouled in session {point[0]}")


def relations(current) -> None:  # type: ignore[no-untyped-def]
    frame = db.query(fouls.relations, current)
    if frame.empty:
        st.info("No fouls in these hands.")
        return
    event = st.dataframe(
        frame, key="fouls_relations", on_select="rerun", selection_mode="single-row",
        hide_index=True, width="stretch",
        column_config={
            "relation": st.column_config.TextColumn("Broken relation"),
            "upper": st.column_config.TextColumn("Row too strong",
                                                 help="top (or middle) hand name"),
            "lower": st.column_config.TextColumn("Beat the row below",
                                                 help="middle (or bottom) hand name"),
            "fouls": st.column_config.NumberColumn("Fouls"),
        })
    row = selected_row(event)
    if row is not None:
        g = frame.iloc[row]
        hands = db.query(fouls.fouled_hands, current, relation=g["relation"],
                         upper=g["upper"], lower=g["lower"])
        fouled_table(hands, "fouls_relation_hands")
    else:
        st.caption("Select a row to list those fouled hands.")


def fouled_table(frame, key: str) -> None:  # type: ignore[no-untyped-def]
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
            "position": st.column_config.NumberColumn("Position"),
            "fantasyland": st.column_config.CheckboxColumn("FL"),
            "relation": st.column_config.TextColumn("Broken relation"),
            "top_cards": st.column_config.TextColumn("Top"),
            "top_hand": st.column_config.TextColumn("Top hand"),
            "middle_cards": st.column_config.TextColumn("Middle"),
            "middle_hand": st.column_config.TextColumn("Middle hand"),
            "bottom_cards": st.column_config.TextColumn("Bottom"),
            "bottom_hand": st.column_config.TextColumn("Bottom hand"),
            "points": st.column_config.NumberColumn("Points", format="%+.1f"),
        })
    hand = filters.hand_from_table(event, frame)
    if hand is not None:
        filters.open_hand(hand)
    st.caption("Select a hand to open it in Hand review.")


def main() -> None:
    current = start("Fouls")
    if current is None:
        return
    frame = db.query(fouls.breakdowns, current)
    overall = frame[frame["dimension"] == "all"]
    if overall.empty:
        no_hands()
        return
    total = overall.iloc[0]
    cols = st.columns(4)
    cols[0].metric("Foul %", pct(total["foul_rate"]),
                   f"{int(total['fouls']):,} of {int(total['hands_set']):,} hands set",
                   delta_color="off", delta_arrow="off")
    cols[1].metric("Top beat middle", f"{int(total['top_beat_middle']):,}")
    cols[2].metric("Middle beat bottom", f"{int(total['middle_beat_bottom']):,}")
    cols[3].metric("Hands", f"{int(total['hands']):,}")
    breakdowns(current)
    st.subheader("Over time")
    over_time(current)
    st.subheader("Which relation broke, with what hands")
    relations(current)
    st.subheader("Fouled hands")
    hands = db.query(fouls.fouled_hands, current)
    if hands.empty:
        st.info("No fouls in these hands.")
    else:
        st.markdown(f"The {len(hands):,} most recent fouled hands.")
        fouled_table(hands, "fouls_hands")


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
