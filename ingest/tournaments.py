"""Tournaments in the store: what the importer writes (each tournament hand's
``hand_tournaments`` row, each summary's ``tournament_summaries`` row) and the derived tables
every writer of hands rebuilds in its transaction (:func:`refresh`): ``tournament_chips`` (a
row per tournament hand and player, in chips), ``tournament_players`` (a row per tournament
and player: place, prize, profit) and ``tournament_series`` (a knockout's series). docs/schema.md
("Tournaments") describes them.

The derived tables are small (a tournament is hundreds of hands) and rebuilt whole; a store
without tournaments pays one count of an empty table per write.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import duckdb

from ofc_core.hand import HandRecord
from ofc_core.tournament import (
    Kind,
    LastHand,
    TournamentSummary,
    chip_places,
    knockout_place,
)

from .formats import ParsedSummary
from .formats.ofc_tournament import summary_from_dict
from .reports import Counts, HandIssue

DERIVED = ("tournament_chips", "tournament_players", "tournament_series",
           "tournament_partitions")


def record_hands(con: duckdb.DuckDBPyConnection, records: Iterable[HandRecord]) -> int:
    """Each tournament hand's row of ``hand_tournaments`` written (replacing an earlier one of
    the same hand); returns how many."""
    rows = [(r.source, r.hand_id, t.id, t.name, t.kind.value, t.level, t.chips_per_point,
             t.table, t.round) for r in records if (t := r.tournament) is not None]
    if rows:
        con.executemany("INSERT OR REPLACE INTO hand_tournaments VALUES (?, ?, ?, ?, ?, ?, ?, "
                        "?, ?)", rows)
    return len(rows)


def store_summary(con: duckdb.DuckDBPyConnection, parsed: ParsedSummary, import_id: int,
                  counts: Counts) -> None:
    """A summary record kept (replacing an earlier import of the same tournament), with a
    note for the import's report."""
    s = parsed.summary
    con.execute("INSERT OR REPLACE INTO tournament_summaries VALUES (?, ?, ?, ?, "
                "CAST(? AS TIMESTAMPTZ), ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [s.source, s.id, s.name, s.kind.value, s.started_at, s.buy_in, s.fee,
                 s.currency, s.starting_stack, s.prize_pool, s.players, import_id,
                 parsed.line, parsed.raw])
    refresh(con)
    counts.notes.append(HandIssue(parsed.line, s.id, f"tournament summary {s.id!r} stored "
                                  f"({len(s.finishes)} places, {len(s.series)} series)"))


CHIPS_SQL = """
INSERT INTO tournament_chips
SELECT t.source, t.tournament_id, t.kind, h.hand_key, h.hand_id, h.played_at, t.table_id,
       t.level, t.chips_per_point, t.round, h.match_id, hp.player, hp.seat,
       row_number() OVER (PARTITION BY t.source, t.tournament_id, hp.player
                          ORDER BY h.played_at, h.hand_key)::INTEGER,
       hp.points,
       round(hp.stack * t.chips_per_point, 6),
       round(hp.points * t.chips_per_point, 6),
       round((hp.stack + hp.points) * t.chips_per_point, 6)
FROM hand_tournaments t
JOIN hands h ON h.source = t.source AND h.hand_id = t.hand_id
JOIN hand_players hp ON hp.hand_key = h.hand_key
"""


PARTITIONS_SQL = """
INSERT INTO tournament_partitions
WITH keys AS (SELECT DISTINCT hand_key FROM tournament_chips),
     p AS (SELECT DISTINCT session_id, epoch_us(played_at) // 3600000000 AS hour
           FROM hands WHERE hand_key IN (SELECT hand_key FROM keys))
SELECT p.session_id, p.hour, EXISTS (
    SELECT 1 FROM hands h WHERE h.session_id IS NOT DISTINCT FROM p.session_id
      AND epoch_us(h.played_at) // 3600000000 IS NOT DISTINCT FROM p.hour
      AND h.hand_key NOT IN (SELECT hand_key FROM keys))
FROM p
"""
"""The aggregates' partitions (:mod:`ingest.aggregates`) holding tournament hands."""


def _summaries(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], TournamentSummary]:
    out: dict[tuple[str, str], TournamentSummary] = {}
    for (raw,) in con.execute("SELECT raw FROM tournament_summaries").fetchall():
        s = summary_from_dict(json.loads(raw))
        out[(s.source, s.id)] = s
    return out


def refresh(con: duckdb.DuckDBPyConnection) -> None:
    """Rebuild the derived tournament tables from the stored hands and summaries, inside the
    caller's transaction (nothing to do when the store has no tournament at all)."""
    have = con.execute("SELECT (SELECT count(*) FROM hand_tournaments) + "
                       "(SELECT count(*) FROM tournament_summaries) + "
                       "(SELECT count(*) FROM tournament_players)").fetchone()
    if not have or not have[0]:
        return
    for table in DERIVED:
        con.execute(f"DELETE FROM {table}")
    con.execute(CHIPS_SQL)
    con.execute(PARTITIONS_SQL)
    summaries = _summaries(con)
    hands = con.execute("""
        SELECT source, tournament_id, any_value(kind), CAST(min(played_at) AS VARCHAR), player,
               count(*),
               arg_max(stack_before, (played_at, hand_key)),
               arg_max(stack_after, (played_at, hand_key)),
               max(dense) FROM (
            SELECT *, dense_rank() OVER (PARTITION BY source, tournament_id
                                         ORDER BY played_at, hand_key) AS dense
            FROM tournament_chips)
        GROUP BY ALL""").fetchall()
    names = dict(con.execute("SELECT source || chr(0) || tournament_id, any_value(name) "
                             "FROM hand_tournaments WHERE name IS NOT NULL GROUP BY 1"
                             ).fetchall())
    series = _series(con, summaries)
    _insert(con, "tournament_series", series)
    _insert(con, "tournament_players", _players(hands, summaries, series, names))


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: Sequence[tuple[Any, ...]]) -> None:
    if rows:
        marks = ", ".join("?" * len(rows[0]))
        con.executemany(f"INSERT INTO {table} VALUES ({marks})", list(rows))


def _series(con: duckdb.DuckDBPyConnection,
            summaries: dict[tuple[str, str], TournamentSummary]) -> list[tuple[Any, ...]]:
    """A knockout's series: the summary's when it gives them, else counted from the match
    ends of its hands (a series is over when one of the pair has won two)."""
    out: list[tuple[Any, ...]] = []
    for (source, tid), s in summaries.items():
        out += [(source, tid, x.round, *x.players, *x.wins, x.winner, x.forfeit,
                 ",".join(x.matches), "summary") for x in s.series]
    played = con.execute("""
        SELECT c.source, c.tournament_id, c.round, c.match_id,
               list_sort(list(DISTINCT c.player)) AS pair,
               any_value(e.by_player) AS winner,
               epoch_us(min(c.played_at)) AS started
        FROM tournament_chips c
        LEFT JOIN events e ON e.hand_key = c.hand_key AND e.type = 'match_end'
        WHERE c.kind = 'knockout' AND c.match_id IS NOT NULL
        GROUP BY ALL ORDER BY started""").fetchall()
    counted: dict[tuple[str, str, int, str, str], list[Any]] = {}
    for source, tid, round_, match_id, pair, winner, _ in played:
        if (source, tid) in summaries and summaries[(source, tid)].series or len(pair) != 2:
            continue
        row = counted.setdefault((source, tid, round_ or 1, pair[0], pair[1]), [0, 0, []])
        if winner in pair:
            row[pair.index(winner)] += 1
        row[2].append(match_id)
    for (source, tid, round_, a, b), (wa, wb, matches) in counted.items():
        winner = a if wa >= 2 else b if wb >= 2 else None
        out.append((source, tid, round_, a, b, wa, wb, winner, False, ",".join(matches),
                    "hands"))
    return out


def _players(hands: list[tuple[Any, ...]], summaries: dict[tuple[str, str], TournamentSummary],
             series: list[tuple[Any, ...]], names: dict[str, str]) -> list[tuple[Any, ...]]:
    by_t: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for source, tid, kind, started, player, count, before, after, order in hands:
        by_t.setdefault((source, tid), {})[player] = {
            "kind": kind, "started": started, "hands": count,
            "last": LastHand(order, before or 0.0, after or 0.0) if after is not None else None}
    for key, known in summaries.items():
        seen = by_t.setdefault(key, {})
        for f in known.finishes:
            seen.setdefault(f.player, {"kind": known.kind.value, "started": None, "hands": 0,
                                       "last": None})
    out: list[tuple[Any, ...]] = []
    for key, players in by_t.items():
        s: TournamentSummary | None = summaries.get(key)
        kind = s.kind.value if s else next(iter(players.values()))["kind"]
        places, place_from = _places(key, kind, players, s, series)
        entrants = (s.players if s and s.players else None) or len(players)
        name = s.name if s and s.name else names.get(f"{key[0]}\0{key[1]}")
        prizes = {f.player: f.prize for f in s.finishes} if s else {}
        started = min((p["started"] for p in players.values() if p["started"] is not None),
                      default=None)
        if s and s.started_at:
            started = s.started_at
        for player, p in players.items():
            prize = prizes.get(player, 0.0) if s and s.finishes else None
            cost = None if s is None or s.buy_in is None else s.buy_in + (s.fee or 0.0)
            profit = None if cost is None else (prize or 0.0) - cost
            last = p["last"]
            out.append((key[0], key[1], name, kind, started, player, entrants, p["hands"],
                        places.get(player), place_from, prize,
                        None if s is None else s.buy_in, None if s is None else s.fee,
                        None if s is None else s.currency, profit,
                        None if last is None else last.stack_after))
    return out


def _places(key: tuple[str, str], kind: str, players: dict[str, dict[str, Any]],
            s: TournamentSummary | None, series: list[tuple[Any, ...]],
            ) -> tuple[dict[str, int], str | None]:
    if s is not None and s.finishes:
        return {f.player: f.place for f in s.finishes}, "summary"
    if kind == Kind.KNOCKOUT.value:
        mine = [x for x in series if (x[0], x[1]) == key and x[7] is not None]
        if not mine:
            return {}, None
        rounds = max(x[2] for x in mine)
        lost = {(x[4] if x[7] == x[3] else x[3]): x[2] for x in mine}
        won_final = [x[7] for x in mine if x[2] == rounds]
        places = {p: knockout_place(r, rounds) for p, r in lost.items()}
        if won_final:
            places[won_final[0]] = 1
        return places, "hands"
    last = {p: v["last"] for p, v in players.items() if v["last"] is not None}
    return (chip_places(last), "hands") if last else ({}, None)


__all__ = ["DERIVED", "record_hands", "refresh", "store_summary"]
