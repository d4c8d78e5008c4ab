"""Opponents: the player's results against each opponent, the running net against the most
frequent ones, and a head-to-head that splits the net into rows, bonuses, royalties and fouls."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import db, notes_editor, widgets
from dashboard import names as names_
from dashboard.cards import md_text
from dashboard.queries import notes, opponents
from dashboard.queries.common import Filters
from ingest import api

COLUMNS = {
    "opponent": widgets.text("Opponent", width=120),
    "hands": widgets.count("Hands together", width=70),
    "net_points": widgets.signed("Net points", 0, width=70),
    "money": widgets.money("Money", help="points x stake, hands with a stake; OFC Double: stake x "
                      "cube of each match won or lost", width=70),
    "currency": widgets.text("Currency", width=70),
    **widgets.CI_COLUMNS,
    "rows_won_pct": widgets.percent("Rows won", width=70),
    "their_foul_rate": widgets.percent("Their foul %", width=70),
    "our_foul_rate": widgets.percent("Our foul %", width=70),
    "scoops_for": widgets.count("Scoops for", width=70),
    "scoops_against": widgets.count("Scoops against", width=70),
    "royalties_for": widgets.count("Royalties for", width=70),
    "royalties_against": widgets.count("Royalties against", width=70),
    "tags": widgets.text("Your tags", width=120,
                         help="your tags on this opponent (Head to head: note and tags)"),
    "scoring": widgets.text("Scoring", help="one row per scoring system: race points (OFC Double) "
                            "are not added to other points", width=60),
}
# (A comment, not a docstring: Streamlit draws a page's bare strings.)
# The most useful first: who, how often, the net and the money; then how.
VERSUS_COLUMNS = {
    **widgets.HAND_ID_COLUMNS,
    "opponent": widgets.text("Opponent", width=100),
    "rows_won": widgets.count("Rows won", width=70),
    "rows_lost": widgets.count("Rows lost", width=70),
    "row_points": widgets.count("Row points", width=80),
    "bonus": widgets.count("Bonus", width=60),
    "royalties": widgets.count("Royalties (net)", width=95),
    "fouled": widgets.flag("We fouled", width=75),
    "opponent_fouled": widgets.flag("They fouled", width=80),
    "points": widgets.signed("Points", 1, width=60),
}
# The columns shown first: the main table's fit 1,280 px (700 px), the hands' too (685 px).
MAIN = ("opponent", "hands", "net_points", "money", "currency", "points_per_hand", "ci_low",
        "ci_high", "rows_won_pct")
VERSUS_MAIN = ("played_at", "opponent", "rows_won", "rows_lost", "royalties", "fouled",
               "opponent_fouled", "points")


def versus(current: Filters, key: str, opponent: str, component: str | None = None,
           scoring: str | None = None) -> None:
    """The hands played against ``opponent`` (carrying ``component`` of the net, in one
    ``scoring`` system when given)."""
    hands = db.query(opponents.versus_hands, current, opponent, component, scoring=scoring)
    what = f"against {names_.player(opponent)}" + (f" carrying {component}" if component
                                                    else "")
    widgets.show_hands(hands, key, what, columns=VERSUS_COLUMNS, sep=" ", main=VERSUS_MAIN)


def table(current: Filters, frame: pd.DataFrame) -> None:
    tagged = db.query(notes.player_tag_lists)
    frame = frame.assign(tags=[tagged.get(str(o), "") for o in frame["opponent"]])
    row = widgets.table(frame, "opponents_table", COLUMNS, order=tuple(COLUMNS),
                        rates=("rows_won_pct", "their_foul_rate", "our_foul_rate"), main=MAIN)
    opponent = widgets.picked(None, row, frame, "opponent")
    if opponent is None:
        st.caption("Select an opponent to list the hands played together.")
    else:
        versus(current, "opponents_hands", opponent)


def cumulative(current: Filters, names: list[str]) -> None:
    frame = db.query(opponents.cumulative, current, tuple(names[:opponents.TOP_OPPONENTS]))
    fig = go.Figure()
    several = frame["scoring"].nunique() > 1
    for (opponent, scoring), line in frame.groupby(["opponent", "scoring"], sort=False):
        name = f"{names_.player(opponent)} ({scoring})" if several else names_.player(opponent)
        fig.add_trace(go.Scattergl(
            x=line["hand_no"], y=line["cumulative_points"], name=widgets.plot_text([name])[0],
            mode="lines+markers", marker={"size": 3},
            customdata=line[["hand_key"]].to_numpy(),
            hovertemplate="hand %{x}: %{y:+,.0f}<extra>%{fullData.name}</extra>"))
    widgets.layout(fig, height=380, xaxis_title="hands together",
                   yaxis_title="net points (running)")
    widgets.chart_opens_hand(fig, "opponents_cumulative",
                             "The most frequent opponents. Click a point to open that hand.")


def split_chart(split: pd.DataFrame) -> list[Any] | None:
    fig = go.Figure(go.Waterfall(
        x=split["component"], y=split["points"], measure=["relative"] * len(split),
        customdata=split[["component"]].to_numpy(),
        text=[f"{p:+,.0f} ({n:,} hands)" for p, n in zip(split["points"], split["hands"],
                                                         strict=True)],
        textposition="outside", cliponaxis=False,
        hovertemplate="%{x}: %{text}<extra></extra>"))
    net = float(split["points"].sum())
    fig.add_trace(go.Bar(x=["net"], y=[net], name="net", text=[f"net {net:+,.0f}"],
                         textposition="outside", cliponaxis=False,
                         marker_color=widgets.BLUE, customdata=[[None]],
                         hovertemplate="net %{y:+,.0f}<extra></extra>"))
    widgets.layout(fig, height=380, showlegend=False, yaxis_title="points",
                   title="Net against this opponent, part by part",
                   xaxis={"tickangle": 0, "automargin": True})
    return widgets.chart(fig, "opponents_split")


def opponent_notes(opponent: str) -> None:
    """Your note and tags on ``opponent`` (kept by the name, across every room and rescore)."""
    def write(con: Any, note: str, tags: Any) -> api.Annotation:
        api.set_player_annotation(con, opponent, note, tags)
        return notes.of_player(con, opponent)

    notes_editor.editor(f"opponent_{opponent}", db.query(notes.of_player, opponent),
                        db.query(notes.player_tags), write,
                        label=f"Your note and tags on {md_text(names_.player(opponent))}")


def alias_form(player: str) -> None:
    """Name a player id once (as ``ofc alias`` does): every page then shows the name."""
    current = db.query(api.aliases).get(player, "")
    with st.form(f"alias_{player}", border=False):
        left, right = st.columns([4, 1], vertical_alignment="bottom")
        typed = left.text_input(f"Name {player} as", value=current, max_chars=200,
                                key=f"alias_text_{player}",
                                help="An alias every page shows instead of the id the logs "
                                     "give (empty: none). The same as `ofc alias`.")
        if right.form_submit_button("Save the name", disabled=db.read_only()):
            with db.writing() as con:
                changed = api.set_alias(con, player, typed)
            if changed:
                st.toast(f"{player} is shown as {typed.strip()}" if typed.strip()
                         else f"{player} is shown by its id again")
                st.rerun()


def head_to_head(current: Filters, rows: list[tuple[str, str]]) -> None:
    """The net against one opponent in one scoring system (race points are not added to
    others), part by part."""
    names = [o for o, _ in rows]
    default = names.index(current.opponent) if current.opponent in names else 0
    several = len({s for _, s in rows}) > 1
    picked = st.selectbox("Opponent", range(len(rows)), index=default, key="opponents_h2h",
                          format_func=lambda i: f"{names_.player(rows[i][0])} ({rows[i][1]})"
                          if several else names_.player(rows[i][0]))
    opponent, scoring = rows[picked or 0]
    alias_form(opponent)
    opponent_notes(opponent)
    point = split_chart(db.query(opponents.head_to_head, current, opponent, scoring))
    st.caption("Without a foul: row points, bonuses and the royalty exchange; hands where "
               "either player fouled are counted whole under fouls. Click a bar to list "
               "its hands.")
    versus(current, "opponents_split_hands", opponent, point[0] if point and point[0] else None,
           scoring)


def main() -> None:
    page = widgets.start_with("Opponents", opponents.table)
    if page is None:
        return
    current, frame = page
    table(current, frame)
    st.subheader("Running net per opponent")
    names = list(dict.fromkeys(str(o) for o in frame["opponent"]))
    cumulative(current, names)
    st.subheader("Head to head")
    head_to_head(current, [(str(o), str(s)) for o, s in zip(frame["opponent"],
                                                               frame["scoring"], strict=True)])


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
