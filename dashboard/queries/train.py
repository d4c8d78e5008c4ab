"""The Train page's SQL: the puzzles due (the player's reviewed decisions that lost more than
the noise), and the score by day.

A puzzle is due when it was never answered, or when its last answer's ``due_at`` has come
(:mod:`ingest.puzzles`: a missed one at once, a solved one days later). The puzzles never
answered come first, costliest then most recent; then those coming back, the longest waiting
first.
"""

from __future__ import annotations

from typing import Any

from dashboard.queries.conditions import PLAYER_HANDS, where
from dashboard.queries.fetch import Connection, fetch_all
from dashboard.queries.filter_set import Filters
from ingest.api import stored_record
from ofc_core.play.accuracy import NOISE_Z

QUEUE_SIZE = 50

_QUEUE = f"""
WITH last AS (
    SELECT source, hand_id, player, street, max(answered_at) AS last_at,
           arg_max(due_at, answered_at) AS due_at, count(*) AS tries
    FROM puzzle_answers GROUP BY source, hand_id, player, street)
SELECT d.source, d.hand_id, d.player, d.street, d.kind, d.ev_lost, d.ev_lost_se, d.chosen,
       d.chosen_ev, d.best, d.best_ev, d.reason, hp.variant,
       CAST(CAST(hp.played_at AS DATE) AS VARCHAR) AS day, coalesce(l.tries, 0) AS tries
{PLAYER_HANDS}
JOIN decisions d ON d.source = h.source AND d.hand_id = h.hand_id AND d.player = hp.player
LEFT JOIN last l ON l.source = d.source AND l.hand_id = d.hand_id AND l.player = d.player
    AND l.street = d.street
WHERE {{cond}} AND d.ev_lost > {NOISE_Z} * d.ev_lost_se AND d.kind <> 'fantasyland set'
    AND (l.due_at IS NULL OR l.due_at <= now())
ORDER BY l.tries IS NOT NULL, CASE WHEN l.tries IS NULL THEN d.ev_lost END DESC,
    hp.played_at DESC, l.last_at, d.street
LIMIT {QUEUE_SIZE}
"""


def queue(con: Connection, filters: Filters) -> list[tuple[Any, ...]]:
    """The puzzles due for the filtered player, in the order they are asked (at most
    :data:`QUEUE_SIZE`): source, hand id, player, street, kind, EV lost and its standard
    error, the placement played and its EV, the best and its EV, the review's reason, the
    variant, the day played, the answers so far."""
    cond, params = where(filters)
    return fetch_all(con, _QUEUE.format(cond=cond), params)


def scores(con: Connection, player: str) -> list[tuple[Any, ...]]:
    """The player's answers by day (the day answered, newest first): answers, solved."""
    return fetch_all(con, """
        SELECT CAST(CAST(answered_at AS DATE) AS VARCHAR) AS day, count(*) AS answered,
               count(*) FILTER (WHERE solved) AS solved
        FROM puzzle_answers WHERE player = ? GROUP BY day ORDER BY day DESC""", [player])


def record(con: Connection, source: str, hand_id: str) -> str | None:
    """The stored hand as its ofc-hh/1 line, for the puzzle's position."""
    return stored_record(con.cursor(), source, hand_id)
