"""The deep reference's rollout policy (issue 21 point 4, :mod:`ofc_core.play.lookahead`):
it values each option by its definition (the mean over sampled next deals of the best next
placement), never reads the cards of later streets, plays its last street exhaustively, and
completes only legal boards."""

from __future__ import annotations

import numpy as np

from ofc_core.board import Board
from ofc_core.play.learned_rollouts import LearnedRollouts, best_options
from ofc_core.play.lookahead import LookaheadRollouts
from ofc_core.play.rollout import board_array, default_fantasyland_value, fl_table
from ofc_core.play.value import load_value
from ofc_core.play.value_features import expand
from ofc_core.rules import PRESETS, Street
from tests.helpers.completions import assert_completed_legally

PINEAPPLE = PRESETS["pineapple"]
FL = fl_table(PINEAPPLE, default_fantasyland_value, 3)
STREET = Street(3, 2)


def board(text: str) -> np.ndarray:
    b = Board.parse_compact(text)
    return board_array(tuple(tuple(c.index for c in row)  # type: ignore[arg-type]
                             for row in (b.top, b.middle, b.bottom)))


def unseen(*boards: np.ndarray) -> np.ndarray:
    seen = {int(c) for b in boards for c in b.ravel() if c >= 0}
    return np.array([c for c in range(52) if c not in seen], np.int8)


def test_an_option_is_valued_as_its_mean_best_next_placement():
    """Street 4 of a pineapple hand (9 cards on the board): each option's score is the mean,
    over the sampled last streets, of the best finished board's exact value, worked out here
    one option and one sample at a time."""
    start = board("Qh-8h8d7c-KsKd9c")[None]
    dealt = np.array([[0, 17, 50]], np.int8)  # 2c 6d Ah
    value = load_value("pineapple")
    assert value is not None
    policy = LookaheadRollouts(samples=3, seed=9)
    scores, _ = policy.option_scores(start, dealt, 2, STREET, value, PINEAPPLE, FL)
    draws = LookaheadRollouts(samples=3, seed=9).draw(start, dealt, 3, 52)[0]
    held = set(start[0][start[0] >= 0].tolist()) | set(dealt[0].tolist())
    assert all(len(set(d.tolist())) == 3 and not set(d.tolist()) & held for d in draws)
    after, fits = expand(start, dealt, 2)
    assert np.isneginf(scores[0][~fits[0]]).all()
    for o in np.flatnonzero(fits[0]):
        bests = [float(best_options(after[0, o][None], d[None], 2, value, PINEAPPLE, FL)[1][0])
                 for d in draws]
        assert abs(scores[0, o] - np.mean(bests)) < 1e-5  # float32 networks


def test_a_street_is_chosen_without_the_later_cards():
    start = board("Qh-8h8d-KsKd")[None]
    rng = np.random.default_rng(4)
    cards = unseen(start)
    deck = rng.permutation(cards)
    now, later = deck[:3], deck[3:]
    first = []
    for _ in range(4):  # the same street dealt, other cards to come
        future = np.r_[now, rng.permutation(later)[:6]][None]
        done = LookaheadRollouts(samples=4, seed=2).complete(start, future, (STREET,) * 3,
                                                             PINEAPPLE, FL)[0, 0]
        first.append(tuple(int(np.flatnonzero(done == c)[0]) if (done == c).any() else -1
                           for c in now))
    assert len(set(first)) == 1


def test_the_last_street_is_played_exhaustively_as_the_learned_policy_does():
    fixed = np.stack([board("QhJd-8h8d7c6c-KsKd9c5c4d"), board("Qh-8h8d7c6c5d-KsKd9c5c4d")])
    futures = np.stack([unseen(fixed)[:3], unseen(fixed)[-3:]])
    deep = LookaheadRollouts(samples=2).complete(fixed, futures, (STREET,), PINEAPPLE, FL)
    learned = LearnedRollouts().complete(fixed, futures, (STREET,), PINEAPPLE, FL)
    assert np.array_equal(deep, learned)


def test_it_completes_only_legal_boards_and_falls_back_where_no_value_fits():
    fixed = np.stack([board("Qh-8h8d7c-KsKd9c5c4d"), board("QhJd-8h8d7c-KsKd9c5c")])
    cards = unseen(fixed)
    futures = np.array([cards[:6], cards[-6:]], np.int8)
    done = LookaheadRollouts(samples=2).complete(fixed, futures, (STREET,) * 2, PINEAPPLE, FL)
    assert_completed_legally(fixed, futures, done)
    double = PRESETS["double"]
    assert LearnedRollouts().value_for(double) is None
    fl = fl_table(double, default_fantasyland_value, 2)
    one_shape = fixed[:1]  # best-of-24 completes boards of one free shape
    deep = LookaheadRollouts(samples=2).complete(one_shape, futures, (STREET,) * 2, double, fl)
    learned = LearnedRollouts().complete(one_shape, futures, (STREET,) * 2, double, fl)
    assert np.array_equal(deep, learned)
