"""The Fantasyland value table: one value per preset and Fantasyland card count, read by
``fantasyland_value`` (0 without Fantasyland), and the measurement that writes it runs and obeys
its definition on a small seeded sample (``benchmarks/bench_fl_value.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from ofc_core.play import fl_value
from ofc_core.play.fl_value import VALUES, fantasyland_value, stay_cards, stay_value
from ofc_core.rules import PRESETS, resolve

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_fl_value",
                                                  ROOT / "benchmarks" / "bench_fl_value.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_fl_value"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("variant", list(VALUES))
def test_every_fantasyland_card_count_has_a_measured_value(variant) -> None:
    ruleset = PRESETS[variant]
    counts = {n for _, n in ruleset.fl_cards.entry} | {stay_cards(ruleset)}
    assert set(VALUES[variant]) == counts
    for n in counts:
        assert fantasyland_value(ruleset, n) == VALUES[variant][n] > 0
    assert stay_value(ruleset) == VALUES[variant][stay_cards(ruleset)]


def test_more_cards_are_worth_more_in_progressive() -> None:
    values = VALUES["progressive-pineapple"]
    assert values[14] < values[15] < values[16] < values[17]


def test_presets_not_measured_read_pineapple() -> None:
    for variant in set(PRESETS) - set(VALUES):
        assert fantasyland_value(PRESETS[variant], 14) == VALUES["pineapple"][14]


def test_no_fantasyland_no_value_and_overrides_read_the_preset() -> None:
    assert fantasyland_value(resolve("pineapple", {"fantasyland": "off"}), 14) == 0.0
    assert fantasyland_value(resolve("pineapple", {"scoring": "2-4"}), 14) == \
        VALUES["pineapple"][14]
    assert fantasyland_value(PRESETS["pineapple"], 0) == 0.0
    assert fl_value.MEASURED != "placeholder"


def test_the_measurement_follows_its_definition() -> None:
    """V(n) = F(n) - B + P(n) V(r) - E[V(entry)], from the means it reports, on one round."""
    bench = _bench()
    result = bench.measure("pineapple", hands=30, seed=3, iterations=1)
    ruleset = PRESETS["pineapple"]
    row = result["hands"][14]
    repeat = fl_value.fantasyland_value(ruleset, 14)
    entry = result["baseline_enters"] * repeat
    expected = row["points"] - result["baseline_points"] + row["stays"] * repeat - entry
    assert result["values"][14] == pytest.approx(expected, abs=0.02)
