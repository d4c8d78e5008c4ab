"""Benchmark: the batch scorer on a million 3-player hands, against a per-hand baseline.

Deals ``--hands`` random 3-player hands (each board 13 distinct cards, the three boards of a
hand disjoint), then times on ONE core:

- the per-board work (row strengths, foul, royalties) of :func:`ofc_core.batch_boards.score_boards`
  on all ``3 * hands`` boards: ``boards_per_s`` (best of ``--repeat``);
- the full 3-player pairwise :func:`ofc_core.batch.score_batch`:
  ``score_batch_hands_per_s``;
- a per-board baseline in Python built on phevaluator (the fastest installed evaluator: its
  ``evaluate_cards`` for the 5-card rows, a dict keyed by sorted ranks for the 3-card top, foul
  and royalties per board in Python) on ``--baseline-boards`` boards, checked against the batch
  results: ``baseline_boards_per_s``;
- :func:`ofc_core.batch.score_records` on ``--records`` hand records (regular and pineapple
  mixed), from the objects to the arrays;
- the scalar :func:`ofc_core.scoring.score_hand` on a few thousand hands, for scale;
- :func:`ofc_core.batch.score_batch` on ``--joker-hands`` 3-player hands dealt from a 54-card
  deck under ``joker-pineapple`` (about half the boards hold a joker, resolved by the
  vectorised candidate search): ``joker_hands_per_s``, and on the same number of hands under
  ``2-7-pineapple``: ``low_27_hands_per_s``.

Each figure is the best of ``--repeat`` runs, by wall clock (``*_per_s``) and by CPU time
(``*_per_cpu_s``: less sensitive to other processes on a shared machine). The last line
printed is JSON. Usage: ``python benchmarks/bench_scoring.py [--hands N]``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # one core: set before numpy loads

import argparse  # noqa: E402
import bisect  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ofc_core import batch, batch_boards, row_tables  # noqa: E402
from ofc_core.board import Board, Row  # noqa: E402
from ofc_core.cards import DECK  # noqa: E402
from ofc_core.evaluate import evaluate  # noqa: E402
from ofc_core.hand import HandRecord, PlayerRecord  # noqa: E402
from ofc_core.rules import PRESETS, RoyaltyTable  # noqa: E402
from ofc_core.scoring import Seat, score_hand  # noqa: E402


def deal_jokers(hands: int, seed: int) -> np.ndarray:
    """``(hands, 3, 13)`` card indexes from a 54-card deck (jokers 52 and 53)."""
    rng = np.random.default_rng(seed + 1)
    deck = np.tile(np.arange(54, dtype=np.uint8), (hands, 1))
    return rng.permuted(deck, axis=1)[:, :39].reshape(hands, 3, 13)


def deal(hands: int, seed: int) -> np.ndarray:
    """``(hands, 3, 13)`` uint8 card indexes: the first 39 cards of a shuffled deck per hand."""
    rng = np.random.default_rng(seed)
    out = np.empty((hands, 3, 13), np.uint8)
    deck = np.arange(52, dtype=np.uint8)
    for start in range(0, hands, 100_000):
        n = min(100_000, hands - start)
        shuffled = rng.permuted(np.tile(deck, (n, 1)), axis=1)
        out[start:start + n] = shuffled[:, :39].reshape(n, 3, 13)
    return out


def seats_of(hands: np.ndarray) -> list[list[Seat]]:
    """Scalar seats (named 0, 1, 2) for ``(N, 3, 13)`` card indexes."""
    return [
        [Seat(str(i), Board(*(tuple(DECK[c] for c in b[s]) for s in
                              (slice(0, 3), slice(3, 8), slice(8, 13))))) for i, b in enumerate(h)]
        for h in hands.tolist()
    ]


def best_time(fn, repeat: int) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds of ``repeat`` runs (the machine is shared: CPU time
    is what one core spent, wall time includes waiting for it)."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu)


# --------------------------------------------------------------------------------------------
# Baseline: one board at a time, phevaluator for the 5-card rows


class PhevaluatorBaseline:
    """Foul and royalties per board in plain Python around ``phevaluator.evaluate_cards``.

    phevaluator ranks 5-card hands 1 (royal flush) .. 7462 (7-5-4-3-2), lower is stronger. The
    top is looked up by its sorted ranks: its royalty, and the weakest 5-card rank that is not
    below it (the middle fouls when it ranks worse).
    """

    def __init__(self, table: RoyaltyTable) -> None:
        from phevaluator import evaluate_cards

        self.evaluate_cards = evaluate_cards
        # One representative per 5-card rank class: (phevaluator rank, our strength).
        classes = {}
        for ranks in itertools.combinations_with_replacement(range(13), 5):
            if max(ranks.count(r) for r in ranks) > 4:
                continue
            cards = [r * 4 + (k % 4) for k, r in enumerate(ranks)]
            for hand in (cards, [r * 4 for r in ranks]) if len(set(ranks)) == 5 else (cards,):
                classes[evaluate_cards(*hand)] = evaluate([DECK[c] for c in hand])
        ordered = sorted(classes.items(), key=lambda kv: kv[1])  # weakest first
        strengths = [s for _, s in ordered]
        if [pv for pv, _ in ordered] != sorted(classes, reverse=True):
            raise AssertionError("phevaluator and our scale disagree on 5-card order")
        self.top = {}
        for ranks in itertools.combinations_with_replacement(range(13), 3):
            top = evaluate([DECK[r * 4 + k] for k, r in enumerate(ranks)])
            weakest_legal = ordered[bisect.bisect_left(strengths, top)][0]
            self.top[ranks] = (weakest_legal, table.points(Row.TOP, top))
        # Royalty of a 5-card row by phevaluator rank: class bounds, best first.
        self.bounds = [1, 10, 166, 322, 1599, 1609, 2467]  # royal, SF, quads, FH, flush, str, trips
        self.middle = [self._points(table, Row.MIDDLE, pv, classes) for pv in self.bounds]
        self.bottom = [self._points(table, Row.BOTTOM, pv, classes) for pv in self.bounds]
        self.middle.append(0)
        self.bottom.append(0)

    @staticmethod
    def _points(table: RoyaltyTable, row: Row, pv: int, classes: dict[int, int]) -> int:
        return table.points(row, classes[pv])

    def score_board(self, cards: list[int]) -> tuple[bool, tuple[int, int, int]]:
        a, b, c = sorted((cards[0] >> 2, cards[1] >> 2, cards[2] >> 2))
        weakest_legal, top_royalty = self.top[a, b, c]
        middle = self.evaluate_cards(*cards[3:8])
        bottom = self.evaluate_cards(*cards[8:13])
        if middle > weakest_legal or bottom > middle:
            return True, (0, 0, 0)
        return False, (top_royalty, self.middle[bisect.bisect_left(self.bounds, middle)],
                       self.bottom[bisect.bisect_left(self.bounds, bottom)])


# --------------------------------------------------------------------------------------------


def machine() -> dict[str, object]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": model, "python": platform.python_version(),
            "numpy": np.__version__}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--baseline-boards", type=int, default=20_000)
    parser.add_argument("--scalar-hands", type=int, default=2_000)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--joker-hands", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    ruleset = PRESETS["regular"]

    start = time.perf_counter()
    row_tables.row_tables.cache_clear()
    row_tables.row_tables()
    table_build_s = time.perf_counter() - start

    hands = deal(args.hands, args.seed)
    boards = hands.reshape(-1, 13)
    print(f"dealt {len(hands):,} hands, {len(boards):,} boards", file=sys.stderr)

    batch_boards.score_boards(boards[:10_000], ruleset.paid_royalties)  # warm up
    table = ruleset.paid_royalties
    board_s, board_cpu = best_time(lambda: batch_boards.score_boards(boards, table), args.repeat)
    print(f"per-board work: {len(boards) / board_s / 1e6:.1f}M boards/s", file=sys.stderr)
    rows_s, _ = best_time(lambda: row_tables.evaluate_rows(boards), args.repeat)
    scored = batch_boards.score_boards(boards, ruleset.paid_royalties)

    hand_s, hand_cpu = best_time(lambda: batch.score_batch(hands, ruleset), args.repeat)
    print(f"score_batch: {len(hands) / hand_s / 1e6:.2f}M hands/s", file=sys.stderr)

    baseline = PhevaluatorBaseline(ruleset.paid_royalties)
    sample = boards[: args.baseline_boards].tolist()
    results = [baseline.score_board(b) for b in sample]
    baseline_s, baseline_cpu = best_time(lambda: [baseline.score_board(b) for b in sample],
                                         args.repeat)
    agrees = all(
        foul == bool(scored.fouled[k]) and royalties == tuple(scored.royalties[k].tolist())
        for k, (foul, royalties) in enumerate(results)
    )

    seats = seats_of(hands[: args.scalar_hands])
    start = time.perf_counter()
    for hand in seats:
        score_hand(hand, ruleset)
    scalar_s = time.perf_counter() - start

    records = [
        HandRecord("bench", str(k), ("regular", "pineapple")[k % 2],
                   tuple(PlayerRecord(seat.name, i, seat.board) for i, seat in enumerate(hand)))
        for k, hand in enumerate(seats_of(hands[: args.records]))
    ]
    records_s, records_cpu = best_time(lambda: batch.score_records(records), args.repeat)

    joker_hands = deal_jokers(args.joker_hands, args.seed)
    joker_s, joker_cpu = best_time(
        lambda: batch.score_batch(joker_hands, PRESETS["joker-pineapple"]), args.repeat)
    low_hands = hands[: args.joker_hands]
    low_s, _ = best_time(lambda: batch.score_batch(low_hands, PRESETS["2-7-pineapple"]),
                         args.repeat)
    print(f"jokers: {len(joker_hands) / joker_s:,.0f} hands/s", file=sys.stderr)

    boards_per_s = len(boards) / board_s
    baseline_per_s = len(sample) / baseline_s
    report = {
        "boards_per_s": round(boards_per_s),
        "baseline_boards_per_s": round(baseline_per_s),
        "ratio": round(boards_per_s / baseline_per_s, 1),
        "boards_per_cpu_s": round(len(boards) / board_cpu),
        "baseline_boards_per_cpu_s": round(len(sample) / baseline_cpu),
        "ratio_cpu": round(len(boards) / board_cpu / (len(sample) / baseline_cpu), 1),
        "baseline_agrees": agrees,
        "evaluate_rows_boards_per_s": round(len(boards) / rows_s),
        "score_batch_hands_per_s": round(len(hands) / hand_s),
        "score_batch_hands_per_cpu_s": round(len(hands) / hand_cpu),
        "score_batch_boards_per_s": round(3 * len(hands) / hand_s),
        "score_records_per_s": round(len(records) / records_s),
        "score_records_per_cpu_s": round(len(records) / records_cpu),
        "scalar_hands_per_s": round(len(seats) / scalar_s),
        "joker_hands_per_s": round(len(joker_hands) / joker_s),
        "joker_hands_per_cpu_s": round(len(joker_hands) / joker_cpu),
        "joker_boards_with_a_joker": round(float((joker_hands >= 52).any(axis=2).mean()), 3),
        "low_27_hands_per_s": round(len(low_hands) / low_s),
        "boards": len(boards),
        "hands": len(hands),
        "baseline_boards": len(sample),
        "table_build_s": round(table_build_s, 3),
        "chunk_boards": row_tables.CHUNK_BOARDS,
        "chunk_hands": batch.CHUNK_HANDS,
        "repeat": args.repeat,
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        **machine(),
    }
    print(json.dumps(report))
    return 0 if agrees else 1


if __name__ == "__main__":
    sys.exit(main())
