"""SwC's vocabulary as FPDB's captures write it, and one hand as a capture saw it.

- Game codes (``gt``): :data:`GAMES`, :func:`code_variant`.
- Cards: an id (rank x 4 + suit, suits c d h s, ranks 2..A: our card index) or FPDB's text
  (``Ah``, ``10c``). An id outside 0..51 is a **face-down card** (the web client draws a card
  back: an opponent's cards in hand, a Fantasyland board before the showdown); FPDB writes it
  ``--``, as it writes an empty slot. SwC deals no jokers (no game code has them), so an id
  52 or 53 is never a joker here.
- A seat's cards ``d``: :func:`seat_cards`.
- The room's money messages: :func:`money_won`.

>>> [code_variant(c) for c in (70, 73, 74, 75)]
['regular', 'turbo', 'pineapple', 'progressive-pineapple']
>>> code_variant(84)
Traceback (most recent call last):
...
ingest.formats.swc.capture.Refused: SwC game code 84 (OFC Variant) is a variant table whose \
rules are not known; its hands are not imported
>>> swc_card("10c"), swc_card(51), swc_card(52), swc_card("--")
(Card('Tc'), Card('As'), None, None)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ofc_core.cards import Card

SOURCE = "swc"
SITE = "SealsWithClubs"

GAMES: Mapping[int, tuple[str, str | None]] = {
    70: ("OFC", "regular"),
    73: ("Turbo OFC", "turbo"),
    74: ("OFC/P", "pineapple"),
    75: ("OFC/P Progressive", "progressive-pineapple"),
    76: ("OFC/P 2-7", "2-7-pineapple"),
    77: ("OFC/P Variant", None),
    84: ("OFC Variant", None),
}
"""SwC's OFC game codes (``gt``): the table's label as FPDB names it, and our preset (``None``:
a variant table whose rules nobody has written down; refused)."""

CODE_OF_LABEL = {label: code for code, (label, _) in GAMES.items()}
ROW_KEYS = ("top", "middle", "bottom")
_MONEY = re.compile(r"<money\s+([^>]*)>")
_ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


class Refused(ValueError):
    """A hand (or table) this reader will not import, with the reason."""


def code_variant(code: int) -> str:
    """Our preset for SwC game code ``code`` (raises :class:`Refused` for variant tables and
    for codes that are not OFC)."""
    if code not in GAMES:
        raise Refused(f"SwC game code {code} is not an OFC table; its hands are not imported")
    label, variant = GAMES[code]
    if variant is None:
        raise Refused(f"SwC game code {code} ({label}) is a variant table whose rules are not "
                      "known; its hands are not imported")
    return variant


def swc_card(value: Any) -> Card | None:
    """A card as SwC's frames (an id) or FPDB's files (``Ah``, ``10c``) write it; ``None`` for
    a face-down card (an id outside 0..51, FPDB's ``--``) or an empty slot. Raises
    :class:`Refused` for anything else."""
    if value is None or value in ("--", ""):
        return None
    if isinstance(value, bool):
        raise Refused(f"{value!r} is not a card")
    if isinstance(value, int) or (isinstance(value, str) and value.lstrip("-").isdigit()):
        number = int(value)
        return Card.from_index(number) if 0 <= number <= 51 else None
    if not isinstance(value, str):
        raise Refused(f"{value!r} is not a card")
    try:
        return Card.parse(value)
    except ValueError as exc:
        raise Refused(str(exc)) from None


def known(values: Iterable[Any] | None) -> tuple[Card, ...]:
    """The cards of a list that can be seen (face-down cards and empty slots left out)."""
    return tuple(c for c in map(swc_card, values or ()) if c is not None)


def face_down(values: Iterable[Any] | None) -> int:
    """How many ids of a list are face-down cards (outside 0..51)."""
    return sum(1 for v in values or () if isinstance(v, int) and not 0 <= v <= 51)


@dataclass(frozen=True, slots=True)
class Seen:
    """One player's cards in one snapshot: the three rows (the cards that can be seen), the
    cards still in hand, and how many cards lie face down in the rows."""

    rows: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    active: tuple[Card, ...] = ()
    hidden: int = 0

    @property
    def placed(self) -> frozenset[Card]:
        return frozenset(self.rows[0] + self.rows[1] + self.rows[2])


def seat_cards(text: Any) -> Seen | None:
    """A seat's ``d`` string: ``"0;1;2;3;4-1-2-2"`` is 2c on top, 2d 2h in the middle, 2s 3c
    at the bottom; ids after the counted ones are still in hand; ids outside 0..51 are face
    down. ``None`` when it holds no cards (a snapshot that leaves this seat out).

    >>> seat_cards("0;1;2;3;4;51-1-2-2")
    Seen(rows=((Card('2c'),), (Card('2d'), Card('2h')), (Card('2s'), Card('3c'))), \
active=(Card('As'),), hidden=0)
    >>> seat_cards("52;52;52;7-1-1-1").hidden, seat_cards("9;52;52-1-0-0").active
    (3, ())
    """
    if not isinstance(text, str) or not text.split("-")[0]:
        return None
    parts = text.split("-")
    try:
        ids = [int(x) for x in parts[0].split(";") if x]
        counts = [int(n) for n in parts[1:4]]
    except ValueError:
        raise Refused(f"a seat's cards {text[:60]!r} are not SwC card ids") from None
    if len(counts) < 3:
        return Seen(((), (), ()), known(ids))
    top, middle, bottom = counts
    rows = (ids[:top], ids[top:top + middle], ids[top + middle:top + middle + bottom])
    return Seen((known(rows[0]), known(rows[1]), known(rows[2])),
                known(ids[top + middle + bottom:]), sum(face_down(r) for r in rows))


def money_won(events: Iterable[Any], names: Mapping[int, str]
              ) -> list[tuple[str, float, str | None]]:
    """(player, amount won, unit) of the winners' table messages
    (``<nick s="0">ann</nick> wins <money a="500" mt="R">5</money>``: 500 hundredths of R)."""
    out = []
    for event in events:
        if not isinstance(event, dict) or "wins" not in str(event.get("table-msg", "")):
            continue
        found = _MONEY.search(str(event["table-msg"]))
        attributes = dict(_ATTRIBUTE.findall(found.group(1))) if found else {}
        seat = event.get("seat-idx")
        name = names.get(seat) if isinstance(seat, int) else None
        if name is not None and re.fullmatch(r"-?\d+", attributes.get("a", "")):
            out.append((name, int(attributes["a"]) / 100, attributes.get("mt")))
    return out


@dataclass
class Capture:
    """A hand gathered from one of FPDB's shapes, before it becomes a record."""

    hand_id: str
    line: int
    raw: str
    game: int | str | None
    """The SwC game code, or FPDB's category (``ofc``, ``ofcp``, ``ofcp_27``) when the code is
    not kept."""
    players: list[tuple[str, int]] = field(default_factory=list)
    """(name, seat index) in seat order."""
    dealer: int | None = None
    table: str | None = None
    played_at: str | None = None
    snapshots: list[dict[str, Seen]] = field(default_factory=list)
    points: dict[str, float] | None = None
    money: list[tuple[str, float, str | None]] = field(default_factory=list)
    """(player, amount won, unit) from the room's money messages."""
    finished: bool = False
    problems: list[str] = field(default_factory=list)
    """Frames of this hand that could not be read (``line N: why``): the hand is refused."""
    followed_by: str | None = None
    """Where its table went on to another hand before this one's showdown (``hand G at line
    N``): the capture lost its end, it is not still being written."""
    stacks: dict[str, float] = field(default_factory=dict)
    """Each player's chips at the table when the hand began, in the money unit (the seats'
    ``c`` / 100 of the hand's first frame; FPDB's ``starting_stack``, ``startStack``)."""
    currency: str | None = None
    """The money unit the log names for the table (a hand file's ``gametype.currency``, e.g.
    ``mBTC``), used when no money message gives one."""


def stack_of(value: Any) -> float | None:
    """A stack in the money unit, ``None`` when it is not a positive number."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        return None
    return float(value)
