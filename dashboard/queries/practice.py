"""The Play and Enter pages' SQL: a hand just stored, as the store scored it, and its review.

>>> from ingest.api import connect, store_text
>>> con = connect(":memory:")
>>> text = ("@source home\\nhand 1\\na: QhQd2c-8s8d8c5h5d-AhKhTh9h6h\\n"
...         "b: KcKs7c-9c9s6d6c4h-TcTdTsJsJc")
>>> _ = store_text(con, "home.txt", text)
>>> stored_hand(con, "home", "1")[0][:3]  # fouled: a full house over a flush
('a', -20.0, True)
"""

from __future__ import annotations

from typing import Any

from dashboard.queries.fetch import Connection, fetch_all

_HAND = """
SELECT hp.player, hp.points, hp.fouled, hp.royalties, hp.fantasyland_next, hp.fantasyland,
       hp.top_hand, hp.middle_hand, hp.bottom_hand, h.hand_key,
       (SELECT string_agg(r.cards, ' / ' ORDER BY CASE r.row_name WHEN 'top' THEN 0
                          WHEN 'middle' THEN 1 ELSE 2 END)
        FROM hand_rows r WHERE r.hand_key = h.hand_key AND r.seat = hp.seat) AS board
FROM hands h JOIN hand_players hp ON hp.hand_key = h.hand_key
WHERE h.source = ? AND h.hand_id = ?
ORDER BY hp.seat
"""


def stored_hand(con: Connection, source: str, hand_id: str) -> list[tuple[Any, ...]]:
    """Each seat of the stored hand: player, points, fouled, royalties, Fantasyland cards
    next hand, in Fantasyland, the three rows' hand names, the hand's key and the board
    (``'Qh Qd 2c / ...'``); empty when the hand is not stored."""
    return fetch_all(con, _HAND, [source, hand_id])


_REVIEW = """
SELECT street, kind, chosen, best, ev_lost, chosen_se, best_se
FROM decisions WHERE source = ? AND hand_id = ? AND player = ? ORDER BY street
"""


def hand_decisions(con: Connection, source: str, hand_id: str,
                   player: str) -> list[tuple[Any, ...]]:
    """The player's reviewed decisions of the hand: street, kind, chosen, best, EV lost and
    the two standard errors, by street."""
    return fetch_all(con, _REVIEW, [source, hand_id, player])



def unreviewed(con: Connection, source: str, session_id: str, player: str,
               version: str) -> list[tuple[Any, ...]]:
    """The hand ids of the practice table ``session_id`` (its hands are ``<session_id>-0001``,
    ...) in which ``player`` has no decision of this review ``version`` yet and that a review
    can value (no stored reason not to), oldest first: what waits for the review job."""
    return fetch_all(con, """
        SELECT h.hand_id FROM hands h JOIN hand_players hp ON hp.hand_key = h.hand_key
        WHERE h.source = ? AND starts_with(h.hand_id, ?) AND hp.player = ?
          AND coalesce(hp.review_reason, 0) = 0
          AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.source = h.source
                          AND d.hand_id = h.hand_id AND d.player = hp.player
                          AND d.version = ?)
        ORDER BY h.hand_id""", [source, f"{session_id}-", player, version])
