"""Reading other programs' SQLite files, read-only, never changing them.

A SQLite file is opened through a ``file:...?mode=ro`` URI (on disk where it was imported from
a path, so a journal or WAL being written beside it is honoured; from a private temporary copy
for an upload or a zip member). Locks and corruption become :class:`UnreadableFile` messages
that say what to do; nothing of the file is imported then.

>>> is_sqlite(b"SQLite format 3\\x00" + bytes(84)), is_sqlite(b"{}")
(True, False)
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from . import LogFile, UnreadableFile

MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite 3 database file."""

BUSY_SECONDS = 2.0
"""How long a read waits for another program's write lock before the file is reported
locked."""


def is_sqlite(data: bytes) -> bool:
    return data.startswith(MAGIC)


def describe(exc: sqlite3.Error, name: str) -> str:
    """A user's message for a SQLite error met while reading ``name``."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return (f"{name}: the database is locked by another program (FPDB or the app may be "
                "writing to it); close that program, or wait, and import the file again. "
                "Nothing of this file was imported.")
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return (f"{name}: the SQLite file is damaged ({exc}); nothing of it was imported. "
                "Import a good copy (SQLite's `.recover` command can rescue a damaged file).")
    return f"{name}: cannot read the SQLite file ({exc}); nothing of it was imported."


@contextmanager
def open_readonly(file: LogFile) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the database in ``file`` (rows as :class:`sqlite3.Row`).

    SQLite errors inside the block become :class:`UnreadableFile`."""
    with tempfile.TemporaryDirectory(prefix="ofc-sqlite-") as folder:
        path = file.path
        if path is None or not path.is_file():
            path = Path(folder) / "copy.sqlite"
            path.write_bytes(file.data)
        uri = f"file:{quote(str(path.resolve()))}?mode=ro"
        try:
            con = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS)
        except sqlite3.Error as exc:
            raise UnreadableFile(describe(exc, file.name)) from None
        try:
            con.row_factory = sqlite3.Row
            yield con
        except sqlite3.Error as exc:
            raise UnreadableFile(describe(exc, file.name)) from None
        finally:
            con.close()


def tables(con: sqlite3.Connection) -> set[str]:
    """The names of the database's tables (reading them also checks the file is a database)."""
    return {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def table_names(file: LogFile) -> set[str]:
    """The tables of the SQLite database in ``file`` (raises :class:`UnreadableFile`)."""
    with open_readonly(file) as con:
        return tables(con)


KNOWN = "FPDB's HttpOFCHands tables, the pineapple app's sessions, hands and turns"


def not_a_log(file: LogFile) -> str:
    """The refusal of a SQLite database that no format reads, naming its tables."""
    try:
        found = ", ".join(sorted(table_names(file))) or "none"
    except UnreadableFile as exc:
        return str(exc)
    return (f"{file.name}: a SQLite database, but not a log this version reads ({KNOWN}); "
            f"its tables: {found}")
