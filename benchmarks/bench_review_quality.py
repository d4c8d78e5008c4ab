"""Benchmark: how good the review's advice is, under the old (clairvoyant best-of-24) and the
new (learned, non-clairvoyant) rollout policy. A seeded, small version of issue 21 point 4.

A seeded three-handed pineapple session (``careful``, ``chaser``, ``careful``; the log as
Hero's room writes it) is played; ``--decisions`` of Hero's decisions are drawn from it at
random, half first fives and half from streets 2-3 (alternating; a summary of the decisions so
far is printed every 4). Each decision is reviewed by each policy
(``ofc_core.play.review.evaluate``, default precision) twice, on two seeds, and then:

- **reference**: the placement played and each policy's best are valued on ``--deals`` common
  deals by a reference that sees no future and owes nothing to either policy: every seat plays
  every remaining street with the ``careful`` bot (``BotRollouts``). Printed: each best minus
  the played placement (points, mean and standard error over decisions), and, where a policy
  claims a loss of 1 point or more, how often the reference agrees that its best beats the
  placement played;
- **style** (first fives): the share of bests with 2 or more cards on top, the share that keep
  a dealt pair on the bottom (of the first fives dealt a pair), the share with a dealt ace on
  top (of those dealt one);
- **stability**: the share of decisions whose best is the same on the second seed;
- the CPU seconds of each policy's reviews.

The reference's own best (picked on half the deals, measured on the other half) is not
computed here: the ``careful`` reference is too slow in Python to value all 232 first fives.
Usage: ``python benchmarks/bench_review_quality.py [--decisions 40] [--deals 300] [--hands
200] [--seed 5]``; the last line printed is JSON.
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

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ofc_core.play.engine import Placement, Table  # noqa: E402
from ofc_core.play.learned_rollouts import LearnedRollouts  # noqa: E402
from ofc_core.play.placements import same_placement  # noqa: E402
from ofc_core.play.policies import policy  # noqa: E402
from ofc_core.play.positions import Decision, spots_of  # noqa: E402
from ofc_core.play.review import Evaluation, evaluate  # noqa: E402
from ofc_core.play.rollout import BestOfK, BotRollouts, RolloutPolicy, SpotRollouts  # noqa: E402
from ofc_core.play.sessions import SessionSpec, hero_view, play_session  # noqa: E402
from ofc_core.rules import PRESETS  # noqa: E402

POLICIES: dict[str, RolloutPolicy] = {"old": BestOfK(), "new": LearnedRollouts()}


def decisions(hands: int, count: int, seed: int) -> list[Decision]:
    table = Table(PRESETS["pineapple"], ("Hero", "V1", "V2"),
                  tuple(policy(n) for n in ("careful", "chaser", "careful")))
    records = play_session(table, SessionSpec("quality", hands=hands), random.Random(seed))
    spots = [d for r in records for d in spots_of(hero_view(r, "Hero"), "Hero")]
    rng = random.Random(seed)
    first = [d for d in spots if d.street == 1]
    middle = [d for d in spots if d.street in (2, 3)]
    firsts, middles = rng.sample(first, count // 2), rng.sample(middle, count - count // 2)
    return [d for pair in zip(firsts, middles, strict=False) for d in pair] + firsts[
        len(middles):] + middles[len(firsts):]  # alternating: a cut-short run has both kinds


def mean_se(values: list[float]) -> tuple[float, float]:
    a = np.array(values, float)
    if len(a) < 2:
        return (float(a.mean()) if len(a) else float("nan")), float("nan")
    return round(float(a.mean()), 2), round(float(a.std(ddof=1) / np.sqrt(len(a))), 2)


def style(d: Decision, best: Placement) -> dict[str, bool | None]:
    ranks = [c >> 2 for c in d.spot.dealt]
    pairs = [r for r in set(ranks) if ranks.count(r) >= 2]
    aces = [c for c in d.spot.dealt if c >> 2 == 12]
    return {
        "top2": len(best.top) >= 2,
        "pair_bottom": (all(sum(1 for c in best.bottom if c >> 2 == r) >= 2 for r in pairs)
                        if pairs else None),
        "ace_top": any(c in best.top for c in aces) if aces else None,
    }


def review(d: Decision, name: str, seed: int) -> tuple[Evaluation, Evaluation, float]:
    start = time.process_time()
    first = evaluate(d.spot, d.chosen, policy=POLICIES[name], seed=seed)
    again = evaluate(d.spot, d.chosen, policy=POLICIES[name], seed=seed + 7919)
    return first, again, time.process_time() - start


def measure(args: argparse.Namespace) -> dict[str, object]:
    chosen = decisions(args.hands, args.decisions, args.seed)
    reference = BotRollouts(policy("careful"), seed=args.seed)
    rows = []
    cpu = dict.fromkeys(POLICIES, 0.0)
    for i, d in enumerate(chosen):
        row: dict[str, object] = {"street": d.street}
        bests = []
        for name in POLICIES:
            e, again, seconds = review(d, name, 1000 + i)
            cpu[name] += seconds
            bests.append(e.best.placement)
            row[name] = {"ev_lost": e.ev_lost, "stable": same_placement(
                e.best.placement, again.best.placement), **style(d, e.best.placement)}
        r = SpotRollouts(d.spot, reference, seed=args.seed + i)
        values = r.values([d.chosen, *bests], r.deal(args.deals))
        for k, name in enumerate(POLICIES, start=1):
            row[name]["ref_gain"] = float((values[k] - values[0]).mean())  # type: ignore[index]
        rows.append(row)
        print(i, row, flush=True)
        if (i + 1) % 4 == 0:
            print("so far:", json.dumps(summarise(rows, cpu)), flush=True)
    return summarise(rows, cpu)


def summarise(rows: list[dict], cpu: dict[str, float]) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in POLICIES:
        per: dict[str, object] = {"cpu_s": round(cpu[name], 1)}
        for kind, streets in (("first_five", (1,)), ("streets_2_3", (2, 3))):
            mine = [r[name] for r in rows if r["street"] in streets]
            claims = [m for m in mine if m["ev_lost"] >= 1]
            part: dict[str, object] = {
                "decisions": len(mine),
                "best_minus_played_by_reference": mean_se([m["ref_gain"] for m in mine]),
                "claims_1pt": len(claims),
                "claims_that_help_by_reference": sum(m["ref_gain"] > 0 for m in claims),
                "stable": round(sum(m["stable"] for m in mine) / max(len(mine), 1), 2),
            }
            if kind == "first_five":
                for key in ("top2", "pair_bottom", "ace_top"):
                    seen = [m[key] for m in mine if m[key] is not None]
                    part[key] = f"{sum(seen)} of {len(seen)}"
            per[kind] = part
        out[name] = per
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    started = time.process_time()
    result = measure(args)
    result["args"] = vars(args)
    result["cpu_s"] = round(time.process_time() - started, 1)
    result["load_average"] = round(os.getloadavg()[0], 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
