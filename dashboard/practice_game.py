"""The Play and Enter pages' tables and hands in progress, kept in the browser session
between runs (classes of their own module: a page's script is run afresh each time, so a class
defined there would be a new class on every run)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ofc_core.hand import HandRecord
from ofc_core.live_entry import LiveHand
from ofc_core.play.engine import Placement, Table
from ofc_core.play.practice import Seating, practice_table
from ofc_core.rules import PRESETS


@dataclass(frozen=True)
class Game:
    """The table and where its current hand stands (kept in the session)."""

    variant: str
    bots: tuple[str, ...]
    person: str
    session_id: str
    seed: int
    number: int = 1
    seating: Seating = Seating(0, ())
    decided: tuple[Placement, ...] = ()
    results: tuple[tuple[str, float], ...] = field(default=())
    """Hands finished in this session: hand id and your points."""

    @property
    def hand_id(self) -> str:
        return f"{self.session_id}-{self.number:04d}"

    def table(self) -> Table:
        return practice_table(PRESETS[self.variant], self.person, self.bots, self.decided)


@dataclass(frozen=True)
class LiveTable:
    """The Enter page's table, chosen once per session: where (the source), the variant and
    its rules, the players in seat order, the stake, who you are; the hand being entered and
    the hands stored so far (for the export)."""

    source: str
    variant: str
    rules: tuple[tuple[str, object], ...]
    names: tuple[str, ...]
    session_id: str
    stake: float | None = None
    currency: str | None = None
    hero: str | None = None
    hand: LiveHand | None = None
    number: int = 1
    button: int = 0
    stored: tuple[HandRecord, ...] = ()

    @property
    def hand_id(self) -> str:
        return f"{self.session_id}-{self.number}"
