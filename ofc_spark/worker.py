"""What runs on a Spark executor: plain Python on Arrow batches, no pyspark here.

Two steps, each a ``mapInArrow`` function of :mod:`ofc_spark.score`:

1. :func:`split_files`: one row per file (Spark's ``binaryFile`` source) -> one row per
   non-blank line, with the file's import id, the line number, whether it is the file's last
   line, and the hand's key ``(source, hand_id)`` when the line names one as the reference
   reader would (:func:`hand_key`). A file that cannot be decoded or is not ofc-hh/1 gives a
   problem row (line 0), as ``ofc import`` reports it. Each file also gives its ledger row.
2. :func:`score_lines`: the lines, partitioned by hand key and sorted by key, file and line, ->
   the rows of every table of ``ofc export --parquet``. A key seen once (nearly all of them)
   is read by the bulk reader (:mod:`ingest.formats.ofc_hh_fast`) and scored by
   ``ofc_core.batch.score_batch``; a line it leaves is read alone by the format's own reader,
   which says what is wrong with it, as ``ofc import`` does. A key seen in several lines is
   what the embedded importer does across files: the first valid line is stored, a later one
   with the same text is a duplicate, another player's log of the hand completes it
   (``ingest.merge.merge_records``) or is rejected with the reason.

Every table row is keyed as the embedded importer keys it for a fresh store: ``import_id``
is the file's 1-based rank in path order, and ``hand_key`` is ``import_id << 32 | line``
(the embedded store numbers hands 1, 2, ... in the same order, so keys differ but sort alike).

Why one module over 500 lines: it is the executors' side of ``ofc spark score`` (the driver's
side is :mod:`ofc_spark.score`), which Spark ships to every executor; its two steps share the
line rows' schema (:data:`LINES`) and the key rule (:data:`KEY_SHIFT`).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ingest.formats import ParsedHand, ParseIssue, ofc_hh, ofc_hh_fast
from ingest.hand_tables import HAND_TABLES, HandRow, build_tables, hand_tables
from ingest.merge import MergeConflict, merge_records
from ingest.record_path import recognise
from ingest.stored_hands import assemble_records, stored_time
from ofc_core.batch import score_records
from ofc_core.hand import HandRecord, validate

KEY_SHIFT = 32
"""``hand_key = import_id << KEY_SHIFT | line``."""

LINE, PROBLEM, FILE = 0, 1, 2
"""Kinds of the rows :func:`split_files` makes: a line of a hand, a file that cannot be read
(its reason at line 0), a file's ledger row."""

LINES = pa.schema([
    ("kind", pa.int8()), ("import_id", pa.int32()), ("path", pa.string()),
    ("line", pa.int32()), ("last", pa.bool_()), ("text", pa.string()),
    ("source", pa.string()), ("hand_id", pa.string()),
    ("sha256", pa.string()), ("size_bytes", pa.int64()), ("format", pa.string()),
    ("parser_version", pa.string()),
])
"""What :func:`split_files` makes (``text`` is a line, or a problem's message)."""

SPLIT_BATCH = 20_000
"""Line rows per Arrow batch out of :func:`split_files`."""
SCORE_CHUNK = 20_000
"""Lines read and scored at a time by :func:`score_lines` (the importer's chunk size)."""


# --------------------------------------------------------------------------------------------
# Step 1: files -> lines


def hand_key(line: str) -> tuple[str, str] | None:
    """``(source, hand_id)`` of a line, as the reference reader reads them (a number as
    hand id gives its text); ``None`` when the line names no hand it would accept.

    >>> hand_key('{"source": "home", "hand_id": 17, "players": []}')
    ('home', '17')
    >>> hand_key('{"source": "home"') is None, hand_key('[1]') is None
    (True, True)
    """
    try:
        obj = ofc_hh_fast._loads(line)
    except ValueError:
        try:
            obj = ofc_hh.loads_line(line)
        except ValueError:
            return None
    if type(obj) is not dict:
        return None
    try:
        source = ofc_hh._text(obj, "source", required=True)
        return (source, ofc_hh._hand_id(obj)) if source is not None else None
    except ValueError:
        return None


@dataclass
class _Rows:
    """Columns of :data:`LINES` being filled."""

    columns: dict[str, list[Any]]

    @classmethod
    def empty(cls) -> _Rows:
        return cls({name: [] for name in LINES.names})

    def add(self, **values: Any) -> None:
        for name, column in self.columns.items():
            column.append(values.get(name))

    def __len__(self) -> int:
        return len(self.columns["kind"])

    def batch(self) -> pa.RecordBatch:
        return pa.RecordBatch.from_pydict(self.columns, schema=LINES)


def _file_rows(rows: _Rows, import_id: int, name: str, data: bytes) -> None:
    """The rows of one file (see :func:`split_files`)."""
    text, fmt, problem = recognise(name, data)
    if problem is None and fmt is not None and fmt.name != ofc_hh.FORMAT_NAME:
        problem = (f"{name}: a {fmt.name} file; ofc spark reads {ofc_hh.FORMAT_NAME} only "
                   "(import this one with ofc import)")
    rows.add(kind=FILE, import_id=import_id, path=name, line=0,
             sha256=hashlib.sha256(data).hexdigest(), size_bytes=len(data),
             format=None if fmt is None else fmt.name,
             parser_version=None if fmt is None else fmt.version)
    if problem is not None:
        rows.add(kind=PROBLEM, import_id=import_id, path=name, line=0, text=problem)
        return
    if fmt is None:
        return
    lines = text.split("\n")
    last = len(lines)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        key = hand_key(line)
        rows.add(kind=LINE, import_id=import_id, path=name, line=number, last=number == last,
                 text=line, source=None if key is None else key[0],
                 hand_id=None if key is None else key[1])


class Spent(Protocol):
    """Where a step adds the seconds it spent in our code (a Spark accumulator)."""

    def add(self, seconds: float) -> None: ...


def split_files(batches: Iterable[pa.RecordBatch], names: dict[str, tuple[int, str]],
                spent: Spent | None = None) -> Iterator[pa.RecordBatch]:
    """``binaryFile`` rows (``path``, ``content``) -> :data:`LINES` rows. ``names`` maps a
    file's URI to its import id and the name to report it by."""
    rows = _Rows.empty()
    for batch in batches:
        paths = batch.column("path").to_pylist()
        contents = batch.column("content")
        for k, uri in enumerate(paths):
            import_id, name = names[uri]
            started = time.perf_counter()
            _file_rows(rows, import_id, name, contents[k].as_py() or b"")
            if spent is not None:
                spent.add(time.perf_counter() - started)
            if len(rows) >= SPLIT_BATCH:
                yield rows.batch()
                rows = _Rows.empty()
    if len(rows):
        yield rows.batch()


def keyed_lines(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """Rows of :data:`LINES` whose ``source`` and ``hand_id`` are to be filled from ``text``
    (lines read back from a Parquet export)."""
    for batch in batches:
        keys = [hand_key(t) if k == LINE and t is not None else None
                for k, t in zip(batch.column("kind").to_pylist(),
                                batch.column("text").to_pylist(), strict=True)]
        table = pa.Table.from_batches([batch])
        for position, name in enumerate(("source", "hand_id")):
            k = table.schema.get_field_index(name)
            table = table.set_column(k, name, pa.array(
                [None if key is None else key[position] for key in keys], pa.string()))
        yield from table.select(LINES.names).cast(LINES).to_batches()


# --------------------------------------------------------------------------------------------
# Step 2: lines -> tables


REJECTED = pa.schema([
    ("import_id", pa.int32()), ("path", pa.string()), ("line", pa.int32()),
    ("hand_id", pa.string()), ("message", pa.string()), ("partial", pa.bool_()),
    ("raw", pa.string()),
])
OUTCOMES = pa.schema([("import_id", pa.int32()), ("outcome", pa.string())])
"""One row per hand read: ``stored``, ``duplicate``, ``merged``, ``rejected`` or ``partial``
(the ledger's counts)."""
FILES = pa.schema([(name, LINES.field(name).type) for name in (
    "import_id", "path", "sha256", "size_bytes", "format", "parser_version")])
PARTITIONS = (("variant", pa.string()), ("month", pa.string()))
"""The partition columns added to every hand table, as ``ofc export --parquet`` adds them."""
TIME_COLUMNS = {"hands": "played_at", "hand_players": "played_at"}


@cache
def table_schemas() -> dict[str, pa.Schema]:
    """The Arrow schema of every table this step writes: the hand tables as the importer's
    table builder makes them (``played_at`` as a UTC timestamp, plus the partition columns),
    then ``rejected``, ``outcomes`` and ``files``."""
    fast, _ = ofc_hh_fast.read_lines([])
    empty = np.zeros(0, np.int64)
    built = build_tables(fast.columns, empty, empty, fast.scores())
    out = {}
    for name in HAND_TABLES:
        schema = built[name].schema
        if name in TIME_COLUMNS:
            k = schema.get_field_index(TIME_COLUMNS[name])
            schema = schema.set(k, pa.field(TIME_COLUMNS[name], pa.timestamp("us", "UTC")))
        for column, kind in PARTITIONS:
            if column in schema.names:
                schema = schema.remove(schema.get_field_index(column))
            schema = schema.append(pa.field(column, kind))
        out[name] = schema
    return {**out, "rejected": REJECTED, "outcomes": OUTCOMES, "files": FILES}


def _utc(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text).astimezone(UTC)


def _finish(name: str, table: pa.Table, variants: dict[int, tuple[str, str]]) -> pa.Table:
    """A hand table of the builder in the shape of :func:`table_schemas`."""
    schema = table_schemas()[name]
    if name in TIME_COLUMNS:
        column = TIME_COLUMNS[name]
        k = table.schema.get_field_index(column)
        table = table.set_column(k, column, pa.array(
            [_utc(t) for t in table.column(column).to_pylist()], pa.timestamp("us", "UTC")))
    keys = table.column("hand_key").to_pylist()
    for position, (column, _) in enumerate(PARTITIONS):
        values = pa.array([variants[k][position] for k in keys], pa.string())
        if column in table.schema.names:
            table = table.drop_columns([column])
        table = table.append_column(column, values)
    return table.select(schema.names).cast(schema)


def _month(played_at: datetime | None) -> str:
    return "unknown" if played_at is None else played_at.strftime("%Y-%m")


@dataclass
class _Out:
    """Tables made from one chunk of lines."""

    parts: dict[str, list[pa.Table]]
    rejected: list[dict[str, Any]]
    outcomes: list[tuple[int, str]]
    files: list[dict[str, Any]]

    @classmethod
    def empty(cls) -> _Out:
        return cls({name: [] for name in HAND_TABLES}, [], [], [])

    def hands(self, tables: dict[str, pa.Table]) -> None:
        hands = tables["hands"]
        keys = hands.column("hand_key").to_pylist()
        months = [_month(_utc(t)) for t in hands.column("played_at").to_pylist()]
        variants = dict(zip(keys, zip(hands.column("variant").to_pylist(), months,
                                      strict=True), strict=True))
        for name in HAND_TABLES:
            self.parts[name].append(_finish(name, tables[name], variants))

    def reject(self, import_id: int, path: str, line: int, hand_id: str | None, message: str,
               raw: str | None, partial: bool = False, *, hand: bool = True) -> None:
        """A rejected row; ``hand`` is false for a file that cannot be read (no hand read)."""
        self.rejected.append({"import_id": import_id, "path": path, "line": line,
                              "hand_id": hand_id, "message": message, "partial": partial,
                              "raw": raw})
        if hand:
            self.outcomes.append((import_id, "partial" if partial else "rejected"))

    def tables(self) -> Iterator[tuple[str, pa.Table]]:
        schemas = table_schemas()
        for name, parts in self.parts.items():
            if parts:
                yield name, pa.concat_tables(parts)
        if self.rejected:
            yield "rejected", pa.Table.from_pylist(self.rejected, schemas["rejected"])
        if self.outcomes:
            ids, outcomes = zip(*self.outcomes, strict=True)
            yield "outcomes", pa.table({"import_id": pa.array(ids, pa.int32()),
                                        "outcome": pa.array(outcomes, pa.string())})
        if self.files:
            yield "files", pa.Table.from_pylist(self.files, schemas["files"])


@dataclass(frozen=True)
class _Line:
    import_id: int
    path: str
    line: int
    last: bool
    text: str

    @property
    def key(self) -> int:
        return self.import_id << KEY_SHIFT | self.line


def _read_alone(item: _Line) -> ParsedHand | ParseIssue:
    """The line read by the format's own reader as ``ofc import`` reads a line the bulk
    reader leaves: alone, not at the start of a file, and still last if it was last (a last
    line may be a hand still being written)."""
    alone = "\n" + item.text + ("" if item.last else "\n")
    try:
        found = list(ofc_hh.FORMAT.parse(alone, item.path))
    except Exception as exc:  # a bug in the reader: this line's problem, never the job's
        return ParseIssue(item.line, None, f"the {ofc_hh.FORMAT_NAME} reader failed "
                          f"({type(exc).__name__}: {exc}); this is a bug in OFC Analytics",
                          item.text)
    if not found:  # pragma: no cover - a non-blank line always gives a hand or an issue
        return ParseIssue(item.line, None, "no hand on this line", item.text)
    return replace(found[0], line=item.line)


def _records_tables(out: _Out, records: Sequence[HandRecord], rows: Sequence[HandRow]) -> None:
    if records:
        out.hands(hand_tables(records, rows, score_records(records)))


def _bulk(out: _Out, lines: list[_Line]) -> None:
    """Lines whose hand key is seen nowhere else: the bulk reader and scorer, and the lines it
    leaves through the reference reader (which says what is wrong with them)."""
    try:
        fast, deferred = ofc_hh_fast.read_lines([(item.line, item.text) for item in lines])
    except Exception:  # a bug in the bulk reader: the reference reader reads every line
        fast, _ = ofc_hh_fast.read_lines([])
        deferred = list(range(len(lines)))
    if len(fast.columns):
        taken = [lines[i] for i in fast.inputs]
        keys = np.array([item.key for item in taken], np.int64)
        imports = np.array([item.import_id for item in taken], np.int64)
        out.hands(build_tables(fast.columns, keys, imports, fast.scores()))
        out.outcomes.extend((item.import_id, "stored") for item in taken)
    records: list[HandRecord] = []
    rows: list[HandRow] = []
    for position in deferred:
        item = lines[position]
        read = _read_alone(item)
        if isinstance(read, ParseIssue):
            out.reject(item.import_id, item.path, read.line, read.hand_id, read.message,
                       read.raw, read.partial)
        else:
            records.append(read.record)
            rows.append(HandRow(item.key, item.import_id, item.line, read.raw))
            out.outcomes.append((item.import_id, "stored"))
    _records_tables(out, records, rows)


def stored_form(record: HandRecord, row: HandRow) -> tuple[HandRecord, dict[str, pa.Table]]:
    """The hand's tables, and the record the embedded importer would load back from them
    (``ingest.stored_hands.load_records``: the log's seat numbers, ``played_at`` to the second
    on the log's clock) to merge another log into it."""
    tables = hand_tables([record], [row], score_records([record]))
    hands = tables["hands"].to_pylist()
    for h in hands:
        h["played_at"] = stored_time(h["played_at"])
    loaded = assemble_records(hands, tables["hand_players"].to_pylist(),
                              tables["hand_rows"].to_pylist(),
                              tables["placements"].to_pylist(), tables["events"].to_pylist())
    return loaded[row.hand_key][0], tables


def _group(out: _Out, lines: list[_Line]) -> None:
    """Every line of one hand key, in file and line order, as the embedded importer meets them
    one after the other (:func:`score_lines`)."""
    stored: tuple[HandRecord, HandRow, dict[str, pa.Table]] | None = None
    for item in lines:
        read = _read_alone(item)
        if isinstance(read, ParseIssue):
            out.reject(item.import_id, item.path, read.line, read.hand_id, read.message,
                       read.raw, read.partial)
            continue
        if stored is None:
            row = HandRow(item.key, item.import_id, item.line, read.raw)
            record, tables = stored_form(read.record, row)
            stored = (record, row, tables)
            out.outcomes.append((item.import_id, "stored"))
            continue
        record, row, tables = stored
        if read.raw == row.raw:
            out.outcomes.append((item.import_id, "duplicate"))
            continue
        hand_id = read.record.hand_id
        try:
            merged = merge_records(record, read.record)
        except MergeConflict as exc:
            out.reject(item.import_id, item.path, item.line, hand_id,
                       f"hand {hand_id!r} is already stored from another log, which "
                       f"disagrees: {exc}", read.raw)
            continue
        if merged == record:
            out.outcomes.append((item.import_id, "duplicate"))
            continue
        problems = validate(merged)
        if problems:
            out.reject(item.import_id, item.path, item.line, hand_id,
                       f"hand {hand_id!r}: completing the stored hand with this log gives an "
                       f"invalid hand: {'; '.join(problems)}", read.raw)
            continue
        out.outcomes.append((item.import_id, "merged"))
        record, tables = stored_form(merged, row)
        stored = (record, row, tables)
    if stored is not None:
        out.hands(stored[2])


def _process(out: _Out, batch: pa.Table) -> None:
    """One chunk of rows holding whole key groups."""
    columns = {name: batch.column(name).to_pylist() for name in batch.schema.names}
    singles: list[_Line] = []
    group: list[_Line] = []
    group_key: tuple[str, str] | None = None

    def close() -> None:
        if len(group) == 1:
            singles.append(group[0])
        elif group:
            _group(out, group)

    for k, kind in enumerate(columns["kind"]):
        import_id, path = columns["import_id"][k], columns["path"][k]
        if kind == FILE:
            out.files.append({name: columns[name][k] for name in FILES.names})
        elif kind == PROBLEM:
            out.reject(import_id, path, 0, None, columns["text"][k], None, hand=False)
        else:
            item = _Line(import_id, path, columns["line"][k], columns["last"][k],
                         columns["text"][k])
            source, hand_id = columns["source"][k], columns["hand_id"][k]
            if source is None or hand_id is None:
                singles.append(item)
                continue
            if (source, hand_id) != group_key:
                close()
                group, group_key = [], (source, hand_id)
            group.append(item)
    close()
    _bulk(out, singles)


def _group_end(batch: pa.Table) -> int:
    """Rows of ``batch`` before its last key group (which may go on in the next batch)."""
    source, hand_id = batch.column("source"), batch.column("hand_id")
    n = int(batch.num_rows)
    last = (source[n - 1].as_py(), hand_id[n - 1].as_py())
    if last[0] is None or last[1] is None:
        return n
    same = pc.and_(pc.equal(source, last[0]), pc.equal(hand_id, last[1]))
    different = np.nonzero(~same.fill_null(False).to_numpy(zero_copy_only=False))[0]
    return int(different[-1]) + 1 if len(different) else 0


def score_lines(batches: Iterable[pa.RecordBatch], spent: Spent | None = None,
                ) -> Iterator[pa.RecordBatch]:
    """:data:`LINES` rows of one partition, sorted by ``source``, ``hand_id``, ``import_id``
    and ``line`` (every row of a key in this partition) -> one batch per output table and
    chunk, as :data:`BLOBS` rows."""
    pending: list[pa.RecordBatch] = []
    rows = 0
    for batch in batches:
        pending.append(batch)
        rows += batch.num_rows
        if rows < SCORE_CHUNK:
            continue
        table = pa.Table.from_batches(pending)
        cut = _group_end(table)
        if cut == 0:
            continue  # one key group fills the chunk: wait for its end
        yield from _emit(table.slice(0, cut), spent)
        pending = table.slice(cut).to_batches()
        rows = table.num_rows - cut
    if rows:
        yield from _emit(pa.Table.from_batches(pending), spent)


def _emit(table: pa.Table, spent: Spent | None) -> Iterator[pa.RecordBatch]:
    """The tables of a chunk (the time spent reading, checking, scoring and building them is
    added to ``spent``)."""
    started = time.perf_counter()
    out = _Out.empty()
    _process(out, table)
    batches = [blob(name, rows) for name, rows in out.tables()]
    if spent is not None:
        spent.add(time.perf_counter() - started)
    yield from batches


BLOBS = pa.schema([("table", pa.string()), ("rows", pa.int64()), ("data", pa.binary())])
"""What :func:`score_lines` makes: per table and chunk, its rows as an Arrow IPC stream
(:func:`table_rows` turns them back into rows). Passing whole chunks keeps Spark's per-row
work to the final Parquet writes."""


def blob(name: str, rows: pa.Table) -> pa.RecordBatch:
    """``rows`` of table ``name`` as one row of :data:`BLOBS`."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, rows.schema) as writer:
        writer.write_table(rows)
    return pa.RecordBatch.from_pydict({"table": [name], "rows": [rows.num_rows],
                                       "data": [sink.getvalue().to_pybytes()]}, schema=BLOBS)


def table_rows(batches: Iterable[pa.RecordBatch], name: str) -> Iterator[pa.RecordBatch]:
    """The rows of table ``name`` (in :func:`table_schemas`' shape) from :data:`BLOBS` rows."""
    schema = table_schemas()[name]
    for batch in batches:
        for table, data in zip(batch.column("table").to_pylist(), batch.column("data"),
                               strict=True):
            if table == name:
                rows = pa.ipc.open_stream(data.as_buffer()).read_all()
                yield from rows.cast(schema).to_batches()
