"""The bulk path for ofc-hh/1: canonical lines straight into columns, checked and scored on
arrays, with no card objects.

The reference reader (:mod:`ingest.formats.ofc_hh`) builds a :class:`~ofc_core.hand.HandRecord`
per hand; that is right for messages and too slow for a million hands. This reader accepts only
what it can read exactly as the reference does, and sends every other line back to it:

- the line is strict JSON (orjson when installed), an object whose keys are those of
  :mod:`ingest.formats.ofc_hh` at every level, no key given twice in one object (what
  ``json.loads`` would silently merge: a line with more ``":`` than keys is parsed again with
  the reference reader's duplicate check, :func:`ingest.formats.ofc_hh.loads_line`), no
  ``events`` and no ``tournament`` (nor a player's ``stack``, which only a tournament hand
  has): a tournament's few hundred hands take the reference reader;
- fields have the reference's types (names and ids non-empty strings, seats increasing whole
  numbers, flags booleans, ``played_at`` ISO 8601 with an offset, ...);
- players give either ``streets`` or a ``board`` object (not a compact board string), and every
  card is written canonically (``Ah``, single spaces), so the stored text is what the reference
  path would store;
- the hand is valid: names, button and hero by :func:`ofc_core.validate_batch.players_ok`, its
  rules resolve, and :func:`ofc_core.validate_batch.valid_hands` (the rules of
  :func:`ofc_core.hand.validate` on arrays).

This module reads the lines into Python lists (the first two points); the array checks, the
columns and the scoring are :mod:`ingest.formats.ofc_hh_arrays` (:meth:`ParsedLines.finish`),
which :mod:`ingest.stored_columns` also feeds from the store's tables for ``ofc rescore``. The
importer reads the lines it is given back through the reference reader, which reports what is
wrong.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from ingest.formats import ofc_hh
from ingest.formats.ofc_hh import FORMAT_NAME
from ingest.formats.ofc_hh_arrays import ColumnLists, FastHands, ParsedLines
from ofc_core.batch import MAX_SEATS
from ofc_core.records import gc_paused
from ofc_core.validate_batch import players_ok

try:  # orjson is strict JSON (no NaN) and several times faster than json
    import orjson

    def _loads(line: str) -> Any:
        return orjson.loads(line)
except ImportError:  # pragma: no cover - depends on the environment
    def _no_constant(name: str) -> Any:
        raise ValueError(name)

    _decoder = json.JSONDecoder(parse_constant=_no_constant)

    def _loads(line: str) -> Any:
        return _decoder.decode(line)

HAND_KEYS = frozenset(ofc_hh.HAND_KEYS) - {"events", "tournament"}
"""A hand with events or a tournament takes the reference reader."""
PLAYER_KEYS = frozenset(ofc_hh.PLAYER_KEYS) - {"stack"}
STREET_KEYS = frozenset(ofc_hh.STREET_KEYS)
BOARD_KEYS = frozenset(ofc_hh.BOARD_KEYS)
_SPACED_COLON = re.compile(r'"[ \t]+:')


class _Defer(Exception):
    """This line is for the reference reader."""


def _text(value: Any) -> str:
    if type(value) is not str or not value.strip():
        raise _Defer
    return value


def _optional_text(value: Any) -> str | None:
    return None if value is None else _text(value)


def _number(value: Any) -> float | None:
    if value is None:
        return None
    if type(value) not in (int, float):
        raise _Defer
    number: float = value
    return number


def _flag(value: Any) -> bool:
    if value is None:
        return False
    if type(value) is not bool:
        raise _Defer
    return value


def _played_at(value: Any) -> str | None:
    if value is None:
        return None
    text = _text(value)
    try:
        if datetime.fromisoformat(text).tzinfo is None:
            raise _Defer
    except ValueError:
        raise _Defer from None
    return text


@dataclass
class _Rows:
    """What :func:`_read_line` appends: one tuple per hand, player, street and board."""

    hands: list[tuple[Any, ...]]
    players: list[tuple[int, str, bool, bool, float, bool, int]]
    streets: list[tuple[Any, ...]]
    """(player, street number, dealt, top, middle, bottom, discard)"""
    boards: list[tuple[int, Any, Any, Any]]
    """(player, top, middle, bottom) of a player known by a final board only"""


def _no_key_twice(line: str, keys: int) -> bool:
    """Whether a line whose ``":`` count is not its number of keys has no key given twice
    after all (the rest were ``":`` inside strings): the count only flags lines, the reference
    reader's strict parse decides."""
    if line.count('":') < keys:
        return False
    try:
        ofc_hh.loads_line(line)
    except ValueError:
        return False
    return True


def _spaced_colon(line: str) -> bool:
    """Whether a key may be followed by white space before its colon (then ``":`` does not
    count the keys: the line goes to the reference reader). JSON allows only space, tab and
    line ends there (a line holds no line end: ``\r`` is refused before), so the search runs
    only when ``"`` is followed by a space or a tab somewhere.

    >>> _spaced_colon('{"a" : 1}'), _spaced_colon('{"a": "b c"}')
    (True, False)
    """
    return ('" ' in line or '"\t' in line) and _SPACED_COLON.search(line) is not None


def _read_line(b: _Rows, position: int, number: int, line: str) -> None:
    """Append one canonical hand to ``b`` or raise :class:`_Defer` (the caller then takes back
    what was appended). The types of card texts are checked later on the whole column."""
    if "\r" in line or line.startswith("\ufeff"):  # orjson would skip a BOM; json does not
        raise _Defer
    try:
        obj = _loads(line)
    except (ValueError, RecursionError):
        raise _Defer from None
    if type(obj) is not dict or not obj.keys() <= HAND_KEYS:
        raise _Defer
    get = obj.get
    fmt = get("format")
    if fmt is not None and fmt != FORMAT_NAME:
        raise _Defer
    source, hand_id, variant = _text(get("source")), _text(get("hand_id")), _text(get("variant"))
    button, hero = _optional_text(get("button")), _optional_text(get("hero"))
    rules_text, rule_keys = _rules_text(get("rules"))
    players = get("players")
    if type(players) is not list or not 1 <= len(players) <= MAX_SEATS:
        raise _Defer
    names, player_keys = _read_players(b, players)
    keys = len(obj) + rule_keys + player_keys
    if _spaced_colon(line) or not players_ok(names, button, hero) or (
            line.count('":') != keys and not _no_key_twice(line, keys)):
        raise _Defer
    b.hands.append((source, hand_id, _optional_text(get("session_id")),
                    _optional_text(get("match_id")), _played_at(get("played_at")), variant,
                    rules_text, button, hero, _number(get("stake")),
                    _optional_text(get("currency")), line, number,
                    0 if button is None else (names.index(button) + 1) % len(names),
                    len(names), position))


def _rules_text(rules: Any) -> tuple[str, int]:
    """A hand's rule overrides as sorted JSON, and how many keys they hold."""
    if rules is None:
        return "{}", 0
    if type(rules) is dict and all(type(v) in (str, int, float, bool) or v is None
                                   for v in rules.values()):
        return json.dumps(rules, sort_keys=True), len(rules)
    raise _Defer


def _read_players(b: _Rows, players: list[Any]) -> tuple[list[str], int]:
    """Append the players of the hand ``b`` is reading (and their streets or final boards);
    returns their names and how many keys their objects hold."""
    hand = len(b.hands)
    player = len(b.players)
    names: list[str] = []
    keys = 0
    last_seat = -1
    append = b.players.append
    for p in players:
        if type(p) is not dict or not p.keys() <= PLAYER_KEYS:
            raise _Defer
        keys += len(p)
        pget = p.get
        name = pget("name")
        if type(name) is not str or not name.strip():
            raise _Defer
        names.append(name)
        seat = pget("seat")
        if type(seat) is not int or seat <= last_seat:
            raise _Defer
        last_seat = seat
        reported = pget("reported_points")
        if reported is not None and type(reported) not in (int, float):
            raise _Defer
        streets = pget("streets")
        keys += _read_cards(b, player, streets, pget("board"))
        append((hand, name, _flag(pget("fantasyland")), _flag(pget("surrendered")),
                np.nan if reported is None else float(reported), streets is not None, seat))
        player += 1
    return names, keys


def _read_cards(b: _Rows, player: int, streets: Any, board: Any) -> int:
    """Append a player's streets, or final board (one of them, not both); returns how many
    keys they hold."""
    if streets is not None and board is None:
        if type(streets) is not list or not streets:
            raise _Defer
        keys = 0
        append = b.streets.append
        for number, st in enumerate(streets, start=1):
            if type(st) is not dict or not st.keys() <= STREET_KEYS:
                raise _Defer
            keys += len(st)
            get = st.get
            append((player, number, get("dealt"), get("top", ""), get("middle", ""),
                    get("bottom", ""), get("discard")))
        return keys
    if board is not None and streets is None:
        if type(board) is not dict or not board.keys() <= BOARD_KEYS:
            raise _Defer
        b.boards.append((player, board.get("top", ""), board.get("middle", ""),
                         board.get("bottom", "")))
        return len(board)
    raise _Defer


def parse_lines(lines: Sequence[tuple[int, str]]) -> ParsedLines:
    """Parse ``(line number, text)`` lines (blank lines left out by the caller)."""
    with gc_paused():
        return _parse_lines(lines)


def _parse_lines(lines: Sequence[tuple[int, str]]) -> ParsedLines:
    rows = _Rows([], [], [], [])
    deferred: list[int] = []
    for position, (number, line) in enumerate(lines):
        mark = (len(rows.hands), len(rows.players), len(rows.streets), len(rows.boards))
        try:
            _read_line(rows, position, number, line)
        except _Defer:
            del rows.hands[mark[0]:], rows.players[mark[1]:], rows.streets[mark[2]:], \
                rows.boards[mark[3]:]
            deferred.append(position)
    return ParsedLines(ColumnLists.of(rows.hands, rows.players, rows.streets, rows.boards),
                       deferred)


def read_lines(lines: Sequence[tuple[int, str]]) -> tuple[FastHands, list[int]]:
    """Read ``(line number, text)`` lines; returns the hands read and the positions (in
    ``lines``) of the lines the reference reader must read."""
    return parse_lines(lines).finish()


