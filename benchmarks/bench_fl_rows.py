"""Benchmark: the Fantasyland solver's objective against the review's value of a set by its rows
(issue 36, point 5; docs/fantasyland.md).

On ``--deals`` seeded 14-card pineapple Fantasyland hands at a three-handed table, the exact
solver (:func:`ofc_core.play.fl_solver.solve_fantasyland`) sets each hand three ways: staying
worth its measured value (the default, what the review compares a set with), worth nothing
(royalties only) and worth twice as much. Each set is valued by the solver's objective
(royalties plus the stay, against each opponent:
:func:`ofc_core.play.fl_rows.fantasyland_set_value`) and by its rows
(:func:`ofc_core.play.fl_rows.set_by_rows`: plus the expected points of its rows and scoops
against the learned value's pool, and the royalties' net). Printed:

- ``rows_part``: the value by rows minus the objective, for the default set (mean, standard
  error, 10th and 90th percentiles): what the objective leaves out;
- ``other_set_better``: how often a set of the other two is worth more by its rows than the
  default's, and by how much on average when it is (the objective and the value disagree);
- ``stays``: how often each set stays in Fantasyland;
- CPU seconds.

Usage: ``python benchmarks/bench_fl_rows.py [--deals 1000] [--seed 1]``; the last line printed
is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ofc_core.play.fl_rows import fantasyland_set_value, set_by_rows  # noqa: E402
from ofc_core.play.fl_solver import solve_fantasyland  # noqa: E402
from ofc_core.play.fl_value import stay_value  # noqa: E402
from ofc_core.play.learned_rollouts import LearnedRollouts  # noqa: E402
from ofc_core.play.rollout import default_fantasyland_value, fl_table  # noqa: E402
from ofc_core.rules import PRESETS  # noqa: E402

PLAYERS = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ruleset = PRESETS["pineapple"]
    fl = fl_table(ruleset, default_fantasyland_value, PLAYERS)
    opponents = PLAYERS - 1
    value = LearnedRollouts().value_for(ruleset)
    stay = float(stay_value(ruleset))
    weights = {"default": stay, "royalties_only": 0.0, "stay_twice": 2 * stay}
    rng = random.Random(args.seed)
    started = time.process_time()
    rows_part, losses, stays = [], [], dict.fromkeys(weights, 0)
    better = 0
    for _ in range(args.deals):
        dealt = tuple(rng.sample(range(52), 14))
        by_rows = {}
        for name, worth in weights.items():
            rows = solve_fantasyland(dealt, ruleset, stay_value=worth).placement.rows
            by_rows[name], facts = set_by_rows(rows, ruleset, fl, opponents, 14, value)
            stays[name] += int(facts.fl)
            if name == "default":
                objective = fantasyland_set_value(rows, ruleset, fl,
                                                  ruleset.scoring.scoop_value * opponents,
                                                  opponents, 14)
                rows_part.append(by_rows[name] - objective)
        gain = max(by_rows.values()) - by_rows["default"]
        if gain > 1e-9:
            better += 1
            losses.append(gain)
    part = np.array(rows_part)
    result = {
        "deals": args.deals,
        "rows_part": {"mean": round(float(part.mean()), 2),
                      "se": round(float(part.std(ddof=1) / np.sqrt(len(part))), 2),
                      "p10": round(float(np.percentile(part, 10)), 2),
                      "p90": round(float(np.percentile(part, 90)), 2)},
        "other_set_better": {"share": round(better / args.deals, 3),
                             "mean_gain": round(float(np.mean(losses)), 2) if losses else 0.0},
        "stays": {k: round(v / args.deals, 3) for k, v in stays.items()},
        "stay_value": round(stay, 2),
        "cpu_s": round(time.process_time() - started, 1),
        "args": vars(args),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
