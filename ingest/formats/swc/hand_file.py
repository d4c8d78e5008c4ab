"""``hand_<id>.json``: FPDB's envelope of one hand (``JsonHandArchive.write_hand``).

FPDB writes it when the hand's showdown arrives (``ss.hc``, or ``ts`` 0 after a few steps) or
when its table goes on to another hand without one (then ``showdown`` is ``null``). Fields read:
``hand_id``, ``game.label`` (mapped back to the game code; else ``game.category``),
``table_id``, ``timestamp`` (the capture time of the hand's first frame), ``dealer_idx``,
``players[]`` (``name``, ``seat_idx``), ``steps[].placed[name]`` (``top``/``middle``/``bottom``
padded with ``--``, ``active``: one snapshot each), ``showdown.points_settled`` and the
winners' money messages in ``swc_events[].event`` (repeated there when a frame was sent
again: counted once). A face-down card is ``--`` in these files, like an empty slot.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from .. import ParsedHand, ParseIssue
from .capture import (
    CODE_OF_LABEL,
    ROW_KEYS,
    Capture,
    Refused,
    Seen,
    known,
    money_won,
    stack_of,
)
from .record import items


def _step_snapshot(step: Any) -> dict[str, Seen]:
    snapshot: dict[str, Seen] = {}
    placed = step.get("placed") if isinstance(step, dict) else None
    for name, rows in (placed or {}).items():
        if not isinstance(rows, dict):
            continue
        top, middle, bottom = (known(rows.get(k)) for k in ROW_KEYS)
        snapshot[str(name)] = Seen((top, middle, bottom), known(rows.get("active")))
    return snapshot


def _envelope_game(data: Mapping[str, Any]) -> int | str | None:
    game = data.get("game") or {}
    label = game.get("label") if isinstance(game, dict) else None
    if label in CODE_OF_LABEL:
        return CODE_OF_LABEL[label]
    if isinstance(game, dict) and game.get("base") not in (None, "ofc"):
        raise Refused(f"not an OFC hand ({label or game.get('base')})")
    return (game.get("category") if isinstance(game, dict) else None) or \
        (data.get("ofc_variant") or {}).get("variant")


def _currency(data: Mapping[str, Any]) -> str | None:
    """The table's money unit as FPDB's hand file names it (``gametype.currency``)."""
    gametype = data.get("gametype")
    unit = gametype.get("currency") if isinstance(gametype, dict) else None
    return unit.strip() if isinstance(unit, str) and unit.strip() else None


def _unique(won: list[tuple[str, float, str | None]]) -> list[tuple[str, float, str | None]]:
    return list(dict.fromkeys(won))


def capture_of_envelope(data: Mapping[str, Any], raw: str) -> Capture:
    """The capture held by one of FPDB's ``hand_<id>.json`` files."""
    hand_id = str(data.get("hand_id"))
    players = [(str(p.get("name")), int(p["seat_idx"])) for p in data.get("players") or []
               if isinstance(p, dict) and p.get("seat_idx") is not None]
    capture = Capture(hand_id, 1, raw, _envelope_game(data), players, data.get("dealer_idx"),
                      None if data.get("table_id") is None else str(data.get("table_id")),
                      data.get("timestamp"))
    capture.stacks = {str(p.get("name")): chips for p in data.get("players") or []
                      if isinstance(p, dict)
                      and (chips := stack_of(p.get("starting_stack"))) is not None}
    capture.currency = _currency(data)
    capture.snapshots = [s for s in map(_step_snapshot, data.get("steps") or []) if s]
    # a seat whose rows and hand stay empty (sitting out, or its cards all face down: "--")
    # is in the hand once its cards show
    showdown = data.get("showdown")
    if isinstance(showdown, dict):
        capture.finished = True
        capture.points = {str(k): float(v) for k, v in
                          (showdown.get("points_settled") or {}).items()}
    else:
        capture.followed_by = "another hand: FPDB wrote this file without a showdown"
    names = {seat: name for name, seat in players}
    capture.money = _unique(money_won([e.get("event") for e in data.get("swc_events") or []
                                       if isinstance(e, dict)], names))
    return capture


def parse_hand_file(text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
    """The hand of one ``hand_<id>.json``."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        yield ParseIssue(1, None, f"not JSON ({exc}); FPDB may still be writing it", text,
                         partial=True)
        return
    if not isinstance(data, dict):
        yield ParseIssue(1, None, "not one of FPDB's hand files (not a JSON object)", text)
        return
    try:
        capture = capture_of_envelope(data, text)
    except (Refused, ValueError, TypeError) as exc:
        yield ParseIssue(1, str(data.get("hand_id")), f"hand {data.get('hand_id')!r}: {exc}",
                         text)
        return
    yield from items([capture])
