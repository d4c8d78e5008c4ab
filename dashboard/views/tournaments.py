"""Tournaments: every tournament of the chosen player (buy-in, place, prize, profit), the totals
(tournaments, ROI, in the money, average place, profit by kind, buy-in and date), and one
tournament's standings, its chips hand by hand with the levels marked, and a knockout's series
round by round. Chips are the tournament's own: never summed with money."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard import db, names, widgets
from dashboard.queries import tournaments

COLUMNS = {
    "started": widgets.text("Started", width=135),
    "name": widgets.text("Tournament", width=150),
    "kind": widgets.text("Kind", width=75),
    "entrants": widgets.count("Players", width=60),
    "place": widgets.count("Place", width=55),
    "profit": widgets.count("Profit", format="%+.2f", width=70),
    "currency": widgets.text("Currency", width=70),
    "hands": widgets.count("Hands", width=60),
    "buy_in": widgets.count("Buy-in", format="%.2f", width=65),
    "fee": widgets.count("Fee", format="%.2f", width=55),
    "prize": widgets.count("Prize", format="%.2f", width=65),
}
MAIN = ("started", "name", "kind", "entrants", "place", "profit", "currency", "hands")
# MAIN: the columns shown first (710 px with the selection boxes: readable at 1,280 px).
PROFIT_BY = {
    "kind": widgets.text("Kind"), "buy_in": widgets.count("Buy-in", format="%.2f"),
    "date": widgets.text("Date"), "currency": widgets.text("Currency"),
    "tournaments": widgets.count("Tournaments"), "cost": widgets.count("Cost", format="%.2f"),
    "profit": widgets.count("Profit", format="%+.2f"),
}
STANDINGS = {
    "place": widgets.count("Place"),
    "player": widgets.text("Player", width=150),
    "prize": widgets.count("Prize", format="%.2f"),
    "hands": widgets.count("Hands"),
    "final_stack": widgets.count("Chips at the end", format="%,.0f"),
}
SERIES = {
    "round": widgets.count("Round"),
    "player_a": widgets.text("Player"),
    "player_b": widgets.text("Opponent"),
    "score": widgets.text("Series"),
    "winner": widgets.text("Winner"),
}


def _players(current: Any) -> tuple[str, ...]:
    if current.player is not None:
        return (current.player,)
    return tuple(n.name for n in current.me or ())


def headline(t: dict[str, Any]) -> None:
    widgets.metric_row(("Tournaments", f"{t['tournaments'] or 0:,}"),
                       ("ROI", widgets.pct(t["roi"]), "profit / (buy-ins + fees)"),
                       ("In the money", widgets.pct(t["itm"])),
                       ("Average place", "–" if t["average_place"] is None
                        else f"{t['average_place']:.1f}"))


def chips_spec(rows: list[dict[str, Any]], player: str) -> dict[str, Any]:
    """The chips after every hand as a Vega-Lite line, coloured by level (the levels marked),
    the chips a point is worth in the tooltip. Names are data values, drawn as text."""
    values = [{"hand": r["hand_no"], "chips": r["stack_after"], "level": f"level {r['level']}",
               "per_point": r["chips_per_point"]} for r in rows]
    return {"title": f"{player}: chips after each hand", "height": 260,
            "data": {"values": values},
            "layer": [{"mark": {"type": "line", "color": "#888"},
                       "encoding": {"x": {"field": "hand", "type": "quantitative",
                                          "title": "hand"},
                                    "y": {"field": "chips", "type": "quantitative",
                                          "title": "chips"}}},
                      {"mark": {"type": "point", "filled": True},
                       "encoding": {"x": {"field": "hand", "type": "quantitative"},
                                    "y": {"field": "chips", "type": "quantitative"},
                                    "color": {"field": "level", "type": "nominal",
                                              "sort": None, "title": "level"},
                                    "tooltip": [{"field": "hand"}, {"field": "level"},
                                                {"field": "per_point",
                                                 "title": "chips a point"},
                                                {"field": "chips"}]}}]}


def series_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows)
    frame["score"] = [("forfeit" if f else f"{a}-{b}")
                      for a, b, f in zip(frame["wins_a"], frame["wins_b"], frame["forfeit"],
                                         strict=True)]
    for column in ("player_a", "player_b", "winner"):  # by their aliases
        frame[column] = [None if v is None or (not isinstance(v, str) and pd.isna(v))
                         else names.player(v) for v in frame[column]]
    return frame


def one_tournament(row: dict[str, Any], player: str | None) -> None:
    source, tid = row["source"], row["tournament_id"]
    st.subheader(str(row["name"]))
    standings = pd.DataFrame(db.query(tournaments.tournament_players, source, tid))
    widgets.table(standings, "tournaments_standings", STANDINGS, order=tuple(STANDINGS))
    if row["kind"] == "chips" and player is not None:
        chips = db.query(tournaments.chips_graph, source, tid, player)
        if chips:
            st.vega_lite_chart(chips_spec(chips, player), width="stretch")
    if row["kind"] == "knockout":
        rows = db.query(tournaments.series, source, tid)
        if rows:
            st.markdown("**Series, round by round**")
            widgets.table(series_frame(rows), "tournaments_series", SERIES,
                          order=tuple(SERIES))
        else:
            st.info("No series recorded for this knockout.")


def main() -> None:
    current = widgets.start("Tournaments")
    if current is None:
        return
    if not db.query(tournaments.available):
        st.info("This store has no tournament tables: open it with this version to upgrade it.")
        return
    players = _players(current)
    rows = db.query(tournaments.tournaments_of, players)
    if not rows:
        st.info("No tournaments for this player. Tournament hands carry a `tournament` in "
                "their log (docs/format.md); `ofc simulate --tournament chips` makes some.")
        return
    headline(db.query(tournaments.totals, players))
    frame = pd.DataFrame(rows)
    picked = widgets.table(frame, "tournaments_table", COLUMNS, order=tuple(COLUMNS),
                           main=MAIN)
    for by, label in (("kind", "Profit by kind"), ("buy_in", "Profit by buy-in"),
                      ("date", "Profit by date")):
        with st.expander(label):
            st.dataframe(pd.DataFrame(db.query(tournaments.profit_by, players, by)),
                         hide_index=True, width="stretch", column_config=PROFIT_BY,
                         placeholder=widgets.MISSING)
    if picked is None:
        st.caption("Select a tournament to see its standings, chips and series.")
        return
    chosen = rows[picked]
    one_tournament(chosen, chosen["player"])


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
