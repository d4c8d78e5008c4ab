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
from ofc_core.play.accuracy import CLASSES, NOISE_Z
from ofc_core.play.situations import SITUATIONS, situations_of

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
    """Decisions that lost more than one point beyond their noise."""
    beyond: float = 0.0
    """EV lost beyond the noise (:data:`BEYOND`), summed."""
    accuracy: float | None = None
    """The mean of the decisions' accuracies (ofc_core.play.accuracy)."""
    classes: tuple[int, ...] = ()
    """Decisions of each class, in the order of :data:`CLASSES`."""

    @property
    def per_hand(self) -> float | None:
        return self.ev_lost / self.hands if self.hands else None

    @property
    def beyond_per_hand(self) -> float | None:
        return self.beyond / self.hands if self.hands else None

    def count(self, name: str) -> int:
        return self.classes[CLASSES.index(name)] if self.classes else 0


BEYOND = f"greatest(d.ev_lost - {NOISE_Z} * d.ev_lost_se, 0)"
"""A decision's EV lost beyond its noise (``ofc_core.play.accuracy.beyond_noise``)."""


def summary(con: Any, filters: Filters) -> Summary:
    cond, params = where(filters)
    counts = ", ".join(f"count(*) FILTER (WHERE d.class = '{c}')" for c in CLASSES)
    row = fetch_all(con, f"""
        SELECT count(DISTINCT h.hand_key), count(*), coalesce(sum(d.ev_lost), 0),
               count(*) FILTER (WHERE {BEYOND} > 1), coalesce(sum({BEYOND}), 0),
               avg(d.accuracy), {counts}
        {DECISIONS} WHERE {cond}""", params)[0]
    hands, decisions, lost, costly, beyond, acc, *classes = row
    return Summary(int(hands), int(decisions), float(lost), int(costly), float(beyond),
                   None if acc is None else float(acc), tuple(int(c) for c in classes))


NOISE = f"{NOISE_Z} * d.ev_lost_se"
"""The noise of a decision's EV lost: two of its paired standard errors (the spread of the
per-deal differences between the played and the best placement on the deals both were valued
on; 0 for an exact position). An EV lost no larger is a tie (``class = 'tie'``): for example
EV lost 0.5 with a paired error of 0.3 (noise 0.6) is a tie; EV lost 1.5 is not."""


def costliest(con: Any, filters: Filters, limit: int = 50) -> pd.DataFrame:
    """The decisions that lost the most beyond their noise, costliest first, with the
    ``noise`` of each EV lost (:data:`NOISE`), its class and accuracy, the reason and the
    tie named, and the chances to foul and to reach Fantasyland of the played and the best."""
    cond, params = where(filters)
    return fetch_df(con, f"""
        SELECT h.hand_key, h.played_at, h.utc_offset, h.hand_id, d.street, d.ev_lost,
               {NOISE} AS noise, d.class, d.accuracy, d.kind, d.dealt, d.chosen, d.chosen_ev,
               d.best, d.best_ev, d.reason, d.tie_with, d.chosen_foul, d.best_foul,
               d.chosen_fl, d.best_fl, d.board, d.class = 'tie' AS within_noise, d.fl_chase,
               h.variant, d.player
        {DECISIONS} WHERE {cond}
        ORDER BY {BEYOND} DESC, d.ev_lost DESC, h.hand_key, d.street LIMIT ?""",
                    [*params, limit])


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
    """EV lost per reviewed hand by variant and street: each variant's streets apart
    (regular OFC's 1-9 and pineapple's 1-5 are different moments of a hand)."""
    cond, params = where(filters)
    return fetch_df(con, f"""
        WITH reviewed AS (SELECT count(DISTINCT h.hand_key) AS n {DECISIONS} WHERE {cond})
        SELECT h.variant, d.street, count(*) AS decisions, sum(d.ev_lost) AS ev_lost,
               sum(d.ev_lost) / any_value(reviewed.n) AS per_hand
        {DECISIONS}, reviewed WHERE {cond}
        GROUP BY 1, 2 ORDER BY 1, 2""", [*params, *params])


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


def classes_by_stage(con: Any, filters: Filters) -> pd.DataFrame:
    """``variant, stage, decisions, accuracy`` and a count per class (:data:`CLASSES`), by
    variant and stage of the hand (:data:`STAGES`): each variant's streets in their own
    place."""
    cond, params = where(filters)
    order = " ".join(f"WHEN '{name}' THEN {n}" for n, name in enumerate(STAGES))
    counts = ", ".join(f"count(*) FILTER (WHERE class = '{c}') AS {c}" for c in CLASSES)
    return fetch_df(con, f"""
        WITH staged AS (SELECT h.variant, d.class, d.accuracy, {STAGE} AS stage
                        {DECISIONS} WHERE {cond})
        SELECT variant, stage, count(*) AS decisions, avg(accuracy) AS accuracy, {counts}
        FROM staged GROUP BY 1, 2 ORDER BY 1, CASE stage {order} END""", params)


def accuracy_by_day(con: Any, filters: Filters, zone: str | None = None) -> pd.DataFrame:
    """``day, hands, decisions, accuracy``: the mean accuracy of the decisions of each day
    played (days on the clock of ``zone``, :func:`local_day`)."""
    cond, params = where(filters)
    day, named = local_day(zone)
    return fetch_df(con, f"""
        SELECT {day} AS day, count(DISTINCT h.hand_key) AS hands, count(*) AS decisions,
               avg(d.accuracy) AS accuracy
        {DECISIONS} WHERE {cond} AND h.played_at IS NOT NULL GROUP BY 1 ORDER BY 1""",
                    [*named, *params])


def accuracy_by_session(con: Any, filters: Filters) -> pd.DataFrame:
    """``session_id, hands, decisions, accuracy``: the mean accuracy of each session's
    reviewed decisions (the Sessions page's column)."""
    cond, params = where(filters)
    return fetch_df(con, f"""
        SELECT h.session_id, count(DISTINCT h.hand_key) AS hands, count(*) AS decisions,
               avg(d.accuracy) AS accuracy
        {DECISIONS} WHERE {cond} AND h.session_id IS NOT NULL GROUP BY 1 ORDER BY 1""",
                    params)


LEAK_COLUMNS = ["key", "situation", "side", "decisions", "ev_lost", "per_hand", "played",
                "best", "worst_hand_key", "worst_street", "worst_hand_id", "worst_lost"]


def situation_rows(con: Any, filters: Filters) -> pd.DataFrame:
    """The decisions the leaks are counted from: position, both placements, EV lost beyond
    the noise (``beyond``)."""
    cond, params = where(filters)
    return fetch_df(con, f"""
        SELECT h.hand_key, h.hand_id, d.street, d.kind, d.board, d.dealt, d.chosen, d.best,
               d.ev_lost, d.ev_lost_se, {BEYOND} AS beyond
        {DECISIONS} WHERE {cond} ORDER BY h.hand_key, d.street""", params)


def leaks(con: Any, filters: Filters) -> pd.DataFrame:
    """Leaks by situation (:data:`ofc_core.play.situations.SITUATIONS`), one row a kind met:
    ``decisions`` in it and their EV lost beyond the noise (total, ``per_hand`` of the
    reviewed hands) — for a dealt kind the decisions dealt so; for a played kind those where
    the played placement does it and the best does not — ``played`` and ``best``: the share of
    all decisions where the played (the best) placement does it (played kinds only), and the
    ``worst`` example."""
    rows = situation_rows(con, filters)
    return leak_table(rows)


def leak_table(rows: pd.DataFrame) -> pd.DataFrame:
    """:func:`leaks` from :func:`situation_rows`' frame (pandas only)."""
    if rows.empty:
        return pd.DataFrame(columns=LEAK_COLUMNS)
    hands = rows["hand_key"].nunique()
    spots = list(zip(rows["board"], rows["dealt"], rows["street"], rows["kind"], strict=True))
    played = [situations_of(b, d, c, int(s), k)
              for (b, d, s, k), c in zip(spots, rows["chosen"], strict=True)]
    best = [situations_of(b, d, c, int(s), k, "played")
            for (b, d, s, k), c in zip(spots, rows["best"], strict=True)]
    out = []
    for situation in SITUATIONS:
        mine = pd.Series([situation.key in p for p in played], index=rows.index)
        theirs = pd.Series([situation.key in b for b in best], index=rows.index)
        chosen = mine if situation.side == "dealt" else mine & ~theirs
        if not chosen.any():
            continue
        group = rows[chosen]
        worst = group.iloc[int(group["beyond"].to_numpy().argmax())]
        share = situation.side == "played"
        out.append({"key": situation.key, "situation": situation.name, "side": situation.side,
                    "decisions": int(chosen.sum()), "ev_lost": float(group["beyond"].sum()),
                    "per_hand": float(group["beyond"].sum()) / hands,
                    "played": float(mine.mean()) if share else None,
                    "best": float(theirs.mean()) if share else None,
                    "worst_hand_key": int(worst["hand_key"]),
                    "worst_street": int(worst["street"]),
                    "worst_hand_id": str(worst["hand_id"]),
                    "worst_lost": float(worst["beyond"])})
    table = pd.DataFrame(out, columns=LEAK_COLUMNS)
    return table.sort_values(["ev_lost", "key"], ascending=[False, True], ignore_index=True)


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
    ``noise`` of each EV lost (:data:`NOISE`), its class, reason and tie, and the chances of
    the played and the best placement."""
    return fetch_df(con, f"""
        SELECT d.player, d.kind, d.chosen, d.chosen_ev, d.chosen_se, d.best, d.best_ev,
               d.best_se, d.ev_lost, d.ev_lost_se, {NOISE} AS noise,
               d.class = 'tie' AS within_noise, d.class, d.accuracy, d.reason, d.tie_with,
               d.chosen_foul, d.best_foul, d.chosen_fl, d.best_fl, d.chosen_royalties,
               d.best_royalties, d.rollouts
        FROM decisions d JOIN hands h ON h.source = d.source AND h.hand_id = d.hand_id
        WHERE h.hand_key = ? AND d.street = ? ORDER BY d.player""", [hand_key, street])


def alternatives(con: Any, hand_key: int, street: int, player: str) -> pd.DataFrame:
    """The top placements the review kept for one decision (best first): EV, its error, how
    far below the best with the paired error, chances to foul and to reach Fantasyland."""
    return fetch_df(con, """
        SELECT a.rank, a.placement, a.ev, a.ev_se, a.diff, a.diff_se, a.foul, a.fl,
               a.royalties
        FROM decision_alternatives a JOIN hands h ON h.source = a.source
             AND h.hand_id = a.hand_id
        WHERE h.hand_key = ? AND a.street = ? AND a.player = ? ORDER BY a.rank""",
                    [hand_key, street, player])


def hand_line(con: Any, hand_key: int) -> pd.DataFrame:
    """Every reviewed decision of a hand, street by street, per player: the EV of the hand
    after the played placement and after the best, the class (the replayer's key moments and
    its EV line)."""
    return fetch_df(con, """
        SELECT d.player, d.street, d.kind, d.chosen_ev, d.best_ev, d.ev_lost, d.ev_lost_se,
               d.class AS decision_class, d.accuracy, d.reason, d.tie_with
        FROM decisions d JOIN hands h ON h.source = d.source AND h.hand_id = d.hand_id
        WHERE h.hand_key = ? ORDER BY d.player, d.street""", [hand_key])


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
    ("classes_by_stage", classes_by_stage),
    ("leaks", leaks),
    ("by_street", by_street),
    ("by_kind", by_kind),
    ("by_variant", by_variant),
    ("over_time", over_time),
    ("unreviewed", unreviewed),
]
"""What the Review page runs on first load (``benchmarks/bench_dashboard.py``)."""
