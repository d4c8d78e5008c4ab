"""OFC Double matches worked out by hand, with the money each hand of each player must hold.

The rule (``ingest/money.py``): a race hand carries no money, except the hand that ends a match,
where the winner gets stake x final cube and the loser pays as much; the final cube is the
``match_end`` event's ``cube`` when it names one, else 2 to the number of doubles accepted in
the match; a declined double ends the match at the cube reached before it; no winner named,
no money (docs/variations.md section 7). Every match here is heads-up, wanda against walt, at a
stake of 2 EUR, and its expected money is written out as numbers, not computed by that rule.
This is the one home of the hand-worked matches: the store's tests, the pages' and Spark's
(``ofc_spark/money.py``) are all held to them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STAKE = 2
WANDA = "QhQd2c-KsKd9s5h3c-JhJdJc4s4d"
WALT = "AhKc3d-AsAd8h7c2h-QcTc8c6c5c"

Money = dict[tuple[str, str], float | None]
"""``{(hand id, player): money}``; ``None`` where the hand carries no money."""


@dataclass(frozen=True)
class Match:
    """A match's hands (``events`` per hand) and the money of its last hand, by player."""

    name: str
    events: tuple[tuple[dict[str, Any], ...], ...]
    wanda: float
    walt: float

    def hand_ids(self) -> list[str]:
        return [f"{self.name}-{n}" for n in range(1, len(self.events) + 1)]

    def hands(self) -> list[dict[str, Any]]:
        """The match as ofc-hh/1 hands."""
        out = []
        for n, (hand_id, events) in enumerate(zip(self.hand_ids(), self.events, strict=True)):
            hand: dict[str, Any] = {
                "format": "ofc-hh/1", "source": "worked", "hand_id": hand_id,
                "match_id": self.name, "played_at": f"2026-12-01T12:{n:02d}:00+00:00",
                "stake": STAKE, "currency": "EUR", "hero": "wanda", "variant": "double",
                "button": "walt", "players": [{"name": "wanda", "seat": 0, "board": WANDA},
                                             {"name": "walt", "seat": 1, "board": WALT}]}
            if events:
                hand["events"] = list(events)
            out.append(hand)
        return out

    def money(self) -> Money:
        last = self.hand_ids()[-1]
        return {(h, p): getattr(self, p) if h == last else None
                for h in self.hand_ids() for p in ("wanda", "walt")}


def _double(by: str, accepted: bool = True, **more: Any) -> dict[str, Any]:
    return {"type": "double", "by": by, "accepted": accepted, **more}


def _end(winner: str | None, **more: Any) -> dict[str, Any]:
    return {"type": "match_end", **({"winner": winner} if winner else {}), **more}


MATCHES = (
    # no cube named, no double offered: the cube is 1, the stake changes hands
    Match("no-cube", ((), (_end("wanda", reason="30 points"),)), wanda=2.0, walt=-2.0),
    # three doubles accepted, no cube named: the cube is 8 (2 x 2 x 2, not 2 x 3)
    Match("three-doubles", ((_double("walt"),), (_double("wanda"),),
                            (_double("walt"), _end("walt"))), wanda=-16.0, walt=16.0),
    # one double accepted, a redouble declined: the end names its cube, 2
    Match("declined", ((_double("wanda", cube=2),),
                       (_double("walt", accepted=False), _end("walt", cube=2,
                                                              reason="double declined"))),
          wanda=-4.0, walt=4.0),
    # one double accepted, then wanda surrenders the match: no cube named, the cube is 2
    Match("surrender", ((_double("walt"),), (_end("walt", reason="surrender"),)),
          wanda=-4.0, walt=4.0),
    # a match whose end names no winner pays nothing
    Match("no-winner", ((_double("wanda"),), (_end(None, reason="abandoned"),)),
          wanda=0.0, walt=0.0),
    # one double accepted, no cube named: the cube is 2
    Match("one-double", ((), (_double("wanda"),), (_end("walt"),)), wanda=-4.0, walt=4.0),
    # walt's double accepted (cube 2), wanda's declined, no cube named: wanda wins at cube 2
    Match("declined-no-cube", ((_double("walt"),),
                               (_double("wanda", accepted=False),
                                _end("wanda", reason="double declined"))),
          wanda=4.0, walt=-4.0),
    # the log's own cube wins over the doubles seen (one here): the cube is 4
    Match("cube-in-the-log", ((_double("walt"),), (_end("walt", cube=4),)),
          wanda=-8.0, walt=8.0),
    # the end names its winner by "by" (as some logs do): one double, the cube is 2
    Match("winner-by", ((_double("wanda"),), ({"type": "match_end", "by": "wanda"},)),
          wanda=4.0, walt=-4.0),
)
"""The hand-worked matches. Over all of them wanda's money is -26 EUR and walt's +26
(-22 over the first five, then -4, +4, -8, +4)."""

TOTALS = {"wanda": -26.0, "walt": 26.0}


def write_log(path: Path, matches: tuple[Match, ...] = MATCHES) -> Path:
    """The matches as one ofc-hh/1 log at ``path``."""
    path.write_text("".join(json.dumps(h) + "\n" for m in matches for h in m.hands()),
                    encoding="utf-8")
    return path


def write_matches(folder: Path, matches: tuple[Match, ...] = MATCHES) -> list[Path]:
    """Each match as its own ofc-hh/1 file in ``folder``."""
    return [write_log(folder / f"match-{n}.jsonl", (m,)) for n, m in enumerate(matches)]


def expected_money(matches: tuple[Match, ...] = MATCHES) -> Money:
    """The hand-worked money of every (hand id, player) of ``matches``."""
    return {k: v for m in matches for k, v in m.money().items()}
