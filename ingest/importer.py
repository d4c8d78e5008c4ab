"""Importing session logs into the store.

A file is read, decoded (:func:`ingest.formats.encoding.decode_bytes`), recognised by the format
registry, parsed, checked (:func:`ofc_core.hand.validate`, inside the parsers), scored in bulk
(``ofc_core.batch.score_records``) and stored through Arrow, in ONE transaction per file
together with its ledger row: a crash mid-import leaves all of the file's hands or none.
Canonical ofc-hh/1 lines take the bulk path of :mod:`ingest.formats.ofc_hh_fast` (columns, array
checks, ``ofc_core.batch.score_batch``); both paths store the same rows.

A hand is identified by ``(source, hand_id)`` and stored once. Seeing it again adds nothing
(a *duplicate*), unless the new log shows cards the stored one hid (another player's view of
the same hand: their own dealt cards and discards): then the stored hand is completed
(*merged*). A bad hand never stops a file: it is kept in ``rejected`` with its line and reason.
A truncated last hand (a file still being written) is *partial*: reported, not stored, and
imported when the grown file is imported again.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ofc_core.batch import score_records
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay, validate
from ofc_core.records import gc_paused

from . import store
from .formats import Format, ParsedHand, ParseIssue, detect, ofc_hh_fast, registry
from .formats.encoding import DecodeError, decode_bytes
from .hand_tables import (
    HAND_TABLES,
    HandRow,
    build_tables,
    delete_hands,
    hand_tables,
    insert_tables,
    load_records,
)

Progress = Callable[[int, int, str], None]
"""``progress(done, total, label)``: bytes done of total bytes, and a one-line status."""

FAST_PATH = True
"""Read canonical ofc-hh/1 lines with :mod:`ingest.formats.ofc_hh_fast` (tests compare both
paths)."""

CHUNK_HANDS = 20_000
"""Hands parsed, scored and inserted at a time (bounds memory on big files)."""

_IMPORT_LOCK = threading.Lock()
"""One import at a time per process (hand keys and (source, hand_id) checks are read-then-write;
other processes are kept out by DuckDB's file lock)."""


@dataclass(frozen=True)
class HandIssue:
    line: int
    hand_id: str | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "hand_id": self.hand_id, "message": self.message}


@dataclass(frozen=True)
class FileReport:
    """What importing one file did. ``hands`` counts the hands read (partial ones excluded)."""

    path: str
    format: str | None
    hands: int = 0
    stored: int = 0
    duplicate: int = 0
    merged: int = 0
    partial: int = 0
    errors: tuple[HandIssue, ...] = ()
    unreadable: str | None = None
    """Why the file could not be read at all (then ``errors`` holds that message at line 0)."""
    import_id: int | None = None

    @property
    def rejected(self) -> int:
        return len(self.errors) if self.unreadable is None else 0

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "format": self.format, "hands": self.hands,
                "stored": self.stored, "duplicate": self.duplicate, "merged": self.merged,
                "partial": self.partial, "errors": [e.to_dict() for e in self.errors]}


@dataclass(frozen=True)
class ImportReport:
    files: tuple[FileReport, ...] = ()
    seconds: float = 0.0

    @property
    def stored(self) -> int:
        return sum(f.stored for f in self.files)

    @property
    def duplicate(self) -> int:
        return sum(f.duplicate for f in self.files)

    @property
    def merged(self) -> int:
        return sum(f.merged for f in self.files)

    @property
    def partial(self) -> int:
        return sum(f.partial for f in self.files)

    @property
    def rejected(self) -> int:
        return sum(f.rejected for f in self.files)

    @property
    def unreadable(self) -> int:
        return sum(f.unreadable is not None for f in self.files)

    @property
    def hands(self) -> int:
        return sum(f.hands for f in self.files)

    @property
    def exit_code(self) -> int:
        """1 if any hand was rejected or any file unreadable, else 0."""
        return 1 if self.rejected or self.unreadable else 0

    def to_dict(self) -> dict[str, Any]:
        """The ``ofc import --json`` object."""
        return {"files": [f.to_dict() for f in self.files], "stored": self.stored,
                "duplicate": self.duplicate, "merged": self.merged, "partial": self.partial,
                "rejected": self.rejected}


# --------------------------------------------------------------------------------------------
# Entry points


def iter_log_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files under ``paths`` (folders recursively, sorted), skipping hidden files and folders."""
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for sub in sorted(path.rglob("*")):
                parts = sub.relative_to(path).parts
                if sub.is_file() and not any(p.startswith(".") for p in parts):
                    yield sub
        else:
            yield path


def import_paths(paths: Iterable[str | Path], db: str | Path | None = None, *,
                 progress: Progress | None = None,
                 wait_seconds: float | None = None) -> ImportReport:
    """Import files and folders into the store at ``db`` (default
    :func:`ingest.store.default_db_path`). Raises :class:`ingest.store.StoreBusy` /
    :class:`ingest.store.StoreError` for database problems; everything about the logs is in
    the report."""
    files = list(iter_log_files(paths))
    con = store.connect(db, wait_seconds=wait_seconds)
    try:
        return _import(((str(p), _reader(p)) for p in files), con, progress,
                       sum(_size(p) for p in files))
    finally:
        con.close()


def import_files(files: Iterable[tuple[str, bytes]], con: duckdb.DuckDBPyConnection, *,
                 progress: Progress | None = None) -> ImportReport:
    """Import in-memory files ``(name, content)`` (the dashboard's upload page) through an
    open connection."""
    items = [(name, _constant(data)) for name, data in files]
    total = sum(len(fn()) for _, fn in items)
    return _import(iter(items), con, progress, total)


def _constant(data: bytes) -> Callable[[], bytes]:
    return lambda: data


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _reader(path: Path) -> Callable[[], bytes]:
    def read() -> bytes:
        try:
            return path.read_bytes()
        except IsADirectoryError:
            raise _Unreadable(f"{path}: is a folder") from None
        except FileNotFoundError:
            raise _Unreadable(f"{path}: no such file") from None
        except OSError as exc:
            raise _Unreadable(f"{path}: cannot read: {exc.strerror or exc}") from None
    return read


class _Unreadable(Exception):
    pass


def _import(files: Iterator[tuple[str, Callable[[], bytes]]], con: duckdb.DuckDBPyConnection,
            progress: Progress | None, total_bytes: int) -> ImportReport:
    """Files one transaction each, in order. A file's COMMIT (where DuckDB compresses and
    writes its rows) runs on a worker thread while this one reads, decodes and parses the next
    file; the next transaction begins only once that commit is done."""
    started = time.monotonic()
    reports: list[FileReport] = []
    ticker = _Ticker(progress, total_bytes, started)
    pending: tuple[Future[FileReport], int] | None = None

    def settle() -> None:
        nonlocal pending
        if pending is not None:
            future, size = pending
            pending = None
            report = future.result()
            ticker.hands += report.hands
            ticker.file_done(size)
            reports.append(report)

    with _import_settings(con), con.cursor() as ledger, \
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="ofc-commit") as committer:
        try:
            for name, read in files:
                try:
                    data = read()
                except _Unreadable as exc:
                    settle()
                    reports.append(FileReport(name, None, unreadable=str(exc),
                                              errors=(HandIssue(0, None, str(exc)),)))
                    continue
                digest = hashlib.sha256(data).hexdigest()
                known = _already_stored(ledger, digest)  # while the last file commits
                prepared = _Prepared(name, data, digest, known[0], "", None, known=known[1]) \
                    if known is not None else _prepare(name, data, digest)
                settle()
                _IMPORT_LOCK.acquire()
                try:
                    future = _import_one(con, prepared, ticker, committer)
                except BaseException:
                    _IMPORT_LOCK.release()
                    raise
                future.add_done_callback(lambda _: _IMPORT_LOCK.release())
                pending = (future, len(data))
            settle()
        finally:
            if pending is not None:  # an error elsewhere: let the commit finish, then raise
                pending[0].exception()
    return ImportReport(tuple(reports), time.monotonic() - started)


CHECKPOINT_THRESHOLD = "256MB"
"""DuckDB's ``checkpoint_threshold`` while importing (its default, 16MB, checkpoints after
almost every file, and each checkpoint compresses the tables' last row groups again)."""


@contextmanager
def _import_settings(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """While importing: DuckDB stores on all cores but one (Python parses on that one;
    measured: less CPU and wall time on 2 cores), and checkpoints every
    :data:`CHECKPOINT_THRESHOLD` of log instead of every 16MB (about a quarter less CPU in
    DuckDB). Both settings are restored afterwards, and the import is checkpointed."""
    wanted = {"threads": str(max(1, (os.cpu_count() or 2) - 1)),
              "checkpoint_threshold": CHECKPOINT_THRESHOLD}
    previous: dict[str, str] = {}
    for name, value in wanted.items():
        try:
            row = con.execute(f"SELECT current_setting('{name}')").fetchone()
            con.execute(f"SET {name} = '{value}'")
            if row is not None:
                previous[name] = str(row[0])
        except duckdb.Error:
            pass
    try:
        yield
    finally:
        for name, value in previous.items():
            try:
                con.execute(f"SET {name} = '{value}'")
            except duckdb.Error:
                pass
        if "checkpoint_threshold" in previous:
            try:
                con.execute("CHECKPOINT")
            except duckdb.Error:  # another transaction is open: DuckDB checkpoints later
                pass


class _Ticker:
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


# --------------------------------------------------------------------------------------------
# One file


@dataclass
class _Counts:
    hands: int = 0
    stored: int = 0
    duplicate: int = 0
    merged: int = 0
    partial: int = 0
    errors: list[HandIssue] = field(default_factory=list)
    rejected_rows: list[dict[str, Any]] = field(default_factory=list)

    def reject(self, line: int, hand_id: str | None, message: str, raw: str,
               partial: bool = False) -> None:
        if partial:
            self.partial += 1
        else:
            self.hands += 1
            self.errors.append(HandIssue(line, hand_id, message))
        self.rejected_rows.append({"line": line, "hand_id": hand_id, "message": message,
                                   "partial": partial, "raw": raw})


@dataclass
class _Prepared:
    """A file read, hashed, decoded and recognised, and for the ofc-hh/1 bulk path its lines
    and first chunk parsed: all that needs no database (done while the previous file
    commits)."""

    name: str
    data: bytes
    digest: str
    fmt: Format | None
    text: str
    unreadable: str | None
    first: tuple[list[str], list[tuple[int, str]], ofc_hh_fast.ParsedLines, _Ready] | None = \
        None
    known: int | None = None
    """Hands of an earlier import of the same bytes that stored all of them, all still stored
    (:func:`_already_stored`): nothing is decoded or parsed."""


@dataclass(frozen=True)
class _Ready:
    """A chunk's hands checked, scored and in tables as if none were stored yet, numbered
    from 0 and for import 0 (:func:`_numbered` gives them their keys)."""

    deferred: list[int]
    fresh: int
    tables: dict[str, pa.Table] | None


def _ready(parsed: ofc_hh_fast.ParsedLines) -> _Ready:
    with gc_paused():
        fast, deferred = parsed.finish()
        fresh = len(fast.columns)
        tables = build_tables(fast.columns, np.arange(fresh, dtype=np.int64),
                              np.zeros(fresh, np.int64), fast.scores()) if fresh else None
    return _Ready(deferred, fresh, tables)


def _numbered(tables: dict[str, pa.Table], first: int, import_id: int) -> dict[str, pa.Table]:
    """``tables`` of :func:`_ready` with hand keys from ``first`` and their import."""
    out = {}
    for name, table in tables.items():
        k = table.schema.get_field_index("hand_key")
        table = table.set_column(k, "hand_key", pc.add(table.column(k), pa.scalar(first,
                                                                                  pa.int64())))
        if name == "hands":
            k = table.schema.get_field_index("import_id")
            table = table.set_column(k, "import_id", pa.array(
                np.full(table.num_rows, import_id, np.int32)))
        out[name] = table
    return out


def _prepare(name: str, data: bytes, digest: str) -> _Prepared:
    fmt: Format | None = None
    unreadable = None
    text = ""
    try:
        text = decode_bytes(data, name)
        if text.strip():
            fmt = detect(text, name)
            if fmt is None:
                known = ", ".join(f.name for f in registry())
                unreadable = (f"{name}: not a hand history this version reads (known formats: "
                              f"{known})")
    except DecodeError as exc:
        unreadable = str(exc)
    except Exception as exc:  # a bug in a format's sniff(): report it, never a traceback
        unreadable = _reader_failed(name, "format detection", exc)
    prepared = _Prepared(name, data, digest, fmt, text, unreadable)
    if unreadable is None and fmt is not None and _fast(fmt):
        lines = text.split("\n")
        batch = _batch(lines, 0)
        parsed = ofc_hh_fast.parse_lines(batch)
        prepared.first = (lines, batch, parsed, _ready(parsed))
    return prepared


def _already_stored(con: duckdb.DuckDBPyConnection, digest: str,
                    ) -> tuple[Format, int] | None:
    """The format and hand count of an earlier import of the same bytes (sha256) that stored
    every hand it read (none duplicate, merged, rejected or partial) and whose hands are all
    still stored, if its format is still known: importing those bytes again can only find
    each hand stored already, so they need not be read (the usual case when a whole folder of
    logs is imported again for its new files)."""
    row = con.execute("""
        SELECT i.format, i.hands FROM imports i
        WHERE i.sha256 = ? AND i.hands > 0 AND i.stored = i.hands AND i.partial = 0
          AND (SELECT count(*) FROM hands h WHERE h.import_id = i.import_id) = i.hands
        ORDER BY i.import_id LIMIT 1""", [digest]).fetchone()
    fmt = next((f for f in registry() if row is not None and f.name == row[0]), None)
    return None if row is None or fmt is None else (fmt, int(row[1]))


def _import_one(con: duckdb.DuckDBPyConnection, prepared: _Prepared, ticker: _Ticker,
                committer: ThreadPoolExecutor) -> Future[FileReport]:
    try:
        return _import_transaction(con, prepared, prepared.unreadable, ticker, committer)
    except _Gone:
        return _import_one(con, _prepare(prepared.name, prepared.data, prepared.digest), ticker,
                           committer)
    except _ReaderFailed as exc:
        return _import_transaction(con, prepared, str(exc), ticker, committer)


class _Gone(Exception):
    """A file found stored in full before its transaction no longer is (rolled back)."""


class _ReaderFailed(Exception):
    """A format's reader raised instead of reporting a bad hand (a bug in the reader)."""


def _reader_failed(name: str, what: str, exc: Exception) -> str:
    return (f"{name}: the {what} failed ({type(exc).__name__}: {exc}); nothing of this file "
            "was imported. This is a bug in OFC Analytics: please report it with the file.")


def _parse(fmt: Format, text: str, name: str) -> Iterator[ParsedHand | ParseIssue]:
    """``fmt.parse``, with an exception of the reader turned into :class:`_ReaderFailed`."""
    items = iter(fmt.parse(text, name))
    while True:
        try:
            item = next(items)
        except StopIteration:
            return
        except Exception as exc:
            raise _ReaderFailed(_reader_failed(name, f"{fmt.name} reader", exc)) from exc
        yield item


def _import_transaction(con: duckdb.DuckDBPyConnection, prepared: _Prepared,
                        unreadable: str | None, ticker: _Ticker,
                        committer: ThreadPoolExecutor) -> Future[FileReport]:
    """The file's rows in one transaction; its COMMIT is left to ``committer`` (the returned
    future gives the file's report once committed, or raises :class:`store.StoreError`)."""
    name, fmt = prepared.name, prepared.fmt
    counts = _Counts()
    with _transaction(con, f"importing {name}"):
        import_id = _next_id(con, "imports", "import_id")
        if unreadable is not None:
            counts.rejected_rows.append({"line": 0, "hand_id": None, "message": unreadable,
                                         "partial": False, "raw": None})
        elif prepared.known is not None:
            if _already_stored(con, prepared.digest) is None:
                raise _Gone  # its hands went since the check: read the file after all
            counts.hands = counts.duplicate = prepared.known
            ticker.update(name, 1.0, len(prepared.data), counts.hands)
        elif fmt is not None:
            _store_hands(con, prepared, import_id, counts, ticker)
        _insert_rejected(con, import_id, name, counts.rejected_rows)
        con.execute(
            "INSERT INTO imports VALUES (?, ?, ?, ?, ?, ?, now(), ?, ?, ?, ?, ?)",
            [import_id, name, prepared.digest, len(prepared.data),
             None if fmt is None else fmt.name, None if fmt is None else fmt.version,
             counts.hands, counts.stored, counts.duplicate, counts.partial,
             len(counts.errors)])
    if unreadable is not None:
        report = FileReport(name, None, unreadable=unreadable,
                            errors=(HandIssue(0, None, unreadable),), import_id=import_id)
    else:
        report = FileReport(name, None if fmt is None else fmt.name, counts.hands,
                            counts.stored, counts.duplicate, counts.merged, counts.partial,
                            tuple(counts.errors), import_id=import_id)
    return committer.submit(_commit, con, name, report)


def _commit(con: duckdb.DuckDBPyConnection, name: str, report: FileReport) -> FileReport:
    with _transaction(con, f"importing {name}", begin=False):
        con.execute("COMMIT")
    return report


@contextmanager
def _transaction(con: duckdb.DuckDBPyConnection, what: str, *, begin: bool = True,
                 ) -> Iterator[None]:
    """The block's statements in a transaction (begun here unless ``begin`` is false, when
    the block goes on with one already open): anything raised rolls it back, and a database
    error comes out as :class:`store.StoreError` saying ``what`` was being done."""
    try:
        try:
            if begin:
                con.execute("BEGIN TRANSACTION")
            yield
        except BaseException:
            _rollback(con)
            raise
    except duckdb.Error as exc:
        raise store.StoreError(f"{what}: {store.describe_error(exc)}") from None


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    try:
        con.execute("ROLLBACK")
    except duckdb.Error:
        pass


def _next_id(con: duckdb.DuckDBPyConnection, table: str, column: str) -> int:
    row = con.execute(f"SELECT coalesce(max({column}), 0) + 1 FROM {table}").fetchone()
    assert row is not None
    return int(row[0])


def _insert_rejected(con: duckdb.DuckDBPyConnection, import_id: int, name: str,
                     rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    table = pa.table({
        "import_id": pa.array([import_id] * len(rows), pa.int32()),
        "path": pa.array([name] * len(rows), pa.string()),
        "line": pa.array([r["line"] for r in rows], pa.int32()),
        "hand_id": pa.array([r["hand_id"] for r in rows], pa.string()),
        "message": pa.array([r["message"] for r in rows], pa.string()),
        "partial": pa.array([r["partial"] for r in rows], pa.bool_()),
        "raw": pa.array([r["raw"] for r in rows], pa.string()),
    })
    insert_tables(con, {"rejected": table})


def _fast(fmt: Format) -> bool:
    return FAST_PATH and fmt.name == ofc_hh_fast.FORMAT_NAME


def _batch(lines: list[str], start: int) -> list[tuple[int, str]]:
    """The non-blank lines of the chunk starting at ``start``, with their line numbers."""
    return [(number, line) for number, line in
            enumerate(lines[start:start + CHUNK_HANDS], start=start + 1) if line.strip()]


def _store_hands(con: duckdb.DuckDBPyConnection, prepared: _Prepared, import_id: int,
                 counts: _Counts, ticker: _Ticker) -> None:
    fmt, text, name, size = prepared.fmt, prepared.text, prepared.name, len(prepared.data)
    assert fmt is not None
    if _fast(fmt):
        _store_fast(con, prepared, import_id, counts, ticker)
        return
    lines = max(text.count("\n") + 1, 1)
    chunk: list[ParsedHand] = []
    for item in _parse(fmt, text, name):
        if isinstance(item, ParseIssue):
            counts.reject(item.line, item.hand_id, item.message, item.raw, item.partial)
            continue
        chunk.append(item)
        if len(chunk) >= CHUNK_HANDS:
            _store_chunk(con, chunk, import_id, counts)
            ticker.update(name, item.line / lines, size, counts.hands)
            chunk = []
    if chunk:
        _store_chunk(con, chunk, import_id, counts)
    ticker.update(name, 1.0, size, counts.hands)


def _store_fast(con: duckdb.DuckDBPyConnection, prepared: _Prepared, import_id: int,
                counts: _Counts, ticker: _Ticker) -> None:
    """ofc-hh/1 in chunks of lines: canonical hands through :mod:`ingest.formats.ofc_hh_fast`, every
    other line through the format's own reader (which says what is wrong with it).

    DuckDB stores chunk ``k`` on a worker thread while this one parses chunk ``k + 1`` (the
    connection is never used by both at once)."""
    fmt, name, size = prepared.fmt, prepared.name, len(prepared.data)
    assert fmt is not None
    if prepared.first is None:
        lines = prepared.text.split("\n")
        first = None
    else:
        lines, *first = prepared.first
    ready = None
    last = len(lines)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ofc-store") as worker:
        pending: Future[None] | None = None
        for start in range(0, last, CHUNK_HANDS):
            with gc_paused():
                if start == 0 and first is not None:
                    batch, parsed, ready = first
                else:
                    batch = _batch(lines, start)
                    parsed = ofc_hh_fast.parse_lines(batch)
                _wait(pending)
                again, tables = _fast_chunk_tables(con, parsed, import_id, counts, ready)
                ready = None
            pending = worker.submit(insert_tables, con, tables) if tables else None
            if again:
                _wait(pending)
                pending = None
                _store_slowly(con, fmt, name, batch, again, last, import_id, counts)
            ticker.update(name, min(start + CHUNK_HANDS, last) / last, size, counts.hands)
        _wait(pending)


def _wait(pending: Future[None] | None) -> None:
    if pending is not None:
        pending.result()


def _store_slowly(con: duckdb.DuckDBPyConnection, fmt: Format, name: str,
                  batch: list[tuple[int, str]], positions: list[int], last: int,
                  import_id: int, counts: _Counts) -> None:
    """The lines at ``positions`` of ``batch`` through the format's own reader."""
    slow: list[ParsedHand] = []
    for position in positions:
        number, line = batch[position]
        # One line read alone as in its file: not at the start (a BOM there is not the
        # file's), and the last line of the file still last (it may be partial).
        alone = "\n" + line + ("" if number == last else "\n")
        for item in _parse(fmt, alone, name):
            item = replace(item, line=number)
            if isinstance(item, ParseIssue):
                counts.reject(item.line, item.hand_id, item.message, item.raw, item.partial)
            else:
                slow.append(item)
    if slow:
        _store_chunk(con, slow, import_id, counts)


def _fast_chunk_tables(con: duckdb.DuckDBPyConnection, parsed: ofc_hh_fast.ParsedLines,
                       import_id: int, counts: _Counts, ready: _Ready | None = None,
                       ) -> tuple[list[int], dict[str, pa.Table] | None]:
    """The tables of the new canonical hands of a chunk (counted as stored); hands stored
    before with the same text are counted as duplicates. Also returns the positions of the
    lines left for the reference reader (not canonical, invalid, or already stored from a log
    that differs)."""
    hands = parsed.hands
    n = len(hands["source"])
    keep = np.ones(n, bool)
    later: list[int] = []
    if n:
        ids = pa.table({"source": pa.array(hands["source"], pa.string()),
                        "hand_id": pa.array(hands["hand_id"], pa.string()),
                        "raw": pa.array(hands["raw"], pa.string()),
                        "i": pa.array(np.arange(n))})
        con.register("_ofc_ids", ids)
        try:
            found = con.execute("SELECT i.i, h.raw = i.raw FROM _ofc_ids i JOIN hands h "
                                "USING (source, hand_id)").fetchall()
        finally:
            con.unregister("_ofc_ids")
        for i, same in found:
            keep[i] = False
            if same:
                counts.hands += 1
                counts.duplicate += 1
            else:
                later.append(hands["input"][i])
        seen: set[tuple[str, str]] = set()
        for i, key in enumerate(zip(hands["source"], hands["hand_id"], strict=True)):
            if key in seen and keep[i]:
                keep[i] = False
                later.append(hands["input"][i])
            seen.add(key)
    if ready is not None and keep.all():  # checked and built before the transaction
        tables = None
        if ready.fresh and ready.tables is not None:
            tables = _numbered(ready.tables, _next_id(con, "hands", "hand_key"), import_id)
            counts.hands += ready.fresh
            counts.stored += ready.fresh
        return sorted(ready.deferred + later), tables
    fast, deferred = parsed.finish(keep)
    fresh = len(fast.columns)
    tables = None
    if fresh:
        first = _next_id(con, "hands", "hand_key")
        keys = np.arange(first, first + fresh, dtype=np.int64)
        tables = build_tables(fast.columns, keys, np.full(fresh, import_id), fast.scores())
        counts.hands += fresh
        counts.stored += fresh
    return sorted(deferred + later), tables


def _existing_keys(con: duckdb.DuckDBPyConnection,
                   chunk: Sequence[ParsedHand]) -> dict[tuple[str, str], int]:
    ids = pa.table({"source": [p.record.source for p in chunk],
                    "hand_id": [p.record.hand_id for p in chunk]})
    con.register("_ofc_ids", ids)
    try:
        found = con.execute("SELECT h.source, h.hand_id, h.hand_key FROM hands h "
                            "JOIN _ofc_ids i USING (source, hand_id)").fetchall()
    finally:
        con.unregister("_ofc_ids")
    return {(s, h): k for s, h, k in found}


def _store_chunk(con: duckdb.DuckDBPyConnection, chunk: Sequence[ParsedHand], import_id: int,
                 counts: _Counts) -> None:
    existing = _existing_keys(con, chunk)
    fresh: list[ParsedHand] = []
    again: list[ParsedHand] = []
    seen: set[tuple[str, str]] = set()
    for item in chunk:
        key = (item.record.source, item.record.hand_id)
        (again if key in existing or key in seen else fresh).append(item)
        seen.add(key)
    if fresh:
        first = _next_id(con, "hands", "hand_key")
        rows = [HandRow(first + n, import_id, p.line, p.raw) for n, p in enumerate(fresh)]
        records = [p.record for p in fresh]
        insert_tables(con, hand_tables(records, rows, score_records(records)))
        counts.hands += len(fresh)
        counts.stored += len(fresh)
        existing.update({(p.record.source, p.record.hand_id): r.hand_key
                         for p, r in zip(fresh, rows, strict=True)})
    while again:  # a hand seen twice in one chunk merges in turn
        now, later, seen = [], [], set()
        for item in again:
            key = (item.record.source, item.record.hand_id)
            (later if key in seen else now).append(item)
            seen.add(key)
        _merge(con, now, existing, counts)
        again = later


# --------------------------------------------------------------------------------------------
# The same hand from another log


class MergeConflict(ValueError):
    """Two logs of the same (source, hand_id) disagree on what is on the table."""


def merge_records(stored: HandRecord, other: HandRecord) -> HandRecord:
    """``stored`` completed with what ``other`` shows and it hides: dealt cards and discards
    of each street, street detail missing altogether, reported points.

    Raises :class:`MergeConflict` when the logs disagree (players, boards or placements).
    """
    if [p.name for p in stored.players] != [p.name for p in other.players]:
        raise MergeConflict(f"players {[p.name for p in other.players]} differ from the stored "
                            f"hand's {[p.name for p in stored.players]}")
    if stored.variant != other.variant or dict(stored.rules) != dict(other.rules):
        raise MergeConflict("the variant or rules differ from the stored hand's")
    players = tuple(_merge_player(a, b) for a, b in zip(stored.players, other.players,
                                                         strict=True))
    return replace(stored, players=players)


def _merge_player(a: PlayerRecord, b: PlayerRecord) -> PlayerRecord:
    if not a.surrendered and not b.surrendered and a.board != b.board:
        if sorted(a.board.cards) != sorted(b.board.cards) or any(
                sorted(x) != sorted(y) for x, y in zip(
                    (a.board.top, a.board.middle, a.board.bottom),
                    (b.board.top, b.board.middle, b.board.bottom), strict=True)):
            raise MergeConflict(f"{a.name}: board {b.board} differs from the stored {a.board}")
    if a.fantasyland != b.fantasyland or a.surrendered != b.surrendered:
        raise MergeConflict(f"{a.name}: Fantasyland or surrender differs from the stored hand")
    streets = a.streets
    if streets is None:
        streets = b.streets
    elif b.streets is not None:
        if len(a.streets or ()) != len(b.streets):
            raise MergeConflict(f"{a.name}: {len(b.streets)} streets, the stored hand has "
                                f"{len(streets)}")
        streets = tuple(_merge_street(a.name, n, s, t)
                        for n, (s, t) in enumerate(zip(streets, b.streets, strict=True), 1))
    reported = a.reported_points if a.reported_points is not None else b.reported_points
    return replace(a, streets=streets, reported_points=reported)


def _merge_street(name: str, number: int, s: StreetPlay, t: StreetPlay) -> StreetPlay:
    if (s.top, s.middle, s.bottom) != (t.top, t.middle, t.bottom):
        raise MergeConflict(f"{name}, street {number}: placements differ from the stored hand")
    for attr in ("dealt", "discard"):
        mine, theirs = getattr(s, attr), getattr(t, attr)
        if mine is not None and theirs is not None and sorted(mine) != sorted(theirs):
            raise MergeConflict(f"{name}, street {number}: {attr} differs from the stored hand")
    return replace(s, dealt=s.dealt if s.dealt is not None else t.dealt,
                   discard=s.discard if s.discard is not None else t.discard)


def _merge(con: duckdb.DuckDBPyConnection, items: Sequence[ParsedHand],
           existing: dict[tuple[str, str], int], counts: _Counts) -> None:
    keys = [existing[(p.record.source, p.record.hand_id)] for p in items]
    stored = load_records(con, keys)
    updates: list[tuple[HandRecord, HandRow]] = []
    for item, key in zip(items, keys, strict=True):
        record, row = stored[key]
        counts.hands += 1
        try:
            merged = merge_records(record, item.record)
        except MergeConflict as exc:
            counts.reject(item.line, item.record.hand_id,
                          f"hand {item.record.hand_id!r} is already stored from another log, "
                          f"which disagrees: {exc}", item.raw)
            continue
        if merged == record:
            counts.duplicate += 1
            continue
        problems = validate(merged)
        if problems:
            counts.reject(item.line, item.record.hand_id,
                          f"hand {item.record.hand_id!r}: completing the stored hand with this "
                          f"log gives an invalid hand: {'; '.join(problems)}", item.raw)
            continue
        counts.merged += 1
        updates.append((merged, row))
    if updates:
        delete_hands(con, [row.hand_key for _, row in updates], HAND_TABLES)
        records = [r for r, _ in updates]
        insert_tables(con, hand_tables(records, [row for _, row in updates],
                                       score_records(records)))


# --------------------------------------------------------------------------------------------
# Rescoring


@dataclass(frozen=True)
class RescoreResult:
    hands: int
    """Hands rescored."""
    failed: tuple[HandIssue, ...] = ()
    """Stored hands that are not valid under the current rules (kept as they were); ``line``
    is the hand's line in the file it was imported from."""


def rescore(con: duckdb.DuckDBPyConnection, *, progress: Progress | None = None,
            chunk_hands: int = 50_000) -> RescoreResult:
    """Recompute every stored hand's results from its stored boards and placements (after a
    rules change or a core upgrade), chunk by chunk, one transaction per chunk.

    ``progress(done, total, label)`` counts hands."""
    total_row = con.execute("SELECT count(*), coalesce(min(hand_key), 0) FROM hands").fetchone()
    assert total_row is not None
    total, start = int(total_row[0]), int(total_row[1])
    done = 0
    failed: list[HandIssue] = []
    started = time.monotonic()
    with _IMPORT_LOCK:
        while done < total:
            keys = [k for (k,) in con.execute(
                "SELECT hand_key FROM hands WHERE hand_key >= ? ORDER BY hand_key LIMIT ?",
                [start, chunk_hands]).fetchall()]
            if not keys:
                break
            failed += _rescore_chunk(con, keys)
            done += len(keys)
            start = keys[-1] + 1
            if progress is not None:
                rate = done / max(time.monotonic() - started, 1e-6)
                progress(done, total, f"{done:,} hands, {rate:,.0f} hands/s")
    return RescoreResult(done - len(failed), tuple(failed))


def _rescore_chunk(con: duckdb.DuckDBPyConnection, keys: Sequence[int]) -> list[HandIssue]:
    """Rescore the hands ``keys`` in one transaction: in bulk (:func:`_rescore_in_bulk`)
    where the bulk reader takes them, the others (match events, or not valid any more) as
    records, which says what is wrong with a hand that fails (it is kept as it was)."""
    bulk, rest = _rescore_in_bulk(con, keys)
    loaded = load_records(con, rest)
    good: list[tuple[HandRecord, HandRow]] = []
    failed: list[HandIssue] = []
    for record, row in loaded.values():
        problems = validate(record)
        if problems:
            failed.append(HandIssue(row.line or 0, record.hand_id,
                                    f"hand {record.hand_id!r} ({record.source}): "
                                    f"{'; '.join(problems)}"))
        else:
            good.append((record, row))
    records = [r for r, _ in good]
    rows = [row for _, row in good]
    derived = ("hands", "hand_players", "hand_rows", "pairs")
    parts = [t for t in (bulk, hand_tables(records, rows, score_records(records)) if good
                         else None) if t is not None]
    done = [int(k) for t in parts for k in t["hands"]["hand_key"].to_numpy()]
    with _transaction(con, "rescoring"):
        delete_hands(con, done, derived)
        for tables in parts:
            insert_tables(con, {name: tables[name] for name in derived})
        con.execute("COMMIT")
    return failed


def _rescore_in_bulk(con: duckdb.DuckDBPyConnection, keys: Sequence[int],
                     ) -> tuple[dict[str, pa.Table] | None, list[int]]:
    """The tables of the hands ``keys`` that the bulk reader takes, read back from the store
    (:func:`~ingest.formats.ofc_hh_fast.read_store`), checked and scored on arrays as an import
    does, with their stored key, import, line and raw text; and the keys it leaves."""
    stored = ofc_hh_fast.read_store(con, keys)
    with gc_paused():
        fast, _ = stored.parsed.finish()
    if not len(fast.columns):
        return None, sorted(keys)
    taken = np.asarray(fast.inputs, np.int64)
    hand_keys = stored.hand_keys[taken]
    tables = build_tables(fast.columns, hand_keys, stored.import_ids[taken], fast.scores())
    return tables, sorted(set(keys) - {int(k) for k in hand_keys})
