"""TEMPORARY SHIM, to be deleted when ``ofc_core.batch.score_records`` lands.

Gives the ``RecordScores`` shape of the batch scorer from the scalar ``score_hand``, so the
store can be developed before the batch scorer exists. The importer uses it only when
``ofc_core.batch`` cannot be imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ofc_core.hand import HandRecord
from ofc_core.scoring import score_hand


@dataclass(frozen=True)
class ShimScores:
    player_count: np.ndarray
    strengths: np.ndarray
    fouled: np.ndarray
    foul_top_middle: np.ndarray
    foul_middle_bottom: np.ndarray
    surrendered: np.ndarray
    royalties: np.ndarray
    fantasyland_next: np.ndarray
    raw_points: np.ndarray
    points: np.ndarray
    rows: np.ndarray
    row_points: np.ndarray
    bonus: np.ndarray
    royalties_net: np.ndarray
    surrender: np.ndarray
    total: np.ndarray
    capped: np.ndarray


def score_records(records: Sequence[HandRecord]) -> ShimScores:
    n = len(records)
    a = {
        "player_count": np.zeros(n, np.int8), "strengths": np.zeros((n, 4, 3), np.int32),
        "fouled": np.zeros((n, 4), bool), "foul_top_middle": np.zeros((n, 4), bool),
        "foul_middle_bottom": np.zeros((n, 4), bool), "surrendered": np.zeros((n, 4), bool),
        "royalties": np.zeros((n, 4, 3), np.int16), "fantasyland_next": np.zeros((n, 4), np.int8),
        "raw_points": np.zeros((n, 4)), "points": np.zeros((n, 4)),
        "rows": np.zeros((n, 4, 4, 3), np.int8), "row_points": np.zeros((n, 4, 4), np.int32),
        "bonus": np.zeros((n, 4, 4), np.int32), "royalties_net": np.zeros((n, 4, 4), np.int32),
        "surrender": np.zeros((n, 4, 4)), "total": np.zeros((n, 4, 4)),
        "capped": np.zeros((n, 4, 4)),
    }
    for h, rec in enumerate(records):
        result = score_hand(rec.seats(), rec.ruleset, rec.first_to_act)
        a["player_count"][h] = len(rec.players)
        for i, p in enumerate(result.players):
            if p.strengths is not None:
                a["strengths"][h, i] = p.strengths
                a["foul_top_middle"][h, i] = p.strengths[0] > p.strengths[1]
                a["foul_middle_bottom"][h, i] = p.strengths[1] > p.strengths[2]
            a["fouled"][h, i] = p.fouled
            a["surrendered"][h, i] = p.surrendered
            a["royalties"][h, i] = p.royalties
            a["fantasyland_next"][h, i] = p.fantasyland_next
            a["raw_points"][h, i] = p.raw_points
            a["points"][h, i] = p.points
        names = [p.name for p in rec.players]
        for pr in result.pairs:
            i, j = names.index(pr.player), names.index(pr.opponent)
            a["rows"][h, i, j] = pr.rows
            a["row_points"][h, i, j] = pr.row_points
            a["bonus"][h, i, j] = pr.bonus
            a["royalties_net"][h, i, j] = pr.royalties
            a["surrender"][h, i, j] = pr.surrender
            a["total"][h, i, j] = pr.total
            a["capped"][h, i, j] = pr.capped
    return ShimScores(**a)
