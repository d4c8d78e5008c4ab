"""Tournaments: the format's fields (ofc-hh/1's ``tournament`` and ``stack``, the summary record
``ofc-tournament/1``), the simulator's chip tournament and 16-player knockout written by
``ofc simulate`` as real logs, imported, and every figure of the store's tournament tables and
of the Tournaments page's queries recounted here from the JSON logs alone (never by the code
under test)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import duckdb
import pytest

from dashboard.queries import overview
from dashboard.queries import tournaments as page
from ingest import store
from ingest.api import import_paths, rescore
from ingest.formats.ofc_hh import HandError, record_from_dict, record_to_dict
from ingest.formats.ofc_tournament import parse_text
from ofc_cli.cli import main

TOL = 1e-6


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("tournament-logs")
    assert main(["simulate", "--variant", "pineapple", "--tournament", "chips", "--entrants",
                 "7", "--table-size", "3", "--starting-stack", "300", "--hands-per-level", "3",
                 "--seed", "5", "--policies", "random", "--out", str(out / "chips.jsonl")]) == 0
    assert main(["simulate", "--variant", "double", "--tournament", "knockout", "--entrants",
                 "16", "--forfeit-rate", "0.15", "--seed", "3", "--policies", "random",
                 "--out", str(out / "ko.jsonl")]) == 0
    return {"chips": out / "chips.jsonl", "knockout": out / "ko.jsonl"}


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _summary(path: Path) -> dict[str, Any]:
    (summary,) = _lines(path.with_name(path.stem + ".tournament.jsonl"))
    return summary


@pytest.fixture(scope="module")
def db(logs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tournament-store") / "t.duckdb"
    files = [p for log in logs.values()
             for p in (log, log.with_name(log.stem + ".tournament.jsonl"))]
    report = import_paths(files, path)
    assert not any(f.errors for f in report.files)
    return path


def test_chip_hands_settle_in_chips_and_the_stacks_follow(logs: dict[str, Path]) -> None:
    """Recounted from the log: each hand's stacks are the previous hand's stacks plus the
    chips won (points x chips a point is worth, table stakes: nobody below zero), every chip
    stays in play, a player at zero plays no more, and the level's chips per point rise."""
    hands = _lines(logs["chips"])
    summary = _summary(logs["chips"])
    stacks: dict[str, float] = {}
    levels = []
    for hand in hands:
        t = hand["tournament"]
        assert t["kind"] == "chips" and "stake" not in hand
        levels.append((t["level"], t["chips_per_point"]))
        for p in hand["players"]:
            assert abs(stacks.get(p["name"], summary["starting_stack"]) - p["stack"]) < TOL
            assert p["stack"] > 0
            stacks[p["name"]] = p["stack"] + p["reported_points"] * t["chips_per_point"]
            assert stacks[p["name"]] > -TOL
    assert abs(sum(stacks.values()) - 7 * summary["starting_stack"]) < 1e-3
    assert sorted(levels) == levels and levels[-1][1] > levels[0][1]
    assert [n for n, s in stacks.items() if s > TOL] == [summary["results"][0]["player"]]
    assert len({h["tournament"]["table"] for h in hands}) == 3  # 7 players, 3 a table


def test_knockout_is_best_of_three_double_without_the_cube(logs: dict[str, Path]) -> None:
    hands = _lines(logs["knockout"])
    summary = _summary(logs["knockout"])
    assert all(h["variant"] == "double" and h["tournament"]["kind"] == "knockout"
               for h in hands)
    assert not [e for h in hands for e in h.get("events", []) if e["type"] == "double"]
    wins: dict[tuple[int, frozenset[str]], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for h in hands:
        for e in h.get("events", []):
            if e["type"] == "match_end":
                pair = frozenset(p["name"] for p in h["players"])
                wins[(h["tournament"]["round"], pair)][e["by"]] += 1
    series = summary["series"]
    assert [s["round"] for s in series] == [1] * 8 + [2] * 4 + [3] * 2 + [4]
    assert any(s.get("forfeit") for s in series)
    for s in series:
        counted = wins.get((s["round"], frozenset(s["players"])), {})
        assert [counted.get(p, 0) for p in s["players"]] == s["wins"]
        if not s.get("forfeit"):
            assert max(s["wins"]) == 2 and counted[s["winner"]] == 2
    final = series[-1]
    assert summary["results"][0] == {"player": final["winner"], "place": 1,
                                     "prize": summary["prize_pool"] * 0.5}


def _recounted_players(log: Path) -> dict[str, dict[str, Any]]:
    """Per player, from the logs: place, prize, profit, hands, final chips."""
    summary = _summary(log)
    cost = summary["buy_in"] + summary["fee"]
    out = {r["player"]: {"place": r["place"], "prize": r.get("prize", 0),
                         "profit": r.get("prize", 0) - cost, "hands": 0, "final": None}
           for r in summary["results"]}
    for h in _lines(log):
        t = h["tournament"]
        for p in h["players"]:
            out[p["name"]]["hands"] += 1
            if "stack" in p:
                out[p["name"]]["final"] = p["stack"] + p["reported_points"] * t["chips_per_point"]
    return out


def test_the_store_and_the_page_agree_with_the_logs(logs: dict[str, Path], db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    try:
        for kind, log in logs.items():
            tid = _summary(log)["id"]
            expected = _recounted_players(log)
            rows = page.tournament_players(con, "ofc-sim", tid)
            assert {r["player"] for r in rows} == set(expected)
            for r in rows:
                e = expected[r["player"]]
                assert (r["place"], r["hands"]) == (e["place"], e["hands"])
                assert abs(r["prize"] - e["prize"]) < TOL and abs(r["profit"] - e["profit"]) < TOL
                if kind == "chips":
                    assert abs(r["final_stack"] - e["final"]) < 1e-3
        _check_chips_graph(con, logs["chips"])
        _check_series(con, logs["knockout"])
        _check_totals(con, logs)
    finally:
        con.close()


def _check_chips_graph(con: duckdb.DuckDBPyConnection, log: Path) -> None:
    """The chips after every hand of a player, hand by hand, with the level of each hand."""
    hands = _lines(log)
    player = _summary(log)["results"][0]["player"]
    expected = [(h["tournament"]["level"],
                 p["stack"] + p["reported_points"] * h["tournament"]["chips_per_point"])
                for h in hands for p in h["players"] if p["name"] == player]
    graph = page.chips_graph(con, "ofc-sim", _summary(log)["id"], player)
    assert [row["hand_no"] for row in graph] == list(range(1, len(expected) + 1))
    assert [row["level"] for row in graph] == [lvl for lvl, _ in expected]
    assert all(abs(row["stack_after"] - chips) < 1e-3
               for row, (_, chips) in zip(graph, expected, strict=True))


def _check_series(con: duckdb.DuckDBPyConnection, log: Path) -> None:
    summary = _summary(log)
    shown = page.series(con, "ofc-sim", summary["id"])
    want = [(s["round"], *s["players"], *s["wins"], s["winner"], bool(s.get("forfeit")))
            for s in summary["series"]]
    got = [(r["round"], r["player_a"], r["player_b"], r["wins_a"], r["wins_b"], r["winner"],
            r["forfeit"]) for r in shown]
    assert sorted(got) == sorted(want)


def _check_totals(con: duckdb.DuckDBPyConnection, logs: dict[str, Path]) -> None:
    """Totals for one player who played both: tournaments, ROI, in the money, average place,
    profit by kind."""
    summaries = {k: _summary(v) for k, v in logs.items()}
    both = set.intersection(*({r["player"] for r in s["results"]}
                              for s in summaries.values()))
    player = sorted(both)[0]
    mine = [(k, next(r for r in s["results"] if r["player"] == player), s)
            for k, s in summaries.items()]
    cost = sum(s["buy_in"] + s["fee"] for _, _, s in mine)
    profit = sum(r.get("prize", 0) - s["buy_in"] - s["fee"] for _, r, s in mine)
    totals = page.totals(con, (player,))
    assert totals["tournaments"] == 2
    assert abs(totals["roi"] - profit / cost) < TOL
    assert abs(totals["itm"] - sum(r.get("prize", 0) > 0 for _, r, _ in mine) / 2) < TOL
    assert abs(totals["average_place"] - sum(r["place"] for _, r, _ in mine) / 2) < TOL
    by_kind = {row["kind"]: row["profit"] for row in page.profit_by(con, (player,), "kind")}
    for k, r, s in mine:
        assert abs(by_kind[k] - (r.get("prize", 0) - s["buy_in"] - s["fee"])) < TOL


def test_rescoring_keeps_the_tournament_tables(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(db.read_bytes())
    con = store.connect(copy)
    try:
        players = "SELECT * EXCLUDE (started) FROM tournament_players ORDER BY ALL"
        before = con.execute(players).fetchall()
        chips = con.execute("SELECT count(*), sum(chips) FROM tournament_chips").fetchall()
        rescore(con)
        assert con.execute(players).fetchall() == before
        assert con.execute("SELECT count(*), sum(chips) FROM tournament_chips"
                           ).fetchall() == chips
    finally:
        con.close()


def test_tournament_fields_read_write_and_refuse() -> None:
    hand = {"format": "ofc-hh/1", "source": "club", "hand_id": "t1", "variant": "regular",
            "players": [{"name": "ann", "seat": 0, "board": {
                "top": "6h 6d 2c", "middle": "Ks Kd 9s 5h 3c", "bottom": "Jh Jd Jc 4s 4d"},
                "stack": 30},
                {"name": "bob", "seat": 1, "board": {
                    "top": "Ah Kc 3d", "middle": "As Ad 8h 7c 2h",
                    "bottom": "Qc Tc 8c 6c 5c"}, "stack": 500}],
            "tournament": {"id": "wk1", "name": "Weekly", "kind": "chips", "level": 1,
                           "chips_per_point": 10}}
    record = record_from_dict(hand)
    assert [p.stack for p in record.players] == [3.0, 50.0]
    assert record_to_dict(record) == hand
    for change, message in (
            ({"stake": 1}, "plays for chips, not a stake"),
            ({"tournament": {"id": "wk1", "kind": "chips"}}, "chips need the hand's"),
            ({"tournament": {"id": "wk1", "kind": "bounty"}}, "unknown kind 'bounty'")):
        with pytest.raises(HandError, match=message):
            record_from_dict(hand | change)
    cash = {k: v for k, v in hand.items() if k != "tournament"}
    with pytest.raises(HandError, match="only in a tournament hand"):
        record_from_dict(cash)


def test_a_bad_summary_is_reported_by_line_and_id() -> None:
    good = ('{"format": "ofc-tournament/1", "source": "club", "id": "k1", "kind": "knockout",'
            ' "series": [{"round": 1, "players": ["ann", "bob"], "wins": [2, 1],'
            ' "winner": "ann"}]}')
    bad = good.replace('"wins": [2, 1]', '"wins": [1, 1]').replace('"k1"', '"k2"')
    items = list(parse_text(good + "\n" + bad + "\n", "s.jsonl"))
    assert items[0].summary.series[0].score == "2-1"  # type: ignore[union-attr]
    assert items[1].line == 2 and "tournament 'k2'" in items[1].message  # type: ignore[union-attr]
    assert "nobody has won 2 matches (1-1)" in items[1].message  # type: ignore[union-attr]


def _cash_figures(con: duckdb.DuckDBPyConnection, filters: Any) -> list[Any]:
    from dashboard.queries import aggregated, opponents, overview, sessions

    out = []
    for rows_only in (False, True):  # the aggregates' path and the rows' path
        with aggregated.rows_only() if rows_only else _nothing():
            out += [overview.summary(con, filters),
                    opponents.table(con, filters).to_dict("records"),
                    sessions.session_table(con, filters).to_dict("records")]
    return out


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


def test_cash_figures_are_the_same_after_tournament_hands(tmp_path: Path) -> None:
    """Cash pages leave tournament hands out by default (the Game filter): a cash player's
    figures before any tournament and after one of his tournaments was imported are equal;
    with both games chosen they change (so the comparison can fail)."""
    from dashboard.queries.common import Filters
    from dashboard.queries.tournaments import present

    cash, chips = tmp_path / "cash.jsonl", tmp_path / "chips.jsonl"
    assert main(["simulate", "--variant", "pineapple", "--players", "3", "--names",
                 "Hero,Anna,Dmitri", "--hands", "30", "--policies", "random",
                 "--out", str(cash)]) == 0
    assert main(["simulate", "--variant", "pineapple", "--tournament", "chips", "--entrants",
                 "4", "--names", "Hero,Anna,Bo,Cy", "--starting-stack", "100", "--seed", "2",
                 "--policies", "random", "--out", str(chips)]) == 0
    db = tmp_path / "cash.duckdb"
    import_paths([cash], db)
    con = store.connect(db)
    try:
        assert not present(con)
        before = _cash_figures(con, Filters(player="Hero"))
    finally:
        con.close()
    import_paths([chips, chips.with_name("chips.tournament.jsonl")], db)
    con = store.connect(db)
    try:
        assert present(con)
        assert _cash_figures(con, Filters(player="Hero", game="cash")) == before
        assert _cash_figures(con, Filters(player="Hero")) != before
        only = overview.summary(con, Filters(player="Hero", game="tournaments"))
        expected = sum(1 for h in _lines(chips) for p in h["players"] if p["name"] == "Hero")
        assert only.hands == expected and not only.money  # chips are not money
    finally:
        con.close()


def test_a_knockout_without_its_summary_counts_its_series_from_the_hands(
        logs: dict[str, Path], tmp_path: Path) -> None:
    """Without the summary, the series and places come from the hands' match ends (a forfeit
    leaves no hands: its pair is missing, and the loser's place with it)."""
    db = tmp_path / "hands-only.duckdb"
    import_paths([logs["knockout"]], db)
    summary = _summary(logs["knockout"])
    con = duckdb.connect(str(db), read_only=True)
    try:
        shown = {(r["round"], r["player_a"], r["player_b"]): (r["wins_a"], r["wins_b"],
                                                              r["winner"], r["series_from"])
                 for r in page.series(con, "ofc-sim", summary["id"])}
        places = {r["player"]: r["place"] for r in page.tournament_players(
            con, "ofc-sim", summary["id"])}
    finally:
        con.close()
    played = [s for s in summary["series"] if not s.get("forfeit")]
    assert len(shown) == len(played)
    for s in played:
        a, b = sorted(s["players"])
        wins = dict(zip(s["players"], s["wins"], strict=True))
        assert shown[(s["round"], a, b)] == (wins[a], wins[b], s["winner"], "hands")
    expected = {r["player"]: r["place"] for r in summary["results"]}
    assert places[summary["series"][-1]["winner"]] == 1
    assert all(places[p] == expected[p] for p in places if places[p] is not None)


def test_the_page_shows_the_recounted_totals(logs: dict[str, Path], db: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The Tournaments page itself (AppTest): its headline for a player of both tournaments
    is the recount of the summaries, and its table lists both."""
    from tests.helpers.apptest import app, open_page

    copy = tmp_path / "page.duckdb"
    copy.write_bytes(db.read_bytes())
    summaries = [_summary(log) for log in logs.values()]
    player = sorted(set.intersection(*({r["player"] for r in s["results"]}
                                       for s in summaries)))[0]
    mine = [(next(r for r in s["results"] if r["player"] == player), s) for s in summaries]
    profit = sum(r.get("prize", 0) - s["buy_in"] - s["fee"] for r, s in mine)
    cost = sum(s["buy_in"] + s["fee"] for _, s in mine)
    at = open_page(app(copy, monkeypatch, player=player), "views/tournaments.py")
    assert not at.exception
    shown = {m.label: m.value for m in at.metric}
    assert shown["Tournaments"] == "2"
    assert shown["ROI"] == f"{100 * profit / cost:.1f}%"
    assert shown["In the money"] == f"{100 * sum(r.get('prize', 0) > 0 for r, _ in mine) / 2:.1f}%"
    assert shown["Average place"] == f"{sum(r['place'] for r, _ in mine) / 2:.1f}"
    table = at.dataframe[0].value
    assert sorted(table["place"]) == sorted(r["place"] for r, _ in mine)


LIVE = """@source club
@variant regular
@tournament id=wk49 kind=chips name="Weekly Thursday" level=1 per_point=10

hand 1
Ivey: 6h6d2c-KsKd9s5h3c-JhJdJc4s4d stack=30
Hellmuth: AhKc3d-AsAd8h7c2h-QcTc8c6c5c stack=500

hand 2 level=2 per_point=20
Ivey: 6h6d2c-KsKd9s5h3c-JhJdJc4s4d chips=60
Hellmuth: AhKc3d-AsAd8h7c2h-QcTc8c6c5c chips=470

@tournament
hand 3
Ivey: 6h6d2c-KsKd9s5h3c-JhJdJc4s4d stack=60
Hellmuth: AhKc3d-AsAd8h7c2h-QcTc8c6c5c
"""


def test_the_live_notation_carries_the_tournament_and_the_stacks() -> None:
    """``@tournament`` for the hands below it, a header's ``level=`` / ``per_point=`` for one
    hand, a player's ``stack=`` (or ``chips=``); a stack without a tournament is refused.
    Ivey wins 4 raw points but brought 30 chips = 3 points at 10 a point."""
    from ingest.formats.live import FORMAT as LIVE_FORMAT

    one, two, three = list(LIVE_FORMAT.parse(LIVE, "wk49.txt"))
    t1, t2 = one.record.tournament, two.record.tournament  # type: ignore[union-attr]
    assert (t1.id, t1.name, t1.level, t1.chips_per_point) == ("wk49", "Weekly Thursday", 1, 10)
    assert (t2.level, t2.chips_per_point) == (2, 20)
    assert [p.stack for p in one.record.players] == [3.0, 50.0]  # type: ignore[union-attr]
    assert [p.stack for p in two.record.players] == [3.0, 23.5]  # type: ignore[union-attr]
    assert "need an @tournament line" in three.message  # type: ignore[union-attr]


def test_both_games_is_kept_in_the_address(db: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The Game filter's "Both" is written to the URL (``?game=both``) and read back: a
    reload keeps it (``Filters.game`` is ``None`` for both, which the URL alone could not
    tell from "no choice")."""
    from tests.helpers.apptest import app

    copy = tmp_path / "games.duckdb"
    copy.write_bytes(db.read_bytes())
    at = app(copy, monkeypatch)
    at.run()
    game = at.sidebar.selectbox(key="filter_game")
    assert game.value == "Cash" and at.query_params["game"] == "cash"  # the default
    game.select("Both").run()
    assert at.query_params["game"] == "both"
    again = app(copy, monkeypatch, game="both")  # the reload
    again.run()
    assert again.sidebar.selectbox(key="filter_game").value == "Both"
    assert again.query_params["game"] == "both"
    game = again.sidebar.selectbox(key="filter_game")
    game.select("Tournaments").run()
    assert again.query_params["game"] == "tournaments"
