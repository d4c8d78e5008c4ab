"""``ofc rescore [--db PATH]``: recompute every stored hand from its stored boards and
placements, without reading the log files again (after a rules change or a core upgrade).

Works chunk by chunk (one transaction each) with a progress bar on a terminal. Exit status 0;
1 if a stored hand is no longer valid under the current rules (it is kept as it was, and
listed); 2 if the database could not be used.
"""

from __future__ import annotations

import argparse
import sys
import time

from ingest import store
from ingest.api import rescore, upgrade
from ofc_cli.terminal import Progress, clean_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"database file (default: ${store.DB_ENV} or data/ofc.duckdb)")


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    try:
        con = store.connect(args.db)
        try:  # an upgrade rescores every hand: once is enough
            with Progress("rescoring", notes=False) as bar:
                upgraded = upgrade(con, args.db, progress=bar)
                result = upgraded if upgraded is not None else rescore(con, progress=bar)
        finally:
            con.close()
    except store.StoreError as exc:
        print(f"ofc rescore: {exc}", file=sys.stderr)
        return 2
    for issue in result.failed:
        print(f"not rescored: {clean_text(issue.message)}")
    print(f"rescored {result.hands:,} hands in {time.monotonic() - started:.1f} s"
          + (f"; {len(result.failed)} no longer valid (kept as they were)" if result.failed
             else ""))
    return 1 if result.failed else 0
