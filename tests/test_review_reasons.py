"""The stored ``hand_players.review_reason`` (``ingest/review_reasons.py``): the Review page's
count of unreviewed hands by reason, read from it, equals the count the page made before from
the placements (:func:`_oracle`, that query verbatim), on a random store (final boards only,
hidden dealt cards, surrenders, Fantasyland, 2-7 tables, several players, rooms and reviewed
decisions) and after each kind of write: import, merge, rescore, removal of an import, upgrade
from schema 8. Every stored reason is also the one ``ofc review`` gives the rebuilt record
(:func:`ofc_core.play.review.not_reviewed`)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

from dashboard.queries import review as q
from dashboard.queries.common import Filters, effective_names, shared_seats, where
from ingest import api
from ingest.stored_hands import load_records
from ofc_core.play import reviewable
from ofc_core.play.review import not_reviewed
from tests.helpers.store import PERSPECTIVE_A, PERSPECTIVE_B

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"
ROOMS = ("ofc-sim", "swc")
OPPONENTS = ("Anna", "Bo", "Cy", "Dee")


def _oracle(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """The page's query before the stored reason (schema 8): every reason searched in the
    placements and the other seats' rows at each call."""
    cond, params = where(filters)
    seat_has_streets = ("EXISTS (SELECT 1 FROM placements p WHERE p.hand_key = o.hand_key "
                        "AND p.seat = o.seat)")
    dealt_logged = ("EXISTS (SELECT 1 FROM placements p WHERE p.hand_key = hp.hand_key "
                    "AND p.seat = hp.seat AND p.street = 1 AND p.dealt IS NOT NULL)")
    reasons = [reviewable.SURRENDERED, reviewable.FL_NOT_LOGGED, reviewable.FL_SET_27,
               q.NOT_YET, reviewable.FINAL_BOARDS, reviewable.OPPONENT_SURRENDERED,
               reviewable.DEALT_NOT_LOGGED, q.NOT_YET]
    return con.execute(f"""
        SELECT CASE
            WHEN hp.surrendered THEN ?
            WHEN hp.fantasyland AND NOT {dealt_logged} THEN ?
            WHEN hp.fantasyland AND hp.variant = '2-7-pineapple' THEN ?
            WHEN hp.fantasyland THEN ?
            WHEN EXISTS (SELECT 1 FROM hand_players o WHERE o.hand_key = hp.hand_key
                         AND NOT {seat_has_streets}) THEN ?
            WHEN EXISTS (SELECT 1 FROM hand_players o WHERE o.hand_key = hp.hand_key
                         AND o.surrendered) THEN ?
            WHEN NOT {dealt_logged} THEN ?
            ELSE ? END AS reason, count(*) AS hands
        FROM hand_players hp JOIN hands h ON h.hand_key = hp.hand_key
        WHERE {cond} AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.source = h.source
                                     AND d.hand_id = h.hand_id AND d.player = hp.player)
        GROUP BY 1 ORDER BY 2 DESC, 1""", [*reasons, *params]).df()


def _final_board(player: dict[str, Any]) -> None:
    """The player's streets replaced by the final board they make."""
    streets = player.pop("streets")
    player["board"] = {row: " ".join(s[row] for s in streets if s.get(row))
                       for row in ("top", "middle", "bottom")}


def _degraded(rng: random.Random, hand: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``hand`` that a log could show: a seat's final board only, the first dealt
    cards hidden, or a surrender, each now and then."""
    hand = json.loads(json.dumps(hand))
    players = [p for p in hand["players"] if "streets" in p]
    roll = rng.random()
    if roll < 0.3 and players:
        _final_board(rng.choice(players))
    elif roll < 0.6 and players:
        rng.choice(players)["streets"][0].pop("dealt", None)
    elif roll < 0.75 and players and hand["variant"] != "double":
        quitter = rng.choice(players)
        quitter["surrendered"] = True
        quitter.pop("reported_points", None)
        if rng.random() < 0.5 or len(quitter["streets"]) == 1:
            quitter.pop("streets")  # no board at all
        else:
            quitter["streets"] = quitter["streets"][:rng.randint(1, 2)]
    for p in hand["players"]:
        p.pop("reported_points", None)  # a surrender changes everyone's result
    return hand


def _random_hands(seed: int, count: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``count`` demo hands moved to random rooms and names (some pineapple ones to the 2-7
    table), as a first log shows them (:func:`_degraded`), and the full copies."""
    rng = random.Random(seed)
    lines = [line for path in sorted(DEMO.glob("*.jsonl"))
             for line in path.read_text(encoding="utf-8").splitlines()]
    full, shown = [], []
    for n, i in enumerate(sorted(rng.sample(range(len(lines)), count))):
        hand = json.loads(lines[i])
        if hand.get("match_id") is None:
            hand["hand_id"] = f"r{n}"
            hand["source"] = rng.choice(ROOMS)
            names = rng.sample(OPPONENTS, len(hand["players"]))
            for k, p in enumerate(hand["players"]):
                if p["name"] != "Hero":
                    p["name"] = names[k]
                elif rng.random() < 0.2:
                    p["name"] = "Hero2"
            hand["hero"] = hand["button"] = hand["players"][0]["name"]
            if hand["variant"] == "pineapple" and rng.random() < 0.3:
                hand["variant"] = "2-7-pineapple"
                for p in hand["players"]:
                    p.pop("reported_points", None)
        full.append(hand)
        shown.append(_degraded(rng, hand) if rng.random() < 0.5 else hand)
    return shown, full


def _jsonl(hands: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(h) + "\n" for h in hands).encode()


def _review_some(con: duckdb.DuckDBPyConnection, seed: int) -> None:
    """Decisions stored for a random quarter of the player rows (the page leaves them out)."""
    rng = random.Random(seed)
    rows = con.execute("SELECT h.source, h.hand_id, hp.player FROM hand_players hp JOIN hands h "
                       "USING (hand_key) ORDER BY ALL").fetchall()
    picked = [r for r in rows if rng.random() < 0.25]
    api.write_decisions(con, [api.DecisionRow(s, i, p, 1, "first five", "--", "Qh", "Qh--",
                                              0.0, 0.0, "Qh--", 0.0, 0.0, 0.0, False, 1, 1,
                                              "best-of-24", "1") for s, i, p in picked])


def _filters(con: duckdb.DuckDBPyConnection) -> list[Filters]:
    me = effective_names(con, (api.MyName("Hero"), api.MyName("Hero2", "swc")))
    return [Filters(player="Hero"), Filters(player="Anna"), Filters(player="ann"),
            Filters(player="bob"), Filters(me=me, me_skip=shared_seats(con, me)),
            Filters(player="Bo", variant="2-7-pineapple"), Filters(player="Cy", room="swc")]


def check(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The page equals the oracle for every filter set, and every stored reason is the one
    ``ofc review`` gives the rebuilt record; returns the reasons seen."""
    for filters in _filters(con):
        pd.testing.assert_frame_equal(q.unreviewed(con, filters), _oracle(con, filters),
                                      obj=str(filters))
    keys = [k for (k,) in con.execute("SELECT hand_key FROM hands ORDER BY 1").fetchall()]
    stored = dict(((k, s), c) for k, s, c in con.execute(
        "SELECT hand_key, seat, review_reason FROM hand_players").fetchall())
    for key, (record, _) in load_records(con, keys).items():
        for seat, player in enumerate(record.players):
            assert stored[key, seat] == reviewable.code_of(not_reviewed(record, player.name)), \
                (record.hand_id, player.name)
    return {str(r) for r in q.unreviewed(con, Filters())["reason"]}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[duckdb.DuckDBPyConnection, list[bytes]]]:
    """A store holding the first log of random hands, ``PERSPECTIVE_A``, and decisions; the
    second log (the full copies of half of them, new hands) to import next."""
    shown, full = _random_hands(seed=9, count=240)
    con = api.connect(tmp_path / "reasons.duckdb")
    report = api.import_files([("a.jsonl", _jsonl(shown[:160])),
                               ("pa.jsonl", PERSPECTIVE_A.encode())], con)
    assert report.rejected == 0, [i.message for f in report.files for i in f.issues]
    _review_some(con, seed=1)
    yield con, [_jsonl(full[80:240]), PERSPECTIVE_B.encode()]
    con.close()


def test_every_write_keeps_the_page_equal_to_the_placements(
        store: tuple[duckdb.DuckDBPyConnection, list[bytes]]) -> None:
    con, later = store
    assert check(con) == {q.NOT_YET, *reviewable.REASONS}  # every reason is exercised
    report = api.import_files([("b.jsonl", later[0]), ("pb.jsonl", later[1])], con)
    assert report.merged > 10 and report.stored > 50
    check(con)
    api.rescore(con, chunk_hands=70)
    check(con)
    api.remove_imports(con, [report.files[0].import_id])
    check(con)


def _rows(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    """A table's rows as text, sorted (timestamps as text: no pytz needed)."""
    return sorted(map(repr, con.execute(
        f"SELECT CAST(COLUMNS(*) AS VARCHAR) FROM {table}").fetchall()))


@pytest.mark.parametrize(("version", "also_lacks"), [("8", None), ("7", None),
                                                     ("8", "hands.variant_assumed")])
def test_the_upgrade_fills_the_reasons(store: tuple[duckdb.DuckDBPyConnection, list[bytes]],
                                       version: str, also_lacks: str | None) -> None:
    """From 8 the column is filled from the stored rows in SQL, nothing rescored (``None``);
    from an older version, or a store of 8 that lacks another column too (a development
    build), the rescoring of the usual upgrade writes it."""
    con, _ = store
    added_since_8 = ("agg_curve", "agg_matches", "agg_offers", "agg_relations")
    before = {a: _rows(con, a) for a in added_since_8}
    for table in added_since_8:  # the aggregates a store of 8 lacks
        con.execute(f"DROP TABLE {table}")
    con.execute("ALTER TABLE hand_players DROP COLUMN review_reason")
    if also_lacks is not None:
        table, column = also_lacks.split(".")
        con.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [version])
    said: list[str] = []
    result = api.upgrade(con, notify=said.append)
    if version == "8" and also_lacks is None:
        assert result is None and "nothing rescored" in said[-1]
    else:
        assert result is not None and result.hands == 161 and not result.failed
    assert check(con) == {q.NOT_YET, *reviewable.REASONS}
    for table, rows in before.items():  # built by the upgrade, as they were
        assert _rows(con, table) == rows


def test_a_row_without_a_stored_reason_is_counted_as_not_known(
        store: tuple[duckdb.DuckDBPyConnection, list[bytes]]) -> None:
    """Tables written before the column (Parquet files of schema 8) hold NULL: those hands are
    counted under :data:`~dashboard.queries.review.NOT_KNOWN`, never dropped."""
    con, _ = store
    hero = Filters(player="Hero")
    total = int(_oracle(con, hero)["hands"].sum())
    con.execute("UPDATE hand_players SET review_reason = NULL WHERE player = 'Hero'")
    assert q.unreviewed(con, hero).to_dict("records") == [{"reason": q.NOT_KNOWN,
                                                           "hands": total}]
