"""The pre-aggregated tables: the dashboard's numbers per player (and opponent) and group of
hands, so that a page over ten million hands reads a few hundred thousand rows, not tens of
millions.

Every aggregate is grouped by the columns the sidebar's filters test (``player``, the hand's
``source``, ``session_id``, ``hour``, ``variant``, ``ruleset_label``, ``scoring``, ``stake``,
``currency``) plus what its pages group by, and holds sums and counts (never averages), so
that any set of its rows adds up to the numbers of the hands behind them. ``hour`` is
``epoch_us(played_at) // 3600000000``: the UTC hour the hand was played in (``NULL`` without a
date), whatever the reader's time zone, so a day in any zone whose offset is whole hours is a
range of hours (the dashboard checks that before using it: ``dashboard.queries.aggregated``).

- ``agg_players``: one row per player and group of their hands: hands, points and their
  squares, fouls, Fantasyland hands, entries and stays, royalties, money, first and last
  time, the first hand.
- ``agg_fouls``: the same groups split by ``player_count``, ``position`` and ``fantasyland``
  (the Fouls page's breakdowns): hands, hands set, fouls and which relation broke.
- ``agg_opponents``: one row per player, opponent and group of their hands together (the
  pairs, with both players' own rows): hands, points and squares, money, rows won, scoops,
  royalties and fouls on both sides.
- ``agg_hands``: one row per group of hands (``hero`` instead of ``player``): what the sidebar
  offers (variants, rulesets, rooms, stakes, sessions, the date span, the default player).
- ``agg_matches``: the OFC Double hands (a ``match_id``) per player, match and group of
  hands: the Matches page's table. Hands (counted once per opponent, as the page counts
  them), first and last time, points, the opponents and their points against the player,
  money, cube offers taken and declined, and the ``match_end`` event's winner, reason and
  cube.
- ``agg_relations``: the fouled hands set per player, group of hands, broken relation and the
  two rows' hand names (the Fouls page's relations table).
- ``agg_offers``: not a sum but the doubling offers themselves (``double`` events), one row
  per player of a match hand and offer, with that hand's group columns: the Matches page's
  cube decisions, without searching ten million hands for the few with an offer.
- ``agg_tags``: not a sum but the tagged hands themselves, one row per tag (its
  ``tag_key``) and stored hand carrying it, with the hand's ``hand_key`` and partition: the
  tag filter's hands, found without joining every hand to ``hand_tags``. A tag written or
  cleared refreshes its hand's rows (:func:`refresh_tags`), in the tag's transaction.
- ``agg_tagged``: the ``hand_players`` rows of the tagged hands (every seat, the columns
  the filters and the tag filter's pages read) with the seat's ``pairs`` summed: the tag
  filter's pages read these, not every hand. Refreshed with ``agg_tags``.
- ``agg_curve``: ``agg_players``' groups as pieces of the cumulative graph: the group's sums
  of the graph's lines (points, points outside Fantasyland, net royalties and rows and
  bonuses from ``pairs``) and four of its hands in play order with the lines' running values
  within the group there: its ``first`` and ``last`` hand and the first hand where the running
  points are lowest (``lo``) and highest (``hi``). A group of hands -1, +5, -8, +2 has
  ``lo`` at its third hand (-4), ``hi`` at its second (+4), ``last`` at -2.

Kept current by every write that changes hands, inside its transaction: the writers mark the
*partitions* they touch, a partition being all hands of one ``(session_id, hour)`` (every
aggregate's groups lie inside one), and :func:`refresh` rebuilds those partitions from the
rows before the writer commits. :func:`rebuild` makes every aggregate from the base tables
on any connection where they exist, as tables or as views (over Parquet too), so:

>>> import duckdb
>>> from ingest.store import schema_sql
>>> con = duckdb.connect()
>>> _ = con.execute(schema_sql())
>>> rebuild(con)
>>> con.execute("SELECT count(*) FROM agg_players").fetchone()
(0,)
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from .foul_sql import LOWER_SQL, RELATION_SQL, UPPER_SQL
from .match_sql import CUBE_SQL, DECISION_SQL, WINNER_SQL

HOUR_US = 3_600_000_000
"""Microseconds in an hour: ``hour`` is ``epoch_us(played_at) // HOUR_US``."""

DIRTY = "_ofc_agg_dirty"
"""The temporary table of the partitions ``(session_id, hour)`` a transaction changed."""

_KEYS = "_ofc_agg_keys"
"""The temporary table of the hands of the dirty partitions (during :func:`refresh`)."""

_PLAYERS = f"""
SELECT hp.player, h.source, hp.session_id, epoch_us(hp.played_at) // {HOUR_US} AS hour,
       hp.variant, hp.ruleset_label, hp.scoring, hp.stake, hp.currency,
       count(*) AS hands,
       sum(hp.points) AS points,
       sum(hp.points * hp.points) AS points_sq,
       count_if(NOT hp.surrendered)::BIGINT AS hands_set,
       count_if(hp.fouled)::BIGINT AS fouled,
       count_if(hp.fouled AND NOT hp.surrendered)::BIGINT AS fouls,
       count_if(hp.fantasyland)::BIGINT AS fl_hands,
       count_if(hp.fantasyland_next > 0 AND NOT hp.fantasyland)::BIGINT AS entries,
       count_if(hp.fantasyland_next > 0 AND hp.fantasyland)::BIGINT AS stays,
       sum(hp.royalties)::BIGINT AS royalties,
       sum(hp.money) AS money,
       min(hp.played_at) AS started,
       max(hp.played_at) AS ended,
       min(hp.utc_offset) AS utc_offset,
       arg_min(hp.hand_key, epoch_us(hp.played_at)::HUGEINT * 9223372036854775807 + hp.hand_key)
           AS first_hand  -- the earliest hand, the least key among equals
FROM hand_players hp JOIN hands h ON h.hand_key = hp.hand_key
WHERE {{rows}}
GROUP BY ALL"""

_FOULS = f"""
SELECT hp.player, h.source, hp.session_id, epoch_us(hp.played_at) // {HOUR_US} AS hour,
       hp.variant, hp.ruleset_label, hp.scoring, hp.stake, hp.currency,
       hp.player_count, hp.position, hp.fantasyland,
       count(*) AS hands,
       count_if(NOT hp.surrendered)::BIGINT AS hands_set,
       count_if(hp.fouled AND NOT hp.surrendered)::BIGINT AS fouls,
       count_if(hp.foul_top_middle)::BIGINT AS top_beat_middle,
       count_if(hp.foul_middle_bottom)::BIGINT AS middle_beat_bottom
FROM hand_players hp JOIN hands h ON h.hand_key = hp.hand_key
WHERE {{rows}}
GROUP BY ALL"""

_OPPONENTS = f"""
SELECT p.player, p.opponent, h.source, me.session_id,
       epoch_us(me.played_at) // {HOUR_US} AS hour,
       me.variant, me.ruleset_label, me.scoring, me.stake, me.currency,
       count(*) AS hands,
       sum(p.points) AS points,
       sum(p.points * p.points) AS points_sq,
       sum(p.points * me.stake) AS pair_money,
       sum(me.money) AS hand_money,
       sum(p.rows_won)::BIGINT AS rows_won,
       count_if(p.scoop)::BIGINT AS scoops_for,
       count_if(p.rows_lost = 3)::BIGINT AS scoops_against,
       sum(me.royalties)::BIGINT AS royalties_for,
       count_if(NOT me.surrendered)::BIGINT AS our_set,
       count_if(me.fouled AND NOT me.surrendered)::BIGINT AS our_fouls,
       sum(o.royalties)::BIGINT AS royalties_against,
       count_if(NOT o.surrendered)::BIGINT AS their_set,
       count_if(o.fouled AND NOT o.surrendered)::BIGINT AS their_fouls
FROM pairs p
JOIN hand_players me ON me.hand_key = p.hand_key AND me.seat = p.seat
JOIN hand_players o ON o.hand_key = p.hand_key AND o.seat = p.opp_seat
JOIN hands h ON h.hand_key = p.hand_key
WHERE {{rows}}
GROUP BY ALL"""

_HANDS = f"""
SELECT h.hero, h.source, h.session_id, epoch_us(h.played_at) // {HOUR_US} AS hour,
       h.variant, h.ruleset_label, h.scoring, h.stake, h.currency,
       count(*) AS hands,
       min(h.played_at) AS started,
       max(h.played_at) AS ended
FROM hands h
WHERE {{rows}}
GROUP BY ALL"""

_TAGS = f"""
SELECT t.tag_key, h.hand_key, h.session_id, epoch_us(h.played_at) // {HOUR_US} AS hour
FROM hand_tags t JOIN hands h ON h.source = t.source AND h.hand_id = t.hand_id
WHERE {{rows}}
ORDER BY t.tag_key, h.hand_key"""
"""``agg_tags``: the stored hands' keys of every hand tag (tags are kept by the log's
``(source, hand_id)``, so that they outlive a removal and a new import; the tag filter reads
the keys here instead of joining every hand to ``hand_tags``)."""

_TAGGED = f"""
WITH tagged AS (  -- each part named hp: the condition on the rows (hp.hand_key) applies
    SELECT hp.hand_key FROM hand_tags t JOIN hands hp
        ON hp.source = t.source AND hp.hand_id = t.hand_id WHERE {{rows}}
), seat_pairs AS (
    SELECT hp.hand_key, hp.seat, sum(hp.royalties) AS royalties,
           sum(hp.row_points + hp.bonus) AS row_points
    FROM pairs hp WHERE {{rows}} AND hp.hand_key IN (SELECT hand_key FROM tagged)
    GROUP BY ALL
)
SELECT hp.hand_key, hp.seat, hp.player, hp.session_id,
       epoch_us(hp.played_at) // {HOUR_US} AS hour, hp.played_at, hp.utc_offset,
       hp.variant, hp.ruleset_label, hp.scoring, hp.stake, hp.currency,
       hp.points, hp.royalties, hp.surrendered, hp.fouled, hp.fantasyland,
       hp.fantasyland_next, hp.money,
       coalesce(s.royalties, 0)::BIGINT AS pair_royalties,
       coalesce(s.row_points, 0)::BIGINT AS pair_rows
FROM hand_players hp
LEFT JOIN seat_pairs s ON s.hand_key = hp.hand_key AND s.seat = hp.seat
WHERE {{rows}} AND hp.hand_key IN (SELECT hand_key FROM tagged)
ORDER BY hp.hand_key, hp.seat"""
"""``agg_tagged``: the ``hand_players`` rows (the columns the tag filter's pages read) of
every stored hand carrying a tag, with the seat's ``pairs`` summed (net royalties, and row
points with bonuses: the Overview graph's two lines from ``pairs``). The tag filter's pages
read these few rows, with the tag's keys from ``agg_tags``, instead of scanning every hand."""

_MATCHES = f"""
WITH match_hands AS (  -- named hp so that the same {{rows}} condition on hp.hand_key applies
    SELECT hp.hand_key, hp.source FROM hands hp WHERE hp.match_id IS NOT NULL AND {{rows}}
), opp AS (
    SELECT hp.hand_key, hp.opp_seat AS seat, count(*) AS n, list(DISTINCT hp.player) AS names,
           sum(hp.points) AS points
    FROM pairs hp SEMI JOIN match_hands m ON m.hand_key = hp.hand_key
    GROUP BY ALL
), evs AS (
    SELECT hp.* FROM events hp SEMI JOIN match_hands m ON m.hand_key = hp.hand_key
    WHERE hp.type IN ('double', 'match_end')
), ev AS (
    SELECT e.hand_key,
           count(*) FILTER (WHERE e.type = 'double') AS offers,
           count(*) FILTER (WHERE e.type = 'double' AND e.accepted) AS taken,
           count(*) FILTER (WHERE e.type = 'double' AND NOT e.accepted) AS declined,
           any_value({WINNER_SQL}) FILTER (WHERE e.type = 'match_end') AS winner,
           any_value(json_extract_string(e.data, '$.reason'))
               FILTER (WHERE e.type = 'match_end') AS reason,
           any_value({CUBE_SQL}) FILTER (WHERE e.type = 'match_end') AS end_cube
    FROM evs e GROUP BY e.hand_key
)
SELECT hp.player, m.source, hp.session_id, epoch_us(hp.played_at) // {HOUR_US} AS hour,
       hp.variant, hp.ruleset_label, hp.scoring, hp.stake, hp.currency, hp.match_id,
       sum(greatest(o.n, 1))::BIGINT AS hands,
       min(hp.played_at) AS started,
       max(hp.played_at) AS ended,
       min(hp.utc_offset) AS utc_offset,
       sum(hp.points * greatest(o.n, 1)) AS points,
       sum(o.points) AS opponent_points,
       list_sort(list_distinct(flatten(list(o.names)))) AS opponents,
       sum(hp.money * greatest(o.n, 1)) AS money,
       sum(ev.offers)::BIGINT AS offers,
       sum(ev.taken)::BIGINT AS taken,
       sum(ev.declined)::BIGINT AS declined,
       any_value(ev.winner) AS winner,
       bool_or(ev.winner = hp.player) AS winner_is_player,
       any_value(ev.reason) AS reason,
       any_value(ev.end_cube) AS end_cube
FROM match_hands m JOIN hand_players hp ON hp.hand_key = m.hand_key
LEFT JOIN opp o ON o.hand_key = hp.hand_key AND o.seat = hp.seat
LEFT JOIN ev ON ev.hand_key = hp.hand_key
WHERE hp.match_id IS NOT NULL
GROUP BY ALL"""

_OFFERS = f"""
SELECT s.player, h.source, s.session_id, epoch_us(s.played_at) // {HOUR_US} AS hour,
       s.variant, s.ruleset_label, s.scoring, s.stake, s.currency,
       s.match_id, s.hand_key, s.played_at, s.utc_offset, e.idx, e.by_player AS offered_by,
       e.accepted, {CUBE_SQL} AS cube_after, {DECISION_SQL} AS decision
FROM hand_players s JOIN hands h ON h.hand_key = s.hand_key
JOIN events e ON e.hand_key = s.hand_key
WHERE s.match_id IS NOT NULL AND e.type = 'double' AND {{rows}}"""

_RELATIONS = f"""
SELECT f.player, f.source, f.session_id, f.hour, f.variant, f.ruleset_label, f.scoring,
       f.stake, f.currency, f.relation, {UPPER_SQL} AS upper, {LOWER_SQL} AS lower,
       count(*) AS fouls
FROM (SELECT s.player, h.source, s.session_id, epoch_us(s.played_at) // {HOUR_US} AS hour,
             s.variant, s.ruleset_label, s.scoring, s.stake, s.currency,
             {RELATION_SQL} AS relation, s.top_hand, s.middle_hand, s.bottom_hand
      FROM hand_players s JOIN hands h ON h.hand_key = s.hand_key
      WHERE s.fouled AND NOT s.surrendered AND {{rows}}) f
GROUP BY ALL"""

_CURVE_FIELDS = ("i", "key", "t", "off", "pts", "total", "plain", "roy", "rows")
"""A hand of ``agg_curve`` (a struct): its place ``i`` in the group (1, 2, ...), key, time
(``epoch_us``), UTC offset, points, and the four running values within the group at it."""


def _curve_hand(order: str, tie: str) -> str:
    """A struct of :data:`_CURVE_FIELDS` led by ``o`` (``order``) and ``p`` (``tie``), so that
    ``min``/``max`` of it pick the hand with the least/greatest ``order``, then ``tie``.

    >>> _curve_hand("i", "0")[:22]
    "{{'o': i, 'p': 0, 'i':"
    """
    values = ("i", "hand_key", "epoch_us(played_at)", "utc_offset", "points", "total", "plain_run",
              "roy_run", "rows_run")
    fields = ", ".join([f"'o': {order}", f"'p': {tie}", *(f"'{f}': {v}" for f, v in zip(
        _CURVE_FIELDS, values, strict=True))])
    return "{{" + fields + "}}"  # braces doubled: the SELECT is formatted with its rows


_GROUP = "player, source, session_id, hour, variant, ruleset_label, scoring, stake, currency"

_CURVE = f"""
WITH mine AS (
    SELECT hp.player, h.source, hp.session_id, epoch_us(hp.played_at) // {HOUR_US} AS hour,
           hp.variant, hp.ruleset_label, hp.scoring, hp.stake, hp.currency,
           hp.hand_key, hp.seat, hp.played_at, hp.utc_offset, hp.points,
           CASE WHEN hp.fantasyland THEN 0.0 ELSE hp.points END AS plain
    FROM hand_players hp JOIN hands h ON h.hand_key = hp.hand_key
    WHERE {{rows}}),
seat_pairs AS (  -- named hp so that the same {{rows}} condition on hp.hand_key applies
    SELECT hp.hand_key, hp.seat, sum(hp.royalties) AS roy, sum(hp.row_points + hp.bonus) AS rows
    FROM pairs hp WHERE {{rows}} GROUP BY ALL),
run AS (
    SELECT m.*, coalesce(s.roy, 0)::DOUBLE AS roy, coalesce(s.rows, 0)::DOUBLE AS rows,
           row_number() OVER w AS i, sum(m.points) OVER w AS total,
           sum(m.plain) OVER w AS plain_run,  -- DOUBLE sums: HUGEINT fields read 40x slower
           sum(coalesce(s.roy, 0)::DOUBLE) OVER w AS roy_run,
           sum(coalesce(s.rows, 0)::DOUBLE) OVER w AS rows_run
    FROM mine m LEFT JOIN seat_pairs s ON s.hand_key = m.hand_key AND s.seat = m.seat
    WINDOW w AS (PARTITION BY {_GROUP} ORDER BY m.played_at NULLS FIRST, m.hand_key
                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))
SELECT {_GROUP}, count(*) AS hands, min(played_at) AS started,
       sum(points) AS points, sum(plain) AS plain, sum(roy)::BIGINT AS royalties,
       sum(rows)::BIGINT AS row_points,
       min({_curve_hand("i", "0")}) AS first, max({_curve_hand("i", "0")}) AS last,
       min({_curve_hand("total", "i")}) AS lo,  -- the first lowest (least i among equals)
       max({_curve_hand("total", "-i")}) AS hi  -- the first highest
FROM run GROUP BY ALL"""

AGGREGATES: dict[str, tuple[str, str]] = {
    "agg_players": (_PLAYERS, "hp.hand_key"),
    "agg_fouls": (_FOULS, "hp.hand_key"),
    "agg_opponents": (_OPPONENTS, "p.hand_key"),
    "agg_hands": (_HANDS, "h.hand_key"),
    "agg_curve": (_CURVE, "hp.hand_key"),
    "agg_matches": (_MATCHES, "hp.hand_key"),
    "agg_offers": (_OFFERS, "s.hand_key"),
    "agg_relations": (_RELATIONS, "s.hand_key"),
    "agg_tags": (_TAGS, "h.hand_key"),
    "agg_tagged": (_TAGGED, "hp.hand_key"),
}
"""Aggregate table -> (its SELECT, with ``{rows}`` for the condition on the rows it reads;
the hand key column that condition tests)."""


def rebuild(con: duckdb.DuckDBPyConnection, only: Sequence[str] | None = None) -> None:
    """(Re)create every aggregate (or ``only`` those named) from the base tables (``hands``,
    ``hand_players``, ``pairs``, ``events``: tables or views) on ``con``, inside the caller's
    transaction if one is open."""
    for name, (select, _) in AGGREGATES.items():
        if only is None or name in only:
            con.execute(f"CREATE OR REPLACE TABLE {name} AS {select.format(rows='TRUE')}")
    con.execute(f"DROP TABLE IF EXISTS {DIRTY}")


def missing(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The aggregate tables ``con`` lacks (all of them before schema 8; those added since on
    a store written by an earlier build)."""
    have = {t for (t,) in con.execute(
        "SELECT DISTINCT table_name FROM duckdb_tables() WHERE list_contains(?, table_name)",
        [list(AGGREGATES)]).fetchall()}
    return [name for name in AGGREGATES if name not in have]


def present(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``con`` has every aggregate table (a store of schema version 8, or a connection
    :func:`rebuild` ran on)."""
    return not missing(con)


def _dirty_table(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(f"CREATE TEMP TABLE IF NOT EXISTS {DIRTY} (session_id VARCHAR, hour BIGINT)")


def mark_hands(con: duckdb.DuckDBPyConnection, keys_sql: str,
               params: Sequence[object] = ()) -> None:
    """Mark the partitions of the stored hands whose keys ``keys_sql`` (a SELECT of hand
    keys) gives as changed: call it before deleting or updating them."""
    if not present(con):
        return
    _dirty_table(con)
    con.execute(f"INSERT INTO {DIRTY} SELECT DISTINCT session_id, "
                f"epoch_us(played_at) // {HOUR_US} FROM hands "
                f"WHERE hand_key IN ({keys_sql})", list(params))


def mark_new(con: duckdb.DuckDBPyConnection, view: str) -> None:
    """Mark the partitions of new ``hands`` rows (the registered relation ``view``, with
    their ``session_id`` and ``played_at``) as changed."""
    if not present(con):
        return
    _dirty_table(con)
    con.execute(f"INSERT INTO {DIRTY} SELECT DISTINCT session_id, "
                f"epoch_us(CAST(played_at AS TIMESTAMPTZ)) // {HOUR_US} FROM {view}")


TAG_AGGREGATES = ("agg_tags", "agg_tagged")
"""The aggregates that change when a hand's tags do (:func:`refresh_tags`)."""


def refresh_tags(con: duckdb.DuckDBPyConnection, source: str, hand_id: str) -> None:
    """Rewrite the rows of :data:`TAG_AGGREGATES` of the stored hand ``(source, hand_id)``
    from its ``hand_tags`` rows, inside the caller's transaction (the tag writer's): nothing
    when the store has no aggregates or no such hand."""
    if not present(con):
        return
    key = "SELECT hand_key FROM hands WHERE source = ? AND hand_id = ?"
    for name in TAG_AGGREGATES:
        select, column = AGGREGATES[name]
        con.execute(f"DELETE FROM {name} WHERE hand_key IN ({key})", [source, hand_id])
        con.execute(f"INSERT INTO {name} {select.format(rows=f'{column} IN ({key})')}",
                    [source, hand_id] * select.count("{rows}"))


def _span(con: duckdb.DuckDBPyConnection, sql: str
          ) -> tuple[int, bool, int | None, int | None]:
    """``(count, any NULL, least, greatest)`` of the one-column relation ``sql`` (NULLs not
    counted in the bounds)."""
    row = con.execute(
        f"SELECT count(*), count(*) > count(v), min(v), max(v) FROM ({sql}) AS s(v)").fetchone()
    assert row is not None
    return int(row[0]), bool(row[1]), None if row[2] is None else int(row[2]), \
        None if row[3] is None else int(row[3])


def _between(column: str, lo: int | None, hi: int | None, nulls: bool) -> str:
    """A condition that holds for every value of ``column`` from ``lo`` to ``hi`` (none when
    they are ``None``) and, when ``nulls``, for NULL: a range the scan tests against each
    row group's minimum and maximum (DuckDB's zone maps), so that old row groups are skipped
    when the marked rows are recent ones. The bounds are integers of ours, never text of a
    file.

    >>> _between("hour", 3, 5, False), _between("hour", None, None, True)
    ('(hour BETWEEN 3 AND 5)', '(hour IS NULL)')
    >>> _between("k", 1, 2, True)
    '(k BETWEEN 1 AND 2 OR k IS NULL)'
    """
    parts = [] if lo is None or hi is None else [f"{column} BETWEEN {int(lo)} AND {int(hi)}"]
    if nulls:
        parts.append(f"{column} IS NULL")
    return "(" + (" OR ".join(parts) or "FALSE") + ")"


def _played_within(lo: int | None, hi: int | None, nulls: bool) -> str:
    """:func:`_between` on the hands' ``played_at`` for the hours ``lo`` to ``hi`` (an hour
    more on each side, whatever way the hour rounds a time before 1970): the hands' times
    grow with their keys as logs are imported, so the scan reads the recent row groups.

    >>> _played_within(0, 0, False)
    '(h.played_at >= to_timestamp(-3600) AND h.played_at < to_timestamp(7200))'
    """
    seconds = HOUR_US // 1_000_000
    parts = [] if lo is None or hi is None else [
        f"h.played_at >= to_timestamp({(int(lo) - 1) * seconds}) AND "
        f"h.played_at < to_timestamp({(int(hi) + 2) * seconds})"]
    if nulls:
        parts.append("h.played_at IS NULL")
    return "(" + (" OR ".join(parts) or "FALSE") + ")"


def refresh(con: duckdb.DuckDBPyConnection) -> int:
    """Rebuild the marked partitions of every aggregate from the rows, inside the caller's
    transaction, and clear the marks; returns the number of partitions rebuilt (0, and no
    work, when nothing was marked or the store has no aggregates).

    Its work follows the marked partitions, not the store: each scan is bounded by the marked
    hours (the hands and the aggregates' rows) and by the range of the hands' keys (the rows
    rebuilt), so that after an import of new hands DuckDB skips the older row groups. A write
    that marks an old partition and a new one scans what lies between them, and is as right."""
    if not present(con):
        return 0
    _dirty_table(con)
    marked = f"SELECT DISTINCT * FROM {DIRTY}"
    count, nulls, lo, hi = _span(con, f"SELECT hour FROM ({marked})")
    if count == 0:
        return 0
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE {_KEYS} AS
        SELECT h.hand_key FROM hands h
        SEMI JOIN ({marked}) d
             ON d.session_id IS NOT DISTINCT FROM h.session_id
            AND d.hour IS NOT DISTINCT FROM epoch_us(h.played_at) // {HOUR_US}
        WHERE {_played_within(lo, hi, nulls)}""")
    kept, _, first, last = _span(con, f"SELECT hand_key FROM {_KEYS}")
    for name, (select, key) in AGGREGATES.items():
        con.execute(f"""
            DELETE FROM {name} WHERE {_between("hour", lo, hi, nulls)} AND EXISTS (
                SELECT 1 FROM {DIRTY} d
                WHERE d.session_id IS NOT DISTINCT FROM {name}.session_id
                  AND d.hour IS NOT DISTINCT FROM {name}.hour)""")
        if kept:
            rows = (f"{_between(key, first, last, False)} AND "
                    f"{key} IN (SELECT hand_key FROM {_KEYS})")
            con.execute(f"INSERT INTO {name} {select.format(rows=rows)}")
    con.execute(f"DELETE FROM {DIRTY}")
    con.execute(f"DROP TABLE {_KEYS}")
    return count
