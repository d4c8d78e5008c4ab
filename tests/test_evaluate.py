"""Row strength: the kicker rules of docs/variations.md section 2, categories, names."""

import pytest

from ofc_core.board import Board
from ofc_core.cards import Card, parse_cards
from ofc_core.evaluate import Category, category_of, evaluate, hand_name, strength


@pytest.mark.parametrize("top, middle, foul", [
    ("Qh Qd 7c", "Qs Qc 6h 5d 4c", True),      # QQ7 over QQ654: the 7 kicker beats the 6
    ("Qh Qd 7c", "Qs Qc 9h 8d 2c", False),     # QQ7 over QQ982: legal
    ("Kh Kd Ac", "Ks Kc Qh 7d 3c", True),      # KK-A over KK-Q-7-3: foul
    ("Qh Qd 9c", "Qs Qc 9h 8d 2c", False),     # a top equal to a prefix of the middle is legal
    ("Ah Kd Qc", "As Kc Qh Jd 9c", False),     # high cards: AKQ under AKQJ9
    ("Ah Kd Qc", "As Kc Qh 2d 3c", False),     # AKQ vs AKQ32: prefix again, legal
    ("2h 2d 2c", "As Ac Kh Kd 9c", True),      # trips on top over two pair
    ("2h 2d 2c", "3s 3c 3h Kd 9c", False),
])
def test_top_is_compared_with_only_its_own_cards(top: str, middle: str, foul: bool) -> None:
    board = Board.parse(top, middle, "Th Td Tc Ts 8s")  # quads: the bottom never matters here
    assert len(set(board.cards)) == 13
    assert board.is_foul is foul


def test_bottom_below_middle_fouls_and_equal_rows_are_legal() -> None:
    assert Board.parse("2c 3d 4h", "Ah Ad Kc Ks 5d", "Qh Qd Jc Js 9d").is_foul
    # Equal strength in middle and bottom (same ranks, other suits) is legal.
    assert not Board.parse("2c 3d 4h", "Ah Ad Kc Ks 5d", "As Ac Kh Kd 5c").is_foul


def test_wheel_is_the_lowest_straight_and_ace_high_otherwise() -> None:
    wheel = strength("Ad 2c 3h 4s 5d")
    six_high = strength("2d 3c 4h 5s 6d")
    broadway = strength("Td Jc Qh Ks Ad")
    assert category_of(wheel) is Category.STRAIGHT
    assert wheel < six_high < broadway
    assert strength("As Ks Qs Js 9s") > broadway  # a flush beats any straight
    assert strength("Ah 2h 3h 4h 5h") < strength("2h 3h 4h 5h 6h")
    assert hand_name(strength("Ah 2h 3h 4h 5h")) == "Straight flush, Five high"


def test_no_straights_or_flushes_on_top() -> None:
    assert category_of(strength("Qh Kh Ah")) is Category.HIGH_CARD
    assert category_of(strength("2h 3d 4c")) is Category.HIGH_CARD


@pytest.mark.parametrize("cards, category", [
    ("Ah Kd 9c 5s 3h", Category.HIGH_CARD),
    ("Ah Ad 9c 5s 3h", Category.PAIR),
    ("Ah Ad 9c 9s 3h", Category.TWO_PAIR),
    ("Ah Ad Ac 9s 3h", Category.TRIPS),
    ("9h Td Jc Qs Kh", Category.STRAIGHT),
    ("2h 7h 9h Jh Kh", Category.FLUSH),
    ("Ah Ad Ac 9s 9h", Category.FULL_HOUSE),
    ("Ah Ad Ac As 9h", Category.QUADS),
    ("9h Th Jh Qh Kh", Category.STRAIGHT_FLUSH),
])
def test_categories_order(cards: str, category: Category) -> None:
    assert category_of(strength(cards)) is category


def test_categories_are_strictly_increasing_across_the_scale() -> None:
    ladder = ["Ah Kd 9c 5s 3h", "2h 2d 3c 4s 5h", "2h 2d 3c 3s 4h", "2h 2d 2c 3s 4h",
              "Ad 2c 3h 4s 5d", "2h 3h 4h 5h 7h", "2h 2d 2c 3s 3h", "2h 2d 2c 2s 3h",
              "Ah 2h 3h 4h 5h"]
    values = [strength(c) for c in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)


def test_kickers_decide_within_a_category_and_suits_never_do() -> None:
    assert strength("Ah Ad Kc 5s 3h") > strength("Ah Ad Qc Js Th")
    assert strength("Kh Kd 5c 5s 3h") < strength("Kh Kd 6c 6s 2h")
    assert strength("Kh Kd 5c 5s 4h") > strength("Kc Ks 5d 5h 3h")
    assert strength("2h 7h 9h Jh Kh") == strength("2s 7s 9s Js Ks")


@pytest.mark.parametrize("cards, name", [
    ("Ah Kd 9c 5s 3h", "Ace high"),
    ("6h 6d 2c", "Pair of Sixes"),
    ("Ah Ad 9c 9s 3h", "Two pair, Aces and Nines"),
    ("Qh Qd Qc", "Three of a kind, Queens"),
    ("9h Td Jc Qs Kh", "Straight, King high"),
    ("Ah Ad Ac As 9h", "Four of a kind, Aces"),
    ("9h Th Jh Qh Kh", "Straight flush, King high"),
])
def test_hand_names(cards: str, name: str) -> None:
    assert hand_name(strength(cards)) == name


@pytest.mark.parametrize("token, expected", [
    ("Ah", "Ah"), ("td", "Td"), ("10h", "Th"), ("A♠", "As"), ("q♥", "Qh"), ("2C", "2c"),
])
def test_card_tokens(token: str, expected: str) -> None:
    assert str(Card.parse(token)) == expected


@pytest.mark.parametrize("token", ["1h", "Ax", "A", "", "10", "AAh", "Joker"])
def test_bad_card_tokens_name_the_token(token: str) -> None:
    with pytest.raises(ValueError, match="unknown card"):
        Card.parse(token)


def test_card_index_round_trip_covers_the_deck() -> None:
    assert sorted(Card.from_index(i).index for i in range(52)) == list(range(52))
    assert len({str(Card.from_index(i)) for i in range(52)}) == 52


def test_rows_must_have_three_or_five_cards() -> None:
    with pytest.raises(ValueError):
        evaluate(parse_cards("Ah Kh Qh Jh"))


def test_row_names_are_the_rows_values_and_their_fields():
    from ofc_core.board import ROW_NAMES, ROWS, Board
    from ofc_core.hand import StreetPlay

    assert ROW_NAMES == tuple(row.value for row in ROWS)
    board = Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")
    assert [getattr(board, name) for name in ROW_NAMES] == [board.row(r) for r in ROWS]
    assert all(hasattr(StreetPlay(), name) for name in ROW_NAMES)
