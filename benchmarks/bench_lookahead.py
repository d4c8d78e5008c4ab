"""Benchmark: how much better the deep reference's player (a one-street lookahead,
:class:`ofc_core.play.lookahead.LookaheadRollouts`) plays the rest of a hand than the review's
own rollout policy (the learned value, greedy:
:class:`ofc_core.play.learned_rollouts.LearnedRollouts`).

Hero's decisions are drawn as ``bench_review_quality.py`` draws them (a seeded three-handed
pineapple session; half first fives, half streets 2-3). From each, after the placement Hero
played, Hero's rest of the hand is played once by each policy on the same ``--deals`` deals,
the opponents' by the learned policy (the same boards for both). Printed per decision and in
all: Hero's points by the lookahead minus by the learned policy (mean and standard error over
decisions), and the CPU seconds of each.

Usage: ``python benchmarks/bench_lookahead.py [--decisions 20] [--deals 300] [--samples 32]``
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # one core: set before numpy loads

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_review_quality import decisions, mean_se  # noqa: E402

from ofc_core.play.learned_rollouts import LearnedRollouts  # noqa: E402
from ofc_core.play.lookahead import LookaheadRollouts  # noqa: E402
from ofc_core.play.rollout import SpotRollouts  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    gains, cpu = [], {"learned": 0.0, "lookahead": 0.0}
    for i, d in enumerate(decisions(args.hands, args.decisions, args.seed)):
        rollouts = SpotRollouts(d.spot, LearnedRollouts(), seed=i)
        block = rollouts.deal(args.deals)  # the opponents' boards, by the learned policy
        start = time.process_time()
        learned = rollouts.values([d.chosen], block)[0]
        cpu["learned"] += time.process_time() - start
        rollouts.policy = LookaheadRollouts(samples=args.samples, seed=i)
        start = time.process_time()
        deep = rollouts.values([d.chosen], block)[0]
        cpu["lookahead"] += time.process_time() - start
        gain = deep - learned
        gains.append(float(gain.mean()))
        print(i, d.street, round(gains[-1], 2),
              round(float(gain.std(ddof=1) / np.sqrt(len(gain))), 2), flush=True)
    print(json.dumps({"lookahead_minus_learned": mean_se(gains),
                      "cpu_s": {k: round(v, 1) for k, v in cpu.items()}, "args": vars(args),
                      "load_average": round(os.getloadavg()[0], 1)}))


if __name__ == "__main__":
    main()
