"""``ofc import PATH... [--db PATH] [--json]``: import session logs (files, folders or zips)
into the database. ``ofc import --watch DIR...``: import what the folders hold, then keep
checking them (``--interval``) and import new and grown files, one line per file, until Ctrl-C
or SIGTERM (exit status 0); the folders join the watched folders the dashboard shows.

Folders are searched recursively (hidden files and folders skipped), zips unpacked (with the
upload page's limits). Under each file come its errors, its partial hands (named) and what its
reader assumed of the hands it stored; past 10 files, the files that went well share one line
(``--verbose``: a line each); then one audit (each hand counted once) of the stored hands
against the room's own results (points, uncapped points, fouls, royalties, Fantasyland),
every hand that differs listed with what differs. Importing is idempotent:
hands already stored are reported as duplicates (or *merged* when this log shows cards the
stored one hid). Exit status: 0, or 1 if any hand was rejected or a file could not be read, or
2 if the database could not be used (e.g. the dashboard holds it).

On a machine of two cores or more, once an import has read 16 MB, a second process reads the
coming files while this one stores them (``$OFC_IMPORT_WORKERS``: how many; ``0``: none).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from ingest import review_job, store
from ingest.api import (
    Audit,
    Difference,
    FileReport,
    FolderError,
    ImportReport,
    Watcher,
    WatchPass,
    add_folder,
    check_folder,
    combined,
    decisions_folder,
    import_paths,
    merge_decisions,
    upgrade,
)
from ingest.watch import INTERVAL_SECONDS
from ofc_cli.terminal import Progress, clean_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = ("On two cores or more a big import reads its files in a second process "
                     "($OFC_IMPORT_WORKERS sets how many; 0: none).")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="log files, zips of them, or folders to search recursively")
    parser.add_argument("--watch", nargs="+", metavar="DIR", default=[],
                        help="keep watching these folders: import new and grown files until "
                             "Ctrl-C (the dashboard lists them as watched folders)")
    parser.add_argument("--interval", metavar="SECONDS", type=float, default=INTERVAL_SECONDS,
                        help=f"with --watch: seconds between checks (default "
                             f"{INTERVAL_SECONDS:g})")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"database file (default: ${store.DB_ENV} or data/ofc.duckdb)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object summarising the import")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help=f"a line for every file (without: an import of more than "
                             f"{SUMMARY_FILES} files gives one line for the files that went "
                             "well, a line for each of the others)")
    parser.add_argument("--wait", metavar="SECONDS", type=float, default=None,
                        help="how long to wait for the database while another process holds "
                             "it (default $OFC_WAIT or 30)")


SUMMARY_FILES = 10
"""More files than this, and those imported without an error, refused or partial hand are
summed up in one line (``--verbose``: a line each)."""


def _summary(f: FileReport) -> str:
    if f.unreadable is not None:
        reason = f.unreadable.removeprefix(f"{f.path}: ")  # the path is said once, first
        return f"{clean_text(f.path)}: not imported: {clean_text(reason)}"
    parts = [f"{f.hands} hands", f"{f.stored} stored", f"{f.duplicate} duplicate"]
    if f.merged:
        parts.append(f"{f.merged} merged")
    if f.rejected:
        parts.append(f"{f.rejected} rejected")
    if f.partial:
        parts.append(f"{f.partial} partial ({_partial_reason(f)})")
    return f"{clean_text(f.path)} [{f.format or 'empty'}]: " + ", ".join(parts)


def _partial_reason(f: FileReport) -> str:
    """Why a file's partial hands were not stored: abandoned by the log, or still being
    written (then importing the file again later stores it)."""
    waiting = f.partial - f.abandoned
    if not waiting:
        return "abandoned: the log left them without a result"
    still = "last hand still being written; import the file again when it is complete"
    return f"{f.abandoned} abandoned, {still}" if f.abandoned else still


def _grouped_notes(files: list[FileReport]) -> dict[str, list[str]]:
    """The files' notes by message, with the hands each concerns."""
    grouped: dict[str, list[str]] = {}
    for f in files:
        for n in f.notes:
            grouped.setdefault(n.message, []).append(str(n.hand_id))
    return grouped


def _print_notes(files: list[FileReport], out: TextIO) -> None:
    for message, ids in _grouped_notes(files).items():
        shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
        out.write(f"  note: {clean_text(message)} ({len(ids)} "
                  f"hand{'s' * (len(ids) != 1)}: {clean_text(shown)})\n")


def print_file(f: FileReport, out: TextIO, prefix: str = "", audit: bool = True) -> None:
    """One file's line, then its errors, notes and (with ``audit``) audit, indented."""
    out.write(prefix + _summary(f) + "\n")
    if f.unreadable is None:
        for e in f.errors:
            out.write(f"  line {e.line}: {clean_text(e.message)}\n")
        for p in f.partials:
            hand = "" if p.hand_id is None else f"hand {clean_text(repr(p.hand_id))}, "
            out.write(f"  partial: {hand}line {p.line}: {clean_text(p.message)}\n")
        _print_notes([f], out)
        if audit and f.audit is not None and f.audit.audited:
            print_audit(f.audit, out, "  ")


def print_audit(audit: Audit, out: TextIO, indent: str = "") -> None:
    """The audit's line, then one line per hand that differs (each player and item)."""
    out.write(f"{indent}{audit.summary()}\n")
    hands: dict[str, list[Difference]] = {}
    for d in audit.differ:
        hands.setdefault(d.hand_id, []).append(d)
    for hand_id, found in hands.items():
        items = "; ".join(f"{clean_text(d.player)} {d.describe()}" for d in found)
        out.write(f"{indent}  differs: hand {clean_text(repr(hand_id))}: {items}\n")


def print_report(report: ImportReport, out: TextIO, verbose: bool = False) -> None:
    """A line per file (with its errors, partial hands and notes; past :data:`SUMMARY_FILES`
    files without ``verbose``, one line for those that went well), then one audit of every
    file's stored hands against the room's own results, the hands that differ listed."""
    many = len(report.files) > SUMMARY_FILES and not verbose
    quiet = [f for f in report.files if many and f.unreadable is None and not f.errors
             and not f.partials]
    for f in report.files:
        if f not in quiet:
            print_file(f, out, audit=False)
    if quiet:
        formats = ", ".join(sorted({f.format or "empty" for f in quiet}))
        parts = [f"{sum(f.hands for f in quiet)} hands", f"{sum(f.stored for f in quiet)} "
                 f"stored", f"{sum(f.duplicate for f in quiet)} duplicate"]
        parts += [f"{n} merged" for n in [sum(f.merged for f in quiet)] if n]
        out.write(f"{len(quiet)} {'other ' * (len(quiet) < len(report.files))}files "
                  f"[{formats}]: {', '.join(parts)} (a line each: --verbose)\n")
        _print_notes(quiet, out)
    audits = [f.audit for f in report.files if f.audit is not None and f.audit.audited]
    if audits:
        print_audit(combined(audits), out)
    rate = report.hands / report.seconds if report.seconds > 0 else 0.0
    out.write(f"total: {report.stored} stored, {report.duplicate} duplicate, "
              f"{report.merged} merged, {report.partial} partial, {report.rejected} rejected"
              f" ({len(report.files)} file{'s' * (len(report.files) != 1)}, "
              f"{report.seconds:.1f} s, {rate:,.0f} hands/s)\n")


def run(args: argparse.Namespace) -> int:
    if not args.paths and not args.watch:
        print("ofc import: name the files or folders to import, or --watch FOLDER...",
              file=sys.stderr)
        return 2
    code = import_once(args) if args.paths else 0
    if code == 2 or not args.watch:
        return code
    return watch(args)


def import_once(args: argparse.Namespace) -> int:
    """Import the paths once, a progress bar on a terminal (bytes read of the total, the rate,
    the time left; the file being read and the hands so far)."""
    reviews = [p for p in args.paths if decisions_folder(p)]  # ofc spark review's output
    if reviews:
        return merge_reviews(args, reviews)
    try:
        with Progress("importing", "B") as bar:
            report = import_paths(args.paths, args.db, progress=bar, wait_seconds=args.wait)
    except store.StoreError as exc:
        print(f"ofc import: {exc}", file=sys.stderr)
        return 2
    try:
        if args.json:
            sys.stdout.write(json.dumps(report.to_dict(), ensure_ascii=False) + "\n")
        else:
            print_report(report, sys.stdout, getattr(args, "verbose", False))
        sys.stdout.flush()
    except BrokenPipeError:  # `ofc import ... | head`: the reader left, stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if report.stored:
        auto_review(args.db, args.wait)
    return report.exit_code


def auto_review(db: str | None, wait: float | None) -> None:
    """With the auto-review setting on (kept in the store, off by default): start the review
    of my names' new hands in the background (``ofc review --status`` follows it)."""
    path = Path(db) if db else store.default_db_path()
    try:
        con = store.connect(path, read_only=True, wait_seconds=wait)
        try:
            on = review_job.auto_review(con) is not None
        finally:
            con.close()
        started = review_job.after_import(path, cmd_review_command(path), on)
    except (store.StoreError, OSError) as exc:
        print(f"ofc import: the auto-review could not start: {exc}", file=sys.stderr)
        return
    if started is not None:
        print("reviewing my names' new hands in the background (auto-review; "
              "ofc review --status)", file=sys.stderr, flush=True)


def cmd_review_command(path: Path) -> list[str]:
    """The auto-review's ``ofc review`` process on the store at ``path``."""
    return [sys.executable, "-m", "ofc_cli.cli", "review", "--db", str(path),
            "--origin", "auto"]
def merge_reviews(args: argparse.Namespace, folders: list[str]) -> int:
    """Merge the decisions ``ofc spark review`` wrote under ``folders`` into the store (the
    hands themselves come from the logs or ``ofc spark score``'s tables: import those apart)."""
    others = [p for p in args.paths if p not in folders]
    if others:
        print("ofc import: give the folders of ofc spark review apart from logs: "
              f"{clean_text(', '.join(others))}", file=sys.stderr)
        return 2
    try:
        con = store.connect(args.db, wait_seconds=args.wait)
        try:
            upgrade(con, args.db)
            for folder in folders:
                with Progress("merging decisions", "decision", notes=False) as bar:
                    stored = merge_decisions(con, folder, bar)
                print(f"{clean_text(folder)}: {stored:,} reviewed decisions merged")
        finally:
            con.close()
    except (store.StoreError, ValueError) as exc:
        print(f"ofc import: {clean_text(str(exc))}", file=sys.stderr)
        return 2
    return 0


def watch(args: argparse.Namespace) -> int:
    """Register the folders, then check them until a signal: exit status 0 once stopped (1: a
    folder cannot be watched, 2: the database cannot be used at the start)."""
    if not args.interval > 0:
        print("ofc import: --interval must be a number of seconds above 0", file=sys.stderr)
        return 2
    try:
        folders = [check_folder(f) for f in args.watch]
    except FolderError as exc:
        print(f"ofc import: {clean_text(str(exc))}", file=sys.stderr)
        return 1
    try:
        con = store.connect(args.db, wait_seconds=args.wait)
        try:
            upgrade(con, args.db)
            for folder in folders:
                add_folder(con, folder)
        finally:
            con.close()
    except store.StoreError as exc:
        print(f"ofc import: {exc}", file=sys.stderr)
        return 2
    printer = CheckPrinter(sys.stdout, args.json)

    def checked(done: WatchPass) -> None:
        printer(done)
        if any(f.stored for f in done.imports):
            auto_review(args.db, args.wait)

    watcher = Watcher(args.db, folders, wait_seconds=args.wait, on_check=checked)
    print(f"watching {len(folders)} folder{'s' * (len(folders) != 1)} every "
          f"{args.interval:g} s (Ctrl-C or SIGTERM to stop): "
          f"{clean_text(', '.join(folders))}", file=sys.stderr, flush=True)
    with stopped_by_signals(watcher):
        watcher.run(args.interval)
    print("stopped watching", file=sys.stderr, flush=True)
    return 0


@contextmanager
def stopped_by_signals(watcher: Watcher) -> Iterator[None]:
    """SIGINT (Ctrl-C) and SIGTERM ask the watcher to stop after the file it is importing."""
    def stop(_signum: int, _frame: object) -> None:
        watcher.stop()

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class CheckPrinter:
    """Prints what each check did: one line per file imported (with its errors under it, as
    ``ofc import`` does), a folder's problem and a busy store when they change."""

    def __init__(self, out: TextIO, as_json: bool) -> None:
        self.out = out
        self.as_json = as_json
        self.said: dict[str, str | None] = {}

    def __call__(self, done: WatchPass) -> None:
        when = time.strftime("%H:%M:%S", time.localtime(done.checked_at))
        for f in done.imports:
            if self.as_json:
                self.out.write(json.dumps({"time": when, **f.to_dict()}, ensure_ascii=False)
                               + "\n")
            else:
                print_file(f, self.out, f"{when} ")
        busy = None if done.error is None else \
            f"{done.error} (trying again at the next check)"
        for key, problem, fixed in [("", busy, "the database can be written again"),
                                    *((c.path, c.problem, f"{c.path}: found again")
                                      for c in done.folders)]:
            if self.said.get(key) != problem and (problem or key in self.said):
                print(f"{when} {clean_text(problem or fixed)}", file=sys.stderr)
            self.said[key] = problem
        self.out.flush()
