"""Overview: the player's headline numbers, the cumulative points graph, the sessions."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from dashboard import db, filters, timefmt, widgets
from dashboard.queries import overview

SESSION_COLUMNS = {
    "session": widgets.text("Session"),
    "started": widgets.when("Started"),
    "hands": widgets.count("Hands"),
    "points": widgets.signed("Points", 0),
    "per_hand": widgets.signed("Per hand"),
    "scoring": widgets.text("Scoring", help="race: OFC Double race points, not added to others"),
    "foul_rate": widgets.percent("Foul %"),
    "fl_hands": widgets.count("FL hands"),
    "money": widgets.money("Money", help="points x stake; OFC Double: stake x cube of each match "
                      "won or lost"),
    "first_hand": None,
}


def money(s: overview.Summary) -> tuple[str, str, str]:
    """The money metric: each currency's sum (large sums without cents), hands with stakes."""
    if not s.money:
        return ("Money", "–", "no stakes in these logs")
    sums = " · ".join(f"{m:+,.{2 if abs(m) < 10_000 else 0}f} {c}".strip()
                      for c, m, _ in s.money)
    return ("Money", sums, f"{sum(n for _, _, n in s.money):,} hands with stakes")


# Below this many hands the normal approximation of the 95% interval means little (two equal
# results would give ± 0.00): the metric says so instead. (A comment, not a docstring: Streamlit
# would draw a bare string of a page script.)
MIN_HANDS_FOR_INTERVAL = 30


def interval(s: overview.Summary) -> str:
    """The caption under points per hand.

    >>> interval(overview.Summary(2, 4.0, 2.0, 0.0, None, None, None, 0, None, ()))
    'no 95% interval under 30 hands'
    """
    points_hands = s.hands - s.race_left_out
    if s.ci95 is None or points_hands < MIN_HANDS_FOR_INTERVAL:
        return f"no 95% interval under {MIN_HANDS_FOR_INTERVAL} hands"
    return f"± {s.ci95:.2f} (95% CI)"


def metrics(s: overview.Summary) -> None:
    ci = interval(s)
    widgets.metric_row(("Hands", f"{s.hands:,}"), ("Net points", widgets.num(s.net_points, 0)),
                       ("Points per hand", widgets.num(s.per_hand), ci), money(s))
    avg = "–" if s.avg_royalties is None else f"{s.avg_royalties:.2f}"
    widgets.metric_row(("Foul %", widgets.pct(s.foul_rate)),
                       ("Fantasyland entry %", widgets.pct(s.fl_entry)),
                       ("Fantasyland stay %", widgets.pct(s.fl_stay), f"{s.fl_hands:,} FL hands"),
                       ("Average royalties", avg))
    points_note(s)


def points_note(s: overview.Summary) -> None:
    """Say which points the totals hold when the hands mix scoring systems."""
    if len(s.by_scoring) < 2:
        return
    parts = " · ".join(f"{system}: {widgets.num(points, 0)} over {hands:,} hands"
                       for system, hands, points in s.by_scoring)
    left_out = (f" The {s.race_left_out:,} OFC Double hands (race points) are left out of the "
                "net points, points per hand and the graph; their money is counted from "
                "their matches (stake x cube)." if s.race_left_out else "")
    st.caption(f"Points by scoring system: {parts}.{left_out}")


LINES = (
    ("total", "Total", "#1f77b4"),
    ("without_fl", "Without Fantasyland hands", "#9467bd"),
    ("row_points", "Rows and bonuses", "#2ca02c"),
    ("royalties", "Royalties", "#ff7f0e"),
)


LUCK = (
    "**Expected (luck line)**: the same running total, with each hand reviewed by `ofc review` "
    "counted at the expected points of your position after your first placement (your first "
    "five as played, everything after it played out by rollouts) instead of what it scored. "
    "The gap between the total and the expected line is the cards' luck; the points your "
    "decisions cost are the EV lost on the Review page.")


def graph(current: filters.Filters) -> None:
    frame = db.query(overview.cumulative, current)
    played = timefmt.shown(frame["played_at"], frame["utc_offset"], timefmt.chosen_zone()).replace(
        timefmt.NO_TIME, "undated")
    hover = np.column_stack([frame["hand_key"].to_numpy(), played.to_numpy(),
                             frame["points"].to_numpy()])
    fig = go.Figure()
    for column, name, colour in LINES:
        total = column == "total"  # markers (the click targets) on the total line only
        fig.add_trace(go.Scatter(
            x=frame["n"], y=frame[column], name=name, mode="lines+markers" if total else "lines",
            marker={"size": 4}, line={"color": colour, "width": 2 if total else 1.4},
            customdata=hover,
            hovertemplate=("hand %{x:,} · %{customdata[1]}<br>this hand %{customdata[2]:+,.0f}"
                           "<br>" + name + " so far %{y:+,.0f} points<extra></extra>")))
    if frame["expected"].notna().any():
        fig.add_trace(go.Scatter(
            x=frame["n"], y=frame["expected"], name="Expected (luck line)", mode="lines",
            line={"color": "#7f7f7f", "width": 1.6, "dash": "dash"},
            hovertemplate="hand %{x}<br>%{y:+,.0f} expected<extra></extra>"))
    widgets.layout(fig, height=420, top=30, xaxis_title="hands played",
                   yaxis_title="points (cumulative)", legend={"orientation": "h", "y": 1.08},
                   hovermode="closest")
    # hand numbers are whole: no 1.2, 1.4 ... ticks on a short history
    fig.update_xaxes(tickformat=",d", dtick=None if len(frame) > 10 else 1)
    widgets.chart_opens_hand(fig, "overview_graph",
                             "Click a point to open that hand in Hand review.")
    if frame["expected"].notna().any():
        st.caption(LUCK)


def sessions_table(current: filters.Filters) -> None:
    widgets.hand_table(db.query(overview.sessions, current), "overview_sessions", SESSION_COLUMNS,
                       column="first_hand", rates=("foul_rate",),
                       note="Select a session to open its first hand in Hand review.")


def main() -> None:
    current = widgets.start("Overview")
    if current is None:
        return
    s = db.query(overview.summary, current)
    if s.hands == 0:
        widgets.no_hands()
        return
    metrics(s)
    st.subheader("Cumulative points")
    graph(current)
    st.subheader("Sessions")
    sessions_table(current)


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
