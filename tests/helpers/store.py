"""Reading a store back, and hand-written logs, for the tests of the importer, the watcher,
the command line and the dashboard.

- :func:`rows`, :func:`one`, :func:`query`: SQL on an open connection or on a database file;
- :func:`assert_stored_equals_scalar`: every stored number of a hand equals the scalar scorer's;
- :func:`table_dump`, :func:`keyed_dump`: every hand table as sorted lists (for golden files
  and for comparing two imports);
- :func:`capture_dump`: a store's hand tables keyed by hand id, without which copy's text is
  kept (for comparing imports in different orders);
- :func:`import_both_ways`: the same files through the bulk path and the record path;
- :data:`PERSPECTIVE_A`, :data:`PERSPECTIVE_B`: one hand as two players' logs show it;
  :data:`LINE`: a canonical ofc-hh/1 line; :func:`hand_lines`: demo hands under new ids.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb

from ingest import fast_path, store
from ingest.api import import_files
from ingest.hand_tables import HAND_TABLES
from ofc_core.board import ROWS
from ofc_core.evaluate import category_of, hand_name
from ofc_core.hand import HandRecord
from ofc_core.scoring import HandResult, score_hand, tidy_points
from ofc_core.settlement import limits, table_stakes

DEMO_REGULAR = Path(__file__).resolve().parents[2] / "data" / "demo" / "regular.Hero.jsonl"


def rows(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> list:
    return con.execute(sql, params or []).fetchall()


def one(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> Any:
    return con.execute(sql, params or []).fetchone()[0]


def query(db: Path, sql: str, params: list | None = None) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


ROW_ORDER = {row.value: n for n, row in enumerate(ROWS)}


def _under_table_stakes(record: HandRecord, result: HandResult) -> HandResult:
    """The scalar result settled under the players' stacks when the log gives them (a chip
    tournament's hands; the rule: ``ofc_core.settlement``), as the store keeps it."""
    stacks = [p.stack for p in record.players]
    if all(s is None for s in stacks) or record.ruleset.scoring.is_race:
        return result
    names = [p.name for p in record.players]
    raw = [[result.pair(a, b).total if a != b else 0.0 for b in names] for a in names]
    settled = table_stakes(raw, limits(stacks, record.ruleset.cap), record.first_to_act)
    players = tuple(replace(p, points=tidy_points(sum(settled[i])))
                    for i, p in enumerate(result.players))
    pairs = tuple(replace(q, capped=settled[names.index(q.player)][names.index(q.opponent)])
                  for q in result.pairs)
    return HandResult(players, pairs)


def assert_stored_equals_scalar(con: duckdb.DuckDBPyConnection, record: HandRecord) -> None:
    key = one(con, "SELECT hand_key FROM hands WHERE source = ? AND hand_id = ?",
              [record.source, record.hand_id])
    result = score_hand(record.seats(), record.ruleset, record.first_to_act)
    result = _under_table_stakes(record, result)
    players = rows(con, "SELECT seat, player, fouled, surrendered, royalties, fantasyland_next, "
                        "raw_points, points FROM hand_players WHERE hand_key = ? ORDER BY seat",
                   [key])
    assert [p[1] for p in players] == [p.name for p in record.players]
    for (seat, name, fouled, surrendered, royalties, fl_next, raw, points), p in zip(
            players, result.players, strict=True):
        assert (fouled, surrendered, royalties, fl_next) == (
            p.fouled, p.surrendered, p.royalty_total, p.fantasyland_next), (record.hand_id, name)
        assert (raw, points) == (p.raw_points, p.points), (record.hand_id, name)
        stored_rows = rows(con, "SELECT row_name, cards, strength, category, hand_name, royalty, "
                                "jokers FROM hand_rows WHERE hand_key = ? AND seat = ?",
                           [key, seat])
        by_row = {r[0]: r[1:-1] for r in stored_rows}
        stood_for = " ".join(r[-1] for r in sorted(stored_rows, key=lambda r: ROW_ORDER[r[0]])
                             if r[-1])
        assert stood_for == " ".join(f"{j}={c}" for j, c in p.stood_for), record.hand_id
        board = record.players[seat].board
        for n, row in enumerate(ROWS):
            cards, strength, category, name_, royalty = by_row[row.value]
            assert cards == " ".join(str(c) for c in board.row(row))
            assert royalty == p.royalties[n]
            if p.strengths is None:
                assert strength is None and name_ is None
            else:
                assert strength == p.strengths[n]
                assert category == category_of(strength).name.lower()
                assert name_ == p.hand_names[n]  # (a row holding a joker says so)
                assert name_.removesuffix(" (joker)") == hand_name(strength)
    names = [p.name for p in record.players]
    pairs = rows(con, "SELECT seat, opp_seat, player, opponent, top_result, middle_result, "
                      "bottom_result, row_points, bonus, scoop, royalties, surrender, total, "
                      "points FROM pairs WHERE hand_key = ? ORDER BY seat, opp_seat", [key])
    assert len(pairs) == len(result.pairs)
    for q in pairs:
        expected = result.pair(names[q[0]], names[q[1]])
        assert q[2:4] == (expected.player, expected.opponent)
        assert q[4:7] == expected.rows
        assert q[7:] == (expected.row_points, expected.bonus, expected.scoop,
                         expected.royalties, expected.surrender, expected.total,
                         expected.capped)


def table_dump(con: duckdb.DuckDBPyConnection) -> dict[str, list[list[Any]]]:
    """Every hand table as sorted lists (times as UTC text; import times left out)."""
    queries = {
        "hands": "SELECT hand_key, source, hand_id, session_id, match_id, "
                 "strftime(timezone('UTC', played_at), '%Y-%m-%d %H:%M:%S') AS played_at, "
                 "utc_offset, variant, ruleset, ruleset_label, scoring, button, hero, stake, "
                 "currency, "
                 "player_count, first_to_act, points_differ, import_id, line FROM hands",
        # the hand's columns copied onto hand_players (schema v3) are dumped under "hands"
        "hand_players": "SELECT * EXCLUDE (played_at, utc_offset, session_id, match_id, variant, "
                        "ruleset_label, scoring, player_count, stake, currency, top_hand, "
                        "middle_hand, bottom_hand) FROM hand_players",
        "hand_rows": "SELECT * FROM hand_rows",
        "placements": "SELECT * FROM placements",
        "pairs": "SELECT * FROM pairs",
        "events": "SELECT * FROM events",
        "imports": "SELECT import_id, path, sha256, size_bytes, format, parser_version, hands, "
                   "stored, duplicate, partial, rejected FROM imports",
    }
    out = {}
    for name, sql in queries.items():
        cur = con.execute(f"SELECT * FROM ({sql}) ORDER BY ALL")
        cols = [d[0] for d in cur.description]
        out[name] = [cols] + [list(r) for r in cur.fetchall()]
    return out


def keyed_dump(con) -> dict:
    """Every hand table with hand_key replaced by the hand's (source, hand_id): the two paths
    may number hands in a different order."""
    dump = table_dump(con)
    ids = {row[0]: (row[1], row[2]) for row in dump["hands"][1:]}
    out = {}
    for name, rows in dump.items():
        if rows and rows[0][0] == "hand_key":
            rows = [["hand"] + rows[0][1:]] + sorted(
                [[list(ids[r[0]])] + r[1:] for r in rows[1:]], key=repr)
        out[name] = rows
    return out


def import_both_ways(tmp_path: Path, files: list[tuple[str, bytes]],
                     monkeypatch: Any) -> list[Any]:
    """Import ``files`` with the fast path and without; returns both reports and dumps."""
    out = []
    for fast in (True, False):
        monkeypatch.setattr(fast_path, "FAST_PATH", fast)
        con = store.connect(tmp_path / f"{fast}.duckdb")
        try:
            report = import_files(files, con)
            out.append((report.to_dict(), keyed_dump(con),
                        con.execute("SELECT * EXCLUDE (import_id) FROM rejected ORDER BY ALL")
                        .fetchall()))
        finally:
            con.close()
    return out


def hand_lines(prefix: str, count: int, start: int = 0,
               played_at: Callable[[int], str] | None = None) -> list[str]:
    """``count`` demo hands under new ids ``prefix-N`` (hands no store has), played at
    ``played_at(N)`` when given. Shared by the other watcher tests."""
    lines = DEMO_REGULAR.read_text(encoding="utf-8").splitlines()[start:start + count]
    out = []
    for n, line in enumerate(lines, start=start):
        hand = json.loads(line)
        hand["hand_id"] = f"{prefix}-{n}"
        hand["session_id"] = prefix
        if played_at is not None:
            hand["played_at"] = played_at(n)
        out.append(json.dumps(hand))
    return out


PERSPECTIVE_A = (
    '{"format": "ofc-hh/1", "source": "club", "hand_id": "x1", "hero": "ann", '
    '"variant": "pineapple", "button": "bob", "players": ['
    '{"name": "ann", "seat": 0, "streets": ['
    '{"dealt": "Qh Qd 2c Ks Kd", "top": "Qh Qd 2c", "middle": "Ks Kd"}, '
    '{"dealt": "9s 5h 3h", "middle": "9s 5h", "discard": "3h"}, '
    '{"dealt": "3c Jh 7d", "middle": "3c", "bottom": "Jh", "discard": "7d"}, '
    '{"dealt": "Jd Jc 8d", "bottom": "Jd Jc", "discard": "8d"}, '
    '{"dealt": "4s 4d 7s", "bottom": "4s 4d", "discard": "7s"}]}, '
    '{"name": "bob", "seat": 1, "streets": [{"top": "Ah Kc", "middle": "As Ad", "bottom": "Qc"}, '
    '{"top": "3d", "bottom": "Tc"}, {"middle": "8h 7c"}, {"bottom": "8c 6c"}, '
    '{"middle": "2h", "bottom": "5c"}]}]}'
)
PERSPECTIVE_B = (
    '{"format": "ofc-hh/1", "source": "club", "hand_id": "x1", "hero": "bob", '
    '"variant": "pineapple", "button": "bob", "players": ['
    '{"name": "ann", "seat": 0, "reported_points": 10, "streets": ['
    '{"top": "Qh Qd 2c", "middle": "Ks Kd"}, '
    '{"middle": "9s 5h"}, {"middle": "3c", "bottom": "Jh"}, {"bottom": "Jd Jc"}, '
    '{"bottom": "4s 4d"}]}, '
    '{"name": "bob", "seat": 1, "streets": ['
    '{"dealt": "Ah Kc As Ad Qc", "top": "Ah Kc", "middle": "As Ad", "bottom": "Qc"}, '
    '{"dealt": "3d Tc 9h", "top": "3d", "bottom": "Tc", "discard": "9h"}, '
    '{"dealt": "8h 7c 6h", "middle": "8h 7c", "discard": "6h"}, '
    '{"dealt": "8c 6c 2d", "bottom": "8c 6c", "discard": "2d"}, '
    '{"dealt": "2h 5c 5s", "middle": "2h", "bottom": "5c", "discard": "5s"}]}]}'
)


LINE = ('{"format": "ofc-hh/1", "source": "home", "hand_id": "h1", "variant": "regular", '
        '"players": [{"name": "ann", "seat": 0, "board": {"top": "Th 6d 2c", '
        '"middle": "Ks Kd 9s 5h 3c", "bottom": "Jh Jd Jc 4s 4d"}}, {"name": "bob", "seat": 1, '
        '"board": {"top": "Ah Kc 3d", "middle": "As Ad 8h 7c 2h", "bottom": "Qc Tc 8c 6c 5c"}}]}')
"""A canonical hand whose first card (of the first player) is ``Th``."""


PROVENANCE = {"hand_key", "import_id", "raw", "line"}
"""Columns left out of the comparison: the surrogate key, and which import's copy of the text
(and its line) is kept. Between two copies that rank alike (a hand file and the frames of the
same hand) the first stored keeps its text; every other column is compared as stored."""


def capture_dump(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every hand table's rows, keyed by (source, hand_id) instead of hand_key, sorted."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        out = {}
        for name in HAND_TABLES:
            columns = [c for (c,) in con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                "ORDER BY ordinal_position", [name]).fetchall() if c not in PROVENANCE]
            picked = ", ".join(f"CAST(t.{c} AS VARCHAR)" for c in columns
                               if c not in ("source", "hand_id"))
            out[name] = con.execute(
                f"SELECT h.source, h.hand_id, {picked} FROM {name} t "
                "JOIN hands h USING (hand_key) ORDER BY ALL").fetchall()
        out["rejected"] = con.execute("SELECT message FROM rejected WHERE NOT partial"
                                      ).fetchall()
        return out
    finally:
        con.close()
