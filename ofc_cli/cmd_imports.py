"""``ofc imports [--remove ID...] [--db PATH] [--json]``: the imports in the database, one line
each (id, when, format, hands read and stored, the file), or remove some of them.

Removing an import deletes the hands no other import holds and keeps every hand another
import holds a copy of, made again from its best remaining copy (``ingest.removal``); the
command says how many of each. Exit status: 0, 1 when an id is not an import, 2 if the
database could not be used.
"""

from __future__ import annotations

import argparse
import json
import sys

import duckdb

from ingest import store
from ingest.api import remove_imports, upgrade
from ofc_cli.terminal import clean_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--remove", nargs="+", type=int, metavar="ID", default=[],
                        help="remove these imports (ids from the list): the hands another "
                             "import holds are kept")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"database file (default: ${store.DB_ENV} or data/ofc.duckdb)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--wait", metavar="SECONDS", type=float, default=None,
                        help="how long to wait for the database while another process holds "
                             "it (default $OFC_WAIT or 30)")


LIST = ("SELECT import_id, strftime(imported_at, '%Y-%m-%d %H:%M'), coalesce(format, '-'), "
        "hands, stored, (SELECT count(*) FROM hands h WHERE h.import_id = i.import_id), path "
        "FROM imports i ORDER BY import_id")


def run(args: argparse.Namespace) -> int:
    try:
        con = store.connect(args.db, wait_seconds=args.wait)
    except store.StoreError as exc:
        print(f"ofc imports: {exc}", file=sys.stderr)
        return 2
    try:
        upgrade(con, args.db)
        if args.remove:
            return _remove(con, args)
        rows = con.execute(LIST).fetchall()
    finally:
        con.close()
    if args.json:
        keys = ("import_id", "imported_at", "format", "hands", "stored", "holds", "path")
        print(json.dumps([dict(zip(keys, r, strict=True)) for r in rows], ensure_ascii=False))
        return 0
    if not rows:
        print("no imports yet: ofc import PATH...")
    for i, when, fmt, hands, stored, holds, path in rows:
        print(f"{i:>6}  {when}  {clean_text(fmt):<14} {hands:>7,} read {stored:>7,} stored "
              f"{holds:>7,} held  {clean_text(path)}")
    return 0


def _remove(con: duckdb.DuckDBPyConnection, args: argparse.Namespace) -> int:
    known = {int(i) for (i,) in con.execute("SELECT import_id FROM imports").fetchall()}
    unknown = [i for i in args.remove if i not in known]
    if unknown:
        print(f"ofc imports: no import {', '.join(map(str, unknown))} (see ofc imports)",
              file=sys.stderr)
        return 1
    removal = remove_imports(con, args.remove)
    print(json.dumps(removal.to_dict()) if args.json else removal.message())
    return 0
