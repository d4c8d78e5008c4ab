"""The SQLite log of the OFC pineapple app (github ``giovinco0807/pineapple``).

The app (heads-up pineapple with two jokers and progressive Fantasyland) writes
``data/ofc_logs.db`` (schema ``backend/db/schema.sql``, written by ``backend/db/writer.py``):

- ``sessions``: ``session_id``, ``player0_id``, ``player1_id``, chips;
- ``hands``: ``hand_id``, ``session_id``, ``hand_number``, ``started_at`` (UTC, no offset),
  ``btn`` (the button's seat, 0 or 1), ``raw_score`` and ``actual_score`` (JSON ``[p0, p1]``),
  ``result_detail`` (JSON: ``boards``, ``busted``, ``royalties``, ``fl_entry``, ...);
- ``turns``: one row per player per street: ``turn`` (0 = the first five cards),
  ``dealt_cards`` (JSON list), ``action_placements`` (JSON ``[[card, row], ...]``; a
  Fantasyland hand is set in one turn of 13 placements, its rows written ``auto``),
  ``action_discard`` (one card or NULL), the boards before the turn.

Cards are written ``Ah``, ``Td`` and ``X1``/``X2`` for the jokers. The file is opened
read-only and never changed. The app scores with its own code (its joker resolver, its stay
rule); its ``raw_score`` is kept as each player's ``reported_points``, so the audit shows every
hand where our rules and the app's disagree.

>>> APP_RULES["jokers"], APP_RULES["fl_repeat"], VARIANT
(2, 'entry', 'progressive-pineapple')
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any

from ofc_core.board import Board
from ofc_core.cards import BoardCard, parse_cards
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay, validate

from . import LogFile, ParsedHand, ParseIssue, sqlite_db

FORMAT_NAME = "pineapple-app"
SOURCE = "pineapple-app"
VARIANT = "progressive-pineapple"
APP_RULES: Mapping[str, Any] = MappingProxyType({"jokers": 2, "fl_repeat": "entry"})
"""The app deals two jokers and keeps a staying player's Fantasyland card count
(progressive entry: QQ 14, KK 15, AA 16, trips 17)."""
TABLES = frozenset({"sessions", "hands", "turns"})
ROWS = ("top", "middle", "bottom")


class _Bad(ValueError):
    pass


def _json(value: Any, what: str) -> Any:
    try:
        return json.loads(value) if isinstance(value, str) else value
    except ValueError:
        raise _Bad(f"{what} is not JSON: {value!r}") from None


def _card(token: Any) -> BoardCard:
    if not isinstance(token, str):
        raise _Bad(f"a card is {token!r}, not a string")
    try:
        cards = parse_cards(token)  # (jokers X1, X2 included, where the core knows them)
    except ValueError as exc:
        raise _Bad(str(exc)) from None
    if len(cards) != 1:
        raise _Bad(f"a card is {token!r}")
    return cards[0]


def _street(turn: Mapping[str, Any], final: Board | None) -> StreetPlay:
    """One turn of one player: its placements by row (a Fantasyland turn's ``auto`` rows are
    read from the final board), the dealt cards, the discard."""
    placements = _json(turn["action_placements"], "action_placements") or []
    if final is None:  # a Fantasyland turn is logged with the board it set
        shown = _json(turn["board_self"], "board_self")
        final = _board({"boards": [shown]}, 0) if isinstance(shown, dict) else None
    dealt = tuple(_card(c) for c in _json(turn["dealt_cards"], "dealt_cards") or [])
    rows: dict[str, list[BoardCard]] = {r: [] for r in ROWS}
    for pair in placements:
        if not isinstance(pair, list) or len(pair) != 2:
            raise _Bad(f"a placement is {pair!r}, not [card, row]")
        card, row = _card(pair[0]), pair[1]
        if row not in rows:
            row = next((r for r in ROWS if final is not None and card in getattr(final, r)),
                       None) if final is not None else None
            if row is None:
                raise _Bad(f"{pair[0]} is placed in {pair[1]!r}, and the hand's result does "
                           "not say in which row it ended")
        rows[row].append(card)
    placed = {c for cards in rows.values() for c in cards}
    if turn["action_discard"]:
        discard: tuple[BoardCard, ...] | None = (_card(turn["action_discard"]),)
    else:
        discard = tuple(c for c in dealt if c not in placed) or None
    return StreetPlay(tuple(rows["top"]), tuple(rows["middle"]), tuple(rows["bottom"]),
                      dealt or None, discard)


def _board(detail: Mapping[str, Any], seat: int) -> Board | None:
    boards = detail.get("boards")
    if not isinstance(boards, list) or len(boards) <= seat or not isinstance(boards[seat], dict):
        return None
    return Board(*(tuple(_card(c) for c in boards[seat].get(r) or []) for r in ROWS))


def _played_at(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return value if moment.tzinfo is not None else value + "+00:00"


def _record(hand: Mapping[str, Any], session: Mapping[str, Any],
            turns: Sequence[Mapping[str, Any]]) -> HandRecord:
    names = [str(session["player0_id"]), str(session["player1_id"])]
    detail = _json(hand["result_detail"], "result_detail") or {}
    scores = _json(hand["raw_score"], "raw_score") or []
    players = []
    for seat, name in enumerate(names):
        final = _board(detail, seat)
        mine = sorted((t for t in turns if t["player"] == seat), key=lambda t: t["turn"])
        streets = tuple(_street(t, final) for t in mine)
        fantasyland = len(streets) == 1 and len(streets[0].placed) == 13
        union = Board(*(tuple(c for s in streets for c in getattr(s, r)) for r in ROWS))
        board = final if final is not None and final.cards else union
        points = scores[seat] if seat < len(scores) else None
        players.append(PlayerRecord(name, seat, board, streets or None, fantasyland, False,
                                    None if points is None else float(points)))
    button = names[hand["btn"]] if hand["btn"] in (0, 1) else None
    return HandRecord(source=SOURCE, hand_id=str(hand["hand_id"]), variant=VARIANT,
                      players=tuple(players), rules=APP_RULES, button=button,
                      session_id=str(hand["session_id"]),
                      played_at=_played_at(hand["started_at"]))


@dataclass(frozen=True)
class _Read:
    hands: list[Any]
    sessions: dict[str, Any]
    turns: dict[str, list[Any]]


def _read(file: LogFile) -> _Read:
    with sqlite_db.open_readonly(file) as con:
        hands = con.execute("SELECT rowid AS line, * FROM hands "
                            "ORDER BY started_at, hand_number, rowid").fetchall()
        sessions = {s["session_id"]: s for s in con.execute("SELECT * FROM sessions")}
        turns: dict[str, list[Any]] = {}
        for t in con.execute("SELECT * FROM turns ORDER BY hand_id, turn, player, id"):
            turns.setdefault(t["hand_id"], []).append(t)
    return _Read(hands, sessions, turns)


def _raw(hand: Any, session: Any, turns: Sequence[Any]) -> str:
    """What was read of one hand, as JSON (kept as the hand's text in the store)."""
    return json.dumps({"hand": dict(hand), "session": None if session is None else dict(session),
                       "turns": [dict(t) for t in turns]}, ensure_ascii=False, default=str)


def parse_database(file: LogFile) -> Iterator[ParsedHand | ParseIssue]:
    """Every hand of the app's database: finished hands as records, a hand still being played
    (no result yet) as partial, a hand that cannot be read with the reason."""
    read = _read(file)
    for hand in read.hands:
        hand_id = str(hand["hand_id"])
        session = read.sessions.get(hand["session_id"])
        turns = read.turns.get(hand["hand_id"], [])
        raw = _raw(hand, session, turns)
        line = int(hand["line"])
        if hand["raw_score"] is None or hand["result_detail"] is None:
            yield ParseIssue(line, hand_id, f"hand {hand_id!r} has no result yet (the app may "
                             "still be playing it); import the file again later", raw,
                             partial=True)
            continue
        if session is None:
            yield ParseIssue(line, hand_id, f"hand {hand_id!r}: its session "
                             f"{hand['session_id']!r} is not in the file", raw)
            continue
        try:
            record = _record(hand, session, turns)
        except (_Bad, KeyError, TypeError, ValueError) as exc:
            yield ParseIssue(line, hand_id, f"hand {hand_id!r}: {exc}", raw)
            continue
        problems = validate(record)
        if problems:
            yield ParseIssue(line, hand_id, f"hand {hand_id!r}: {'; '.join(problems)}", raw)
            continue
        yield ParsedHand(record, line, raw)


@dataclass(frozen=True)
class PineappleAppFormat:
    """The registry entry: a SQLite file with the app's ``sessions``, ``hands``, ``turns``."""

    name: str = FORMAT_NAME
    version: str = "1"

    def sniff_file(self, file: LogFile) -> bool:
        return sqlite_db.is_sqlite(file.data) and TABLES <= sqlite_db.table_names(file)

    def parse_file(self, file: LogFile) -> Iterator[ParsedHand | ParseIssue]:
        return parse_database(file)


FORMAT = PineappleAppFormat()
