"""Importing session logs into the store: the pipeline that reads files and runs each one's
transaction.

A file is read, decoded (:func:`ingest.formats.encoding.decode_bytes`), recognised by the format
registry, parsed, checked (:func:`ofc_core.hand.validate`, inside the parsers), scored in bulk
(``ofc_core.batch.score_records``) and stored through Arrow, in ONE transaction per file
together with its ledger row: a crash mid-import leaves all of the file's hands or none.
Canonical ofc-hh/1 lines take the fast path (:mod:`ingest.fast_path`: columns, array checks,
``ofc_core.batch.score_batch``), every other hand the record path (:mod:`ingest.record_path`);
both paths store the same rows. In a big import, worker processes read the coming files
(:mod:`ingest.import_pool`) while this process stores. Merging is in :mod:`ingest.merge`, the
ledger rows and transactions in :mod:`ingest.ledger`, the reports in :mod:`ingest.reports`.

A hand is identified by ``(source, hand_id)`` and stored once. Seeing it again adds nothing
(a *duplicate*), unless the new log shows cards the stored one hid (another player's view of
the same hand: their own dealt cards and discards) or is a more informative copy (it names
the variant, has streets, a stake): then the stored hand is completed or upgraded and scored
again (*merged*; the rule is :mod:`ingest.merge`'s). A bad hand never stops a file: it is kept
in ``rejected`` with its line and reason. A hand without its result is *partial*: a truncated
last hand (a file still being written: imported when the grown file is imported again) or one
the log abandoned. Every hand read is counted once: hands = stored + duplicate + merged +
partial + rejected.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import cast

import duckdb

from . import aggregates, archives, batches, fast_path, import_pool, store
from .audit import audit_import
from .formats import (
    FileFormat,
    Format,
    UnreadableFile,
)
from .inferred_stakes import infer_stakes
from .ledger import (
    IMPORT_LOCK,
    already_stored,
    insert_import,
    insert_rejected,
    next_id,
    transaction,
)
from .money import settle_matches
from .prepared import Prepared as _Prepared
from .prepared import Ticker as _Ticker
from .prepared import prepare as _prepare
from .prepared import prepare_text as _prepare_text
from .record_path import ReaderFailed, reader_failed, store_parsed, store_records
from .reports import Counts, FileReport, HandIssue, ImportReport, Progress
from .upgrade import upgrade

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
    :func:`ingest.store.default_db_path`), DuckDB's memory held to :data:`IMPORT_MEMORY_LIMIT`
    meanwhile (the connection is this call's own, not a dashboard's). Raises
    :class:`ingest.store.StoreBusy` / :class:`ingest.store.StoreError` for database problems;
    everything about the logs is in the report. An older store is upgraded first
    (:func:`ingest.upgrade.upgrade`). On two cores or more a worker process reads the files
    while this one stores them (:mod:`ingest.import_pool`, its own memory limit)."""
    files = list(iter_log_files(paths))
    workers = import_pool.workers(import_pool.default_workers())
    limit = import_pool.MEMORY_LIMIT if workers else IMPORT_MEMORY_LIMIT
    con = store.connect(db, wait_seconds=wait_seconds)
    try:
        upgrade(con, db)
        with _settings(con, {"memory_limit": limit}):
            return import_disk_files(files, con, progress=progress, workers=workers)
    finally:
        con.close()


def import_disk_files(files: Iterable[Path], con: duckdb.DuckDBPyConnection, *,
                      progress: Progress | None = None, workers: int = -1) -> ImportReport:
    """Import files on disk (not folders; a zip is unpacked into its members) through an open
    connection, one transaction per file (:func:`import_paths` after opening the store; the
    folder watcher, :mod:`ingest.watch`). Without ``progress``, ``files`` is taken one file at
    a time as the import goes (the watcher stops giving files when its time is up). ``workers``
    processes read them (``-1``: ``$OFC_IMPORT_WORKERS``, else none)."""
    total = 0
    if progress is not None:
        files = list(files)
        total = sum(_size(p) for p in files)
    count = import_pool.workers(0) if workers < 0 else workers
    return _import(_path_items(files), con, progress, total, count)


_Item = tuple[str, "Callable[[], bytes]", Path | None]
"""A file to import: its name, how to read its bytes, its path on disk (``None`` for an
upload or a zip member)."""


def _path_items(files: Iterable[Path]) -> Iterator[_Item]:
    """Files on disk; a zip unpacked (:class:`~ingest.archives.Limits`) into its members."""
    for path in files:
        if path.suffix.lower() != ".zip":
            yield str(path), _reader(path), path
            continue
        try:
            data = _reader(path)()
        except _Unreadable as exc:
            yield str(path), _failing(str(exc)), None
            continue
        unpacked = archives.unpack([(str(path), data)])
        for name, content in unpacked.files:
            yield name, _constant(content), None
        for refusal in unpacked.refused:
            yield refusal.file, _failing(f"{refusal.file}: {refusal.reason}"), None


def import_files(files: Iterable[tuple[str, bytes]], con: duckdb.DuckDBPyConnection, *,
                 progress: Progress | None = None) -> ImportReport:
    """Import in-memory files ``(name, content)`` (the dashboard's upload page) through an
    open connection."""
    items: list[_Item] = [(name, _constant(data), None) for name, data in files]
    total = sum(len(fn()) for _, fn, _ in items)
    return _import(iter(items), con, progress, total, import_pool.workers(0))


def _constant(data: bytes) -> Callable[[], bytes]:
    return lambda: data


def _failing(message: str) -> Callable[[], bytes]:
    def read() -> bytes:
        raise _Unreadable(message)
    return read


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


def _import(files: Iterator[_Item], con: duckdb.DuckDBPyConnection,
            progress: Progress | None, total_bytes: int, workers: int) -> ImportReport:
    """Files one transaction each, in order, but runs of small files one transaction a batch
    (:mod:`ingest.batches`). A transaction's COMMIT (where DuckDB compresses and writes its
    rows) runs on a worker thread while this one reads, decodes and parses the next files;
    the next transaction begins only once that commit is done."""
    started = time.monotonic()
    ticker = _Ticker(progress, total_bytes, started)
    with _import_settings(con), con.cursor() as ledger, import_pool.pool(workers) as pool, \
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="ofc-commit") as committer:
        run = _Run(con, ticker, committer)
        try:
            for name, data, path, digest, known, shipped in _ahead(files, ledger, pool):
                if isinstance(data, _Unreadable):
                    run.flush()
                    run.settle()
                    run.reports.append(FileReport(name, None, unreadable=str(data),
                                                  errors=(HandIssue(0, None, str(data)),)))
                    continue
                run.add(_Prepared(name, data, digest, known[0], "", None, known=known[1])
                        if known is not None else _from_worker(shipped, name, data, digest)
                        or _prepare(name, data, digest, path))
            run.flush()
            run.settle()
        finally:
            if run.pending is not None:  # an error elsewhere: let the commit finish, then raise
                run.pending[0].exception()
    return ImportReport(batches.final_notes(con, run.reports), time.monotonic() - started)


class _Run:
    """The transactions of one import: the one committing (``pending``), the small files
    gathered for the next batch, the reports so far."""

    def __init__(self, con: duckdb.DuckDBPyConnection, ticker: _Ticker,
                 committer: ThreadPoolExecutor) -> None:
        self.con, self.ticker, self.committer = con, ticker, committer
        self.pending: tuple[Future[FileReport | list[FileReport]], int] | None = None
        self.batch: list[_Prepared] = []
        self.reports: list[FileReport] = []

    def add(self, prepared: _Prepared) -> None:
        """A file: into the batch if small, else (after the batch) in its own transaction."""
        if batches.small(prepared):
            self.batch.append(prepared)
            if batches.full(self.batch):
                self.flush()
            return
        self.flush()
        self.start([prepared])

    def flush(self) -> None:
        if self.batch:
            group, self.batch = self.batch, []
            self.start(group)

    def settle(self) -> None:
        """The last transaction's commit waited for, its reports kept."""
        if self.pending is not None:
            future, size = self.pending
            self.pending = None
            done = future.result()
            for report in done if isinstance(done, list) else [done]:
                self.ticker.hands += report.hands
                self.reports.append(report)
            self.ticker.file_done(size)

    def start(self, group: list[_Prepared]) -> None:
        """The group's transaction, once the last one committed (a batch that fails: its
        files one by one)."""
        self.settle()
        IMPORT_LOCK.acquire()
        try:
            future = _import_group(self.con, group, self.ticker, self.committer)
        except BaseException:
            IMPORT_LOCK.release()
            raise
        if future is None:
            IMPORT_LOCK.release()
            for prepared in group:
                self.start([prepared])
            return
        future.add_done_callback(lambda _: IMPORT_LOCK.release())
        self.pending = (future, sum(len(p.data) for p in group))


def _import_group(con: duckdb.DuckDBPyConnection, group: list[_Prepared], ticker: _Ticker,
                  committer: ThreadPoolExecutor,
                  ) -> Future[FileReport | list[FileReport]] | None:
    """One file in its transaction, or a batch of small files in one (``None``: the batch
    raised, and was rolled back)."""
    if len(group) == 1:
        return cast("Future[FileReport | list[FileReport]]",
                    _import_one(con, group[0], ticker, committer))
    done = 0

    def tick(prepared: _Prepared, hands: int) -> None:
        nonlocal done
        done += len(prepared.data)
        ticker.update(prepared.name, 1.0, done, hands)

    try:
        with transaction(con, f"importing {group[0].name} and {len(group) - 1} more files"):
            reports = batches.store_batch(con, group, tick)
    except store.StoreError:
        raise
    except Exception:
        return None
    return committer.submit(_commit_many, con, reports)


def _commit_many(con: duckdb.DuckDBPyConnection, reports: list[FileReport],
                 ) -> FileReport | list[FileReport]:
    with transaction(con, f"importing {reports[0].path} and {len(reports) - 1} more files",
                     begin=False):
        con.execute("COMMIT")
    return reports


_Ahead = tuple[str, "bytes | _Unreadable", Path | None, str, "tuple[Format, int] | None",
               "Future[import_pool.Shipped | None] | None"]
"""A file read ahead: name, bytes (or why not), path, sha256, :func:`already_stored`'s
answer, and the worker's reading of it (:mod:`ingest.import_pool`; ``None``: no worker)."""


def _ahead(files: Iterator[_Item], ledger: duckdb.DuckDBPyConnection,
           workers: import_pool.Pool) -> Iterator[_Ahead]:
    """Files read, hashed and checked against the ledger ``workers.ahead`` files before
    their turn, and handed to the worker processes once the pool runs (a file whose bytes
    were imported in full before is not: nothing of it is read)."""
    queue: deque[_Ahead] = deque()
    for name, read, path in files:
        try:
            data: bytes | _Unreadable = read()
        except _Unreadable as exc:
            data = exc
        digest = ""
        known: tuple[Format, int] | None = None
        shipped: Future[import_pool.Shipped | None] | None = None
        if isinstance(data, bytes):
            digest = hashlib.sha256(data).hexdigest()
            known = already_stored(ledger, digest)  # while the last file commits
            workers.feed(len(data))
            shipped = None if known is not None else workers.submit(name, data)
        queue.append((name, data, path, digest, known, shipped))
        while len(queue) > (workers.ahead if workers.executor is not None else 0):
            yield queue.popleft()
    yield from queue


def _from_worker(shipped: Future[import_pool.Shipped | None] | None, name: str, data: bytes,
                 digest: str) -> _Prepared | None:
    """The file as a worker read it (``None``: read it here)."""
    try:
        done = None if shipped is None else shipped.result()
    except Exception:  # a worker that failed or died: this process reads it and says why
        done = None
    if done is None:
        return None
    return _Prepared(name, data, digest, done.format(), "", None, shipped=done)


CHECKPOINT_THRESHOLD = "256MB"
"""DuckDB's ``checkpoint_threshold`` while importing (its default, 16MB, checkpoints after
almost every file, and each checkpoint compresses the tables' last row groups again)."""

IMPORT_MEMORY_LIMIT = "1GB"
"""DuckDB's ``memory_limit`` during :func:`import_paths` (its default, 80% of the machine's
memory, let its buffers hold the growing store: peak RSS 2.3 GB at a million hands; with 1GB,
1.8 GB and no more CPU, docs/scale.md)."""


@contextmanager
def _settings(con: duckdb.DuckDBPyConnection, wanted: dict[str, str]) -> Iterator[set[str]]:
    """DuckDB settings for the block, restored afterwards; yields the names of those set (a
    setting DuckDB refuses is left as it is)."""
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
        yield set(previous)
    finally:
        for name, value in previous.items():
            try:
                con.execute(f"SET {name} = '{value}'")
            except duckdb.Error:
                pass


@contextmanager
def _import_settings(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """While importing: DuckDB stores on all cores but one (Python parses on that one;
    measured: less CPU and wall time on 2 cores), and checkpoints every
    :data:`CHECKPOINT_THRESHOLD` of log instead of every 16MB (about a quarter less CPU in
    DuckDB). Both settings are restored afterwards, and the import is checkpointed."""
    wanted = {"threads": str(max(1, (os.cpu_count() or 2) - 1)),
              "checkpoint_threshold": CHECKPOINT_THRESHOLD}
    done: set[str] = set()
    try:
        with _settings(con, wanted) as done:
            yield
    finally:
        if "checkpoint_threshold" in done:
            try:
                con.execute("CHECKPOINT")
            except duckdb.Error:  # another transaction is open: DuckDB checkpoints later
                pass


# --------------------------------------------------------------------------------------------
# One file


def _import_one(con: duckdb.DuckDBPyConnection, prepared: _Prepared, ticker: _Ticker,
                committer: ThreadPoolExecutor) -> Future[FileReport]:
    """One file in its transaction. Anything raised while reading, checking, scoring or
    shaping its hands (a bug of ours, never the file's fault) rolls the file back and is
    recorded as the file's error, at the line where known; database errors
    (:class:`store.StoreError`) stop the import."""
    unreadable = None if prepared.unreadable is None else HandIssue(0, None, prepared.unreadable)
    try:
        return _import_transaction(con, prepared, unreadable, ticker, committer)
    except _Gone:
        return _import_one(con, _prepare(prepared.name, prepared.data, prepared.digest,
                                         prepared.file.path if prepared.file else None),
                           ticker, committer)
    except ReaderFailed as exc:
        return _import_transaction(con, prepared, exc.issue, ticker, committer)
    except UnreadableFile as exc:  # a locked or damaged database: nothing of it stays
        return _import_transaction(con, prepared, HandIssue(0, None, str(exc)), ticker,
                                   committer)
    except store.StoreError:
        raise
    except Exception as exc:
        issue = HandIssue(0, None, reader_failed(prepared.name, "import", exc))
        return _import_transaction(con, prepared, issue, ticker, committer)


class _Gone(Exception):
    """A file found stored in full before its transaction no longer is (rolled back)."""


def _import_transaction(con: duckdb.DuckDBPyConnection, prepared: _Prepared,
                        unreadable: HandIssue | None, ticker: _Ticker,
                        committer: ThreadPoolExecutor) -> Future[FileReport]:
    """The file's rows in one transaction; its COMMIT is left to ``committer`` (the returned
    future gives the file's report once committed, or raises :class:`store.StoreError`)."""
    name, fmt = prepared.name, prepared.fmt
    counts = Counts()
    with transaction(con, f"importing {name}"):
        import_id = next_id(con, "imports", "import_id")
        if unreadable is not None:
            counts.rejected_rows.append({"line": unreadable.line, "hand_id": unreadable.hand_id,
                                         "message": unreadable.message, "partial": False,
                                         "raw": None})
        elif prepared.known is not None:
            if already_stored(con, prepared.digest) is None:
                raise _Gone  # its hands went since the check: read the file after all
            counts.hands = counts.duplicate = prepared.known
            ticker.update(name, 1.0, len(prepared.data), counts.hands)
        elif fmt is not None:
            _store_hands(con, prepared, import_id, counts, ticker)
            if counts.stored or counts.merged:
                infer_stakes(con)
                settle_matches(con)
                aggregates.refresh(con)
        insert_rejected(con, import_id, name, counts.rejected_rows)
        insert_import(con, import_id, name, prepared.digest, len(prepared.data), fmt, counts)
        audit = audit_import(con, import_id) if counts.stored or counts.merged else None
    if unreadable is not None:
        report = FileReport(name, None, unreadable=unreadable.message, errors=(unreadable,),
                            import_id=import_id)
    else:
        report = FileReport(name, None if fmt is None else fmt.name, counts.hands,
                            counts.stored, counts.duplicate, counts.merged, counts.partial,
                            tuple(counts.errors), import_id=import_id, notes=tuple(counts.notes),
                            audit=audit, abandoned=counts.abandoned,
                            partials=tuple(counts.partials))
    return committer.submit(_commit, con, name, report)


def _commit(con: duckdb.DuckDBPyConnection, name: str, report: FileReport) -> FileReport:
    with transaction(con, f"importing {name}", begin=False):
        con.execute("COMMIT")
    return report


def _store_hands(con: duckdb.DuckDBPyConnection, prepared: _Prepared, import_id: int,
                 counts: Counts, ticker: _Ticker) -> None:
    fmt, name, size = prepared.fmt, prepared.name, len(prepared.data)
    assert fmt is not None

    def tick(share: float) -> None:
        ticker.update(name, share, size, counts.hands)

    if prepared.file is not None and isinstance(fmt, FileFormat):
        file = prepared.file
        store_parsed(con, lambda: fmt.parse_file(file), fmt.name, name, import_id, counts,
                     tick)
    elif not isinstance(fmt, Format):  # detection gives a file format only with its file
        raise TypeError(f"{name}: {fmt.name} is read from a file, and none was given")
    elif fast_path.takes(fmt):
        if prepared.shipped is not None:
            if import_pool.store_shipped(con, prepared.shipped, import_id, counts):
                tick(1.0)
                return
            prepared = _prepare_text(name, prepared.data, prepared.digest)  # read it here
        fast_path.store_fast(con, fmt, name, prepared.text, prepared.first, import_id, counts,
                             tick)
    else:
        store_records(con, fmt, prepared.text, name, import_id, counts, tick)
