"""Upgrading an older store in place: run by the entry points (``ofc`` commands, the
dashboard's startup, :func:`ingest.pipeline.import_paths`) right after
:func:`ingest.store.connect`, which never calls up here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import duckdb

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
    nothing is done), else the upgrade's rescoring result."""
    version = schema_version(con)
    if version == SCHEMA_VERSION and _lacks_a_table(con):
        add_tables(con)  # written by a build of this version made before a table joined it
    if version is None or version == SCHEMA_VERSION:
        return None
    target = Path(path) if path is not None else default_db_path()
    return migrate(con, target, version, notify, progress)


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


def _lacks_a_table(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether a table the schema creates is missing (read from the DDL's names: no scratch
    database, this runs at every start)."""
    wanted = set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", schema_sql()))
    have = {t for (t,) in con.execute("SELECT table_name FROM information_schema.tables "
                                      "WHERE table_schema = 'main'").fetchall()}
    return bool(wanted - have)


def add_tables(con: duckdb.DuckDBPyConnection) -> None:
    """Create the schema's missing tables (empty; every statement is ``IF NOT EXISTS``). Only
    for tables of user data, which no rescoring fills: a table or column of derived data comes
    with a new schema version."""
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(schema_sql())
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
