"""Review page queries: the decisions ``ofc review`` stored (docs/review.md), for the player.

A decision row is joined to its hand and to the player's row of it, so the shared filters
apply. "EV lost per hand" divides by the reviewed hands (hands with at least one decision).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from dashboard.queries.common import (
    PLAYER_HANDS,
    PLAYER_ROWS,
    RACE,
    Filters,
    fetch_all,
    fetch_df,
    where,
)
from ofc_core.play import reviewable

DECISIONS = ("FROM decisions d JOIN hands h ON h.source = d.source AND h.hand_id = d.hand_id "
             "JOIN hand_players hp ON hp.hand_key = h.hand_key AND hp.player = d.player")
"""The FROM clause of every query here: one row per decision, with the filters' aliases."""


CHASE = "fantasyland chase"
"""The fourth kind the page shows: decisions whose best placement aimed at QQ+ on top."""


@dataclass(frozen=True, slots=True)
class Summary:
    hands: int
    decisions: int
    ev_lost: float
    costly: int
    """Decisions that lost more than one point."""

    @property
    def per_hand(self) -> float | None:
        return self.ev_lost / self.hands if self.hands else None


def summary(con: Any, filters: Filters) -> Summary:
    cond, params = where(filters)
    hands, decisions, lost, costly = fetch_all(con, f"""
        SELECT count(DISTINCT h.hand_key), count(*), coalesce(sum(d.ev_lost), 0),
               count(*) FILTER (WHERE d.ev_lost > 1)
        {DECISIONS} WHERE {cond}""", params)[0]
    return Summary(int(hands), int(decisions), float(lost), int(costly))


NOISE = "2 * sqrt(coalesce(d.chosen_se, 0) ^ 2 + coalesce(d.best_se, 0) ^ 2)"
"""Two standard errors of a decision's EV lost (best minus played, each valued on its own
rollouts): an EV lost no larger is within the noise of the rollouts. An exact position has no
noise (standard errors 0). For example EV lost 0.5 with standard errors 0.3 and 0.4 is within
the noise (2 x 0.5 = 1.0); EV lost 1.5 is not."""


def costliest(con: Any, filters: Filters, limit: int = 50) -> pd.DataFrame:
    """The decisions that lost the most, costliest first, with the ``noise`` of each EV lost
    (:data:`NOISE`) and whether it is ``within_noise``."""
    cond, params = where(filters)
    return fetch_df(con, f"""
        SELECT h.hand_key, h.played_at, h.utc_offset, h.hand_id, d.street, d.kind, d.board,
               d.dealt, d.chosen,
               d.chosen_ev, d.best, d.best_ev, d.ev_lost, {NOISE} AS noise,
               d.ev_lost <= {NOISE} AS within_noise, d.fl_chase, h.variant
        {DECISIONS} WHERE {cond}
        ORDER BY d.ev_lost DESC, h.hand_key, d.street LIMIT ?""", [*params, limit])


def _per_hand(con: Any, filters: Filters, group: str, label: str) -> pd.DataFrame:
    """EV lost per reviewed hand, by ``group`` (a SQL expression named ``label``)."""
    cond, params = where(filters)
    return fetch_df(con, f"""
        WITH reviewed AS (SELECT count(DISTINCT h.hand_key) AS n {DECISIONS} WHERE {cond})
        SELECT {group} AS {label}, count(*) AS decisions, sum(d.ev_lost) AS ev_lost,
               sum(d.ev_lost) / any_value(reviewed.n) AS per_hand,
               avg(d.ev_lost) AS per_decision
        {DECISIONS}, reviewed WHERE {cond}
        GROUP BY 1 ORDER BY 1""", [*params, *params])


def by_street(con: Any, filters: Filters) -> pd.DataFrame:
    return _per_hand(con, filters, "d.street", "street")


STAGES = ("first five", "middle streets", "last street", "Fantasyland")
"""The stages of a hand the page shows EV lost by, in this order."""

STAGE = f"""CASE WHEN d.kind = 'fantasyland set' THEN '{STAGES[3]}'
                 WHEN d.street = 1 THEN '{STAGES[0]}'
                 WHEN d.street = max(d.street) OVER (PARTITION BY d.source, d.hand_id, d.player)
                 THEN '{STAGES[2]}'
                 ELSE '{STAGES[1]}' END"""
"""A decision's stage: a Fantasyland set; the first five; the last street (the hand's
highest reviewed street of that player: 5 in pineapple, 9 in regular); the streets between
(2-4 in pineapple)."""


def by_kind(con: Any, filters: Filters) -> pd.DataFrame:
    """EV lost per hand by stage of the hand (:data:`STAGES`), plus Fantasyland chases
    (decisions that are also counted in their stage)."""
    cond, params = where(filters)
    order = " ".join(f"WHEN '{name}' THEN {n}" for n, name in enumerate(STAGES))
    kinds = fetch_df(con, f"""
        WITH reviewed AS (SELECT count(DISTINCT h.hand_key) AS n {DECISIONS} WHERE {cond}),
             staged AS (SELECT d.ev_lost, {STAGE} AS kind {DECISIONS} WHERE {cond})
        SELECT kind, count(*) AS decisions, sum(ev_lost) AS ev_lost,
               sum(ev_lost) / any_value(reviewed.n) AS per_hand, avg(ev_lost) AS per_decision
        FROM staged, reviewed GROUP BY 1 ORDER BY CASE kind {order} END""",
                     [*params, *params])
    chases = fetch_df(con, f"""
        WITH reviewed AS (SELECT count(DISTINCT h.hand_key) AS n {DECISIONS} WHERE {cond})
        SELECT '{CHASE}' AS kind, count(*) AS decisions, coalesce(sum(d.ev_lost), 0) AS ev_lost,
               coalesce(sum(d.ev_lost), 0) / any_value(reviewed.n) AS per_hand,
               avg(d.ev_lost) AS per_decision
        {DECISIONS}, reviewed WHERE {cond} AND d.fl_chase""", [*params, *params])
    return pd.concat([kinds, chases[chases["decisions"] > 0]], ignore_index=True)


def by_variant(con: Any, filters: Filters) -> pd.DataFrame:
    """EV lost per hand within each variant (each variant's own reviewed hands)."""
    cond, params = where(filters)
    return fetch_df(con, f"""
        SELECT h.variant, count(DISTINCT h.hand_key) AS hands, count(*) AS decisions,
               sum(d.ev_lost) AS ev_lost, sum(d.ev_lost) / count(DISTINCT h.hand_key) AS per_hand
        {DECISIONS} WHERE {cond} GROUP BY 1 ORDER BY 1""", params)


def local_day(zone: str | None = None) -> tuple[str, list[Any]]:
    """The SQL day of ``h.played_at`` on the clock the user chose (``dashboard.timefmt``): the
    log's own (``None``: by its ``utc_offset``, UTC where the log gave none), or the named
    ``zone`` (``'UTC'`` included); the same whatever DuckDB's own time zone.

    >>> local_day("Asia/Kolkata")
    ('CAST(timezone(?, h.played_at) AS DATE)', ['Asia/Kolkata'])
    """
    if zone is None:
        return ("CAST(timezone('UTC', h.played_at) + to_minutes(coalesce(h.utc_offset, 0)) "
                "AS DATE)"), []
    return "CAST(timezone(?, h.played_at) AS DATE)", [zone]


def over_time(con: Any, filters: Filters, zone: str | None = None) -> pd.DataFrame:
    """EV lost per reviewed hand by day played, days on the clock of ``zone``
    (:func:`local_day`)."""
    cond, params = where(filters)
    day, named = local_day(zone)
    return fetch_df(con, f"""
        SELECT {day} AS day, count(DISTINCT h.hand_key) AS hands,
               sum(d.ev_lost) / count(DISTINCT h.hand_key) AS per_hand
        {DECISIONS} WHERE {cond} AND h.played_at IS NOT NULL GROUP BY 1 ORDER BY 1""",
                    [*named, *params])


NOT_YET = "not reviewed yet: the Review button above, or ofc review --player NAME"
"""The Review page's reason for a hand that could be reviewed but has no decision stored."""

NOT_KNOWN = ("not known: stored before schema version 9 (run ofc rescore, or write the Parquet "
             "files again)")
"""The reason shown for a row that has no stored ``review_reason`` (Parquet files written
before the column, a hand rescoring could not rebuild)."""


def unreviewed(con: Any, filters: Filters) -> pd.DataFrame:
    """``reason, hands``: the player's hands in these filters with no reviewed decision, by
    the reason ``ofc review`` gives (:func:`ofc_core.play.reviewable.why_not`, stored with
    each row as ``hand_players.review_reason``; :data:`NOT_YET` when nothing stops it), most
    first. The player's rows by reason, less those with a decision stored (found from the
    decisions, usually far fewer than the hands: no search of every hand's decisions)."""
    cond, params = where(filters)
    texts = [NOT_YET, *reviewable.REASONS]  # by code
    return fetch_df(con, f"""
        WITH every AS (SELECT hp.review_reason AS code, count(*) AS n {PLAYER_ROWS}
                       WHERE {cond} GROUP BY 1),
             decided AS MATERIALIZED (
                SELECT h.hand_key, d.player
                FROM (SELECT DISTINCT source, hand_id, player FROM decisions) d
                JOIN hands h ON h.source = d.source AND h.hand_id = d.hand_id),
             reviewed AS (
                SELECT hp.review_reason AS code, count(*) AS n
                {PLAYER_ROWS} JOIN decided r ON r.hand_key = hp.hand_key AND r.player = hp.player
                WHERE {cond} GROUP BY 1)
        SELECT coalesce(list_extract(?::VARCHAR[], e.code + 1), ?) AS reason,
               e.n - coalesce(r.n, 0) AS hands
        FROM every e LEFT JOIN reviewed r ON r.code IS NOT DISTINCT FROM e.code
        WHERE e.n > coalesce(r.n, 0)
        ORDER BY 2 DESC, 1""", [*params, *params, texts, NOT_KNOWN])


def to_review(con: Any, filters: Filters, version: str) -> pd.DataFrame:
    """``source, hand_id, player``: the chosen player's hands in these filters that a review
    can value (no stored reason not to) with no decision of this ``version`` yet, oldest
    first: what the page's "Review" button sends to the review job."""
    cond, params = where(filters)
    return fetch_df(con, f"""
        SELECT h.source, h.hand_id, hp.player {PLAYER_HANDS}
        WHERE {cond} AND coalesce(hp.review_reason, 0) = 0
          AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.source = h.source
                          AND d.hand_id = h.hand_id AND d.player = hp.player
                          AND d.version = ?)
        ORDER BY h.played_at NULLS FIRST, h.hand_key""", [*params, version])


def stale(con: Any, filters: Filters, version: str) -> int:
    """Hands in these filters whose decisions were reviewed by an older version of the review
    only (reviewed again by the next review)."""
    cond, params = where(filters)
    row = fetch_all(con, f"""
        SELECT count(DISTINCT h.hand_key) {DECISIONS} WHERE {cond}
          AND NOT EXISTS (SELECT 1 FROM decisions n WHERE n.source = d.source
                          AND n.hand_id = d.hand_id AND n.player = d.player
                          AND n.version = ?)""", [*params, version])
    return int(row[0][0])


def at_street(con: Any, hand_key: int, street: int) -> pd.DataFrame:
    """The reviewed decisions of one street of a hand (one per reviewed player), with the
    ``noise`` of each EV lost and whether it is ``within_noise`` (:data:`NOISE`)."""
    return fetch_df(con, f"""
        SELECT d.player, d.kind, d.chosen, d.chosen_ev, d.chosen_se, d.best, d.best_ev,
               d.best_se, d.ev_lost, {NOISE} AS noise, d.ev_lost <= {NOISE} AS within_noise,
               d.rollouts
        FROM decisions d JOIN hands h ON h.source = d.source AND h.hand_id = d.hand_id
        WHERE h.hand_key = ? AND d.street = ? ORDER BY d.player""", [hand_key, street])


def expected_first(con: Any, filters: Filters) -> pd.DataFrame:
    """``hand_key, expected``: the EV of the filtered player's position (or mine) after the
    first placement of each reviewed hand (the first five's ``chosen_ev``) — the luck line's
    points. Race hands (OFC Double) are left out: their EV is a difference of banks, their
    points a bank."""
    cond, params = where(Filters(player=filters.player, me=filters.me,
                                 me_skip=filters.me_skip))
    return fetch_df(con, f"""
        SELECT h.hand_key, d.chosen_ev AS expected
        {DECISIONS}
        WHERE {cond} AND d.street = 1 AND d.kind = 'first five'
          AND h.scoring <> ?""", [*params, RACE])


BENCHMARK_QUERIES = [
    ("summary", summary),
    ("costliest", costliest),
    ("by_street", by_street),
    ("by_kind", by_kind),
    ("by_variant", by_variant),
    ("over_time", over_time),
    ("unreviewed", unreviewed),
]
"""What the Review page runs on first load (``benchmarks/bench_dashboard.py``)."""
