"""Variants: every variant and ruleset side by side, so a player sees where they do best."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import widgets
from dashboard.queries import variants

COLUMNS = {
    "variant": widgets.text("Variant"),
    "ruleset_label": widgets.text("Ruleset"),
    "scoring": widgets.text("Scoring"),
    "hands": widgets.count("Hands"),
    **widgets.CI_COLUMNS,
    "points": widgets.signed("Points", 0),
    "foul_rate": widgets.percent("Foul %"),
    "fl_entry_rate": widgets.percent("FL entry %"),
    "fl_hand_share": widgets.percent("Hands in FL"),
    "royalties_per_hand": widgets.count("Royalties per hand", format="%.2f"),
    **widgets.MONEY_COLUMNS,
}


def chart(frame: pd.DataFrame) -> list[Any] | None:
    mean = frame["points_per_hand"]
    fig = go.Figure(go.Bar(
        x=widgets.plot_text(frame["ruleset_label"]), y=mean,
        error_y={"type": "data", "symmetric": False,
                 "array": (frame["ci_high"] - mean).fillna(0),
                 "arrayminus": (mean - frame["ci_low"]).fillna(0)},
        text=[f"{h:,} hands" for h in frame["hands"]],
        customdata=frame[["ruleset_label"]].to_numpy(), marker_color=widgets.sign_colours(mean),
        hovertemplate="%{x}: %{y:+.2f} per hand (%{text})<extra></extra>"))
    widgets.layout(fig, height=340, title="Points per hand, with the 95% interval",
                   yaxis_title="points per hand", xaxis={"type": "category"})
    return widgets.chart(fig, "variants_chart")


def main() -> None:
    page = widgets.start_with("Variants", variants.table)
    if page is None:
        return
    current, frame = page
    point = chart(frame)
    st.caption("Points are in each ruleset's own scoring (a scoop is 6 under 1-6, 4 under "
               "2-4; Double banks race points), so compare within a scoring system.")
    row = widgets.table(frame, "variants_table", COLUMNS, order=tuple(COLUMNS),
                        rates=("foul_rate", "fl_entry_rate", "fl_hand_share"))
    widgets.hands_behind(widgets.picked(point, row, frame, "ruleset_label"), "variants_hands",
                         "ruleset {}", variants.ruleset_hands, current,
                         hint="Select a row or click a bar to list its hands.")


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
