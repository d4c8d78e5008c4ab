"""Names for codes the store keeps: each room (``hands.source``) and each money unit
(``hands.currency``) in words, for pages and the ``ofc`` command's text.

Each format module keeps the names of its own rooms and units beside its reader
(``ROOM_NAMES``, ``CURRENCY_NAMES``, ``PLAY_MONEY_ROOMS`` in ``ingest/formats/<name>.py``);
this module gathers them. A room no format names is shown by its code; a unit no format names
is shown as it is written (``EUR``), and a hand without one is ``unknown``, or ``play money``
in a room whose chips are play money.

>>> room_name("swc"), room_name("my-home-game")
('Seals with Clubs', 'my-home-game')
>>> currency_name("mBTC"), currency_name("EUR"), currency_name(None)
('mBTC (millibitcoin)', 'EUR', 'unknown')
>>> currency_name(None, "pineapple-app")
'play money'
"""

from __future__ import annotations

import importlib
from functools import cache

from .formats import FORMAT_MODULES

UNKNOWN_CURRENCY = "unknown"
PLAY_MONEY = "play money"


def _gathered(attribute: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in FORMAT_MODULES:
        out.update(getattr(importlib.import_module(f"ingest.formats.{name}"), attribute, {}))
    return out


@cache
def room_names() -> dict[str, str]:
    """Every room a format names: ``{"swc": "Seals with Clubs", ...}``."""
    return _gathered("ROOM_NAMES")


@cache
def currency_names() -> dict[str, str]:
    """Every money unit a format names: ``{"mBTC": "mBTC (millibitcoin)", ...}``."""
    return _gathered("CURRENCY_NAMES")


@cache
def play_money_rooms() -> frozenset[str]:
    rooms: set[str] = set()
    for name in FORMAT_MODULES:
        module = importlib.import_module(f"ingest.formats.{name}")
        rooms.update(getattr(module, "PLAY_MONEY_ROOMS", ()))
    return frozenset(rooms)


def room_name(source: str | None) -> str:
    """The room's name in words (its code when no format names it)."""
    if not source:
        return "unknown room"
    return room_names().get(source, source)


def currency_name(code: str | None, source: str | None = None) -> str:
    """The money unit in words: the room's own name for it where a format gives one, the code
    as written otherwise; without a code, ``play money`` in a play-money room, else
    ``unknown``."""
    if code:
        return currency_names().get(code, code)
    return PLAY_MONEY if source in play_money_rooms() else UNKNOWN_CURRENCY
