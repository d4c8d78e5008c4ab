"""Write heads-up hands of ours into an ``ofc_logs.db`` through the pineapple app's own
``LogWriter`` (github ``giovinco0807/pineapple``, ``backend/db/writer.py``, with its
``schema.sql``), called the way its server (``backend/main.py``) calls it. ``PROVENANCE.md``
beside this file names the commit and the command::

    PYTHONPATH=$PWD:/path/to/pineapple/backend python tests/data/pineapple-app/drive_app.py \
        tests/data/pineapple-app

This script is ours; nothing of the app is kept in this repository but what its code wrote.
"""

from __future__ import annotations

import sys
import zlib
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ingest.formats.ofc_hh import dumps_record
from ofc_core.hand import HandRecord
from tests.reallogs_fixtures import simulated

ROWS = ("top", "middle", "bottom")


def app_hand_id(record: HandRecord) -> str:
    """An 8-hex-digit id, as the app's (``860d7660``)."""
    return f"{zlib.crc32(record.hand_id.encode()):08x}"


def _board(rows: list[list[str]]) -> dict[str, list[str]]:
    return {r: list(rows[i]) for i, r in enumerate(ROWS)}


def log_hand(writer: Any, record: HandRecord, session: str, number: int,
             chips: list[int], finished: bool) -> list[int]:
    """One hand as the server logs it: its start, every placement with the boards before it
    (a Fantasyland board logged once, set, with rows ``auto``), its end; the chips after."""
    names = [p.name for p in record.players]
    hand_id = app_hand_id(record)
    btn = names.index(record.button) if record.button in names else 0
    writer.log_hand_start(hand_id, session, number, btn, list(chips))
    boards: list[list[list[str]]] = [[[], [], []] for _ in names]
    discards: list[list[str]] = [[] for _ in names]
    turns = max(len(p.streets or ()) for p in record.players)
    for turn in range(turns):
        for seat, p in enumerate(record.players):
            if turn >= len(p.streets or ()):
                continue
            street = (p.streets or ())[turn]
            before = [list(r) for r in boards[seat]]
            opponent = [list(r) for r in boards[1 - seat]]
            for i, row in enumerate(ROWS):
                boards[seat][i] += [str(c) for c in getattr(street, row)]
            if p.fantasyland:  # main.py: log_turn(s, [[c, "auto"] ...], None), board already set
                placements = [[str(c), "auto"] for row in ROWS for c in getattr(street, row)]
                writer.log_turn(hand_id, turn, seat, _board(boards[seat]), _board(opponent),
                                [str(c) for c in street.dealt or ()], list(discards[seat]),
                                placements, None, 0)
                continue
            discard = str(street.discard[0]) if street.discard else None
            writer.log_turn(hand_id, turn, seat, _board(before), _board(opponent),
                            [str(c) for c in street.dealt or ()], list(discards[seat]),
                            [[str(c), row] for row in ROWS for c in getattr(street, row)],
                            discard, 0)
            if discard:
                discards[seat].append(discard)
    if not finished:
        return chips
    scores = [int(p.reported_points or 0) for p in record.players]
    after = [c + s for c, s in zip(chips, scores, strict=True)]
    detail = {"boards": [_board(b) for b in boards], "busted": [False, False],
              "raw_score": scores, "actual_score": scores, "chips": after}
    writer.log_hand_end(hand_id, after, scores, scores, detail)
    return after


def main(out: Path) -> None:
    from db import writer as app_writer  # the app's backend/db/writer.py

    clock = iter(datetime(2026, 11, 21, 20, 0) + timedelta(seconds=5 * k)
                 for k in range(10**6))

    class Clock(datetime):
        @classmethod
        def utcnow(cls) -> datetime:  # type: ignore[override]
            return next(clock)

    app_writer.datetime = Clock  # the writer's timestamps: a fixed session, not today
    out.mkdir(parents=True, exist_ok=True)
    db = out / "ofc_logs.db"
    db.unlink(missing_ok=True)
    writer = app_writer.LogWriter(str(db))
    hands = simulated("progressive-pineapple", 2, 16, seed=2216, error_rate=0.25,
                      rules={"jokers": 2, "fl_repeat": "entry"}, session="app-drive")
    session = "9c1e5a27"
    writer.log_session_start(session, "room-7", hands[0].players[0].name,
                             hands[0].players[1].name)
    chips = [200, 200]
    for number, record in enumerate(hands, start=1):
        chips = log_hand(writer, record, session, number, chips, number < len(hands))
    truth = [replace(r, source="pineapple-app", hand_id=app_hand_id(r)) for r in hands]
    (out / "truth.jsonl").write_text("".join(dumps_record(r) + "\n" for r in truth),
                                     encoding="utf-8")
    print(f"{len(hands)} hands ({len(hands) - 1} finished) in {db}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
