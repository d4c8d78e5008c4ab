"""``raw_messages.jsonl``: every websocket frame FPDB's capture saw, one JSON object a line.

FPDB's ``JsonlRawCaptureArchive`` appends ``{"site", "transport", "captured_at", "endpoint",
"message_type", "table_id", "hand_id", "sequence", "direction", "payload"}`` for every frame,
received and sent, GameState or not (pings ``2``/``3``, the Engine.IO open ``0{...}``, the
Socket.IO connect ``40/poker/,``, the client's own messages). Only the ``GameState`` frames
(``42/poker/,["proxy-message", "<json>"]`` whose inner ``t`` is ``GameState``) are read: each
is a snapshot of one table's hand (:mod:`.capture` reads its seats).

What a real capture holds besides a clean run of snapshots, and how it is read:

- several tables at once: their frames interleave; hands are gathered by hand id (``gi``);
- a reconnect: handshake frames, then the table's state sent again (a duplicated snapshot,
  and its money message again: counted once);
- a restarted capture: ``sequence`` starts at 1 again and a hand may continue after frames
  were lost (it keeps its final boards, street detail only where the snapshots fit);
- a hand whose showdown never came (its table went on to another hand): stored when every
  board is complete, else refused, named with its first line;
- a showdown without row names (``ts`` 0, every board complete): the hand's end, as FPDB's
  adapter takes it;
- a file still being written: a cut last line is skipped, the unfinished hands at the end
  are partial;
- a damaged line or a frame that cannot be read: that line's (or that hand's) issue, the
  other frames are read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from .. import ParsedHand, ParseIssue
from .capture import Capture, Refused, money_won, seat_cards
from .record import BUG, items

PREFIX = "42/poker/,"


def game_state(payload: Any) -> tuple[dict[str, Any], list[Any]] | None:
    """The ``gameState`` and ``events`` of a SwC ``GameState`` frame, ``None`` for any other
    frame.

    >>> game_state('42/poker/,["proxy-message", "{\\\\"t\\\\": \\\\"GameState\\\\", '
    ...            '\\\\"gameState\\\\": {\\\\"gi\\\\": 7}}"]')
    ({'gi': 7}, [])
    >>> game_state("2") is None and game_state('42/poker/,["client-action", {}]') is None
    True
    """
    if not isinstance(payload, str) or not payload.startswith(PREFIX):
        return None
    try:
        outer = json.loads(payload[len(PREFIX):])
        if not isinstance(outer, list) or len(outer) < 2 or outer[0] != "proxy-message":
            return None
        inner = json.loads(outer[1]) if isinstance(outer[1], str) else outer[1]
    except (ValueError, TypeError):
        return None
    if not isinstance(inner, dict) or inner.get("t") != "GameState":
        return None
    state = inner.get("gameState")
    events = inner.get("events")
    return (state, events if isinstance(events, list) else []) if isinstance(state, dict) \
        else None


def _seats(state: Mapping[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    seats = state.get("s")
    return [(i, s) for i, s in enumerate(seats) if isinstance(s, dict)] \
        if isinstance(seats, list) else []


def _showdown(state: Mapping[str, Any], snapshot: Mapping[str, Any]) -> bool:
    """The hand's end: the row names ``ss.hc``, or (as FPDB's adapter also takes it) the
    table state ``ts`` 0 with every board shown complete."""
    showdown = state.get("ss")
    if isinstance(showdown, dict) and showdown.get("hc"):
        return True
    return state.get("ts") == 0 and bool(snapshot) and \
        all(len(seen.placed) == 13 for seen in snapshot.values())


class FrameHands:
    """Hands gathered frame by frame (several tables interleave; a hand's frames may be
    repeated after a reconnect)."""

    def __init__(self) -> None:
        self.hands: dict[str, Capture] = {}
        self.lines: dict[str, list[str]] = {}
        self.paid: dict[str, set[str]] = {}
        self.table_hand: dict[str, str] = {}

    def _capture(self, number: int, state: Mapping[str, Any], record: Mapping[str, Any],
                 hand_id: str) -> Capture:
        capture = self.hands.get(hand_id)
        if capture is None:
            gt = state.get("gt")
            meta = state.get("m")
            table = state.get("ti")
            capture = Capture(hand_id, number, "", gt if isinstance(gt, int) else None,
                              [(str(s.get("n")), i) for i, s in _seats(state)],
                              meta.get("di") if isinstance(meta, dict) else None,
                              None if table is None else str(table), record.get("captured_at"))
            self.hands[hand_id] = capture
            self.lines[hand_id] = []
            self.paid[hand_id] = set()
        return capture

    def _table_moves_on(self, table: Any, hand_id: str, number: int) -> None:
        """A table's new hand: the hand it leaves without a showdown lost its end."""
        key = str(table)
        before = self.table_hand.get(key)
        if before is not None and before != hand_id and not self.hands[before].finished:
            self.hands[before].followed_by = f"hand {hand_id} at line {number}"
        self.table_hand[key] = hand_id

    def add(self, number: int, line: str, record: Mapping[str, Any]) -> ParseIssue | None:
        """One line's frame; an issue when its frame cannot be read and names no hand."""
        found = game_state(record.get("payload"))
        if found is None:
            return None
        state, events = found
        gi = state.get("gi")
        if not gi:
            return None
        hand_id = str(gi)
        capture = self._capture(number, state, record, hand_id)
        self.lines[hand_id].append(line)
        try:
            self._read(capture, number, state, events)
        except Refused as exc:
            capture.problems.append(f"line {number}: {exc}")
        except Exception as exc:  # a bug of ours: this hand's error, the other hands are read
            capture.problems.append(f"line {number}: the fpdb-swc reader failed on this frame "
                                    f"({type(exc).__name__}: {exc}). {BUG}")
        return None

    def _read(self, capture: Capture, number: int, state: Mapping[str, Any],
              events: list[Any]) -> None:
        self._table_moves_on(state.get("ti"), capture.hand_id, number)
        seats = _seats(state)
        snapshot = {}
        for _, seat in seats:
            seen = seat_cards(seat.get("d"))
            if seen is not None:
                snapshot[str(seat.get("n"))] = seen
        if snapshot:
            capture.snapshots.append(snapshot)
        names = {i: str(s.get("n")) for i, s in seats}
        for won in money_won(events, names):  # a frame sent again pays once
            if repr(won) not in self.paid[capture.hand_id]:
                self.paid[capture.hand_id].add(repr(won))
                capture.money.append(won)
        if _showdown(state, snapshot):
            capture.finished = True
            capture.followed_by = None
            capture.points = {str(s.get("n")): float(s.get("p") or 0) for _, s in seats}

    def captures(self) -> Iterator[Capture]:
        for hand_id, capture in self.hands.items():
            capture.raw = "\n".join(self.lines[hand_id])
            yield capture


def _lines(text: str) -> Iterator[tuple[int, str, dict[str, Any] | ParseIssue | None]]:
    """Each line's JSON object (or its issue; ``None`` for a line that is no object or the cut
    last line of a file being written)."""
    lines = text.removeprefix("\ufeff").split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            if number == len(lines):
                yield number, line, None  # still being written: its hand stays unfinished
                continue
            yield number, line, ParseIssue(number, None, f"line {number}: not a JSON object "
                                           "(a damaged capture line); the other frames are "
                                           "read", line)
            continue
        yield number, line, record if isinstance(record, dict) else None


def parse_frames(text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
    """Every hand of a ``raw_messages.jsonl``, in the order of their first frame; issues of
    lines that name no hand first."""
    hands = FrameHands()
    for number, line, record in _lines(text):
        if isinstance(record, ParseIssue):
            yield record
        elif record is not None:
            try:
                hands.add(number, line, record)
            except Exception as exc:  # a bug of ours: this line's error
                yield ParseIssue(number, None, f"line {number}: the fpdb-swc reader failed on "
                                 f"this frame ({type(exc).__name__}: {exc}); the other frames "
                                 f"are read. {BUG}", line)
    yield from items(hands.captures())
