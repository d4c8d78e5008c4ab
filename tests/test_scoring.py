"""The scalar scorer against docs/variations.md: worked cases, the seeds' royalty tables, every
preset and override, and properties (zero-sum, antisymmetry, fouls earn nothing)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_core.board import Board, Row
from ofc_core.cards import DECK, Rank
from ofc_core.evaluate import strength
from ofc_core.rules import (
    AMERICAN,
    AMERICAN_NO_MIDDLE_TRIPS,
    OVERRIDE_FIELDS,
    PRESETS,
    FlStay,
    ScoringSystem,
    resolve,
)
from ofc_core.scoring import Seat, score_hand
from tests.helpers.hypo import examples

# Two boards used throughout: ANN wins middle and bottom, BOB wins the top; both earn royalties.
ANN = Board.parse("Kh Qd 2c", "Ah Ad 7c 6s 3h", "9c 9d 9h 4s 4d")   # royalties 0 + 0 + 6
BOB = Board.parse("Jh Jd 3c", "Kc Ks 8h 5d 2h", "Th Js Qc Kd As")   # royalties 6 + 0 + 2
CAROL = Board.parse("5h 5s 2d", "6c 6d 8d Ts Jc", "7d 7h 7s 8c 8s")  # 55 top, full house: 6
FOULED = Board.parse("Qh Qs 2s", "3d 3s 4c 5c 6h", "Tc Td 9s Ac 4h")  # QQ over 33: foul


def seats(*boards: Board, fl: tuple[bool, ...] = (), surrendered: tuple[str, ...] = ()):
    names = ["ann", "bob", "carol", "dan"]
    return [Seat(names[i], b, fantasyland=(fl[i] if i < len(fl) else False),
                 surrendered=names[i] in surrendered) for i, b in enumerate(boards)]


def test_boards_used_here_are_what_they_claim() -> None:
    assert not ANN.is_foul and not BOB.is_foul and not CAROL.is_foul and FOULED.is_foul
    cards = ANN.cards + BOB.cards + CAROL.cards + FOULED.cards
    assert len(set(cards)) == 52


# ---------------------------------------------------------------- royalties


TOP_ROYALTIES = {f"{r.char}{r.char}": r - 5 for r in Rank if r >= 6} | {
    f"{r.char}{r.char}{r.char}": r + 8 for r in Rank}


@pytest.mark.parametrize("made, points", sorted(TOP_ROYALTIES.items()))
def test_every_top_royalty_of_the_seed_tables(made: str, points: int) -> None:
    suits = "hdc"
    cards = [made[i] + suits[i] for i in range(len(made))]
    if len(cards) == 2:
        cards.append("2s" if made[0] != "2" else "3s")
    s = strength(" ".join(cards))
    assert AMERICAN.points(Row.TOP, s) == points
    assert AMERICAN_NO_MIDDLE_TRIPS.points(Row.TOP, s) == points


def test_small_pairs_and_high_cards_on_top_earn_nothing() -> None:
    for made in ("2h 2d Ac", "5h 5d Ac", "Ah Kd Qc"):
        assert AMERICAN.points(Row.TOP, strength(made)) == 0


FIVE_CARD = {
    "trips": "7h 7d 7c Ks 2d",
    "straight": "9h Td Jc Qs Kh",
    "flush": "2h 7h 9h Jh Kh",
    "full_house": "Ah Ad Ac 9s 9h",
    "quads": "Ah Ad Ac As 9h",
    "straight_flush": "9h Th Jh Qh Kh",
    "royal_flush": "Ts Js Qs Ks As",
    "two_pair": "Ah Ad 9c 9s 3h",
}
# Seed 003 (Spanish) full table; seed 001 (Portuguese) is the same without middle trips.
BOTTOM = {"straight": 2, "flush": 4, "full_house": 6, "quads": 10, "straight_flush": 15,
          "royal_flush": 25, "trips": 0, "two_pair": 0}
MIDDLE = {"trips": 2, "straight": 4, "flush": 8, "full_house": 12, "quads": 20,
          "straight_flush": 30, "royal_flush": 50, "two_pair": 0}


@pytest.mark.parametrize("made", sorted(FIVE_CARD))
def test_every_five_card_royalty_of_the_seed_tables(made: str) -> None:
    s = strength(FIVE_CARD[made])
    assert AMERICAN.points(Row.BOTTOM, s) == BOTTOM[made]
    assert AMERICAN.points(Row.MIDDLE, s) == MIDDLE[made]
    assert AMERICAN_NO_MIDDLE_TRIPS.points(Row.BOTTOM, s) == BOTTOM[made]
    expected_middle = 0 if made == "trips" else MIDDLE[made]
    assert AMERICAN_NO_MIDDLE_TRIPS.points(Row.MIDDLE, s) == expected_middle


def test_royalty_table_override_changes_middle_trips_only() -> None:
    trips_middle = Board.parse("2c 3d 4h", "7h 7d 7c Ks 2d", "9h Td Jc Qs Kh")
    for table, expected in (("american", (0, 2, 2)), ("american-no-middle-trips", (0, 0, 2))):
        ruleset = resolve("regular", {"royalties": table})
        result = score_hand(seats(trips_middle, ANN), ruleset)
        assert result.player("ann").royalties == expected


# ---------------------------------------------------------------- pairwise, 1-6


def test_royalties_are_exchanged_whoever_wins_the_row() -> None:
    result = score_hand(seats(ANN, BOB), PRESETS["regular"])
    pair = result.pair("ann", "bob")
    assert pair.rows == (-1, 1, 1)
    assert (pair.row_points, pair.bonus, pair.royalties, pair.total) == (1, 0, 6 - 8, -1)
    assert result.player("ann").points == -1 and result.player("bob").points == 1
    assert result.player("bob").royalties == (6, 0, 2)


def test_foul_costs_the_scoop_plus_the_opponents_royalties() -> None:
    result = score_hand(seats(FOULED, BOB), PRESETS["regular"])
    ann, bob = result.player("ann"), result.player("bob")
    assert ann.fouled and ann.royalties == (0, 0, 0)
    assert ann.points == -(6 + 8) and bob.points == 14
    assert result.pair("bob", "ann").scoop


def test_foul_payout_scoop_is_flat() -> None:
    result = score_hand(seats(FOULED, BOB), resolve("regular", {"foul_payout": "scoop"}))
    assert result.player("ann").points == -6


def test_both_fouled_exchange_nothing() -> None:
    other_foul = Board.parse("Ah Ad 3c", "Kc Ks 8h 5d 2h", "Th Js Qc Kd 9d")
    assert other_foul.is_foul
    result = score_hand(seats(FOULED, other_foul), PRESETS["regular"])
    assert [p.points for p in result.players] == [0, 0]


def test_three_players_settle_pair_by_pair() -> None:
    result = score_hand(seats(ANN, BOB, CAROL), PRESETS["pineapple"])
    for p in result.players:
        assert p.points == sum(p.vs.values())
    assert sum(p.points for p in result.players) == 0
    # ann vs carol: carol's 55 wins the top, ann's AA and nines full the other two; both
    # bottoms earn 6, so nothing is exchanged for royalties.
    assert result.pair("ann", "carol").rows == (-1, 1, 1)
    assert result.player("ann").vs["carol"] == 1 + 0


# ---------------------------------------------------------------- other systems


def test_two_four_method() -> None:
    ruleset = resolve("regular", {"scoring": "2-4"})
    assert score_hand(seats(ANN, BOB), ruleset).player("bob").points == -(1 + 1) + 2
    scooped = score_hand(seats(FOULED, BOB), ruleset)
    assert scooped.player("bob").points == 4 + 8


def test_majority_method() -> None:
    ruleset = resolve("regular", {"scoring": "majority"})
    assert ScoringSystem.MAJORITY.points(2, 1) == 1
    assert score_hand(seats(ANN, BOB), ruleset).player("ann").points == 1 - 2
    assert score_hand(seats(FOULED, BOB), ruleset).player("bob").points == 6 + 8


def test_race_scoring_banks_own_points() -> None:
    result = score_hand(seats(ANN, BOB), PRESETS["double"])
    # ann: 2 rows + own royalties 6; bob: 1 row + 8.
    assert result.player("ann").points == 8 and result.player("bob").points == 9
    fouled = score_hand(seats(FOULED, BOB), PRESETS["double"])
    assert fouled.player("ann").points == 0 and fouled.player("bob").points == 6 + 8


def test_surrender_pays_a_fixed_cost_to_each_rival() -> None:
    result = score_hand(seats(ANN, BOB, CAROL, surrendered=("carol",)), PRESETS["regular"])
    assert result.player("carol").points == -4
    assert result.player("ann").vs["carol"] == 2 and result.player("bob").vs["carol"] == 2
    assert result.player("carol").royalties == (0, 0, 0)
    costly = resolve("regular", {"surrender_cost": 3})
    assert score_hand(seats(ANN, BOB, surrendered=("bob",)), costly).player("ann").points == 3


def test_caps_limit_each_players_net_in_settlement_order() -> None:
    raw = score_hand(seats(FOULED, BOB, CAROL), PRESETS["regular"])
    assert raw.player("ann").points == -(6 + 8) - (6 + 6)
    assert raw.player("bob").vs["carol"] == 1 + (8 - 6)
    capped = score_hand(seats(FOULED, BOB, CAROL), resolve("regular", {"cap": 15}), 1)
    ann = capped.player("ann")
    assert ann.raw_points == -26 and ann.points == -15
    assert sum(p.points for p in capped.players) == 0
    # Settlement starts left of the button (bob): bob-carol (3), bob-ann (bob can take only 12
    # more before his cap), then carol-ann (ann has only 3 left to lose).
    assert capped.player("bob").vs == {"ann": 12, "carol": 3}
    assert capped.player("carol").vs["ann"] == 3
    assert capped.pair("bob", "ann").total == 14 and capped.pair("bob", "ann").capped == 12


# ---------------------------------------------------------------- Fantasyland


QQ_TOP = Board.parse("Qh Qd 2c", "Ah Ad 7c 6s 3h", "9c 9d 9h 4s 4d")
KK_TOP = Board.parse("Kh Kd 2c", "Ah Ad 7c 6s 3h", "9c 9d 9h 4s 4d")
AA_TOP = Board.parse("Ah Ac 2c", "Kh Kd Ks 6s 3h", "9c 9d 9h 4s 4d")
TRIPS_TOP = Board.parse("3h 3d 3c", "Qh Qd Qs 6s 2h", "9c 9d 9h 4s 4d")
JJ_TOP = Board.parse("Jh Jd 2c", "Ah Ad 7c 6s 3h", "9c 9d 9h 4s 4d")


def rest_of_deck(board: Board) -> Board:
    """An opponent made of 13 cards the board does not use (their result does not matter)."""
    rest = [c for c in DECK if c not in board.cards][:13]
    return Board(tuple(rest[:3]), tuple(rest[3:8]), tuple(rest[8:13]))


@pytest.mark.parametrize("variant, board, cards", [
    ("regular", QQ_TOP, 13), ("turbo", QQ_TOP, 13), ("pineapple", QQ_TOP, 14),
    ("double", AA_TOP, 14), ("regular", JJ_TOP, 0),
    ("progressive-pineapple", QQ_TOP, 14), ("progressive-pineapple", KK_TOP, 15),
    ("progressive-pineapple", AA_TOP, 16), ("progressive-pineapple", TRIPS_TOP, 17),
])
def test_fantasyland_entry_and_card_counts(variant: str, board: Board, cards: int) -> None:
    assert not board.is_foul
    result = score_hand(seats(board, rest_of_deck(board)), PRESETS[variant])
    assert result.player("ann").fantasyland_next == cards


def test_no_fantasyland_when_fouled_or_switched_off() -> None:
    fouled_qq = Board.parse("Qh Qd Ac", "Qs Qc 6h 5d 4c", "9c 9d 9h 4s 4d")
    assert fouled_qq.is_foul
    assert score_hand(seats(fouled_qq, BOB), PRESETS["regular"]).player("ann").fantasyland_next == 0
    off = resolve("regular", {"fantasyland": "off"})
    assert score_hand(seats(QQ_TOP, BOB), off).player("ann").fantasyland_next == 0


FH_MIDDLE = Board.parse("Qh Qd 2c", "5h 5d 5c 3s 3h", "9c 9d 9h 9s 4d")   # quads bottom
FH_MIDDLE_ONLY = Board.parse("Qh Qd 2c", "5h 5d 5c 3s 3h", "Ac Ad Ah 4s 4d")
FLUSH_MIDDLE = Board.parse("Qh Qd 2c", "2h 7h 9h Jh Kh", "Ac Ad Ah 4s 4d")  # middle royalty 8


@pytest.mark.parametrize("stay, board, stays", [
    (FlStay.CLASSIC, TRIPS_TOP, True), (FlStay.PINEAPPLE, TRIPS_TOP, True),
    (FlStay.CLASSIC, FH_MIDDLE_ONLY, True), (FlStay.PINEAPPLE, FH_MIDDLE_ONLY, False),
    (FlStay.CLASSIC, FH_MIDDLE, True), (FlStay.PINEAPPLE, FH_MIDDLE, True),
    (FlStay.CLASSIC, QQ_TOP, False),            # QQ again is not enough from Fantasyland
    (FlStay.ROYALTY_10, FH_MIDDLE_ONLY, True),  # middle full house: 12 royalty points
    (FlStay.ROYALTY_10, FLUSH_MIDDLE, False),   # flush middle 8, bottom full house 6, top 7
    (FlStay.ROYALTY_10, TRIPS_TOP, True),       # 333 on top: 11
])
def test_fantasyland_stay_rules(stay: FlStay, board: Board, stays: bool) -> None:
    ruleset = resolve("regular", {"fl_stay": stay.value})
    assert not board.is_foul
    result = score_hand(seats(board, rest_of_deck(board), fl=(True, False)), ruleset)
    assert result.player("ann").fantasyland_next == (13 if stays else 0)


def test_progressive_repeat_fantasyland_is_always_fourteen_cards() -> None:
    ruleset = PRESETS["progressive-pineapple"]
    stayed = score_hand(seats(TRIPS_TOP, rest_of_deck(TRIPS_TOP), fl=(True, False)), ruleset)
    assert stayed.player("ann").fantasyland_next == 14
    entered = score_hand(seats(TRIPS_TOP, rest_of_deck(TRIPS_TOP)), ruleset)
    assert entered.player("ann").fantasyland_next == 17


# ---------------------------------------------------------------- presets and overrides


def test_presets_follow_rules_md() -> None:
    assert {v: (r.min_players, r.max_players) for v, r in PRESETS.items()} == {
        "regular": (2, 4), "turbo": (2, 4), "pineapple": (2, 3),
        "progressive-pineapple": (2, 3), "double": (2, 2), "joker-pineapple": (2, 3),
        "2-7-pineapple": (2, 3)}
    assert PRESETS["regular"].dealing.cards_per_player == 13
    assert PRESETS["turbo"].dealing.cards_per_player == 13
    assert PRESETS["pineapple"].dealing.cards_per_player == 17
    assert PRESETS["regular"].fl_stay is FlStay.CLASSIC
    assert PRESETS["pineapple"].fl_stay is FlStay.PINEAPPLE
    assert PRESETS["double"].scoring is ScoringSystem.RACE
    assert PRESETS["double"].match_target == 31
    assert {v: r.jokers for v, r in PRESETS.items() if r.jokers} == {"joker-pineapple": 2}
    assert PRESETS["2-7-pineapple"].dealing == PRESETS["pineapple"].dealing


@pytest.mark.parametrize("key, value, attribute, expected", [
    ("scoring", "majority", "scoring", ScoringSystem.MAJORITY),
    ("royalties", "american-no-middle-trips", "royalties", AMERICAN_NO_MIDDLE_TRIPS),
    ("foul_payout", "scoop", "foul_payout", "scoop"),
    ("fantasyland", "off", "fantasyland", False),
    ("fl_stay", "royalty-10", "fl_stay", FlStay.ROYALTY_10),
    ("button_in_fl", "rotates", "button_in_fl", "rotates"),
    ("surrender_cost", 3.5, "surrender_cost", 3.5),
    ("cap", 20, "cap", 20),
])
def test_every_override_is_a_field(key: str, value, attribute: str, expected) -> None:
    ruleset = resolve("pineapple", {key: value})
    assert getattr(ruleset, attribute) == expected
    assert ruleset.overrides == {key: value}
    assert key in ruleset.label


@pytest.mark.parametrize("overrides, message", [
    ({"scoring": "3-5"}, "rules.scoring"),
    ({"royalties": "european"}, "rules.royalties"),
    ({"fantasyland": "maybe"}, "rules.fantasyland"),
    ({"surrender_cost": -1}, "rules.surrender_cost"),
    ({"colour": "red"}, "unknown key"),
])
def test_bad_overrides_are_named(overrides, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        resolve("regular", overrides)


def test_unknown_variant() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        resolve("omaha")


# ---------------------------------------------------------------- properties


def random_hand(rng: random.Random, players: int) -> list[Board]:
    deck = list(DECK)
    rng.shuffle(deck)
    return [Board(tuple(deck[13 * i:13 * i + 3]), tuple(deck[13 * i + 3:13 * i + 8]),
                  tuple(deck[13 * i + 8:13 * i + 13])) for i in range(players)]


overrides = st.fixed_dictionaries({}, optional={
    "scoring": st.sampled_from(["1-6", "2-4", "majority"]),
    "royalties": st.sampled_from(["american", "american-no-middle-trips"]),
    "foul_payout": st.sampled_from(["scoop-plus-royalties", "scoop"]),
    "fantasyland": st.sampled_from(["on", "off"]),
    "fl_stay": st.sampled_from(["classic", "pineapple", "royalty-10"]),
    "surrender_cost": st.integers(0, 5),
    "cap": st.one_of(st.none(), st.integers(1, 40)),
})


@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), rules=overrides,
       fl=st.lists(st.booleans(), min_size=4, max_size=4),
       surrender=st.lists(st.booleans(), min_size=4, max_size=4),
       first=st.integers(0, 3))
def test_zero_sum_antisymmetric_and_fouls_earn_nothing(seed, players, rules, fl, surrender,
                                                       first) -> None:
    assert set(rules) <= set(OVERRIDE_FIELDS)
    ruleset = resolve("regular", rules)
    boards = random_hand(random.Random(seed), players)
    names = [f"p{i}" for i in range(players)]
    hand = [Seat(names[i], b, fl[i], surrender[i]) for i, b in enumerate(boards)]
    result = score_hand(hand, ruleset, first % players)
    assert sum(p.points for p in result.players) == pytest.approx(0)
    for pair in result.pairs:
        mirror = result.pair(pair.opponent, pair.player)
        assert pair.total == -mirror.total and pair.capped == -mirror.capped
        assert pair.rows == tuple(-r for r in mirror.rows)
    for p in result.players:
        assert p.points == pytest.approx(sum(p.vs.values()))
        if p.fouled or p.surrendered:
            assert p.royalties == (0, 0, 0) and p.fantasyland_next == 0
        if ruleset.cap is not None:
            assert abs(p.points) <= ruleset.cap


@settings(max_examples=examples(100), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_race_is_never_negative(seed) -> None:
    boards = random_hand(random.Random(seed), 2)
    result = score_hand([Seat("a", boards[0]), Seat("b", boards[1])], PRESETS["double"])
    assert all(p.points >= 0 for p in result.players)
