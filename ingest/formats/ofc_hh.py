"""``ofc-hh/1``: our own hand history format, JSON Lines, one hand per line.

Every other source (the simulator, converters, hand-written home games) writes this format; the
reader checks it strictly and names the hand in every message. The full field reference is
``docs/format.md``; the JSON Schema is ``ofc_hh.schema.json`` beside this module.

>>> line = ('{"format": "ofc-hh/1", "source": "home", "hand_id": 7, "variant": "regular",'
...         ' "players": [{"name": "ann", "seat": 0, "board": "QhQd2c-KsKd9s5h3c-JhJdJc4s4d"},'
...         ' {"name": "bob", "seat": 1, "board": {"top": "Ah Kc 3d",'
...         ' "middle": "As Ad 8h 7c 2h", "bottom": "Qc Tc 8c 6c 5c"}}]}')
>>> record = record_from_dict(json.loads(line))
>>> record.hand_id, record.players[0].board.top
('7', (Card('Qh'), Card('Qd'), Card('2c')))
>>> record_to_dict(record)["players"][0]["board"]
{'top': 'Qh Qd 2c', 'middle': 'Ks Kd 9s 5h 3c', 'bottom': 'Jh Jd Jc 4s 4d'}
>>> record_from_dict({"source": "home", "hand_id": "8", "variant": "pineapple", "players": []})
Traceback (most recent call last):
...
ingest.formats.ofc_hh.HandError: hand '8': 0 players: pineapple needs 2-3

Why one module of this size: reading and writing ofc-hh/1, with a message for every field, are
the format's one definition (its keys are also the fast path's).
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from types import MappingProxyType
from typing import Any, TextIO

from ofc_core.board import ROW_NAMES, ROWS, Board
from ofc_core.cards import BoardCard, format_cards, parse_card
from ofc_core.hand import Event, HandRecord, PlayerRecord, StreetPlay, board_from_streets, validate

from . import ParsedHand, ParseIssue
from .tournament_fields import stack_points, tournament_from_dict, tournament_to_dict

FORMAT_NAME = "ofc-hh/1"

ROOM_NAMES = {"ofc-sim": "OFC Analytics simulator", "practice": "Practice table"}
"""The source ``ofc simulate`` writes (``ofc_core.play.sessions``), by name."""

HAND_KEYS = ("format", "source", "hand_id", "session_id", "match_id", "played_at", "stake",
             "currency", "hero", "variant", "rules", "button", "players", "events",
             "tournament")
"""Top-level keys, in the order the writer emits them."""
PLAYER_KEYS = ("name", "seat", "fantasyland", "surrendered", "reported_points", "board",
               "streets", "stack")
STREET_KEYS = ("dealt", "top", "middle", "bottom", "discard")
BOARD_KEYS = ROW_NAMES
EVENT_KEYS = ("type", "by", "accepted")
"""Named event keys; any other key of an event is kept in ``Event.data``."""


class HandError(ValueError):
    """A hand that cannot be read or scored as written; ``str()`` names the hand."""

    def __init__(self, hand_id: str | None, detail: str) -> None:
        self.hand_id = hand_id
        self.detail = detail
        super().__init__(f"hand {hand_id!r}: {detail}" if hand_id is not None else detail)


class _Invalid(ValueError):
    """A format-level problem at one place in the hand (the caller adds the hand id)."""


# --------------------------------------------------------------------------------------------
# Reading


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _check_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    unknown = [k for k in obj if k not in allowed]
    if unknown:
        raise _Invalid(f"{where}unknown key{'s' * (len(unknown) > 1)} "
                       f"{', '.join(map(repr, unknown))} (allowed: {', '.join(allowed)})")


def _get(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str,
         where: str = "", required: bool = False) -> Any:
    """``obj[key]`` checked against ``kind`` (``None`` when absent or null)."""
    value = obj.get(key)
    if value is None:
        if required:
            raise _Invalid(f"{where}missing required field {key!r}")
        return None
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise _Invalid(f"{where}{key}: expected {what}, got {_json_type(value)}")
    if not isinstance(value, kind):
        raise _Invalid(f"{where}{key}: expected {what}, got {_json_type(value)}")
    return value


def _text(obj: Mapping[str, Any], key: str, where: str = "", required: bool = False) -> str | None:
    value: str | None = _get(obj, key, str, "a string", where, required)
    if value is not None and not value.strip():
        raise _Invalid(f"{where}{key}: must not be empty")
    return value


def _required_text(obj: Mapping[str, Any], key: str, where: str = "") -> str:
    """:func:`_text` of a field that must be given (``_Invalid`` names it otherwise)."""
    value = _text(obj, key, where, required=True)
    assert value is not None  # required: _get raised when it is missing
    return value


def _number(obj: Mapping[str, Any], key: str, where: str = "") -> float | None:
    value: float | None = _get(obj, key, (int, float), "a number", where)
    return value


def _flag(obj: Mapping[str, Any], key: str, where: str = "") -> bool:
    return bool(_get(obj, key, bool, "true or false", where))


def _hand_id(obj: Mapping[str, Any]) -> str:
    """The hand id as a string; a JSON number is accepted (``17`` and ``17.0`` give ``'17'``)."""
    value = _get(obj, "hand_id", (str, int, float), "a string or a number", required=True)
    if isinstance(value, str):
        if not value.strip():
            raise _Invalid("hand_id: must not be empty")
        return value
    return str(int(value)) if float(value).is_integer() else repr(value)


def _played_at(obj: Mapping[str, Any]) -> str | None:
    value = _text(obj, "played_at")
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise _Invalid(f"played_at: {value!r} is not an ISO 8601 time "
                       "(e.g. 2026-11-29T21:04:05+01:00)") from None
    if moment.tzinfo is None:
        raise _Invalid(f"played_at: {value!r} has no UTC offset (add +01:00, Z, ...)")
    return value


_card = lru_cache(maxsize=4096)(parse_card)
"""``parse_card`` (a card or a joker, X1/X2) remembered per spelling: files repeat the same few
hundred tokens."""


def _cards(text: Any, where: str) -> tuple[BoardCard, ...]:
    """Whitespace-separated cards, as :func:`ofc_core.cards.parse_cards` reads them."""
    if not isinstance(text, str):
        raise _Invalid(f"{where}: expected cards as a string, got {_json_type(text)}")
    try:
        return tuple(_card(token) for token in text.split())
    except ValueError as exc:
        raise _Invalid(f"{where}: {exc}") from None


def _board(value: Any, where: str) -> Board:
    """A board object ``{"top": ..., "middle": ..., "bottom": ...}`` or a compact string."""
    if isinstance(value, str):
        try:
            return Board.parse_compact(value)
        except ValueError as exc:
            raise _Invalid(f"{where}: {exc}") from None
    if not isinstance(value, dict):
        raise _Invalid(f"{where}: expected an object with top, middle, bottom or a compact "
                       f"string, got {_json_type(value)}")
    _check_keys(value, BOARD_KEYS, f"{where}: ")
    top, middle, bottom = (_cards(value.get(k, ""), f"{where}.{k}") for k in BOARD_KEYS)
    return Board(top, middle, bottom)


def _street(value: Any, where: str) -> StreetPlay:
    if not isinstance(value, dict):
        raise _Invalid(f"{where}: expected an object, got {_json_type(value)}")
    _check_keys(value, STREET_KEYS, f"{where}: ")
    hidden = {k: None if value.get(k) is None else _cards(value[k], f"{where}.{k}")
              for k in ("dealt", "discard")}
    top, middle, bottom = (_cards(value.get(k, ""), f"{where}.{k}") for k in BOARD_KEYS)
    return StreetPlay(top, middle, bottom, hidden["dealt"], hidden["discard"])


def _same_board(a: Board, b: Board) -> bool:
    return all(sorted(a.row(r)) == sorted(b.row(r)) for r in ROWS)


def _player(value: Any, index: int) -> PlayerRecord:
    where = f"players[{index}]"
    if not isinstance(value, dict):
        raise _Invalid(f"{where}: expected an object, got {_json_type(value)}")
    name = _required_text(value, "name", f"{where}: ")
    where = f"{where} {name!r}"
    _check_keys(value, PLAYER_KEYS, f"{where}: ")
    seat = _get(value, "seat", int, "a whole number", f"{where}: ", required=True)
    if seat < 0:
        raise _Invalid(f"{where}: seat must be 0 or more, got {seat}")
    surrendered = _flag(value, "surrendered", f"{where}: ")
    streets = None
    if value.get("streets") is not None:
        raw_streets = _get(value, "streets", list, "a list of streets", f"{where}: ")
        streets = tuple(_street(s, f"{where} streets[{n}]") for n, s in enumerate(raw_streets))
    board = None if value.get("board") is None else _board(value["board"], f"{where} board")
    if streets is not None:
        union = board_from_streets(streets)
        if board is not None and not _same_board(board, union):
            raise _Invalid(f"{where}: board {board} differs from the cards placed on its "
                           f"streets ({union})")
        board = union
    if board is None:
        if not surrendered:
            raise _Invalid(f"{where}: needs a board or streets")
        board = Board((), (), ())
    return PlayerRecord(name, seat, board, streets, _flag(value, "fantasyland", f"{where}: "),
                        surrendered, _number(value, "reported_points", f"{where}: "))


def _event(value: Any, index: int, players: set[str]) -> Event:
    where = f"events[{index}]"
    if not isinstance(value, dict):
        raise _Invalid(f"{where}: expected an object, got {_json_type(value)}")
    kind = _required_text(value, "type", f"{where}: ")
    by = _get(value, "by", str, "a player name", f"{where}: ")
    accepted = _get(value, "accepted", bool, "true or false", f"{where}: ")
    if kind == "double" and by not in players:
        raise _Invalid(f"{where}: a double must name the player who offered it in 'by' "
                       f"(one of the players), got {by!r}")
    data = {k: v for k, v in value.items() if k not in EVENT_KEYS}
    return Event(kind, by or "", accepted, MappingProxyType(data))


def _record(obj: Mapping[str, Any], hand_id: str) -> HandRecord:
    _check_keys(obj, HAND_KEYS, "")
    fmt = _get(obj, "format", str, "a string")
    if fmt is not None and fmt != FORMAT_NAME:
        raise _Invalid(f"format {fmt!r} is not supported (this reader knows {FORMAT_NAME})")
    source = _required_text(obj, "source")
    variant = _required_text(obj, "variant")
    rules = _get(obj, "rules", dict, "an object of rule overrides") or {}
    raw_players = _get(obj, "players", list, "a list of players", required=True)
    players = tuple(_player(p, n) for n, p in enumerate(raw_players))
    seats = [p.seat for p in players]
    if seats != sorted(set(seats)):
        raise _Invalid(f"players must be listed in seat order with distinct seats, got seats "
                       f"{seats}")
    names = {p.name for p in players}
    tournament = None
    if obj.get("tournament") is not None:
        try:
            tournament = tournament_from_dict(obj["tournament"])
            players = tuple(replace(p, stack=stack_points(
                tournament, raw.get("stack"), f"players[{n}] {p.name!r}: "))
                for n, (p, raw) in enumerate(zip(players, raw_players, strict=True)))
        except ValueError as exc:
            raise _Invalid(str(exc)) from None
    elif any(isinstance(p, dict) and p.get("stack") is not None for p in raw_players):
        raise _Invalid("a player's stack (chips) is given only in a tournament hand")
    raw_events = _get(obj, "events", list, "a list of events") or []
    assert source is not None and variant is not None
    return HandRecord(
        source=source, hand_id=hand_id, variant=variant, players=players,
        rules=MappingProxyType(dict(rules)), button=_text(obj, "button"),
        session_id=_text(obj, "session_id"), match_id=_text(obj, "match_id"),
        played_at=_played_at(obj), stake=_number(obj, "stake"),
        currency=_text(obj, "currency"), hero=_text(obj, "hero"),
        events=tuple(_event(e, n, names) for n, e in enumerate(raw_events)),
        tournament=tournament,
    )


def record_from_dict(obj: Any) -> HandRecord:
    """The hand an ``ofc-hh/1`` object describes, checked against its ruleset.

    Raises :class:`HandError` (a ``ValueError``) naming the hand and every problem found by
    :func:`ofc_core.hand.validate`, or the first format problem (wrong type, unknown key, bad
    card...).
    """
    if not isinstance(obj, dict):
        raise HandError(None, f"a hand is a JSON object, got {_json_type(obj)}")
    try:
        hand_id = _hand_id(obj)
    except _Invalid as exc:
        raise HandError(None, str(exc)) from None
    try:
        record = _record(obj, hand_id)
    except _Invalid as exc:
        raise HandError(hand_id, str(exc)) from None
    problems = validate(record)
    if problems:
        raise HandError(hand_id, "; ".join(problems))
    return record


# --------------------------------------------------------------------------------------------
# Writing


def _board_to_dict(board: Board) -> dict[str, str]:
    return {key: format_cards(getattr(board, key)) for key in ROW_NAMES}


def _street_to_dict(street: StreetPlay) -> dict[str, str]:
    out: dict[str, str] = {}
    if street.dealt is not None:
        out["dealt"] = format_cards(street.dealt)
    for key in ROW_NAMES:
        cards = getattr(street, key)
        if cards:
            out[key] = format_cards(cards)
    if street.discard is not None:
        out["discard"] = format_cards(street.discard)
    return out


def _player_to_dict(player: PlayerRecord, chips: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": player.name, "seat": player.seat}
    if player.fantasyland:
        out["fantasyland"] = True
    if player.surrendered:
        out["surrendered"] = True
    if player.reported_points is not None:
        out["reported_points"] = player.reported_points
    if player.streets is not None:
        out["streets"] = [_street_to_dict(s) for s in player.streets]
    elif player.board.cards or not player.surrendered:
        out["board"] = _board_to_dict(player.board)
    if chips is not None:
        out["stack"] = int(chips) if chips.is_integer() else chips
    return out


def _event_to_dict(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": event.type}
    if event.by:
        out["by"] = event.by
    if event.accepted is not None:
        out["accepted"] = event.accepted
    out.update(event.data)
    return out


def record_to_dict(record: HandRecord) -> dict[str, Any]:
    """The ``ofc-hh/1`` object of a hand: absent optional fields are left out, and a player
    with street detail is written street by street (the board is their union)."""
    out: dict[str, Any] = {"format": FORMAT_NAME, "source": record.source,
                           "hand_id": record.hand_id}
    for key in ("session_id", "match_id", "played_at", "stake", "currency", "hero"):
        value = getattr(record, key)
        if value is not None:
            out[key] = value
    out["variant"] = record.variant
    if record.rules:
        out["rules"] = dict(record.rules)
    if record.button is not None:
        out["button"] = record.button
    t = record.tournament
    out["players"] = [_player_to_dict(p, None if t is None or p.stack is None else
                                      t.chips(p.stack)) for p in record.players]
    if record.events:
        out["events"] = [_event_to_dict(e) for e in record.events]
    if t is not None:
        out["tournament"] = tournament_to_dict(t)
    return out


def dumps_record(record: HandRecord) -> str:
    """One hand as one JSON line (UTF-8 text kept readable, no trailing newline)."""
    return json.dumps(record_to_dict(record), ensure_ascii=False, separators=(", ", ": "),
                      allow_nan=False)


def write_records(records: Iterable[HandRecord], fp: TextIO) -> int:
    """Write hands as JSON Lines to ``fp`` (open it with ``encoding="utf-8"``, ``newline=""``
    on Windows); returns the number written."""
    count = 0
    for record in records:
        fp.write(dumps_record(record) + "\n")
        count += 1
    return count


# --------------------------------------------------------------------------------------------
# Parsing files


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a number in JSON")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"key {key!r} appears twice in one object")
        out[key] = value
    return out


_LARGEST = sys.float_info.max
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_LONG_NUMBER = re.compile(r"\d{300}")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} is too large")
    return value


def _bounded_int(text: str) -> int:
    value = int(text)
    if abs(value) > _LARGEST:
        raise ValueError(f"the number {text[:20]}... is too large")
    return value


def loads_line(line: str) -> Any:
    """Strict JSON: no NaN/Infinity, no key given twice in one object, every number within a
    double's range (``1e400`` is not read as infinity), no lone UTF-16 surrogate (``"\\ud800"``,
    half a character), no nesting too deep to read. Every refusal is a ``ValueError``.

    >>> loads_line('{"stake": 1e400}')
    Traceback (most recent call last):
    ...
    ValueError: the number 1e400 is too large
    >>> loads_line('[' * 100_000)
    Traceback (most recent call last):
    ...
    ValueError: nested too deeply
    """
    try:  # an integer beyond a double has over 300 digits: only then is each one checked
        obj = json.loads(line, parse_constant=_no_constants, object_pairs_hook=_no_duplicate_keys,
                         parse_float=_finite_float,
                         parse_int=_bounded_int if _LONG_NUMBER.search(line) else None)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if _SURROGATE.search(line):
        try:
            json.dumps(obj, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("a \\u escape gives half a character (a lone UTF-16 surrogate)"
                             ) from None
    return obj


def _guess_hand_id(line: str) -> str | None:
    """The hand id of a line that is not valid JSON, if it can be read anyway (for messages)."""
    key = line.find('"hand_id"')
    if key < 0:
        return None
    rest = line[key + len('"hand_id"'):].lstrip().removeprefix(":").lstrip()
    try:
        value, _ = json.JSONDecoder().raw_decode(rest)
    except (ValueError, RecursionError):
        return None
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else None


def parse_text(text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
    """Every hand of an ``ofc-hh/1`` file: a :class:`ParsedHand` per good line, a
    :class:`ParseIssue` per bad one (blank lines are skipped).

    A last line without its newline that is not valid JSON is a hand still being written: it is
    reported with ``partial=True``, not as an error.

    >>> issues = list(parse_text('{"hand_id": 1}\\n\\n[1]\\n{"source": "home", "hand', "x"))
    >>> [(i.line, i.partial, i.message) for i in issues]  # doctest: +NORMALIZE_WHITESPACE
    [(1, False, "hand '1': missing required field 'source'"),
     (3, False, 'a hand is a JSON object, got a list'),
     (4, True, 'the last hand is incomplete (the file may still be being written)')]
    """
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        raw = line.removesuffix("\r")
        if not raw.strip():
            continue
        try:
            obj = loads_line(raw)
        except ValueError as exc:
            hand_id = _guess_hand_id(raw)
            if number == len(lines):
                yield ParseIssue(number, hand_id, "the last hand is incomplete (the file may "
                                 "still be being written)", raw, partial=True)
            else:
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
                where = f" at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
                named = f"hand {hand_id!r}: " if hand_id is not None else ""
                yield ParseIssue(number, hand_id, f"{named}invalid JSON: {reason}{where}", raw)
            continue
        try:
            yield ParsedHand(record_from_dict(obj), number, raw)
        except HandError as exc:
            yield ParseIssue(number, exc.hand_id, str(exc), raw)


@dataclass(frozen=True)
class OfcHhFormat:
    """The registry entry for ``ofc-hh/1``."""

    name: str = FORMAT_NAME
    version: str = "1"

    def sniff(self, text: str, filename: str) -> bool:
        """A ``.jsonl`` / ``.ndjson`` file not blank, or one of whose first 20 lines opens a
        JSON object naming this format: a broken first line is that hand's error, not the
        file's.

        >>> FORMAT.sniff('{"source": "x"\\n{"format": "ofc-hh/1"}', "log.txt")
        True
        >>> FORMAT.sniff('[1]', "log.jsonl"), FORMAT.sniff('ann: Ah Kd 2c', "log.txt")
        (True, False)
        """
        if filename.lower().endswith((".jsonl", ".ndjson")):
            return bool(text) and not text.isspace()  # text.strip() would copy it
        return any(ln.lstrip().startswith("{") and f'"{FORMAT_NAME}"' in ln
                   for ln in text.removeprefix("\ufeff").split("\n", 20)[:20])

    def parse(self, text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
        return parse_text(text, filename)


FORMAT = OfcHhFormat()
