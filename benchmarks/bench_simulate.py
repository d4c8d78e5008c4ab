"""Simulator throughput: three-handed pineapple played by ``careful`` on one core.

Measures :func:`ofc_core.play.sessions.play_session` (dealing, 15 decisions per hand, Fantasyland,
scoring, hand records) and, separately, writing the records as ``ofc-hh/1``. Prints a table and,
as the last line, one JSON object. Target: 5,000 hands/s for the engine.

    python benchmarks/bench_simulate.py [--hands 5000] [--repeat 3]
    python benchmarks/bench_simulate.py --rates [--hands 3000]   # foul / Fantasyland rates

``--rates`` plays every variant with each policy seated at every seat (self-play) and prints
the foul and Fantasyland rates documented in ``docs/simulator.md``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from ingest.formats.ofc_hh import write_records  # noqa: E402
from ofc_core.batch import score_records  # noqa: E402
from ofc_core.play.engine import Table  # noqa: E402
from ofc_core.play.policies import POLICIES, policy  # noqa: E402
from ofc_core.play.sessions import SessionSpec, play_session  # noqa: E402
from ofc_core.rules import PRESETS  # noqa: E402


def _table(variant: str, kind: str, players: int) -> Table:
    names = tuple(f"p{i}" for i in range(players))
    return Table(PRESETS[variant], names, tuple(policy(kind) for _ in names))


def throughput(hands: int, repeat: int) -> dict:
    table = _table("pineapple", "careful", 3)
    play_session(table, SessionSpec("warm-up", hands=200), random.Random(0))
    best_wall, best_cpu, records = float("inf"), float("inf"), []
    for k in range(repeat):
        records = []  # the last run's records are freed here, not inside the timed call
        wall, cpu = time.perf_counter(), time.process_time()
        records = play_session(table, SessionSpec(f"bench-{k}", hands=hands), random.Random(k))
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    wall = time.perf_counter()
    write_records(records, io.StringIO())
    write_seconds = time.perf_counter() - wall
    return {
        "benchmark": "simulate", "variant": "pineapple", "players": 3, "policy": "careful",
        "hands": hands, "repeat": repeat,
        "seconds": round(best_wall, 3), "cpu_seconds": round(best_cpu, 3),
        "hands_per_s": round(hands / best_wall), "hands_per_cpu_s": round(hands / best_cpu),
        "write_hands_per_s": round(hands / write_seconds),
        "target_hands_per_s": 5000, "load_average": round(os.getloadavg()[0], 2),
    }


def rates(hands: int) -> list[dict]:
    """Foul and Fantasyland rates per variant and policy, in self-play. A hand *enters*
    Fantasyland when it is played normally and earns Fantasyland next hand (the batch
    scorer's ``fantasyland_next``)."""
    rows = []
    for variant, preset in PRESETS.items():
        players = min(3, preset.max_players)
        for kind in POLICIES:
            start = time.process_time()
            records = play_session(_table(variant, kind, players),
                                   SessionSpec("rates", hands=hands), random.Random(1))
            seconds = time.process_time() - start
            scores = score_records(records)
            in_fl = np.array([[p.fantasyland for p in r.players] for r in records])
            fouled = scores.fouled[:, :players]
            enters = (scores.fantasyland_next[:, :players] > 0) & ~in_fl
            normal = int((~in_fl).sum())
            rows.append({
                "variant": variant, "policy": kind, "players": players,
                "hands": len(records),
                "foul_rate": round(float((fouled & ~in_fl).sum()) / normal, 3),
                "fantasyland_entry_rate": round(float(enters.sum()) / normal, 3),
                "fantasyland_rate": round(float(in_fl.mean()), 3),
                "fantasyland_foul_rate": round(float((fouled & in_fl).sum() / in_fl.sum()), 3)
                if in_fl.any() else None,
                "hands_per_cpu_s": round(len(records) / seconds),
            })
            row = rows[-1]
            print(f"{variant:22} {kind:8} fouls {row['foul_rate']:6.1%}  enters FL "
                  f"{row['fantasyland_entry_rate']:6.1%}  hands in FL "
                  f"{row['fantasyland_rate']:6.1%}  {row['hands_per_cpu_s']:6,} hands/s",
                  file=sys.stderr)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rates", action="store_true")
    args = parser.parse_args()
    if args.rates:
        print(json.dumps({"benchmark": "simulate-rates", "rates": rates(args.hands)}))
        return
    result = throughput(args.hands, args.repeat)
    print(f"engine: {result['hands_per_s']:,} hands/s wall, {result['hands_per_cpu_s']:,} "
          f"hands/s CPU (target 5,000); writing ofc-hh/1: {result['write_hands_per_s']:,} "
          "hands/s")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
