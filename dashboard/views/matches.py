"""Matches (OFC Double): matches played and won, race points to the target, the doubling cube
(offered, taken, declined, and what came of each choice) and the money of every match."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from dashboard import db
from dashboard.queries import matches
from dashboard.views.sessions import (
    layout,
    num,
    pct,
    plot_text,
    selected_point,
    selected_row,
    show_hands,
    start,
)

TIME = {"format": "YYYY-MM-DD HH:mm"}


def headline(s: dict) -> None:
    cols = st.columns(4)
    cols[0].metric("Matches", f"{s['matches']:,}", f"{s['finished']:,} finished",
                   delta_color="off", delta_arrow="off")
    cols[1].metric("Won", f"{s['won']:,}", pct(s["win_rate"]), delta_color="off",
                   delta_arrow="off")
    cols[2].metric("Money", num(s["money"]), "stake x cube, matches with a stake",
                   delta_color="off", delta_arrow="off")
    cols[3].metric("Money per match", num(s["money_per_match"]))


def money_chart(frame):  # type: ignore[no-untyped-def]
    money = frame["money"].fillna(0)
    fig = go.Figure(go.Bar(
        x=list(range(1, len(frame) + 1)), y=money,
        marker_color=["#2ca02c" if m > 0 else "#d62728" for m in money],
        customdata=frame[["match_id"]].to_numpy(),
        hovertext=plot_text(f"{m} vs {o}, cube x{c}" for m, o, c in
                            zip(frame["match_id"], frame["opponent"], frame["cube"],
                                strict=True)),
        hovertemplate="%{hovertext}: %{y:+,.2f}<extra></extra>"))
    layout(fig, height=300, title="Money per match", xaxis_title="match (in time order)",
           yaxis_title="money")
    return st.plotly_chart(fig, key="matches_money", on_select="rerun",
                           selection_mode="points")


def table(frame):  # type: ignore[no-untyped-def]
    return st.dataframe(
        frame, key="matches_table", on_select="rerun", selection_mode="single-row",
        hide_index=True, width="stretch",
        column_order=("match_id", "started", "opponent", "hands", "points",
                      "opponent_points", "won", "reason", "offers", "taken", "declined",
                      "cube", "stake", "money", "currency"),
        column_config={
            "match_id": st.column_config.TextColumn("Match"),
            "started": st.column_config.DatetimeColumn("Started", **TIME),
            "opponent": st.column_config.TextColumn("Opponent"),
            "hands": st.column_config.NumberColumn("Hands"),
            "points": st.column_config.NumberColumn("Our points", help="race points banked"),
            "opponent_points": st.column_config.NumberColumn("Their points"),
            "won": st.column_config.CheckboxColumn("Won", help="empty while unfinished"),
            "reason": st.column_config.TextColumn("Ended by"),
            "offers": st.column_config.NumberColumn("Doubles offered"),
            "taken": st.column_config.NumberColumn("Taken"),
            "declined": st.column_config.NumberColumn("Declined"),
            "cube": st.column_config.NumberColumn("Cube", format="x%d"),
            "stake": st.column_config.NumberColumn("Stake"),
            "money": st.column_config.NumberColumn("Money", format="%+.2f"),
            "currency": st.column_config.TextColumn("Currency"),
        })


def cube(current, frame) -> None:  # type: ignore[no-untyped-def]
    decisions = matches.cube_decisions_of(db.query(matches.offers, current), frame)
    summary = matches.cube_summary_of(decisions)
    if summary.empty:
        st.info("No doubling offers in these matches.")
        return
    st.dataframe(summary, key="matches_cube_summary", hide_index=True, width="stretch",
                 column_config={
                     "decision": st.column_config.TextColumn("Choice"),
                     "decisions": st.column_config.NumberColumn("Times"),
                     "matches_won": st.column_config.NumberColumn("Matches won after"),
                     "matches_lost": st.column_config.NumberColumn("Matches lost after"),
                     "money": st.column_config.NumberColumn("Money of those matches",
                                                            format="%+.2f"),
                 })
    event = st.dataframe(
        decisions, key="matches_decisions", on_select="rerun", selection_mode="single-row",
        hide_index=True, width="stretch",
        column_config={
            "match_id": st.column_config.TextColumn("Match"),
            "hand_key": None,
            "played_at": st.column_config.DatetimeColumn("After the hand of", **TIME),
            "offered_by": st.column_config.TextColumn("Offered by"),
            "accepted": st.column_config.CheckboxColumn("Taken"),
            "decision": st.column_config.TextColumn("Choice"),
            "cube_after": st.column_config.NumberColumn("Cube after", format="x%d"),
            "won": st.column_config.CheckboxColumn("Match won"),
            "money": st.column_config.NumberColumn("Money", format="%+.2f"),
        })
    row = selected_row(event)
    if row is not None:
        match_id = str(decisions.iloc[row]["match_id"])
        hands = db.query(matches.match_hands, current, match_id)
        show_hands(hands, "matches_decision_hands", f"match {match_id}")
    else:
        st.caption("Select an offer to list the hands of its match.")


def main() -> None:
    current = start("Matches")
    if current is None:
        return
    frame = db.query(matches.table, current)
    if frame.empty:
        st.info("No OFC Double matches in these hands (hands that carry a match id).")
        return
    headline(matches.summary_of(frame))
    point = selected_point(money_chart(frame))
    event = table(frame)
    row = selected_row(event)
    match_id = point[0] if point else (frame.iloc[row]["match_id"] if row is not None
                                       else None)
    if match_id is not None:
        hands = db.query(matches.match_hands, current, str(match_id))
        show_hands(hands, "matches_hands", f"match {match_id}")
    else:
        st.caption("Select a match or click a bar to list its hands.")
    st.subheader("The doubling cube")
    cube(current, frame)


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
