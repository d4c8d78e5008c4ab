"""The replayer's review: the key moments of a reviewed hand (each street of the player marked
by its class, ``?!``, ``?``, ``??`` as chess players read them, words on hover, a click goes
there), the EV of the hand after each of the player's decisions drawn as a line (played
against best), and under the street shown: the verdict with its paired noise, the reason, the
tie named, and the alternatives the review kept.
"""

from __future__ import annotations

import html
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import db, names, widgets
from dashboard.cards import md_text, placement_html, placements_in_words
from dashboard.queries import review as review_q
from dashboard.review_sections import CLASS_MARKS, CLASS_WORDS


def moment_label(street: int, name: str) -> str:
    """A street's button: its number and its class's mark.

    >>> moment_label(2, "blunder"), moment_label(3, "tie")
    ('Street 2 ??', 'Street 3')
    """
    sign = CLASS_MARKS.get(name)
    return f"Street {street} {sign}" if sign else f"Street {street}"


def ev_spec(line: pd.DataFrame) -> dict[str, Any]:
    """The EV of the hand after each decision of each reviewed player, the played and the
    best placement's, as lines through the streets (a Vega-Lite spec)."""
    records: list[dict[Any, Any]] = line.to_dict("records")
    values = [{"street": int(r["street"]), "ev": float(r[f"{column}_ev"]), "what": what,
               "player": str(r["player"]), "class": str(r["decision_class"])}
              for r in records for what, column in (("played", "chosen"), ("best", "best"))]
    many = line["player"].nunique() > 1
    colour = {"field": "what", "type": "nominal", "title": None,
              "scale": {"domain": ["played", "best"], "range": [widgets.BLUE, "#9aa0a6"]}}
    spec: dict[str, Any] = {
        "width": "container", "height": 150,
        "data": {"values": values}, "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {"field": "street", "type": "ordinal", "title": "street",
                  "axis": {"labelAngle": 0}},
            "y": {"field": "ev", "type": "quantitative", "title": "EV (points)"},
            "color": colour,
            "tooltip": [{"field": "street", "type": "ordinal"},
                        {"field": "what", "type": "nominal"},
                        {"field": "ev", "type": "quantitative", "format": "+.1f"},
                        {"field": "class", "type": "nominal"}]}}
    if many:
        spec["encoding"]["strokeDash"] = {"field": "player", "type": "nominal"}
    return spec


def key_moments(hand_key: int, step_key: str, steps: int) -> None:
    """The reviewed player's streets as buttons marked by class (hover: the words), then the
    EV line; a click moves the replayer to that street."""
    line = db.query(review_q.hand_line, hand_key)
    if line.empty:
        return
    for player, mine in line.groupby("player", sort=True):
        columns = st.columns(max(len(mine), 1) + 1, vertical_alignment="center")
        columns[0].markdown(f"Key moments of **{md_text(names.player(player))}**")
        for col, r in zip(columns[1:], mine.itertuples(index=False), strict=False):
            name = str(r.decision_class)
            words = CLASS_WORDS.get(name, name)
            if r.ev_lost > 0:
                words += f" ({r.ev_lost:.1f} ± {2 * r.ev_lost_se:.1f} points lost)"
            col.button(moment_label(int(r.street), name),
                       key=f"moment_{hand_key}_{md_text(str(player))}_{int(r.street)}",
                       help=words, on_click=_go, args=(step_key, int(r.street), steps),
                       type="primary" if name in CLASS_MARKS else "secondary")
    st.vega_lite_chart(spec=ev_spec(line), key=f"ev_line_{hand_key}", width="stretch")
    st.caption("The EV of the hand after each decision: the played placement against the best "
               "found. Marks: ?! inaccuracy, ? mistake, ?? blunder (hover for the words; a "
               "click replays that street).")


def _go(step_key: str, street: int, steps: int) -> None:
    st.session_state[step_key] = min(steps, max(1, street))


def verdict(d: Any) -> str:
    """A decision's verdict in markdown: its class (a tie named as such), the EV lost and its
    noise."""
    name = str(d["class"])
    if name == "best" or d["ev_lost"] <= 0:
        return "the best placement found"
    lost = f"**{d['ev_lost']:.1f} points lost** (± {d['noise']:.1f})"
    if name == "tie":
        return f"{lost}, within the noise: a tie, not a mistake"
    return f"{lost}: {CLASS_MARKS.get(name, '')} {name}"


def reviewed_street(hand_key: int, street: int, four: bool) -> None:
    """What the review found for this street, for each reviewed player: the verdict, why, the
    played and the best (or the tie named), then the alternatives the review kept."""
    for _, d in db.query(review_q.at_street, hand_key, street).iterrows():
        st.markdown(f":material/insights: Review of {md_text(names.player(d['player']))}'s "
                    f"{md_text(str(d['kind']))}: {verdict(d)}")
        why = str(d["tie_with"] or d["reason"])
        if why:
            st.caption(md_text(placements_in_words(why)))
        shown = [("played", d["chosen"], d["chosen_ev"], d["chosen_se"], d["chosen_foul"],
                  d["chosen_fl"])]
        if d["ev_lost"] > 0:
            label = "a tie with" if d["class"] == "tie" else "best found"
            shown.append((label, d["best"], d["best_ev"], d["best_se"], d["best_foul"],
                          d["best_fl"]))
        st.markdown(" · ".join(
            f'<span class="ofc-row-note">{html.escape(label)}</span> '
            f"{placement_html(placement, four)} EV {ev:+.1f} ± {se:.1f}, fouls {foul:.0%}, "
            f"Fantasyland {fl:.0%}"
            for label, placement, ev, se, foul, fl in shown), unsafe_allow_html=True)
        alternatives(hand_key, street, str(d["player"]), four)


def alternatives(hand_key: int, street: int, player: str, four: bool) -> None:
    """The placements the review kept, best first, with how far each is below the best and
    that difference's paired noise."""
    frame = db.query(review_q.alternatives, hand_key, street, player)
    if frame.empty:
        return
    items = []
    for r in frame.itertuples(index=False):
        below = ("the best" if r.rank == 1 else
                 f"{r.diff:.1f} ± {2 * r.diff_se:.1f} below")
        items.append(f"<li>{int(r.rank)}. {placement_html(r.placement, four)} EV {r.ev:+.1f} "
                     f"({html.escape(below)}; fouls {r.foul:.0%}, Fantasyland {r.fl:.0%})</li>")
    st.markdown(f'<div class="ofc-row-note">The review\'s top placements</div>'
                f"<ul>{''.join(items)}</ul>", unsafe_allow_html=True)
