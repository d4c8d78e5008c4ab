"""The ``ofc`` command. Each subcommand lives in its own module ``ofc_cli.cmd_<name>`` with
``add_arguments(parser)`` and ``run(args) -> int`` (``train-value`` lives in ``cmd_train_value``);
this file only dispatches."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

ONE_BLAS_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""Set to 1 unless the user set them, before any subcommand loads numpy: numpy's OpenBLAS
spreads the learned value's small matrix products over every core, and when another core is
busy its threads spin waiting for each other. A first five's review took 7-21 s of CPU with
the default threads and 0.26-0.36 s with one, beside one other busy process (docs/review.md
"Speed"). The dashboard and Spark's workers, started by ``ofc``, inherit it."""
for _name in ONE_BLAS_THREAD:
    os.environ.setdefault(_name, "1")

COMMANDS: dict[str, str] = {
    "score": "score hands from log files (every supported format), or print the stored "
             "hands of a database",
    "import": "import session logs (files or folders) into the database, or keep importing "
              "what appears in watched folders (--watch)",
    "imports": "list the imports in the database, or remove some (--remove ID...): the hands "
               "another import holds are kept",
    "rescore": "recompute every stored hand from its stored placements",
    "export": "write the database tables as Parquet",
    "simulate": "deal and play sessions by the rules and write them as ofc-hh/1",
    "fl": "the best Fantasyland set of 13-17 dealt cards (exact solver)",
    "dashboard": "start the dashboard (Streamlit)",
    "me": "show, add or remove the names you play under (the dashboard's Me)",
    "alias": "name a player id once (every page shows the name), list or remove aliases",
    "knockout": "run an OFC Double knockout: create, draw, record series, undo",
    "review": "value every logged decision of a player by rollouts (the decisions table)",
    "spark": "score logs and report per player on Apache Spark (pip install ofc-analytics[spark])",
    "train-value": "train the learned value of a position that the review's rollouts play by "
                   "(seeded; writes a weights file)",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ofc", description="OFC Analytics: Open Face Chinese "
                                     "poker tracker.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, help_text in COMMANDS.items():
        module = importlib.import_module(f"ofc_cli.cmd_{name.replace('-', '_')}")
        cmd = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(cmd)
        cmd.set_defaults(_run=module.run)
    return parser


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, options allowed between a command's words (``ofc me add --db x
    ann``), which argparse's own ``parse_args`` refuses once a positional has been read."""
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    args, extra = parser.parse_known_args(words)
    if not extra:
        return args
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command: argparse.ArgumentParser = sub.choices[args.command]
    return command.parse_intermixed_args(words[words.index(args.command) + 1:],
                                         argparse.Namespace(command=args.command))


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
