"""``ofc simulate``: deal and play sessions by the rules and write them as ``ofc-hh/1``.

The hands are played by :mod:`ofc_core.play.engine` with the policies of
:mod:`ofc_core.play.policies`
and written with :func:`ingest.formats.ofc_hh.write_records`. The same arguments and seed give
the same file, byte for byte (the clock of the hands is simulated from ``--start``).

``--out`` is the file written. ``--perspective hero --hero Anna`` writes Anna's log, as her
room would log it: ``hero`` set, the hero's dealt cards and discards shown, opponents' hidden,
an opponent's Fantasyland hand shown only as placed at showdown. ``--perspective hero``
without ``--hero`` writes every player's log, one file each: ``{name}`` in ``--out`` is the
player's name (``--out logs/{name}.jsonl``), else the name goes before the extension
(``out.jsonl`` becomes ``out.Anna.jsonl``). A progress bar is drawn on a terminal.
``--variant double`` plays OFC Double matches (race to 31 with the doubling cube).
See ``docs/simulator.md``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

from ingest.formats.ofc_hh import write_records
from ofc_cli import simulate_tournament
from ofc_cli.terminal import Progress
from ofc_core.hand import HandRecord
from ofc_core.play.engine import Table
from ofc_core.play.policies import POLICIES, policy
from ofc_core.play.sessions import DEFAULT_START, SessionSpec, hero_view, play_session
from ofc_core.rules import PRESETS, Ruleset, resolve

DEFAULT_NAMES = ("Hero", "Anna", "Dmitri", "Zoë")


class UsageError(ValueError):
    """A bad combination of arguments, explained in words."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", required=True, choices=list(PRESETS),
                        help="the ruleset preset to play")
    parser.add_argument("--rules", default=None, metavar="KEY=VALUE,...",
                        help="overrides of the preset, as in the ofc-hh/1 rules object "
                             "(e.g. scoring=2-4,button_in_fl=rotates,cap=30)")
    parser.add_argument("--players", type=int, default=None,
                        help="players at the table (default: 3, or 2 for double)")
    parser.add_argument("--hands", type=int, default=100,
                        help="hands per session (double: matches are played to the end, "
                             "new ones start until this many hands are played)")
    parser.add_argument("--sessions", type=int, default=1, help="sessions to play (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--policies", default="careful",
                        help=f"comma-separated policies per seat, repeated to fill the table "
                             f"(one of {', '.join(POLICIES)}; default careful)")
    parser.add_argument("--names", default=None,
                        help=f"comma-separated player names (default "
                             f"{','.join(DEFAULT_NAMES)}, as many as there are players)")
    parser.add_argument("--perspective", choices=("all", "hero"), default="all",
                        help="all: one file seeing every card; hero: as a player's room logs "
                             "it (--hero's, or every player's)")
    parser.add_argument("--hero", default=None,
                        help="with --perspective hero: write this player's log, to --out "
                             "(without: every player's, one file each)")
    parser.add_argument("--stake", type=float, default=1.0, help="stake per point (default 1)")
    parser.add_argument("--currency", default="EUR", help="currency of the stake (default EUR)")
    parser.add_argument("--room-error-rate", type=float, default=0.0,
                        help="fraction of hands whose reported points the simulated room gets "
                             "wrong, for the audit view (default 0)")
    parser.add_argument("--start", default=DEFAULT_START.isoformat(),
                        help="ISO 8601 day and time the simulated play starts, with offset "
                             f"(default {DEFAULT_START.isoformat()}): session k starts k days "
                             "later plus a random 0-3 hours (so the first hand is up to 3 h "
                             "after --start)")
    parser.add_argument("--session-prefix", default=None,
                        help="session ids are PREFIX-1, PREFIX-2, ... (default "
                             "sim-VARIANT-sSEED-XXXXXX, the X a fingerprint of the other "
                             "arguments that decide the hands)")
    parser.add_argument("--out", required=True,
                        help="the file written (ofc-hh/1 JSON Lines); every player's log "
                             "(--perspective hero without --hero): {name} in it is the "
                             "player's name, else the name goes before the extension")
    parser.add_argument("--force", action="store_true",
                        help="replace output files that already exist (refused otherwise)")
    simulate_tournament.add_arguments(parser)


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _table(args: argparse.Namespace, ruleset: Ruleset) -> Table:
    count = args.players if args.players is not None else min(3, ruleset.max_players)
    if not ruleset.min_players <= count <= ruleset.max_players:
        raise UsageError(f"--players {count}: {ruleset.variant} is played by "
                         f"{ruleset.player_range} players")
    names = _split(args.names) if args.names is not None else list(DEFAULT_NAMES[:count])
    if len(names) != count:
        raise UsageError(f"--names gives {len(names)} names for {count} players")
    if len(set(names)) != count:
        raise UsageError(f"--names must all differ, got {', '.join(names)}")
    kinds = _split(args.policies)
    if not kinds:
        raise UsageError("--policies is empty")
    try:
        policies = tuple(policy(kinds[i % len(kinds)]) for i in range(count))
    except ValueError as exc:
        raise UsageError(f"--policies: {exc}") from None
    if args.hero is not None and args.hero not in names:
        raise UsageError(f"--hero {args.hero!r} is not one of the players ({', '.join(names)})")
    return Table(ruleset, tuple(names), policies)


def _ruleset(variant: str, text: str | None) -> Ruleset:
    """The preset with ``key=value`` overrides; numbers are numbers, ``none`` is no value.

    >>> _ruleset("pineapple", "scoring=2-4,cap=30").overrides
    mappingproxy({'scoring': '2-4', 'cap': 30})
    """
    overrides: dict[str, object] = {}
    for item in _split(text or ""):
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"--rules: expected KEY=VALUE, got {item!r}")
        number = re.fullmatch(r"-?\d+(\.\d+)?", value.strip())
        overrides[key.strip()] = (None if value.strip() == "none" else
                                  (float(value) if "." in value else int(value)) if number
                                  else value.strip())
    try:
        return resolve(variant, overrides)
    except ValueError as exc:
        raise UsageError(f"--rules: {exc}") from None


def _start(text: str) -> datetime:
    try:
        start = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"--start {text!r} is not an ISO 8601 time") from None
    if start.tzinfo is None:
        raise UsageError(f"--start {text!r} needs a UTC offset (e.g. +01:00)")
    return start


def _check_numbers(args: argparse.Namespace) -> None:
    if args.hands < 1 or args.sessions < 1:
        raise UsageError("--hands and --sessions must be at least 1")
    if not 0 <= args.room_error_rate <= 1:
        raise UsageError("--room-error-rate is a fraction between 0 and 1")


def table_for(args: argparse.Namespace) -> Table:
    """The table the arguments describe; every argument is checked here (:class:`UsageError`),
    before any hand is played."""
    _check_numbers(args)
    _start(args.start)
    return _table(args, _ruleset(args.variant, args.rules))


def simulate(args: argparse.Namespace, table: Table,
             progress: Callable[[int, int], None] | None = None) -> Iterator[list[HandRecord]]:
    """The sessions, played one after another: each session's records (all cards seen) as it
    ends, so that only one session is held in memory. ``progress(done, total)`` is called
    after each hand."""
    return _sessions(args, table, _start(args.start), progress)


def default_prefix(args: argparse.Namespace, table: Table) -> str:
    """``sim-VARIANT-sSEED-XXXXXX``: six hex digits fingerprint the other arguments that decide
    the hands (rules, players and their names and policies, hands a session, start, stake,
    currency, room error rate), so that two different simulations never share a hand id,
    while the same command gives the same ids in every perspective and for any number of
    sessions (its first sessions are the same hands).

    >>> args = argparse.Namespace(variant="pineapple", seed=3, rules=None, hands=100,
    ...     start="2026-01-05T20:00:00+01:00", stake=1.0, currency="EUR", room_error_rate=0.0)
    >>> table = Table(PRESETS["pineapple"], ("Hero", "Anna"), (policy("careful"),) * 2)
    >>> default_prefix(args, table)
    'sim-pineapple-s3-7556cf'
    """
    decides = [sorted(table.ruleset.overrides.items()), list(table.names),
               [p.name for p in table.policies], args.hands, args.start, args.stake,
               args.currency, args.room_error_rate]
    digest = hashlib.sha256(json.dumps(decides, ensure_ascii=False).encode()).hexdigest()
    return f"sim-{args.variant}-s{args.seed}-{digest[:6]}"


def _sessions(args: argparse.Namespace, table: Table, start: datetime,
              progress: Callable[[int, int], None] | None) -> Iterator[list[HandRecord]]:
    prefix = args.session_prefix or default_prefix(args, table)
    rng = random.Random(args.seed)
    total = args.hands * args.sessions
    done = 0
    for k in range(args.sessions):
        session_start = start + timedelta(days=k, minutes=rng.randint(0, 180))
        spec = SessionSpec(f"{prefix}-{k + 1}", args.hands, session_start, args.stake,
                           args.currency, button=rng.randrange(len(table.names)),
                           room_error_rate=args.room_error_rate)
        on_hand = None if progress is None else (
            lambda n, done=done: progress(min(done + n, total), total))
        records = play_session(table, spec, rng, on_hand)
        done += len(records)
        yield records
    if progress is not None:
        progress(total, total)


NAME_FIELD = "{name}"
"""In ``--out``, where each player's name goes when every player's log is written."""


def perspective_path(out: str, name: str) -> Path:
    """Player ``name``'s file when every player's log is written: ``{name}`` in ``out``
    replaced by the name, else the name inserted before the extension (unsafe characters in
    the name become ``_``).

    >>> str(perspective_path("logs/{name}.jsonl", "Anna")), str(perspective_path("h.jsonl", "Zoë"))
    ('logs/Anna.jsonl', 'h.Zoë.jsonl')
    """
    safe = re.sub(r"[^\w.-]", "_", name)
    if NAME_FIELD in out:
        return Path(out.replace(NAME_FIELD, safe))
    path = Path(out)
    return path.with_name(f"{path.stem}.{safe}{path.suffix}")


def _outputs(args: argparse.Namespace, table: Table) -> dict[str | None, Path]:
    """The files to write, by whose view they are: ``--out`` itself for one file (every card
    seen, or ``--hero``'s view); with ``--perspective hero`` and no ``--hero``, one file per
    player (:func:`perspective_path`)."""
    if args.perspective == "all":
        return {None: Path(args.out)}
    if args.hero:
        return {args.hero: Path(args.out.replace(NAME_FIELD, args.hero))}
    return {name: perspective_path(args.out, name) for name in table.names}


def _write_sessions(sessions: Iterator[list[HandRecord]], outputs: dict[str | None, Path],
                    ) -> dict[Path, int]:
    """Each session's hands appended to every output as it ends (a hero's file gets the
    hands as that hero's room logs them). Files are written as ``NAME.part`` and renamed
    when all is written, so an interrupted run leaves no file that looks complete."""
    parts = {path: path.with_name(path.name + ".part") for path in outputs.values()}
    counts = dict.fromkeys(outputs.values(), 0)
    files = []
    try:
        for part in parts.values():
            part.parent.mkdir(parents=True, exist_ok=True)
            files.append(open(part, "w", encoding="utf-8", newline=""))
        for records in sessions:
            for (hero, path), fp in zip(outputs.items(), files, strict=True):
                seen = records if hero is None else [hero_view(r, hero) for r in records]
                counts[path] += write_records(seen, fp)
        for fp in files:
            fp.close()
        for path, part in parts.items():
            part.replace(path)
    finally:
        for fp in files:
            fp.close()
        for part in parts.values():
            part.unlink(missing_ok=True)
    return counts


@contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """SIGTERM (``kill``, a closing terminal or job runner) ends the run as Ctrl-C does, so the
    ``.part`` files are removed; exit status 143. Only in the main thread (where Python runs
    signal handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


BIG_SESSION = 200_000
"""Hands per session above which ``ofc simulate`` says how much memory a session takes."""
MEMORY_PER_HAND_KB = 11
"""About what one simulated hand's records take while its session is held (measured: 1.1 GB
for a session of 100,000 three-handed pineapple hands)."""


def run(args: argparse.Namespace) -> int:
    if args.tournament:
        try:
            ruleset = _ruleset(args.variant, args.rules)
        except UsageError as exc:
            print(f"ofc simulate: {exc}", file=sys.stderr)
            return 2
        return simulate_tournament.run(args, ruleset)
    try:
        table = table_for(args)
    except UsageError as exc:
        print(f"ofc simulate: {exc}", file=sys.stderr)
        return 2
    if args.hands > BIG_SESSION:
        print(f"ofc simulate: note: a session is held in memory until it is written, about "
              f"{args.hands * MEMORY_PER_HAND_KB / 1e6:,.1f} GB for {args.hands:,} hands; "
              "split big data sets into sessions (e.g. --hands 5000 --sessions 200)",
              file=sys.stderr)
    outputs = _outputs(args, table)
    there = [str(path) for path in outputs.values() if path.exists()]
    if there and not args.force:
        print(f"ofc simulate: {', '.join(there)} already exist{'s' * (len(there) == 1)}; "
              "choose another --out, or pass --force to replace "
              f"{'it' if len(there) == 1 else 'them'}", file=sys.stderr)
        return 2
    try:
        with _stopped_by_sigterm(), Progress("simulating") as bar:
            written = _write_sessions(simulate(args, table, bar), outputs)
    except OSError as exc:
        where = str(exc.filename or args.out).removesuffix(".part")  # the file being written
        print(f"ofc simulate: cannot write {where}: {exc.strerror}", file=sys.stderr)
        return 1
    for path, count in written.items():
        print(f"{path}: {count} hands", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    parser = argparse.ArgumentParser(prog="ofc simulate")
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
