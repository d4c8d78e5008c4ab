"""The money rule of :mod:`ingest.money` in Spark: each ``hand_players`` row's ``money``,
points x stake, except under race scoring (OFC Double), where the hand that ends a match pays
stake x final cube to the winner (``+``) and costs the loser as much (``-``) and the match's
other hands carry none (``NULL``). The final cube is the ``match_end`` event's ``cube`` (or
``multiplier``), else 2 to the number of doubles accepted in the match.

``ofc spark score`` writes ``hand_players.money`` with :func:`settle`, as the embedded store
does with :func:`ingest.money.settle_matches`; the reports read the column. The rule is written
twice because Spark cannot run the store's DuckDB SQL: ``test_spark.py`` holds the two equal on
the hand-worked matches of ``tests/helpers/double.py``.

:func:`infer_stakes` is :mod:`ingest.inferred_stakes`'s rule the same way: a hand that moved no
money (every player's settled points, the room's where it says, else ours, are 0) and logged no
stake takes its table's stake and currency (the same ``source`` and ``session_id``) when the
table's other hands all agree on one; ``hands.stake_inferred`` says so (``NULL`` otherwise, as in
the store).
"""

from __future__ import annotations

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from ingest.money import RACE


def count_if(condition: Column) -> Column:
    return F.count(F.when(condition, True))


def match_ends(events: DataFrame, hands: DataFrame) -> DataFrame:
    """Per hand that ends a match, its ``winner`` and final ``cube`` (the SQL of
    :data:`ingest.money.MATCH_ENDS`)."""
    matches = hands.select("hand_key", "match_id")
    taken = (events.filter(F.col("type") == "double").join(matches, "hand_key")
             .groupBy("match_id").agg(count_if(F.col("accepted")).alias("taken")))
    data = F.col("data")
    cube = F.coalesce(F.get_json_object(data, "$.cube"),
                      F.get_json_object(data, "$.multiplier")).cast("int")
    winner = F.coalesce(F.when(F.col("by_player") != "", F.col("by_player")),
                        F.get_json_object(data, "$.winner"))
    ends = events.filter(F.col("type") == "match_end").join(matches, "hand_key")
    return (ends.join(taken, "match_id", "left").groupBy("hand_key").agg(
        F.first(winner, ignorenulls=True).alias("winner"),
        F.coalesce(F.first(cube, ignorenulls=True),
                   F.pow(F.lit(2), F.coalesce(F.first("taken", ignorenulls=True), F.lit(0)))
                   .cast("int")).alias("cube")))


def settle(hand_players: DataFrame, events: DataFrame, hands: DataFrame) -> DataFrame:
    """``hand_players`` with ``money`` settled: race rows of a hand that ends a match get the
    match's money; every other row keeps the money its own hand gave it."""
    ends = match_ends(events, hands).withColumnRenamed("hand_key", "_end_key")
    joined = hand_players.join(F.broadcast(ends), F.col("hand_key") == F.col("_end_key"),
                               "left")
    sign = (F.when(F.col("winner").isNull(), F.lit(0.0))
            .when(F.col("winner") == F.col("player"), F.lit(1.0)).otherwise(F.lit(-1.0)))
    ended = (F.col("scoring") == RACE) & F.col("_end_key").isNotNull()
    money = F.when(ended, sign * F.col("stake") * F.col("cube")).otherwise(F.col("money"))
    return joined.withColumn("money", money).drop("_end_key", "winner", "cube")


def infer_stakes(hands: DataFrame, hand_players: DataFrame) -> tuple[DataFrame, DataFrame]:
    """``hands`` with ``stake_inferred`` and ``hand_players`` with the inferred stakes and their
    money (the SQL of :data:`ingest.inferred_stakes._INFERRED`): run before :func:`settle`."""
    tables = (hands.filter(F.col("stake").isNotNull() & F.col("session_id").isNotNull())
              .groupBy("source", "session_id")
              .agg(F.min("stake").alias("_stake"), F.min("currency").alias("_currency"),
                   F.countDistinct("stake").alias("_stakes"),
                   F.countDistinct(F.coalesce(F.col("currency"), F.lit(""))).alias("_units"))
              .filter((F.col("_stakes") == 1) & (F.col("_units") == 1))
              .drop("_stakes", "_units"))
    moved = (hand_players.filter(F.coalesce(F.col("reported_points"), F.col("points")) != 0)
             .select("hand_key").distinct())
    inferred = (hands.filter(F.col("stake").isNull() & F.col("session_id").isNotNull())
                .join(tables, ["source", "session_id"])
                .join(moved, "hand_key", "left_anti")
                .select(F.col("hand_key").alias("_key"), "_stake", "_currency"))
    found = F.col("_key").isNotNull()
    hands = (hands.join(inferred, F.col("hand_key") == F.col("_key"), "left")
             .withColumn("stake", F.when(found, F.col("_stake")).otherwise(F.col("stake")))
             .withColumn("currency", F.when(found, F.col("_currency"))
                         .otherwise(F.col("currency")))
             .withColumn("stake_inferred", F.when(found, F.lit(True))
                         .otherwise(F.lit(None).cast("boolean")))
             .drop("_key", "_stake", "_currency"))
    money = F.when(F.col("scoring") == RACE, F.col("money")).otherwise(
        F.col("points") * F.col("_stake"))
    hand_players = (hand_players.join(inferred, F.col("hand_key") == F.col("_key"), "left")
                    .withColumn("money", F.when(found, money).otherwise(F.col("money")))
                    .withColumn("stake", F.when(found, F.col("_stake"))
                                .otherwise(F.col("stake")))
                    .withColumn("currency", F.when(found, F.col("_currency"))
                                .otherwise(F.col("currency")))
                    .drop("_key", "_stake", "_currency"))
    return hands, hand_players
