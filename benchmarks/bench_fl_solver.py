"""The exact Fantasyland solver: time per deal by card count, and exactness on many deals.

Times :func:`ofc_core.play.fl_solver.solve_fantasyland` on random deals (pineapple rules for 13
and 14 cards, progressive pineapple for 15-17; staying worth its measured value), one core,
after one warm-up solve per card count (which builds the subsets of that many positions).
Targets: median <= 20 ms for 14 cards, <= 200 ms for 17. Then deals holding one and two jokers
(``joker-pineapple``, 14 cards, ``--joker-deals`` of each). ``--exact N`` also checks N random
14-card deals against the brute force of ``tests/test_fl_solver.py`` (every arrangement), and
``--exact-jokers N`` N random 13-card deals with one and N with two jokers against the brute
force of ``tests/test_fl_jokers.py``.

    python benchmarks/bench_fl_solver.py [--deals 300] [--seed 1] [--exact 0]
        [--joker-deals 100] [--exact-jokers 0]

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from ofc_core.play.fl_solver import solve_fantasyland  # noqa: E402
from ofc_core.rules import PRESETS  # noqa: E402

TARGETS_MS = {14: 20.0, 17: 200.0}


def timing(deals: int, seed: int) -> dict[int, dict[str, float]]:
    out = {}
    for n in range(13, 18):
        ruleset = PRESETS["pineapple" if n <= 14 else "progressive-pineapple"]
        rng = random.Random(seed * 100 + n)
        solve_fantasyland(rng.sample(range(52), n), ruleset)  # warm-up
        times = []
        for _ in range(deals):
            cards = rng.sample(range(52), n)
            start = time.process_time()
            solve_fantasyland(cards, ruleset)
            times.append((time.process_time() - start) * 1000)
        times.sort()
        out[n] = {"median_ms": round(statistics.median(times), 2),
                  "p90_ms": round(times[int(0.9 * len(times))], 2),
                  "max_ms": round(times[-1], 2)}
        print(f"{n} cards: median {out[n]['median_ms']} ms, 90% {out[n]['p90_ms']} ms, "
              f"max {out[n]['max_ms']} ms", file=sys.stderr)
    return out


def joker_timing(deals: int, seed: int) -> dict[int, dict[str, float]]:
    """Median, 90th percentile and max CPU ms of 14-card deals with 1 and 2 jokers."""
    ruleset = PRESETS["joker-pineapple"]
    out = {}
    for jokers in (1, 2):
        rng = random.Random(seed * 10 + jokers)
        times = []
        for _ in range(deals):
            cards = rng.sample(range(52), 14 - jokers) + [52, 53][:jokers]
            start = time.process_time()
            solve_fantasyland(cards, ruleset)
            times.append((time.process_time() - start) * 1000)
        times.sort()
        out[jokers] = {"median_ms": round(statistics.median(times), 2),
                       "p90_ms": round(times[int(0.9 * len(times))], 2),
                       "max_ms": round(times[-1], 2)}
        print(f"14 cards, {jokers} joker(s): median {out[jokers]['median_ms']} ms, 90% "
              f"{out[jokers]['p90_ms']} ms, max {out[jokers]['max_ms']} ms", file=sys.stderr)
    return out


def joker_exactness(deals: int, seed: int) -> dict[str, int]:
    from test_fl_jokers import JOKER, brute_force  # the brute force of the test suite

    rng = random.Random(seed)
    checked = 0
    for jokers in (1, 2):
        for k in range(deals):
            deal = tuple(rng.sample(range(52), 13 - jokers)) + (52, 53)[:jokers]
            stay = rng.choice((0.0, 15.0))
            best = solve_fantasyland(deal, JOKER, stay)
            if not best.exact or best.value != brute_force(deal, JOKER, stay):
                raise AssertionError(f"not exact on {deal} (stay {stay}): {best.compact()}")
            checked += 1
            print(f"{jokers} joker(s): {k + 1} deals exact", file=sys.stderr)
    return {"deals": checked, "cards": 13, "mismatches": 0}


def exactness(deals: int, seed: int) -> dict[str, int]:
    from test_fl_solver import _check  # the brute force and the checks of the test suite

    rng = random.Random(seed)
    ruleset = PRESETS["pineapple"]
    for k in range(deals):
        _check(tuple(rng.sample(range(52), 14)), ruleset, stay=rng.choice((0.0, 12.5, 30.0)))
        if (k + 1) % 100 == 0:
            print(f"{k + 1} deals exact", file=sys.stderr)
    return {"deals": deals, "cards": 14, "mismatches": 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--exact", type=int, default=0)
    parser.add_argument("--joker-deals", type=int, default=100)
    parser.add_argument("--exact-jokers", type=int, default=0)
    args = parser.parse_args()
    result: dict[str, object] = {"benchmark": "fl-solver", "deals": args.deals,
                                 "timing": timing(args.deals, args.seed),
                                 "jokers": joker_timing(args.joker_deals, args.seed),
                                 "targets_ms": TARGETS_MS,
                                 "load_average": round(os.getloadavg()[0], 2)}
    if args.exact:
        result["exact"] = exactness(args.exact, args.seed)
    if args.exact_jokers:
        result["exact_jokers"] = joker_exactness(args.exact_jokers, args.seed)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
