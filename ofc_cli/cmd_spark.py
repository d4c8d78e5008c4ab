"""``ofc spark score|report``: the importer's scoring and the dashboard's per-player numbers on
Apache Spark, for stores past one machine (``pip install ofc-analytics[spark]``; Java 17).

``ofc spark score --input PATH... --output DIR [--master URL] [--partitions N]`` reads ofc-hh/1
logs (files or folders, any path Spark reads: local, ``hdfs://``, ``s3a://``...) or a Parquet
export, and writes the tables of ``ofc export --parquet`` under DIR. ``ofc spark report
--input DIR --output DIR`` writes the per-player reports. ``ofc spark review --input PATH...
--output DIR (--player NAME... | --all-seats)`` reviews every decision of those players (as
``ofc review`` does, decision for decision) and writes the ``decisions`` tables under DIR, which
``ofc dashboard --parquet`` reads and ``ofc import DIR`` merges into a store; an interrupted
review goes on where it stopped (``--again`` starts afresh). See docs/scale.md.

Exit status: 0; 1 if any hand was rejected (the rejected table says which and why); 2 if Spark
could not run (no Java, a bad path...).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pyspark is an extra: imported when a job runs
    from pyspark.sql import SparkSession

SUBCOMMANDS = ("score", "report", "review")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("job", choices=SUBCOMMANDS,
                        help="score: logs -> the tables; report: tables -> per-player reports; "
                             "review: hands -> the reviewed decisions")
    parser.add_argument("--input", required=True, nargs="+", metavar="PATH",
                        help="score: log files or folders, or one Parquet export; "
                             "report: a folder ofc spark score (or ofc export) wrote")
    parser.add_argument("--output", required=True, metavar="PATH",
                        help="folder to write the Parquet tables into (replaced; review: "
                             "added to, e.g. the folder ofc spark score wrote)")
    parser.add_argument("--master", default=None, metavar="URL",
                        help="Spark master (local[2], spark://host:7077, yarn...; default: "
                             "what spark-submit set, else local[*])")
    parser.add_argument("--driver-memory", default=None, metavar="SIZE",
                        help="the driver's JVM heap, e.g. 8g (local masters: the whole "
                             "job's; default 4g there, else what spark-submit set)")
    parser.add_argument("--partitions", type=int, default=None, metavar="N",
                        help="score (and review of logs): partitions of the hand-keyed step "
                             "(default: spark.sql.shuffle.partitions)")


    parser.add_argument("--player", action="append", default=None, metavar="NAME",
                        help="review: whose decisions to review (again for more players)")
    parser.add_argument("--all-seats", action="store_true",
                        help="review: every seat's decisions")
    parser.add_argument("--precision", type=float, default=None, metavar="POINTS",
                        help="review: as ofc review --precision")
    parser.add_argument("--rollouts", type=int, default=None, metavar="N",
                        help="review: as ofc review --rollouts")
    parser.add_argument("--policy", default=None, help="review: as ofc review --policy")
    parser.add_argument("--parts", type=int, default=None, metavar="N",
                        help="review: the hands' parts, each written once reviewed (default: "
                             "one per 500 hands; kept for a run that goes on)")
    parser.add_argument("--again", action="store_true",
                        help="review: drop the decisions written before and start afresh")


def run(args: argparse.Namespace) -> int:
    from ofc_spark.session import NoJava, session

    if args.job == "review":
        problem = _review_problem(args)
        if problem:
            print(f"ofc spark review: {problem}", file=sys.stderr)
            return 2

    try:
        spark = session(args.master, memory=args.driver_memory)
    except NoJava as exc:
        print(f"ofc spark: {exc}", file=sys.stderr)
        return 2
    try:
        jobs = {"score": _score, "report": _report, "review": _review}
        return jobs[args.job](spark, args)
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


def _review_problem(args: argparse.Namespace) -> str | None:
    from ofc_spark.review_worker import POLICIES

    if bool(args.player) == args.all_seats:
        return "give --player NAME (one or more) or --all-seats"
    if args.precision is not None and args.precision <= 0:
        return "--precision must be a positive number of points"
    if args.rollouts is not None and args.rollouts < 1:
        return "--rollouts must be at least 1"
    if args.parts is not None and args.parts < 1:
        return "--parts must be at least 1"
    if args.policy is not None and args.policy not in POLICIES:
        return f"--policy must be one of {', '.join(POLICIES)}"
    return None


def _review(spark: SparkSession, args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ofc_cli.terminal import Progress
    from ofc_core.play.review import DEFAULT_PRECISION, REVIEW_POLICY
    from ofc_spark.review import review

    precision = DEFAULT_PRECISION
    if args.rollouts is not None:
        precision = replace(precision, max_rollouts=args.rollouts)
    if args.precision is not None:
        precision = replace(precision, precision=args.precision)
    try:
        with Progress("reviewing", "part") as bar:
            result = review(spark, args.input, args.output, players=args.player,
                            precision=precision, policy=args.policy or REVIEW_POLICY.name,
                            parts=args.parts, again=args.again, partitions=args.partitions,
                            progress=bar)
    except ValueError as exc:
        print(f"ofc spark review: {exc}", file=sys.stderr)
        return 2
    before = (f"; {result.skipped_parts:,} of {result.parts:,} parts written before (--again "
              "to redo)" if result.skipped_parts else "")
    other = (f"; {result.other_formats:,} hands of other formats than ofc-hh/1 not reviewed"
             if result.other_formats else "")
    print(f"reviewed {result.reviewed:,} of {result.hands:,} hands read ({result.decisions:,} "
          f"decisions, {result.cpu_s:,.1f} executor CPU s) into {args.output}{before}{other}")
    return 0
