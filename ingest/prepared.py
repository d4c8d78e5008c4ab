"""A file made ready to import before its transaction (read, hashed, decoded, recognised,
the ofc-hh/1 bulk path's first chunk parsed: all that needs no database, done while the file
before commits), and the import's progress ticker."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from . import fast_path, import_pool
from .formats import FileFormat, Format, LogFile, UnreadableFile, detect_file, sqlite_db
from .record_path import reader_failed, recognise
from .reports import Progress


class Ticker:
    """Turns per-chunk progress into ``progress(done_bytes, total_bytes, label)`` calls."""

    def __init__(self, progress: Progress | None, total: int, started: float) -> None:
        self.progress = progress
        self.total = max(total, 1)
        self.started = started
        self.base = 0
        self.hands = 0

    def update(self, name: str, fraction: float, size: int, hands: int) -> None:
        if self.progress is None:
            return
        seconds = max(time.monotonic() - self.started, 1e-6)
        done = self.hands + hands
        self.progress(min(self.base + int(size * fraction), self.total), self.total,
                      f"{name}: {done:,} hands, {done / seconds:,.0f} hands/s")

    def file_done(self, size: int) -> None:
        self.base += size


@dataclass
class Prepared:
    """A file read, hashed, decoded and recognised, and for the ofc-hh/1 bulk path its lines
    and first chunk parsed: all that needs no database (done while the previous file
    commits)."""

    name: str
    data: bytes
    digest: str
    fmt: Format | FileFormat | None
    text: str
    unreadable: str | None
    first: fast_path.First | None = None
    file: LogFile | None = None
    """The file, when a format reads it whole (a database) rather than as text."""
    known: int | None = None
    """Hands of an earlier import of the same bytes that stored all of them, all still stored
    (:func:`~ingest.ledger.already_stored`): nothing is decoded or parsed."""
    shipped: import_pool.Shipped | None = None
    """The file's tables, made by a worker process (:mod:`ingest.import_pool`): not decoded
    here unless the store holds one of its hands."""


def prepare(name: str, data: bytes, digest: str, path: Path | None = None) -> Prepared:
    """A file made ready to import: a database file offered to the formats that read files
    whole (:func:`~ingest.formats.detect_file`), anything else decoded and recognised as text."""
    file = LogFile(name, data, path)
    try:
        found = detect_file(file)
    except UnreadableFile as exc:
        return Prepared(name, data, digest, None, "", str(exc))
    except Exception as exc:  # a bug in a format's sniff_file(): report it, never a traceback
        return Prepared(name, data, digest, None, "", reader_failed(name, "format detection",
                                                                     exc))
    if found is not None:
        return Prepared(name, data, digest, found, "", None, file=file)
    if sqlite_db.is_sqlite(data):
        return Prepared(name, data, digest, None, "", sqlite_db.not_a_log(file))
    return prepare_text(name, data, digest)


def prepare_text(name: str, data: bytes, digest: str) -> Prepared:
    text, fmt, unreadable = recognise(name, data)
    prepared = Prepared(name, data, digest, fmt, text, unreadable)
    if unreadable is None and fmt is not None and fast_path.takes(fmt):
        try:
            prepared.first = fast_path.first_chunk(text)
        except Exception as exc:  # a bug of the bulk reader: the file's error, never a traceback
            prepared.unreadable = reader_failed(name, "ofc-hh/1 bulk reader", exc)
    return prepared
