"""The Fantasyland value table: one value per opponent per preset, table size and Fantasyland
card count, read by ``fantasyland_value`` (0 without Fantasyland), and the measurement that
writes it runs and obeys its definition on a small seeded sample
(``benchmarks/bench_fl_value.py``), heads-up and three-handed."""

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
    """Per table size the preset allows, up to three-handed."""
    ruleset = PRESETS[variant]
    counts = {n for _, n in ruleset.fl_cards.entry} | {stay_cards(ruleset)}
    sizes = set(range(ruleset.min_players, min(ruleset.max_players, 3) + 1))
    assert set(VALUES[variant]) == sizes
    for players in sizes:
        assert set(VALUES[variant][players]) == counts
        for n in counts:
            assert fantasyland_value(ruleset, n, players) == VALUES[variant][players][n] > 0
        assert stay_value(ruleset, players) == VALUES[variant][players][stay_cards(ruleset)]


@pytest.mark.parametrize("players", [2, 3])
def test_more_cards_are_worth_more_in_progressive(players) -> None:
    values = VALUES["progressive-pineapple"][players]
    assert values[14] < values[15] < values[16] < values[17]


def test_presets_not_measured_read_pineapple() -> None:
    for variant in set(PRESETS) - set(VALUES):
        for players in (2, 3):
            assert fantasyland_value(PRESETS[variant], 14, players) == \
                VALUES["pineapple"][players][14]


def test_no_fantasyland_no_value_and_overrides_read_the_preset() -> None:
    assert fantasyland_value(resolve("pineapple", {"fantasyland": "off"}), 14) == 0.0
    assert fantasyland_value(resolve("pineapple", {"scoring": "2-4"}), 14) == \
        VALUES["pineapple"][2][14]
    assert fantasyland_value(PRESETS["pineapple"], 0) == 0.0
    assert set(fl_value.MEASURED) == {2, 3} and all(fl_value.MEASURED.values())


@pytest.mark.parametrize("players", [2, 3])
def test_the_measurement_follows_its_definition(players) -> None:
    """V(n) = F(n) - B + P(n) V(r) - E[V(entry)] over the seat's ``players - 1`` opponents,
    stored per opponent, from the means it reports, on one round."""
    bench = _bench()
    result = bench.measure("pineapple", hands=30, seed=3, iterations=1, players=players)
    ruleset = PRESETS["pineapple"]
    row = result["hands"][14]
    opponents = players - 1
    repeat = opponents * fl_value.fantasyland_value(ruleset, 14, players)
    entry = result["baseline_enters"] * repeat
    expected = row["points"] - result["baseline_points"] + row["stays"] * repeat - entry
    assert result["players"] == players
    assert result["values"][14] == pytest.approx(expected / opponents, abs=0.02)
