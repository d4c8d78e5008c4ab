"""Fixtures in the shapes real OFC logs come in, generated from our own simulated hands.

Nothing here is copied from the other projects: each writer follows the format as their sources
define it (FPDB ``jejellyroll-fr/fpdb-3``: ``swc_http_adapter.py``, ``http_capture_ofc.py``,
``http_capture_archive.py``, ``http_capture_models.py``; the pineapple app
``giovinco0807/pineapple``: ``backend/db/schema.sql``, ``backend/db/writer.py``,
``backend/main.py``), and the hands are ours (the simulator's, with the room's reported points).

- :func:`swc_frames` turns a hand into the websocket frames SwC sends (snapshots of the table
  as each player places, the capturing player's cards in hand, the showdown with the settled
  points and the money message) and :func:`raw_lines` into ``raw_messages.jsonl`` lines;
- :func:`hand_envelope` into FPDB's ``hand_<id>.json``;
- :func:`write_fpdb_sqlite` into FPDB's ``HttpOFC*`` tables;
- :func:`write_app_sqlite` into the pineapple app's ``ofc_logs.db``.
"""

from __future__ import annotations

import json
import random
import sqlite3
import zlib
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from ofc_core.cards import Card
from ofc_core.hand import HandRecord
from ofc_core.play.engine import Table
from ofc_core.play.policies import policy
from ofc_core.play.sessions import SessionSpec, play_session
from ofc_core.rules import resolve
from ofc_core.scoring import score_hand
from ofc_core.settlement import table_stakes

CODES = {"regular": 70, "turbo": 73, "pineapple": 74, "progressive-pineapple": 75,
         "2-7-pineapple": 76}
LABELS = {70: "OFC", 73: "Turbo OFC", 74: "OFC/P", 75: "OFC/P Progressive", 76: "OFC/P 2-7",
          77: "OFC/P Variant", 84: "OFC Variant"}
CATEGORY = {70: "ofc", 73: "ofc", 74: "ofcp", 75: "ofcp", 76: "ofcp_27", 77: "ofcp", 84: "ofc"}
ROWS = ("top", "middle", "bottom")
START = datetime(2026, 11, 20, 18, 0, tzinfo=timezone.utc)


def simulated(variant: str, players: int, hands: int, seed: int, *,
              error_rate: float = 0.0, rules: dict[str, Any] | None = None,
              session: str = "swc") -> list[HandRecord]:
    """Hands our simulator plays (players who chase Fantasyland), the room's points wrong on a
    share of them.

    A joker table's deck has its jokers (X1, X2), as the pineapple app's."""
    names = ("Hero", "Villain 1", "Villain 2", "Villain 3")[:players]
    table = Table(resolve(variant, rules), names, tuple(policy("chaser") for _ in names))
    spec = SessionSpec(session, hands=hands, room_error_rate=error_rate, stake=0.5,
                       currency="R")
    return play_session(table, spec, random.Random(seed))


# --------------------------------------------------------------------------------------------
# SwC frames


def swc_hand_id(record: HandRecord) -> int:
    """The SwC hand id (``gi``) a simulated hand gets: its number, apart per session."""
    session, number = record.hand_id.rsplit("-", 1)
    return 900000 + 1000 * (zlib.crc32(session.encode()) % 1000) + int(number)


def _ids(cards: Sequence[Card]) -> list[int]:
    return [c.index for c in cards]


def _d(rows: list[list[Card]], active: Sequence[Card] = ()) -> str:
    """A seat's cards as SwC writes them: ids, then how many on top, middle, bottom."""
    ids = _ids(rows[0] + rows[1] + rows[2]) + _ids(active)
    if not ids:
        return ""
    return ";".join(map(str, ids)) + "-" + "-".join(str(len(r)) for r in rows)


def _order(record: HandRecord) -> list[int]:
    n = len(record.players)
    first = record.first_to_act
    return [(first + i) % n for i in range(n)]


def swc_frames(record: HandRecord, *, code: int | None = None, hero: int = 0,
               table: str = "ofc-table-1", reorder_rows: bool = False) -> list[dict[str, Any]]:
    """The ``gameState`` snapshots SwC sends for one hand, in order (the last one is the
    showdown). ``hero`` is the capturing seat (its cards in hand are shown); ``reorder_rows``
    shows the rows sorted by card in every other snapshot (as a client that re-sorts would)."""
    gt = code if code is not None else CODES[record.variant]
    rows: list[list[list[Card]]] = [[[], [], []] for _ in record.players]
    names = [p.name for p in record.players]
    dealer = names.index(record.button) if record.button in names else 0
    snapshots: list[dict[str, Any]] = []

    def snap(active: dict[int, Sequence[Card]] | None = None, **extra: Any) -> None:
        flip = reorder_rows and len(snapshots) % 2 == 1
        seats = []
        for i, p in enumerate(record.players):
            shown = [sorted(r) if flip else list(r) for r in rows[i]]
            seats.append({"n": p.name, "c": 10000, "b": 0, "p": 0,
                          "d": _d(shown, (active or {}).get(i, ()))})
        state = {"gi": swc_hand_id(record), "gt": gt, "ti": table,
                 "ts": 2, "m": {"di": dealer, "sb": -1, "bb": -1}, "d": {"c": "", "p": 0},
                 "s": seats}
        state.update(extra)
        snapshots.append(state)

    fl_hero = record.players[hero].fantasyland
    snap({hero: record.players[hero].streets[0].dealt} if fl_hero else None)
    streets = max(len(p.streets or ()) for p in record.players)
    for k in range(streets):
        for i in _order(record):
            p = record.players[i]
            if p.fantasyland or k >= len(p.streets or ()):
                continue
            street = p.streets[k]
            if i == hero and street.dealt is not None:
                snap({hero: street.dealt})
            for r, row in enumerate(ROWS):
                rows[i][r] += list(getattr(street, row))
            snap()
    for i, p in enumerate(record.players):  # Fantasyland boards are shown at the showdown
        rows[i] = [list(p.board.top), list(p.board.middle), list(p.board.bottom)]
    snap(ts=0, ss={"hc": "\n".join("Pair\tHigh Card\tFlush" for _ in record.players)})
    final = snapshots[-1]
    for i, p in enumerate(record.players):
        points = p.reported_points or 0
        final["s"][i]["p"] = points
        final["s"][i]["c"] = int(10000 + points * 100 * (record.stake or 1))
        final["s"][i]["chihr"] = [{"e": 0, "h": [{"h": r, "b": 0} for r in range(3)]}]
    return snapshots


def money_events(record: HandRecord) -> list[dict[str, Any]]:
    """The table messages of the winners: ``<money a="cents" mt="unit">``."""
    out = []
    for i, p in enumerate(record.players):
        won = (p.reported_points or 0) * (record.stake or 1)
        if won > 0:
            out.append({"type": 15, "action": 0, "amount": 0, "seat-idx": i, "table-msg":
                        f'<nick s="{i}">{p.name}</nick> wins <money a="{round(won * 100)}" '
                        f'mt="{record.currency or "R"}">{won:g}</money>'})
    return out


def frame_payload(state: dict[str, Any], events: list[dict[str, Any]] | None = None) -> str:
    """A Socket.IO frame of SwC's ``proxy-message`` carrying one ``GameState``."""
    inner: dict[str, Any] = {"t": "GameState", "gameState": state}
    if events:
        inner["events"] = events
    return "42/poker/," + json.dumps(["proxy-message", json.dumps(inner)])


def raw_lines(records: Sequence[HandRecord], *, codes: Sequence[int] | None = None,
              hero: int = 0, start: datetime = START) -> list[str]:
    """``raw_messages.jsonl`` lines for hands played one after the other: every frame as FPDB
    archives it (with some non-GameState noise between)."""
    lines = []
    clock = start
    sequence = 0
    for n, record in enumerate(records):
        frames = swc_frames(record, code=None if codes is None else codes[n], hero=hero)
        for k, state in enumerate(frames):
            sequence += 1
            clock += timedelta(seconds=3)
            last = k == len(frames) - 1
            payload = frame_payload(state, money_events(record) if last else None)
            lines.append(json.dumps({
                "site": "SealsWithClubs", "transport": "websocket",
                "captured_at": clock.isoformat().replace("+00:00", "Z"),
                "endpoint": "wss://play.swcpoker.club/socket.io/", "message_type": "GameState",
                "table_id": state["ti"], "hand_id": state["gi"], "sequence": sequence,
                "direction": "received", "payload": payload}))
            if k == 0:
                sequence += 1
                lines.append(json.dumps({"site": "SealsWithClubs", "transport": "websocket",
                                         "captured_at": clock.isoformat(), "message_type":
                                         "socketio_opcode_2", "payload": "2",
                                         "sequence": sequence, "direction": "received"}))
    return lines


# --------------------------------------------------------------------------------------------
# FPDB's hand file and SQLite tables


def _text_card(card: Card) -> str:
    """FPDB's spelling: ``10c`` for tens."""
    return str(card).replace("T", "10")


def _padded(cards: Sequence[int], size: int) -> list[str]:
    out = [_text_card(Card.from_index(c)) for c in cards]
    return out + ["--"] * (size - len(out))


def _seat_rows(d: str) -> tuple[list[list[int]], list[int]]:
    ids_text, *counts = d.split("-") if d else ("", "0", "0", "0")
    ids = [int(x) for x in ids_text.split(";") if x]
    t, m, b = (int(x) for x in counts)
    return [ids[:t], ids[t:t + m], ids[t + m:t + m + b]], ids[t + m + b:]


def hand_envelope(record: HandRecord, *, code: int | None = None, hero: int = 0,
                  start: datetime = START) -> dict[str, Any]:
    """FPDB's ``hand_<id>.json`` for one hand, built from its frames."""
    frames = swc_frames(record, code=code, hero=hero)
    gt = frames[0]["gt"]
    steps = []
    previous: dict[str, dict[str, Any]] = {}
    for k, state in enumerate(frames):
        placed = {}
        for seat in state["s"]:
            if not seat["d"]:
                placed[seat["n"]] = previous.get(seat["n"], {"top": ["--"] * 3,
                                                             "middle": ["--"] * 5,
                                                             "bottom": ["--"] * 5,
                                                             "active": []})
                continue
            rows, active = _seat_rows(seat["d"])
            placed[seat["n"]] = {"top": _padded(rows[0], 3), "middle": _padded(rows[1], 5),
                                 "bottom": _padded(rows[2], 5),
                                 "active": [_text_card(Card.from_index(c)) for c in active],
                                 "hcnu": "", "lcnu": "", "points": seat["p"],
                                 "points_breakdown": seat.get("chihr", [])}
        previous = placed
        steps.append({"step_num": k + 1, "placed": placed, "board": [], "pot": 0.0,
                      "ts": state["ts"]})
    final = frames[-1]
    return {
        "site": "SealsWithClubs", "hand_id": final["gi"], "game_type": LABELS[gt],
        "game": {"label": LABELS[gt], "base": "ofc", "category": CATEGORY[gt],
                 "limit_type": "pl", "mix": "none", "fpdb_supported": False, "aliases": []},
        "table_id": final["ti"],
        "timestamp": (start + timedelta(seconds=3)).isoformat().replace("+00:00", "Z"),
        "dealer_idx": final["m"]["di"], "sb_idx": -1, "bb_idx": -1,
        "players": [{"name": s["n"], "starting_stack": 100.0, "seat_idx": i}
                    for i, s in enumerate(frames[0]["s"])],
        "steps": steps, "actions": [],
        "swc_events": [{"step_num": len(steps), "street": "UNKNOWN", "raw_ref": None,
                        "event": e} for e in money_events(record)],
        "showdown": {"points_settled": {s["n"]: s["p"] for s in final["s"]},
                     "rows": {}, "points_breakdown": {}},
        "raw_refs": [f"raw_messages.jsonl:{k + 1}" for k in range(len(frames))],
        "metadata": {"adapter": "swc_http", "state_model": "ofc_snapshot"},
    }


def _rounds(envelope: dict[str, Any]) -> list[dict[str, Any]]:
    """FPDB's rounds: one entry per player whose rows or hand changed in a step, with the rows
    after it (``layout``) and the cards in hand."""
    rounds: list[dict[str, Any]] = []
    before: dict[str, dict[str, Any]] = {}
    for step in envelope["steps"]:
        for name, now in step["placed"].items():
            was = before.get(name)
            if was is not None and all(was[k] == now[k] for k in (*ROWS, "active")):
                continue
            if was is None and not any(c != "--" for r in ROWS for c in now[r]) and \
                    not now["active"]:
                continue
            rounds.append({"round": len(rounds) + 1, "step_num": step["step_num"],
                           "player": name, "dealt": list(now["active"]), "placed": {},
                           "layout": {r: list(now[r]) for r in ROWS}, "discarded": [],
                           "active": list(now["active"]), "source": "ofc_snapshot_rows"})
            before[name] = now
    return rounds


def _collections(envelope: dict[str, Any]) -> list[dict[str, Any]]:
    """FPDB's collections: the money each winner's table message names (no unit kept)."""
    names = {p["seat_idx"]: p["name"] for p in envelope["players"]}
    out = []
    for entry in envelope["swc_events"]:
        event = entry["event"]
        cents = int(event["table-msg"].split('a="')[1].split('"')[0])
        out.append({"player": names[event["seat-idx"]], "pot": f"{cents / 100:g}",
                    "street": "UNKNOWN", "source": "swc_game_state_event"})
    return out


def write_fpdb_sqlite(path: Path, envelopes: Sequence[dict[str, Any]]) -> Path:
    """FPDB's three OFC tables (``http_capture_ofc.ensure_ofc_tables``) holding ``envelopes``
    as its ``import_ofc_hand`` stores them."""
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE HttpOFCHands (id INTEGER PRIMARY KEY AUTOINCREMENT, site TEXT NOT NULL,
            siteHandNo TEXT NOT NULL UNIQUE, tableName TEXT, startTime TEXT, variant TEXT,
            pineapple INTEGER, deuceToSeven INTEGER, rounds INTEGER, validationStatus TEXT,
            rawJson TEXT);
        CREATE TABLE HttpOFCPlayers (id INTEGER PRIMARY KEY AUTOINCREMENT,
            ofcHandId INTEGER NOT NULL, playerName TEXT NOT NULL, seatNo INTEGER,
            startStack REAL, points REAL, collected REAL, topCards TEXT, middleCards TEXT,
            bottomCards TEXT);
        CREATE TABLE HttpOFCRounds (id INTEGER PRIMARY KEY AUTOINCREMENT,
            ofcHandId INTEGER NOT NULL, roundNo INTEGER, stepNo INTEGER, playerName TEXT,
            dealt TEXT, placedJson TEXT, discarded TEXT);
        CREATE TABLE Hands (id INTEGER PRIMARY KEY, siteHandNo TEXT);
    """)
    for env in envelopes:
        category = env["game"]["category"]
        final = env["steps"][-1]["placed"]
        points = env["showdown"]["points_settled"]
        players = [{"name": p["name"], "seat_idx": p["seat_idx"], "starting_stack": "100",
                    **{r: [c for c in final[p["name"]][r] if c != "--"] for r in ROWS},
                    "active": [], "points": str(points[p["name"]]), "collected": "0"}
                   for p in env["players"]]
        rounds = _rounds(env)
        raw = {"site": env["site"], "hand_id": env["hand_id"], "table_id": env["table_id"],
               "timestamp": env["timestamp"],
               "variant": {"family": "ofc", "variant": category,
                           "pineapple": category != "ofc",
                           "deuce_to_seven": category == "ofcp_27",
                           "rows": {"top": 3, "middle": 5, "bottom": 5},
                           "hand_py_importable": False},
               "players": players, "rounds": rounds,
               "result": {"points_settled": points, "rows": {}, "points_breakdown": {},
                          "collections": _collections(env)},
               "validation": {"valid": True, "errors": [], "warnings": []},
               "raw_refs": env["raw_refs"]}
        cur = con.execute(
            "INSERT INTO HttpOFCHands (site, siteHandNo, tableName, startTime, variant, "
            "pineapple, deuceToSeven, rounds, validationStatus, rawJson) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (env["site"], str(env["hand_id"]), env["table_id"], env["timestamp"], category,
             int(category != "ofc"), int(category == "ofcp_27"), len(rounds), "valid",
             json.dumps(raw, sort_keys=True)))
        for p in players:
            con.execute("INSERT INTO HttpOFCPlayers (ofcHandId, playerName, seatNo, startStack,"
                        " points, collected, topCards, middleCards, bottomCards) VALUES "
                        "(?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (cur.lastrowid, p["name"], p["seat_idx"], 100.0, float(p["points"]),
                         0.0, " ".join(p["top"]), " ".join(p["middle"]),
                         " ".join(p["bottom"])))
        for r in rounds:
            con.execute("INSERT INTO HttpOFCRounds (ofcHandId, roundNo, stepNo, playerName, "
                        "dealt, placedJson, discarded) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (cur.lastrowid, r["round"], r["step_num"], r["player"],
                         " ".join(r["dealt"]), "{}", ""))
    con.commit()
    con.close()
    return path


# --------------------------------------------------------------------------------------------
# The pineapple app's SQLite log


APP_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (session_id TEXT PRIMARY KEY, room_id TEXT NOT NULL,
    started_at TEXT NOT NULL, finished_at TEXT, player0_id TEXT NOT NULL,
    player1_id TEXT NOT NULL, initial_chips INTEGER NOT NULL DEFAULT 200, final_chips_p0 INTEGER,
    final_chips_p1 INTEGER, winner INTEGER, finish_reason TEXT, hands_played INTEGER DEFAULT 0);
CREATE TABLE IF NOT EXISTS hands (hand_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(session_id), hand_number INTEGER NOT NULL,
    started_at TEXT NOT NULL, finished_at TEXT, btn INTEGER NOT NULL, chips_before TEXT NOT NULL,
    chips_after TEXT, raw_score TEXT, actual_score TEXT, result_detail TEXT);
CREATE TABLE IF NOT EXISTS turns (id INTEGER PRIMARY KEY AUTOINCREMENT,
    hand_id TEXT NOT NULL REFERENCES hands(hand_id), turn INTEGER NOT NULL,
    player INTEGER NOT NULL, board_self TEXT NOT NULL, board_opponent TEXT NOT NULL,
    dealt_cards TEXT NOT NULL, known_discards TEXT NOT NULL, action_placements TEXT NOT NULL,
    action_discard TEXT, think_time_ms INTEGER, timestamp TEXT NOT NULL,
    UNIQUE(hand_id, turn, player));
CREATE TABLE IF NOT EXISTS fantasyland (id INTEGER PRIMARY KEY AUTOINCREMENT,
    hand_id TEXT NOT NULL REFERENCES hands(hand_id), player INTEGER NOT NULL,
    card_count INTEGER NOT NULL, dealt_cards TEXT NOT NULL, solver_placement TEXT NOT NULL,
    solver_score REAL, fl_stay INTEGER NOT NULL, timestamp TEXT NOT NULL);
"""


def _board_dict(rows: list[list[str]]) -> dict[str, list[str]]:
    return {r: list(rows[i]) for i, r in enumerate(ROWS)}


def write_app_sqlite(path: Path, records: Sequence[HandRecord], *,
                     unfinished: int = 0) -> Path:
    """The app's log of heads-up ``records`` (one session), as its ``LogWriter`` writes it;
    the last ``unfinished`` hands have their turns but no result yet."""
    con = sqlite3.connect(path)
    con.executescript(APP_SCHEMA)
    names = [p.name for p in records[0].players]
    session = "sess-" + records[0].session_id if records[0].session_id else "sess-1"
    con.execute("INSERT INTO sessions (session_id, room_id, started_at, player0_id, player1_id,"
                " initial_chips) VALUES (?, ?, ?, ?, ?, 200)",
                (session, "room1", START.replace(tzinfo=None).isoformat(), *names))
    chips = [200, 200]
    for n, record in enumerate(records, start=1):
        hand_id = f"app-{record.hand_id}"
        started = (START + timedelta(minutes=n)).replace(tzinfo=None).isoformat()
        btn = names.index(record.button) if record.button in names else 0
        con.execute("INSERT INTO hands (hand_id, session_id, hand_number, started_at, btn, "
                    "chips_before) VALUES (?, ?, ?, ?, ?, ?)",
                    (hand_id, session, n, started, btn, json.dumps(chips)))
        boards: list[list[list[str]]] = [[[], [], []] for _ in names]
        for seat, p in enumerate(record.players):
            for k, street in enumerate(p.streets or ()):
                before = [list(r) for r in boards[seat]]
                row_of = "auto" if p.fantasyland else None
                placements = [[str(c), row_of or row] for row in ROWS
                              for c in getattr(street, row)]
                for i, row in enumerate(ROWS):
                    boards[seat][i] += [str(c) for c in getattr(street, row)]
                discard = None if p.fantasyland or not street.discard else str(street.discard[0])
                con.execute("INSERT INTO turns (hand_id, turn, player, board_self, "
                            "board_opponent, dealt_cards, known_discards, action_placements, "
                            "action_discard, think_time_ms, timestamp) VALUES "
                            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (hand_id, k, seat, json.dumps(_board_dict(
                                boards[seat] if p.fantasyland else before)),
                             json.dumps(_board_dict(boards[1 - seat])),
                             json.dumps([str(c) for c in street.dealt or ()]), "[]",
                             json.dumps(placements), discard, 0, started))
        if n > len(records) - unfinished:
            continue
        scores = [int(p.reported_points or 0) for p in record.players]
        # The app settles under table stakes: no one loses or wins more than the smaller stack.
        actual = [sum(row) for row in table_stakes(
            [[0, scores[0]], [scores[1], 0]], chips, record.first_to_act)]
        chips = [c + s for c, s in zip(chips, actual, strict=True)]
        result = score_hand(record.seats(), record.ruleset, record.first_to_act)
        detail = {"boards": [_board_dict(b) for b in boards],
                  "busted": [r.fouled for r in result.players],
                  "royalties": [{"top": r.royalties[0], "middle": r.royalties[1],
                                 "bottom": r.royalties[2], "total": sum(r.royalties)}
                                for r in result.players],
                  "raw_score": scores, "actual_score": actual, "chips": chips,
                  "fl_entry": [r.fantasyland_next > 0 for r in result.players],
                  "fl_card_count": [r.fantasyland_next for r in result.players]}
        con.execute("UPDATE hands SET finished_at = ?, chips_after = ?, raw_score = ?, "
                    "actual_score = ?, result_detail = ? WHERE hand_id = ?",
                    (started, json.dumps(chips), json.dumps(scores), json.dumps(actual),
                     json.dumps(detail), hand_id))
    con.commit()
    con.close()
    return path


# --------------------------------------------------------------------------------------------
# The sample files (data/samples/fpdb-swc/, data/samples/pineapple-app/)


def write_samples(root: Path, *, app: bool = True) -> list[Path]:
    """The real-log samples: an FPDB capture folder (``raw_messages.jsonl`` of a 3-handed
    pineapple table whose capture stops in the middle of its last hand, two turbo hand files,
    FPDB's database with regular, progressive and 2-7 hands) and the pineapple app's log (with
    jokers and Fantasyland).

    ``python -m tests.reallogs_fixtures data/samples`` writes them."""
    capture = root / "fpdb-swc"
    capture.mkdir(parents=True, exist_ok=True)
    written = []
    pineapple = simulated("pineapple", 3, 7, seed=21, error_rate=0.3, session="swc-p")
    lines = raw_lines(pineapple)
    cut = "\n".join(lines)
    cut = cut[: cut.rindex('"GameState"') - 25]  # the capture stops mid-frame
    (capture / "raw_messages.jsonl").write_text(cut, encoding="utf-8")
    written.append(capture / "raw_messages.jsonl")
    for record in simulated("turbo", 2, 2, seed=22, error_rate=0.5, session="swc-t"):
        path = capture / f"hand_{swc_hand_id(record)}.json"
        path.write_text(json.dumps(hand_envelope(record), indent=2, ensure_ascii=False),
                        encoding="utf-8")
        written.append(path)
    db = capture / "fpdb.db3"
    db.unlink(missing_ok=True)
    envelopes = [hand_envelope(r) for r in simulated("regular", 2, 3, seed=23, session="swc-r")]
    envelopes += [hand_envelope(r) for r in
                  simulated("progressive-pineapple", 3, 12, seed=5, session="swc-q")]
    envelopes += [hand_envelope(r) for r in simulated("2-7-pineapple", 2, 2, seed=25,
                                                      session="swc-27")]
    written.append(write_fpdb_sqlite(db, envelopes))
    if app:
        folder = root / "pineapple-app"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "ofc_logs.db").unlink(missing_ok=True)
        hands = simulated("progressive-pineapple", 2, 12, seed=24, error_rate=0.3,
                          rules={"jokers": 2, "fl_repeat": "entry"}, session="app")
        written.append(write_app_sqlite(folder / "ofc_logs.db", hands, unfinished=1))
    return written


def merge_capture(root: Path) -> dict[str, str]:
    """FPDB's database (progressive hands it keeps as 'ofcp', pineapple hands), hand files of
    some of them, the frames of the progressive table; returns the true variant by hand id."""
    progressive = simulated("progressive-pineapple", 3, 6, seed=41, error_rate=0.3,
                            session="ord-q")
    pineapple = simulated("pineapple", 2, 3, seed=42, error_rate=0.3, session="ord-p")
    for folder in ("db", "hands", "frames"):
        (root / folder).mkdir(parents=True)
    write_fpdb_sqlite(root / "db" / "fpdb.db3",
                      [hand_envelope(r) for r in progressive + pineapple])
    for record in progressive[:3] + pineapple:
        (root / "hands" / f"hand_{swc_hand_id(record)}.json").write_text(
            json.dumps(hand_envelope(record), indent=2), encoding="utf-8")
    (root / "frames" / "raw_messages.jsonl").write_text("\n".join(raw_lines(progressive)) + "\n",
                                                        encoding="utf-8")
    return {str(swc_hand_id(r)): r.variant for r in progressive + pineapple}


if __name__ == "__main__":
    import sys

    for path in write_samples(Path(sys.argv[1]), app="--no-app" not in sys.argv):
        print(path)
