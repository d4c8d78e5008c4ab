"""Checks shared by the tests of rollout policies (tests/test_value.py, tests/test_lookahead.py)."""

from __future__ import annotations

import numpy as np


def assert_completed_legally(fixed: np.ndarray, futures: np.ndarray, done: np.ndarray) -> None:
    """Each of ``(m, 13)`` ``fixed`` boards completed on each of ``(n, D)`` ``futures`` (``done``:
    ``(m, n, 13)``) is a full board of 13 distinct cards that keeps the fixed cards and adds
    only cards of its future."""
    for a in range(len(fixed)):
        for r in range(len(futures)):
            b = done[a, r]
            assert (b >= 0).all() and len(set(b.tolist())) == 13
            assert set(fixed[a][fixed[a] >= 0].tolist()) <= set(b.tolist())
            assert set(b.tolist()) - set(fixed[a].tolist()) <= set(futures[r].tolist())
