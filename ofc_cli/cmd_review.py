"""``ofc review --player NAME [--player NAME2 ...] [--db PATH] [--since DATE] [--hands N]
[--variant V] [--rollouts N | --precision P] [--policy P] [--again] [--json]``: value every logged
decision of a player by rollouts (docs/review.md) and store them in the ``decisions`` table.
``ofc review --status [--db PATH]`` tells what the store's running review is doing (or did last).

The rollouts are played by the non-clairvoyant policy of the learned value of each hand's preset
(``--policy learned``, the default: :data:`ofc_core.play.review.REVIEW_POLICY`; a preset without
shipped weights, such as ``double``, by the clairvoyant ``best-of-24``); ``--policy best-of-24``
plays every hand by best-of-24, about four times quicker and clairvoyant (docs/review.md).

Resumable: hands already reviewed by this version of the review are skipped (an interrupted
review goes on where it stopped); ``--again`` reviews them again (after a code change, or at
another precision). On a terminal a progress bar counts the hands reviewed of the total, with
the rate and the time left. Hands with no decision to review are counted by reason at the end (``not
reviewed: 12 hands: the log shows final boards only, not the streets``), never passed over
silently.

A review is the store's one review job (:mod:`ingest.review_job`): while one runs (another
``ofc review``, or one started from the dashboard's Review or Import page) a second is refused
with a message saying whose it is and how far it got. The store is opened only to read a
chunk's hands and to store decisions (every couple of seconds), so the dashboard shows the
decisions as they are stored. The dashboard starts this command with ``--todo FILE`` (the
hands to review, listed by :func:`ingest.review_job.start`). Exit status 0 (also when
cancelled from the page); 1 if the player has no stored hands; 2 if the database could not be
used; 3 if another review of the store is running.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import duckdb

from ingest import review_job, store
from ingest.api import (
    DecisionRow,
    decision_json,
    decision_row,
    player_hands,
    reviewed_hands,
    upgrade,
    write_decisions,
)
from ingest.api import (
    policy_name as policy_name,  # where tests and older callers find it
)
from ingest.review_job import JobStatus, ReviewBusy
from ingest.stored_hands import load_records
from ofc_cli.terminal import Progress, clean_text
from ofc_core.hand import HandRecord
from ofc_core.play.accuracy import CLASSES, REFERENCE_LEVELS, beyond_noise, mean_accuracy
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
    parser.add_argument("--player", action="append", default=None,
                        help="whose decisions to review (again for more names: your aliases)")
    parser.add_argument("--status", action="store_true",
                        help="tell what the store's running review is doing (or did last)")
    parser.add_argument("--todo", metavar="FILE", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--auto", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--origin", choices=("command", "dashboard", "auto"), default="command",
                        help=argparse.SUPPRESS)
    parser.add_argument("--since", metavar="DATE", default=None,
                        help="only hands played from this date (YYYY-MM-DD)")
    parser.add_argument("--hands", metavar="N", type=int, default=None,
                        help="only the player's last N hands")
    parser.add_argument("--variant", default=None, help="only hands of this variant")
    parser.add_argument("--rollouts", metavar="N", type=int, default=None,
                        help="most rollouts per placement in the rounds (default "
                             f"{DEFAULT_PRECISION.max_rollouts}; the close ones get up to "
                             f"{DEFAULT_PRECISION.confirm} times as many fresh deals)")
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
    if not (args.status or args.player or args.auto) and args.todo is None:
        return "--player NAME is required (or --status)"
    if args.hands is not None and args.hands < 1:
        return "--hands must be at least 1"
    if args.rollouts is not None and args.rollouts < 1:
        return "--rollouts must be at least 1"
    if args.precision is not None and args.precision <= 0:
        return "--precision must be a positive number of points"
    return None


def precision_words(p: Precision) -> str:
    """The precision as the status and the page show it.

    >>> precision_words(DEFAULT_PRECISION)
    '0.5 points, at most 384 rollouts a placement'
    """
    points = "point" if p.precision == 1 else "points"
    return f"{p.precision:g} {points}, at most {p.max_rollouts:,} rollouts a placement"


def status(path: Path) -> int:
    """``ofc review --status``: the running review's line (0), or that none ever ran (1)."""
    found = review_job.read_status(path)
    if found is None:
        print(f"no review has run on {store.display_path(path)}")
        return 1
    print(found.line())
    return 0


def run(args: argparse.Namespace) -> int:
    problem = _check(args)
    if problem:
        print(f"ofc review: {problem}", file=sys.stderr)
        return 2
    path = Path(args.db) if args.db else store.default_db_path()
    if args.status:
        return status(path)
    players = args.player or []
    first = JobStatus(player=", ".join(players), origin=args.origin,
                      policy=args.policy, precision=precision_words(precision_of(args)))
    try:
        with review_job.claim(path, first) as job:
            return _run(args, path, job)
    except ReviewBusy as exc:
        print(f"ofc review: {exc}", file=sys.stderr)
        return 3


def _run(args: argparse.Namespace, path: Path, job: review_job.Job) -> int:
    try:
        con = store.connect(path)
        try:
            with Progress("upgrading the store", notes=False) as bar:
                upgrade(con, path, progress=bar)
            seats = _seats(con, args)
        finally:
            con.close()
    except (store.StoreError, ValueError, OSError) as exc:
        print(f"ofc review: {exc}", file=sys.stderr)
        job.end("failed", str(exc))
        return 2
    if seats is None:
        job.end("failed", "no stored hands")
        return 1
    try:
        with Progress("reviewing") as bar:
            code = _review(path, args, seats, bar, job)
        seen = set(seats[0])
        while args.auto and code == 0 and not job.cancelled():
            con = store.connect(path)  # hands imported meanwhile: the next round
            try:
                more = _seats(con, args)
            finally:
                con.close()
            fresh = [s for s in (more[0] if more else []) if s not in seen]
            if not fresh:  # (a hand with nothing to review is listed again: not new)
                break
            seen.update(fresh)
            with Progress("reviewing") as bar:
                code = _review(path, args, (fresh, 0), bar, job)
        return code
    except BrokenPipeError:  # `ofc review --json | head`: the reader has had enough
        return 0
    except store.StoreError as exc:
        print(f"ofc review: {exc}", file=sys.stderr)
        job.end("failed", str(exc))
        return 2


Seat = tuple[int, str]
"""A hand to review (its ``hand_key``) and whose decisions."""


def _seats(con: duckdb.DuckDBPyConnection, args: argparse.Namespace
           ) -> tuple[list[Seat], int] | None:
    """The seats to review and how many were reviewed before (skipped); ``None`` when the
    players have no stored hands."""
    if args.todo is not None or args.auto:
        listed = (review_job.auto_seats(con, REVIEW_VERSION) if args.auto
                  else review_job.read_todo(Path(args.todo)))
        stored = dict(((s, h), int(k)) for k, s, h in con.execute(
            "SELECT h.hand_key, h.source, h.hand_id FROM hands h JOIN (SELECT "
            "unnest(?::VARCHAR[]) AS source, unnest(?::VARCHAR[]) AS hand_id) t "
            "USING (source, hand_id)",
            [[s for s, _, _ in listed], [h for _, h, _ in listed]]).fetchall())
        return [(stored[(s, h)], p) for s, h, p in listed if (s, h) in stored], 0
    seats: list[Seat] = []
    before = 0
    for player in args.player or ():
        keys = player_hands(con, player, args.since, args.hands, args.variant)
        done = set() if args.again else reviewed_hands(con, player, REVIEW_VERSION)
        seats += [(k, player) for k, s, h in keys if (s, h) not in done]
        before += len(keys) - len([k for k, s, h in keys if (s, h) not in done])
        if not keys:
            print(f"ofc review: no stored hands of {clean_text(player)!r}", file=sys.stderr)
    if not seats and not before:
        return None
    return seats, before


@dataclass
class _Tally:
    """What a review did so far."""

    decisions: int = 0
    rollouts: int = 0
    lost: float = 0.0
    hands: int = 0
    skipped: list[str] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)
    """Hands with no decision to review, by reason (:func:`not_reviewed`)."""

    beyond: float = 0.0
    """EV lost beyond the noise (:func:`ofc_core.play.accuracy.beyond_noise`)."""
    accuracies: list[float] = field(default_factory=list)
    classes: dict[str, int] = field(default_factory=dict)

    def add(self, rows: Sequence[DecisionRow]) -> None:
        self.decisions += len(rows)
        self.rollouts += sum(r.rollouts for r in rows)
        self.lost += sum(r.ev_lost for r in rows)
        self.beyond += sum(beyond_noise(r.ev_lost, r.ev_lost_se) for r in rows)
        self.accuracies += [r.accuracy for r in rows]
        for r in rows:
            self.classes[r.decision_class] = self.classes.get(r.decision_class, 0) + 1

    def quality(self) -> str:
        """``accuracy 81.2 (reference: strong 84.0, ...); 120 best, 30 ties, ...``."""
        mean = mean_accuracy(self.accuracies)
        if mean is None:
            return ""
        levels = ", ".join(f"{k} {v:.1f}" for k, v in REFERENCE_LEVELS.items())
        counts = ", ".join(f"{self.classes[c]:,} {PLURALS[c]}" for c in CLASSES
                           if self.classes.get(c))
        return (f"accuracy {mean:.1f}" + (f" (simulated seats: {levels})" if levels else "")
                + f"; {counts}")


PLURALS = {"best": "best", "tie": "ties", "inaccuracy": "inaccuracies", "mistake": "mistakes",
           "blunder": "blunders"}


def _store(path: Path, rows: list[DecisionRow], tally: _Tally) -> None:
    """Store the reviewed ``rows`` (the store opened for this write only) and empty them."""
    if not rows:
        return
    con = store.connect(path)
    try:
        write_decisions(con, rows)
    finally:
        con.close()
    tally.add(rows)
    rows.clear()


def _review_one(record: HandRecord, player: str, args: argparse.Namespace,
                precision: Precision, tally: _Tally) -> list[DecisionRow]:
    """The decisions of one hand of ``player`` (none: counted by reason in ``tally``)."""
    try:
        reviewed = review_hand(record, player, precision=precision,
                               policy=POLICIES[args.policy])
    except ValueError as exc:  # a position the review cannot rebuild: say so, go on
        tally.skipped.append(f"{record.source}/{record.hand_id}: {exc}")
        reviewed = None
    if reviewed == []:
        reason = not_reviewed(record, player) or "no position could be rebuilt"
        tally.reasons[reason] = tally.reasons.get(reason, 0) + 1
    rows = [decision_row(record, r, POLICIES[args.policy]) for r in reviewed or ()]
    if args.json:
        for row in rows:
            print(json.dumps(decision_json(row)), flush=True)
    return rows


def _review_chunk(path: Path, args: argparse.Namespace, chunk: Sequence[Seat],
                  precision: Precision, tally: _Tally, tick: Callable[[], None],
                  job: review_job.Job) -> bool:
    """Review the hands ``chunk`` (read in one short visit to the store), storing their
    decisions every :data:`~ingest.review_job.WRITE_EVERY_SECONDS`; ``tick`` after each
    hand. ``False`` when the job was cancelled (what was reviewed is stored)."""
    con = store.connect(path)
    try:
        records = load_records(con, [k for k, _ in chunk])
    finally:
        con.close()
    rows: list[DecisionRow] = []
    written = time.monotonic()
    for key, player in chunk:
        rows += _review_one(records[key][0], player, args, precision, tally)
        tally.hands += 1
        if job.cancelled() or time.monotonic() - written >= review_job.WRITE_EVERY_SECONDS:
            _store(path, rows, tally)
            written = time.monotonic()
        tick()
        if job.cancelled():
            return False
    _store(path, rows, tally)
    tick()
    return True


def _review(path: Path, args: argparse.Namespace, found: tuple[list[Seat], int],
            bar: Progress, job: review_job.Job) -> int:
    started = time.monotonic()
    todo, done_before = found
    precision = precision_of(args)
    tally = _Tally()
    job.begin(len(todo))
    bar(0, len(todo))

    def tick() -> None:
        bar(tally.hands, len(todo))
        job.progress(tally.hands, tally.decisions)

    for start in range(0, len(todo), CHUNK):
        if not _review_chunk(path, args, todo[start:start + CHUNK], precision, tally, tick,
                             job):
            break
    finished = tally.hands >= len(todo)
    bar.close()
    for problem in tally.skipped:
        print(f"not reviewed: {clean_text(problem)}", file=sys.stderr)
    for reason, count in sorted(tally.reasons.items(), key=lambda item: -item[1]):
        print(f"not reviewed: {count:,} hand{'s' if count != 1 else ''}: {reason}",
              file=sys.stderr)
    seconds = time.monotonic() - started
    unreviewed = sum(tally.reasons.values())
    print(("cancelled: " if not finished else "")
          + f"reviewed {tally.hands - unreviewed - len(tally.skipped):,} hands "
          f"({tally.decisions:,} decisions, "
          f"{tally.rollouts:,} rollouts) in {seconds:.1f} s; EV lost {tally.lost:.1f} points, "
          f"{tally.beyond:.1f} beyond the noise"
          + (f"; {done_before:,} already reviewed (--again to redo)" if done_before else "")
          + (f"; {len(tally.skipped):,} could not be reviewed" if tally.skipped else "")
          + (f"; {unreviewed:,} with nothing to review (above)" if unreviewed else "")
          + (f"; {len(todo) - tally.hands:,} left for the next review" if not finished else ""),
          file=sys.stderr if args.json else sys.stdout)
    if tally.accuracies:
        print(tally.quality(), file=sys.stderr if args.json else sys.stdout)
    print(f"policy {args.policy}, precision {precision_words(precision)}",
          file=sys.stderr if args.json else sys.stdout)
    return 0
