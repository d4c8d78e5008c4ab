"""Hand-worked OFC Double matches for the money rule, shared by the store's test
(``test_stored_money.py``, :mod:`ingest.money`) and Spark's (``test_spark.py``,
:mod:`ofc_spark.money`), so that both homes of the rule are held to the same figures.

The rule (docs/variations.md section 7, ``ingest/money.py``): the hand that ends a match pays
the winner stake x the final cube and costs the loser as much; the match's other hands hold no
money (``None``). The final cube is the ``match_end`` event's ``cube`` when the log gives it,
else 2 to the number of doubles accepted in the match; a declined double ends the match at the
cube reached before it; a match without a winner pays 0. Every expected figure below is worked
out by hand from that text, at a stake of 5.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STAKE = 5

BOARDS = {"ann": "QhQd2c-KsKd9s5h3c-JhJdJc4s4d", "bob": "AhKc3d-AsAd8h7c2h-QcTc8c6c5c"}
"""One legal heads-up deal, played in every hand (the money does not depend on the boards)."""

Money = dict[tuple[str, str], float | None]


def _hand(hand_id: str, match_id: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    hand: dict[str, Any] = {
        "format": "ofc-hh/1", "source": "double-worked", "hand_id": hand_id,
        "match_id": match_id, "played_at": "2026-11-29T12:00:00+00:00", "stake": STAKE,
        "currency": "EUR", "variant": "double", "button": "bob",
        "players": [{"name": name, "seat": seat, "board": board}
                    for seat, (name, board) in enumerate(BOARDS.items())]}
    if events:
        hand["events"] = events
    return hand


def _double(by: str, accepted: bool = True) -> dict[str, Any]:
    return {"type": "double", "by": by, "accepted": accepted}


def _end(**data: Any) -> dict[str, Any]:
    return {"type": "match_end", **data}


def _none_before(ids: list[str]) -> Money:
    return {(hand_id, name): None for hand_id in ids for name in BOARDS}


MATCHES: dict[str, tuple[list[dict[str, Any]], Money]] = {
    # No double, no cube in the log: cube 1, 5 to the winner.
    "no cube": ([_hand("n1", "m-n", []), _hand("n2", "m-n", []),
                 _hand("n3", "m-n", [_end(winner="ann", score={"ann": 31, "bob": 12})])],
                {**_none_before(["n1", "n2"]), ("n3", "ann"): 5.0, ("n3", "bob"): -5.0}),
    # One double accepted: cube 2, 10.
    "one double": ([_hand("o1", "m-o", []), _hand("o2", "m-o", [_double("ann")]),
                    _hand("o3", "m-o", [_end(winner="bob")])],
                   {**_none_before(["o1", "o2"]), ("o3", "bob"): 10.0, ("o3", "ann"): -10.0}),
    # Three doubles accepted (the last on the final hand), winner named by "by": 2 ** 3 = 8, 40.
    "three doubles": ([_hand("t1", "m-t", [_double("bob")]), _hand("t2", "m-t", [_double("ann")]),
                       _hand("t3", "m-t", [_double("bob"), _end(by="bob")])],
                      {**_none_before(["t1", "t2"]), ("t3", "bob"): 40.0, ("t3", "ann"): -40.0}),
    # Surrender: bob's double accepted (cube 2), then ann's declined: ann wins at cube 2, 10.
    "surrender": ([_hand("s1", "m-s", [_double("bob")]),
                   _hand("s2", "m-s", [_double("ann", accepted=False),
                                       _end(winner="ann", reason="double declined")])],
                  {**_none_before(["s1"]), ("s2", "ann"): 10.0, ("s2", "bob"): -10.0}),
    # The log's own cube wins over the doubles seen (one here): cube 4, 20.
    "cube in the log": ([_hand("c1", "m-c", [_double("bob")]),
                         _hand("c2", "m-c", [_end(winner="bob", cube=4)])],
                        {**_none_before(["c1"]), ("c2", "bob"): 20.0, ("c2", "ann"): -20.0}),
    # A match_end without a winner pays nothing.
    "no winner": ([_hand("w1", "m-w", [_double("ann")]),
                   _hand("w2", "m-w", [_end(reason="abandoned")])],
                  {**_none_before(["w1"]), ("w2", "ann"): 0.0, ("w2", "bob"): 0.0}),
}
"""Per match: its hands (ofc-hh/1 objects) and the money of each (hand id, player)."""


def write_matches(folder: Path) -> list[Path]:
    """Each match of :data:`MATCHES` as its own ofc-hh/1 file in ``folder``."""
    paths = []
    for n, (hands, _) in enumerate(MATCHES.values()):
        path = folder / f"match-{n}.jsonl"
        path.write_text("".join(json.dumps(h) + "\n" for h in hands), encoding="utf-8")
        paths.append(path)
    return paths


def expected_money() -> Money:
    """The hand-worked money of every player-hand of every match."""
    return {key: money for _, expected in MATCHES.values() for key, money in expected.items()}
