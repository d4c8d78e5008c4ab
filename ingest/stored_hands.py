"""Stored hands read back: the :class:`~ofc_core.hand.HandRecord` of stored rows (for
``ofc rescore``, for completing a hand seen in a second log, and for ``ofc score --db``), and
their stored results in the shape of ``ofc score --json``. ``ofc rescore`` reads most hands
back in bulk with :func:`ingest.stored_columns.read_store` instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import duckdb
import pyarrow as pa

from ofc_core.board import ROW_NAMES, Board
from ofc_core.cards import JOKER_SPELLINGS, BoardCard, Card, parse_cards
from ofc_core.evaluate import Strength
from ofc_core.hand import (
    NOTHING_REPORTED,
    Event,
    HandRecord,
    PlayerRecord,
    Reported,
    StreetPlay,
)
from ofc_core.scoring import HandResult, PairResult, PlayerResult, tidy_points

from .hand_tables import HAND_COLUMNS_ON_PLAYERS, ROW_NAMES_ON_PLAYERS, HandRow, utc_offsets


@lru_cache(maxsize=4096)
def _cards_from_text(text: str) -> tuple[BoardCard, ...]:
    return parse_cards(text)


def _fetch(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = con.execute(sql).to_arrow_table().to_pylist()
    return rows


LOG_TIME = """CASE WHEN utc_offset IS NULL
    THEN strftime(timezone('UTC', played_at), '%Y-%m-%dT%H:%M:%S+00:00')
    ELSE strftime(timezone('UTC', played_at) + utc_offset * INTERVAL 1 MINUTE,
                  '%Y-%m-%dT%H:%M:%S')
         || printf('%s%02d:%02d', CASE WHEN utc_offset < 0 THEN '-' ELSE '+' END,
                   abs(utc_offset) // 60, abs(utc_offset) % 60) END"""
"""A stored hand's ``played_at`` as ISO text on the log's own clock and offset (UTC when the
offset is not known); :func:`stored_time` in Python."""


def stored_time(played_at: str | None) -> str | None:
    """``played_at`` as :func:`load_records` reads it back from the store (:data:`LOG_TIME`):
    to the second, on the log's clock, with its offset in minutes.

    >>> stored_time("2026-11-29T10:00:00.5-05:00"), stored_time("2026-11-29T15:00:00Z")
    ('2026-11-29T10:00:00-05:00', '2026-11-29T15:00:00+00:00')
    """
    if played_at is None:
        return None
    minutes = utc_offsets([played_at])[0].as_py() or 0
    moment = datetime.fromisoformat(played_at).astimezone(UTC) + timedelta(minutes=minutes)
    sign, (hours, rest) = "-" if minutes < 0 else "+", divmod(abs(minutes), 60)
    return f"{moment.strftime('%Y-%m-%dT%H:%M:%S')}{sign}{hours:02d}:{rest:02d}"


def load_records(con: duckdb.DuckDBPyConnection,
                 keys: Sequence[int]) -> dict[int, tuple[HandRecord, HandRow]]:
    """The stored hands ``keys`` as records (with their key, import, line and raw text)."""
    if not keys:
        return {}
    con.register("_ofc_load_keys", pa.table({"hand_key": pa.array(list(keys), pa.int64())}))
    try:
        where = "WHERE hand_key IN (SELECT hand_key FROM _ofc_load_keys)"
        hands = _fetch(con, f"""
            SELECT hand_key, source, hand_id, session_id, match_id,
                   {LOG_TIME} AS played_at,
                   variant, ruleset, button, hero,
                   CASE WHEN stake_inferred THEN NULL ELSE stake END AS stake, currency,
                   import_id, raw, line,
                   variant_assumed
            FROM hands {where}""")
        players = _fetch(con, f"""
            SELECT hand_key, seat, log_seat, player, fantasyland, surrendered, reported_points,
                   stack, reported_raw_points, reported_fouled, reported_royalties,
                   reported_fl_next
            FROM hand_players {where} ORDER BY hand_key, seat""")
        rows = _fetch(con, f"SELECT hand_key, seat, row_name, cards FROM hand_rows {where}")
        streets = _fetch(con, f"""
            SELECT hand_key, seat, street, dealt, top, middle, bottom, discard
            FROM placements {where} ORDER BY hand_key, seat, street""")
        events = _fetch(con, f"""
            SELECT hand_key, idx, type, by_player, accepted, data
            FROM events {where} ORDER BY hand_key, idx""")
    finally:
        con.unregister("_ofc_load_keys")
    return assemble_records(hands, players, rows, streets, events)


def _optional_cards(text: str | None) -> tuple[BoardCard, ...] | None:
    return None if text is None else _cards_from_text(text)


def _reported(p: dict[str, Any]) -> Reported:
    """A stored player's :class:`~ofc_core.hand.Reported` (the room's result beyond points)."""
    values = (p.get("reported_raw_points"), p.get("reported_fouled"),
              p.get("reported_royalties"), p.get("reported_fl_next"))
    if all(v is None for v in values):
        return NOTHING_REPORTED
    return Reported(*values)


def assemble_records(hands: list[dict[str, Any]], players: list[dict[str, Any]],
                     rows: list[dict[str, Any]], streets: list[dict[str, Any]],
                     events: list[dict[str, Any]]) -> dict[int, tuple[HandRecord, HandRow]]:
    """Records from the stored rows of some hands (each list as fetched, one dict per row)."""
    boards: dict[tuple[int, int], dict[str, tuple[BoardCard, ...]]] = {}
    for r in rows:
        boards.setdefault((r["hand_key"], r["seat"]), {})[r["row_name"]] = \
            _cards_from_text(r["cards"])
    plays: dict[tuple[int, int], list[StreetPlay]] = {}
    for s in streets:
        plays.setdefault((s["hand_key"], s["seat"]), []).append(StreetPlay(
            _cards_from_text(s["top"]), _cards_from_text(s["middle"]),
            _cards_from_text(s["bottom"]), _optional_cards(s["dealt"]),
            _optional_cards(s["discard"])))
    seated: dict[int, list[PlayerRecord]] = {}
    for p in players:
        where = (p["hand_key"], p["seat"])
        b = boards.get(where, {})
        board = Board(b.get("top", ()), b.get("middle", ()), b.get("bottom", ()))
        st = plays.get(where)
        log_seat = p.get("log_seat")
        seated.setdefault(p["hand_key"], []).append(PlayerRecord(
            p["player"], p["seat"] if log_seat is None else log_seat, board,
            None if st is None else tuple(st),
            p["fantasyland"], p["surrendered"], p["reported_points"], p.get("stack"),
            _reported(p)))
    happened: dict[int, list[Event]] = {}
    for e in events:
        data = MappingProxyType(json.loads(e["data"])) if e["data"] else MappingProxyType({})
        happened.setdefault(e["hand_key"], []).append(
            Event(e["type"], e["by_player"] or "", e["accepted"], data))
    out: dict[int, tuple[HandRecord, HandRow]] = {}
    for h in hands:
        key = h["hand_key"]
        settings = json.loads(h["ruleset"])
        record = HandRecord(
            source=h["source"], hand_id=h["hand_id"], variant=h["variant"],
            players=tuple(seated.get(key, ())),
            rules=MappingProxyType(settings.get("overrides", {})), button=h["button"],
            session_id=h["session_id"], match_id=h["match_id"], played_at=h["played_at"],
            stake=h["stake"], currency=h["currency"], hero=h["hero"],
            events=tuple(happened.get(key, ())),
            variant_assumed=bool(h.get("variant_assumed")))
        out[key] = (record, HandRow(key, h["import_id"], h["line"], h["raw"]))
    return out


# --------------------------------------------------------------------------------------------
# Stored results


def _stored_result(record: HandRecord, players: list[dict[str, Any]],
                   rows: dict[int, dict[str, dict[str, Any]]],
                   pairs: list[dict[str, Any]]) -> HandResult:
    names = [p.name for p in record.players]
    vs: dict[int, dict[str, float]] = {}
    pair_results = []
    for q in pairs:
        vs.setdefault(q["seat"], {})[names[q["opp_seat"]]] = tidy_points(q["points"])
        pair_results.append(PairResult(
            q["player"], q["opponent"], (q["top_result"], q["middle_result"], q["bottom_result"]),
            q["row_points"], q["bonus"], q["royalties"], tidy_points(q["surrender"]),
            tidy_points(q["total"]), tidy_points(q["points"])))
    results = []
    for p in players:
        by_row = rows.get(p["seat"], {})
        top, middle, bottom = (by_row.get(r) or {} for r in ROW_NAMES)
        strengths = None if p["surrendered"] else (
            Strength(int(top["strength"])), Strength(int(middle["strength"])),
            Strength(int(bottom["strength"])))
        royalties = (int(top.get("royalty", 0)), int(middle.get("royalty", 0)),
                     int(bottom.get("royalty", 0)))
        stood_for = tuple((JOKER_SPELLINGS[name], Card.parse(card))
                          for row in (top, middle, bottom) if row.get("jokers")
                          for name, card in (part.split("=") for part in row["jokers"].split()))
        joker_rows = (bool(top.get("jokers")), bool(middle.get("jokers")),
                      bool(bottom.get("jokers")))
        results.append(PlayerResult(
            p["player"], p["fouled"], p["surrendered"], strengths, royalties,
            p["fantasyland_next"], tidy_points(p["raw_points"]), tidy_points(p["points"]),
            vs.get(p["seat"], {}), stood_for, joker_rows))
    return HandResult(tuple(results), tuple(pair_results))


def stored_results(con: duckdb.DuckDBPyConnection, chunk_hands: int = 20_000,
                   ) -> Iterator[tuple[HandRecord, HandResult, str | None, int | None]]:
    """Every stored hand with its stored result (as the scorer's :class:`HandResult`, read from
    the tables, not recomputed), the file it was imported from and its line, in import order."""
    start = None
    while True:
        query = ("SELECT hand_key FROM hands {} "
                 "ORDER BY import_id, coalesce(line, 0), hand_key LIMIT ?")
        if start is None:
            keys = [k for (k,) in con.execute(query.format(""), [chunk_hands]).fetchall()]
        else:
            keys = [k for (k,) in con.execute(query.format(
                "WHERE (import_id, coalesce(line, 0), hand_key) > (?, ?, ?)"), [*start, chunk_hands]
            ).fetchall()]
        if not keys:
            return
        loaded = load_records(con, keys)
        con.register("_ofc_res_keys", pa.table({"hand_key": pa.array(keys, pa.int64())}))
        try:
            where = "WHERE hand_key IN (SELECT hand_key FROM _ofc_res_keys)"
            copies = ", ".join((*HAND_COLUMNS_ON_PLAYERS, *ROW_NAMES_ON_PLAYERS))
            players = _fetch(con, f"SELECT * EXCLUDE ({copies}) FROM hand_players {where} "
                                  "ORDER BY hand_key, seat")
            rows = _fetch(con, f"SELECT * FROM hand_rows {where}")
            pairs = _fetch(con, f"SELECT * FROM pairs {where} ORDER BY hand_key, seat, opp_seat")
            files = dict(con.execute(
                f"SELECT h.hand_key, i.path FROM hands h JOIN imports i USING (import_id) {where}"
            ).fetchall())
        finally:
            con.unregister("_ofc_res_keys")
        by_hand_players: dict[int, list[dict[str, Any]]] = {}
        for p in players:
            by_hand_players.setdefault(p["hand_key"], []).append(p)
        by_hand_rows: dict[int, dict[int, dict[str, dict[str, Any]]]] = {}
        for r in rows:
            by_hand_rows.setdefault(r["hand_key"], {}).setdefault(r["seat"], {})[r["row_name"]] = r
        by_hand_pairs: dict[int, list[dict[str, Any]]] = {}
        for q in pairs:
            by_hand_pairs.setdefault(q["hand_key"], []).append(q)
        for key in keys:
            record, row = loaded[key]
            result = _stored_result(record, by_hand_players.get(key, []),
                                    by_hand_rows.get(key, {}), by_hand_pairs.get(key, []))
            yield record, result, files.get(key), row.line
        last = loaded[keys[-1]][1]
        start = (last.import_id, last.line or 0, last.hand_key)
