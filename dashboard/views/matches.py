"""Matches (OFC Double): matches played and won, race points to the target, the doubling cube
(offered, taken, declined, and what came of each choice) and the money of every match."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import db
from dashboard import widgets as w
from dashboard.queries import matches
from dashboard.queries.common import Filters

COLUMNS = {
    "match_id": w.text("Match"),
    "started": w.when("Started"),
    "opponent": w.text("Opponent"),
    "hands": w.count("Hands"),
    "points": w.count("Our points", help="race points banked"),
    "opponent_points": w.count("Their points"),
    "won": w.flag("Won", help="empty while unfinished"),
    "reason": w.text("Ended by"),
    "offers": w.count("Doubles offered"),
    "taken": w.count("Taken"),
    "declined": w.count("Declined"),
    "cube": w.count("Cube", format="x%d"),
    "stake": w.count("Stake"),
    **w.MONEY_COLUMNS,
}
SUMMARY_COLUMNS = {
    "decision": w.text("Choice"),
    "decisions": w.count("Times"),
    "matches_won": w.count("Matches won after"),
    "matches_lost": w.count("Matches lost after"),
    "money": w.money("Money of those matches"),
}
DECISION_COLUMNS = {
    "match_id": w.text("Match"),
    "hand_key": None,
    "played_at": w.when("After the hand of"),
    "offered_by": w.text("Offered by"),
    "accepted": w.flag("Taken"),
    "decision": w.text("Choice"),
    "cube_after": w.count("Cube after", format="x%d"),
    "won": w.flag("Match won"),
    "money": w.money("Money"),
}


def headline(s: dict) -> None:
    w.metric_row(("Matches", f"{s['matches']:,}", f"{s['finished']:,} finished"),
                 ("Won", f"{s['won']:,}", w.pct(s["win_rate"])),
                 ("Money", w.num(s["money"]), "stake x cube, matches with a stake"),
                 ("Money per match", w.num(s["money_per_match"])))


def money_chart(frame: pd.DataFrame) -> list | None:
    money = frame["money"].fillna(0)
    fig = go.Figure(go.Bar(
        x=list(range(1, len(frame) + 1)), y=money, marker_color=w.sign_colours(money),
        customdata=frame[["match_id"]].to_numpy(),
        hovertext=w.plot_text(f"{m} vs {o}, cube x{c}" for m, o, c in
                              zip(frame["match_id"], frame["opponent"], frame["cube"],
                                  strict=True)),
        hovertemplate="%{hovertext}: %{y:+,.2f}<extra></extra>"))
    w.layout(fig, height=300, title="Money per match", xaxis_title="match (in time order)",
             yaxis_title="money")
    return w.chart(fig, "matches_money")


def cube(current: Filters, frame: pd.DataFrame) -> None:
    decisions = matches.cube_decisions_of(db.query(matches.offers, current), frame)
    summary = matches.cube_summary_of(decisions)
    if summary.empty:
        st.info("No doubling offers in these matches.")
        return
    st.dataframe(w.shown_frame(summary), key="matches_cube_summary", hide_index=True,
                 placeholder=w.MISSING,
                 width="stretch", column_config=SUMMARY_COLUMNS)
    row = w.table(decisions, "matches_decisions", DECISION_COLUMNS)
    w.hands_behind(w.picked(None, row, decisions, "match_id"), "matches_decision_hands",
                   "match {}", matches.match_hands, current,
                   hint="Select an offer to list the hands of its match.")


def main() -> None:
    page = w.start_with("Matches", matches.table,
                        empty="No OFC Double matches in these hands (hands that carry a "
                              "match id).")
    if page is None:
        return
    current, frame = page
    headline(matches.summary_of(frame))
    point = money_chart(frame)
    row = w.table(frame, "matches_table", COLUMNS, order=tuple(COLUMNS))
    w.hands_behind(w.picked(point, row, frame, "match_id"), "matches_hands", "match {}",
                   matches.match_hands, current,
                   hint="Select a match or click a bar to list its hands.")
    st.subheader("The doubling cube")
    cube(current, frame)


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
