"""Matches (OFC Double): matches played and won, race points to the target, the doubling cube
(offered, taken, declined, and what came of each choice) and the money of every match."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard import db, widgets
from dashboard.queries import matches
from dashboard.queries.common import Filters

COLUMNS = {
    "started": widgets.when("Started", width=135),
    "opponent": widgets.text("Opponent", width=100),
    "result": widgets.text("Result", width=90),
    "money_text": widgets.text("Money", width=90, help="stake x cube; none until the match "
                               "has a winner"),
    "hands": widgets.count("Hands", width=60),
    "points": widgets.count("Our points", help="race points banked", width=80),
    "opponent_points": widgets.count("Their points", width=80),
    "reason": widgets.text("Ended by", width=100),
    "cube": widgets.count("Cube", format="x%d", width=60),
    "offers": widgets.count("Doubles offered", width=110),
    "taken": widgets.count("Taken", width=60),
    "declined": widgets.count("Declined", width=70),
    "stake": widgets.count("Stake", width=60),
    "match_id": widgets.text("Match", width=150),
}
MAIN = ("started", "opponent", "result", "money_text", "hands", "points", "opponent_points",
        "reason")
# MAIN: the columns shown first (770 px with the selection boxes: readable at 1,280 px).
# (A comment, not a docstring: Streamlit draws a page's bare strings.)
# The most useful first: when, against whom, the result and its money.


def result(won: Any) -> str:
    """A match's result from the player's side.

    >>> result(True), result(False), result(None)
    ('won', 'lost', 'not finished')
    """
    return "not finished" if won is None or pd.isna(won) else "won" if won else "lost"


def money_text(money: Any, currency: Any, won: Any) -> str:
    """A match's money as the table says it: signed with its currency; a match without a
    winner has none yet, one without a stake none at all.

    >>> money_text(4.0, "EUR", True), money_text(None, "EUR", None), money_text(None, None, False)
    ('+4.00 EUR', 'not finished', 'no stake')
    """
    if money is None or pd.isna(money):
        return "not finished" if won is None or pd.isna(won) else widgets.NO_STAKE
    unit = currency if isinstance(currency, str) else ""
    return f"{float(money):+,.2f} {unit}".strip()


def readable(frame: pd.DataFrame) -> pd.DataFrame:
    """The matches with their result and money in words (:func:`result`,
    :func:`money_text`)."""
    won = [None if pd.isna(w) else bool(w) for w in frame["won"]]
    return frame.assign(
        result=[result(w) for w in won],
        money_text=[money_text(m, c, w) for m, c, w in zip(frame["money"], frame["currency"],
                                                           won, strict=True)],
        reason=[widgets.MISSING if r is None or (not isinstance(r, str) and pd.isna(r)) else r
                for r in frame["reason"]])


SUMMARY_COLUMNS = {
    "decision": widgets.text("Choice"),
    "decisions": widgets.count("Times"),
    "matches_won": widgets.count("Matches won after"),
    "matches_lost": widgets.count("Matches lost after"),
    "money": widgets.money("Money of those matches"),
}
DECISION_COLUMNS = {
    "match_id": widgets.text("Match", width=130),
    "hand_key": None,
    "played_at": widgets.when("After the hand of", width=135),
    "offered_by": widgets.text("Offered by", width=90),
    "accepted": widgets.flag("Taken", width=55),
    "decision": widgets.text("Choice", width=90),
    "cube_after": widgets.count("Cube after", format="x%d", width=75),
    "won": widgets.flag("Match won", width=75),
    "money": widgets.money("Money", width=75),
}


def headline(s: dict[str, Any]) -> None:
    widgets.metric_row(("Matches", f"{s['matches']:,}", f"{s['finished']:,} finished"),
                       ("Won", f"{s['won']:,}", widgets.pct(s["win_rate"])),
                       ("Money", widgets.num(s["money"]), "stake x cube, matches with a stake"),
                       ("Money per match", widgets.num(s["money_per_match"])))


# The money chart is Vega-Lite, not Plotly: a page's first Plotly chart costs the browser
# 1.3-1.9 s of CPU (docs/benchmarks.md, "First loads"). PICK is its click (a bar's match).
PICK = "match_pick"


def money_spec(frame: pd.DataFrame) -> dict[str, Any]:
    """The money of each match in time order as a Vega-Lite spec: a bar per match (green won,
    red lost; none yet: 0), its match, opponent and cube in the tooltip; a click selects its
    match (:data:`PICK`). Ids and names from files are data values, drawn as text."""
    values = [{"n": n, "match": str(m), "opponent": str(o), "cube": f"x{c}",
               "money": 0.0 if pd.isna(v) else float(v),
               "result": "not finished" if pd.isna(v) else f"{float(v):+,.2f}"}
              for n, (m, o, c, v) in enumerate(zip(frame["match_id"], frame["opponent"],
                                                   frame["cube"], frame["money"], strict=True),
                                               start=1)]
    return {
        "title": "Money per match", "height": 260, "data": {"values": values},
        "params": [{"name": PICK, "select": {"type": "point", "fields": ["match"]}}],
        "mark": {"type": "bar", "cursor": "pointer"},
        "encoding": {
            "x": {"field": "n", "type": "ordinal", "title": "match (in time order)",
                  "axis": {"labelAngle": 0, "labelOverlap": True}},
            "y": {"field": "money", "type": "quantitative", "title": "money"},
            "color": widgets.sign_colour("money"),
            "opacity": {"condition": {"param": PICK, "value": 1, "empty": True}, "value": 0.4},
            "tooltip": [{"field": "match", "type": "nominal"},
                        {"field": "opponent", "type": "nominal"},
                        {"field": "cube", "type": "nominal"},
                        {"field": "result", "type": "nominal", "title": "money"}]}}


def money_chart(frame: pd.DataFrame) -> list[Any] | None:
    """Draw :func:`money_spec`; the clicked bar's match id (as a one-item list), if any."""
    return widgets.vega_chart(money_spec(frame), "matches_money", PICK, "match")


def cube(current: Filters, frame: pd.DataFrame) -> None:
    decisions = matches.cube_decisions_of(db.query(matches.offers, current), frame)
    summary = matches.cube_summary_of(decisions)
    if summary.empty:
        st.info("No doubling offers in these matches.")
        return
    st.dataframe(widgets.shown_frame(summary), key="matches_cube_summary", hide_index=True,
                 placeholder=widgets.MISSING,
                 width="stretch", column_config=SUMMARY_COLUMNS)
    row = widgets.table(decisions, "matches_decisions", DECISION_COLUMNS)
    widgets.hands_behind(widgets.picked(None, row, decisions, "match_id"), "matches_decision_hands",
                         "match {}", matches.match_hands, current,
                         hint="Select an offer to list the hands of its match.")


def main() -> None:
    page = widgets.start_with("Matches", matches.table,
                              empty="No OFC Double matches in these hands (hands that carry a "
                              "match id).")
    if page is None:
        return
    current, frame = page
    headline(matches.summary_of(frame))
    point = money_chart(frame)
    row = widgets.table(readable(frame), "matches_table", COLUMNS, order=tuple(COLUMNS),
                        main=MAIN)
    widgets.hands_behind(widgets.picked(point, row, frame, "match_id"), "matches_hands", "match {}",
                         matches.match_hands, current,
                         hint="Select a match or click a bar to list its hands.")
    st.subheader("The doubling cube")
    cube(current, frame)


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
