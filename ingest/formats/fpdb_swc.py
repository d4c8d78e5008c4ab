"""FPDB's captures of the OFC tables of Seals with Clubs (SwC Poker): the registry entry.

FPDB (github ``jejellyroll-fr/fpdb-3``) records SwC's web client and leaves three shapes of
the same hands, each read by its own module of :mod:`ingest.formats.swc` (``docs/formats.md``
maps every field and every quirk of a real capture):

- ``raw_messages.jsonl``, every websocket frame (:mod:`ingest.formats.swc.frames`);
- ``hand_<id>.json``, FPDB's envelope of one hand (:mod:`ingest.formats.swc.hand_file`);
- FPDB's SQLite database, tables ``HttpOFC*`` (:mod:`ingest.formats.swc.database`).

>>> FORMAT.sniff('{"site": "SealsWithClubs", "payload": "2"}', "raw_messages.jsonl")
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from . import LogFile, ParsedHand, ParseIssue, sqlite_db
from .swc.capture import SITE, Refused, code_variant, seat_cards, swc_card
from .swc.database import parse_database
from .swc.frames import parse_frames
from .swc.hand_file import parse_hand_file

FORMAT_NAME = "fpdb-swc"

ROOM_NAMES = {"swc": "Seals with Clubs"}
"""The rooms (``hands.source``) this format's hands come from, by the name a player knows."""

CURRENCY_NAMES = {"R": "SwC money (R)", "mBTC": "mBTC (millibitcoin)"}
"""The money units SwC's logs name: ``R`` in the money messages of the frames
(``<money mt="R">``), ``mBTC`` in FPDB's hand files (``gametype.currency``)."""

__all__ = ["FORMAT", "FORMAT_NAME", "FpdbSwcFormat", "Refused", "code_variant", "parse_frames",
           "parse_hand_file", "seat_cards", "swc_card"]


@dataclass(frozen=True)
class FpdbSwcFormat:
    """FPDB's SwC captures: hand files and frames (text), FPDB's database (a file)."""

    name: str = FORMAT_NAME
    version: str = "1"

    def sniff(self, text: str, filename: str) -> bool:
        head = text.removeprefix("\ufeff")[:4000]
        if not head.lstrip().startswith("{") or f'"{SITE}"' not in head:
            return False
        return '"payload"' in head.split("\n", 1)[0] or '"steps"' in text or \
            '"showdown"' in text

    def parse(self, text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
        first = text.removeprefix("\ufeff").lstrip().split("\n", 1)[0]
        frames = '"payload"' in first  # a hand file's first line is its opening brace
        return parse_frames(text, filename) if frames else parse_hand_file(text, filename)

    def sniff_file(self, file: LogFile) -> bool:
        return sqlite_db.is_sqlite(file.data) and \
            "HttpOFCHands" in sqlite_db.table_names(file)

    def parse_file(self, file: LogFile) -> Iterator[ParsedHand | ParseIssue]:
        return parse_database(file)


FORMAT = FpdbSwcFormat()
