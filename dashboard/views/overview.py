"""Overview: the player's headline numbers, the cumulative graph (by hand or by date, in
points or in money), the sessions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import db, filters, graph_choice, hours, names, timefmt, widgets
from dashboard.queries import curve, graphs, overview, table_time

SESSION_COLUMNS = {
    "session": widgets.text("Session", width=250),
    "hands": widgets.count("Hands", width=60),
    "points": widgets.signed("Points", 0, width=70),
    "money": widgets.money("Money", help="points x stake; OFC Double: stake x cube of each match "
                      "won or lost", width=80),
    "per_hand": widgets.signed("Per hand", width=70),
    "foul_rate": widgets.percent("Foul %", width=60),
    "fl_hands": widgets.count("FL hands", width=60),
    "scoring": widgets.text("Scoring", help="race: OFC Double race points, not added to others",
                            width=60),
    "started": None,  # in the session's name
    "first_hand": None,
}


def money(s: overview.Summary) -> tuple[str, str, str]:
    """The money metric: each currency's sum (large sums without cents), hands with stakes."""
    if not s.money:
        return ("Money", "–", "no stakes in these logs")
    sums = " · ".join(f"{m:+,.{2 if abs(m) < 10_000 else 0}f} {c or '(no currency)'}"
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


def net_points(s: overview.Summary) -> tuple[str, str] | tuple[str, str, str]:
    """The net points tile, naming the race hands it leaves out (the Hands tile counts them).

    >>> net_points(overview.Summary(10, 4.0, 0.4, None, None, None, None, 0, None, (), 3))
    ('Net points', '+4', '3 race hands left out')
    """
    if not s.race_left_out:
        return ("Net points", widgets.num(s.net_points, 0))
    return ("Net points", widgets.num(s.net_points, 0),
            f"{s.race_left_out:,} race hands left out")


def metrics(s: overview.Summary, unit: str = "points") -> None:
    ci = interval(s)
    points = (net_points(s), ("Points per hand", widgets.num(s.per_hand), ci))
    widgets.metric_row(("Hands", f"{s.hands:,}"),
                       *((money(s), *points) if unit == "money" else (*points, money(s))))
    avg = "–" if s.avg_royalties is None else f"{s.avg_royalties:.2f}"
    widgets.metric_row(("Foul %", widgets.pct(s.foul_rate)),
                       ("Fantasyland entry %", widgets.pct(s.fl_entry)),
                       ("Fantasyland stay %", widgets.pct(s.fl_stay), f"{s.fl_hands:,} FL hands"),
                       ("Average royalties", avg))
    points_note(s)


def time_row(current: filters.Filters, s: overview.Summary, unit: str) -> None:
    """Hours played, sittings, points and money an hour (:mod:`dashboard.hours`)."""
    t = db.query(table_time.totals, current)
    widgets.metric_row(*hours.tiles(t, s.net_points, s.money, unit))


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


PER_GROUP = (
    f"Past {curve.GROUPED_FROM:,} hands the graph is drawn per session: each session's hands "
    "of one hour (and variant, ruleset and stake) follow the ones before, and the graph shows "
    "its first and last hand and where its running points were lowest and highest. The "
    "hand numbers count the hands in that order.")


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
    if frame.attrs.get("per_group"):
        st.caption(PER_GROUP)
    if frame["expected"].notna().any():
        st.caption(LUCK)


NO_DATES = "No hand in these filters has a date: the graph by date needs the logs' times."
NO_STAKES = ("No hand in these filters has a stake: a graph in money needs the logs' stakes "
             "(money per point).")


def money_label(currency: str) -> str:
    """A currency as a line of the money graph names it (the log may name none).

    >>> money_label("EUR"), money_label("")
    ('EUR', 'no currency')
    """
    return currency or "no currency"


def day_axis(fig: go.Figure, days: int) -> None:
    """A date axis of whole days: a few days get one tick a day, as a date (never the
    ``23:59:59.9995`` plotly writes between two days)."""
    fig.update_xaxes(tickformat="%Y-%m-%d", dtick=86_400_000 if days <= 14 else None)


def one_day(current: filters.Filters, day: str) -> None:
    """The running points of one day's hands over the hour they were played (a graph by date
    of a single day would be one dot)."""
    frame = db.query(overview.cumulative, current)
    frame = frame[frame["played_at"].notna()]
    x = graph_choice.local_times(frame["played_at"], frame["utc_offset"])
    fig = go.Figure(go.Scatter(
        x=x, y=frame["total"], name="Total", mode="lines+markers", marker={"size": 4},
        line={"color": LINES[0][2], "width": 2},
        customdata=np.column_stack([frame["hand_key"], frame["points"]]),
        hovertemplate=("%{x|%H:%M}: this hand %{customdata[1]:+,.0f}<br>total "
                       "%{y:+,.0f} points<extra></extra>")))
    widgets.layout(fig, height=420, top=30, xaxis_title=f"time of day, {day}",
                   yaxis_title="points (cumulative)", hovermode="closest")
    fig.update_xaxes(tickformat="%H:%M")
    widgets.chart_opens_hand(fig, "overview_graph_hour", "All these hands were played on one "
                             "day: the graph reads in hours. Click a point to open that hand "
                             "in Hand review.")


def one_day_money(current: filters.Filters, day: str) -> None:
    """The running money of each currency over one day's hours."""
    frame = db.query(graphs.money_by_hand, current)
    frame = frame[frame["played_at"].notna()]
    if frame.empty:
        st.info(NO_STAKES)
        return
    fig = go.Figure()
    for currency, rows in frame.groupby("currency", sort=True):
        name = money_label(str(currency))
        fig.add_trace(go.Scatter(
            x=graph_choice.local_times(rows["played_at"], rows["utc_offset"]), y=rows["total"],
            name=widgets.plot_text([name])[0], mode="lines+markers", marker={"size": 4},
            customdata=np.column_stack([rows["hand_key"], rows["money"]]),
            hovertemplate=("%{x|%H:%M}: this hand %{customdata[1]:+,.2f}<br>total "
                           "%{y:+,.2f} " + widgets.plot_text([name])[0] + "<extra></extra>")))
    widgets.layout(fig, height=420, top=30, xaxis_title=f"time of day, {day}",
                   yaxis_title="money (cumulative)", hovermode="closest")
    fig.update_xaxes(tickformat="%H:%M")
    widgets.chart_opens_hand(fig, "overview_money_hour", "One line per currency; all these "
                             "hands were played on one day: the graph reads in hours. Click a "
                             "point to open that hand in Hand review.")


def graph_by_date(current: filters.Filters) -> None:
    """The running points total at the end of each day; a click opens the day's last hand."""
    frame = graphs.points_by_day(db.query(graphs.by_day, current, graph_choice.day_zone()))
    if frame.empty:
        st.info(NO_DATES)
        return
    if len(frame) == 1:
        one_day(current, str(frame["day"].iloc[0])[:10])
        return
    fig = go.Figure(go.Scatter(
        x=frame["day"], y=frame["total"], name="Total", mode="lines+markers",
        marker={"size": 5}, line={"color": LINES[0][2], "width": 2},
        customdata=np.column_stack([frame["last_hand"], frame["points"], frame["hands"]]),
        hovertemplate=("%{x|%Y-%m-%d}: %{customdata[1]:+,.0f} points over %{customdata[2]:,} "
                       "hands<br>total %{y:+,.0f} points<extra></extra>")))
    widgets.layout(fig, height=420, top=30, xaxis_title="day", yaxis_title="points (cumulative)",
             hovermode="closest")
    day_axis(fig, len(frame))
    widgets.chart_opens_hand(fig, "overview_graph_date", "Click a day to open its last hand in "
                       "Hand review.")


def money_by_date(current: filters.Filters) -> None:
    """The running money of each currency at the end of each day, with the day's stakes."""
    days = db.query(graphs.by_day, current, graph_choice.day_zone())
    frame = graphs.money_by_day(days)
    if frame.empty:
        st.info(NO_DATES if days.empty else NO_STAKES)
        return
    if frame["day"].nunique() == 1:
        one_day_money(current, str(frame["day"].iloc[0])[:10])
        return
    fig = go.Figure()
    for currency, rows in frame.groupby("currency", sort=True):
        name = money_label(str(currency))
        fig.add_trace(go.Scatter(
            x=rows["day"], y=rows["total"], name=name, mode="lines+markers", marker={"size": 5},
            customdata=np.column_stack([rows["last_hand"], rows["money"], rows["hands"],
                                        widgets.plot_text(rows["stakes"])]),
            hovertemplate=("%{x|%Y-%m-%d}: %{customdata[1]:+,.2f} " + widgets.plot_text([name])[0] +
                           " over %{customdata[2]:,} hands (stake %{customdata[3]})<br>total "
                           "%{y:+,.2f}<extra></extra>")))
    widgets.layout(fig, height=420, top=30, xaxis_title="day", yaxis_title="money (cumulative)",
             hovermode="closest")
    day_axis(fig, frame["day"].nunique())
    widgets.chart_opens_hand(fig, "overview_money_date", "One line per currency (points x stake; "
                       "OFC Double: stake x cube of each match). Click a day to open its last "
                       "hand in Hand review.")


def money_by_hand(current: filters.Filters) -> None:
    """The running money of each currency, hand by hand (hands with a stake only)."""
    frame = db.query(graphs.money_by_hand, current)
    if frame.empty:
        st.info(NO_STAKES)
        return
    fig = go.Figure()
    for currency, rows in frame.groupby("currency", sort=True):
        name = money_label(str(currency))
        played = timefmt.shown(rows["played_at"], rows["utc_offset"], timefmt.chosen_zone())
        fig.add_trace(go.Scatter(
            x=rows["n"], y=rows["total"], name=name, mode="lines+markers", marker={"size": 4},
            customdata=np.column_stack([rows["hand_key"], played.replace(
                timefmt.NO_TIME, "undated"), rows["money"], rows["stake"]]),
            hovertemplate=("hand %{x:,} · %{customdata[1]}<br>this hand %{customdata[2]:+,.2f} "
                           + widgets.plot_text([name])[0] + " at stake %{customdata[3]}<br>total "
                           "%{y:+,.2f}<extra></extra>")))
    widgets.layout(fig, height=420, top=30, xaxis_title="hands played with a stake",
             yaxis_title="money (cumulative)", hovermode="closest")
    fig.update_xaxes(tickformat=",d")
    widgets.chart_opens_hand(fig, "overview_money_graph", "One line per currency (points x stake; "
                       "OFC Double: stake x cube of each match). Click a point to open that "
                       "hand in Hand review.")


def results_graph(current: filters.Filters) -> None:
    """The cumulative graph as the user chose it (by hand or date, in points or money), under
    its heading (drawn first, named once the choice is known)."""
    heading = st.empty()
    choice = graph_choice.choose("overview_graph_choice")
    heading.subheader(f"Cumulative {choice.unit}")
    if choice.unit == "money":
        (money_by_date if choice.by == "date" else money_by_hand)(current)
    elif choice.by == "date":
        graph_by_date(current)
    else:
        graph(current)


def session_names(frame: pd.DataFrame) -> pd.DataFrame:
    """The sessions named as on the Sessions page: the table the log names (never an id),
    and the span on the clock chosen in the sidebar (:func:`dashboard.names.session`)."""
    zone = timefmt.chosen_zone()
    offsets = frame["utc_offset"] if "utc_offset" in frame else None
    started = timefmt.shown(frame["started"], offsets, zone)
    ended = timefmt.shown(frame["ended"], offsets, zone)
    return frame.assign(session=[
        names.session(None if s == "(none)" else s, names.span_label(a, b))
        for s, a, b in zip(frame["session"], started, ended, strict=True)]).drop(
            columns=["ended"])


def sessions_table(current: filters.Filters) -> None:
    frame = session_names(db.query(overview.sessions, current))
    widgets.hand_table(frame, "overview_sessions", SESSION_COLUMNS,
                       order=tuple(k for k, v in SESSION_COLUMNS.items() if v),
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
    unit = graph_choice.current("overview_graph_choice").unit
    metrics(s, unit)
    time_row(current, s, unit)
    results_graph(current)
    st.subheader("Sessions")
    sessions_table(current)


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
