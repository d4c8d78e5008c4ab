"""Benchmark: ``ofc review`` of a three-handed pineapple session, and how precision buys time.

Simulates ``--hands`` hands of three-handed pineapple (seats ``careful``, ``chaser``,
``careful``; the log as ``Hero``'s room writes it), imports them into a fresh store, and times
``ofc review --player Hero`` on it, in wall and CPU seconds (the command as a user runs it:
loading the hands, rollouts, storing the decisions). Target: 1,000 hands in under 10 minutes
at the default precision.

``--trade P1,P2,...`` reviews the first ``--trade-hands`` hands again at each precision
(points, one standard error) and prints the time and the mean standard error of ``ev_lost``'s
two terms, to show how precision and time trade. ``--policy best-of-24`` times the review with
the clairvoyant best-of-24 instead of the default (the non-clairvoyant learned policy). The
last line printed is JSON.
Usage: ``python benchmarks/bench_review.py [--hands 1000] [--trade 0.25,0.5,1,2] [--policy P]``.

``--bias N`` measures the clairvoyant best-of-24's bias on the first N decisions of the session
where the review found a better placement than the one played: the chosen and the best
placement are valued again on ``--bias-rollouts`` common deals by best-of-24, by a stronger one
of its kind (best of 192), and by the ``careful`` bot playing every street without seeing the
future (slow, in Python); it prints the mean difference of each one's values and EV lost from
best-of-24's, and how often each agrees that the best beats the chosen.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # one core: set before numpy loads

import argparse  # noqa: E402
import contextlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import duckdb  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.stored_hands import load_records  # noqa: E402
from ofc_cli.cli import main as ofc  # noqa: E402
from ofc_core.play.policies import policy  # noqa: E402
from ofc_core.play.positions import spots_of  # noqa: E402
from ofc_core.play.review import parse_placement  # noqa: E402
from ofc_core.play.rollout import BEST_OF_24, BestOfK, BotRollouts, SpotRollouts  # noqa: E402


def quietly(*args: str) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return ofc(list(args))


def store(folder: Path, hands: int, seed: int) -> Path:
    log, db = folder / "session.jsonl", folder / "review.duckdb"
    assert quietly("simulate", "--variant", "pineapple", "--players", "3", "--hands",
                   str(hands), "--seed", str(seed), "--policies", "careful,chaser,careful",
                   "--perspective", "hero", "--hero", "Hero", "--out", str(log)) == 0
    files = sorted(folder.glob("*.jsonl"))
    assert quietly("import", *map(str, files), "--db", str(db)) == 0
    return db


def timed_review(db: Path, *extra: str) -> dict[str, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    assert quietly("review", "--db", str(db), "--player", "Hero", "--again", *extra) == 0
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    con = duckdb.connect(str(db), read_only=True)
    n, rollouts, se, lost = con.execute(
        "SELECT count(*), sum(rollouts), avg(sqrt(chosen_se ^ 2 + best_se ^ 2)), sum(ev_lost) "
        "FROM decisions WHERE player = 'Hero'").fetchone()
    hands = con.execute("SELECT count(DISTINCT hand_id) FROM decisions").fetchone()[0]
    con.close()
    return {"hands": hands, "decisions": n, "rollouts": int(rollouts), "wall_s": round(wall, 1),
            "cpu_s": round(cpu, 1), "mean_se": round(se, 3), "ev_lost_per_hand":
            round(lost / max(hands, 1), 3)}


CHILD = """
import contextlib, io, json, sys, time
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
from ofc_cli.cli import main
wall, cpu = time.perf_counter(), time.process_time()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "wall_s": time.perf_counter() - wall,
                  "cpu_s": time.process_time() - cpu}))
"""
"""One ``ofc`` command in its own process with the code at ``PYTHONPATH`` alone (an editable
install's finder dropped, and run from that code's folder: ``python -c`` puts the working folder
first on the path): its CPU and wall seconds as JSON."""


def run_side(code: Path, *args: str) -> dict[str, float]:
    """:data:`CHILD` with the code at ``code``: ``ofc ARGS``' CPU and wall seconds."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(code)}
    out = subprocess.run([sys.executable, "-c", CHILD, *args], env=env, capture_output=True,
                         text=True, check=True, cwd=code)  # ``-c`` puts the cwd on the path
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["code"] == 0, (code, args)
    return result


def baseline_code(rev: str, folder: Path) -> Path:
    """The code of commit ``rev`` (``git archive``), unpacked under ``folder``."""
    target = folder / f"code-{rev}"
    target.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def decisions_of(db: Path) -> dict[tuple[str, int], tuple[str, float]]:
    """Hero's decisions: (hand, street) -> (best, ev_lost)."""
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT hand_id, street, best, ev_lost FROM decisions "
                       "WHERE player = 'Hero'").fetchall()
    con.close()
    return {(str(h), int(s)): (str(b), float(e)) for h, s, b, e in rows}


def compare(db: Path, rev: str, rounds: int, folder: Path) -> dict[str, object]:
    """``rounds`` reviews of the session logged beside the store ``db`` by the code now and by
    ``rev``, alternating, each side on its own store imported by its own code (an older code
    may not open a newer store's schema); the median CPU seconds of each side, their ratio, and
    how far the decisions of the two sides' last rounds agree."""
    code = {"now": ROOT, "before": baseline_code(rev, folder)}
    stores = {side: folder / f"{side}.duckdb" for side in code}
    logs = [str(f) for f in sorted(db.parent.glob("*.jsonl"))]
    for side, path in stores.items():
        run_side(code[side], "import", *logs, "--db", str(path))
    runs: dict[str, list[dict[str, float]]] = {side: [] for side in code}
    for n in range(rounds):
        for side in (["now", "before"] if n % 2 == 0 else ["before", "now"]):
            got = run_side(code[side], "review", "--db", str(stores[side]), "--player", "Hero",
                           "--again")
            runs[side].append(got)
            print(f"round {n + 1} {side}: {got['cpu_s']:.1f} CPU s ({got['wall_s']:.1f} s wall,"
                  f" load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
    cpu = {side: statistics.median(r["cpu_s"] for r in got) for side, got in runs.items()}
    now, before = decisions_of(stores["now"]), decisions_of(stores["before"])
    common = sorted(set(now) & set(before))
    same = sum(now[k][0] == before[k][0] for k in common)
    return {"baseline": rev, "rounds": rounds, "cpu_s": {k: round(v, 1) for k, v in cpu.items()},
            "cpu_ratio": round(cpu["now"] / cpu["before"], 3),
            "cpu_s_each": {k: [round(r["cpu_s"], 1) for r in got] for k, got in runs.items()},
            "decisions": len(common), "same_best": same,
            "mean_abs_ev_lost_diff": round(sum(abs(now[k][1] - before[k][1]) for k in common)
                                           / max(len(common), 1), 4)}


def bias(db: Path, count: int, rollouts: int) -> dict[str, object]:
    """Values of (chosen, best) pairs under three rollout policies, on the same deals."""
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "SELECT h.hand_key, d.street, d.chosen, d.best FROM decisions d JOIN hands h USING "
        "(source, hand_id) WHERE d.kind <> 'fantasyland set' AND d.ev_lost > 0 "
        "ORDER BY h.hand_key, d.street LIMIT ?", [count]).fetchall()
    records = load_records(con, sorted({k for k, *_ in rows}))
    con.close()
    policies = {"best-of-24": BEST_OF_24, "best-of-192": BestOfK(192),
                "bot-careful": BotRollouts(policy("careful"))}
    values: dict[str, list[tuple[float, float]]] = {name: [] for name in policies}
    seconds = dict.fromkeys(policies, 0.0)
    for key, street, chosen, best in rows:
        spot = next(d.spot for d in spots_of(records[key][0], "Hero") if d.street == street)
        for name, rollout_policy in policies.items():
            start = time.process_time()
            r = SpotRollouts(spot, rollout_policy, seed=street)
            v = r.values([parse_placement(chosen), parse_placement(best)], r.deal(rollouts))
            seconds[name] += time.process_time() - start
            values[name].append((float(v[0].mean()), float(v[1].mean())))
    out: dict[str, object] = {"decisions": len(rows), "rollouts": rollouts}
    base = values["best-of-24"]
    for name, pairs in values.items():
        out[name] = {
            "chosen_ev_minus_best_of_24": round(sum(c - b[0] for (c, _), b in zip(
                pairs, base, strict=True)) / max(len(rows), 1), 3),
            "ev_lost": round(sum(b - c for c, b in pairs) / max(len(rows), 1), 3),
            "agrees_best_is_better": round(sum(b > c for c, b in pairs) / max(len(rows), 1), 3),
            "cpu_s": round(seconds[name], 1)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--trade", default="", help="precisions to compare, e.g. 0.25,0.5,1,2")
    parser.add_argument("--trade-hands", type=int, default=100)
    parser.add_argument("--bias", type=int, default=0, help="decisions to measure the bias on")
    parser.add_argument("--policy", default="learned",
                        help="ofc review's --policy (learned, the default, or best-of-24)")
    parser.add_argument("--bias-rollouts", type=int, default=300)
    parser.add_argument("--baseline", metavar="REV", default=None,
                        help="compare the review's CPU with the code of commit REV")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of --baseline (2)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = store(Path(tmp), args.hands, args.seed)
        if args.baseline:
            result = compare(db, args.baseline, args.rounds, Path(tmp))
            result |= {"hands": args.hands, "load_average": round(os.getloadavg()[0], 1)}
            print(json.dumps(result))
            return
        result: dict[str, object] = {"default": timed_review(db, "--policy", args.policy),
                                     "policy": args.policy}
        trade = {}
        if args.bias:
            result["bias"] = bias(db, args.bias, args.bias_rollouts)
            print(result["bias"], flush=True)
        for p in filter(None, args.trade.split(",")):
            con = duckdb.connect(str(db))
            con.execute("DELETE FROM decisions")
            con.close()
            trade[p] = timed_review(db, "--precision", p, "--hands", str(args.trade_hands))
            print(p, trade[p], flush=True)
        result["trade"] = trade
    result["load_average"] = round(os.getloadavg()[0], 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
