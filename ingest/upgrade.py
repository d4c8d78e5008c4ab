"""Upgrading an older store in place: run by the entry points (``ofc`` commands, the
dashboard's startup, :func:`ingest.pipeline.import_paths`) right after
:func:`ingest.store.connect`, which never calls up here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb

from .notes import NOTE_TABLES
from .reports import Progress, RescoreResult
from .rescoring import rescore
from .store import (
    SCHEMA_VERSION,
    default_db_path,
    display_path,
    missing_columns,
    say,
    schema_sql,
    schema_version,
)


def upgrade(con: duckdb.DuckDBPyConnection, path: str | Path | None = None, *,
            notify: Callable[[str], None] = say,
            progress: Progress | None = None) -> RescoreResult | None:
    """Bring the store open on ``con`` (at ``path``, named in the messages) to the current
    schema: :func:`migrate` when it is older; ``None`` when it was current already (then
    only tables of user data it lacks are created: :func:`add_user_tables`), else the
    upgrade's rescoring result."""
    version = schema_version(con)
    if version == SCHEMA_VERSION:
        add_user_tables(con)
    if version is None or version == SCHEMA_VERSION:
        return None
    target = Path(path) if path is not None else default_db_path()
    return migrate(con, target, version, notify, progress)


def add_user_tables(con: duckdb.DuckDBPyConnection) -> bool:
    """Create the tables of user data (notes and tags) a store of the current version lacks
    (one written while the version was being changed by more than one change at once); they
    hold nothing derived, so nothing is rescored. Whether any was created."""
    have = {t for (t,) in con.execute("SELECT table_name FROM information_schema.tables "
                                      "WHERE table_schema = 'main'").fetchall()}
    if set(NOTE_TABLES) <= have:
        return False
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(schema_sql())  # CREATE ... IF NOT EXISTS: adds only the missing tables
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return True


def migrate(con: duckdb.DuckDBPyConnection, path: Path, version: str,
            notify: Callable[[str], None] = say,
            progress: Progress | None = None) -> RescoreResult:
    """Upgrade an older store in place, losing nothing a log said.

    Tables and columns the schema gained are added, then every stored hand is rescored from its
    stored boards and placements, which fills the new derived columns (the raw text, the
    placements and the ledger are never rewritten).
    """
    added = missing_columns(con)
    notify(f"Upgrading {display_path(path)} from schema version {version} to {SCHEMA_VERSION} "
           f"({len(added)} new column{'s' * (len(added) != 1)}), then rescoring its hands...")
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(schema_sql())  # CREATE ... IF NOT EXISTS: adds only the missing tables
        for table, column, kind in added:
            con.execute(f'ALTER TABLE "{table}" ADD COLUMN "{column}" {kind}')
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    result = rescore(con, progress=progress)
    # The version moves only once every hand is rescored: an interrupted upgrade resumes.
    con.execute("BEGIN TRANSACTION")
    con.execute("DELETE FROM meta WHERE key = 'schema_version'")
    con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [SCHEMA_VERSION])
    con.execute("COMMIT")
    failed = f"; {len(result.failed)} could not be rescored" if result.failed else ""
    notify(f"Upgraded {display_path(path)}: {result.hands:,} hands rescored{failed}.")
    return result
