"""Long graphs drawn from a few thousand points keep what a screen shows: both ends and every
line's extremes, bucket by bucket (``dashboard.queries.graphs.extremes``), on the Overview's
cumulative graph and the money graph by hand."""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dashboard.queries import overview
from dashboard.queries.common import Filters
from dashboard.queries.graphs import extremes

HERO = "hero"  # the fixture store's player (conftest: fixture_facts)


def _buckets(count: int, lines: int, max_points: int) -> list[range]:
    """The buckets of x :func:`extremes` documents: ``(max_points - 2) // (2 * lines)``
    equal spans of the rows."""
    n = max(1, (max_points - 2) // (2 * lines))
    starts = [k * count // n for k in range(n)] + [count]
    return [range(a, b) for a, b in zip(starts, starts[1:], strict=False)]


walks = st.integers(min_value=1, max_value=3).flatmap(
    lambda lines: st.integers(min_value=2, max_value=400).flatmap(
        lambda count: st.lists(
            st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=count, max_size=count),
            min_size=lines, max_size=lines)))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # 1,200 floats an example
@given(walks, st.integers(min_value=8, max_value=120))
def test_every_bucket_keeps_each_lines_min_and_max_and_both_ends(
        lines: list[list[float]], max_points: int) -> None:
    arrays = [np.cumsum(line) for line in lines]
    count = len(arrays[0])
    keep = extremes(arrays, max_points)
    assert keep.tolist() == sorted(set(keep.tolist()))  # sorted, each row once
    if count <= max_points:
        assert keep.tolist() == list(range(count))
        return
    assert len(keep) <= max_points
    assert keep[0] == 0 and keep[-1] == count - 1
    kept = set(keep.tolist())
    for y in arrays:
        for span in _buckets(count, len(arrays), max_points):
            values = y[span.start:span.stop]
            shown = [y[i] for i in span if i in kept]
            assert min(shown) == values.min() and max(shown) == values.max()


def test_a_line_of_nan_only_is_left_out_and_nan_is_passed_over() -> None:
    total = np.array([0.0, 3, -4, 1, 2, 8, 7, -1, 0, 5])
    missing = np.full(10, np.nan)
    assert extremes([total, missing], 6).tolist() == extremes([total], 6).tolist()
    holes = total.copy()
    holes[[2, 5]] = np.nan  # the minimum and maximum of the buckets gone: the next ones
    assert extremes([holes], 6).tolist() == [0, 1, 6, 7, 9]


def test_a_spike_between_every_kth_hand_is_kept() -> None:
    """The case every k-th point lost: one hand far off the line, anywhere."""
    y = np.zeros(100_000)
    y[54_321] = 1_000.0
    y[77_777] = -500.0
    keep = extremes([np.cumsum(np.diff(y, prepend=0.0))], 2000)
    assert {54_321, 77_777, 0, 99_999} <= set(keep.tolist())
    assert len(keep) <= 2000


@pytest.fixture
def con(fixture_db_path: Path):  # type: ignore[no-untyped-def]
    c = duckdb.connect(str(fixture_db_path), read_only=True)
    yield c
    c.close()


def test_the_cumulative_graph_keeps_its_lines_extremes_and_ends(con) -> None:  # type: ignore[no-untyped-def]
    full = overview.cumulative(con, Filters(player=HERO))
    thin = overview.cumulative(con, Filters(player=HERO), max_points=10)
    assert len(full) > 10 >= len(thin)
    assert (thin.iloc[0].n, thin.iloc[-1].n) == (full.iloc[0].n, full.iloc[-1].n)
    for line in ("total", "without_fl", "royalties", "row_points"):
        assert thin[line].max() == pytest.approx(full[line].max()), line
        assert thin[line].min() == pytest.approx(full[line].min()), line
    # every kept row is the full graph's row at that hand, not a mean of several
    merged = thin.merge(full, on="n", suffixes=("", "_full"))
    assert len(merged) == len(thin)
    assert np.allclose(merged.total, merged.total_full)
    assert (merged.hand_key == merged.hand_key_full).all()
