"""Hand records written in the live notation, ``ofc-live/1`` (docs/format-live-csv.md): the
Enter page stores a hand by importing this text, and exports it.

Each hand is a ``hand`` header (its id, button, time, variant, session, stake, hero, rules),
then a line per player, the board in the compact form, ``FL13``.. for a Fantasyland hand, and
its ``streets:`` in order (``x:`` the discard where it was seen). Reading the text back
(:mod:`ingest.formats.live`) gives the same records.

>>> from ofc_core.cards import parse_cards
>>> from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay, board_from_streets
>>> s = (StreetPlay(bottom=parse_cards("Ah Kd"), middle=parse_cards("2c 3c 4c"),
...                 dealt=parse_cards("Ah Kd 2c 3c 4c")),)
>>> p = PlayerRecord("Dr: Who", 0, board_from_streets(s), s)
>>> print(live_text([HandRecord("home", "7", "regular", (p,), button="Dr: Who")]))
@source home
<BLANKLINE>
hand 7 button="Dr: Who" variant=regular
"Dr: Who": -2c3c4c-AhKd
  streets: m:2c3c4c b:AhKd
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ofc_core.cards import BoardCard
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be written as a player of the notation (``None``: it can).

    >>> name_problem("Анна Мария"), name_problem('say "hi"')
    (None, 'a name cannot hold a double quote (")')
    """
    if not name.strip():
        return "a name cannot be empty"
    if '"' in name:
        return 'a name cannot hold a double quote (")'
    if "\n" in name or "\r" in name or " #" in name:
        return "a name cannot hold a line break or ' #' (a comment)"
    return None


def _name(name: str) -> str:
    """A player's name as a line starts with it: quoted when it holds ``:`` or starts with
    ``#``, ``@``, ``"`` or the word ``hand``."""
    if ":" in name or name[:1] in "#@\"" or name.lower().startswith("hand"):
        return f'"{name}"'
    return name


def _cards(cards: Sequence[BoardCard]) -> str:
    return "".join(str(c) for c in cards)


def _street(s: StreetPlay) -> str:
    parts = [f"{label}:{_cards(cards)}" for label, cards in
             (("t", s.top), ("m", s.middle), ("b", s.bottom)) if cards]
    if s.discard:
        parts.append(f"x:{_cards(s.discard)}")
    return " ".join(parts)


def _player(p: PlayerRecord) -> list[str]:
    board = f"{_cards(p.board.top)}-{_cards(p.board.middle)}-{_cards(p.board.bottom)}"
    flags = f"  FL{p.fl_dealt}" if p.fantasyland and p.fl_dealt else ("  FL" if p.fantasyland
                                                                       else "")
    points = "" if p.reported_points is None else f"  {p.reported_points:+g}"
    lines = [f"{_name(p.name)}: {board}{flags}{points}"]
    if p.streets:
        lines.append("  streets: " + " | ".join(_street(s) for s in p.streets))
    return lines


def _value(value: Any) -> str:
    return f'"{value}"' if " " in str(value) else str(value)


def _header(r: HandRecord) -> str:
    keys: list[tuple[str, Any]] = [("button", r.button), ("time", r.played_at),
                                   ("variant", r.variant), ("session", r.session_id),
                                   ("hero", r.hero)]
    if r.stake is not None:
        keys.append(("stake", f"{r.stake:g} {r.currency or ''}".strip()))
    text = " ".join([f"hand {r.hand_id}"] + [
        f'{k}="{v}"' if k in ("button", "hero") else f"{k}={_value(v)}"
        for k, v in keys if v is not None])
    if r.rules:
        text += " [rules: " + ", ".join(f"{k}={'none' if v is None else v}"
                                        for k, v in r.rules.items()) + "]"
    return text


def live_text(records: Sequence[HandRecord]) -> str:
    """The hands as ``ofc-live/1`` text (an ``@source`` line wherever the source changes)."""
    lines: list[str] = []
    source = None
    for r in records:
        if r.source != source:
            lines += [f"@source {r.source}", ""]
            source = r.source
        lines += [_header(r), *(x for p in r.players for x in _player(p)), ""]
    return "\n".join(lines)
