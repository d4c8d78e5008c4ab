"""The ``random`` bot: a uniformly random legal move (random discard, random free slots);
a Fantasyland hand is still set by the exact solver.

>>> from ofc_core.rules import PRESETS
>>> from ofc_core.play.engine import View
>>> v = View(PRESETS["pineapple"], 1, 4, (0, 1, 2), 2, ((), (), ()), ())
>>> len(RandomPolicy().place(v, random.Random(0)).discard)
1
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ofc_core.play.engine import CubeView, Placement, View
from ofc_core.play.fl_solver import set_fantasyland


@dataclass(frozen=True)
class RandomPolicy:
    """A uniformly random legal move; Fantasyland is still set well; the cube at random."""

    name: str = "random"

    def place(self, view: View, rng: random.Random) -> Placement:
        if view.fantasyland:
            return set_fantasyland(view.dealt, view.ruleset)
        cards = list(view.dealt)
        rng.shuffle(cards)
        slots = [row for row, free in enumerate(view.free) for _ in range(free)]
        rows: tuple[list[int], list[int], list[int]] = ([], [], [])
        for row, card in zip(rng.sample(slots, view.place), cards, strict=False):
            rows[row].append(card)
        return Placement(tuple(rows[0]), tuple(rows[1]), tuple(rows[2]),
                         tuple(cards[view.place:]))

    def offers_double(self, cube: CubeView, rng: random.Random) -> bool:
        return rng.random() < 0.15

    def accepts_double(self, cube: CubeView, rng: random.Random) -> bool:
        return rng.random() < 0.7
