"""Variants: every variant and ruleset side by side, so a player sees where they do best."""

from __future__ import annotations

from typing import Any

import pandas as pd
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


def chart_spec(frame: pd.DataFrame) -> dict[str, Any]:
    """Points per hand of each ruleset with its 95% interval, as a Vega-Lite spec: a bar per
    ruleset (green for a gain, red for a loss), the interval as a rule, the hands as a label;
    a click selects a bar's ruleset (:data:`PICK`). Labels from files are data values, drawn
    as text."""
    def number(v: Any) -> float | None:
        return None if pd.isna(v) else float(v)

    values = [{"ruleset": str(r), "per_hand": float(m), "low": number(lo), "high": number(hi),
               "hands": int(h), "label": f"{h:,} hands"}
              for r, m, lo, hi, h in zip(frame["ruleset_label"], frame["points_per_hand"],
                                         frame["ci_low"], frame["ci_high"], frame["hands"],
                                         strict=True)]
    y = {"field": "per_hand", "type": "quantitative", "title": "points per hand"}
    return {
        "title": "Points per hand, with the 95% interval", "height": 300,
        "data": {"values": values},
        "encoding": {"x": {"field": "ruleset", "type": "nominal", "sort": None, "title": None,
                           "axis": {"labelAngle": 0}}},
        "layer": [
            {"params": [{"name": PICK, "select": {"type": "point", "fields": ["ruleset"]}}],
             "mark": {"type": "bar", "cursor": "pointer"},
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
            {"mark": {"type": "text", "dy": -8},
             "encoding": {"y": y, "text": {"field": "label", "type": "nominal"}}},
        ]}


# The chart is Vega-Lite, not Plotly: a page's first Plotly chart costs the browser 1.3-1.9 s of
# CPU (docs/benchmarks.md, "First loads"). PICK is its click selection (a bar's ruleset).
PICK = "ruleset_pick"


def chart(frame: pd.DataFrame) -> list[Any] | None:
    """Draw :func:`chart_spec`; the clicked bar's ruleset (as a one-item list), if any."""
    return widgets.vega_chart(chart_spec(frame), "variants_chart", PICK, "ruleset")


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
