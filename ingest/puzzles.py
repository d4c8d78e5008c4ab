"""The Train page's answers to puzzles, in the store (``puzzle_answers``): user data, kept by
rescoring, merging and upgrades like the notes.

A puzzle is a reviewed decision (``decisions``' key: source, hand id, player, street). Each
answer is a row with when it comes back (:func:`due_after`): a missed puzzle at once, behind
the puzzles not tried yet; a solved one after 1, 3, 7, 21 and then 60 days as it is solved
again and again (spaced repetition).

>>> from datetime import datetime, timezone
>>> from ingest.store import connect
>>> con = connect(":memory:")
>>> now = datetime(2026, 12, 7, 12, tzinfo=timezone.utc)
>>> write_answer(con, PuzzleAnswer("s", "1", "ann", 2, "Qh--Kd/2c", 0.0, 0.4, True), now)
datetime.datetime(2026, 12, 8, 12, 0, tzinfo=datetime.timezone.utc)
>>> write_answer(con, PuzzleAnswer("s", "1", "ann", 2, "Qh--Kd/2c", 0.0, 0.4, True), now)
datetime.datetime(2026, 12, 10, 12, 0, tzinfo=datetime.timezone.utc)
>>> write_answer(con, PuzzleAnswer("s", "1", "ann", 2, "-Qh-Kd/2c", 3.0, 0.4, False), now)
datetime.datetime(2026, 12, 7, 12, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

import json
from dataclasses import astuple, dataclass
from datetime import datetime, timedelta

import duckdb

from ofc_core.hand import HandRecord

from .formats.ofc_hh import dumps_record, record_from_dict
from .stored_hands import load_records

INTERVALS_DAYS = (1, 3, 7, 21, 60)
"""Days until a solved puzzle comes back, by how many times in a row it was solved."""


@dataclass(frozen=True)
class PuzzleAnswer:
    """One answer: the puzzle's key, the placement, its EV below the best and the noise of
    that difference (two standard errors), and whether it solved the puzzle."""

    source: str
    hand_id: str
    player: str
    street: int
    answer: str
    ev_lost: float
    noise: float
    solved: bool


def due_after(streak: int) -> timedelta:
    """When a puzzle solved ``streak`` times in a row (0: missed) comes back.

    >>> due_after(0), due_after(1).days, due_after(9).days
    (datetime.timedelta(0), 1, 60)
    """
    if streak <= 0:
        return timedelta(0)
    return timedelta(days=INTERVALS_DAYS[min(streak, len(INTERVALS_DAYS)) - 1])


def _streak(con: duckdb.DuckDBPyConnection, a: PuzzleAnswer) -> int:
    """How many times in a row the puzzle was solved, this answer included."""
    if not a.solved:
        return 0
    rows = con.execute("SELECT solved FROM puzzle_answers WHERE source = ? AND hand_id = ? AND "
                       "player = ? AND street = ? ORDER BY answered_at DESC",
                       [a.source, a.hand_id, a.player, a.street]).fetchall()
    streak = 1
    for (solved,) in rows:
        if not solved:
            break
        streak += 1
    return streak


def write_answer(con: duckdb.DuckDBPyConnection, answer: PuzzleAnswer,
                 now: datetime) -> datetime:
    """Store one answer given at ``now`` (a time with its zone); when the puzzle comes back."""
    due = now + due_after(_streak(con, answer))
    con.execute("INSERT INTO puzzle_answers (source, hand_id, player, street, answer, ev_lost, "
                "noise, solved, answered_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [*astuple(answer), now, due])
    return due


def stored_record(con: duckdb.DuckDBPyConnection, source: str, hand_id: str) -> str | None:
    """The stored hand ``(source, hand_id)`` as its ofc-hh/1 line (``None`` when not stored):
    text, so that a page can cache it; :func:`record_of` makes it a record again."""
    row = con.execute("SELECT hand_key FROM hands WHERE source = ? AND hand_id = ?",
                      [source, hand_id]).fetchone()
    if row is None:
        return None
    return dumps_record(load_records(con, [int(row[0])])[int(row[0])][0])


def record_of(line: str) -> HandRecord:
    """The hand record of an ofc-hh/1 line written by :func:`stored_record`."""
    return record_from_dict(json.loads(line))
