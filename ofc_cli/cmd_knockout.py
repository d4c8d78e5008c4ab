"""``ofc knockout ACTION NAME ...``: run a club's OFC Double knockout (seed 004) from the
command line, as the dashboard's Knockout page does (docs/tournaments.md):

- ``create NAME --players A,B,... | --players-file FILE [--seed N]``: at least 16 players; the
  first round is drawn at random with the seed (shown), byes said where they fall;
- ``show NAME`` (or ``list``): the bracket round by round, what is left to play;
- ``record NAME A B --winner A --score 2-1`` (``2-0``, ``2-1``, ``forfeit``), or
  ``record NAME A B --from-matches``: the series from the imported Double matches between A
  and B since the round was drawn (``--any-time``: whenever played);
- ``draw NAME``: the next round, once every series of this one is recorded;
- ``undo NAME``: the latest change undone; ``log NAME``: every change, who and when.

``--who`` names who makes the change (default: the user's login name). Exit status: 0; 1 when
the bracket refuses the change (the message says why); 2 for bad arguments or a database that
cannot be used.
"""

from __future__ import annotations

import argparse
import getpass
import random
import sys
from pathlib import Path

import duckdb

from ingest import store
from ingest.api import (
    KnockoutError,
    create_knockout,
    draw_knockout_round,
    knockout_bracket,
    knockout_brackets,
    knockout_log,
    record_knockout_from_matches,
    record_knockout_series,
    undo_knockout,
    upgrade,
)
from ofc_cli.terminal import clean_text
from ofc_core.knockout import Bracket, Pair

ACTIONS = ("create", "show", "list", "record", "draw", "undo", "log")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("words", nargs="*", metavar="ACTION NAME [A B]",
                        help=f"one of {', '.join(ACTIONS)}, the knockout's name, and for "
                             "record the pair")
    parser.add_argument("--players", default=None, help="create: comma-separated names")
    parser.add_argument("--players-file", default=None,
                        help="create: a text file, one name a line")
    parser.add_argument("--seed", type=int, default=None,
                        help="create: the draw's seed (default: a random one, shown)")
    parser.add_argument("--winner", default=None, help="record: who won the series")
    parser.add_argument("--score", default=None, help="record: 2-0, 2-1 or forfeit")
    parser.add_argument("--from-matches", action="store_true",
                        help="record: from the imported Double matches between the pair")
    parser.add_argument("--any-time", action="store_true",
                        help="record --from-matches: matches played before the round's draw "
                             "count too")
    parser.add_argument("--who", default=None, help="who makes the change (default: you)")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"database file (default: ${store.DB_ENV} or data/ofc.duckdb)")


def _pair_text(p: Pair) -> str:
    a = clean_text(p.a)
    if p.b is None:
        return f"{a}: bye"
    b = clean_text(p.b)
    if p.series is None:
        return f"{a} - {b}: to play"
    return f"{a} - {b}: {clean_text(p.series.winner)} won {p.series.score}"


def bracket_text(b: Bracket) -> str:
    """The bracket as text: the seed, round by round, the byes and the champion."""
    lines = [f"knockout {clean_text(b.name)}: {len(b.players)} players, draw of {b.size}, "
             f"seed {b.seed}"]
    if b.byes:
        lines.append(f"byes in round 1 (straight to round 2): "
                     f"{', '.join(clean_text(n) for n in b.byes)}")
    for n, pairs in enumerate(b.rounds, start=1):
        lines.append(f"round {n} of {b.total_rounds}:")
        lines += [f"  {_pair_text(p)}" for p in pairs]
    if b.champion is not None:
        lines.append(f"winner: {clean_text(b.champion)}")
    elif b.round_over:
        lines.append(f"round {len(b.rounds)} is over: ofc knockout draw {clean_text(b.name)}")
    return "\n".join(lines)


def _players(args: argparse.Namespace) -> list[str]:
    if args.players_file:
        text = Path(args.players_file).read_text(encoding="utf-8")
        return [line.strip() for line in text.splitlines() if line.strip()]
    return [p.strip() for p in (args.players or "").split(",") if p.strip()]


def _act(con: duckdb.DuckDBPyConnection, args: argparse.Namespace, action: str, name: str,
         pair: list[str]) -> Bracket | None:
    who = args.who or getpass.getuser()
    if action == "create":
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        return create_knockout(con, name, _players(args), seed, who)
    if action == "record":
        if len(pair) != 2:
            raise KnockoutError("record needs the pair: ofc knockout record NAME A B")
        players = (pair[0], pair[1])
        if args.from_matches:
            return record_knockout_from_matches(con, name, players, who, not args.any_time)
        if not args.winner or not args.score:
            raise KnockoutError("record needs --winner and --score (2-0, 2-1, forfeit), or "
                                "--from-matches")
        return record_knockout_series(con, name, players, args.winner, args.score, who)
    if action == "draw":
        return draw_knockout_round(con, name, who)
    if action == "undo":
        return undo_knockout(con, name, who)
    if action == "log":
        for row in knockout_log(con, name):
            print(f"{row.seq:>3} {row.changed_at} {clean_text(row.who)}: {row.action} "
                  f"{clean_text(str(row.data)) if row.data else ''}".rstrip())
        return None
    return knockout_bracket(con, name)


def run(args: argparse.Namespace) -> int:
    words = list(args.words)
    action = words.pop(0) if words else "list"
    if action not in ACTIONS:
        print(f"ofc knockout: unknown action {clean_text(action)!r} (one of "
              f"{', '.join(ACTIONS)})", file=sys.stderr)
        return 2
    if action != "list" and not words:
        print(f"ofc knockout: {action} needs the knockout's NAME", file=sys.stderr)
        return 2
    try:
        con = store.connect(args.db)
        try:
            upgrade(con, args.db)
            if action == "list":
                for name in knockout_brackets(con):
                    print(clean_text(name))
                return 0
            shown = _act(con, args, action, words[0], words[1:])
            if shown is not None:
                print(bracket_text(shown))
            return 0
        finally:
            con.close()
    except (KnockoutError, ValueError, OSError) as exc:
        print(f"ofc knockout: {clean_text(str(exc))}", file=sys.stderr)
        return 1
    except store.StoreError as exc:
        print(f"ofc knockout: {exc}", file=sys.stderr)
        return 2
