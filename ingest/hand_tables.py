"""Hand records and their scores as the rows of the store's tables, and back.

:func:`hand_tables` turns scored :class:`~ofc_core.hand.HandRecord` values into one Arrow table
per store table (bulk-inserted with ``INSERT INTO ... BY NAME SELECT * FROM arrow``);
:func:`load_records` rebuilds the records from the stored rows (for ``ofc rescore``, for
completing a hand seen in a second log, and for ``ofc score --db``). The scores come from
``ofc_core.batch.score_records``; nothing here scores.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa

from ofc_core.board import ROWS, Board
from ofc_core.cards import DECK, Card, parse_cards
from ofc_core.evaluate import category_of, hand_name
from ofc_core.hand import Event, HandRecord, PlayerRecord, StreetPlay
from ofc_core.rules import resolve
from ofc_core.scoring import HandResult, PairResult, PlayerResult

MAX_SEATS = 4
ROW_NAMES = tuple(r.value for r in ROWS)
HAND_TABLES = ("hands", "hand_players", "hand_rows", "placements", "pairs", "events")
"""Every table keyed by ``hand_key``, ``hands`` first."""

_CARD_TEXT: dict[Card, str] = {c: str(c) for c in DECK}


def cards_text(cards: Sequence[Card] | None) -> str | None:
    """``'Qh Qd 2c'``; ``None`` stays ``None`` (hidden cards)."""
    if cards is None:
        return None
    return " ".join([_CARD_TEXT[c] for c in cards])


@lru_cache(maxsize=4096)
def _cards_from_text(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


@lru_cache(maxsize=1024)
def ruleset_columns(variant: str, rules_json: str) -> tuple[str, str, str]:
    """(settings JSON, label, scoring) of a hand's resolved ruleset; the log's own overrides are
    kept under ``"overrides"`` so the hand can be rebuilt and rescored later."""
    overrides = json.loads(rules_json)
    ruleset = resolve(variant, overrides)
    settings = ruleset.settings()
    if overrides:
        settings["overrides"] = overrides
    return json.dumps(settings, sort_keys=True), ruleset.label, ruleset.scoring.value


def rules_json(record: HandRecord) -> str:
    return json.dumps(dict(record.rules), sort_keys=True)


@lru_cache(maxsize=1 << 16)
def _strength_names(strength: int) -> tuple[str, str]:
    return category_of(strength).name.lower(), hand_name(strength)


@dataclass(frozen=True)
class HandRow:
    """What the importer knows of a hand beyond its record: its key, import and text."""

    hand_key: int
    import_id: int
    line: int | None
    raw: str | None


def _masked(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return values[mask]


def hand_tables(records: Sequence[HandRecord], rows: Sequence[HandRow],
                scores: Any) -> dict[str, pa.Table]:
    """The rows of every hand table for ``records`` (aligned with ``rows`` and ``scores``)."""
    n = len(records)
    count = np.asarray(scores.player_count, dtype=np.int64)
    keys = np.fromiter((r.hand_key for r in rows), dtype=np.int64, count=n)
    seat_mask = np.arange(MAX_SEATS)[None, :] < count[:, None]
    hand_of_player = np.repeat(keys, count)
    seat_of_player = np.nonzero(seat_mask)[1].astype(np.int8)
    first = np.fromiter((r.first_to_act for r in records), dtype=np.int64, count=n)

    names = np.empty((n, MAX_SEATS), dtype=object)
    fantasyland: list[bool] = []
    fl_cards: list[int | None] = []
    reported: list[float | None] = []
    row_cards: list[str | None] = []
    pl_cols: dict[str, list[Any]] = {k: [] for k in ("hand_key", "seat", "street", "dealt", "top",
                                                     "middle", "bottom", "discard")}
    ev_cols: dict[str, list[Any]] = {k: [] for k in ("hand_key", "idx", "type", "by_player",
                                                     "accepted", "data")}
    for h, rec in enumerate(records):
        key = int(keys[h])
        for seat, p in enumerate(rec.players):
            names[h, seat] = p.name
            fantasyland.append(p.fantasyland)
            reported.append(p.reported_points)
            board = p.board
            row_cards += [cards_text(board.top), cards_text(board.middle),
                          cards_text(board.bottom)]
            streets = p.streets
            known = p.fantasyland and streets and streets[0].dealt is not None
            fl_cards.append(len(streets[0].dealt) if known else None)  # type: ignore[index, arg-type]
            if streets:
                for k, s in enumerate(streets, start=1):
                    pl_cols["hand_key"].append(key)
                    pl_cols["seat"].append(seat)
                    pl_cols["street"].append(k)
                    pl_cols["dealt"].append(cards_text(s.dealt))
                    pl_cols["top"].append(cards_text(s.top))
                    pl_cols["middle"].append(cards_text(s.middle))
                    pl_cols["bottom"].append(cards_text(s.bottom))
                    pl_cols["discard"].append(cards_text(s.discard))
        for idx, e in enumerate(rec.events):
            ev_cols["hand_key"].append(key)
            ev_cols["idx"].append(idx)
            ev_cols["type"].append(e.type)
            ev_cols["by_player"].append(e.by or None)
            ev_cols["accepted"].append(e.accepted)
            ev_cols["data"].append(json.dumps(dict(e.data), sort_keys=True, ensure_ascii=False)
                                   if e.data else None)

    points = scores.points[seat_mask]
    reported_arr = np.array([np.nan if r is None else r for r in reported], dtype=np.float64)
    differ = ~np.isnan(reported_arr) & (np.abs(reported_arr - points) > 1e-9)
    hand_differ = np.zeros(n, dtype=bool)
    np.logical_or.at(hand_differ, np.repeat(np.arange(n), count), differ)
    surrendered = scores.surrendered[seat_mask]
    royalties = scores.royalties[seat_mask].astype(np.int32)
    position = (seat_of_player.astype(np.int64) - np.repeat(first, count)) % np.repeat(count, count)

    hand_players = pa.table({
        "hand_key": hand_of_player,
        "seat": seat_of_player,
        "player": pa.array(names[seat_mask].tolist(), pa.string()),
        "position": position.astype(np.int8),
        "fantasyland": np.array(fantasyland, dtype=bool),
        "fl_cards": pa.array(fl_cards, pa.int8()),
        "surrendered": surrendered,
        "fouled": scores.fouled[seat_mask],
        "foul_top_middle": scores.foul_top_middle[seat_mask],
        "foul_middle_bottom": scores.foul_middle_bottom[seat_mask],
        "royalties": royalties.sum(axis=1).astype(np.int32),
        "fantasyland_next": scores.fantasyland_next[seat_mask].astype(np.int8),
        "raw_points": scores.raw_points[seat_mask].astype(np.float64),
        "points": points.astype(np.float64),
        "reported_points": pa.array(reported, pa.float64()),
        "points_differ": differ,
    })

    strengths = scores.strengths[seat_mask].astype(np.int64)  # (players, 3)
    flat_strength = strengths.ravel()
    valid = ~np.repeat(surrendered, 3)
    uniq, inverse = np.unique(flat_strength[valid], return_inverse=True)
    named = [_strength_names(int(s)) for s in uniq]
    category = np.full(flat_strength.shape, None, dtype=object)
    hname = np.full(flat_strength.shape, None, dtype=object)
    category[valid] = np.array([c for c, _ in named] + [None], dtype=object)[:-1][inverse]
    hname[valid] = np.array([nm for _, nm in named] + [None], dtype=object)[:-1][inverse]
    hand_rows = pa.table({
        "hand_key": np.repeat(hand_of_player, 3),
        "seat": np.repeat(seat_of_player, 3),
        "row_name": pa.array(list(ROW_NAMES) * len(hand_of_player), pa.string()),
        "cards": pa.array(row_cards, pa.string()),
        "strength": pa.array(flat_strength.astype(np.int32), mask=~valid),
        "category": pa.array(category.tolist(), pa.string()),
        "hand_name": pa.array(hname.tolist(), pa.string()),
        "royalty": royalties.ravel(),
    })

    pair_mask = (seat_mask[:, :, None] & seat_mask[:, None, :]
                 & ~np.eye(MAX_SEATS, dtype=bool)[None, :, :])
    hh, ii, jj = np.nonzero(pair_mask)
    results = scores.rows[pair_mask].astype(np.int8)  # (pairs, 3)
    won = (results == 1).sum(axis=1).astype(np.int8)
    lost = (results == -1).sum(axis=1).astype(np.int8)
    pairs = pa.table({
        "hand_key": keys[hh],
        "seat": ii.astype(np.int8),
        "opp_seat": jj.astype(np.int8),
        "player": pa.array(names[hh, ii].tolist(), pa.string()),
        "opponent": pa.array(names[hh, jj].tolist(), pa.string()),
        "top_result": results[:, 0],
        "middle_result": results[:, 1],
        "bottom_result": results[:, 2],
        "rows_won": won,
        "rows_lost": lost,
        "row_points": scores.row_points[pair_mask].astype(np.int32),
        "bonus": scores.bonus[pair_mask].astype(np.int32),
        "scoop": won == 3,
        "royalties": scores.royalties_net[pair_mask].astype(np.int32),
        "surrender": scores.surrender[pair_mask].astype(np.float64),
        "total": scores.total[pair_mask].astype(np.float64),
        "points": scores.capped[pair_mask].astype(np.float64),
    })

    hands = _hands_table(records, rows, keys, count, first, hand_differ)
    placements = pa.table({
        "hand_key": pa.array(pl_cols["hand_key"], pa.int64()),
        "seat": pa.array(pl_cols["seat"], pa.int8()),
        "street": pa.array(pl_cols["street"], pa.int8()),
        **{k: pa.array(pl_cols[k], pa.string())
           for k in ("dealt", "top", "middle", "bottom", "discard")},
    })
    events = pa.table({
        "hand_key": pa.array(ev_cols["hand_key"], pa.int64()),
        "idx": pa.array(ev_cols["idx"], pa.int16()),
        "type": pa.array(ev_cols["type"], pa.string()),
        "by_player": pa.array(ev_cols["by_player"], pa.string()),
        "accepted": pa.array(ev_cols["accepted"], pa.bool_()),
        "data": pa.array(ev_cols["data"], pa.string()),
    })
    return {"hands": hands, "hand_players": hand_players, "hand_rows": hand_rows,
            "placements": placements, "pairs": pairs, "events": events}


def _hands_table(records: Sequence[HandRecord], rows: Sequence[HandRow], keys: np.ndarray,
                 count: np.ndarray, first: np.ndarray, differ: np.ndarray) -> pa.Table:
    cols: dict[str, list[Any]] = {k: [] for k in (
        "source", "hand_id", "session_id", "match_id", "played_at", "variant", "ruleset",
        "ruleset_label", "scoring", "button", "hero", "stake", "currency", "import_id", "raw",
        "line")}
    for rec, row in zip(records, rows, strict=True):
        settings, label, scoring = ruleset_columns(rec.variant, rules_json(rec))
        cols["source"].append(rec.source)
        cols["hand_id"].append(rec.hand_id)
        cols["session_id"].append(rec.session_id)
        cols["match_id"].append(rec.match_id)
        cols["played_at"].append(rec.played_at)
        cols["variant"].append(rec.variant)
        cols["ruleset"].append(settings)
        cols["ruleset_label"].append(label)
        cols["scoring"].append(scoring)
        cols["button"].append(rec.button)
        cols["hero"].append(rec.hero)
        cols["stake"].append(rec.stake)
        cols["currency"].append(rec.currency)
        cols["import_id"].append(row.import_id)
        cols["raw"].append(row.raw)
        cols["line"].append(row.line)
    types = {"stake": pa.float64(), "import_id": pa.int32(), "line": pa.int32()}
    table = {"hand_key": keys}
    table.update({k: pa.array(v, types.get(k, pa.string())) for k, v in cols.items()})
    table["player_count"] = count.astype(np.int8)
    table["first_to_act"] = first.astype(np.int8)
    table["points_differ"] = differ
    return pa.table(table)


def insert_tables(con: duckdb.DuckDBPyConnection, tables: Mapping[str, pa.Table]) -> None:
    """Bulk-insert Arrow tables by column name (the caller owns the transaction)."""
    for name, table in tables.items():
        if table.num_rows == 0:
            continue
        view = f"_ofc_new_{name}"
        con.register(view, table)
        try:
            con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM {view}")
        finally:
            con.unregister(view)


def delete_hands(con: duckdb.DuckDBPyConnection, keys: Sequence[int],
                 tables: Sequence[str] = HAND_TABLES) -> None:
    """Delete every row of these hands from ``tables`` (the caller owns the transaction)."""
    if not keys:
        return
    con.register("_ofc_del_keys", pa.table({"hand_key": pa.array(list(keys), pa.int64())}))
    try:
        for name in tables:
            con.execute(f"DELETE FROM {name} WHERE hand_key IN "
                        "(SELECT hand_key FROM _ofc_del_keys)")
    finally:
        con.unregister("_ofc_del_keys")


# --------------------------------------------------------------------------------------------
# Rebuilding records from the store


def _fetch(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    return con.execute(sql).to_arrow_table().to_pylist()


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
                   strftime(timezone('UTC', played_at), '%Y-%m-%dT%H:%M:%S+00:00') AS played_at,
                   variant, ruleset, button, hero, stake, currency, import_id, raw, line
            FROM hands {where}""")
        players = _fetch(con, f"""
            SELECT hand_key, seat, player, fantasyland, surrendered, reported_points
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


def _optional_cards(text: str | None) -> tuple[Card, ...] | None:
    return None if text is None else _cards_from_text(text)


def assemble_records(hands: list[dict[str, Any]], players: list[dict[str, Any]],
                     rows: list[dict[str, Any]], streets: list[dict[str, Any]],
                     events: list[dict[str, Any]]) -> dict[int, tuple[HandRecord, HandRow]]:
    """Records from the stored rows of some hands (each list as fetched, one dict per row)."""
    boards: dict[tuple[int, int], dict[str, tuple[Card, ...]]] = {}
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
        seated.setdefault(p["hand_key"], []).append(PlayerRecord(
            p["player"], p["seat"], board, None if st is None else tuple(st),
            p["fantasyland"], p["surrendered"], p["reported_points"]))
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
            events=tuple(happened.get(key, ())))
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
        vs.setdefault(q["seat"], {})[names[q["opp_seat"]]] = _tidy(q["points"])
        pair_results.append(PairResult(
            q["player"], q["opponent"], (q["top_result"], q["middle_result"], q["bottom_result"]),
            q["row_points"], q["bonus"], q["royalties"], _tidy(q["surrender"]),
            _tidy(q["total"]), _tidy(q["points"])))
    results = []
    for p in players:
        by_row = rows.get(p["seat"], {})
        strengths = None if p["surrendered"] else tuple(by_row[r]["strength"] for r in ROW_NAMES)
        royalties = tuple(by_row[r]["royalty"] if r in by_row else 0 for r in ROW_NAMES)
        results.append(PlayerResult(
            p["player"], p["fouled"], p["surrendered"], strengths, royalties,  # type: ignore[arg-type]
            p["fantasyland_next"], _tidy(p["raw_points"]), _tidy(p["points"]),
            vs.get(p["seat"], {})))
    return HandResult(tuple(results), tuple(pair_results))


def _tidy(value: float) -> float:
    return int(value) if float(value).is_integer() else value


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
            players = _fetch(con, f"SELECT * FROM hand_players {where} ORDER BY hand_key, seat")
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
