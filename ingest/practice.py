"""Hands played or entered in the dashboard, stored the way an import stores them.

A practice hand (the Play page) is written as one ofc-hh/1 line and a hand entered at a live
table (the Enter page) as ofc-live/1 text; either goes through the importer's own path
(:func:`ingest.pipeline.import_files`), so it is read, checked, scored by the core, merged and
entered in the ledger exactly as the same text imported by ``ofc import`` would be. A hand
the importer refuses raises :class:`NotStored` with the importer's words.

A practice hand is then reviewed for the player (:func:`review_and_store`): the same review
and the same rows as ``ofc review`` writes.

>>> from ingest.store import connect
>>> from ingest.upgrade import upgrade
>>> con = connect(":memory:"); upgrade(con, None)
>>> text = '\\n'.join(["@source home", "@variant regular", "hand 1",
...     "a: QhQd2c-8s8d8c5h5d-AhKhTh9h6h", "b: KcKs7c-9c9s6d6c4h-TcTdTsJsJc"])
>>> store_text(con, "home.txt", text).stored
1
>>> con.execute("SELECT source, hand_id FROM hands").fetchall()
[('home', '1')]
"""

from __future__ import annotations

import duckdb

from ofc_core.hand import HandRecord
from ofc_core.play.review import review_hand

from .decisions import DecisionRow, write_decisions
from .formats.ofc_hh import dumps_record
from .pipeline import import_files
from .reports import FileReport
from .review_rows import decision_row


class NotStored(ValueError):
    """The importer refused the hand: its message says why."""


def store_text(con: duckdb.DuckDBPyConnection, name: str, text: str) -> FileReport:
    """Import one file's ``text`` named ``name`` through the importer's path; its report.
    Raises :class:`NotStored` when the file or a hand in it is refused."""
    report = import_files([(name, text.encode("utf-8"))], con)
    (file,) = report.files
    if file.unreadable is not None:
        raise NotStored(file.unreadable)
    if file.errors:
        raise NotStored("; ".join(e.message for e in file.errors))
    return file


def store_record(con: duckdb.DuckDBPyConnection, record: HandRecord) -> FileReport:
    """Store a hand record (a practice hand) as its ofc-hh/1 line, imported."""
    name = f"{record.source}/{record.hand_id}.jsonl"
    return store_text(con, name, dumps_record(record) + "\n")


def review_rows(record: HandRecord, player: str) -> list[DecisionRow]:
    """``player``'s decisions in ``record`` reviewed as ``ofc review`` reviews them, as the
    rows it stores (no store needed: the caller writes them with ``write_decisions``, so a
    long review holds no connection)."""
    return [decision_row(record, r) for r in review_hand(record, player)]


def review_and_store(con: duckdb.DuckDBPyConnection, record: HandRecord, player: str) -> int:
    """Review ``player``'s decisions in ``record`` and store them; the number written."""
    return write_decisions(con, review_rows(record, player))
