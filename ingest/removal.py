"""Removing imports without losing a hand another import holds.

A hand belongs to every import that read a copy of it (:mod:`ingest.copies`). Removing
imports:

- deletes the hands no other import holds (with their reviewed decisions);
- keeps every other hand they touched, made again from the copies the other imports hold: the
  copies merged as an import of them alone would merge them (:func:`ingest.merge.
  merge_records`, whatever the order), stored from the best one (:func:`ingest.merge.copy_rank`;
  between equals the earliest import's), and scored again;
- says how many of each (:class:`Removal`).

For example FPDB's database (variant assumed) then a hand file of the same hand (the variant
named): the hand file's copy is stored. Removing the hand file's import keeps the hand, from
the database's copy, as the database alone would have stored it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import duckdb

from ofc_core.batch import score_records
from ofc_core.hand import HandRecord, validate

from .copies import TABLE, Copy, imports_with_rows, keep_copies, read_copies
from .decisions import delete_decisions_of
from .hand_tables import HAND_TABLES, HandRow, delete_hands, hand_tables, insert_tables
from .merge import MergeConflict, copy_rank, merge_records
from .stored_hands import load_records


@dataclass(frozen=True)
class Removal:
    """What removing imports did: ``removed`` hands deleted (no other import holds them),
    ``kept`` hands they held that another import holds too (made again from its copies),
    ``imports`` ledger rows removed."""

    imports: int = 0
    removed: int = 0
    kept: int = 0

    def message(self) -> str:
        """One line for a person, e.g. ``'Removed 1 import: 3 hands removed; 147 hands kept
        (another import holds them, each from its best remaining copy).'``"""
        plural = "s" * (self.imports != 1)
        line = f"Removed {self.imports} import{plural}: {_hands(self.removed)} removed"
        if self.kept:
            line += (f"; {_hands(self.kept)} kept (another import holds them, each from its "
                     "best remaining copy)")
        return line + "."

    def to_dict(self) -> dict[str, int]:
        return {"imports": self.imports, "removed": self.removed, "kept": self.kept}


def _hands(n: int) -> str:
    return f"{n:,} hand{'s' * (n != 1)}"


def touched(con: duckdb.DuckDBPyConnection, ids: Sequence[int]) -> list[tuple[int, int]]:
    """``(hand_key, import_id)`` of every hand the imports ``ids`` stored or hold a copy of."""
    return [(int(k), int(i)) for k, i in con.execute(f"""
        SELECT hand_key, import_id FROM hands
        WHERE list_contains($1, import_id)
           OR hand_key IN (SELECT hand_key FROM {TABLE} WHERE list_contains($1, import_id))
        ORDER BY hand_key""", [list(ids)]).fetchall()]


def remove_hands_of(con: duckdb.DuckDBPyConnection, ids: Sequence[int]) -> tuple[int, int]:
    """Inside the caller's transaction: the hands of imports ``ids`` deleted or made again from
    the other imports' copies, their copy rows deleted; returns (removed, kept)."""
    hands = touched(con, ids)
    leaving = set(ids)
    rows = imports_with_rows(con, [k for k, _ in hands])
    others = read_copies(con, [k for k, _ in hands], list(leaving))
    stored = load_records(con, [k for k, i in hands if i not in leaving
                                and i not in rows.get(k, set())])
    gone: list[int] = []
    unchanged = 0
    remade: list[tuple[list[Copy], HandRow | None]] = []
    for key, _ in hands:
        copies = others.get(key, [])
        if key in stored:  # its stored import stays, and the hand is still its copy alone
            record, row = stored[key]
            if not copies:
                unchanged += 1  # only copies read again went: the stored hand stays
                continue
            copies = [Copy(key, row.import_id, row.line, row.raw, record), *copies]
            remade.append((copies, row))
        elif copies:
            remade.append((copies, None))
        else:
            gone.append(key)
    keys = gone + [c[0].hand_key for c, _ in remade]
    delete_decisions_of(con, "SELECT source, hand_id FROM hands WHERE list_contains(?, "
                             "hand_key)", [keys])
    delete_hands(con, keys, HAND_TABLES)
    _store_again(con, remade)
    con.execute(f"DELETE FROM {TABLE} WHERE list_contains(?, import_id) "
                "OR list_contains(?, hand_key)", [list(leaving), gone])
    return len(gone), len(remade) + unchanged


def _store_again(con: duckdb.DuckDBPyConnection,
                 remade: list[tuple[list[Copy], HandRow | None]]) -> None:
    """Each hand from its remaining copies; a stored hand taken in as a copy (``row`` given)
    gets its copy row, since the stored hand may now be a merge."""
    if not remade:
        return
    records, rows = [], []
    for copies, row in remade:
        best = min(copies, key=lambda c: (tuple(-x for x in copy_rank(c.record)), c.import_id,
                                          c.line or 0))
        records.append(best_merge(copies, best))
        rows.append(HandRow(best.hand_key, best.import_id, best.line, best.raw))
        if row is not None and len(copies) > 1:
            keep_copies(con, copies[:1])
    insert_tables(con, hand_tables(records, rows, score_records(records)))


def best_merge(copies: Sequence[Copy], best: Copy) -> HandRecord:
    """The copies merged from the best one on (a copy that no longer merges, or gives an
    invalid hand, is left out: the best copy alone is always a valid hand)."""
    merged = best.record
    for copy in sorted(copies, key=lambda c: (c.import_id, c.line or 0)):
        if copy is best:
            continue
        try:
            candidate = merge_records(merged, copy.record)
        except MergeConflict:
            continue
        if not validate(candidate):
            merged = candidate
    return merged
