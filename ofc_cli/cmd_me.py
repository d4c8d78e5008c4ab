"""``ofc me [add|remove NAME [--source S]] [--db PATH]``: the names you play under.

Every dashboard page opens on "me": these names together (aliases across rooms). A name with
``--source`` is yours only in that source's hands (``hands.source``: the room, app or home
game); without, in every source. ``ofc me`` lists them, and the heroes of the imported logs
that are not among them yet, rooms by their names (``Seals with Clubs``; the code ``--source``
takes beside it where they differ). ``ofc me add`` warns (and still adds the name) when no stored
hand seats that name, naming the stored names spelled like it. Works while the dashboard is
open: like ``ofc import``, it waits its turn for the database (``--wait``). Exit status: 0;
1 when a name to remove was not there (or a name is refused); 2 if the database could not be
used.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import duckdb

from ingest import store
from ingest.api import (
    BadName,
    MyName,
    add_my_name,
    hands_seating,
    my_names,
    remove_my_name,
    room_name,
    similar_names,
    suggested_names,
    upgrade,
)
from ofc_cli.terminal import clean_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # one positional list, not two optional positionals: argparse gives an option between two
    # of those (`ofc me add --db x.duckdb ann`) to neither
    parser.add_argument("words", nargs="*", metavar="add|remove NAME",
                        help="add or remove NAME, the name as the logs spell it (without: list "
                             "your names)")
    parser.add_argument("--source", metavar="S", default=None,
                        help="the name is yours only in this source's hands (default: every "
                             "source)")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"database file (default: ${store.DB_ENV} or data/ofc.duckdb)")
    parser.add_argument("--wait", metavar="SECONDS", type=float, default=None,
                        help="how long to wait for the database while another process holds "
                             "it (default $OFC_WAIT or 30)")


def room(source: str) -> str:
    """A room by its name (its code where no format names it).

    >>> room("swc"), room("home-game")
    ('Seals with Clubs', 'home-game')
    """
    return clean_text(room_name(source))


def only_in(source: str) -> str:
    """Where a name is yours, with the code ``--source`` takes where it is not the name.

    >>> only_in("swc"), only_in("home-game")
    ('only in Seals with Clubs: --source swc', 'only in home-game')
    """
    code = clean_text(source)
    return f"only in {room(source)}" + (f": --source {code}" if room(source) != code else "")


def _show(names: tuple[MyName, ...], con: duckdb.DuckDBPyConnection) -> None:
    if names:
        print("your names (the dashboard's Me):")
        for n in names:
            where = only_in(n.source) if n.source else "every source"
            print(f"  {clean_text(n.name)}  ({where})")
    else:
        print("no names set yet: ofc me add NAME [--source S]")
    for s in suggested_names(con):
        print(f"  not yet yours? {clean_text(s.name)}: hero of {s.hands:,} hand"
              f"{'s' * (s.hands != 1)} from {room(s.source)} "
              f"(ofc me add {clean_text(s.name)!r})")


def _change(args: argparse.Namespace, con: duckdb.DuckDBPyConnection) -> int:
    upgrade(con, args.db)
    shown = clean_text(args.name) + (f" (only in {room(args.source)})" if args.source else "")
    if args.action == "add":
        added = add_my_name(con, args.name, args.source)
        print(f"added {shown}" if added else f"{shown} was already one of your names")
        if hands_seating(con, args.name, args.source) == 0:
            _warn_unseen(con, args.name, args.source)
        return 0
    if remove_my_name(con, args.name, args.source):
        print(f"removed {shown}")
        return 0
    names = ", ".join(clean_text(str(n)) for n in my_names(con)) or "none"
    print(f"ofc me: {shown} is not one of your names (they are: {names})", file=sys.stderr)
    return 1


def _warn_unseen(con: duckdb.DuckDBPyConnection, name: str, source: str | None) -> None:
    """Say that ``name`` sits in no stored hand (it was added all the same: its logs may come
    later), with the stored names spelled like it."""
    where = f" of {room(source)}" if source else ""
    print(f"ofc me: warning: no stored hand{where} seats {clean_text(name)!r}; it is one of "
          "your names all the same, and counts once logs that name it are imported "
          "(names are matched exactly, case included)", file=sys.stderr)
    alike = similar_names(con, name)
    if alike:
        print("  names in the stored hands like it: "
              + ", ".join(repr(clean_text(n)) for n in alike), file=sys.stderr)


ACTIONS = ("add", "remove")


def _words(args: argparse.Namespace) -> str | None:
    """Set ``args.action`` and ``args.name`` from the words; what is wrong with them, if
    anything."""
    words = list(args.words)
    args.action = words.pop(0) if words else None
    args.name = words.pop(0) if words else None
    if args.action is not None and args.action not in ACTIONS:
        return f"unknown action {clean_text(args.action)!r} (add or remove)"
    if args.action and args.name is None:
        return f"{args.action} needs a NAME"
    if words:
        return f"one NAME at a time (quote a name with spaces): {clean_text(' '.join(words))!r}"
    return None


def run(args: argparse.Namespace) -> int:
    problem = _words(args)
    if problem is not None:
        print(f"ofc me: {problem}", file=sys.stderr)
        return 2
    path = Path(args.db) if args.db else store.default_db_path()
    if not args.action and not path.exists():
        print(f"ofc me: {store.display_path(path)} does not exist yet: import some logs first "
              "(ofc import PATH), or add a name (ofc me add NAME).", file=sys.stderr)
        return 2
    try:
        con = store.connect(args.db, wait_seconds=args.wait)
        try:
            if args.action:
                return _change(args, con)
            upgrade(con, args.db)
            _show(my_names(con), con)
            return 0
        finally:
            con.close()
    except BadName as exc:
        print(f"ofc me: {exc}", file=sys.stderr)
        return 1
    except store.StoreError as exc:
        print(f"ofc me: {exc}", file=sys.stderr)
        return 2
