"""The same hand from several logs: the stored hand is the most informative copy, whatever the
order the logs came in, completed with what the other copies show; only logs that disagree on
the table (different players, different cards) are refused, naming both.

The rule (:func:`copy_rank`): a copy that names the variant beats one whose reader assumed it
(FPDB's database keeps only 'ofcp'), then the copy with more players' streets beats final boards
only, then a copy with a stake beats one without. The better copy gives the variant, rules,
streets, Fantasyland flags and stake; the other fills what it lacks (hidden dealt cards and
discards of the same streets, the room's results, stacks, times). Between copies that rank
alike, a value both give differently is the smaller (the earlier time, the first name in
order), so the stored hand never depends on the order of the imports. When a later log's copy
is the better one, it upgrades the stored hand (its text, line and import go with it) and the
hand is scored again (money and match settling too: :func:`ingest.money.settle_matches` runs
after every file that merged a hand).

For example, FPDB's database says 'ofcp' (assumed pineapple) and the hand file of the same hand
says code 75: whichever is imported first, the hand is stored as progressive pineapple.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

import duckdb

from ofc_core.batch import score_records
from ofc_core.hand import HandRecord, PlayerRecord, Reported, StreetPlay, validate

from .copies import Copy, imports_with_rows, keep_copies
from .formats import ParsedHand
from .hand_tables import HAND_TABLES, HandRow, delete_hands, hand_tables, insert_tables
from .reports import Counts
from .stored_hands import load_records, stored_time


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


T = TypeVar("T", bound=_Ordered)


class MergeConflict(ValueError):
    """Two logs of the same (source, hand_id) disagree on what is on the table."""


def copy_rank(record: HandRecord) -> tuple[int, int, int]:
    """How informative a copy of a hand is, compared as a tuple: the variant named (1) or
    assumed (0), the players with streets, a stake known (1) or not (0).

    >>> from ofc_core.board import Board
    >>> p = PlayerRecord("ann", 0, Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d"))
    >>> copy_rank(HandRecord("swc", "1", "pineapple", (p,), variant_assumed=True))
    (0, 0, 0)
    """
    return (int(not record.variant_assumed),
            sum(p.streets is not None for p in record.players),
            int(record.stake is not None))


def _pick(first: T | None, second: T | None, tie: bool) -> T | None:
    """``first`` (the better copy's value) unless it is missing; between copies that rank
    alike, the smaller of two values."""
    if first is None:
        return second
    if second is None or not tie:
        return first
    return min(first, second)


def merge_records(stored: HandRecord, other: HandRecord) -> HandRecord:
    """The hand from two copies (see the module's rule); the same whichever is ``stored``.

    Raises :class:`MergeConflict` when the logs disagree: players, the cards of a row, the
    dealt cards or discards of a street, or (between copies that both name it) the variant."""
    if sorted(p.name for p in stored.players) != sorted(p.name for p in other.players):
        raise MergeConflict(f"players {[p.name for p in other.players]} differ from the stored "
                            f"hand's {[p.name for p in stored.players]}")
    tie = copy_rank(stored) == copy_rank(other)
    first, second = (other, stored) if copy_rank(other) > copy_rank(stored) else (stored, other)
    if tie and (first.variant, dict(first.rules)) != (second.variant, dict(second.rules)):
        if not first.variant_assumed:  # both logs name it, differently
            raise MergeConflict(f"the variant or rules differ ({other.variant} "
                                f"{dict(other.rules)} in this log, {stored.variant} "
                                f"{dict(stored.rules)} stored)")
        first, second = sorted((first, second), key=lambda r: (r.variant, repr(r.rules)))
    theirs = {p.name: p for p in second.players}
    players = tuple(_merge_player(p, theirs[p.name], tie) for p in first.players)
    stakes = [(r.stake, r.currency or "") for r in (first, second) if r.stake is not None]
    stake, currency = (min(stakes) if tie else stakes[0]) if stakes else \
        (None, _pick(first.currency, second.currency, True) or "")
    return replace(
        first, players=players, stake=stake, currency=currency or None,
        played_at=_pick(stored_time(first.played_at), stored_time(second.played_at), True),
        hero=_pick(first.hero, second.hero, tie),
        button=_pick(first.button, second.button, tie),
        session_id=_pick(first.session_id, second.session_id, tie),
        match_id=_pick(first.match_id, second.match_id, tie),
        events=first.events or second.events)


def _same_cards(a: PlayerRecord, b: PlayerRecord) -> bool:
    rows_a = (a.board.top, a.board.middle, a.board.bottom)
    rows_b = (b.board.top, b.board.middle, b.board.bottom)
    return all(sorted(x) == sorted(y) for x, y in zip(rows_a, rows_b, strict=True))


def _merge_player(a: PlayerRecord, b: PlayerRecord, tie: bool) -> PlayerRecord:
    """Player ``a`` of the better copy completed with ``b`` of the other."""
    if not a.surrendered and not b.surrendered and not _same_cards(a, b):
        raise MergeConflict(f"{a.name}: board {b.board} differs from the stored {a.board}")
    streets = _merge_streets(a, b, tie)
    fantasyland = a.fantasyland or (tie and b.fantasyland)
    if streets is not None and len(streets) == 1 and len(streets[0].placed) == 13:
        fantasyland = True
    reported = Reported(*(_pick(getattr(a.reported, f), getattr(b.reported, f), tie)
                          for f in ("raw_points", "fouled", "royalties", "fantasyland_next")))
    return replace(a, streets=streets, fantasyland=fantasyland,
                   reported_points=_pick(a.reported_points, b.reported_points, tie),
                   stack=_pick(a.stack, b.stack, tie), reported=reported)


def _merge_streets(a: PlayerRecord, b: PlayerRecord,
                   tie: bool) -> tuple[StreetPlay, ...] | None:
    if a.streets is None:
        return b.streets if tie else None
    if b.streets is None:
        return a.streets
    if len(a.streets) != len(b.streets) or any(
            (s.top, s.middle, s.bottom) != (t.top, t.middle, t.bottom)
            for s, t in zip(a.streets, b.streets, strict=True)):
        # The same cards read street by street differently (FPDB rebuilds rounds by diffing
        # snapshots): the better copy's streets, between equals the first in text order.
        return a.streets if not tie else min(a.streets, b.streets, key=repr)
    return tuple(_merge_street(a.name, n, s, t, tie)
                 for n, (s, t) in enumerate(zip(a.streets, b.streets, strict=True), 1))


def _merge_street(name: str, number: int, s: StreetPlay, t: StreetPlay,
                  tie: bool) -> StreetPlay:
    """Street ``s`` of the better copy with the dealt cards and discards it hides taken from
    ``t``; between equal copies, cards that differ are a disagreement."""
    for attr in ("dealt", "discard"):
        mine, theirs = getattr(s, attr), getattr(t, attr)
        if tie and mine is not None and theirs is not None and sorted(mine) != sorted(theirs):
            raise MergeConflict(f"{name}, street {number}: {attr} differs from the stored hand")
    return replace(s, dealt=s.dealt if s.dealt is not None else t.dealt,
                   discard=s.discard if s.discard is not None else t.discard)


def _stored_from(con: duckdb.DuckDBPyConnection, rows: Sequence[HandRow]) -> dict[int, str]:
    """Where each stored hand was read: ``'file, line 7'`` by hand key."""
    paths = dict(con.execute("SELECT import_id, path FROM imports WHERE list_contains(?, "
                             "import_id)", [sorted({r.import_id for r in rows})]).fetchall())
    return {r.hand_key: f"{paths.get(r.import_id, 'an earlier import')}"
                        + (f", line {r.line}" if r.line else "") for r in rows}


@dataclass(frozen=True)
class Origin:
    """Where a copy comes from: its import, the tally of that file, the file's name."""

    import_id: int
    counts: Counts
    name: str


def merge(con: duckdb.DuckDBPyConnection, items: Sequence[ParsedHand],
          existing: dict[tuple[str, str], int], counts: Counts, import_id: int,
          name: str) -> None:
    """Hands of file ``name`` (import ``import_id``) already stored: each a duplicate,
    merged (completed or upgraded, then scored again), or rejected naming both logs."""
    origin = Origin(import_id, counts, name)
    merge_tagged(con, [(p, origin) for p in items], existing)


def merge_tagged(con: duckdb.DuckDBPyConnection, items: Sequence[tuple[ParsedHand, Origin]],
                 existing: dict[tuple[str, str], int]) -> None:
    """:func:`merge` of hands from several files at once (each hand once), each counted in
    its own file's tally."""
    keys = [existing[(p.record.source, p.record.hand_id)] for p, _ in items]
    stored = load_records(con, keys)
    where = _stored_from(con, [row for _, row in stored.values()])
    updates: list[tuple[HandRecord, HandRow]] = []
    copies: list[Copy] = []
    firsts: dict[int, Copy] = {}
    for (item, origin), key in zip(items, keys, strict=True):
        record, row = stored[key]
        hand, counts = item.record.hand_id, origin.counts
        try:
            merged = merge_records(record, item.record)
        except MergeConflict as exc:
            counts.reject(item.line, hand, f"hand {hand!r} is already stored from "
                          f"{where[key]}, and this log ({origin.name}, line {item.line}) "
                          f"disagrees: {exc}", item.raw)
            continue
        upgrade = copy_rank(item.record) > copy_rank(record)
        copy = Copy(key, origin.import_id, item.line, item.raw, item.record)
        if merged == record and not upgrade:
            counts.hands += 1
            counts.duplicate += 1
            copies.append(copy)
            continue
        problems = validate(merged)
        if problems:
            counts.reject(item.line, hand, f"hand {hand!r}: completing the stored hand (from "
                          f"{where[key]}) with this log gives an invalid hand: "
                          f"{'; '.join(problems)}", item.raw)
            continue
        counts.hands += 1
        counts.merged += 1
        copies.append(copy)
        firsts.setdefault(key, Copy(key, row.import_id, row.line, row.raw, record))
        if upgrade:
            row = HandRow(row.hand_key, origin.import_id, item.line, item.raw)
        updates.append((merged, row))
    _keep(con, copies, firsts)
    if updates:
        delete_hands(con, [row.hand_key for _, row in updates], HAND_TABLES)
        records = [r for r, _ in updates]
        insert_tables(con, hand_tables(records, [row for _, row in updates],
                                       score_records(records)))


def _keep(con: duckdb.DuckDBPyConnection, copies: list[Copy],
          firsts: dict[int, Copy]) -> None:
    """Rows for the copies read, duplicate or merged (:mod:`ingest.copies`; a copy refused as
    a disagreement is none), and for each hand about to change whose stored import has no row
    yet, that import's copy: the stored hand as it was."""
    have = imports_with_rows(con, list(firsts))
    first = [c for key, c in firsts.items() if c.import_id not in have.get(key, set())]
    keep_copies(con, first + copies)
