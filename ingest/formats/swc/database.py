"""FPDB's SQLite database: the tables ``http_capture_ofc.import_ofc_hand`` writes.

``HttpOFCHands`` has one row a hand, the hand whole in ``rawJson`` (``OFCHand.to_dict()``:
``players`` with their final rows and ``points``, ``rounds`` with each player's ``layout``
after every change and the cards ``active`` in hand, ``result`` with ``points_settled`` and
the winners' ``collections``); ``HttpOFCPlayers`` and ``HttpOFCRounds`` repeat parts of it.
Only FPDB's category is kept (``variant``: ``ofc``, ``ofcp``, ``ofcp_27``), not the game
code, so the preset is read from the hand where it shows (:mod:`.record`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from .. import LogFile, ParsedHand, ParseIssue, sqlite_db
from .capture import ROW_KEYS, Capture, Refused, Seen, known
from .record import items

HAND_TABLES = frozenset({"HttpOFCHands", "HttpOFCPlayers", "HttpOFCRounds"})


def _round_snapshot(entry: Mapping[str, Any]) -> dict[str, Seen]:
    layout = entry.get("layout") or {}
    top, middle, bottom = (known(layout.get(k)) for k in ROW_KEYS)
    return {str(entry.get("player")): Seen((top, middle, bottom), known(entry.get("active")))}


def capture_of_row(row: Mapping[str, Any], players: list[Mapping[str, Any]],
                   rounds: list[Mapping[str, Any]]) -> Capture:
    """The capture held by one ``HttpOFCHands`` row (its ``rawJson``), its players and
    rounds."""
    raw = json.dumps({"HttpOFCHands": dict(row), "HttpOFCPlayers": [dict(p) for p in players],
                      "HttpOFCRounds": [dict(r) for r in rounds]}, ensure_ascii=False,
                     default=str)
    hand_id = str(row["siteHandNo"])
    data = json.loads(row["rawJson"] or "{}")
    game: str | None = row["variant"] or (data.get("variant") or {}).get("variant")
    if row["deuceToSeven"]:
        game = "ofcp_27"
    listed = data.get("players") or []
    seats = [(str(p.get("name")), int(p["seat_idx"])) for p in listed
             if isinstance(p, dict) and p.get("seat_idx") is not None]
    capture = Capture(hand_id, int(row["id"]), raw, game, seats, data.get("dealer_idx"),
                      row["tableName"] or None, row["startTime"] or data.get("timestamp"))
    capture.snapshots = [_round_snapshot(r) for r in data.get("rounds") or []
                         if isinstance(r, dict)]
    final = {}
    for p in listed:
        if isinstance(p, dict):
            top, middle, bottom = (known(p.get(k)) for k in ROW_KEYS)
            final[str(p.get("name"))] = Seen((top, middle, bottom))
    capture.snapshots.append({n: s for n, s in final.items() if s.placed})
    result = data.get("result") or {}
    capture.finished = bool(result.get("points_settled"))
    if not capture.finished:
        capture.followed_by = "another hand: FPDB stored it without a showdown"
    capture.points = {str(p.get("name")): float(p.get("points") or 0) for p in listed
                      if isinstance(p, dict)} if capture.finished else None
    capture.money = [(str(c.get("player")), float(c.get("pot") or 0), None)
                     for c in result.get("collections") or [] if isinstance(c, dict)]
    return capture


def _captures(file: LogFile) -> list[Capture | ParseIssue]:
    with sqlite_db.open_readonly(file) as con:
        hands = con.execute("SELECT * FROM HttpOFCHands ORDER BY id").fetchall()
        players: dict[int, list[Any]] = {}
        for p in con.execute("SELECT * FROM HttpOFCPlayers ORDER BY id"):
            players.setdefault(p["ofcHandId"], []).append(p)
        rounds: dict[int, list[Any]] = {}
        for r in con.execute("SELECT * FROM HttpOFCRounds ORDER BY id"):
            rounds.setdefault(r["ofcHandId"], []).append(r)
    out: list[Capture | ParseIssue] = []
    for row in hands:
        try:
            out.append(capture_of_row(row, players.get(row["id"], []),
                                      rounds.get(row["id"], [])))
        except (Refused, ValueError, TypeError, KeyError, AttributeError) as exc:
            out.append(ParseIssue(int(row["id"]), str(row["siteHandNo"]),
                                  f"hand {row['siteHandNo']!r}: cannot read its rawJson ({exc})",
                                  str(row["rawJson"])))
    return out


def parse_database(file: LogFile) -> Iterator[ParsedHand | ParseIssue]:
    """Every hand of FPDB's database, by row id (the row id is the issue's line)."""
    return items(_captures(file))
