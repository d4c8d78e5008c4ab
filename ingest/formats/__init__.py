"""Log formats: one module per format, detected automatically.

Every format module defines a :class:`Format` object named ``FORMAT``; :data:`REGISTRY` lists
them in detection order. A parser never scores and never raises on a bad hand: it yields a
:class:`ParsedHand` for each good hand and a :class:`ParseIssue` for each bad or truncated one,
so one bad hand never stops a file.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from ofc_core.hand import HandRecord


@dataclass(frozen=True, slots=True)
class ParsedHand:
    record: HandRecord
    line: int
    """1-based line where the hand starts in the file."""
    raw: str
    """The hand's own text, kept verbatim in the store."""


@dataclass(frozen=True, slots=True)
class ParseIssue:
    line: int
    hand_id: str | None
    message: str
    raw: str = ""
    partial: bool = False
    """A truncated last hand (a file still being written): reported, not an error."""


class Format(Protocol):
    name: str
    version: str

    def sniff(self, text: str, filename: str) -> bool:
        """True if ``text`` looks like this format (cheap: looks at the first lines)."""
        ...

    def parse(self, text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
        ...


FORMAT_MODULES = ("ofc_hh", "live", "csv_boards")
"""Detection order (modules of this package, imported on first use: they import this one)."""


def registry() -> list[Format]:
    return [importlib.import_module(f"ingest.formats.{name}").FORMAT for name in FORMAT_MODULES]


def detect(text: str, filename: str) -> Format | None:
    """The first registered format whose ``sniff`` accepts the text."""
    return next((f for f in registry() if f.sniff(text, filename)), None)
