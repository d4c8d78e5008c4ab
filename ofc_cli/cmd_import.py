"""``ofc import PATH... [--db PATH] [--json]``: import session logs (files, folders or zips)
into the database.

Folders are searched recursively (hidden files and folders skipped), zips unpacked (with the
upload page's limits). Under each file come its errors, what its reader assumed, and the audit
of the room's reported points against ours (every player whose differ). Importing is idempotent:
hands already stored are reported as duplicates (or *merged* when this log shows cards the
stored one hid). Exit status: 0, or 1 if any hand was rejected or a file could not be read, or
2 if the database could not be used (e.g. the dashboard holds it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TextIO

from ingest import store
from ingest.api import FileReport, ImportReport, import_paths


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="log files, zips of them, or folders to search recursively")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=f"database file (default: ${store.DB_ENV} or data/ofc.duckdb)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object summarising the import")
    parser.add_argument("--wait", metavar="SECONDS", type=float, default=None,
                        help="how long to wait for the database while another process holds "
                             "it (default $OFC_WAIT or 30)")


class ProgressBar:
    """A one-line ``\\r`` progress bar on a terminal; silent when the stream is not a tty."""

    def __init__(self, stream: TextIO, width: int = 30, every: float = 0.2) -> None:
        self.stream = stream
        self.active = stream.isatty()
        self.width = width
        self.every = every
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, total: int, label: str) -> None:
        now = time.monotonic()
        if not self.active or (now - self.last < self.every and done < total):
            return
        self.last = now
        filled = int(self.width * done / max(total, 1))
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {100 * done / max(total, 1):3.0f}% {clean_text(label)[:70]}"
                          "\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def clean_text(text: str) -> str:
    """Control characters escaped, so a file or player name cannot drive the terminal."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


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
        parts.append(f"{f.partial} partial (last hand still being written; import the file "
                     "again when it is complete)")
    return f"{clean_text(f.path)} [{f.format or 'empty'}]: " + ", ".join(parts)


def _grouped_notes(f: FileReport) -> dict[str, list[str]]:
    """The file's notes by message, with the hands each concerns."""
    grouped: dict[str, list[str]] = {}
    for n in f.notes:
        grouped.setdefault(n.message, []).append(str(n.hand_id))
    return grouped


def print_report(report: ImportReport, out: TextIO) -> None:
    for f in report.files:
        out.write(_summary(f) + "\n")
        if f.unreadable is None:
            for e in f.errors:
                out.write(f"  line {e.line}: {clean_text(e.message)}\n")
            for message, ids in _grouped_notes(f).items():
                shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
                out.write(f"  note: {clean_text(message)} ({len(ids)} "
                          f"hand{'s' * (len(ids) != 1)}: {clean_text(shown)})\n")
            if f.audit is not None and f.audit.audited:
                out.write(f"  {f.audit.summary()}\n")
                for d in f.audit.differ:
                    out.write(f"    differs: hand {clean_text(repr(d.hand_id))}, "
                              f"{clean_text(d.player)}: theirs {d.reported:g}, "
                              f"ours {d.ours:g}\n")
    rate = report.hands / report.seconds if report.seconds > 0 else 0.0
    out.write(f"total: {report.stored} stored, {report.duplicate} duplicate, "
              f"{report.merged} merged, {report.partial} partial, {report.rejected} rejected"
              f" ({len(report.files)} file{'s' * (len(report.files) != 1)}, "
              f"{report.seconds:.1f} s, {rate:,.0f} hands/s)\n")


def run(args: argparse.Namespace) -> int:
    bar = ProgressBar(sys.stderr)
    try:
        report = import_paths(args.paths, args.db, progress=bar, wait_seconds=args.wait)
    except store.StoreError as exc:
        bar.close()
        print(f"ofc import: {exc}", file=sys.stderr)
        return 2
    bar.close()
    try:
        if args.json:
            sys.stdout.write(json.dumps(report.to_dict(), ensure_ascii=False) + "\n")
        else:
            print_report(report, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:  # `ofc import ... | head`: the reader left, stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return report.exit_code
