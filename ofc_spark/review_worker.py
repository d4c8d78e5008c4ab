"""What runs on a Spark executor for ``ofc spark review``: plain Python on Arrow batches.

:func:`review_hands` takes stored hands (their logged line, key, import and line) and reviews
every decision of the chosen players in each, as ``ofc review`` does: the record the embedded
store would load back (:func:`ofc_spark.worker.stored_form`),
:func:`ofc_core.play.review.review_hand` (each decision's rollouts seeded by
:func:`~ofc_core.play.review.decision_seed`: the same decision is dealt the same cards on
any executor), and the row
:func:`ingest.review_rows.decision_row` makes. Its rows: the ``decisions`` columns, the
hand's ``part`` (the unit of resumption) and the decision's top placements (``alternatives``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime

import pyarrow as pa

from ingest.decisions import ALTERNATIVE_FIELDS, COLUMNS, FIELDS, DecisionRow
from ingest.formats import ParsedHand, ofc_hh
from ingest.hand_tables import HandRow
from ingest.review_rows import decision_row
from ofc_core.hand import HandRecord
from ofc_core.play.review import REVIEW_POLICY, Precision, review_hand
from ofc_core.play.rollout import BEST_OF_24, RolloutPolicy
from ofc_spark.worker import Spent, stored_form

POLICIES: dict[str, RolloutPolicy] = {REVIEW_POLICY.name: REVIEW_POLICY,
                                      BEST_OF_24.name: BEST_OF_24}
"""The rollout policies by name (as ``ofc review --policy``)."""

HANDS = pa.schema([("part", pa.int32()), ("hand_key", pa.int64()), ("import_id", pa.int32()),
                   ("line", pa.int32()), ("raw", pa.string())])
"""The stored hands :func:`review_hands` reads."""

_TYPES = {"str": pa.string(), "int": pa.int32(), "float": pa.float64(), "bool": pa.bool_()}
_ALTERNATIVE = pa.struct([(n, pa.int8() if n == "rank" else pa.string() if n == "placement"
                           else pa.float64()) for n in ALTERNATIVE_FIELDS])


def _schema() -> pa.Schema:
    types = {f.name: f.type for f in DecisionRow.__dataclass_fields__.values()}
    columns = [(c, _TYPES[str(types[n])]) for c, n in zip(COLUMNS, FIELDS, strict=False)]
    return pa.schema([*columns, ("reviewed_at", pa.timestamp("us", tz="UTC")),
                      ("part", pa.int32()), ("alternatives", pa.list_(_ALTERNATIVE))])


DECISIONS = _schema()
"""The rows :func:`review_hands` yields: ``decisions``' columns, ``part``, ``alternatives``."""


def record_of(raw: str, hand_key: int, import_id: int, line: int) -> HandRecord | None:
    """The record the embedded store loads back for a hand stored from the logged line
    ``raw`` (``None`` when the line no longer reads as a hand)."""
    found = [p for p in ofc_hh.FORMAT.parse("\n" + raw + "\n", "stored") if
             isinstance(p, ParsedHand)]
    if not found:
        return None
    return stored_form(found[0].record, HandRow(hand_key, import_id, line, raw))[0]


def _batch(rows: list[tuple[int, DecisionRow]]) -> pa.RecordBatch:
    now = datetime.now(UTC)
    columns: dict[str, list[object]] = {c: [getattr(r, n) for _, r in rows]
                                        for c, n in zip(COLUMNS, FIELDS, strict=False)}
    columns["reviewed_at"] = [now] * len(rows)
    columns["part"] = [p for p, _ in rows]
    columns["alternatives"] = [[{n: getattr(a, n) for n in ALTERNATIVE_FIELDS}
                                for a in r.alternatives] for _, r in rows]
    return pa.RecordBatch.from_pydict(columns, schema=DECISIONS)


def review_hands(batches: Iterable[pa.RecordBatch], players: tuple[str, ...] | None,
                 precision: Precision, policy: str, counts: dict[str, Spent] | None = None
                 ) -> Iterator[pa.RecordBatch]:
    """The decisions of ``players`` (``None``: every seat) in each hand of ``batches``
    (:data:`HANDS`), reviewed as ``ofc review`` reviews them; ``counts`` (Spark accumulators)
    get the hands read, the hands reviewed, the decisions and the seconds spent."""
    rolls = POLICIES[policy]
    for batch in batches:
        rows: list[tuple[int, DecisionRow]] = []
        start, reviewed = time.process_time(), 0
        for hand in batch.to_pylist():
            record = record_of(hand["raw"], hand["hand_key"], hand["import_id"], hand["line"])
            if record is None:
                continue
            seats = [p.name for p in record.players]
            found = 0
            for player in seats if players is None else [p for p in players if p in seats]:
                try:
                    decisions = review_hand(record, player, precision=precision, policy=rolls)
                except ValueError:  # a position the review cannot rebuild: as ofc review
                    continue
                rows += [(hand["part"], decision_row(record, r, rolls)) for r in decisions]
                found += len(decisions)
            reviewed += found > 0
        if counts is not None:
            for name, value in (("hands", batch.num_rows), ("reviewed", reviewed),
                                ("decisions", len(rows)),
                                ("seconds", time.process_time() - start)):
                counts[name].add(value)
        if rows:
            yield _batch(rows)
