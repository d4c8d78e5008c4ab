"""The close ones' fresh deals (``review_eval._settle_close``): doubled while the fresh best
cannot be told from another placement, until each close one's paired standard error is below
``Precision.tie_se`` (a tie to within a point) or the cap."""

from __future__ import annotations

import numpy as np

from ofc_core.play.review import DEFAULT_PRECISION
from ofc_core.play.review_eval import _settle_close


class _Stub:
    """Rollouts whose values per deal are given by ``shift``: placement ``p`` is worth the
    deal's luck plus ``shift[p]`` plus its own noise of spread ``noise[p]``."""

    def __init__(self, shift: dict[str, float], noise: dict[str, float]) -> None:
        self.shift, self.noise = shift, noise
        self.rng = np.random.default_rng(5)
        self.blocks: list[int] = []

    def deal(self, n: int) -> int:
        self.blocks.append(n)
        return len(self.blocks) - 1

    def values_and_facts(self, placements: list[str], block: int
                         ) -> tuple[np.ndarray, np.ndarray]:
        n = self.blocks[block]
        luck = self.rng.normal(0.0, 6.0, n)
        values = np.stack([luck + self.shift[p] + self.rng.normal(0.0, self.noise[p], n)
                           for p in placements])
        return values, np.zeros((len(placements), n, 4))


def _spent(stub: _Stub, tie_se: float, n: int = 96, cap: int = 1536) -> int:
    placements = list(stub.shift)
    first = stub.values_and_facts(placements, stub.deal(n))[0]
    fresh = {a: first[a] for a in range(len(placements))}
    facts = {a: np.zeros((n, 4)) for a in fresh}
    return _settle_close(stub, placements, (fresh, facts), 2, n, cap, 2.0, tie_se)  # type: ignore[arg-type]


def test_a_placement_worth_the_same_on_every_deal_is_a_tie_at_once() -> None:
    """The best and a placement with the same value on every deal (no noise of their own):
    their paired error is 0, so no more deals; without the stop they were dealt to the cap."""
    same = {"best": 1.0, "twin": 1.0, "chosen": -2.0}
    quiet = {"best": 0.0, "twin": 0.0, "chosen": 1.0}
    assert _spent(_Stub(same, quiet), DEFAULT_PRECISION.tie_se) == 0
    assert _spent(_Stub(same, quiet), 0.0) == 3 * (96 + 192 + 384 + 768)


def test_a_close_one_still_noisy_gets_more_deals() -> None:
    """Two placements 0.1 points apart whose difference has a spread of 2.8 points (a paired
    error of 0.29 on 96 deals): more deals, until the error is below a quarter of a point or
    one of them is left behind."""
    shift = {"best": 1.0, "close": 0.9, "chosen": -2.0}
    noise = {"best": 2.0, "close": 2.0, "chosen": 1.0}
    spent = _spent(_Stub(shift, noise), DEFAULT_PRECISION.tie_se)
    assert spent >= 3 * 96
