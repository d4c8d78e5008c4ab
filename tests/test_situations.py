"""Each situation kind of the Review page's leaks (ofc_core/play/situations.py) on hand-worked
positions: one where it holds and one where it does not (the closest miss)."""

from __future__ import annotations

import pytest

from ofc_core.play.situations import SITUATIONS, Spot, situations_of

CASES = {
    # key: (holds, misses); each (board before, dealt, placement, street, kind)
    "dealt_pair": (("--", "9h 9d 2c", "-9h9d-/2c", 2, "street"),
                   ("--", "9h Td 2c", "-9hTd-/2c", 2, "street")),
    "dealt_flush3": (("--", "Ah 9h 5h Kc 2d", "Kc-2d-Ah9h5h", 1, "first five"),
                     ("--", "Ah 9h 5d Kc 2d", "Kc-2d-Ah9h5d", 1, "first five")),
    "dealt_connected": (("--", "9h Tc Jd 2s 2c", "2s2c-9hTcJd-", 1, "first five"),
                        ("--", "9h 2c 6d Kc Kd", "Kc-9h2c-6dKd", 1, "first five")),
    "dealt_joker": (("--", "X1 Ah 2c", "-X1Ah-/2c", 2, "street"),
                    ("--", "Kh Ah 2c", "-KhAh-/2c", 2, "street")),
    "dealt_queens": (("--", "Qh Qd 4c", "QhQd--/4c", 2, "street"),
                     ("--", "Jh Jd 4c", "JhJd--/4c", 2, "street")),
    "top_early": (("--", "Kh 4d 8c 8s 2h", "Kh4d-8c8s-2h", 1, "first five"),
                  ("--", "Kh 4d 8c 8s 2h", "Kh-4d2h-8c8s", 1, "first five")),
    "pair_split": (("--", "8c 8s Ah 4d 2h", "Ah-8c4d-8s2h", 1, "first five"),
                   ("--", "8c 8s Ah 4d 2h", "Ah-4d2h-8c8s", 1, "first five")),
    "fl_chase": (("--", "Qh 9d 8c 7s 2h", "Qh-9d8c7s-2h", 1, "first five"),
                 ("--", "Jh 9d 8c 7s 2h", "Jh-9d8c7s-2h", 1, "first five")),
    "middle_flush_draw": (("-Kh9h-", "4h Ac 2d", "-4h-Ac/2d", 3, "street"),
                          ("-Kh9h-", "4c Ac 2d", "-4c-Ac/2d", 3, "street")),
    "fouled_set": (("--", "", "AhAdKs-Kc2d3c4c5s-QhQd9c8c7s", 1, "fantasyland set"),
                   ("--", "", "2h3d4s-Kc2d3c4c5s-QhQd9c8c7s", 1, "fantasyland set")),
}


def test_every_kind_is_worked_here_and_there_are_at_least_eight():
    assert {s.key for s in SITUATIONS} == set(CASES)
    assert len(SITUATIONS) >= 8
    assert {s.side for s in SITUATIONS} == {"dealt", "played"}


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: s.key)
def test_a_kind_holds_on_its_position_and_not_on_the_closest_miss(situation):
    holds, misses = CASES[situation.key]
    assert situation.test(Spot.parse(*holds))
    assert not situation.test(Spot.parse(*misses))
    assert situation.key in situations_of(*holds)
    assert situation.key not in situations_of(*misses)


def test_a_pair_thrown_away_is_split_and_a_set_is_never_an_early_top_or_chase():
    assert "pair_split" in situations_of("--", "8c 8s Ah", "Ah-8c-/8s", 2, "street")
    kinds = situations_of("--", "", "QhQdKs-2c2d2s4c5s-Ah9h8h7h3h", 1, "fantasyland set")
    assert not kinds & {"top_early", "fl_chase", "pair_split", "fouled_set"}


def test_a_malformed_notation_is_in_no_situation():
    assert situations_of("nonsense", "Qh", "Qh--", 2, "street") == frozenset()
