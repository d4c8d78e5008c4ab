"""Fantasyland value by ruleset, table size and card count, measured by play
(docs/fantasyland.md).

For each preset and table size (``--players``, heads-up and three-handed by default), the seat
under study against ``careful`` opponents playing normal hands (every normal hand is played by
``careful``):

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
time. Points are the scorer's (race points in Double). At a table of ``P`` seats the seat's
points are against its ``P - 1`` opponents together; the table stores ``V(n) / (P - 1)``, the
value per opponent (what each opponent pays for it), and the solver weighs staying per
opponent too (as the royalties, which each opponent pays).

    python benchmarks/bench_fl_value.py [--hands 1000] [--seed 1] [--iterations 3]
        [--players 2,3] [--variants pineapple,...] [--write]

``--write`` rewrites the table in ``ofc_core/play/fl_value.py`` for the presets and table sizes
measured (``--players 3 --write`` leaves the heads-up values as they are). The last line
printed is one JSON object.
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


def _play(ruleset: Ruleset, stay: float, cards: int, hands: int, seed: int, players: int = 2,
          ) -> tuple[list[float], list[int]]:
    """The seat's points and its ``fantasyland_next`` over ``hands`` hands at a table of
    ``players`` seats (the button goes round)."""
    names = ("seat",) + tuple(f"opponent{k}" for k in range(1, players))
    table = Table(ruleset, names, (_Seat(stay),) + tuple(policy("careful")
                                                         for _ in range(players - 1)))
    rng = random.Random(seed)
    points, next_cards = [], []
    for k in range(hands):
        played = play_hand(table, k % players, (cards,) + (0,) * (players - 1), rng,
                           score=True)
        assert played.result is not None
        points.append(played.result.players[0].points)
        next_cards.append(played.fantasyland_next[0])
    return points, next_cards


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _se(values: list[float]) -> float:
    m = _mean(values)
    return (sum((v - m) ** 2 for v in values) / (len(values) - 1) / len(values)) ** 0.5


def measure(variant: str, hands: int, seed: int, iterations: int, players: int = 2,
            ) -> dict[str, object]:
    """One preset at one table size; ``values`` per opponent."""
    ruleset = PRESETS[variant]
    counts = _counts(ruleset)
    repeat = fl_value.stay_cards(ruleset)
    opponents = players - 1
    values = {n: fl_value.fantasyland_value(ruleset, n, players) for n in counts}
    base_points, base_next = _play(ruleset, 0.0, 0, hands, seed, players)
    base = _mean(base_points)
    rows: dict[int, dict[str, float]] = {}
    for _ in range(iterations):
        entry = opponents * _mean([values.get(n, 0.0) if n else 0.0 for n in base_next])
        new = {}
        for n in counts:
            points, next_cards = _play(ruleset, values[repeat], n, hands, seed + n, players)
            stays = _mean([float(c > 0) for c in next_cards])
            total = _mean(points) - base + stays * opponents * values[repeat] - entry
            new[n] = total / opponents
            rows[n] = {"points": round(_mean(points), 3), "se": round(_se(points), 3),
                       "stays": round(stays, 4)}
        values = new
    return {"variant": variant, "players": players, "baseline_points": round(base, 3),
            "baseline_se": round(_se(base_points), 3),
            "baseline_enters": round(_mean([float(c > 0) for c in base_next]), 4),
            "values": {n: round(v, 2) for n, v in values.items()}, "hands": rows}


def _write(results: list[dict[str, object]], hands: int, seed: int) -> None:
    """Rewrite the table of ``ofc_core/play/fl_value.py`` with ``results``; the table sizes
    not measured in this run keep their values (and their ``MEASURED`` line)."""
    table = {v: {p: dict(c) for p, c in by_size.items()} for v, by_size in fl_value.VALUES.items()}
    measured = dict(fl_value.MEASURED)
    today = datetime.date.today().isoformat()
    for r in results:
        values, players = r["values"], r["players"]
        assert isinstance(values, dict) and isinstance(players, int)
        table.setdefault(str(r["variant"]), {})[players] = values
        measured[players] = f"{hands} hands per count, seed {seed}, {today}"
    lines = ["# BEGIN MEASURED (written by benchmarks/bench_fl_value.py --write)",
             "VALUES: Mapping[str, Mapping[int, Mapping[int, float]]] = MappingProxyType({"]
    for variant, by_size in table.items():
        lines.append(f'    "{variant}": MappingProxyType({{')
        for players in sorted(by_size):
            inner = ", ".join(f"{n}: {v}" for n, v in by_size[players].items())
            lines.append(f"        {players}: MappingProxyType({{{inner}}}),")
        lines.append("    }),")
    lines.append("})")
    lines.append("MEASURED: Mapping[int, str] = MappingProxyType({")
    lines += [f'    {players}: "{text}",' for players, text in sorted(measured.items())]
    lines.append("})")
    lines.append("# END MEASURED")
    path = ROOT / "ofc_core" / "play" / "fl_value.py"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"# BEGIN MEASURED.*# END MEASURED", "\n".join(lines), text, flags=re.S)
    path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--players", default="2,3",
                        help="table sizes, comma-separated (a preset is measured at those it "
                             "allows)")
    parser.add_argument("--variants", default=None,
                        help="presets, comma-separated (default: every preset the solver sets; "
                             "--write needs them all)")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    sizes = [int(p) for p in args.players.split(",")]
    chosen = args.variants.split(",") if args.variants else list(PRESETS)
    results = []
    for variant in chosen:
        preset = PRESETS[variant]
        if preset.middle is not MiddleKind.HIGH or preset.jokers:
            continue  # measured on the presets without jokers or 2-7 (they read pineapple's)
        for players in sizes:
            if not preset.min_players <= players <= preset.max_players:
                continue
            start = time.process_time()
            result = measure(variant, args.hands, args.seed, args.iterations, players)
            result["cpu_seconds"] = round(time.process_time() - start, 1)
            results.append(result)
            print(f"{variant:22} {players} players {result['values']}  "
                  f"({result['cpu_seconds']} s)", file=sys.stderr, flush=True)
    if args.write:
        _write(results, args.hands, args.seed)
    print(json.dumps({"benchmark": "fl-value", "hands": args.hands, "seed": args.seed,
                      "results": results}))


if __name__ == "__main__":
    main()
