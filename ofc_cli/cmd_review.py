"""``ofc review --player NAME [--db PATH] [--since DATE] [--hands N] [--variant V]
[--rollouts N | --precision P] [--policy P] [--again] [--json]``: value every logged decision of
a player by rollouts (docs/review.md) and store them in the ``decisions`` table.

The rollouts are played by the non-clairvoyant policy of the learned value of each hand's preset
(``--policy learned``, the default: :data:`ofc_core.play.review.REVIEW_POLICY`; a preset without
shipped weights, such as ``double``, by the clairvoyant ``best-of-24``); ``--policy best-of-24``
plays every hand by best-of-24, about four times quicker and clairvoyant (docs/review.md).

Resumable: hands already reviewed by this version of the review are skipped (an interrupted
review goes on where it stopped); ``--again`` reviews them again (after a code change, or at
another precision). On a terminal a progress bar counts the hands reviewed of the total, with
the rate and the time left. Hands with no decision to review are counted by reason at the end (``not
reviewed: 12 hands: the log shows final boards only, not the streets``), never passed over
silently. Exit status 0; 1 if the player has no stored hands; 2 if the database could not be
used.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace

import duckdb

from ingest import store
from ingest.api import (
    DecisionRow,
    decision_row,
    player_hands,
    reviewed_hands,
    upgrade,
    write_decisions,
)
from ingest.api import (
    policy_name as policy_name,  # where tests and older callers find it
)
from ingest.stored_hands import load_records
from ofc_cli.terminal import Progress, clean_text
from ofc_core.play.review import (
    DEFAULT_PRECISION,
    REVIEW_POLICY,
    REVIEW_VERSION,
    Precision,
    not_reviewed,
    review_hand,
)
from ofc_core.play.rollout import BEST_OF_24, RolloutPolicy

POLICIES: dict[str, RolloutPolicy] = {REVIEW_POLICY.name: REVIEW_POLICY,
                                      BEST_OF_24.name: BEST_OF_24}
"""The rollout policies ``--policy`` chooses from (the first is the default)."""

CHUNK = 25
"""Hands loaded, reviewed and stored together (one transaction): what an interruption loses."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"database file (default: ${store.DB_ENV} or data/ofc.duckdb)")
    parser.add_argument("--player", required=True, help="whose decisions to review")
    parser.add_argument("--since", metavar="DATE", default=None,
                        help="only hands played from this date (YYYY-MM-DD)")
    parser.add_argument("--hands", metavar="N", type=int, default=None,
                        help="only the player's last N hands")
    parser.add_argument("--variant", default=None, help="only hands of this variant")
    parser.add_argument("--rollouts", metavar="N", type=int, default=None,
                        help="most rollouts per placement (default "
                             f"{DEFAULT_PRECISION.max_rollouts})")
    parser.add_argument("--precision", metavar="POINTS", type=float, default=None,
                        help="stop when the placements left are within this many points of the "
                             f"best, at one standard error (default {DEFAULT_PRECISION.precision})")
    parser.add_argument("--policy", choices=list(POLICIES), default=REVIEW_POLICY.name,
                        help="the rollout policy (default %(default)s: every seat plays "
                             "without seeing its future cards, by the learned value of the "
                             "hand's preset, best-of-24 where none ships; best-of-24: "
                             "clairvoyant, quicker)")
    parser.add_argument("--again", action="store_true",
                        help="review hands already reviewed by this version too")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per decision")


def precision_of(args: argparse.Namespace) -> Precision:
    p = DEFAULT_PRECISION
    if args.rollouts is not None:
        p = replace(p, max_rollouts=args.rollouts)
    if args.precision is not None:
        p = replace(p, precision=args.precision)
    return p


def _check(args: argparse.Namespace) -> str | None:
    if args.hands is not None and args.hands < 1:
        return "--hands must be at least 1"
    if args.rollouts is not None and args.rollouts < 1:
        return "--rollouts must be at least 1"
    if args.precision is not None and args.precision <= 0:
        return "--precision must be a positive number of points"
    return None


def run(args: argparse.Namespace) -> int:
    problem = _check(args)
    if problem:
        print(f"ofc review: {problem}", file=sys.stderr)
        return 2
    try:
        con = store.connect(args.db)
        with Progress("upgrading the store", notes=False) as bar:
            upgrade(con, args.db, progress=bar)
    except store.StoreError as exc:
        print(f"ofc review: {exc}", file=sys.stderr)
        return 2
    try:
        with Progress("reviewing") as bar:
            return _review(con, args, bar)
    except BrokenPipeError:  # `ofc review --json | head`: the reader has had enough
        return 0
    except store.StoreError as exc:
        print(f"ofc review: {exc}", file=sys.stderr)
        return 2
    finally:
        con.close()


@dataclass
class _Tally:
    """What a review did so far."""

    decisions: int = 0
    rollouts: int = 0
    lost: float = 0.0
    skipped: list[str] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)
    """Hands with no decision to review, by reason (:func:`not_reviewed`)."""

    def add(self, rows: Sequence[DecisionRow]) -> None:
        self.decisions += len(rows)
        self.rollouts += sum(r.rollouts for r in rows)
        self.lost += sum(r.ev_lost for r in rows)


def _review_chunk(con: duckdb.DuckDBPyConnection, args: argparse.Namespace,
                  chunk: Sequence[int], precision: Precision,
                  tally: _Tally, tick: Callable[[], None]) -> None:
    """Review the hands ``chunk`` and store their decisions in one transaction; ``tick``
    after each hand."""
    rows: list[DecisionRow] = []
    for key in chunk:
        record = load_records(con, [key])[key][0]
        try:
            reviewed = review_hand(record, args.player, precision=precision,
                                   policy=POLICIES[args.policy])
        except ValueError as exc:  # a position the review cannot rebuild: say so, go on
            tally.skipped.append(f"{record.source}/{record.hand_id}: {exc}")
            reviewed = None
        if reviewed == []:
            reason = not_reviewed(record, args.player) or "no position could be rebuilt"
            tally.reasons[reason] = tally.reasons.get(reason, 0) + 1
        for r in reviewed or ():
            row = decision_row(record, r, POLICIES[args.policy])
            rows.append(row)
            if args.json:
                print(json.dumps(asdict(row)), flush=True)
        tick()
    write_decisions(con, rows)
    tally.add(rows)


def _review(con: duckdb.DuckDBPyConnection, args: argparse.Namespace, bar: Progress) -> int:
    started = time.monotonic()
    keys = player_hands(con, args.player, args.since, args.hands, args.variant)
    if not keys:
        print(f"ofc review: no stored hands of {clean_text(args.player)!r}", file=sys.stderr)
        return 1
    done = set() if args.again else reviewed_hands(con, args.player, REVIEW_VERSION)
    todo = [k for k, s, h in keys if (s, h) not in done]
    precision = precision_of(args)
    tally = _Tally()
    hands = 0
    bar(0, len(todo))

    def tick() -> None:
        nonlocal hands
        hands += 1
        bar(hands, len(todo))

    for start in range(0, len(todo), CHUNK):
        _review_chunk(con, args, todo[start:start + CHUNK], precision, tally, tick)
    bar.close()
    for problem in tally.skipped:
        print(f"not reviewed: {clean_text(problem)}", file=sys.stderr)
    for reason, count in sorted(tally.reasons.items(), key=lambda item: -item[1]):
        print(f"not reviewed: {count:,} hand{'s' if count != 1 else ''}: {reason}",
              file=sys.stderr)
    seconds = time.monotonic() - started
    done_before = len(keys) - len(todo)
    unreviewed = sum(tally.reasons.values())
    print(f"reviewed {len(todo) - unreviewed - len(tally.skipped):,} hands "
          f"({tally.decisions:,} decisions, "
          f"{tally.rollouts:,} rollouts) in {seconds:.1f} s; EV lost {tally.lost:.1f} points"
          + (f"; {done_before:,} already reviewed (--again to redo)" if done_before else "")
          + (f"; {len(tally.skipped):,} could not be reviewed" if tally.skipped else "")
          + (f"; {unreviewed:,} with nothing to review (above)" if unreviewed else ""),
          file=sys.stderr if args.json else sys.stdout)
    return 0
