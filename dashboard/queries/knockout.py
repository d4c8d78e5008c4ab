"""The Knockout page's reads: the brackets, one bracket (the replay of its changes) and its log,
and the imported OFC Double matches of a pair, all through ingest's API (their SQL lives with
the writer, :mod:`ingest.knockout`). The picture's data: :func:`picture_rows`."""

from __future__ import annotations

from typing import Any

import duckdb

from dashboard.queries.fetch import Connection
from ingest import api
from ofc_core.knockout import Bracket


def names(con: Connection) -> list[str]:
    """The brackets, newest first (none on a store without the table)."""
    try:
        return api.knockout_brackets(con)
    except duckdb.Error:  # a store of an older schema, or Parquet: no brackets to show
        return []


def bracket(con: Connection, name: str) -> Bracket | None:
    try:
        return api.knockout_bracket(con, name)
    except api.KnockoutError:
        return None


def log(con: Connection, name: str) -> list[dict[str, Any]]:
    """Every change, newest first: when, who, what."""
    return [{"seq": r.seq, "when": r.changed_at[:19], "who": r.who, "action": r.action,
             "details": _details(r.action, r.data)}
            for r in reversed(api.knockout_log(con, name))]


def _details(action: str, data: dict[str, Any]) -> str:
    if action == "create":
        return f"{len(data.get('players', []))} players, seed {data.get('seed')}"
    if action == "series":
        players = data.get("players", ["?", "?"])
        score = "forfeit" if data.get("forfeit") else "-".join(map(str, sorted(
            data.get("wins", [0, 0]), reverse=True)))
        how = " (imported matches)" if data.get("matches") else ""
        return f"{players[0]} - {players[1]}: {data.get('winner')} {score}{how}"
    return ""


def matches(con: Connection, a: str, b: str) -> list[tuple[str, str, str]]:
    """The pair's imported Double matches (any time): id, winner, when it ended."""
    return api.knockout_matches(con, a, b)


def picture_rows(b: Bracket) -> list[dict[str, Any]]:
    """One row per pair for the bracket's picture: round (x), place (y, a round's pairs
    centred on the first round's), the label, and whether it is decided."""
    rows: list[dict[str, Any]] = []
    first = len(b.rounds[0]) if b.rounds else 1
    for pairs in b.rounds:
        step = first / len(pairs)
        for p in pairs:
            if p.b is None:
                label = f"{p.a} (bye)"
            elif p.series is None:
                label = f"{p.a} - {p.b}"
            else:
                label = f"{p.a} - {p.b}  {p.series.winner} {p.series.score}"
            rows.append({"round": f"round {p.round}", "y": (p.slot + 0.5) * step,
                         "label": label, "state": "decided" if p.winner else "to play"})
    if b.champion is not None:
        rows.append({"round": "winner", "y": first / 2, "label": b.champion,
                     "state": "winner"})
    return rows
