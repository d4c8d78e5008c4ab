"""The analysis pages' queries (fouls, Fantasyland, opponents, variants, matches, sessions)
against a hand-built database, each number checked against a plain-Python computation from the
stored per-hand rows; then every page through Streamlit's AppTest on that database, the demo
data and an empty database.

The fixture database is built here: hands dealt from a seeded deck (some tops forced to
QQ/KK/AA/trips so Fantasyland happens), scored with the scalar scorer, and inserted row by row
into the schema of ``ingest/schema.sql``: three inactivity-split sessions without a session
id, one logged session, two undated hands, 2- and 3-player tables, a surrender, stakes, and
two OFC Double matches with cube events.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import duckdb
import pytest

from dashboard.queries import fantasyland, fouls, matches, opponents, sessions, variants
from dashboard.queries.common import Filters
from ingest.hand_tables import HAND_COLUMNS_ON_PLAYERS, ROW_NAMES_ON_PLAYERS
from ofc_core.board import ROWS, Board
from ofc_core.cards import DECK, Card, format_cards
from ofc_core.evaluate import category_of, hand_name
from ofc_core.rules import PRESETS
from ofc_core.scoring import Seat, score_hand

ROOT = Path(__file__).resolve().parent.parent
HERO = "hero"
ANN = "ann"
ODD = "o'neil <b>"
"""A name with a quote and markup: data, never SQL or HTML."""
START = datetime(2026, 3, 2, 18, 0, tzinfo=timezone.utc)


def _insert(con: duckdb.DuckDBPyConnection, table: str, **values: object) -> None:
    columns = ", ".join(values)
    marks = ", ".join("?" * len(values))
    con.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(values.values()))


def _take(deck: list[Card], ranks: str, count: int) -> list[Card]:
    """``count`` cards of the first rank in ``ranks`` that still has that many in ``deck``."""
    for rank in ranks:
        same = [c for c in deck if str(c)[0] == rank]
        if len(same) >= count:
            for c in same[:count]:
                deck.remove(c)
            return same[:count]
    raise ValueError(f"no {count} cards of {ranks} left")


def _forced_board(rng: random.Random, deck: list[Card], kind: str | None) -> Board:
    """A board whose top is a pair of ``kind`` ('Q', 'K', 'A'), trips ('trips') or random
    (``None``). A forced top sits over trips of tens or jacks and quads of 4-9 (no foul) unless
    ``kind`` ends with '?' (then the other rows are random, and usually foul)."""
    if kind is None:
        cards = [deck.pop() for _ in range(13)]
        return Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
    rank = kind.rstrip("?")
    top = _take(deck, "2345678", 3) if rank == "trips" else _take(deck, rank, 2)
    if len(top) == 2:
        top += _take(deck, "23", 1)
    if kind.endswith("?"):
        rest = [deck.pop() for _ in range(10)]
        return Board(tuple(top), tuple(rest[:5]), tuple(rest[5:]))
    middle = _take(deck, "JT", 3)
    used = {str(c)[0] for c in top + middle}
    first = _take(deck, "".join(r for r in "AKQ2345" if r not in used), 1)
    used.add(str(first[0])[0])
    middle += first + _take(deck, "".join(r for r in "AKQ2345" if r not in used), 1)
    bottom = _take(deck, "987654", 4) + [deck.pop()]
    return Board(tuple(top), tuple(middle), tuple(bottom))


class Builder:
    """Scores hands with the scalar scorer and stores them the way the importer does."""

    def __init__(self, con: duckdb.DuckDBPyConnection, seed: int = 11) -> None:
        self.con = con
        self.rng = random.Random(seed)
        self.key = 0

    def hand(self, names: list[str], *, variant: str = "pineapple",
             played_at: datetime | None = None, session_id: str | None = None,
             match_id: str | None = None, stake: float | None = None,
             tops: dict[str, str] | None = None, in_fl: dict[str, int] | None = None,
             surrendered: tuple[str, ...] = (), events: list[dict] = ()) -> int:
        self.key += 1
        ruleset = PRESETS[variant]
        deck = list(DECK)
        self.rng.shuffle(deck)
        kinds = {n: (tops or {}).get(n) for n in names}
        # forced boards first ("?" ones after), so no random row takes the cards they need
        order = sorted(names, key=lambda n: 2 if kinds[n] is None else kinds[n][-1] == "?")
        boards = {n: _forced_board(self.rng, deck, kinds[n]) for n in order}
        seats = [Seat(n, boards[n], fantasyland=n in (in_fl or {}), surrendered=n in surrendered)
                 for n in names]
        button = self.key % len(names)
        first = (button + 1) % len(names)
        result = score_hand(seats, ruleset, first)
        _insert(self.con, "hands", hand_key=self.key, source="analysis", hand_id=f"a{self.key}",
                session_id=session_id, match_id=match_id, played_at=played_at, variant=variant,
                ruleset=json.dumps(ruleset.settings()), ruleset_label=ruleset.label,
                scoring=ruleset.scoring.value, button=names[button], hero=HERO, stake=stake,
                currency="EUR" if stake else None, player_count=len(names),
                first_to_act=first, points_differ=False, import_id=1)
        for seat, (s, pr) in enumerate(zip(seats, result.players, strict=True)):
            st = pr.strengths
            _insert(self.con, "hand_players", hand_key=self.key, seat=seat, player=s.name,
                    position=(seat - first) % len(names), fantasyland=s.fantasyland,
                    fl_cards=(in_fl or {}).get(s.name), surrendered=s.surrendered,
                    fouled=pr.fouled,
                    foul_top_middle=bool(pr.fouled and st[0] > st[1]),
                    foul_middle_bottom=bool(pr.fouled and st[1] > st[2]),
                    royalties=pr.royalty_total, fantasyland_next=pr.fantasyland_next,
                    raw_points=pr.raw_points, points=pr.points, reported_points=None,
                    points_differ=False)
            for row, cards, k in zip(ROWS, (s.board.top, s.board.middle, s.board.bottom),
                                     range(3), strict=True):
                strength = None if st is None else st[k]
                _insert(self.con, "hand_rows", hand_key=self.key, seat=seat, row_name=row.value,
                        cards=format_cards(cards), strength=strength,
                        category=None if st is None else category_of(strength).name.lower(),
                        hand_name=None if st is None else hand_name(strength),
                        royalty=pr.royalties[k])
        for i, me in enumerate(names):
            for j, them in enumerate(names):
                if i != j:
                    p = result.pair(me, them)
                    _insert(self.con, "pairs", hand_key=self.key, seat=i, opp_seat=j, player=me,
                            opponent=them, top_result=p.rows[0], middle_result=p.rows[1],
                            bottom_result=p.rows[2], rows_won=p.rows.count(1),
                            rows_lost=p.rows.count(-1), row_points=p.row_points,
                            bonus=p.bonus, scoop=p.scoop, royalties=p.royalties,
                            surrender=p.surrender, total=p.total, points=p.capped)
        for idx, e in enumerate(events):
            data = {k: v for k, v in e.items() if k not in ("type", "by", "accepted")}
            _insert(self.con, "events", hand_key=self.key, idx=idx, type=e["type"],
                    by_player=e.get("by"), accepted=e.get("accepted"), data=json.dumps(data))
        return self.key

    def points(self, key: int) -> dict[str, float]:
        rows = self.con.execute("SELECT player, points FROM hand_players WHERE hand_key = ?",
                                [key]).fetchall()
        return dict(rows)


def build(path: Path, fill_hand_copies: Callable[[duckdb.DuckDBPyConnection], None]) -> Path:
    con = duckdb.connect(str(path))
    con.execute((ROOT / "ingest" / "schema.sql").read_text())
    _insert(con, "imports", import_id=1, path="analysis.jsonl", sha256="0" * 64, size_bytes=1,
            format="ofc-hh/1", parser_version="1", imported_at=START, hands=0, stored=0,
            duplicate=0, partial=0, rejected=0)
    b = Builder(con)
    t = START
    tops = [None, None, "Q", None, "K", "A?", "A", None, "trips", "Q?"]
    # three sessions split only by inactivity (no session id): 2-hour gaps between them
    for block in range(3):
        for n in range(14):
            names = [HERO, ANN] if n % 3 else [HERO, ANN, ODD]
            fl = {HERO: 14 + block} if n == (5 if block == 2 else 6) else None
            b.hand(names, variant="pineapple" if block != 1 else "regular", played_at=t,
                   stake=0.5 if block == 2 else None, tops={HERO: tops[n % 10], ANN: tops[
                       (n + 3) % 10]}, in_fl=fl, surrendered=(ODD,) if n == 9 else ())
            t += timedelta(minutes=2)
        t += timedelta(hours=2)
    # one logged session, interleaved in time with nothing else
    for n in range(6):
        b.hand([HERO, ODD], variant="regular", played_at=t, session_id="club-7",
               tops={ODD: "Q"} if n == 2 else None)
        t += timedelta(minutes=50)
    # two undated hands
    for _ in range(2):
        b.hand([HERO, ANN], variant="turbo")
    # OFC Double: match 1 (hero doubles, ann takes, played to the end), match 2 (ann doubles,
    # hero declines)
    t += timedelta(days=1)
    k1 = b.hand([HERO, ANN], variant="double", match_id="m1", stake=2.0, played_at=t,
                events=[{"type": "double", "by": HERO, "accepted": True, "cube": 2}])
    k2 = b.hand([HERO, ANN], variant="double", match_id="m1", stake=2.0,
                played_at=t + timedelta(minutes=3))
    score = {n: b.points(k1)[n] + b.points(k2)[n] for n in (HERO, ANN)}
    winner = max(score, key=lambda n: (score[n], n == HERO))
    # the winner in the data, as docs/format.md shows it
    con.execute("INSERT INTO events VALUES (?, 0, 'match_end', NULL, NULL, ?)",
                [k2, json.dumps({"winner": winner, "reason": "target", "cube": 2,
                                 "score": score})])
    b.hand([HERO, ANN], variant="double", match_id="m2", stake=2.0,
           played_at=t + timedelta(minutes=10),
           events=[{"type": "double", "by": ANN, "accepted": False, "cube": 1},
                   {"type": "match_end", "by": ANN, "reason": "declined", "cube": 1}])
    fill_hand_copies(con)  # the columns the importer copies onto hand_players
    con.close()
    return path


@pytest.fixture(scope="module")
def db_path(tmp_path_factory: pytest.TempPathFactory, fill_hand_copies) -> Path:
    return build(tmp_path_factory.mktemp("analysis") / "analysis.duckdb", fill_hand_copies)


@pytest.fixture(scope="module")
def con(db_path: Path):
    c = duckdb.connect(str(db_path), read_only=True)
    yield c
    c.close()


@pytest.fixture(scope="module")
def rows(con) -> list[dict]:
    """Every player-hand as a plain dict (hands joined to hand_players), for recomputation."""
    # read from hands and hand_rows, not from their copies on hand_players
    copies = ", ".join((*HAND_COLUMNS_ON_PLAYERS, *ROW_NAMES_ON_PLAYERS))
    cur = con.execute(f"""SELECT h.* EXCLUDE (played_at),
                                 hp.* EXCLUDE (hand_key, {copies}),
                                 timezone('UTC', h.played_at) AS played_at  -- naive UTC
                          FROM hands h JOIN hand_players hp USING (hand_key)
                          ORDER BY hand_key, seat""")
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _mine(rows: list[dict], player: str | None = HERO) -> list[dict]:
    return [r for r in rows if player is None or r["player"] == player]


def _rate(hits: int, total: int) -> float | None:
    return hits / total if total else None


def _foul_rate(rs: list[dict]) -> float | None:
    set_ = [r for r in rs if not r["surrendered"]]
    return _rate(sum(r["fouled"] for r in set_), len(set_))


def _close(a, b) -> bool:
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)):
        return (a is None or math.isnan(a)) and (b is None or math.isnan(b))
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


HERO_ONLY = Filters(player=HERO)

# --------------------------------------------------------------------------------------------
# fouls


def test_foul_breakdowns_equal_a_python_count(con, rows):
    df = fouls.breakdowns(con, HERO_ONLY)
    keys = {"all": lambda r: "all hands", "variant": lambda r: r["variant"],
            "players": lambda r: str(r["player_count"]),
            "position": lambda r: str(r["position"]),
            "hand type": lambda r: "Fantasyland" if r["fantasyland"] else "normal"}
    assert set(df["dimension"]) == set(keys)
    for dim, key in keys.items():
        groups = defaultdict(list)
        for r in _mine(rows):
            groups[key(r)].append(r)
        got = df[df["dimension"] == dim].set_index("value")
        assert set(got.index) == set(groups), dim
        for value, rs in groups.items():
            assert got.loc[value, "hands"] == len(rs)
            assert got.loc[value, "fouls"] == sum(r["fouled"] for r in rs)
            assert _close(got.loc[value, "foul_rate"], _foul_rate(rs))
            assert got.loc[value, "top_beat_middle"] == sum(r["foul_top_middle"] for r in rs)


def test_every_foul_breakdown_row_opens_exactly_its_hands(con):
    df = fouls.breakdowns(con, HERO_ONLY)
    for _, row in df.iterrows():
        hands = fouls.breakdown_hands(con, HERO_ONLY, row["dimension"], row["value"])
        assert len(hands) == row["hands"]
        fouled = fouls.breakdown_hands(con, HERO_ONLY, row["dimension"], row["value"],
                                       fouled_only=True)
        assert len(fouled) == row["fouls"] and fouled["fouled"].all()


def test_fouled_hands_and_relations_match_the_flags(con, rows):
    mine = [r for r in _mine(rows) if r["fouled"]]
    table = fouls.fouled_hands(con, HERO_ONLY)
    assert sorted(table["hand_key"]) == sorted(r["hand_key"] for r in mine)
    rel = fouls.relations(con, HERO_ONLY)
    assert rel["fouls"].sum() == len(mine)
    top_middle = [r for r in mine if r["foul_top_middle"] and not r["foul_middle_bottom"]]
    assert rel[rel["relation"] == "top beat middle"]["fouls"].sum() == len(top_middle)
    for _, g in rel.iterrows():
        narrowed = fouls.fouled_hands(con, HERO_ONLY, relation=g["relation"],
                                      upper=g["upper"], lower=g["lower"])
        assert len(narrowed) == g["fouls"]
    # the hand names are those of the stored rows: recompute one from its cards
    first = table.iloc[0]
    cards = [Card.parse(c) for c in first["top_cards"].split()]
    from ofc_core.evaluate import evaluate
    assert first["top_hand"] == hand_name(evaluate(cards))


def test_rolling_foul_rate_ends_with_the_last_window(con, rows):
    set_ = [r for r in _mine(rows) if not r["surrendered"]]
    set_.sort(key=lambda r: (r["played_at"] is None, r["played_at"] or datetime.min,
                             r["hand_key"]))
    df = fouls.rolling(con, HERO_ONLY, window=10)
    assert df["hand_no"].iloc[-1] == len(set_) and df["hand_no"].iloc[0] >= 10
    for _, row in df.iterrows():
        n = row["hand_no"]
        assert set_[n - 1]["hand_key"] == row["hand_key"]
        assert _close(row["rolling_foul_rate"], _foul_rate(set_[n - 10:n]))

# --------------------------------------------------------------------------------------------
# sessions


def _gap_sessions(rows: list[dict], gap_minutes: float) -> list[list[dict]]:
    """Independent session split: logged ids, else a gap longer than ``gap_minutes``."""
    by_hand = {r["hand_key"]: r for r in rows}
    logged = defaultdict(list)
    dated = []
    undated = []
    for r in by_hand.values():
        if r["session_id"] is not None:
            logged[r["session_id"]].append(r)
        elif r["played_at"] is None:
            undated.append(r)
        else:
            dated.append(r)
    dated.sort(key=lambda r: (r["played_at"], r["hand_key"]))
    out = list(logged.values())
    for r in dated:
        if out and out[-1][0]["session_id"] is None and out[-1][0]["played_at"] is not None and (
                r["played_at"] - out[-1][-1]["played_at"]).total_seconds() <= gap_minutes * 60:
            out[-1].append(r)
        else:
            out.append([r])
    if undated:
        out.append(undated)
    return out


@pytest.mark.parametrize("gap", [30, 1, 600])
def test_sessions_split_by_inactivity(con, rows, gap):
    mine = _mine(rows)
    expected = _gap_sessions(mine, gap)
    df = sessions.period_table(con, HERO_ONLY, "session", gap_minutes=gap)
    assert len(df) == len(expected)
    assert sorted(df["hands"]) == sorted(len(s) for s in expected)
    by_points = sorted(round(sum(r["points"] for r in s), 9) for s in expected)
    assert sorted(round(p, 9) for p in df["points"]) == by_points
    # race points (OFC Double) are left out of the running total when other hands are there
    mixed = len({r["scoring"] == "race" for r in mine}) > 1
    assert mixed  # the fixture mixes the two
    assert _close(df["cumulative_points"].iloc[-1],
                  sum(r["points"] for r in mine if not (mixed and r["scoring"] == "race")))
    for _, row in df.iterrows():
        hands = sessions.period_hands(con, HERO_ONLY, "session", row["period"], gap_minutes=gap)
        assert len(hands) == row["hands"]


def test_thirty_minute_gap_finds_the_three_unlogged_sessions(con):
    df = sessions.period_table(con, HERO_ONLY, "session", gap_minutes=30)
    assert sum(df["period"].str.startswith("gap:")) == 4  # three blocks and the Double day
    assert "id:club-7" in set(df["period"]) and "undated" in set(df["period"])


def test_weekly_periods_and_trend(con, rows):
    df = sessions.period_table(con, HERO_ONLY, "week")
    assert df["hands"].sum() == len(_mine(rows))
    pph = list(df["points_per_hand"])
    for i, got in enumerate(df["trend_points_per_hand"]):
        window = pph[max(0, i - sessions.TREND_PERIODS + 1): i + 1]
        assert _close(got, sum(window) / len(window))

# --------------------------------------------------------------------------------------------
# Fantasyland


def _top_class(con, r) -> str:
    cards = con.execute("SELECT cards FROM hand_rows WHERE hand_key = ? AND seat = ? AND "
                        "row_name = 'top'", [r["hand_key"], r["seat"]]).fetchone()[0]
    ranks = [c[0] for c in cards.split()]
    if len(set(ranks)) == 1:
        return "trips"
    pair = [x for x in set(ranks) if ranks.count(x) == 2]
    return {"Q": "QQ", "K": "KK", "A": "AA"}.get(pair[0] if pair else "", "below QQ")


@pytest.mark.parametrize("player", [HERO, ANN, None])
def test_fantasyland_summary_equals_python(con, rows, player):
    mine = _mine(rows, player)
    got = fantasyland.summary(con, Filters(player=player))
    fl = [r for r in mine if r["fantasyland"]]
    normal = [r for r in mine if not r["fantasyland"]]
    entries = [r for r in normal if r["fantasyland_next"] > 0]
    assert got["hands"] == len(mine) and got["fl_hands"] == len(fl)
    assert got["entries"] == len(entries) and entries  # the fixture forces QQ+ tops
    assert _close(got["entry_rate"], _rate(len(entries), len(normal)))
    assert _close(got["stay_rate"], _rate(sum(r["fantasyland_next"] > 0 for r in fl), len(fl)))
    assert _close(got["fl_per_100"], 100 * len(fl) / len(mine))
    # race points (OFC Double) are left out of points per hand when other hands are there
    mixed = len({r["scoring"] == "race" for r in mine}) > 1
    counted = [r for r in mine if not (mixed and r["scoring"] == "race")]
    assert got["race_left_out"] == len(mine) - len(counted)
    fl_counted = [r["points"] for r in counted if r["fantasyland"]]
    assert _close(got["points_per_fl_hand"], statistics.fmean(fl_counted) if fl_counted else None)
    assert _close(got["points_per_normal_hand"],
                  statistics.fmean(r["points"] for r in counted if not r["fantasyland"]))


def test_fantasyland_by_top_hand(con, rows):
    normal = [r for r in _mine(rows) if not r["fantasyland"]]
    df = fantasyland.by_top(con, HERO_ONLY).set_index("top_class")
    groups = defaultdict(list)
    for r in normal:
        groups[_top_class(con, r)].append(r)
    assert set(df.index) == set(groups) and {"QQ", "KK", "AA", "trips"} <= set(groups)
    for cls, rs in groups.items():
        assert df.loc[cls, "hands"] == len(rs)
        assert df.loc[cls, "fouled"] == sum(r["fouled"] for r in rs)
        assert df.loc[cls, "entries"] == sum(r["fantasyland_next"] > 0 for r in rs)
        assert len(fantasyland.top_hands(con, HERO_ONLY, cls)) == len(rs)
    # entries only come from a qualifying top, and the shares add up to the entry rate
    assert df.loc["below QQ", "entries"] == 0
    assert _close(df["share_of_normal_hands"].sum(),
                  fantasyland.summary(con, HERO_ONLY)["entry_rate"])


def test_fantasyland_card_counts(con, rows):
    fl = [r for r in _mine(rows) if r["fantasyland"]]
    df = fantasyland.by_cards(con, HERO_ONLY).set_index("fl_cards")
    assert dict(df["hands"]) == {str(c): sum(r["fl_cards"] == c for r in fl)
                                 for c in {r["fl_cards"] for r in fl}}
    for cards in df.index:
        assert len(fantasyland.cards_hands(con, HERO_ONLY, cards)) == df.loc[cards, "hands"]

# --------------------------------------------------------------------------------------------
# opponents


@pytest.fixture(scope="module")
def pair_rows(con) -> list[dict]:
    cur = con.execute("""SELECT p.*, h.stake, h.scoring, h.match_id, me.fouled AS me_fouled,
                                me.surrendered AS me_sur,
                                o.fouled AS o_fouled, o.surrendered AS o_sur,
                                me.royalties AS me_roy, o.royalties AS o_roy
                         FROM pairs p JOIN hands h USING (hand_key)
                         JOIN hand_players me ON me.hand_key = p.hand_key AND me.seat = p.seat
                         JOIN hand_players o ON o.hand_key = p.hand_key AND o.seat = p.opp_seat""")
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _match_money(con, player: str) -> dict[int, float]:
    """Independently of the dashboard's SQL: per hand that ends an OFC Double match, the
    player's money (stake x final cube, or 2 ** doubles taken, won or lost)."""
    taken: Counter[str] = Counter()
    ends = []
    for hand_key, kind, by, accepted, data, match_id, stake in con.execute(
            "SELECT e.hand_key, e.type, e.by_player, e.accepted, e.data, h.match_id, h.stake "
            "FROM events e JOIN hands h USING (hand_key)").fetchall():
        if kind == "double" and accepted:
            taken[match_id] += 1
        elif kind == "match_end":
            ends.append((hand_key, by or json.loads(data).get("winner"), json.loads(data),
                         match_id, stake))
    return {k: (1 if winner == player else -1) * stake * (d.get("cube") or 2 ** taken[m])
            for k, winner, d, m, stake in ends if stake is not None}


def test_opponent_table_equals_python(con, pair_rows):
    df = opponents.table(con, HERO_ONLY).set_index(["opponent", "scoring"])
    mine = [p for p in pair_rows if p["player"] == HERO]
    assert {o for o, _ in df.index} == {ANN, ODD}
    ended = _match_money(con, HERO)
    for opp, scoring in df.index:
        ps = [p for p in mine if p["opponent"] == opp and p["scoring"] == scoring]
        pts = [p["points"] for p in ps]
        got = df.loc[(opp, scoring)]
        assert got["hands"] == len(ps)
        assert _close(got["net_points"], sum(pts))
        half = 1.96 * statistics.stdev(pts) / math.sqrt(len(pts))
        assert _close(got["ci_low"], statistics.fmean(pts) - half)
        assert _close(got["ci_high"], statistics.fmean(pts) + half)
        race = scoring == "race"  # race points are not money: the matches pay stake x cube
        assert _close(got["money"], sum(ended.get(p["hand_key"], 0.0) if race
                                        else p["points"] * p["stake"] for p in ps
                                        if p["stake"] is not None))
        assert _close(got["rows_won_pct"], sum(p["rows_won"] for p in ps) / (3 * len(ps)))
        assert got["scoops_for"] == sum(p["scoop"] for p in ps)
        against = [q for q in pair_rows if q["player"] == opp and q["opponent"] == HERO
                   and q["scoring"] == scoring]
        assert got["scoops_against"] == sum(q["scoop"] for q in against)
        assert got["royalties_for"] == sum(p["me_roy"] for p in ps)
        assert got["royalties_against"] == sum(p["o_roy"] for p in ps)
        theirs = [p for p in ps if not p["o_sur"]]
        assert _close(got["their_foul_rate"], _rate(sum(p["o_fouled"] for p in theirs),
                                                    len(theirs)))


def test_head_to_head_parts_add_up_to_the_net(con):
    table = opponents.table(con, HERO_ONLY).set_index(["opponent", "scoring"])
    for opp, scoring in table.index:
        split = opponents.head_to_head(con, HERO_ONLY, opp, scoring).set_index("component")
        assert _close(split["points"].sum(), table.loc[(opp, scoring), "net_points"])
        assert len(opponents.versus_hands(con, HERO_ONLY, opp, scoring=scoring)) == \
            table.loc[(opp, scoring), "hands"]
        for component, row in split.iterrows():
            hands = opponents.versus_hands(con, HERO_ONLY, opp, component, scoring=scoring)
            assert len(hands) == row["hands"]
    # ODD surrendered once against the hero: the surrender part is that payment
    odd = opponents.head_to_head(con, HERO_ONLY, ODD).set_index("component")
    assert odd.loc["surrender", "hands"] == 3 and odd.loc["surrender", "points"] == 3 * 2


def test_cumulative_net_ends_at_the_net(con):
    table = opponents.table(con, HERO_ONLY).set_index(["opponent", "scoring"])
    names = tuple({o for o, _ in table.index})
    cum = opponents.cumulative(con, HERO_ONLY, names)
    assert set(cum["opponent"]) == set(names)
    assert set(opponents.cumulative(con, HERO_ONLY, (ODD,))["opponent"]) == {ODD}
    for key, line in cum.groupby(["opponent", "scoring"]):  # one line per scoring system
        assert _close(line["cumulative_points"].iloc[-1], table.loc[key, "net_points"])
        assert line["hand_no"].iloc[-1] == table.loc[key, "hands"]


def test_opponents_need_a_player(con):
    with pytest.raises(ValueError, match="choose a player"):
        opponents.table(con, Filters())

# --------------------------------------------------------------------------------------------
# variants


def test_variant_table_equals_python(con, rows):
    df = variants.table(con, HERO_ONLY).set_index("ruleset_label")
    groups = defaultdict(list)
    for r in _mine(rows):
        groups[r["ruleset_label"]].append(r)
    assert set(df.index) == set(groups) == {"pineapple", "regular", "turbo", "double"}
    for label, rs in groups.items():
        got = df.loc[label]
        assert got["hands"] == len(rs)
        assert _close(got["points_per_hand"], statistics.fmean(r["points"] for r in rs))
        assert _close(got["foul_rate"], _foul_rate(rs))
        assert _close(got["royalties_per_hand"], statistics.fmean(r["royalties"] for r in rs))
        assert len(variants.ruleset_hands(con, HERO_ONLY, label)) == len(rs)


def test_filters_narrow_every_query(con, rows):
    only = Filters(player=HERO, variant="regular")
    regular = [r for r in _mine(rows) if r["variant"] == "regular"]
    assert variants.table(con, only)["hands"].tolist() == [len(regular)]
    assert fantasyland.summary(con, only)["hands"] == len(regular)
    assert opponents.table(con, only)["hands"].sum() == sum(r["player_count"] - 1
                                                             for r in regular)
    assert sessions.period_table(con, only)["hands"].sum() == len(regular)
    by_odd = Filters(player=ODD)
    assert variants.table(con, by_odd)["hands"].sum() == len(_mine(rows, ODD))

# --------------------------------------------------------------------------------------------
# matches



def _cube_summary(con, filters):
    """The Matches page's cube summary, by its own path: the offers and the matches' table
    turned into decisions, then summed."""
    decisions = matches.cube_decisions_of(matches.offers(con, filters), matches.table(con, filters))
    return matches.cube_summary_of(decisions)


def test_matches(con, rows):
    df = matches.table(con, HERO_ONLY).set_index("match_id")
    assert list(df.index) == ["m1", "m2"]
    for mid in ("m1", "m2"):
        mine = [r for r in _mine(rows) if r["match_id"] == mid]
        theirs = [r for r in _mine(rows, ANN) if r["match_id"] == mid]
        assert df.loc[mid, "hands"] == len(mine)
        assert _close(df.loc[mid, "points"], sum(r["points"] for r in mine))
        assert _close(df.loc[mid, "opponent_points"], sum(r["points"] for r in theirs))
        assert df.loc[mid, "opponent"] == ANN
        assert len(matches.match_hands(con, HERO_ONLY, mid)) == len(mine)
    m1_won = df.loc["m1", "winner"] == HERO
    assert df.loc["m1", "cube"] == 2 and df.loc["m1", "money"] == (4.0 if m1_won else -4.0)
    assert not df.loc["m2", "won"] and df.loc["m2", "reason"] == "declined"
    assert df.loc["m2", "money"] == -2.0 and df.loc["m2", "cube"] == 1
    summary = matches.summary(con, HERO_ONLY)
    assert summary["matches"] == 2 and summary["won"] == int(m1_won)
    assert _close(summary["money"], (4.0 if m1_won else -4.0) - 2.0)
    cube = _cube_summary(con, HERO_ONLY).set_index("decision")
    assert cube.loc["I doubled, they took", "decisions"] == 1
    assert cube.loc["I doubled, they took", "matches_won"] == int(m1_won)
    assert cube.loc["they doubled, I declined", "matches_lost"] == 1
    assert cube.loc["they doubled, I declined", "money"] == -2.0
    # the same matches from ann's side are mirrored
    ann = matches.table(con, Filters(player=ANN)).set_index("match_id")
    assert ann.loc["m2", "money"] == 2.0 and ann.loc["m1", "money"] == -df.loc["m1", "money"]
    ann_cube = _cube_summary(con, Filters(player=ANN)).set_index("decision")
    assert set(ann_cube.index) == {"they doubled, I took", "I doubled, they declined"}

# --------------------------------------------------------------------------------------------
# an empty database


def test_every_query_on_an_empty_database(tmp_path):
    path = tmp_path / "empty.duckdb"
    c = duckdb.connect(str(path))
    c.execute((ROOT / "ingest" / "schema.sql").read_text())
    f = Filters(player=HERO)
    assert fouls.breakdowns(c, f).empty and fouls.relations(c, f).empty
    assert fouls.fouled_hands(c, f).empty and fouls.rolling(c, f).empty
    assert sessions.period_table(c, f).empty and sessions.period_table(c, f, "week").empty
    s = fantasyland.summary(c, f)
    assert s["hands"] == 0 and s["entry_rate"] is None
    assert fantasyland.by_top(c, f).empty and fantasyland.by_cards(c, f).empty
    assert opponents.table(c, f).empty and opponents.cumulative(c, f, (ANN,)).empty
    assert opponents.head_to_head(c, f, ANN)["points"].sum() == 0
    assert variants.table(c, f).empty
    assert matches.table(c, f).empty and _cube_summary(c, f).empty
    assert matches.summary(c, f)["matches"] == 0
    c.close()

# --------------------------------------------------------------------------------------------
# the pages, through Streamlit's AppTest

APP = str(ROOT / "dashboard" / "app.py")
PAGES = ("fouls", "fantasyland", "opponents", "variants", "matches", "sessions")


@pytest.fixture(scope="module")
def page_db(db_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy for the app (DuckDB will not open one file read-only and writable at once)."""
    copy = tmp_path_factory.mktemp("pages") / "analysis.duckdb"
    shutil.copy(db_path, copy)
    return copy


def run_page(db: Path, page: str, monkeypatch: pytest.MonkeyPatch, **params: str):
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("OFC_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(params)
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception, at.exception
    return at


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_fouls_page_shows_the_foul_rate(page_db, rows, monkeypatch):
    at = run_page(page_db, "fouls", monkeypatch, player=HERO)
    mine = _mine(rows)
    rate = _foul_rate(mine)
    fouled = sum(r["fouled"] for r in mine)
    got = metrics(at)
    assert got["Foul %"] == f"{100 * rate:.1f}%"
    assert got["Top beat middle"] == str(sum(r["foul_top_middle"] for r in mine))
    table = next(d.value for d in at.dataframe if "relation" in d.value.columns
                 and "top_cards" in d.value.columns)
    assert len(table) == fouled


def test_fantasyland_page_numbers(page_db, rows, monkeypatch):
    at = run_page(page_db, "fantasyland", monkeypatch, player=HERO)
    mine = _mine(rows)
    normal = [r for r in mine if not r["fantasyland"]]
    fl = [r for r in mine if r["fantasyland"]]
    entries = sum(r["fantasyland_next"] > 0 for r in normal)
    got = metrics(at)
    assert got["FL entry %"] == f"{100 * entries / len(normal):.1f}%"
    assert got["FL hands per 100 hands"] == f"{100 * len(fl) / len(mine):.1f}"
    assert any(s.value == "Does chasing pay?" for s in at.subheader)


def test_opponents_page_table(page_db, pair_rows, monkeypatch):
    at = run_page(page_db, "opponents", monkeypatch, player=HERO)
    table = next(d.value for d in at.dataframe if "scoops_for" in d.value.columns)
    for _, row in table.iterrows():
        ps = [p for p in pair_rows if p["player"] == HERO and p["opponent"] == row["opponent"]
              and p["scoring"] == row["scoring"]]
        assert row["hands"] == len(ps) and _close(row["net_points"], sum(p["points"] for p in ps))
    # the odd name is shown as data in a table, never as markdown HTML, and reaches plotly
    # (which reads a few tags in labels) with its < and > as entities; its quote as it is,
    # since plotly shows &#x27; and &quot; as written
    assert ODD in set(table["opponent"])
    assert all(ODD not in m.value for m in at.markdown if m.proto.allow_html)
    specs = [c.proto.spec for c in at.get("plotly_chart")]
    assert any("o'neil &lt;b&gt;" in spec for spec in specs)
    assert not any("<b>" in spec for spec in specs)


def test_variants_page_table(page_db, rows, monkeypatch):
    at = run_page(page_db, "variants", monkeypatch, player=HERO)
    table = at.dataframe[0].value.set_index("ruleset_label")
    for label in table.index:
        rs = [r for r in _mine(rows) if r["ruleset_label"] == label]
        assert table.loc[label, "hands"] == len(rs)
        assert _close(table.loc[label, "foul_rate"], 100 * _foul_rate(rs))


def test_matches_page(page_db, monkeypatch):
    at = run_page(page_db, "matches", monkeypatch, player=HERO)
    assert metrics(at)["Matches"] == "2"
    table = next(d.value for d in at.dataframe if "match_id" in d.value.columns
                 and "opponent_points" in d.value.columns)
    assert list(table["match_id"]) == ["m1", "m2"]
    assert table.set_index("match_id").loc["m2", "money"] == -2.0  # a number, sorted as one


def test_sessions_page_and_its_gap(page_db, rows, monkeypatch):
    at = run_page(page_db, "sessions", monkeypatch, player=HERO)
    assert metrics(at)["Sessions"] == str(len(_gap_sessions(_mine(rows), 30)))
    at.number_input(key="sessions_gap").set_value(600).run()
    assert not at.exception
    assert metrics(at)["Sessions"] == str(len(_gap_sessions(_mine(rows), 600)))


def test_matches_page_without_matches_says_so(page_db, monkeypatch):
    at = run_page(page_db, "matches", monkeypatch, player=HERO, variant="pineapple")
    assert any("No OFC Double matches" in i.value for i in at.info)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_on_an_empty_database(empty_db_path, page, monkeypatch):
    at = run_page(empty_db_path, page, monkeypatch)
    assert any("No hands yet" in i.value for i in at.info)


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_every_page_on_the_demo_data(demo_db_path, page, monkeypatch):
    at = run_page(demo_db_path, page, monkeypatch)
    assert at.title[0].value.lower() == page
    assert not at.error
    assert at.metric or at.dataframe
