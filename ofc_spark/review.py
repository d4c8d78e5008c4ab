"""``ofc spark review``: the review of every hand of a Parquet export (``ofc export --parquet``,
``ofc spark score``) or of ofc-hh/1 logs, for one player, a list, or every seat, on Spark's
executors by hand (:mod:`ofc_spark.review_worker`), written as the ``decisions`` and
``decision_alternatives`` tables in Parquet.

Each decision is seeded as the embedded review seeds it
(:func:`ofc_core.play.review.decision_seed`), so its row equals ``ofc review``'s on the same
hand, whichever executor reviewed it. The hands are cut into ``parts`` by their identity
(``pmod(xxhash64(source, hand_id), parts)``); the parts are reviewed in waves of a few per
executor core, and each part's decisions are written as one folder ``part=N`` of each table
once its wave is done, so an interrupted run goes on where it stopped: a part already written
is not reviewed again (``--again`` starts afresh). The run's settings are kept beside the
tables (``decisions/_review.json``); going on under other settings is refused.

Logs are read and scored as ``ofc spark score`` does (:func:`ofc_spark.score.score_frame`), and
a hand's stored line is reviewed; a Parquet export's hands of ofc-hh/1 imports are read from
their stored line (``raw``; another format's line is not ofc-hh/1 and is counted apart). A
hand completed from a second log is reviewed as its first log shows it (the tables keep one
line a hand).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from pyspark import StorageLevel
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

from ofc_core.play.review import REVIEW_VERSION, Precision
from ofc_spark import review_worker
from ofc_spark.score import is_export, read_files, score_frame, table

WAVE_PER_CORE = 2
"""Parts reviewed in one wave per executor core: a wave's parts are written when it ends."""

HANDS_PER_PART = 500
"""The default size of a part, in hands, for an input of many hands (``--parts`` sets their
number instead): about five CPU minutes of review, what an interruption may lose per core."""


@dataclass(frozen=True)
class ReviewResult:
    """What a run did: parts (already written before it, and in all), hands read and with a
    decision reviewed, decisions written, and the executors' CPU seconds in the review."""

    parts: int
    skipped_parts: int
    hands: int
    reviewed: int
    decisions: int
    cpu_s: float
    other_formats: int


def _fs(spark: SparkSession, path: str) -> tuple[Any, Any]:
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    return hadoop_path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()), jvm


def _written_parts(spark: SparkSession, folder: str) -> set[int]:
    """The parts whose folder ``part=N`` exists under ``folder`` (written: a part's folder
    appears when its wave's write commits)."""
    fs, jvm = _fs(spark, folder)
    path = jvm.org.apache.hadoop.fs.Path(folder)
    if not fs.exists(path):
        return set()
    return {int(s.getPath().getName().split("=", 1)[1]) for s in fs.listStatus(path)
            if s.isDirectory() and s.getPath().getName().startswith("part=")}


def _read_text(spark: SparkSession, path: str) -> str | None:
    fs, jvm = _fs(spark, path)
    target = jvm.org.apache.hadoop.fs.Path(path)
    if not fs.exists(target):
        return None
    stream = fs.open(target)
    try:
        return str(jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8"))
    finally:
        stream.close()


def _write_text(spark: SparkSession, path: str, text: str) -> None:
    fs, jvm = _fs(spark, path)
    stream = fs.create(jvm.org.apache.hadoop.fs.Path(path), True)
    try:
        stream.write(bytearray(text.encode()))
    finally:
        stream.close()


def _remove(spark: SparkSession, path: str) -> None:
    fs, jvm = _fs(spark, path)
    fs.delete(jvm.org.apache.hadoop.fs.Path(path), True)


def hands_frame(spark: SparkSession, inputs: Sequence[str], partitions: int | None = None
                ) -> tuple[DataFrame, DataFrame]:
    """The stored hands of ``inputs`` (one Parquet export, or logs scored as ``ofc spark
    score`` scores them, ``partitions`` as its ``--partitions``): ``source, hand_id, hand_key,
    import_id, line, raw``, and the ``hand_players`` table (who played each hand), both keyed
    by ``hand_key``."""
    if len(inputs) == 1 and is_export(spark, inputs[0]):
        base = inputs[0].rstrip("/")
        hands = spark.read.parquet(f"{base}/hands")
        formats = spark.read.parquet(f"{base}/imports.parquet").select("import_id", "format")
        hands = hands.join(formats, "import_id", "left")
        players = spark.read.parquet(f"{base}/hand_players")
    else:
        union = score_frame(read_files(spark, inputs), partitions).persist(
            StorageLevel.DISK_ONLY)
        hands = table(union, "hands").withColumn("format", F.lit("ofc-hh/1"))
        players = table(union, "hand_players")
    keep = hands.select("source", "hand_id", F.col("hand_key").cast("bigint"),
                        F.col("import_id").cast("int"), F.col("line").cast("int"), "raw",
                        "format")
    return keep, players.select(F.col("hand_key").cast("bigint"), "player")


def review(spark: SparkSession, inputs: Sequence[str], output: str, *,
           players: Sequence[str] | None, precision: Precision, policy: str,
           parts: int | None = None, again: bool = False, partitions: int | None = None,
           progress: Callable[[int, int, str], None] | None = None) -> ReviewResult:
    """Review the hands of ``inputs`` for ``players`` (``None``: every seat) and write the
    decisions under ``output`` (``decisions/`` and ``decision_alternatives/``, a folder
    ``part=N`` per part); ``progress(parts done, parts, note)`` after each wave. Logs are
    scored first with ``partitions`` partitions (:func:`ofc_spark.score.score_frame`)."""
    base = output.rstrip("/")
    folder, alternatives_folder = f"{base}/decisions", f"{base}/decision_alternatives"
    if again:
        for path in (folder, alternatives_folder):
            _remove(spark, path)
    hands, seats = hands_frame(spark, inputs, partitions)
    chosen = hands
    if players is not None:
        wanted = seats.filter(F.col("player").isin(list(players))).select("hand_key").distinct()
        chosen = hands.join(wanted, "hand_key", "left_semi")
    other_formats = chosen.filter(F.col("format") != "ofc-hh/1").count()
    chosen = chosen.filter(F.col("format") == "ofc-hh/1")
    settings = _settings(spark, folder, players, precision, policy, parts, chosen)
    count = int(str(settings["parts"]))
    keyed = chosen.withColumn("part", F.pmod(F.xxhash64("source", "hand_id"),
                                             F.lit(count)).cast("int"))
    done = _written_parts(spark, folder)
    todo = [p for p in range(count) if p not in done]
    wave = max(1, WAVE_PER_CORE * spark.sparkContext.defaultParallelism)
    counts = {k: spark.sparkContext.accumulator(0.0)
              for k in ("hands", "reviewed", "decisions", "seconds")}
    started = time.monotonic()
    if progress is not None:
        progress(len(done), count, "")
    for start in range(0, len(todo), wave):
        these = todo[start:start + wave]
        _review_wave(keyed, these, players, precision, policy, counts, folder,
                     alternatives_folder)
        if progress is not None:
            rate = counts["hands"].value / max(time.monotonic() - started, 1e-9)
            progress(len(done) + start + len(these), count,
                     f"{int(counts['decisions'].value):,} decisions, {rate:.2f} hands/s")
    return ReviewResult(count, len(done), int(counts["hands"].value),
                        int(counts["reviewed"].value), int(counts["decisions"].value),
                        round(float(counts["seconds"].value), 1), other_formats)


def _settings(spark: SparkSession, folder: str, players: Sequence[str] | None,
              precision: Precision, policy: str, parts: int | None,
              chosen: DataFrame) -> dict[str, object]:
    """The run's settings, kept in ``folder/_review.json``; those of the run before when going
    on (``ValueError`` when they differ from these)."""
    path = f"{folder}/_review.json"
    want: dict[str, object] = {"players": sorted(players) if players is not None else None,
                               "precision": asdict(precision), "policy": policy,
                               "version": REVIEW_VERSION}
    before = _read_text(spark, path)
    if before is not None:
        kept = json.loads(before)
        differs = [k for k, v in want.items() if kept.get(k) != v]
        if parts is not None and kept.get("parts") != parts:
            differs.append("parts")
        if differs:
            raise ValueError(f"{folder} was written with other settings ({', '.join(differs)})"
                             ": give another --output, or --again to start afresh")
        return dict(kept)
    if parts is None:  # parts of HANDS_PER_PART hands, at least two waves' worth of them
        parts = max(-(-chosen.count() // HANDS_PER_PART),
                    2 * WAVE_PER_CORE * spark.sparkContext.defaultParallelism)
    want["parts"] = parts
    _write_text(spark, path, json.dumps(want, sort_keys=True))
    return want


def _review_wave(keyed: DataFrame, these: list[int], players: Sequence[str] | None,
                 precision: Precision, policy: str, counts: dict[str, Any], folder: str,
                 alternatives_folder: str) -> None:
    """Review the parts ``these`` (one task each) and append their folders: the
    alternatives first, the decisions last (a part's ``decisions`` folder marks it done)."""
    who = tuple(players) if players is not None else None
    for part in these:  # what an interrupted wave may have left of them
        _remove(keyed.sparkSession, f"{alternatives_folder}/part={part}")
    hands = (keyed.filter(F.col("part").isin(these))
             .repartitionByRange(len(these), "part").sortWithinPartitions("hand_key")
             .select(*review_worker.HANDS.names))
    found = hands.mapInArrow(
        lambda batches: review_worker.review_hands(batches, who, precision, policy, counts),
        from_arrow_schema(review_worker.DECISIONS)).persist(StorageLevel.DISK_ONLY)
    try:
        key = ["source", "hand_id", "player", "street"]
        alternatives = found.select(*key, "part", F.posexplode("alternatives")).select(
            *key, "part", "col.*")
        alternatives.write.mode("append").partitionBy("part").parquet(alternatives_folder)
        found.drop("alternatives").write.mode("append").partitionBy("part").parquet(folder)
    finally:
        found.unpersist()
    fs, jvm = _fs(keyed.sparkSession, folder)
    for part in these:  # a part without a decision is done too
        fs.mkdirs(jvm.org.apache.hadoop.fs.Path(f"{folder}/part={part}"))
