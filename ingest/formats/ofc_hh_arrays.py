"""The bulk ofc-hh/1 reader's second step: the lines read into Python lists
(:class:`ColumnLists`, filled by :mod:`ingest.formats.ofc_hh_fast` from log lines and by
:mod:`ingest.stored_columns` from the store) checked on arrays, shaped into
:class:`~ingest.hand_columns.HandColumns` and scored with ``ofc_core.batch.score_batch``.

What a check refuses is not an error here: the hand's line goes back to the reference reader
(:mod:`ingest.formats.ofc_hh`), which says what is wrong. The checks are those of
:func:`ofc_core.hand.validate`, on arrays (:func:`ofc_core.validate_batch.valid_hands`), after
the card fields' types and spelling (every card canonical, ``Ah``, single spaces, so the stored
text is what the reference path would store).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ingest.hand_columns import FIELD_NAMES, HandColumns
from ofc_core.batch import MAX_SEATS, RecordScores, score_batch
from ofc_core.cards import DECK, JOKERS
from ofc_core.rules import Ruleset, resolve
from ofc_core.validate_batch import (
    BOTTOM,
    DEALT,
    DISCARD,
    MIDDLE,
    TOP,
    CardTable,
    valid_hands,
)

HAND_COLUMNS = ("source", "hand_id", "session_id", "match_id", "played_at", "variant", "rules",
                "button", "hero", "stake", "currency", "raw", "line", "first_to_act",
                "player_count", "input")
"""The per-hand lists of :class:`ColumnLists` (``input``: the hand's position in the lines
given; ``utc_offset`` is added when read from the store)."""
CARD_TEXTS = pa.array([str(c) for c in DECK] + [str(j) for j in JOKERS] + [""])
"""Card index -> canonical text (the jokers X1, X2 are 52 and 53); the last index is the empty
token of an empty row."""
EMPTY = 52 + len(JOKERS)


@dataclass
class ColumnLists:
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
    def empty(cls) -> ColumnLists:
        return cls.of([], [], [], [])

    @classmethod
    def of(cls, hands: list[tuple[Any, ...]], players: list[tuple[Any, ...]],
           streets: list[tuple[Any, ...]], boards: list[tuple[Any, ...]]) -> ColumnLists:
        """From one tuple per hand (:data:`HAND_COLUMNS`), per player (hand, name,
        fantasyland, surrendered, reported points, has streets, seat), per street (player,
        street number, then the five card fields) and per final board (player, top, middle,
        bottom)."""
        def columns(items: list[tuple[Any, ...]], width: int) -> list[list[Any]]:
            return [list(c) for c in zip(*items)] if items else [[] for _ in range(width)]  # noqa: B905

        by_player = columns(players, 7)
        by_street = columns(streets, 7)
        by_board = columns(boards, 4)
        return cls(dict(zip(HAND_COLUMNS, columns(hands, len(HAND_COLUMNS)), strict=True)),
                   player_hand=by_player[0], name=by_player[1], fantasyland=by_player[2],
                   surrendered=by_player[3], reported=by_player[4], has_streets=by_player[5],
                   seat=by_player[6], row_player=by_street[0], row_street=by_street[1],
                   row_fields=by_street[2:], board_player=by_board[0],
                   board_fields=by_board[1:])

@dataclass(frozen=True)
class FastHands:
    """Hands read by the fast path, in columns, checked and ready to score."""

    columns: HandColumns
    table: CardTable
    boards: np.ndarray
    """``(M, 13)`` card indexes of each player's board (top, middle, bottom); -1 if missing."""
    inputs: list[int]
    """Position of each hand in the lines given to the reader."""

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
    """The first step of :func:`ingest.formats.ofc_hh_fast.read_lines`: canonical lines parsed
    into lists, not yet checked. ``hands`` holds per hand its ``source``, ``hand_id``, ``raw``
    text, ``line`` and ``input`` (position in the lines given)."""

    builder: ColumnLists
    deferred: list[int]

    @property
    def hands(self) -> dict[str, list[Any]]:
        return self.builder.hands

    def finish(self, keep: np.ndarray | None = None) -> tuple[FastHands, list[int]]:
        """Check and shape the hands (only those in ``keep``, if given); returns them and the
        positions of every line the reference reader must read (hands dropped by ``keep``
        are not among them)."""
        b = self.builder if keep is None or keep.all() else _keep(self.builder, keep)
        return finish(b, self.deferred)

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


def _wrong_types(b: ColumnLists) -> np.ndarray:
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
    for board_column in b.board_fields:
        if any(type(v) is not str for v in board_column):
            bad_players.update(b.board_player[i] for i, v in enumerate(board_column)
                               if type(v) is not str)
    wrong = np.zeros(len(b.hands["input"]), bool)
    wrong[[b.player_hand[p] for p in bad_players]] = True
    return wrong

def finish(b: ColumnLists, deferred: list[int]) -> tuple[FastHands, list[int]]:
    """Check the hands of ``b`` on arrays and shape them into columns; a hand that fails a
    check (a card field of the wrong type, a card not written canonically, rules that do not
    resolve, a hand :func:`ofc_core.validate_batch.valid_hands` refuses) is left to the
    reference reader: its input position joins ``deferred``."""
    row_player, texts = _card_texts(b)
    arrays = _field_arrays(texts)
    if arrays is None:
        return _without(b, _wrong_types(b), deferred)
    tokens = _Tokens.of(arrays)
    if not tokens.canonical.all():  # before any check: a token that is not a card has index -1
        spelled = np.zeros(len(b.hands["source"]), bool)
        spelled[np.array(b.player_hand, np.int64)[row_player[~tokens.canonical]]] = True
        return _without(b, spelled, deferred)
    ruleset_index, rulesets, unresolved = _rulesets(b.hands["variant"], b.hands["rules"])
    table = CardTable(
        rulesets=rulesets, hand_ruleset=ruleset_index,
        player_hand=np.array(b.player_hand, np.int64),
        fantasyland=np.array(b.fantasyland, bool), surrendered=np.array(b.surrendered, bool),
        has_streets=np.array(b.has_streets, bool), row_player=row_player,
        row_street=np.array(b.row_street + [1] * len(b.board_player), np.int64) - 1,
        dealt_known=arrays[DEALT].is_valid().to_numpy(zero_copy_only=False),
        discard_known=arrays[DISCARD].is_valid().to_numpy(zero_copy_only=False),
        card_row=tokens.card_row, card_field=tokens.card_field, card=tokens.card)
    good = valid_hands(table) & ~unresolved
    if not good.all():
        return _without(b, ~good, deferred)
    boards, board_text = _boards(table, len(b.player_hand), tokens.card_text)
    columns = _columns(b, table, arrays, tokens.counts, board_text)
    return FastHands(columns, table, boards, b.hands["input"]), deferred


def _without(b: ColumnLists, dropped: np.ndarray, deferred: list[int]) -> tuple[FastHands,
                                                                                  list[int]]:
    """:func:`finish` of ``b`` without the hands ``dropped``, whose lines join ``deferred``."""
    inputs = b.hands["input"]
    deferred = sorted(deferred + [inputs[h] for h in np.nonzero(dropped)[0]])
    return finish(_keep(b, ~dropped), deferred)


def _card_texts(b: ColumnLists) -> tuple[np.ndarray, list[list[str | None]]]:
    """The player of each card row (the streets, then the final boards) and the five card
    fields of every row (a final board's dealt and discard are unknown)."""
    row_player = np.array(b.row_player + b.board_player, np.int64)
    texts: list[list[str | None]] = [list(f) for f in b.row_fields]
    for k, field_ in enumerate((TOP, MIDDLE, BOTTOM)):
        texts[field_].extend(b.board_fields[k])
    for field_ in (DEALT, DISCARD):
        texts[field_] += [None] * len(b.board_player)
    return row_player, texts


@dataclass(frozen=True)
class _Tokens:
    """The cards of every card field of every row, flat (:func:`_tokens` per field)."""

    counts: np.ndarray
    """``(rows, 5)`` cards per field."""
    canonical: np.ndarray
    """Per row whether every card of it is written canonically."""
    card_row: np.ndarray
    card_field: np.ndarray
    card: np.ndarray
    card_text: list[pa.Array]
    """Per field the cards' texts."""

    @classmethod
    def of(cls, arrays: list[pa.Array]) -> _Tokens:
        r = len(arrays[0])
        canonical = np.ones(r, bool)
        counts = np.zeros((r, 5), np.int64)
        card_row, card_field, card, card_text = [], [], [], []
        for field_ in range(5):
            n_tokens, index, flat_text, ok = _tokens(arrays[field_])
            counts[:, field_] = n_tokens
            canonical &= ok
            card_row.append(np.repeat(np.arange(r), n_tokens))
            card_field.append(np.full(len(index), field_, np.int8))
            card.append(index)
            card_text.append(flat_text)
        return cls(counts, canonical, np.concatenate(card_row), np.concatenate(card_field),
                   np.concatenate(card), card_text)


def _columns(b: ColumnLists, table: CardTable, arrays: list[pa.Array], counts: np.ndarray,
             board_text: tuple[pa.Array, pa.Array, pa.Array]) -> HandColumns:
    """The checked hands as :class:`~ingest.hand_columns.HandColumns`; the cards dealt in a
    Fantasyland hand are those of its first street, when the log gives them."""
    m, r_streets = len(b.player_hand), len(b.row_player)
    first_rows = np.full(m, -1, np.int64)
    with_streets, first_row = np.unique(table.row_player[:r_streets], return_index=True)
    first_rows[with_streets] = first_row
    dealt_first = np.where(first_rows >= 0, counts[np.maximum(first_rows, 0), DEALT], 0)
    fl_known = table.fantasyland & table.has_streets & (first_rows >= 0) & \
        table.dealt_known[np.maximum(first_rows, 0)]
    hands = b.hands
    return HandColumns(
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


def _keep(b: ColumnLists, good: np.ndarray) -> ColumnLists:
    """``b`` without the hands not in ``good``."""
    out = ColumnLists.empty()
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


def _boards(t: CardTable, m: int,
            card_text: list[pa.Array]) -> tuple[np.ndarray, tuple[pa.Array, pa.Array, pa.Array]]:
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
