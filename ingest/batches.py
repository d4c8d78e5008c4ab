"""Many small files in one transaction: a folder of hand files (FPDB writes one file a hand)
is stored as a handful of transactions, not one per file.

What a transaction costs whatever its size (the aggregates' refresh, the match settling, the
audit's queries, the commit; about a third of a second on two cores) is paid once per
batch; each file still gets its own ledger row, import id, report, rejected rows and audit,
the same as alone. A batch is all or nothing, so each of its files is stored whole or not at
all. Files join a batch when they are text of at most :data:`SMALL_BYTES`; a batch holds at
most :data:`BATCH_FILES` files and :data:`BATCH_BYTES` bytes. Anything raised while storing a
batch (a bug, never a file's fault, such as a reader failing on a line) rolls it back, and its
files are imported one by one, each with its own reader's fallbacks (a reader failing on a line
of an ofc-hh/1 file: that line is the file's error, its other hands are stored).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import duckdb

from . import aggregates, tournaments
from .audit import Audit, audit_imports
from .formats import Format, ParsedHand, ParsedSummary, ParseIssue
from .inferred_stakes import infer_stakes
from .ledger import insert_import, insert_rejected, next_id
from .merge import Origin
from .money import settle_matches
from .prepared import Prepared
from .record_path import guarded, store_tagged, stored_notes
from .reports import Counts, FileReport, HandIssue

SMALL_BYTES = 1 << 20
"""A file this size or smaller may share a transaction."""

BATCH_FILES = 500
BATCH_BYTES = 32 << 20


def small(prepared: Prepared) -> bool:
    """Whether the file may join a batch: text a format reads, read here, not stored before."""
    return (prepared.unreadable is None and prepared.known is None and prepared.file is None
            and prepared.shipped is None and isinstance(prepared.fmt, Format)
            and len(prepared.data) <= SMALL_BYTES)


def full(batch: Sequence[Prepared]) -> bool:
    return len(batch) >= BATCH_FILES or sum(len(p.data) for p in batch) >= BATCH_BYTES


def store_batch(con: duckdb.DuckDBPyConnection, batch: Sequence[Prepared],
                tick: Callable[[Prepared, int], None]) -> list[FileReport]:
    """The files' hands, ledger rows and audits inside the caller's transaction; their
    reports in order. ``tick(file, hands)`` after each file is read."""
    first = next_id(con, "imports", "import_id")
    origins = [Origin(first + n, Counts(), p.name) for n, p in enumerate(batch)]
    tagged: list[tuple[ParsedHand, Origin]] = []
    summaries: list[tuple[ParsedSummary, Origin]] = []
    for prepared, origin in zip(batch, origins, strict=True):
        hands, found = _read(prepared, origin)  # a reader that fails: the batch rolls back
        tagged += hands
        summaries += [(s, origin) for s in found]
        tick(prepared, origin.counts.hands)
    store_tagged(con, tagged)
    for summary, origin in summaries:
        tournaments.store_summary(con, summary, origin.import_id, origin.counts)
    for prepared, origin in zip(batch, origins, strict=True):
        counts = origin.counts
        counts.notes[:] = stored_notes(con, counts.notes, origin.import_id)
        insert_rejected(con, origin.import_id, prepared.name, counts.rejected_rows)
        insert_import(con, origin.import_id, prepared.name, prepared.digest,
                      len(prepared.data), prepared.fmt, counts)
    wrote = any(o.counts.stored or o.counts.merged for o in origins)
    if wrote:
        infer_stakes(con)
        settle_matches(con)
        aggregates.refresh(con)
    audits = audit_imports(con, [o.import_id for o in origins
                                 if o.counts.stored or o.counts.merged])
    return [_report(p, o, audits.get(o.import_id)) for p, o in zip(batch, origins, strict=True)]


def _read(prepared: Prepared, origin: Origin
          ) -> tuple[list[tuple[ParsedHand, Origin]], list[ParsedSummary]]:
    """The file's hands (its issues counted, its notes kept) and tournament summaries, read by
    its format."""
    fmt = prepared.fmt
    assert isinstance(fmt, Format)
    counts, out, summaries = origin.counts, [], []
    for item in guarded(lambda: fmt.parse(prepared.text, prepared.name), fmt.name,
                        prepared.name):
        if isinstance(item, ParseIssue):
            counts.reject(item.line, item.hand_id, item.message, item.raw, item.partial,
                          item.abandoned)
            continue
        if isinstance(item, ParsedSummary):
            summaries.append(item)
            continue
        if item.note:
            counts.notes.append(HandIssue(item.line, item.record.hand_id, item.note))
        out.append((item, origin))
    return out, summaries


def _report(prepared: Prepared, origin: Origin, audit: Audit | None) -> FileReport:
    counts = origin.counts
    assert prepared.fmt is not None
    return FileReport(prepared.name, prepared.fmt.name, counts.hands, counts.stored,
                      counts.duplicate, counts.merged, counts.partial, tuple(counts.errors),
                      import_id=origin.import_id, notes=tuple(counts.notes),
                      audit=audit,
                      abandoned=counts.abandoned, partials=tuple(counts.partials))


def final_notes(con: duckdb.DuckDBPyConnection,
                reports: Sequence[FileReport]) -> tuple[FileReport, ...]:
    """The reports with the notes of only the hands whose stored copy is still their file's
    once the whole import is in: a hand a later file of the same import upgraded is that
    file's (FPDB's database, then its hand files in one zip: no "assumed pineapple")."""
    return tuple(replace(r, notes=tuple(stored_notes(con, list(r.notes), r.import_id)))
                 if r.notes and r.import_id is not None else r for r in reports)
