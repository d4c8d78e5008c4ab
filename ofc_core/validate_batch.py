"""The rules of :func:`ofc_core.hand.validate`, checked for many hands at once on arrays.

Bulk import reads millions of hands; building a :class:`~ofc_core.hand.HandRecord` of card
objects for each only to check it costs more than everything else. :func:`valid_hands` answers
the same question as ``validate(record) == []`` on a :class:`CardTable` (the hands' cards in
columns), with numpy. It gives no messages: a hand it finds invalid is read again the slow way,
and :func:`~ofc_core.hand.validate` says what is wrong. Tests check that both agree on random
valid and broken hands.

Layout of a :class:`CardTable`: players of a hand are contiguous and in seat order; rows are a
player's streets in order (a player known only by a final board has one row, street 0, and
``has_streets`` false); each card token is ``(row, field, card index)`` with the fields
:data:`DEALT`, :data:`TOP`, :data:`MIDDLE`, :data:`BOTTOM`, :data:`DISCARD`. Hidden dealt cards
or discards have no tokens and ``dealt_known`` / ``discard_known`` false.

>>> from ofc_core.board import Board
>>> from ofc_core.hand import HandRecord, PlayerRecord
>>> ok = HandRecord("home", "1", "regular", (
...     PlayerRecord("ann", 0, Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")),
...     PlayerRecord("bob", 1, Board.parse("Ah Kc 3d", "As Ad 8h 7c 2h", "Qc Tc 8c 6c 5c"))))
>>> bad = HandRecord("home", "2", "regular", (
...     PlayerRecord("ann", 0, Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")),
...     PlayerRecord("bob", 1, Board.parse("Qh Kc 3d", "As Ad 8h 7c 2h", "Qc Tc 8c 6c 5c"))))
>>> valid_hands(card_table([ok, bad])).tolist()
[True, False]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ofc_core.board import BOARD_SIZE, ROWS
from ofc_core.cards import BoardCard
from ofc_core.hand import HandRecord
from ofc_core.rules import Ruleset

DEALT, TOP, MIDDLE, BOTTOM, DISCARD = range(5)
ROW_SIZES = tuple(row.size for row in ROWS)
FL_PLACED = BOARD_SIZE  # a Fantasyland hand places a whole board in one street


@dataclass(frozen=True)
class CardTable:
    """The cards of many hands in columns (see the module docstring for the layout)."""

    rulesets: Sequence[Ruleset]
    hand_ruleset: np.ndarray  # (N,) index into rulesets
    player_hand: np.ndarray  # (M,) hand of each player
    fantasyland: np.ndarray  # (M,) bool
    surrendered: np.ndarray  # (M,) bool
    has_streets: np.ndarray  # (M,) bool
    row_player: np.ndarray  # (R,) player of each row
    row_street: np.ndarray  # (R,) 0-based street
    dealt_known: np.ndarray  # (R,) bool
    discard_known: np.ndarray  # (R,) bool
    card_row: np.ndarray  # (K,) row of each card token
    card_field: np.ndarray  # (K,) DEALT .. DISCARD
    card: np.ndarray  # (K,) card index 0..51, jokers X1 and X2 52 and 53

    @property
    def hand_count(self) -> int:
        return len(self.hand_ruleset)


def _plan_arrays(rulesets: Sequence[Ruleset]) -> dict[str, np.ndarray]:
    """Per ruleset: players allowed, the dealing plan padded to the longest, FL card limit."""
    longest = max((len(r.dealing.streets) for r in rulesets), default=0)
    plan = {k: np.full((len(rulesets), max(longest, 1)), -1, np.int64)
            for k in ("dealt", "placed", "discarded")}
    for i, r in enumerate(rulesets):
        for s, st in enumerate(r.dealing.streets):
            plan["dealt"][i, s], plan["placed"][i, s] = st.dealt, st.placed
            plan["discarded"][i, s] = st.discarded
    plan["streets"] = np.array([len(r.dealing.streets) for r in rulesets], np.int64)
    plan["min_players"] = np.array([r.min_players for r in rulesets], np.int64)
    plan["max_players"] = np.array([r.max_players for r in rulesets], np.int64)
    plan["fl_most"] = np.array([r.fl_cards.most for r in rulesets], np.int64)
    plan["jokers"] = np.array([r.jokers for r in rulesets], np.int64)
    return plan


def _hands_of(bad_players: np.ndarray, t: CardTable) -> np.ndarray:
    """Hands (as a boolean mask) of the players flagged in ``bad_players`` (a mask)."""
    bad = np.zeros(t.hand_count, bool)
    bad[t.player_hand[bad_players]] = True
    return bad


def valid_hands(t: CardTable) -> np.ndarray:
    """``(N,)`` bool: the hands :func:`ofc_core.hand.validate` finds no problem with (apart
    from names, button and hero, which :func:`players_ok` checks, and rules that do not resolve,
    which the caller finds when it resolves them)."""
    n, m, r = t.hand_count, len(t.player_hand), len(t.row_player)
    ok = np.ones(n, bool)
    if n == 0:
        return ok
    off_deck = (t.card < 0) | (t.card >= 64)  # 64: the card slots of the lookup tables below
    if off_deck.any():  # not a card (a reader's "unknown" mark): the hand is invalid
        ok &= ~_hands_of(_players_of(t, off_deck), t)
        t = replace(t, card=np.where(off_deck, 0, t.card))
    plan = _plan_arrays(t.rulesets)
    rs = t.hand_ruleset
    count = np.bincount(t.player_hand, minlength=n)
    ok &= (plan["min_players"][rs] <= count) & (count <= plan["max_players"][rs])

    per_row = np.bincount(t.card_row * 5 + t.card_field, minlength=r * 5).reshape(r, 5)
    placed = per_row[:, TOP] + per_row[:, MIDDLE] + per_row[:, BOTTOM]
    # Rows of the board: 3, 5, 5 cards unless the player surrendered.
    board = np.zeros((m, 3), np.int64)
    for k, field in enumerate((TOP, MIDDLE, BOTTOM)):
        board[:, k] = np.bincount(t.row_player, weights=per_row[:, field], minlength=m)
    incomplete = ~t.surrendered & (board != ROW_SIZES).any(axis=1)
    ok &= ~_hands_of(incomplete, t)

    # Streets against the dealing plan.
    prs = rs[t.player_hand]  # ruleset of each player
    streets = np.bincount(t.row_player, minlength=m)
    wanted = plan["streets"][prs]
    wrong_count = np.where(t.fantasyland, streets != 1,
                           np.where(t.surrendered, streets > wanted, streets != wanted))
    ok &= ~_hands_of(t.has_streets & wrong_count, t)
    row_rs = prs[t.row_player]
    street = np.minimum(t.row_street, plan["dealt"].shape[1] - 1)
    in_fl = t.fantasyland[t.row_player]
    checked = t.has_streets[t.row_player] & ~wrong_count[t.row_player]
    want_placed = np.where(in_fl, FL_PLACED, plan["placed"][row_rs, street])
    want_dealt = plan["dealt"][row_rs, street]
    want_discarded = plan["discarded"][row_rs, street]
    dealt_n, discard_n = per_row[:, DEALT], per_row[:, DISCARD]
    fl_dealt_bad = (dealt_n < FL_PLACED) | (dealt_n > plan["fl_most"][row_rs])
    bad_row = (placed != want_placed) | (t.dealt_known & np.where(
        in_fl, fl_dealt_bad, dealt_n != want_dealt)) | (
        t.discard_known & ~in_fl & (discard_n != want_discarded))
    bad_row |= _subset_problems(t, r)
    bad_player = np.zeros(m, bool)
    bad_player[t.row_player[checked & bad_row]] = True
    ok &= ~_hands_of(bad_player, t)

    # Jokers beyond the table's count (X2 at a one-joker table) are unknown cards.
    card_player = t.row_player[t.card_row]
    unknown = t.card >= 52 + plan["jokers"][prs[card_player]]
    ok &= ~_hands_of(np.bincount(card_player[unknown], minlength=m) > 0, t)

    ok &= ~_duplicates(t, n, m)
    return ok


def _players_of(t: CardTable, cards: np.ndarray) -> np.ndarray:
    """Players (as a boolean mask) holding the card tokens flagged in ``cards`` (a mask)."""
    players = np.zeros(len(t.player_hand), bool)
    players[t.row_player[t.card_row[cards]]] = True
    return players


def _present(keys: np.ndarray, size: int) -> np.ndarray:
    """A boolean lookup table of ``size`` entries, true at ``keys``."""
    table = np.zeros(size, bool)
    table[keys] = True
    return table


def _subset_problems(t: CardTable, r: int) -> np.ndarray:
    """Rows that place or discard a card not dealt, or both place and discard one."""
    key = t.card_row.astype(np.int64) * 64 + t.card
    is_dealt = t.card_field == DEALT
    is_discard = t.card_field == DISCARD
    is_placed = ~is_dealt & ~is_discard
    dealt = _present(key[is_dealt], r * 64)
    placed = _present(key[is_placed], r * 64)
    known = t.dealt_known[t.card_row]
    not_dealt = (is_placed | is_discard) & known & ~dealt[key]
    both = is_discard & placed[key]
    bad = np.zeros(r, bool)
    bad[t.card_row[not_dealt | both]] = True
    return bad


def _duplicates(t: CardTable, n: int, m: int) -> np.ndarray:
    """Hands where a card appears more than once: in two players' records (boards, dealt cards,
    discards), or twice on one board."""
    player = t.row_player[t.card_row].astype(np.int64)
    seen = _present(player * 64 + t.card, m * 64).reshape(m, 64)
    per_hand = np.zeros((n, 64), np.int64)
    _add_rows(per_hand, t, seen)
    dup = np.asarray((per_hand > 1).any(axis=1))
    on_board = (t.card_field >= TOP) & (t.card_field <= BOTTOM)
    twice = np.bincount(player[on_board] * 64 + t.card[on_board], minlength=m * 64) > 1
    dup[t.player_hand[twice.reshape(m, 64).any(axis=1)]] = True
    return dup


def _add_rows(per_hand: np.ndarray, t: CardTable, seen: np.ndarray) -> None:
    """``per_hand[h] += seen[p]`` for every player ``p`` of hand ``h`` (players of a hand are
    contiguous), one seat position at a time."""
    count = np.bincount(t.player_hand, minlength=len(per_hand))
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    for k in range(int(count.max(initial=0))):
        hands = np.nonzero(count > k)[0]
        per_hand[hands] += seen[start[hands] + k]


def players_ok(names: Sequence[str], button: str | None, hero: str | None) -> bool:
    """The name rules of :func:`ofc_core.hand.validate`: names distinct, button and hero among
    them.

    >>> players_ok(["ann", "bob"], "bob", None), players_ok(["ann", "ann"], None, None)
    (True, False)
    """
    return (len(set(names)) == len(names) and (button is None or button in names)
            and (hero is None or hero in names))


def card_table(records: Sequence[HandRecord]) -> CardTable:
    """The :class:`CardTable` of some records (the slow way; for tests and small batches).

    Records whose rules do not resolve are not representable: resolve them first.
    """
    rulesets: list[Ruleset] = []
    index: dict[tuple[object, ...], int] = {}
    hand_ruleset: list[int] = []
    player_hand: list[int] = []
    row_player: list[int] = []
    row_street: list[int] = []
    fl, surr, has_streets, dealt_known, discard_known = [], [], [], [], []  # bools
    card_row, card_field, cards = [], [], []

    def add(row: int, field: int, values: Iterable[BoardCard]) -> None:
        for c in values:
            card_row.append(row)
            card_field.append(field)
            cards.append(c.index)

    for h, rec in enumerate(records):
        key = (rec.variant, tuple(sorted(rec.rules.items())))
        hand_ruleset.append(index.setdefault(key, len(index)))
        if len(index) > len(rulesets):
            rulesets.append(rec.ruleset)
        for p in rec.players:
            player = len(player_hand)
            player_hand.append(h)
            fl.append(p.fantasyland)
            surr.append(p.surrendered)
            has_streets.append(p.streets is not None)
            plays = p.streets if p.streets is not None else ()
            if p.streets is None:
                row = len(row_player)
                row_player.append(player)
                row_street.append(0)
                dealt_known.append(False)
                discard_known.append(False)
                add(row, TOP, p.board.top)
                add(row, MIDDLE, p.board.middle)
                add(row, BOTTOM, p.board.bottom)
            for s, play in enumerate(plays):
                row = len(row_player)
                row_player.append(player)
                row_street.append(s)
                dealt_known.append(play.dealt is not None)
                discard_known.append(play.discard is not None)
                add(row, DEALT, play.dealt or ())
                add(row, TOP, play.top)
                add(row, MIDDLE, play.middle)
                add(row, BOTTOM, play.bottom)
                add(row, DISCARD, play.discard or ())
    return CardTable(
        rulesets=tuple(rulesets), hand_ruleset=np.array(hand_ruleset, np.int64),
        player_hand=np.array(player_hand, np.int64), fantasyland=np.array(fl, bool),
        surrendered=np.array(surr, bool), has_streets=np.array(has_streets, bool),
        row_player=np.array(row_player, np.int64), row_street=np.array(row_street, np.int64),
        dealt_known=np.array(dealt_known, bool), discard_known=np.array(discard_known, bool),
        card_row=np.array(card_row, np.int64), card_field=np.array(card_field, np.int8),
        card=np.array(cards, np.int64))
