"""Overview: the player's headline numbers, the cumulative points graph, the sessions."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from dashboard import db, filters
from dashboard.cards import md_text
from dashboard.queries import overview


def pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def num(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:+,.{digits}f}"


def metrics(s: overview.Summary) -> None:
    cols = st.columns(4)
    cols[0].metric("Hands", f"{s.hands:,}")
    cols[1].metric("Net points", num(s.net_points, 0))
    ci = f"± {s.ci95:.2f} (95% CI)" if s.ci95 is not None else "no interval under 2 hands"
    cols[2].metric("Points per hand", num(s.per_hand), ci, delta_color="off",
                   delta_arrow="off")
    if s.money:
        money = " · ".join(f"{m:+,.{2 if abs(m) < 10_000 else 0}f} {c}".strip()
                           for c, m, _ in s.money)
        staked = sum(n for _, _, n in s.money)
        cols[3].metric("Money", money, f"{staked:,} hands with stakes", delta_color="off",
                       delta_arrow="off")
    else:
        cols[3].metric("Money", "–", "no stakes in these logs", delta_color="off",
                       delta_arrow="off")
    cols = st.columns(4)
    cols[0].metric("Foul %", pct(s.foul_rate))
    cols[1].metric("Fantasyland entry %", pct(s.fl_entry))
    cols[2].metric("Fantasyland stay %", pct(s.fl_stay), f"{s.fl_hands:,} FL hands",
                   delta_color="off", delta_arrow="off")
    avg = "–" if s.avg_royalties is None else f"{s.avg_royalties:.2f}"
    cols[3].metric("Average royalties", avg)


LINES = (
    ("total", "Total", "#1f77b4"),
    ("without_fl", "Without Fantasyland hands", "#9467bd"),
    ("row_points", "Rows and bonuses", "#2ca02c"),
    ("royalties", "Royalties", "#ff7f0e"),
)


def graph(current: filters.Filters) -> None:
    frame = db.query(overview.cumulative, current)
    fig = go.Figure()
    for column, name, colour in LINES:
        total = column == "total"  # markers (the click targets) on the total line only
        fig.add_trace(go.Scatter(
            x=frame["n"], y=frame[column], name=name, mode="lines+markers" if total else "lines",
            marker={"size": 4}, line={"color": colour, "width": 2 if total else 1.4},
            customdata=frame["hand_key"].to_numpy(),
            hovertemplate="hand %{x}<br>%{y:+,.0f} points<extra>" + name + "</extra>"))
    fig.update_layout(height=420, margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      xaxis_title="hands played", yaxis_title="points (cumulative)",
                      legend={"orientation": "h", "y": 1.08}, hovermode="closest",
                      clickmode="event+select")
    event = st.plotly_chart(fig, key="overview_graph", on_select="rerun",
                            selection_mode="points")
    hand = filters.hand_from_chart(event)
    if hand is not None:
        filters.open_hand(hand)
    st.caption("Click a point to open that hand in Hand review.")


def sessions_table(current: filters.Filters) -> None:
    frame = db.query(overview.sessions, current)
    shown = frame.assign(foul_rate=frame["foul_rate"] * 100).drop(columns=["first_hand"])
    event = st.dataframe(
        shown, key="overview_sessions", on_select="rerun", selection_mode="single-row",
        hide_index=True, width="stretch",
        column_config={
            "session": st.column_config.TextColumn("Session"),
            "started": st.column_config.DatetimeColumn("Started", format="YYYY-MM-DD HH:mm"),
            "hands": st.column_config.NumberColumn("Hands"),
            "points": st.column_config.NumberColumn("Points", format="%+.0f"),
            "per_hand": st.column_config.NumberColumn("Per hand", format="%+.2f"),
            "foul_rate": st.column_config.NumberColumn("Foul %", format="%.1f%%"),
            "fl_hands": st.column_config.NumberColumn("FL hands"),
            "money": st.column_config.NumberColumn("Money", format="%+.2f"),
        })
    hand = filters.hand_from_table(event, frame, "first_hand")
    if hand is not None:
        filters.open_hand(hand)
    st.caption("Select a session to open its first hand in Hand review.")


def main() -> None:
    current = filters.current()
    st.title("Overview")
    if current.player is None:
        st.info("No hands yet. Import your logs on the Import page.")
        st.page_link("views/import_page.py", label="Go to Import", icon=":material/upload_file:")
        return
    st.markdown(f"Results of **{md_text(current.player)}**")
    s = db.query(overview.summary, current)
    if s.hands == 0:
        st.info("No hands match these filters.")
        return
    metrics(s)
    st.subheader("Cumulative points")
    graph(current)
    st.subheader("Sessions")
    sessions_table(current)


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
