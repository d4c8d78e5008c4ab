"""What a Fantasyland hand is worth, measured: points per hand over a normal hand, by ruleset
and card count.

``VALUES[preset][cards]`` is measured by ``python benchmarks/bench_fl_value.py --write``
(which rewrites the table below from a seed; see ``docs/fantasyland.md`` for the definition
and the method). :func:`fantasyland_value` reads it; the exact Fantasyland solver uses
:func:`stay_value` as the worth of staying, and the decision review credits a player who
enters Fantasyland with :func:`fantasyland_value`.

>>> from ofc_core.rules import PRESETS, resolve
>>> fantasyland_value(PRESETS["pineapple"], 14) > 0
True
>>> fantasyland_value(resolve("pineapple", {"fantasyland": "off"}), 14)
0.0
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ofc_core.rules import Ruleset

# BEGIN MEASURED (written by benchmarks/bench_fl_value.py --write)
VALUES: Mapping[str, Mapping[int, float]] = MappingProxyType({
    "regular": MappingProxyType({13: 13.42}),
    "turbo": MappingProxyType({13: 13.37}),
    "pineapple": MappingProxyType({14: 16.93}),
    "progressive-pineapple": MappingProxyType({14: 16.74, 15: 22.69, 16: 28.7, 17: 37.05}),
    "double": MappingProxyType({14: 14.87}),
})
MEASURED = "2000 hands per count, seed 1, 2026-12-01"
# END MEASURED


def fantasyland_value(ruleset: Ruleset, cards: int) -> float:
    """Points a seat gains, over a normal hand, by playing a Fantasyland hand of ``cards``
    cards under ``ruleset`` (its preset's measured value; 0 when the ruleset plays without
    Fantasyland). A card count the preset never deals reads the nearest count measured.
    """
    if not ruleset.fantasyland or cards <= 0:
        return 0.0
    table = VALUES.get(ruleset.variant.value) or _closest_table(ruleset)
    nearest = min(table, key=lambda n: (abs(n - cards), n))
    return float(table[nearest])


def _closest_table(ruleset: Ruleset) -> Mapping[int, float]:
    """For a preset not measured (``joker-pineapple``, ``2-7-pineapple``): the first measured
    table holding the most of its Fantasyland card counts (an estimate, not a measure)."""
    counts = {n for _, n in ruleset.fl_cards.entry} | {ruleset.fl_cards.both or 0}
    return max(VALUES.values(), key=lambda table: len(counts & set(table)))


def stay_cards(ruleset: Ruleset) -> int:
    """Cards a player who stays in Fantasyland is dealt next (``fl_cards.repeat``, or the
    entry count of the lowest qualifying top)."""
    fl = ruleset.fl_cards
    return fl.repeat if fl.repeat is not None else fl.entry[0][1]


def stay_value(ruleset: Ruleset) -> float:
    """What staying in Fantasyland is worth under ``ruleset``: the value of the Fantasyland
    hand a stayer is dealt next (:func:`fantasyland_value`)."""
    return fantasyland_value(ruleset, stay_cards(ruleset))
