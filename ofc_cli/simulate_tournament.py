"""``ofc simulate --tournament chips|knockout``: a whole tournament played by the engine
(:mod:`ofc_core.play.tournaments`), written as real logs: the hands to ``--out``
(ofc-hh/1, each hand with its ``tournament``) and the tournament's summary beside them
(``ofc-tournament/1``: ``hands.jsonl`` -> ``hands.tournament.jsonl``). See docs/simulator.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from ingest.formats.ofc_hh import write_records
from ingest.formats.ofc_tournament import dumps_summary
from ofc_cli.terminal import Progress
from ofc_core.hand import HandRecord
from ofc_core.play.tournaments import ChipPlan, KnockoutPlan, play_chip_tournament, play_knockout
from ofc_core.rules import Ruleset
from ofc_core.tournament import TournamentSummary


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The tournament options of ``ofc simulate``."""
    group = parser.add_argument_group("tournaments (--tournament)")
    group.add_argument("--tournament", choices=("chips", "knockout"), default=None,
                       help="play a whole tournament: chips (a chip tournament of one or "
                            "several tables) or knockout (OFC Double, --variant double)")
    group.add_argument("--entrants", type=int, default=None,
                       help="players (default 9 for chips, 16 for a knockout: 16, 32, ...)")
    group.add_argument("--table-size", type=int, default=None,
                       help="chips: most players at a table (default: 3, the variant's most)")
    group.add_argument("--starting-stack", type=float, default=1500,
                       help="chips: each player's chips at the start (default 1500)")
    group.add_argument("--hands-per-level", type=int, default=8,
                       help="chips: hands of each table at a level (default 8); the chips a "
                            "point is worth rise 10, 15, 20, 30, 50, 75, 100, ...")
    group.add_argument("--buy-in", type=float, default=10.0, help="buy-in (default 10)")
    group.add_argument("--fee", type=float, default=1.0, help="the house's fee (default 1)")
    group.add_argument("--forfeit-rate", type=float, default=0.05,
                       help="knockout: share of series lost by forfeit (default 0.05)")
    group.add_argument("--tournament-id", default=None,
                       help="the tournament's id (default sim-KIND-sSEED)")


def summary_path(out: str) -> Path:
    """Where the summary goes: ``hands.jsonl`` -> ``hands.tournament.jsonl``.

    >>> str(summary_path("logs/wk49.jsonl"))
    'logs/wk49.tournament.jsonl'
    """
    path = Path(out)
    return path.with_name(f"{path.stem}.tournament{path.suffix or '.jsonl'}")


def _names(args: argparse.Namespace, count: int) -> tuple[str, ...]:
    if args.names:
        names = tuple(n.strip() for n in args.names.split(",") if n.strip())
        if len(names) != count:
            raise ValueError(f"--names gives {len(names)} names for {count} entrants")
        return names
    return tuple(f"Player{k:02d}" for k in range(1, count + 1))


def play(args: argparse.Namespace, ruleset: Ruleset, bar: Progress,
         ) -> tuple[list[HandRecord], TournamentSummary]:
    """The tournament the arguments describe, played (``ValueError`` on bad arguments)."""
    rng = random.Random(args.seed)
    policies = tuple(p.strip() for p in args.policies.split(",") if p.strip()) or ("careful",)
    tid = args.tournament_id or f"sim-{args.tournament}-s{args.seed}"
    if args.tournament == "knockout":
        if ruleset.match_target is None:
            raise ValueError("--tournament knockout plays OFC Double: use --variant double")
        if not 0 <= args.forfeit_rate <= 1:
            raise ValueError("--forfeit-rate is a fraction between 0 and 1")
        plan = KnockoutPlan(tid, _names(args, args.entrants or 16), args.forfeit_rate,
                            args.buy_in, args.fee, args.currency, policies, name=tid)
        return play_knockout(plan, rng, lambda n: bar(n, n))
    if ruleset.match_target is not None:
        raise ValueError("a chip tournament is not played to a match target: choose another "
                         "--variant than double")
    size = args.table_size or min(3, ruleset.max_players)
    if not ruleset.min_players <= size <= ruleset.max_players:
        raise ValueError(f"--table-size {size}: {ruleset.variant} is played by "
                         f"{ruleset.player_range} players")
    if args.starting_stack <= 0 or args.hands_per_level < 1:
        raise ValueError("--starting-stack and --hands-per-level must be more than 0")
    chip_plan = ChipPlan(tid, _names(args, args.entrants or 9), ruleset, size,
                         args.starting_stack, hands_per_level=args.hands_per_level,
                         buy_in=args.buy_in, fee=args.fee, currency=args.currency,
                         policies=policies, name=tid)
    return play_chip_tournament(chip_plan, rng, lambda n: bar(n, n))


def run(args: argparse.Namespace, ruleset: Ruleset) -> int:
    """Play and write the tournament; the exit status."""
    out, summary_out = Path(args.out), summary_path(args.out)
    there = [str(p) for p in (out, summary_out) if p.exists()]
    if there and not args.force:
        print(f"ofc simulate: {', '.join(there)} already exist; choose another --out, or "
              "pass --force to replace", file=sys.stderr)
        return 2
    try:
        with Progress("simulating") as bar:
            hands, summary = play(args, ruleset, bar)
    except ValueError as exc:
        print(f"ofc simulate: {exc}", file=sys.stderr)
        return 2
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w", encoding="utf-8", newline="") as fp:
            write_records(hands, fp)
        summary_out.write_text(dumps_summary(summary) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"ofc simulate: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"{out}: {len(hands)} hands; {summary_out}: the summary "
          f"({len(summary.finishes)} players, winner {summary.finishes[0].player})",
          file=sys.stderr)
    return 0
