"""Review: where the points went in the player's decisions, from what ``ofc review`` stored.

Each reviewed decision has the expected points of what was played and of the best placement
found by rollouts; the difference is the EV lost (docs/review.md).
"""

from __future__ import annotations

import html
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import db, filters, names, reviewing, timefmt, widgets
from dashboard import review_sections as sections
from dashboard.cards import (
    board_html,
    cards_html,
    md_text,
    placement_words,
    placements_in_words,
    pretty,
)
from dashboard.queries import review as q
from dashboard.queries.common import shown_players
from ofc_core.board import Board, parse_compact_row
from ofc_core.play.review import REVIEW_VERSION

DRAWN = 5  # costliest decisions drawn as cards (the table lists more); no docstring: a bare
# string at the top level of a page is drawn by Streamlit's magic

COSTLY_COLUMNS = {
    "hand_key": None,
    "played_at": widgets.when("When", help="when the hand was played, on the clock chosen in the "
                              "sidebar (Times in)", width=135),
    "hand_id": widgets.text("Hand", width=150),
    "street": widgets.count("Street", width=55),
    "ev_lost": widgets.count("EV lost", format="%.1f", width=65),
    "noise": widgets.count("± noise", format="%.1f", help="two paired standard errors of the "
                           "EV lost (from the per-deal differences of the two placements on "
                           "the same deals; 0 where the position was valued exactly)", width=65),
    "class": widgets.text("Class", help="?! inaccuracy, ? mistake, ?? blunder; a tie is within "
                          "the noise, not a mistake", width=60),
    "reason": widgets.text("Why", help="the largest difference between the played and the best",
                           width=250),
    "chosen": widgets.text("Your placement", help="where the cards dealt went; discard: the card "
                           "thrown away", width=180),
    "best": widgets.text("Best placement", help="the best placement the rollouts found (or the "
                         "tie named)", width=180),
    "dealt": widgets.text("Dealt", width=110),
    "chosen_ev": widgets.signed("EV of yours", 1, width=85),
    "best_ev": widgets.signed("EV of the best", 1, width=100),
    "kind": widgets.text("Kind", width=80),
    "board": widgets.text("Board before", help="the cards already on the board, row by row",
                          width=220),
    "fl_chase": widgets.flag("FL chase", width=70),
    "variant": widgets.text("Variant", width=110),
}
COSTLY_MAIN = ("played_at", "street", "ev_lost", "noise", "class", "chosen", "best")
# COSTLY_MAIN: the columns shown first (775 px with the selection boxes: readable at 1,280
# px); the first decision is drawn above in full, the others' reasons behind "Every column".
# The costliest decisions' table: one column per meaning, EV to a tenth of a point (what the
# rollouts can tell apart), placements in words (dashboard.cards.placement_words). Comments,
# not docstrings: Streamlit draws a bare string at the top level of a page.

NOTATION = ("Boards and placements read top · middle · bottom, naming the rows that hold "
            "cards; *discard* is the card thrown away (pineapple). Select a decision to replay "
            "its hand at that street.")

DEFINITION = (
    "**EV** is the expected points of a placement against everyone at the table, Fantasyland "
    "value included, estimated by playing the rest of the hand out many times with the "
    "unseen cards dealt at random (the same deals for every placement), every seat playing "
    "each street without seeing its future cards (OFC Double: by best-of-24, which sees "
    "them). **EV lost** is the EV "
    "of the best placement found minus the EV of the one played: what the decision cost, "
    "whatever the cards did next; **± noise** is two of its paired standard errors (the "
    "spread of the two placements' differences on the same deals), and a loss within it is a "
    "**tie**, not a mistake. **Accuracy** maps the loss beyond the noise to 0-100 (100: the "
    "best or a tie). A Fantasyland set is compared with the best set the setter "
    "finds (royalties plus the value of staying). A **Fantasyland chase** is a decision whose "
    "best placement puts a queen or better on top.")


def rows_after(board: str, placement: str) -> tuple[list[tuple[str, list[str], str]], set[str]]:
    """The rows after a placement (compact ``board`` before it, ``placement`` as stored), and
    the cards it placed.

    >>> rows, new = rows_after("Ks-2c5d-", "Qh--Kd/2c")
    >>> [r[1] for r in rows], sorted(new)
    ([['Ks', 'Qh'], ['2c', '5d'], ['Kd']], ['Kd', 'Qh'])
    """
    before = Board.parse_compact(board)
    placed = Board.parse_compact(placement.split("/")[0])
    rows = []
    for name in ("top", "middle", "bottom"):
        cards = getattr(before, name) + getattr(placed, name)
        rows.append((name, [str(c) for c in cards], ""))
    discard = placement.split("/")[1] if "/" in placement else ""
    note = f"discard {' '.join(str(c) for c in parse_compact_row(discard))}" if discard else ""
    rows[-1] = (rows[-1][0], rows[-1][1], note)
    return rows, {str(c) for c in placed.cards}


def tenth(value: float) -> str:
    """EV to a tenth of a point (no minus sign on a zero).

    >>> tenth(6.325923333333334), tenth(-0.04), tenth(-1.26)
    ('6.3', '0.0', '-1.3')
    """
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def decision_html(d: Any, four: bool) -> str:
    """One costly decision drawn: what it lost and its noise, its class, hand, street and
    dealt cards, why, then the board after the played and after the best placement side by
    side (cards placed this street outlined; a tie is named, never "the best"). One block of
    HTML (each Streamlit element costs the browser time), built from parsed cards, numbers and
    escaped text only."""
    head = (f"<b>{tenth(d.ev_lost)} ± {tenth(d.noise)} points lost</b> · "
            f"<span title=\"{html.escape(sections.CLASS_WORDS.get(str(d['class']), ''))}\">"
            f"{html.escape(sections.mark(str(d['class'])))}</span> · "
            f"hand {html.escape(str(d.hand_id))} · "
            f"street {int(d.street)} ({html.escape(str(d.kind))}) · dealt "
            f"{cards_html(str(d.dealt).split(), four)}")
    why = str(d.tie_with) if d.tie_with else str(d.reason)
    if why:
        head += f"<br>{html.escape(why)}"
    best = "Tie" if d['class'] == "tie" else "Best"
    sides = []
    for label, placement, ev, foul, fl in (
            ("Played", d.chosen, d.chosen_ev, d.chosen_foul, d.chosen_fl),
            (best, d.best, d.best_ev, d.best_foul, d.best_fl)):
        rows, new = rows_after(d.board, placement)
        sides.append(f"<div>{label}: EV {ev:+.1f} · fouls {foul:.0%} · Fantasyland {fl:.0%}"
                     f"<div class=\"ofc-board\">{board_html(rows, four, new=new)}</div></div>")
    return f'<div>{head}</div><div class="ofc-pair">{"".join(sides)}</div>'


def drawn(frame: Any, four: bool) -> None:
    """The costliest decisions as cards: played and best side by side, a button to the
    replayer at that street."""
    for k, (_, d) in enumerate(frame.head(DRAWN).iterrows()):
        with st.container(border=True):
            st.markdown(decision_html(d, four), unsafe_allow_html=True)
            if st.button("Replay", key=f"review_open_{k}", icon=":material/play_arrow:"):
                filters.open_hand(int(d.hand_key), int(d.street))


def readable(frame: pd.DataFrame) -> pd.DataFrame:
    """The costliest decisions as the table shows them: times with their zone (the offset
    column dropped), boards and placements in words, dealt cards with suit symbols."""
    words = {c: [placement_words(v) for v in frame[c]] for c in ("board", "chosen", "best")}
    shown = widgets.shown_frame(frame).assign(dealt=[pretty(v) for v in frame["dealt"]], **words)
    shown["class"] = [sections.mark(str(c)) for c in frame["class"]]
    shown["best"] = [placements_in_words(t) if t else b
                     for t, b in zip(frame["tie_with"], shown["best"], strict=True)]
    return shown[[c for c in COSTLY_COLUMNS if c in shown.columns]]


MAX_DAY_TICKS = 10
PANEL_WIDTH, PANEL_HEIGHT = 400, 200
# The four breakdowns of EV lost per hand are the panels of one Vega-Lite chart: a page's
# first Plotly chart costs the browser about 1.5 s more than a Vega-Lite one on this 2-core
# machine (Plotly's 4.7 MB script loaded and run: docs/benchmarks.md, "First loads").
PANELS = ("By street", "By kind of decision", "By day", "By variant")


def utc_day(day: pd.Timestamp) -> dict[str, Any]:
    """A day as a Vega-Lite date (month 1-12), at midnight UTC.

    >>> utc_day(pd.Timestamp("2026-03-14"))
    {'year': 2026, 'month': 3, 'date': 14, 'utc': True}
    """
    return {"year": day.year, "month": day.month, "date": day.day, "utc": True}


def day_axis(days: pd.Series) -> dict[str, Any]:
    """The x encoding of the day panel: dates on whole days (one tick every few days when
    there are many), read as dates, in UTC so no browser zone moves a day; a single day gets
    a day's room each side.

    >>> axis = day_axis(pd.Series(pd.to_datetime(["2026-03-14"])))
    >>> axis["scale"]["domain"][0]["date"], axis["axis"]["tickCount"]
    (13, {'interval': 'day', 'step': 1})
    >>> day_axis(pd.Series(pd.to_datetime(["2026-03-01", "2026-03-31"])))["axis"]["tickCount"]
    {'interval': 'day', 'step': 4}
    """
    x: dict[str, Any] = {"field": "day", "type": "temporal", "timeUnit": "utcyearmonthdate",
                         "title": None, "scale": {"type": "utc"}}
    if days.empty:
        return x
    first, last = pd.Timestamp(days.min()), pd.Timestamp(days.max())
    span = (last - first).days + 1
    x["axis"] = {"format": "%b %-d, %Y", "labelAngle": 0,
                 "tickCount": {"interval": "day", "step": max(1, -(-span // MAX_DAY_TICKS))}}
    if span <= 2:
        x["scale"]["domain"] = [utc_day(first - pd.Timedelta(days=1)),
                                utc_day(last + pd.Timedelta(days=1))]
    return x


EV_AXIS = {"field": "per_hand", "type": "quantitative", "title": "EV lost per hand",
           "axis": {"format": ".1f"}}
PER_HAND_TIP = {"field": "per_hand", "type": "quantitative", "format": ".1f",
                "title": "points per hand"}


def bar_panel(title: str, frame: pd.DataFrame, x: str) -> dict[str, Any]:
    """One panel of bars: EV lost per hand by ``x``, each bar labelled to a tenth. Labels
    from files are data values, drawn as text."""
    values = [{"x": str(v), "per_hand": float(p), "label": tenth(p)}
              for v, p in zip(frame[x], frame["per_hand"], strict=True)]
    return {"title": title, "width": PANEL_WIDTH, "height": PANEL_HEIGHT,
            "data": {"values": values},
            "encoding": {"x": {"field": "x", "type": "nominal", "sort": None, "title": None,
                               "axis": {"labelAngle": 0}}, "y": EV_AXIS},
            "layer": [{"mark": {"type": "bar", "color": widgets.BLUE},
                       "encoding": {"tooltip": [{"field": "x", "type": "nominal",
                                                 "title": title}, PER_HAND_TIP]}},
                      {"mark": {"type": "text", "dy": -7}, "encoding": {"text": {
                          "field": "label", "type": "nominal"}}}]}


def day_panel(frame: pd.DataFrame) -> dict[str, Any]:
    """The day panel: EV lost per hand on each day (the log's day), a line with points."""
    days = pd.to_datetime(frame["day"])
    values = [{"day": d.strftime("%Y-%m-%d"), "per_hand": float(p), "hands": int(h)}
              for d, p, h in zip(days, frame["per_hand"], frame["hands"], strict=True)]
    return {"title": PANELS[2], "width": PANEL_WIDTH, "height": PANEL_HEIGHT,
            "data": {"values": values},
            "mark": {"type": "line", "point": True, "color": widgets.BLUE},
            "encoding": {"x": day_axis(days), "y": EV_AXIS, "tooltip": [
                {"field": "day", "type": "temporal", "timeUnit": "utcyearmonthdate",
                 "format": "%b %-d, %Y", "title": "day"}, PER_HAND_TIP,
                {"field": "hands", "type": "quantitative", "format": ",d"}]}}


def street_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """The by-street frame with each variant's streets in their own place: the street alone
    when one variant is shown, else the variant and its street.

    >>> street_labels(pd.DataFrame({"variant": ["pineapple", "regular"], "street": [5, 5],
    ...                             "per_hand": [1.0, 2.0]}))["street"].tolist()
    ['Pineapple 5', 'Regular OFC 5']
    """
    if frame.empty or frame["variant"].nunique() <= 1:
        return frame.assign(street=[str(int(v)) for v in frame["street"]])
    return frame.assign(street=[f"{names.variant(v)} {int(n)}" for v, n in
                                zip(frame["variant"], frame["street"], strict=True)])


def breakdowns(street: pd.DataFrame, kind: pd.DataFrame, day: pd.DataFrame,
               variant: pd.DataFrame) -> dict[str, Any]:
    """EV lost per hand by street, by kind, by day (the log's day, a date axis) and by
    variant: the Vega-Lite spec of one chart of four panels, two a row."""
    return {"title": {"text": "EV lost per hand", "fontSize": 14},
            "autosize": {"type": "pad", "contains": "padding"},  # panels keep their size
            "vconcat": [{"hconcat": [bar_panel(PANELS[0], street_labels(street), "street"),
                                     bar_panel(PANELS[1], kind, "kind")]},
                        {"hconcat": [day_panel(day), bar_panel(PANELS[3], variant.assign(
                            variant=[names.variant(v) for v in variant["variant"]]),
                            "variant")]}],
            "resolve": {"scale": {"y": "independent"}}}


def costliest(current: Any) -> None:
    """The costliest decisions: the first drawn as cards, then all in a table whose selected
    row replays its hand at that street."""
    st.subheader("Costliest decisions")
    costly = db.query(q.costliest, current)
    drawn(costly, filters.four_colour())
    table = st.dataframe(readable(costly), key="review_costliest", on_select="rerun",
                         selection_mode="single-row", hide_index=True, width="stretch",
                         column_config=COSTLY_COLUMNS, placeholder=widgets.MISSING,
                         column_order=widgets.column_order("review_costliest",
                                                           tuple(COSTLY_COLUMNS)[1:],
                                                           COSTLY_MAIN))
    row = widgets.selected_row(table)
    if row is not None and row < len(costly):
        filters.open_hand(int(costly.iloc[row]["hand_key"]), int(costly.iloc[row]["street"]))
    st.caption(NOTATION)


def unreviewed_text(frame: pd.DataFrame) -> str | None:
    """The hands with no reviewed decision, by reason, in one line (``None``: there are none).

    >>> unreviewed_text(pd.DataFrame({"reason": ["the player surrendered"], "hands": [3]}))
    'Not reviewed: 3 hands (3 the player surrendered).'
    """
    if frame.empty:
        return None
    parts = "; ".join(f"{int(n):,} {reason}" for reason, n in zip(frame["reason"],
                                                                  frame["hands"], strict=True))
    total = int(frame["hands"].sum())
    return f"Not reviewed: {total:,} hand{'s' if total != 1 else ''} ({parts})."


def review_controls(current: Any) -> None:
    """The button that reviews the chosen player's hands in the filters not reviewed by this
    version (in a process of its own), the precision, the job's progress and the auto-review
    setting (dashboard.reviewing)."""
    if db.read_only():
        return
    todo = db.query(q.to_review, current, REVIEW_VERSION)
    stale = db.query(q.stale, current, REVIEW_VERSION)
    who = shown_players(current)
    if not reviewing.running():
        left, middle, right = st.columns([3, 2, 3], vertical_alignment="bottom")
        precision = middle.radio(
            "Precision", list(reviewing.PRECISIONS), key="review_precision", horizontal=True,
            help="standard: `ofc review`'s default; quick: about eight times fewer rollouts, "
            "a first look")
        label = (f"Review {len(todo):,} hand{'s' * (len(todo) != 1)} of {md_text(who)}"
                 if len(todo)
                 else "Nothing left to review")
        if left.button(label, key="review_start", type="primary", disabled=not len(todo),
                       icon=":material/troubleshoot:",
                       help="the hands in the filters not reviewed by this version of the "
                       "review, in the background: you can leave the page"):
            reviewing.start(current, who, precision)
            st.rerun()
        with right:
            reviewing.auto_setting()
        if stale:
            st.caption(f"{stale:,} hand{'s' * (stale != 1)} reviewed by an older version of the "
                       "review: reviewed again by the button.")
    reviewing.progress()


def main() -> None:
    current = widgets.start("Decision review")
    if current is None:
        return
    review_controls(current)
    s = db.query(q.summary, current)
    missing = unreviewed_text(db.query(q.unreviewed, current))
    if s.decisions == 0:
        st.info("No reviewed decisions for these filters yet: press the button above (or "
                "run `ofc review --player NAME`, docs/review.md).")
        if missing:
            st.caption(missing)
        return
    sections.headline(s)
    zone = timefmt.chosen_zone()
    zone_or_log = None if zone == timefmt.LOG_ZONE else zone
    sections.trend(current, zone_or_log)
    sections.stages(current)
    sections.leaks(current)
    costliest(current)
    st.caption(DEFINITION + (f" {missing}" if missing else ""))
    day = db.query(q.over_time, current, zone_or_log)
    st.vega_lite_chart(spec=breakdowns(db.query(q.by_street, current),
                                       db.query(q.by_kind, current), day,
                                       db.query(q.by_variant, current)),
                       key="review_breakdowns", width="content")


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
