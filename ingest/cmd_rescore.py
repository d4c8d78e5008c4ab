"""``ofc rescore [--db PATH]``: recompute every stored hand from its stored boards and
placements, without reading the log files again (after a rules change or a core upgrade).

Works chunk by chunk (one transaction each) with a progress bar on a terminal. Exit status 0,
or 2 if the database could not be used.
"""

from __future__ import annotations

import argparse
import sys
import time

from . import store
from .cmd_import import ProgressBar
from .importer import rescore


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"database file (default: ${store.DB_ENV} or data/ofc.duckdb)")


def run(args: argparse.Namespace) -> int:
    bar = ProgressBar(sys.stderr)
    started = time.monotonic()
    try:
        con = store.connect(args.db)
        try:
            done = rescore(con, progress=bar)
        finally:
            con.close()
    except store.StoreError as exc:
        bar.close()
        print(f"ofc rescore: {exc}", file=sys.stderr)
        return 2
    bar.close()
    print(f"rescored {done:,} hands in {time.monotonic() - started:.1f} s")
    return 0
