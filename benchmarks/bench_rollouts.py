"""Benchmark: vectorised rollouts of logged decisions, against the same rollouts one at a time.

Plays a three-handed pineapple session (``careful`` and ``chaser`` bots), takes the decisions of
one seat as its log shows them (``hero_view``), and times on ONE core:

- ``rollouts_per_s``: :func:`ofc_core.play.review.evaluate` on every decision of ``--hands``
  hands at the default precision, rollouts spent (placements x rollouts each, a rollout being
  one completion of every board to showdown, scored by the batch scorer) per CPU second;
- ``block_rollouts_per_s``: one block of ``--block`` rollouts of every placement of a second
  street (27 placements), the steady-state rate;
- ``baseline_rollouts_per_s``: the same rollouts dealt and valued one at a time (blocks of one
  rollout: the cost of a Python loop per rollout), on ``--baseline`` rollouts.

Target: 100,000 rollouts/s. The last line printed is JSON. Usage:
``python benchmarks/bench_rollouts.py [--hands 20] [--block 1024]``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # one core: set before numpy loads

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ofc_core.hand import HandRecord  # noqa: E402
from ofc_core.play.engine import Table  # noqa: E402
from ofc_core.play.placements import free_slots, legal_placements  # noqa: E402
from ofc_core.play.policies import policy  # noqa: E402
from ofc_core.play.positions import Decision, spots_of  # noqa: E402
from ofc_core.play.review import evaluate  # noqa: E402
from ofc_core.play.rollout import SpotRollouts  # noqa: E402
from ofc_core.play.sessions import SessionSpec, hero_view, play_session  # noqa: E402
from ofc_core.rules import PRESETS  # noqa: E402


def session(hands: int, seed: int) -> list[HandRecord]:
    """A three-handed pineapple session as seat ``Hero`` logs it."""
    table = Table(PRESETS["pineapple"], ("Hero", "Anna", "Zoe"),
                  (policy("careful"), policy("chaser"), policy("careful")))
    return [hero_view(h, "Hero") for h in play_session(table, SessionSpec("bench", hands=hands),
                                                       random.Random(seed))]


def decisions(hands: list[HandRecord]) -> list[Decision]:
    return [d for h in hands for d in spots_of(h, "Hero")]


def cpu(fn) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--block", type=int, default=1024)
    parser.add_argument("--baseline", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    found = decisions(session(args.hands, args.seed))
    seconds, evaluations = cpu(lambda: [evaluate(d.spot, d.chosen, seed=k)
                                        for k, d in enumerate(found)])
    spent = sum(e.rollouts for e in evaluations)
    second = next(d for d in found if d.street == 2)
    options = legal_placements(second.spot.dealt, second.spot.place,
                               free_slots(second.spot.hero_seat.board))

    def block() -> None:
        r = SpotRollouts(second.spot, seed=1)
        r.values(options, r.deal(args.block))

    block()  # warm the templates
    block_seconds, _ = cpu(block)

    def one_at_a_time() -> None:
        r = SpotRollouts(second.spot, seed=1)
        for _ in range(args.baseline // len(options) + 1):
            r.values(options, r.deal(1))

    base_seconds, _ = cpu(one_at_a_time)
    base_rollouts = (args.baseline // len(options) + 1) * len(options)
    result = {
        "decisions": len(found), "rollouts": spent, "cpu_s": round(seconds, 2),
        "rollouts_per_s": round(spent / seconds),
        "block_rollouts_per_s": round(args.block * len(options) / block_seconds),
        "baseline_rollouts_per_s": round(base_rollouts / base_seconds),
        "speedup_over_baseline": round(args.block * len(options) / block_seconds
                                       / (base_rollouts / base_seconds), 1),
        "load_average": round(os.getloadavg()[0], 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
