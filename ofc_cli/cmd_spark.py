"""``ofc spark score|report``: the importer's scoring and the dashboard's per-player numbers on
Apache Spark, for stores past one machine (``pip install ofc-analytics[spark]``; Java 17).

``ofc spark score --input PATH... --output DIR [--master URL] [--partitions N]`` reads ofc-hh/1
logs (files or folders, any path Spark reads: local, ``hdfs://``, ``s3a://``...) or a Parquet
export, and writes the tables of ``ofc export --parquet`` under DIR. ``ofc spark report
--input DIR --output DIR`` writes the per-player reports. See docs/scale.md.

Exit status: 0; 1 if any hand was rejected (the rejected table says which and why); 2 if Spark
could not run (no Java, a bad path...).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pyspark is an extra: imported when a job runs
    from pyspark.sql import SparkSession

SUBCOMMANDS = ("score", "report")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("job", choices=SUBCOMMANDS,
                        help="score: logs -> the tables; report: tables -> per-player reports")
    parser.add_argument("--input", required=True, nargs="+", metavar="PATH",
                        help="score: log files or folders, or one Parquet export; "
                             "report: a folder ofc spark score (or ofc export) wrote")
    parser.add_argument("--output", required=True, metavar="PATH",
                        help="folder to write the Parquet tables into (replaced)")
    parser.add_argument("--master", default=None, metavar="URL",
                        help="Spark master (local[2], spark://host:7077, yarn...; default: "
                             "what spark-submit set, else local[*])")
    parser.add_argument("--driver-memory", default=None, metavar="SIZE",
                        help="the driver's JVM heap, e.g. 8g (local masters: the whole "
                             "job's; default 4g there, else what spark-submit set)")
    parser.add_argument("--partitions", type=int, default=None, metavar="N",
                        help="score: partitions of the hand-keyed step (default: "
                             "spark.sql.shuffle.partitions)")


def run(args: argparse.Namespace) -> int:
    from ofc_spark.session import NoJava, session

    try:
        spark = session(args.master, memory=args.driver_memory)
    except NoJava as exc:
        print(f"ofc spark: {exc}", file=sys.stderr)
        return 2
    try:
        return _score(spark, args) if args.job == "score" else _report(spark, args)
    except Exception as exc:  # Spark's own errors (paths, cluster): a message, not a trace
        print(f"ofc spark {args.job}: {type(exc).__name__}: {str(exc).splitlines()[0]}",
              file=sys.stderr)
        return 2
    finally:
        spark.stop()


def _score(spark: SparkSession, args: argparse.Namespace) -> int:
    from ofc_spark.score import score

    result = score(spark, args.input, args.output, partitions=args.partitions)
    for name, rows in result.rows.items():
        print(f"{name}: {rows:,} rows")
    print(f"total: {result.stored:,} stored, {result.duplicate:,} duplicate, "
          f"{result.merged:,} merged, {result.partial:,} partial, {result.rejected:,} rejected "
          f"(written to {args.output})")
    return 1 if result.rejected else 0


def _report(spark: SparkSession, args: argparse.Namespace) -> int:
    from ofc_spark.report import report

    if len(args.input) != 1:
        print("ofc spark report: give one --input folder", file=sys.stderr)
        return 2
    for folder in report(spark, args.input[0], args.output):
        print(f"written {folder}")
    return 0
