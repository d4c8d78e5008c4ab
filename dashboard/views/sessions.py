"""Sessions: results session by session (or week, or day), and the hands of each; the chart
in play order or by date, in points or in money (:mod:`dashboard.graph_choice`)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import db, graph_choice, timefmt, widgets
from dashboard.queries import review, sessions

PERIOD_LABELS = {"session": "Session", "week": "Week", "day": "Day"}
LABEL_HELP = ("a session: its span on the clock chosen in the sidebar (the log's session, or "
              "hands split by a break); a week: its Monday")

COLUMNS = {
    "period_no": widgets.count("#"),
    "label": widgets.text("Period", help=LABEL_HELP),
    "period": None,
    "started": widgets.when("Started"),
    "ended": widgets.when("Ended"),
    "hands": widgets.count("Hands"),
    "points": widgets.signed("Points", 1),
    "points_per_hand": widgets.signed("Per hand"),
    "accuracy": widgets.count("Accuracy", format="%.1f", help="the mean accuracy of the "
                              "session's reviewed decisions (0-100; the Review page)"),
    "scoring": widgets.text("Scoring", help="race: OFC Double race points (not money, and not "
                            "added to other points)"),
    "foul_rate": widgets.percent("Foul %"),
    "fl_entry_rate": widgets.percent("FL entry %"),
    "fl_hands": widgets.count("FL hands"),
    **widgets.MONEY_COLUMNS,
    "cumulative_points": widgets.signed("Running total", 1),
    "race_hands": None,
}


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


def span_label(started: str, ended: str) -> str:
    """A session named by its span, from its start and end as :func:`timefmt.shown` writes
    them (the zone is in the Started column).

    >>> span_label("2026-03-14 20:05 +01:00", "2026-03-14 22:31 +01:00")
    '2026-03-14 20:05–22:31'
    >>> span_label("2026-03-14 23:50 UTC", "2026-03-15 00:40 UTC")
    '2026-03-14 23:50 – 2026-03-15 00:40'
    >>> span_label("–", "–")
    'undated'
    """
    if started == timefmt.NO_TIME:
        return "undated"
    first_day, first_time = started.split(" ")[:2]
    last_day, last_time = ended.split(" ")[:2]
    if first_day == last_day:
        return f"{first_day} {first_time}–{last_time}"
    return f"{first_day} {first_time} – {last_day} {last_time}"


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
    return frame.assign(label=[span_label(a, b) for a, b in zip(started, ended, strict=True)])


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


def chart(frame: pd.DataFrame, period: str, choice: graph_choice.GraphChoice) -> list[Any] | None:
    """Each period's result as a bar and the running total as a line (one per currency in
    money), over the period number (in time order) or the period's start."""
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
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=x, y=shown[value], name=value, marker_color=widgets.sign_colours(shown[value]),
        customdata=keys, hovertext=names,
        hovertemplate=f"%{{hovertext}}<br>%{{y:+,.{digits}f}} {value}<extra></extra>"))
    groups = shown.groupby("currency", sort=True) if money else [("", shown)]
    for currency, rows in groups:
        label = f"running total {currency}".strip() if money else "running total"
        fig.add_trace(go.Scatter(
            x=x.loc[rows.index], y=rows["running"], name=widgets.plot_text([label])[0],
            mode="lines+markers", yaxis="y2", customdata=rows[["period"]].to_numpy(),
            hovertext=widgets.plot_text(rows["label"]),
            hovertemplate=f"%{{hovertext}}<br>total %{{y:+,.{digits}f}}<extra></extra>"))
    left, right = widgets.zero_aligned(shown[value], shown["running"])
    axis = "start (date)" if choice.by == "date" else f"{period} (in time order)"
    widgets.layout(fig, xaxis_title=axis, yaxis_title=value,
             yaxis={"range": left}, yaxis2={"title": "running total", "overlaying": "y",
                                            "side": "right", "tickmode": "auto",
                                            "showgrid": False, "range": right})
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
    widgets.metric_row((f"{PERIOD_LABELS[period]}s", f"{len(frame):,}"),
                 ("Winning", f"{winning(frame):,}"),
                 ("Best", widgets.num(frame["points"].max(), 1)),
                 ("Worst", widgets.num(frame["points"].min(), 1)))
    point = chart(frame, period, graph_choice.choose("sessions_graph_choice"))
    st.caption("Click a bar or point to list its hands.")
    race_note(frame)
    columns = {**COLUMNS, "label": widgets.text(PERIOD_LABELS[period], help=LABEL_HELP)}
    row = widgets.table(frame, "sessions_table", columns,
                        order=tuple(k for k, v in columns.items() if v),
                        rates=("foul_rate", "fl_entry_rate"))
    key = widgets.picked(point, row, frame, "period")
    names = dict(zip(frame["period"], frame["label"], strict=True))
    what = f"{PERIOD_LABELS[period].lower()} {names.get(key, key)}"  # the label, not the key
    widgets.hands_behind(key, "sessions_hands", what.replace("{", "{{").replace("}", "}}"),
                         sessions.period_hands, current, period,
                         hint="Select a row to list its hands.", gap_minutes=float(gap))


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
