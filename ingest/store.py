"""The DuckDB store: where it lives, opening it safely, and turning database errors into
messages a user can act on.

DuckDB lets one process at a time open a database file for writing, or several for reading,
never both. A second process (the command line while the dashboard runs a page) does not die
with a raw lock error: :func:`connect` waits and retries (in line, see :func:`_in_line`),
telling the user on stderr when the wait is long, then raises :class:`StoreBusy` saying
exactly what to do. The dashboard holds the store only while a page runs, so the command line
waits at most that long.

>>> con = connect(":memory:")
>>> tables = con.execute("SELECT table_name FROM information_schema.tables").fetchall()
>>> sorted(t for (t,) in tables)  # doctest: +NORMALIZE_WHITESPACE
['agg_curve', 'agg_fouls', 'agg_hands', 'agg_matches', 'agg_offers', 'agg_opponents',
 'agg_players', 'agg_relations', 'agg_tagged', 'agg_tags', 'decision_alternatives', 'decisions',
 'events', 'hand_copies', 'hand_notes', 'hand_players', 'hand_rows', 'hand_tags',
 'hand_tournaments', 'hands', 'imports', 'knockout_events', 'meta', 'my_names', 'pairs',
 'placements', 'player_aliases', 'player_notes', 'player_tags', 'puzzle_answers', 'rejected',
 'tournament_chips', 'tournament_partitions', 'tournament_players', 'tournament_series',
 'tournament_summaries', 'watched_files', 'watched_folders']
>>> version = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
>>> version[0] == SCHEMA_VERSION
True
"""

from __future__ import annotations

import fcntl
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from importlib import resources
from pathlib import Path

import duckdb

from .aggregates import rebuild

TELL_AFTER_SECONDS = 1.0
"""A wait for another process shorter than this is not worth a message."""

SCHEMA_VERSION = "10"
DB_ENV = "OFC_DB"
WAIT_ENV = "OFC_WAIT"
DEFAULT_WAIT_SECONDS = 30.0
DEFAULT_RELATIVE = Path("data") / "ofc.duckdb"


class StoreError(Exception):
    """A database problem, with a message that says what to do about it."""


class StoreBusy(StoreError):
    """Another process holds the database file."""


def _repo_root() -> Path | None:
    root = Path(__file__).resolve().parents[1]
    return root if (root / "pyproject.toml").is_file() else None


def default_db_path() -> Path:
    """``$OFC_DB`` if set, else ``data/ofc.duckdb`` under the source checkout (or the cwd)."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env)
    return (_repo_root() or Path.cwd()) / DEFAULT_RELATIVE


def default_wait() -> float:
    """How long to wait for another process holding the store: ``$OFC_WAIT`` seconds, else
    30."""
    try:
        return float(os.environ.get(WAIT_ENV, DEFAULT_WAIT_SECONDS))
    except ValueError:
        return DEFAULT_WAIT_SECONDS


def schema_sql() -> str:
    return resources.files("ingest").joinpath("schema.sql").read_text(encoding="utf-8")


def display_path(path: Path) -> str:
    """The path as the user knows it: relative to the cwd when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def busy_message(path: Path) -> str:
    return (f"{display_path(path)} is held by another process (an import or a rescore still "
            "running, or an older dashboard?). Retry when it is done.")


def _is_lock_error(exc: duckdb.Error) -> bool:
    return isinstance(exc, duckdb.IOException) and "lock" in str(exc).lower()


def _is_busy(exc: duckdb.Error) -> bool:
    """Another process holds the file, or this process has it open the other way (read-only
    vs read-write: the dashboard's page runs and its own imports): wait for it either way."""
    return _is_lock_error(exc) or "different configuration" in str(exc).lower()


def queue_path(path: Path) -> Path:
    """The lock file beside a store where writers wait in line (``ofc.duckdb.queue``)."""
    return path.with_name(path.name + ".queue")


def writer_waiting(path: Path) -> bool:
    """Whether a process (this one included) waits to write ``path`` (holds its place in
    :func:`queue_path`): a reader should let go of the store and not open it again yet."""
    return lock_held(queue_path(path))


def lock_held(lock: Path) -> bool:
    """Whether some process (this one included) holds an ``flock`` on the file ``lock``
    (``False`` when there is no such file): probed without waiting, the probe let go."""
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # releases the probe's lock


@contextmanager
def _in_line(path: Path) -> Iterator[None]:
    """A writer's place in line while it waits for DuckDB's lock (a shared ``flock`` on
    :func:`queue_path`, released by the system if the process dies).

    DuckDB lets one process open a file for writing, or many for reading, never both. A
    writer waiting for readers that come and go (the dashboard opens the store while a page
    runs) could wait for ever; so readers do not open the store while a writer is in line
    (:func:`writer_waiting`), and the dashboard lets go of it."""
    try:
        fd = os.open(queue_path(path), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:  # a read-only folder: no line, DuckDB's own lock still protects
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)  # only a reader's instant probe can delay this
        yield
    finally:
        os.close(fd)


def _let_writers_go_first(path: Path, deadline: float) -> None:
    """A reader waits while writers are in line (until ``deadline``)."""
    while writer_waiting(path) and time.monotonic() < deadline:
        time.sleep(0.01)


def describe_error(exc: duckdb.Error, path: Path | str | None = None) -> str:
    """A user-facing message for a DuckDB error (what went wrong, what to do)."""
    where = display_path(Path(path)) if path not in (None, ":memory:") else "the database"
    text = str(exc)
    low = text.lower()
    if "not a valid duckdb database" in low:
        return (f"{where} is not an OFC Analytics database (not a DuckDB file). Pass another "
                f"path with --db or set {DB_ENV}.")
    if "version number" in low or "storage version" in low:
        return (f"{where} was written by a different DuckDB version than the installed "
                f"duckdb {duckdb.__version__}. Export it with that version, or import the "
                "logs again into a new database.")
    if "different configuration" in low:
        return (f"{where} is already open in this process with other settings (read-only vs "
                "read-write). Use the open connection, or close it first.")
    if "no space left" in low or "disk full" in low:
        return f"The disk holding {where} is full. Free some space, then retry; nothing was lost."
    if "permission denied" in low or "read-only file system" in low:
        return f"Cannot write {where}: permission denied. Choose another path with --db."
    if _is_lock_error(exc):
        return busy_message(Path(str(path))) if path else text
    return f"Database error on {where}: {text}"


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def connect(path: str | Path | None = None, *, read_only: bool = False,
            wait_seconds: float | None = None,
            notify: Callable[[str], None] = say) -> duckdb.DuckDBPyConnection:
    """Open (creating if needed) the store at ``path`` (default :func:`default_db_path`).

    When another process holds the file, waits up to ``wait_seconds`` (default
    :func:`default_wait`; telling ``notify``
    once), then raises :class:`StoreBusy`. Other database problems raise :class:`StoreError`.
    A new store gets the current schema. An older store opens as it is (read-only: refused):
    the entry points upgrade it with :func:`ingest.upgrade.upgrade` before writing to it.
    """
    target = Path(path) if path is not None else default_db_path()
    memory = str(target) == ":memory:"
    if not memory and not read_only:
        target.parent.mkdir(parents=True, exist_ok=True)
    if read_only and not memory and not target.exists():
        raise StoreError(f"{display_path(target)} does not exist yet: import some logs first "
                         "(ofc import PATH).")
    wait_seconds = default_wait() if wait_seconds is None else wait_seconds
    started = time.monotonic()
    deadline = started + wait_seconds
    told = False
    delay = 0.01
    if read_only and not memory:
        _let_writers_go_first(target, deadline)
    with _in_line(target) if not (memory or read_only) else nullcontext():
        while True:
            try:
                con = duckdb.connect(str(target), read_only=read_only)
                break
            except duckdb.Error as exc:
                if not _is_busy(exc):
                    raise StoreError(describe_error(exc, target)) from None
                now = time.monotonic()
                if now >= deadline:
                    raise StoreBusy(busy_message(target)) from None
                if not told and now - started >= min(TELL_AFTER_SECONDS, wait_seconds / 2):
                    notify(f"{display_path(target)} is in use by another process; waiting up to "
                           f"{wait_seconds:.0f} s for it...")
                    told = True
                time.sleep(min(delay, max(0.0, deadline - now)))
                delay = min(delay * 2, 0.1)
    if told:
        notify(f"waited {time.monotonic() - started:.1f} s for {display_path(target)}")
    try:
        # DuckDB's own progress bar (long checkpoints) would cut through ours on a terminal.
        con.execute("SET enable_progress_bar = false")
        con.execute("SET enable_progress_bar_print = false")
        _ensure_schema(con, target, read_only)
    except BaseException:
        con.close()
        raise
    return con


def schema_version(con: duckdb.DuckDBPyConnection) -> str | None:
    """The store's schema version (``None`` before the schema is created)."""
    have = {t for (t,) in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
    ).fetchall()}
    if "meta" not in have:
        return None
    row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return None if row is None else str(row[0])


def _ensure_schema(con: duckdb.DuckDBPyConnection, path: Path, read_only: bool) -> None:
    """Create the schema of a new store; refuse a newer one, and an older one read-only."""
    try:
        version = schema_version(con)
        foreign = sorted({t for t, _, _ in missing_columns(con)}) \
            if version is None and _has_any_table(con) else []
        if foreign:  # tables named like ours, without our columns, and no schema version
            raise StoreError(f"{display_path(path)} is not an OFC Analytics database (tables of "
                             f"another program: {', '.join(foreign)}). Pass another path with "
                             "--db or set OFC_DB.")
        if version is not None and version != SCHEMA_VERSION:
            if not version.isdigit() or int(version) > int(SCHEMA_VERSION):
                raise StoreError(f"{display_path(path)} has schema version {version}, written by a "
                                 f"newer OFC Analytics (this one knows {SCHEMA_VERSION}): upgrade "
                                 "OFC Analytics to open it.")
            if read_only:
                raise StoreError(f"{display_path(path)} has schema version {version}, this OFC "
                                 f"Analytics needs {SCHEMA_VERSION}: run `ofc me --db "
                                 f"{display_path(path)}` once to upgrade it in place (any "
                                 "`ofc` command that writes to it does).")
            return  # upgraded by the entry point (ingest.upgrade.upgrade)
        if read_only:
            if version is None and not _has_table(con, "hands"):
                raise StoreError(f"{display_path(path)} is not an OFC Analytics database yet: "
                                 "import some logs first (ofc import PATH).")
            return
        if version is None:
            con.execute("BEGIN TRANSACTION")
            con.execute(schema_sql())
            rebuild(con)
            con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [SCHEMA_VERSION])
            con.execute("COMMIT")
    except duckdb.Error as exc:
        raise StoreError(describe_error(exc, path)) from None


def _has_any_table(con: duckdb.DuckDBPyConnection) -> bool:
    return con.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = "
                       "'main'").fetchone() != (0,)


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return con.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = "
                       "'main' AND table_name = ?", [name]).fetchone() == (1,)


def _columns(con: duckdb.DuckDBPyConnection) -> dict[str, dict[str, str]]:
    """``{table: {column: type}}`` of a database's main schema."""
    found: dict[str, dict[str, str]] = {}
    for table, column, kind in con.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position"
    ).fetchall():
        found.setdefault(table, {})[column] = kind
    return found


def missing_columns(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str, str]]:
    """``(table, column, type)`` that the current schema has and this database lacks."""
    reference = duckdb.connect()
    try:
        reference.execute(schema_sql())
        wanted = _columns(reference)
    finally:
        reference.close()
    have = _columns(con)
    return [(t, c, kind) for t, cols in wanted.items() if t in have
            for c, kind in cols.items() if c not in have[t]]
