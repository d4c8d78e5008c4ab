"""Sessions: results session by session (or week, or day), and the hands of each; the chart
in play order or by date, in points or in money (:mod:`dashboard.graph_choice`)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

from dashboard import db, graph_choice, hours, names, timefmt, widgets
from dashboard.queries import review, sessions, table_time

PERIOD_LABELS = {"session": "Session", "week": "Week", "day": "Day"}
LABEL_HELP = ("a session: its span on the clock chosen in the sidebar (the log's session, or "
              "hands split by a break); a week: its Monday")

COLUMNS = {
    "period_no": widgets.count("#", width=40),
    "label": widgets.text("Period", help=LABEL_HELP, width=260),
    "period": None,
    "hands": widgets.count("Hands", width=60),
    "hours": hours.HOUR_COLUMNS["hours"],
    "points": widgets.signed("Points", 1, width=70),
    "money": widgets.MONEY_COLUMNS["money"],
    "currency": widgets.text("Currency", width=70),
    "points_per_hand": widgets.signed("Per hand", width=70),
    "accuracy": widgets.count("Accuracy", format="%.1f", help="the mean accuracy of the "
                              "session's reviewed decisions (0-100; the Review page)",
                              width=75),
    "per_hour": hours.HOUR_COLUMNS["per_hour"],
    "money_per_hour": hours.HOUR_COLUMNS["money_per_hour"],
    "hands_per_hour": hours.HOUR_COLUMNS["hands_per_hour"],
    "sitting": hours.HOUR_COLUMNS["sitting"],
    "foul_rate": widgets.percent("Foul %", width=60),
    "fl_entry_rate": widgets.percent("FL entry %", width=70),
    "fl_hands": widgets.count("FL hands", width=60),
    "scoring": widgets.text("Scoring", help="race: OFC Double race points (not money, and not "
                            "added to other points)", width=70),
    "cumulative_points": widgets.signed("Running total", 1, width=95),
    "started": widgets.when("Started", width=135),
    "ended": widgets.when("Ended", width=135),
    "race_hands": None,
}
# The columns shown first (775 px with the selection boxes: readable at 1,280 px); the others
# behind "Every column".
MAIN = ("period_no", "label", "hands", "hours", "points", "money", "currency", "per_hour")


def winning(frame: pd.DataFrame) -> int:
    """Periods won: by money where a period is all OFC Double (race points are not a result
    of their own), else by points."""
    race = frame["race_hands"] == frame["hands"]
    won = frame["points"].gt(0).where(~race, frame["money"].gt(0))
    return int(won.sum())


def race_note(frame: pd.DataFrame) -> None:
    race = int(frame["race_hands"].sum())
    if race and race < int(frame["hands"].sum()):
        st.caption(f"The running total leaves out the race points of {race:,} OFC Double "
                   "hands (race points are not added to other points); their money is "
                   "stake x cube of each match.")


span_label = names.span_label


def labelled(frame: pd.DataFrame, period: str) -> pd.DataFrame:
    """``frame`` with a ``label`` per period a reader recognises: a session's span on the
    clock chosen in the sidebar (never its key, ``id:7cd32b01-...``), ``week of`` a date, a
    day."""
    if period != "session":
        prefix = "week of " if period == "week" else ""
        return frame.assign(label=[k if k == "undated" else prefix + k for k in frame["period"]])
    zone = timefmt.chosen_zone()
    offsets = frame[timefmt.OFFSET] if timefmt.OFFSET in frame else None
    started = timefmt.shown(frame["started"], offsets, zone)
    ended = timefmt.shown(frame["ended"], offsets, zone)
    ids = frame["period"].str.removeprefix("id:")
    return frame.assign(label=[
        names.session(i if p.startswith("id:") else None, span_label(a, b))
        for i, p, a, b in zip(ids, frame["period"], started, ended, strict=True)])


def money_totals(frame: pd.DataFrame) -> pd.DataFrame:
    """The periods with money, with ``running`` money per currency (in time order).

    >>> frame = pd.DataFrame({"money": [1.0, None, 2.0, -4.0],
    ...                       "currency": ["EUR", None, "EUR", "USD"]})
    >>> money_totals(frame)[["currency", "running"]].values.tolist()
    [['EUR', 1.0], ['EUR', 3.0], ['USD', -4.0]]
    """
    staked = frame[frame["money"].notna()].copy()
    staked["currency"] = staked["currency"].fillna("")
    staked["running"] = staked.groupby("currency")["money"].cumsum()
    return staked


def bar_width(x: pd.Series) -> float | None:
    """Bars on a date axis (in ms), 80% of the closest two periods' distance (at most a
    day, at least ten minutes), so they are bars and not hairlines; ``None`` on a numbered
    axis (plotly's own width).

    >>> t = pd.Series(pd.to_datetime(["2026-11-01 10:00", "2026-11-01 14:00"]))
    >>> bar_width(t) / 3_600_000, bar_width(pd.Series([1, 2]))
    (3.2, None)
    """
    if not pd.api.types.is_datetime64_any_dtype(x):
        return None
    gaps = x.sort_values().diff().dropna()
    gaps = gaps[gaps > pd.Timedelta(0)]
    spacing = gaps.min().total_seconds() * 1000 if len(gaps) else 3_600_000
    return float(min(max(0.8 * spacing, 600_000), 86_400_000))


def chart(frame: pd.DataFrame, period: str, choice: graph_choice.GraphChoice) -> list[Any] | None:
    """Each period's result as a bar (top panel) and the running total as a line (bottom
    panel, one line per currency in money), over the period number (in time order) or the
    period's start: two panels of one x axis, each with its own scale."""
    money = choice.unit == "money"
    shown = money_totals(frame) if money else frame.assign(running=frame["cumulative_points"])
    if shown.empty:
        st.info("No period in these filters has a stake: the chart in money needs the logs' "
                "stakes (money per point).")
        return None
    value = "money" if money else "points"
    x = (graph_choice.local_times(shown["started"], shown["utc_offset"])
         if choice.by == "date" else shown["period_no"])
    keys, names = shown[["period"]].to_numpy(), widgets.plot_text(shown["label"])
    digits = 2 if money else 1
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        row_heights=[0.55, 0.45])
    fig.add_trace(go.Bar(
        x=x, y=shown[value], name=f"{value} of the {period}", width=bar_width(x),
        marker_color=widgets.sign_colours(shown[value]), customdata=keys, hovertext=names,
        hovertemplate=f"%{{hovertext}}<br>%{{y:+,.{digits}f}} {value}<extra></extra>"),
        row=1, col=1)
    groups = shown.groupby("currency", sort=True) if money else [("", shown)]
    for currency, rows in groups:
        label = f"running total {currency}".strip() if money else "running total"
        fig.add_trace(go.Scatter(
            x=x.loc[rows.index], y=rows["running"], name=widgets.plot_text([label])[0],
            mode="lines+markers", customdata=rows[["period"]].to_numpy(),
            hovertext=widgets.plot_text(rows["label"]),
            hovertemplate=f"%{{hovertext}}<br>total %{{y:+,.{digits}f}}<extra></extra>"),
            row=2, col=1)
    axis = "start (date)" if choice.by == "date" else f"{period} (in time order)"
    widgets.layout(fig, height=460)
    fig.update_yaxes(title_text=f"{value} per {period}", row=1, col=1)
    fig.update_yaxes(title_text="running total", row=2, col=1)
    fig.update_xaxes(title_text=axis, row=2, col=1)
    if choice.by != "date":
        fig.update_xaxes(tickformat=",d")
    return widgets.chart(fig, f"sessions_chart_{period}")


def with_accuracy(frame: pd.DataFrame, current: Any, period: str) -> pd.DataFrame:
    """The sessions with the accuracy of their reviewed decisions (none for weeks and days,
    and for sessions with no reviewed decision)."""
    if period != "session":
        return frame.assign(accuracy=float("nan"))
    found = db.query(review.accuracy_by_session, current)
    by_session = dict(zip(found["session_id"].astype(str), found["accuracy"], strict=True))
    return frame.assign(accuracy=[by_session.get(str(p).removeprefix("id:"), float("nan"))
                                  for p in frame["period"]])


def best_worst(frame: pd.DataFrame, unit: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """The Best and Worst tiles, in points or in money (the Points/Money choice; a money
    figure names its currency).

    >>> f = pd.DataFrame({"points": [3.0, -1.0], "money": [1.5, None],
    ...                   "currency": ["EUR", None]})
    >>> best_worst(f, "money")
    (('Best', '+1.50 EUR'), ('Worst', '+1.50 EUR'))
    >>> best_worst(f, "points")
    (('Best', '+3.0'), ('Worst', '-1.0'))
    """
    if unit != "money":
        return (("Best", widgets.num(frame["points"].max(), 1)),
                ("Worst", widgets.num(frame["points"].min(), 1)))
    staked = frame[frame["money"].notna()]
    if staked.empty:
        return ("Best", widgets.MISSING), ("Worst", widgets.MISSING)

    ordered = staked.sort_values("money", kind="stable").reset_index(drop=True)

    def one(at: int) -> str:
        currency = ordered["currency"].iloc[at]
        unit = currency if isinstance(currency, str) else ""
        return f"{float(ordered['money'].iloc[at]):+,.2f} {unit}".strip()

    return ("Best", one(len(ordered) - 1)), ("Worst", one(0))


def time_tiles(current: Any, frame: pd.DataFrame, unit: str) -> None:
    """Hours played, sittings, points (or money) an hour over the periods shown."""
    t = db.query(table_time.totals, current)
    staked = frame[frame["money"].notna()]
    money = tuple((str(c) if isinstance(c, str) else "", float(m), 0) for c, m in
                  staked.assign(currency=staked["currency"].fillna("")).groupby(
                      "currency")["money"].sum().items())
    points = float(frame["plain_points"].sum() if "plain_points" in frame
                   else frame["points"].sum())
    race = int(frame["race_hands"].sum())
    if not (0 < race < int(frame["hands"].sum())):
        points = float(frame["points"].sum())
    widgets.metric_row(*hours.tiles(t, points, money, unit))


def main() -> None:
    current = widgets.start("Sessions")
    if current is None:
        return
    left, right = st.columns([1, 2])
    period = left.segmented_control("Group by", list(PERIOD_LABELS), default="session",
                                    format_func=PERIOD_LABELS.__getitem__,
                                    key="sessions_period")
    period = period or "session"
    gap = right.number_input(
        "New session after a break of (minutes)", min_value=1, max_value=24 * 60,
        value=sessions.DEFAULT_GAP_MINUTES, step=5, key="sessions_gap",
        disabled=period != "session",
        help="Used only for hands whose log gives no session id.")
    frame = db.query(sessions.period_table, current, period, float(gap))
    if frame.empty:
        widgets.no_hands()
        return
    frame = with_accuracy(labelled(frame, period), current, period)
    frame = hours.with_hours(frame, db.query(table_time.by_period, current, period, float(gap)))
    unit = graph_choice.current("sessions_graph_choice").unit
    widgets.metric_row((f"{PERIOD_LABELS[period]}s", f"{len(frame):,}"),
                       ("Winning", f"{winning(frame):,}"), *best_worst(frame, unit))
    time_tiles(current, frame, unit)
    point = chart(frame, period, graph_choice.choose("sessions_graph_choice"))
    st.caption("Click a bar or point to list its hands.")
    race_note(frame)
    columns = {**COLUMNS, "label": widgets.text(PERIOD_LABELS[period], help=LABEL_HELP,
                                                width=260)}
    row = widgets.table(frame, "sessions_table", columns,
                        order=tuple(k for k, v in columns.items() if v),
                        rates=("foul_rate", "fl_entry_rate"), main=MAIN)
    key = widgets.picked(point, row, frame, "period")
    names = dict(zip(frame["period"], frame["label"], strict=True))
    what = f"{PERIOD_LABELS[period].lower()} {names.get(key, key)}"  # the label, not the key
    widgets.hands_behind(key, "sessions_hands", what.replace("{", "{{").replace("}", "}}"),
                         sessions.period_hands, current, period,
                         hint="Select a row to list its hands.", gap_minutes=float(gap))


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
