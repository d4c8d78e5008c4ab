"""Benchmark: the review's accuracy calibrated on simulated play (issue 36, point 6).

For each seat kind of ``--kinds`` (default ``strong``, ``careful``, ``chaser``, ``random``),
Hero plays ``--hands`` seeded three-handed pineapple hands of that kind against two ``careful``
seats (the same seed for every kind: the same deals as far as the play lets them be), the log
as Hero's room writes it; every decision of Hero is reviewed by the review's default
(``ofc_core.play.review.review_hand``, seeded by the decision as ``ofc review`` does). Printed
per kind:

- ``accuracy``: the mean of Hero's decision accuracies (``ofc_core.play.accuracy``), the
  level the Review page shows beside the player's; and per decision kind (first fives, later
  streets, Fantasyland sets);
- ``beyond_noise_a_hand``: the EV lost beyond the noise a hand (mean and standard error over
  hands), and ``ev_lost_a_hand``;
- ``classes``: the decisions of each class;
- ``winnings``: Hero's points a hand at that table (mean and standard error);
- CPU seconds of the play and of the reviews.

The accuracies must order as the winnings do. ``--write`` writes the accuracies into
``ofc_core/play/accuracy.py``'s ``REFERENCE_LEVELS`` (between its BEGIN/END markers).

Usage: ``python benchmarks/bench_review_calibration.py [--hands 300] [--seed 36] [--kinds
strong,careful,chaser,random] [--write]``; the last line printed is JSON.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # one core: set before numpy loads

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ofc_core.batch import score_records  # noqa: E402
from ofc_core.play.accuracy import beyond_noise, mean_accuracy  # noqa: E402
from ofc_core.play.engine import Table  # noqa: E402
from ofc_core.play.policies import policy  # noqa: E402
from ofc_core.play.review import review_hand  # noqa: E402
from ofc_core.play.sessions import SessionSpec, hero_view, play_session  # noqa: E402
from ofc_core.rules import PRESETS  # noqa: E402

ACCURACY_PY = Path(__file__).resolve().parent.parent / "ofc_core" / "play" / "accuracy.py"


def mean_se(values: list[float]) -> tuple[float, float]:
    a = np.array(values, float)
    if len(a) < 2:
        return (round(float(a.mean()), 2) if len(a) else float("nan")), float("nan")
    return round(float(a.mean()), 2), round(float(a.std(ddof=1) / np.sqrt(len(a))), 2)


def measure(kind: str, hands: int, seed: int) -> dict[str, object]:
    table = Table(PRESETS["pineapple"], ("Hero", "V1", "V2"),
                  (policy(kind), policy("careful"), policy("careful")))
    start = time.process_time()
    records = play_session(table, SessionSpec(f"calibration-{kind}", hands=hands),
                           random.Random(seed))
    play_cpu = time.process_time() - start
    scores = score_records(records)
    winnings = [float(scores.points[k, 0]) for k in range(len(records))]
    start = time.process_time()
    accuracies: dict[str, list[float]] = {}
    lost, beyond = [], []
    classes: dict[str, int] = {}
    for i, record in enumerate(records):
        reviewed = review_hand(hero_view(record, "Hero"), "Hero")
        lost.append(sum(r.evaluation.ev_lost for r in reviewed))
        beyond.append(sum(beyond_noise(r.evaluation.ev_lost, r.evaluation.ev_lost_se)
                          for r in reviewed))
        for r in reviewed:
            e = r.evaluation
            accuracies.setdefault(r.kind, []).append(e.accuracy)
            classes[e.decision_class] = classes.get(e.decision_class, 0) + 1
        if (i + 1) % 25 == 0:
            print(f"{kind}: {i + 1} hands reviewed, {time.process_time() - start:.0f} CPU s",
                  file=sys.stderr, flush=True)
    every = [a for values in accuracies.values() for a in values]
    return {"accuracy": mean_accuracy(every),
            "accuracy_by_kind": {k: mean_accuracy(v) for k, v in accuracies.items()},
            "beyond_noise_a_hand": mean_se(beyond), "ev_lost_a_hand": mean_se(lost),
            "classes": classes, "decisions": len(every), "winnings": mean_se(winnings),
            "hands": len(records), "cpu_s": {"play": round(play_cpu, 1),
                                             "review": round(time.process_time() - start, 1)}}


def write_levels(levels: dict[str, float]) -> None:
    """Write ``levels`` between the markers of ``REFERENCE_LEVELS`` in accuracy.py."""
    text = ACCURACY_PY.read_text(encoding="utf-8")
    body = "".join(f'    "{k}": {v},\n' for k, v in levels.items())
    new, count = re.subn(r"(# BEGIN CALIBRATED[^\n]*\n).*?[ \t]*# END CALIBRATED",
                         lambda m: m.group(1) + body + "    # END CALIBRATED", text, flags=re.S)
    if count != 1:
        raise SystemExit(f"{ACCURACY_PY}: no BEGIN/END CALIBRATED markers")
    ACCURACY_PY.write_text(new, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--kinds", default="strong,careful,chaser,random")
    parser.add_argument("--write", action="store_true",
                        help="write the accuracies into accuracy.py's REFERENCE_LEVELS")
    args = parser.parse_args()
    started = time.process_time()
    result: dict[str, object] = {}
    for kind in args.kinds.split(","):
        result[kind] = measure(kind, args.hands, args.seed)
        print(kind, json.dumps(result[kind]), flush=True)
    levels = {k: v["accuracy"] for k, v in result.items() if isinstance(v, dict)}
    by_winnings = sorted(levels, key=lambda k: -result[k]["winnings"][0])  # type: ignore[index]
    by_accuracy = sorted(levels, key=lambda k: -levels[k])  # type: ignore[operator]
    result["ordered_as_winnings"] = by_winnings == by_accuracy
    result["args"] = vars(args)
    result["cpu_total_s"] = round(time.process_time() - started, 1)
    result["load_average"] = round(os.getloadavg()[0], 1)
    if args.write:
        write_levels({k: float(v) for k, v in levels.items() if v is not None})
    print(json.dumps(result))


if __name__ == "__main__":
    main()
