"""What a Fantasyland hand is worth, measured: points per hand over a normal hand, per
opponent, by ruleset, table size and card count.

``VALUES[preset][players][cards]`` is measured by ``python benchmarks/bench_fl_value.py
--write`` (which rewrites the table below from a seed; see ``docs/fantasyland.md`` for the
definition and the method): what a seat playing a Fantasyland hand of ``cards`` cards gains
over a normal hand at a table of ``players`` seats, divided by its ``players - 1`` opponents
(each opponent pays its share: at a three-handed table a Fantasyland worth 30 points to its
player costs each of the two others 15). :func:`fantasyland_value` reads it; the exact
Fantasyland solver uses :func:`stay_value` as the worth of staying (per opponent, as the
royalties it weighs it against), and the decision review credits a player who enters
Fantasyland with :func:`fantasyland_value` against each opponent, and charges each opponent's
to the player once.

>>> from ofc_core.rules import PRESETS, resolve
>>> fantasyland_value(PRESETS["pineapple"], 14) > 0
True
>>> fantasyland_value(PRESETS["pineapple"], 14, players=3) == VALUES["pineapple"][3][14]
True
>>> fantasyland_value(resolve("pineapple", {"fantasyland": "off"}), 14)
0.0
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ofc_core.rules import Ruleset

# BEGIN MEASURED (written by benchmarks/bench_fl_value.py --write)
VALUES: Mapping[str, Mapping[int, Mapping[int, float]]] = MappingProxyType({
    "regular": MappingProxyType({
        2: MappingProxyType({13: 13.42}),
        3: MappingProxyType({13: 13.42}),
    }),
    "turbo": MappingProxyType({
        2: MappingProxyType({13: 13.37}),
        3: MappingProxyType({13: 13.14}),
    }),
    "pineapple": MappingProxyType({
        2: MappingProxyType({14: 16.93}),
        3: MappingProxyType({14: 16.8}),
    }),
    "progressive-pineapple": MappingProxyType({
        2: MappingProxyType({14: 16.74, 15: 22.69, 16: 28.7, 17: 37.05}),
        3: MappingProxyType({14: 16.69, 15: 23.0, 16: 29.35, 17: 37.04}),
    }),
    "double": MappingProxyType({
        2: MappingProxyType({14: 14.87}),
    }),
})
MEASURED: Mapping[int, str] = MappingProxyType({
    2: "2000 hands per count, seed 1, 2026-12-01",
    3: "4000 hands per count, seed 1, 2026-12-01",
})
# END MEASURED


def fantasyland_value(ruleset: Ruleset, cards: int, players: int = 2) -> float:
    """Points a seat gains from each opponent, over a normal hand, by playing a Fantasyland
    hand of ``cards`` cards under ``ruleset`` at a table of ``players`` seats (its preset's
    measured value; 0 when the ruleset plays without Fantasyland). A card count or a table
    size the preset was not measured at reads the nearest one measured (four-handed reads
    three-handed); a preset not measured (``joker-pineapple``, ``2-7-pineapple``) reads
    pineapple's values, an approximation.

    >>> from ofc_core.rules import PRESETS
    >>> fantasyland_value(PRESETS["regular"], 13, players=4) == fantasyland_value(
    ...     PRESETS["regular"], 13, players=3)
    True
    """
    if not ruleset.fantasyland or cards <= 0:
        return 0.0
    by_players = VALUES.get(ruleset.variant.value, VALUES["pineapple"])
    table = by_players[min(by_players, key=lambda n: (abs(n - players), n))]
    nearest = min(table, key=lambda n: (abs(n - cards), n))
    return float(table[nearest])


def stay_cards(ruleset: Ruleset) -> int:
    """Cards a player who stays in Fantasyland is dealt next (``fl_cards.repeat``, or the
    entry count of the lowest qualifying top)."""
    fl = ruleset.fl_cards
    return fl.repeat if fl.repeat is not None else fl.entry[0][1]


def stay_value(ruleset: Ruleset, players: int = 2) -> float:
    """What staying in Fantasyland is worth under ``ruleset``, per opponent (as the royalties
    a Fantasyland set weighs it against): the value of the Fantasyland hand a stayer is dealt
    next (:func:`fantasyland_value`)."""
    return fantasyland_value(ruleset, stay_cards(ruleset), players)
