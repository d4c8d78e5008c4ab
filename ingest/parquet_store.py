"""Tables written as Parquet (``ofc export --parquet``, ``ofc spark score``) opened as a
read-only store: an in-memory DuckDB database whose tables are views over the Parquet files.

The layout (docs/scale.md): the hand tables (``hands``, ``hand_players``, ``hand_rows``, ...)
in folders partitioned as ``variant=.../month=YYYY-MM/``; ``rejected``, ``imports``, ``meta``
and the user's notes and tags as ``NAME.parquet``, a file (``ofc export``) or a folder of
files (Spark). :func:`open_parquet` creates the schema's tables empty in memory, then replaces
each one the folder holds by a view with the schema's columns and types, in the schema's
order (``read_parquet(..., hive_partitioning = true)``; the partition columns read as text, a
column an older writer did not write is NULL). A table the folder lacks (the watched folders;
in a Spark folder, or an export older than this, the reviewed ``decisions``, ``my_names`` and
the notes and tags) stays the schema's empty table, so every query of the pages runs
unchanged.

Hand keys differ between the writers (the store numbers hands 1, 2, ...; Spark keys a hand
``import_id << 32 | line``): both are unique BIGINTs in import order, and the pages use them
only to join, order and look a hand up.

>>> import tempfile, duckdb
>>> folder = Path(tempfile.mkdtemp())
>>> store = duckdb.connect()
>>> store.execute(schema_sql())  # doctest: +ELLIPSIS
<...>
>>> store.execute("COPY (SELECT 'k' AS key, '7' AS value) TO "
...               f"'{folder / 'meta.parquet'}' (FORMAT PARQUET)")  # doctest: +ELLIPSIS
<...>
>>> open_parquet(folder)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
ParquetError: ... holds no hands table ...
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from .aggregates import rebuild as rebuild_aggregates
from .store import StoreError, schema_sql

PARQUET_ENV = "OFC_PARQUET"
"""The environment variable that names the Parquet folder the dashboard reads instead of a
store (``ofc dashboard --parquet DIR`` sets it)."""



class ParquetError(StoreError):
    """A Parquet folder that cannot be opened, with a message that says why."""


def _literal(text: str) -> str:
    """A path as a SQL string literal (a view's DDL takes no bound parameter)."""
    return "'" + text.replace("'", "''") + "'"


def _first_parquet(path: Path) -> Path | None:
    """``path`` if it is a file, else the first Parquet file under it (hidden files and
    Spark's ``_SUCCESS`` aside); ``None`` when there is none."""
    if path.is_file():
        return path
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
        found = sorted(f for f in files if f.endswith(".parquet") and not f.startswith((".", "_")))
        if found:
            return Path(root) / found[0]
    return None


def _partitions(folder: Path, file: Path) -> list[str]:
    """The partition columns in a file's path below ``folder`` (``variant=pineapple/...``)."""
    parts = file.relative_to(folder).parts[:-1] if file != folder else ()
    return [p.split("=", 1)[0] for p in parts if "=" in p]


def table_files(folder: Path, name: str) -> str | None:
    """The ``read_parquet`` source of table ``name`` under ``folder`` (``None``: no file):
    partition columns read as text (a month is never guessed as a date).

    >>> table_files(Path("/nowhere"), "hands") is None
    True
    """
    for path in (folder / name, folder / f"{name}.parquet"):
        first = _first_parquet(path) if path.exists() else None
        if first is None:
            continue
        pattern = str(path) if path.is_file() else str(path / "**" / "*.parquet")
        keys = _partitions(path, first)
        hive = ", ".join(f"{_literal(k)}: 'VARCHAR'" for k in keys)
        options = f"hive_partitioning = true, hive_types = {{{hive}}}" if keys else \
            "hive_partitioning = false"
        return f"read_parquet({_literal(pattern)}, {options}, union_by_name = true)"
    return None


def _columns(con: duckdb.DuckDBPyConnection, relation: str) -> dict[str, str]:
    """``{column: type}`` of a table or a query, in order."""
    rows = con.execute(f"DESCRIBE {relation}").fetchall()
    return {str(r[0]): str(r[1]) for r in rows}


def _column(name: str, want: str, have: str | None) -> str:
    """One column of a view: the Parquet column cast to the schema's type (a timestamp
    without a zone read as UTC), or NULL of that type when the files lack it."""
    quoted = '"' + name.replace('"', '""') + '"'
    if have is None:
        return f"CAST(NULL AS {want}) AS {quoted}"
    if want == "TIMESTAMP WITH TIME ZONE" and have.startswith("TIMESTAMP") and "ZONE" not in have:
        return f"timezone('UTC', {quoted}) AS {quoted}"
    return f"CAST({quoted} AS {want}) AS {quoted}"


COPIED = ("my_names",)
"""Small tables copied into memory rather than viewed, rows in the file's order: the user's
names are listed in the order added (``identity.ADDED_ORDER``, which reads ``rowid``), and a
view has no ``rowid``."""


def attach_tables(con: duckdb.DuckDBPyConnection, folder: Path) -> list[str]:
    """Replace every schema table of ``con`` that ``folder`` holds by a view over its
    Parquet files (fill it from them, for :data:`COPIED`); returns the tables found."""
    found = []
    tables = [str(t) for (t,) in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
        "AND table_type = 'BASE TABLE' ORDER BY table_name").fetchall()]
    for name in tables:
        source = table_files(folder, name)
        if source is None:
            continue
        want = _columns(con, name)
        have = _columns(con, f"SELECT * FROM {source}")
        select = ", ".join(_column(c, t, have.get(c)) for c, t in want.items())
        if name in COPIED:
            con.execute(f"INSERT INTO {name} SELECT {select} FROM {source}")
        else:
            con.execute(f"DROP TABLE {name}")
            con.execute(f"CREATE VIEW {name} AS SELECT {select} FROM {source}")
        found.append(name)
    return found


def open_parquet(folder: str | Path) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose tables are the Parquet tables under ``folder``
    (views), the schema's other tables empty. Raises :class:`ParquetError` for a folder that
    does not exist or holds no ``hands``. Everything the pages need that the files lack is
    made here, in memory (one place: derived tables built from the views belong here too)."""
    path = Path(folder)
    if not path.is_dir():
        raise ParquetError(f"{path} is not a folder: pass the folder `ofc export --parquet` "
                           "or `ofc spark score --output` wrote.")
    con = duckdb.connect()
    try:
        con.execute("SET enable_progress_bar = false")
        con.execute(schema_sql())
        found = attach_tables(con, path.resolve())
    except duckdb.Error as exc:
        con.close()
        raise ParquetError(f"{path}: cannot read its Parquet files: {exc}") from None
    if "hands" not in found:
        con.close()
        raise ParquetError(f"{path} holds no hands table (no {path / 'hands'} folder of "
                           "Parquet files): pass the folder `ofc export --parquet` or `ofc "
                           "spark score --output` wrote.")
    rebuild_aggregates(con)  # the pre-aggregated tables, in memory, from the views
    return con


def stamp(folder: str | Path) -> tuple[int, ...]:
    """A stamp that changes when the tables under ``folder`` are written again: the
    modification times of the folder and of each table's file or folder."""
    path = Path(folder)
    out: list[int] = []
    try:
        entries = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError:
        return (0,)
    out.append(path.stat().st_mtime_ns)
    for entry in entries:
        try:
            out.append(entry.stat().st_mtime_ns)
        except OSError:
            out.append(0)
    return tuple(out)
