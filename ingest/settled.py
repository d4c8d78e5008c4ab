"""What the logs say beyond the cards, as store columns: each player's stack and the room's own
result (``hand_players.stack``, ``reported_*``), and the points settled under table stakes.

Where a log gives the players' stacks, the stored ``points`` (and ``pairs.points``) are what
changed hands under table stakes (:func:`ofc_core.settlement.table_stakes`); ``raw_points``
and ``pairs.total`` keep the uncapped result. Hands without stacks keep the scorer's own
(capped by the ruleset's ``cap`` where it has one). Race-scored hands (OFC Double) bank points,
so stacks never limit them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ofc_core.hand import HandRecord
from ofc_core.rules import resolve
from ofc_core.settlement import limits, table_stakes

REPORTED_COLUMNS = {"reported_raw_points": pa.float64(), "reported_fouled": pa.bool_(),
                    "reported_royalties": pa.int32(), "reported_fl_next": pa.int8()}
"""The room's result beyond its settled points, ``hand_players`` column -> type."""

_REPORTED_FIELDS = {"reported_raw_points": "raw_points", "reported_fouled": "fouled",
                    "reported_royalties": "royalties", "reported_fl_next": "fantasyland_next"}


def fact_lists(records: Sequence[HandRecord]) -> dict[str, list[Any]]:
    """Per player (hands in order, players in seat order) the stack and the reported fields,
    ``None`` where the log is silent; per hand ``variant_assumed``."""
    out: dict[str, list[Any]] = {"stack": [], **{k: [] for k in REPORTED_COLUMNS}}
    for record in records:
        for p in record.players:
            out["stack"].append(p.stack)
            for column, name in _REPORTED_FIELDS.items():
                out[column].append(getattr(p.reported, name))
    out["variant_assumed"] = [r.variant_assumed for r in records]
    return out


def fact_columns(facts: dict[str, list[Any]] | None, players: int) -> dict[str, pa.Array]:
    """The ``hand_players`` columns of :func:`fact_lists` (all NULL without facts: the fast
    path's ofc-hh/1 lines carry none)."""
    if facts is None:
        return {"stack": pa.nulls(players, pa.float64()),
                **{k: pa.nulls(players, t) for k, t in REPORTED_COLUMNS.items()}}
    return {"stack": pa.array(facts["stack"], pa.float64()),
            **{k: pa.array(facts[k], t) for k, t in REPORTED_COLUMNS.items()}}


def settle_stakes(scores: Any, facts: dict[str, list[Any]] | None, count: np.ndarray,
                  first: np.ndarray, rulesets: Sequence[tuple[str, str]]) -> None:
    """Limit ``scores.capped`` and ``scores.points`` (``ofc_core.batch.RecordScores``) of the
    hands whose players' stacks are known to what changed hands under table stakes, in place.
    ``rulesets[h]`` is hand ``h``'s ``(variant, rules JSON)``."""
    if facts is None or all(s is None for s in facts["stack"]):
        return
    starts = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    for h, (start, n) in enumerate(zip(starts.tolist(), count.tolist(), strict=True)):
        stacks: list[float | None] = facts["stack"][start:start + n]
        if all(s is None for s in stacks):
            continue
        variant, rules = rulesets[h]
        ruleset = resolve(variant, _overrides(rules))
        if ruleset.scoring.is_race:
            continue
        raw = scores.total[h, :n, :n].tolist()
        settled = np.array(table_stakes(raw, limits(stacks, ruleset.cap), int(first[h])),
                           np.float64)
        scores.capped[h, :n, :n] = settled
        scores.points[h, :n] = settled.sum(axis=1)


def _overrides(rules: str) -> dict[str, Any]:
    value = json.loads(rules) if rules else {}
    return value if isinstance(value, dict) else {}
