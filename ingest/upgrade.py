"""Upgrading an older store in place: run by the entry points (``ofc`` commands, the
dashboard's startup, :func:`ingest.pipeline.import_paths`) right after
:func:`ingest.store.connect`, which never calls up here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow as pa

from . import aggregates, decisions, inferred_stakes, review_reasons
from .formats.ofc_hh import FORMAT_NAME as OFC_HH
from .hand_tables import utc_offsets
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
    schema: :func:`migrate` when it is older, or when it has the current version but lacks
    columns (a store written by a development build of the same version), or
    :func:`fill_in_place` from a version in :data:`IN_PLACE`; ``None`` when it was current
    already (then only tables of user data it lacks are created: :func:`add_missing_tables`)
    or nothing was rescored, else the upgrade's rescoring result."""
    version = schema_version(con)
    if version == SCHEMA_VERSION:
        if missing_columns(con):
            target = Path(path) if path is not None else default_db_path()
            return migrate(con, target, version, notify, progress)
        add_missing_tables(con)
        if not aggregates.present(con):  # a store of this version from a build before them
            with_aggregates(con)
    if version is None or version == SCHEMA_VERSION:
        return None
    target = Path(path) if path is not None else default_db_path()
    if _fills_in_place(con, version):
        fill_in_place(con, target, version, notify)
        return None
    return migrate(con, target, version, notify, progress)


Filler = Callable[[duckdb.DuckDBPyConnection], int]
"""Fills new columns from the stored rows inside the caller's transaction; returns the rows."""

def _fill_9(con: duckdb.DuckDBPyConnection) -> int:
    """From schema 9: the decisions' columns and the inferred stakes of schema 10."""
    return decisions.fill_older(con) + inferred_stakes.fill(con)


def _fill_8(con: duckdb.DuckDBPyConnection) -> int:
    """From schema 8: the review reasons, then schema 10's columns."""
    return review_reasons.fill(con) + _fill_9(con)


IN_PLACE: dict[str, tuple[frozenset[tuple[str, str]], Filler]] = {
    "8": (frozenset({("hand_players", "review_reason"), ("hands", "stake_inferred")})
          | decisions.NEW_COLUMNS, _fill_8),
    "9": (frozenset({("hands", "stake_inferred")}) | decisions.NEW_COLUMNS, _fill_9),
}
"""Versions whose upgrade only adds columns that SQL fills from the stored rows: version ->
(those ``(table, column)``, their filler, which returns the rows it wrote). Nothing is
rescored; a million hands take seconds, not the minutes a rescore does (docs/scale.md). A store
of such a version that lacks other columns too (a development build) is migrated as usual."""


def _fills_in_place(con: duckdb.DuckDBPyConnection, version: str) -> bool:
    """Whether the store's upgrade from ``version`` is :func:`fill_in_place`."""
    if version not in IN_PLACE:
        return False
    return {(t, c) for t, c, _ in missing_columns(con)} <= IN_PLACE[version][0]


def fill_in_place(con: duckdb.DuckDBPyConnection, path: Path, version: str,
                  notify: Callable[[str], None] = say) -> None:
    """Upgrade a store of a version in :data:`IN_PLACE` in one transaction: the new columns
    added, filled from the stored rows, the aggregate tables it lacks built, the new version
    recorded."""
    added = missing_columns(con)
    notify(f"Upgrading {display_path(path)} from schema version {version} to {SCHEMA_VERSION} "
           f"({', '.join(f'{t}.{c}' for t, c, _ in added)}, filled from the stored rows)...")
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(schema_sql())
        for table, column, kind in added:
            con.execute(f'ALTER TABLE "{table}" ADD COLUMN "{column}" {kind}')
        rows = IN_PLACE[version][1](con)
        aggregates.rebuild(con, aggregates.missing(con))  # those added since that version
        con.execute("DELETE FROM meta WHERE key = 'schema_version'")
        con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [SCHEMA_VERSION])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    notify(f"Upgraded {display_path(path)}: {rows:,} rows filled, nothing rescored.")


def add_missing_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Create the tables of the schema a store of the current version lacks (a store written by
    another build of the same version: tables of user data, empty; nothing derived, so nothing
    is rescored); returns their names. The tables of hands are never missing from a store of
    the current version."""
    wanted = re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", schema_sql())
    have = {t for (t,) in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
    ).fetchall()}
    missing = [t for t in wanted if t not in have]
    if missing:
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(schema_sql())  # CREATE ... IF NOT EXISTS: adds only the missing tables
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    return missing


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
        if version.isdigit() and int(version) < 6:
            fill_log_facts(con)
        if version.isdigit() and int(version) < 7:
            fill_merged(con)
        if version.isdigit() and int(version) < 10:
            decisions.fill_older(con)  # older reviews' rows kept, to be reviewed again
        aggregates.rebuild(con)  # then kept current by the rescoring, chunk by chunk
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


def with_aggregates(con: duckdb.DuckDBPyConnection) -> None:
    """Build the pre-aggregated tables (:mod:`ingest.aggregates`) a store lacks (the others are
    kept: they are current), in one transaction; nothing is rescored (they are sums of the
    stored rows)."""
    con.execute("BEGIN TRANSACTION")
    try:
        aggregates.rebuild(con, aggregates.missing(con))
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def fill_log_facts(con: duckdb.DuckDBPyConnection) -> None:
    """Schema 6 keeps the log's UTC offset (``hands.utc_offset``) and seat numbers
    (``hand_players.log_seat``); rescoring keeps what is stored and does not read logs again,
    so an upgrade reads them here from the raw text of ofc-hh/1 hands (one JSON object each).
    Hands of other formats keep NULL (their raw text alone does not say: a live log's time
    zone is a directive of the file): pages show their times in UTC."""
    ofc_hh = ("FROM imports i WHERE i.import_id = hands.import_id "
              f"AND i.format = '{OFC_HH}' AND json_valid(hands.raw)")
    found = con.execute("SELECT hand_key, json_extract_string(raw, '$.played_at') AS played_at "
                        f"FROM hands WHERE EXISTS (SELECT 1 {ofc_hh})").to_arrow_table()
    offsets = pa.table({"hand_key": found["hand_key"],
                        "utc_offset": utc_offsets(found["played_at"])})
    con.register("_ofc_offsets", offsets)
    try:
        con.execute("UPDATE hands SET utc_offset = o.utc_offset FROM _ofc_offsets o "
                    "WHERE hands.hand_key = o.hand_key")
    finally:
        con.unregister("_ofc_offsets")
    con.execute(f"""
        UPDATE hand_players SET log_seat = TRY_CAST(json_extract(hands.raw,
            '$.players[' || hand_players.seat || '].seat') AS SMALLINT)
        FROM hands WHERE hands.hand_key = hand_players.hand_key
          AND EXISTS (SELECT 1 {ofc_hh})""")


def fill_merged(con: duckdb.DuckDBPyConnection) -> None:
    """Schema 7 keeps each import's merged hands (``imports.merged``); before, the ledger held
    the other counts and merged was the rest of ``hands``, which is what older rows get (never
    below 0: a refused hand used to be counted twice)."""
    con.execute("UPDATE imports SET merged = greatest(hands - stored - duplicate - rejected, 0) "
                "WHERE merged IS NULL")
