"""The batch scorer against the scalar one: row strengths (every top, every 5-card category,
random rows), and whole hands under every preset and override (hypothesis), plus the
properties of the pairwise settlement (zero-sum, antisymmetry, fouls earn nothing)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_core.batch import RecordScores, score_batch, score_records
from ofc_core.batch_boards import royalty_array, score_boards
from ofc_core.board import Board, foul_halves
from ofc_core.cards import DECK, card_of_index, parse_cards
from ofc_core.evaluate import Category, category_of, evaluate
from ofc_core.hand import HandRecord, PlayerRecord
from ofc_core.row_tables import evaluate_rows
from ofc_core.rules import (
    OVERRIDE_FIELDS,
    PRESETS,
    ROYALTY_TABLES,
    ButtonInFl,
    FlRepeat,
    FlStay,
    FoulPayout,
    JokerRule,
    MiddleKind,
    Ruleset,
    ScoringSystem,
    resolve,
)
from ofc_core.scoring import HandResult, Seat, score_hand
from tests.helpers.hypo import examples

FILLER = np.arange(13)
"""A board of distinct cards; tests put the row under test in its place."""


def boards_with(rows: np.ndarray, where: slice) -> np.ndarray:
    boards = np.tile(FILLER, (len(rows), 1))
    boards[:, where] = rows
    return boards


def scalar(rows: np.ndarray) -> np.ndarray:
    return np.array([evaluate([DECK[c] for c in row]) for row in rows.tolist()])


# --------------------------------------------------------------------------------------------
# Row strength


def test_every_top_row_agrees_with_evaluate() -> None:
    tops = np.array(list(itertools.combinations(range(52), 3)))
    assert len(tops) == 22_100
    got = evaluate_rows(boards_with(tops, slice(0, 3)))[:, 0]
    assert np.array_equal(got, scalar(tops))


@pytest.fixture(scope="module")
def every_five_card_row() -> tuple[np.ndarray, np.ndarray]:
    combos = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
                         np.int8).reshape(-1, 5)
    strengths = evaluate_rows(boards_with(combos, slice(3, 8)))[:, 1]
    return combos, strengths


def test_every_five_card_hand_is_counted_in_its_category(every_five_card_row) -> None:
    combos, strengths = every_five_card_row
    assert len(combos) == 2_598_960
    counts = Counter((strengths >> 20).tolist())
    assert counts == {
        Category.STRAIGHT_FLUSH: 40, Category.QUADS: 624, Category.FULL_HOUSE: 3_744,
        Category.FLUSH: 5_108, Category.STRAIGHT: 10_200, Category.TRIPS: 54_912,
        Category.TWO_PAIR: 123_552, Category.PAIR: 1_098_240, Category.HIGH_CARD: 1_302_540,
    }
    assert len(np.unique(strengths)) == 7_462  # the distinct 5-card poker hands
    bottom = evaluate_rows(boards_with(combos, slice(8, 13)))[:, 2]
    assert np.array_equal(bottom, strengths)  # the bottom reads its cards as the middle does


def test_every_category_agrees_with_evaluate(every_five_card_row) -> None:
    combos, strengths = every_five_card_row
    rng = np.random.default_rng(7)
    for category in Category:
        members = np.flatnonzero(strengths >> 20 == category)
        sample = rng.choice(members, min(len(members), 3_000), replace=False)
        assert np.array_equal(strengths[sample], scalar(combos[sample])), category.name


def test_wheel_and_royal_rows() -> None:
    rows = ["Ad 2c 3h 4s 5d", "As 2s 3s 4s 5s", "Ts Js Qs Ks As", "Ah Kd Qc Js Th"]
    boards = np.array([[c.index for c in parse_cards("2c 3d 4h " + r + " 9c 9d 9h 8s 8d")]
                       for r in rows])
    got = evaluate_rows(boards)[:, 1].tolist()
    assert got == [evaluate(parse_cards(r)) for r in rows]
    assert [category_of(s) for s in got] == [Category.STRAIGHT, Category.STRAIGHT_FLUSH,
                                            Category.STRAIGHT_FLUSH, Category.STRAIGHT]


def test_random_five_card_rows_agree_with_evaluate() -> None:
    rng = np.random.default_rng(2026)
    boards = np.argsort(rng.random((200_000, 52)), axis=1)[:, :13]
    got = evaluate_rows(boards)
    for r, where in ((1, slice(3, 8)), (2, slice(8, 13))):
        sample = slice(0, 100_000) if r == 1 else slice(100_000, None)
        assert np.array_equal(got[sample, r], scalar(boards[sample, where]))


def test_evaluate_rows_keeps_leading_shape_and_rejects_bad_cards() -> None:
    boards = np.arange(26).reshape(1, 2, 13)
    assert evaluate_rows(boards).shape == (1, 2, 3)
    assert evaluate_rows(boards.astype(np.uint8)).dtype == np.int32
    wide = np.argsort(np.random.default_rng(3).random((50, 52)), axis=1)  # int64, as Arrow
    assert np.array_equal(evaluate_rows(wide[:, 13:26]), evaluate_rows(wide[:, 13:26].copy()))
    assert np.array_equal(evaluate_rows(wide[:, :13]), [
        [evaluate([DECK[c] for c in b[s]]) for s in (slice(0, 3), slice(3, 8), slice(8, 13))]
        for b in wide[:, :13].tolist()])
    with pytest.raises(ValueError, match="0..51"):
        evaluate_rows(np.full(13, -1))
    with pytest.raises(ValueError, match="shape"):
        evaluate_rows(np.arange(12))


def test_royalty_array_is_the_tables_own_points() -> None:
    board = parse_cards("Qh Qd 2c 7h 7d 7c Ks 2d Ts Js Qs Ks As")
    scores = score_boards(np.array([[c.index for c in board]]), ROYALTY_TABLES["american"])
    assert scores.royalties.tolist() == [[7, 2, 25]]
    no_trips = royalty_array(ROYALTY_TABLES["american-no-middle-trips"])
    assert no_trips[1, Category.TRIPS * 16 + 7] == 0


# --------------------------------------------------------------------------------------------
# Whole hands: strategies


def arrange(cards: list[int], mode: str) -> list[int]:
    """A board from 13 dealt cards: as dealt; grouped by rank (pairs and trips to the bottom,
    so boards are mostly legal); or with the third-best pair or trips on top, the best two
    groups below it (so Fantasyland is entered and kept)."""
    if mode == "dealt":
        return cards
    by_rank = {c // 4: c for c in sorted(cards, reverse=True)}
    if mode == "low" and len(by_rank) >= 5:  # a 2-7 middle: the lowest distinct ranks
        middle = [by_rank[r] for r in sorted(by_rank)[:5]]
        rest = sorted((c for c in cards if c not in middle), reverse=True)
        return rest[5:8] + middle + rest[:5]
    groups = sorted(([c for c in cards if c // 4 == r] for r in {c // 4 for c in cards}),
                    key=lambda g: (len(g), g[0]), reverse=True)
    multi = [g for g in groups if len(g) >= 2]
    top: list[int] = []
    middle: list[int] = []
    bottom: list[int] = []
    if mode == "top" and len(multi) >= 3:
        top, middle, bottom = multi[2][:3], multi[1][:], multi[0][:]
    used = set(top + middle + bottom)
    spare = [c for g in groups for c in g if c not in used]
    for row, size in ((bottom, 5), (middle, 5), (top, 3)):
        while len(row) < size:
            row.append(spare.pop(0))
    return top + middle + bottom


OVERRIDE_VALUES = {
    "scoring": st.sampled_from([s.value for s in ScoringSystem]),
    "royalties": st.sampled_from(sorted(ROYALTY_TABLES)),
    "foul_payout": st.sampled_from([f.value for f in FoulPayout]),
    "fantasyland": st.sampled_from(["on", "off"]),
    "fl_stay": st.sampled_from([f.value for f in FlStay]),
    "button_in_fl": st.sampled_from([b.value for b in ButtonInFl]),
    "surrender_cost": st.sampled_from([0, 1, 2, 2.5, 3.25]),
    "cap": st.sampled_from([None, 0, 1, 2.5, 5, 7, 12, 30]),
    "jokers": st.sampled_from([0, 1, 2]),
    "joker_rule": st.sampled_from([r.value for r in JokerRule]),
    "fl_repeat": st.sampled_from([r.value for r in FlRepeat]),
}
OVERRIDES = st.fixed_dictionaries({}, optional=OVERRIDE_VALUES)


def test_strategies_cover_every_override_field() -> None:
    assert set(OVERRIDE_VALUES) == set(OVERRIDE_FIELDS)


@st.composite
def hands(draw, count: int, jokers: int = 0):
    """``count`` boards from one shuffled deck (with ``jokers`` jokers, 52 and 53), with
    Fantasyland and surrender flags and the cards of each Fantasyland hand."""
    deck = draw(st.permutations(range(52 + jokers)))
    modes = ["dealt", "grouped", "top", "top", "low"]
    boards = [arrange(list(deck[13 * i:13 * i + 13]), draw(st.sampled_from(modes)))
              for i in range(count)]
    fantasyland = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    surrendered = draw(st.lists(st.sampled_from([False] * 5 + [True]), min_size=count,
                                max_size=count))
    first = draw(st.integers(0, count - 1))
    dealt = draw(st.lists(st.sampled_from([0, 14, 15, 16, 17]), min_size=count,
                          max_size=count))
    fl_dealt = [d if f else 0 for d, f in zip(dealt, fantasyland, strict=True)]
    return boards, fantasyland, surrendered, first, fl_dealt


@st.composite
def batches(draw):
    ruleset = resolve(draw(st.sampled_from(sorted(PRESETS))), draw(OVERRIDES))
    count = draw(st.integers(2, 4))
    return ruleset, count, draw(st.lists(hands(count, ruleset.jokers), min_size=1, max_size=6))


def seat_of(name: str, board: list[int], fantasyland: bool, surrendered: bool,
            fl_dealt: int = 0) -> Seat:
    cards = [card_of_index(c) for c in board]
    return Seat(name, Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])),
                fantasyland, surrendered, fl_dealt)


def score_both(ruleset, count, drawn) -> tuple[RecordScores, list[HandResult]]:
    drawn = [d if len(d) == 5 else (*d, [0] * count) for d in drawn]
    cards = np.array([d[0] for d in drawn]).reshape(len(drawn), count, 13)
    surrendered = np.array([d[2] for d in drawn])
    cards[surrendered] = -1  # a surrendered player's cards are not scored
    scores = score_batch(cards, ruleset, fantasyland=np.array([d[1] for d in drawn]),
                         surrendered=surrendered,
                         first_to_act=np.array([d[3] for d in drawn]),
                         fl_dealt=np.array([d[4] for d in drawn]))
    results = [
        score_hand([seat_of(str(i), b[i], f[i], s[i], d[i]) for i in range(count)], ruleset,
                   first)
        for b, f, s, first, d in drawn
    ]
    return scores, results


def assert_same(scores: RecordScores, n: int, result: HandResult, ruleset: Ruleset) -> None:
    """Hand ``n`` of ``scores`` equals the scalar result field for field; padding is zero. The
    foul relations are :func:`ofc_core.board.foul_halves` of a poker middle (a 2-7 middle is
    not compared with its neighbours: both are false)."""
    count = len(result.players)
    assert scores.player_count[n] == count
    for i, p in enumerate(result.players):
        strengths = p.strengths or (0, 0, 0)
        assert tuple(scores.strengths[n, i].tolist()) == strengths
        assert scores.fouled[n, i] == p.fouled
        halves = foul_halves(*strengths) if ruleset.middle is MiddleKind.HIGH else (False, False)
        assert (scores.foul_top_middle[n, i], scores.foul_middle_bottom[n, i]) == halves
        assert scores.surrendered[n, i] == p.surrendered
        assert tuple(scores.royalties[n, i].tolist()) == p.royalties
        assert scores.fantasyland_next[n, i] == p.fantasyland_next
        stood_for = {joker.number: card.index for joker, card in p.stood_for}
        assert tuple(scores.jokers[n, i].tolist()) == (stood_for.get(1, -1), stood_for.get(2, -1))
        assert scores.raw_points[n, i] == p.raw_points
        assert scores.points[n, i] == p.points
    names = [p.name for p in result.players]
    for pair in result.pairs:
        i, j = names.index(pair.player), names.index(pair.opponent)
        assert tuple(scores.rows[n, i, j].tolist()) == pair.rows
        got = (scores.row_points[n, i, j], scores.bonus[n, i, j], scores.royalties_net[n, i, j],
               scores.surrender[n, i, j], scores.total[n, i, j], scores.capped[n, i, j])
        assert got == (pair.row_points, pair.bonus, pair.royalties, pair.surrender, pair.total,
                       pair.capped)
    for name in ("strengths", "fouled", "royalties", "fantasyland_next", "points", "rows",
                 "total", "capped"):
        padded = getattr(scores, name)[n]
        assert not padded[count:].any()
        if padded.ndim >= 2 and name not in ("strengths", "royalties"):
            assert not padded[:, count:].any()


# --------------------------------------------------------------------------------------------
# The foul rule: one home (ofc_core.board), the batch's stored halves held equal to it

FOUL_BOARDS = [
    # (top, middle, bottom, top beats middle, middle beats bottom), worked by hand
    ("Qh Qd 7c", "Ah Ad Kc Ks 2d", "Ac As Kd Kh 2c", False, False),  # equal middle and bottom
    ("Qh Qd 9c", "Qs Qc 9h 5d 4c", "Ah Ad Ac 2s 2h", False, False),  # QQ9 over QQ954: legal
    ("Kh Kd 7c", "Qs Qc 9h 5d 4c", "Ah Ad Ac 2s 2h", True, False),  # KK on top of QQ
    ("2c 3d 5h", "Ah Ad Ac 2s 2h", "Kh Kd Qs Qc 9h", False, True),  # full house over two pair
    ("Ah Ad 7c", "Kh Kd 9s 8c 4h", "Qs Qc Jh 5d 3c", True, True),  # AA over KK over QQ
]


def test_stored_foul_halves_are_the_board_rule_on_hand_worked_boards() -> None:
    """Equal middle and bottom (and a top equal to the middle's first cards) are legal; each
    half fouls alone and together; the batch stores exactly ``foul_halves`` and fouls exactly
    when ``Board.is_foul`` does."""
    cards = np.array([[[c.index for c in parse_cards(" ".join(rows[:3]))]] for rows in FOUL_BOARDS])
    scores = score_batch(cards, PRESETS["regular"])
    for n, (top, middle, bottom, top_beats, middle_beats) in enumerate(FOUL_BOARDS):
        board = Board.parse(top, middle, bottom)
        assert foul_halves(*board.strengths()) == (top_beats, middle_beats)
        assert board.is_foul == (top_beats or middle_beats)
        stored = (bool(scores.foul_top_middle[n, 0]), bool(scores.foul_middle_bottom[n, 0]))
        assert stored == (top_beats, middle_beats), (top, middle, bottom)
        assert bool(scores.fouled[n, 0]) == board.is_foul


# --------------------------------------------------------------------------------------------
# Whole hands: scalar == batch, and properties


@settings(max_examples=examples(200), deadline=None)
@given(batches())
def test_batch_equals_scalar_field_for_field(batch) -> None:
    ruleset, count, drawn = batch
    scores, results = score_both(ruleset, count, drawn)
    assert len(scores) == len(drawn)
    for n, result in enumerate(results):
        assert_same(scores, n, result, ruleset)


@settings(max_examples=examples(100), deadline=None)
@given(batches())
def test_pairs_are_zero_sum_and_antisymmetric_except_race(batch) -> None:
    ruleset, count, drawn = batch
    scores, _ = score_both(ruleset, count, drawn)
    if ruleset.scoring.is_race:
        assert (scores.total >= 0).all() and (scores.capped == scores.total).all()
        return
    for name in ("row_points", "bonus", "royalties_net", "surrender", "total", "capped"):
        matrix = getattr(scores, name)
        assert np.array_equal(matrix, -matrix.transpose(0, 2, 1)), name
    assert np.array_equal(scores.rows, -scores.rows.transpose(0, 2, 1, 3))
    assert np.allclose(scores.points.sum(axis=1), 0, atol=1e-9)
    assert np.allclose(scores.raw_points.sum(axis=1), 0, atol=1e-9)
    if ruleset.cap is not None:
        assert (np.abs(scores.points) <= ruleset.cap + 1e-9).all()


@settings(max_examples=examples(100), deadline=None)
@given(batches())
def test_a_fouled_player_earns_no_royalties_and_no_fantasyland(batch) -> None:
    ruleset, count, drawn = batch
    scores, _ = score_both(ruleset, count, drawn)
    assert not scores.royalties[scores.fouled].any()
    assert not scores.fantasyland_next[scores.fouled].any()
    assert not scores.fantasyland_next[scores.surrendered].any()
    if not ruleset.fantasyland:
        assert not scores.fantasyland_next.any()


def test_strategies_reach_fantasyland_fouls_surrender_and_caps() -> None:
    """The hand strategy is not vacuous: over a fixed seed it enters and keeps Fantasyland,
    fouls, surrenders and hits caps."""
    rng = np.random.default_rng(11)
    drawn = []
    for _ in range(400):
        deck = rng.permutation(52).tolist()
        boards = [arrange(deck[13 * i:13 * i + 13], m) for i, m in enumerate(["top", "grouped",
                                                                             "dealt"])]
        drawn.append((boards, [True, False, False], [False, False, rng.random() < 0.2], 0))
    ruleset = resolve("progressive-pineapple", {"cap": 10, "fl_stay": "royalty-10"})
    scores, results = score_both(ruleset, 3, drawn)
    for n, result in enumerate(results):
        assert_same(scores, n, result, ruleset)
    assert scores.fantasyland_next[:, 0].astype(bool).sum() >= 5  # stays in Fantasyland
    assert scores.fouled.any() and scores.surrendered.any()
    assert (scores.capped != scores.total).any()
    entry = score_both(resolve("progressive-pineapple"), 3, [
        (b, [False] * 3, [False] * 3, 0) for b, *_ in drawn])[0].fantasyland_next[:, 0]
    assert set(entry.tolist()) >= {0, 14, 15, 16, 17}


# --------------------------------------------------------------------------------------------
# Records


@st.composite
def records(draw):
    """Hand records of mixed variants, overrides and player counts; a surrendered player's
    board may be incomplete."""
    out = []
    for k in range(draw(st.integers(1, 8))):
        count = draw(st.integers(2, 4))
        variant = draw(st.sampled_from(sorted(PRESETS)))
        rules = draw(OVERRIDES)
        jokers = resolve(variant, rules).jokers
        boards, fantasyland, surrendered, first, _ = draw(hands(count, jokers))
        players = []
        for i in range(count):
            seat = seat_of(f"p{i}", boards[i], fantasyland[i], surrendered[i])
            board = seat.board
            if surrendered[i] and draw(st.booleans()):
                board = Board(board.top[:1], board.middle[:2], ())
            players.append(PlayerRecord(f"p{i}", i, board, fantasyland=fantasyland[i],
                                        surrendered=surrendered[i]))
        button = draw(st.sampled_from([None] + [f"p{i}" for i in range(count)]))
        out.append(HandRecord("test", str(k), variant, tuple(players), rules=rules,
                              button=button))
    return out


@settings(max_examples=examples(100), deadline=None)
@given(records())
def test_score_records_equals_scalar_in_input_order(recs) -> None:
    scores = score_records(recs)
    assert len(scores) == len(recs)
    for n, rec in enumerate(recs):
        assert_same(scores, n, score_hand(rec.seats(), rec.ruleset, rec.first_to_act),
                    rec.ruleset)


def test_score_records_names_a_hand_with_bad_rules_or_board() -> None:
    board = Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")
    other = Board.parse("Ah Kc 3d", "As Ad 8h 7c 2h", "Qc Tc 8c 6c 5c")
    players = (PlayerRecord("ann", 0, board), PlayerRecord("bob", 1, other))
    with pytest.raises(ValueError, match="hand s/7: rules.scoring: unknown value"):
        score_records([HandRecord("s", "7", "regular", players, rules={"scoring": "9-9"})])
    short = (PlayerRecord("ann", 0, Board(board.top, board.middle, ())), players[1])
    with pytest.raises(ValueError, match="hand s/8: ann has an incomplete board"):
        score_records([HandRecord("s", "8", "regular", short)])
    crowd = tuple(PlayerRecord(f"p{i}", i, board) for i in range(5))
    with pytest.raises(ValueError, match="hand s/9: 5 players"):
        score_records([HandRecord("s", "9", "regular", crowd)])
    assert len(score_records([])) == 0


def test_strategies_reach_jokers_lows_and_repeat_fantasyland() -> None:
    """Over a fixed seed the hand strategy puts jokers on boards, makes legal 2-7 lows and
    keeps a Fantasyland under ``fl_repeat: entry``; both scorers agree on all of them."""
    rng = np.random.default_rng(5)
    drawn = []
    for _ in range(150):
        deck = rng.permutation(54).tolist()
        boards = [arrange(deck[13 * i:13 * i + 13], m) for i, m in enumerate(["low", "top"])]
        drawn.append((boards, [False, True], [False, False], 0, [0, 16]))
    ruleset = resolve("2-7-pineapple", {"jokers": 2, "fl_repeat": "entry"})
    scores, results = score_both(ruleset, 2, drawn)
    for n, result in enumerate(results):
        assert_same(scores, n, result, ruleset)
    cards = np.array([d[0] for d in drawn])
    assert (cards >= 52).any(axis=2).sum() >= 50  # boards with a joker
    assert ((scores.strengths[:, 0, 1] >> 20) == Category.LOW_27).sum() >= 20
    drawn = [([arrange(b, "top") for b in boards], *rest) for boards, *rest in drawn]
    ruleset = resolve("progressive-pineapple", {"jokers": 2, "fl_repeat": "entry"})
    scores, results = score_both(ruleset, 2, drawn)
    for n, result in enumerate(results):
        assert_same(scores, n, result, ruleset)
    assert (scores.fantasyland_next[:, 1] == 16).any()
