"""The Play page's table and hand in progress, kept in the browser session between runs (a
class of its own module: the page's script is run afresh each time, so a class defined there
would be a new class on every run)."""

from __future__ import annotations

from dataclasses import dataclass, field

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
