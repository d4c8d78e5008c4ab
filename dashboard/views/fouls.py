"""Fouls: how often the player fouls, where (variant, table size, position, Fantasyland),
when (rolling, per session), which relation broke with which hands, and every fouled hand."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import db, names, widgets
from dashboard.queries import fouls, sessions
from dashboard.queries.common import Filters

TITLES = {"variant": "By variant", "players": "By number of players",
          "position": "By position (0 acts first, left of the button)",
          "hand type": "Fantasyland hands vs normal hands"}
GAP = float(sessions.DEFAULT_GAP_MINUTES)
NO_FOULS = "No fouls in these hands."

RELATION_COLUMNS = {
    "relation": widgets.text("Broken relation"),
    "upper": widgets.text("Row too strong", help="top (or middle) hand name"),
    "lower": widgets.text("Beat the row below", help="middle (or bottom) hand name"),
    "fouls": widgets.count("Fouls"),
}
FOULED_COLUMNS = {
    **widgets.HAND_ID_COLUMNS,
    "position": widgets.count("Position", width=65),
    "fantasyland": widgets.flag("FL", width=35),
    "relation": widgets.text("Broken relation", width=130),
    "top_cards": widgets.text("Top", width=75), "top_hand": widgets.text("Top hand", width=130),
    "middle_cards": widgets.text("Middle", width=115),
    "middle_hand": widgets.text("Middle hand", width=130),
    "bottom_cards": widgets.text("Bottom", width=115),
    "bottom_hand": widgets.text("Bottom hand", width=130),
    "points": widgets.signed("Points", 1, width=60),
}
# The fouled hands' columns shown first (730 px: readable at 1,280 px).
FOULED_MAIN = ("played_at", "relation", "top_cards", "middle_cards", "bottom_cards", "points",
               "variant")


def breakdown_chart(frame: pd.DataFrame, dimension: str) -> list[Any] | None:
    part = frame[frame["dimension"] == dimension]
    shown = [names.variant(v) for v in part["value"]] if dimension == "variant" \
        else list(part["value"])
    fig = go.Figure(go.Bar(
        x=widgets.plot_text(shown), y=part["foul_rate"] * 100,
        text=[f"{f} / {h}" for f, h in zip(part["fouls"], part["hands_set"], strict=True)],
        customdata=part[["dimension", "value"]].to_numpy(),
        hovertemplate="%{x}: %{y:.1f}% (%{text} hands fouled)<extra></extra>",
        textposition="outside", cliponaxis=False,  # a 0% bar still says "0 / 33"
        marker_color=widgets.RED))
    top = float((part["foul_rate"] * 100).max()) if len(part) else 0.0
    widgets.layout(fig, height=280, title=TITLES[dimension], yaxis_title="foul %",
                   xaxis={"type": "category"}, yaxis={"range": [0, max(top * 1.25, 5.0)]})
    return widgets.chart(fig, f"fouls_by_{dimension}")


def breakdowns(current: Filters, frame: pd.DataFrame) -> None:
    picked = None
    grid = st.columns(2)
    for n, dimension in enumerate(TITLES):
        with grid[n % 2]:
            point = breakdown_chart(frame, dimension)
            picked = picked or point
    st.caption("Click a bar to list the fouled hands behind it.")
    if picked:
        dimension, value = str(picked[0]), str(picked[1])
        hands = db.query(fouls.breakdown_hands, current, dimension, value, fouled_only=True)
        said = names.variant(value) if dimension == "variant" else value
        widgets.show_hands(hands, "fouls_breakdown_hands", f"fouled, {dimension} {said}")


def rolling(current: Filters) -> None:
    window = st.select_slider("Rolling window (hands)", [25, 50, 100, 200, 500, 1000],
                              value=100, key="fouls_window")
    frame = db.query(fouls.rolling, current, int(window))
    fig = go.Figure(go.Scattergl(
        x=frame["hand_no"], y=frame["rolling_foul_rate"] * 100, mode="lines+markers",
        marker={"size": 3}, customdata=frame[["hand_key"]].to_numpy(),
        hovertemplate="hand %{x}: %{y:.1f}%<extra></extra>", name="rolling foul %"))
    widgets.layout(fig, height=300, title=f"Foul % over the last {window} hands",
                   xaxis_title="hands set", yaxis_title="foul %")
    widgets.chart_opens_hand(fig, "fouls_rolling", "Click a point to open that hand.")


def per_session(current: Filters) -> list[Any] | None:
    per = db.query(sessions.period_table, current, "session", GAP)
    fig = go.Figure(go.Bar(
        x=per["period_no"], y=per["foul_rate"] * 100, marker_color=widgets.RED,
        customdata=per[["period"]].to_numpy(), hovertext=widgets.plot_text(per["period"]),
        hovertemplate="%{hovertext}: %{y:.1f}%<extra></extra>"))
    widgets.layout(fig, height=300, title="Foul % per session", xaxis_title="session",
                   yaxis_title="foul %")
    point = widgets.chart(fig, "fouls_per_session")
    st.caption("Sessions split by 30 minutes without a hand (see Sessions).")
    return point


def over_time(current: Filters) -> None:
    left, right = st.columns([3, 2])
    with left:
        rolling(current)
    with right:
        point = per_session(current)
    widgets.hands_behind(widgets.picked(point), "fouls_session_hands", "fouled in session {}",
                         sessions.period_hands, current, "session", gap_minutes=GAP,
                         extra="AND s.fouled")


def relations(current: Filters) -> None:
    frame = widgets.fetch(fouls.relations, current, empty=NO_FOULS)
    if frame is None:
        return
    row = widgets.table(frame, "fouls_relations", RELATION_COLUMNS)
    if row is None:
        st.caption("Select a row to list those fouled hands.")
        return
    g = frame.iloc[row]
    hands = db.query(fouls.fouled_hands, current, relation=g["relation"], upper=g["upper"],
                     lower=g["lower"])
    widgets.hand_table(hands, "fouls_relation_hands", FOULED_COLUMNS, main=FOULED_MAIN)


def fouled(current: Filters) -> None:
    hands = widgets.fetch(fouls.fouled_hands, current, empty=NO_FOULS)
    if hands is None:
        return
    st.markdown(f"The {len(hands):,} most recent fouled hands.")
    widgets.hand_table(hands, "fouls_hands", FOULED_COLUMNS, main=FOULED_MAIN)


def main() -> None:
    current = widgets.start("Fouls")
    if current is None:
        return
    frame = db.query(fouls.breakdowns, current)
    overall = frame[frame["dimension"] == "all"]
    if overall.empty:
        widgets.no_hands()
        return
    total = overall.iloc[0]
    widgets.metric_row(("Foul %", widgets.pct(total["foul_rate"]),
                        f"{int(total['fouls']):,} of {int(total['hands_set']):,} hands set"),
                       ("Top beat middle", f"{int(total['top_beat_middle']):,}"),
                       ("Middle beat bottom", f"{int(total['middle_beat_bottom']):,}"),
                       ("Hands", f"{int(total['hands']):,}"))
    breakdowns(current, frame)
    st.subheader("Over time")
    over_time(current)
    st.subheader("Which relation broke, with what hands")
    relations(current)
    st.subheader("Fouled hands")
    fouled(current)


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
