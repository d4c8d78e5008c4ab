"""What SwC's server sends a capturing client, for tables of our simulated hands: the input we
feed FPDB's own capture code (``tests/data/fpdb-capture/PROVENANCE.md``) and our reader.

Beyond :func:`tests.reallogs_fixtures.swc_frames` (one hand, every card face up), a stream
here is a session of several tables as the client sees it:

- cards the capturing player cannot see are face down: an opponent's cards in hand and a
  Fantasyland board before the showdown are written with the id :data:`FACE_DOWN` (52; FPDB's
  ``card_id_to_str`` turns every id outside 0..51 into ``--``);
- an opponent's cards are dealt in one frame and placed in the next, the capturing player's
  likewise (with its cards shown);
- the tables' frames are interleaved (one client, several tables);
- the connection drops now and then: Engine.IO/Socket.IO handshake frames, then the server
  sends the table's current state again (a duplicated snapshot);
- the client's own frames (``direction: sent``) and pings are captured too.

Nothing here is FPDB's code; the hands are the simulator's (``tests.reallogs_fixtures``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ofc_core.cards import Card
from ofc_core.hand import HandRecord
from tests.reallogs_fixtures import CODES, money_events, simulated, swc_hand_id

FACE_DOWN = 52
"""The id a face-down card gets in a seat's ``d`` (any id outside 0..51 is one to FPDB)."""

ENDPOINT = "wss://play.swcpoker.club/socket.io/?EIO=4&transport=websocket"


@dataclass(frozen=True)
class Frame:
    """One websocket frame as the client sees it."""

    payload: str
    direction: str = "received"


def _d(rows: Sequence[Sequence[int]], active: Sequence[int] = ()) -> str:
    ids = [c for r in rows for c in r] + list(active)
    if not ids:
        return ""
    return ";".join(map(str, ids)) + "-" + "-".join(str(len(r)) for r in rows)


def game_state_frame(state: dict[str, Any], events: list[dict[str, Any]] | None = None) -> str:
    inner: dict[str, Any] = {"t": "GameState", "gameState": state}
    if events:
        inner["events"] = events
    return "42/poker/," + json.dumps(["proxy-message", json.dumps(inner)])


class _Hand:
    """The table state of one hand as the capturing seat sees it, snapshot by snapshot."""

    def __init__(self, record: HandRecord, code: int, hero: int, table: str) -> None:
        self.record, self.code, self.hero, self.table = record, code, hero, table
        n = len(record.players)
        self.rows: list[list[list[int]]] = [[[], [], []] for _ in range(n)]
        self.active: list[list[int]] = [[] for _ in range(n)]
        names = [p.name for p in record.players]
        self.dealer = names.index(record.button) if record.button in names else 0

    def seen(self, i: int, cards: Sequence[Card]) -> list[int]:
        return [c.index if i == self.hero else FACE_DOWN for c in cards]

    def state(self, **extra: Any) -> dict[str, Any]:
        seats = [{"n": p.name, "c": 10000, "b": 0, "p": 0, "d": _d(self.rows[i], self.active[i])}
                 for i, p in enumerate(self.record.players)]
        state = {"gi": swc_hand_id(self.record), "gt": self.code, "ti": self.table, "ts": 2,
                 "m": {"di": self.dealer, "sb": -1, "bb": -1}, "d": {"c": "", "p": 0},
                 "s": seats}
        state.update(extra)
        return state

    def showdown(self) -> Frame:
        record = self.record
        for i, p in enumerate(record.players):
            self.rows[i] = [[c.index for c in getattr(p.board, r)]
                            for r in ("top", "middle", "bottom")]
            self.active[i] = []
        state = self.state(ts=0, ss={"hc": "\n".join("Pair\tHigh Card\tFlush"
                                                     for _ in record.players)})
        for i, p in enumerate(record.players):
            points = p.reported_points or 0
            state["s"][i]["p"] = points
            state["s"][i]["c"] = int(10000 + points * 100 * (record.stake or 1))
            state["s"][i]["chihr"] = [{"e": 0, "h": [{"h": r, "b": 0} for r in range(3)]}]
        return Frame(game_state_frame(state, money_events(record)))

    def frames(self) -> Iterator[Frame]:
        """The hand's snapshots in order: the deal, each player's cards dealt then placed, a
        Fantasyland board set face down, the showdown."""
        record = self.record
        for i, p in enumerate(record.players):  # Fantasyland hands are dealt first
            if p.fantasyland and p.streets:
                self.active[i] = self.seen(i, p.streets[0].dealt or ())
        yield Frame(game_state_frame(self.state()))
        order = [(record.first_to_act + k) % len(record.players)
                 for k in range(len(record.players))]
        for k in range(max(len(p.streets or ()) for p in record.players)):
            for i in order:
                yield from self._turn(i, k)
        yield self.showdown()

    def _turn(self, i: int, k: int) -> Iterator[Frame]:
        p = self.record.players[i]
        streets = p.streets or ()
        if k >= len(streets):
            return
        street = streets[k]
        if p.fantasyland:  # sets its 13 cards at once, face down to the others
            self.active[i] = []
            for r, row in enumerate(("top", "middle", "bottom")):
                self.rows[i][r] = self.seen(i, getattr(p.board, row))
            yield Frame(game_state_frame(self.state()))
            return
        self.active[i] = self.seen(i, street.dealt or street.placed)
        yield Frame(game_state_frame(self.state()))
        self.active[i] = []
        for r, row in enumerate(("top", "middle", "bottom")):
            self.rows[i][r] += [c.index for c in getattr(street, row)]
        yield Frame(game_state_frame(self.state()))


def reconnect(last: Frame, rng: random.Random) -> list[Frame]:
    """A dropped connection: the Engine.IO open, the Socket.IO namespace connect, and the
    table's state sent again."""
    sid = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(20))
    return [Frame('0{"sid":"' + sid + '","upgrades":[],"pingInterval":25000,'
                  '"pingTimeout":20000,"maxPayload":1000000}'),
            Frame("40/poker/,", "sent"),
            Frame('40/poker/,{"sid":"' + sid[::-1] + '"}'),
            last]


def table_frames(records: Sequence[HandRecord], code: int, table: str, hero: int,
                 rng: random.Random, reconnects: float = 0.03) -> list[Frame]:
    """A table's frames, hand after hand, with pings, the client's own frames and, on a share
    ``reconnects`` of the snapshots, a dropped connection."""
    out: list[Frame] = []
    for record in records:
        for frame in _Hand(record, code, hero, table).frames():
            out.append(frame)
            if rng.random() < reconnects:
                out += reconnect(frame, rng)
            elif rng.random() < 0.1:
                out += [Frame("2"), Frame("3", "sent")]
            elif rng.random() < 0.05:
                out.append(Frame('42/poker/,["proxy-message","{\\"t\\":\\"Action\\",'
                                 '\\"a\\":\\"place\\"}"]', "sent"))
    return out


def interleave(tables: Sequence[list[Frame]], rng: random.Random) -> list[Frame]:
    """One client's frames of several tables: each table's in its order, the tables mixed."""
    queues = [list(reversed(t)) for t in tables]
    out = []
    while any(queues):
        queue = rng.choice([q for q in queues if q])
        out.append(queue.pop())
    return out


SESSION = (("regular", 70, 3), ("turbo", 73, 2), ("pineapple", 74, 3),
           ("progressive-pineapple", 75, 2), ("2-7-pineapple", 76, 3))
"""The capture's tables: variant, SwC game code, players."""


def capture_session(hands_per_table: int = 30, seed: int = 2211
                    ) -> tuple[list[HandRecord], list[Frame]]:
    """The hands of a session of five tables (game codes 70, 73, 74, 75, 76; 150 hands by
    default; the room errs on a fifth of its points) and the frames a client at all five
    tables receives."""
    rng = random.Random(seed)
    hands: list[HandRecord] = []
    tables = []
    for n, (variant, code, players) in enumerate(SESSION):
        assert CODES[variant] == code
        records = simulated(variant, players, hands_per_table, seed=seed + n, error_rate=0.2,
                            session=f"swc-{code}")
        hands += records
        tables.append(table_frames(records, code, f"OFC table {code}", 0, rng))
    return hands, interleave(tables, rng)
