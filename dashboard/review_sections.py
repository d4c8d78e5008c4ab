"""The Review page's parts about the player (dashboard/views/review.py draws them in order):
the accuracy beside the reference levels, the classes by stage of the hand, the accuracy's
trend, and the leaks by situation. Every figure comes from one query of
:mod:`dashboard.queries.review` (tests/test_review_page_counts.py recounts each from the
decisions table in pandas).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard import db, filters, names, widgets
from dashboard.queries import review as q
from ofc_core.play.accuracy import BLUNDER, MISTAKE, REFERENCE_LEVELS

CLASS_MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The chess marks of the classes that lose points beyond the noise."""
CLASS_WORDS = {
    "best": "the best placement found",
    "tie": "a tie: within the noise of the best (not a mistake)",
    "inaccuracy": f"an inaccuracy: under {MISTAKE:g} point lost beyond the noise",
    "mistake": f"a mistake: {MISTAKE:g} to {BLUNDER:g} points lost beyond the noise",
    "blunder": f"a blunder: {BLUNDER:g} points or more lost beyond the noise",
}
"""Each class in words (the hover text of its mark)."""
REFERENCE_SEATS = ("strong", "careful", "random")
"""The simulated seats whose accuracy the page shows the player's beside."""


def mark(name: str) -> str:
    """A class as its chess mark and name.

    >>> mark("blunder"), mark("tie")
    ('?? blunder', 'tie')
    """
    sign = CLASS_MARKS.get(name)
    return f"{sign} {name}" if sign else name


def accuracy_text(value: float | None) -> str:
    """An accuracy to a tenth (a dash when there is none).

    >>> accuracy_text(84.26), accuracy_text(None)
    ('84.3', '–')
    """
    return widgets.MISSING if value is None else f"{value:.1f}"


def references(levels: dict[str, float] | None = None) -> str:
    """The reference levels in one line.

    >>> references({"strong": 91.2, "careful": 88.0, "chaser": 70.0, "random": 41.5})[-41:]
    'strong 91.2 · careful 88.0 · random 41.5.'
    >>> references({})[:40]
    'Reference levels: not calibrated for thi'
    """
    found = REFERENCE_LEVELS if levels is None else levels
    shown = [f"{seat} {found[seat]:.1f}" for seat in REFERENCE_SEATS if seat in found]
    if not shown:
        return ("Reference levels: not calibrated for this version of the review yet "
                "(benchmarks/bench_review_calibration.py).")
    return ("Reference levels (the simulated seats reviewed the same way): "
            + " · ".join(shown) + ".")


def headline(s: q.Summary) -> None:
    """Accuracy, the classes, EV lost beyond the noise and what was reviewed."""
    counts = f"{s.count('blunder'):,} · {s.count('mistake'):,} · {s.count('inaccuracy'):,}"
    per_hand = widgets.MISSING if s.beyond_per_hand is None else f"{s.beyond_per_hand:.1f}"
    widgets.metric_row(
        ("Accuracy", accuracy_text(s.accuracy), "0-100: 100 is the best or a tie"),
        ("?? · ? · ?!", counts, "ties apart"),
        ("EV lost a hand beyond the noise", per_hand, f"{s.beyond:,.1f} points in all"),
        ("Reviewed hands", f"{s.hands:,}", f"{s.decisions:,} decisions"))
    ties = s.count("tie")
    st.caption(references() + f" Classes: ?? blunder, ? mistake, ?! inaccuracy; {ties:,} "
               f"tie{'s' * (ties != 1)} (within the noise: not mistakes; docs/review.md).")


STAGE_COLUMNS = {
    "variant": widgets.text("Variant"),
    "stage": widgets.text("Stage", help="first five; middle streets; last street; "
                          "Fantasyland set (each variant's streets apart)"),
    "decisions": widgets.count("Decisions"),
    "accuracy": widgets.count("Accuracy", format="%.1f"),
    "blunder": widgets.count("?? Blunders", help=CLASS_WORDS["blunder"]),
    "mistake": widgets.count("? Mistakes", help=CLASS_WORDS["mistake"]),
    "inaccuracy": widgets.count("?! Inaccuracies", help=CLASS_WORDS["inaccuracy"]),
    "tie": widgets.count("Ties", help=CLASS_WORDS["tie"]),
    "best": widgets.count("Best", help=CLASS_WORDS["best"]),
}


def stages(current: Any) -> None:
    """Counts of each class by variant and stage of the hand."""
    st.subheader("Classes by stage of the hand")
    frame = db.query(q.classes_by_stage, current)
    frame = frame.assign(variant=[names.variant(v) for v in frame["variant"]])
    st.dataframe(frame[list(STAGE_COLUMNS)], hide_index=True, width="stretch",
                 key="review_stages", column_config=STAGE_COLUMNS)


def trend_spec(day: pd.DataFrame) -> dict[str, Any]:
    """The accuracy by day played: a line with points (a Vega-Lite spec)."""
    values = [{"day": pd.Timestamp(d).strftime("%Y-%m-%d"), "accuracy": float(a),
               "hands": int(h)}
              for d, a, h in zip(day["day"], day["accuracy"], day["hands"], strict=True)]
    return {"title": "Accuracy by day", "width": "container", "height": 180,
            "data": {"values": values},
            "mark": {"type": "line", "point": True, "color": widgets.BLUE},
            "encoding": {
                "x": {"field": "day", "type": "temporal", "timeUnit": "utcyearmonthdate",
                      "title": None, "axis": {"format": "%b %-d", "labelAngle": 0}},
                "y": {"field": "accuracy", "type": "quantitative", "title": "accuracy",
                      "scale": {"domain": [0, 100]}},
                "tooltip": [{"field": "day", "type": "temporal",
                             "timeUnit": "utcyearmonthdate", "format": "%b %-d, %Y"},
                            {"field": "accuracy", "type": "quantitative", "format": ".1f"},
                            {"field": "hands", "type": "quantitative", "format": ",d"}]}}


def trend(current: Any, zone: str | None) -> None:
    """The accuracy's trend by day (a chart); by session on the Sessions page."""
    day = db.query(q.accuracy_by_day, current, zone)
    if len(day) > 1:
        st.vega_lite_chart(spec=trend_spec(day), key="review_trend", width="stretch")


LEAK_COLUMNS = {
    "situation": widgets.text("Situation", help="dealt: what the cards dealt held; played: "
                              "what the played placement did and the best did not", width=190),
    "side": widgets.text("Kind", width=70),
    "decisions": widgets.count("Decisions", width=75),
    "ev_lost": widgets.count("EV lost", format="%.1f", width=80,
                             help="EV lost beyond the noise"),
    "per_hand": widgets.count("A hand", format="%.2f", width=65),
    "played": widgets.percent("You", help="the share of your decisions whose placement does "
                              "it", width=55),
    "best": widgets.percent("The best", help="the share of the best placements that do it",
                            width=65),
    "worst": widgets.text("Worst example", help="select the row to replay it", width=150),
}
"""750 px with the selection boxes: readable at 1,280 px."""


def leaks(current: Any) -> None:
    """Leaks by situation, costliest first; a selected row replays its worst example."""
    st.subheader("Leaks by situation")
    frame = db.query(q.leaks, current)
    if frame.empty:
        st.caption("No situation met in these decisions.")
        return
    shown = frame.assign(
        played=frame["played"] * 100, best=frame["best"] * 100,
        worst=[f"hand {h}, street {s}: {lost:.1f} lost" for h, s, lost in
               zip(frame["worst_hand_id"], frame["worst_street"], frame["worst_lost"],
                   strict=True)])
    event = st.dataframe(shown[list(LEAK_COLUMNS)], key="review_leaks", on_select="rerun",
                         selection_mode="single-row", hide_index=True, width="stretch",
                         column_config=LEAK_COLUMNS, placeholder=widgets.MISSING)
    row = widgets.selected_row(event)
    if row is not None and row < len(frame):
        filters.open_hand(int(frame.iloc[row]["worst_hand_key"]),
                          int(frame.iloc[row]["worst_street"]))
    st.caption("Dealt: the decisions dealt so, and what they lost. Played: the decisions "
               "whose played placement does it and the best does not; You and The best: how "
               "often each placement does it, of all the decisions. Select a row to replay "
               "its worst example.")
