"""The exact Fantasyland solver against an independent brute force over every arrangement.

The brute force shares nothing with the solver but the ruleset: it enumerates every
(bottom, middle, top) of the deal with ``itertools``, reads each row's strength from the scalar
evaluator (:func:`ofc_core.evaluate.evaluate`, not the batch scorer's tables), its royalty from
:meth:`RoyaltyTable.points`, and whether a set stays from :meth:`Ruleset.fantasyland_cards`
(called once per strength class triple: every stay rule's minimums are at class boundaries,
which the test checks), then takes the best legal value. A bigger run is
``python benchmarks/bench_fl_solver.py --exact 10000``.
"""

from __future__ import annotations

import functools
import random
from itertools import combinations

import numpy as np
import pytest

from ofc_core.board import Row
from ofc_core.cards import DECK, parse_cards
from ofc_core.evaluate import evaluate
from ofc_core.play.fl_solver import card_indexes, solve_fantasyland
from ofc_core.rules import PRESETS, FlStay, Ruleset, resolve

SHIFT = 16
"""A strength's class: ``strength >> 16`` (category and lead rank)."""


@functools.cache
def _arrangements(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (bottom, middle) pair of n card positions, and for each pair its possible tops
    (every 3 of the cards left), as indexes into the lists of 5-card and 3-card position
    subsets returned with them."""
    fives = list(combinations(range(n), 5))
    threes = list(combinations(range(n), 3))
    five_at = {s: i for i, s in enumerate(fives)}
    three_at = {s: i for i, s in enumerate(threes)}
    b, m, t = [], [], []
    for bottom in fives:
        rest = [p for p in range(n) if p not in bottom]
        for middle in combinations(rest, 5):
            left = [p for p in rest if p not in middle]
            b.append(five_at[bottom])
            m.append(five_at[middle])
            t.append([three_at[top] for top in combinations(left, 3)])
    return np.array(b), np.array(m), np.array(t), np.array(fives), np.array(threes)


@functools.cache
def _evaluate(code: int) -> int:
    """The scalar evaluator's strength of a row given as :func:`_codes` packs it."""
    flush, size, ranks = code & 1, (code >> 1) & 7, []
    code >>= 4
    for _ in range(size):
        ranks.append(code % 13)
        code //= 13
    suits = "s" * size if flush else "shdcs"[:size]
    return evaluate(parse_cards(" ".join(f"{'23456789TJQKA'[r]}{u}"
                                         for r, u in zip(ranks, suits, strict=True))))


def _codes(cards: np.ndarray, subsets: np.ndarray) -> np.ndarray:
    """Each subset of ``cards`` (positions) as one integer: its sorted ranks, its size and
    whether it is five of a suit."""
    ranks = np.sort(cards[subsets] >> 2, axis=1)
    suits = cards[subsets] & 3
    flush = (subsets.shape[1] == 5) & (suits == suits[:, :1]).all(axis=1)
    packed = (ranks * (13 ** np.arange(subsets.shape[1]))).sum(axis=1)
    return (packed << 4) | (subsets.shape[1] << 1) | flush


def _strengths(cards: np.ndarray, subsets: np.ndarray) -> np.ndarray:
    codes, back = np.unique(_codes(cards, subsets), return_inverse=True)
    return np.array([_evaluate(int(c)) for c in codes], np.int64)[back.ravel()]


_POINTS: dict[tuple[str, Row, int], int] = {}


def _royalties(ruleset: Ruleset, row: Row, strengths: np.ndarray) -> np.ndarray:
    """:meth:`RoyaltyTable.points` of each strength (remembered by table, row and strength)."""
    values, back = np.unique(strengths, return_inverse=True)
    name = ruleset.paid_royalties.name
    out = []
    for s in values.tolist():
        key = (name, row, s)
        if key not in _POINTS:
            _POINTS[key] = ruleset.paid_royalties.points(row, s)
        out.append(_POINTS[key])
    return np.array(out, np.int64)[back.ravel()]


CLASSES = 144
_STAYS: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def _stays(ruleset: Ruleset, codes: np.ndarray) -> np.ndarray:
    """Whether a set stays, by the code of its rows' classes (top, middle, bottom), from the
    ruleset's own rule on each class's representative, remembered per ruleset."""
    key = repr(sorted(ruleset.settings().items()))
    if key not in _STAYS:
        _STAYS[key] = (np.zeros(CLASSES ** 3, bool), np.zeros(CLASSES ** 3, bool))
    known, table = _STAYS[key]
    points = ruleset.paid_royalties.points
    for code in np.unique(codes[~known[codes]]).tolist():
        ct, cm, cb = code // CLASSES ** 2, code // CLASSES % CLASSES, code % CLASSES
        st, sm, sb = (_representative(c) for c in (ct, cm, cb))
        royalties = (points(Row.TOP, st), points(Row.MIDDLE, sm), points(Row.BOTTOM, sb))
        table[code] = ruleset.fantasyland_cards(False, True, st, (st, sm, sb), royalties) > 0
        known[code] = True
    return table[codes]


def _representative(cls: int) -> int:
    """The strongest strength of a class (its kickers all at the top)."""
    return (cls << SHIFT) | ((1 << SHIFT) - 1)


def _classes_decide(ruleset: Ruleset, s3: np.ndarray, s5: np.ndarray) -> None:
    """On these rows, each stay minimum is reached by a row exactly when its class's
    representative reaches it (so the stay rule depends on the classes alone)."""
    rule = ruleset.fl_stay.rule
    for minimum, rows in ((rule.top, s3), (rule.middle, s5), (rule.bottom, s5)):
        if minimum is not None:
            assert ((rows >= minimum) == (_representative(rows >> SHIFT) >= minimum)).all()


def brute_force(cards: tuple[int, ...], ruleset: Ruleset, stay: float) -> float:
    """The best value over every arrangement of ``cards`` (see the module docstring)."""
    b, m, t, fives, threes = _arrangements(len(cards))
    hand = np.array(cards, np.int64)
    s5, s3 = _strengths(hand, fives), _strengths(hand, threes)
    _classes_decide(ruleset, s3, s5)
    rb, rm = _royalties(ruleset, Row.BOTTOM, s5), _royalties(ruleset, Row.MIDDLE, s5)
    rt = _royalties(ruleset, Row.TOP, s3)
    sb, sm, st = s5[b], s5[m], s3[t]
    legal = (st <= sm[:, None]) & (sm <= sb)[:, None]
    royalty = (rb[b] + rm[m])[:, None] + rt[t]
    codes = ((st >> SHIFT) * CLASSES + (sm >> SHIFT)[:, None]) * CLASSES + (sb >> SHIFT)[:, None]
    stays = _stays(ruleset, codes[legal])
    return float((royalty[legal] + stay * stays).max())


def _check(cards: tuple[int, ...], ruleset: Ruleset, stay: float) -> None:
    """The solver's set is legal, uses the cards, is worth what it says, and is the best."""
    best = solve_fantasyland(cards, ruleset, stay)
    rows = (best.top, best.middle, best.bottom)
    assert [len(r) for r in rows] == [3, 5, 5] and not best.fouled
    assert sorted(best.top + best.middle + best.bottom + best.discard) == sorted(cards)
    strengths = tuple(evaluate([DECK[c] for c in r]) for r in rows)
    assert strengths[0] <= strengths[1] <= strengths[2]
    royalties = tuple(ruleset.paid_royalties.points(row, s)
                      for row, s in zip((Row.TOP, Row.MIDDLE, Row.BOTTOM), strengths,
                                        strict=True))
    stays = ruleset.fantasyland_cards(False, True, strengths[0], strengths, royalties) > 0
    assert (best.royalties, best.stays) == (royalties, stays)
    assert best.value == sum(royalties) + stay * stays
    assert best.value == brute_force(cards, ruleset, stay), best.compact()


def test_exact_on_four_hundred_random_deals_of_13_and_14_cards() -> None:
    """400 seeded deals, one in four of 14 cards (each 14-card deal has about a million
    arrangements; ``benchmarks/bench_fl_solver.py --exact 1000`` runs more of them)."""
    rng = random.Random(2026)
    ruleset = PRESETS["pineapple"]
    for k in range(400):
        cards = tuple(rng.sample(range(52), 14 if k % 4 == 0 else 13))
        _check(cards, ruleset, stay=rng.choice((0.0, 12.5, 30.0)))


@pytest.mark.parametrize("variant,overrides", [
    ("regular", None),  # classic stay: trips on top, a full house middle or quads bottom
    ("pineapple", {"fl_stay": "royalty-10"}),
    ("pineapple", {"royalties": "old-schedule"}),
    ("pineapple", {"royalties": "american-no-middle-trips", "fl_stay": "classic"}),
    ("progressive-pineapple", None),
    ("double", None),
    ("pineapple", {"fantasyland": "off"}),
])
def test_exact_under_every_stay_rule_and_royalty_table(variant, overrides) -> None:
    rng = random.Random(7)
    ruleset = resolve(variant, overrides)
    for _ in range(40):
        n = rng.choice((13, 14))
        _check(tuple(rng.sample(range(52), n)), ruleset, stay=rng.choice((0.0, 15.0)))


def test_every_stay_rule_is_covered() -> None:
    covered = {resolve(v, o).fl_stay for v, o in [("regular", None), ("pineapple", None),
                                                    ("pineapple", {"fl_stay": "royalty-10"})]}
    assert covered == set(FlStay)


def _deal(text: str) -> tuple[int, ...]:
    return tuple(c.index for c in parse_cards(text))


def _rows(text: str) -> list[str]:
    best = solve_fantasyland(_deal(text), PRESETS["pineapple"], 15.0)
    return best.compact().split("-")


def test_trips_go_on_top_to_stay() -> None:
    """Three sevens make a full house below (6 royalty) or trips on top (15 and a stay)."""
    deal = "7h 7d 7c As Ks Qs Js 9s 6h 5d 4c 3h 2s Kd"
    top, middle, bottom = _rows(deal)
    assert top == "7h7d7c"
    assert solve_fantasyland(_deal(deal), PRESETS["pineapple"], 15.0).stays
    _check(_deal(deal), PRESETS["pineapple"], 15.0)


def test_a_wheel_goes_in_the_middle() -> None:
    """The only straight is the wheel (A-2-3-4-5): it is worth 4 in the middle, under a
    flush bottom, with queens on top."""
    deal = "Ah 2d 3c 4h 5d Ks Js 9s 7s 6s Qh Qd 8c Tc"
    top, middle, bottom = _rows(deal)
    assert {middle[i:i + 2][0] for i in range(0, 10, 2)} == set("A2345")
    assert bottom.count("s") == 5 and top.startswith("QhQd")
    _check(_deal(deal), PRESETS["pineapple"], 15.0)


@pytest.mark.parametrize("deal,kept", [
    ("9h 9d 9c 9s Ah Kd Qc Js Th 8d 6c 4s 3h 2d", True),  # quads below stay (pineapple)
    ("Qc Qd Qh Qs Kc 5d 4s Ac 5c 8c 6s 2d 7s 8h", False),  # QQQ on top, Qc in a flush
])
def test_quads_split_or_kept(deal, kept) -> None:
    """Four of a kind stay in the bottom when that is best (10 royalty and a stay), and are
    split when three of them on top (20 and a stay) and the fourth in a flush are worth
    more."""
    ruleset = PRESETS["pineapple"]
    best = solve_fantasyland(_deal(deal), ruleset, 15.0)
    quads_rank = parse_cards(deal)[0].rank
    in_bottom = sum(DECK[c].rank == quads_rank for c in best.bottom)
    assert (in_bottom == 4) == kept, best.compact()
    _check(_deal(deal), ruleset, 15.0)
    _check(_deal(deal), ruleset, 0.0)


@pytest.mark.parametrize("n", [15, 16, 17])
def test_larger_hands_are_legal_and_no_worse_than_any_13_of_them(n) -> None:
    """With 15-17 cards (too many arrangements for the brute force in the suite) the set is
    legal and worth at least the exact best of any 14 of the cards containing it."""
    rng = random.Random(n)
    ruleset = PRESETS["progressive-pineapple"]
    for _ in range(5):
        cards = tuple(rng.sample(range(52), n))
        best = solve_fantasyland(cards, ruleset, 10.0)
        kept = best.top + best.middle + best.bottom
        assert best.value >= brute_force(kept + best.discard[:1], ruleset, 10.0)
        for extra in best.discard:
            sub = kept + (extra,)
            assert solve_fantasyland(sub, ruleset, 10.0).value <= best.value


def test_a_2_7_middle_is_refused() -> None:
    with pytest.raises(ValueError, match="does not solve 2-7 middles"):
        solve_fantasyland(range(14), PRESETS["2-7-pineapple"])


def test_cards_as_values_or_indexes_and_bad_input() -> None:
    deal = "As Ad Ac Kh Kd Qs Qh 9h 8h 7h 6h 5h 2c 3d"
    ruleset = PRESETS["pineapple"]
    assert solve_fantasyland(parse_cards(deal), ruleset, 10.0) == solve_fantasyland(
        _deal(deal), ruleset, 10.0)
    with pytest.raises(ValueError, match="13-17 cards, got 18"):
        card_indexes(range(18))
    with pytest.raises(ValueError, match="not a card"):
        card_indexes([52] + list(range(12)))


def test_the_default_stay_value_is_the_measured_one() -> None:
    from ofc_core.play.fl_value import stay_value

    deal = _deal("7h 7d 7c As Ks Qs Js 9s 6h 5d 4c 3h 2s Kd")
    ruleset = PRESETS["pineapple"]
    best = solve_fantasyland(deal, ruleset)
    assert best.stay_value == stay_value(ruleset)
    assert best.value == best.royalty_total + best.stay_value * best.stays
