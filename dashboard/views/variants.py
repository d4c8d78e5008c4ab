"""Variants: every variant and ruleset side by side, so a player sees where they do best."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard import names, widgets
from dashboard.queries import variants

COLUMNS = {
    "ruleset": widgets.text("Ruleset", width=230,
                            help="The variant with the room's rule settings"),
    "hands": widgets.count("Hands", width=60),
    **widgets.CI_COLUMNS,
    "points": widgets.signed("Points", 0, width=70),
    **widgets.MONEY_COLUMNS,
    "foul_rate": widgets.percent("Foul %", width=60),
    "fl_entry_rate": widgets.percent("FL entry %", width=70),
    "fl_hand_share": widgets.percent("Hands in FL", width=80),
    "royalties_per_hand": widgets.count("Royalties per hand", format="%.2f", width=120),
    "scoring": widgets.text("Scoring", width=60),
    "variant": None,
    "ruleset_label": None,
}
MAIN = ("ruleset", "hands", "points_per_hand", "ci_low", "ci_high", "points", "money",
        "currency")
# (A comment, not a docstring: Streamlit draws a page's bare strings.)
# MAIN: the columns shown first (770 px with the selection boxes: readable at 1,280 px).
# The most useful first; the ruleset in words (:func:`dashboard.names.ruleset`; it starts
# with the variant, so no column of its own), its label kept hidden: a selection's key.


def chart_spec(frame: pd.DataFrame) -> dict[str, Any]:
    """Points per hand of each ruleset with its 95% interval, as a Vega-Lite spec: a bar per
    ruleset (green for a gain, red for a loss), the interval as a rule, the hands as a label;
    a click selects a bar's ruleset (:data:`PICK`). Labels from files are data values, drawn
    as text."""
    def number(v: Any) -> float | None:
        return None if pd.isna(v) else float(v)

    values = [{"ruleset": names.ruleset(r), "key": str(r), "per_hand": float(m),
               "low": number(lo), "high": number(hi), "hands": int(h),
               "label": f"{h:,} hands",
               "above": max(float(m), number(hi) or float(m), 0.0)}
              for r, m, lo, hi, h in zip(frame["ruleset_label"], frame["points_per_hand"],
                                         frame["ci_low"], frame["ci_high"], frame["hands"],
                                         strict=True)]
    y = {"field": "per_hand", "type": "quantitative", "title": "points per hand"}
    return {
        "title": "Points per hand, with the 95% interval", "height": 300,
        "data": {"values": values},
        "encoding": {"x": {"field": "ruleset", "type": "nominal", "sort": None, "title": None,
                           "axis": {"labelAngle": 0, "labelLimit": 0,
                                    "labelExpr": "split(datum.label, ' · ')"}}},
        "layer": [
            {"params": [{"name": PICK, "select": {"type": "point", "fields": ["key"]}}],
             "mark": {"type": "bar", "cursor": "pointer", "width": {"band": 0.6}},
             "encoding": {"y": y, "color": widgets.sign_colour("per_hand"),
                          "opacity": {"condition": {"param": PICK, "value": 1, "empty": True},
                                      "value": 0.4},
                          "tooltip": [{"field": "ruleset", "type": "nominal"},
                                      {**y, "format": "+.2f"},
                                      {"field": "hands", "type": "quantitative",
                                       "format": ",d"}]}},
            {"mark": {"type": "rule"},
             "encoding": {"y": {"field": "low", "type": "quantitative"},
                          "y2": {"field": "high"}}},
            {"mark": {"type": "text", "dy": -8, "color": "#555"},
             "encoding": {"y": {"field": "above", "type": "quantitative"},
                          "text": {"field": "label", "type": "nominal"}}},
        ]}


# The chart is Vega-Lite, not Plotly: a page's first Plotly chart costs the browser 1.3-1.9 s of
# CPU (docs/benchmarks.md, "First loads"). PICK is its click selection (a bar's ruleset).
PICK = "ruleset_pick"


def chart(frame: pd.DataFrame) -> list[Any] | None:
    """Draw :func:`chart_spec`; the clicked bar's ruleset (as a one-item list), if any."""
    return widgets.vega_chart(chart_spec(frame), "variants_chart", PICK, "key")


def main() -> None:
    page = widgets.start_with("Variants", variants.table)
    if page is None:
        return
    current, frame = page
    frame = frame.assign(ruleset=[names.ruleset(r) for r in frame["ruleset_label"]])
    point = chart(frame)
    st.caption("Points are in each ruleset's own scoring (a scoop is 6 under 1-6, 4 under "
               "2-4; Double banks race points), so compare within a scoring system.")
    row = widgets.table(frame, "variants_table", COLUMNS, order=tuple(COLUMNS),
                        rates=("foul_rate", "fl_entry_rate", "fl_hand_share"), main=MAIN)
    key = widgets.picked(point, row, frame, "ruleset_label")
    what = f"ruleset {names.ruleset(key)}".replace("{", "{{").replace("}", "}}")
    widgets.hands_behind(key, "variants_hands", what, variants.ruleset_hands, current,
                         hint="Select a row or click a bar to list its hands.")


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
