"""Each ``hand_players`` row's ``review_reason``: why ``ofc review`` finds no decision of the
player in the hand, as the code of :mod:`ofc_core.play.reviewable` (0: nothing stops it).

The table builder (:func:`ingest.hand_tables.build_tables`, the one way rows are made: import,
merge, rescore, upgrade, ``ofc spark score``) writes it with the rest of the row, so the Review
page counts a player's hands by reason from ``hand_players`` alone instead of searching the
placements (15 million rows at a million hands) at every page load. Only the facts are read
here, from the hand's columns; the rule is :func:`ofc_core.play.reviewable.why_not`, looked up
through :data:`~ofc_core.play.reviewable.CODE_BY_FACTS`. A row whose hand is removed goes with
it; nothing else changes the facts (rescoring rewrites the row from the same placements). The
upgrade from schema 8 reads the same facts from the stored rows in SQL (:func:`fill`), looked up
in the same table, without rescoring.

A player whose streets are logged, dealt cards shown, at a table where everybody's are: 0; an
opponent whose dealt cards the log hides: 6 (``DEALT_NOT_LOGGED``):

>>> codes = review_reasons(hand_index=np.array([0, 0]), hands=1,
...                        surrendered=np.array([False, False]),
...                        fantasyland=np.array([False, False]),
...                        poker_middle=np.array([True]),
...                        street_player=np.array([0, 0, 1, 1]), street=np.array([1, 2, 1, 2]),
...                        dealt_known=np.array([True, True, False, False]))
>>> codes.tolist()
[0, 6]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache

import duckdb
import numpy as np
import pyarrow as pa

from ofc_core.play.reviewable import CODE_BY_FACTS, FACT_NAMES
from ofc_core.rules import MiddleKind, resolve

_CODES = np.asarray(CODE_BY_FACTS, np.int8)


@lru_cache(maxsize=1024)
def poker_middle(variant: str, rules_json: str) -> bool:
    """Whether a hand's ruleset sets a poker middle (not the 2-7 low).

    >>> poker_middle("pineapple", "{}"), poker_middle("2-7-pineapple", "{}")
    (True, False)
    """
    return resolve(variant, json.loads(rules_json)).middle is MiddleKind.HIGH


def poker_middles(variants: Sequence[str], rules: Sequence[str]) -> np.ndarray:
    """:func:`poker_middle` per hand (``rules`` the overrides' JSON), each distinct ruleset
    resolved once.

    >>> poker_middles(["pineapple", "2-7-pineapple", "pineapple"], ["{}", "{}", "{}"]).tolist()
    [True, False, True]
    """
    names = pa.array(variants, pa.string()).dictionary_encode()
    texts = pa.array(rules, pa.string()).dictionary_encode()
    width = max(len(texts.dictionary), 1)
    pairs = names.indices.to_numpy().astype(np.int64) * width + texts.indices.to_numpy()
    distinct, inverse = np.unique(pairs, return_inverse=True)
    middle = np.array([poker_middle(str(names.dictionary[int(k) // width]),
                                    str(texts.dictionary[int(k) % width])) for k in distinct],
                      bool)
    found: np.ndarray = middle[inverse]
    return found


def _any(groups: np.ndarray, flags: np.ndarray, size: int) -> np.ndarray:
    """Per group (``0 .. size - 1``) whether any of its members' ``flags`` is set."""
    return np.bincount(groups[flags], minlength=size)[:size] > 0


def review_reasons(*, hand_index: np.ndarray, hands: int, surrendered: np.ndarray,
                   fantasyland: np.ndarray, poker_middle: np.ndarray,
                   street_player: np.ndarray, street: np.ndarray,
                   dealt_known: np.ndarray) -> np.ndarray:
    """Per player row (its hand's index in ``hand_index``; ``surrendered`` and
    ``fantasyland`` per row, ``poker_middle`` per hand) the code of why it cannot be reviewed,
    from the rows' logged streets (``street_player``: the row of each street, its number and
    whether its dealt cards are shown)."""
    rows = len(hand_index)
    street_player = np.asarray(street_player, np.int64)
    logged = _any(street_player, np.ones(len(street_player), bool), rows)
    dealt = _any(street_player, (np.asarray(street) == 1) & np.asarray(dealt_known, bool), rows)
    surrendered = np.asarray(surrendered, bool)
    facts = {
        "surrendered": surrendered,
        "fantasyland": np.asarray(fantasyland, bool),
        "poker_middle": np.asarray(poker_middle, bool)[hand_index],
        "streets_logged": logged,
        "dealt_logged": dealt,
        "all_streets_logged": ~_any(hand_index, ~logged, hands)[hand_index],
        "someone_surrendered": _any(hand_index, surrendered, hands)[hand_index],
    }
    number = np.zeros(rows, np.int64)
    for bit, name in enumerate(FACT_NAMES):
        number |= facts[name].astype(np.int64) << bit
    codes: np.ndarray = _CODES[number]
    return codes


def _facts_sql() -> dict[str, str]:
    """The facts of each ``hand_players hp`` row over the stored rows: ``s`` its placements
    summed (``NULL`` without streets), ``m`` its hand's ruleset; per hand by window."""
    per_hand = "OVER (PARTITION BY hp.hand_key)"
    return {
        "surrendered": "hp.surrendered",
        "fantasyland": "hp.fantasyland",
        "poker_middle": "m.poker_middle",
        "streets_logged": "s.hand_key IS NOT NULL",
        "dealt_logged": "coalesce(s.dealt, false)",
        "all_streets_logged": f"bool_and(s.hand_key IS NOT NULL) {per_hand}",
        "someone_surrendered": f"bool_or(hp.surrendered) {per_hand}",
    }


def fill(con: duckdb.DuckDBPyConnection) -> int:
    """Write every stored row's ``review_reason`` from the stored rows (the upgrade from
    schema 8, inside the caller's transaction): the same facts as :func:`review_reasons`,
    read from ``placements`` and the hand's ruleset, looked up in the same table. Returns
    the rows written."""
    rulesets = con.execute("SELECT DISTINCT variant, coalesce(json_extract(ruleset, "
                           "'$.overrides')::VARCHAR, '{}') FROM hands").fetchall()
    middles = pa.table({"variant": [v for v, _ in rulesets],
                        "overrides": [o for _, o in rulesets],
                        "poker_middle": [poker_middle(v, o) for v, o in rulesets]})
    number = " | ".join(f"(({sql})::INTEGER << {bit})"
                        for bit, sql in enumerate(_facts_sql()[n] for n in FACT_NAMES))
    con.register("_ofc_middles", middles)
    try:
        row = con.execute(f"""
            UPDATE hand_players SET review_reason = list_extract(?::TINYINT[], f.number + 1)
            FROM (SELECT hp.hand_key, hp.seat, {number} AS number
                  FROM hand_players hp
                  JOIN hands h ON h.hand_key = hp.hand_key
                  JOIN _ofc_middles m ON m.variant = h.variant AND m.overrides =
                       coalesce(json_extract(h.ruleset, '$.overrides')::VARCHAR, '{{}}')
                  LEFT JOIN (SELECT hand_key, seat,
                                    bool_or(street = 1 AND dealt IS NOT NULL) AS dealt
                             FROM placements GROUP BY ALL) s
                       ON s.hand_key = hp.hand_key AND s.seat = hp.seat) f
            WHERE hand_players.hand_key = f.hand_key AND hand_players.seat = f.seat""",
                          [list(CODE_BY_FACTS)]).fetchone()
    finally:
        con.unregister("_ofc_middles")
    return int(row[0]) if row else 0
