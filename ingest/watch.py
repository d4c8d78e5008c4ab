"""Watched folders: the logs a poker client keeps writing, imported as they appear and grow.

A folder is watched by polling (no watcher of our own, no extra library): each check lists its
files (:func:`ingest.pipeline.iter_log_files`: recursively, hidden ones skipped) and compares
each file's size and modification time with those of its last import (``watched_files``). A new
or changed file is imported by the ordinary pipeline (:func:`ingest.pipeline.import_disk_files`),
so everything an import does holds: hands are stored once by ``(source, hand_id)``, a bad hand
or an unreadable file (a PNG, a damaged zip) is that file's error in the ledger, and a
truncated last hand (a file still being written) is *partial*, not an error. A file that grew
is read again: its earlier hands are duplicates, the hand that was partial is stored. An
unchanged file is not read at all.

A file modified less than :data:`SETTLE_SECONDS` ago waits for the next check (a copy in
progress, a zip or a database half written). The store is opened for writing only when a check
finds something to do, and let go after at most :data:`HOLD_SECONDS` of imports (one
transaction per file), so that the dashboard's pages and other writers get in; a check that
finds nothing writes nothing (the dashboard's cached results stay valid).

Several watchers may watch the same folders at once (``ofc import --watch`` beside the
dashboard's own): DuckDB lets one process write at a time, and a watcher reads the files'
last imports again once it holds the store, so a file another watcher imported meanwhile is not
imported twice.

The list of watched folders and their status is kept in the store
(:mod:`ingest.watched_folders`); this module does the checks.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from . import store
from .ledger import transaction
from .pipeline import import_disk_files, iter_log_files
from .reports import FileReport
from .watched_folders import FolderError, WatchError, check_folder, folder_path, watched_folders

SETTLE_SECONDS = 1.0
"""A file modified less than this long ago is left for the next check."""
HOLD_SECONDS = 1.0
"""A check lets go of the store after this long of imports (then opens it again)."""
PAUSE_SECONDS = 0.25
"""How long a check leaves the store to others between two such blocks (a reader retries
every 0.1 s at most)."""
INTERVAL_SECONDS = 2.0
"""Seconds between checks, by default."""
STOP_POLL_SECONDS = 0.1
"""How often a waiting watcher looks whether it was asked to stop."""

_WRITING = threading.Lock()
"""One watcher of this process imports at a time: connections of one process to a store share
it, so DuckDB's lock does not keep two watchers of the same process apart."""

Writing = Callable[[], AbstractContextManager[duckdb.DuckDBPyConnection]]
"""Opens the store for writing for one block (and lets go of it afterwards)."""


# --------------------------------------------------------------------------------------------
# One check


Signature = tuple[int, int]
"""A file's size in bytes and modification time in nanoseconds."""


@dataclass(frozen=True, slots=True)
class FolderCheck:
    """What one check found in one folder: the files seen, the imports it made (a zip gives
    one report per member) and why the folder could not be read (``None``: it could)."""

    path: str
    files: int = 0
    imports: tuple[FileReport, ...] = ()
    problem: str | None = None
    waiting: int = 0
    """Files changed too recently (:data:`SETTLE_SECONDS`): imported at a later check."""

    @property
    def hands(self) -> int:
        """Hands stored by this check."""
        return sum(f.stored for f in self.imports)

    @property
    def errors(self) -> tuple[WatchError, ...]:
        return tuple(WatchError(f.path, e.line, e.hand_id, e.message)
                     for f in self.imports for e in f.errors)


@dataclass(frozen=True, slots=True)
class WatchPass:
    """One check of every watched folder: when it ran (seconds since the epoch), what each
    folder gave, and why the check could not import (the store held by another process too
    long, or a failure of ours; the next check tries again)."""

    checked_at: float
    folders: tuple[FolderCheck, ...] = ()
    error: str | None = None

    @property
    def imports(self) -> tuple[FileReport, ...]:
        return tuple(f for folder in self.folders for f in folder.imports)


@dataclass(frozen=True, slots=True)
class _Seen:
    path: Path
    folder: str
    signature: Signature


def _scan(folder: str) -> tuple[list[_Seen], str | None]:
    """The folder's files and their signatures, or why it cannot be read."""
    try:
        check_folder(folder)
    except FolderError as exc:
        return [], str(exc)
    seen = []
    try:
        for path in iter_log_files([folder]):
            try:
                info = path.stat()
            except OSError:  # gone since it was listed
                continue
            seen.append(_Seen(path, folder, (info.st_size, info.st_mtime_ns)))
    except OSError as exc:
        return [], f"{folder}: cannot be read ({exc.strerror or exc})"
    return seen, None


def _known(con: duckdb.DuckDBPyConnection, folders: Sequence[str],
           ) -> tuple[dict[str, Signature], dict[str, str | None]]:
    """The last imports' signatures of the files of ``folders`` and the problems stored for
    them, read from the store."""
    files = {str(p): (int(s), int(m)) for p, s, m in con.execute(
        "SELECT path, size_bytes, mtime_ns FROM watched_files WHERE list_contains(?, folder)",
        [list(folders)]).fetchall()}
    problems = {str(p): pr for p, pr in con.execute(
        "SELECT path, problem FROM watched_folders WHERE list_contains(?, path)",
        [list(folders)]).fetchall()}
    return files, problems


def _reports_of(seen: _Seen, reports: Sequence[FileReport]) -> list[FileReport]:
    """The reports of one file of an import (a zip's: one per member, named ``zip/member``)."""
    name = str(seen.path)
    return [f for f in reports if f.path == name or f.path.startswith(name + "/")]


def _record(con: duckdb.DuckDBPyConnection, imported: Sequence[tuple[_Seen, list[FileReport]]],
            ) -> None:
    """The files' rows in ``watched_files`` after their imports (one transaction)."""
    with transaction(con, "recording the watched files' imports"):
        for seen, report in imported:
            ids = [f.import_id for f in report if f.import_id is not None]
            path = str(seen.path)
            row = con.execute("SELECT stored FROM watched_files WHERE path = ?",
                              [path]).fetchone()
            con.execute("DELETE FROM watched_files WHERE path = ?", [path])
            con.execute("INSERT INTO watched_files VALUES (?, ?, ?, ?, ?, ?, ?, now())",
                        [path, seen.folder, *seen.signature, max(ids, default=0),
                         sum(f.stored for f in report) + (int(row[0]) if row else 0),
                         sum(len(f.errors) for f in report)])
        con.execute("COMMIT")


def _record_folder(con: duckdb.DuckDBPyConnection, folder: str, problem: str | None,
                   present: Iterable[str]) -> None:
    """The folder's check time and problem; files no longer in it are forgotten."""
    with transaction(con, f"recording the check of {folder}"):
        con.execute("UPDATE watched_folders SET last_check = now(), problem = ? WHERE path = ?",
                    [problem, folder])
        if problem is None:
            con.execute("DELETE FROM watched_files WHERE folder = ? AND NOT list_contains(?, "
                        "path)", [folder, list(present)])
        con.execute("COMMIT")


@contextmanager
def _connect(db: str | Path | None, wait_seconds: float | None,
             ) -> Iterator[duckdb.DuckDBPyConnection]:
    con = store.connect(db, wait_seconds=wait_seconds)
    try:
        yield con
    finally:
        con.close()


@dataclass
class _Memory:
    """What this watcher last saw: each file's signature, each folder's problem, the folders'
    file lists. A difference from it sends the watcher to the store."""

    files: dict[str, Signature] = field(default_factory=dict)
    problems: dict[str, str | None] = field(default_factory=dict)
    listed: dict[str, frozenset[str]] = field(default_factory=dict)


class Watcher:
    """Checks a list of folders and imports what is new: :meth:`check` once, :meth:`run`
    until asked to :meth:`stop`.

    ``writing`` opens the store for writing for one block (default: :func:`ingest.store.connect`
    on ``db``, waiting ``wait_seconds`` for other processes; the dashboard passes its own).
    ``folders`` is a fixed list to watch (the command line's); without it the watcher watches
    the store's list (:func:`watched_folders`), read each time it opens the store and given by
    :meth:`set_folders`. ``on_check`` is called after every check with its :class:`WatchPass`.
    """

    def __init__(self, db: str | Path | None = None, folders: Iterable[str] | None = None, *,
                 writing: Writing | None = None, wait_seconds: float | None = None,
                 settle_seconds: float = SETTLE_SECONDS, hold_seconds: float = HOLD_SECONDS,
                 on_check: Callable[[WatchPass], None] | None = None) -> None:
        self.writing: Writing = writing or (lambda: _connect(db, wait_seconds))
        self.fixed = folders is not None
        self.folders: tuple[str, ...] = tuple(folder_path(f) for f in folders or ())
        self.settle_seconds = settle_seconds
        self.hold_seconds = hold_seconds
        self.on_check = on_check
        self.last: WatchPass | None = None
        """The last check's result."""
        self._memory = _Memory()
        self._lock = threading.Lock()
        self._stop = False
        self._wake = False

    def set_folders(self, folders: Iterable[str]) -> None:
        """The folders to watch from now on (the store's list, as a page read it)."""
        if not self.fixed:
            self.folders = tuple(sorted(set(folders)))

    # one check ------------------------------------------------------------------------------

    def check(self) -> WatchPass:
        """Check every folder once; import new and changed files (see the module's doc)."""
        with self._lock:
            now = time.time()
            folders = self.folders
            self._forget(set(self._memory.problems) - set(folders))
            scans = {f: _scan(f) for f in folders}
            todo = self._todo(scans, now)
            reports: dict[str, list[FileReport]] = {}
            error = None
            if todo or self._folders_changed(scans):
                try:
                    with _WRITING:
                        self._write(scans, todo, reports)
                except store.StoreError as exc:
                    error = str(exc)
            result = WatchPass(now, tuple(
                FolderCheck(f, len(scans[f][0]), tuple(reports.get(f, ())), scans[f][1],
                            self._waiting(scans[f][0], now)) for f in folders), error)
            self.last = result
        if self.on_check is not None:
            self.on_check(result)
        return result

    def _fresh(self, seen: _Seen, now: float) -> bool:
        return now - seen.signature[1] / 1e9 < self.settle_seconds

    def _changed(self, seen: _Seen) -> bool:
        return self._memory.files.get(str(seen.path)) != seen.signature

    def _waiting(self, files: list[_Seen], now: float) -> int:
        return sum(self._changed(s) and self._fresh(s, now) for s in files)

    def _todo(self, scans: dict[str, tuple[list[_Seen], str | None]], now: float,
              ) -> list[_Seen]:
        """Files whose signature differs from their last import's, settled, each once (a
        file under two watched folders belongs to the first)."""
        todo, taken = [], set()
        for files, _ in scans.values():
            for seen in files:
                if str(seen.path) not in taken:
                    taken.add(str(seen.path))
                    if self._changed(seen) and not self._fresh(seen, now):
                        todo.append(seen)
        return todo

    def _folders_changed(self, scans: dict[str, tuple[list[_Seen], str | None]]) -> bool:
        """A folder not recorded yet by this watcher, whose problem changed, or that lost
        files."""
        memory = self._memory
        return any(f not in memory.problems or memory.problems[f] != problem
                   or bool(memory.listed.get(f, frozenset()) - _names(files))
                   for f, (files, problem) in scans.items())

    def _write(self, scans: dict[str, tuple[list[_Seen], str | None]], todo: list[_Seen],
               reports: dict[str, list[FileReport]]) -> None:
        """Import ``todo`` and record each folder, the store opened in blocks of at most
        :attr:`hold_seconds` of imports (at least one file each), one transaction per file."""
        pending = list(todo)
        while True:
            with self.writing() as con:
                opened = time.monotonic()
                if not self.fixed:
                    self.folders = tuple(f.path for f in watched_folders(con))
                known, problems = _known(con, tuple(scans))
                self._remember(scans, known)
                block: list[_Seen] = []
                done = import_disk_files(self._take(pending, block, opened), con).files
                imported = [(seen, _reports_of(seen, done)) for seen in block]
                _record(con, imported)
                for seen, report in imported:
                    self._memory.files[str(seen.path)] = seen.signature
                    reports.setdefault(seen.folder, []).extend(report)
                if not pending:
                    self._record_folders(con, scans, problems)
                if not pending or self._stop:  # stopped: the rest at the next start
                    return
            time.sleep(PAUSE_SECONDS)  # pages and other writers get in

    def _forget(self, folders: Iterable[str]) -> None:
        """Folders no longer watched: if one is added again, it is read as a new one."""
        for folder in folders:
            self._memory.problems.pop(folder, None)
            for path in self._memory.listed.pop(folder, frozenset()):
                self._memory.files.pop(path, None)

    def _remember(self, scans: dict[str, tuple[list[_Seen], str | None]],
                  known: dict[str, Signature]) -> None:
        """The store's record of the folders' files replaces this watcher's: a file another
        watcher imported is not imported again, a file the store forgot (its folder removed
        and added again) is imported at the next check."""
        for files, _ in scans.values():
            for seen in files:
                self._memory.files.pop(str(seen.path), None)
        self._memory.files.update(known)

    def _take(self, pending: list[_Seen], block: list[_Seen], opened: float,
              ) -> Iterator[Path]:
        """The files to import now, one at a time (each added to ``block``): while the store
        has been held less than :attr:`hold_seconds` (at least one), unless asked to stop."""
        while pending and not self._stop and \
                (not block or time.monotonic() - opened < self.hold_seconds):
            seen = pending.pop(0)
            if self._changed(seen):  # else another watcher imported it meanwhile
                block.append(seen)
                yield seen.path

    def _record_folders(self, con: duckdb.DuckDBPyConnection,
                        scans: dict[str, tuple[list[_Seen], str | None]],
                        stored: dict[str, str | None]) -> None:
        """Each folder's check (those still watched: one may have been removed meanwhile)."""
        for folder, (files, problem) in scans.items():
            if folder in stored:
                _record_folder(con, folder, problem, _names(files))
            self._memory.problems[folder] = problem
            self._memory.listed[folder] = _names(files)

    # checking until stopped -----------------------------------------------------------------

    def run(self, interval: float = INTERVAL_SECONDS) -> None:
        """Check every ``interval`` seconds until :meth:`stop` (a check in progress finishes
        its file first). Safe to stop from a signal handler or another thread."""
        while not self._stop:
            try:
                self.check()
            except Exception as exc:  # a bug of ours: said, and the next check tries again
                self.last = WatchPass(time.time(), (), "checking the watched folders failed "
                                      f"(a bug in OFC Analytics): {exc!r}")
                if self.on_check is not None:
                    self.on_check(self.last)
            deadline = time.monotonic() + interval
            while not (self._stop or self._wake) and time.monotonic() < deadline:
                time.sleep(min(STOP_POLL_SECONDS, max(0.0, deadline - time.monotonic())))
            self._wake = False

    def stop(self) -> None:
        """Ask :meth:`run` to return (after the file being imported, if any)."""
        self._stop = True

    def wake(self) -> None:
        """Check now rather than at the end of the interval (a folder was added)."""
        self._wake = True


def _names(files: Iterable[_Seen]) -> frozenset[str]:
    return frozenset(str(s.path) for s in files)
