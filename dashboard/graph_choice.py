"""How the Overview and Sessions graphs are drawn: by hand number (Sessions: in play order)
or by date, in points or in money. The choice is kept in the URL like the filters
(``?by=date&in=money``, bookmarkable; the defaults are left out) and shared by both pages.

>>> GraphChoice.from_params({"by": "date", "in": "money"})
GraphChoice(by='date', unit='money')
>>> GraphChoice.from_params({"by": "week"}).to_params()
{}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import timefmt

BY = {"hands": "By hand", "date": "By date"}
"""The x axis: hand number (Sessions: period number, in time order), or the date."""
UNITS = {"points": "Points", "money": "Money"}
"""The y axis: points, or money (per currency, from the stakes)."""
URL_BY, URL_UNIT = "by", "in"
_SHADOW = "_ofc_graph_choice"
"""Where the choice survives the pages without the controls (widget state does not)."""


@dataclass(frozen=True, slots=True)
class GraphChoice:
    by: str = "hands"
    unit: str = "points"

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> GraphChoice:
        """The choice a URL names; an unknown value is the default."""
        by, unit = params.get(URL_BY), params.get(URL_UNIT)
        return cls(by if by in BY else "hands", unit if unit in UNITS else "points")

    def to_params(self) -> dict[str, str]:
        """The URL parameters of this choice (the defaults left out)."""
        out: dict[str, str] = {}
        if self.by != "hands":
            out[URL_BY] = self.by
        if self.unit != "points":
            out[URL_UNIT] = self.unit
        return out


def choose(key: str) -> GraphChoice:
    """Two segmented controls, side by side (``key``: the page's), opening on the URL's
    choice, else the one made on the other page; the choice is written to the URL."""
    kept = st.session_state.get(_SHADOW)
    url = st.query_params.to_dict()
    if URL_BY in url or URL_UNIT in url or not isinstance(kept, GraphChoice):
        start = GraphChoice.from_params(url)
    else:
        start = kept
    left, right = st.columns(2)
    by = left.segmented_control("Draw by", list(BY), default=start.by,
                                format_func=lambda v: BY[v], key=f"{key}_by")
    unit = right.segmented_control("In", list(UNITS), default=start.unit,
                                   format_func=lambda v: UNITS[v], key=f"{key}_unit")
    choice = GraphChoice(by or start.by, unit or start.unit)
    st.session_state[_SHADOW] = choice
    wanted = choice.to_params()
    for name in (URL_BY, URL_UNIT):
        value = wanted.get(name)
        if value is None:
            st.query_params.pop(name, None)
        elif st.query_params.get(name) != value:
            st.query_params[name] = value
    return choice


def current(key: str) -> GraphChoice:
    """The choice :func:`choose` with this ``key`` is about to draw, read before it is drawn
    (tiles above the graph follow it): the controls' state, else the URL's, else the one
    kept from the other page."""
    kept = st.session_state.get(_SHADOW)
    url = st.query_params.to_dict()
    start = (GraphChoice.from_params(url) if URL_BY in url or URL_UNIT in url
             or not isinstance(kept, GraphChoice) else kept)
    by, unit = st.session_state.get(f"{key}_by"), st.session_state.get(f"{key}_unit")
    return GraphChoice(by if by in BY else start.by, unit if unit in UNITS else start.unit)


def local_times(moments: pd.Series, offsets: pd.Series | None) -> pd.Series:
    """Moments as wall-clock times (no zone) on the clock the user chose for times
    (:func:`dashboard.timefmt.chosen`): each log's own by default, for a date axis.

    >>> t = pd.Series(pd.to_datetime(["2026-11-29T15:00Z"], utc=True))
    >>> str(local_times(t, pd.Series([-300])).iloc[0])
    '2026-11-29 10:00:00'
    """
    zone = timefmt.chosen_zone() if st.runtime.exists() else timefmt.LOG_ZONE
    utc = pd.to_datetime(pd.Series(moments), utc=True)
    if zone == timefmt.LOG_ZONE:
        minutes = pd.Series(offsets if offsets is not None else [0] * len(utc),
                            index=utc.index).astype("Float64").fillna(0)
        return utc.dt.tz_localize(None) + pd.to_timedelta(minutes.astype(float), unit="m")
    return utc.dt.tz_convert(zone).dt.tz_localize(None)


def day_zone() -> str | None:
    """The zone the days of a graph by date are in: ``None`` for each log's own clock."""
    zone = timefmt.chosen_zone()
    return None if zone == timefmt.LOG_ZONE else zone
