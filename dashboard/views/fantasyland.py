"""Fantasyland: entry and stay rates, by top hand and by cards dealt, what an FL hand is worth,
and whether chasing it pays: foul rate vs FL rate vs points per hand, session by session."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from dashboard import db
from dashboard.queries import fantasyland, sessions
from dashboard.views.sessions import (
    PCT,
    layout,
    no_hands,
    num,
    pct,
    percent_columns,
    selected_point,
    selected_row,
    show_hands,
    start,
)


def headline(s: dict) -> None:
    cols = st.columns(4)
    cols[0].metric("FL entry %", pct(s["entry_rate"]),
                   f"{s['entries']:,} of {s['normal_hands']:,} normal hands",
                   delta_color="off", delta_arrow="off")
    cols[1].metric("FL stay %", pct(s["stay_rate"]),
                   f"{s['stays']:,} of {s['fl_hands']:,} FL hands",
                   delta_color="off", delta_arrow="off")
    cols[2].metric("FL hands per 100 hands", f"{s['fl_per_100']:.1f}")
    cols[3].metric("Foul %", pct(s["foul_rate"]))


def worth(current, s: dict) -> None:  # type: ignore[no-untyped-def]
    kinds = [("Fantasyland", s["points_per_fl_hand"], s["fl_hands"]),
             ("normal", s["points_per_normal_hand"], s["normal_hands"])]
    fig = go.Figure(go.Bar(
        x=[k for k, _, _ in kinds], y=[v if v is not None else 0 for _, v, _ in kinds],
        text=[f"{num(v)} over {n:,} hands" for _, v, n in kinds],
        customdata=[[k] for k, _, _ in kinds], marker_color=["#9467bd", "#7f7f7f"],
        hovertemplate="%{x}: %{text}<extra></extra>"))
    layout(fig, height=300, title="Points per hand", yaxis_title="points per hand")
    point = selected_point(st.plotly_chart(fig, key="fl_worth", on_select="rerun",
                                           selection_mode="points"))
    if point:
        hands = db.query(fantasyland.kind_hands, current, str(point[0]))
        show_hands(hands, "fl_worth_hands", f"{point[0]} hands")
    else:
        st.caption("Click a bar to list its hands.")


def by_top(current, counts) -> None:  # type: ignore[no-untyped-def]
    frame = fantasyland.by_top_of(counts)
    fig = go.Figure()
    fig.add_trace(go.Bar(x=frame["top_class"], y=frame["entries"], name="entered FL",
                         marker_color="#9467bd", customdata=frame[["top_class"]].to_numpy()))
    fig.add_trace(go.Bar(x=frame["top_class"], y=frame["fouled"], name="fouled",
                         marker_color="#d62728", customdata=frame[["top_class"]].to_numpy()))
    layout(fig, height=300, barmode="group", title="Normal hands by the top they ended with",
           yaxis_title="hands")
    point = selected_point(st.plotly_chart(fig, key="fl_top_chart", on_select="rerun",
                                           selection_mode="points"))
    event = st.dataframe(
        percent_columns(frame, "entry_rate_with_top", "share_of_normal_hands"),
        key="fl_top_table", on_select="rerun", selection_mode="single-row", hide_index=True,
        width="stretch",
        column_config={
            "top_class": st.column_config.TextColumn("Top"),
            "hands": st.column_config.NumberColumn("Hands"),
            "fouled": st.column_config.NumberColumn("Fouled"),
            "entries": st.column_config.NumberColumn("Entered FL"),
            "entry_rate_with_top": st.column_config.NumberColumn(
                "Entry % with this top", **PCT),
            "share_of_normal_hands": st.column_config.NumberColumn(
                "Entry % (of all normal hands)", **PCT,
                help="These add up to the overall entry rate."),
            "points_per_hand": st.column_config.NumberColumn("Points per hand",
                                                             format="%+.2f"),
        })
    row = selected_row(event)
    top = point[0] if point else (frame.iloc[row]["top_class"] if row is not None else None)
    if top is not None:
        hands = db.query(fantasyland.top_hands, current, str(top))
        show_hands(hands, "fl_top_hands", f"normal hands with a {top} top")
    else:
        st.caption("Select a row or click a bar to list those hands.")


def by_cards(current) -> None:  # type: ignore[no-untyped-def]
    frame = db.query(fantasyland.by_cards, current)
    if frame.empty:
        st.info("No Fantasyland hands in these hands.")
        return
    event = st.dataframe(
        percent_columns(frame, "stay_rate", "foul_rate"), key="fl_cards_table",
        on_select="rerun", selection_mode="single-row", hide_index=True, width="stretch",
        column_config={
            "fl_cards": st.column_config.TextColumn("Cards dealt"),
            "hands": st.column_config.NumberColumn("FL hands"),
            "stays": st.column_config.NumberColumn("Stayed"),
            "stay_rate": st.column_config.NumberColumn("Stay %", **PCT),
            "foul_rate": st.column_config.NumberColumn("Foul %", **PCT),
            "points_per_hand": st.column_config.NumberColumn("Points per hand",
                                                             format="%+.2f"),
        })
    row = selected_row(event)
    if row is not None:
        cards = str(frame.iloc[row]["fl_cards"])
        hands = db.query(fantasyland.cards_hands, current, cards)
        show_hands(hands, "fl_cards_hands", f"Fantasyland hands with {cards} cards")
    else:
        st.caption("Select a row to list those Fantasyland hands.")


def chasing(current) -> None:  # type: ignore[no-untyped-def]
    period = st.segmented_control("Per", ["session", "week"], default="session",
                                  key="fl_chase_period") or "session"
    frame = db.query(sessions.period_table, current, period,
                     float(sessions.DEFAULT_GAP_MINUTES))
    keys = frame[["period"]].to_numpy()
    fig = go.Figure()
    fig.add_trace(go.Bar(x=frame["period_no"], y=frame["points_per_hand"], name="points per hand",
                         marker_color="#bcbd22", opacity=0.6, customdata=keys, yaxis="y2"))
    fig.add_trace(go.Scatter(x=frame["period_no"], y=frame["trend_points_per_hand"],
                             name=f"points per hand, trend ({sessions.TREND_PERIODS} {period}s)",
                             mode="lines", line={"color": "#8c6d31", "width": 3},
                             customdata=keys, yaxis="y2"))
    fig.add_trace(go.Scatter(x=frame["period_no"], y=frame["foul_rate"] * 100, name="foul %",
                             mode="lines+markers", line={"color": "#d62728"},
                             customdata=keys))
    fig.add_trace(go.Scatter(x=frame["period_no"], y=frame["fl_entry_rate"] * 100,
                             name="FL entry %", mode="lines+markers",
                             line={"color": "#9467bd"}, customdata=keys))
    layout(fig, height=380, xaxis_title=f"{period} (in time order)", yaxis_title="%",
           yaxis2={"title": "points per hand", "overlaying": "y", "side": "right",
                   "tickmode": "auto", "showgrid": False})
    point = selected_point(st.plotly_chart(fig, key="fl_chasing", on_select="rerun",
                                           selection_mode="points"))
    st.caption("When foul % and FL % rise together and points per hand fall, the chase costs "
               "more than Fantasyland brings. Click a point to list that "
               f"{period}'s hands.")
    if point:
        hands = db.query(sessions.period_hands, current, period, str(point[0]),
                         gap_minutes=float(sessions.DEFAULT_GAP_MINUTES))
        show_hands(hands, "fl_chasing_hands", f"{period} {point[0]}")


def main() -> None:
    current = start("Fantasyland")
    if current is None:
        return
    counts = db.query(fantasyland.cells, current)
    s = fantasyland.summary_of(counts)
    if not s["hands"]:
        no_hands()
        return
    headline(s)
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
