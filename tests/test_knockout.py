"""The knockout bracket (``ofc_core.knockout``, ``ingest.knockout``, ``ofc knockout``): the draw
(seeded, byes spread when the players are not a power of two), series typed or found in the
imported Double matches, rounds drawn, one undo, refusals with a reason, and the event log kept
with who and when through rescoring and an upgrade."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from ingest import store
from ingest.api import (
    KnockoutError,
    create_knockout,
    draw_knockout_round,
    import_paths,
    knockout_bracket,
    knockout_log,
    record_knockout_from_matches,
    record_knockout_series,
    rescore,
    undo_knockout,
)
from ofc_cli.cli import main
from ofc_core.knockout import Change, draw, replay

PLAYERS = [f"k{n:02d}" for n in range(1, 21)]


def test_byes_fall_in_round_1_spread_and_the_seed_redraws_the_same_pairs() -> None:
    b = replay([Change("create", {"name": "x", "players": PLAYERS, "seed": 3})])
    assert (b.size, len(b.byes), len(b.rounds[0])) == (32, 12, 16)
    slots = [p.slot for p in b.rounds[0] if p.b is None]
    assert max(b - a for a, b in zip(slots, slots[1:], strict=False)) <= 2  # spread out
    seen = [n for p in b.rounds[0] for n in (p.a, p.b) if n is not None]
    assert sorted(seen) == sorted(PLAYERS)
    assert draw(PLAYERS, 3, 1, 32) == b.rounds[0]
    assert draw(PLAYERS, 4, 1, 32) != b.rounds[0]
    with pytest.raises(ValueError, match="at least 16 players"):
        replay([Change("create", {"name": "x", "players": PLAYERS[:15], "seed": 3})])


def _con(tmp_path: Path):  # type: ignore[no-untyped-def]
    con = store.connect(tmp_path / "k.duckdb")
    return con


def test_a_bracket_to_its_winner_with_refusals_and_an_undo(tmp_path: Path) -> None:
    con = _con(tmp_path)
    try:
        b = create_knockout(con, "club", PLAYERS[:16], 5, "ann")
        a, c = b.rounds[0][0].players
        with pytest.raises(KnockoutError, match="2-0, 2-1 or by forfeit"):
            record_knockout_series(con, "club", (a, c), a, "1-1", "ann")
        with pytest.raises(KnockoutError, match="not over"):
            draw_knockout_round(con, "club", "ann")
        record_knockout_series(con, "club", (a, c), c, "2-0", "bob")
        b = undo_knockout(con, "club", "ann")
        assert b.rounds[0][0].series is None
        for round_ in range(1, 5):
            for pair in knockout_bracket(con, "club").open_pairs():
                record_knockout_series(con, "club", pair.players, pair.players[1], "2-1", "ann")
            if round_ < 4:
                draw_knockout_round(con, "club", "ann")
        b = knockout_bracket(con, "club")
        assert b.champion == b.rounds[3][0].players[1]
        with pytest.raises(KnockoutError, match="is over"):
            draw_knockout_round(con, "club", "ann")
        rows = knockout_log(con, "club")
        assert [r.action for r in rows[:4]] == ["create", "series", "undo", "series"]
        assert rows[1].who == "bob" and rows[1].data["winner"] == c
        assert len(rows) == 1 + 2 + 15 + 3
        rescore(con)  # user data: kept
        assert knockout_bracket(con, "club") == b
    finally:
        con.close()


def test_a_series_from_the_imported_matches_since_the_draw(tmp_path: Path) -> None:
    con = _con(tmp_path)
    try:
        b = create_knockout(con, "club", PLAYERS[:16], 1, "ann")
        a, c = b.rounds[0][0].players
        with pytest.raises(KnockoutError, match="0 matches found"):
            record_knockout_from_matches(con, "club", (a, c), "ann")
    finally:
        con.close()
    log = tmp_path / "pair.jsonl"
    start = (datetime.now(timezone.utc) + timedelta(minutes=1)).isoformat(timespec="seconds")
    assert main(["simulate", "--variant", "double", "--names", f"{a},{c}", "--hands", "70",
                 "--policies", "random", "--seed", "2", "--start", start, "--out",
                 str(log)]) == 0
    ends = [(json.loads(line)["match_id"], e["by"]) for line in log.read_text().splitlines()
            for e in json.loads(line).get("events", []) if e["type"] == "match_end"]
    wins = {a: 0, c: 0}
    taken = []
    for match_id, winner in ends:
        if max(wins.values()) < 2:
            wins[winner] += 1
            taken.append(match_id)
    import_paths([log], tmp_path / "k.duckdb")
    con = _con(tmp_path)
    try:
        b = record_knockout_from_matches(con, "club", (a, c), "ann")
        series = b.rounds[0][0].series
        assert series is not None and list(series.matches) == taken
        assert list(series.wins) == [wins[a], wins[c]]
        assert series.winner == max(wins, key=lambda n: wins[n])
    finally:
        con.close()


def test_the_command_line_runs_a_bracket(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         ) -> None:
    db = str(tmp_path / "k.duckdb")
    players = ",".join(PLAYERS[:17])
    assert main(["knockout", "create", "wk", "--players", players, "--seed", "2", "--db", db,
                 "--who", "judge"]) == 0
    out = capsys.readouterr().out
    assert "17 players, draw of 32, seed 2" in out and "byes in round 1" in out
    b = replay([Change("create", {"name": "wk", "players": PLAYERS[:17], "seed": 2})])
    a, c = b.open_pairs()[0].players
    assert main(["knockout", "record", "wk", a, c, "--winner", c, "--score", "forfeit",
                 "--db", db]) == 0
    assert f"{a} - {c}: {c} won forfeit" in capsys.readouterr().out
    assert main(["knockout", "draw", "wk", "--db", db]) == 0  # 15 byes and one series
    assert "round 2 of 5:" in capsys.readouterr().out
    assert main(["knockout", "draw", "wk", "--db", db]) == 1
    assert "round 2 is not over: 8 series still to record" in capsys.readouterr().err
    assert main(["knockout", "log", "wk", "--db", db]) == 0
    assert "judge: create" in capsys.readouterr().out
