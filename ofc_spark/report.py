"""``ofc spark report``: the per-player numbers of the dashboard, for every player at once, from
the tables ``ofc spark score`` (or ``ofc export --parquet``) wrote.

Each number is defined as the dashboard's SQL defines it (``dashboard/queries``), for the
dashboard's filter "this player, nothing else":

- ``players``: the Overview summary (``overview.summary``): hands, net points, points per hand
  and its 95% half-interval (when a player's hands mix race scoring, OFC Double, with another
  system, these three leave the race hands out: race points are not added to others), foul
  rate over hands set (surrendered ones left out), Fantasyland entry rate (over hands not
  played in Fantasyland) and stay rate (over hands played in it), Fantasyland hands,
  royalties per hand;
- ``money``: the summary's money, per player and currency, over hands with a known stake;
- ``opponents``: the Opponents table (``opponents.table``), one row per player, opponent and
  scoring system;
- ``variants``: the Variants table (``variants.table``), one row per player, variant and
  ruleset.

Money is the stored ``hand_players.money`` (the rule of ``ingest/money.py``: points x stake,
except for race-scored hands, where the hand that ends a match pays stake x final cube to the
winner and the loser; the match's other hands carry none); an opponent's share of a hand's
money is the pair's points x stake (race: the hand's money).
"""

from __future__ import annotations

from pyspark.errors import AnalysisException
from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

from ingest.money import RACE
from ofc_spark import worker
from ofc_spark.money import count_if, settle

Z95 = 1.959964
"""The Overview's normal quantile (the Opponents and Variants tables use 1.96)."""



def _ratio(part: Column, whole: Column) -> Column:
    return F.when(whole > 0, part / whole)


def _currency(column: str = "currency") -> Column:
    low, high = F.min(column), F.max(column)
    return F.when(low == high, low).otherwise(F.concat(low, F.lit(", "), high))


def _foul_rate(prefix: str = "") -> Column:
    return F.avg(F.when(~F.col(f"{prefix}surrendered"), F.col(f"{prefix}fouled").cast("int")))


def _is_race() -> Column:
    return F.coalesce(F.col("scoring") == RACE, F.lit(False))


def players(hp: DataFrame) -> DataFrame:
    """The Overview summary per player."""
    n = F.count(F.lit(1))
    plain = ~_is_race()
    fl, entered = F.col("fantasyland"), F.col("fantasyland_next") > 0
    totals = hp.groupBy("player").agg(
        n.alias("hands"),
        count_if(_is_race()).alias("race_n"),
        count_if(plain).alias("plain_n"),
        F.coalesce(F.sum(F.when(plain, F.col("points"))), F.lit(0.0)).alias("plain_sum"),
        F.coalesce(F.sum(F.when(plain, F.col("points") ** 2)), F.lit(0.0)).alias("plain_sq"),
        F.coalesce(F.sum("points"), F.lit(0.0)).alias("all_sum"),
        F.coalesce(F.sum(F.col("points") ** 2), F.lit(0.0)).alias("all_sq"),
        _ratio(count_if(F.col("fouled") & ~F.col("surrendered")),
               count_if(~F.col("surrendered"))).alias("foul_rate"),
        _ratio(count_if(entered & ~fl), count_if(~fl)).alias("fl_entry"),
        _ratio(count_if(entered & fl), count_if(fl)).alias("fl_stay"),
        count_if(fl).alias("fl_hands"),
        (F.sum("royalties") / n).alias("avg_royalties"))
    mixed = (F.col("race_n") > 0) & (F.col("race_n") < F.col("hands"))
    count = F.when(mixed, F.col("plain_n")).otherwise(F.col("hands"))
    total = F.when(mixed, F.col("plain_sum")).otherwise(F.col("all_sum")).cast("double")
    squares = F.when(mixed, F.col("plain_sq")).otherwise(F.col("all_sq"))
    mean = _ratio(total, count)
    variance = F.greatest(F.lit(0.0), (squares - count * mean * mean) / (count - 1))
    return totals.select(
        "player", "hands", total.alias("net_points"), mean.alias("per_hand"),
        F.when(count >= 2, F.lit(Z95) * F.sqrt(variance) / F.sqrt(count)).alias("ci95"),
        "foul_rate", "fl_entry", "fl_stay", "fl_hands", "avg_royalties")


def money(hp: DataFrame) -> DataFrame:
    """Net money per player and currency (``''`` when unnamed), hands with a stake only."""
    staked = hp.filter(F.col("stake").isNotNull())
    return staked.groupBy("player", F.coalesce("currency", F.lit("")).alias("currency")).agg(
        F.coalesce(F.sum("money"), F.lit(0.0)).cast("double").alias("money"),
        F.count(F.lit(1)).alias("hands"))


def _interval(sign: int) -> Column:
    return F.avg("points") + sign * 1.96 * F.stddev_samp("points") / F.sqrt(F.count(F.lit(1)))


def opponents(hp: DataFrame, pairs: DataFrame) -> DataFrame:
    """The Opponents table per player: our side from the pairs, theirs from their rows, one
    row per opponent and scoring system."""
    mine = hp.select("hand_key", "player", "scoring", "stake", "currency",
                     F.col("money").alias("hand_money"),
                     F.col("royalties").alias("royalties_for"), "fouled", "surrendered")
    pair = pairs.select("hand_key", "player", "opponent", F.col("points").alias("pair_points"),
                        "rows_won", "rows_lost", "scoop")
    versus = pair.join(mine, ["hand_key", "player"]).withColumn("money", F.when(
        F.col("scoring") == RACE, F.col("hand_money")).otherwise(
        F.col("pair_points") * F.col("stake")))
    n = F.count(F.lit(1))
    ours = versus.withColumnRenamed("pair_points", "points").groupBy(
        "player", "opponent", "scoring").agg(
        n.alias("hands"),
        F.sum("points").alias("net_points"),
        F.avg("points").alias("points_per_hand"),
        _interval(-1).alias("ci_low"),
        _interval(1).alias("ci_high"),
        F.sum("money").alias("money"),
        _currency().alias("currency"),
        (F.sum("rows_won") / (3.0 * n)).alias("rows_won_pct"),
        count_if(F.col("scoop")).alias("scoops_for"),
        count_if(F.col("rows_lost") == 3).alias("scoops_against"),
        F.sum("royalties_for").cast("bigint").alias("royalties_for"),
        _foul_rate().alias("our_foul_rate"))
    them = hp.select("hand_key", F.col("player").alias("opponent"), "scoring", "royalties",
                     "fouled", "surrendered")
    theirs = (hp.select("hand_key", "player").join(them, "hand_key")
              .filter(F.col("player") != F.col("opponent"))
              .groupBy("player", "opponent", "scoring").agg(
                  F.sum("royalties").cast("bigint").alias("royalties_against"),
                  _foul_rate().alias("their_foul_rate")))
    return ours.join(theirs, ["player", "opponent", "scoring"])


def variants(hp: DataFrame) -> DataFrame:
    """The Variants table per player."""
    fl = F.col("fantasyland")
    return hp.groupBy("player", "variant", "ruleset_label", "scoring").agg(
        F.count(F.lit(1)).alias("hands"),
        F.avg("points").alias("points_per_hand"),
        _interval(-1).alias("ci_low"),
        _interval(1).alias("ci_high"),
        F.sum("points").alias("points"),
        _foul_rate().alias("foul_rate"),
        F.avg(F.when(~fl, (F.col("fantasyland_next") > 0).cast("int"))).alias("fl_entry_rate"),
        F.avg(fl.cast("int")).alias("fl_hand_share"),
        F.avg("royalties").alias("royalties_per_hand"),
        F.sum("money").alias("money"),
        _currency().alias("currency"))


def _events(spark: SparkSession, base: str) -> DataFrame:
    """The ``events`` table; none when the folder holds no file (a store without OFC Double
    exports no partition of it)."""
    try:
        return spark.read.parquet(f"{base}/events")
    except AnalysisException:
        return spark.createDataFrame([], from_arrow_schema(worker.table_schemas()["events"]))


def _with_money(spark: SparkSession, base: str, hp: DataFrame) -> DataFrame:
    """``hand_players`` as read; a folder written before the store kept ``money`` (schema
    version 5 and older) gets it computed here by the same rule."""
    if "money" in hp.columns:
        return hp
    own = F.when(F.col("scoring") == RACE, F.lit(None).cast("double")).otherwise(
        F.col("points") * F.col("stake"))
    return settle(hp.withColumn("money", own), _events(spark, base),
                  spark.read.parquet(f"{base}/hands"))


REPORTS = ("players", "money", "opponents", "variants")


def report(spark: SparkSession, tables: str, output: str) -> list[str]:
    """Read ``hand_players`` and ``pairs`` under ``tables`` and write
    each report of :data:`REPORTS` as ``output/<name>.parquet``; returns the folders written."""
    base, out = tables.rstrip("/"), output.rstrip("/")
    hp = _with_money(spark, base, spark.read.parquet(f"{base}/hand_players"))
    pairs = spark.read.parquet(f"{base}/pairs")
    frames = {"players": players(hp), "money": money(hp),
              "opponents": opponents(hp, pairs), "variants": variants(hp)}
    hp.persist()
    try:
        for name, frame in frames.items():
            frame.write.mode("overwrite").parquet(f"{out}/{name}.parquet")
    finally:
        hp.unpersist()
    return [f"{out}/{name}.parquet" for name in frames]
