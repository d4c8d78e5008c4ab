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

Cards are written ``Ah``, ``Td`` and ``X1``/``X2`` for the jokers; the app also writes a
joker as ``JK`` (its evaluators take ``X1``, ``X2`` and ``JK``: ``backend/main.py``), which is
read as the joker that player was dealt (:func:`spell_jokers`). The file is opened read-only and
never changed.

The app scores with its own code (its joker resolver, its stay rule) and settles under table
stakes: ``chips_before`` are the players' stacks (one chip a point), ``actual_score`` what
changed hands, ``raw_score`` the result before the cap. (Its older versions let a player owe:
a session whose chips go below zero was played without table stakes, and its hands carry no
stacks.) Each player's stack is kept
(``PlayerRecord.stack``: we settle the same way, :mod:`ofc_core.settlement`), ``actual_score``
as ``reported_points`` and, for the audit, ``raw_score``, ``busted``, the royalty total and the
Fantasyland entry or stay (``fl_entry``, ``fl_card_count``) as ``PlayerRecord.reported``.

A hand without a result is partial: still being played when it is the newest hand of the file
and began less than :data:`ABANDONED_AFTER` before the import; otherwise *abandoned* (the app
left it: its session went on, or it began long ago), reported, never waited for.

>>> APP_RULES["jokers"], APP_RULES["fl_repeat"], VARIANT
(2, 'entry', 'progressive-pineapple')
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import Any

from ofc_core.board import Board
from ofc_core.cards import BoardCard, parse_cards
from ofc_core.hand import HandRecord, PlayerRecord, Reported, StreetPlay, validate

from . import LogFile, ParsedHand, ParseIssue, sqlite_db

FORMAT_NAME = "pineapple-app"
SOURCE = "pineapple-app"

ROOM_NAMES = {SOURCE: "Pineapple app"}
"""The room this format's hands come from, by the name a player knows (docs/formats.md)."""

PLAY_MONEY_ROOMS = frozenset({SOURCE})
"""Rooms whose chips are play money (the app's chips buy nothing)."""
VARIANT = "progressive-pineapple"
APP_RULES: Mapping[str, Any] = MappingProxyType({"jokers": 2, "fl_repeat": "entry"})
"""The app deals two jokers and keeps a staying player's Fantasyland card count
(progressive entry: QQ 14, KK 15, AA 16, trips 17)."""
TABLES = frozenset({"sessions", "hands", "turns"})
ROWS = ("top", "middle", "bottom")


JOKER_NAMES = ("X1", "X2")
JOKER_ALIAS = "JK"
"""How the app writes a joker when it does not say which (e.g. a Fantasyland set)."""
ABANDONED_AFTER = timedelta(hours=6)
"""An unfinished hand begun longer ago than this is abandoned (an app hand takes minutes)."""


class _Bad(ValueError):
    pass


def spell_jokers(tokens: Sequence[Any], pool: Sequence[str]) -> list[Any]:
    """``tokens`` with each ``JK`` read as the first joker of ``pool`` (the jokers the player
    was dealt, in order) that ``tokens`` do not name already.

    >>> spell_jokers(["Qd", "JK", "3s"], ["X1"])
    ['Qd', 'X1', '3s']
    >>> spell_jokers(["X1", "jk"], ["X1", "X2"])
    ['X1', 'X2']
    """
    named = {t for t in tokens if isinstance(t, str) and t.upper() in JOKER_NAMES}
    free = [j for j in (*pool, *JOKER_NAMES) if j not in named]
    out = []
    for token in tokens:
        if isinstance(token, str) and token.strip().upper() == JOKER_ALIAS:
            if not free:
                raise _Bad(f"{token!r}: a third joker (the app deals two)")
            token = free.pop(0)
            named.add(token)
        out.append(token)
    return out


def _dealt_jokers(turns: Sequence[Mapping[str, Any]]) -> list[str]:
    """The jokers a player was dealt over the hand's turns, in order."""
    out: list[str] = []
    for turn in turns:
        for token in _json(turn["dealt_cards"], "dealt_cards") or []:
            if isinstance(token, str) and token.upper() in JOKER_NAMES and token not in out:
                out.append(token.upper())
    return out


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


def _street(turn: Mapping[str, Any], final: Board | None, jokers: Sequence[str]) -> StreetPlay:
    """One turn of one player: its placements by row (a Fantasyland turn's ``auto`` rows are
    read from the final board), the dealt cards, the discard; ``jokers``: those the player
    was dealt in the hand (what ``JK`` stands for)."""
    placements = _json(turn["action_placements"], "action_placements") or []
    dealt_tokens = _json(turn["dealt_cards"], "dealt_cards") or []
    pool = [j for j in _dealt_jokers([turn]) or jokers]
    if isinstance(placements, list) and all(isinstance(p, list) and p for p in placements):
        cards = spell_jokers([p[0] for p in placements] + [turn["action_discard"]], pool)
        placements = [[c, *p[1:]] for c, p in zip(cards, placements, strict=False)]
        turn = {**turn, "action_discard": cards[-1]}
    if final is None:  # a Fantasyland turn is logged with the board it set
        shown = _json(turn["board_self"], "board_self")
        final = _board({"boards": [shown]}, 0, jokers) if isinstance(shown, dict) else None
    dealt = tuple(_card(c) for c in spell_jokers(dealt_tokens, pool))
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


def _board(detail: Mapping[str, Any], seat: int, jokers: Sequence[str]) -> Board | None:
    boards = detail.get("boards")
    if not isinstance(boards, list) or len(boards) <= seat or not isinstance(boards[seat], dict):
        return None
    rows = [list(boards[seat].get(r) or []) for r in ROWS]
    cards = spell_jokers([c for row in rows for c in row], jokers)
    sizes = [len(row) for row in rows]
    parts = (cards[:sizes[0]], cards[sizes[0]:sizes[0] + sizes[1]], cards[sizes[0] + sizes[1]:])
    return Board(*(tuple(_card(c) for c in part) for part in parts))


def _played_at(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return value if moment.tzinfo is not None else value + "+00:00"


def _seat_value(values: Any, seat: int) -> Any:
    """``values[seat]`` of a per-player JSON list, ``None`` when it is not there."""
    return values[seat] if isinstance(values, list) and seat < len(values) else None


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None


def _reported(detail: Mapping[str, Any], raw_scores: Any, seat: int) -> Reported:
    """The app's own result of a player beyond what changed hands (for the audit)."""
    royalties = _seat_value(detail.get("royalties"), seat)
    total = royalties.get("total") if isinstance(royalties, dict) else None
    busted = _seat_value(detail.get("busted"), seat)
    entry = _seat_value(detail.get("fl_entry"), seat)
    count = _number(_seat_value(detail.get("fl_card_count"), seat))
    fl_next = None if not isinstance(entry, bool) else int(count or 0) if entry else 0
    return Reported(raw_points=_number(_seat_value(raw_scores, seat)),
                    fouled=busted if isinstance(busted, bool) else None,
                    royalties=None if (number := _number(total)) is None else int(number),
                    fantasyland_next=fl_next)


def _record(hand: Mapping[str, Any], session: Mapping[str, Any],
            turns: Sequence[Mapping[str, Any]], table_stakes: bool = True) -> HandRecord:
    names = [str(session["player0_id"]), str(session["player1_id"])]
    detail = _json(hand["result_detail"], "result_detail") or {}
    raw_scores = _json(hand["raw_score"], "raw_score") or []
    settled = _json(hand["actual_score"], "actual_score") if "actual_score" in hand.keys() \
        else None
    stacks = _json(hand["chips_before"], "chips_before") \
        if table_stakes and "chips_before" in hand.keys() else None
    players = []
    for seat, name in enumerate(names):
        mine = sorted((t for t in turns if t["player"] == seat), key=lambda t: t["turn"])
        jokers = _dealt_jokers(mine)
        final = _board(detail, seat, jokers)
        streets = tuple(_street(t, final, jokers) for t in mine)
        fantasyland = len(streets) == 1 and len(streets[0].placed) == 13
        union = Board(*(tuple(c for s in streets for c in getattr(s, r)) for r in ROWS))
        board = final if final is not None and final.cards else union
        points = _number(_seat_value(settled, seat))
        if points is None:  # an older log without actual_score: its raw score is what it says
            points = _number(_seat_value(raw_scores, seat))
        players.append(PlayerRecord(name, seat, board, streets or None, fantasyland, False,
                                    points, _number(_seat_value(stacks, seat)),
                                    _reported(detail, raw_scores, seat)))
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
    owing: frozenset[str] = frozenset()
    """Sessions played without table stakes (:func:`_owing_sessions`)."""


def _owing_sessions(hands: Sequence[Any]) -> frozenset[str]:
    """Sessions whose chips went below zero: the app played them without table stakes (its
    older versions let a player owe), so their ``chips_before`` are no stacks.

    >>> _owing_sessions([{"session_id": "a", "chips_before": "[6, 394]",
    ...                   "chips_after": "[-23, 423]"}])
    frozenset({'a'})
    """
    owing = set()
    for hand in hands:
        for column in ("chips_before", "chips_after"):
            try:
                chips = json.loads(hand[column]) if hand[column] else []
            except (ValueError, TypeError):
                continue
            if isinstance(chips, list) and any(isinstance(c, int | float) and c < 0
                                               for c in chips):
                owing.add(str(hand["session_id"]))
    return frozenset(owing)


def _read(file: LogFile) -> _Read:
    with sqlite_db.open_readonly(file) as con:
        hands = con.execute("SELECT rowid AS line, * FROM hands "
                            "ORDER BY started_at, hand_number, rowid").fetchall()
        sessions = {s["session_id"]: s for s in con.execute("SELECT * FROM sessions")}
        turns: dict[str, list[Any]] = {}
        for t in con.execute("SELECT * FROM turns ORDER BY hand_id, turn, player, id"):
            turns.setdefault(t["hand_id"], []).append(t)
    return _Read(hands, sessions, turns, _owing_sessions(hands))


def _raw(hand: Any, session: Any, turns: Sequence[Any]) -> str:
    """What was read of one hand, as JSON (kept as the hand's text in the store)."""
    return json.dumps({"hand": dict(hand), "session": None if session is None else dict(session),
                       "turns": [dict(t) for t in turns]}, ensure_ascii=False, default=str)


def _moment(value: Any) -> datetime | None:
    text = _played_at(value)
    return None if text is None else datetime.fromisoformat(text)


def _unfinished(hand: Any, newest: Any, read: _Read, now: datetime) -> ParseIssue:
    """The partial issue of a hand without a result: still being played, or abandoned."""
    hand_id, line = str(hand["hand_id"]), int(hand["line"])
    raw = _raw(hand, read.sessions.get(hand["session_id"]), read.turns.get(hand["hand_id"], []))
    began = _moment(hand["started_at"])
    later = any(h["session_id"] == hand["session_id"] and h["hand_number"] > hand["hand_number"]
                for h in read.hands)
    if not later and hand is newest and (began is None or now - began < ABANDONED_AFTER):
        return ParseIssue(line, hand_id, f"hand {hand_id!r} has no result yet (the app may "
                          "still be playing it); import the file again later", raw,
                          partial=True)
    why = "its session went on without it" if later else \
        f"it began {hand['started_at']} and never ended"
    return ParseIssue(line, hand_id, f"hand {hand_id!r} was abandoned without a result ({why});"
                      " nothing to store", raw, partial=True, abandoned=True)


def parse_database(file: LogFile, now: datetime | None = None,
                   ) -> Iterator[ParsedHand | ParseIssue]:
    """Every hand of the app's database: finished hands as records, a hand without a result
    as partial (abandoned, or still being played: the module says which), a hand that cannot
    be read with the reason. ``now``: the time to judge abandoned hands by (default: now)."""
    read = _read(file)
    clock = now or datetime.now(UTC)
    newest = read.hands[-1] if read.hands else None
    for hand in read.hands:
        hand_id = str(hand["hand_id"])
        session = read.sessions.get(hand["session_id"])
        turns = read.turns.get(hand["hand_id"], [])
        raw = _raw(hand, session, turns)
        line = int(hand["line"])
        if hand["raw_score"] is None or hand["result_detail"] is None:
            yield _unfinished(hand, newest, read, clock)
            continue
        if session is None:
            yield ParseIssue(line, hand_id, f"hand {hand_id!r}: its session "
                             f"{hand['session_id']!r} is not in the file", raw)
            continue
        try:
            record = _record(hand, session, turns,
                             table_stakes=str(hand["session_id"]) not in read.owing)
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
