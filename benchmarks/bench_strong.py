"""Benchmark: the ``strong`` bot (learned value, no clairvoyance) at a three-handed table
against ``careful`` and ``chaser`` (issue 21 points 1 and 5): pineapple by default, any preset
with ``--variant``, a house rule with ``--rules`` (the preset's overrides, as a log writes
them), and a weights file not shipped yet with ``--weights`` (how a trained value is checked
before it ships).

Plays ``--hands`` hands in sessions of ``--session`` hands, the three policies rotating over
the seats session by session (so no policy keeps a seat), and prints per policy: points a hand
(mean and standard error over hands), foul %, Fantasyland entry % (of its normal hands),
royalties a hand (of its normal hands, fouls counted as 0), and CPU seconds (the figures so
far after each session too, so a run cut short still reports). Usage:
``python benchmarks/bench_strong.py [--hands 20000] [--session 500] [--seed 1] [--variant V]
[--rules JSON] [--weights FILE]``; the last line printed is JSON (with the ``policy`` the strong
seat played: ``learned-<variant>``, or ``careful`` where no value fits the ruleset).
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

from ofc_core.batch import score_records  # noqa: E402
from ofc_core.play.engine import Policy, Table  # noqa: E402
from ofc_core.play.learned_rollouts import LearnedRollouts  # noqa: E402
from ofc_core.play.policies import policy  # noqa: E402
from ofc_core.play.sessions import SessionSpec, play_session  # noqa: E402
from ofc_core.play.strong import StrongPolicy  # noqa: E402
from ofc_core.play.value import PositionValue, read_value  # noqa: E402
from ofc_core.rules import PRESETS, Ruleset, resolve  # noqa: E402

NAMES = ("strong", "careful", "chaser")


def seat(name: str, weights: PositionValue | None) -> Policy:
    """The policy ``name``; ``strong`` by ``weights`` where given."""
    if name == "strong" and weights is not None:
        return StrongPolicy(rollouts=LearnedRollouts(weights=weights))
    return policy(name)


def play(hands: int, session: int, seed: int, ruleset: Ruleset = PRESETS["pineapple"],
         weights: PositionValue | None = None) -> dict[str, dict[str, list[float]]]:
    rng = random.Random(seed)
    stats: dict[str, dict[str, list[float]]] = {
        n: {"points": [], "foul": [], "fl": [], "royalties": []} for n in NAMES}
    done = 0
    while done < hands:
        shift = (done // session) % 3
        seats = NAMES[shift:] + NAMES[:shift]
        table = Table(ruleset, seats, tuple(seat(n, weights) for n in seats))
        count = min(session, hands - done)
        records = play_session(table, SessionSpec(f"strong-{done}", count), rng)
        scores = score_records(records)
        for k, record in enumerate(records):
            for i, player in enumerate(record.players):
                s = stats[player.name]
                s["points"].append(float(scores.points[k, i]))
                if player.fantasyland:
                    continue
                s["foul"].append(float(scores.fouled[k, i]))
                s["fl"].append(float(scores.fantasyland_next[k, i] > 0))
                s["royalties"].append(float(scores.royalties[k, i].sum()))
        done += count
        print(done, json.dumps(summary(stats)), flush=True)  # so far: a run cut short says
    return stats


def summary(stats: dict[str, dict[str, list[float]]]) -> dict[str, dict[str, float]]:
    """Per policy: points a hand and its standard error, foul %, Fantasyland entry %,
    royalties a hand (see the module's doc)."""
    out = {}
    for name, s in stats.items():
        points = np.array(s["points"])
        out[name] = {"points_a_hand": round(float(points.mean()), 3),
                     "se": round(float(points.std(ddof=1) / np.sqrt(len(points))), 3),
                     "foul_pct": round(100 * float(np.mean(s["foul"])), 1),
                     "fl_entry_pct": round(100 * float(np.mean(s["fl"])), 1),
                     "royalties_a_hand": round(float(np.mean(s["royalties"])), 2)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--session", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="pineapple", choices=sorted(PRESETS))
    parser.add_argument("--weights", type=Path, help="a weights file (default: the shipped one)")
    parser.add_argument("--rules", type=json.loads, default=None, metavar="JSON",
                        help='a house rule: the log format\'s "rules" overrides of the preset, '
                             'e.g. \'{"jokers": 2}\'')
    args = parser.parse_args()
    weights = read_value(args.weights) if args.weights else None
    ruleset = resolve(args.variant, args.rules)
    played = LearnedRollouts(weights=weights).value_for(ruleset)
    started = time.process_time()
    stats = play(args.hands, args.session, args.seed, ruleset, weights)
    out: dict[str, object] = {}
    for name, row in summary(stats).items():
        out[name] = row
        print(name, row)
    out["variant"] = args.variant
    out["rules"] = args.rules
    out["policy"] = f"learned-{played.variant}" if played else "careful"
    out["weights"] = str(args.weights or "shipped")
    out["hands"] = args.hands
    out["cpu_s"] = round(time.process_time() - started, 1)
    out["load_average"] = round(os.getloadavg()[0], 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
