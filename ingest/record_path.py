"""The record path: a format's own reader gives one :class:`~ingest.formats.ParsedHand`
(a checked ``HandRecord``) or :class:`~ingest.formats.ParseIssue` per hand; new hands are
scored in chunks (``ofc_core.batch.score_records``) and stored, hands stored before are merged
(:mod:`ingest.merge`). Every format takes this path; canonical ofc-hh/1 lines take the fast
path (:mod:`ingest.fast_path`) and leave the lines it does not take to this one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace

import duckdb
import pyarrow as pa

from ofc_core.batch import score_records

from . import tournaments
from .formats import Format, ParsedHand, ParsedSummary, ParseIssue, UnreadableFile, detect, registry
from .formats.encoding import DecodeError, decode_bytes
from .hand_tables import HandRow, hand_tables, insert_tables
from .ledger import next_id
from .merge import Origin, merge_tagged
from .reports import Counts, HandIssue

CHUNK_HANDS = 20_000
"""Hands parsed, scored and inserted at a time (bounds memory on big files)."""


class ReaderFailed(Exception):
    """A format's reader raised instead of reporting a bad hand (a bug in the reader): the
    file's error, at ``issue.line`` when known."""

    def __init__(self, issue: HandIssue) -> None:
        super().__init__(issue.message)
        self.issue = issue


def reader_failed(name: str, what: str, exc: Exception, where: str = "") -> str:
    """The file's error when ``what`` raised ``exc`` (``where``: after or at which line).

    >>> reader_failed("f.log", "live reader", KeyError("x"), " at line 7")
    "f.log: the live reader failed at line 7 (KeyError: 'x'); nothing of this file was \
imported. This is a bug in OFC Analytics: please report it with the file."
    """
    return (f"{name}: the {what} failed{where} ({type(exc).__name__}: {exc}); nothing of this "
            "file was imported. This is a bug in OFC Analytics: please report it with the file.")


def reader_stopped(name: str, what: str, exc: Exception, line: int, last: int) -> str:
    """The issue when ``what`` raised ``exc`` at ``line`` (a line read alone) or after line
    ``last``, once it had given hands: they are kept.

    >>> reader_stopped("f.log", "live reader", KeyError("x"), 0, 7)
    "f.log: the live reader failed after line 7 (KeyError: 'x'); the hands before it were \
read, the rest of the file was not. This is a bug in OFC Analytics: please report it with the \
file."
    """
    failed = f"{name}: the {what} failed"
    why = f"({type(exc).__name__}: {exc})"
    bug = "This is a bug in OFC Analytics: please report it with the file."
    if line:
        return f"{failed} at line {line} {why}; the other lines were read. {bug}"
    return (f"{failed} after line {last} {why}; the hands before it were read, the rest of "
            f"the file was not. {bug}")


def guarded(items: Callable[[], Iterable[ParsedHand | ParseIssue | ParsedSummary]], reader: str,
            name: str, line: int = 0) -> Iterator[ParsedHand | ParseIssue | ParsedSummary]:
    """The items of a reader, with an exception of the reader (a bug: a reader reports bad
    hands, it never raises) turned into the issue that names it. The hands it gave before are
    kept: a reader that fails on one line read alone (``line``) is that line's issue, one
    that fails after giving hands is an issue after the last of them. Only a reader that
    fails before giving anything is the file's error (:class:`ReaderFailed`); a file it
    cannot open at all (:class:`~ingest.formats.UnreadableFile`, a locked or damaged database)
    goes through as it is."""
    last, given = 0, False
    try:
        for item in items():  # (what the caller raises is not raised here)
            last, given = item.line, True
            yield item
    except UnreadableFile:
        raise
    except Exception as exc:
        if line or given:
            yield ParseIssue(line, None, reader_stopped(name, f"{reader} reader", exc, line,
                                                        last))
            return
        raise ReaderFailed(HandIssue(line, None, reader_failed(
            name, f"{reader} reader", exc))) from exc


def parse(fmt: Format, text: str, name: str, line: int = 0,
          ) -> Iterator[ParsedHand | ParseIssue | ParsedSummary]:
    """``fmt.parse``, guarded (:func:`guarded`)."""
    return guarded(lambda: fmt.parse(text, name), fmt.name, name, line)


def store_records(con: duckdb.DuckDBPyConnection, fmt: Format, text: str, name: str,
                  import_id: int, counts: Counts, tick: Callable[[float], None]) -> None:
    """A whole file through ``fmt``'s reader, in chunks of :data:`CHUNK_HANDS`; ``tick(share)``
    follows the share of its lines read."""
    store_parsed(con, lambda: fmt.parse(text, name), fmt.name, name, import_id, counts, tick,
                 max(text.count("\n") + 1, 1))


def store_parsed(con: duckdb.DuckDBPyConnection,
                 items: Callable[[], Iterable[ParsedHand | ParseIssue | ParsedSummary]],
                 reader: str, name: str, import_id: int, counts: Counts,
                 tick: Callable[[float], None], lines: int = 0) -> None:
    """A reader's hands (``items()``, guarded) stored in chunks of :data:`CHUNK_HANDS`, its
    issues counted, its notes kept; ``tick(share)`` follows the share of the ``lines`` read
    (when known)."""
    chunk: list[ParsedHand] = []
    for item in guarded(items, reader, name):
        if isinstance(item, ParseIssue):
            counts.reject(item.line, item.hand_id, item.message, item.raw, item.partial,
                          item.abandoned)
            continue
        if isinstance(item, ParsedSummary):
            tournaments.store_summary(con, item, import_id, counts)
            continue
        if item.note:
            counts.notes.append(HandIssue(item.line, item.record.hand_id, item.note))
        chunk.append(item)
        if len(chunk) >= CHUNK_HANDS:
            store_chunk(con, chunk, import_id, counts, name)
            if lines:
                tick(item.line / lines)
            chunk = []
    if chunk:
        store_chunk(con, chunk, import_id, counts, name)
    counts.notes[:] = stored_notes(con, counts.notes, import_id)
    tick(1.0)


def stored_notes(con: duckdb.DuckDBPyConnection, notes: list[HandIssue],
                 import_id: int) -> list[HandIssue]:
    """The notes of the hands whose stored copy is this import's: what a reader assumed of a
    copy that was a duplicate, or that a better copy completed, was not stored."""
    if not notes:
        return notes
    kept = {str(h) for (h,) in con.execute(
        "SELECT hand_id FROM hands WHERE import_id = ? AND list_contains(?, hand_id)",
        [import_id, sorted({str(n.hand_id) for n in notes})]).fetchall()}
    return [n for n in notes if str(n.hand_id) in kept]


def store_slowly(con: duckdb.DuckDBPyConnection, fmt: Format, name: str,
                 batch: list[tuple[int, str]], positions: list[int], last: int,
                 import_id: int, counts: Counts) -> None:
    """The lines at ``positions`` of ``batch`` through the format's own reader."""
    slow: list[ParsedHand] = []
    for position in positions:
        number, line = batch[position]
        # One line read alone as in its file: not at the start (a BOM there is not the
        # file's), and the last line of the file still last (it may be partial).
        alone = "\n" + line + ("" if number == last else "\n")
        for item in parse(fmt, alone, name, number):
            item = replace(item, line=number)
            if isinstance(item, ParseIssue):
                counts.reject(item.line, item.hand_id, item.message, item.raw, item.partial,
                          item.abandoned)
            elif isinstance(item, ParsedSummary):
                tournaments.store_summary(con, item, import_id, counts)
            else:
                slow.append(item)
    if slow:
        store_chunk(con, slow, import_id, counts, name)


def _existing_keys(con: duckdb.DuckDBPyConnection,
                   chunk: Sequence[ParsedHand]) -> dict[tuple[str, str], int]:
    ids = pa.table({"source": [p.record.source for p in chunk],
                    "hand_id": [p.record.hand_id for p in chunk]})
    con.register("_ofc_ids", ids)
    try:
        found = con.execute("SELECT h.source, h.hand_id, h.hand_key FROM hands h "
                            "JOIN _ofc_ids i USING (source, hand_id)").fetchall()
    finally:
        con.unregister("_ofc_ids")
    return {(s, h): k for s, h, k in found}


def store_chunk(con: duckdb.DuckDBPyConnection, chunk: Sequence[ParsedHand], import_id: int,
                counts: Counts, name: str) -> None:
    """New hands of file ``name`` stored (scored in bulk), hands stored before merged
    (:func:`ingest.merge.merge`)."""
    origin = Origin(import_id, counts, name)
    store_tagged(con, [(p, origin) for p in chunk])


def store_tagged(con: duckdb.DuckDBPyConnection,
                 chunk: Sequence[tuple[ParsedHand, Origin]]) -> None:
    """:func:`store_chunk` of hands from several files at once (:mod:`ingest.batches`), each
    counted in its own file's tally and stored under its own import."""
    existing = _existing_keys(con, [p for p, _ in chunk])
    played = tournaments.record_hands(con, (p.record for p, _ in chunk))
    fresh: list[tuple[ParsedHand, Origin]] = []
    again: list[tuple[ParsedHand, Origin]] = []
    seen: set[tuple[str, str]] = set()
    for item, origin in chunk:
        key = (item.record.source, item.record.hand_id)
        (again if key in existing or key in seen else fresh).append((item, origin))
        seen.add(key)
    if fresh:
        first = next_id(con, "hands", "hand_key")
        rows = [HandRow(first + n, o.import_id, p.line, p.raw) for n, (p, o) in enumerate(fresh)]
        records = [p.record for p, _ in fresh]
        insert_tables(con, hand_tables(records, rows, score_records(records)))
        for _, origin in fresh:
            origin.counts.hands += 1
            origin.counts.stored += 1
        existing.update({(p.record.source, p.record.hand_id): r.hand_key
                         for (p, _), r in zip(fresh, rows, strict=True)})
    while again:  # a hand seen twice in one chunk merges in turn
        now: list[tuple[ParsedHand, Origin]] = []
        later: list[tuple[ParsedHand, Origin]] = []
        seen = set()
        for item, origin in again:
            key = (item.record.source, item.record.hand_id)
            (later if key in seen else now).append((item, origin))
            seen.add(key)
        merge_tagged(con, now, existing)
        again = later
    if played:
        tournaments.refresh(con)


def recognise(name: str, data: bytes) -> tuple[str, Format | None, str | None]:
    """A file's text, its format (``None`` for an empty file or one no format reads) and why
    it cannot be read (``None`` if it can): decoded strictly, then detected by the registry.
    Also used by ``ofc spark``, which reads files the same way."""
    fmt: Format | None = None
    unreadable = None
    text = ""
    try:
        text = decode_bytes(data, name)
        if text and not text.isspace():  # text.strip() would copy a big file
            fmt = detect(text, name)
            if fmt is None:
                known = ", ".join(f.name for f in registry())
                unreadable = (f"{name}: not a hand history this version reads (known formats: "
                              f"{known})")
    except DecodeError as exc:
        unreadable = str(exc)
    except Exception as exc:  # a bug in a format's sniff(): report it, never a traceback
        unreadable = reader_failed(name, "format detection", exc)
    return text, fmt, unreadable
