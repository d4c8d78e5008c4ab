"""The watched folders (:mod:`ingest.watch`) as the store lists them: adding and removing a
folder, each folder's status (files imported from it, hands, errors, last check) and the bad
hands of its files' last imports. A folder is kept under its absolute path.

>>> import tempfile
>>> from ingest import store
>>> folder = Path(tempfile.mkdtemp())
>>> con = store.connect(":memory:")
>>> add_folder(con, folder) == str(folder.resolve())
True
>>> [f.files for f in watched_folders(con)]
[0]
>>> add_folder(con, folder / "nothing-here")
Traceback (most recent call last):
...
ingest.watched_folders.FolderError: .../nothing-here: no such folder
>>> con.close(); folder.rmdir()
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import duckdb

from .ledger import transaction


class FolderError(ValueError):
    """A folder that cannot be watched; the message names it and says why."""


@dataclass(frozen=True, slots=True)
class WatchedFolder:
    """A watched folder as the store has it: files imported from it (still there), hands
    stored from them, the bad hands of their last imports, and the last check written to the
    store (``last_check``, seconds since the epoch; ``None`` before the first: a watcher writes
    only when a check finds something new, and at its first check)."""

    path: str
    last_check: float | None
    problem: str | None
    files: int
    hands: int
    errors: int


@dataclass(frozen=True, slots=True)
class WatchError:
    """A bad hand (or an unreadable file: line 0) of a watched file's last import."""

    file: str
    line: int
    hand_id: str | None
    message: str

    def text(self) -> str:
        """One line: the file, the line (none for the file itself), the message.

        >>> WatchError("/logs/a.jsonl", 3, "h3", "hand 'h3': a card twice").text()
        "/logs/a.jsonl, line 3: hand 'h3': a card twice"
        """
        where = f", line {self.line}" if self.line else ""
        message = self.message.removeprefix(f"{self.file}: ")
        return f"{self.file}{where}: {message}"


def folder_path(folder: str | Path) -> str:
    """The absolute path a folder is kept under (``~`` expanded, symlinks resolved)."""
    return str(Path(folder).expanduser().resolve())


def check_folder(folder: str | Path) -> str:
    """The folder's absolute path, or :class:`FolderError` when it cannot be watched."""
    path = Path(folder_path(folder))
    if not path.exists():
        raise FolderError(f"{path}: no such folder")
    if not path.is_dir():
        raise FolderError(f"{path}: not a folder (watch the folder the logs are written to)")
    if not os.access(path, os.R_OK | os.X_OK):
        raise FolderError(f"{path}: cannot be read (permission denied)")
    return str(path)


def add_folder(con: duckdb.DuckDBPyConnection, folder: str | Path) -> str:
    """Watch ``folder`` (an existing folder; else :class:`FolderError`); returns the path it
    is kept under. Adding a folder twice keeps one."""
    path = check_folder(folder)
    with transaction(con, f"watching {path}"):
        con.execute("INSERT INTO watched_folders (path, added_at) VALUES (?, now()) "
                    "ON CONFLICT DO NOTHING", [path])
        con.execute("COMMIT")
    return path


def remove_folder(con: duckdb.DuckDBPyConnection, folder: str | Path) -> bool:
    """Stop watching ``folder`` (its hands stay stored); ``False`` if it was not watched."""
    path = str(folder)
    if not _is_watched(con, path):
        path = folder_path(folder)
    with transaction(con, f"no longer watching {path}"):
        found = _is_watched(con, path)
        con.execute("DELETE FROM watched_files WHERE folder = ?", [path])
        con.execute("DELETE FROM watched_folders WHERE path = ?", [path])
        con.execute("COMMIT")
    return found


def _is_watched(con: duckdb.DuckDBPyConnection, path: str) -> bool:
    return con.execute("SELECT count(*) FROM watched_folders WHERE path = ?",
                       [path]).fetchone() == (1,)


def watched_folders(con: duckdb.DuckDBPyConnection) -> list[WatchedFolder]:
    """Every watched folder with its status, by path."""
    rows = con.execute("""
        SELECT f.path, epoch(f.last_check), f.problem, count(w.path),
               coalesce(sum(w.stored), 0), coalesce(sum(w.errors), 0)
        FROM watched_folders f LEFT JOIN watched_files w ON w.folder = f.path
        GROUP BY f.path, f.last_check, f.problem ORDER BY f.path""").fetchall()
    return [WatchedFolder(str(p), None if t is None else float(t), problem, int(n), int(h),
                          int(e)) for p, t, problem, n, h, e in rows]


def folder_errors(con: duckdb.DuckDBPyConnection, folder: str, limit: int = 100,
                  ) -> list[WatchError]:
    """The bad hands and unreadable files of the last import of each file of ``folder``
    (partial last hands are not errors), by file and line."""
    rows = con.execute("""
        SELECT r.path, r.line, r.hand_id, r.message
        FROM watched_files w JOIN rejected r ON r.import_id = w.import_id
        WHERE w.folder = ? AND NOT r.partial
        ORDER BY r.path, r.line LIMIT ?""", [folder, limit]).fetchall()
    return [WatchError(str(f), int(line), h, str(m)) for f, line, h, m in rows]
