"""Benchmark: how often the review finds the same best first five again on fresh deals, and
what it costs, as the rollouts grow (issue 21: "reviewed again on fresh deals, the stored best
is found again in >= 85% of first fives").

The first fives of ``bench_review_quality``'s seeded session (``--seed``, ``--hands``; its
draw of ``2 * --decisions`` decisions, the first fives among them, at most ``--decisions``)
are each reviewed twice, on that benchmark's two seeds (``REVIEW_SEED + i``,
``AGAIN_SEED + i``), by the learned policy at every setting of ``--settings``:
``PRECISION:MAX_ROLLOUTS[:CONFIRM]``, the default first (``0.5:384``; halving the precision
asks about four times the rollouts; ``CONFIRM`` sets :attr:`Precision.confirm`, ``1`` for no
more fresh deals for the close placements). For each setting it prints the share of first fives
with the same best on both seeds, the share with the same best or a tie named on either seed
that holds both bests (``same_or_named_tie``, issue 36's goal: >= 90%), the CPU seconds a
review takes (one core), and what the review of 1,000 three-handed hands would cost at that
setting: ``--budget-cpu`` (the default setting's measured CPU for 1,000 hands,
``bench_review.py``) plus 1,000 first fives times the extra CPU a first five takes.

    python benchmarks/bench_review_stability.py --decisions 60 --seed 7 \\
        --settings 0.5:384,0.5:768:1,0.25:3072

The last line printed is JSON.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # one core: set before numpy loads

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_review_quality import (  # noqa: E402
    AGAIN_SEED,
    POLICIES,
    REVIEW_SEED,
    decisions,
    same_or_named_tie,
)

from ofc_core.play.placements import same_placement  # noqa: E402
from ofc_core.play.review import DEFAULT_PRECISION, Precision, evaluate  # noqa: E402

FIRST_FIVES_PER_1000_HANDS = 1000
"""Hero's first five: one a hand (a Fantasyland hand has none; counted as one: an upper bound)."""


def setting(text: str) -> Precision:
    """``"0.25:3072"`` -> the default precision with that precision and rollout cap;
    ``"0.5:768:1"`` also sets :attr:`Precision.confirm` (1: no more fresh deals for the close
    placements).

    >>> setting("0.5:768:1").confirm
    1
    """
    precision, cap, *confirm = text.split(":")
    chosen = replace(DEFAULT_PRECISION, precision=float(precision), max_rollouts=int(cap))
    return replace(chosen, confirm=int(confirm[0])) if confirm else chosen


def measure(args: argparse.Namespace) -> dict[str, object]:
    firsts = [d for d in decisions(args.hands, 2 * args.decisions, args.seed)
              if d.street == 1][:args.decisions]
    settings = args.settings.split(",")
    stable = dict.fromkeys(settings, 0)
    named = dict.fromkeys(settings, 0)
    cpu = dict.fromkeys(settings, 0.0)
    policy = POLICIES["learned"]
    for i, d in enumerate(firsts):
        for name in settings:
            precision = setting(name)
            start = time.process_time()
            once = evaluate(d.spot, d.chosen, policy=policy, seed=REVIEW_SEED + i,
                            precision=precision)
            again = evaluate(d.spot, d.chosen, policy=policy, seed=AGAIN_SEED + i,
                             precision=precision)
            cpu[name] += time.process_time() - start
            stable[name] += same_placement(once.best.placement, again.best.placement)
            named[name] += same_or_named_tie(once, again)
        print(i + 1, json.dumps({n: [stable[n], named[n], round(cpu[n], 1)] for n in settings}),
              file=sys.stderr, flush=True)
    reviews = 2 * len(firsts)
    base = cpu[settings[0]] / reviews
    return {"benchmark": "review_stability", "seed": args.seed, "first_fives": len(firsts),
            "settings": {n: {"stable": stable[n], "stable_share": round(stable[n] / len(firsts), 3),
                             "same_or_named_tie": named[n],
                             "same_or_named_tie_share": round(named[n] / len(firsts), 3),
                             "cpu_s_per_review": round(cpu[n] / reviews, 3),
                             "cpu_s_1000_hands": round(args.budget_cpu + FIRST_FIVES_PER_1000_HANDS
                                                       * (cpu[n] / reviews - base))}
                         for n in settings}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--settings", default="0.5:384,0.5:768:1")
    parser.add_argument("--budget-cpu", type=float, default=571.0,
                        help="CPU s of 1,000 hands at the first setting (bench_review.py)")
    print(json.dumps(measure(parser.parse_args())))


if __name__ == "__main__":
    main()
