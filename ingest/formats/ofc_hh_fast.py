"""The bulk path for ofc-hh/1: canonical lines straight into columns, checked and scored on
arrays, with no card objects.

The reference reader (:mod:`ingest.formats.ofc_hh`) builds a :class:`~ofc_core.hand.HandRecord`
per hand; that is right for messages and too slow for a million hands. This reader accepts only
what it can read exactly as the reference does, and sends every other line back to it:

- the line is strict JSON (orjson when installed), an object whose keys are those of
  :mod:`ingest.formats.ofc_hh` at every level, no key given twice in one object (what
  ``json.loads`` would silently merge: a line with more ``":`` than keys is parsed again with
  the reference reader's duplicate check, :func:`ingest.formats.ofc_hh.loads_line`), no
  ``events``;
- fields have the reference's types (names and ids non-empty strings, seats increasing whole
  numbers, flags booleans, ``played_at`` ISO 8601 with an offset, ...);
- players give either ``streets`` or a ``board`` object (not a compact board string), and every
  card is written canonically (``Ah``, single spaces), so the stored text is what the reference
  path would store;
- the hand is valid: names, button and hero by :func:`ofc_core.validate_batch.players_ok`, its
  rules resolve, and :func:`ofc_core.validate_batch.valid_hands` (the rules of
  :func:`ofc_core.hand.validate` on arrays).

The importer reads the lines it is given back through the reference reader, which reports
what is wrong. Accepted hands are scored by :func:`ofc_core.batch.score_batch`, grouped by
ruleset and player count. :func:`read_store` fills the same columns from the store's tables,
for ``ofc rescore``.

Why one module of this size: line -> rows -> columns -> array checks, and the store read back
into the same columns, are one reader; kept together so that what it accepts can be read
against the reference reader in one place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ingest.formats import ofc_hh
from ingest.formats.ofc_hh import FORMAT_NAME
from ingest.hand_tables import FIELD_NAMES, HandColumns
from ofc_core.batch import MAX_SEATS, RecordScores, score_batch
from ofc_core.board import ROW_NAMES
from ofc_core.cards import DECK, JOKERS
from ofc_core.records import gc_paused
from ofc_core.rules import Ruleset, resolve
from ofc_core.validate_batch import (
    BOTTOM,
    DEALT,
    DISCARD,
    MIDDLE,
    TOP,
    CardTable,
    players_ok,
    valid_hands,
)

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

HAND_KEYS = frozenset(ofc_hh.HAND_KEYS) - {"events"}  # a hand with events takes the reference
PLAYER_KEYS = frozenset(ofc_hh.PLAYER_KEYS)
STREET_KEYS = frozenset(ofc_hh.STREET_KEYS)
BOARD_KEYS = frozenset(ofc_hh.BOARD_KEYS)
_SPACED_COLON = re.compile(r'"\s+:')
CARD_TEXTS = pa.array([str(c) for c in DECK] + [str(j) for j in JOKERS] + [""])
"""Card index -> canonical text (the jokers X1, X2 are 52 and 53); the last index is the empty
token of an empty row."""
EMPTY = 52 + len(JOKERS)


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
    return value


def _flag(value: Any) -> bool:
    if value is None:
        return False
    if type(value) is not bool:
        raise _Defer
    return value


def _played_at(value: Any) -> str | None:
    if value is None:
        return None
    try:
        if datetime.fromisoformat(_text(value)).tzinfo is None:
            raise _Defer
    except ValueError:
        raise _Defer from None
    return value


HAND_COLUMNS = ("source", "hand_id", "session_id", "match_id", "played_at", "variant", "rules",
                "button", "hero", "stake", "currency", "raw", "line", "first_to_act",
                "player_count", "input")


@dataclass
class _Rows:
    """What :func:`_read_line` appends: one tuple per hand, player, street and board."""

    hands: list[tuple[Any, ...]]
    players: list[tuple[int, str, bool, bool, float, bool, int]]
    streets: list[tuple[Any, ...]]
    """(player, street number, dealt, top, middle, bottom, discard)"""
    boards: list[tuple[int, Any, Any, Any]]
    """(player, top, middle, bottom) of a player known by a final board only"""


@dataclass
class _Builder:
    """The lines read, in columns (Python lists); everything after is on arrays."""

    hands: dict[str, list[Any]]
    player_hand: list[int]
    name: list[str]
    fantasyland: list[bool]
    surrendered: list[bool]
    reported: list[float]
    has_streets: list[bool]
    seat: list[int | None]
    """The log's seat number of each player."""
    row_player: list[int]
    row_street: list[int]
    row_fields: list[list[str | None]]
    board_player: list[int]
    board_fields: list[list[str]]

    @classmethod
    def empty(cls) -> _Builder:
        return cls.of(_Rows([], [], [], []))

    @classmethod
    def of(cls, rows: _Rows) -> _Builder:
        def columns(items: list[tuple[Any, ...]], width: int) -> list[list[Any]]:
            return [list(c) for c in zip(*items)] if items else [[] for _ in range(width)]  # noqa: B905

        hands = columns(rows.hands, len(HAND_COLUMNS))
        players = columns(rows.players, 7)
        streets = columns(rows.streets, 7)
        boards = columns(rows.boards, 4)
        return cls(dict(zip(HAND_COLUMNS, hands, strict=True)), *players, streets[0],
                   streets[1], streets[2:], boards[0], boards[1:])


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


def _read_line(b: _Rows, position: int, number: int, line: str) -> None:
    """Append one canonical hand to ``b`` or raise :class:`_Defer` (leaving ``b`` as it was).
    The types of card texts are checked later on the whole column."""
    if "\r" in line or line.startswith("\ufeff"):  # orjson would skip a BOM; json does not
        raise _Defer
    try:
        obj = _loads(line)
    except (ValueError, RecursionError):
        raise _Defer from None
    if type(obj) is not dict or not obj.keys() <= HAND_KEYS:
        raise _Defer
    keys = len(obj)
    get = obj.get
    fmt = get("format")
    if fmt is not None and fmt != FORMAT_NAME:
        raise _Defer
    source, hand_id, variant = _text(get("source")), _text(get("hand_id")), _text(get("variant"))
    button, hero = _optional_text(get("button")), _optional_text(get("hero"))
    rules = get("rules")
    if rules is None:
        rules_text = "{}"
    elif type(rules) is dict and all(type(v) in (str, int, float, bool) or v is None
                                     for v in rules.values()):
        keys += len(rules)
        rules_text = json.dumps(rules, sort_keys=True)
    else:
        raise _Defer
    players = get("players")
    if type(players) is not list or not 1 <= len(players) <= MAX_SEATS:
        raise _Defer
    hand = len(b.hands)
    first_player = len(b.players)
    names: list[str] = []
    last_seat = -1
    extend_streets = b.streets.extend
    for k, p in enumerate(players):
        if type(p) is not dict or not p.keys() <= PLAYER_KEYS:
            raise _Defer
        keys += len(p)
        pget = p.get
        name = _text(pget("name"))
        names.append(name)
        seat = pget("seat")
        if type(seat) is not int or seat <= last_seat:
            raise _Defer
        last_seat = seat
        reported = _number(pget("reported_points"))
        streets, board = pget("streets"), pget("board")
        player = first_player + k
        if streets is not None and board is None:
            if type(streets) is not list or not streets or not all(
                    type(st) is dict and st.keys() <= STREET_KEYS for st in streets):
                raise _Defer
            keys += sum(map(len, streets))
            extend_streets([(player, number_, st.get("dealt"), st.get("top", ""),
                             st.get("middle", ""), st.get("bottom", ""), st.get("discard"))
                            for number_, st in enumerate(streets, start=1)])
        elif board is not None and streets is None:
            if type(board) is not dict or not board.keys() <= BOARD_KEYS:
                raise _Defer
            keys += len(board)
            b.boards.append((player, board.get("top", ""), board.get("middle", ""),
                             board.get("bottom", "")))
        else:
            raise _Defer
        b.players.append((hand, name, _flag(pget("fantasyland")), _flag(pget("surrendered")),
                          np.nan if reported is None else float(reported), streets is not None,
                          seat))
    if _SPACED_COLON.search(line) or not players_ok(names, button, hero) or (
            line.count('":') != keys and not _no_key_twice(line, keys)):
        raise _Defer
    b.hands.append((source, hand_id, _optional_text(get("session_id")),
                    _optional_text(get("match_id")), _played_at(get("played_at")), variant,
                    rules_text, button, hero, _number(get("stake")),
                    _optional_text(get("currency")), line, number,
                    0 if button is None else (names.index(button) + 1) % len(names),
                    len(names), position))


@dataclass(frozen=True)
class FastHands:
    """Hands read by the fast path, in columns, checked and ready to score."""

    columns: HandColumns
    table: CardTable
    boards: np.ndarray
    """``(M, 13)`` card indexes of each player's board (top, middle, bottom); -1 if missing."""
    inputs: list[int]
    """Position of each hand in the lines given to :func:`read_lines`."""

    def scores(self) -> RecordScores:
        fl_cards = self.columns.fl_cards
        fl_dealt = (fl_cards.fill_null(0).to_numpy(zero_copy_only=False)
                    if isinstance(fl_cards, pa.Array) else None)
        return score_columns(self.table, self.boards, self.columns.first_to_act, fl_dealt)


def _tokens(arr: pa.Array) -> tuple[np.ndarray, np.ndarray, pa.Array, np.ndarray]:
    """Card tokens of a column of card texts: per text the count (0 for None or ''), the flat
    card indexes and texts, and per text whether it is canonical."""
    split = pc.split_pattern(arr, " ")
    lengths = pc.list_value_length(split).fill_null(0).to_numpy(zero_copy_only=False)
    flat = pc.list_flatten(split)
    index = pc.index_in(flat, value_set=CARD_TEXTS).fill_null(-1).to_numpy(
        zero_copy_only=False).astype(np.int64)
    empty_text = (pc.binary_length(arr).fill_null(1).to_numpy(zero_copy_only=False) == 0)
    owner = np.repeat(np.arange(len(arr)), lengths)
    bad = (index < 0) | ((index == EMPTY) & ~empty_text[owner])
    canonical = np.ones(len(arr), bool)
    canonical[owner[bad]] = False
    keep = index != EMPTY
    counts = np.bincount(owner[keep], minlength=len(arr)).astype(np.int64)
    return counts, index[keep], flat.filter(pa.array(keep)), canonical


@dataclass
class ParsedLines:
    """The first step of :func:`read_lines`: canonical lines parsed into lists, not yet
    checked. ``hands`` holds per hand its ``source``, ``hand_id``, ``raw`` text, ``line`` and
    ``input`` (position in the lines given)."""

    builder: _Builder
    deferred: list[int]

    @property
    def hands(self) -> dict[str, list[Any]]:
        return self.builder.hands

    def finish(self, keep: np.ndarray | None = None) -> tuple[FastHands, list[int]]:
        """Check and shape the hands (only those in ``keep``, if given); returns them and the
        positions of every line the reference reader must read (hands dropped by ``keep``
        are not among them)."""
        b = self.builder if keep is None or keep.all() else _keep(self.builder, keep)
        return _finish(b, self.deferred)


def parse_lines(lines: Sequence[tuple[int, str]]) -> ParsedLines:
    """Parse ``(line number, text)`` lines (blank lines left out by the caller)."""
    with gc_paused():
        return _parse_lines(lines)


_STORED = ("hand_key IN (SELECT hand_key FROM _ofc_store_keys) "
           "AND hand_key NOT IN (SELECT hand_key FROM events) "
           "AND hand_key NOT IN (SELECT hand_key FROM hands WHERE variant_assumed) "
           "AND hand_key NOT IN (SELECT hand_key FROM hand_players WHERE stack IS NOT NULL "
           "OR reported_raw_points IS NOT NULL OR reported_fouled IS NOT NULL "
           "OR reported_royalties IS NOT NULL OR reported_fl_next IS NOT NULL)")
"""The hands :func:`read_store` reads: those asked for, but those with match events, an
assumed variant, stacks or more of the room's result than its points (ofc-hh/1 lines carry
none of those: the record path keeps them)."""
_STORED_HANDS = f"""
SELECT hand_key, import_id, source, hand_id, session_id, match_id,
       strftime(timezone('UTC', played_at), '%Y-%m-%dT%H:%M:%S+00:00') AS played_at, utc_offset,
       variant, CAST(json_extract(ruleset, '$.overrides') AS VARCHAR) AS rules, button,
       hero, stake, currency, raw, line
FROM hands WHERE {_STORED} ORDER BY hand_key"""
_STORED_PLAYERS = f"""
SELECT hand_key, seat, log_seat, player, fantasyland, surrendered, reported_points
FROM hand_players WHERE {_STORED} ORDER BY hand_key, seat"""
_STORED_STREETS = f"""
SELECT hand_key, seat, street, dealt, top, middle, bottom, discard
FROM placements WHERE {_STORED} ORDER BY hand_key, seat, street"""
_STORED_BOARDS = f"""
SELECT hand_key, seat,
       coalesce(any_value(cards) FILTER (row_name = 'top'), '') AS top,
       coalesce(any_value(cards) FILTER (row_name = 'middle'), '') AS middle,
       coalesce(any_value(cards) FILTER (row_name = 'bottom'), '') AS bottom
FROM hand_rows WHERE {_STORED} GROUP BY hand_key, seat ORDER BY hand_key, seat"""


@dataclass(frozen=True)
class StoredHands:
    """Stored hands read back into the bulk reader's columns (:func:`read_store`)."""

    parsed: ParsedLines
    hand_keys: np.ndarray
    import_ids: np.ndarray


def read_store(con: Any, keys: Sequence[int]) -> StoredHands:
    """The stored hands ``keys`` (those without match events, which stay with the record
    path) in the columns :func:`parse_lines` makes of log lines, from the store's tables
    (placements street by street, boards from ``hand_rows`` for players known by their final
    board only, flags and reported points, the log's rule overrides, its UTC offset and seat
    numbers, the raw text and line kept): ``ofc rescore`` checks and scores them as an import
    does (:meth:`ParsedLines.finish`).
    The tables hold only what an import checked, so the line-level checks of
    :func:`parse_lines` (types, keys, names) have nothing to find."""
    con.register("_ofc_store_keys", pa.table({"hand_key": pa.array(list(keys), pa.int64())}))
    try:
        hands = con.execute(_STORED_HANDS).to_arrow_table()
        players = con.execute(_STORED_PLAYERS).to_arrow_table()
        streets = con.execute(_STORED_STREETS).to_arrow_table()
        boards = con.execute(_STORED_BOARDS).to_arrow_table()
    finally:
        con.unregister("_ofc_store_keys")
    hand_keys = hands["hand_key"].to_numpy()
    player_hand = np.searchsorted(hand_keys, players["hand_key"].to_numpy())

    def seat_key(table: pa.Table) -> np.ndarray:
        return table["hand_key"].to_numpy() * (MAX_SEATS + 1) + table["seat"].to_numpy()

    player_keys = seat_key(players)  # sorted: players come by hand, then seat
    row_player = np.searchsorted(player_keys, seat_key(streets))
    has_streets = np.zeros(len(player_keys), bool)
    has_streets[row_player] = True
    board_player = np.searchsorted(player_keys, seat_key(boards))
    board_only = ~has_streets[board_player]  # a final board only where no streets are stored
    boards, board_player = boards.filter(pa.array(board_only)), board_player[board_only]
    names = players["player"].to_pylist()
    counts = np.bincount(player_hand, minlength=len(hand_keys))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    buttons = hands["button"].to_pylist()
    first_to_act = [0 if b is None or b not in names[s:s + c] else
                    (names[s:s + c].index(b) + 1) % c
                    for b, s, c in zip(buttons, starts.tolist(), counts.tolist(), strict=True)]
    rules = [json.dumps(json.loads(r), sort_keys=True) if r else "{}"
             for r in hands["rules"].to_pylist()]
    reported = players["reported_points"].to_numpy(zero_copy_only=False).astype(np.float64)
    columns = {k: hands[k].to_pylist() for k in (
        "source", "hand_id", "session_id", "match_id", "played_at", "variant", "button",
        "hero", "stake", "currency", "raw", "line")}
    builder = _Builder(
        hands={**columns, "rules": rules, "first_to_act": first_to_act,
               "player_count": counts.tolist(), "input": list(range(len(hand_keys))),
               "utc_offset": hands["utc_offset"].to_pylist()},
        player_hand=player_hand.tolist(), name=names,
        fantasyland=players["fantasyland"].to_pylist(),
        surrendered=players["surrendered"].to_pylist(), reported=reported.tolist(),
        has_streets=has_streets.tolist(), seat=players["log_seat"].to_pylist(),
        row_player=row_player.tolist(),
        row_street=streets["street"].to_pylist(),
        row_fields=[streets[k].to_pylist() for k in FIELD_NAMES],
        board_player=board_player.tolist(),
        board_fields=[boards[k].to_pylist() for k in ROW_NAMES])
    return StoredHands(ParsedLines(builder, []), hand_keys,
                       hands["import_id"].to_numpy().astype(np.int64))


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
    return ParsedLines(_Builder.of(rows), deferred)


def _field_arrays(texts: list[list[str | None]]) -> list[pa.Array] | None:
    """The card text columns as Arrow strings; ``None`` if one holds something else than
    text (or null where a row is required)."""
    arrays = []
    for k, column in enumerate(texts):
        try:
            arr = pa.array(column, pa.string())
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            return None
        if arr.null_count and k in (TOP, MIDDLE, BOTTOM):
            return None
        arrays.append(arr)
    return arrays


def _wrong_types(b: _Builder) -> np.ndarray:
    """Positions of the hands whose card fields are not strings (or null where a row must
    be given): checked on whole columns, in Python only when a column has one."""
    bad_players: set[int] = set()
    for k, column in enumerate(b.row_fields):
        nullable = FIELD_NAMES[k] in ("dealt", "discard")
        try:
            arr = pa.array(column, pa.string())
            if nullable or not arr.null_count:
                continue
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            pass
        bad_players.update(b.row_player[i] for i, v in enumerate(column)
                           if not (type(v) is str or (nullable and v is None)))
    for column in b.board_fields:
        if any(type(v) is not str for v in column):
            bad_players.update(b.board_player[i] for i, v in enumerate(column)
                               if type(v) is not str)
    wrong = np.zeros(len(b.hands["input"]), bool)
    wrong[[b.player_hand[p] for p in bad_players]] = True
    return wrong


def read_lines(lines: Sequence[tuple[int, str]]) -> tuple[FastHands, list[int]]:
    """Read ``(line number, text)`` lines; returns the hands read and the positions (in
    ``lines``) of the lines the reference reader must read."""
    return parse_lines(lines).finish()


def _finish(b: _Builder, deferred: list[int]) -> tuple[FastHands, list[int]]:
    n = len(b.hands["source"])
    ruleset_index, rulesets, unresolved = _rulesets(b.hands["variant"], b.hands["rules"])
    player_hand = np.array(b.player_hand, np.int64)
    m = len(player_hand)
    row_player = np.array(b.row_player + b.board_player, np.int64)
    r_streets = len(b.row_player)
    texts: list[list[str | None]] = [list(f) for f in b.row_fields]
    for k, field_ in enumerate((TOP, MIDDLE, BOTTOM)):
        texts[field_] += b.board_fields[k]
    for field_ in (DEALT, DISCARD):
        texts[field_] += [None] * len(b.board_player)
    r = len(row_player)
    arrays = _field_arrays(texts)
    if arrays is None:
        wrong = _wrong_types(b)
        deferred = sorted(deferred + [b.hands["input"][h] for h in np.nonzero(wrong)[0]])
        return _finish(_keep(b, ~wrong), deferred)
    canonical = np.ones(r, bool)
    card_row, card_field, card, card_text = [], [], [], []
    counts = np.zeros((r, 5), np.int64)
    for field_ in range(5):
        n_tokens, index, flat_text, ok = _tokens(arrays[field_])
        counts[:, field_] = n_tokens
        canonical &= ok
        card_row.append(np.repeat(np.arange(r), n_tokens))
        card_field.append(np.full(len(index), field_, np.int8))
        card.append(index)
        card_text.append(flat_text)
    if not canonical.all():  # before any check: a token that is not a card has index -1
        spelled = np.zeros(n, bool)
        spelled[player_hand[row_player[~canonical]]] = True
        deferred = sorted(deferred + [b.hands["input"][h] for h in np.nonzero(spelled)[0]])
        return _finish(_keep(b, ~spelled), deferred)
    table = CardTable(
        rulesets=rulesets, hand_ruleset=ruleset_index, player_hand=player_hand,
        fantasyland=np.array(b.fantasyland, bool), surrendered=np.array(b.surrendered, bool),
        has_streets=np.array(b.has_streets, bool), row_player=row_player,
        row_street=np.array(b.row_street + [1] * len(b.board_player), np.int64) - 1,
        dealt_known=arrays[DEALT].is_valid().to_numpy(zero_copy_only=False),
        discard_known=arrays[DISCARD].is_valid().to_numpy(zero_copy_only=False),
        card_row=np.concatenate(card_row), card_field=np.concatenate(card_field),
        card=np.concatenate(card))
    good = valid_hands(table) & ~unresolved
    inputs = b.hands["input"]
    if not good.all():
        deferred = sorted(deferred + [inputs[h] for h in np.nonzero(~good)[0]])
        return _finish(_keep(b, good), deferred)
    boards, board_text = _boards(table, m, card_text)
    first_rows = np.full(m, -1, np.int64)
    with_streets, first_row = np.unique(row_player[:r_streets], return_index=True)
    first_rows[with_streets] = first_row
    dealt_first = np.where(first_rows >= 0, counts[np.maximum(first_rows, 0), DEALT], 0)
    fl_known = table.fantasyland & table.has_streets & (first_rows >= 0) & \
        table.dealt_known[np.maximum(first_rows, 0)]
    hands = b.hands
    columns = HandColumns(
        source=hands["source"], hand_id=hands["hand_id"], session_id=hands["session_id"],
        match_id=hands["match_id"], played_at=hands["played_at"], variant=hands["variant"],
        rules=hands["rules"], button=hands["button"], hero=hands["hero"], stake=hands["stake"],
        currency=hands["currency"], raw=hands["raw"], line=hands["line"],
        first_to_act=np.array(hands["first_to_act"], np.int64),
        player_count=np.array(hands["player_count"], np.int64),
        name=b.name, log_seat=b.seat, fantasyland=table.fantasyland,
        surrendered=table.surrendered,
        reported_points=np.array(b.reported, np.float64),
        fl_cards=pa.array(dealt_first, pa.int8(), mask=~fl_known),
        board=board_text,
        street_player=np.array(b.row_player, np.int64),
        street=np.array(b.row_street, np.int64),
        **{k: arrays[i].slice(0, r_streets) for i, k in enumerate(FIELD_NAMES)},
        utc_offset=None if "utc_offset" not in hands else pa.array(hands["utc_offset"],
                                                                    pa.int16()))
    assert n == len(columns)
    return FastHands(columns, table, boards, inputs), deferred


def _keep(b: _Builder, good: np.ndarray) -> _Builder:
    """``b`` without the hands not in ``good``."""
    out = _Builder.empty()
    keep_player = good[np.array(b.player_hand, np.int64)] if b.player_hand else np.zeros(0, bool)
    new_hand = np.cumsum(good) - 1
    new_player = np.cumsum(keep_player) - 1
    for key, column in b.hands.items():
        out.hands[key] = [v for v, k in zip(column, good, strict=True) if k]
    for attr in ("name", "fantasyland", "surrendered", "reported", "has_streets", "seat"):
        setattr(out, attr, [v for v, k in zip(getattr(b, attr), keep_player, strict=True) if k])
    out.player_hand = [int(new_hand[h]) for h, k in zip(b.player_hand, keep_player, strict=True)
                       if k]
    keep_row = [bool(keep_player[p]) for p in b.row_player]
    out.row_player = [int(new_player[p]) for p, k in zip(b.row_player, keep_row, strict=True)
                      if k]
    out.row_street = [s for s, k in zip(b.row_street, keep_row, strict=True) if k]
    out.row_fields = [[v for v, k in zip(f, keep_row, strict=True) if k] for f in b.row_fields]
    keep_board = [bool(keep_player[p]) for p in b.board_player]
    out.board_player = [int(new_player[p]) for p, k in zip(b.board_player, keep_board,
                                                           strict=True) if k]
    out.board_fields = [[v for v, k in zip(f, keep_board, strict=True) if k]
                        for f in b.board_fields]
    return out


_RULESET_CACHE: dict[tuple[str, str], Ruleset | None] = {}


def _rulesets(variants: list[str], rules: list[str]) -> tuple[np.ndarray, list[Ruleset],
                                                              np.ndarray]:
    """Per hand the index of its resolved ruleset; hands whose rules do not resolve are
    flagged (the reference reader will say why)."""
    index: dict[tuple[str, str], int] = {}
    codes = np.array([index.setdefault(key, len(index))
                      for key in zip(variants, rules, strict=True)], np.int64)
    rulesets: list[Ruleset] = []
    unresolved_code = np.zeros(len(index), bool)
    for key, k in index.items():
        if key not in _RULESET_CACHE:
            try:
                _RULESET_CACHE[key] = resolve(key[0], json.loads(key[1]))
            except ValueError:
                _RULESET_CACHE[key] = None
        ruleset = _RULESET_CACHE[key]
        unresolved_code[k] = ruleset is None
        rulesets.append(ruleset if ruleset is not None else resolve("regular"))
    return codes, rulesets, unresolved_code[codes] if len(codes) else np.zeros(0, bool)


def _boards(t: CardTable, m: int, card_text: list[pa.Array]) -> tuple[np.ndarray, tuple]:
    """Each player's 13 board cards (top, middle, bottom in the order placed) and the rows'
    text."""
    boards = np.full((m, 13), -1, np.int64)
    texts = []
    start = 0
    for field_, offset in ((TOP, 0), (MIDDLE, 3), (BOTTOM, 8)):
        mask = t.card_field == field_
        player = t.row_player[t.card_row[mask]]
        order = np.argsort(player, kind="stable")
        player = player[order]
        cards = t.card[mask][order]
        first = np.searchsorted(player, np.arange(m))
        position = np.arange(len(player)) - first[player]
        size = 3 if field_ == TOP else 5
        fits = position < size
        boards[player[fits], offset + position[fits]] = cards[fits]
        offsets = np.searchsorted(player, np.arange(m + 1)).astype(np.int32)
        words = card_text[field_].take(pa.array(order))
        texts.append(pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), words), " "))
        start += 1
    return boards, (texts[0], texts[1], texts[2])


def score_columns(t: CardTable, boards: np.ndarray, first_to_act: np.ndarray,
                  fl_dealt: np.ndarray | None = None) -> RecordScores:
    """Score hands from arrays through :func:`ofc_core.batch.score_batch`, one call per
    (ruleset, player count), aligned with the hands; ``fl_dealt`` is per player the cards of
    a Fantasyland hand (0 unknown), read under ``fl_repeat: entry``."""
    n = t.hand_count
    count = np.bincount(t.player_hand, minlength=n)
    start = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    group = t.hand_ruleset * (MAX_SEATS + 1) + count
    out: dict[str, np.ndarray] = {}
    for key in np.unique(group):
        members = np.nonzero(group == key)[0]
        players = int(key % (MAX_SEATS + 1))
        rows = (start[members][:, None] + np.arange(players)[None, :]).ravel()
        scores = score_batch(
            boards[rows].reshape(len(members), players, 13),
            t.rulesets[int(key // (MAX_SEATS + 1))],
            fantasyland=t.fantasyland[rows].reshape(len(members), players),
            surrendered=t.surrendered[rows].reshape(len(members), players),
            first_to_act=first_to_act[members],
            fl_dealt=None if fl_dealt is None else fl_dealt[rows].reshape(len(members), players))
        for f in fields(RecordScores):
            value = getattr(scores, f.name)
            if f.name not in out:
                out[f.name] = np.zeros((n,) + value.shape[1:], value.dtype)
            out[f.name][members] = value
    if not out:
        empty = score_batch(np.zeros((0, 2, 13), np.int64), resolve("regular"))
        out = {f.name: getattr(empty, f.name) for f in fields(RecordScores)}
    return RecordScores(**out)
