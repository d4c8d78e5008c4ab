"""Fantasyland value by ruleset and card count, measured by play (docs/fantasyland.md).

For each preset, heads-up, the seat under study against a ``careful`` opponent playing a normal
hand (both seats' normal hands are played by ``careful``):

- *baseline*: hands where neither seat is in Fantasyland: the seat's mean points ``B`` and the
  Fantasyland it earns (``fantasyland_next``);
- for each card count ``n`` the preset deals in Fantasyland: hands where the seat is in
  Fantasyland with ``n`` cards, set by the exact solver with staying worth ``V(r)`` (``r`` the
  cards a stayer gets): its mean points ``F(n)`` and how often it stays, ``P(n)``.

``V(n) = F(n) - B + P(n) * V(r) - E[V(entry)]``: what the Fantasyland hand earns over a normal
hand, plus what staying is worth, minus what a normal hand would have earned toward a
Fantasyland of its own (``E[V(entry)]``: the mean over the baseline hands of the value of the
Fantasyland they earn, 0 for most). ``V`` appears on both sides: it is solved by iterating
(``--iterations``, from the table in ``ofc_core/play/fl_value.py``), on the same deals each
time. Points are the scorer's (race points in Double).

    python benchmarks/bench_fl_value.py [--hands 1000] [--seed 1] [--iterations 3] [--write]

``--write`` rewrites the table in ``ofc_core/play/fl_value.py``. The last line printed is one
JSON object.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ofc_core.play import fl_value  # noqa: E402
from ofc_core.play.engine import CubeView, Placement, Table, View, play_hand  # noqa: E402
from ofc_core.play.fl_solver import solve_fantasyland  # noqa: E402
from ofc_core.play.policies import policy  # noqa: E402
from ofc_core.rules import PRESETS, MiddleKind, Ruleset  # noqa: E402


class _Seat:
    """``careful``, except that a Fantasyland hand is set with a given stay value."""

    name = "fl-seat"

    def __init__(self, stay: float) -> None:
        self.stay, self.inner = stay, policy("careful")

    def place(self, view: View, rng: random.Random) -> Placement:
        if view.fantasyland:
            return solve_fantasyland(view.dealt, view.ruleset, self.stay).placement
        return self.inner.place(view, rng)

    def offers_double(self, cube: CubeView, rng: random.Random) -> bool:
        return False

    def accepts_double(self, cube: CubeView, rng: random.Random) -> bool:
        return True


def _counts(ruleset: Ruleset) -> list[int]:
    fl = ruleset.fl_cards
    return sorted({n for _, n in fl.entry} | {fl_value.stay_cards(ruleset)})


def _play(ruleset: Ruleset, stay: float, cards: int, hands: int, seed: int,
          ) -> tuple[list[float], list[int]]:
    """The seat's points and its ``fantasyland_next`` over ``hands`` hands."""
    table = Table(ruleset, ("seat", "opponent"), (_Seat(stay), policy("careful")))
    rng = random.Random(seed)
    points, next_cards = [], []
    for k in range(hands):
        played = play_hand(table, k % 2, (cards, 0), rng, score=True)
        assert played.result is not None
        points.append(played.result.players[0].points)
        next_cards.append(played.fantasyland_next[0])
    return points, next_cards


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _se(values: list[float]) -> float:
    m = _mean(values)
    return (sum((v - m) ** 2 for v in values) / (len(values) - 1) / len(values)) ** 0.5


def measure(variant: str, hands: int, seed: int, iterations: int) -> dict[str, object]:
    ruleset = PRESETS[variant]
    counts = _counts(ruleset)
    repeat = fl_value.stay_cards(ruleset)
    values = {n: fl_value.fantasyland_value(ruleset, n) for n in counts}
    base_points, base_next = _play(ruleset, 0.0, 0, hands, seed)
    base = _mean(base_points)
    rows: dict[int, dict[str, float]] = {}
    for _ in range(iterations):
        entry = _mean([values.get(n, 0.0) if n else 0.0 for n in base_next])
        new = {}
        for n in counts:
            points, next_cards = _play(ruleset, values[repeat], n, hands, seed + n)
            stays = _mean([float(c > 0) for c in next_cards])
            new[n] = _mean(points) - base + stays * values[repeat] - entry
            rows[n] = {"points": round(_mean(points), 3), "se": round(_se(points), 3),
                       "stays": round(stays, 4)}
        values = new
    return {"variant": variant, "baseline_points": round(base, 3),
            "baseline_se": round(_se(base_points), 3),
            "baseline_enters": round(_mean([float(c > 0) for c in base_next]), 4),
            "values": {n: round(v, 2) for n, v in values.items()}, "hands": rows}


def _write(results: list[dict[str, object]], hands: int, seed: int) -> None:
    path = ROOT / "ofc_core" / "play" / "fl_value.py"
    lines = ["# BEGIN MEASURED (written by benchmarks/bench_fl_value.py --write)",
             "VALUES: Mapping[str, Mapping[int, float]] = MappingProxyType({"]
    for r in results:
        values = r["values"]
        assert isinstance(values, dict)
        inner = ", ".join(f"{n}: {v}" for n, v in values.items())
        lines.append(f'    "{r["variant"]}": MappingProxyType({{{inner}}}),')
    lines.append("})")
    today = datetime.date.today().isoformat()
    lines.append(f'MEASURED = "{hands} hands per count, seed {seed}, {today}"')
    lines.append("# END MEASURED")
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"# BEGIN MEASURED.*# END MEASURED", "\n".join(lines), text, flags=re.S)
    path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    results = []
    for variant, preset in PRESETS.items():
        if preset.middle is not MiddleKind.HIGH:
            continue  # the solver does not solve 2-7 middles
        start = time.process_time()
        result = measure(variant, args.hands, args.seed, args.iterations)
        result["cpu_seconds"] = round(time.process_time() - start, 1)
        results.append(result)
        print(f"{variant:22} {result['values']}  ({result['cpu_seconds']} s)", file=sys.stderr)
    if args.write:
        _write(results, args.hands, args.seed)
    print(json.dumps({"benchmark": "fl-value", "hands": args.hands, "seed": args.seed,
                      "results": results}))


if __name__ == "__main__":
    main()
