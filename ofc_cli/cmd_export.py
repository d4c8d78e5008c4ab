"""``ofc export [--db PATH] --parquet DIR``: write every table of the database as Parquet.

Tables keyed by hand are partitioned by variant and month (``DIR/hands/variant=pineapple/
month=2026-11/...``), the partition columns joined from ``hands``; the ledger, the rejected
hands, ``meta`` and the user's notes and tags (``hand_notes``, ``hand_tags``, ``player_notes``,
``player_tags``, keyed by hand identity or player name) are single files. Exit status 0, or 2
if the database could not be used.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import duckdb

from ingest import store
from ingest.hand_tables import HAND_TABLES
from ingest.identity import ADDED_ORDER
from ingest.notes import NOTE_TABLES

OTHER_TABLES = ("imports", "rejected", "meta", "decisions", "decision_alternatives", "my_names",
                "player_aliases",
                *NOTE_TABLES)
"""Written as one file each: the ledger, the reviewed decisions (keyed by source, hand id
and player, as the notes: valid beside any writer's hand keys) and the user's names and
aliases, so that ``ofc dashboard --parquet`` shows the Review page and "me" as the store
does."""
MONTH = "coalesce(strftime(timezone('UTC', h.played_at), '%Y-%m'), 'unknown')"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"database file (default: ${store.DB_ENV} or data/ofc.duckdb)")
    parser.add_argument("--parquet", metavar="DIR", required=True, type=Path,
                        help="folder to write the Parquet files into (created if needed)")


def _quote(path: Path) -> str:
    """A path as a SQL string literal (COPY ... TO takes no bound parameter)."""
    return "'" + str(path).replace("'", "''") + "'"


def export_parquet(con: duckdb.DuckDBPyConnection, folder: Path) -> dict[str, int]:
    """Write every table under ``folder``; returns the rows written per table."""
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, int] = {}
    for name in HAND_TABLES:
        if name == "hands":
            select = f"SELECT h.*, {MONTH} AS month FROM hands h"
        else:
            # hand_players carries its own copy of the hand's variant (schema v3)
            own = "EXCLUDE (variant)" if name == "hand_players" else ""
            select = (f"SELECT t.* {own}, h.variant, {MONTH} AS month FROM {name} t "
                      "JOIN hands h USING (hand_key)")
        con.execute(f"COPY ({select}) TO {_quote(folder / name)} "
                    "(FORMAT PARQUET, PARTITION_BY (variant, month), OVERWRITE)")
        written[name] = _count(con, name)
    have = {str(t) for (t,) in con.execute(
        "SELECT table_name FROM information_schema.tables").fetchall()}
    for name in OTHER_TABLES:
        if name not in have:  # user data a store of this version gains at its next write
            continue
        rows = f"(SELECT * FROM my_names ORDER BY {ADDED_ORDER})" if name == "my_names" else \
            name  # the names in the order they were added
        con.execute(f"COPY {rows} TO {_quote(folder / f'{name}.parquet')} (FORMAT PARQUET)")
        written[name] = _count(con, name)
    return written


def _count(con: duckdb.DuckDBPyConnection, table: str) -> int:
    row = con.execute(f"SELECT count(*) FROM {table}").fetchone()
    return int(row[0]) if row else 0


def run(args: argparse.Namespace) -> int:
    try:
        con = store.connect(args.db, read_only=True)
        try:
            written = export_parquet(con, args.parquet)
        except duckdb.Error as exc:
            raise store.StoreError(f"exporting: {store.describe_error(exc)}") from None
        finally:
            con.close()
    except (store.StoreError, OSError) as exc:
        print(f"ofc export: {exc}", file=sys.stderr)
        return 2
    for name, rows in written.items():
        print(f"{name}: {rows:,} rows")
    print(f"written to {args.parquet}")
    return 0
