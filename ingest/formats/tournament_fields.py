"""The tournament parts of our JSON formats, read and written: a hand's ``tournament`` object
(ofc-hh/1, docs/format.md "Tournaments") and the summary record ``ofc-tournament/1``
(:mod:`ingest.formats.ofc_tournament`). Every problem is a ``ValueError`` whose text names the
field; the caller adds the hand or the record.

>>> t = tournament_from_dict({"id": "wk49", "kind": "chips", "level": 2,
...                           "chips_per_point": 20})
>>> t.kind, t.level, t.chips_per_point
(<Kind.CHIPS: 'chips'>, 2, 20.0)
>>> tournament_to_dict(t)
{'id': 'wk49', 'kind': 'chips', 'level': 2, 'chips_per_point': 20}
>>> tournament_from_dict({"id": "x", "kind": "sng"})
Traceback (most recent call last):
...
ValueError: tournament.kind: unknown kind 'sng' (one of chips, knockout)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ofc_core.tournament import KINDS, Kind, TournamentHand

TOURNAMENT_KEYS = ("id", "name", "kind", "level", "chips_per_point", "table", "round")
"""A hand's ``tournament`` object's keys, in the order the writer emits them."""


def json_type(value: Any) -> str:
    """How a JSON value is named in messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


def check_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(obj) - set(allowed))
    if unknown:
        raise ValueError(f"{where}unknown key{'s' * (len(unknown) > 1)} "
                         f"{', '.join(map(repr, unknown))} (known: {', '.join(allowed)})")


def text(obj: Mapping[str, Any], key: str, where: str, required: bool = False) -> str | None:
    """A non-empty string field (``None`` when absent or null and not ``required``)."""
    value = obj.get(key)
    if value is None:
        if required:
            raise ValueError(f"{where}missing required field {key!r}")
        return None
    if not isinstance(value, str):
        raise ValueError(f"{where}{key}: expected a string, got {json_type(value)}")
    if not value.strip():
        raise ValueError(f"{where}{key}: must not be empty")
    return value


def number(obj: Mapping[str, Any], key: str, where: str, least: float | None = 0.0,
           ) -> float | None:
    """A number field, at least ``least`` (``None`` when absent or null)."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{where}{key}: expected a number, got {json_type(value)}")
    if least is not None and value < least:
        raise ValueError(f"{where}{key}: must be {least:g} or more, got {value}")
    return float(value)


def whole(obj: Mapping[str, Any], key: str, where: str, least: int = 1) -> int | None:
    """A whole-number field, at least ``least`` (``None`` when absent or null)."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}{key}: expected a whole number, got {json_type(value)}")
    if value < least:
        raise ValueError(f"{where}{key}: must be {least} or more, got {value}")
    return value


def kind(obj: Mapping[str, Any], where: str) -> Kind:
    value = text(obj, "kind", where, required=True)
    if value not in KINDS:
        raise ValueError(f"{where}kind: unknown kind {value!r} (one of {', '.join(KINDS)})")
    return Kind(value)


def tournament_from_dict(value: Any) -> TournamentHand:
    """A hand's ``tournament`` object."""
    where = "tournament."
    if not isinstance(value, dict):
        raise ValueError(f"tournament: expected an object, got {json_type(value)}")
    check_keys(value, TOURNAMENT_KEYS, "tournament: ")
    per_point = number(value, "chips_per_point", where)
    if per_point is not None and per_point <= 0:
        raise ValueError("tournament.chips_per_point: must be more than 0")
    tid = text(value, "id", where, required=True)
    assert tid is not None
    return TournamentHand(tid, kind(value, where), text(value, "name", where),
                          whole(value, "level", where), per_point,
                          text(value, "table", where), whole(value, "round", where))


def plain(value: float) -> int | float:
    """A whole number written without its ``.0`` (``20.0`` -> ``20``)."""
    return int(value) if float(value).is_integer() else value


def tournament_to_dict(t: TournamentHand) -> dict[str, Any]:
    out: dict[str, Any] = {"id": t.id}
    if t.name is not None:
        out["name"] = t.name
    out["kind"] = t.kind.value
    for key in ("level", "chips_per_point", "table", "round"):
        value = getattr(t, key)
        if value is not None:
            out[key] = plain(value) if key == "chips_per_point" else value
    return out


def stack_points(t: TournamentHand | None, chips: Any, where: str) -> float | None:
    """A player's ``stack`` (chips before the hand) in points, the unit table stakes settle
    in (``hand_players.stack``): chips / the chips a point is worth."""
    if chips is None:
        return None
    if isinstance(chips, bool) or not isinstance(chips, int | float):
        raise ValueError(f"{where}stack: expected a number of chips, got {json_type(chips)}")
    if t is None or not t.chips_per_point:
        raise ValueError(f"{where}stack: chips need the hand's tournament with its "
                         "chips_per_point")
    if chips < 0:
        raise ValueError(f"{where}stack: must be 0 or more, got {chips}")
    return t.points(float(chips))


NOTATION_KEYS = {"id": "id", "name": "name", "kind": "kind", "level": "level",
                 "per_point": "chips_per_point", "chips_per_point": "chips_per_point",
                 "table": "table", "round": "round"}
"""The live notation's ``@tournament`` keys (docs/format-live-csv.md) -> the ofc-hh/1 keys."""


def _notation_value(key: str, text: str) -> Any:
    if key in ("level", "round"):
        if not text.isdigit():
            raise ValueError(f"{key}={text}: expected a whole number")
        return int(text)
    if key == "chips_per_point":
        try:
            return float(text.replace(",", "."))
        except ValueError:
            raise ValueError(f"per_point={text}: expected a number of chips") from None
    return text


def tournament_pairs(text: str) -> dict[str, Any]:
    """``key=value`` pairs of the live notation (``@tournament``, a hand header) as the
    ofc-hh/1 ``tournament`` object's keys; a value with spaces is quoted.

    >>> tournament_pairs('id=wk49 kind=chips name="Weekly Thursday" level=2 per_point=15')
    {'id': 'wk49', 'kind': 'chips', 'name': 'Weekly Thursday', 'level': 2, 'chips_per_point': 15.0}
    """
    out: dict[str, Any] = {}
    for m in re.finditer(r'(\w+)\s*=\s*(?:"([^"]*)"|(\S+))|(\S+)', text):
        key, quoted, plain_value, stray = m.groups()
        if stray is not None:
            raise ValueError(f"unexpected {stray!r} (write key=value)")
        name = NOTATION_KEYS.get(key.lower())
        if name is None:
            raise ValueError(f"unknown key {key!r} (one of id, kind, name, level, per_point, "
                             "table, round)")
        out[name] = _notation_value(name, quoted if quoted is not None else plain_value)
    return out
