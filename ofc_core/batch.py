"""Batch scoring: one hand or a million, from arrays of card indexes.

The batch scorer is the array twin of :mod:`ofc_core.scoring` and must agree with it hand for
hand, field for field. It is built in three layers: row strengths from lookup tables
(:mod:`ofc_core.row_tables`), each board's foul and royalties under its ruleset, jokers and 2-7
middles included (:mod:`ofc_core.batch_boards`), and here each hand's Fantasyland and the
pairwise settlement (:func:`score_batch`), and hand records turned into arrays
(:func:`score_records`).

Everything that depends on the rules (royalties, Fantasyland, pairwise points) is read from the
:class:`~ofc_core.rules.Ruleset`, by calling its own functions once per table entry.

>>> from ofc_core.board import Board
>>> from ofc_core.rules import PRESETS
>>> board = Board.parse_compact("QhQd2c-KsKd9s5h3c-JhJdJc4s4d")
>>> cards = np.array([[c.index for c in board.cards]])
>>> scores = score_batch(cards[None].repeat(2, axis=1), PRESETS["regular"])
>>> scores.royalties[0, 0].tolist(), scores.fantasyland_next[0, :2].tolist()
([7, 0, 6], [13, 13])
>>> float(scores.total[0, 0, 1]), scores.points[0, :2].tolist()
(0.0, [0.0, 0.0])
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ofc_core.batch_boards import score_boards_under
from ofc_core.board import BOARD_SIZE, foul_halves
from ofc_core.cards import MAX_JOKERS, Suit
from ofc_core.hand import HandRecord
from ofc_core.rules import (
    FlRepeat,
    FoulPayout,
    MiddleKind,
    Ruleset,
    ScoringSystem,
    resolve,
)
from ofc_core.scoring import settlement_order

MAX_SEATS = 4
"""Seat axis of :class:`RecordScores`: every hand is padded to four seats."""

# --------------------------------------------------------------------------------------------
# Per hand: Fantasyland and the pairwise settlement


@dataclass(frozen=True)
class RecordScores:
    """Scores of many hands, aligned with the input, padded to four seats.

    Seat ``k`` is ``record.players[k]``; absent seats are zero. Per ordered pair ``[n, i, j]``
    is the settlement of seat ``i`` against seat ``j`` from ``i``'s side, as
    :class:`ofc_core.scoring.PairResult` (``royalties_net`` is its ``royalties``).
    """

    player_count: np.ndarray  # (N,) int8
    strengths: np.ndarray  # (N, 4, 3) int32, 0 where absent or surrendered
    fouled: np.ndarray  # (N, 4) bool
    foul_top_middle: np.ndarray  # (N, 4) bool: middle weaker than top (never, at a 2-7 table)
    foul_middle_bottom: np.ndarray  # (N, 4) bool: bottom weaker than middle (never at 2-7)
    surrendered: np.ndarray  # (N, 4) bool
    royalties: np.ndarray  # (N, 4, 3) int16
    fantasyland_next: np.ndarray  # (N, 4) int8: cards dealt in Fantasyland next hand, 0 if none
    raw_points: np.ndarray  # (N, 4) float64
    points: np.ndarray  # (N, 4) float64: after caps
    rows: np.ndarray  # (N, 4, 4, 3) int8: +1 / 0 / -1
    row_points: np.ndarray  # (N, 4, 4) int32
    bonus: np.ndarray  # (N, 4, 4) int32
    royalties_net: np.ndarray  # (N, 4, 4) int32
    surrender: np.ndarray  # (N, 4, 4) float64
    total: np.ndarray  # (N, 4, 4) float64
    capped: np.ndarray  # (N, 4, 4) float64
    jokers: np.ndarray  # (N, 4, 2) int8: the card X1, X2 stood for on the seat's board, -1 none

    def __len__(self) -> int:
        return len(self.player_count)


_FIELD_SHAPES = {
    "player_count": ((), np.int8), "strengths": ((4, 3), np.int32), "fouled": ((4,), bool),
    "foul_top_middle": ((4,), bool), "foul_middle_bottom": ((4,), bool),
    "surrendered": ((4,), bool), "royalties": ((4, 3), np.int16),
    "fantasyland_next": ((4,), np.int8), "raw_points": ((4,), np.float64),
    "points": ((4,), np.float64), "rows": ((4, 4, 3), np.int8),
    "row_points": ((4, 4), np.int32), "bonus": ((4, 4), np.int32),
    "royalties_net": ((4, 4), np.int32), "surrender": ((4, 4), np.float64),
    "total": ((4, 4), np.float64), "capped": ((4, 4), np.float64),
    "jokers": ((4, MAX_JOKERS), np.int8),
}


def _empty_scores(n: int) -> dict[str, np.ndarray]:
    out = {name: np.zeros((n,) + shape, dtype) for name, (shape, dtype) in _FIELD_SHAPES.items()}
    out["jokers"][...] = -1
    return out


@functools.cache
def _pair_tables(system: ScoringSystem) -> tuple[np.ndarray, np.ndarray]:
    """Row points and bonus by the code ``9 * top + 3 * middle + bottom + 13`` of the three row
    outcomes (+1 / 0 / -1), from the system's own functions.

    Under race scoring a player banks its rows (``row_points(won, 0)``) and the rest of
    ``banked(won, lost)`` as bonus, as :func:`ofc_core.scoring.settle_pair`.
    """
    row_points = np.zeros(27, np.int32)
    bonus = np.zeros(27, np.int32)
    for code, outcome in enumerate(itertools.product((-1, 0, 1), repeat=3)):
        won, lost = outcome.count(1), outcome.count(-1)
        if system.is_race:
            row_points[code] = system.row_points(won, 0)
            bonus[code] = system.banked(won, lost) - system.row_points(won, 0)
        else:
            row_points[code] = system.row_points(won, lost)
            bonus[code] = system.bonus(won, lost)
    return row_points, bonus


def fantasyland_entry(ruleset: Ruleset, strengths: np.ndarray) -> np.ndarray:
    """The cards a board entering Fantasyland is dealt, by its ``(..., 3)`` strengths (the top,
    and at a 2-7 table the middle), foul or not; 0 where it does not enter."""
    entry = np.zeros(strengths.shape[:-1], np.int8)
    fl = ruleset.fl_cards
    for minimum, count in fl.entry:
        entry = np.where(strengths[..., 0] >= minimum, np.int8(count), entry)
    if fl.middle_entry is not None:
        first = np.int8(fl.entry[0][1])
        by_middle = np.where((entry > 0) & bool(fl.both), np.int8(fl.both or 0),
                             np.maximum(entry, first))
        entry = np.where(strengths[..., 1] >= fl.middle_entry, by_middle, entry)
    return entry


def fantasyland_next(ruleset: Ruleset, strengths: np.ndarray, fouled: np.ndarray,
                     royalties: np.ndarray, in_fl: np.ndarray,
                     fl_dealt: np.ndarray | None = None) -> np.ndarray:
    """Vectorised :meth:`Ruleset.fantasyland_cards` on the ruleset's FlCards and StayRule:
    from ``(..., 3)`` strengths, ``(...)`` fouls, ``(..., 3)`` royalties and ``(...)``
    in-Fantasyland flags, the cards each board is dealt in Fantasyland next hand (0 none)."""
    top = strengths[..., 0]
    entry = fantasyland_entry(ruleset, strengths)
    rule = ruleset.fl_stay.rule
    stays = np.zeros(top.shape, bool)
    for r, floor in enumerate((rule.top, rule.middle, rule.bottom)):
        if floor is not None:
            stays |= strengths[..., r] >= floor
    if rule.row_royalty is not None:
        stays |= royalties.max(axis=-1) >= rule.row_royalty
    repeat = ruleset.fl_cards.repeat
    if repeat is None:
        stay_cards = np.maximum(entry, np.int8(ruleset.fl_cards.entry[0][1]))
    else:
        stay_cards = np.full(top.shape, repeat, np.int8)
    if ruleset.fl_repeat is FlRepeat.ENTRY and fl_dealt is not None:
        stay_cards = np.where(fl_dealt > 0, fl_dealt, stay_cards).astype(np.int8)
    cards = np.where(in_fl, np.where(stays, stay_cards, 0), entry).astype(np.int8)
    if not ruleset.fantasyland:
        cards[...] = 0
    return np.where(fouled, 0, cards).astype(np.int8)


def _apply_caps(raw: np.ndarray, cap: float, first_to_act: np.ndarray, count: int) -> np.ndarray:
    """Vectorised :func:`ofc_core.scoring.apply_caps`: hands settle their pairs in
    :func:`~ofc_core.scoring.settlement_order` from their own first-to-act seat."""
    capped = np.zeros_like(raw)
    for first in range(count):
        hands = first_to_act == first
        if not hands.any():
            continue
        part = raw[hands]
        net = np.zeros(part.shape[:2])
        result = np.zeros_like(part)
        for i, j in settlement_order(count, first):
            t = part[:, i, j]
            net_i, net_j = net[:, i], net[:, j]
            win = np.maximum(0.0, np.minimum(np.minimum(t, cap - net_i), cap + net_j))
            loss = np.minimum(0.0, np.maximum(np.maximum(t, -(cap + net_i)), -(cap - net_j)))
            t = np.where(t > 0, win, np.where(t < 0, loss, t))
            net[:, i] += t
            net[:, j] -= t
            result[:, i, j] = t
            result[:, j, i] = -t
        capped[hands] = result
    return capped


def _seat_flags(value: np.ndarray | None, n: int, count: int, name: str) -> np.ndarray:
    if value is None:
        return np.zeros((n, count), bool)
    flags = np.asarray(value, dtype=bool)
    if flags.shape != (n, count):
        raise ValueError(f"{name} must have shape {(n, count)}, got {flags.shape}")
    return flags


_PLACEHOLDER_BOARD = np.arange(BOARD_SIZE)
"""Cards evaluated in place of a surrendered board (its results are then zeroed)."""

CHUNK_HANDS = 1 << 13
"""Hands settled per step of :func:`score_batch` (the working arrays stay in cache)."""


def score_batch(cards: np.ndarray, ruleset: Ruleset, *, fantasyland: np.ndarray | None = None,
                surrendered: np.ndarray | None = None,
                first_to_act: np.ndarray | None = None,
                fl_dealt: np.ndarray | None = None) -> RecordScores:
    """Score ``N`` hands of ``P`` players (1-4) under one ruleset, as :func:`score_hand`.

    ``cards`` is ``(N, P, 13)`` card indexes (a surrendered player's may be -1);
    ``fantasyland`` and ``surrendered`` are ``(N, P)`` flags, ``first_to_act`` ``(N,)`` seat
    indexes (left of the button; the settlement order under caps), ``fl_dealt`` ``(N, P)`` the
    cards of each Fantasyland hand (0 unknown; read under ``fl_repeat: entry``). Jokers are
    card indexes 52 and 53. The result has four seats.

    >>> from ofc_core.board import Board
    >>> from ofc_core.rules import resolve
    >>> ivey = [c.index for c in Board.parse_compact("6h6d2c-KsKd9s5h3c-JhJdJc4s4d").cards]
    >>> hellmuth = [c.index for c in Board.parse_compact("AhKc3d-AsAd8h7c2h-QcTc8c6c5c").cards]
    >>> scores = score_batch(np.array([[ivey, hellmuth]]), resolve("regular"))
    >>> scores.points[0].tolist(), int(scores.royalties_net[0, 0, 1])
    ([4.0, -4.0, 0.0, 0.0], 3)
    """
    cards = np.asarray(cards)
    if cards.ndim != 3 or cards.shape[2] != BOARD_SIZE or not 1 <= cards.shape[1] <= MAX_SEATS:
        raise ValueError(f"cards must have shape (N, 1-4, 13), got {cards.shape}")
    n, count, _ = cards.shape
    surr = _seat_flags(surrendered, n, count, "surrendered")
    in_fl = _seat_flags(fantasyland, n, count, "fantasyland")
    first = np.zeros(n, np.intp) if first_to_act is None else np.asarray(first_to_act, np.intp)
    if first.shape != (n,) or (n and (first.min() < 0 or first.max() >= count)):
        raise ValueError(f"first_to_act must be {n} seat indexes in 0..{count - 1}")
    dealt = None if fl_dealt is None else np.asarray(fl_dealt, np.int8)
    if dealt is not None and dealt.shape != (n, count):
        raise ValueError(f"fl_dealt must have shape {(n, count)}, got {dealt.shape}")
    out = _empty_scores(n)
    out["player_count"][:] = count
    for start in range(0, n, CHUNK_HANDS):
        part = slice(start, start + CHUNK_HANDS)
        _score_hands({name: value[part] for name, value in out.items()}, cards[part], ruleset,
                     surr[part], in_fl[part], first[part],
                     None if dealt is None else dealt[part])
    return RecordScores(**out)


def _score_hands(out: dict[str, np.ndarray], cards: np.ndarray, ruleset: Ruleset,
                 surr: np.ndarray, in_fl: np.ndarray, first: np.ndarray,
                 fl_dealt: np.ndarray | None) -> None:
    """Score a chunk of hands into the views ``out``."""
    n, count, _ = cards.shape
    quits = surr.any()
    if quits:
        cards = np.where(surr[..., None], _PLACEHOLDER_BOARD, cards)
    boards = score_boards_under(cards.reshape(n * count, BOARD_SIZE), ruleset)
    seats = slice(0, count)
    strengths = boards.strengths.reshape(n, count, 3)
    fouled = boards.fouled.reshape(n, count)
    royalties = boards.royalties.reshape(n, count, 3)
    if quits:
        strengths[surr] = 0
        fouled &= ~surr
        royalties[surr] = 0
    top, middle, bottom = strengths[..., 0], strengths[..., 1], strengths[..., 2]
    out["strengths"][:, seats] = strengths
    out["fouled"][:, seats] = fouled
    if ruleset.middle is MiddleKind.HIGH:  # (a 2-7 middle is not compared with its neighbours)
        out["foul_top_middle"][:, seats], out["foul_middle_bottom"][:, seats] = foul_halves(
            top, middle, bottom)
    out["surrendered"][:, seats] = surr
    out["royalties"][:, seats] = royalties
    if boards.jokers is not None:
        jokers = boards.jokers.reshape(n, count, MAX_JOKERS)
        if quits:
            jokers[surr] = -1
        out["jokers"][:, seats] = jokers
    fl_next = fantasyland_next(ruleset, strengths, fouled, royalties, in_fl, fl_dealt)
    if quits:
        fl_next[surr] = 0
    out["fantasyland_next"][:, seats] = fl_next
    royalty_total = royalties[..., 0].astype(np.int32) + royalties[..., 1] + royalties[..., 2]
    _settle_pairs(out, ruleset, strengths, fouled, surr, royalty_total)
    raw, capped = out["total"], out["capped"]
    if ruleset.cap is not None and not ruleset.scoring.is_race:
        capped[:, :count, :count] = _apply_caps(raw[:, :count, :count], ruleset.cap, first,
                                                count)
    else:
        capped[...] = raw
    for name, matrix in (("raw_points", raw), ("points", capped)):
        total = matrix[:, :, 0].copy()
        for j in range(1, count):  # in seat order, as the scalar sum
            total += matrix[:, :, j]
        out[name][...] = total


def _settle_pairs(out: dict[str, np.ndarray], ruleset: Ruleset, strengths: np.ndarray,
                  fouled: np.ndarray, surr: np.ndarray, royalty_total: np.ndarray) -> None:
    """Fill the pair fields of ``out``, as :func:`ofc_core.scoring.settle_pair` per pair:
    rows compared (a fouled player loses every row to one who did not foul), points by the
    system's tables, royalties exchanged (or not, after a foul, per ``foul_payout``), and a
    surrender settles the pair at its cost alone."""
    system = ruleset.scoring
    row_table, bonus_table = _pair_tables(system)
    always_exchange = ruleset.foul_payout is FoulPayout.SCOOP_PLUS_ROYALTIES
    cost = ruleset.surrender_cost
    n, count, _ = strengths.shape
    by_row = np.ascontiguousarray(strengths.transpose(1, 2, 0))  # (seat, row, hand)
    fouls = np.ascontiguousarray(fouled.T).view(np.int8)
    quits = np.ascontiguousarray(surr.T)
    any_foul, any_quit = fouled.any(), surr.any()
    rows = np.empty((3, n), np.int8)
    for i in range(count):
        for j in range(count):
            if i == j:
                continue
            for r in range(3):
                mine, theirs = by_row[i, r], by_row[j, r]
                np.subtract((mine > theirs).view(np.int8), (mine < theirs).view(np.int8),
                            out=rows[r])
            either = fouls[i] | fouls[j]
            if any_foul:
                np.copyto(rows, fouls[j] - fouls[i], where=either.view(bool))
            quit_pair = quits[i] | quits[j]
            if any_quit:
                rows[:, quit_pair] = 0
            code = rows[0] * np.int8(9) + rows[1] * np.int8(3) + rows[2] + np.int8(13)
            row_points = row_table.take(code)
            bonus = bonus_table.take(code)
            if system.is_race:
                royalties = royalty_total[:, i].copy()
            else:
                royalties = royalty_total[:, i] - royalty_total[:, j]
            if not always_exchange and any_foul:
                royalties[either.view(bool)] = 0
            total = (row_points + bonus + royalties).astype(np.float64)
            if any_quit:
                for value in (row_points, bonus, royalties):
                    value[quit_pair] = 0
                surrender = np.where(quits[i] & quits[j], 0.0, np.where(quits[i], -cost, cost))
                if system.is_race:
                    surrender = np.maximum(surrender, 0.0)
                surrender = np.where(quit_pair, surrender, 0.0)
                total = np.where(quit_pair, surrender, total)
                out["surrender"][:, i, j] = surrender
            out["rows"][:, i, j] = rows.T
            out["row_points"][:, i, j] = row_points
            out["bonus"][:, i, j] = bonus
            out["royalties_net"][:, i, j] = royalties
            out["total"][:, i, j] = total


# --------------------------------------------------------------------------------------------
# Hand records

_SUIT_OFFSET = np.full(256, -1, np.int8)
for _suit in Suit:
    _SUIT_OFFSET[ord(_suit.value)] = _suit.offset
_RANK_OF = operator.attrgetter("rank")
_SUIT_OF = operator.attrgetter("suit")
_INDEX_OF = operator.attrgetter("index")


@dataclass(frozen=True)
class _RecordArrays:
    cards: np.ndarray  # (N, P, 13) card indexes, -1 for a surrendered player's missing cards
    fantasyland: np.ndarray  # (N, P) bool
    surrendered: np.ndarray  # (N, P) bool
    first_to_act: np.ndarray  # (N,) seat index
    fl_dealt: np.ndarray  # (N, P) int8: cards of a Fantasyland hand, 0 unknown


def _record_arrays(records: Sequence[HandRecord], count: int) -> _RecordArrays:
    """The arrays :func:`score_batch` reads, from records of ``count`` players each."""
    flat: list[object] = []
    fantasyland: list[bool] = []
    surrendered: list[bool] = []
    fl_dealt: list[int] = []
    missing: list[int] = []
    for rec in records:
        for p in rec.players:
            b = p.board
            fantasyland.append(p.fantasyland)
            fl_dealt.append(p.fl_dealt)
            surrendered.append(p.surrendered)
            if len(b.top) == 3 and len(b.middle) == 5 and len(b.bottom) == 5:
                flat += b.top
                flat += b.middle
                flat += b.bottom
            elif p.surrendered:
                missing.append(len(fantasyland) - 1)
            else:
                raise ValueError(f"hand {rec.source}/{rec.hand_id}: {p.name} has an incomplete "
                                 f"board ({len(b.top)}/{len(b.middle)}/{len(b.bottom)} cards)")
    try:
        ranks = np.fromiter(map(_RANK_OF, flat), np.int8, count=len(flat))
        suits = np.frombuffer("".join(map(_SUIT_OF, flat)).encode("ascii"), np.uint8)
        indexes = ((ranks - 2) * 4 + _SUIT_OFFSET[suits]).reshape(-1, BOARD_SIZE)
    except AttributeError:  # a joker, which has no rank or suit: every card's own index
        indexes = np.fromiter(map(_INDEX_OF, flat), np.int8, len(flat)).reshape(-1, BOARD_SIZE)
    cards = np.full((len(records) * count, BOARD_SIZE), -1, np.int8)
    complete = np.ones(len(cards), bool)
    complete[missing] = False
    cards[complete] = indexes
    return _RecordArrays(
        cards=cards.reshape(len(records), count, BOARD_SIZE),
        fantasyland=np.array(fantasyland, bool).reshape(len(records), count),
        surrendered=np.array(surrendered, bool).reshape(len(records), count),
        first_to_act=np.fromiter((r.first_to_act for r in records), np.intp, len(records)),
        fl_dealt=np.array(fl_dealt, np.int8).reshape(len(records), count),
    )


def score_records(records: Sequence[HandRecord]) -> RecordScores:
    """Score many hands of any variants, rulesets and player counts, aligned with ``records``.

    Hands are grouped by (resolved ruleset, player count) and each group is scored by
    :func:`score_batch`. Every record must be valid (:func:`ofc_core.hand.validate`); a hand
    whose rules do not resolve raises ``ValueError`` naming it.

    >>> from ofc_core.board import Board
    >>> from ofc_core.hand import PlayerRecord
    >>> rec = HandRecord(source="home", hand_id="1", variant="regular", players=(
    ...     PlayerRecord("ann", 0, Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")),
    ...     PlayerRecord("bob", 1, Board.parse("Ah Kc 3d", "As Ad 8h 7c 2h", "Qc Tc 8c 6c 5c"))))
    >>> score_records([rec]).points[0].tolist()
    [10.0, -10.0, 0.0, 0.0]
    """
    groups: dict[tuple[Any, ...], list[int]] = {}
    for k, rec in enumerate(records):
        rules = rec.rules
        key = (rec.variant, tuple(sorted(rules.items())) if rules else (), len(rec.players))
        groups.setdefault(key, []).append(k)
    out = _empty_scores(len(records))
    for (variant, rules, count), members in groups.items():
        group = [records[k] for k in members]
        try:
            ruleset = resolve(variant, dict(rules))
            if not 1 <= count <= MAX_SEATS:
                raise ValueError(f"{count} players (the scorer takes 1-{MAX_SEATS})")
        except ValueError as exc:
            rec = group[0]
            raise ValueError(f"hand {rec.source}/{rec.hand_id}: {exc}") from None
        arrays = _record_arrays(group, count)
        scores = score_batch(arrays.cards, ruleset, fantasyland=arrays.fantasyland,
                             surrendered=arrays.surrendered, first_to_act=arrays.first_to_act,
                             fl_dealt=arrays.fl_dealt)
        index = np.array(members)
        for f in fields(RecordScores):
            out[f.name][index] = getattr(scores, f.name)
    return RecordScores(**out)
