"""Tables in words: a frame's snake_case column names as headers a reader knows, its rooms by
name, and no ``None`` or ``nan`` in its cells (for the tables drawn without a column
configuration of their own, such as the Import page's ledger and messages).

>>> import pandas as pd
>>> frame = pd.DataFrame({"hand_id": [None, "h1"], "source": ["swc", "ofc-sim"],
...                       "imported_at": ["2026-11-20", None]})
>>> words(frame).to_dict("list")  # doctest: +NORMALIZE_WHITESPACE
{'Hand': ['–', 'h1'], 'Room': ['Seals with Clubs', 'OFC Analytics simulator'],
 'Imported': ['2026-11-20', '–']}
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from dashboard import names

HEADERS: Mapping[str, str] = {
    "hand_id": "Hand", "hand_key": "Hand", "import_id": "Import", "imported_at": "Imported",
    "source": "Room", "room": "Room", "file": "File", "path": "File", "line": "Line",
    "reason": "Reason", "kind": "Kind", "note": "Note", "player": "Player", "what": "What",
    "theirs": "The room's", "ours": "Ours", "room_differs": "Room's result differs",
    "hands": "Hands", "stored": "Stored", "duplicate": "Duplicates", "merged": "Merged",
    "partial": "Partial", "rejected": "Rejected", "format": "Format", "sha256": "Checksum",
    "played_at": "Played", "variant": "Variant", "ruleset_label": "Ruleset",
    "session_id": "Session", "match_id": "Match",
}
"""Known columns' headers; any other snake_case name is written in words (``fl_hands`` ->
``Fl hands``)."""

MISSING = "–"


def header(column: str) -> str:
    """A column's header.

    >>> header("imported_at"), header("hands audited"), header("fl_cards_earned")
    ('Imported', 'Hands audited', 'Fl cards earned')
    """
    if column in HEADERS:
        return HEADERS[column]
    text = column.replace("_", " ")
    return text[:1].upper() + text[1:]


def words(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with headers in words, rooms by name and a dash for every missing text."""
    out = frame.copy()
    for column in ("source", "room"):
        if column in out:
            out[column] = [names.room(v) for v in out[column]]
    if "player" in out:
        out["player"] = names.players(out["player"])
    if "ruleset_label" in out:
        out["ruleset_label"] = [names.ruleset(v) for v in out["ruleset_label"]]
    for column in out.columns:
        if not pd.api.types.is_numeric_dtype(out[column]):
            out[column] = [MISSING if v is None or (not isinstance(v, str) and pd.isna(v))
                           else v for v in out[column]]
    return out.rename(columns={c: header(str(c)) for c in out.columns})
