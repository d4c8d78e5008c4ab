"""The learned value of a position and the rollout policy that plays by it (issue 21, points 1
and 2): a seeded training run is reproducible, the shipped value orders hand-worked boards as a
player would, the policy never reads the cards of later streets, and the review never shows a
best valued below the placement played."""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import numpy as np
import pytest

from ingest import review_rows
from ofc_cli import cmd_review
from ofc_cli.cli import main
from ofc_core.board import Board
from ofc_core.play.engine import Table
from ofc_core.play.learned_rollouts import LearnedRollouts, best_options, option_values
from ofc_core.play.policies import policy
from ofc_core.play.positions import spots_of
from ofc_core.play.review import Precision, evaluate
from ofc_core.play.rollout import board_array, default_fantasyland_value, fl_table
from ofc_core.play.sessions import SessionSpec, hero_view, play_session
from ofc_core.play.value import load_value, read_value
from ofc_core.play.value_features import FEATURES, PER_ROW, expand, features, rows_columns
from ofc_core.play.value_train import HIDDEN, SMALL, distill, positions, train
from ofc_core.rules import PRESETS, Street
from tests.helpers.completions import assert_completed_legally

PINEAPPLE = PRESETS["pineapple"]
FL = fl_table(PINEAPPLE, default_fantasyland_value)


def board(text: str) -> np.ndarray:
    """A partial board in the compact notation, as a 13-slot array."""
    b = Board.parse_compact(text)
    top, middle, bottom = (tuple(c.index for c in row) for row in (b.top, b.middle, b.bottom))
    return board_array((top, middle, bottom))


def value_of(*texts: str) -> list[float]:
    value = load_value("pineapple")
    assert value is not None
    boards = np.stack([board(t) for t in texts])
    cards = int((boards[0] >= 0).sum())
    assert all(int((b >= 0).sum()) == cards for b in boards)
    return [float(v) for v in value(boards, cards, PINEAPPLE, FL)]


def test_a_small_seeded_training_is_reproducible(tmp_path: Path):
    a = train("pineapple", hands=60, deals=2, epochs=1, seed=11)
    b = train("pineapple", hands=60, deals=2, epochs=1, seed=11)
    boards = np.stack([board("2c3d-8h8d-KsKd9c"), board("AhAd-2c3d-7s8c9d")])
    for cards in (7,):
        assert np.array_equal(a.value(boards, cards, PINEAPPLE, FL),
                              b.value(boards, cards, PINEAPPLE, FL))
    assert all(r.positions > 0 and np.isfinite(r.rmse) for r in a.reports)
    path = tmp_path / "v.npz"
    assert main(["train-value", "--variant", "pineapple", "--out", str(path), "--seed", "11",
                 "--hands", "60", "--deals", "2", "--epochs", "1"]) == 0
    saved = read_value(path)
    assert np.allclose(saved(boards, 7, PINEAPPLE, FL), a.value(boards, 7, PINEAPPLE, FL),
                       atol=1e-4)
    assert saved.meta["seed"] == 11 and saved.meta["hands"] == 60


def test_a_small_training_ships_small_networks_distilled_from_its_teacher():
    teacher = train("pineapple", hands=40, deals=2, epochs=1, seed=11, small=False).value
    student = train("pineapple", hands=40, deals=2, epochs=1, seed=11).value
    assert teacher.meta["hidden"] == list(HIDDEN) and "distilled_from" not in teacher.meta
    assert (student.meta["hidden"], student.meta["distilled_from"]) == (list(SMALL), list(HIDDEN))
    assert all(np.array_equal(a, b) for a, b in zip(student.pool.rows, teacher.pool.rows,
                                                     strict=True))
    for cards, net in student.networks.items():
        assert [w.shape[1] for w, _ in net.layers] == [*SMALL, 1]
        assert [w.shape[1] for w, _ in teacher.networks[cards].layers] == [*HIDDEN, 1]


def test_distilled_networks_follow_their_teachers_values():
    """Distilled from a trained teacher (turbo's shipped value) on 60 hands' positions, each
    small network's held-out error against the teacher's values is under half their spread."""
    teacher = load_value("turbo")
    assert teacher is not None and teacher.meta["hidden"] == list(HIDDEN)
    boards, _ = positions(PRESETS["turbo"], 60, 11)
    reports = distill(teacher, boards, np.random.default_rng(11)).reports
    assert sorted(r.cards for r in reports) == [5, 9]
    assert all(r.positions > 300 and r.rmse < 0.5 * r.spread for r in reports)


def test_train_value_refuses_what_it_cannot_train(tmp_path: Path, capsys):
    assert main(["train-value", "--variant", "double", "--out", str(tmp_path / "v.npz")]) == 2
    assert "not trainable" in capsys.readouterr().err
    assert main(["train-value", "--variant", "nope", "--out", str(tmp_path / "v.npz")]) == 2
    assert "unknown preset" in capsys.readouterr().err
    assert main(["train-value", "--variant", "pineapple", "--out",
                 str(tmp_path / "no" / "v.npz")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_features_read_the_rows():
    f = features(np.stack([board("QhQd-8h8d8c-AsKsQsJs"), board("--")]))
    assert f.shape == (2, FEATURES)
    assert f[1].sum() == pytest.approx(1.0 + 3 * 1.0)  # empty: free share 1 per row, and total
    assert f[0, PER_ROW + 13 + 3] == 1  # the middle holds trips


def _row_by_hand(ranks: list[int], suits: list[int], size: int) -> tuple[list[float], int]:
    """A row's 13 summaries and made category, worked out rank by rank (the features'
    definition, without the rank-mask lookups)."""
    held = sum(ranks)
    pairs, trips, quads = (sum(c == k for c in ranks) for k in (2, 3, 4))
    top_rank = [max((k + 1 for k, c in enumerate(ranks) if c >= at), default=0) for at in (2, 3, 1)]
    present = [c > 0 for c in ranks]
    windows = [[12, 0, 1, 2, 3]] + [list(range(k, k + 5)) for k in range(9)]
    window = max(sum(present[k] for k in w) for w in windows)
    five, longest = size == 5, max(suits)
    unpaired = pairs + trips + quads == 0
    flush_live = five and held > 0 and longest == held
    straight_live = five and held > 0 and unpaired and window == held
    category = max(min(pairs, 2), 3 * (trips >= 1), 4 * (five and window == 5),
                   5 * (five and longest == 5), 6 * (trips >= 1 and pairs >= 1), 7 * (quads >= 1))
    return [held / size, (size - held) / size, pairs, trips, quads, top_rank[0] / 13,
            top_rank[1] / 13, top_rank[2] / 13, longest / 5, flush_live, straight_live,
            window / 5, category / 7], category


def test_each_rows_summaries_are_the_hand_worked_ones():
    """The rows' summaries (read by rank-mask lookups, three rows at once) equal the ones
    worked out rank by rank, on random rows of up to 7 cards (a street's options that overfill
    a row are valued too, then dropped)."""
    rng = np.random.default_rng(7)
    n = 400
    ranks = np.zeros((3, 13, n), np.int8)
    suits = np.zeros((3, 4, n), np.int8)
    for r in range(3):
        for b in range(n):
            for card in rng.permutation(52)[:rng.integers(0, 8)]:
                ranks[r, card >> 2, b] += 1
                suits[r, card & 3, b] += 1
    columns, category, _ = rows_columns(ranks, suits, None, False)
    for r, size in enumerate((3, 5, 5)):
        for b in range(n):
            summaries, made = _row_by_hand(ranks[r, :, b].tolist(), suits[r, :, b].tolist(), size)
            assert columns[r, 13:PER_ROW, b].tolist() == np.float32(summaries).tolist()
            assert category[r, b] == made


def test_the_shipped_value_orders_hand_worked_boards():
    # A fouling-bound board (aces on top, nothing below) is worth less than a sound one.
    sound, fouling = value_of("2c3d-8h8d4s-KsKd9c5h", "AhAd-2c3d4s-7s8c9d5h")
    assert sound > fouling
    # Queens on top over a middle of two pair and bottom trips: Fantasyland, worth more than
    # the same board with a low top.
    fl, low = value_of("QhQd2c-8h8d5c5s-KsKdKc7s", "4h3d2c-8h8d5c5s-KsKdKc7s")
    assert fl > low + 5
    # A finished board that fouls is worth less than the same cards set legally.
    legal, foul = value_of("2c3d4h-8h8d5c5s9s-KsKdKc7s6s", "8h8d4h-2c3d5c5s9s-KsKdKc7s6s")
    assert legal > foul + 6
    # First five: the pair of kings on the bottom beats them split across the rows.
    bottom, split = value_of("-7c4s-KhKd2h", "Kh-7c4s-Kd2h")
    assert bottom > split


def test_the_policy_never_looks_at_later_cards():
    start = board("Qh-8h8d-KsKd")[None]
    streets = (Street(3, 2), Street(3, 2), Street(3, 2))
    rng = np.random.default_rng(4)
    unseen = np.array([c for c in range(52) if c not in set(start[0].tolist())], np.int8)
    for _ in range(5):
        deck = rng.permutation(unseen)
        now, later = deck[:3], deck[3:]
        futures = np.stack([np.r_[now, rng.permutation(later)[:6]] for _ in range(8)])
        done = LearnedRollouts().complete(start, futures, streets, PINEAPPLE, FL)[0]
        # where each of this street's cards went (slot, or -1 discarded): the same in all
        placed = [[int(np.flatnonzero(b == c)[0]) if (b == c).any() else -1 for c in now]
                  for b in done]
        assert all(p == placed[0] for p in placed)
        value = load_value("pineapple")
        assert value is not None
        alone, _ = best_options(start, now[None], 2, value, PINEAPPLE, FL)
        assert [int(np.flatnonzero(alone[0] == c)[0]) if (alone[0] == c).any() else -1
                for c in now] == placed[0]


def test_every_option_of_a_street_fits_where_the_rows_have_room():
    start = board("QhJd-8h8d7c6c5c-KsKd")[None]  # middle full, top and bottom open
    after, fits = expand(start, np.array([[0, 1, 2]], np.int8), 2)
    assert int(fits.sum()) == 3 * 3  # keep 2 of 3: top-bottom, bottom-top or both bottom
    for b in after[0][fits[0]]:
        assert sorted(b[b >= 0].tolist()) != sorted(start[0][start[0] >= 0].tolist())
        assert (b >= 0).sum() == 11


def test_the_learned_policy_completes_only_legal_boards():
    fixed = np.stack([board("Qh-8h8d7c-KsKd9c"), board("Qh-8h8d-KsKd9c7c")])
    unseen = [c for c in range(52) if c not in set(fixed[0].tolist())]
    futures = np.array([unseen[:9], unseen[-9:]], np.int8)
    done = LearnedRollouts().complete(fixed, futures, (Street(3, 2),) * 3, PINEAPPLE, FL)
    assert_completed_legally(fixed, futures, done)


def test_ofc_review_names_the_policy_that_played():
    learned = LearnedRollouts()
    assert review_rows.policy_name(learned, PINEAPPLE) == "learned-pineapple"
    assert review_rows.policy_name(learned, PRESETS["regular"]) == "learned-regular"
    assert review_rows.policy_name(learned, PRESETS["double"]) == "best-of-24"
    assert "learned" in cmd_review.POLICIES


def test_the_best_shown_is_never_valued_below_the_played_placement():
    table = Table(PINEAPPLE, ("a", "b", "c"), tuple(policy("careful") for _ in range(3)))
    records = play_session(table, SessionSpec("s", hands=3), random.Random(8))
    quick = Precision(precision=1.0, max_rollouts=48)
    checked = 0
    for record in records:
        for d in spots_of(hero_view(record, "a"), "a"):
            if d.street not in (2, 3):
                continue
            e = evaluate(d.spot, d.chosen, policy=LearnedRollouts(), precision=quick, seed=3)
            assert e.best.ev >= e.chosen.ev
            checked += 1
    assert checked >= 4


def test_ofc_review_with_the_learned_policy_stores_its_name(tmp_path: Path):
    log, db = tmp_path / "s.jsonl", tmp_path / "s.duckdb"
    assert main(["simulate", "--variant", "pineapple", "--players", "2", "--hands", "1",
                 "--seed", "3", "--perspective", "hero", "--hero", "Hero",
                 "--out", str(log)]) == 0
    assert main(["import", str(log), "--db", str(db)]) == 0
    assert main(["review", "--db", str(db), "--player", "Hero", "--policy", "learned",
                 "--rollouts", "24"]) == 0
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT street, policy, best_ev >= chosen_ev FROM decisions "
                       "ORDER BY street").fetchall()
    con.close()
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5]
    assert {r[1] for r in rows} == {"learned-pineapple"} and all(r[2] for r in rows)


def test_only_the_placements_the_value_rates_highest_are_rolled_out():
    """Issue 21, point 2: before any rollout the learned value rates every placement's board;
    only the best ``Precision.shortlist`` of them, the best ``Precision.ahead`` by that value
    one street ahead (sampled next deals), and the chosen one are rolled out."""
    from ofc_core.play.lookahead import ahead_values
    from ofc_core.play.placements import apply, free_slots, legal_placements
    from ofc_core.play.review import Precision, _shortlist
    from ofc_core.play.rollout import SpotRollouts

    table = Table(PINEAPPLE, ("a", "b", "c"), tuple(policy("careful") for _ in range(3)))
    record = play_session(table, SessionSpec("s", hands=1), random.Random(9))[0]
    d = next(d for d in spots_of(hero_view(record, "a"), "a") if d.street == 1)
    placements = legal_placements(d.spot.dealt, 5, free_slots(d.spot.hero_seat.board))
    chosen = next(i for i, p in enumerate(placements)
                  if sorted(p.top) == sorted(d.chosen.top)
                  and sorted(p.middle) == sorted(d.chosen.middle))
    learned = SpotRollouts(d.spot, LearnedRollouts(), seed=1)
    kept = _shortlist(learned, placements, chosen, Precision(ahead=0))
    assert chosen in kept and len(kept) in (8, 9) and len(placements) == 232
    boards = np.stack([board_array(apply(d.spot.hero_seat.board, p)) for p in placements])
    fl = fl_table(PINEAPPLE, default_fantasyland_value, 3)
    prior = LearnedRollouts().prior(boards, PINEAPPLE, fl)
    assert prior is not None
    dropped = [a for a in range(len(placements)) if a not in kept]
    assert min(prior[a] for a in kept if a != chosen) >= max(prior[a] for a in dropped)
    assert _shortlist(SpotRollouts(d.spot, seed=1), placements, chosen, Precision()) == list(
        range(232))
    value = load_value("pineapple")
    assert value is not None
    ahead = ahead_values(boards, d.spot.hero_seat.streets[0], np.array(d.spot.unseen(), np.int8),
                         16, np.random.default_rng(1), value, PINEAPPLE, fl)
    wider = _shortlist(learned, placements, chosen, Precision())
    best_ahead = set(np.argsort(-ahead, kind="stable")[:4].tolist())
    assert not best_ahead <= set(kept)  # the lookahead adds a placement here
    assert set(wider) == set(kept) | best_ahead and len(wider) <= 13


def _dealt_boards(rng: np.random.Generator, cards: int, dealt: int, n: int, deck: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random boards of ``cards`` cards (rows filled from the left, as play fills them)
    and ``dealt`` more cards for each, from a deck of ``deck`` cards."""
    boards = np.full((n, 13), -1, np.int8)
    hands = np.empty((n, dealt), np.int8)
    for i in range(n):
        cards_left = rng.permutation(deck).astype(np.int8)
        while True:
            split = rng.multinomial(cards, [3 / 13, 5 / 13, 5 / 13])
            if (split <= [3, 5, 5]).all():
                break
        at = 0
        for start, k in zip((0, 3, 8), split, strict=True):
            boards[i, start:start + k] = cards_left[at:at + k]
            at += k
        hands[i] = cards_left[at:at + dealt]
    return boards, hands


@pytest.mark.parametrize("variant", ["pineapple", "joker-pineapple", "2-7-pineapple",
                                     "regular"])
def test_a_street_valued_row_by_row_is_the_whole_boards_value(variant: str):
    """Every option of a street valued row by row (value_street) against the same boards laid
    whole (expand) and valued by the network: the same options fit, the values agree within
    float32 rounding (2e-3 points; the last street exactly), the same option is best wherever
    it leads by more than that, and the board laid for it is the whole board."""
    value = load_value(variant)
    assert value is not None
    ruleset = PRESETS[variant]
    fl = fl_table(ruleset, default_fantasyland_value)
    rng = np.random.default_rng(7)
    streets = [(0, 5, 5)] + ([(c, 1, 1) for c in (5, 8, 11)] if variant == "regular"
                             else [(c, 3, 2) for c in (5, 7, 9, 11)])
    for cards, dealt, place in streets:
        boards, hands = _dealt_boards(rng, cards, dealt, 60, 52 + ruleset.jokers)
        after, fits = expand(boards, hands, place)
        whole = np.full(fits.shape, -np.inf)
        whole[fits] = value(after[fits], cards + place, ruleset, fl)
        fast, _ = option_values(boards, hands, place, value, ruleset, fl)
        assert (np.isfinite(fast) == fits).all()
        if cards + place == 13:  # the last street: the exact terminal value, the same numbers
            assert (fast[fits] == whole[fits]).all()
        else:
            assert np.abs(fast[fits] - whole[fits]).max() < 2e-3
            top2 = np.sort(whole, axis=1)[:, -2:]
            clear = top2[:, 1] - top2[:, 0] > 4e-3
            assert (fast.argmax(axis=1) == whole.argmax(axis=1))[clear].all()
            assert clear.mean() > 0.9
        laid, best = best_options(boards, hands, place, value, ruleset, fl)
        picked = after[np.arange(len(boards)), fast.argmax(axis=1)]
        assert (laid == picked).all() and np.allclose(best, fast.max(axis=1))
