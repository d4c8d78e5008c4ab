"""Log formats: one module per format, detected automatically.

Every format module defines a :class:`Format` object named ``FORMAT``; :data:`FORMAT_MODULES`
lists the modules in detection order (:func:`registry` their formats), and a module may name
the rooms and money units its hands carry (``ROOM_NAMES``, ``CURRENCY_NAMES``,
``PLAY_MONEY_ROOMS``, gathered by :mod:`ingest.names`). A parser never scores and never
raises on a bad hand: it yields a :class:`ParsedHand` for each good hand and a
:class:`ParseIssue` for each bad or truncated one, so one bad hand never stops a file.

Most formats are text: ``sniff(text, filename)`` and ``parse(text, filename)`` see the decoded
file. A format kept in a database file (SQLite) instead defines ``sniff_file(file)`` and
``parse_file(file)`` (:class:`FileFormat`), which see the file's bytes and, when it was imported
from disk, its path (:class:`LogFile`); :func:`detect_file` asks them before any text format. A
file that such a format cannot open at all (locked, corrupt) raises :class:`UnreadableFile` with
a message for the user.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from ofc_core.hand import HandRecord
from ofc_core.tournament import TournamentSummary


@dataclass(frozen=True, slots=True)
class ParsedHand:
    record: HandRecord
    line: int
    """1-based line where the hand starts in the file."""
    raw: str
    """The hand's own text, kept verbatim in the store."""
    note: str | None = None
    """Something the reader assumed about this hand (e.g. a preset the log does not name, then
    the record says ``variant_assumed``), reported with the file."""


@dataclass(frozen=True, slots=True)
class ParseIssue:
    line: int
    hand_id: str | None
    message: str
    raw: str = ""
    partial: bool = False
    """A hand without its result: a truncated last hand (a file still being written), or one
    the log left unfinished (``abandoned``); reported, not an error."""
    abandoned: bool = False
    """A partial hand that will never be finished (its session moved on, or long ago)."""


@dataclass(frozen=True, slots=True)
class ParsedSummary:
    """A tournament's summary record (``ofc-tournament/1``, :mod:`ingest.formats.ofc_tournament`):
    not a hand; the importer keeps it in ``tournament_summaries``."""

    summary: TournamentSummary
    line: int
    raw: str


@runtime_checkable
class Format(Protocol):
    name: str
    version: str

    def sniff(self, text: str, filename: str) -> bool:
        """True if ``text`` looks like this format (cheap: looks at the first lines)."""
        ...

    def parse(self, text: str, filename: str,
              ) -> Iterator[ParsedHand | ParseIssue | ParsedSummary]:
        ...


@dataclass(frozen=True, slots=True)
class LogFile:
    """A file as imported: its name (as given, or the upload's name), its bytes, and its path
    on disk when it was imported from one (``None`` for an upload or a member of a zip)."""

    name: str
    data: bytes
    path: Path | None = None


class UnreadableFile(ValueError):
    """The file cannot be read at all (a locked or corrupt database...): the message, which
    names the file, is for the user; nothing of the file is imported."""


@runtime_checkable
class FileFormat(Protocol):
    """A format read from the file itself rather than from its decoded text."""

    name: str
    version: str

    def sniff_file(self, file: LogFile) -> bool:
        """True if the file is this format (may raise :class:`UnreadableFile`)."""
        ...

    def parse_file(self, file: LogFile) -> Iterator[ParsedHand | ParseIssue]:
        ...


FORMAT_MODULES = ("fpdb_swc", "pineapple_app", "ofc_tournament", "ofc_hh", "live", "csv_boards")
"""Detection order (modules of this package, imported on first use: they import this one).
FPDB's ``raw_messages.jsonl`` and tournament summaries are JSON Lines too, so their readers come
before ofc-hh/1's."""


def registry() -> list[Format]:
    return [importlib.import_module(f"ingest.formats.{name}").FORMAT for name in FORMAT_MODULES]


def detect(text: str, filename: str) -> Format | None:
    """The first registered text format whose ``sniff`` accepts the text."""
    return next((f for f in registry() if hasattr(f, "sniff") and f.sniff(text, filename)),
                None)


def file_formats() -> list[FileFormat]:
    """The registered formats read from the file itself (databases)."""
    return [f for f in registry() if isinstance(f, FileFormat)]


def detect_file(file: LogFile) -> FileFormat | None:
    """The first registered file format whose ``sniff_file`` accepts the file (may raise
    :class:`UnreadableFile`)."""
    return next((f for f in file_formats() if f.sniff_file(file)), None)
