"""The other cores of a big import: ofc-hh/1 files decoded, parsed, checked, scored and shaped
into Arrow tables by worker processes, while this process (the one writer) stores and commits
the files before them.

Python's part of an import (reading the lines, the array checks, the scorer, the table builder)
holds the interpreter's lock, so threads cannot share it; a process per spare core can. Each
worker gets a file's bytes and gives back, when the file takes the bulk path from end to end
(ofc-hh/1, one chunk of at most :data:`~ingest.record_path.CHUNK_HANDS` lines, every line
canonical and valid, no hand twice), its tables as :class:`Shipped` (Arrow, numbered from 0 for
import 0, as :func:`ingest.fast_path.ready` makes them). Anything else (another format, a bad
or non-canonical line, a hand the store already holds, a bigger file) is ``None`` or found
in the transaction, and the file is read by this process exactly as without the pool: the
same checks, messages and rows, nothing lost.

The pool starts only once an import has read :data:`POOL_AFTER_BYTES` (starting worker
processes costs about a second of CPU: small imports, the watcher, the dashboard's uploads
never pay it), and keeps :data:`AHEAD` files in flight per worker. Files are stored in their
order, one transaction each, as before.

How many workers: ``$OFC_IMPORT_WORKERS`` when set; else the caller's default.
:func:`ingest.pipeline.import_paths` (``ofc import``, a command of its own) gives one worker on
a machine of two cores or more (:func:`default_workers`): measured at 1,000,000 hands on this
2-core machine, quiet, 5,536 -> 8,716 hands/s (1.57 times; 211 -> 183 CPU s), DuckDB then held
to :data:`MEMORY_LIMIT` so that the two processes stay under 2 GB
(docs/scale.md). The dashboard's uploads, the demo and the folder watcher run inside a server
and start no process (default ``0``); with the second core busy with other work the worker
does not pay (0.88 times at 100,000 hands, load 3-4): ``OFC_IMPORT_WORKERS=0`` turns it off.

>>> workers(0, {"OFC_IMPORT_WORKERS": "0"})
0
>>> workers(0, {"OFC_IMPORT_WORKERS": "3"})
3
>>> workers(1, {})
1
>>> default_workers(cores=1), default_workers(cores=2), default_workers(cores=16)
(0, 1, 1)
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

import duckdb
import pyarrow as pa

from . import fast_path, record_path
from .formats import Format, ofc_hh_fast, registry
from .hand_tables import insert_tables
from .ledger import next_id
from .record_path import recognise
from .reports import Counts

WORKERS_ENV = "OFC_IMPORT_WORKERS"
POOL_AFTER_BYTES = 16 * 1024 * 1024
"""An import starts its workers once it has read this much (about 16,000 hands)."""
MEMORY_LIMIT = "512MB"
"""DuckDB's ``memory_limit`` during :func:`ingest.pipeline.import_paths` with a worker: at a
million hands the import peaked at 1,320 MB and the worker at 545 MB (with 1GB, the limit
without a worker: 1,770 and 545, over 2 GB), in the same time (113.9 against 112.1 s)."""
AHEAD = 2
"""Files handed to the pool per worker before their turn to be stored."""


def workers(default: int, env: Mapping[str, str] | None = None) -> int:
    """How many worker processes an import uses: ``$OFC_IMPORT_WORKERS`` if set to a number,
    else ``default``."""
    value = (os.environ if env is None else env).get(WORKERS_ENV)
    if value is not None and value.strip().isdigit():
        return int(value)
    return default


def default_workers(cores: int | None = None) -> int:
    """One worker on a machine of two cores or more, none on one core. One is all a single
    writer can use: with a worker reading, this process's storing is the longer side (about
    105 of 183 µs of CPU a hand at a million hands, docs/scale.md)."""
    found = (os.cpu_count() or 1) if cores is None else cores
    return 1 if found >= 2 else 0


@dataclass(frozen=True)
class Shipped:
    """A whole ofc-hh/1 file read by a worker: its format's name and its hands' tables
    (:func:`ingest.fast_path.ready`'s, keys from 0, import 0)."""

    fmt: str
    tables: dict[str, pa.Table]

    @property
    def hands(self) -> int:
        return int(self.tables["hands"].num_rows)

    def format(self) -> Format:
        return next(f for f in registry() if f.name == self.fmt)


PARENT_POLL_SECONDS = 1.0
"""How often a worker looks whether the import that started it is still there."""


def follow_parent(parent: int) -> None:
    """A worker's initializer: end the worker once its import's process is gone (killed by
    SIGTERM or SIGKILL, that process cannot shut its workers down, and a worker holds both
    ends of its queue's pipe, so it would wait for work forever)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="ofc-import-parent").start()


def ship(name: str, data: bytes) -> Shipped | None:
    """In a worker: the file's tables when it takes the bulk path from end to end, else
    ``None`` (this process then reads it as usual)."""
    text, fmt, unreadable = recognise(name, data)
    if unreadable is not None or fmt is None or not fast_path.takes(fmt):
        return None
    lines = text.split("\n")
    if len(lines) > record_path.CHUNK_HANDS:
        return None
    parsed = ofc_hh_fast.parse_lines(fast_path.batch(lines, 0))
    made = fast_path.ready(parsed)
    hands = parsed.hands
    keys = set(zip(hands["source"], hands["hand_id"], strict=True))
    if made.deferred or made.tables is None or len(keys) != made.fresh:
        return None
    return Shipped(fmt.name, made.tables)


def store_shipped(con: duckdb.DuckDBPyConnection, shipped: Shipped, import_id: int,
                  counts: Counts) -> bool:
    """Store a worker's file in the open transaction, its hands numbered after the stored
    ones; ``False`` (nothing written) when the store holds one of its hands already: the
    file is then read as usual (duplicates, merges and conflicts are that path's)."""
    ids = shipped.tables["hands"].select(["source", "hand_id"])
    con.register("_ofc_shipped", ids)
    try:
        row = con.execute("SELECT count(*) FROM _ofc_shipped JOIN hands "
                          "USING (source, hand_id)").fetchone()
    finally:
        con.unregister("_ofc_shipped")
    if row is None or row[0]:
        return False
    first = next_id(con, "hands", "hand_key")
    insert_tables(con, fast_path.renumbered(shipped.tables, first, import_id))
    counts.hands += shipped.hands
    counts.stored += shipped.hands
    return True


class Pool:
    """Worker processes for one import, started when :meth:`feed` has seen
    :data:`POOL_AFTER_BYTES`; :meth:`submit` hands a file over (``None``: no pool yet)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.seen = 0
        self.executor: ProcessPoolExecutor | None = None

    def feed(self, size: int) -> None:
        self.seen += size
        if self.executor is None and self.count and self.seen >= POOL_AFTER_BYTES:
            context = multiprocessing.get_context("spawn")  # never fork DuckDB's threads
            self.executor = ProcessPoolExecutor(self.count, mp_context=context,
                                                initializer=follow_parent,
                                                initargs=(os.getpid(),))

    def submit(self, name: str, data: bytes) -> Future[Shipped | None] | None:
        return None if self.executor is None else self.executor.submit(ship, name, data)

    @property
    def ahead(self) -> int:
        return max(1, AHEAD * self.count)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)


@contextmanager
def pool(count: int) -> Iterator[Pool]:
    """A :class:`Pool` of ``count`` processes for one import (started once it has read
    :data:`POOL_AFTER_BYTES`), shut down after it."""
    found = Pool(count)
    try:
        yield found
    finally:
        found.close()

