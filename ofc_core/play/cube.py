"""The doubling cube of OFC Double, decided by the score: offer when leading by a margin,
accept unless trailing by more than a margin."""

from __future__ import annotations

from ofc_core.play.engine import CubeView


def offers_by_score(cube: CubeView, lead: float) -> bool:
    """Offer when ahead by ``lead`` points or more and the match is not yet decided.

    >>> offers_by_score(CubeView(20, 9, 31, 1), 10)
    True
    """
    return cube.score - cube.opponent_score >= lead and cube.score < cube.target


def accepts_by_score(cube: CubeView, deficit: float) -> bool:
    """Accept unless behind by more than ``deficit`` points.

    >>> accepts_by_score(CubeView(5, 25, 31, 2), 12)
    False
    """
    return cube.opponent_score - cube.score <= deficit
