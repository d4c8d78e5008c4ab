"""Fuzz benchmark of the import: ``--hands`` hands (default 100,000) of every preset, about a
quarter broken in every way the docs forbid and half of the valid ones written in every way
they allow (see :mod:`benchmarks.fuzz_lib`), imported twice, scored by ``ofc score`` and
rescored; the last line printed is JSON:
``{"hands", "broken", "crashes", "mismatches", "seconds"}``. ``crashes`` counts exceptions that
escaped (or files failed as a whole by one), ``mismatches`` every hand not reported, stored or
scored as it should be. The first problems found are printed before it.

    python benchmarks/fuzz_import.py --hands 100000 [--seed 1] [--per-file 25000]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import fuzz_lib  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-file", type=int, default=25_000,
                        help="lines in the larger files (the importer reads 20,000 at a time)")
    parser.add_argument("--chunk", type=int, default=fuzz_lib.CHUNK,
                        help="the importer's chunk of lines (default: its own)")
    args = parser.parse_args()
    started = time.perf_counter()

    def say(what: str) -> None:
        print(f"{time.perf_counter() - started:7.1f} s  {what}", file=sys.stderr, flush=True)

    say(f"building {args.hands:,} hands")
    corpus = fuzz_lib.build(args.hands, seed=args.seed, per_file=args.per_file,
                            chunk=args.chunk)
    say(f"{len(corpus.files)} files, {sum(len(d) for _, d in corpus.files) / 1e6:,.0f} MB, "
        f"{corpus.broken:,} broken hands")
    with tempfile.TemporaryDirectory(prefix="ofc-fuzz-") as work:
        outcome = fuzz_lib.run(corpus, Path(work), chunk=args.chunk, say=say)
    for problem in outcome.problems:
        print(problem)
    outcome.seconds = time.perf_counter() - started
    print(json.dumps(outcome.figures()))
    return 1 if outcome.crashes or outcome.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
