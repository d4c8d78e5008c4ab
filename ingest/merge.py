"""The same hand from another log: a hand already stored is completed with the cards another
player's log shows (their own dealt cards and discards), or the logs disagree and the new one
is rejected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import duckdb

from ofc_core.batch import score_records
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay, validate

from .formats import ParsedHand
from .hand_tables import (
    HAND_TABLES,
    HandRow,
    delete_hands,
    hand_tables,
    insert_tables,
)
from .reports import Counts
from .stored_hands import load_records


class MergeConflict(ValueError):
    """Two logs of the same (source, hand_id) disagree on what is on the table."""


def merge_records(stored: HandRecord, other: HandRecord) -> HandRecord:
    """``stored`` completed with what ``other`` shows and it hides: dealt cards and discards
    of each street, street detail missing altogether, reported points.

    Raises :class:`MergeConflict` when the logs disagree (players, boards or placements).
    """
    if [p.name for p in stored.players] != [p.name for p in other.players]:
        raise MergeConflict(f"players {[p.name for p in other.players]} differ from the stored "
                            f"hand's {[p.name for p in stored.players]}")
    if stored.variant != other.variant or dict(stored.rules) != dict(other.rules):
        raise MergeConflict("the variant or rules differ from the stored hand's")
    players = tuple(_merge_player(a, b) for a, b in zip(stored.players, other.players,
                                                         strict=True))
    return replace(stored, players=players)


def _merge_player(a: PlayerRecord, b: PlayerRecord) -> PlayerRecord:
    if not a.surrendered and not b.surrendered and a.board != b.board:
        if sorted(a.board.cards) != sorted(b.board.cards) or any(
                sorted(x) != sorted(y) for x, y in zip(
                    (a.board.top, a.board.middle, a.board.bottom),
                    (b.board.top, b.board.middle, b.board.bottom), strict=True)):
            raise MergeConflict(f"{a.name}: board {b.board} differs from the stored {a.board}")
    if a.fantasyland != b.fantasyland or a.surrendered != b.surrendered:
        raise MergeConflict(f"{a.name}: Fantasyland or surrender differs from the stored hand")
    streets = a.streets
    if streets is None:
        streets = b.streets
    elif b.streets is not None:
        if len(a.streets or ()) != len(b.streets):
            raise MergeConflict(f"{a.name}: {len(b.streets)} streets, the stored hand has "
                                f"{len(streets)}")
        streets = tuple(_merge_street(a.name, n, s, t)
                        for n, (s, t) in enumerate(zip(streets, b.streets, strict=True), 1))
    reported = a.reported_points if a.reported_points is not None else b.reported_points
    return replace(a, streets=streets, reported_points=reported)


def _merge_street(name: str, number: int, s: StreetPlay, t: StreetPlay) -> StreetPlay:
    if (s.top, s.middle, s.bottom) != (t.top, t.middle, t.bottom):
        raise MergeConflict(f"{name}, street {number}: placements differ from the stored hand")
    for attr in ("dealt", "discard"):
        mine, theirs = getattr(s, attr), getattr(t, attr)
        if mine is not None and theirs is not None and sorted(mine) != sorted(theirs):
            raise MergeConflict(f"{name}, street {number}: {attr} differs from the stored hand")
    return replace(s, dealt=s.dealt if s.dealt is not None else t.dealt,
                   discard=s.discard if s.discard is not None else t.discard)


def merge(con: duckdb.DuckDBPyConnection, items: Sequence[ParsedHand],
           existing: dict[tuple[str, str], int], counts: Counts) -> None:
    keys = [existing[(p.record.source, p.record.hand_id)] for p in items]
    stored = load_records(con, keys)
    updates: list[tuple[HandRecord, HandRow]] = []
    for item, key in zip(items, keys, strict=True):
        record, row = stored[key]
        counts.hands += 1
        try:
            merged = merge_records(record, item.record)
        except MergeConflict as exc:
            counts.reject(item.line, item.record.hand_id,
                          f"hand {item.record.hand_id!r} is already stored from another log, "
                          f"which disagrees: {exc}", item.raw)
            continue
        if merged == record:
            counts.duplicate += 1
            continue
        problems = validate(merged)
        if problems:
            counts.reject(item.line, item.record.hand_id,
                          f"hand {item.record.hand_id!r}: completing the stored hand with this "
                          f"log gives an invalid hand: {'; '.join(problems)}", item.raw)
            continue
        counts.merged += 1
        updates.append((merged, row))
    if updates:
        delete_hands(con, [row.hand_key for _, row in updates], HAND_TABLES)
        records = [r for r, _ in updates]
        insert_tables(con, hand_tables(records, [row for _, row in updates],
                                       score_records(records)))
