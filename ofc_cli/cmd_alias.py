"""``ofc alias [PLAYER [ALIAS]] [--remove] [--db PATH]``: name a player id once.

The rooms name some players by ids (the pineapple app's ``583dd8fd``). ``ofc alias 583dd8fd
Émile`` names that id; every dashboard page then shows Émile where it showed the id (filters,
links and the store keep the id). ``ofc alias`` lists the aliases, ``ofc alias PLAYER`` shows
one, ``ofc alias PLAYER --remove`` removes it. Aliases are user data: rescoring, merging,
removing imports and upgrading keep them. Works while the dashboard is open (it waits its turn
for the database, ``--wait``). Exit status: 0; 1 when the alias to show or remove is not
there, or a name is refused; 2 if the database could not be used.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import duckdb

from ingest import store
from ingest.api import BadName, aliases, hands_seating, set_alias, upgrade
from ofc_cli.terminal import clean_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("player", nargs="?", metavar="PLAYER",
                        help="the player id as the logs spell it (without: list the aliases)")
    parser.add_argument("alias", nargs="?", metavar="ALIAS",
                        help="the name to show for PLAYER (without: show PLAYER's alias)")
    parser.add_argument("--remove", action="store_true", help="remove PLAYER's alias")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"database file (default: ${store.DB_ENV} or data/ofc.duckdb)")
    parser.add_argument("--wait", metavar="SECONDS", type=float, default=None,
                        help="how long to wait for the database while another process holds "
                             "it (default $OFC_WAIT or 30)")


def _list(found: dict[str, str]) -> int:
    if not found:
        print("no aliases yet: ofc alias PLAYER ALIAS")
        return 0
    print("aliases (player id -> the name every page shows):")
    for player, alias in found.items():
        print(f"  {clean_text(player)} -> {clean_text(alias)}")
    return 0


def _one(args: argparse.Namespace, con: duckdb.DuckDBPyConnection) -> int:
    found = aliases(con)
    if args.player not in found:
        print(f"ofc alias: {clean_text(args.player)} has no alias", file=sys.stderr)
        return 1
    print(f"{clean_text(args.player)} -> {clean_text(found[args.player])}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.remove and (args.player is None or args.alias is not None):
        print("ofc alias: --remove takes a PLAYER and no ALIAS", file=sys.stderr)
        return 2
    path = Path(args.db) if args.db else store.default_db_path()
    if not path.exists():
        print(f"ofc alias: {store.display_path(path)} does not exist yet: import some logs "
              "first (ofc import PATH).", file=sys.stderr)
        return 2
    try:
        con = store.connect(args.db, wait_seconds=args.wait)
        try:
            upgrade(con, args.db)
            if args.player is None:
                return _list(aliases(con))
            if args.alias is None and not args.remove:
                return _one(args, con)
            who = clean_text(args.player)
            if args.remove:
                if not set_alias(con, args.player, ""):
                    print(f"ofc alias: {who} has no alias", file=sys.stderr)
                    return 1
                print(f"removed the alias of {who}")
                return 0
            if not args.alias.strip():
                print("ofc alias: an alias cannot be empty (--remove removes one)",
                      file=sys.stderr)
                return 1
            changed = set_alias(con, args.player, args.alias)
            name = clean_text(args.alias.strip())
            print(f"{who} is shown as {name}" if changed else f"{who} was already {name}")
            if hands_seating(con, args.player, None) == 0:
                print(f"ofc alias: warning: no stored hand seats {who!r} (ids are matched "
                      "exactly); the alias shows once its hands are imported", file=sys.stderr)
            return 0
        finally:
            con.close()
    except BadName as exc:
        print(f"ofc alias: {exc}", file=sys.stderr)
        return 1
    except store.StoreError as exc:
        print(f"ofc alias: {exc}", file=sys.stderr)
        return 2
