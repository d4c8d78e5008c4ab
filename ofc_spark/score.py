"""``ofc spark score``: ofc-hh/1 logs (or a Parquet export) -> the tables of ``ofc export
--parquet``, read, checked and scored on Spark executors by the same reader and batch scorer as
``ofc import`` (:mod:`ofc_spark.worker`, shipped as the package itself).

The plan: ``binaryFile`` (one row per file) -> :func:`ofc_spark.worker.split_files` (one row per
line, with its hand key) -> repartition by hand key -> sort each partition by key, file, line ->
:func:`ofc_spark.worker.score_lines` (every table's rows, tagged by table) -> persisted once ->
one Parquet write per table, hand tables partitioned by variant and month. Repartitioning by
``(source, hand_id)`` puts every log of a hand in one task, which decides duplicates and merges
in file and line order as the embedded importer does across its files; every other step is
per file or per key, so executors share the work evenly.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlparse

from pyspark import StorageLevel
from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

from ingest.hand_tables import HAND_TABLES
from ingest.store import SCHEMA_VERSION  # the version of the tables written (meta), no store use
from ofc_spark import worker
from ofc_spark.money import infer_stakes, settle

PARTITION_BY = ("variant", "month")


@dataclass(frozen=True)
class ScoreResult:
    """What a run wrote: rows per table, and the ledger's totals."""

    rows: dict[str, int]
    stored: int
    duplicate: int
    merged: int
    rejected: int
    partial: int


def _local_uri(path: str) -> str | None:
    """``file:/abs/path`` for a local path given without a scheme (as Spark lists it)."""
    if urlparse(path).scheme:
        return None
    return "file:" + os.path.abspath(path)


def display_name(given: str, uri: str) -> str:
    """The name a file is reported by: as ``ofc import`` names it (the path given, joined with
    the file's path under it) for local paths, else its URI.

    >>> here = os.path.abspath('logs')
    >>> display_name('logs/', 'file:' + here + '/a%20b/s.jsonl')
    'logs/a b/s.jsonl'
    >>> display_name('s3://bucket/logs', 's3://bucket/logs/s.jsonl')
    's3://bucket/logs/s.jsonl'
    """
    root = _local_uri(given)
    if root is None:
        return uri
    found = unquote(uri.removeprefix("file://").removeprefix("file:"))
    found = "/" + found.lstrip("/")
    local = root.removeprefix("file:")
    if found == local:
        return given
    if found.startswith(local.rstrip("/") + "/"):
        return given.rstrip("/") + "/" + found[len(local.rstrip("/")) + 1:]
    return uri


def _hidden(name: str, given: str) -> bool:
    rest = name[len(given.rstrip("/")):] if name.startswith(given.rstrip("/")) else name
    return any(part.startswith(".") for part in rest.split("/") if part)


def read_files(spark: SparkSession, inputs: Sequence[str],
               spent: worker.Spent | None = None) -> DataFrame:
    """The :data:`ofc_spark.worker.LINES` rows of every file under ``inputs`` (folders
    recursively, hidden files skipped), import ids in the order ``ofc import`` reads them:
    inputs in order, each folder's files sorted by path."""
    names: dict[str, tuple[int, str]] = {}
    frames = []
    for given in inputs:
        frame = (spark.read.format("binaryFile").option("recursiveFileLookup", "true")
                 .load(given))
        found = sorted(((display_name(given, r.path), r.path)
                        for r in frame.select("path").collect()),
                       key=lambda item: item[0].split("/"))
        for name, uri in found:
            if not _hidden(name, given) and uri not in names:
                names[uri] = (len(names) + 1, name)
        frames.append(frame.select("path", "content"))
    files = frames[0]
    for frame in frames[1:]:
        files = files.unionByName(frame)
    files = files.filter(F.col("path").isin(list(names)))
    return files.mapInArrow(lambda batches: worker.split_files(batches, names, spent),
                            from_arrow_schema(worker.LINES))


def is_export(spark: SparkSession, path: str) -> bool:
    """Whether ``path`` is a folder written by ``ofc export --parquet`` (or ``ofc spark
    score``): it holds ``imports.parquet`` and ``hands``."""
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    fs = hadoop_path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    return bool(fs.exists(jvm.org.apache.hadoop.fs.Path(hadoop_path, "imports.parquet"))
                and fs.exists(jvm.org.apache.hadoop.fs.Path(hadoop_path, "hands")))


def _lit(value: object, kind: str) -> Column:
    return F.lit(value).cast(kind)


def read_export(spark: SparkSession, path: str) -> DataFrame:
    """The logged lines kept in a Parquet export (each stored hand's ``raw``, each rejected
    hand's), with their import and line, and the ledger's files: scoring them again is the
    rescore a house-rule change asks for. Only ofc-hh/1 imports are read (another format's
    ``raw`` is not a line of JSON); a hand completed from a second log keeps only the first
    log's line, as the export holds no other."""
    base = path.rstrip("/")
    imports = spark.read.parquet(f"{base}/imports.parquet")
    hands = spark.read.parquet(f"{base}/hands")
    rejected = spark.read.parquet(f"{base}/rejected.parquet")
    ofc = imports.filter(F.col("format") == "ofc-hh/1").select("import_id", "path")
    none = _lit(None, "string")

    def lines(frame: DataFrame, kind: int, text: str, last: Column) -> DataFrame:
        return frame.select(
            _lit(kind, "byte").alias("kind"), F.col("import_id").cast("int"), "path",
            F.col("line").cast("int"), last.alias("last"), F.col(text).alias("text"),
            none.alias("source"), none.alias("hand_id"), none.alias("sha256"),
            _lit(None, "bigint").alias("size_bytes"), none.alias("format"),
            none.alias("parser_version"))

    stored = lines(hands.select("import_id", "line", "raw").join(ofc, "import_id"), worker.LINE,
                   "raw", F.lit(False))
    bad = rejected.filter(F.col("line") > 0).select("import_id", "line", "raw", "partial")
    again = lines(bad.join(ofc, "import_id"), worker.LINE, "raw", F.col("partial"))
    problems = lines(rejected.filter(F.col("line") == 0), worker.PROBLEM, "message",
                     F.lit(False))
    files = imports.select(
        _lit(worker.FILE, "byte").alias("kind"), F.col("import_id").cast("int"), "path",
        _lit(0, "int").alias("line"), _lit(None, "boolean").alias("last"), none.alias("text"),
        none.alias("source"), none.alias("hand_id"), "sha256",
        F.col("size_bytes").cast("bigint"), "format", "parser_version")
    found = stored.unionByName(again).unionByName(problems).unionByName(files)
    return found.mapInArrow(worker.keyed_lines, from_arrow_schema(worker.LINES))


def score_frame(lines: DataFrame, partitions: int | None = None,
                spent: worker.Spent | None = None) -> DataFrame:
    """Every table's rows in chunks (:data:`ofc_spark.worker.BLOBS`) from the line rows: each
    hand key's lines in one partition, in key, file and line order."""
    keyed = F.col("source").isNotNull() & F.col("hand_id").isNotNull()
    spread = F.when(keyed, F.xxhash64("source", "hand_id")).otherwise(
        F.xxhash64("import_id", "line"))
    parts = (lines.repartition(partitions, spread) if partitions
             else lines.repartition(spread))
    ordered = parts.sortWithinPartitions("source", "hand_id", "import_id", "line")
    return ordered.mapInArrow(lambda batches: worker.score_lines(batches, spent),
                              from_arrow_schema(worker.BLOBS))


def table(union: DataFrame, name: str) -> DataFrame:
    """The rows of table ``name`` out of :func:`score_frame`'s chunks."""
    chunks = union.filter(F.col("table") == name)
    return chunks.mapInArrow(lambda batches: worker.table_rows(batches, name),
                             from_arrow_schema(worker.table_schemas()[name]))


def imports_frame(union: DataFrame) -> DataFrame:
    """The ledger: one row per file with what its lines became."""
    counts = (table(union, "outcomes").groupBy("import_id").pivot(
        "outcome", ["stored", "duplicate", "merged", "rejected", "partial"]).count()
        .na.fill(0))
    files = table(union, "files").join(counts, "import_id", "left").na.fill(
        0, ["stored", "duplicate", "merged", "rejected", "partial"])
    return files.select(
        "import_id", "path", "sha256", "size_bytes", "format", "parser_version",
        F.current_timestamp().alias("imported_at"),
        (F.col("stored") + F.col("duplicate") + F.col("merged") + F.col("partial")
         + F.col("rejected")).cast("int").alias("hands"),
        F.col("stored").cast("int").alias("stored"),
        F.col("duplicate").cast("int").alias("duplicate"),
        F.col("partial").cast("int").alias("partial"),
        F.col("rejected").cast("int").alias("rejected"),
        F.col("merged").cast("int").alias("merged"))


def write_tables(spark: SparkSession, union: DataFrame, output: str) -> dict[str, int]:
    """Write the tables as ``ofc export --parquet`` lays them out; returns rows per table."""
    base = output.rstrip("/")
    counted = {r["table"]: int(r["rows"])
               for r in union.groupBy("table").agg(F.sum("rows").alias("rows")).collect()}
    # a hand that moved no money takes its table's stake (ingest.inferred_stakes), then a
    # match's money needs its other hands (ingest.money)
    hands, players = infer_stakes(table(union, "hands"), table(union, "hand_players"))
    for name in HAND_TABLES:
        own = {"hands": hands, "hand_players": players}
        frame = own[name] if name in own else table(union, name)
        if name == "hand_players":
            frame = settle(frame, table(union, "events"), hands)
        frame.write.mode("overwrite").partitionBy(*PARTITION_BY).parquet(f"{base}/{name}")
    singles = {
        "rejected": table(union, "rejected"),
        "imports": imports_frame(union),
        "meta": spark.createDataFrame([("schema_version", SCHEMA_VERSION)], "key string, "
                                      "value string"),
    }
    for name, frame in singles.items():
        frame.coalesce(1).write.mode("overwrite").parquet(f"{base}/{name}.parquet")
    return {**{name: counted.get(name, 0) for name in (*HAND_TABLES, "rejected")},
            "imports": counted.get("files", 0), "meta": 1}


def score(spark: SparkSession, inputs: Sequence[str], output: str, *,
          partitions: int | None = None, spent: dict[str, Any] | None = None) -> ScoreResult:
    """Read, check and score every hand under ``inputs`` (log files and folders, or one
    Parquet export) and write the tables under ``output``. ``spent``, if given, gets Spark
    accumulators of the seconds the executors spent in our code: ``split`` (decoding files,
    keys of lines) and ``score`` (reading, checking, scoring, building the tables)."""
    clocks: dict[str, Any] = {"split": None, "score": None}
    if spent is not None:
        clocks = {k: spark.sparkContext.accumulator(0.0) for k in clocks}
        spent.update(clocks)
    if len(inputs) == 1 and is_export(spark, inputs[0]):
        lines = read_export(spark, inputs[0])
    else:
        lines = read_files(spark, inputs, clocks["split"])
    # the scored chunks are read once per table: kept on the executors' disks, not in the heap
    # (in memory, a million hands' chunks crowded out two tasks' Parquet writers: out of heap)
    union = score_frame(lines, partitions, clocks["score"]).persist(StorageLevel.DISK_ONLY)
    try:
        rows = write_tables(spark, union, output)
        totals = {r["outcome"]: r["count"]
                  for r in table(union, "outcomes").groupBy("outcome").count().collect()}
    finally:
        union.unpersist()
    return ScoreResult(rows, *(int(totals.get(k, 0)) for k in (
        "stored", "duplicate", "merged", "rejected", "partial")))
