"""The room's result beside ours on the hand page: for each player, our points, foul,
royalties and Fantasyland, and the room's where the log reports them and they differ, with
the reason the audit can give (:mod:`ingest.audit` compares the same columns).

A log that reports the room's foul, royalties or Fantasyland cards says why its points
differ: the pineapple app scoring a player fouled whom the rules do not (or the other way),
counting other royalties, or granting other Fantasyland cards. When only the points are
reported, or all else agrees, the reason is the settlement: the room's before-caps points
against ours tell a table-stakes cap from a scoring difference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import names, widgets
from dashboard.cards import md_text

COLUMNS = {
    "player": widgets.text("Player", width=90),
    "fouled": widgets.flag("Fouled", width=60),
    "royalties": widgets.count("Royalties", width=70),
    "fl": widgets.text("Fantasyland next", width=105),
    "raw_points": widgets.signed("Before caps", 1, width=80),
    "points": widgets.signed("Our points", 1, width=80),
    "room_points": widgets.text("Room's points", width=90),
    "room_differs": widgets.text("The room's result, where it differs", width=215,
                                 help="In full in the warning below the table"),
}
"""The columns, 790 px in all: readable at 1,280 px beside the sidebar."""


def _given(value: Any) -> bool:
    return value is not None and not pd.isna(value)


def fl_text(cards: Any) -> str:
    """Fantasyland cards earned for the next hand, in words.

    >>> fl_text(14), fl_text(0), fl_text(None)
    ('14 cards', 'none', '–')
    """
    if not _given(cards):
        return widgets.MISSING
    return f"{int(cards)} cards" if int(cards) else "none"


def differences(seat: Mapping[Any, Any]) -> list[str]:
    """What the room reports differently from us for one player, each with both values.

    >>> differences({"fouled": False, "reported_fouled": True, "royalties": 6,
    ...              "reported_royalties": 0, "fantasyland_next": 0, "reported_fl_next": None,
    ...              "points": 6.0, "reported_points": -6.0, "raw_points": 6.0,
    ...              "reported_raw_points": None})
    ['fouled (ours: not fouled)', 'royalties 0 (ours: 6)', 'points -6 (ours: +6)']
    """
    out = []
    if _given(seat.get("reported_fouled")) and bool(seat["reported_fouled"]) != bool(
            seat["fouled"]):
        out.append("fouled (ours: not fouled)" if seat["reported_fouled"]
                   else "not fouled (ours: fouled)")
    theirs: Any = seat.get("reported_royalties")
    if _given(theirs) and int(theirs) != int(seat["royalties"]):
        out.append(f"royalties {int(theirs)} (ours: {int(seat['royalties'])})")
    theirs = seat.get("reported_fl_next")
    if _given(theirs) and int(theirs) != int(seat["fantasyland_next"]):
        out.append(f"Fantasyland {fl_text(theirs)} (ours: {fl_text(seat['fantasyland_next'])})")
    theirs = seat.get("reported_raw_points")
    if _given(theirs) and abs(float(theirs) - float(seat["raw_points"])) > 1e-9:
        out.append(f"before caps {float(theirs):+g} (ours: {float(seat['raw_points']):+g})")
    theirs = seat.get("reported_points")
    if _given(theirs) and abs(float(theirs) - float(seat["points"])) > 1e-9:
        out.append(f"points {float(theirs):+g} (ours: {float(seat['points']):+g})")
    return out


def reason(seat: Mapping[Any, Any]) -> str | None:
    """Why the room's result for one player differs from ours, as far as the log tells;
    ``None`` when it does not differ.

    >>> reason({"player": "583dd8fd", "fouled": False, "reported_fouled": True,
    ...         "royalties": 2, "reported_royalties": 0, "fantasyland_next": 0,
    ...         "reported_fl_next": 0, "points": 4.0, "reported_points": -6.0,
    ...         "raw_points": 4.0, "reported_raw_points": None})
    '583dd8fd: the room scores this board as fouled, our rules do not (so no royalties)'
    """
    found = differences(seat)
    if not found:
        return None
    who = str(seat["player"])
    if found[0].startswith("fouled"):
        return f"{who}: the room scores this board as fouled, our rules do not (so no royalties)"
    if found[0].startswith("not fouled"):
        return f"{who}: our rules find this board fouled, the room does not"
    if found[0].startswith("royalties"):
        return f"{who}: the room counts other royalties ({found[0]})"
    if found[0].startswith("Fantasyland"):
        return f"{who}: the room grants other Fantasyland cards ({found[0]})"
    if found[0].startswith("before caps"):
        return f"{who}: the room scores the rows differently ({found[0]})"
    capped = _given(seat.get("reported_raw_points"))
    return (f"{who}: the same result before caps, another one after: the room applies table "
            "stakes (its points cap) differently" if capped else
            f"{who}: {found[0]}; the log reports no foul, royalties or Fantasyland to say why")


def table(seats: pd.DataFrame) -> pd.DataFrame:
    """The hand page's result table: ours, and the room's where the log gives it."""
    records = seats.to_dict("records")
    return pd.DataFrame({
        "player": [names.player(r["player"]) for r in records],
        "fouled": [bool(r["fouled"]) for r in records],
        "royalties": [int(r["royalties"]) for r in records],
        "fl": [fl_text(r["fantasyland_next"]) for r in records],
        "raw_points": [float(r["raw_points"]) for r in records],
        "points": [float(r["points"]) for r in records],
        "room_points": [f"{float(r['reported_points']):+g}" if _given(r.get("reported_points"))
                        else "not reported" for r in records],
        "room_differs": ["; ".join(differences(r)) or ("same" if _reported(r) else "–")
                         for r in records],
    })


def _reported(seat: Mapping[Any, Any]) -> bool:
    return any(_given(seat.get(c)) for c in ("reported_points", "reported_fouled",
                                             "reported_royalties", "reported_fl_next"))


def show(seats: pd.DataFrame) -> None:
    """The table, then a warning naming what differs and why (none when the room agrees)."""
    st.dataframe(table(seats), hide_index=True, width="stretch", key="hand_players",
                 column_config=COLUMNS, column_order=tuple(COLUMNS))
    records = [{**r, "player": names.player(r["player"])} for r in seats.to_dict("records")]
    reasons = [r for r in (reason(s) for s in records) if r]
    if reasons:
        st.warning("The room's result differs from ours. " + " ".join(
            f"{md_text(r)}." for r in reasons))
    elif not any(_reported(r) for r in records):
        st.caption("This log reports no result of the room's to compare with.")
