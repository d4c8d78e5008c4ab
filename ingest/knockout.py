"""The knockout brackets a club runs (the dashboard's Knockout page, ``ofc knockout``): every
change is a row of ``knockout_events`` (user data: who, when, what), the bracket the replay of
its rows (:func:`ofc_core.knockout.replay`). A change is checked against the bracket before it
is written; a refused change writes nothing and says why (:class:`KnockoutError`).

A series can be recorded from the imported OFC Double matches between the pair
(:func:`played_matches`: the matches whose hands seat both, ended by ``match_end``, since the
round was drawn), or typed (2-0, 2-1, forfeit).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import duckdb

from ofc_core.knockout import Bracket, Change, parse_score, replay

from .ledger import IMPORT_LOCK, transaction

T = TypeVar("T")


class KnockoutError(ValueError):
    """A change the bracket refuses (the message is for the user)."""


@dataclass(frozen=True, slots=True)
class Logged:
    """One row of a bracket's log."""

    seq: int
    changed_at: str
    who: str
    action: str
    data: dict[str, Any]


def _rows(con: duckdb.DuckDBPyConnection, name: str) -> list[Logged]:
    return [Logged(seq, at, who, action, json.loads(data)) for seq, at, who, action, data in
            con.execute("SELECT seq, CAST(changed_at AS VARCHAR), who, action, data "
                        "FROM knockout_events WHERE bracket = ? ORDER BY seq",
                        [name]).fetchall()]


def log(con: duckdb.DuckDBPyConnection, name: str) -> list[Logged]:
    """Every change of the bracket, oldest first (undone ones too)."""
    return _rows(con, name)


def brackets(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The brackets' names, newest first."""
    return [r[0] for r in con.execute("SELECT bracket FROM knockout_events GROUP BY 1 "
                                      "ORDER BY max(changed_at) DESC, 1").fetchall()]


def bracket(con: duckdb.DuckDBPyConnection, name: str) -> Bracket:
    """The bracket as its changes make it (``KnockoutError`` when there is none)."""
    rows = _rows(con, name)
    if not rows:
        raise KnockoutError(f"no knockout named {name!r}")
    return replay([Change(r.action, r.data) for r in rows])


def _change(con: duckdb.DuckDBPyConnection, name: str, who: str, action: str,
            data: dict[str, Any]) -> Bracket:
    """Check the change against the bracket and write it, in one transaction."""
    who = who.strip() or "unknown"

    def work(cur: duckdb.DuckDBPyConnection) -> Bracket:
        rows = _rows(cur, name)
        try:
            after = replay([Change(r.action, r.data) for r in rows] + [Change(action, data)])
        except ValueError as exc:
            raise KnockoutError(str(exc)) from None
        cur.execute("INSERT INTO knockout_events VALUES (?, ?, now(), ?, ?, ?)",
                    [name, len(rows) + 1, who, action, json.dumps(data, ensure_ascii=False)])
        return after
    return _written(con, f"changing the knockout {name!r}", work)


def _written(con: duckdb.DuckDBPyConnection, what: str,
             work: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
    cur = con.cursor()
    try:
        with IMPORT_LOCK, transaction(cur, what):
            result = work(cur)
            cur.execute("COMMIT")
    finally:
        cur.close()
    return result


def create(con: duckdb.DuckDBPyConnection, name: str, players: Sequence[str], seed: int,
           who: str) -> Bracket:
    """A new bracket, its first round drawn with ``seed``."""
    if _rows(con, name):
        raise KnockoutError(f"a knockout named {name!r} exists already")
    return _change(con, name, who, "create", {"name": name, "players": list(players),
                                              "seed": int(seed)})


def record(con: duckdb.DuckDBPyConnection, name: str, players: tuple[str, str], winner: str,
           score: str, who: str, matches: Sequence[str] = ()) -> Bracket:
    """A series typed: ``score`` ``2-0``, ``2-1`` (the winner's wins first) or ``forfeit``
    (the loser did not open the table in time)."""
    try:
        (won, lost), forfeit = parse_score(score)
    except ValueError as exc:
        raise KnockoutError(str(exc)) from None
    if winner not in players:
        raise KnockoutError(f"the winner {winner!r} is not one of {players[0]} - {players[1]}")
    wins = [won, lost] if winner == players[0] else [lost, won]
    return _change(con, name, who, "series", {"players": list(players), "wins": wins,
                                              "winner": winner, "forfeit": forfeit,
                                              "matches": list(matches)})


def draw_next(con: duckdb.DuckDBPyConnection, name: str, who: str) -> Bracket:
    """The next round drawn (every series of this one recorded)."""
    return _change(con, name, who, "draw", {})


def undo(con: duckdb.DuckDBPyConnection, name: str, who: str) -> Bracket:
    """The latest change in force undone (never the creation); the undo is logged too."""
    return _change(con, name, who, "undo", {})


def _round_started(con: duckdb.DuckDBPyConnection, name: str) -> str | None:
    """When the current round was drawn (its creation or its ``draw``), undone rows aside."""
    rows = _rows(con, name)
    kept: list[Logged] = []
    for r in rows:
        if r.action == "undo":
            kept.pop()
        else:
            kept.append(r)
    drawn = [r.changed_at for r in kept if r.action in ("create", "draw")]
    return drawn[-1] if drawn else None


def played_matches(con: duckdb.DuckDBPyConnection, a: str, b: str,
                   since: str | None = None) -> list[tuple[str, str, str]]:
    """The OFC Double matches between ``a`` and ``b`` stored, in the order they ended (since
    ``since`` when given: the round's draw): ``(match_id, winner, ended_at)``."""
    rows = con.execute("""
        SELECT h.match_id, e.by_player AS winner,
               CAST(max(h.played_at) AS VARCHAR) AS ended
        FROM hands h JOIN events e ON e.hand_key = h.hand_key AND e.type = 'match_end'
        WHERE h.match_id IS NOT NULL AND h.player_count = 2
          AND h.hand_key IN (SELECT hand_key FROM hand_players WHERE player = ?)
          AND h.hand_key IN (SELECT hand_key FROM hand_players WHERE player = ?)
          AND (CAST(? AS TIMESTAMPTZ) IS NULL OR h.played_at >= CAST(? AS TIMESTAMPTZ))
        GROUP BY ALL ORDER BY max(h.played_at), h.match_id""",
                       [a, b, since, since]).fetchall()
    return [(m, w, t) for m, w, t in rows if w in (a, b)]


def record_from_matches(con: duckdb.DuckDBPyConnection, name: str, players: tuple[str, str],
                        who: str, since_draw: bool = True) -> Bracket:
    """The pair's series from their imported matches: the first matches in the order they
    ended until one has won two (``KnockoutError`` when they have not played it out)."""
    since = _round_started(con, name) if since_draw else None
    wins = {players[0]: 0, players[1]: 0}
    taken: list[str] = []
    for match_id, winner, _ in played_matches(con, *players, since):
        wins[winner] += 1
        taken.append(match_id)
        if wins[winner] == 2:
            score = f"2-{sum(wins.values()) - 2}"
            return record(con, name, players, winner, score, who, taken)
    found = f"{len(taken)} match{'es' * (len(taken) != 1)}"
    raise KnockoutError(f"{players[0]} - {players[1]}: the imported matches do not end the "
                        f"series yet ({found} found since the round was drawn, "
                        f"{wins[players[0]]}-{wins[players[1]]})")
