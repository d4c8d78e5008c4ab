"""Time at the table as the pages show it: hours played, sittings and the rates an hour
(:mod:`dashboard.queries.table_time` computes them), and the Sessions table's hour columns."""

from __future__ import annotations

import pandas as pd

from dashboard import widgets
from dashboard.queries.table_time import SITTING_BREAK_MINUTES, TableTime

SITTING_HELP = (f"A stretch of play without a break of more than {SITTING_BREAK_MINUTES} "
                "minutes between two hands, at any table: sessions at two tables played at "
                "the same time are one sitting.")
HOURS_HELP = ("Each hand counts the time until your next hand at any table (a sitting's last "
              "hand: a typical hand's time); hands without a date have none.")


def duration(seconds: float | None) -> str:
    """A time at the table in hours and minutes.

    >>> duration(72066), duration(657), duration(59), duration(None)
    ('20 h 01 min', '11 min', '1 min', '–')
    """
    if seconds is None or pd.isna(seconds):
        return widgets.MISSING
    minutes = max(1, int(float(seconds) / 60 + 0.5))  # half a minute up
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def rate(value: float | None, digits: int = 1, unit: str = "") -> str:
    """A signed amount an hour, with its unit; a dash without time.

    >>> rate(71.03), rate(-2.5, 2, "EUR"), rate(None)
    ('+71.0', '-2.50 EUR', '–')
    """
    if value is None or pd.isna(value):
        return widgets.MISSING
    return f"{value:+,.{digits}f} {unit}".strip()


def money_an_hour(t: TableTime, money: tuple[tuple[str, float, int], ...]) -> str:
    """Each currency's money an hour over the hours of the hands with that stake.

    >>> t = TableTime(7200.0, 7200.0, (("EUR", 3600.0),), 1, 10, 0)
    >>> money_an_hour(t, (("EUR", 12.0, 10),))
    '+12.00 EUR'
    """
    spent = dict(t.money_seconds)
    parts = [rate(t.per_hour(amount, spent.get(currency, 0.0)), 2, currency)
             for currency, amount, _ in money]
    return " · ".join(parts) if parts else widgets.MISSING


def tiles(t: TableTime, net_points: float, money: tuple[tuple[str, float, int], ...],
          unit: str = "points") -> list[tuple[str, str, str]]:
    """The Overview's row of time at the table: hours (hands an hour under it), sittings,
    and points or money an hour (``unit``, the Points/Money choice), the other under it."""
    hands = t.hands_per_hour
    under = f"{hands:,.0f} hands an hour" if hands is not None else "no dated hands"
    if t.undated:
        under += f"; {t.undated:,} undated hands not timed"
    points = ("Points an hour", rate(t.per_hour(net_points)), "net points over their hours")
    cash = ("Money an hour", money_an_hour(t, money), "hands with a stake")
    return [("Hours played", duration(t.seconds), under),
            ("Sittings", f"{t.sittings:,}", f"a break over {SITTING_BREAK_MINUTES} min ends one"),
            *((cash, points) if unit == "money" else (points, cash))]


HOUR_COLUMNS = {
    "hours": widgets.text("Time", help=HOURS_HELP, width=70),
    "per_hour": widgets.signed("Points / hour", 1, width=95),
    "money_per_hour": widgets.signed("Money / hour", 2, width=95),
    "hands_per_hour": widgets.count("Hands / hour", format="%.0f", width=90),
    "sitting": widgets.text("Sitting", help=SITTING_HELP, width=65),
}
"""The Sessions table's columns of time at the table (see :func:`with_hours`)."""


def sitting_text(first: float, last: float) -> str:
    """The sitting (or sittings) a row falls in, numbered in time order.

    >>> sitting_text(2.0, 2.0), sitting_text(1.0, 3.0), sitting_text(float("nan"), 1.0)
    ('2', '1–3', '–')
    """
    if pd.isna(first) or pd.isna(last):
        return widgets.MISSING
    return f"{int(first)}" if first == last else f"{int(first)}–{int(last)}"


def with_hours(frame: pd.DataFrame, timed: pd.DataFrame) -> pd.DataFrame:
    """The periods of :func:`dashboard.queries.sessions.period_table` with their time at the
    table (:func:`dashboard.queries.table_time.by_period`): ``seconds``, ``hours`` as text,
    points, money and hands an hour, and the sitting(s) each falls in."""
    out = frame.merge(timed, on="period", how="left")
    seconds = out["seconds"].where(out["seconds"] > 0)
    plain = out["plain_seconds"].where(out["plain_seconds"] > 0)
    cash = out["money_seconds"].where(out["money_seconds"] > 0)
    points = out["plain_points"] if "plain_points" in out else out["points"]
    return out.assign(
        hours=[duration(s) for s in seconds],
        per_hour=points * 3600 / plain,
        money_per_hour=out["money"] * 3600 / cash,
        hands_per_hour=out["hands"] * 3600 / seconds,
        sitting=[sitting_text(a, b) for a, b in zip(out["first_sitting"],
                                                    out["last_sitting"], strict=True)])
