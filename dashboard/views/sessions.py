"""Sessions: results session by session (or week, or day), and the hands of each.

Also the small pieces every analysis page shares (fouls, Fantasyland, opponents, variants,
matches): the empty states, number formats, reading a table or chart selection, and the list
of hands behind a number, whose rows open in Hand review.
"""

from __future__ import annotations

import html
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import db, filters
from dashboard.cards import md_text
from dashboard.queries import sessions
from dashboard.queries.common import Filters

# --------------------------------------------------------------------------------------------
# shared by the analysis pages


def pct(value: float | None) -> str:
    return "–" if value is None or pd.isna(value) else f"{100 * value:.1f}%"


def num(value: float | None, digits: int = 2) -> str:
    return "–" if value is None or pd.isna(value) else f"{value:+,.{digits}f}"


def start(title: str) -> Filters | None:
    """Title, then the filters; ``None`` (with a plain message) when there is nothing to show."""
    st.title(title)
    current = filters.current()
    if current.player is None:
        st.info("No hands yet. Import your logs on the Import page.")
        st.page_link("views/import_page.py", label="Go to Import", icon=":material/upload_file:")
        return None
    st.markdown(f"Results of **{md_text(current.player)}**")
    return current


def no_hands() -> None:
    st.info("No hands match these filters.")


def selected_row(event: Any) -> int | None:
    """Index of the row selected in an ``st.dataframe`` drawn with ``on_select="rerun"``."""
    try:
        rows = event["selection"]["rows"]
    except (KeyError, TypeError):
        return None
    return rows[0] if rows else None


def selected_point(event: Any) -> list[Any] | None:
    """``customdata`` of the clicked point of a plotly chart drawn with ``on_select="rerun"``."""
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError):
        return None
    for point in points:
        data = point.get("customdata")
        if data is not None:
            return list(data) if isinstance(data, list | tuple) else [data]
    return None


def plot_text(values: Any) -> list[str]:
    """Strings from files made safe for plotly labels and hover text (plotly reads a few HTML
    tags in them): entities, shown literally."""
    return [html.escape(str(v)) for v in values]


PCT = {"format": "%.1f%%"}


def percent_columns(frame: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """Rates (0..1) as percentages for display."""
    return frame.assign(**{c: frame[c] * 100 for c in columns if c in frame})


HAND_COLUMNS = {
    "hand_key": None,
    "played_at": st.column_config.DatetimeColumn("Played", format="YYYY-MM-DD HH:mm"),
    "source": st.column_config.TextColumn("Source"),
    "hand_id": st.column_config.TextColumn("Hand"),
    "variant": st.column_config.TextColumn("Variant"),
    "player": st.column_config.TextColumn("Player"),
    "position": st.column_config.NumberColumn("Position", help="0 acts first"),
    "fantasyland": st.column_config.CheckboxColumn("FL"),
    "fouled": st.column_config.CheckboxColumn("Fouled"),
    "royalties": st.column_config.NumberColumn("Royalties"),
    "fantasyland_next": st.column_config.NumberColumn("FL cards earned"),
    "points": st.column_config.NumberColumn("Points", format="%+.1f"),
}


def show_hands(frame: pd.DataFrame, key: str, what: str,
               limit: int = sessions.HAND_LIMIT) -> None:
    """The hands behind a number, as a table whose selected row opens in Hand review."""
    if frame.empty:
        st.info(f"No hands: {what}.")
        return
    more = " (the first ones)" if len(frame) >= limit else ""
    st.markdown(f"**{len(frame):,} hands{more}**: {md_text(what)}")
    event = st.dataframe(frame, key=key, on_select="rerun", selection_mode="single-row",
                         hide_index=True, width="stretch", column_config=HAND_COLUMNS)
    hand = filters.hand_from_table(event, frame)
    if hand is not None:
        filters.open_hand(hand)
    st.caption("Select a hand to open it in Hand review.")


def layout(fig: go.Figure, height: int = 360, **kwargs: Any) -> go.Figure:
    """The analysis pages' chart style: legend in a row under the title, clicks select."""
    top = 80 if "title" in kwargs else 40
    fig.update_layout(height=height, margin={"l": 10, "r": 10, "t": top, "b": 10},
                      legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
                      clickmode="event+select", **kwargs)
    return fig


# --------------------------------------------------------------------------------------------
# the Sessions page

PERIOD_LABELS = {"session": "Session", "week": "Week", "day": "Day"}


def chart(frame: pd.DataFrame, period: str) -> Any:
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=frame["period_no"], y=frame["points"], name="points",
        marker_color=["#2ca02c" if p >= 0 else "#d62728" for p in frame["points"]],
        customdata=frame[["period"]].to_numpy(), hovertext=plot_text(frame["period"]),
        hovertemplate="%{hovertext}<br>%{y:+,.1f} points<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=frame["period_no"], y=frame["cumulative_points"], name="running total",
        mode="lines+markers", yaxis="y2", customdata=frame[["period"]].to_numpy(),
        hovertext=plot_text(frame["period"]),
        hovertemplate="%{hovertext}<br>total %{y:+,.1f}<extra></extra>"))
    layout(fig, xaxis_title=f"{period} (in time order)", yaxis_title="points",
           yaxis2={"title": "running total", "overlaying": "y", "side": "right",
                   "tickmode": "auto", "showgrid": False})
    return st.plotly_chart(fig, key=f"sessions_chart_{period}", on_select="rerun",
                           selection_mode="points")


def table(frame: pd.DataFrame) -> Any:
    shown = percent_columns(frame, "foul_rate", "fl_entry_rate")
    return st.dataframe(
        shown, key="sessions_table", on_select="rerun", selection_mode="single-row",
        hide_index=True, width="stretch",
        column_order=("period_no", "period", "started", "ended", "hands", "points",
                      "points_per_hand", "foul_rate", "fl_entry_rate", "fl_hands", "money",
                      "currency", "cumulative_points"),
        column_config={
            "period_no": st.column_config.NumberColumn("#"),
            "period": st.column_config.TextColumn(
                "Key", help="id: the log's session id; gap: split by inactivity"),
            "started": st.column_config.DatetimeColumn("Started", format="YYYY-MM-DD HH:mm"),
            "ended": st.column_config.DatetimeColumn("Ended", format="YYYY-MM-DD HH:mm"),
            "hands": st.column_config.NumberColumn("Hands"),
            "points": st.column_config.NumberColumn("Points", format="%+.1f"),
            "points_per_hand": st.column_config.NumberColumn("Per hand", format="%+.2f"),
            "foul_rate": st.column_config.NumberColumn("Foul %", **PCT),
            "fl_entry_rate": st.column_config.NumberColumn("FL entry %", **PCT),
            "fl_hands": st.column_config.NumberColumn("FL hands"),
            "money": st.column_config.NumberColumn("Money", format="%+.2f"),
            "currency": st.column_config.TextColumn("Currency"),
            "cumulative_points": st.column_config.NumberColumn("Running total",
                                                               format="%+.1f"),
        })


def main() -> None:
    current = start("Sessions")
    if current is None:
        return
    left, right = st.columns([1, 2])
    period = left.segmented_control("Group by", list(PERIOD_LABELS), default="session",
                                    format_func=PERIOD_LABELS.get, key="sessions_period")
    period = period or "session"
    gap = right.number_input(
        "New session after a break of (minutes)", min_value=1, max_value=24 * 60,
        value=sessions.DEFAULT_GAP_MINUTES, step=5, key="sessions_gap",
        disabled=period != "session",
        help="Used only for hands whose log gives no session id.")
    frame = db.query(sessions.period_table, current, period, float(gap))
    if frame.empty:
        no_hands()
        return
    cols = st.columns(4)
    cols[0].metric(f"{PERIOD_LABELS[period]}s", f"{len(frame):,}")
    cols[1].metric("Winning", f"{int((frame['points'] > 0).sum()):,}")
    cols[2].metric("Best", num(frame["points"].max(), 1))
    cols[3].metric("Worst", num(frame["points"].min(), 1))
    point = selected_point(chart(frame, period))
    st.caption("Click a bar or point to list its hands.")
    event = table(frame)
    row = selected_row(event)
    key = point[0] if point else (frame.iloc[row]["period"] if row is not None else None)
    if key is not None:
        hands = db.query(sessions.period_hands, current, period, str(key),
                         gap_minutes=float(gap))
        show_hands(hands, "sessions_hands", f"{PERIOD_LABELS[period].lower()} {key}")
    else:
        st.caption("Select a row to list its hands.")


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
