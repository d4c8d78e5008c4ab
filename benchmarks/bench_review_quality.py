"""Benchmark: how good the review's advice is, measured against a deep reference (issue 21,
point 4).

A seeded three-handed pineapple session (``careful``, ``chaser``, ``careful``; the log as
Hero's room writes it) is played; ``--decisions`` of Hero's decisions are drawn from it at
random, half first fives and half from streets 2-3 (alternating; a summary so far is printed
every 4; ``--kind`` keeps only first fives or only streets 2-3 of the same draw). Each decision
is reviewed (``ofc_core.play.review.evaluate``, default precision) by each of ``--policies``
(default: the review's learned policy and the clairvoyant best-of-24; ``learned-ties``: the
learned policy with ``Precision.prior_ties``), twice, on two seeds. Then the
**reference** values the candidates on ``--deals`` common deals:

- ``--reference lookahead`` (the default, the deep reference): every seat, the opponents too,
  plays every remaining street without seeing its future, valuing each legal placement over
  ``--samples`` sampled deals of the next street (the best placement there by the learned
  value; the last street exhaustive, by the exact value of every finished board):
  :class:`ofc_core.play.lookahead.LookaheadRollouts`. It plays the rest of a hand about 1.3
  points better than the review's own policy (docs/review.md);
- ``--reference careful``: every seat plays with the ``careful`` bot (independent of the
  learned value, but weaker).

The candidates: the placement played, each policy's best, and the 8 legal placements a one-street
lookahead from the decision itself (64 sampled next deals of the cards Hero has not seen, the
best next placement by the learned value) rates highest, plus the 4 the learned value rates
highest (the review rolls out only its top 8 by that value: the lookahead screen is how a
placement outside them can still be the reference's best). The reference's own best is picked
on the first half of the deals and measured on the second (no winner's curse).

Printed per policy and kind (first fives, streets 2-3):

- ``regret``: the points following the policy's best leaves against the reference's best
  (second half; mean and standard error over decisions);
- ``claims_that_help``: where the policy claims ``ev_lost`` >= 1, how often its best beats
  the placement played by the reference (all deals);
- ``same_or_within_2se``: its best is the reference's, or within 2 standard errors of it;
- ``ev_lost_error``: the mean signed error of ``ev_lost`` against the reference's best-minus-
  played;
- ``best_minus_played``: the reference's value of the policy's best minus the played one;
- first fives: bests with 2+ cards on top; dealt pairs kept on the bottom (of the first fives
  dealt a pair); a dealt ace on top; ``stable``: the share with the same best on a second seed;
- ``same_or_named_tie``: the same best on the second seed, or a tie named on either seed that
  holds both bests (goal >= 90%); ``ties`` and ``ties_that_differ``: decisions classed a tie,
  and those of them whose best and played placement the reference finds more than 2 of its
  paired standard errors apart (goal <= 10% of the ties);
- CPU seconds of the reviews and of the reference; how often the reference's best is among
  the placements the learned review rolls out (its shortlist: ``review._shortlist``).

Each decision's line also gives the candidates (``options``) and the reference's mean of each
on the picking and on the measuring deals, each policy's best on both seeds and the placement
played, so other ways of choosing can be valued afterwards.

Usage: ``python benchmarks/bench_review_quality.py [--decisions 40] [--deals 400] [--hands
200] [--seed 5] [--samples 32] [--reference lookahead|careful] [--ahead 4] [--kind
first_five|streets_2_3] [--policies learned,best-of-24,learned-ties]``; the last line printed is
JSON. ``--combine LOG [LOG ...] --policies P`` summarises the decisions the runs of those logs
printed (seeds run one by one, or cut short) as one run. ``--rejudge LOG`` (with the arguments
of that run) reviews its decisions again with the code here and judges them by the reference
values the log holds, without running a reference: a change of the review measured in minutes
against the reference of an earlier run.
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
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ofc_core.play.engine import Placement, Table  # noqa: E402
from ofc_core.play.learned_rollouts import LearnedRollouts  # noqa: E402
from ofc_core.play.lookahead import LookaheadRollouts, ahead_values  # noqa: E402
from ofc_core.play.placements import (  # noqa: E402
    apply,
    free_slots,
    legal_placements,
    same_placement,  # noqa: E402
)
from ofc_core.play.policies import policy  # noqa: E402
from ofc_core.play.positions import Decision, spots_of  # noqa: E402
from ofc_core.play.review import (  # noqa: E402
    DEFAULT_PRECISION,
    Evaluation,
    Precision,
    _shortlist,
    evaluate,
    parse_placement,
    placement_text,
)
from ofc_core.play.rollout import (  # noqa: E402
    BEST_OF_24,
    BotRollouts,
    RolloutPolicy,
    SpotRollouts,
    board_array,
    default_fantasyland_value,
    fl_table,
)
from ofc_core.play.sessions import SessionSpec, hero_view, play_session  # noqa: E402
from ofc_core.rules import PRESETS  # noqa: E402

POLICIES: dict[str, RolloutPolicy] = {"learned": LearnedRollouts(), "best-of-24": BEST_OF_24,
                                      "learned-ties": LearnedRollouts()}
VARIANTS: dict[str, dict[str, bool]] = {"learned-ties": {"prior_ties": True}}
"""Policies reviewed with other settings than the default's: ``learned-ties``, a tie to the
learned value's favourite (``Precision.prior_ties``) instead of the rollouts' leader."""
SCREEN_LOOKAHEAD, SCREEN_PRIOR, SCREEN_SAMPLES = 8, 4, 64
REVIEW_SEED = 1000
"""Decision i is reviewed with seed ``REVIEW_SEED + i`` (and again with ``AGAIN_SEED + i``)."""
AGAIN_SEED = 8919
KINDS = (("first_five", (1,)), ("streets_2_3", (2, 3)))


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


def same_or_named_tie(first: Evaluation, second: Evaluation) -> bool:
    """The same best on both seeds, or a tie named on either that holds both bests."""
    named = [(e.best.placement, *e.tied) for e in (first, second)]
    return any(same_placement(p, second.best.placement) for p in named[0]) or any(
        same_placement(p, first.best.placement) for p in named[1])


def mean_se(values: list[float]) -> tuple[float, float]:
    a = np.array(values, float)
    if len(a) < 2:
        return (round(float(a.mean()), 2) if len(a) else float("nan")), float("nan")
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


def screened(d: Decision, seed: int) -> list[Placement]:
    """The legal placements the one-street lookahead and the learned value rate highest."""
    spot = d.spot
    hero = spot.hero_seat
    placements = legal_placements(spot.dealt, spot.place, free_slots(hero.board))
    value = LearnedRollouts().value_for(spot.ruleset)
    if value is None or not hero.streets:
        return placements
    boards = np.stack([board_array(apply(hero.board, p)) for p in placements])
    fl = fl_table(spot.ruleset, default_fantasyland_value, len(spot.seats))
    ahead = ahead_values(boards, hero.streets[0], np.array(spot.unseen(), np.int8),
                         SCREEN_SAMPLES, np.random.default_rng(seed), value, spot.ruleset, fl)
    prior = value(boards, int((boards[0] >= 0).sum()), spot.ruleset, fl)
    top = set(np.argsort(-ahead, kind="stable")[:SCREEN_LOOKAHEAD].tolist())
    top |= set(np.argsort(-prior, kind="stable")[:SCREEN_PRIOR].tolist())
    return [placements[a] for a in sorted(top)]


def rolled_out(d: Decision, seed: int, precision: Precision) -> list[Placement]:
    """The placements the learned review of ``d`` (its ``seed``) rolls out: its shortlist."""
    spot = d.spot
    placements = legal_placements(spot.dealt, spot.place, free_slots(spot.hero_seat.board))
    chosen = index_of(placements, d.chosen)
    rollouts = SpotRollouts(spot, LearnedRollouts(), seed=seed)
    return [placements[a] for a in _shortlist(rollouts, placements, chosen, precision)]


def candidates(d: Decision, reviews: dict[str, Evaluation], seed: int) -> list[Placement]:
    """The placement played first, then each policy's best, then the screened ones, once each."""
    out: list[Placement] = []
    for p in [d.chosen, *(e.best.placement for e in reviews.values()), *screened(d, seed)]:
        if not any(same_placement(p, q) for q in out):
            out.append(p)
    return out


def index_of(options: list[Placement], p: Placement) -> int:
    return next(i for i, q in enumerate(options) if same_placement(p, q))


def reference_policy(args: argparse.Namespace, seed: int) -> RolloutPolicy:
    if args.reference == "careful":
        return BotRollouts(policy("careful"), seed=seed)
    return LookaheadRollouts(samples=args.samples, seed=seed)


def judge(d: Decision, reviews: dict[str, Evaluation], args: argparse.Namespace, i: int
          ) -> dict[str, object]:
    """The reference's verdict on each policy's review of decision ``d``."""
    options = candidates(d, reviews, args.seed + i)
    shortlist = rolled_out(d, REVIEW_SEED + i, Precision(ahead=args.ahead))
    r = SpotRollouts(d.spot, reference_policy(args, args.seed + i), seed=args.seed + i)
    half = args.deals // 2
    pick = r.values(options, r.deal(half))
    measure = r.values(options, r.deal(args.deals - half))
    both = np.concatenate([pick, measure], axis=1)
    ref_best = int(pick.mean(axis=1).argmax())
    row: dict[str, object] = {"street": d.street, "candidates": len(options),
                              "ref_best_is_played": ref_best == 0,
                              "options": [placement_text(o) for o in options],
                              "pick": [round(float(v), 3) for v in pick.mean(axis=1)],
                              "measure": [round(float(v), 3) for v in measure.mean(axis=1)],
                              "ref_best_rolled_out": ref_best == 0 or any(
                                  same_placement(options[ref_best], p) for p in shortlist)}
    for name, e in reviews.items():
        b = index_of(options, e.best.placement)
        diff = measure[ref_best] - measure[b]
        se = float(diff.std(ddof=1) / np.sqrt(len(diff)))
        gain = float((both[b] - both[0]).mean())
        played = both[b] - both[0]
        played_se = float(played.std(ddof=1) / np.sqrt(len(played))) if b != 0 else 0.0
        row[name] = {"regret": float(diff.mean()), "same_or_within_2se":
                     b == ref_best or abs(float(diff.mean())) <= 2 * se,
                     "ev_lost": e.ev_lost, "gain": gain, "ev_lost_error": e.ev_lost - gain,
                     "tie": e.decision_class == "tie",
                     "tie_differs": e.decision_class == "tie" and abs(gain) > 2 * played_se}
    return row


def drawn(args: argparse.Namespace) -> list[Decision]:
    """The run's decisions: :func:`decisions` of ``--hands``, ``--decisions`` and ``--seed``,
    those of ``--kind``."""
    chosen = decisions(args.hands, args.decisions, args.seed)
    streets = dict(KINDS).get(args.kind)
    return chosen if streets is None else [d for d in chosen if d.street in streets]


def measure(args: argparse.Namespace) -> dict[str, object]:
    chosen = drawn(args)
    names = args.policies.split(",")
    precision = Precision(ahead=args.ahead)
    rows = []
    cpu = dict.fromkeys([*names, "reference"], 0.0)
    for i, d in enumerate(chosen):
        reviews, again = {}, {}
        for name in names:
            start = time.process_time()
            mine = replace(precision, **VARIANTS.get(name, {}))
            reviews[name] = evaluate(d.spot, d.chosen, policy=POLICIES[name], seed=REVIEW_SEED + i,
                                     precision=mine)
            again[name] = evaluate(d.spot, d.chosen, policy=POLICIES[name], seed=AGAIN_SEED + i,
                                   precision=mine)
            cpu[name] += time.process_time() - start
        start = time.process_time()
        row = judge(d, reviews, args, i)
        cpu["reference"] += time.process_time() - start
        for name in names:
            best = reviews[name].best.placement
            row[name].update(best=placement_text(best),  # type: ignore[attr-defined]
                             again=placement_text(again[name].best.placement),
                             chosen=placement_text(d.chosen))
            row[name].update(stable=same_placement(best, again[name].best.placement),  # type: ignore[attr-defined]
                             same_or_named_tie=same_or_named_tie(reviews[name], again[name]),
                             **style(d, best))
        rows.append(row)
        print(i, json.dumps(row), flush=True)
        if (i + 1) % 4 == 0:
            print("so far:", json.dumps(summarise(rows, names, cpu)), flush=True)
    return summarise(rows, names, cpu)


def summarise(rows: list[dict], names: list[str], cpu: dict[str, float]) -> dict[str, object]:
    out: dict[str, object] = {"cpu_s": {k: round(v, 1) for k, v in cpu.items()}}
    for name in names:
        per: dict[str, object] = {}
        for kind, streets in KINDS:
            mine = [r[name] for r in rows if r["street"] in streets]
            claims = [m for m in mine if m["ev_lost"] >= 1]
            share = len(mine) or 1
            part: dict[str, object] = {
                "decisions": len(mine),
                "regret": mean_se([m["regret"] for m in mine]),
                "claims_1pt": len(claims),
                "claims_that_help": sum(m["gain"] > 0 for m in claims),
                "same_or_within_2se": round(sum(m["same_or_within_2se"] for m in mine) / share, 2),
                "ev_lost_error": mean_se([m["ev_lost_error"] for m in mine]),
                "best_minus_played": mean_se([m["gain"] for m in mine]),
                "stable": round(sum(m["stable"] for m in mine) / share, 2),
                "same_or_named_tie": round(sum(m["same_or_named_tie"] for m in mine) / share,
                                           2),
                "ties": sum(m["tie"] for m in mine),
                "ties_that_differ": sum(m["tie_differs"] for m in mine),
            }
            if kind == "first_five":
                for key in ("top2", "pair_bottom", "ace_top"):
                    seen = [m[key] for m in mine if m[key] is not None]
                    part[key] = f"{sum(seen)} of {len(seen)}"
            per[kind] = part
        out[name] = per
    out["candidates"] = mean_se([r["candidates"] for r in rows])
    out["reference_best_rolled_out_by_the_review"] = (
        f"{sum(r['ref_best_rolled_out'] for r in rows)} of {len(rows)}")
    return out


def combine(logs: list[Path], names: list[str]) -> dict[str, object]:
    """The summary of the decisions printed by earlier runs (their logs: a run cut short counts
    the decisions it printed), their CPU seconds from each log's last summary."""
    rows: list[dict] = []
    cpu = dict.fromkeys([*names, "reference"], 0.0)
    for log in logs:
        last: dict[str, float] = {}
        for line in log.read_text().splitlines():
            head, _, rest = line.partition(" ")
            if head.isdigit():
                rows.append(json.loads(rest))
            elif line.startswith(("so far: ", "{")):
                last = json.loads(line.removeprefix("so far: ")).get("cpu_s", last)
        for key in cpu:
            cpu[key] += float(last.get(key, 0.0))
    return summarise(rows, names, cpu) | {"logs": [str(log) for log in logs]}


def rejudge(log: Path, args: argparse.Namespace) -> dict[str, object]:
    """The decisions of an earlier run (its ``log``, drawn again from ``--seed``,
    ``--decisions``, ``--hands`` and ``--kind`` as that run drew them) reviewed again by the
    code here, on both seeds, and judged by the reference values the log holds: no reference is
    run. A best the log's reference did not value is counted apart (``outside``), not judged
    (the same best again, or a named tie, counts every decision: it needs no reference). The
    reference of the log is the one of its run (its learned value's lookahead)."""
    rows = [json.loads(line.partition(" ")[2]) for line in log.read_text().splitlines()
            if line.partition(" ")[0].isdigit()]
    chosen = drawn(args)
    name = args.policies.split(",")[0]
    mine = replace(Precision(ahead=args.ahead), **VARIANTS.get(name, {}))
    judged: list[dict[str, object]] = []
    outside = 0
    steady = {"stable": 0, "same_or_named_tie": 0}  # every decision: no reference needed
    start = time.process_time()
    for i, row in enumerate(rows):
        d = chosen[i]
        options = [parse_placement(text) for text in row["options"]]
        if not same_placement(d.chosen, options[0]):
            raise SystemExit(f"{log}: decision {i} is not the one drawn here: check --seed, "
                             "--decisions, --hands and --kind")
        first, second = (evaluate(d.spot, d.chosen, policy=POLICIES[name], seed=s + i,
                                  precision=mine) for s in (REVIEW_SEED, AGAIN_SEED))
        at = next((k for k, o in enumerate(options)
                   if same_placement(o, first.best.placement)), None)
        steady["stable"] += same_placement(first.best.placement, second.best.placement)
        steady["same_or_named_tie"] += same_or_named_tie(first, second)
        if at is None:
            outside += 1
            continue
        pick, measured = np.array(row["pick"]), np.array(row["measure"])
        judged.append({"street": d.street, "regret": float(measured[pick.argmax()] - measured[at]),
                       "ev_lost": first.ev_lost, "gain": float((pick[at] + measured[at]) / 2 - (
                           pick[0] + measured[0]) / 2),
                       "tie": first.decision_class == "tie", **style(d, first.best.placement)})
        print(i, json.dumps(judged[-1]), flush=True)
    claims = [r for r in judged if r["ev_lost"] >= 1]
    seen = {key: [r[key] for r in judged if r[key] is not None] for key in ("top2", "pair_bottom")}
    return {"log": str(log), "decisions": len(rows), "outside": outside,
            "regret": mean_se([r["regret"] for r in judged]), "claims_1pt": len(claims),
            "claims_that_help": sum(r["gain"] > 0 for r in claims), **steady,
            "ties": sum(r["tie"] for r in judged),
            **{k: f"{sum(v)} of {len(v)}" for k, v in seen.items()},
            "cpu_s": round(time.process_time() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--reference", choices=("lookahead", "careful"), default="lookahead")
    parser.add_argument("--policies", default="learned,best-of-24")
    parser.add_argument("--kind", choices=("both", *dict(KINDS)), default="both",
                        help="review only first fives or only streets 2-3 (the same decisions "
                             "as in a run of both)")
    parser.add_argument("--ahead", type=int, default=DEFAULT_PRECISION.ahead,
                        help="placements the review adds by its one-street lookahead (0: "
                             "version 4's shortlist)")
    parser.add_argument("--combine", nargs="+", type=Path, metavar="LOG",
                        help="summarise the decisions printed by earlier runs (their logs) "
                             "instead of running: several seeds, or runs cut short, as one")
    parser.add_argument("--rejudge", type=Path, metavar="LOG",
                        help="review the decisions of an earlier run (its log; the same "
                             "--seed, --decisions, --hands and --kind) again with this code and "
                             "judge them by the reference values the log holds")
    args = parser.parse_args()
    if args.rejudge:
        print(json.dumps(rejudge(args.rejudge, args)))
        return
    if args.combine:
        print(json.dumps(combine(args.combine, args.policies.split(","))))
        return
    started = time.process_time()
    result = measure(args)
    result["args"] = vars(args)
    result["cpu_total_s"] = round(time.process_time() - started, 1)
    result["load_average"] = round(os.getloadavg()[0], 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
