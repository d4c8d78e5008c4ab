"""``ofc spark report``: the per-player numbers of the dashboard, for every player at once, from
the tables ``ofc spark score`` (or ``ofc export --parquet``) wrote.

Each number is defined as the dashboard's SQL defines it (``dashboard/queries``), for the
dashboard's filter "this player, nothing else":

- ``players``: the Overview summary (``overview.summary``): hands, net points, points per hand
  and its 95% half-interval, foul rate over hands set (surrendered ones left out), Fantasyland
  entry rate (over hands not played in Fantasyland) and stay rate (over hands played in it),
  Fantasyland hands, royalties per hand;
- ``money``: the summary's money, per player and currency, over hands with a known stake;
- ``opponents``: the Opponents table (``opponents.table``), one row per player and opponent;
- ``variants``: the Variants table (``variants.table``), one row per player, variant and
  ruleset.
"""

from __future__ import annotations

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

Z95 = 1.959964
"""The Overview's normal quantile (the Opponents and Variants tables use 1.96)."""


def _count_if(condition: Column) -> Column:
    return F.count(F.when(condition, True))


def _ratio(part: Column, whole: Column) -> Column:
    return F.when(whole > 0, part / whole)


def _currency(column: str = "currency") -> Column:
    low, high = F.min(column), F.max(column)
    return F.when(low == high, low).otherwise(F.concat(low, F.lit(", "), high))


def _foul_rate(prefix: str = "") -> Column:
    return F.avg(F.when(~F.col(f"{prefix}surrendered"), F.col(f"{prefix}fouled").cast("int")))


def players(hp: DataFrame) -> DataFrame:
    """The Overview summary per player."""
    n = F.count(F.lit(1))
    mean = F.avg("points")
    squares = F.sum(F.col("points") * F.col("points"))
    variance = F.greatest(F.lit(0.0), (squares - n * mean * mean) / (n - 1))
    fl, entered = F.col("fantasyland"), F.col("fantasyland_next") > 0
    return hp.groupBy("player").agg(
        n.alias("hands"),
        F.sum("points").alias("net_points"),
        mean.alias("per_hand"),
        F.when(n >= 2, F.lit(Z95) * F.sqrt(variance) / F.sqrt(n)).alias("ci95"),
        _ratio(_count_if(F.col("fouled") & ~F.col("surrendered")),
               _count_if(~F.col("surrendered"))).alias("foul_rate"),
        _ratio(_count_if(entered & ~fl), _count_if(~fl)).alias("fl_entry"),
        _ratio(_count_if(entered & fl), _count_if(fl)).alias("fl_stay"),
        _count_if(fl).alias("fl_hands"),
        (F.sum("royalties") / n).alias("avg_royalties"))


def money(hp: DataFrame) -> DataFrame:
    """Net money per player and currency (``''`` when unnamed), hands with a stake only."""
    staked = hp.filter(F.col("stake").isNotNull())
    return staked.groupBy("player", F.coalesce("currency", F.lit("")).alias("currency")).agg(
        F.sum(F.col("points") * F.col("stake")).alias("money"),
        F.count(F.lit(1)).alias("hands"))


def _interval(sign: int) -> Column:
    return F.avg("points") + sign * 1.96 * F.stddev_samp("points") / F.sqrt(F.count(F.lit(1)))


def opponents(hp: DataFrame, pairs: DataFrame) -> DataFrame:
    """The Opponents table per player: our side from the pairs, theirs from their rows."""
    mine = hp.select("hand_key", "player", "stake", "currency",
                     F.col("royalties").alias("royalties_for"), "fouled", "surrendered")
    versus = pairs.select("hand_key", "player", "opponent", "points", "rows_won", "rows_lost",
                          "scoop").join(mine, ["hand_key", "player"])
    n = F.count(F.lit(1))
    ours = versus.groupBy("player", "opponent").agg(
        n.alias("hands"),
        F.sum("points").alias("net_points"),
        F.avg("points").alias("points_per_hand"),
        _interval(-1).alias("ci_low"),
        _interval(1).alias("ci_high"),
        F.sum(F.col("points") * F.col("stake")).alias("money"),
        _currency().alias("currency"),
        (F.sum("rows_won") / (3.0 * n)).alias("rows_won_pct"),
        _count_if(F.col("scoop")).alias("scoops_for"),
        _count_if(F.col("rows_lost") == 3).alias("scoops_against"),
        F.sum("royalties_for").cast("bigint").alias("royalties_for"),
        _foul_rate().alias("our_foul_rate"))
    them = hp.select("hand_key", F.col("player").alias("opponent"), "royalties", "fouled",
                     "surrendered")
    theirs = (hp.select("hand_key", "player").join(them, "hand_key")
              .filter(F.col("player") != F.col("opponent"))
              .groupBy("player", "opponent").agg(
                  F.sum("royalties").cast("bigint").alias("royalties_against"),
                  _foul_rate().alias("their_foul_rate")))
    return ours.join(theirs, ["player", "opponent"])


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
        F.sum(F.col("points") * F.col("stake")).alias("money"),
        _currency().alias("currency"))


REPORTS = ("players", "money", "opponents", "variants")


def report(spark: SparkSession, tables: str, output: str) -> list[str]:
    """Read ``hand_players`` and ``pairs`` under ``tables`` and write each report of
    :data:`REPORTS` as ``output/<name>.parquet``; returns the folders written."""
    base, out = tables.rstrip("/"), output.rstrip("/")
    hp = spark.read.parquet(f"{base}/hand_players")
    pairs = spark.read.parquet(f"{base}/pairs")
    frames = {"players": players(hp), "money": money(hp), "opponents": opponents(hp, pairs),
              "variants": variants(hp)}
    hp.persist()
    try:
        for name, frame in frames.items():
            frame.write.mode("overwrite").parquet(f"{out}/{name}.parquet")
    finally:
        hp.unpersist()
    return [f"{out}/{name}.parquet" for name in frames]
