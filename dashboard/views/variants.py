"""Variants: every variant and ruleset side by side, so a player sees where they do best."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from dashboard import db
from dashboard.queries import variants
from dashboard.views.sessions import (
    PCT,
    layout,
    no_hands,
    percent_columns,
    plot_text,
    selected_point,
    selected_row,
    show_hands,
    start,
)


def chart(frame):  # type: ignore[no-untyped-def]
    mean = frame["points_per_hand"]
    fig = go.Figure(go.Bar(
        x=plot_text(frame["ruleset_label"]), y=mean,
        error_y={"type": "data", "symmetric": False,
                 "array": (frame["ci_high"] - mean).fillna(0),
                 "arrayminus": (mean - frame["ci_low"]).fillna(0)},
        text=[f"{h:,} hands" for h in frame["hands"]],
        customdata=frame[["ruleset_label"]].to_numpy(),
        marker_color=["#2ca02c" if m >= 0 else "#d62728" for m in mean],
        hovertemplate="%{x}: %{y:+.2f} per hand (%{text})<extra></extra>"))
    layout(fig, height=340, title="Points per hand, with the 95% interval",
           yaxis_title="points per hand", xaxis={"type": "category"})
    return st.plotly_chart(fig, key="variants_chart", on_select="rerun",
                           selection_mode="points")


def main() -> None:
    current = start("Variants")
    if current is None:
        return
    frame = db.query(variants.table, current)
    if frame.empty:
        no_hands()
        return
    point = selected_point(chart(frame))
    st.caption("Points are in each ruleset's own scoring (a scoop is 6 under 1-6, 4 under "
               "2-4; Double banks race points), so compare within a scoring system.")
    event = st.dataframe(
        percent_columns(frame, "foul_rate", "fl_entry_rate", "fl_hand_share"),
        key="variants_table", on_select="rerun", selection_mode="single-row",
        hide_index=True, width="stretch",
        column_order=("variant", "ruleset_label", "scoring", "hands", "points_per_hand",
                      "ci_low", "ci_high", "points", "foul_rate", "fl_entry_rate",
                      "fl_hand_share", "royalties_per_hand", "money", "currency"),
        column_config={
            "variant": st.column_config.TextColumn("Variant"),
            "ruleset_label": st.column_config.TextColumn("Ruleset"),
            "scoring": st.column_config.TextColumn("Scoring"),
            "hands": st.column_config.NumberColumn("Hands"),
            "points_per_hand": st.column_config.NumberColumn("Per hand", format="%+.2f"),
            "ci_low": st.column_config.NumberColumn("95% CI from", format="%+.2f"),
            "ci_high": st.column_config.NumberColumn("95% CI to", format="%+.2f"),
            "points": st.column_config.NumberColumn("Points", format="%+.0f"),
            "foul_rate": st.column_config.NumberColumn("Foul %", **PCT),
            "fl_entry_rate": st.column_config.NumberColumn("FL entry %", **PCT),
            "fl_hand_share": st.column_config.NumberColumn("Hands in FL", **PCT),
            "royalties_per_hand": st.column_config.NumberColumn("Royalties per hand",
                                                                format="%.2f"),
            "money": st.column_config.NumberColumn("Money", format="%+.2f"),
            "currency": st.column_config.TextColumn("Currency"),
        })
    row = selected_row(event)
    label = point[0] if point else (frame.iloc[row]["ruleset_label"] if row is not None
                                    else None)
    if label is not None:
        hands = db.query(variants.ruleset_hands, current, str(label))
        show_hands(hands, "variants_hands", f"ruleset {label}")
    else:
        st.caption("Select a row or click a bar to list its hands.")


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
