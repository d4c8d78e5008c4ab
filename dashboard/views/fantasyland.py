"""Fantasyland: entry and stay rates, by top hand and by cards dealt, what an FL hand is worth,
and whether chasing it pays: foul rate vs FL rate vs points per hand, session by session."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

from dashboard import db, widgets
from dashboard.queries import fantasyland, sessions
from dashboard.queries.common import Filters

TOP_COLUMNS = {
    "top_class": widgets.text("Top"),
    "hands": widgets.count("Hands"),
    "fouled": widgets.count("Fouled"),
    "entries": widgets.count("Entered FL"),
    "entry_rate_with_top": widgets.percent("Entry % with this top"),
    "share_of_normal_hands": widgets.percent("Entry % (of all normal hands)",
                                             help="These add up to the overall entry rate."),
    "points_per_hand": widgets.signed("Points per hand"),
}
CARDS_COLUMNS = {
    "fl_cards": widgets.text("Cards", width=60, help="Cards dealt in Fantasyland"),
    "hands": widgets.count("FL hands", width=60),
    "stays": widgets.count("Stayed", width=55),
    "stay_rate": widgets.percent("Stay %", width=55),
    "foul_rate": widgets.percent("Foul %", width=55),
    "points_per_hand": widgets.signed("Per hand", width=65, help="Points per hand"),
}
# 350 px: the table fits its half of the page at 1,280 px.


def headline(s: dict[str, Any]) -> None:
    widgets.metric_row(("FL entry %", widgets.pct(s["entry_rate"]),
                        f"{s['entries']:,} of {s['normal_hands']:,} normal hands"),
                       ("FL stay %", widgets.pct(s["stay_rate"]),
                        f"{s['stays']:,} of {s['fl_hands']:,} FL hands"),
                       ("FL hands per 100 hands", f"{s['fl_per_100']:.1f}"),
                       ("Foul %", widgets.pct(s["foul_rate"])))


def worth(current: Filters, s: dict[str, Any]) -> None:
    kinds = [("Fantasyland", s["points_per_fl_hand"], s["fl_hands"]),
             ("normal", s["points_per_normal_hand"], s["normal_hands"])]
    fig = go.Figure(go.Bar(
        x=[k for k, _, _ in kinds], y=[v if v is not None else 0 for _, v, _ in kinds],
        text=[f"{widgets.num(v)} over {n:,} hands" for _, v, n in kinds],
        customdata=[[k] for k, _, _ in kinds], marker_color=[widgets.PURPLE, "#7f7f7f"],
        hovertemplate="%{x}: %{text}<extra></extra>"))
    widgets.layout(fig, height=300, title="Points per hand", yaxis_title="points per hand")
    widgets.hands_behind(widgets.picked(widgets.chart(fig, "fl_worth")), "fl_worth_hands",
                         "{} hands", fantasyland.kind_hands, current,
                         hint="Click a bar to list its hands.")


def top_chart(frame: pd.DataFrame) -> list[Any] | None:
    keys = frame[["top_class"]].to_numpy()
    fig = go.Figure()
    fig.add_trace(go.Bar(x=frame["top_class"], y=frame["entries"], name="entered FL",
                         marker_color=widgets.PURPLE, customdata=keys))
    fig.add_trace(go.Bar(x=frame["top_class"], y=frame["fouled"], name="fouled",
                         marker_color=widgets.RED, customdata=keys))
    widgets.layout(fig, height=300, barmode="group",
                   title="Normal hands by the top they ended with", yaxis_title="hands")
    return widgets.chart(fig, "fl_top_chart")


def by_top(current: Filters, counts: pd.DataFrame) -> None:
    frame = fantasyland.by_top_of(counts)
    point = top_chart(frame)
    row = widgets.table(frame, "fl_top_table", TOP_COLUMNS,
                        rates=("entry_rate_with_top", "share_of_normal_hands"))
    widgets.hands_behind(widgets.picked(point, row, frame, "top_class"), "fl_top_hands",
                         "normal hands with a {} top", fantasyland.top_hands, current,
                         hint="Select a row or click a bar to list those hands.")


def by_cards(current: Filters) -> None:
    frame = widgets.fetch(fantasyland.by_cards, current,
                          empty="No Fantasyland hands in these hands.")
    if frame is None:
        return
    row = widgets.table(frame, "fl_cards_table", CARDS_COLUMNS, rates=("stay_rate", "foul_rate"))
    widgets.hands_behind(widgets.picked(None, row, frame, "fl_cards"), "fl_cards_hands",
                         "Fantasyland hands with {} cards", fantasyland.cards_hands, current,
                         hint="Select a row to list those Fantasyland hands.")


def without_race(frame: pd.DataFrame) -> pd.DataFrame:
    """Periods' points per hand (and their trend) without OFC Double's race points when the
    periods mix race scoring with another system (race points are not added to others); as
    they are otherwise.

    >>> f = pd.DataFrame({"hands": [2, 4, 2], "race_hands": [0, 4, 1], "points": [4, 40, 9],
    ...                   "plain_points": [4, 0, 1], "points_per_hand": [2, 10, 4.5]})
    >>> without_race(f)[["points_per_hand", "trend_points_per_hand"]].values.tolist()
    [[2.0, 2.0], [nan, 2.0], [1.0, 1.5]]
    """
    race = frame["race_hands"]
    if not (race.gt(0).any() and race.lt(frame["hands"]).any()):
        return frame
    plain = frame["hands"] - race
    per_hand = (frame["plain_points"] / plain).where(plain > 0)
    trend = per_hand.rolling(sessions.TREND_PERIODS, min_periods=1).mean()
    return frame.assign(points_per_hand=per_hand, trend_points_per_hand=trend)


def chasing_chart(frame: pd.DataFrame, period: str) -> list[Any] | None:
    """Two panels over the same periods: the rates (foul %, FL entry %, from 0) above, the
    points per hand and their trend below, each on its own axis (never two scales over each
    other)."""
    keys = frame[["period"]].to_numpy()
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1,
                        row_heights=[0.5, 0.5])
    for column, name, colour in (("foul_rate", "foul %", widgets.RED),
                                 ("fl_entry_rate", "FL entry %", widgets.PURPLE)):
        fig.add_trace(go.Scatter(x=frame["period_no"], y=frame[column] * 100, name=name,
                                 mode="lines+markers", line={"color": colour},
                                 customdata=keys), row=1, col=1)
    fig.add_trace(go.Bar(x=frame["period_no"], y=frame["points_per_hand"], name="points per hand",
                         marker_color=widgets.sign_colours(frame["points_per_hand"].fillna(0)),
                         opacity=0.7, customdata=keys), row=2, col=1)
    fig.add_trace(go.Scatter(x=frame["period_no"], y=frame["trend_points_per_hand"],
                             name=f"points per hand, trend ({sessions.TREND_PERIODS} {period}s)",
                             mode="lines", line={"color": "#8c6d31", "width": 3},
                             customdata=keys), row=2, col=1)
    rates = [*(frame["foul_rate"] * 100), *(frame["fl_entry_rate"] * 100)]
    top = max([5.0, *[float(r) for r in rates if not pd.isna(r)]])
    widgets.layout(fig, height=440)
    fig.update_yaxes(title_text="%", range=[0, top * 1.1], row=1, col=1)
    fig.update_yaxes(title_text="points per hand", zeroline=True, row=2, col=1)
    fig.update_xaxes(title_text=f"{period} (in time order)", tickformat=",d", row=2, col=1)
    return widgets.chart(fig, "fl_chasing")


def chasing(current: Filters) -> None:
    period = st.segmented_control("Per", ["session", "week"], default="session",
                                  key="fl_chase_period") or "session"
    gap = float(sessions.DEFAULT_GAP_MINUTES)
    frame = db.query(sessions.period_table, current, period, gap)
    shown = without_race(frame)
    point = chasing_chart(shown, period)
    left_out = " Points per hand leave out OFC Double's race points (not added to other " \
        "points)." if shown is not frame else ""
    st.caption("When foul % and FL % rise together and points per hand fall, the chase costs "
               "more than Fantasyland brings. Click a point to list that "
               f"{period}'s hands.{left_out}")
    widgets.hands_behind(widgets.picked(point), "fl_chasing_hands", period + " {}",
                         sessions.period_hands, current, period, gap_minutes=gap)


def main() -> None:
    current = widgets.start("Fantasyland")
    if current is None:
        return
    counts = db.query(fantasyland.cells, current)
    s = fantasyland.summary_of(counts)
    if not s["hands"]:
        widgets.no_hands()
        return
    headline(s)
    if s["race_left_out"]:
        st.caption(f"Points per hand on this page leave out the race points of "
                   f"{s['race_left_out']:,} OFC Double hands (race points are not added to "
                   "other points; their money is on the Matches page).")
    st.subheader("Entry by top hand")
    by_top(current, counts)
    left, right = st.columns(2)
    with left:
        st.subheader("Fantasyland hands by cards dealt")
        by_cards(current)
    with right:
        st.subheader("What a Fantasyland hand is worth")
        worth(current, s)
    st.subheader("Does chasing pay?")
    chasing(current)


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
