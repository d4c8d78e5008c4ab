"""``ofc train-value --variant V --out FILE [--seed S] [--hands N] [--deals D] [--epochs E]
[--teacher] [--json]``: train the learned value of a position (:mod:`ofc_core.play.value_train`)
and write its weights file: the small networks distilled from the ones fitted to the labels
(``--teacher``: those).

The shipped weights (``ofc_core/play/data/value-<preset>.npz``, one per preset but
``double``) were made by this command with ``--seed 1`` and its defaults (pineapple's) or
``--teacher`` (the other presets', whose distilled values are not measured yet);
docs/review-method.md says how each is made, docs/benchmarks.md how long each took and how
well it fits; a house rule can train its own with the same seed and compare. A progress bar
on a terminal counts each stage (the simulated hands, then the positions labelled street by
street). At the end one line per network: the positions held out, their root mean squared
error against the labels, the labels' spread, R squared and the labels' own sampling error.
Exit status 0; 2 for an unknown variant or one the training does
not know (``double``), or an output it cannot write.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from ofc_cli.terminal import Progress
from ofc_core.play.value import save_value
from ofc_core.play.value_train import train
from ofc_core.rules import PRESETS

TRAINABLE = ("pineapple", "progressive-pineapple", "regular", "turbo", "joker-pineapple",
             "2-7-pineapple")
"""Presets the training knows: every preset but ``double`` (a race, whose points are what a
seat banks: the terminal value scores pairwise points)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", required=True, help=f"the preset ({', '.join(TRAINABLE)})")
    parser.add_argument("--out", required=True, metavar="FILE", help="the weights file (.npz)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of everything random")
    parser.add_argument("--hands", type=int, default=6000, metavar="N",
                        help="simulated hands that give the positions (default 6000)")
    parser.add_argument("--deals", type=int, default=10, metavar="D",
                        help="sampled next streets per position label (default 10)")
    parser.add_argument("--epochs", type=int, default=15, metavar="E",
                        help="passes of the fit over the positions (default 15)")
    parser.add_argument("--teacher", action="store_true",
                        help="write the networks fitted to the labels, not the smaller ones "
                             "distilled from them")
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")


def run(args: argparse.Namespace) -> int:
    if args.variant not in TRAINABLE:
        known = "unknown preset" if args.variant not in PRESETS else "not trainable"
        print(f"ofc train-value: --variant {args.variant!r}: {known} (trainable: "
              f"{', '.join(TRAINABLE)})", file=sys.stderr)
        return 2
    if min(args.hands, args.deals, args.epochs) < 1 or args.deals < 2:
        print("ofc train-value: --hands and --epochs must be at least 1, --deals at least 2",
              file=sys.stderr)
        return 2
    out = Path(args.out)
    if not out.parent.is_dir():
        print(f"ofc train-value: --out {out}: no such folder {out.parent}", file=sys.stderr)
        return 2
    bars: dict[str, Progress] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if stage not in bars:
            for bar in bars.values():
                bar.close()
            bars[stage] = Progress(stage, "position" if stage != "positions" else "hand")
        bars[stage](done, total)

    result = train(args.variant, hands=args.hands, deals=args.deals, epochs=args.epochs,
                   seed=args.seed, progress=progress, small=not args.teacher)
    for bar in bars.values():
        bar.close()
    try:
        save_value(result.value, out)
    except OSError as exc:
        print(f"ofc train-value: cannot write {out}: {exc.strerror}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"out": str(out), "cpu_seconds": result.value.meta["cpu_seconds"],
                          "held_out": [asdict(r) for r in result.reports]}))
        return 0
    print(f"wrote {out} ({out.stat().st_size:,} bytes), {result.value.meta['cpu_seconds']} CPU s")
    for r in result.reports:
        print(f"  {r.cards:2d} cards: {r.positions:,} held out, rmse {r.rmse} (labels' spread "
              f"{r.spread}, R^2 {r.r2}, labels' own error {r.label_se}), {r.seconds} CPU s")
    return 0
