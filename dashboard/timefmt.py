"""Times as the dashboard shows them: always with their zone, on the clock the user chose.

The store keeps each hand's moment in UTC (``played_at``) and the UTC offset its log wrote it
with (``utc_offset``, minutes; NULL when unknown). The sidebar's *Times in* choice
(:func:`render_choice`) picks the clock: the log's own (the default: a hand played at
10:00-05:00 shows ``10:00 -05:00``; a hand whose offset is not known shows UTC), UTC, or a
named zone. Every shown time carries its zone: ``2026-11-29 10:00 -05:00`` or
``2026-11-29 15:00 UTC``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

import pandas as pd
import streamlit as st

LOG_ZONE = "the log's zone"
UTC = "UTC"
KEY = "times_in"
"""The session state key (and URL parameter ``tz``) of the choice."""
URL_KEY = "tz"
OFFSET = "utc_offset"
"""The column of a query's rows holding the log's offset of its times."""
DAY = "%Y-%m-%d %H:%M"
SECOND = "%Y-%m-%d %H:%M:%S"
NO_TIME = "–"


@lru_cache(maxsize=1)
def zones() -> tuple[str, ...]:
    """The choices: the log's zone, UTC, then every named zone the system knows."""
    named = sorted(z for z in available_timezones() if "/" in z and not z.startswith("Etc/"))
    return (LOG_ZONE, UTC, *named)


def _zone_suffix(moment: Any) -> str:
    """The offset of a moment shown in a named zone (``''`` for no moment)."""
    if pd.isna(moment):
        return ""
    offset = moment.utcoffset()
    return offset_text(None if offset is None else offset.total_seconds() // 60)


def offset_text(minutes: float | None) -> str:
    """An offset as ISO 8601 writes it; UTC when unknown.

    >>> offset_text(-300), offset_text(330), offset_text(0), offset_text(None)
    ('-05:00', '+05:30', '+00:00', 'UTC')
    """
    if minutes is None or pd.isna(minutes):
        return UTC
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(int(minutes)), 60)
    return f"{sign}{hours:02d}:{rest:02d}"


def shown(moments: pd.Series, offsets: pd.Series | None = None, zone: str = LOG_ZONE,
          fmt: str = DAY) -> pd.Series:
    """Moments as text with their zone: on each log's clock (``offsets`` in minutes, UTC where
    unknown or not given), in UTC, or in the named ``zone``; a dash for none.

    >>> t = pd.Series(pd.to_datetime(["2026-11-29T15:00Z", None], utc=True))
    >>> shown(t, pd.Series([-300, None])).tolist()
    ['2026-11-29 10:00 -05:00', '–']
    >>> shown(t, pd.Series([None, None])).tolist()
    ['2026-11-29 15:00 UTC', '–']
    >>> shown(t, pd.Series([-300, None]), UTC).tolist()
    ['2026-11-29 15:00 UTC', '–']
    >>> shown(t, None, "Asia/Kolkata").tolist()
    ['2026-11-29 20:30 +05:30', '–']
    """
    utc = pd.to_datetime(pd.Series(moments), utc=True)
    if zone == UTC:
        local, suffix = utc, [UTC] * len(utc)
    elif zone == LOG_ZONE:
        minutes = [None] * len(utc) if offsets is None else [
            None if pd.isna(m) else int(m) for m in offsets]
        local = utc + pd.to_timedelta([m or 0 for m in minutes], unit="m")
        suffix = [offset_text(m) for m in minutes]
    else:
        local = utc.dt.tz_convert(ZoneInfo(zone))
        suffix = [_zone_suffix(t) for t in local]
    stamps = local.dt.strftime(fmt)
    return pd.Series([NO_TIME if pd.isna(t) else f"{t} {z}"
                      for t, z in zip(stamps, suffix, strict=True)], index=utc.index,
                     dtype=object)


def one(moment: object, offset: object = None, zone: str | None = None, fmt: str = DAY) -> str:
    """One moment as :func:`shown` writes it (in the chosen zone unless ``zone`` is given).

    >>> one(pd.Timestamp("2026-11-29T15:00Z"), -300, LOG_ZONE)
    '2026-11-29 10:00 -05:00'
    >>> one(None, zone=UTC)
    '–'
    """
    value = shown(pd.Series([moment]), pd.Series([offset]), zone or chosen_zone(), fmt)
    return str(value.iloc[0])


def chosen_zone() -> str:
    """The zone the user chose (the log's own by default)."""
    value = st.session_state.get(KEY)
    return value if isinstance(value, str) and value in zones() else LOG_ZONE


def render_choice() -> None:
    """The sidebar's *Times in* choice, seeded once from the URL (``tz``), kept there when it
    is not the default."""
    if KEY not in st.session_state:
        wanted = st.query_params.get(URL_KEY)
        st.session_state[KEY] = wanted if wanted in zones() else LOG_ZONE
    value = st.sidebar.selectbox(
        "Times in", zones(), key=KEY,
        help="The log's zone: each hand at the time its log wrote (with its UTC offset); "
             "UTC where the log gave no offset. Imports are times of this machine, in UTC.")
    if value == LOG_ZONE:
        st.query_params.pop(URL_KEY, None)
    else:
        st.query_params[URL_KEY] = value


def table_times(frame: pd.DataFrame, columns: tuple[str, ...] | None = None) -> pd.DataFrame:
    """``frame`` with its date-time columns (or ``columns``) as text in the chosen zone, on
    the offsets of its ``utc_offset`` column where it has one; that column is dropped."""
    zone = chosen_zone()
    offsets = frame[OFFSET] if OFFSET in frame else None
    names = columns if columns is not None else tuple(
        c for c in frame.columns if isinstance(frame[c].dtype, pd.DatetimeTZDtype)
        or pd.api.types.is_datetime64_any_dtype(frame[c]))
    out = frame.assign(**{c: shown(frame[c], offsets, zone) for c in names if c in frame})
    return out.drop(columns=[OFFSET]) if OFFSET in out else out
